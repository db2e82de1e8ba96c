/* bpetrain.h - training a byte-level BPE vocabulary (GPT-2 style).
 *
 * Text is pre-tokenised exactly as the encoder does (pretok.h; invalid UTF-8
 * becomes U+FFFD first) and the pieces are counted. Training then repeats:
 * take the most frequent adjacent pair of symbols over all pieces (weighted by
 * their counts; ties go to the pair with the smaller ids, so the result is
 * deterministic), make it a new token, replace it in every piece containing
 * it. Pair counts are updated incrementally, only in the pieces that contain
 * the merged pair; a lazy max-heap finds the next pair.
 *
 * Output: encoder.json (the 256 byte tokens in GPT-2's order, then one token
 * per merge, then <|endoftext|>) and vocab.bpe ("#version: 0.2" + merges),
 * which bpe_load() and Hugging Face's GPT2Tokenizer both load.
 */
#ifndef TOKENIZER_BPETRAIN_H
#define TOKENIZER_BPETRAIN_H
#include <stddef.h>
#include <stdint.h>

typedef struct bpetrain bpetrain;

bpetrain *bpetrain_new(void);
void bpetrain_free(bpetrain *t);
/* Count the pieces of text (not thread-safe on one object: use one object per
 * thread and bpetrain_absorb()). */
int bpetrain_add_text(bpetrain *t, const char *text, size_t n);
/* Add src's piece counts into dst (src is left empty). */
int bpetrain_absorb(bpetrain *dst, bpetrain *src);
uint64_t bpetrain_pieces(const bpetrain *t);       /* pieces counted */
uint64_t bpetrain_unique_pieces(const bpetrain *t);

/* Learn up to n_merges merges; pairs seen fewer than min_freq times are not
 * merged. verbose: print a progress line to stderr now and then. */
int bpetrain_run(bpetrain *t, size_t n_merges, uint64_t min_freq, int verbose);
size_t bpetrain_n_merges(const bpetrain *t);
/* Write the vocabulary (atomically). */
int bpetrain_write(const bpetrain *t, const char *encoder_json, const char *vocab_bpe);

#endif

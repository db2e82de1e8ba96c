/* bpe.h - the tokenizer interface: encode, decode, vocabulary size, special
 * tokens, EOD/BOS ids, for every family the tools know (Megatron's
 * --tokenizer-type names):
 *   GPT2BPETokenizer                 encoder.json + vocab.bpe (this file's loader);
 *   TikTokenizer                     .tiktoken files: cl100k, o200k, Llama 3, Qwen2 (tiktoken.c);
 *   HuggingFaceTokenizer             tokenizer.json, byte-level BPE (hftok.c);
 *   SentencePieceTokenizer, GPTSentencePieceTokenizer, Llama2Tokenizer
 *                                    SentencePiece .model, BPE type (spm.c);
 *   NullTokenizer                    the text is already ids (tokcli.c).
 * They share one BPE merge core (below) through bpe_int.h; tokcli.h opens
 * the right one from the command line's flags.
 *
 * The GPT-2 family:
 *
 * Loads the GPT-2 files: encoder.json (token string -> id, strings written in
 * the bytes_to_unicode alphabet) and vocab.bpe (merges, lowest line = highest
 * priority). Encoding is GPT-2's: pre-tokenise (pretok.h), then per piece
 * apply merges lowest rank first, leftmost on ties; a piece that is a whole
 * token is that token (tiktoken's shortcut, which gives the same ids).
 * Pieces are merged with an array scan when short and with a heap over a
 * linked list when long, so encoding is O(n log n) in the worst case.
 *
 * Invalid UTF-8 in the input is replaced first by U+FFFD, one per maximal
 * invalid subpart, as Python's bytes.decode("utf-8", "replace") does (and as
 * tiktoken does for lone surrogates). `<|endoftext|>` in text is ordinary
 * text; the EOD id is only ever appended by the caller.
 *
 * A `bpe` is immutable once loaded and may be shared by threads; each thread
 * encodes with its own bpe_ctx (scratch buffers).
 */
#ifndef TOKENIZER_BPE_H
#define TOKENIZER_BPE_H
#include <stddef.h>
#include <stdint.h>

typedef struct bpe bpe;
typedef struct bpe_ctx bpe_ctx;

typedef struct {
    uint32_t *v;
    size_t n, cap;
} bpe_ids;

/* Load encoder.json and vocab.bpe. On error returns ERR_* with err_msg()
 * naming the file and the entry or line. */
int bpe_load(bpe **out, const char *encoder_json, const char *vocab_bpe);
void bpe_free(bpe *b);

/* Megatron's tokenizer.vocab_size: what the model's embedding must hold
 * before padding (entries in encoder.json for GPT-2; every id otherwise). */
size_t bpe_vocab_size(const bpe *b);
size_t bpe_n_ids(const bpe *b);        /* largest id + 1 */
int64_t bpe_bos(const bpe *b);        /* beginning-of-text id, or -1 */
const char *bpe_type(const bpe *b);   /* the --tokenizer-type it was opened as */
/* decode(encode(x)) == x for valid UTF-8 x (not SentencePiece, NFC or Null) */
int bpe_lossless(const bpe *b);
/* A special/control token (never produced from ordinary text by tiktoken;
 * skipped by decoders that skip specials). */
int bpe_token_is_special(const bpe *b, uint32_t id);
size_t bpe_n_merges(const bpe *b);
int64_t bpe_eod(const bpe *b);        /* the end-of-document id (<|endoftext|>, </s>...), or -1 */
/* The bytes of token id (NULL if no such id). */
const char *bpe_token_bytes(const bpe *b, uint32_t id, size_t *len);
/* Token id of an exact byte string, or -1. */
int64_t bpe_lookup(const bpe *b, const char *s, size_t n);

bpe_ctx *bpe_ctx_new(const bpe *b);
void bpe_ctx_free(bpe_ctx *c);

/* Append the ids of text[0..n) to out. Returns 0 or ERR_NOMEM. */
int bpe_encode(bpe_ctx *c, const char *text, size_t n, bpe_ids *out);
/* Whether text[0..n) encodes to at least k ids (*yes), as bpe_encode counts them;
 * the encoding stops once k ids are out. 0 or ERR_NOMEM. */
int bpe_count_at_least(bpe_ctx *c, const char *text, size_t n, size_t k, int *yes);
/* The ids of one piece, as produced by pretok (for tests and training). */
int bpe_encode_piece(bpe_ctx *c, const unsigned char *piece, size_t n, bpe_ids *out);
/* Force the heap (long-piece) algorithm on every piece: tests only. */
void bpe_ctx_force_heap(bpe_ctx *c, int on);
/* Split with PCRE2 even where a hand-written splitter exists: tests only. */
void bpe_ctx_force_regex(bpe_ctx *c, int on);
/* Use the piece cache from the first piece (it starts after a few thousand):
 * tests only. */
void bpe_ctx_cache_now(bpe_ctx *c);

/* Append the bytes of ids to (*buf, *len, *cap) (realloc'd). Unknown ids are
 * ERR_FORMAT. */
int bpe_decode(const bpe *b, const uint32_t *ids, size_t n, char **buf, size_t *len, size_t *cap);
/* The same for ids that continue a text already decoded (streaming): no
 * start-of-text rule (SentencePiece drops the first piece's leading space). */
int bpe_decode_more(const bpe *b, const uint32_t *ids, size_t n, int continuing, char **buf, size_t *len, size_t *cap);

/* Write a byte-level BPE tokenizer (GPT-2, tiktoken, tokenizer.json
 * families) as a Hugging Face tokenizer.json (hfwrite.c), atomically. */
int bpe_write_tokenizer_json(const bpe *b, const char *path);
/* The file it was loaded from. */
const char *bpe_file(const bpe *b);

int bpe_ids_push(bpe_ids *o, uint32_t id);
void bpe_ids_free(bpe_ids *o);

/* GPT-2's bytes_to_unicode(): the code point that stands for byte b in the
 * vocabulary files, and the inverse (-1 if cp stands for no byte). */
uint32_t bpe_byte_to_cp(unsigned b);
int bpe_cp_to_byte(uint32_t cp);

#endif

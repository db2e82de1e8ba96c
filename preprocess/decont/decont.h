/* decont.h - decontamination against evaluation sets: the sets' word n-grams in a table,
 * and each training document checked against it, two ways.
 *
 *   DECONT_CUT   GPT-3's method as lm-evaluation-harness keeps it (its Janitor class):
 *                words are the text's runs of non-space (Python's str.split), normalized by
 *                lowercasing ASCII and deleting ASCII punctuation (string.punctuation); a
 *                match of n such words is cut out with `window` characters (code points) on
 *                each side; the pieces left shorter than `min_piece` go too; a document with
 *                more than `max_matches` matching n-grams is dropped whole. Janitor's
 *                _split_chunks to the character, quirks included (a middle piece starts at a
 *                cut's end, the last one a character after it), but for one: a document
 *                without a match passes unchanged (Janitor returns nothing for one under
 *                `min_piece` characters).
 *   DECONT_DROP  datatrove's NGramsDecontFilter: the text simplified as its simplify_text
 *                does (Python's lower(), digits to 0, its punctuation to spaces, white space
 *                runs to one, NFD without nonspacing marks), split into words by spaCy's
 *                English tokenizer (preprocess/text/spacy_tok.c), and the document dropped at
 *                its first n-gram (words joined by a space, XXH64) in the table. The table
 *                holds, as datatrove's NGramsDecontIndexer, each answer's n-grams and those
 *                that straddle the end of its context and the start of the answer (and the
 *                context's own with query_ngrams).
 *
 * Cut's table holds the n-grams of each item's context and answer as one text (context,
 * a space, answer), as Janitor registers a contaminant string. Each n-gram is a 64-bit
 * hash with the item it came from (the first to register it): 16 bytes a slot, at most
 * half full (32 to 64 bytes a million n-grams... see decont_bytes). */
#ifndef PREPROCESS_DECONT_DECONT_H
#define PREPROCESS_DECONT_DECONT_H

#include <stddef.h>
#include <stdint.h>

#include "preprocess/decont/evalset.h"

enum { DECONT_CUT = 0, DECONT_DROP = 1 };

typedef struct {
    int mode, n;
    int window, min_piece, max_matches; /* cut: Janitor's 200, 200, 10 */
    int query_ngrams;                   /* drop: the context's own n-grams too */
} decont_cfg;

typedef struct decont decont;
typedef struct decont_ctx decont_ctx; /* per thread: scratch */

/* A match: the item it came from (index into the eval set) and where it is in the
 * document's text (bytes of the n-gram's words). */
typedef struct {
    uint32_t item;
    uint32_t start, end;
} decont_hit;

typedef struct {
    decont_hit *hits;   /* cut: every matching n-gram (at most max_matches + 1); drop: the first */
    size_t nhits, hcap;
    uint32_t *pieces;   /* cut: the kept pieces, [pieces[2i], pieces[2i + 1]) bytes */
    size_t npieces, pcap;
    int too_dirty;      /* cut: more matches than max_matches */
    char *ngram;        /* drop: the matching n-gram, as datatrove records it */
    size_t ngram_cap;
} decont_result;

int decont_new(decont **out, const decont_cfg *cfg);
void decont_free(decont *d);
/* Register every item of the set. */
int decont_add_set(decont *d, const eval_set *s);
size_t decont_count(const decont *d); /* n-grams held */
size_t decont_bytes(const decont *d); /* the table's memory */

decont_ctx *decont_ctx_new(const decont *d);
void decont_ctx_free(decont_ctx *c);
/* Check one document's text (UTF-8); r is reused between calls. Returns the number of
 * hits (0: clean) or ERR_*. */
int decont_check(const decont *d, decont_ctx *c, const char *text, size_t len, decont_result *r);
void decont_result_free(decont_result *r);

/* datatrove's simplify_text, into *out (malloc'd, grown; NUL-terminated): for the tests. */
int decont_simplify(decont_ctx *c, const char *text, size_t len, char **out, size_t *outlen);

#endif

/* quality_int.h - what the quality filters (quality_*.c, one per filter)
 * share with quality.c: the per-document context (its word split done once
 * and kept for every filter of the document), spans of lines or paragraphs,
 * a set of byte strings, and Python's string helpers on UTF-8. Not for use
 * outside preprocess/quality*.c. */
#ifndef PREPROCESS_QUALITY_INT_H
#define PREPROCESS_QUALITY_INT_H

#include <stddef.h>
#include <stdint.h>

#include "preprocess/filters/quality.h"
#include "preprocess/text/spacy_tok.h"

typedef struct { uint32_t off, len; } span;
typedef struct {
    span *v;
    size_t n, cap;
} spans;

/* Both tables are reset per document and per pass without clearing them: a slot is
 * in use only when it carries the current epoch (all cleared when the epoch wraps). */
typedef struct {
    uint64_t h;
    uint32_t off, len;
    uint32_t val;
    uint32_t epoch; /* in use when == sset.epoch */
} sent;
typedef struct {
    sent *e;
    size_t mask, cap, used;
    uint32_t epoch;
} sset;

typedef struct {
    uint64_t a, b; /* a word of up to 16 bytes, zero-padded */
    uint32_t id;
    uint16_t len, epoch; /* in use when epoch == quality_ctx.wepoch */
} wentry;

typedef struct {
    uint32_t tag;  /* the hash's high 16 bits, then the epoch (in use when == ngepoch) */
    uint32_t pos1; /* first position + 1 */
} ngent;

/* The context of quality_ctx_new (quality.h). */
struct quality_ctx {
    spacy_ctx *sp;
    sp_tokens all, words, toks, ends; /* all: the document's tokens, whitespace ones too */
    /* c4_quality's output and its word count (the kept lines' words), for fineweb_quality */
    const char *c4_out;
    size_t c4_on, c4_words;
    int c4_valid;
    const char *wt; /* the text the words are of */
    size_t wn;
    int have_words;
    uint32_t *wcp, *wid; /* per word: code points, interned id */
    uint64_t *pre; /* prefix sums over the words (gopher_repetition): 6 arrays of nw + 1 */
    size_t precap;
    size_t wcap;
    ngent *ng; /* n-gram table */
    size_t ngmask, ngcap;
    uint32_t ngepoch; /* 1..65535 */
    uint32_t *cnt; /* top n-grams: count by first position */
    size_t cntcap;
    uint32_t *idcnt; /* per interned id: occurrences (precap of them) */
    uint32_t *wmin; /* per position: the least count over a window of wmin_n words */
    size_t wmin_n;
    wentry *wtab; /* the words of up to 16 bytes -> id (gopher_repetition) */
    size_t wtab_cap;
    uint32_t wepoch; /* 1..65535 */
    char *wbuf; /* "".join(words) and 16 zero bytes */
    size_t wbuf_cap;
    uint32_t *rpos; /* the positions an n-gram can repeat at (gopher_repetition) */
    uint8_t *rmark;
    size_t rcap;
    /* tests: rep_reference 1 makes gopher_repetition count every n-gram at every
     * position (no bound, no candidates); rep_top / rep_dup: each size's count x
     * characters (UINT64_MAX: not counted, the bound passed) and repeated characters,
     * and the bound on the former (UINT64_MAX: none) */
    int rep_reference;
    int c4_reference; /* tests: c4_quality counts words and looks for phrases a byte at a time */
    uint64_t rep_top[QUALITY_MAX_NGRAMS], rep_dup[QUALITY_MAX_NGRAMS], rep_bound[QUALITY_MAX_NGRAMS];
    spans parts, lines;
    sset set;
    char *out, *low;
    size_t out_cap, low_cap;
};

/* Eight bytes at a time: 0x80 in each byte of w (all bytes under 0x80) that lies in
 * lo..hi, 0 in the others (no byte carries into the next: each sum stays under 0x100). */
#define HI8 0x8080808080808080ull
#define ONES8 0x0101010101010101ull
static inline uint64_t in_range8(uint64_t w, unsigned lo, unsigned hi)
{
    return (w + (0x80 - lo) * ONES8) & ~(w + (0x7F - hi) * ONES8) & HI8;
}

/* A table of slots reused from document to document: a slot is in use when it carries
 * the current epoch. Grows *tab to hold want slots (calloc'd, *epoch restarted), then
 * moves to the next epoch, clearing every slot when it reaches `wrap` (epochs run 1 ..
 * wrap - 1). 0 or ERR_NOMEM. */
int q_epoch_table(void **tab, size_t *cap, size_t elem, size_t want, uint32_t *epoch, uint32_t wrap);

/* Python's semantics on UTF-8 (quality.c): len() in code points, the last code
 * point, str.endswith / startswith, str.count, the length of the line break at
 * i (splitlines' boundaries; 0: none), str.splitlines() into spans. */
size_t q_cplen(const char *s, size_t n);
uint32_t q_last_cp(const char *s, size_t n);
int q_ends_with(const char *s, size_t n, const char *suf);
int q_starts_with(const char *s, size_t n, const char *pre);
size_t q_count_sub(const char *s, size_t n, const char *sub);
size_t q_line_break_at(const char *s, size_t n, size_t i);
int q_spans_push(spans *a, size_t off, size_t len);
int q_splitlines(const char *s, size_t n, spans *out);
/* The set: reset for about `expect` strings; get base[off..off+len), *created
 * 1 when new, 0 when seen, -1 out of memory. */
int q_sset_reset(sset *s, size_t expect);
int q_sset_grow(sset *s);
sent *q_sset_get(sset *s, const char *base, uint32_t off, uint32_t len, int *created);
/* datatrove's split_into_words(text), once per document (q->words, q->wcp). */
int q_get_words(quality_ctx *q, const char *t, size_t n);
/* find_duplicates(x): (elements seen before, their characters) */
int q_find_duplicates(quality_ctx *q, const char *t, const spans *x, size_t *dup, size_t *dup_chars);

#endif

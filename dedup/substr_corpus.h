/* substr_corpus.h - documents as one array of symbols for dedup/substr.c, and the
 * repeated spans found there mapped back to byte ranges of each document's text.
 *
 * Bytes: each text's bytes (a 0 byte, rare in text, is read as 1), then the
 * separator 0. Tokens: each text's token ids + 1 (16 bits: a lossless tokenizer of at
 * most 65,534 ids; GPT-2 has 50,257), then 0; a token's bytes are its id's decoded
 * length, so the spans map back without keeping offsets. A span's byte range is
 * narrowed to whole UTF-8 characters (a byte-level BPE token can hold part of one),
 * so the text left stays valid UTF-8. The texts themselves are not kept: the caller
 * reads them again to write the result. */
#ifndef DEDUP_SUBSTR_CORPUS_H
#define DEDUP_SUBSTR_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#include "dedup/substr.h"
#include "tokenizer/bpe.h"

typedef struct {
    uint32_t start, end; /* bytes of the document's text */
} sc_span;

typedef struct {
    int64_t sym0, nsym; /* its symbols in the corpus; nsym -1: a record without text */
    uint64_t tlen;      /* its text's bytes */
    uint32_t nspans;    /* its spans: spans[span0 .. span0 + nspans) */
    size_t span0;
} sc_doc;

typedef struct {
    int unit;          /* 1 bytes, 2 tokens */
    sc_doc *docs;
    size_t ndocs, dcap;
    void *T;           /* the symbols */
    int64_t n, cap;
    sc_span *spans;    /* every document's, in corpus order */
    size_t nspans;
    const bpe *tok;    /* tokens: the tokenizer, a context a thread */
    bpe_ctx **ctx;
    int threads;
    /* tokens: the texts added since the last flush (copied), encoded by the threads
     * together and appended in order when they pass SC_BATCH bytes or at sc_flush */
    size_t *pend_doc;
    char **pend_text;
    bpe_ids *pend_ids;
    size_t npend, pend_cap, pend_bytes;
    uint32_t *tlen;    /* tokens: each id's byte length */
} sc_corpus;

/* unit 2 needs tok: lossless, at most 65,534 ids (ERR_USAGE otherwise); threads encode
 * (tokens) in parallel, the symbols the same for any count. */
int sc_init(sc_corpus *c, int unit, const bpe *tok, int threads);
void sc_free(sc_corpus *c);
/* Add a document's text (NULL: a record without one, passed through). ERR_USAGE when
 * the corpus would pass a suffix array's 2^31 symbols. */
int sc_add(sc_corpus *c, const char *text, size_t len);
/* Encode and append what sc_add holds back (tokens): before the symbols are used. */
int sc_flush(sc_corpus *c);
/* The ranges of substr_find (corpus order) as each document's byte spans. */
int sc_assign(sc_corpus *c, const substr_range *r, size_t nr);
/* A span of a text narrowed to whole UTF-8 characters: [*a, *b); 0 when nothing is left. */
int sc_snap(const char *text, size_t len, sc_span s, size_t *a, size_t *b);
/* A text with spans (in order) cut out, into *buf (grown); its length ((size_t)-1: out
 * of memory). */
size_t sc_kept_text(const sc_span *sp, size_t nsp, const char *text, size_t len, char **buf, size_t *cap);

#endif

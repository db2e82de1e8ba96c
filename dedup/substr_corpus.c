/* substr_corpus.c - documents <-> the symbol array of dedup/substr.c (see substr_corpus.h). */
#include "dedup/substr_corpus.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#ifdef _OPENMP
#include <omp.h>
#endif

enum { MAX_SYMBOLS = INT32_MAX - 1, SC_BATCH = 2 << 20 };

int sc_init(sc_corpus *c, int unit, const bpe *tok, int threads)
{
    memset(c, 0, sizeof *c);
    c->unit = unit;
    c->threads = threads > 0 ? threads : 1;
    if (unit == 1)
        return 0;
    if (unit != 2 || !tok)
        return err_set(ERR_USAGE, "substr: unit %d without a tokenizer", unit);
    size_t nid = bpe_n_ids(tok);
    if (nid > 65534)
        return err_set(ERR_USAGE, "--unit tokens: a vocabulary of %zu ids; the token suffix array holds 16-bit "
                                  "symbols (at most 65,534 ids: GPT-2's 50,257 fit); use --unit bytes", nid);
    if (!bpe_lossless(tok))
        return err_set(ERR_USAGE, "--unit tokens: the %s tokenizer does not give back its text byte for byte, "
                                  "so spans cannot be mapped to bytes; use a byte-level BPE or --unit bytes",
                       bpe_type(tok));
    c->tok = tok;
    c->tlen = calloc(nid ? nid : 1, sizeof *c->tlen);
    c->ctx = calloc((size_t)c->threads, sizeof *c->ctx);
    int ok = c->tlen && c->ctx;
    for (int t = 0; ok && t < c->threads; t++)
        ok = (c->ctx[t] = bpe_ctx_new(tok)) != NULL;
    if (!ok) {
        sc_free(c);
        return err_set(ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < nid; i++) {
        size_t len = 0;
        const char *b = bpe_token_bytes(tok, (uint32_t)i, &len);
        c->tlen[i] = b ? (uint32_t)len : 0;
    }
    return 0;
}

void sc_free(sc_corpus *c)
{
    free(c->docs);
    free(c->T);
    free(c->spans);
    free(c->tlen);
    for (int t = 0; c->ctx && t < c->threads; t++)
        if (c->ctx[t])
            bpe_ctx_free(c->ctx[t]);
    free(c->ctx);
    for (size_t i = 0; i < c->pend_cap; i++) {
        if (i < c->npend)
            free(c->pend_text[i]);
        if (c->pend_ids)
            bpe_ids_free(&c->pend_ids[i]);
    }
    free(c->pend_doc);
    free(c->pend_text);
    free(c->pend_ids);
    memset(c, 0, sizeof *c);
}

static int grow(sc_corpus *c, int64_t need)
{
    if (need > MAX_SYMBOLS)
        return err_set(ERR_USAGE, "the input passes 2^31 %s, the most one suffix array holds (32-bit indices): "
                                  "give it in parts (one run per shard)", c->unit == 1 ? "bytes" : "tokens");
    if (need <= c->cap)
        return 0;
    int64_t nc = c->cap ? c->cap : 1 << 20;
    while (nc < need)
        nc = nc > MAX_SYMBOLS / 2 ? MAX_SYMBOLS : 2 * nc;
    void *g = realloc(c->T, (size_t)nc * (size_t)c->unit);
    if (!g)
        return err_set(ERR_NOMEM, "out of memory for %lld symbols", (long long)nc);
    c->T = g;
    c->cap = nc;
    return 0;
}

int sc_add(sc_corpus *c, const char *text, size_t len)
{
    if (c->ndocs == c->dcap) {
        size_t nc = c->dcap ? 2 * c->dcap : 4096;
        sc_doc *g = realloc(c->docs, nc * sizeof *g);
        if (!g)
            return err_set(ERR_NOMEM, "out of memory");
        c->docs = g;
        c->dcap = nc;
    }
    sc_doc *d = &c->docs[c->ndocs];
    memset(d, 0, sizeof *d);
    d->sym0 = c->n;
    d->nsym = -1;
    if (!text) {
        c->ndocs++;
        return 0;
    }
    d->tlen = len;
    int rc;
    if (!len) { /* nothing to search, and no separator: libsais's generalized suffix
                 * array takes no empty string */
        d->nsym = 0;
        c->ndocs++;
        return 0;
    }
    if (c->unit == 1) {
        if ((rc = grow(c, c->n + (int64_t)len + 1)))
            return rc;
        uint8_t *t = (uint8_t *)c->T + c->n;
        memcpy(t, text, len);
        for (size_t i = 0; i < len; i++) /* the separator is 0: a NUL in a text reads as 1 */
            if (!t[i])
                t[i] = 1;
        t[len] = 0;
        d->nsym = (int64_t)len;
    } else { /* held back: encoded with the batch */
        if (c->npend == c->pend_cap) {
            size_t nc = c->pend_cap ? 2 * c->pend_cap : 1024;
            size_t *nd = realloc(c->pend_doc, nc * sizeof *nd);
            if (nd)
                c->pend_doc = nd;
            char **nt = nd ? realloc(c->pend_text, nc * sizeof *nt) : NULL;
            if (nt)
                c->pend_text = nt;
            bpe_ids *ni = nt ? realloc(c->pend_ids, nc * sizeof *ni) : NULL;
            if (!ni)
                return err_set(ERR_NOMEM, "out of memory");
            memset(ni + c->pend_cap, 0, (nc - c->pend_cap) * sizeof *ni);
            c->pend_ids = ni;
            c->pend_cap = nc;
        }
        if (!(c->pend_text[c->npend] = malloc(len)))
            return err_set(ERR_NOMEM, "out of memory");
        memcpy(c->pend_text[c->npend], text, len);
        c->pend_doc[c->npend++] = c->ndocs++;
        c->pend_bytes += len;
        return c->threads == 1 || c->pend_bytes >= SC_BATCH ? sc_flush(c) : 0;
    }
    c->n += d->nsym + 1;
    c->ndocs++;
    return 0;
}

/* The held-back texts encoded by the threads (each its own context; the model is read
 * only), then appended in order. */
int sc_flush(sc_corpus *c)
{
    if (!c->npend)
        return 0;
    int rc = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) num_threads(c->threads) if (c->threads > 1)
#endif
    for (size_t i = 0; i < c->npend; i++) {
        int t = 0;
#ifdef _OPENMP
        t = omp_get_thread_num();
#endif
        size_t d = c->pend_doc[i];
        c->pend_ids[i].n = 0;
        if (bpe_encode(c->ctx[t], c->pend_text[i], c->docs[d].tlen, &c->pend_ids[i]))
#ifdef _OPENMP
#pragma omp atomic write
#endif
            rc = ERR_NOMEM;
    }
    for (size_t i = 0; i < c->npend && !rc; i++) {
        sc_doc *d = &c->docs[c->pend_doc[i]];
        const bpe_ids *ids = &c->pend_ids[i];
        d->sym0 = c->n;
        d->nsym = 0;
        if (!ids->n)
            continue; /* no separator for an empty document (see above) */
        if ((rc = grow(c, c->n + (int64_t)ids->n + 1)))
            break;
        uint16_t *t = (uint16_t *)c->T + c->n;
        for (size_t j = 0; j < ids->n; j++)
            t[j] = (uint16_t)(ids->v[j] + 1);
        t[ids->n] = 0;
        d->nsym = (int64_t)ids->n;
        c->n += d->nsym + 1;
    }
    for (size_t i = 0; i < c->npend; i++)
        free(c->pend_text[i]);
    c->npend = 0;
    c->pend_bytes = 0;
    if (rc == ERR_NOMEM)
        err_set(ERR_NOMEM, "out of memory while encoding");
    return rc;
}

/* UTF-8: whether byte b starts a character (is not a continuation byte). */
static int starts_char(unsigned char b) { return (b & 0xC0) != 0x80; }

int sc_assign(sc_corpus *c, const substr_range *r, size_t nr)
{
    free(c->spans);
    c->spans = NULL;
    c->nspans = 0;
    if (nr && !(c->spans = malloc(nr * sizeof *c->spans)))
        return err_set(ERR_NOMEM, "out of memory for %zu spans", nr);
    size_t k = 0;
    for (size_t i = 0; i < c->ndocs; i++) {
        sc_doc *d = &c->docs[i];
        d->span0 = c->nspans;
        d->nspans = 0;
        if (d->nsym < 0)
            continue;
        int64_t end = d->sym0 + d->nsym;
        /* tokens: walk the document's token lengths once, alongside its ranges */
        int64_t at = d->sym0;
        uint64_t byte = 0;
        for (; k < nr && r[k].start < end; k++) {
            uint64_t b0, b1;
            if (c->unit == 1) {
                b0 = (uint64_t)(r[k].start - d->sym0);
                b1 = (uint64_t)(r[k].end - d->sym0);
            } else {
                const uint16_t *t = c->T;
                for (; at < r[k].start; at++)
                    byte += c->tlen[t[at] - 1];
                b0 = byte;
                for (; at < r[k].end; at++)
                    byte += c->tlen[t[at] - 1];
                b1 = byte;
            }
            if (b1 > d->tlen)
                b1 = d->tlen;
            /* narrowed to whole characters when the text is read again (sc_snap) */
            sc_span s = {(uint32_t)b0, (uint32_t)b1};
            c->spans[c->nspans] = s;
            d->nspans++;
            c->nspans++;
        }
    }
    return 0;
}

int sc_snap(const char *text, size_t len, sc_span s, size_t *a, size_t *b)
{
    size_t x = s.start, y = s.end < len ? s.end : len;
    while (x < y && !starts_char((unsigned char)text[x]))
        x++;
    while (y > x && y < len && !starts_char((unsigned char)text[y]))
        y--;
    *a = x;
    *b = y;
    return x < y;
}

size_t sc_kept_text(const sc_span *sp, size_t nsp, const char *text, size_t len, char **buf, size_t *cap)
{
    if (*cap < len + 1) {
        char *g = realloc(*buf, len + 1);
        if (!g)
            return (size_t)-1;
        *buf = g;
        *cap = len + 1;
    }
    size_t o = 0, from = 0;
    for (size_t j = 0; j < nsp; j++) {
        size_t a, b;
        if (!sc_snap(text, len, sp[j], &a, &b) || a < from)
            continue;
        memcpy(*buf + o, text + from, a - from);
        o += a - from;
        from = b;
    }
    memcpy(*buf + o, text + from, len - from);
    o += len - from;
    (*buf)[o] = 0;
    return o;
}

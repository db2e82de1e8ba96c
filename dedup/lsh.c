/* lsh.c - candidate pairs from band buckets, verified (see lsh.h). */
#include "dedup/lsh.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/hash.h"
#include "dedup/idmap.h"

typedef struct {
    uint64_t key;
    uint32_t doc;
} bent;

static int cmp_bent(const void *x, const void *y)
{
    const bent *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->doc > b->doc) - (a->doc < b->doc);
}
static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

typedef struct {
    uint64_t *v;
    size_t n, cap;
} u64vec;

static int push(u64vec *v, uint64_t x)
{
    if (v->n == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 1 << 16;
        uint64_t *p = realloc(v->v, nc * sizeof *p);
        if (!p) return err_set(ERR_NOMEM, "out of memory (candidate pairs)");
        v->v = p;
        v->cap = nc;
    }
    v->v[v->n++] = x;
    return 0;
}

/* pairs of a run of equal keys: all of them, or a star from the first when
 * the run is longer than max_bucket */
static int emit_run(u64vec *pairs, const bent *e, size_t n, size_t max_bucket)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (max_bucket && n > max_bucket && i > 0) return 0;
            int rc = push(pairs, ((uint64_t)e[i].doc << 32) | e[j].doc);
            if (rc) return rc;
        }
    return 0;
}

uint64_t mh_corpus_doc(const mh_corpus *c, uint32_t g, const char **id, uint32_t *il, const char **text, uint32_t *tl)
{
    size_t f = 0;
    uint64_t ex;
    while (f + 1 < c->nf && c->base[f + 1] <= g) f++;
    mh_file_doc(&c->files[f], g - c->base[f], id, il, text, tl, &ex, NULL);
    return ex;
}

typedef struct {
    const mh_corpus *c;
    const mh_params *p;
    const uint64_t *pairs;
    size_t n, parts;
    double *sim;
    int denom;
    int *rc;
} vjob;

static void verify(size_t part, void *ctx)
{
    vjob *j = ctx;
    size_t lo = j->n * part / j->parts, hi = j->n * (part + 1) / j->parts;
    uint64_t *sa = NULL, *sb = NULL;
    size_t ca = 0, cb = 0;
    long na = 0;
    uint32_t cur = UINT32_MAX;
    for (size_t i = lo; i < hi; i++) {
        uint32_t a = (uint32_t)(j->pairs[i] >> 32), b = (uint32_t)j->pairs[i];
        const char *t;
        uint32_t tl;
        if (a != cur) {
            mh_corpus_doc(j->c, a, NULL, NULL, &t, &tl);
            na = mh_shingles(j->p, t, tl, &sa, &ca);
            cur = a;
        }
        mh_corpus_doc(j->c, b, NULL, NULL, &t, &tl);
        long nb = mh_shingles(j->p, t, tl, &sb, &cb);
        if (na < 0 || nb < 0) { j->rc[part] = ERR_NOMEM; break; }
        j->sim[i] = mh_jaccard(sa, (size_t)na, sb, (size_t)nb, j->denom);
    }
    free(sa);
    free(sb);
}

static int put_json_str(io_writer *w, const char *s, size_t n)
{
    char buf[512];
    size_t o = 0;
    buf[o++] = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (o > sizeof buf - 8) {
            int rc = io_write(w, buf, o);
            if (rc) return rc;
            o = 0;
        }
        if (c == '"' || c == '\\') { buf[o++] = '\\'; buf[o++] = (char)c; }
        else if (c < 0x20) o += (size_t)snprintf(buf + o, 8, "\\u%04x", c);
        else buf[o++] = (char)c;
    }
    buf[o++] = '"';
    return io_write(w, buf, o);
}

int lsh_put_pair(io_writer *w, const char *ia, size_t la, const char *ib, size_t lb, double sim, int exact)
{
    char num[64];
    int rc = io_write(w, "{\"a\": ", 6);
    if (!rc) rc = put_json_str(w, ia, la);
    if (!rc) rc = io_write(w, ", \"b\": ", 7);
    if (!rc) rc = put_json_str(w, ib, lb);
    int nl = snprintf(num, sizeof num, ", \"jaccard\": %.6f%s}\n", sim, exact ? ", \"exact\": true" : "");
    if (!rc) rc = io_write(w, num, (size_t)nl);
    return rc;
}

int mh_corpus_open(mh_corpus *c, char *const *paths, int n)
{
    memset(c, 0, sizeof *c);
    c->files = calloc((size_t)n, sizeof(mh_file));
    c->base = calloc((size_t)n + 1, sizeof(uint64_t));
    if (!c->files || !c->base)
        return err_set(ERR_NOMEM, "out of memory");
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        rc = mh_file_open(&c->files[i], paths[i], i ? &c->files[0].p : NULL);
        if (rc)
            break;
        c->nf = (size_t)i + 1;
        c->base[i] = c->n_docs;
        c->n_docs += c->files[i].n_docs;
    }
    c->base[c->nf] = c->n_docs;
    if (!rc && c->n_docs >= UINT32_MAX)
        rc = err_set(ERR_LIMIT, "more than 2^32 documents: shard by band range and id range");
    return rc;
}

void mh_corpus_close(mh_corpus *c)
{
    for (size_t i = 0; i < c->nf; i++)
        mh_file_close(&c->files[i]);
    free(c->files);
    free(c->base);
    memset(c, 0, sizeof *c);
}

int mh_corpus_dup_ids(const mh_corpus *c, uint64_t *dups)
{
    idmap ids = {0};
    int rc = 0;
    *dups = 0;
    for (uint64_t g = 0; g < c->n_docs && !rc; g++) {
        const char *id;
        uint32_t il;
        mh_corpus_doc(c, (uint32_t)g, &id, &il, NULL, NULL);
        int added;
        long x = idmap_put(&ids, id, il, &added);
        if (x < 0)
            rc = (int)x;
        else if (!added && (*dups)++ < 5)
            fprintf(stderr, "find_duplicates: warning: id \"%.*s\" appears twice across the signature files\n", (int)il,
                    id);
    }
    idmap_free(&ids);
    return rc;
}

/* The bucket keys of one band (or, band -1, the exact-duplicate hashes), sorted. */
static void band_keys(const mh_corpus *c, long long band, long long rows, uint32_t *sig, bent *be)
{
    uint64_t N = c->n_docs;
    for (uint64_t g = 0; g < N; g++) {
        size_t f = 0;
        while (f + 1 < c->nf && c->base[f + 1] <= g)
            f++;
        if (band < 0) {
            uint64_t ex;
            mh_file_doc(&c->files[f], g - c->base[f], NULL, NULL, NULL, NULL, &ex, NULL);
            be[g] = (bent){ex, (uint32_t)g};
        } else {
            mh_file_doc(&c->files[f], g - c->base[f], NULL, NULL, NULL, NULL, NULL, sig);
            be[g] = (bent){hash64(sig + band * rows, (size_t)rows * 4, (uint64_t)band), (uint32_t)g};
        }
    }
    qsort(be, N, sizeof *be, cmp_bent);
}

int lsh_candidates(const mh_corpus *c, long long blo, long long bhi, long long rows, size_t max_bucket, int brute,
                   uint64_t **pairs_out, size_t *n_out)
{
    uint64_t N = c->n_docs;
    u64vec pairs = {0};
    int rc = 0;
    *pairs_out = NULL;
    *n_out = 0;
    if (brute) {
        for (uint64_t a = 0; a < N && !rc; a++)
            for (uint64_t b = a + 1; b < N && !rc; b++)
                rc = push(&pairs, (a << 32) | b);
    } else {
        bent *be = malloc((N ? N : 1) * sizeof *be);
        uint32_t *sig = malloc((size_t)(c->nf ? c->files[0].p.num_perm : 1) * 4);
        if (!be || !sig)
            rc = err_set(ERR_NOMEM, "out of memory");
        /* each band, then (with the first band range) the exact duplicates of the normalised text */
        for (long long band = blo; !rc && band <= bhi; band++) {
            if (band == bhi && blo != 0)
                break;
            band_keys(c, band == bhi ? -1 : band, rows, sig, be);
            for (size_t i = 0; i < N && !rc;) {
                size_t j = i + 1;
                while (j < N && be[j].key == be[i].key)
                    j++;
                if (j - i > 1)
                    rc = emit_run(&pairs, be + i, j - i, max_bucket);
                i = j;
            }
        }
        free(be);
        free(sig);
    }
    if (!rc && pairs.n) {
        qsort(pairs.v, pairs.n, sizeof *pairs.v, cmp_u64);
        size_t u = 1;
        for (size_t i = 1; i < pairs.n; i++)
            if (pairs.v[i] != pairs.v[u - 1])
                pairs.v[u++] = pairs.v[i];
        pairs.n = u;
    }
    if (rc) {
        free(pairs.v);
        return rc;
    }
    *pairs_out = pairs.v;
    *n_out = pairs.n;
    return 0;
}

int lsh_verify(const mh_corpus *c, const uint64_t *pairs, size_t n, int denom, pool *pl, size_t threads, double *sim)
{
    if (!n)
        return 0;
    const mh_params *p = &c->files[0].p;
    vjob j = {c, p, pairs, n, threads * 8, sim, denom, NULL};
    int *rcs = calloc(j.parts, sizeof *rcs);
    if (!rcs)
        return err_set(ERR_NOMEM, "out of memory");
    j.rc = rcs;
    pool_parallel_for(pl, j.parts, verify, &j);
    int rc = 0;
    for (size_t k = 0; k < j.parts && !rc; k++)
        if (rcs[k])
            rc = err_set(rcs[k], "out of memory verifying candidates");
    free(rcs);
    return rc;
}

int lsh_write_pairs(io_writer *w, const mh_corpus *c, const uint64_t *pairs, const double *sim, size_t n,
                    double min_sim, double threshold, lsh_written *out)
{
    int rc = 0;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n && !rc; i++) {
        const char *ia, *ib;
        uint32_t la, lb;
        uint64_t ea = mh_corpus_doc(c, (uint32_t)(pairs[i] >> 32), &ia, &la, NULL, NULL);
        uint64_t eb = mh_corpus_doc(c, (uint32_t)pairs[i], &ib, &lb, NULL, NULL);
        int exact = ea == eb;
        if (sim[i] < min_sim && !exact)
            continue;
        rc = lsh_put_pair(w, ia, la, ib, lb, sim[i], exact);
        out->written++;
        if (sim[i] >= threshold || exact)
            out->above++;
        out->exact += (uint64_t)exact;
    }
    return rc;
}

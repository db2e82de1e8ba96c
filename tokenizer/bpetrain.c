/* bpetrain.c - see bpetrain.h. */
#define _GNU_SOURCE
#include "bpetrain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe.h"
#include "common/err.h"
#include "common/hash.h"
#include "common/io.h"
#include "common/progress.h"
#include "common/utf8.h"
#include "pretok.h"

/* ---- piece counting: bytes -> count, open addressing --------------------- */

typedef struct {
    uint64_t hash;
    uint64_t off;   /* into arena */
    uint32_t len;
    uint64_t count; /* 0 = empty slot */
} wslot;

typedef struct {
    uint32_t a, b;  /* the pair */
    uint32_t tok;   /* the new token */
} merge_t;

typedef struct {
    uint64_t key;   /* pair (a << 32 | b) */
    int64_t count;
    uint32_t *where; /* words that may contain the pair */
    uint32_t n_where, cap_where;
} pstat;

struct bpetrain {
    wslot *slots;
    size_t mask, used;
    char *arena;
    size_t arena_len, arena_cap;
    uint64_t pieces;
    char *clean;
    size_t clean_cap;
    merge_t *merges;
    size_t n_merges;
    /* token bytes for tokens >= 256 */
    uint64_t *tok_off;
    uint32_t *tok_len;
    char *tok_arena;
    size_t tok_arena_len, tok_arena_cap;
};

bpetrain *bpetrain_new(void)
{
    bpetrain *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->mask = (1u << 16) - 1;
    t->slots = calloc(t->mask + 1, sizeof *t->slots);
    if (!t->slots) { free(t); return NULL; }
    return t;
}

void bpetrain_free(bpetrain *t)
{
    if (!t) return;
    free(t->slots);
    free(t->arena);
    free(t->clean);
    free(t->merges);
    free(t->tok_off);
    free(t->tok_len);
    free(t->tok_arena);
    free(t);
}

static int wmap_grow(bpetrain *t)
{
    size_t nm = (t->mask + 1) * 2 - 1;
    wslot *ns = calloc(nm + 1, sizeof *ns);
    if (!ns) return err_set(ERR_NOMEM, "out of memory (piece table of %zu entries)", t->used);
    for (size_t i = 0; i <= t->mask; i++) {
        if (!t->slots[i].count) continue;
        size_t h = (size_t)t->slots[i].hash & nm;
        while (ns[h].count) h = (h + 1) & nm;
        ns[h] = t->slots[i];
    }
    free(t->slots);
    t->slots = ns;
    t->mask = nm;
    return 0;
}

static int wmap_add(bpetrain *t, const char *s, size_t n, uint64_t count, uint64_t h)
{
    size_t i = (size_t)h & t->mask;
    for (;;) {
        wslot *w = &t->slots[i];
        if (!w->count) break;
        if (w->hash == h && w->len == n && memcmp(t->arena + w->off, s, n) == 0) {
            w->count += count;
            return 0;
        }
        i = (i + 1) & t->mask;
    }
    if (t->arena_len + n > t->arena_cap) {
        size_t nc = t->arena_cap ? t->arena_cap * 2 : (1u << 20);
        while (nc < t->arena_len + n) nc *= 2;
        char *na = realloc(t->arena, nc);
        if (!na) return err_set(ERR_NOMEM, "out of memory (pieces)");
        t->arena = na;
        t->arena_cap = nc;
    }
    memcpy(t->arena + t->arena_len, s, n);
    t->slots[i] = (wslot){h, t->arena_len, (uint32_t)n, count};
    t->arena_len += n;
    if (++t->used * 2 > t->mask) return wmap_grow(t);
    return 0;
}

int bpetrain_add_text(bpetrain *t, const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    if (utf8_valid_prefix(text, n) < n) {
        if (t->clean_cap < 3 * n) {
            free(t->clean);
            t->clean = malloc(3 * n);
            t->clean_cap = t->clean ? 3 * n : 0;
            if (!t->clean) return err_set(ERR_NOMEM, "out of memory");
        }
        n = utf8_sanitize(text, n, t->clean);
        s = (const unsigned char *)t->clean;
    }
    size_t i = 0;
    while (i < n) {
        size_t j = pretok_next(s, n, i);
        if (j - i > UINT32_MAX) return err_set(ERR_LIMIT, "a piece of more than 4 GB");
        int rc = wmap_add(t, (const char *)s + i, j - i, 1, hash64(s + i, j - i, 0));
        if (rc) return rc;
        t->pieces++;
        i = j;
    }
    return 0;
}

int bpetrain_absorb(bpetrain *dst, bpetrain *src)
{
    for (size_t i = 0; i <= src->mask; i++) {
        wslot *w = &src->slots[i];
        if (!w->count) continue;
        int rc = wmap_add(dst, src->arena + w->off, w->len, w->count, w->hash);
        if (rc) return rc;
    }
    dst->pieces += src->pieces;
    memset(src->slots, 0, (src->mask + 1) * sizeof *src->slots);
    src->used = 0;
    src->arena_len = 0;
    src->pieces = 0;
    return 0;
}

uint64_t bpetrain_pieces(const bpetrain *t) { return t->pieces; }
uint64_t bpetrain_unique_pieces(const bpetrain *t) { return t->used; }
size_t bpetrain_n_merges(const bpetrain *t) { return t->n_merges; }

/* ---- training ------------------------------------------------------------ */

typedef struct {
    pstat *v;
    size_t n, cap;
    uint32_t *slots; /* index+1 into v */
    size_t mask;
} ptable;

static int ptab_init(ptable *p, size_t hint)
{
    p->mask = 1;
    while (p->mask < hint * 2) p->mask = p->mask * 2 + 1;
    p->slots = calloc(p->mask + 1, sizeof *p->slots);
    return p->slots ? 0 : err_set(ERR_NOMEM, "out of memory (pair table)");
}

/* Index of pair key, creating it. Returns -1 on OOM. */
static long ptab_get(ptable *p, uint64_t key, int create)
{
    size_t i = (size_t)hash_mix64(key) & p->mask;
    for (;;) {
        uint32_t s = p->slots[i];
        if (!s) break;
        if (p->v[s - 1].key == key) return (long)(s - 1);
        i = (i + 1) & p->mask;
    }
    if (!create) return -2;
    if (p->n == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 1u << 16;
        pstat *nv = realloc(p->v, nc * sizeof *nv);
        if (!nv) return -1;
        p->v = nv;
        p->cap = nc;
    }
    p->v[p->n] = (pstat){key, 0, NULL, 0, 0};
    p->slots[i] = (uint32_t)(++p->n);
    if (p->n * 2 > p->mask) {
        size_t nm = p->mask * 2 + 1;
        uint32_t *ns = calloc(nm + 1, sizeof *ns);
        if (!ns) return -1;
        for (size_t k = 0; k < p->n; k++) {
            size_t h = (size_t)hash_mix64(p->v[k].key) & nm;
            while (ns[h]) h = (h + 1) & nm;
            ns[h] = (uint32_t)(k + 1);
        }
        free(p->slots);
        p->slots = ns;
        p->mask = nm;
    }
    return (long)(p->n - 1);
}

static int where_add(pstat *s, uint32_t w)
{
    if (s->n_where && s->where[s->n_where - 1] == w) return 0;
    if (s->n_where == s->cap_where) {
        uint32_t nc = s->cap_where ? s->cap_where * 2 : 4;
        uint32_t *nw = realloc(s->where, nc * sizeof *nw);
        if (!nw) return err_set(ERR_NOMEM, "out of memory");
        s->where = nw;
        s->cap_where = nc;
    }
    s->where[s->n_where++] = w;
    return 0;
}

typedef struct {
    int64_t count;
    uint64_t key;
} hent;

/* max-heap: higher count first, then smaller key */
static inline int h_before(hent x, hent y) { return x.count > y.count || (x.count == y.count && x.key < y.key); }

typedef struct {
    hent *v;
    size_t n, cap;
} heap;

static int heap_push(heap *h, hent e)
{
    if (h->n == h->cap) {
        size_t nc = h->cap ? h->cap * 2 : 1u << 16;
        hent *nv = realloc(h->v, nc * sizeof *nv);
        if (!nv) return err_set(ERR_NOMEM, "out of memory");
        h->v = nv;
        h->cap = nc;
    }
    size_t i = h->n++;
    while (i) {
        size_t p = (i - 1) / 2;
        if (!h_before(e, h->v[p])) break;
        h->v[i] = h->v[p];
        i = p;
    }
    h->v[i] = e;
    return 0;
}

static hent heap_pop(heap *h)
{
    hent top = h->v[0], e = h->v[--h->n];
    size_t i = 0, n = h->n;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n) break;
        size_t m = (l + 1 < n && h_before(h->v[l + 1], h->v[l])) ? l + 1 : l;
        if (!h_before(h->v[m], e)) break;
        h->v[i] = h->v[m];
        i = m;
    }
    if (n) h->v[i] = e;
    return top;
}

static int cmp_words(const void *a, const void *b, void *arena)
{
    const wslot *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp((char *)arena + x->off, (char *)arena + y->off, n);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

#define PKEY(a, b) (((uint64_t)(a) << 32) | (uint32_t)(b))

int bpetrain_run(bpetrain *t, size_t n_merges, uint64_t min_freq, int verbose)
{
    if (min_freq < 1) min_freq = 1;
    /* words, sorted by bytes so word ids do not depend on hashing */
    size_t nw = 0;
    for (size_t i = 0; i <= t->mask; i++)
        if (t->slots[i].count) t->slots[nw++] = t->slots[i];
    qsort_r(t->slots, nw, sizeof *t->slots, cmp_words, t->arena);
    uint64_t total_sym = 0;
    for (size_t i = 0; i < nw; i++) total_sym += t->slots[i].len;
    uint32_t *sym = malloc((total_sym ? total_sym : 1) * sizeof *sym);
    uint64_t *woff = malloc((nw + 1) * sizeof *woff);
    uint32_t *wlen = malloc((nw + 1) * sizeof *wlen);
    uint32_t *stamp = calloc(nw + 1, sizeof *stamp);
    ptable pt = {0};
    heap hp = {0};
    int rc = 0;
    free(t->merges);
    t->merges = malloc((n_merges ? n_merges : 1) * sizeof *t->merges);
    t->n_merges = 0;
    free(t->tok_off);
    free(t->tok_len);
    t->tok_off = malloc((256 + n_merges) * sizeof *t->tok_off);
    t->tok_len = malloc((256 + n_merges) * sizeof *t->tok_len);
    t->tok_arena_len = 0;
    if (!sym || !woff || !wlen || !stamp || !t->merges || !t->tok_off || !t->tok_len) {
        rc = err_set(ERR_NOMEM, "out of memory (training on %zu distinct pieces)", nw);
        goto out;
    }
    for (unsigned c = 0; c < 256; c++) {
        t->tok_off[c] = c;
        t->tok_len[c] = 1;
    }
    /* token bytes of merged tokens live after 256 single bytes in tok_arena */
    t->tok_arena_cap = 1u << 16;
    free(t->tok_arena);
    t->tok_arena = malloc(t->tok_arena_cap);
    if (!t->tok_arena) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
    for (unsigned c = 0; c < 256; c++) t->tok_arena[c] = (char)c;
    t->tok_arena_len = 256;
    uint64_t o = 0;
    for (size_t w = 0; w < nw; w++) {
        woff[w] = o;
        wlen[w] = t->slots[w].len;
        const unsigned char *s = (const unsigned char *)t->arena + t->slots[w].off;
        for (uint32_t k = 0; k < wlen[w]; k++) sym[o + k] = s[k];
        o += wlen[w];
    }
    if ((rc = ptab_init(&pt, nw + 1024))) goto out;
    for (size_t w = 0; w < nw; w++) {
        int64_t c = (int64_t)t->slots[w].count;
        for (uint32_t k = 0; k + 1 < wlen[w]; k++) {
            long pi = ptab_get(&pt, PKEY(sym[woff[w] + k], sym[woff[w] + k + 1]), 1);
            if (pi < 0) { rc = err_set(ERR_NOMEM, "out of memory (pairs)"); goto out; }
            pt.v[pi].count += c;
            if ((rc = where_add(&pt.v[pi], (uint32_t)w))) goto out;
        }
    }
    for (size_t i = 0; i < pt.n; i++)
        if ((rc = heap_push(&hp, (hent){pt.v[i].count, pt.v[i].key}))) goto out;
    double t0 = progress_now(), last = t0;
    uint32_t next_tok = 256;
    while (t->n_merges < n_merges && hp.n) {
        hent e = heap_pop(&hp);
        long pi = ptab_get(&pt, e.key, 0);
        if (pi < 0) continue;
        if (pt.v[pi].count != e.count) { /* stale: requeue with the current count */
            if (pt.v[pi].count > 0 && (rc = heap_push(&hp, (hent){pt.v[pi].count, e.key}))) goto out;
            continue;
        }
        if (e.count < (int64_t)min_freq) break;
        uint32_t a = (uint32_t)(e.key >> 32), b = (uint32_t)e.key, nt = next_tok++;
        t->merges[t->n_merges++] = (merge_t){a, b, nt};
        size_t la = t->tok_len[a], lb = t->tok_len[b];
        if (t->tok_arena_len + la + lb > t->tok_arena_cap) {
            size_t nc = t->tok_arena_cap * 2 + la + lb;
            char *na = realloc(t->tok_arena, nc);
            if (!na) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
            t->tok_arena = na;
            t->tok_arena_cap = nc;
        }
        memcpy(t->tok_arena + t->tok_arena_len, t->tok_arena + t->tok_off[a], la);
        memcpy(t->tok_arena + t->tok_arena_len + la, t->tok_arena + t->tok_off[b], lb);
        t->tok_off[nt] = t->tok_arena_len;
        t->tok_len[nt] = (uint32_t)(la + lb);
        t->tok_arena_len += la + lb;
        /* the where list may grow while we walk it (new pairs), so copy it */
        uint32_t nwhere = pt.v[pi].n_where;
        uint32_t *where = malloc((nwhere ? nwhere : 1) * sizeof *where);
        if (!where) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
        memcpy(where, pt.v[pi].where, nwhere * sizeof *where);
        free(pt.v[pi].where);
        pt.v[pi].where = NULL;
        pt.v[pi].n_where = pt.v[pi].cap_where = 0;
        for (uint32_t q = 0; q < nwhere && !rc; q++) {
            uint32_t w = where[q];
            if (stamp[w] == nt) continue;
            stamp[w] = nt;
            uint32_t *s = sym + woff[w];
            uint32_t L = wlen[w];
            int has = 0;
            for (uint32_t k = 0; k + 1 < L && !has; k++) has = s[k] == a && s[k + 1] == b;
            if (!has) continue;
            int64_t c = (int64_t)t->slots[w].count;
            /* remove all pairs of the word, merge, add them back */
            for (uint32_t k = 0; k + 1 < L; k++) {
                long x = ptab_get(&pt, PKEY(s[k], s[k + 1]), 0);
                if (x >= 0) pt.v[x].count -= c;
            }
            uint32_t m = 0;
            for (uint32_t k = 0; k < L;) {
                if (k + 1 < L && s[k] == a && s[k + 1] == b) { s[m++] = nt; k += 2; }
                else s[m++] = s[k++];
            }
            wlen[w] = L = m;
            for (uint32_t k = 0; k + 1 < L; k++) {
                long x = ptab_get(&pt, PKEY(s[k], s[k + 1]), 1);
                if (x < 0) { rc = err_set(ERR_NOMEM, "out of memory (pairs)"); break; }
                pt.v[x].count += c;
                if (s[k] == nt || s[k + 1] == nt) {
                    if ((rc = where_add(&pt.v[x], w))) break;
                    if ((rc = heap_push(&hp, (hent){pt.v[x].count, pt.v[x].key}))) break;
                }
            }
        }
        free(where);
        if (rc) goto out;
        double now = progress_now();
        if (verbose && now - last > 2.0) {
            last = now;
            fprintf(stderr, "train_bpe: %zu/%zu merges (%.0f merges/s), last pair seen %lld times\n", t->n_merges,
                    n_merges, t->n_merges / (now - t0), (long long)e.count);
        }
    }
out:
    for (size_t i = 0; i < pt.n; i++) free(pt.v[i].where);
    free(pt.v);
    free(pt.slots);
    free(hp.v);
    free(sym);
    free(woff);
    free(wlen);
    free(stamp);
    return rc;
}

/* ---- output -------------------------------------------------------------- */

/* Append token bytes in GPT-2's bytes_to_unicode alphabet, JSON-escaped when
 * json is set. */
static int put_mapped(io_writer *w, const char *s, size_t n, int json)
{
    char buf[8 * 64];
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = bpe_byte_to_cp((unsigned char)s[i]);
        if (json && (cp == '"' || cp == '\\')) {
            buf[o++] = '\\';
            buf[o++] = (char)cp;
        } else {
            o += (size_t)utf8_encode(cp, buf + o);
        }
        if (o > sizeof buf - 8) {
            int rc = io_write(w, buf, o);
            if (rc) return rc;
            o = 0;
        }
    }
    return io_write(w, buf, o);
}

int bpetrain_write(const bpetrain *t, const char *encoder_json, const char *vocab_bpe)
{
    /* byte tokens in GPT-2's order: the printable bytes first, then the rest */
    unsigned order[256];
    int k = 0;
    for (unsigned b = 0; b < 256; b++)
        if (bpe_byte_to_cp(b) < 256) order[k++] = b;
    for (unsigned b = 0; b < 256; b++)
        if (bpe_byte_to_cp(b) >= 256) order[k++] = b;
    uint32_t *id_of = malloc((256 + t->n_merges) * sizeof *id_of);
    if (!id_of) return err_set(ERR_NOMEM, "out of memory");
    for (int i = 0; i < 256; i++) id_of[order[i]] = (uint32_t)i;
    for (size_t i = 0; i < t->n_merges; i++) id_of[256 + i] = (uint32_t)(256 + i);
    io_writer *w = NULL;
    io_writer_opts o = {.compress = 0};
    int rc = io_writer_open(&w, encoder_json, &o);
    if (!rc) rc = io_write(w, "{", 1);
    char num[32];
    for (int i = 0; i < 256 && !rc; i++) {
        rc = io_write(w, i ? ", \"" : "\"", i ? 3 : 1);
        char c = (char)order[i];
        if (!rc) rc = put_mapped(w, &c, 1, 1);
        int nl = snprintf(num, sizeof num, "\": %d", i);
        if (!rc) rc = io_write(w, num, (size_t)nl);
    }
    for (size_t i = 0; i < t->n_merges && !rc; i++) {
        uint32_t tok = t->merges[i].tok;
        rc = io_write(w, ", \"", 3);
        if (!rc) rc = put_mapped(w, t->tok_arena + t->tok_off[tok], t->tok_len[tok], 1);
        int nl = snprintf(num, sizeof num, "\": %zu", 256 + i);
        if (!rc) rc = io_write(w, num, (size_t)nl);
    }
    int nl = snprintf(num, sizeof num, ", \"<|endoftext|>\": %zu}", 256 + t->n_merges);
    if (!rc) rc = io_write(w, num, (size_t)nl);
    io_writer *enc = w; /* committed with vocab.bpe: the pair is one vocabulary */
    w = NULL;
    if (!rc) rc = io_writer_open(&w, vocab_bpe, &o);
    if (!rc) rc = io_write(w, "#version: 0.2\n", 14);
    for (size_t i = 0; i < t->n_merges && !rc; i++) {
        const merge_t *m = &t->merges[i];
        rc = put_mapped(w, t->tok_arena + t->tok_off[m->a], t->tok_len[m->a], 0);
        if (!rc) rc = io_write(w, " ", 1);
        if (!rc) rc = put_mapped(w, t->tok_arena + t->tok_off[m->b], t->tok_len[m->b], 0);
        if (!rc) rc = io_write(w, "\n", 1);
    }
    if (!rc) {
        io_writer *g[2] = {enc, w};
        rc = io_writer_commit_group(g, 2);
    } else {
        io_writer_abort(enc);
        io_writer_abort(w);
    }
    free(id_of);
    return rc;
}

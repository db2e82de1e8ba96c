/* decont.c - decontamination's n-gram table and its two checks (see decont.h). */
#include "preprocess/decont/decont.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>
#include <xxhash.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/utf8.h"
#include "preprocess/text/spacy_tok.h"

struct decont {
    decont_cfg cfg;
    uint64_t *key; /* 0: empty */
    uint32_t *item;
    size_t cap, n;
    uint64_t *bits; /* a bit an n-gram's hash could set, 16 a slot's worth: most misses end here, in cache */
    size_t nbits;
};

struct decont_ctx {
    spacy_ctx *sp;
    sp_tokens toks;
    uint32_t *cp, *cp2; /* code points (drop: simplify's steps) */
    size_t ccap, ccap2;
    char *s;            /* drop: the simplified text */
    size_t scap;
    char *buf;          /* scratch: a normalized word, a joined n-gram */
    size_t bcap;
    uint64_t *wh;       /* cut: a ring of n words: hashes, byte starts and ends, code point starts and ends */
    uint32_t *ws, *we, *wcs, *wce;
    uint32_t *mcs, *mce; /* cut: the matches' first and last code points (max_matches + 1) */
};

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need)
        nc *= 2;
    void *g = realloc(*p, nc * size);
    if (!g)
        return err_set(ERR_NOMEM, "out of memory");
    *p = g;
    *cap = nc;
    return 0;
}

/* ---- the table ---- */

int decont_new(decont **out, const decont_cfg *cfg)
{
    decont *d = calloc(1, sizeof *d);
    if (!d)
        return err_set(ERR_NOMEM, "out of memory");
    d->cfg = *cfg;
    d->cap = 1024;
    d->key = calloc(d->cap, sizeof *d->key);
    d->item = calloc(d->cap, sizeof *d->item);
    d->nbits = d->cap * 16;
    d->bits = calloc(d->nbits / 64 + 1, sizeof *d->bits);
    if (!d->key || !d->item || !d->bits) {
        decont_free(d);
        return err_set(ERR_NOMEM, "out of memory");
    }
    *out = d;
    return 0;
}

void decont_free(decont *d)
{
    if (!d)
        return;
    free(d->key);
    free(d->item);
    free(d->bits);
    free(d);
}

size_t decont_count(const decont *d) { return d->n; }
size_t decont_bytes(const decont *d) { return d->cap * (sizeof *d->key + sizeof *d->item) + d->nbits / 8; }

static inline size_t bit_of(const decont *d, uint64_t h) { return (size_t)((h * 0xd6e8feb86659fd93ull) >> 40) & (d->nbits - 1); }

static inline uint64_t slot_key(uint64_t h) { return h ? h : 1; }

static int put(decont *d, uint64_t h, uint32_t item)
{
    if (2 * (d->n + 1) > d->cap) {
        size_t nc = 2 * d->cap;
        uint64_t *k = calloc(nc, sizeof *k);
        uint32_t *v = calloc(nc, sizeof *v);
        if (!k || !v) {
            free(k);
            free(v);
            return err_set(ERR_NOMEM, "out of memory for %zu n-grams", d->n);
        }
        for (size_t i = 0; i < d->cap; i++) {
            if (!d->key[i])
                continue;
            size_t j = d->key[i] & (nc - 1);
            while (k[j])
                j = (j + 1) & (nc - 1);
            k[j] = d->key[i];
            v[j] = d->item[i];
        }
        free(d->key);
        free(d->item);
        d->key = k;
        d->item = v;
        d->cap = nc;
        uint64_t *b = calloc(nc / 4 + 1, sizeof *b); /* 16 bits a slot */
        if (!b)
            return err_set(ERR_NOMEM, "out of memory for %zu n-grams", d->n);
        free(d->bits);
        d->bits = b;
        d->nbits = nc * 16;
        for (size_t i = 0; i < nc; i++)
            if (k[i]) {
                size_t x = bit_of(d, k[i]);
                b[x >> 6] |= 1ull << (x & 63);
            }
    }
    h = slot_key(h);
    size_t j = h & (d->cap - 1);
    while (d->key[j]) {
        if (d->key[j] == h)
            return 0; /* the first item to register it keeps it */
        j = (j + 1) & (d->cap - 1);
    }
    d->key[j] = h;
    d->item[j] = item;
    d->n++;
    size_t x = bit_of(d, h);
    d->bits[x >> 6] |= 1ull << (x & 63);
    return 0;
}

static inline int get(const decont *d, uint64_t h, uint32_t *item)
{
    h = slot_key(h);
    size_t x = bit_of(d, h);
    if (!(d->bits[x >> 6] & (1ull << (x & 63))))
        return 0;
    size_t j = h & (d->cap - 1);
    while (d->key[j]) {
        if (d->key[j] == h) {
            *item = d->item[j];
            return 1;
        }
        j = (j + 1) & (d->cap - 1);
    }
    return 0;
}

/* ---- cut: Janitor's words and n-grams ---- */

/* The next run of non-space (Python's str.split) at or after *at: [*ws, *we) bytes, the
 * code points before it counted into *cps (one a byte that does not decode), and *h its
 * hash after Janitor's normalization (ASCII lowercased, ASCII punctuation deleted: 0 when
 * nothing is left of it), made as it is read. 0 at the end. */
static int next_word(decont_ctx *c, const char *t, size_t len, size_t *at, size_t *ws, size_t *we, uint64_t *cps,
                     uint64_t *wcps, uint64_t *h)
{
    static const uint8_t P[128] = {
        ['!'] = 1, ['"'] = 1, ['#'] = 1, ['$'] = 1, ['%'] = 1, ['&'] = 1, ['\''] = 1, ['('] = 1, [')'] = 1, ['*'] = 1,
        ['+'] = 1, [','] = 1, ['-'] = 1, ['.'] = 1, ['/'] = 1, [':'] = 1, [';'] = 1, ['<'] = 1, ['='] = 1, ['>'] = 1,
        ['?'] = 1, ['@'] = 1, ['['] = 1, ['\\'] = 1, [']'] = 1, ['^'] = 1, ['_'] = 1, ['`'] = 1, ['{'] = 1, ['|'] = 1,
        ['}'] = 1, ['~'] = 1};
    size_t i = *at, m = 0;
    uint64_t cp = *cps;
    /* the spaces before it */
    for (;;) {
        if (i >= len) {
            *at = i;
            *cps = cp;
            return 0;
        }
        unsigned char b = (unsigned char)t[i];
        if (b < 0x80) {
            if (!utf8_ascii_pyspace[b])
                break;
            i++;
        } else {
            uint32_t u;
            int k = utf8_decode((const unsigned char *)t + i, len - i, &u);
            if (k < 0 || !utf8_is_pyspace(u))
                break;
            i += (size_t)k;
        }
        cp++;
    }
    *ws = i;
    *wcps = cp;
    if (c->bcap < len - i + 1 && grow((void **)&c->buf, &c->bcap, len - i + 1, 1))
        return ERR_NOMEM;
    char *buf = c->buf;
    while (i < len) {
        if (i + 8 <= len) { /* eight lowercase letters at once: the common case, copied as they are */
            uint64_t x;
            memcpy(&x, t + i, 8);
            if (!(((x - 0x6161616161616161ull) | (0x7a7a7a7a7a7a7a7aull - x)) & 0x8080808080808080ull)) {
                memcpy(buf + m, &x, 8);
                m += 8;
                i += 8;
                cp += 8;
                continue;
            }
        }
        unsigned char b = (unsigned char)t[i];
        if (b < 0x80) {
            if (utf8_ascii_pyspace[b])
                break;
            if (!P[b])
                buf[m++] = (char)(b >= 'A' && b <= 'Z' ? b + 32 : b);
            i++;
        } else {
            uint32_t u;
            int k = utf8_decode((const unsigned char *)t + i, len - i, &u);
            if (k < 0) {
                k = 1;
            } else if (utf8_is_pyspace(u)) {
                break;
            }
            memcpy(buf + m, t + i, (size_t)k);
            m += (size_t)k;
            i += (size_t)k;
        }
        cp++;
    }
    *we = i;
    *at = i;
    *cps = cp;
    *h = m ? hash64_mem(buf, m, 0x6a616e69746f72ull) | 1 : 0;
    return 1;
}

static const uint64_t NGRAM_B = 0x9e3779b97f4a7c15ull;

static int register_janitor(decont *d, decont_ctx *c, const char *t, uint32_t item)
{
    int n = d->cfg.n;
    size_t len = strlen(t), at = 0, ws, we;
    uint64_t cps = 0, wc, top = 1, H = 0;
    for (int i = 1; i < n; i++)
        top *= NGRAM_B;
    uint64_t *ring = malloc((size_t)n * sizeof *ring);
    if (!ring)
        return err_set(ERR_NOMEM, "out of memory");
    uint64_t k = 0;
    int rc = 0;
    uint64_t h;
    while (!rc && (rc = next_word(c, t, len, &at, &ws, &we, &cps, &wc, &h)) > 0) {
        rc = 0;
        if (!h)
            continue; /* normalized before the split: a word of punctuation is gone */
        if (k >= (uint64_t)n)
            H -= ring[k % (uint64_t)n] * top;
        H = H * NGRAM_B + h;
        ring[k % (uint64_t)n] = h;
        k++;
        if (k >= (uint64_t)n)
            rc = put(d, H, item);
    }
    free(ring);
    return rc;
}

/* Janitor's clean: the matching n-grams, then _split_chunks's pieces. */
static int check_janitor(const decont *d, decont_ctx *c, const char *t, size_t len, decont_result *r)
{
    const decont_cfg *g = &d->cfg;
    int n = g->n;
    size_t N = (size_t)n;
    uint64_t top = 1, H = 0, k = 0, last_empty = 0; /* words since (and including) the last empty: k - last_empty */
    for (int i = 1; i < n; i++)
        top *= NGRAM_B;
    size_t at = 0, ws, we;
    uint64_t cps = 0, wc;
    r->nhits = 0;
    r->npieces = 0;
    r->too_dirty = 0;
    /* match positions in code points: [cs, ce] inclusive, as Janitor's indices */
    uint32_t *mcs = c->mcs, *mce = c->mce;
    size_t nm = 0;
    int have_empty = 0;
    size_t slot = N - 1; /* the ring's slot of the newest word */
    uint64_t h;
    int more;
    while ((more = next_word(c, t, len, &at, &ws, &we, &cps, &wc, &h)) > 0) {
        slot = slot + 1 == N ? 0 : slot + 1;
        if (k >= N)
            H -= c->wh[slot] * top;
        H = H * NGRAM_B + h;
        c->wh[slot] = h;
        c->ws[slot] = (uint32_t)ws; /* where each word starts: the n-gram's start on a hit */
        c->wcs[slot] = (uint32_t)wc;
        k++;
        if (!h)
            last_empty = k, have_empty = 1;
        if (k < N || (have_empty && k - last_empty < N))
            continue; /* not n words, or one normalized to nothing (its n-gram has a double space) */
        uint32_t item;
        if (!get(d, H, &item))
            continue;
        size_t first = slot + 1 == N ? 0 : slot + 1; /* the oldest of the n */
        if (r->nhits < (size_t)g->max_matches + 1) {
            if (grow((void **)&r->hits, &r->hcap, r->nhits + 1, sizeof *r->hits))
                return ERR_NOMEM;
            r->hits[r->nhits] = (decont_hit){item, c->ws[first], (uint32_t)we};
            mcs[nm] = c->wcs[first], mce[nm] = (uint32_t)(cps - 1), nm++;
        }
        r->nhits++;
        if (r->nhits > (size_t)g->max_matches) {
            r->too_dirty = 1;
            r->nhits = (size_t)g->max_matches + 1;
            return (int)r->nhits;
        }
    }
    if (more < 0)
        return more;
    if (!r->nhits)
        return 0;
    /* code point -> byte offset, for the pieces */
    uint64_t L = cps;
    if (grow((void **)&c->cp, &c->ccap, (size_t)L + 1, sizeof *c->cp))
        return ERR_NOMEM;
    uint32_t *off = c->cp;
    size_t i = 0, q = 0;
    while (i < len) {
        int kk = 1;
        uint32_t u;
        if ((unsigned char)t[i] >= 0x80 && (kk = utf8_decode((const unsigned char *)t + i, len - i, &u)) < 0)
            kk = 1;
        off[q++] = (uint32_t)i;
        i += (size_t)kk;
    }
    off[q] = (uint32_t)len;
    int64_t splice = 0, end = -1, W = g->window, M = g->min_piece, LL = (int64_t)L;
    for (size_t m = 0; m < nm; m++) {
        int64_t s = (int64_t)mcs[m] - W;
        if (s < 0)
            s = 0;
        end = (int64_t)mce[m] + W;
        if (end > LL)
            end = LL;
        if (s - splice > M) {
            if (grow((void **)&r->pieces, &r->pcap, 2 * r->npieces + 2, sizeof *r->pieces))
                return ERR_NOMEM;
            r->pieces[2 * r->npieces] = off[splice];
            r->pieces[2 * r->npieces + 1] = off[s];
            r->npieces++;
        }
        splice = end;
    }
    if (end < LL - M) {
        if (grow((void **)&r->pieces, &r->pcap, 2 * r->npieces + 2, sizeof *r->pieces))
            return ERR_NOMEM;
        r->pieces[2 * r->npieces] = off[end + 1];
        r->pieces[2 * r->npieces + 1] = (uint32_t)len;
        r->npieces++;
    }
    return (int)r->nhits;
}

/* ---- drop: datatrove's simplify_text, spaCy's words, XXH64 of n-grams ---- */

static const uint32_t DT_PUNCT[] = {
    0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0xb, 0xc, 0xd, 0xe, 0xf, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16,
    0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a,
    0x2b, 0x2c, 0x2d, 0x2e, 0x2f, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f, 0x60, 0x7b,
    0x7c, 0x7d, 0x7e, 0x7f, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e,
    0x8f, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f, 0xab, 0xb4,
    0xbb, 0x2013, 0x2014, 0x2019, 0x201c, 0x201d, 0x201e, 0x2026, 0x2236, 0x2501, 0x25ba, 0x3001, 0x3002, 0x3008,
    0x3009, 0x300a, 0x300b, 0x300c, 0x300d, 0x3010, 0x3011, 0xff01, 0xff05, 0xff08, 0xff09, 0xff0c, 0xff0e, 0xff11,
    0xff1a, 0xff1b, 0xff1f, 0xff5e}; /* datatrove.utils.text.PUNCTUATION (0.10.1) */

static int dt_punct(uint32_t u)
{
    size_t lo = 0, hi = sizeof DT_PUNCT / sizeof *DT_PUNCT;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        if (DT_PUNCT[m] == u)
            return 1;
        if (DT_PUNCT[m] < u)
            lo = m + 1;
        else
            hi = m;
    }
    return 0;
}

static int is_cased(uint32_t u)
{
    utf8proc_category_t k = utf8proc_category((utf8proc_int32_t)u);
    return k == UTF8PROC_CATEGORY_LU || k == UTF8PROC_CATEGORY_LL || k == UTF8PROC_CATEGORY_LT ||
           utf8proc_tolower((utf8proc_int32_t)u) != (utf8proc_int32_t)u ||
           utf8proc_toupper((utf8proc_int32_t)u) != (utf8proc_int32_t)u;
}

static int is_case_ignorable(uint32_t u)
{
    utf8proc_category_t k = utf8proc_category((utf8proc_int32_t)u);
    return k == UTF8PROC_CATEGORY_MN || k == UTF8PROC_CATEGORY_ME || k == UTF8PROC_CATEGORY_CF ||
           k == UTF8PROC_CATEGORY_LM || k == UTF8PROC_CATEGORY_SK || u == '\'' || u == '.' || u == ':' ||
           u == 0x00B7 || u == 0x2018 || u == 0x2019 || u == 0x2024 || u == 0xFE52 || u == 0xFF07 || u == 0xFF0E;
}

static inline int is_nd(uint32_t u)
{
    if (u < 128)
        return u >= '0' && u <= '9';
    return utf8proc_category((utf8proc_int32_t)u) == UTF8PROC_CATEGORY_ND;
}

static inline int num_sep(uint32_t u)
{
    return u == '.' || u == ',' || u == 0x060C || u == 0x066B || u == 0x2396 || u == 0x2397 || u == 0x2398;
}

static inline int pyspace(uint32_t u) { return u < 128 ? utf8_ascii_pyspace[u] : utf8_is_pyspace(u); }

int decont_simplify(decont_ctx *c, const char *text, size_t len, char **out, size_t *outlen)
{
    /* decode (a byte that does not decode: U+FFFD, as Python's errors="replace" roughly) */
    if (grow((void **)&c->cp, &c->ccap, 2 * len + 1, sizeof *c->cp) ||
        grow((void **)&c->cp2, &c->ccap2, 2 * len + 1, sizeof *c->cp2))
        return ERR_NOMEM;
    uint32_t *a = c->cp, *b = c->cp2;
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        uint32_t u = (unsigned char)text[i];
        int k = 1;
        if (u >= 0x80 && (k = utf8_decode((const unsigned char *)text + i, len - i, &u)) < 0)
            k = 1, u = 0xFFFD;
        a[n++] = u;
        i += (size_t)k;
    }
    /* lower(): the simple mappings, U+0130's full one, and the final sigma */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t u = a[i];
        if (u < 128) {
            b[m++] = u >= 'A' && u <= 'Z' ? u + 32 : u;
        } else if (u == 0x130) {
            b[m++] = 'i';
            b[m++] = 0x307;
        } else if (u == 0x3A3) {
            size_t j = i;
            while (j > 0 && is_case_ignorable(a[j - 1]))
                j--;
            size_t k = i + 1;
            while (k < n && is_case_ignorable(a[k]))
                k++;
            b[m++] = j > 0 && is_cased(a[j - 1]) && !(k < n && is_cased(a[k])) ? 0x3C2 : 0x3C3;
        } else {
            b[m++] = (uint32_t)utf8proc_tolower((utf8proc_int32_t)u);
        }
    }
    /* numbers to 0; punctuation to a space */
    n = 0;
    for (size_t i = 0; i < m;) {
        if (is_nd(b[i])) {
            while (i < m && is_nd(b[i]))
                i++;
            if (i + 1 < m && num_sep(b[i]) && is_nd(b[i + 1])) {
                i++;
                while (i < m && is_nd(b[i]))
                    i++;
            }
            a[n++] = '0';
            continue;
        }
        a[n++] = dt_punct(b[i]) ? ' ' : b[i];
        i++;
    }
    /* strip, then runs of white space to one space */
    size_t s0 = 0, s1 = n;
    while (s0 < s1 && pyspace(a[s0]))
        s0++;
    while (s1 > s0 && pyspace(a[s1 - 1]))
        s1--;
    m = 0;
    for (size_t i = s0; i < s1; i++) {
        if (pyspace(a[i])) {
            if (i > s0 && pyspace(a[i - 1]))
                continue;
            b[m++] = ' ';
        } else {
            b[m++] = a[i];
        }
    }
    /* NFD, without nonspacing marks; then strip again */
    if (grow((void **)&c->s, &c->scap, 4 * m + 8, 1))
        return ERR_NOMEM;
    size_t o = 0;
    utf8proc_int32_t dec[64];
    for (size_t i = 0; i < m;) {
        /* a starter and the marks after it decompose and reorder together */
        size_t j = i + 1;
        while (j < m && utf8proc_get_property((utf8proc_int32_t)b[j])->combining_class)
            j++;
        utf8proc_int32_t buf[256];
        utf8proc_ssize_t nb = 0;
        for (size_t q = i; q < j && nb < 192; q++) {
            utf8proc_ssize_t r = utf8proc_decompose_char((utf8proc_int32_t)b[q], dec, 64, UTF8PROC_DECOMPOSE, NULL);
            if (r < 0 || r > 64)
                return err_set(ERR_INTERNAL, "utf8proc: decomposing U+%04X failed", (unsigned)b[q]);
            memcpy(buf + nb, dec, (size_t)r * sizeof *dec);
            nb += r;
        }
        /* canonical order: a stable sort of the marks by combining class */
        for (utf8proc_ssize_t x = 1; x < nb; x++) {
            utf8proc_int32_t v = buf[x];
            int cv = utf8proc_get_property(v)->combining_class;
            utf8proc_ssize_t y = x;
            while (cv && y > 0) {
                int cy = utf8proc_get_property(buf[y - 1])->combining_class;
                if (cy <= cv)
                    break;
                buf[y] = buf[y - 1];
                y--;
            }
            buf[y] = v;
        }
        if (grow((void **)&c->s, &c->scap, o + 4 * (size_t)nb + 8, 1))
            return ERR_NOMEM;
        for (utf8proc_ssize_t x = 0; x < nb; x++)
            if (utf8proc_category(buf[x]) != UTF8PROC_CATEGORY_MN)
                o += (size_t)utf8_encode((uint32_t)buf[x], c->s + o);
        i = j;
    }
    const char *p = c->s;
    size_t pn = o;
    utf8_strip_pyspace(&p, &pn);
    memmove(c->s, p, pn);
    c->s[pn] = 0;
    *out = c->s;
    *outlen = pn;
    return 0;
}

/* The words of a simplified text (spaCy's, stripped, none empty). */
static int dt_words(decont_ctx *c, const char *s, size_t n)
{
    int rc = spacy_words(c->sp, s, n, &c->toks);
    return rc ? err_set(rc, "spaCy's tokenizer failed") : 0;
}

/* XXH64 of words[i .. i + n) joined by a space. */
static uint64_t dt_ngram(decont_ctx *c, const char *s, const sp_token *w, size_t n, size_t *jlen)
{
    size_t need = 0;
    for (size_t i = 0; i < n; i++)
        need += w[i].len + 1;
    if (grow((void **)&c->buf, &c->bcap, need + 1, 1))
        return 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            c->buf[o++] = ' ';
        memcpy(c->buf + o, s + w[i].off, w[i].len);
        o += w[i].len;
    }
    c->buf[o] = 0;
    *jlen = o;
    return XXH64(c->buf, o, 0);
}

/* NGramsDecontIndexer.compute_hashes(label, query). */
static int register_datatrove(decont *d, decont_ctx *c, const char *query, const char *label, uint32_t item)
{
    size_t N = (size_t)d->cfg.n, jl, sl;
    char *s;
    int rc = 0;
    /* the query's words (copied: the label's simplification reuses the buffers) */
    char *qs = NULL;
    sp_token *qw = NULL;
    size_t nq = 0;
    if (query) {
        if ((rc = decont_simplify(c, query, strlen(query), &s, &sl)) || (rc = dt_words(c, s, sl)))
            return rc;
        qs = malloc(sl + 1);
        qw = malloc((c->toks.n + 1) * sizeof *qw);
        if (!qs || !qw) {
            free(qs);
            free(qw);
            return err_set(ERR_NOMEM, "out of memory");
        }
        memcpy(qs, s, sl + 1);
        if (c->toks.n)
            memcpy(qw, c->toks.t, c->toks.n * sizeof *qw);
        nq = c->toks.n;
        for (size_t i = 0; d->cfg.query_ngrams && i + N <= nq && !rc; i++)
            rc = put(d, dt_ngram(c, qs, qw + i, N, &jl), item);
    }
    if (!rc)
        rc = decont_simplify(c, label ? label : "", label ? strlen(label) : 0, &s, &sl);
    if (!rc)
        rc = dt_words(c, s, sl);
    size_t nl = c->toks.n;
    for (size_t i = 0; !rc && i + N <= nl; i++)
        rc = put(d, dt_ngram(c, s, c->toks.t + i, N, &jl), item);
    /* query_tokens[-N + 1 + i:] + label_tokens[:i + 1], for i < N - 1, where both are long enough */
    for (size_t i = 0; !rc && query && i + 1 < N; i++) {
        size_t fromq = N - 1 - i;
        if (nq < fromq || nl < i + 1)
            continue;
        size_t need = 0;
        for (size_t x = nq - fromq; x < nq; x++)
            need += qw[x].len + 1;
        for (size_t x = 0; x <= i; x++)
            need += c->toks.t[x].len + 1;
        if ((rc = grow((void **)&c->buf, &c->bcap, need + 1, 1)))
            break;
        size_t o = 0;
        for (size_t x = nq - fromq; x < nq; x++) {
            if (o)
                c->buf[o++] = ' ';
            memcpy(c->buf + o, qs + qw[x].off, qw[x].len);
            o += qw[x].len;
        }
        for (size_t x = 0; x <= i; x++) {
            c->buf[o++] = ' ';
            memcpy(c->buf + o, s + c->toks.t[x].off, c->toks.t[x].len);
            o += c->toks.t[x].len;
        }
        rc = put(d, XXH64(c->buf, o, 0), item);
    }
    free(qs);
    free(qw);
    return rc;
}

static int check_datatrove(const decont *d, decont_ctx *c, const char *t, size_t len, decont_result *r)
{
    size_t N = (size_t)d->cfg.n, sl, jl;
    char *s;
    r->nhits = 0;
    r->npieces = 0;
    r->too_dirty = 0;
    int rc = decont_simplify(c, t, len, &s, &sl);
    if (!rc)
        rc = dt_words(c, s, sl);
    if (rc)
        return rc;
    for (size_t i = 0; i + N <= c->toks.n; i++) {
        uint32_t item;
        if (!get(d, dt_ngram(c, s, c->toks.t + i, N, &jl), &item))
            continue;
        if (grow((void **)&r->hits, &r->hcap, 1, sizeof *r->hits) ||
            grow((void **)&r->ngram, &r->ngram_cap, jl + 1, 1))
            return ERR_NOMEM;
        r->hits[0] = (decont_hit){item, 0, 0};
        memcpy(r->ngram, c->buf, jl + 1);
        r->nhits = 1;
        return 1;
    }
    return 0;
}

/* ---- the rest ---- */

int decont_add_set(decont *d, const eval_set *s)
{
    decont_ctx *c = decont_ctx_new(d);
    if (!c)
        return err_set(ERR_NOMEM, "out of memory");
    int rc = 0;
    char *both = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < s->n && !rc; i++) {
        const eval_item *it = &s->v[i];
        if (d->cfg.mode == DECONT_DROP) {
            rc = register_datatrove(d, c, it->query, it->gold, (uint32_t)i);
            continue;
        }
        size_t a = it->query ? strlen(it->query) : 0, b = it->gold ? strlen(it->gold) : 0;
        if ((rc = grow((void **)&both, &cap, a + b + 2, 1)))
            break;
        memcpy(both, it->query ? it->query : "", a);
        both[a] = ' ';
        memcpy(both + a + 1, it->gold ? it->gold : "", b);
        both[a + 1 + b] = 0;
        rc = register_janitor(d, c, both, (uint32_t)i);
    }
    free(both);
    decont_ctx_free(c);
    return rc;
}

decont_ctx *decont_ctx_new(const decont *d)
{
    decont_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    size_t n = (size_t)d->cfg.n, m = (size_t)d->cfg.max_matches + 1;
    c->wh = malloc(n * sizeof *c->wh);
    c->ws = malloc(n * sizeof *c->ws);
    c->we = malloc(n * sizeof *c->we);
    c->wcs = malloc(n * sizeof *c->wcs);
    c->wce = malloc(n * sizeof *c->wce);
    c->mcs = malloc(m * sizeof *c->mcs);
    c->mce = malloc(m * sizeof *c->mce);
    if (!c->wh || !c->ws || !c->we || !c->wcs || !c->wce || !c->mcs || !c->mce ||
        (d->cfg.mode == DECONT_DROP && !(c->sp = spacy_ctx_new()))) {
        decont_ctx_free(c);
        return NULL;
    }
    return c;
}

void decont_ctx_free(decont_ctx *c)
{
    if (!c)
        return;
    if (c->sp)
        spacy_ctx_free(c->sp);
    sp_tokens_free(&c->toks);
    free(c->cp);
    free(c->cp2);
    free(c->s);
    free(c->buf);
    free(c->mcs);
    free(c->mce);
    free(c->wh);
    free(c->ws);
    free(c->we);
    free(c->wcs);
    free(c->wce);
    free(c);
}

int decont_check(const decont *d, decont_ctx *c, const char *text, size_t len, decont_result *r)
{
    return d->cfg.mode == DECONT_DROP ? check_datatrove(d, c, text, len, r) : check_janitor(d, c, text, len, r);
}

void decont_result_free(decont_result *r)
{
    free(r->hits);
    free(r->pieces);
    free(r->ngram);
    memset(r, 0, sizeof *r);
}

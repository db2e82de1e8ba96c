/* test_substr.c - dedup/substr.c against brute force: the per-position repeat
 * lengths (longest previous factor; longest match with any other position), never
 * across a document's end, for bytes and 16-bit symbols, and the merged ranges; the
 * shards' winnowing: two equal windows of k symbols select the same fingerprint. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "dedup/substr.h"
#include "dedup/substr_shard.h"
#include "tests/unit/check.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static uint32_t sym(const void *T, int unit, int64_t i)
{
    return unit == 1 ? ((const uint8_t *)T)[i] : ((const uint16_t *)T)[i];
}

/* lcp of the suffixes at p and q, stopping at a separator (0) */
static int32_t lcp(const void *T, int unit, int64_t n, int64_t p, int64_t q)
{
    int32_t l = 0;
    while (p + l < n && q + l < n && sym(T, unit, p + l) && sym(T, unit, p + l) == sym(T, unit, q + l))
        l++;
    return l;
}

/* A corpus of ndoc documents over an alphabet of k symbols (1..k), with planted copies of
 * earlier stretches (inside a document and across documents), each document ending in 0. */
static int64_t corpus(void *T, int unit, int ndoc, int maxlen, int k)
{
    int64_t n = 0;
    for (int d = 0; d < ndoc; d++) {
        int len = 1 + (int)(rnd() % (uint32_t)maxlen);
        for (int i = 0; i < len; i++) {
            uint32_t v = 1 + rnd() % (uint32_t)k;
            if (n > 8 && rnd() % 16 == 0) { /* copy a stretch from earlier */
                int64_t from = rnd() % (uint64_t)(n - 1), m = 1 + rnd() % 12;
                for (int64_t j = 0; j < m && i < len; j++, i++) {
                    uint32_t c = sym(T, unit, from + j);
                    if (!c)
                        break;
                    if (unit == 1)
                        ((uint8_t *)T)[n++] = (uint8_t)c;
                    else
                        ((uint16_t *)T)[n++] = (uint16_t)c;
                }
                continue;
            }
            if (unit == 1)
                ((uint8_t *)T)[n++] = (uint8_t)v;
            else
                ((uint16_t *)T)[n++] = (uint16_t)v;
        }
        if (unit == 1)
            ((uint8_t *)T)[n++] = 0;
        else
            ((uint16_t *)T)[n++] = 0;
    }
    return n;
}

static void compare(int unit, int mode, int k)
{
    enum { CAP = 1 << 14 };
    void *T = malloc(CAP * 2 * (size_t)unit);
    int32_t *L = malloc(CAP * 2 * sizeof *L);
    int64_t n = corpus(T, unit, 40, 60, k);
    CHECK(n < 2 * CAP);
    CHECK_EQ_INT(substr_lengths(T, unit, n, mode, SUBSTR_LIBSAIS, 2, L, NULL), 0);
    int bad = 0, longest = 0;
    for (int64_t p = 0; p < n; p++) {
        int32_t best = 0;
        for (int64_t q = 0; q < n; q++) {
            if (q == p || (mode == SUBSTR_KEEP_FIRST && q > p))
                continue;
            int32_t l = lcp(T, unit, n, p, q);
            best = l > best ? l : best;
        }
        bad += best != L[p];
        longest = best > longest ? best : longest;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(longest >= 8); /* the planted copies were found */
    /* the merged ranges: exactly the positions covered by some [p, p + L(p)) with L >= 5 */
    substr_range *r;
    size_t nr;
    CHECK_EQ_INT(substr_find(T, unit, n, 5, mode, SUBSTR_LIBSAIS, 1, &r, &nr, NULL), 0);
    char *cov = calloc((size_t)n, 1), *got = calloc((size_t)n, 1);
    for (int64_t p = 0; p < n; p++)
        for (int32_t j = 0; L[p] >= 5 && j < L[p]; j++)
            cov[p + j] = 1;
    for (size_t i = 0; i < nr; i++) {
        CHECK(r[i].start < r[i].end && (i == 0 || r[i].start > r[i - 1].end));
        for (int64_t p = r[i].start; p < r[i].end && p < n; p++)
            got[p] = 1;
    }
    CHECK(nr > 0);
    CHECK(memcmp(cov, got, (size_t)n) == 0);
    for (int64_t p = 0; p < n; p++) /* no separator is ever struck */
        if (!sym(T, unit, p))
            CHECK(!got[p]);
    free(cov);
    free(got);
    free(r);
    free(T);
    free(L);
}

/* libdivsufsort's plain suffix array with the LCP cut at separators: the same lengths */
static void test_divsufsort_same(void)
{
    enum { CAP = 1 << 15 };
    uint8_t *T = malloc(CAP);
    int32_t *a = malloc(CAP * sizeof *a), *b = malloc(CAP * sizeof *b);
    for (int mode = 0; mode < 2; mode++)
        for (int k = 2; k <= 200; k *= 10) {
            int64_t n = corpus(T, 1, 200, 80, k);
            CHECK(n < CAP);
            CHECK_EQ_INT(substr_lengths(T, 1, n, mode, SUBSTR_LIBSAIS, 1, a, NULL), 0);
            CHECK_EQ_INT(substr_lengths(T, 1, n, mode, SUBSTR_DIVSUFSORT, 1, b, NULL), 0);
            CHECK(memcmp(a, b, (size_t)n * sizeof *a) == 0);
            substr_range *ra, *rb;
            size_t na, nb;
            CHECK_EQ_INT(substr_find(T, 1, n, 4, mode, SUBSTR_LIBSAIS, 2, &ra, &na, NULL), 0);
            CHECK_EQ_INT(substr_find(T, 1, n, 4, mode, SUBSTR_DIVSUFSORT, 1, &rb, &nb, NULL), 0);
            CHECK(na == nb && na > 0 && memcmp(ra, rb, na * sizeof *ra) == 0);
            free(ra);
            free(rb);
        }
    CHECK_EQ_INT(substr_lengths(T, 2, 4, 0, SUBSTR_DIVSUFSORT, 1, a, NULL), ERR_USAGE);
    free(T);
    free(a);
    free(b);
}

static void test_keep_first_bytes(void) { compare(1, SUBSTR_KEEP_FIRST, 4); }
static void test_remove_all_bytes(void) { compare(1, SUBSTR_REMOVE_ALL, 4); }
static void test_keep_first_tokens(void) { compare(2, SUBSTR_KEEP_FIRST, 40000); }
static void test_remove_all_tokens(void) { compare(2, SUBSTR_REMOVE_ALL, 3); }
static void test_large_alphabet_bytes(void) { compare(1, SUBSTR_KEEP_FIRST, 255); }

/* The first copy stays with keep-first; both go with remove-all; a repeat shorter than
 * the minimum stays; a repeat across a document's end does not count. */
static void test_small_cases(void)
{
    const char s[] = "the cat sat on the mat\0xx the cat sat\0the c\0";
    int64_t n = (int64_t)sizeof s - 1; /* ends with its last separator */
    substr_range *r;
    size_t nr;
    CHECK_EQ_INT(substr_find(s, 1, n, 8, SUBSTR_KEEP_FIRST, SUBSTR_LIBSAIS, 1, &r, &nr, NULL), 0);
    CHECK_EQ_INT(nr, 1);
    if (nr == 1) { /* "the cat sat" in the second document (" the " of the first is 5 long) */
        CHECK_EQ_INT(r[0].start, 26);
        CHECK_EQ_INT(r[0].end, 37);
    }
    free(r);
    CHECK_EQ_INT(substr_find(s, 1, n, 8, SUBSTR_REMOVE_ALL, SUBSTR_LIBSAIS, 1, &r, &nr, NULL), 0);
    CHECK_EQ_INT(nr, 2);
    if (nr == 2) {
        CHECK_EQ_INT(r[0].start, 0); /* "the cat sat" in both documents */
        CHECK_EQ_INT(r[0].end, 11);
        CHECK_EQ_INT(r[1].start, 26);
        CHECK_EQ_INT(r[1].end, 37);
    }
    free(r);
    CHECK_EQ_INT(substr_find(s, 1, n, 13, SUBSTR_KEEP_FIRST, SUBSTR_LIBSAIS, 1, &r, &nr, NULL), 0);
    CHECK_EQ_INT(nr, 0);
    free(r);
    /* no separator at the end, a minimum of 0: refused */
    CHECK_EQ_INT(substr_find(s, 1, n - 1, 8, SUBSTR_KEEP_FIRST, SUBSTR_LIBSAIS, 1, &r, &nr, NULL), ERR_USAGE);
    CHECK_EQ_INT(substr_find(s, 1, n, 0, SUBSTR_KEEP_FIRST, SUBSTR_LIBSAIS, 1, &r, &nr, NULL), ERR_USAGE);
}

/* The cross-shard pass's promise: every window of k symbols holds a selected g-gram, and
 * two equal windows (anywhere in the corpus) hold one at the same offset with the same hash;
 * and each selection is emitted once, in position order. */
typedef struct {
    uint8_t *sel;  /* by position: selected */
    uint64_t *h;   /* its hash */
    int64_t base, last;
    int bad;
} winnow_seen;

static int seen(void *arg, uint64_t hash, uint32_t pos)
{
    winnow_seen *w = arg;
    int64_t p = w->base + pos;
    if (p <= w->last)
        w->bad = 1;
    w->last = p;
    w->sel[p] = 1;
    w->h[p] = hash;
    return 0;
}

static void test_winnow_shared(void)
{
    enum { CAP = 1 << 13 };
    for (int unit = 1; unit <= 2; unit++)
        for (int k = 1; k <= 12; k++) {
            void *T = malloc(CAP * 2 * (size_t)unit);
            int64_t n = corpus(T, unit, 30, 50, unit == 1 ? 3 : 2);
            CHECK(n < 2 * CAP);
            winnow_seen w = {calloc((size_t)n, 1), calloc((size_t)n, 8), 0, -1, 0};
            int g, ww;
            ss_winnow_params(k, &g, &ww);
            CHECK_EQ_INT(g + ww - 1, k);
            for (int64_t d = 0; d < n;) { /* each document */
                int64_t e = d;
                while (sym(T, unit, e))
                    e++;
                w.base = d;
                w.last = d - 1;
                CHECK_EQ_INT(ss_winnow((const uint8_t *)T + d * unit, unit, e - d, g, ww, seen, &w), 0);
                d = e + 1;
            }
            CHECK_EQ_INT(w.bad, 0);
            int missing = 0, unshared = 0, pairs = 0;
            for (int64_t p = 0; p < n; p++) {
                if (lcp(T, unit, n, p, p) < k) /* not a whole window */
                    continue;
                int any = 0;
                for (int64_t j = p; j + g <= p + k; j++)
                    any |= w.sel[j];
                missing += !any;
                for (int64_t q = p + 1; q < n; q++) {
                    if (lcp(T, unit, n, p, q) < k)
                        continue;
                    pairs++;
                    int same = 0;
                    for (int64_t j = 0; j + g <= k; j++)
                        same |= w.sel[p + j] && w.sel[q + j] && w.h[p + j] == w.h[q + j];
                    unshared += !same;
                }
            }
            CHECK_EQ_INT(missing, 0);
            CHECK_EQ_INT(unshared, 0);
            CHECK(pairs > 0);
            free(w.sel);
            free(w.h);
            free(T);
        }
}

int main(void)
{
    RUN(test_small_cases);
    RUN(test_keep_first_bytes);
    RUN(test_remove_all_bytes);
    RUN(test_keep_first_tokens);
    RUN(test_remove_all_tokens);
    RUN(test_large_alphabet_bytes);
    RUN(test_divsufsort_same);
    RUN(test_winnow_shared);
    return check_total_failed ? 1 : 0;
}

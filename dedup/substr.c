/* substr.c - repeated spans from a generalized suffix array (see substr.h). */
#include "dedup/substr.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/err.h"
#ifdef _OPENMP
#define LIBSAIS_OPENMP 1
#endif
#include "third_party/libsais/include/libsais.h"
#include "third_party/libsais/include/libsais16.h"
#include <divsufsort.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int build_sa(const void *T, int unit, int32_t n, int builder, int threads, int32_t *SA, substr_stats *st);

/* The generalized suffix array and its LCP array (LCP[i] = lcp(SA[i - 1], SA[i]), 0
 * for i = 0; the comparisons stop at a separator). PLCP is scratch. */
static int build(const void *T, int unit, int32_t n, int threads, int32_t *SA, int32_t *PLCP, int32_t *LCP,
                 substr_stats *st)
{
    int32_t rc = build_sa(T, unit, n, SUBSTR_LIBSAIS, threads, SA, st);
    if (rc)
        return rc;
    double t1 = now();
#ifdef _OPENMP
    rc = unit == 1 ? libsais_plcp_gsa_omp(T, SA, PLCP, n, threads) : libsais16_plcp_gsa_omp(T, SA, PLCP, n, threads);
    if (!rc)
        rc = libsais_lcp_omp(PLCP, SA, LCP, n, threads);
#else
    rc = unit == 1 ? libsais_plcp_gsa(T, SA, PLCP, n) : libsais16_plcp_gsa(T, SA, PLCP, n);
    if (!rc)
        rc = libsais_lcp(PLCP, SA, LCP, n);
#endif
    if (rc)
        return err_set(ERR_INTERNAL, "libsais: the LCP array of %d symbols failed (%d)", (int)n, (int)rc);
    if (st)
        st->lcp_seconds += now() - t1;
    return 0;
}

/* libdivsufsort's plain suffix array, and the LCP array by Kasai's order with each
 * comparison stopped at a separator (a match that reaches a document's end reaches it
 * in both suffixes, so the lengths are the generalized array's). PLCP is scratch. */
static int build_divsufsort(const uint8_t *T, int32_t n, int32_t *SA, int32_t *PLCP, int32_t *LCP, substr_stats *st)
{
    int rc = build_sa(T, 1, n, SUBSTR_DIVSUFSORT, 1, SA, st);
    if (rc)
        return rc;
    double t1 = now();
    int32_t *phi = LCP; /* the suffix before each one in the array, by position */
    phi[SA[0]] = -1;
    for (int32_t i = 1; i < n; i++)
        phi[SA[i]] = SA[i - 1];
    int32_t l = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t j = phi[i];
        if (j < 0) {
            PLCP[i] = l = 0;
            continue;
        }
        while (T[i + l] && T[i + l] == T[j + l]) /* T ends in 0: the loop stops there */
            l++;
        PLCP[i] = l;
        l = l > 0 ? l - 1 : 0;
    }
    for (int32_t i = 0; i < n; i++)
        LCP[i] = PLCP[SA[i]];
    if (st)
        st->lcp_seconds += now() - t1;
    return 0;
}

/* One stack entry: an index of the suffix array and the least LCP between the entry
 * below it and it. */
typedef struct {
    int32_t i, gap;
} entry;

/* The longest previous factor of each suffix, by suffix-array index into R: the most
 * it shares with a suffix that starts earlier in the corpus. That suffix is the
 * nearest one before or after it in the suffix array with a smaller position (the
 * LCP of two entries is the least LCP between them), found for every entry by two
 * passes of a stack that keeps positions increasing. */
static int longest_previous(const int32_t *SA, const int32_t *LCP, int32_t n, int32_t *R)
{
    size_t cap = 1024, top = 0;
    entry *s = malloc(cap * sizeof *s);
    if (!s)
        return err_set(ERR_NOMEM, "out of memory");
    memset(R, 0, (size_t)n * sizeof *R);
    for (int pass = 0; pass < 2; pass++) {
        top = 0;
        for (int32_t k = 0; k < n; k++) {
            /* forward: the next entry with a smaller position; backward: the previous one */
            int32_t i = pass == 0 ? k : n - 1 - k;
            int32_t cur = pass == 0 ? LCP[i] : (i + 1 < n ? LCP[i + 1] : 0);
            while (top && SA[s[top - 1].i] > SA[i]) {
                entry t = s[--top];
                if (cur > R[t.i])
                    R[t.i] = cur;
                if (t.gap < cur)
                    cur = t.gap;
            }
            if (top == cap) {
                entry *g = realloc(s, 2 * cap * sizeof *s);
                if (!g) {
                    free(s);
                    return err_set(ERR_NOMEM, "out of memory");
                }
                s = g;
                cap *= 2;
            }
            s[top++] = (entry){i, cur};
        }
    }
    free(s);
    return 0;
}

int substr_lengths(const void *T, int unit, int64_t n64, int mode, int builder, int threads, int32_t *L,
                   substr_stats *st)
{
    if (unit != 1 && unit != 2)
        return err_set(ERR_USAGE, "substr: unit %d (1: bytes, 2: 16-bit tokens)", unit);
    if (builder == SUBSTR_DIVSUFSORT && unit != 1)
        return err_set(ERR_USAGE, "libdivsufsort builds suffix arrays of bytes only (--unit bytes)");
    if (n64 < 1 || n64 >= INT32_MAX)
        return err_set(ERR_USAGE, "substr: %lld symbols (1 to 2^31 - 2 per suffix array: shard the input)",
                       (long long)n64);
    int32_t n = (int32_t)n64;
    if ((unit == 1 ? ((const uint8_t *)T)[n - 1] : ((const uint16_t *)T)[n - 1]) != 0)
        return err_set(ERR_USAGE, "substr: the corpus must end with the separator 0");
    int32_t *SA = malloc((size_t)n * sizeof *SA), *LCP = malloc((size_t)n * sizeof *LCP);
    if (!SA || !LCP) {
        free(SA);
        free(LCP);
        return err_set(ERR_NOMEM, "out of memory for the suffix array of %d symbols (8 bytes each)", (int)n);
    }
    /* L serves as the PLCP scratch, then as the per-entry lengths, then by position */
    int rc = builder == SUBSTR_DIVSUFSORT ? build_divsufsort(T, n, SA, L, LCP, st)
                                          : build(T, unit, n, threads, SA, L, LCP, st);
    double t0 = now();
    if (!rc && mode == SUBSTR_KEEP_FIRST) {
        rc = longest_previous(SA, LCP, n, L);
    } else if (!rc) {
        for (int32_t i = 0; i < n; i++) /* the longest match with any other suffix */
            L[i] = i + 1 < n && LCP[i + 1] > LCP[i] ? LCP[i + 1] : LCP[i];
    }
    if (!rc) { /* by suffix-array index -> by position (LCP is free now) */
        for (int32_t i = 0; i < n; i++)
            LCP[SA[i]] = L[i];
        memcpy(L, LCP, (size_t)n * sizeof *L);
    }
    if (st)
        st->scan_seconds += now() - t0;
    free(SA);
    free(LCP);
    return rc;
}

/* The suffix array alone (no LCP array): libsais's generalized one, or libdivsufsort's. */
static int build_sa(const void *T, int unit, int32_t n, int builder, int threads, int32_t *SA, substr_stats *st)
{
    double t0 = now();
    int32_t rc;
    if (builder == SUBSTR_DIVSUFSORT) {
        rc = divsufsort(T, SA, n);
    } else {
#ifdef _OPENMP
        rc = unit == 1 ? libsais_gsa_omp(T, SA, n, 0, NULL, threads) : libsais16_gsa_omp(T, SA, n, 0, NULL, threads);
#else
        (void)threads;
        rc = unit == 1 ? libsais_gsa(T, SA, n, 0, NULL) : libsais16_gsa(T, SA, n, 0, NULL);
#endif
    }
    if (rc)
        return err_set(ERR_INTERNAL, "%s: the suffix array of %d symbols failed (%d)",
                       builder == SUBSTR_DIVSUFSORT ? "libdivsufsort" : "libsais", (int)n, (int)rc);
    if (st)
        st->sa_seconds += now() - t0;
    return 0;
}

/* min(k, the symbols two suffixes share before a separator): eight bytes at a time while
 * both stay inside the n symbols (the first difference or separator by the lowest set
 * bit), then symbol by symbol. */
static inline uint64_t zero_bytes(uint64_t x) { return (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull; }
static inline uint64_t zero_words(uint64_t x) { return (x - 0x0001000100010001ull) & ~x & 0x8000800080008000ull; }
static inline int32_t cap_lcp(const void *T, int unit, int32_t n, int32_t a, int32_t b, int32_t k)
{
    int32_t l = 0, w = 8 / unit, far = a > b ? a : b;
    const uint8_t *x = (const uint8_t *)T + (size_t)a * unit, *y = (const uint8_t *)T + (size_t)b * unit;
    while (l < k && far + l + w <= n) {
        uint64_t u, v;
        memcpy(&u, x + (size_t)l * unit, 8);
        memcpy(&v, y + (size_t)l * unit, 8);
        uint64_t stop = (u ^ v) | (unit == 1 ? zero_bytes(u) : zero_words(u));
        if (stop) {
            l += (int32_t)(__builtin_ctzll(stop) / (8 * unit));
            return l < k ? l : k;
        }
        l += w;
    }
    if (unit == 1) {
        while (l < k && x[l] && x[l] == y[l])
            l++;
    } else {
        const uint16_t *x2 = (const uint16_t *)x, *y2 = (const uint16_t *)y;
        while (l < k && x2[l] && x2[l] == y2[l])
            l++;
    }
    return l < k ? l : k;
}

typedef struct {
    int32_t pos, gap, res; /* the suffix's position, the least LCP to the entry below, its
                              longest previous factor so far (capped at k) */
} pentry;

/* The capped LCPs of the suffix-array entries [c0, c1) with the ones before them,
 * computed by the threads (each comparison is independent; the stack pass is not). */
static void chunk_lcp(const void *T, int unit, int32_t n, const int32_t *SA, int32_t k, int32_t c0, int32_t c1,
                      int threads, int32_t *out)
{
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
#endif
    for (int32_t i = c0; i < c1; i++)
        out[i - c0] = i ? cap_lcp(T, unit, n, SA[i - 1], SA[i], k) : 0;
    (void)threads;
}

/* Which positions start a repeat of at least k symbols, a bit each (by position): the
 * lengths only matter up to k, since a position whose repeat is m >= k long is followed by
 * m - k more whose repeats reach as far (LPF[p + 1] >= LPF[p] - 1), so the union of
 * [p, p + k) over the marked positions is the union of [p, p + L(p)). The LCP of
 * neighbours in the suffix array is compared directly, up to k symbols, so no LCP array
 * is held: the suffix array, the symbols and n / 8 bytes (the comparisons by the threads, a
 * chunk at a time). Keep-first: one pass of a
 * stack that keeps positions increasing gives each entry its nearest earlier-starting
 * neighbours on both sides (the one below it on the stack when it is pushed, the one that
 * pops it) and the least LCP to each. */
static int mark_repeats(const void *T, int unit, int32_t n, const int32_t *SA, int32_t k, int mode, int threads,
                        uint8_t *bit, uint64_t *marked)
{
    enum { CHUNK = 1 << 16 };
    uint64_t m = 0;
    int32_t *lb = malloc((CHUNK + 1) * sizeof *lb);
    size_t cap = 1024, top = 0;
    pentry *s = mode == SUBSTR_KEEP_FIRST ? malloc(cap * sizeof *s) : NULL;
    if (!lb || (mode == SUBSTR_KEEP_FIRST && !s)) {
        free(lb);
        free(s);
        return err_set(ERR_NOMEM, "out of memory");
    }
#define MARK(p) (bit[(p) >> 3] & (1u << ((p)&7)) ? 0 : (bit[(p) >> 3] |= (uint8_t)(1u << ((p)&7)), m++))
    for (int32_t c0 = 0; c0 < n; c0 += CHUNK) {
        int32_t c1 = n - c0 > CHUNK ? c0 + CHUNK : n;
        /* lb[j]: entry c0 + j with the one before; one more for remove-all's look-ahead */
        chunk_lcp(T, unit, n, SA, k, c0, c1 < n ? c1 + 1 : c1, threads, lb);
        if (c1 == n)
            lb[c1 - c0] = 0;
        for (int32_t i = c0; i < c1; i++) {
            int32_t p = SA[i], cur = lb[i - c0];
            if (mode == SUBSTR_REMOVE_ALL) { /* the longest match with either neighbour */
                if (cur >= k || lb[i - c0 + 1] >= k)
                    MARK(p);
                continue;
            }
            while (top && s[top - 1].pos > p) {
                pentry t = s[--top]; /* p is the next entry that starts earlier than t */
                if (t.res >= k || cur >= k)
                    MARK(t.pos);
                if (t.gap < cur)
                    cur = t.gap;
            }
            if (top == cap) {
                pentry *g = realloc(s, 2 * cap * sizeof *s);
                if (!g) {
                    free(s);
                    free(lb);
                    return err_set(ERR_NOMEM, "out of memory");
                }
                s = g;
                cap *= 2;
            }
            /* the entry below now starts earlier than p: the nearest such before it */
            s[top] = (pentry){p, cur, top ? cur : 0};
            top++;
        }
    }
    while (top) {
        pentry t = s[--top];
        if (t.res >= k)
            MARK(t.pos);
    }
#undef MARK
    free(s);
    free(lb);
    *marked = m;
    return 0;
}

int substr_find(const void *T, int unit, int64_t n64, int64_t min_len, int mode, int builder, int threads,
                substr_range **out, size_t *nout, substr_stats *st)
{
    *out = NULL;
    *nout = 0;
    if (min_len < 1 || min_len > INT32_MAX)
        return err_set(ERR_USAGE, "substr: a minimum length of %lld (1 or more)", (long long)min_len);
    if (unit != 1 && unit != 2)
        return err_set(ERR_USAGE, "substr: unit %d (1: bytes, 2: 16-bit tokens)", unit);
    if (builder == SUBSTR_DIVSUFSORT && unit != 1)
        return err_set(ERR_USAGE, "libdivsufsort builds suffix arrays of bytes only (--unit bytes)");
    if (n64 < 1 || n64 >= INT32_MAX)
        return err_set(ERR_USAGE, "substr: %lld symbols (1 to 2^31 - 2 per suffix array: shard the input)",
                       (long long)n64);
    int32_t n = (int32_t)n64, k = (int32_t)min_len;
    if ((unit == 1 ? ((const uint8_t *)T)[n - 1] : ((const uint16_t *)T)[n - 1]) != 0)
        return err_set(ERR_USAGE, "substr: the corpus must end with the separator 0");
    int32_t *SA = malloc((size_t)n * sizeof *SA);
    uint8_t *bit = calloc((size_t)n / 8 + 1, 1);
    if (!SA || !bit) {
        free(SA);
        free(bit);
        return err_set(ERR_NOMEM, "out of memory for the suffix array of %d symbols (4 bytes each)", (int)n);
    }
    uint64_t marked = 0;
    int rc = build_sa(T, unit, n, builder, threads, SA, st);
    double t0 = now();
    if (!rc)
        rc = mark_repeats(T, unit, n, SA, k, mode, threads, bit, &marked);
    free(SA);
    size_t cap = 0, nr = 0;
    substr_range *r = NULL;
    int64_t end = -1; /* of the range being merged */
    for (int64_t p = 0; p < n && !rc; p++) {
        if (!(bit[p >> 3] & (1u << (p & 7))))
            continue;
        int64_t e = p + k;
        if (nr && p <= end) { /* overlaps or touches the last range */
            if (e > end)
                end = r[nr - 1].end = e;
            continue;
        }
        if (nr == cap) {
            size_t nc = cap ? 2 * cap : 1024;
            substr_range *g = realloc(r, nc * sizeof *g);
            if (!g) {
                rc = err_set(ERR_NOMEM, "out of memory for the repeated spans");
                break;
            }
            r = g;
            cap = nc;
        }
        r[nr++] = (substr_range){p, e};
        end = e;
    }
    free(bit);
    if (st) {
        st->scan_seconds += now() - t0;
        st->repeats += marked;
    }
    if (rc) {
        free(r);
        return rc;
    }
    *out = r;
    *nout = nr;
    return 0;
}

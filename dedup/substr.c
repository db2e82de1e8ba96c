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

/* The generalized suffix array and its LCP array (LCP[i] = lcp(SA[i - 1], SA[i]), 0
 * for i = 0; the comparisons stop at a separator). PLCP is scratch. */
static int build(const void *T, int unit, int32_t n, int threads, int32_t *SA, int32_t *PLCP, int32_t *LCP,
                 substr_stats *st)
{
    double t0 = now();
    int32_t rc;
#ifdef _OPENMP
    rc = unit == 1 ? libsais_gsa_omp(T, SA, n, 0, NULL, threads) : libsais16_gsa_omp(T, SA, n, 0, NULL, threads);
#else
    (void)threads;
    rc = unit == 1 ? libsais_gsa(T, SA, n, 0, NULL) : libsais16_gsa(T, SA, n, 0, NULL);
#endif
    if (rc)
        return err_set(ERR_INTERNAL, "libsais: the suffix array of %d symbols failed (%d)", (int)n, (int)rc);
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
    if (st) {
        st->sa_seconds += t1 - t0;
        st->lcp_seconds += now() - t1;
    }
    return 0;
}

/* libdivsufsort's plain suffix array, and the LCP array by Kasai's order with each
 * comparison stopped at a separator (a match that reaches a document's end reaches it
 * in both suffixes, so the lengths are the generalized array's). PLCP is scratch. */
static int build_divsufsort(const uint8_t *T, int32_t n, int32_t *SA, int32_t *PLCP, int32_t *LCP, substr_stats *st)
{
    double t0 = now();
    if (divsufsort(T, SA, n))
        return err_set(ERR_INTERNAL, "libdivsufsort: the suffix array of %d bytes failed", (int)n);
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
    if (st) {
        st->sa_seconds += t1 - t0;
        st->lcp_seconds += now() - t1;
    }
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

int substr_find(const void *T, int unit, int64_t n, int64_t min_len, int mode, int builder, int threads,
                substr_range **out, size_t *nout, substr_stats *st)
{
    *out = NULL;
    *nout = 0;
    if (min_len < 1)
        return err_set(ERR_USAGE, "substr: a minimum length of %lld (1 or more)", (long long)min_len);
    int32_t *L = n > 0 && n < INT32_MAX ? malloc((size_t)n * sizeof *L) : NULL;
    if (!L && n > 0 && n < INT32_MAX)
        return err_set(ERR_NOMEM, "out of memory for %lld lengths", (long long)n);
    int rc = substr_lengths(T, unit, n, mode, builder, threads, L, st);
    if (rc) {
        free(L);
        return rc;
    }
    double t0 = now();
    size_t cap = 0, k = 0;
    substr_range *r = NULL;
    int64_t end = -1; /* of the range being merged */
    for (int64_t p = 0; p < n && !rc; p++) {
        if (L[p] < min_len)
            continue;
        if (st)
            st->repeats++;
        int64_t e = p + L[p];
        if (k && p <= end) { /* overlaps or touches the last range */
            if (e > end)
                end = r[k - 1].end = e;
            continue;
        }
        if (k == cap) {
            size_t nc = cap ? 2 * cap : 1024;
            substr_range *g = realloc(r, nc * sizeof *g);
            if (!g) {
                rc = err_set(ERR_NOMEM, "out of memory for the repeated spans");
                break;
            }
            r = g;
            cap = nc;
        }
        r[k++] = (substr_range){p, e};
        end = e;
    }
    free(L);
    if (st)
        st->scan_seconds += now() - t0;
    if (rc) {
        free(r);
        return rc;
    }
    *out = r;
    *nout = k;
    return 0;
}

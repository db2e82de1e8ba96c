/* substr.h - exact-substring deduplication (Lee et al. 2022, "Deduplicating Training
 * Data Makes Language Models Better"; RefinedWeb's step after MinHash): the spans of a
 * corpus that occur more than once, at least min_len symbols long, found with a
 * generalized suffix array (libsais, third_party/libsais) and its LCP array.
 *
 * The corpus is one array of symbols, bytes (unit 1) or 16-bit token ids (unit 2),
 * with each document followed by the separator 0 (documents must not contain 0: the
 * caller maps it away; nor be empty: two separators in a row fail libsais). The generalized suffix array compares suffixes only up to
 * their separator, so no repeat crosses a document's end.
 *
 *   SUBSTR_KEEP_FIRST  a span is removed where it occurred earlier in the corpus (the
 *                      longest previous factor of each position, Crochemore and Ilie's
 *                      definition: max over q < p of lcp(p, q)); the first copy stays.
 *   SUBSTR_REMOVE_ALL  every copy of a repeated span is removed (the reference tool's
 *                      self-similar + collect: each suffix's longest match with any
 *                      other, its neighbours in the suffix array).
 *
 * Position p is struck for [p, p + L(p)) when L(p) >= min_len; the struck ranges are
 * merged and returned in corpus order. substr_find holds the suffix array and a bit per
 * position beside the input (4 bytes and 1/8 a symbol): the lengths matter only up to
 * min_len, so neighbours in the suffix array are compared directly, up to min_len
 * symbols, and no LCP array is built (substr_lengths builds one, for the tests). */
#ifndef DEDUP_SUBSTR_H
#define DEDUP_SUBSTR_H

#include <stddef.h>
#include <stdint.h>

enum { SUBSTR_KEEP_FIRST = 0, SUBSTR_REMOVE_ALL = 1 };
/* The suffix array's builder: libsais's generalized suffix array (the tool's), or, for
 * the benchmark's comparison (bytes only), libdivsufsort's plain suffix array with the
 * LCP array cut at the separators (Kasai's order): the same lengths either way. */
enum { SUBSTR_LIBSAIS = 0, SUBSTR_DIVSUFSORT = 1 };

typedef struct {
    int64_t start, end; /* symbols [start, end) of the corpus */
} substr_range;

typedef struct {
    double sa_seconds, lcp_seconds, scan_seconds; /* lcp: substr_lengths only */
    uint64_t repeats; /* positions whose length reached min_len */
} substr_stats;

/* T: n symbols (uint8_t for unit 1, uint16_t for unit 2), T[n - 1] == 0; n < 2^31.
 * threads: libsais's threads (OpenMP builds; 1 otherwise). *out (malloc'd, *nout
 * ranges) in corpus order, merged. 0 or ERR_*. */
int substr_find(const void *T, int unit, int64_t n, int64_t min_len, int mode, int builder, int threads,
                substr_range **out, size_t *nout, substr_stats *st);

/* The per-position lengths alone, L[p] for p in [0, n) (what substr_find merges): for
 * the tests' brute-force comparison. L: n int32_t. */
int substr_lengths(const void *T, int unit, int64_t n, int mode, int builder, int threads, int32_t *L,
                   substr_stats *st);

#endif

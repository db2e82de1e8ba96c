/* hash.h - xxHash helpers and a small seeded RNG.
 *
 * hash64() is XXH3-64 with a seed: stable across platforms and versions of
 * libxxhash, so values may be stored on disk. The RNG is splitmix64, used where
 * we need reproducible streams from a user-given --seed.
 */
#ifndef COMMON_HASH_H
#define COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

uint64_t hash64(const void *data, size_t n, uint64_t seed);
/* A cheaper 64-bit hash of n bytes for tables that live in memory only (its values may
 * change between versions: never store them): up to 16 bytes in two loads, which may
 * overlap, and one 128-bit multiply folded; longer keys go to hash64. Reads s[0..n) only.
 * Every table that uses it compares the keys themselves too. */
static inline uint64_t hash64_mem(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *s = (const unsigned char *)data;
    uint64_t a, b;
    if (n > 16) return hash64(data, n, seed);
    if (n >= 8) {
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        a = x;
        b = y;
    } else {
        a = n ? (uint64_t)s[0] | (uint64_t)s[n >> 1] << 8 | (uint64_t)s[n - 1] << 16 : 0;
        b = 0;
    }
    unsigned __int128 m = (unsigned __int128)(a ^ seed ^ 0x9E3779B97F4A7C15ull) * (b ^ (uint64_t)n << 56 ^ 0xC2B2AE3D27D4EB4Full);
    uint64_t h = (uint64_t)m ^ (uint64_t)(m >> 64);
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}
/* Equal bytes? For the short keys of in-memory tables: inline, a few loads that may
 * overlap (reads a[0..n) and b[0..n) only), no call to memcmp. */
static inline int mem_same(const void *pa, const void *pb, size_t n)
{
    const unsigned char *a = (const unsigned char *)pa, *b = (const unsigned char *)pb;
    if (n < 4) /* 0..3 bytes: first, middle, last */
        return n == 0 || (a[0] == b[0] && a[n >> 1] == b[n >> 1] && a[n - 1] == b[n - 1]);
    if (n <= 8) { /* 4..8 bytes: two overlapping words */
        uint32_t x0, y0, x1, y1;
        memcpy(&x0, a, 4);
        memcpy(&y0, b, 4);
        memcpy(&x1, a + n - 4, 4);
        memcpy(&y1, b + n - 4, 4);
        return ((x0 ^ y0) | (x1 ^ y1)) == 0;
    }
    uint64_t x, y;
    for (; n > 8; a += 8, b += 8, n -= 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y) return 0;
    }
    memcpy(&x, a + n - 8, 8); /* the last 1..8 bytes as the word that ends them (n was over 8) */
    memcpy(&y, b + n - 8, 8);
    return x == y;
}
/* A strong 64-bit mix (splitmix64 finaliser): a bijection on uint64. */
static inline uint64_t hash_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

typedef struct { uint64_t s; } rng_state;
static inline void rng_seed(rng_state *r, uint64_t seed) { r->s = seed; }
static inline uint64_t rng_next(rng_state *r)
{
    r->s += 0x9E3779B97F4A7C15ull;
    uint64_t x = r->s;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
/* Uniform integer in [0, n), n > 0, without modulo bias (Lemire). */
uint64_t rng_below(rng_state *r, uint64_t n);

#endif

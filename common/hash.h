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

uint64_t hash64(const void *data, size_t n, uint64_t seed);
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

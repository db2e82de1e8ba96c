/* hash.c - see hash.h. */
#include "hash.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t hash64(const void *data, size_t n, uint64_t seed) { return XXH3_64bits_withSeed(data, n, seed); }

uint64_t rng_below(rng_state *r, uint64_t n)
{
    unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
    uint64_t lo = (uint64_t)m;
    if (lo < n) {
        uint64_t t = -n % n;
        while (lo < t) {
            m = (unsigned __int128)rng_next(r) * n;
            lo = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

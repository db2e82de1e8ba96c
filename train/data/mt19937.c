/* mt19937.c - numpy-compatible MT19937 (see mt19937.h). */
#include "train/data/mt19937.h"

void mt19937_seed(mt19937 *st, uint32_t seed)
{
    for (int pos = 0; pos < MT19937_N; pos++) {
        st->key[pos] = seed;
        seed = 1812433253u * (seed ^ (seed >> 30)) + (uint32_t)pos + 1u;
    }
    st->pos = MT19937_N;
}

static void mt19937_gen(mt19937 *st)
{
    enum { M = 397 };
    const uint32_t upper = 0x80000000u, lower = 0x7fffffffu, matrix = 0x9908b0dfu;
    int i;
    uint32_t y;
    for (i = 0; i < MT19937_N - M; i++) {
        y = (st->key[i] & upper) | (st->key[i + 1] & lower);
        st->key[i] = st->key[i + M] ^ (y >> 1) ^ ((0u - (y & 1u)) & matrix);
    }
    for (; i < MT19937_N - 1; i++) {
        y = (st->key[i] & upper) | (st->key[i + 1] & lower);
        st->key[i] = st->key[i + (M - MT19937_N)] ^ (y >> 1) ^ ((0u - (y & 1u)) & matrix);
    }
    y = (st->key[MT19937_N - 1] & upper) | (st->key[0] & lower);
    st->key[MT19937_N - 1] = st->key[M - 1] ^ (y >> 1) ^ ((0u - (y & 1u)) & matrix);
    st->pos = 0;
}

uint32_t mt19937_next32(mt19937 *st)
{
    if (st->pos == MT19937_N)
        mt19937_gen(st);
    uint32_t y = st->key[st->pos++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

uint64_t mt19937_interval(mt19937 *st, uint64_t max)
{
    if (max == 0)
        return 0;
    uint64_t mask = max, v;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    if (max <= 0xffffffffu) {
        while ((v = (mt19937_next32(st) & mask)) > max)
            ;
    } else {
        do {
            uint64_t hi = mt19937_next32(st);
            v = ((hi << 32) | mt19937_next32(st)) & mask;
        } while (v > max);
    }
    return v;
}

/* RandomState.shuffle() on a 1-D array: Fisher-Yates from the end. */
#define MT19937_SHUFFLE(name, type)                                  \
    void name(mt19937 *st, type *a, size_t n)                        \
    {                                                                \
        for (size_t i = n; i-- > 1;) {                               \
            size_t j = (size_t)mt19937_interval(st, i);              \
            type t = a[i];                                           \
            a[i] = a[j];                                             \
            a[j] = t;                                                \
        }                                                            \
    }
MT19937_SHUFFLE(mt19937_shuffle_i32, int32_t)
MT19937_SHUFFLE(mt19937_shuffle_i64, int64_t)

/* mt19937.h - the Mersenne Twister exactly as numpy's legacy RandomState uses
 * it, so Megatron's dataset shuffles can be reproduced bit for bit.
 *
 * mt19937_seed() is numpy's RandomState(seed) for an integer seed in
 * [0, 2^32); mt19937_shuffle_*() is RandomState.shuffle() on a 1-D array:
 * Fisher-Yates from the end, j drawn by numpy's random_interval() (masked
 * rejection sampling, 32-bit draws while the bound fits in 32 bits).
 */
#ifndef TRAIN_MT19937_H
#define TRAIN_MT19937_H

#include <stddef.h>
#include <stdint.h>

#define MT19937_N 624

typedef struct {
    uint32_t key[MT19937_N];
    int pos;
} mt19937;

void mt19937_seed(mt19937 *st, uint32_t seed);
uint32_t mt19937_next32(mt19937 *st);
/* numpy random_interval(): uniform in [0, max]. */
uint64_t mt19937_interval(mt19937 *st, uint64_t max);
void mt19937_shuffle_i32(mt19937 *st, int32_t *a, size_t n);
void mt19937_shuffle_i64(mt19937 *st, int64_t *a, size_t n);

#endif

/* generate.h - sampling text from a trained model. */
#ifndef TRAIN_GENERATE_H
#define TRAIN_GENERATE_H

#include <stdint.h>

#include "common/hash.h"
#include "train/model/gpt.h"

typedef struct {
    double temperature; /* 0: greedy */
    int top_k;          /* 0: off */
    double top_p;       /* 0 or 1: off (Megatron: 0 means off) */
    int no_cache;       /* 1: rerun the whole window for every token (the reference for the KV cache) */
} gen_opts;

/* Pick the next token from logits[0..V) (the padded tail is ignored).
 * scratch: 2*V floats. Deterministic for a given rng state. */
int gen_pick(const float *logits, int V, const gen_opts *o, rng_state *rng, float *scratch);

/* Append up to max_new tokens to ids (capacity n + max_new) with the model
 * (a whole one: no tensor or pipeline split), feeding back the last maxT tokens;
 * stops after eod when eod >= 0. Calls emit(token, ctx) for each new token.
 * Keys and values of past positions are cached, so a new token costs one
 * position's work, until the window is full (then it slides, recomputed).
 * Returns the new length or ERR_*. */
int gen_run(gpt_model *m, int32_t *ids, int n, int max_new, int eod, const gen_opts *o, uint64_t seed,
            void (*emit)(int32_t tok, void *ctx), void *ctx);

#endif

/* generate.c - temperature / top-k / top-p sampling (see generate.h). */
#include "train/generate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"

typedef struct {
    float p;
    int i;
} pi_pair;

static int cmp_desc(const void *a, const void *b)
{
    const pi_pair *x = a, *y = b;
    if (x->p != y->p)
        return x->p < y->p ? 1 : -1;
    return x->i - y->i;
}

int gen_pick(const float *logits, int V, const gen_opts *o, rng_state *rng, float *scratch)
{
    (void)scratch;
    if (o->temperature <= 0) {
        int best = 0;
        for (int v = 1; v < V; v++)
            if (logits[v] > logits[best])
                best = v;
        return best;
    }
    pi_pair *pp = malloc((size_t)V * sizeof *pp);
    if (!pp)
        return 0;
    float mx = logits[0];
    for (int v = 1; v < V; v++)
        mx = logits[v] > mx ? logits[v] : mx;
    double sum = 0;
    for (int v = 0; v < V; v++) {
        pp[v].p = expf((float)((logits[v] - mx) / o->temperature));
        pp[v].i = v;
        sum += pp[v].p;
    }
    int n = V;
    if (o->top_k > 0 || (o->top_p > 0 && o->top_p < 1)) {
        qsort(pp, (size_t)V, sizeof *pp, cmp_desc);
        if (o->top_k > 0 && o->top_k < n)
            n = o->top_k;
        if (o->top_p > 0 && o->top_p < 1) {
            double tot = 0, c = 0;
            for (int k = 0; k < n; k++)
                tot += pp[k].p;
            for (int k = 0; k < n; k++) {
                c += pp[k].p;
                if (c >= o->top_p * tot) {
                    n = k + 1;
                    break;
                }
            }
        }
        sum = 0;
        for (int k = 0; k < n; k++)
            sum += pp[k].p;
    }
    double u = (double)(rng_next(rng) >> 11) * 0x1.0p-53 * sum, c = 0;
    int pick = pp[n - 1].i;
    for (int k = 0; k < n; k++) {
        c += pp[k].p;
        if (u < c) {
            pick = pp[k].i;
            break;
        }
    }
    free(pp);
    return pick;
}

int gen_run(gpt_model *m, int32_t *ids, int n, int max_new, int eod, const gen_opts *o, uint64_t seed,
            void (*emit)(int32_t tok, void *ctx), void *ctx)
{
    rng_state rng;
    rng_seed(&rng, seed);
    int maxT = m->cfg.max_seq_len, V = m->cfg.vocab_size, Vp = m->cfg.padded_vocab_size;
    for (int k = 0; k < max_new; k++) {
        int start = n > maxT ? n - maxT : 0, T = n - start;
        if (gpt_forward(m, ids + start, NULL, 1, T) < -1.5f)
            return ERR_NOMEM;
        int tok = gen_pick(m->logits + (size_t)(T - 1) * Vp, V, o, &rng, NULL);
        ids[n++] = tok;
        if (emit)
            emit(tok, ctx);
        if (eod >= 0 && tok == eod)
            break;
    }
    return n;
}

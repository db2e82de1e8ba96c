/* generate.c - temperature / top-k / top-p sampling (see generate.h). */
#include "train/generate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "train/cpu/kernels.h"

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

/* ---- the KV cache: one sequence, position by position -------------------- */
typedef struct {
    float *k, *v;   /* [L, maxT, C]: keys and values of positions 0..n-1 */
    int n;
    float *x, *ln, *qkv, *y, *tmp, *h, *hg, *att, *logits;
} kv_cache;

static void kv_free(kv_cache *c)
{
    free(c->k);
    free(c->v);
    free(c->x);
    memset(c, 0, sizeof *c);
}

static int kv_alloc(kv_cache *c, const gpt_model *m)
{
    memset(c, 0, sizeof *c);
    size_t C = (size_t)m->cfg.channels, L = (size_t)m->cfg.num_layers, T = (size_t)m->cfg.max_seq_len;
    c->k = malloc(L * T * C * sizeof(float));
    c->v = malloc(L * T * C * sizeof(float));
    size_t scratch = C + C + 3 * C + C + C + 4 * C + 4 * C + T + (size_t)m->cfg.padded_vocab_size;
    c->x = malloc(scratch * sizeof(float));
    if (!c->k || !c->v || !c->x) {
        kv_free(c);
        return err_set(ERR_NOMEM, "out of memory for the KV cache");
    }
    c->ln = c->x + C;
    c->qkv = c->ln + C;
    c->y = c->qkv + 3 * C;
    c->tmp = c->y + C;
    c->h = c->tmp + C;
    c->hg = c->h + 4 * C;
    c->att = c->hg + 4 * C;
    c->logits = c->att + T;
    return 0;
}

/* Run token tok at position c->n through the model, keeping its keys and values;
 * with want_logits, c->logits [Vp] gets the next-token logits. The same
 * operations as gpt_forward (train/cpu/kernels.c) on one row. */
static void kv_step(kv_cache *c, const gpt_model *m, int32_t tok, int want_logits)
{
    int C = m->cfg.channels, L = m->cfg.num_layers, NH = m->cfg.num_heads, hs = C / NH, T = m->cfg.max_seq_len;
    int pos = c->n;
    float mean, rstd, scale = 1.0f / sqrtf((float)hs);
    const float *e = gpt_tensor(m, GPT_WTE) + (size_t)tok * C, *p = gpt_tensor(m, GPT_WPE) + (size_t)pos * C;
    for (int i = 0; i < C; i++)
        c->x[i] = e[i] + p[i];
    for (int l = 0; l < L; l++) {
        size_t lc = (size_t)l * C;
        layernorm_forward(c->ln, &mean, &rstd, c->x, gpt_tensor(m, GPT_LN1W) + lc, gpt_tensor(m, GPT_LN1B) + lc, 1, C);
        matmul_forward(c->qkv, c->ln, gpt_tensor(m, GPT_QKVW) + lc * 3 * C, gpt_tensor(m, GPT_QKVB) + 3 * lc, 1, C,
                       3 * C, 0);
        float *K = c->k + (size_t)l * T * C, *Vv = c->v + (size_t)l * T * C;
        memcpy(K + (size_t)pos * C, c->qkv + C, (size_t)C * sizeof(float));
        memcpy(Vv + (size_t)pos * C, c->qkv + 2 * C, (size_t)C * sizeof(float));
        for (int h = 0; h < NH; h++) {
            const float *q = c->qkv + h * hs;
            float mx = -INFINITY, sum = 0;
            for (int t = 0; t <= pos; t++) {
                const float *kk = K + (size_t)t * C + h * hs;
                float s = 0;
                for (int d = 0; d < hs; d++)
                    s += q[d] * kk[d];
                c->att[t] = s * scale;
                mx = c->att[t] > mx ? c->att[t] : mx;
            }
            for (int t = 0; t <= pos; t++) {
                c->att[t] = exp_approx(c->att[t] - mx);
                sum += c->att[t];
            }
            float inv = 1.0f / sum, *y = c->y + h * hs;
            for (int d = 0; d < hs; d++)
                y[d] = 0;
            for (int t = 0; t <= pos; t++) {
                const float *vv = Vv + (size_t)t * C + h * hs;
                float a = c->att[t] * inv;
                for (int d = 0; d < hs; d++)
                    y[d] += a * vv[d];
            }
        }
        matmul_forward(c->tmp, c->y, gpt_tensor(m, GPT_ATTPROJW) + lc * C, gpt_tensor(m, GPT_ATTPROJB) + lc, 1, C, C, 0);
        for (int i = 0; i < C; i++)
            c->x[i] += c->tmp[i];
        layernorm_forward(c->ln, &mean, &rstd, c->x, gpt_tensor(m, GPT_LN2W) + lc, gpt_tensor(m, GPT_LN2B) + lc, 1, C);
        matmul_forward(c->h, c->ln, gpt_tensor(m, GPT_FCW) + lc * 4 * C, gpt_tensor(m, GPT_FCB) + 4 * lc, 1, C, 4 * C,
                       0);
        gelu_forward(c->hg, c->h, (size_t)4 * C);
        matmul_forward(c->tmp, c->hg, gpt_tensor(m, GPT_FCPROJW) + lc * 4 * C, gpt_tensor(m, GPT_FCPROJB) + lc, 1,
                       4 * C, C, 0);
        for (int i = 0; i < C; i++)
            c->x[i] += c->tmp[i];
    }
    c->n++;
    if (want_logits) {
        layernorm_forward(c->ln, &mean, &rstd, c->x, gpt_tensor(m, GPT_LNFW), gpt_tensor(m, GPT_LNFB), 1, C);
        matmul_forward(c->logits, c->ln, gpt_tensor(m, GPT_WTE), NULL, 1, C, m->cfg.padded_vocab_size, 0);
    }
}

/* Fill the cache with ids[0..n) (n <= maxT), logits after the last. */
static void kv_prefill(kv_cache *c, const gpt_model *m, const int32_t *ids, int n)
{
    c->n = 0;
    for (int i = 0; i < n; i++)
        kv_step(c, m, ids[i], i == n - 1);
}

int gen_run(gpt_model *m, int32_t *ids, int n, int max_new, int eod, const gen_opts *o, uint64_t seed,
            void (*emit)(int32_t tok, void *ctx), void *ctx)
{
    rng_state rng;
    rng_seed(&rng, seed);
    int maxT = m->cfg.max_seq_len, V = m->cfg.vocab_size, Vp = m->cfg.padded_vocab_size;
    if (!o->no_cache && n > 0 && max_new > 0) {
        kv_cache c;
        int rc = kv_alloc(&c, m);
        if (rc)
            return rc;
        int start = n > maxT ? n - maxT : 0;
        kv_prefill(&c, m, ids + start, n - start);
        for (int k = 0; k < max_new; k++) {
            int tok = gen_pick(c.logits, V, o, &rng, NULL);
            ids[n++] = tok;
            if (emit)
                emit(tok, ctx);
            if ((eod >= 0 && tok == eod) || k == max_new - 1)
                break;
            if (c.n < maxT)
                kv_step(&c, m, tok, 1);
            else
                kv_prefill(&c, m, ids + n - maxT, maxT); /* the window slides: positions change */
        }
        kv_free(&c);
        return n;
    }
    for (int k = 0; k < max_new; k++) {
        int start = n > maxT ? n - maxT : 0, T = n - start;
        int rc = gpt_forward(m, ids + start, NULL, 1, T, NULL);
        if (rc)
            return rc;
        int tok = gen_pick((const float *)m->logits + (size_t)(T - 1) * Vp, V, o, &rng, NULL); /* an fp32 model */
        ids[n++] = tok;
        if (emit)
            emit(tok, ctx);
        if (eod >= 0 && tok == eod)
            break;
    }
    return n;
}

/* gpt_int.h - what the model's files share (internal to train/model and the
 * parallel layers under train/parallel/ that run inside its forward and
 * backward):
 *
 *   train/model/gpt.c                 the model: allocation, initialisation,
 *                                     forward, backward, AdamW, FLOPs
 *   train/model/tensor_parallel.c  Megatron's tensor-parallel layers: the
 *                                     tensor group's collectives, RowParallel-
 *                                     Linear, the column-parallel input gradient,
 *                                     sequence-parallel LayerNorm
 *   train/model/zero_units.c       ZeRO-2/3's units: the parameters gathered
 *                                     and the gradients handed over per unit
 *   train/model/gpt_parts.c           a rank's part of the whole model, sliced
 *                                     from or gathered into a checkpoint's arrays
 */
#ifndef TRAIN_MODEL_GPT_INT_H
#define TRAIN_MODEL_GPT_INT_H

#include <stddef.h>

#include "train/model/gpt.h"
#include "train/ops/ops.h"

/* Tensor-parallel split of tensor t, viewed as [outer, S, inner] with S cut
 * into tp runs of Sl = ceil(S / tp) (rank r: [r*Sl, (r+1)*Sl) of S, rows past S
 * zero). S = 0: not split (replicated). */
typedef struct {
    size_t outer, S, inner;
} tp_split;

/* The split over L layers (a pipeline stage passes its own count). */
static inline tp_split split_of(const gpt_config *c, int t, size_t L)
{
    size_t C = (size_t)c->channels, Vp = (size_t)c->padded_vocab_size;
    switch (t) {
    case GPT_WTE: return (tp_split){1, Vp, C};
    case GPT_QKVW: return (tp_split){L * 3, C, C};    /* q, k, v rows of this rank's heads */
    case GPT_QKVB: return (tp_split){L * 3, C, 1};
    case GPT_ATTPROJW: return (tp_split){L * C, C, 1}; /* columns */
    case GPT_FCW: return (tp_split){L, 4 * C, C};
    case GPT_FCB: return (tp_split){L, 4 * C, 1};
    case GPT_FCPROJW: return (tp_split){L * C, 4 * C, 1}; /* columns */
    default: return (tp_split){0, 0, 0};
    }
}

static inline size_t split_local(size_t S, int tp) { return (S + (size_t)tp - 1) / (size_t)tp; }

/* Tensors stacked over layers (a pipeline stage holds some layers of each). */
static inline int per_layer(int t) { return t >= GPT_LN1W && t <= GPT_FCPROJB; }

/* Which tensors this stage holds: wte on the first and last (tied), wpe on the
 * first, lnf on the last, the layer tensors everywhere (its layers). */
/* Layers of one model chunk (all of the stage's without interleaving); whether
 * the current chunk is the first or the last of the whole (virtual) pipeline. */
static inline int chunk_layers(const gpt_model *m) { return m->nlayers / (m->vpp > 1 ? m->vpp : 1); }
static inline int is_first(const gpt_model *m) { return m->pp_rank == 0 && m->chunk == 0; }
static inline int is_last(const gpt_model *m) { return m->pp_rank == m->pp - 1 && m->chunk == (m->vpp > 1 ? m->vpp : 1) - 1; }

static inline int stage_holds(const gpt_model *m, int t)
{
    int first = m->pp_rank == 0, last = m->pp_rank == m->pp - 1;
    if (t == GPT_WTE)
        return first || last;
    if (t == GPT_WPE)
        return first;
    if (t == GPT_LNFW || t == GPT_LNFB)
        return last;
    return 1;
}

/* Local sizes of this rank: C/tp channels of attention, 4C/tp of the MLP,
 * NH/tp heads, Vl vocabulary rows. */
typedef struct {
    size_t C, Cl, C4l, NHl, Vl, v0;
} tp_dims;

static inline tp_dims dims_of(const gpt_model *m)
{
    const gpt_config *c = &m->cfg;
    tp_dims d;
    int tp = m->tp ? m->tp : 1;
    d.C = (size_t)c->channels;
    d.Cl = d.C / (size_t)tp;
    d.C4l = 4 * d.C / (size_t)tp;
    d.NHl = (size_t)(c->num_heads / tp);
    d.Vl = split_local((size_t)c->padded_vocab_size, tp);
    d.v0 = (size_t)m->tp_rank * d.Vl;
    return d;
}

/* Element i of a floatX buffer (the storage precision's size). */
static inline floatX *XI(const gpt_model *m, const floatX *p, size_t i) { return x_at(p, i, m->xb); }

static inline int unit_of(const gpt_model *m, int t, int l)
{
    return t == GPT_WTE || t == GPT_WPE ? 0 : per_layer(t) ? 1 + l : m->nlayers + 1;
}

/* Elements of tensor t per layer (layer tensors) or in all (the others). */
static inline size_t slice_len(const gpt_model *m, int t)
{
    return per_layer(t) ? m->sizes[t] / (size_t)m->nlayers : m->sizes[t];
}

/* Parameters and gradients of tensor t's slice for layer l (0 for the others):
 * in the flat arrays, or in the unit's buffer under the hooks. */
static inline floatX *P(const gpt_model *m, int t, int l)
{
    if (m->hooks && m->hooks->gather) {
        int u = unit_of(m, t, l);
        if (!m->prec)
            return (floatX *)(m->zp[u] + m->useg[t]);
        for (int k = 0; k < 3; k++)
            if (m->zx_unit[k] == u)
                return XI(m, m->zx[k], m->useg[t]);
        return NULL; /* not gathered: a fault, never a silent read */
    }
    const floatX *w = m->prec ? m->wlow : (const floatX *)m->dev.params;
    return XI(m, w, m->offsets[t] + (size_t)l * slice_len(m, t));
}

static inline float *G(const gpt_model *m, int t, int l)
{
    if (m->hooks && m->hooks->grad_buf)
        return m->zg[unit_of(m, t, l)] + m->useg[t];
    return m->dev.grads + m->offsets[t] + (size_t)l * slice_len(m, t);
}

/* Activations: floatX (the storage precision) but for LayerNorm's statistics, attention's
 * probabilities or log-sum-exps, the losses and the scratch, which are fp32. */
struct gpt_acts {
    size_t cap_bt, cap_att; /* capacity in B*T and B * attention_state_floats(T) */
    int cap_T;              /* the sequence length the scratch was sized for */
    floatX *encoded, *ln1, *qkv, *atty, *res2, *ln2, *fch, *fch_gelu, *res3, *lnf, *logits;
    float *ln1_mean, *ln1_rstd, *att, *ln2_mean, *ln2_rstd, *lnf_mean, *lnf_rstd, *lse, *losses;
    double *total; /* [1] the sum of losses */
    int32_t *inputs, *targets;
    /* backward scratch */
    floatX *dres, *dbuf1, *dbuf2, *dqkv;
    float *datt, *ln_part;
    /* tensor parallel: a row-parallel output [bt, C]; per-token max, sum, target logit [3, bt];
     * sequence parallel: this rank's rows [bt/tp, C] of a LayerNorm output or gradient;
     * mixed precision with tp > 1: fp32 scratch [2, bt, C] for the collectives, which sum
     * in fp32 and round once (tensor_parallel.c) */
    floatX *tpbuf, *splocal;
    float *tpcol, *tpf;
};

/* tensor_parallel.c: the tensor group's collectives (a failure ends every
 * rank); tp_sum in place over n; tp_scatter this rank's block of n of the sums
 * of send [tp * n]; tp_gather every rank's n into out [tp * n]. */
void tp_check(gpt_model *m, int rc, const char *what);
void tp_sum(gpt_model *m, floatX *buf, size_t n);
void tp_scatter(gpt_model *m, const floatX *send, floatX *recv, size_t n);
void tp_gather(gpt_model *m, const floatX *send, floatX *out, size_t n);
/* The LayerNorm that follows a residual sum (fused with it): its output (all rows, gathered
 * with sequence parallelism), statistics and parameters. */
typedef struct {
    floatX *out;
    float *mean, *rstd;
    const floatX *w, *b;
} ln_next;
/* RowParallelLinear with the residual: out[N, OC] = res + inp @ w^T + bias; with ln, also
 * the LayerNorm of out (the table's residual_layernorm_forward). */
void row_parallel(gpt_model *m, floatX *out, const floatX *res, const floatX *inp, const floatX *w,
                  const floatX *bias, int N, int K, int OC, const ln_next *ln);
/* LayerNorm of this rank's rows, gathered with sequence parallelism. */
void layernorm_sp(gpt_model *m, floatX *out, float *mean, float *rstd, const floatX *inp, const floatX *w,
                  const floatX *b, int n, int C);
/* The input gradient of a column-parallel layer, summed over the tensor group. */
const floatX *column_input_grad(gpt_model *m, floatX *partial, size_t rows, size_t bt, int C);

/* zero_units.c: unit u's parameters gathered / released, its gradient buffer
 * taken / handed back (no-ops without hooks). */
void unit_gather(gpt_model *m, int u);
/* The same, naming the unit the pass gathers next (a layer's neighbour). */
void unit_gather_next(gpt_model *m, int u, int next);
void unit_release(gpt_model *m, int u);
void unit_grads(gpt_model *m, int u);
void unit_grads_done(gpt_model *m, int u);

#endif

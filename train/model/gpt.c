/* gpt.c - GPT-2 forward, backward and AdamW on the CPU (see gpt.h).
 *
 * Shapes: B sequences of T tokens, C channels, NH heads of hs = C/NH, L
 * layers, Vp padded vocabulary. Activations are kept for the backward pass
 * (llm.c's layout: one buffer per kind, [L, B*T, ...]); gradients of
 * activations use per-layer scratch that is reused from layer to layer.
 *
 * Every buffer the forward, backward and AdamW touch belongs to the model's
 * operation table (train/ops/ops.h) and is reached only through it; collectives go
 * through the tensor group's communicator. On the CPU table every parallel loop
 * is OpenMP with a static schedule and every reduction has a fixed order for a
 * given thread count, so runs are bit-reproducible: a resumed run matches an
 * uninterrupted one exactly.
 */
#include "train/cpu/precision.h"
#include "train/model/gpt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/err.h"
#include "common/hash.h"
#include "train/ops/ops.h"
#include "train/parallel/comm.h"
#include "train/parallel/dist.h"
#include "train/model/gpt_int.h"

const char *const gpt_tensor_names[GPT_NUM_TENSORS] = {
    "wte", "wpe", "ln1w", "ln1b", "qkvw", "qkvb", "attprojw", "attprojb",
    "ln2w", "ln2b", "fcw", "fcb", "fcprojw", "fcprojb", "lnfw", "lnfb"};

/* --cpu-offload: parameters per chunk of the step's transfers (16 MB of fp32 gradients) */
#define OFFLOAD_CHUNK ((size_t)1 << 22)

int gpt_padded_vocab(int v)
{
    return (v + 127) / 128 * 128;
}

int gpt_config_check(const gpt_config *c)
{
    if (c->num_layers < 1 || c->channels < 1 || c->num_heads < 1 || c->max_seq_len < 1 || c->vocab_size < 1)
        return err_set(ERR_USAGE, "model sizes must be positive (layers %d, hidden %d, heads %d, positions %d, vocab %d)",
                       c->num_layers, c->channels, c->num_heads, c->max_seq_len, c->vocab_size);
    if (c->channels % c->num_heads)
        return err_set(ERR_USAGE, "--hidden-size %d is not divisible by --num-attention-heads %d", c->channels,
                       c->num_heads);
    if (c->padded_vocab_size < c->vocab_size)
        return err_set(ERR_USAGE, "padded vocabulary %d smaller than vocabulary %d", c->padded_vocab_size,
                       c->vocab_size);
    return 0;
}

size_t gpt_num_params(const gpt_config *c)
{
    size_t Vp = (size_t)c->padded_vocab_size, C = (size_t)c->channels, L = (size_t)c->num_layers;
    return Vp * C + (size_t)c->max_seq_len * C + L * (12 * C * C + 13 * C) + 2 * C;
}

int gpt_alloc(gpt_model *m, const gpt_config *cfg)
{
    return gpt_alloc_par(m, cfg, NULL);
}

int gpt_alloc_par(gpt_model *m, const gpt_config *cfg, const gpt_par *p)
{
    memset(m, 0, sizeof *m);
    int rc = gpt_config_check(cfg);
    if (rc)
        return rc;
    int tp = p ? p->tp : 1, pp = p ? p->pp : 1;
    if (tp < 1 || cfg->num_heads % tp)
        return err_set(ERR_USAGE, "--num-attention-heads %d is not divisible by --tensor-model-parallel-size %d",
                       cfg->num_heads, tp);
    if (pp < 1 || cfg->num_layers % pp)
        return err_set(ERR_USAGE, "--num-layers %d is not divisible by --pipeline-model-parallel-size %d",
                       cfg->num_layers, pp);
    int vpp = p && p->vpp > 1 ? p->vpp : 1;
    if (cfg->num_layers % (pp * vpp))
        return err_set(ERR_USAGE, "--num-layers %d is not divisible by --pipeline-model-parallel-size %d x %d model "
                                  "chunks per stage",
                       cfg->num_layers, pp, vpp);
    m->cfg = *cfg;
    m->tp = tp;
    m->tp_rank = p ? p->tp_rank : 0;
    m->tp_d = p ? p->d : NULL;
    m->tp_g = p ? p->tp_g : NULL;
    m->sp = p && p->sp && tp > 1;
    m->recompute = p && p->recompute;
    m->prec = p ? p->prec : GPT_PREC_FP32;
    if (m->prec < GPT_PREC_FP32 || m->prec > GPT_PREC_FP16)
        return err_set(ERR_USAGE, "precision %d: expected fp32, bf16 or fp16", m->prec);
    m->pp = pp;
    m->pp_rank = p ? p->pp_rank : 0;
    m->pp_g = p ? p->pp_g : NULL;
    m->nlayers = cfg->num_layers / pp;
    m->layer0 = m->pp_rank * m->nlayers;
    m->vpp = vpp;
    m->ops = p && p->ops ? p->ops : &gpt_ops_cpu;
    m->xb = prec_bytes(m->prec); /* the table is told the precision before each forward and backward */
    for (int k = 0; k < 3; k++)
        m->zx_unit[k] = -1;
    size_t Vp = (size_t)cfg->padded_vocab_size, C = (size_t)cfg->channels, L = (size_t)m->nlayers;
    size_t maxT = (size_t)cfg->max_seq_len;
    size_t s[GPT_NUM_TENSORS] = {Vp * C, maxT * C, L * C, L * C, L * 3 * C * C, L * 3 * C, L * C * C, L * C,
                                 L * C, L * C, L * 4 * C * C, L * 4 * C, L * C * 4 * C, L * C, C, C};
    for (int t = 0; t < GPT_NUM_TENSORS; t++) {
        tp_split sp = split_of(cfg, t, L);
        if (sp.S)
            s[t] = sp.outer * split_local(sp.S, tp) * sp.inner;
        if (!stage_holds(m, t))
            s[t] = 0;
    }
    size_t off = 0;
    for (int i = 0; i < GPT_NUM_TENSORS; i++) {
        m->sizes[i] = s[i];
        m->offsets[i] = off;
        off += s[i];
    }
    m->num_params = off;
    m->params = malloc(off * sizeof(float));
    m->grads = m->ops->device ? NULL : calloc(off, sizeof(float));
    m->adam_m = calloc(off, sizeof(float));
    m->adam_v = calloc(off, sizeof(float));
    m->mean_loss = -1;
    if (!m->params || (!m->grads && !m->ops->device) || !m->adam_m || !m->adam_v) {
        gpt_free(m);
        return err_set(ERR_NOMEM, "out of memory for %zu parameters", off);
    }
    if (!(m->red = m->ops->mem.alloc(GPT_NUM_TENSORS * sizeof(double)))) {
        gpt_free(m);
        return err_set(ERR_NOMEM, "out of memory");
    }
    m->offload = p && p->offload && m->ops->device;
    if (m->offload) {
        /* the device: the compute weights (fp32: dev.params, a copy of params) and the
         * gradients; two pinned chunks each way for the step */
        size_t ch = off < OFFLOAD_CHUNK ? off : OFFLOAD_CHUNK;
        m->dev.params = m->prec ? NULL : ops_alloc_floats(m->ops, off);
        m->dev.grads = ops_alloc_floats(m->ops, off);
        for (int k = 0; k < 2; k++) {
            m->off_g[k] = m->ops->mem.host_alloc(ch * sizeof(float));
            m->off_w[k] = m->ops->mem.host_alloc(ch * m->xb);
        }
        if ((!m->prec && !m->dev.params) || !m->dev.grads || !m->off_g[0] || !m->off_g[1] || !m->off_w[0] ||
            !m->off_w[1]) {
            gpt_free(m);
            return err_set(ERR_NOMEM, "out of %s or pinned host memory for %zu parameters", m->ops->name, off);
        }
    } else if (m->ops->device) {
        m->dev.params = ops_alloc_floats(m->ops, off);
        m->dev.grads = ops_alloc_floats(m->ops, off);
        m->dev.adam_m = ops_alloc_floats(m->ops, off);
        m->dev.adam_v = ops_alloc_floats(m->ops, off);
        if (!m->dev.params || !m->dev.grads || !m->dev.adam_m || !m->dev.adam_v) {
            gpt_free(m);
            return err_set(ERR_NOMEM, "out of %s memory for %zu parameters", m->ops->name, off);
        }
    } else {
        m->dev.params = m->params;
        m->dev.grads = m->grads;
        m->dev.adam_m = m->adam_m;
        m->dev.adam_v = m->adam_v;
    }
    if (m->prec) {
        /* Mixed precision: the compute copy of the weights, converted (refresh_compute_weights) */
        m->wlow = m->ops->mem.alloc(off * m->xb);
        if (!m->wlow) {
            gpt_free(m);
            return err_set(ERR_NOMEM, "out of %s memory for %zu parameters", m->ops->name, off);
        }
        m->wlow_stale = 1;
    }
    m->tp_comm = p ? p->tp_comm : NULL;
    if (tp > 1 && !m->tp_comm) {
        if (!(m->tp_own = calloc(1, sizeof *m->tp_own))) {
            gpt_free(m);
            return err_set(ERR_NOMEM, "out of memory");
        }
        if ((rc = comm_init(m->tp_own, "tensor", m->tp_d, m->tp_g, m->ops, NULL))) {
            gpt_free(m);
            return rc;
        }
        m->tp_comm = m->tp_own;
    }
    return 0;
}

/* --cpu-offload: parameters [lo, hi) of the host's master weights (already converted into
 * the pinned chunk w by the CPU table) to the device's compute weights. */
static void offload_put(gpt_model *m, size_t lo, size_t hi, const void *w)
{
    void *dst = m->prec ? (void *)XI(m, m->wlow, lo) : (void *)(m->dev.params + lo);
    m->ops->mem.upload(dst, w, (hi - lo) * m->xb);
}

void gpt_upload(gpt_model *m)
{
    m->wlow_stale = 1;
    if (!m->ops->device)
        return;
    if (m->offload) {
        /* the compute weights from the host's master weights, chunk by chunk */
        gpt_ops_cpu.storage_prec(m->prec);
        for (size_t lo = 0; lo < m->num_params; lo += OFFLOAD_CHUNK) {
            size_t hi = m->num_params - lo < OFFLOAD_CHUNK ? m->num_params : lo + OFFLOAD_CHUNK;
            gpt_ops_cpu.to_prec(m->off_w[0], m->params + lo, hi - lo);
            offload_put(m, lo, hi, m->off_w[0]);
            m->ops->mem.sync();
        }
        m->wlow_stale = 0;
        return;
    }
    size_t b = m->num_params * sizeof(float);
    if (m->dev.params && m->params)
        m->ops->mem.upload(m->dev.params, m->params, b);
    if (m->dev.adam_m && m->adam_m)
        m->ops->mem.upload(m->dev.adam_m, m->adam_m, b);
    if (m->dev.adam_v && m->adam_v)
        m->ops->mem.upload(m->dev.adam_v, m->adam_v, b);
    m->ops->mem.sync();
}

void gpt_params_stepped(gpt_model *m, int whole)
{
    if (!whole) /* a shard's step (ZeRO): the compute weights are converted before the next forward */
        m->wlow_stale = 1;
}

/* The compute weights: the master weights converted, once after every change. */
static void refresh_compute_weights(gpt_model *m)
{
    if (!m->prec || !m->wlow_stale || !m->dev.params)
        return;
    m->ops->to_prec(m->wlow, m->dev.params, m->num_params);
    m->wlow_stale = 0;
}

static void drop_pair(gpt_model *m, float **host, float **dev)
{
    if (m->ops->device)
        m->ops->mem.free(*dev);
    free(*host);
    *host = *dev = NULL;
}

void gpt_drop(gpt_model *m, int what)
{
    if (what & GPT_DROP_GRADS)
        drop_pair(m, &m->grads, &m->dev.grads);
    if (what & GPT_DROP_PARAMS) {
        drop_pair(m, &m->params, &m->dev.params);
        m->ops->mem.free(m->wlow); /* ZeRO-3 computes with the units it gathers (m->zx) */
        m->wlow = NULL;
    }
    if (what & GPT_DROP_MOMENTS) {
        drop_pair(m, &m->adam_m, &m->dev.adam_m);
        drop_pair(m, &m->adam_v, &m->dev.adam_v);
    }
}

void gpt_download(gpt_model *m, int moments)
{
    if (!m->ops->device || m->offload) /* offload: the host holds the master weights and moments */
        return;
    size_t b = m->num_params * sizeof(float);
    if (m->dev.params && m->params)
        m->ops->mem.download(m->params, m->dev.params, b);
    if (moments && m->dev.adam_m && m->adam_m)
        m->ops->mem.download(m->adam_m, m->dev.adam_m, b);
    if (moments && m->dev.adam_v && m->adam_v)
        m->ops->mem.download(m->adam_v, m->dev.adam_v, b);
    m->ops->mem.sync();
}

/* Standard normal from two splitmix64 draws (Box-Muller); reproducible. */
static void fill_normal(float *x, size_t n, float std, rng_state *r)
{
    for (size_t i = 0; i < n; i += 2) {
        double u1 = ((rng_next(r) >> 11) + 1) * 0x1.0p-53, u2 = (rng_next(r) >> 11) * 0x1.0p-53;
        double rad = sqrt(-2.0 * log(u1));
        x[i] = (float)(std * rad * cos(2 * M_PI * u2));
        if (i + 1 < n)
            x[i + 1] = (float)(std * rad * sin(2 * M_PI * u2));
    }
}

void gpt_init_weights(gpt_model *m, uint64_t seed, float std)
{
    const gpt_config *c = &m->cfg;
    float resid_std = std / sqrtf(2.0f * (float)c->num_layers);
    for (int t = 0; t < GPT_NUM_TENSORS; t++) {
        float *p = gpt_tensor(m, t);
        rng_state r;
        rng_seed(&r, hash_mix64(seed) ^ hash_mix64(0x6770740000ull + (uint64_t)t));
        switch (t) {
        case GPT_LN1W: case GPT_LN2W: case GPT_LNFW:
            for (size_t i = 0; i < m->sizes[t]; i++)
                p[i] = 1.0f;
            break;
        case GPT_LN1B: case GPT_LN2B: case GPT_LNFB: case GPT_QKVB: case GPT_ATTPROJB: case GPT_FCB: case GPT_FCPROJB:
            memset(p, 0, m->sizes[t] * sizeof(float));
            break;
        case GPT_ATTPROJW: case GPT_FCPROJW:
            fill_normal(p, m->sizes[t], resid_std, &r);
            break;
        case GPT_WTE:
            fill_normal(p, (size_t)c->vocab_size * c->channels, std, &r);
            memset(p + (size_t)c->vocab_size * c->channels, 0,
                   (size_t)(c->padded_vocab_size - c->vocab_size) * c->channels * sizeof(float));
            break;
        default:
            fill_normal(p, m->sizes[t], std, &r);
        }
    }
}


static void acts_free(const gpt_ops *ops, gpt_acts *a)
{
    if (!a)
        return;
    void *f[] = {a->encoded, a->ln1, a->ln1_mean, a->ln1_rstd, a->qkv, a->atty, a->att, a->res2,
                 a->ln2, a->ln2_mean, a->ln2_rstd, a->fch, a->fch_gelu, a->res3, a->lnf, a->lnf_mean,
                 a->lnf_rstd, a->logits, a->lse, a->losses, a->dres, a->dbuf1, a->dbuf2, a->dqkv,
                 a->datt, a->ln_part, a->tpbuf, a->tpcol, a->splocal, a->tpf};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        ops->mem.free(f[i]);
    ops->mem.free(a->total);
    ops->mem.free(a->inputs);
    ops->mem.free(a->targets);
    free(a);
}

static gpt_acts *acts_alloc(const gpt_model *m, size_t bt, size_t att, int T)
{
    gpt_acts *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    const gpt_config *c = &m->cfg;
    tp_dims d = dims_of(m);
    size_t C = (size_t)c->channels, L = (size_t)chunk_layers(m), Cl = d.Cl, C4l = d.C4l;
    size_t Lr = m->recompute ? 1 : L; /* layers of LayerNorm and GELU outputs kept */
    size_t r = gpt_stage_rows(m, bt); /* residual rows here */
    const gpt_ops *o = m->ops;
    a->cap_bt = bt;
    a->cap_att = att;
    a->cap_T = T;
#define A(field, n) (a->field = ops_alloc_floats(o, (n)), a->field != NULL)                   /* fp32 */
#define AX(field, n) (a->field = o->mem.alloc((n) * m->xb), a->field != NULL) /* floatX */
    int ok = AX(encoded, r * C) && AX(ln1, Lr * bt * C) && A(ln1_mean, L * r) && A(ln1_rstd, L * r) &&
             AX(qkv, L * bt * 3 * Cl) && AX(atty, L * bt * Cl) && A(att, L * att * d.NHl) && AX(res2, L * r * C) &&
             AX(ln2, Lr * bt * C) && A(ln2_mean, L * r) && A(ln2_rstd, L * r) && AX(fch, L * bt * C4l) &&
             AX(fch_gelu, Lr * bt * C4l) && AX(res3, L * r * C) && AX(lnf, bt * C) && A(lnf_mean, r) &&
             A(lnf_rstd, r) && AX(logits, bt * d.Vl) && A(lse, bt) && A(losses, bt) && AX(dres, r * C) &&
             AX(dbuf1, bt * 4 * C) && AX(dbuf2, bt * C4l) && AX(dqkv, bt * 3 * Cl) &&
             A(datt, o->attention_scratch_floats(T)) && A(ln_part, o->layernorm_part_floats((int)C)) &&
             (m->tp > 1 || m->prec ? AX(tpbuf, bt * C) : 1) && (m->tp > 1 ? A(tpcol, 3 * bt) : 1) &&
             (m->sp ? AX(splocal, r * C) : 1) && (m->tp > 1 && m->prec ? A(tpf, 2 * bt * C) : 1);
#undef A
#undef AX
    a->inputs = o->mem.alloc(bt * sizeof(int32_t));
    a->targets = o->mem.alloc(bt * sizeof(int32_t));
    a->total = o->mem.alloc(sizeof(double));
    if (!ok || !a->inputs || !a->targets || !a->total) {
        acts_free(o, a);
        return NULL;
    }
    return a;
}

void gpt_free(gpt_model *m)
{
    if (!m)
        return;
    const gpt_ops *o = m->ops ? m->ops : &gpt_ops_cpu;
    if (o->device) {
        o->mem.free(m->dev.params);
        o->mem.free(m->dev.grads);
        o->mem.free(m->dev.adam_m);
        o->mem.free(m->dev.adam_v);
        for (int k = 0; k < 2; k++) {
            if (m->off_g[k])
                o->mem.host_free(m->off_g[k]);
            if (m->off_w[k])
                o->mem.host_free(m->off_w[k]);
        }
    }
    free(m->params);
    free(m->grads);
    free(m->adam_m);
    free(m->adam_v);
    free(m->zp);
    free(m->zg);
    if (m->slots) {
        for (int k = 0; k < m->nslots; k++)
            acts_free(o, m->slots[k]);
        free(m->slots);
    } else {
        acts_free(o, m->acts);
    }
    o->mem.free(m->red);
    o->mem.free(m->wlow);
    for (int k = 0; k < 3; k++)
        o->mem.free(m->zx[k]);
    if (m->tp_own) {
        comm_free(m->tp_own);
        free(m->tp_own);
    }
    memset(m, 0, sizeof *m);
}

/* ---- model --------------------------------------------------------------- */

int gpt_use_chunk(gpt_model *m, int c)
{
    if (c < 0 || c >= (m->vpp > 1 ? m->vpp : 1))
        return err_set(ERR_INTERNAL, "model chunk %d of %d", c, m->vpp);
    m->chunk = c;
    return 0;
}

int gpt_use_slot(gpt_model *m, int k)
{
    if (k < 0 || k >= 64)
        return err_set(ERR_INTERNAL, "activation slot %d", k);
    if (!m->slots) {
        m->slots = calloc(64, sizeof *m->slots);
        if (!m->slots)
            return err_set(ERR_NOMEM, "out of memory");
        m->slots[0] = m->acts; /* the slot in use so far */
        m->nslots = 64;
    }
    m->acts = m->slots[k];
    return 0;
}

int gpt_forward(gpt_model *m, const int32_t *inputs, const int32_t *targets, int B, int T, float *loss)
{
    return gpt_forward_stage(m, inputs, targets, NULL, B, T, loss);
}

const floatX *gpt_stage_output(const gpt_model *m)
{
    return XI(m, m->acts->res3,
              (size_t)(chunk_layers(m) - 1) * gpt_stage_rows(m, (size_t)m->B * m->T) * m->cfg.channels);
}

size_t gpt_stage_bytes(const gpt_model *m, size_t bt)
{
    return gpt_stage_rows(m, bt) * (size_t)m->cfg.channels * m->xb;
}

const floatX *gpt_stage_input_grad(const gpt_model *m)
{
    return m->acts->dres;
}

static int forward_stage(gpt_model *m, const int32_t *inputs, const int32_t *targets, const floatX *x_in, int B,
                         int T);

int gpt_forward_stage(gpt_model *m, const int32_t *inputs, const int32_t *targets, const floatX *x_in, int B, int T,
                      float *loss)
{
    m->ops->storage_prec(m->prec); /* what the table's floatX is (a process may hold other models: host copies) */
    int rc = forward_stage(m, inputs, targets, x_in, B, T);
    for (int u = 0; m->hooks && u < gpt_num_units(m); u++)
        unit_release(m, u); /* stage 3: the embedding and the final LayerNorm (also on an early return) */
    if (loss)
        *loss = rc ? 0.0f : m->mean_loss;
    return rc;
}

/* Sets m->mean_loss (the last stage with targets; -1 without, 0 on the other stages). */
static int forward_stage(gpt_model *m, const int32_t *inputs, const int32_t *targets, const floatX *x_in, int B,
                         int T)
{
    const gpt_config *c = &m->cfg;
    int C = c->channels, L = chunk_layers(m), lo = m->chunk * L, Vp = c->padded_vocab_size, V = c->vocab_size;
    int first = is_first(m), last = is_last(m);
    if (T < 1 || T > c->max_seq_len || B < 1) {
        return err_set(ERR_USAGE, "forward: sequence length %d outside 1..%d, or batch %d under 1", T,
                       c->max_seq_len, B);
    }
    size_t BT = (size_t)B * T, batt = (size_t)B * m->ops->attention_state_floats(T);
    tp_dims d = dims_of(m);
    int tpar = m->tp > 1;
    size_t Cl = d.Cl, C4l = d.C4l;
    int NHl = (int)d.NHl;
    gpt_acts *a = m->acts;
    const gpt_ops *o = m->ops;
    if (!a || a->cap_bt < BT || a->cap_att < batt || a->cap_T < T) {
        acts_free(o, a);
        int k = 0;
        while (m->slots && k < m->nslots && m->slots[k] != a)
            k++;
        m->acts = a = acts_alloc(m, BT, batt, T);
        if (m->slots && k < m->nslots)
            m->slots[k] = a;
        if (!a) {
            return err_set(ERR_NOMEM, "out of %s memory for activations (micro-batch %d x %d tokens: %.2f GB; lower "
                                      "--micro-batch-size or use --recompute-activations)",
                           !strcmp(o->name, "cuda") ? "GPU" : o->device ? "device" : "host", B, T,
                           gpt_activation_bytes(m, B, T) / 1e9);
        }
    }
    m->B = B;
    m->T = T;
    refresh_compute_weights(m);
    if (first)
        o->mem.upload(a->inputs, inputs, BT * sizeof(int32_t));
    /* R: rows of the residual stream held here (this rank's B*T/tp with sequence parallelism). */
    size_t R = gpt_stage_rows(m, BT), r0 = (size_t)m->tp_rank * R * (m->sp ? 1 : 0);
    if (first)
        unit_gather(m, 0); /* stage 3: the embedding, kept for the logits */
    if (!first) {
        o->mem.copy(a->encoded, x_in, R * C * m->xb); /* the previous stage's output */
    } else if (!tpar) {
        o->encoder_forward(a->encoded, a->inputs, P(m, GPT_WTE, 0), P(m, GPT_WPE, 0), B, T, C);
    } else {
        /* VocabParallelEmbedding: one rank holds each token's row; then + wpe, as without tp.
         * Sequence parallel: each rank keeps its rows of the sum. */
        floatX *e = m->sp ? a->tpbuf : a->encoded;
        o->encoder_forward_vp(e, a->inputs, P(m, GPT_WTE, 0), d.v0, d.Vl, (int)BT, C);
        if (m->sp)
            tp_scatter(m, e, a->encoded, R * C);
        else
            tp_sum(m, a->encoded, BT * C);
        o->add_positions(a->encoded, P(m, GPT_WPE, 0), r0, R, T, C);
    }
    if (!last)
        unit_release(m, 0);
    size_t attsz = (size_t)B * NHl * o->attention_state_floats(T);
    /* A layer's last residual sum is fused with the next layer's first LayerNorm (and the
     * last one's with the final LayerNorm), except under ZeRO-3, which holds one layer's
     * parameters at a time. */
    int fuse_next = !(m->hooks && m->hooks->gather);
    for (int l = 0; l < L; l++) {
        unit_gather_next(m, 1 + lo + l, l + 1 < L ? 2 + lo + l : -1);
        const floatX *res = l == 0 ? a->encoded : XI(m, a->res3, (size_t)(l - 1) * R * C);
        size_t lr = m->recompute ? 0 : (size_t)l; /* the kept LayerNorm / GELU outputs' layer */
        floatX *ln1 = XI(m, a->ln1, lr * BT * C), *qkv = XI(m, a->qkv, l * BT * 3 * Cl);
        floatX *atty = XI(m, a->atty, l * BT * Cl), *res2 = XI(m, a->res2, l * R * C);
        floatX *ln2 = XI(m, a->ln2, lr * BT * C), *fch = XI(m, a->fch, l * BT * C4l);
        floatX *fchg = XI(m, a->fch_gelu, lr * BT * C4l), *res3 = XI(m, a->res3, l * R * C);
        float *att = a->att + l * attsz;
        if (l == 0 || !fuse_next)
            layernorm_sp(m, ln1, a->ln1_mean + l * R, a->ln1_rstd + l * R, res, P(m, GPT_LN1W, lo + l),
                         P(m, GPT_LN1B, lo + l), (int)BT, C);
        /* ColumnParallelLinear: this rank's heads' q, k, v */
        o->matmul_forward(qkv, ln1, P(m, GPT_QKVW, lo + l), P(m, GPT_QKVB, lo + l), (int)BT, C, (int)(3 * Cl), 0);
        /* softmax in fp32 (its probabilities or statistics kept in fp32, as fused attention) */
        o->attention_forward(atty, att, qkv, B, T, (int)Cl, NHl);
        /* res2 = res + atty @ attprojw^T + attprojb (RowParallelLinear), and ln2 of it */
        ln_next n2 = {ln2, a->ln2_mean + l * R, a->ln2_rstd + l * R, P(m, GPT_LN2W, lo + l), P(m, GPT_LN2B, lo + l)};
        row_parallel(m, res2, res, atty, P(m, GPT_ATTPROJW, lo + l), P(m, GPT_ATTPROJB, lo + l), (int)BT, (int)Cl, C,
                     &n2);
        o->matmul_gelu_forward(fchg, fch, ln2, P(m, GPT_FCW, lo + l), P(m, GPT_FCB, lo + l), (int)BT, C, (int)C4l);
        /* res3 = res2 + gelu(fch) @ fcprojw^T + fcprojb, and the next LayerNorm of it */
        ln_next nx = {0}, *np = NULL;
        if (l + 1 < L && fuse_next) {
            size_t nl = m->recompute ? 0 : (size_t)l + 1;
            nx = (ln_next){XI(m, a->ln1, nl * BT * C), a->ln1_mean + (l + 1) * R, a->ln1_rstd + (l + 1) * R,
                           P(m, GPT_LN1W, lo + l + 1), P(m, GPT_LN1B, lo + l + 1)};
            np = &nx;
        } else if (l + 1 == L && last) {
            unit_gather(m, m->nlayers + 1);
            nx = (ln_next){a->lnf, a->lnf_mean, a->lnf_rstd, P(m, GPT_LNFW, 0), P(m, GPT_LNFB, 0)};
            np = &nx;
        }
        row_parallel(m, res3, res2, fchg, P(m, GPT_FCPROJW, lo + l), P(m, GPT_FCPROJB, lo + l), (int)BT, (int)C4l, C,
                     np);
        unit_release(m, 1 + lo + l);
    }
    if (!last) {
        m->mean_loss = 0;
        return 0;
    }
    unit_gather(m, 0); /* lnf is computed (with the last residual sum) */
    size_t Vl = d.Vl, v0 = d.v0;
    /* Logits of this rank's vocabulary rows; those at or past V are padding. */
    int nv = v0 + Vl <= (size_t)V ? (int)Vl : (size_t)V > v0 ? (int)((size_t)V - v0) : 0;
    /* logits in the storage precision; the cross-entropy in fp32 */
    o->matmul_forward(a->logits, a->lnf, P(m, GPT_WTE, 0), NULL, (int)BT, C, (int)Vl, 0);
    m->logits = a->logits;
    if (!targets) {
        m->mean_loss = -1;
        return 0;
    }
    o->mem.upload(a->targets, targets, BT * sizeof(int32_t));
    if (!tpar) {
        o->crossentropy_forward(a->lse, a->losses, a->logits, a->targets, BT, V, (size_t)Vp);
    } else {
        /* Vocab-parallel cross-entropy: per token, the max, the sum of exponentials and
         * the target's logit cross ranks; the logits never do. */
        float *gmax = a->tpcol, *sum = a->tpcol + BT, *tl = a->tpcol + 2 * BT;
        o->crossentropy_vp_max(gmax, a->logits, BT, nv, Vl);
        if (comm_allreduce(m->tp_comm, gmax, BT, COMM_MAX)) {
            return err_set(ERR_INTERNAL, "tensor-parallel max: %s", err_msg());
        }
        o->crossentropy_vp_sum(sum, tl, a->logits, gmax, a->targets, BT, nv, Vl, v0);
        tp_check(m, comm_allreduce(m->tp_comm, sum, 2 * BT, COMM_SUM), "all-reduce");
        o->crossentropy_vp_finish(a->lse, a->losses, gmax, sum, tl, BT);
    }
    /* The reduction order is fixed for a thread count (static schedule on the CPU). */
    double total;
    o->sum_f64(a->total, a->losses, BT);
    o->mem.download(&total, a->total, sizeof total);
    o->mem.sync();
    m->mean_loss = (float)(total / (double)BT);
    return 0;
}

void gpt_backward(gpt_model *m, float loss_scale)
{
    gpt_backward_stage(m, loss_scale, NULL);
}

void gpt_backward_stage(gpt_model *m, float loss_scale, const floatX *dout)
{
    const gpt_config *c = &m->cfg;
    gpt_acts *a = m->acts;
    int B = m->B, T = m->T, C = c->channels, L = chunk_layers(m), lo = m->chunk * L, NH = c->num_heads;
    int Vp = c->padded_vocab_size, first = is_first(m), last = is_last(m);
    int V = c->vocab_size;
    tp_dims d = dims_of(m);
    int NHl = (int)d.NHl;
    size_t Cl = d.Cl, C4l = d.C4l, Vl = d.Vl, v0 = d.v0;
    int nv = v0 + Vl <= (size_t)V ? (int)Vl : (size_t)V > v0 ? (int)((size_t)V - v0) : 0;
    size_t BT = (size_t)B * T, attsz = (size_t)B * NHl * m->ops->attention_state_floats(T);
    float dl = loss_scale / (float)BT;
    (void)NH;
    (void)Vp;
    floatX *dres = a->dres; /* this rank's R rows of the residual stream's gradient */
    size_t R = gpt_stage_rows(m, BT);
    int sp = m->sp;
    const gpt_ops *o = m->ops;
    o->storage_prec(m->prec);
    if (!last) {
        o->mem.copy(dres, dout, R * C * m->xb); /* from the next stage */
    } else {
        /* dlogits = (softmax - onehot) * dl, in place of this rank's logits; 0 for padding. */
        o->crossentropy_backward(a->logits, a->lse, a->targets, BT, nv, Vl, v0, dl);
        /* logits = lnf @ wte^T; with tensor parallelism each rank's rows give part of dlnf */
        unit_gather(m, 0);
        unit_gather(m, m->nlayers + 1);
        unit_grads(m, 0);
        unit_grads(m, m->nlayers + 1);
        o->matmul_backward(a->dbuf1, G(m, GPT_WTE, 0), NULL, a->logits, a->lnf, P(m, GPT_WTE, 0), (int)BT, C,
                           (int)Vl, 0);
        const floatX *dln = column_input_grad(m, a->dbuf1, R, BT, C);
        o->mem.zero(dres, R * C * m->xb);
        o->layernorm_backward(dres, G(m, GPT_LNFW, 0), G(m, GPT_LNFB, 0), dln,
                                XI(m, a->res3, (size_t)(L - 1) * R * C), P(m, GPT_LNFW, 0), a->lnf_mean, a->lnf_rstd,
                                (int)R, C, a->ln_part);
        unit_grads_done(m, m->nlayers + 1);
        unit_release(m, m->nlayers + 1);
        unit_release(m, 0); /* the encoder's backward needs no parameters */
    }
    for (int l = L - 1; l >= 0; l--) {
        const floatX *res = l == 0 ? a->encoded : XI(m, a->res3, (size_t)(l - 1) * R * C);
        size_t lr = m->recompute ? 0 : (size_t)l;
        floatX *ln1 = XI(m, a->ln1, lr * BT * C), *qkv = XI(m, a->qkv, l * BT * 3 * Cl);
        floatX *atty = XI(m, a->atty, l * BT * Cl), *res2 = XI(m, a->res2, l * R * C);
        floatX *ln2 = XI(m, a->ln2, lr * BT * C), *fch = XI(m, a->fch, l * BT * C4l);
        floatX *fchg = XI(m, a->fch_gelu, lr * BT * C4l);
        float *att = a->att + l * attsz;
        unit_gather_next(m, 1 + lo + l, l > 0 ? lo + l : -1);
        unit_grads(m, 1 + lo + l);
        if (m->recompute) {
            /* this layer's LayerNorm and GELU outputs again, as the forward made them
             * (the same kernels on the same inputs: the same bits; with sequence
             * parallelism the all-gathers again) */
            layernorm_sp(m, ln1, a->ln1_mean + l * R, a->ln1_rstd + l * R, res, P(m, GPT_LN1W, lo + l),
                         P(m, GPT_LN1B, lo + l), (int)BT, C);
            layernorm_sp(m, ln2, a->ln2_mean + l * R, a->ln2_rstd + l * R, res2, P(m, GPT_LN2W, lo + l),
                         P(m, GPT_LN2B, lo + l), (int)BT, C);
            o->gelu_forward(fchg, fch, BT * C4l);
        }
        floatX *d4 = a->dbuf2;    /* [BT, 4C/tp] */
        floatX *dsmall = a->dbuf1; /* [BT, C] */
        /* MLP: res3 = res2 + gelu(ln2 @ fcw^T + fcb) @ fcprojw^T + fcprojb. The row-parallel
         * fcproj needs no communication backward; the column-parallel fc's input gradient
         * is a sum over the tensor group. */
        /* Sequence parallel: the row-parallel layers' backward needs every row of dres. */
        const floatX *dfull = dres;
        if (sp) {
            tp_gather(m, dres, a->tpbuf, R * C);
            dfull = a->tpbuf;
        }
        /* through fcproj and the GELU before it: d4 = (dres @ fcprojw) * gelu'(fch) */
        o->matmul_dgelu_backward(d4, G(m, GPT_FCPROJW, lo + l), G(m, GPT_FCPROJB, lo + l), dfull, fchg,
                                 P(m, GPT_FCPROJW, lo + l), fch, (int)BT, (int)C4l, C);
        o->matmul_backward(dsmall, G(m, GPT_FCW, lo + l), G(m, GPT_FCB, lo + l), d4, ln2,
                        P(m, GPT_FCW, lo + l), (int)BT, C, (int)C4l, 0);
        const floatX *dln2 = column_input_grad(m, dsmall, R, BT, C);
        o->layernorm_backward(dres, G(m, GPT_LN2W, lo + l), G(m, GPT_LN2B, lo + l), dln2, res2,
                                P(m, GPT_LN2W, lo + l), a->ln2_mean + l * R, a->ln2_rstd + l * R, (int)R,
                                C, a->ln_part); /* the residual stream's gradient, in the storage precision */
        /* attention: res2 = res + attn(ln1) @ attprojw^T + attprojb */
        if (sp)
            tp_gather(m, dres, a->tpbuf, R * C);
        o->matmul_backward(dsmall, G(m, GPT_ATTPROJW, lo + l), G(m, GPT_ATTPROJB, lo + l), dfull, atty,
                           P(m, GPT_ATTPROJW, lo + l), (int)BT, (int)Cl, C, 0);
        o->attention_backward(a->dqkv, a->datt, dsmall, qkv, att, atty, B, T, (int)Cl, NHl);
        o->matmul_backward(dsmall, G(m, GPT_QKVW, lo + l), G(m, GPT_QKVB, lo + l),
                        a->dqkv, ln1, P(m, GPT_QKVW, lo + l), (int)BT, C, (int)(3 * Cl), 0);
        const floatX *dln1 = column_input_grad(m, dsmall, R, BT, C);
        o->layernorm_backward(dres, G(m, GPT_LN1W, lo + l), G(m, GPT_LN1B, lo + l), dln1, res,
                                P(m, GPT_LN1W, lo + l), a->ln1_mean + l * R, a->ln1_rstd + l * R, (int)R,
                                C, a->ln_part);
        unit_grads_done(m, 1 + lo + l);
        unit_release(m, 1 + lo + l);
    }
    if (first) {
        const floatX *dfull = dres;
        if (sp) {
            tp_gather(m, dres, a->tpbuf, R * C);
            dfull = a->tpbuf;
        }
        unit_grads(m, 0);
        o->encoder_backward(G(m, GPT_WTE, 0), G(m, GPT_WPE, 0), dfull, a->inputs, B, T, C, v0, Vl);
    }
    unit_grads_done(m, 0); /* the embedding: from the logits and the encoder */
}

int gpt_token_losses(const gpt_model *m, float *host)
{
    if (!m->acts || m->mean_loss < 0)
        return err_set(ERR_USAGE, "gpt_token_losses: no forward with targets to read");
    m->ops->mem.download(host, m->acts->losses, (size_t)m->B * (size_t)m->T * sizeof(float));
    m->ops->mem.sync();
    return 0;
}

void gpt_zero_grad(gpt_model *m)
{
    if (m->dev.grads)
        m->ops->mem.zero(m->dev.grads, m->num_params * sizeof(float));
}

double gpt_grad_sumsq_range(const gpt_model *m, size_t lo, size_t hi, const float *g)
{
    /* Each tensor's part summed on the backend (one sequential sum each), all
     * brought back at once. */
    const gpt_ops *o = m->ops;
    double part[GPT_NUM_TENSORS];
    int used[GPT_NUM_TENSORS] = {0};
    for (int t = 0; t < GPT_NUM_TENSORS; t++) {
        size_t t0 = m->offsets[t] > lo ? m->offsets[t] : lo, t1 = m->offsets[t] + m->sizes[t];
        t1 = t1 < hi ? t1 : hi;
        if (t0 >= t1)
            continue;
        o->sumsq_f64(m->red + t, g + (t0 - lo), t1 - t0, t1 - t0);
        used[t] = 1;
    }
    o->mem.download(part, m->red, sizeof part);
    o->mem.sync();
    double total = 0;
    for (int t = 0; t < GPT_NUM_TENSORS; t++) {
        if (!used[t])
            continue;
        double s = part[t];
        if (t == GPT_WTE && m->pp > 1 && m->pp_rank != 0)
            continue; /* the tied copy on the last stage: the first stage counts it */
        total += split_of(&m->cfg, t, 1).S || m->tp <= 1 ? s : s / m->tp;
    }
    return total;
}

double gpt_grad_norm(const gpt_model *m)
{
    if (m->tp > 1 || m->pp > 1) {
        /* Split tensors summed over the tensor group, replicated ones counted once; the
         * stages' sums added over the pipeline group. */
        double s = gpt_grad_sumsq_range(m, 0, m->num_params, m->dev.grads);
        if ((m->tp > 1 && dist_allreduce_f64(m->tp_d, m->tp_g, &s, 1)) ||
            (m->pp > 1 && dist_allreduce_f64(m->tp_d, m->pp_g, &s, 1)))
            return NAN;
        return sqrt(s);
    }
    /* Per-block partial sums in a fixed block order: the same result for any
     * thread count. */
    double s;
    m->ops->sumsq_f64(m->red, m->dev.grads, m->num_params, (size_t)1 << 16);
    m->ops->mem.download(&s, m->red, sizeof s);
    m->ops->mem.sync();
    return sqrt(s);
}

void gpt_scale_grads(gpt_model *m, float s)
{
    m->ops->scale(m->dev.grads, s, m->num_params);
}

static void adamw_tensors(const gpt_model *m, size_t lo, size_t hi, float *params, floatX *plow, const float *grads,
                          float *adam_m, float *adam_v, float gscale, float lr, float beta1, float beta2, float eps,
                          float wd, int64_t step);
/* Weight decay on 2-D tensors only: embeddings and linear weights. */
static int decays_of(int t)
{
    return t == GPT_WTE || t == GPT_WPE || t == GPT_QKVW || t == GPT_ATTPROJW || t == GPT_FCW || t == GPT_FCPROJW;
}

/* --cpu-offload's step: chunk k's gradients come down while the CPU table updates chunk
 * k - 1 of the host's master weights and moments (AdamW tensor by tensor, the compute
 * copy written into the pinned chunk in the same pass), which then goes up. */
static void adamw_offload(gpt_model *m, float gscale, float lr, float beta1, float beta2, float eps, float wd,
                          int64_t step)
{
    const gpt_ops *o = m->ops, *h = &gpt_ops_cpu;
    h->storage_prec(m->prec);
    float bc1 = 1.0f - powf(beta1, (float)step), bc2 = 1.0f - powf(beta2, (float)step);
    size_t n = m->num_params, nc = (n + OFFLOAD_CHUNK - 1) / OFFLOAD_CHUNK;
    if (!nc)
        return;
    o->mem.download(m->off_g[0], m->dev.grads, (n < OFFLOAD_CHUNK ? n : OFFLOAD_CHUNK) * sizeof(float));
    o->mem.sync();
    for (size_t k = 0; k < nc; k++) {
        size_t lo = k * OFFLOAD_CHUNK, hi = n - lo < OFFLOAD_CHUNK ? n : lo + OFFLOAD_CHUNK;
        int b = (int)(k & 1);
        if (k + 1 < nc) {
            size_t lo1 = hi, hi1 = n - lo1 < OFFLOAD_CHUNK ? n : lo1 + OFFLOAD_CHUNK;
            o->mem.download(m->off_g[b ^ 1], m->dev.grads + lo1, (hi1 - lo1) * sizeof(float));
        }
        for (int t = 0; t < GPT_NUM_TENSORS; t++) {
            size_t t0 = m->offsets[t] > lo ? m->offsets[t] : lo, t1 = m->offsets[t] + m->sizes[t];
            t1 = t1 < hi ? t1 : hi;
            if (t0 >= t1)
                continue;
            h->adamw(m->params + t0, (floatX *)((char *)m->off_w[b] + (t0 - lo) * m->xb), m->off_g[b] + (t0 - lo),
                     m->adam_m + t0, m->adam_v + t0, t1 - t0, gscale, lr, beta1, beta2, eps,
                     decays_of(t) ? wd : 0.0f, bc1, bc2);
        }
        offload_put(m, lo, hi, m->off_w[b]);
        o->mem.sync(); /* chunk k + 1 is down, chunk k up: both pinned chunks free again */
    }
    m->wlow_stale = 0;
}

void gpt_adamw(gpt_model *m, float gscale, float lr, float beta1, float beta2, float eps, float wd, int64_t step)
{
    if (m->offload) {
        adamw_offload(m, gscale, lr, beta1, beta2, eps, wd, step);
        return;
    }
    /* the whole model here: the compute weights are written in the same pass (fused) */
    m->ops->storage_prec(m->prec);
    floatX *plow = m->prec && m->wlow && !m->wlow_stale ? m->wlow : NULL;
    adamw_tensors(m, 0, m->num_params, m->dev.params, plow, m->dev.grads, m->dev.adam_m, m->dev.adam_v, gscale, lr,
                  beta1, beta2, eps, wd, step);
}

void gpt_adamw_range(gpt_model *m, size_t lo, size_t hi, const float *grads, float *adam_m, float *adam_v, float gscale,
                     float lr, float beta1, float beta2, float eps, float wd, int64_t step)
{
    gpt_adamw_range_at(m, lo, hi, m->dev.params + lo, grads, adam_m, adam_v, gscale, lr, beta1, beta2, eps, wd, step);
}

void gpt_adamw_range_at(const gpt_model *m, size_t lo, size_t hi, float *params, const float *grads, float *adam_m,
                        float *adam_v, float gscale, float lr, float beta1, float beta2, float eps, float wd,
                        int64_t step)
{
    adamw_tensors(m, lo, hi, params, NULL, grads, adam_m, adam_v, gscale, lr, beta1, beta2, eps, wd, step);
}

/* AdamW tensor by tensor over parameters [lo, hi) (params[0] is parameter lo); with plow,
 * the compute copy of the whole model, written in the same pass. */
static void adamw_tensors(const gpt_model *m, size_t lo, size_t hi, float *params, floatX *plow, const float *grads,
                          float *adam_m, float *adam_v, float gscale, float lr, float beta1, float beta2, float eps,
                          float wd, int64_t step)
{
    float bc1 = 1.0f - powf(beta1, (float)step), bc2 = 1.0f - powf(beta2, (float)step);
    for (int t = 0; t < GPT_NUM_TENSORS; t++) {
        float decay = decays_of(t) ? wd : 0.0f;
        /* The part of tensor t inside [lo, hi). */
        size_t t0 = m->offsets[t] > lo ? m->offsets[t] : lo, t1 = m->offsets[t] + m->sizes[t];
        t1 = t1 < hi ? t1 : hi;
        if (t0 >= t1)
            continue;
        size_t n = t1 - t0;
        float *p = params + (t0 - lo), *mm = adam_m + (t0 - lo), *vv = adam_v + (t0 - lo);
        m->ops->adamw(p, plow ? XI(m, plow, t0) : NULL, grads + (t0 - lo), mm, vv, n, gscale, lr, beta1, beta2, eps,
                      decay, bc1, bc2);
    }
}

size_t gpt_activation_bytes(const gpt_model *m, int B, int T)
{
    /* The buffers of acts_alloc, for B*T tokens: floatX ones, then fp32 ones. */
    const gpt_config *c = &m->cfg;
    tp_dims d = dims_of(m);
    size_t bt = (size_t)B * T, C = (size_t)c->channels, L = (size_t)chunk_layers(m);
    size_t att = (bt / (size_t)T) * m->ops->attention_state_floats(T), Lr = m->recompute ? 1 : L;
    size_t r = gpt_stage_rows(m, bt); /* residual rows held here */
    size_t x = r * C + Lr * bt * C * 2 + L * bt * 3 * d.Cl + L * bt * d.Cl + L * r * C + L * bt * d.C4l +
               Lr * bt * d.C4l + L * r * C + bt * C + bt * d.Vl + r * C + bt * 4 * C + bt * d.C4l + bt * 3 * d.Cl +
               (m->tp > 1 || m->prec ? bt * C : 0) + (m->sp ? r * C : 0);
    size_t f = L * r * 4 + L * att * d.NHl + 2 * r + 2 * bt + m->ops->attention_scratch_floats(T) +
               m->ops->layernorm_part_floats((int)C) + (m->tp > 1 ? 3 * bt : 0) + (m->tp > 1 && m->prec ? 2 * bt * C : 0);
    return x * m->xb + f * sizeof(float) + 2 * bt * sizeof(int32_t);
}

double gpt_flops_per_token(const gpt_model *m, int T)
{
    const gpt_config *c = &m->cfg;
    return 6.0 * (double)gpt_num_params(c) + 6.0 * c->num_layers * (double)c->channels * T;
}

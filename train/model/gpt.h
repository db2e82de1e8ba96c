/* gpt.h - the GPT-2 model: parameters, forward, backward, AdamW (fp32).
 *
 * Architecture: learned token and position embeddings; L pre-LayerNorm blocks
 * (LN -> causal self-attention -> residual, LN -> MLP 4C with tanh-GELU ->
 * residual); a final LayerNorm; logits = x @ wte^T (tied embeddings). The
 * vocabulary is padded to a multiple of 128 (Vp); padded rows of wte start at
 * zero and padded logits are left out of the softmax.
 *
 * Parameters live in one fp32 array, as 16 tensors in this order (weights of
 * linear layers stored [out, in], like torch.nn.Linear):
 *   wte [Vp, C]  wpe [maxT, C]
 *   ln1w ln1b [L, C]  qkvw [L, 3C, C]  qkvb [L, 3C]  attprojw [L, C, C]  attprojb [L, C]
 *   ln2w ln2b [L, C]  fcw [L, 4C, C]  fcb [L, 4C]  fcprojw [L, C, 4C]  fcprojb [L, C]
 *   lnfw lnfb [C]
 *
 * Tensor parallelism (Megatron-LM, tp ranks): each rank holds a slice of the
 * split tensors and the whole of the others (LayerNorms, wpe, the biases of
 * row-parallel layers), so num_params and the offsets are the local ones:
 *   VocabParallelEmbedding  wte rows [r*Vl, (r+1)*Vl), Vl = ceil(Vp/tp); the
 *                           lookup and the logits are local, the embedding is
 *                           all-reduced, and the cross-entropy crosses ranks only
 *                           as per-token max, sum of exponentials and target logit;
 *   ColumnParallelLinear    qkvw (q, k and v rows of this rank's heads), fcw, and
 *                           their biases: rows split; the input gradient is
 *                           all-reduced in backward;
 *   RowParallelLinear       attprojw, fcprojw: columns split; the output is
 *                           all-reduced in forward, then the (whole) bias added.
 * Attention runs on the rank's num_heads/tp heads.
 * Sequence parallelism (with tp > 1): the residual stream and the LayerNorms
 * run on this rank's B*T/tp tokens; an all-gather before each column-parallel
 * layer and a reduce-scatter after each row-parallel one replace the
 * all-reduces (the same bytes, a tp-th of those activations). The LayerNorm
 * gradients are then partial sums, added over the tensor group by
 * gpt_sp_reduce_grads once per iteration.
 *
 * Interleaved pipeline (Megatron's virtual pipeline, vpp model chunks per
 * stage): the model is cut into pp*vpp chunks of L/(pp*vpp) layers and stage s
 * holds chunks s, s+pp, s+2pp, ...; the first stage's chunk 0 embeds, the last
 * stage's last chunk computes the loss. The stage's layer tensors hold its
 * chunks one after another; gpt_use_chunk picks the one the next forward or
 * backward runs, and each activation slot holds one chunk's activations.
 * Pipeline parallelism (pp stages): stage s holds layers [s*L/pp, (s+1)*L/pp);
 * the first stage also wte and wpe, the last lnf and wte again (tied: its
 * gradient is summed over the embedding group by the trainer). Tensors a stage
 * does not hold have size 0. gpt_forward_stage / gpt_backward_stage run one
 * stage on one micro-batch, in the activation slot chosen by gpt_use_slot, so
 * that several micro-batches can be in flight (the 1F1B schedule).
 *
 * The model is written once: every kernel, copy and allocation goes through
 * its operation table (train/ops/ops.h: the CPU reference, the device-discipline
 * test table, CUDA) and every collective through its tensor group's
 * communicator (train/parallel/comm.h), so the same code runs on host and
 * device buffers. The trainer reaches the model only through this header.
 */
#ifndef TRAIN_GPT_H
#define TRAIN_GPT_H

#include <stddef.h>
#include <stdint.h>

#include "train/ops/ops.h"

struct dist_ctx;
struct dist_group;
struct gpt_ops;
struct pcomm;

typedef struct {
    int max_seq_len;       /* maxT: --max-position-embeddings */
    int vocab_size;        /* V */
    int padded_vocab_size; /* Vp: V rounded up to a multiple of 128 */
    int num_layers;        /* L */
    int num_heads;         /* NH */
    int channels;          /* C */
} gpt_config;

enum { GPT_NUM_TENSORS = 16 };
enum {
    GPT_WTE, GPT_WPE, GPT_LN1W, GPT_LN1B, GPT_QKVW, GPT_QKVB, GPT_ATTPROJW, GPT_ATTPROJB,
    GPT_LN2W, GPT_LN2B, GPT_FCW, GPT_FCB, GPT_FCPROJW, GPT_FCPROJB, GPT_LNFW, GPT_LNFB
};
extern const char *const gpt_tensor_names[GPT_NUM_TENSORS];

typedef struct gpt_acts gpt_acts;

typedef struct {
    gpt_config cfg;
    size_t sizes[GPT_NUM_TENSORS];   /* elements per tensor */
    size_t offsets[GPT_NUM_TENSORS]; /* into params/grads */
    size_t num_params;
    /* The host model (checkpoints, initialisation, conversion read and write it): */
    float *params;  /* [num_params] */
    float *grads;   /* [num_params] (NULL on a device table) */
    float *adam_m;  /* AdamW first and second moments */
    float *adam_v;
    /* The operation table the model runs on (train/ops/ops.h) and its buffers, which
     * forward, backward and AdamW use: the host arrays themselves on a host
     * table (the CPU's), device memory otherwise (gpt_upload / gpt_download). */
    const struct gpt_ops *ops;
    struct {
        float *params, *grads, *adam_m, *adam_v;
    } dev;
    double *red; /* [GPT_NUM_TENSORS] reductions on the backend */
    int B, T;       /* shape of the last forward */
    gpt_acts *acts; /* activations, sized for the largest B*T seen */
    floatX *logits; /* [B, T, Vp] after gpt_forward (overwritten by gpt_backward), in the storage precision */
    float mean_loss;/* of the last gpt_forward with targets, else -1 */
    /* tensor parallelism: tp ranks (1: none), this rank, its communicator;
     * sp: sequence parallelism */
    int tp, tp_rank, sp;
    /* recompute: keep one layer's LayerNorm and GELU outputs and recompute them in
     * the backward (llm.c's recompute; the CUDA backend's --recompute-activations) */
    int recompute;
    /* mixed precision (train/cpu/precision.h: GPT_PREC_FP32, _BF16, _FP16): the
     * storage type of the compute weights, the activations and their gradients
     * (the table's floatX, xb bytes each: train/ops/ops.h); the master weights
     * (params), AdamW's moments and the weight gradients stay fp32, as in Megatron
     * (main_grad, the distributed optimizer's fp32 shards). wlow: the compute
     * weights, converted from the master weights before the next forward once
     * gpt_upload or a sharded step (gpt_params_stepped) says they moved. */
    int prec;
    size_t xb;
    floatX *wlow;
    int wlow_stale;
    /* --cpu-offload (a device table, ZeRO-0): the master weights and AdamW's moments stay
     * in the host arrays (params, adam_m, adam_v), which gpt_adamw updates on the CPU
     * table chunk by chunk while the next chunk's gradients download; the device holds
     * the compute weights (wlow; dev.params in fp32, a copy of params) and the gradients.
     * off_g, off_w: two pinned chunks of gradients and of compute weights in flight. */
    int offload;
    float *off_g[2];
    void *off_w[2];
    struct dist_ctx *tp_d;
    struct dist_group *tp_g;
    struct pcomm *tp_comm; /* the tensor group's communicator on ops' buffers */
    struct pcomm *tp_own;  /* the one gpt_alloc_par made when given none */
    /* pipeline parallelism: pp stages (1: none), this stage, its layers (the first
     * one's index without interleaving), the pipeline group */
    int pp, pp_rank, layer0, nlayers;
    /* interleaved pipeline: vpp model chunks per stage (1: none), the current one */
    int vpp, chunk;
    struct dist_group *pp_g;
    /* activation slots for micro-batches in flight (acts is the current one) */
    gpt_acts **slots;
    int nslots;
    /* ZeRO stages 2 and 3: the unit hooks (gpt_set_unit_hooks), each unit's current
     * parameter and gradient buffers, each tensor's offset in its unit's buffer */
    const struct gpt_unit_hooks *hooks;
    /* the backward to come is the iteration's last micro-batch's (the trainer sets it;
     * hooks without grad_buf hand each unit over then) */
    int grad_last;
    float **zp, **zg;
    floatX *zx[3]; /* with mixed precision, ZeRO-3's gathered units converted: the embedding, a layer, the final LN */
    size_t zx_n[3];
    int zx_unit[3]; /* the unit each holds, -1: none */
    size_t useg[GPT_NUM_TENSORS];
} gpt_model;

/* ZeRO stages 2 and 3 (train/distributed/ddp.h) see the model in units: 0 the embedding
 * (wte, wpe), 1..nlayers this rank's layers (a layer's 12 tensors), nlayers + 1
 * the final LayerNorm; a unit's slices of its tensors packed one after another in
 * tensor order. With hooks set, the forward and backward ask grad_buf for a
 * zeroed buffer before they write a unit's gradients and call grad_done once
 * that micro-batch's gradients of the unit are complete (the backward of a layer,
 * or of the whole model for the embedding); m->grads is then not used. With a
 * gather hook too (stage 3) they ask for a unit's parameters before they use
 * them and release them after (one layer at a time; the embedding for the whole
 * forward); m->params is then not used. Without grad_buf (ZeRO-0's overlap) the
 * gradients stay in m->grads, and grad_done is called per unit in the backward of the
 * iteration's last micro-batch (m->grad_last) only, once they are complete. */
typedef struct {
    int t;         /* tensor */
    size_t off, n; /* its slice's flat offset (gpt.h's order) and length */
} gpt_seg;
enum { GPT_UNIT_MAX_SEGS = 12 };
typedef struct gpt_unit_hooks {
    void *ctx;
    /* stage 3 only; next: the unit the model gathers after this one in the pass (-1: none
     * known), which --overlap-param-gather starts gathering now */
    float *(*gather)(void *ctx, int u, int next);
    void (*release)(void *ctx, int u);
    float *(*grad_buf)(void *ctx, int u); /* NULL: the gradients in place (see above) */
    void (*grad_done)(void *ctx, int u);
} gpt_unit_hooks;
int gpt_num_units(const gpt_model *m);
/* The segments of unit u in packing order; returns their count. */
int gpt_unit_segs(const gpt_model *m, int u, gpt_seg seg[GPT_UNIT_MAX_SEGS]);
/* Unit u's elements (its segments together). */
size_t gpt_unit_size(const gpt_model *m, int u);
/* Set (h non-NULL) or clear the hooks. 0 or ERR_NOMEM. */
int gpt_set_unit_hooks(gpt_model *m, const gpt_unit_hooks *h);

typedef struct {
    int tp, tp_rank, pp, pp_rank, sp;
    int vpp; /* model chunks per stage (interleaved 1F1B); 0 or 1: one */
    int recompute; /* see gpt_model */
    int prec;      /* GPT_PREC_*: see gpt_model */
    int offload;   /* see gpt_model (a device table only; ZeRO-0) */
    struct dist_ctx *d;
    struct dist_group *tp_g, *pp_g;
    const struct gpt_ops *ops; /* NULL: the CPU's (train/ops/ops.h) */
    struct pcomm *tp_comm;     /* NULL: made over tp_g (train/parallel/comm.h) */
} gpt_par;

/* Vp for a vocabulary size. */
int gpt_padded_vocab(int vocab_size);
/* Check a configuration: 0 or ERR_USAGE with a message. */
int gpt_config_check(const gpt_config *c);
/* Number of parameters of a config (padded vocabulary included). */
size_t gpt_num_params(const gpt_config *c);
/* Allocate parameters (and gradients and moments) for cfg. 0 or ERR_*. */
int gpt_alloc(gpt_model *m, const gpt_config *cfg);
/* The same for one rank of a tensor x pipeline layout (num_heads divisible by
 * tp, num_layers by pp); p NULL: no parallelism (what gpt_alloc does). */
int gpt_alloc_par(gpt_model *m, const gpt_config *cfg, const gpt_par *p);
/* This rank's part <-> the whole model, for one flat array (parameters or a
 * moment): from the whole model's array into this rank's, and back from every
 * rank's (collectives over the tensor and pipeline groups; full_arr gets the
 * whole on every rank). */
void gpt_part_slice(const gpt_model *local, const float *full_arr, float *local_arr);
int gpt_part_gather(const gpt_model *local, const float *local_arr, float *full_arr);
/* Sequence parallelism: add the LayerNorm gradients over the tensor group. */
int gpt_sp_reduce_grads(gpt_model *m);
/* Rows of the residual stream on this rank for B*T tokens (B*T/tp with sequence
 * parallelism): what a pipeline stage sends on, times channels. */
size_t gpt_stage_rows(const gpt_model *m, size_t bt);
/* Use activation slot k (0 <= k < 64) for the next forward and backward. */
int gpt_use_slot(gpt_model *m, int k);
/* Interleaved pipeline: run model chunk c (0 <= c < vpp) in the next forward
 * and backward. */
int gpt_use_chunk(gpt_model *m, int c);
/* One pipeline stage's forward: the first stage embeds inputs, the others
 * start from x_in [B, T, C]; the last computes the loss into *loss (0 on the
 * other stages). Returns 0 or an ERR_* code as gpt_forward. gpt_stage_output:
 * the activations to send on. */
int gpt_forward_stage(gpt_model *m, const int32_t *inputs, const int32_t *targets, const floatX *x_in, int B, int T,
                      float *loss);
const floatX *gpt_stage_output(const gpt_model *m);
/* Bytes of a stage's output or input gradient for B*T tokens (in the storage precision). */
size_t gpt_stage_bytes(const gpt_model *m, size_t bt);
/* One stage's backward of the slot's forward: the last stage starts from the
 * loss, the others from dout [B, T, C]; gpt_stage_input_grad: the gradient of
 * the stage's input, to send back. */
void gpt_backward_stage(gpt_model *m, float loss_scale, const floatX *dout);
const floatX *gpt_stage_input_grad(const gpt_model *m);
/* Sum of squares of grads g for parameters [lo, hi) of this rank, replicated
 * tensors weighted 1/tp (so that the tensor group's sum counts them once) and
 * the last stage's copy of the tied wte weighted 0 (the first stage counts it). */
double gpt_grad_sumsq_range(const gpt_model *m, size_t lo, size_t hi, const float *g);
/* GPT-2 initialisation from seed: weights N(0, std) (GPT-2: 0.02), the two
 * residual projections N(0, std/sqrt(2L)), biases 0, LayerNorm weights 1, padded
 * vocabulary rows 0. Reproducible for a seed, independent of threads. */
void gpt_init_weights(gpt_model *m, uint64_t seed, float std);
void gpt_free(gpt_model *m);
/* Device tables: the host model's parameters and moments into the backend's
 * buffers (after initialising or loading), and back (before a checkpoint; the
 * parameters only with moments 0, for ZeRO which keeps its own). No-ops on a
 * host table, where they are the same arrays. */
void gpt_upload(gpt_model *m);
/* After an optimizer step: whole (gpt_adamw, which wrote the compute weights in the same
 * pass, fused) leaves them as they are; after a shard's step (ZeRO) the next forward
 * converts the master weights again (mixed precision; nothing in fp32). */
void gpt_params_stepped(gpt_model *m, int whole);
void gpt_download(gpt_model *m, int moments);
/* Free the gradients, parameters or moments (host and backend copies) of a
 * model whose optimizer keeps its own (ZeRO). */
enum { GPT_DROP_GRADS = 1, GPT_DROP_PARAMS = 2, GPT_DROP_MOMENTS = 4 };
void gpt_drop(gpt_model *m, int what);
static inline float *gpt_tensor(const gpt_model *m, int t) { return m->params + m->offsets[t]; }
static inline float *gpt_grad(const gpt_model *m, int t) { return m->grads + m->offsets[t]; }

/* Forward pass over inputs [B, T] (T <= maxT). With targets, *loss is the mean
 * cross-entropy (also m->mean_loss); without, -1 (loss may be NULL). Logits in
 * m->logits. Returns 0, or with an error set: ERR_USAGE (a shape outside the
 * model's), ERR_NOMEM (activations) or ERR_INTERNAL (a tensor-parallel
 * collective failed). */
int gpt_forward(gpt_model *m, const int32_t *inputs, const int32_t *targets, int B, int T, float *loss);
/* Backward pass of the last forward (which had targets), adding
 * d(loss * loss_scale)/d(params) into m->grads. */
void gpt_backward(gpt_model *m, float loss_scale);
/* After a gpt_forward with targets (on the last pipeline stage): each position's loss,
 * -log p(target), into host[0 .. B*T) (fp32, whatever the table). 0 or ERR_USAGE. */
int gpt_token_losses(const gpt_model *m, float *host);
void gpt_zero_grad(gpt_model *m);
/* L2 norm of all gradients (double accumulation, fixed order); with tensor
 * parallelism, of the whole model's (a collective over the tensor group). */
double gpt_grad_norm(const gpt_model *m);
/* Multiply all gradients by s. */
void gpt_scale_grads(gpt_model *m, float s);
/* One AdamW step (step = 1, 2, ...) on the gradients times gscale (1, or clipping and
 * the loss scale undone: the bits gpt_scale_grads then a step of 1 would give, in one
 * pass; the gradients are left unscaled): bias-corrected moments, decoupled weight
 * decay on 2-D tensors only (embeddings and linear weights, not biases or
 * LayerNorm), p -= lr * (m_hat / (sqrt(v_hat) + eps) + wd * p). */
void gpt_adamw(gpt_model *m, float gscale, float lr, float beta1, float beta2, float eps, float wd, int64_t step);
/* The same update on the parameters [lo, hi) only (an optimizer shard), with
 * that range's gradients and moments (grads[0] is the gradient of parameter lo).
 * Per element it computes exactly what gpt_adamw does. */
void gpt_adamw_range(gpt_model *m, size_t lo, size_t hi, const float *grads, float *adam_m, float *adam_v, float gscale,
                     float lr, float beta1, float beta2, float eps, float wd, int64_t step);
/* The same with the parameters elsewhere: params[0] is parameter lo (ZeRO-3's shard). */
void gpt_adamw_range_at(const gpt_model *m, size_t lo, size_t hi, float *params, const float *grads, float *adam_m,
                        float *adam_v, float gscale, float lr, float beta1, float beta2, float eps, float wd,
                        int64_t step);
/* Bytes of activations (and their gradients' scratch) gpt_forward/backward
 * keep for B sequences of T tokens on this rank. */
size_t gpt_activation_bytes(const gpt_model *m, int B, int T);
/* FLOPs of one forward+backward per token (6N + 6*L*C*T, llm.c's estimate). */
double gpt_flops_per_token(const gpt_model *m, int T);

/* The operations themselves (the CPU reference for each kernel of another
 * backend) are in train/cpu/kernels.h. */

#endif

/* ddp.h - data parallelism over the data-parallel group: gradient reduction in
 * buckets and, with ZeRO stage 1 (Megatron's --use-distributed-optimizer), the
 * AdamW state sharded across the group.
 *
 * The flat parameter array (gpt.h's order) is cut into buckets of `bucket`
 * elements (a multiple of the group size; the last one shorter). Each bucket
 * is padded to a multiple of the group size dp and split into dp equal parts;
 * data-parallel rank r owns part r of every bucket.
 *
 *   stage 0: each bucket's gradients are all-reduced (summed); every rank keeps
 *            full gradients, moments and parameters and takes the same step.
 *            Per parameter: 4 bytes parameters + 4 gradients + 8 moments = 16.
 *   stage 1: each bucket's gradients are reduce-scattered into this rank's part
 *            (a shard of N/dp sums), the global gradient norm is the sum of the
 *            shards' squares, AdamW updates only the owned parameters with
 *            moments that exist only for them, and the updated parameters are
 *            all-gathered. Per parameter: 4 + 4 + 4/dp (the reduced shard) +
 *            8/dp (moments) = 8 + 12/dp.
 *   stage 2: gradients sharded too (ZeRO-2). The model is cut into units
 *            (gpt.h: the embedding, each layer, the final LayerNorm), each padded
 *            to a multiple of dp; rank r owns part r of every unit. The backward
 *            writes a unit's gradients into a working buffer and, as soon as the
 *            unit is done, reduce-scatters it into this rank's gradient shard
 *            (every micro-batch), so no rank holds the full gradients; then as
 *            stage 1. Per parameter: 4 + 4/dp + 8/dp = 4 + 12/dp, plus working
 *            buffers of the embedding, one layer and the final LayerNorm.
 *   stage 3: parameters sharded too (ZeRO-3): each rank keeps its parts of the
 *            units' parameters; the forward and the backward all-gather a unit
 *            just before they use it (one layer at a time; the embedding for the
 *            forward, for the output layer in the backward) and drop it after.
 *            Per parameter: 16/dp, plus the working buffers (parameters too).
 *            Stages 2 and 3 compute the same numbers (bit for bit).
 * Communication per iteration and rank, ring costs: stage 0 all-reduce
 * 2(dp-1)/dp x 4N bytes; stage 1 reduce-scatter (dp-1)/dp x 4N + all-gather
 * (dp-1)/dp x 4N, the same total (the ZeRO paper's result for stages 1 and 2);
 * stage 2 a reduce-scatter per micro-batch (m of them) and one all-gather,
 * (m+1)(dp-1)/dp x 4N; stage 3 per micro-batch two all-gathers (forward and
 * backward) and a reduce-scatter, 3m(dp-1)/dp x 4N (the paper's 1.5x for m = 1).
 * (N: the units' padded sizes for stages 2 and 3.)
 *
 * Every rank computes bit-identical parameters: a sum is made once, by the part's
 * owner, and gathered (dist.h). Shards and buffers live in the model's operation
 * table (train/ops/ops.h) and move through the group's communicator, so ZeRO runs on
 * any backend.
 */
#ifndef TRAIN_PARALLEL_DDP_H
#define TRAIN_PARALLEL_DDP_H

#include <stddef.h>
#include <stdint.h>

#include "train/parallel/comm.h"
#include "train/parallel/dist.h"
#include "train/model/gpt.h"

/* Stages 2 and 3: unit u has n elements, per = ceil(n/dp) owned by each rank
 * (at shard offset soff); a piece is a stretch of the shard inside one tensor. */
typedef struct {
    size_t n, per, soff;
} ddp_unit;
typedef struct {
    size_t flat, n, shard;
} ddp_piece;

typedef struct {
    dist_ctx *d;
    dist_group *g;     /* the data-parallel group */
    pcomm *c;          /* its communicator on the model's buffers */
    pcomm own;         /* the one ddp_init made when given none */
    const gpt_ops *ops;/* the model's table: every shard and buffer below is its memory */
    double *red;       /* [1] a reduction's result */
    int zero;          /* ZeRO stage: 0 to 3 */
    size_t n;          /* parameters */
    size_t bucket;     /* elements per bucket */
    size_t nb;         /* buckets */
    size_t shard_n;    /* elements owned by this rank (stage 1), padding included */
    float *gshard;     /* [shard_n] reduced gradients of the owned part (stage 1) */
    float *adam_m, *adam_v; /* [shard_n] moments of the owned part (stage 1) */
    float *pad;        /* scratch: one bucket, padded */
    /* stages 2 and 3 */
    gpt_model *m;
    int nu;            /* units */
    ddp_unit *units;
    ddp_piece *pieces;
    size_t npieces;
    float *pshard;     /* stage 3: [shard_n] this rank's parameters */
    /* working buffers (padded units) by slot: 0 the embedding, 1 a layer, 2 the final
     * LayerNorm, 3 with overlap a second layer (layers alternate between 1 and 3, so that
     * one layer's collective runs while the next computes) */
    float *gbuf[4], *pbuf[4];
    float *recv[4];    /* a unit's reduce-scattered part, by slot */
    /* --overlap-grad-reduce (stages 2 and 3; stage 0 all-reduces instead, in the last
     * micro-batch's backward): a unit's reduce-scatter started when its
     * gradients are done and completed (added into gshard) when its slot is taken again
     * or at ddp_reduce_grads; --overlap-param-gather (stage 3): the next layer's
     * all-gather started when a layer is gathered. The per-element sums and the order of
     * the additions into the shard are those without overlap. */
    int overlap_grad, overlap_param;
    comm_req greq[4], preq[4];
    int gunit[4], punit[4]; /* the unit whose reduce-scatter / gather a slot holds, -1: none */
    int handed;             /* stages 0 and 1 with overlap: units reduced this iteration */
    int defer0, late0;      /* with a pipeline: the tied embedding's handover waits for ddp_reduce_grads */
    /* the shards follow the units (stages 2 and 3; stage 1 with --overlap-grad-reduce, whose
     * gradients stay in the model and are reduce-scattered a unit at a time in the last
     * micro-batch's backward), not the flat buckets */
    int unitwise;
    size_t work_bytes; /* of the working buffers */
    gpt_unit_hooks hooks;
    /* --grad-reduce-in-bf16 (GPT_PREC_BF16; 0: fp32): the gradients are rounded to bf16
     * before the data-parallel reduction and its result after (bf16 on the wire); the
     * sum of micro-batches before it stays fp32 */
    int grad_reduce_prec;
} ddp;

/* Set up for model m (parameters allocated). bucket 0: Megatron's default,
 * max(40M, 1M x dp) elements. With stage 1 the caller fills the shards
 * (ddp_scatter_moments) and may then free m's full moments. Stages 2 and 3 need
 * pipeline size 1; they set m's unit hooks and free m's gradients, stage 3 also
 * its parameters (after taking this rank's part of them). c: the data-parallel
 * group's communicator on m's buffers (NULL: made here over d->data). Full
 * arrays passed to the gather/scatter calls below are host memory. */
int ddp_init(ddp *o, dist_ctx *d, gpt_model *m, int zero, size_t bucket, pcomm *c);
/* Megatron's --overlap-grad-reduce and --overlap-param-gather for m, before the first
 * step and before ddp_scatter_moments: ERR_USAGE naming what a stage lacks (grad: any
 * stage; param: stage 3). Stage 0 all-reduces each unit (a
 * layer) in the backward of the iteration's last micro-batch (m->grad_last), from a
 * packed copy; stage 1 takes the units' shard layout and reduce-scatters each unit there. */
int ddp_set_overlap(ddp *o, gpt_model *m, int grad, int param);
void ddp_free(ddp *o);
/* Sum every rank's gradients: stage 0 into m->grads, stage 1 into the shard. */
int ddp_reduce_grads(ddp *o, gpt_model *m);
/* L2 norm of the summed gradients (the same on every rank). */
int ddp_grad_norm(ddp *o, const gpt_model *m, double *norm);
/* One AdamW step on the summed gradients times gscale (clipping, the loss scale undone;
 * fused into the step); stage 1 all-gathers the parameters. */
int ddp_adamw(ddp *o, gpt_model *m, float gscale, float lr, float beta1, float beta2, float eps, float wd, int64_t step);
/* Stage 3: full parameters [n] from the shards (every rank gets them). */
int ddp_gather_params(ddp *o, float *full);
/* Zero the gradients before an iteration's micro-batches. */
void ddp_zero_grads(ddp *o, gpt_model *m);
/* Tests: make a gradient NaN. */
void ddp_poison_grad(ddp *o, gpt_model *m);
/* Stages 1-3: full moments [n] from the shards (every rank gets them), for a
 * checkpoint; and the shards from full moments, after loading one. */
int ddp_gather_moments(ddp *o, float *full_m, float *full_v);
void ddp_scatter_moments(ddp *o, const float *full_m, const float *full_v);
/* Bytes per parameter this rank keeps for parameters, gradients, moments. */
void ddp_bytes_per_param(const ddp *o, double *params, double *grads, double *moments);

#endif

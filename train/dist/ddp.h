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
 * Communication per iteration and rank, ring costs: stage 0 all-reduce
 * 2(dp-1)/dp x 4N bytes; stage 1 reduce-scatter (dp-1)/dp x 4N + all-gather
 * (dp-1)/dp x 4N, the same total (the ZeRO paper's result for stages 1 and 2).
 *
 * Every rank computes bit-identical parameters: a sum is made once, by the part's
 * owner, and gathered (dist.h).
 */
#ifndef TRAIN_DDP_H
#define TRAIN_DDP_H

#include <stddef.h>
#include <stdint.h>

#include "train/dist/dist.h"
#include "train/model/gpt.h"

typedef struct {
    dist_ctx *d;
    dist_group *g;     /* the data-parallel group */
    int zero;          /* ZeRO stage: 0 or 1 */
    size_t n;          /* parameters */
    size_t bucket;     /* elements per bucket */
    size_t nb;         /* buckets */
    size_t shard_n;    /* elements owned by this rank (stage 1), padding included */
    float *gshard;     /* [shard_n] reduced gradients of the owned part (stage 1) */
    float *adam_m, *adam_v; /* [shard_n] moments of the owned part (stage 1) */
    float *pad;        /* scratch: one bucket, padded */
} ddp;

/* Set up for model m (parameters allocated). bucket 0: Megatron's default,
 * max(40M, 1M x dp) elements. With stage 1 the caller fills the shards
 * (ddp_scatter_moments) and may then free m's full moments. */
int ddp_init(ddp *o, dist_ctx *d, gpt_model *m, int zero, size_t bucket);
void ddp_free(ddp *o);
/* Sum every rank's gradients: stage 0 into m->grads, stage 1 into the shard. */
int ddp_reduce_grads(ddp *o, gpt_model *m);
/* L2 norm of the summed gradients (the same on every rank). */
int ddp_grad_norm(ddp *o, const gpt_model *m, double *norm);
/* Multiply the summed gradients by s (clipping). */
void ddp_scale_grads(ddp *o, gpt_model *m, float s);
/* One AdamW step on the summed gradients; stage 1 all-gathers the parameters. */
int ddp_adamw(ddp *o, gpt_model *m, float lr, float beta1, float beta2, float eps, float wd, int64_t step);
/* Stage 1: full moments [n] from the shards (every rank gets them), for a
 * checkpoint; and the shards from full moments, after loading one. */
int ddp_gather_moments(ddp *o, float *full_m, float *full_v);
void ddp_scatter_moments(ddp *o, const float *full_m, const float *full_v);
/* Bytes per parameter this rank keeps for parameters, gradients, moments. */
void ddp_bytes_per_param(const ddp *o, double *params, double *grads, double *moments);

#endif

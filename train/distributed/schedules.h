/* schedules.h - Megatron's pipeline schedules (megatron/core/pipeline_parallel/
 * schedules.py): forward_backward_pipelining_without_interleaving (1F1B) and
 * forward_backward_pipelining_with_interleaving, over the pipeline group of a
 * dist_ctx and the stage functions of the model (gpt_forward_stage's output,
 * gpt_backward_stage, activation slots and model chunks).
 *
 * Stage s of pp sends its output activations [mbs, L, C] to s+1 and the
 * gradient of its input back to s-1. The data stay with the caller: the
 * schedule asks for the forward of micro-batch b through `forward`, which
 * fetches the batch, runs the chunk in use into activation slot `slot` (input
 * x_in, NULL on the first virtual stage) and adds loss / div on the last
 * virtual stage. Transfers between stages go through the pipeline group's
 * communicator in batches posted together (Megatron's batched p2p), so the
 * schedules run on NCCL as on MPI. After the micro-batches the tied word embedding's gradients
 * are summed between the first and the last stage (the embedding group) and
 * the loss, which lives on the last stage, is made known to the whole pipeline
 * group.
 */
#ifndef TRAIN_PARALLEL_SCHEDULES_H
#define TRAIN_PARALLEL_SCHEDULES_H

#include <stddef.h>

#include "train/model/gpt.h"
#include "train/parallel/comm.h"
#include "train/parallel/dist.h"

/* The tag of activations and gradients of the 1F1B schedule and of evaluation. */
enum { PP_TAG_PIPE = 7 };

typedef struct {
    dist_ctx *d;
    gpt_model *m;
    pcomm *pipe;        /* the pipeline group's communicator on the model's buffers */
    pcomm *emb;         /* the embedding group's (first and last stages) */
    int vpp;            /* model chunks per stage (1: no interleaving) */
    size_t act_bytes;   /* one micro-batch's activations between stages */
    floatX *xrecv;       /* activations from the previous stage (the model's memory) */
    floatX *grecv;       /* gradients from the next stage (the model's memory) */
    int (*forward)(void *ctx, long long b, int slot, const floatX *x_in, double div, double *loss);
    void *ctx;
    double loss_scale;  /* fp16's loss scale, multiplied into the backward's start (0: 1) */
} pp_sched;

/* Whether the model chunk in use is the first or the last of the whole (virtual) pipeline. */
int pp_first_virtual(const dist_ctx *d, const gpt_model *m);
int pp_last_virtual(const dist_ctx *d, const gpt_model *m, int vpp);

/* One training step's M micro-batches of this data-parallel rank through the
 * pipeline; *loss gets the step's mean loss on every stage. 0 or ERR_*. */
int pp_forward_backward_1f1b(pp_sched *p, long long M, double *loss);
/* The same with vpp > 1 model chunks per stage (M a multiple of pp). */
int pp_forward_backward_interleaved(pp_sched *p, long long M, double *loss);

#endif

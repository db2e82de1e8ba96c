/* run.h - the state of one training run, shared by the trainer's files
 * (internal to train/; the public face is trainer.h):
 *
 *   trainer.c          the loop: one step, the optimizer step or its skip, then
 *                      logging, evaluation, checkpoints, signals
 *   trainer_setup.c    flags checked, ranks, model (initialised or resumed),
 *                      data, device, the start-up banner, teardown
 *   trainer_log.c      Megatron's log lines, the JSON log, evaluation blocks
 *   checkpointing.c    saving and loading the one-file checkpoint in any layout
 *   grad_scaler.h      fp16's dynamic loss scale (Megatron's DynamicGradScaler)
 */
#ifndef TRAIN_RUN_H
#define TRAIN_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "train/backend.h"
#include "train/data/gptdata.h"
#include "train/grad_scaler.h"
#include "train/model/ckpt.h"
#include "train/model/gpt.h"
#include "train/parallel/comm.h"
#include "train/distributed/ddp.h"
#include "train/parallel/dist.h"
#include "train/trainer.h"

/* What the tests ask of a run through the environment, read once at start-up:
 * WEBTEXT_TRAIN_FAIL_AT=RANK:ITERATION fails that rank there (an internal error);
 * WEBTEXT_TRAIN_INJECT_NAN=I,J,... makes a gradient NaN at those iterations. */
typedef struct {
    long long fail_rank, fail_iter; /* -1: none */
    char nan_iters[258];            /* ",I,J,...," or "" */
} train_test_hooks;

/* Sums over the iterations since the last log line. */
typedef struct {
    double loss, time, last_norm;
    long long n, skipped, nan; /* steps taken, skipped (any cause), skipped for a non-finite value */
} log_interval;

typedef struct {
    const train_args *a;
    dist_ctx d;
    ddp dp;      /* gradient reduction and the (sharded) optimizer */
    gpt_model m;
    gptdata data;
    ckpt_state st;
    const char **paths; /* --data-path's datasets and weights (NULL: by size) */
    double *weights;
    int npaths;
    int L, mbs;              /* sequence length, micro-batch size */
    long long gbs, nmicro;   /* global batch; its micro-batches (over all data-parallel ranks) */
    int32_t *tok, *in, *tg;
    floatX *xrecv, *grecv;  /* pipeline: activations from the previous stage, gradients from the next */
    size_t stage_bytes;     /* pipeline: the activations a stage sends on per micro-batch (set by setup) */
    int vpp;                /* interleaved pipeline: model chunks per stage (1: none) */
    int V, Vp; /* vocabulary, padded (Megatron's padded_vocab_size) */
    FILE *json;
    const char *json_path;
    char json_default[4096];
    double unigram;
    double peak;            /* TFLOP/s of the device the MFU is against */
    double flops_tok;       /* model FLOPs per token (forward and backward) */
    int cuda_table;     /* --device cuda: the model on the CUDA operation table */
    int profile;        /* WEBTEXT_PROFILE=1: the table's operations timed (train/ops/ops_profile.c) */
    const gpt_ops *ops; /* the parallel model's operation table (train/ops/ops.h) */
    pcomm c_tensor, c_pipe, c_data, c_emb; /* the groups' communicators on its buffers */
    train_backend be;   /* the model's operations (backend.h): r->m on the CPU, or the GPU's buffers */
    grad_scaler scaler; /* fp16's loss scale (1 otherwise) */
    log_interval log;
    long long consecutive_skips;
    train_test_hooks hooks;
    struct mc_task *etask; /* --eval-tasks, and the tokenizer that encodes them */
    size_t netask;
    struct bpe *etok;
    float *eloss;          /* [mbs * L]: each position's loss of a scoring forward */
} run;

/* trainer_setup.c: everything before the first iteration (every rank). On an
 * error r is still safe to close. */
int run_open(run *r, train_args *a);
/* Free what run_open made and end the ranks' communication; returns status. */
int run_close(run *r, int status);
/* Report an error; with several ranks end them all (one rank's error is not
 * known to the others, which would wait in their next collective for ever).
 * Returns the exit status. */
int run_fail(run *r, int rc);

/* trainer.c: fill r->in / r->tg with micro-batch samples first.. of a split. */
int run_get_batch(run *r, int split, uint64_t first, int mbs);
/* Mean loss over eval_iters global batches of a split, from *pos on. */
int run_evaluate(run *r, int split, uint64_t *pos, double *loss);
/* --eval-tasks (train/trainer_tasks.c): loaded at setup, scored and logged, freed. */
int run_open_tasks(run *r);
int run_score_tasks(run *r, int final);
void run_close_tasks(run *r);

/* trainer_log.c */
void log_add_step(log_interval *l, double loss, double norm);
/* Megatron's iteration line and a JSON record; resets the interval. */
void log_report(run *r, uint64_t it, double lr, double used_scale, uint64_t comm_bytes);
/* An evaluation's loss: Megatron's block and a JSON record. */
void log_eval(run *r, double loss, const char *what, const char *key, int final);
/* The peak host memory of rank 0 and of the largest rank (and the profile). */
void log_peak_memory(run *r);

/* checkpointing.c: every rank at the same point; rank 0 writes. 0 without --save. */
int checkpoint_save(run *r);
/* --load: the latest checkpoint into this rank's part of the model. *resumed
 * is 0 when there is none yet (a first run of a requeued job). */
int checkpoint_load(run *r, int *resumed);

#endif

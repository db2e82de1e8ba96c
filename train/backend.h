/* backend.h - the trainer's model backend: one table of operations on the
 * model buffers that the backend owns. The training loop (trainer.c) reaches
 * the model only through it:
 *
 *   train_backend_model  train/model (the GPT with its parallel layers) on an
 *                        operation table (train/ops/ops.h: the CPU's, the checked
 *                        one of the tests, or CUDA's); data parallelism and ZeRO
 *                        through train/distributed/ddp over the communicators.
 *
 * The host gpt_model is where checkpoints are read and written: sync_host brings
 * the table's master weights and moments into it. */
#ifndef TRAIN_BACKEND_H
#define TRAIN_BACKEND_H

#include <stdint.h>

#include "train/distributed/ddp.h"
#include "train/parallel/dist.h"
#include "train/model/gpt.h"

typedef struct train_backend train_backend;

typedef struct {
    const char *name; /* "model" */
    /* Forward of inputs [B, T]; *loss the mean loss with targets, else -1. Returns 0 or an
     * ERR_* code (gpt_forward's). */
    int (*forward)(train_backend *b, const int32_t *in, const int32_t *tg, int B, int T, float *loss);
    /* grads += d(loss * scale)/dparams of the last forward. */
    void (*backward)(train_backend *b, float scale);
    void (*zero_grad)(train_backend *b);
    /* After the micro-batches: sum the gradients over the ranks that share them
     * (data-parallel group; sequence-parallel LayerNorms), *loss over the
     * data-parallel group, and the global L2 norm of the summed gradients. */
    int (*reduce)(train_backend *b, double *loss, double *norm);
    /* AdamW on the gradients times gscale (loss-scale undo and clipping). */
    int (*step)(train_backend *b, float gscale, float lr, float beta1, float beta2, float eps, float wd, int64_t t);
    /* Master weights and moments into the host model (before a checkpoint). */
    void (*sync_host)(train_backend *b);
    void (*release)(train_backend *b);
} train_backend_ops;

struct train_backend {
    const train_backend_ops *ops;
    gpt_model *m;  /* the host model */
    dist_ctx *d;
    ddp *dp;       /* the data-parallel optimizer */
};

extern const train_backend_ops train_backend_model;
/* Tests only (WEBTEXT_TRAIN_INJECT_NAN), kept out of the table: make one
 * gradient NaN in whichever backend b runs on. */
void train_backend_poison_grad(train_backend *b);

#endif

/* backend.c - the trainer's backend: the model on an operation table (see backend.h). */
#include "train/backend.h"

#include <math.h>
#include <stddef.h>


/* ---- train/model on its table (CPU, checked or CUDA), data parallelism through ddp ---- */

static int model_forward(train_backend *b, const int32_t *in, const int32_t *tg, int B, int T, float *loss)
{
    return gpt_forward(b->m, in, tg, B, T, loss);
}
static void model_backward(train_backend *b, float scale) { gpt_backward(b->m, scale); }
static void model_zero_grad(train_backend *b) { ddp_zero_grads(b->dp, b->m); }
static int model_reduce(train_backend *b, double *loss, double *norm)
{
    int rc;
    if ((rc = gpt_sp_reduce_grads(b->m)) || (rc = dist_allreduce_f64(b->d, &b->d->data, loss, 1)) ||
        (rc = ddp_reduce_grads(b->dp, b->m)))
        return rc;
    return ddp_grad_norm(b->dp, b->m, norm);
}
static int model_step(train_backend *b, float gscale, float lr, float beta1, float beta2, float eps, float wd, int64_t t)
{
    int rc = ddp_adamw(b->dp, b->m, gscale, lr, beta1, beta2, eps, wd, t); /* the scale fused into the step */
    gpt_params_stepped(b->m, b->dp->zero == 0); /* mixed precision: gpt_adamw wrote the compute weights */
    return rc;
}
/* The table's buffers into the host model (nothing to do on the CPU's own);
 * ZeRO gathers its shards itself. */
static void model_sync_host(train_backend *b) { gpt_download(b->m, !b->dp->zero); }
static void model_release(train_backend *b) { (void)b; }

const train_backend_ops train_backend_model = {"model",         model_forward,   model_backward,    model_zero_grad, model_reduce,
                                             model_step,       model_sync_host, model_release};

void train_backend_poison_grad(train_backend *b)
{
    ddp_poison_grad(b->dp, b->m);
}

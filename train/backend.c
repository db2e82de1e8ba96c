/* backend.c - the CPU and CUDA backends' operation tables (see backend.h). */
#include "train/backend.h"

#include <math.h>
#include <stddef.h>

#ifdef WEBTEXT_CUDA
#include "train/cuda/gpt_cuda.h"
#endif
#ifdef WEBTEXT_NCCL
#include "train/parallel/nccl.h"
#endif

/* ---- CPU: train/model on train/cpu, data parallelism through ddp ---------- */

static int cpu_forward(train_backend *b, const int32_t *in, const int32_t *tg, int B, int T, float *loss)
{
    return gpt_forward(b->m, in, tg, B, T, loss);
}
static void cpu_backward(train_backend *b, float scale) { gpt_backward(b->m, scale); }
static void cpu_zero_grad(train_backend *b) { ddp_zero_grads(b->dp, b->m); }
static int cpu_reduce(train_backend *b, double *loss, double *norm)
{
    int rc;
    if ((rc = gpt_sp_reduce_grads(b->m)) || (rc = dist_allreduce_f64(b->d, &b->d->data, loss, 1)) ||
        (rc = ddp_reduce_grads(b->dp, b->m)))
        return rc;
    return ddp_grad_norm(b->dp, b->m, norm);
}
static int cpu_step(train_backend *b, float gscale, float lr, float beta1, float beta2, float eps, float wd, int64_t t)
{
    int rc = ddp_adamw(b->dp, b->m, gscale, lr, beta1, beta2, eps, wd, t); /* the scale fused into the step */
    gpt_params_stepped(b->m, b->dp->zero == 0); /* mixed precision: gpt_adamw wrote the compute weights */
    return rc;
}
/* The table's buffers into the host model (nothing to do on the CPU's own);
 * ZeRO gathers its shards itself. */
static void cpu_sync_host(train_backend *b) { gpt_download(b->m, !b->dp->zero); }
static void cpu_release(train_backend *b) { (void)b; }

const train_backend_ops train_backend_cpu = {"cpu",          cpu_forward,   cpu_backward,    cpu_zero_grad, cpu_reduce,
                                             cpu_step,       cpu_sync_host, cpu_release};

/* ---- CUDA: train/cuda on one GPU, data parallelism through NCCL ------------ */
#ifdef WEBTEXT_CUDA
static int cuda_forward(train_backend *b, const int32_t *in, const int32_t *tg, int B, int T, float *loss)
{
    (void)B;
    (void)T; /* the shape given at gpt_cuda_create (its buffers allocated there) */
    *loss = gpt_cuda_forward(b->gpu, in, tg);
    return 0;
}
static void cuda_backward(train_backend *b, float scale) { gpt_cuda_backward(b->gpu, scale); }
static void cuda_zero_grad(train_backend *b) { gpt_cuda_zero_grad(b->gpu); }
static int cuda_reduce(train_backend *b, double *loss, double *norm)
{
    int rc;
#ifdef WEBTEXT_NCCL
    if (b->nccl) {
        size_t n;
        void *stream;
        float *g = gpt_cuda_grad_buffer(b->gpu, &n, &stream);
        if ((rc = dist_nccl_allreduce_f32(b->nccl, g, n, stream)))
            return rc;
    }
#endif
    if ((rc = dist_allreduce_f64(b->d, &b->d->data, loss, 1)))
        return rc;
    *norm = gpt_cuda_grad_norm(b->gpu);
    return 0;
}
static int cuda_step(train_backend *b, float gscale, float lr, float beta1, float beta2, float eps, float wd, int64_t t)
{
    gpt_cuda_adamw(b->gpu, gscale, lr, beta1, beta2, eps, wd, t);
    return 0;
}
static void cuda_sync_host(train_backend *b)
{
    float *g = b->m->grads;
    b->m->grads = NULL; /* weights and moments only */
    gpt_cuda_download(b->gpu, b->m);
    b->m->grads = g;
}
static void cuda_release(train_backend *b)
{
#ifdef WEBTEXT_NCCL
    dist_nccl_free(b->nccl);
    b->nccl = NULL;
#endif
    if (b->gpu)
        gpt_cuda_free(b->gpu);
    b->gpu = NULL;
}

const train_backend_ops train_backend_cuda = {"cuda",    cuda_forward,   cuda_backward,    cuda_zero_grad, cuda_reduce,
                                              cuda_step, cuda_sync_host, cuda_release};
#endif

void train_backend_poison_grad(train_backend *b)
{
#ifdef WEBTEXT_CUDA
    if (b->ops == &train_backend_cuda) {
        gpt_cuda_poison_grad(b->gpu);
        return;
    }
#endif
    ddp_poison_grad(b->dp, b->m);
}

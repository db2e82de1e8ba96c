/* gpt_cuda.h - the CUDA backend of the GPT model (train/cuda/): the same model,
 * forward, backward and AdamW as train/model/gpt.h, on one NVIDIA GPU.
 *
 * Precision: fp32 (tests), or bf16 / fp16 mixed precision: parameters and
 * activations stored in 16 bits and every product and reduction computed in
 * fp32; fp32 master weights, fp32 gradients and fp32 AdamW moments on the GPU.
 * The host gpt_model holds the same parameter layout and is where checkpoints
 * are read and written: gpt_cuda_create uploads it, gpt_cuda_download brings the
 * master weights and moments back.
 *
 * Every kernel is deterministic (fixed grids, no atomics), so two runs with the
 * same seed give identical losses. Built only when nvcc is found; the trainer
 * tests WEBTEXT_CUDA. */
#ifndef TRAIN_CUDA_GPT_CUDA_H
#define TRAIN_CUDA_GPT_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "train/model/gpt.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { GPT_CUDA_FP32 = 0, GPT_CUDA_BF16 = 1, GPT_CUDA_FP16 = 2 };

typedef struct {
    int precision;  /* GPT_CUDA_* */
    int B, T;       /* micro-batch shape: every forward uses it */
    int recompute;  /* keep LayerNorm and GELU outputs of one layer only; recompute them in backward */
    int epilogues;  /* fold bias and GELU into cuBLASLt matmuls (1, the default) */
    int offload;    /* --cpu-offload: master weights and AdamW moments stay in the host model
                     * (pinned), the update runs on CPU threads overlapped with the copies */
    int attention;  /* GPT_ATTN_*: which attention kernels (Megatron's --attention-backend) */
} gpt_cuda_opts;

/* Attention backends. AUTO: fused where it applies (16-bit, cuDNN built and
 * supporting the shape), else unfused. FUSED: cuDNN's fused flash attention
 * (cudnn_attention.h; an error where it does not apply). FLASH: this folder's
 * WMMA FlashAttention-2 kernels (flash.cuh; 16-bit, head size 64, T a multiple
 * of 64, else unfused with a note). UNFUSED: batched GEMMs and softmax kernels
 * with a T x T scratch (attention.cuh; every precision). */
enum { GPT_ATTN_AUTO = 0, GPT_ATTN_FUSED = 1, GPT_ATTN_FLASH = 2, GPT_ATTN_UNFUSED = 3 };

typedef struct gpt_cuda gpt_cuda;

/* The GPU the backend would use: 0 with its name, memory and bf16 dense peak
 * (TFLOP/s; 0 when unknown), or ERR_USAGE with a message when there is none. */
int gpt_cuda_device(char *name, size_t n, size_t *mem_total, double *peak_tflops);
/* Upload m's parameters and moments; allocate gradients and activations. 0 or ERR_*.
 * With o->offload, m's params, grads and moments become the optimizer's own
 * (pinned in place): m must outlive g, and holds the current weights throughout. */
int gpt_cuda_create(gpt_cuda **g, const gpt_model *m, const gpt_cuda_opts *o);
void gpt_cuda_free(gpt_cuda *g);
/* Forward of inputs [B, T]; with targets the mean loss, else -1. */
float gpt_cuda_forward(gpt_cuda *g, const int32_t *inputs, const int32_t *targets);
/* Backward of the last forward (with targets): grads += d(loss * loss_scale)/dparams. */
void gpt_cuda_backward(gpt_cuda *g, float loss_scale);
void gpt_cuda_zero_grad(gpt_cuda *g);
/* L2 norm of the gradients (fixed order). */
double gpt_cuda_grad_norm(gpt_cuda *g);
/* AdamW (gpt_adamw's formula) on gradients times gscale (clipping, loss-scale undo). */
void gpt_cuda_adamw(gpt_cuda *g, float gscale, float lr, float beta1, float beta2, float eps, float wd, int64_t step);
/* Copy master weights and moments (and gradients when m->grads) to the host model. */
void gpt_cuda_download(gpt_cuda *g, gpt_model *m);
/* Tests: make gradient 0 NaN. */
void gpt_cuda_poison_grad(gpt_cuda *g);
/* Device memory this process holds, and the device's total (bytes). */
size_t gpt_cuda_memory(gpt_cuda *g, size_t *total);
/* The attention backend in use, in words (e.g. "fused (cuDNN 9.19.0)", or
 * "unfused (batched GEMMs; fused: ...why not)"). */
const char *gpt_cuda_attention(gpt_cuda *g);
/* How many CUDA GPUs this process sees (0 without a driver). */
int gpt_cuda_device_count(void);
/* The GPU this process uses (before gpt_cuda_create / gpt_cuda_device; default 0). */
void gpt_cuda_set_device(int dev);
/* The fp32 gradient buffer on the device [n] and the stream that writes it
 * (a cudaStream_t): data parallelism all-reduces it there (train/parallel/nccl.h)
 * between gpt_cuda_backward and gpt_cuda_grad_norm. */
float *gpt_cuda_grad_buffer(gpt_cuda *g, size_t *n, void **stream);
/* Logits of the last forward as fp32 [B*T, Vp] into out (tests). */
void gpt_cuda_logits(gpt_cuda *g, float *out);

#ifdef __cplusplus
}
#endif
#endif

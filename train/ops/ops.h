/* ops.h - the operation table the parallel model runs on (llm.c's granularity).
 *
 * train/model/gpt.c (the GPT with Megatron's parallel layers: VocabParallel-
 * Embedding, Column/RowParallelLinear, sequence parallelism, pipeline stages and
 * model chunks, ZeRO's unit hooks) and train/distributed/ddp.c (data parallelism,
 * ZeRO-1/2/3) never touch a model buffer themselves: every allocation, copy,
 * kernel and reduction goes through one of these tables, and every collective
 * through a communicator (train/parallel/comm.h). So the parallel model is
 * written once and runs wherever a table exists:
 *
 *   gpt_ops_cpu      train/cpu/ops.c: the reference, today's CPU kernels
 *                    (train/cpu/kernels.h) on host memory; bit-reproducible.
 *   gpt_ops_checked  train/cpu/ops_checked.c (tests): the same kernels behind a
 *                    device interface that faults when the host dereferences a
 *                    "device" pointer and poisons what the host reads before a
 *                    sync, so device discipline is tested without a GPU.
 *   gpt_ops_cuda     train/cuda/ops_cuda.cu: the .cuh kernels, cuBLASLt, cuDNN.
 *
 * Buffers ("device memory") belong to the table that allocated them. Unless
 * `device` is 0 (host memory), the host must not read or write them except
 * through upload / download, and a download is complete only after sync.
 * Kernels are ordered (one stream): each sees the results of the ones before.
 * Shapes and layouts are kernels.h's (B sequences of T tokens, C channels,
 * weights [out, in]); the small operations below are the host loops gpt.c had
 * between the kernels, each described where it is declared.
 *
 * The table is in three parts: what the table is (name and flags), memory
 * (gpt_mem_ops: buffers, transfers, ordering; called as ops->mem.alloc), compute
 * (kernels and the small operations). No member exists for tests only.
 * Every member is required except those marked "optional" (NULL allowed; the
 * caller then does without).
 */
#ifndef TRAIN_OPS_H
#define TRAIN_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A value in the table's storage precision (see storage_prec below): an incomplete
 * type, so that an fp32 buffer cannot be passed for it by mistake; index with x_at. */
typedef struct floatX floatX;
static inline size_t prec_bytes(int prec) { return prec ? 2 : 4; }
static inline floatX *x_at(const floatX *p, size_t i, size_t xbytes)
{
    return p ? (floatX *)((char *)(uintptr_t)p + i * xbytes) : NULL;
}

/* ==== memory ==== (ggml's buffer interface beside its backend's: where buffers
 * live and how bytes cross between host and device) */
typedef struct gpt_mem_ops {
    void *(*alloc)(size_t bytes);  /* zeroed; NULL when out of memory */
    void (*free)(void *p);         /* NULL is allowed */
    void (*copy)(void *dst, const void *src, size_t bytes); /* device to device (no overlap) */
    void (*zero)(void *dst, size_t bytes);
    void (*upload)(void *dst, const void *host, size_t bytes);   /* host -> device, ordered */
    void (*download)(void *host, const void *src, size_t bytes); /* device -> host; complete after sync */
    void (*sync)(void);
    /* Host memory for staging transfers (pinned on CUDA); free with host_free. */
    void *(*host_alloc)(size_t bytes);
    void (*host_free)(void *p);
    /* The device's UUID (which physical GPU; the communicators compare them). */
    void (*device_uuid)(unsigned char uuid[16]);
    /* Optional (NULL where the table has none; the CUDA table's): a timing event recorded
     * in the table's order, returning its number; the seconds between two recorded events
     * once a sync has completed both; forget the recorded events (after a sync). The
     * profile's event mode (WEBTEXT_PROFILE=events) times the device without a sync after
     * each operation. */
    int (*event_record)(void);
    double (*event_seconds)(int a, int b);
    void (*events_clear)(void);
} gpt_mem_ops;

typedef struct gpt_ops {
    /* ==== what the table is ==== */
    const char *name; /* "cpu", "checked", "cuda" */
    int device;       /* 1: buffers are not host memory */
    int nccl;         /* 1: NCCL can take its buffers (CUDA device memory) */

    gpt_mem_ops mem;

    /* ==== compute ==== */
    /* Typed storage. floatX (llm.c's name for the compute type, here chosen at run time)
     * is a value in the storage precision told once by storage_prec: fp32 (4 bytes),
     * bf16 or fp16 (2 bytes; precision.h's bit patterns, the GPU's __nv_bfloat16 and
     * __half). The model's compute weights, activations and their gradients are floatX;
     * master weights, weight gradients, AdamW's moments, LayerNorm's statistics,
     * attention's probabilities or log-sum-exps and the losses are fp32. A kernel reads
     * its floatX operands exactly, computes in fp32 and stores its floatX outputs
     * rounded to nearest even (what the GPU's conversions do), so an output that a
     * kernel accumulates into (+=) is read, added to in fp32 and rounded once. */
    /* GPT_PREC_* (train/cpu/precision.h); fp32 until told. The model tells it before each
     * forward and backward (a process also holds fp32 host models: initialisation,
     * checkpoints), so it is the table's state between those, not a model's. */
    void (*storage_prec)(int prec);
    /* floatX <-> fp32: dst[i] = src[i] rounded (to_prec), or widened exactly (from_prec). */
    void (*to_prec)(floatX *dst, const float *src, size_t n);
    void (*from_prec)(float *dst, const floatX *src, size_t n);

    /* ---- the model's kernels (kernels.h) ---- */
    void (*encoder_forward)(floatX *out, const int32_t *inp, const floatX *wte, const floatX *wpe, int B, int T, int C);
    void (*encoder_forward_vp)(floatX *out, const int32_t *inp, const floatX *wte, size_t v0, size_t Vl, int BT, int C);
    void (*encoder_backward)(float *dwte, float *dwpe, const floatX *dout, const int32_t *inp, int B, int T, int C,
                             size_t v0, size_t Vl);
    void (*layernorm_forward)(floatX *out, float *mean, float *rstd, const floatX *inp, const floatX *w,
                              const floatX *b, int N, int C);
    /* dinp += ..., dw += ..., db += ...; part: scratch of layernorm_part_floats(C) floats */
    void (*layernorm_backward)(floatX *dinp, float *dw, float *db, const floatX *dout, const floatX *inp,
                               const floatX *w, const float *mean, const float *rstd, int N, int C, float *part);
    size_t (*layernorm_part_floats)(int C);
    void (*matmul_forward)(floatX *out, const floatX *inp, const floatX *w, const floatX *bias, int N, int C, int OC,
                           int accumulate);
    void (*matmul_backward)(floatX *dinp, float *dw, float *dbias, const floatX *dout, const floatX *inp,
                            const floatX *w, int N, int C, int OC, int accumulate_dinp);
    /* att [B, NH, attention_state_floats(T)]: what the backward needs of the forward
     * (the CPU keeps the probabilities, T x T a head; CUDA the log-sum-exps, T), fp32;
     * scratch [attention_scratch_floats(T)]; out: the forward's output, given again to
     * the backward */
    void (*attention_forward)(floatX *out, float *att, const floatX *qkv, int B, int T, int C, int NH);
    void (*attention_backward)(floatX *dqkv, float *scratch, const floatX *dout, const floatX *qkv, const float *att,
                               const floatX *out, int B, int T, int C, int NH);
    size_t (*attention_scratch_floats)(int T);
    size_t (*attention_state_floats)(int T);
    void (*gelu_forward)(floatX *out, const floatX *inp, size_t n);
    /* dinp may be dout (in place) */
    void (*gelu_backward)(floatX *dinp, const floatX *inp, const floatX *dout, size_t n);

    /* ---- fused: one kernel (or one product with its epilogue) on the GPU where the
     * CPU runs the sequence it replaces, which is each one's reference ---- */
    /* pre = inp @ w^T + bias, out = gelu(pre): matmul_forward then gelu_forward
     * (cuBLASLt's GELU_AUX_BIAS epilogue) */
    void (*matmul_gelu_forward)(floatX *out, floatX *pre, const floatX *inp, const floatX *w, const floatX *bias,
                                int N, int C, int OC);
    /* The backward of a layer whose input was gelu(pre): matmul_backward (dinp
     * overwritten) then gelu_backward of dinp in place (the DGELU epilogue) */
    void (*matmul_dgelu_backward)(floatX *dinp, float *dw, float *dbias, const floatX *dout, const floatX *inp,
                                  const floatX *w, const floatX *pre, int N, int C, int OC);
    /* res_out = res + t + tbias (tbias may be NULL), out = LayerNorm(res_out): residual_bias
     * then layernorm_forward (the residual add fused into the LayerNorm after it) */
    void (*residual_layernorm_forward)(floatX *res_out, floatX *out, float *mean, float *rstd, const floatX *res,
                                       const floatX *t, const floatX *tbias, const floatX *w, const floatX *b, int N,
                                       int C);

    /* ---- the small operations between them ---- */
    /* out[r, o] = res[r, o] + t[r, o] + bias[o] (a row-parallel layer's sum, bias and residual) */
    void (*residual_bias)(floatX *out, const floatX *res, const floatX *t, const floatX *bias, int rows, int OC);
    /* x[i, :] += wpe[(r0 + i) % T, :] for i < R (positions after a vocab-parallel lookup) */
    void (*add_positions)(floatX *x, const floatX *wpe, size_t r0, size_t R, int T, int C);
    /* Cross-entropy of rows [BT] of logits (row stride Vs, the first nv real): lse[i] =
     * log-sum-exp, loss[i] = lse[i] - logits[i, target[i]] (in float). */
    void (*crossentropy_forward)(float *lse, float *loss, const floatX *logits, const int32_t *targets, size_t BT,
                                 int nv, size_t Vs);
    /* Vocab-parallel cross-entropy, this rank's rows [v0, v0 + Vs) (nv real): the per-token
     * max; then, with the group's max, the sum of exponentials and the target's logit (0
     * when another rank holds it); then, with the group's sums, lse and loss. */
    void (*crossentropy_vp_max)(float *max, const floatX *logits, size_t BT, int nv, size_t Vs);
    void (*crossentropy_vp_sum)(float *sum, float *target_logit, const floatX *logits, const float *max,
                                const int32_t *targets, size_t BT, int nv, size_t Vs, size_t v0);
    void (*crossentropy_vp_finish)(float *lse, float *loss, const float *max, const float *sum,
                                   const float *target_logit, size_t BT);
    /* In place: logits -> dlogits = (softmax - onehot(target)) * dl; padding rows 0. */
    void (*crossentropy_backward)(floatX *logits, const float *lse, const int32_t *targets, size_t BT, int nv,
                                  size_t Vs, size_t v0, float dl);
    /* out[0] = sum of x[0..n) in double (the loss): OpenMP-static order on the CPU */
    void (*sum_f64)(double *out, const float *x, size_t n);
    /* out[0] = sum of x[i]^2 in double, as the sums of blocks of blk (in order) */
    void (*sumsq_f64)(double *out, const float *x, size_t n, size_t blk);
    void (*scale)(float *x, float s, size_t n);
    void (*add)(float *y, const float *x, size_t n); /* y += x */
    /* x[0..n) rounded in place to what bf16 (prec 1) or fp16 (prec 2) holds, to nearest
     * even, kept in fp32 storage; fp16 past its range becomes inf (--grad-reduce-in-bf16's
     * gradients, which stay fp32 buffers). */
    void (*round_prec)(float *x, size_t n, int prec);
    /* AdamW on n fp32 parameters with the gradients g[i] * gscale (clipping, the loss
     * scale undone: the product scale() would store, fused): bias corrections bc1, bc2,
     * decoupled weight decay; with plow (fused), also plow[i] = the
     * updated p[i] in the storage precision (the compute copy, written in the same pass;
     * to_prec's values). g is left as it was. */
    void (*adamw)(float *p, floatX *plow, const float *g, float *m, float *v, size_t n, float gscale, float lr,
                  float beta1, float beta2, float eps, float decay, float bc1, float bc2);
} gpt_ops;

extern const gpt_ops gpt_ops_cpu;
/* The device-discipline test backend (see ops_checked.c): the CPU kernels on
 * tagged pointers. gpt_ops_checked_violations: reads of unsynchronised results
 * caught so far. */
extern const gpt_ops gpt_ops_checked;
long gpt_ops_checked_violations(void);

/* train/cuda/ops_cuda.cu, in builds with the CUDA backend (typed storage as the CPU
 * table). gpt_ops_cuda_count: the GPUs this process sees.
 * gpt_ops_cuda_select: this rank's GPU (its rank on the node modulo the GPUs; ranks may share one), the
 * device or -1 with a message. */
extern const gpt_ops gpt_ops_cuda;
int gpt_ops_cuda_select(int local_rank);
int gpt_ops_cuda_count(int *n);
/* The GPU selected: 0 with its name, memory and bf16 dense peak (TFLOP/s; 0 when
 * unknown), or ERR_USAGE with a message when there is none. */
int gpt_ops_cuda_device(char *name, size_t n, size_t *mem_total, double *peak_tflops);
/* Attention backends (Megatron's --attention-backend). AUTO: cuDNN's fused attention
 * where it takes the shape (16-bit, cuDNN built), else the flash kernels where they
 * apply, else unfused. FUSED: cuDNN's (an error where it does not apply). FLASH:
 * the WMMA FlashAttention-2 kernels (train/cuda/flash.cuh: 16-bit, head size 64, T a
 * multiple of 64; else unfused with a note). UNFUSED: batched GEMMs and softmax
 * kernels on a T x T scratch (every precision). */
enum { GPT_ATTN_AUTO = 0, GPT_ATTN_FUSED = 1, GPT_ATTN_FLASH = 2, GPT_ATTN_UNFUSED = 3 };
/* The CUDA table's choices for a run: the attention backend for its shape (micro-batch
 * B, sequence T, this rank's NH heads of size hs, precision prec) and whether bias and
 * GELU fold into cuBLASLt's epilogues (1, the default). 0 or ERR_USAGE naming why. */
int gpt_ops_cuda_configure(int prec, int attention, int epilogues, int B, int T, int NH, int hs);
/* The attention in use, in words (e.g. "fused (cuDNN 9.19.0)"). */
const char *gpt_ops_cuda_attention(void);
/* The bytes this process holds in the table's buffers; free and total memory
 * of its GPU (all processes on it). */
void gpt_ops_cuda_mem(size_t *held, size_t *free_bytes, size_t *total_bytes);

/* The profile (train/ops/ops_profile.c): a table wrapping inner that times each
 * operation (synchronising after it); the report of the time per operation.
 * One profiled table per process. */
const gpt_ops *gpt_ops_profiled(const gpt_ops *inner);
/* The same with events (the table's event_record; sync mode where it has none): each
 * operation's device time without a sync after it, so the time between operations is the
 * device's idle time (launches, host work, waits). */
const gpt_ops *gpt_ops_profiled_events(const gpt_ops *inner);
void gpt_ops_profile_report(FILE *f);
/* Start again (after the first iteration: its allocations, uploads, cuBLAS and cuDNN
 * plans are set-up, not the step). */
void gpt_ops_profile_reset(void);
/* The seconds in operations (syncs left out) and the span from the first to the last. */
void gpt_ops_profile_totals(double *ops_secs, double *span);

/* Helpers over any table. */
static inline void *ops_alloc_floats(const gpt_ops *o, size_t n) { return o->mem.alloc(n ? n * sizeof(float) : 1); }

#endif

/* ops.c - the CPU reference operation table (train/ops/ops.h): train/cpu/kernels.c
 * on host memory, and the loops the model had between the kernels, unchanged,
 * so that numbers are bit for bit what they were. */
#include "train/cpu/precision.h"
#include "train/ops/ops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/cpu/kernels.h"

static void *cpu_alloc(size_t bytes) { return calloc(1, bytes ? bytes : 1); }
static void cpu_free(void *p) { free(p); }
static void cpu_copy(void *dst, const void *src, size_t bytes)
{
    if (bytes)
        memcpy(dst, src, bytes);
}
static void cpu_zero(void *dst, size_t bytes)
{
    if (bytes)
        memset(dst, 0, bytes);
}
static void cpu_sync(void) {}
static void *cpu_host_alloc(size_t bytes) { return malloc(bytes ? bytes : 1); }

static void cpu_device_uuid(unsigned char uuid[16]) { memset(uuid, 0, 16); }

static size_t cpu_layernorm_part_floats(int C) { return (size_t)cpu_threads() * 2 * (size_t)C; }
static size_t cpu_attention_scratch_floats(int T) { return (size_t)cpu_threads() * (size_t)T * (size_t)T; }

static void cpu_attention_backward(float *dqkv, float *scratch, const float *dout, const float *qkv,
                                   const float *att, const float *out, int B, int T, int C, int NH)
{
    (void)out; /* the probabilities suffice */
    attention_backward(dqkv, scratch, dout, qkv, att, B, T, C, NH);
}

static void cpu_residual_bias(float *out, const float *res, const float *t, const float *bias, int rows, int OC)
{
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; r++)
        for (int o = 0; o < OC; o++)
            out[(size_t)r * OC + o] = res[(size_t)r * OC + o] + t[(size_t)r * OC + o] + bias[o];
}

static void cpu_add_positions(float *x, const float *wpe, size_t r0, size_t R, int T, int C)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            x[i * C + j] += wpe[((r0 + i) % (size_t)T) * C + j];
}

static void cpu_crossentropy_forward(float *lse, float *loss, const float *logits, const int32_t *targets, size_t BT,
                                     int nv, size_t Vs)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < BT; i++) {
        const float *x = logits + i * Vs;
        float mx = row_max(x, nv);
        float l = mx + logf(row_sum_exp(x, nv, mx));
        lse[i] = l;
        loss[i] = l - x[targets[i]];
    }
}

static void cpu_crossentropy_vp_max(float *max, const float *logits, size_t BT, int nv, size_t Vs)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < BT; i++)
        max[i] = nv ? row_max(logits + i * Vs, nv) : -INFINITY;
}

static void cpu_crossentropy_vp_sum(float *sum, float *tl, const float *logits, const float *max,
                                    const int32_t *targets, size_t BT, int nv, size_t Vs, size_t v0)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < BT; i++) {
        const float *x = logits + i * Vs;
        sum[i] = nv ? row_sum_exp(x, nv, max[i]) : 0.0f;
        size_t row = (size_t)targets[i] - v0;
        tl[i] = row < Vs ? x[row] : 0.0f;
    }
}

static void cpu_crossentropy_vp_finish(float *lse, float *loss, const float *max, const float *sum, const float *tl,
                                       size_t BT)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < BT; i++) {
        float l = max[i] + logf(sum[i]);
        lse[i] = l;
        loss[i] = l - tl[i];
    }
}

static void cpu_crossentropy_backward(float *logits, const float *lse, const int32_t *targets, size_t BT, int nv,
                                      size_t Vs, size_t v0, float dl)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < BT; i++) {
        float *x = logits + i * Vs, l = lse[i];
        for (int v = 0; v < nv; v++)
            x[v] = exp_approx(x[v] - l) * dl;
        for (size_t v = (size_t)nv; v < Vs; v++)
            x[v] = 0.0f;
        size_t row = (size_t)targets[i] - v0;
        if (row < Vs)
            x[row] -= dl;
    }
}

static void cpu_sum_f64(double *out, const float *x, size_t n)
{
    double total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total)
    for (size_t i = 0; i < n; i++)
        total += x[i];
    out[0] = total;
}

/* Per-block partial sums in a fixed block order: the same result for any
 * thread count. blk >= n: one sequential sum. */
static void cpu_sumsq_f64(double *out, const float *g, size_t n, size_t blk)
{
    if (blk >= n) {
        double s = 0;
        for (size_t i = 0; i < n; i++)
            s += (double)g[i] * g[i];
        out[0] = s;
        return;
    }
    size_t nb = (n + blk - 1) / blk;
    double *part = malloc(nb * sizeof(double));
    if (!part) {
        out[0] = NAN;
        return;
    }
#pragma omp parallel for schedule(static)
    for (size_t b = 0; b < nb; b++) {
        size_t lo = b * blk, hi = lo + blk < n ? lo + blk : n;
        double s = 0;
        for (size_t i = lo; i < hi; i++)
            s += (double)g[i] * g[i];
        part[b] = s;
    }
    double s = 0;
    for (size_t b = 0; b < nb; b++)
        s += part[b];
    free(part);
    out[0] = s;
}

static void cpu_scale(float *x, float s, size_t n)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        x[i] *= s;
}

static void cpu_add(float *y, const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] += x[i];
}

static void cpu_round(float *x, size_t n, int prec)
{
    if (prec == GPT_PREC_BF16) {
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            x[i] = prec_round_bf16(x[i]);
    } else if (prec == GPT_PREC_FP16) {
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            x[i] = prec_round_fp16(x[i]);
    }
}

static void cpu_adamw(float *p, const float *g, float *mm, float *vv, size_t n, float lr, float beta1, float beta2,
                      float eps, float decay, float bc1, float bc2)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        float gi = g[i];
        float mi = beta1 * mm[i] + (1.0f - beta1) * gi;
        float vi = beta2 * vv[i] + (1.0f - beta2) * gi * gi;
        mm[i] = mi;
        vv[i] = vi;
        float mhat = mi / bc1, vhat = vi / bc2;
        p[i] -= lr * (mhat / (sqrtf(vhat) + eps) + decay * p[i]);
    }
}

const gpt_ops gpt_ops_cpu = {
    .name = "cpu",
    .device = 0,
    .mem =
        {
            .alloc = cpu_alloc,
            .free = cpu_free,
            .copy = cpu_copy,
            .zero = cpu_zero,
            .upload = cpu_copy,
            .download = cpu_copy,
            .sync = cpu_sync,
            .host_alloc = cpu_host_alloc,
            .host_free = cpu_free,
            .device_uuid = cpu_device_uuid,
        },
    .encoder_forward = encoder_forward,
    .encoder_forward_vp = encoder_forward_vp,
    .encoder_backward = encoder_backward,
    .layernorm_forward = layernorm_forward,
    .layernorm_backward = layernorm_backward_part,
    .layernorm_part_floats = cpu_layernorm_part_floats,
    .matmul_forward = matmul_forward,
    .matmul_backward = matmul_backward,
    .attention_forward = attention_forward,
    .attention_backward = cpu_attention_backward,
    .attention_scratch_floats = cpu_attention_scratch_floats,
    .gelu_forward = gelu_forward,
    .gelu_backward = gelu_backward,
    .residual_bias = cpu_residual_bias,
    .add_positions = cpu_add_positions,
    .crossentropy_forward = cpu_crossentropy_forward,
    .crossentropy_vp_max = cpu_crossentropy_vp_max,
    .crossentropy_vp_sum = cpu_crossentropy_vp_sum,
    .crossentropy_vp_finish = cpu_crossentropy_vp_finish,
    .crossentropy_backward = cpu_crossentropy_backward,
    .sum_f64 = cpu_sum_f64,
    .sumsq_f64 = cpu_sumsq_f64,
    .scale = cpu_scale,
    .add = cpu_add,
    .round_prec = cpu_round,
    .adamw = cpu_adamw,
};

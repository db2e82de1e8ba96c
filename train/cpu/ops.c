/* ops.c - the CPU reference operation table (train/ops/ops.h): train/cpu/kernels.c
 * on host memory, and the loops the model had between the kernels, unchanged,
 * so that numbers are bit for bit what they were.
 *
 * Typed storage: in fp32 the kernels run on the buffers themselves. In bf16 or
 * fp16 each kernel's floatX operands are widened (exactly) into fp32 scratch, the
 * fp32 kernel runs, and its floatX outputs are rounded back (to nearest even, as
 * the GPU's conversions): the same arithmetic as a GPU kernel that loads the narrow
 * type and computes in fp32, and bit for bit what the fp32-storage model computed
 * when it rounded every such buffer after its kernel. */
#include "train/cpu/precision.h"
#include "train/ops/ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/cpu/kernels.h"

/* ---- typed storage: the precision, conversions, fp32 views of floatX operands ---- */
static int g_prec; /* GPT_PREC_* */
static void cpu_storage_prec(int prec) { g_prec = prec == GPT_PREC_BF16 || prec == GPT_PREC_FP16 ? prec : 0; }

static void cpu_to_prec(floatX *dst, const float *src, size_t n)
{
    if (g_prec == GPT_PREC_BF16) {
        uint16_t *d = (uint16_t *)dst;
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            d[i] = prec_bf16_bits(src[i]);
    } else if (g_prec == GPT_PREC_FP16) {
        uint16_t *d = (uint16_t *)dst;
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            d[i] = prec_fp16_bits(src[i]);
    } else if (n && (const void *)dst != (const void *)src) {
        memcpy(dst, src, n * sizeof(float));
    }
}

static void cpu_from_prec(float *dst, const floatX *src, size_t n)
{
    const uint16_t *s = (const uint16_t *)src;
    if (g_prec == GPT_PREC_BF16) {
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            dst[i] = prec_bf16_float(s[i]);
    } else if (g_prec == GPT_PREC_FP16) {
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            dst[i] = prec_fp16_float(s[i]);
    } else if (n && (const void *)dst != (const void *)src) {
        memcpy(dst, src, n * sizeof(float));
    }
}

/* One element (the encoder's gathers, whose tables' sizes the kernel is not told). */
static inline float ldx(const floatX *p, size_t i)
{
    const uint16_t *s = (const uint16_t *)p;
    return g_prec == GPT_PREC_BF16 ? prec_bf16_float(s[i]) : g_prec == GPT_PREC_FP16 ? prec_fp16_float(s[i])
                                                                                     : ((const float *)p)[i];
}
static inline void stx(floatX *p, size_t i, float v)
{
    if (g_prec == GPT_PREC_BF16)
        ((uint16_t *)p)[i] = prec_bf16_bits(v);
    else if (g_prec == GPT_PREC_FP16)
        ((uint16_t *)p)[i] = prec_fp16_bits(v);
    else
        ((float *)p)[i] = v;
}

/* fp32 scratch for the widened operands of one call, carved one after another from an
 * arena that each call starts empty (scratch_reset): the memory is the largest call's
 * operands together, not the largest of each kind. A call that outgrows the arena takes
 * another block (earlier pointers stay valid); the next call merges them into one. The
 * model calls the table from one thread. */
typedef struct {
    float *p;
    size_t cap, used;
} scratch_block;
static scratch_block g_blk[16];
static int g_nblk;
static void scratch_oom(size_t n)
{
    fprintf(stderr, "train: out of memory for %zu floats of the CPU table's scratch\n", n);
    abort();
}
static void scratch_reset(void)
{
    if (g_nblk > 1) {
        size_t total = 0;
        for (int i = 0; i < g_nblk; i++) {
            total += g_blk[i].cap;
            free(g_blk[i].p);
        }
        g_blk[0].p = malloc(total * sizeof(float));
        if (!g_blk[0].p)
            scratch_oom(total);
        g_blk[0].cap = total;
        g_nblk = 1;
    }
    if (g_nblk)
        g_blk[0].used = 0;
}
static float *scratch(size_t n)
{
    scratch_block *b = g_nblk ? &g_blk[g_nblk - 1] : NULL;
    if (!b || b->cap - b->used < n) {
        if (g_nblk == (int)(sizeof g_blk / sizeof *g_blk))
            scratch_oom(n);
        b = &g_blk[g_nblk++];
        b->cap = n ? n : 1;
        b->used = 0;
        if (!(b->p = malloc(b->cap * sizeof(float))))
            scratch_oom(n);
    }
    float *r = b->p + b->used;
    b->used += n;
    return r;
}
/* An operand read by the kernel: the buffer itself in fp32, else widened into scratch. */
static const float *R_(const floatX *x, size_t n)
{
    if (!g_prec || !x)
        return (const float *)x;
    float *s = scratch(n);
    cpu_from_prec(s, x, n);
    return s;
}
/* An output: the buffer itself in fp32, else scratch (widened first when the kernel
 * also reads it); out_done rounds it back. */
static float *W_(floatX *x, size_t n, int read)
{
    if (!g_prec || !x)
        return (float *)x;
    return read ? (float *)R_(x, n) : scratch(n);
}
static void out_done(floatX *x, const float *f, size_t n)
{
    if (g_prec && x)
        cpu_to_prec(x, f, n);
}

/* ---- memory ---- */
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
static size_t cpu_attention_state_floats(int T) { return (size_t)T * (size_t)T; } /* the probabilities */

/* ---- the model's kernels on floatX operands ---- */
static void cpu_encoder_forward(floatX *out, const int32_t *inp, const floatX *wte, const floatX *wpe, int B, int T,
                                int C)
{
    if (!g_prec) {
        encoder_forward((float *)out, inp, (const float *)wte, (const float *)wpe, B, T, C);
        return;
    }
#pragma omp parallel for schedule(static)
    for (int bt = 0; bt < B * T; bt++)
        for (int i = 0; i < C; i++)
            stx(out, (size_t)bt * C + i, ldx(wte, (size_t)inp[bt] * C + i) + ldx(wpe, (size_t)(bt % T) * C + i));
}

static void cpu_encoder_forward_vp(floatX *out, const int32_t *inp, const floatX *wte, size_t v0, size_t Vl, int BT,
                                   int C)
{
    if (!g_prec) {
        encoder_forward_vp((float *)out, inp, (const float *)wte, v0, Vl, BT, C);
        return;
    }
#pragma omp parallel for schedule(static)
    for (int bt = 0; bt < BT; bt++) {
        size_t row = (size_t)inp[bt] - v0;
        for (int i = 0; i < C; i++)
            stx(out, (size_t)bt * C + i, row < Vl ? ldx(wte, row * C + i) : 0.0f);
    }
}

static void cpu_encoder_backward(float *dwte, float *dwpe, const floatX *dout, const int32_t *inp, int B, int T, int C,
                                 size_t v0, size_t Vl)
{
    scratch_reset();
    encoder_backward(dwte, dwpe, R_(dout, (size_t)B * T * C), inp, B, T, C, v0, Vl);
}

static void cpu_layernorm_forward(floatX *out, float *mean, float *rstd, const floatX *inp, const floatX *w,
                                  const floatX *b, int N, int C)
{
    scratch_reset();
    size_t n = (size_t)N * C;
    float *o = W_(out, n, 0);
    layernorm_forward(o, mean, rstd, R_(inp, n), R_(w, (size_t)C), R_(b, (size_t)C), N, C);
    out_done(out, o, n);
}

static void cpu_layernorm_backward(floatX *dinp, float *dw, float *db, const floatX *dout, const floatX *inp,
                                   const floatX *w, const float *mean, const float *rstd, int N, int C, float *part)
{
    scratch_reset();
    size_t n = (size_t)N * C;
    float *d = W_(dinp, n, 1);
    layernorm_backward_part(d, dw, db, R_(dout, n), R_(inp, n), R_(w, (size_t)C), mean, rstd, N, C,
                            part);
    out_done(dinp, d, n);
}

static void cpu_matmul_forward(floatX *out, const floatX *inp, const floatX *w, const floatX *bias, int N, int C,
                               int OC, int accumulate)
{
    scratch_reset();
    size_t n = (size_t)N * OC;
    float *o = W_(out, n, accumulate);
    matmul_forward(o, R_(inp, (size_t)N * C), R_(w, (size_t)OC * C), R_(bias, (size_t)OC), N, C, OC,
                   accumulate);
    out_done(out, o, n);
}

static void cpu_matmul_backward(floatX *dinp, float *dw, float *dbias, const floatX *dout, const floatX *inp,
                                const floatX *w, int N, int C, int OC, int accumulate_dinp)
{
    scratch_reset();
    size_t n = (size_t)N * C;
    float *d = W_(dinp, n, accumulate_dinp);
    matmul_backward(d, dw, dbias, R_(dout, (size_t)N * OC), R_(inp, n), R_(w, (size_t)OC * C), N, C,
                    OC, accumulate_dinp);
    out_done(dinp, d, n);
}

static void cpu_attention_forward(floatX *out, float *att, const floatX *qkv, int B, int T, int C, int NH)
{
    scratch_reset();
    size_t n = (size_t)B * T * C;
    float *o = W_(out, n, 0);
    attention_forward(o, att, R_(qkv, 3 * n), B, T, C, NH);
    out_done(out, o, n);
}

static void cpu_attention_backward(floatX *dqkv, float *scratch_, const floatX *dout, const floatX *qkv,
                                   const float *att, const floatX *out, int B, int T, int C, int NH)
{
    scratch_reset();
    (void)out; /* the probabilities suffice */
    size_t n = (size_t)B * T * C;
    float *d = W_(dqkv, 3 * n, 0);
    attention_backward(d, scratch_, R_(dout, n), R_(qkv, 3 * n), att, B, T, C, NH);
    out_done(dqkv, d, 3 * n);
}

static void cpu_gelu_forward(floatX *out, const floatX *inp, size_t n)
{
    scratch_reset();
    float *o = W_(out, n, 0);
    gelu_forward(o, R_(inp, n), n);
    out_done(out, o, n);
}

static void cpu_gelu_backward(floatX *dinp, const floatX *inp, const floatX *dout, size_t n)
{
    scratch_reset();
    /* in place (dinp == dout): the widened dout is the output's scratch too */
    float *d = dinp == dout ? W_(dinp, n, 1) : W_(dinp, n, 0);
    gelu_backward(d, R_(inp, n), dinp == dout ? d : R_(dout, n), n);
    out_done(dinp, d, n);
}

static void cpu_residual_bias(floatX *out_, const floatX *res_, const floatX *t_, const floatX *bias_, int rows, int OC)
{
    scratch_reset();
    size_t n = (size_t)rows * OC;
    float *out = W_(out_, n, 0);
    const float *res = R_(res_, n), *t = R_(t_, n), *bias = R_(bias_, (size_t)OC);
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; r++)
        for (int o = 0; o < OC; o++)
            out[(size_t)r * OC + o] = res[(size_t)r * OC + o] + t[(size_t)r * OC + o] + (bias ? bias[o] : 0.0f);
    out_done(out_, out, n);
}

/* ---- fused: the sequences they replace (each one's reference) ---- */
static void cpu_matmul_gelu_forward(floatX *out, floatX *pre, const floatX *inp, const floatX *w, const floatX *bias,
                                    int N, int C, int OC)
{
    cpu_matmul_forward(pre, inp, w, bias, N, C, OC, 0);
    cpu_gelu_forward(out, pre, (size_t)N * OC);
}

static void cpu_matmul_dgelu_backward(floatX *dinp, float *dw, float *dbias, const floatX *dout, const floatX *inp,
                                      const floatX *w, const floatX *pre, int N, int C, int OC)
{
    cpu_matmul_backward(dinp, dw, dbias, dout, inp, w, N, C, OC, 0);
    cpu_gelu_backward(dinp, pre, dinp, (size_t)N * C);
}

static void cpu_residual_layernorm_forward(floatX *res_out, floatX *out, float *mean, float *rstd, const floatX *res,
                                           const floatX *t, const floatX *tbias, const floatX *w, const floatX *b,
                                           int N, int C)
{
    cpu_residual_bias(res_out, res, t, tbias, N, C);
    cpu_layernorm_forward(out, mean, rstd, res_out, w, b, N, C);
}

static void cpu_add_positions(floatX *x_, const floatX *wpe_, size_t r0, size_t R, int T, int C)
{
    scratch_reset();
    float *x = W_(x_, R * C, 1);
    const float *wpe = R_(wpe_, (size_t)T * C);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            x[i * C + j] += wpe[((r0 + i) % (size_t)T) * C + j];
    out_done(x_, x, R * C);
}

static void cpu_crossentropy_forward(float *lse, float *loss, const floatX *logits_, const int32_t *targets, size_t BT,
                                     int nv, size_t Vs)
{
    scratch_reset();
    const float *logits = R_(logits_, BT * Vs);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < BT; i++) {
        const float *x = logits + i * Vs;
        float mx = row_max(x, nv);
        float l = mx + logf(row_sum_exp(x, nv, mx));
        lse[i] = l;
        loss[i] = l - x[targets[i]];
    }
}

static void cpu_crossentropy_vp_max(float *max, const floatX *logits_, size_t BT, int nv, size_t Vs)
{
    scratch_reset();
    const float *logits = R_(logits_, BT * Vs);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < BT; i++)
        max[i] = nv ? row_max(logits + i * Vs, nv) : -INFINITY;
}

static void cpu_crossentropy_vp_sum(float *sum, float *tl, const floatX *logits_, const float *max,
                                    const int32_t *targets, size_t BT, int nv, size_t Vs, size_t v0)
{
    scratch_reset();
    const float *logits = R_(logits_, BT * Vs);
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

static void cpu_crossentropy_backward(floatX *logits_, const float *lse, const int32_t *targets, size_t BT, int nv,
                                      size_t Vs, size_t v0, float dl)
{
    scratch_reset();
    float *logits = W_(logits_, BT * Vs, 1);
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
    out_done(logits_, logits, BT * Vs);
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

static void cpu_adamw(float *p, floatX *plow, const float *g, float *mm, float *vv, size_t n, float gscale, float lr,
                      float beta1, float beta2, float eps, float decay, float bc1, float bc2)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        float gi = g[i] * gscale; /* scale()'s product */
        float mi = beta1 * mm[i] + (1.0f - beta1) * gi;
        float vi = beta2 * vv[i] + (1.0f - beta2) * gi * gi;
        mm[i] = mi;
        vv[i] = vi;
        float mhat = mi / bc1, vhat = vi / bc2;
        p[i] -= lr * (mhat / (sqrtf(vhat) + eps) + decay * p[i]);
        if (plow)
            stx(plow, i, p[i]);
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
    .storage_prec = cpu_storage_prec,
    .to_prec = cpu_to_prec,
    .from_prec = cpu_from_prec,
    .encoder_forward = cpu_encoder_forward,
    .encoder_forward_vp = cpu_encoder_forward_vp,
    .encoder_backward = cpu_encoder_backward,
    .layernorm_forward = cpu_layernorm_forward,
    .layernorm_backward = cpu_layernorm_backward,
    .layernorm_part_floats = cpu_layernorm_part_floats,
    .matmul_forward = cpu_matmul_forward,
    .matmul_backward = cpu_matmul_backward,
    .attention_forward = cpu_attention_forward,
    .attention_backward = cpu_attention_backward,
    .attention_scratch_floats = cpu_attention_scratch_floats,
    .attention_state_floats = cpu_attention_state_floats,
    .gelu_forward = cpu_gelu_forward,
    .gelu_backward = cpu_gelu_backward,
    .matmul_gelu_forward = cpu_matmul_gelu_forward,
    .matmul_dgelu_backward = cpu_matmul_dgelu_backward,
    .residual_layernorm_forward = cpu_residual_layernorm_forward,
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

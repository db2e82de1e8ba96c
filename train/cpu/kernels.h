/* kernels.h - the GPT model's operations on the CPU, the reference for every
 * other backend's kernels (llm.c's names, layouts and shapes):
 *   encoder     out[B*T, C] = wte[token] + wpe[position]; _vp: only the rows of
 *               tokens in [v0, v0 + Vl) (a vocab-parallel rank's), others zero
 *   layernorm   over C, with the mean and 1/std kept for backward
 *   matmul      out[N, OC] (+)= inp[N, C] @ w[OC, C]^T + bias (torch.nn.Linear)
 *   attention   causal self-attention on qkv[B, T, 3C] (q, k, v of NH heads)
 *   gelu        GPT-2's tanh approximation
 * plus the vectorised exp, row max and sum of exponentials that the softmax
 * and cross-entropy use. Every parallel loop has a static schedule and every
 * reduction a fixed order, so results are bit-reproducible for a thread count.
 */
#ifndef TRAIN_CPU_KERNELS_H
#define TRAIN_CPU_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* OpenMP threads the kernels use (1 without OpenMP). */
int cpu_threads(void);

/* exp(x) for x <= 88.4 (Cephes' expf: relative error ~2e-7), written so the
 * compiler vectorises loops that call it. Very negative x gives 0. */
static inline float exp_approx(float x)
{
    x = x < -88.0f ? -88.0f : x;
    x = x > 88.37f ? 88.37f : x;
    /* n = round(x / ln 2) with the 1.5 * 2^23 trick (no floorf call, so the
     * loop vectorises on any x86-64), r = x - n ln 2 in [-ln2/2, ln2/2]. */
    float fx = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    float r = x - fx * 0.693359375f + fx * 2.12194440e-4f;
    float z = r * r;
    float y = ((((1.9875691500E-4f * r + 1.3981999507E-3f) * r + 8.3334519073E-3f) * r + 4.1665795894E-2f) * r +
               1.6666665459E-1f) * r + 5.0000001201E-1f;
    y = y * z + r + 1.0f;
    union { int32_t i; float f; } u;
    u.i = ((int32_t)fx + 127) << 23;
    return y * u.f;
}

/* Max and sum of exp over a row in 16 independent lanes, so the compiler
 * vectorises them without -ffast-math; the order is fixed, so results are
 * reproducible. */
enum { LANES = 16 };
static inline float row_max(const float *x, int n)
{
    float m[LANES];
    for (int j = 0; j < LANES; j++)
        m[j] = -INFINITY;
    int v = 0;
    for (; v + LANES <= n; v += LANES)
        for (int j = 0; j < LANES; j++)
            m[j] = x[v + j] > m[j] ? x[v + j] : m[j];
    for (; v < n; v++)
        m[0] = x[v] > m[0] ? x[v] : m[0];
    float r = m[0];
    for (int j = 1; j < LANES; j++)
        r = m[j] > r ? m[j] : r;
    return r;
}

static inline float row_sum_exp(const float *x, int n, float mx)
{
    float s[LANES] = {0};
    int v = 0;
    for (; v + LANES <= n; v += LANES)
        for (int j = 0; j < LANES; j++)
            s[j] += exp_approx(x[v + j] - mx);
    for (; v < n; v++)
        s[0] += exp_approx(x[v] - mx);
    float r = 0;
    for (int j = 0; j < LANES; j++)
        r += s[j];
    return r;
}

void encoder_forward(float *out, const int32_t *inp, const float *wte, const float *wpe, int B, int T, int C);
void encoder_forward_vp(float *out, const int32_t *inp, const float *wte, size_t v0, size_t Vl, int BT, int C);
/* dwte rows [v0, v0 + Vl) are this rank's (all of them without tensor parallelism). */
void encoder_backward(float *dwte, float *dwpe, const float *dout, const int32_t *inp, int B, int T, int C, size_t v0,
                      size_t Vl);
void layernorm_forward(float *out, float *mean, float *rstd, const float *inp, const float *w, const float *b,
                       int N, int C);
void layernorm_backward(float *dinp, float *dw, float *db, const float *dout, const float *inp, const float *w,
                        const float *mean, const float *rstd, int N, int C);
/* layernorm_backward with caller-owned scratch part [threads, 2C] for the per-thread dw, db sums. */
void layernorm_backward_part(float *dinp, float *dw, float *db, const float *dout, const float *inp, const float *w,
                             const float *mean, const float *rstd, int N, int C, float *part);
void gelu_forward(float *out, const float *inp, size_t n);
void gelu_backward(float *dinp, const float *inp, const float *dout, size_t n);
void matmul_forward(float *out, const float *inp, const float *w, const float *bias, int N, int C, int OC, int accumulate);
void matmul_backward(float *dinp, float *dw, float *dbias, const float *dout, const float *inp, const float *w,
                     int N, int C, int OC, int accumulate_dinp);
void attention_forward(float *out, float *att, const float *qkv, int B, int T, int C, int NH);
void attention_backward(float *dqkv, float *scratch, const float *dout, const float *qkv, const float *att, int B,
                        int T, int C, int NH);

#endif

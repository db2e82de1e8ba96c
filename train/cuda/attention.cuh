/* attention.cuh - causal self-attention on qkv [B, T, 3C] (q, k, v of NH heads
 * of hs = C/NH), forward and backward, through batched tensor-core matmuls
 * (cuBLAS, one batch entry per sequence and head) and warp-per-row softmax
 * kernels. CPU reference: attention_forward / attention_backward in
 * train/cpu/kernels.c.
 *
 * The matmuls read q, k and v where they lie in qkv and write the output and the
 * gradients in place (pointer-array batched GEMMs), so nothing is permuted.
 * Memory: the forward keeps only the per-row log-sum-exp [B, NH, T] (fp32), not
 * the probabilities; the backward recomputes them from q, k and the lse
 * (FlashAttention's recipe), so no T x T matrix outlives one layer's call. The
 * two T x T scratch buffers are shared by all layers. (A tiled kernel that holds
 * no T x T matrix at all, FlashAttention proper, is the next step.) */
#ifndef TRAIN_CUDA_ATTENTION_CUH
#define TRAIN_CUDA_ATTENTION_CUH
#include <array>
#include <map>
#include <vector>

#include <type_traits>

#include "train/cuda/common.cuh"
#ifdef WEBTEXT_CUDNN
#include "train/cuda/cudnn_attention.h"
/* cudnn_attention.h's element type of storage type T (16-bit only). */
template <typename T> static inline int cudnn_dtype()
{
    return std::is_same<T, __half>::value ? CUDNN_ATT_FP16 : CUDNN_ATT_BF16;
}
#endif
#include "train/cuda/flash.cuh"
#include "train/cuda/matmul.cuh"

/* Row r of S [rows, T] (query t = r % T): P = softmax(scale * S) over keys 0..t,
 * zero after; lse[r] = log sum exp(scale * s). Only keys <= t are read. */
template <typename T> __global__ void attn_softmax_kernel(T *S, float *lse, int rows, int Tn, float scale)
{
    constexpr int V = 16 / sizeof(T);
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= rows)
        return;
    int t = row % Tn;
    T *x = S + (size_t)row * Tn;
    float mx = -INFINITY;
    for (int j0 = lane * V; j0 <= t; j0 += 32 * V) {
        pack16<T> p = ld16(x + j0);
#pragma unroll
        for (int k = 0; k < V; k++)
            if (j0 + k <= t)
                mx = fmaxf(mx, scale * tof(p.t[k]));
    }
    mx = warp_max(mx);
    float sum = 0;
    for (int j0 = lane * V; j0 <= t; j0 += 32 * V) {
        pack16<T> p = ld16(x + j0);
#pragma unroll
        for (int k = 0; k < V; k++)
            if (j0 + k <= t)
                sum += __expf(scale * tof(p.t[k]) - mx);
    }
    sum = warp_sum(sum);
    float l = mx + logf(sum);
    if (lane == 0)
        lse[row] = l;
    for (int j0 = lane * V; j0 < Tn; j0 += 32 * V) {
        pack16<T> p;
        if (j0 <= t)
            p = ld16(x + j0);
#pragma unroll
        for (int k = 0; k < V; k++)
            p.t[k] = fromf<T>(j0 + k <= t ? __expf(scale * tof(p.t[k]) - l) : 0.0f);
        st16(x + j0, p);
    }
}
/* The backward's softmax in one kernel: from the recomputed scores S and dP,
 * P = exp(scale * S - lse) in place of S (for dv = P^T dy) and
 * dS = P * (dP - sum_j P dP) * scale in place of dP; zero above the diagonal. */
template <typename T>
__global__ void attn_softmax_backward_kernel(T *S, T *dP, const float *lse, int rows, int Tn, float scale)
{
    constexpr int V = 16 / sizeof(T);
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= rows)
        return;
    int t = row % Tn;
    T *x = S + (size_t)row * Tn, *dx = dP + (size_t)row * Tn;
    float l = lse[row], dot = 0;
    for (int j0 = lane * V; j0 < Tn; j0 += 32 * V) {
        pack16<T> p;
        if (j0 <= t) {
            p = ld16(x + j0);
            pack16<T> d = ld16(dx + j0);
#pragma unroll
            for (int k = 0; k < V; k++) {
                float pv = j0 + k <= t ? __expf(scale * tof(p.t[k]) - l) : 0.0f;
                p.t[k] = fromf<T>(pv);
                dot += tof(p.t[k]) * tof(d.t[k]);
            }
        } else {
#pragma unroll
            for (int k = 0; k < V; k++)
                p.t[k] = fromf<T>(0.0f);
        }
        st16(x + j0, p);
    }
    dot = warp_sum(dot);
    for (int j0 = lane * V; j0 < Tn; j0 += 32 * V) {
        pack16<T> d;
        if (j0 <= t) {
            pack16<T> p = ld16(x + j0);
            d = ld16(dx + j0);
#pragma unroll
            for (int k = 0; k < V; k++)
                d.t[k] = fromf<T>(j0 + k <= t ? tof(p.t[k]) * (tof(d.t[k]) - dot) * scale : 0.0f);
        } else {
#pragma unroll
            for (int k = 0; k < V; k++)
                d.t[k] = fromf<T>(0.0f);
        }
        st16(dx + j0, d);
    }
}

/* Column-major products over the B*NH (sequence, head) pairs, their operands
 * found through device arrays of pointers. */
template <typename T>
static void bmm(const mm_ctx *c, void *const *D, const void *const *A, const void *const *Bm, int m, int n, int k,
                bool ta, bool tb, int lda, int ldb, int ldd, int batch)
{
    float alpha = 1.0f, beta = 0.0f;
    cudaDataType_t dt = cuda_type<T>::t;
    CUBLAS_CHECK(cublasGemmBatchedEx(c->blas, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k,
                                     &alpha, A, dt, lda, Bm, dt, ldb, &beta, D, dt, ldd, batch, CUBLAS_COMPUTE_32F,
                                     CUBLAS_GEMM_DEFAULT));
}

/* The two T x T scratch buffers [B, NH, T, T] of the batched-GEMM path (NULL
 * when the flash path is taken), and [B, NH, T] floats for the flash backward. */
template <typename T> struct attn_scratch {
    T *s1, *s2;
    float *dd;
};

/* Device tables of per-(b, h) pointers, made once per set of buffers (the first
 * iteration; the copy there is synchronous) and kept:
 *   q, k, v (in qkv, ld 3C), s1, s2 (ld T), y/dy ([B, T, C], ld C), dq, dk, dv (in dqkv). */
enum { AP_Q, AP_K, AP_V, AP_S1, AP_S2, AP_Y, AP_DQ, AP_DK, AP_DV, AP_N };
template <typename T>
static void *const *attn_table(const T *qkv, const T *y, const T *dqkv, const attn_scratch<T> &w, int B, int Tn, int C,
                               int NH)
{
    typedef std::array<uintptr_t, 9> key_t;
    static std::map<key_t, void **> tables;
    key_t key = {(uintptr_t)qkv, (uintptr_t)y, (uintptr_t)dqkv, (uintptr_t)w.s1, (uintptr_t)w.s2, (uintptr_t)B,
                 (uintptr_t)Tn, (uintptr_t)C, (uintptr_t)NH};
    auto it = tables.find(key);
    if (it != tables.end())
        return it->second;
    int hs = C / NH, bh = B * NH;
    std::vector<void *> h((size_t)AP_N * bh);
    for (int b = 0; b < B; b++)
        for (int hh = 0; hh < NH; hh++) {
            int i = b * NH + hh;
            size_t o3 = (size_t)b * Tn * 3 * C + (size_t)hh * hs, o1 = (size_t)b * Tn * C + (size_t)hh * hs;
            size_t ot = (size_t)i * Tn * Tn;
            h[AP_Q * bh + i] = (void *)(qkv + o3);
            h[AP_K * bh + i] = (void *)(qkv + o3 + C);
            h[AP_V * bh + i] = (void *)(qkv + o3 + 2 * C);
            h[AP_S1 * bh + i] = (void *)(w.s1 + ot);
            h[AP_S2 * bh + i] = (void *)(w.s2 + ot);
            h[AP_Y * bh + i] = (void *)(y + o1);
            h[AP_DQ * bh + i] = dqkv ? (void *)(dqkv + o3) : NULL;
            h[AP_DK * bh + i] = dqkv ? (void *)(dqkv + o3 + C) : NULL;
            h[AP_DV * bh + i] = dqkv ? (void *)(dqkv + o3 + 2 * C) : NULL;
        }
    void **d;
    CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(void *)));
    CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(void *), cudaMemcpyHostToDevice));
    tables[key] = d;
    return d;
}

/* out [B, T, C]; lse [B, NH, T] kept for the backward. Needs T a multiple of 16 / sizeof(T). */
template <typename T>
static void attention_forward(const mm_ctx *c, T *out, float *lse, const T *qkv, const attn_scratch<T> &w, int B,
                              int Tn, int C, int NH)
{
#ifdef WEBTEXT_CUDNN
    if constexpr (sizeof(T) == 2)
        if (c->fused) {
            cudnn_attention_forward(cudnn_dtype<T>(), out, lse, qkv, B, Tn, NH, C / NH, c->s);
            mm_mark(c, "attention forward (cuDNN)");
            return;
        }
#endif
    if constexpr (sizeof(T) == 2)
        if (c->flash && flash::usable<T>(Tn, C, NH)) {
            flash::forward(out, lse, qkv, B, Tn, C, NH, c->s);
            mm_mark(c, "attention forward (flash)");
            return;
        }
    int hs = C / NH, bh = B * NH;
    void *const *p = attn_table(qkv, (const T *)out, (const T *)NULL, w, B, Tn, C, NH);
    bmm<T>(c, p + AP_S1 * bh, p + AP_K * bh, p + AP_Q * bh, Tn, Tn, hs, true, false, 3 * C, 3 * C, Tn, bh); /* S = q k^T */
    mm_mark(c, "attention matmuls");
    attn_softmax_kernel<<<cdiv((size_t)bh * Tn, 8), 256, 0, c->s>>>(w.s1, lse, bh * Tn, Tn, rsqrtf((float)hs));
    CUDA_LAUNCHED();
    mm_mark(c, "attention softmax");
    bmm<T>(c, p + AP_Y * bh, p + AP_V * bh, p + AP_S1 * bh, hs, Tn, Tn, false, false, 3 * C, Tn, C, bh); /* y = P v */
    mm_mark(c, "attention matmuls");
}

/* dqkv [B, T, 3C] (overwritten) from dout [B, T, C]; y: the forward's output. */
template <typename T>
static void attention_backward(const mm_ctx *c, T *dqkv, const T *dout, const T *y, const T *qkv, const float *lse,
                               const attn_scratch<T> &w, int B, int Tn, int C, int NH)
{
#ifdef WEBTEXT_CUDNN
    if constexpr (sizeof(T) == 2)
        if (c->fused) {
            cudnn_attention_backward(cudnn_dtype<T>(), dqkv, dout, qkv, y, lse, B, Tn, NH, C / NH, c->s);
            mm_mark(c, "attention backward (cuDNN)");
            return;
        }
#endif
    if constexpr (sizeof(T) == 2)
        if (c->flash && flash::usable<T>(Tn, C, NH)) {
            flash::backward(dqkv, dout, y, qkv, lse, w.dd, B, Tn, C, NH, c->s);
            mm_mark(c, "attention backward (flash)");
            return;
        }
    (void)y;
    int hs = C / NH, bh = B * NH;
    float scale = rsqrtf((float)hs);
    void *const *p = attn_table(qkv, dout, (const T *)dqkv, w, B, Tn, C, NH);
    bmm<T>(c, p + AP_S1 * bh, p + AP_K * bh, p + AP_Q * bh, Tn, Tn, hs, true, false, 3 * C, 3 * C, Tn, bh); /* S again */
    bmm<T>(c, p + AP_S2 * bh, p + AP_V * bh, p + AP_Y * bh, Tn, Tn, hs, true, false, 3 * C, C, Tn, bh); /* dP = dy v^T */
    mm_mark(c, "attention backward matmuls");
    attn_softmax_backward_kernel<<<cdiv((size_t)bh * Tn, 8), 256, 0, c->s>>>(w.s1, w.s2, lse, bh * Tn, Tn, scale);
    CUDA_LAUNCHED();
    mm_mark(c, "attention backward softmax");
    bmm<T>(c, p + AP_DV * bh, p + AP_Y * bh, p + AP_S1 * bh, hs, Tn, Tn, false, true, C, Tn, 3 * C, bh); /* dv = P^T dy */
    bmm<T>(c, p + AP_DQ * bh, p + AP_K * bh, p + AP_S2 * bh, hs, Tn, Tn, false, false, 3 * C, Tn, 3 * C, bh); /* dq = dS k */
    bmm<T>(c, p + AP_DK * bh, p + AP_Q * bh, p + AP_S2 * bh, hs, Tn, Tn, false, true, 3 * C, Tn, 3 * C, bh); /* dk = dS^T q */
    mm_mark(c, "attention backward matmuls");
}

#endif

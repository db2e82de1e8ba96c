/* classifier.cuh - softmax cross-entropy over the vocabulary, forward (per
 * token log-sum-exp and loss) and backward (dlogits = (softmax - onehot) * dl,
 * in place of the logits, 0 in the padded columns; with v0, the rows are the
 * vocabulary's columns [v0, v0 + Vp) of a vocabulary-parallel rank). CPU reference: the loss
 * and dlogits loops of gpt_forward_stage / gpt_backward_stage in
 * train/model/gpt.c. One block per token; reductions in a fixed order. The
 * vocabulary-parallel form (Megatron) needs per-token max, sum and target
 * logit across ranks: the forward kernel computes each from a column range. */
#ifndef TRAIN_CUDA_CLASSIFIER_CUH
#define TRAIN_CUDA_CLASSIFIER_CUH
#include "train/cuda/common.cuh"

/* Row i of logits [N, Vp]: lse[i] = log sum_{v < V} exp(x_v); loss[i] = lse - x[target]. */
template <typename T>
__global__ void crossentropy_forward_kernel(float *loss, float *lse, const T *logits, const int *targets, int V, int Vp)
{
    __shared__ float sh[32];
    const T *x = logits + (size_t)blockIdx.x * Vp;
    float mx = -INFINITY;
    for (int v = threadIdx.x; v < V; v += blockDim.x)
        mx = fmaxf(mx, tof(x[v]));
    mx = block_max(mx, sh);
    float s = 0;
    for (int v = threadIdx.x; v < V; v += blockDim.x)
        s += __expf(tof(x[v]) - mx);
    s = block_sum(s, sh);
    if (threadIdx.x == 0) {
        float l = mx + logf(s);
        lse[blockIdx.x] = l;
        if (targets)
            loss[blockIdx.x] = l - tof(x[targets[blockIdx.x]]);
    }
}
template <typename T>
__global__ void crossentropy_backward_kernel(T *logits, const float *lse, const int *targets, int V, int Vp, float dl,
                                             long long v0)
{
    T *x = logits + (size_t)blockIdx.x * Vp;
    float l = lse[blockIdx.x];
    long long tg = targets[blockIdx.x] - v0;
    for (int v = threadIdx.x; v < Vp; v += blockDim.x) {
        float g = v < V ? (__expf(tof(x[v]) - l) - (v == tg ? 1.0f : 0.0f)) * dl : 0.0f;
        x[v] = fromf<T>(g);
    }
}
/* One pass with 16-byte loads: each thread keeps a running max and the sum of
 * exponentials relative to it (the online softmax); the block combines the
 * pairs in a fixed order. Rows must be 16-byte aligned (Vp a multiple of 8). */
__device__ __forceinline__ void online_add(float &m, float &s, float m2, float s2)
{
    float mm = fmaxf(m, m2);
    s = (m == -INFINITY ? 0.0f : s * __expf(m - mm)) + (m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - mm));
    m = mm;
}
template <typename T>
__global__ void crossentropy_forward_vec_kernel(float *loss, float *lse, const T *logits, const int *targets, int V,
                                                int Vp)
{
    constexpr int W = 16 / sizeof(T);
    __shared__ float shm[32], shs[32];
    const T *x = logits + (size_t)blockIdx.x * Vp;
    float m = -INFINITY, s = 0;
    for (int v = threadIdx.x * W; v < V; v += blockDim.x * W) {
        pack16<T> p = ld16(x + v);
#pragma unroll
        for (int k = 0; k < W; k++)
            if (v + k < V) {
                float y = tof(p.t[k]);
                if (y > m) {
                    s = s * __expf(m - y) + 1.0f;
                    m = y;
                } else {
                    s += __expf(y - m);
                }
            }
    }
    for (int o = 16; o > 0; o >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);
        online_add(m, s, m2, s2);
    }
    int lane = threadIdx.x % 32, w = threadIdx.x / 32, nw = blockDim.x / 32;
    if (lane == 0) {
        shm[w] = m;
        shs[w] = s;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        float M = shm[0], S = shs[0];
        for (int k = 1; k < nw; k++)
            online_add(M, S, shm[k], shs[k]);
        float l = M + logf(S);
        lse[blockIdx.x] = l;
        if (targets)
            loss[blockIdx.x] = l - tof(x[targets[blockIdx.x]]);
    }
}
template <typename T>
__global__ void crossentropy_backward_vec_kernel(T *logits, const float *lse, const int *targets, int V, int Vp, float dl,
                                                 long long v0)
{
    constexpr int W = 16 / sizeof(T);
    T *x = logits + (size_t)blockIdx.x * Vp;
    float l = lse[blockIdx.x];
    long long tg = targets[blockIdx.x] - v0;
    for (int v = threadIdx.x * W; v < Vp; v += blockDim.x * W) {
        pack16<T> p = ld16(x + v);
#pragma unroll
        for (int k = 0; k < W; k++) {
            int j = v + k;
            p.t[k] = fromf<T>(j < V ? (__expf(tof(p.t[k]) - l) - (j == tg ? 1.0f : 0.0f)) * dl : 0.0f);
        }
        st16(x + v, p);
    }
}
template <typename T>
static void crossentropy_forward(float *loss, float *lse, const T *logits, const int *targets, int N, int V, int Vp,
                                 cudaStream_t s)
{
    if (Vp % (16 / sizeof(T)) == 0 && aligned16(logits))
        crossentropy_forward_vec_kernel<<<N, 512, 0, s>>>(loss, lse, logits, targets, V, Vp);
    else
        crossentropy_forward_kernel<<<N, 512, 0, s>>>(loss, lse, logits, targets, V, Vp);
    CUDA_LAUNCHED();
}
template <typename T>
static void crossentropy_backward(T *logits, const float *lse, const int *targets, int N, int V, int Vp, float dl,
                                  cudaStream_t s, long long v0 = 0)
{
    if (Vp % (16 / sizeof(T)) == 0 && aligned16(logits))
        crossentropy_backward_vec_kernel<<<N, 512, 0, s>>>(logits, lse, targets, V, Vp, dl, v0);
    else
        crossentropy_backward_kernel<<<N, 512, 0, s>>>(logits, lse, targets, V, Vp, dl, v0);
    CUDA_LAUNCHED();
}

#endif

/* adamw.cuh - AdamW on fp32 master weights and fp32 moments, writing the
 * storage copy (bf16/fp16) the forward uses; the global gradient norm.
 * CPU reference: gpt_adamw_range and gpt_grad_norm in train/model/gpt.c (the
 * same formula per element; the clipping factor is applied to the gradient as
 * gpt_scale_grads does before the step). */
#ifndef TRAIN_CUDA_ADAMW_CUH
#define TRAIN_CUDA_ADAMW_CUH
#include "train/cuda/common.cuh"

template <typename T>
__global__ void adamw_kernel(float *p, T *plow, const float *g, float *m, float *v, size_t n, float gscale, float lr,
                             float b1, float b2, float eps, float decay, float bc1, float bc2)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float gi = g[i] * gscale;
    float mi = b1 * m[i] + (1.0f - b1) * gi;
    float vi = b2 * v[i] + (1.0f - b2) * gi * gi;
    m[i] = mi;
    v[i] = vi;
    float mhat = mi / bc1, vhat = vi / bc2, pi = p[i];
    pi -= lr * (mhat / (sqrtf(vhat) + eps) + decay * pi);
    p[i] = pi;
    if (plow)
        plow[i] = fromf<T>(pi);
}
template <typename T>
static void adamw(float *p, T *plow, const float *g, float *m, float *v, size_t n, float gscale, float lr, float b1,
                  float b2, float eps, float decay, float bc1, float bc2, cudaStream_t s)
{
    if (!n)
        return;
    adamw_kernel<<<cdiv(n, 512), 512, 0, s>>>(p, plow, g, m, v, n, gscale, lr, b1, b2, eps, decay, bc1, bc2);
    CUDA_LAUNCHED();
}

/* Sum of squares of g[0, n): per-block partial sums in double (a fixed grid and
 * order, so the result is the same every run), then one block adds them. */
enum { NORM_BLOCKS = 512 };
static __global__ void sumsq_partial_kernel(double *part, const float *g, size_t n)
{
    __shared__ double sh[512];
    double s = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        s += (double)g[i] * g[i];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            sh[threadIdx.x] += sh[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        part[blockIdx.x] = sh[0];
}
static __global__ void sumsq_finish_kernel(double *out, const double *part, int n)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += part[i];
        *out = s;
    }
}
/* part: [NORM_BLOCKS + 1] doubles; the sum lands in part[NORM_BLOCKS]. */
static inline void grad_sumsq(double *part, const float *g, size_t n, cudaStream_t s)
{
    sumsq_partial_kernel<<<NORM_BLOCKS, 512, 0, s>>>(part, g, n);
    CUDA_LAUNCHED();
    sumsq_finish_kernel<<<1, 32, 0, s>>>(part + NORM_BLOCKS, part, NORM_BLOCKS);
    CUDA_LAUNCHED();
}

#endif

/* gelu.cuh - GPT-2's tanh GELU, forward and backward, elementwise.
 * CPU reference: gelu_forward / gelu_backward in train/cpu/kernels.c. With
 * cuBLASLt epilogues (matmul.cuh) the forward is fused into the fc matmul and
 * the backward into the fcproj input-gradient matmul; these kernels are the
 * fallback and the recompute path. */
#ifndef TRAIN_CUDA_GELU_CUH
#define TRAIN_CUDA_GELU_CUH
#include "train/cuda/common.cuh"

#define GELU_SCALE 0.7978845608028654f

template <typename T> __global__ void gelu_forward_kernel(T *out, const T *inp, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = tof(inp[i]);
        out[i] = fromf<T>(0.5f * x * (1.0f + tanhf(GELU_SCALE * (x + 0.044715f * x * x * x))));
    }
}
/* dinp may be dout (in place). */
template <typename T> __global__ void gelu_backward_kernel(T *dinp, const T *inp, const T *dout, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = tof(inp[i]);
        float t = tanhf(GELU_SCALE * (x + 0.044715f * x * x * x));
        float g = 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * GELU_SCALE * (1.0f + 3.0f * 0.044715f * x * x);
        dinp[i] = fromf<T>(g * tof(dout[i]));
    }
}
template <typename T> static void gelu_forward(T *out, const T *inp, size_t n, cudaStream_t s)
{
    gelu_forward_kernel<<<cdiv(n, 256), 256, 0, s>>>(out, inp, n);
    CUDA_LAUNCHED();
}
template <typename T> static void gelu_backward(T *dinp, const T *inp, const T *dout, size_t n, cudaStream_t s)
{
    gelu_backward_kernel<<<cdiv(n, 256), 256, 0, s>>>(dinp, inp, dout, n);
    CUDA_LAUNCHED();
}

#endif

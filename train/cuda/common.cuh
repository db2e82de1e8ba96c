/* common.cuh - what every CUDA kernel file of the trainer shares: error checks,
 * the storage types (fp32, bf16, fp16; math is always fp32), warp and block
 * reductions. Kernels are templates on the storage type T and live in one
 * header per concern (llm.c's layout), each with its CPU reference named at the
 * top: train/cpu/kernels.c, or the model code in train/model/gpt.c. */
#ifndef TRAIN_CUDA_COMMON_CUH
#define TRAIN_CUDA_COMMON_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* A failed CUDA call or launch is fatal: the device state is unknown after it. */
static inline void cuda_check_(cudaError_t e, const char *what, const char *file, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "train: CUDA error at %s:%d (%s): %s\n", file, line, what, cudaGetErrorString(e));
        exit(5); /* EXIT_INTERNAL */
    }
}
#define CUDA_CHECK(x) cuda_check_((x), #x, __FILE__, __LINE__)
#define CUDA_LAUNCHED() cuda_check_(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

static inline unsigned cdiv(size_t a, size_t b) { return (unsigned)((a + b - 1) / b); }

/* Storage <-> fp32. */
__device__ __forceinline__ float tof(float x) { return x; }
__device__ __forceinline__ float tof(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float tof(__half x) { return __half2float(x); }
template <typename T> __device__ __forceinline__ T fromf(float x);
template <> __device__ __forceinline__ float fromf<float>(float x) { return x; }
template <> __device__ __forceinline__ __nv_bfloat16 fromf<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }
template <> __device__ __forceinline__ __half fromf<__half>(float x) { return __float2half_rn(x); }

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
/* Sum over a block of up to 1024 threads, in a fixed order; every thread gets it.
 * sh: 32 floats of shared memory. */
__device__ __forceinline__ float block_sum(float v, float *sh)
{
    int lane = threadIdx.x % 32, w = threadIdx.x / 32, nw = (blockDim.x + 31) / 32;
    v = warp_sum(v);
    __syncthreads();
    if (lane == 0)
        sh[w] = v;
    __syncthreads();
    v = lane < nw ? sh[lane] : 0.0f;
    return warp_sum(v);
}
__device__ __forceinline__ float block_max(float v, float *sh)
{
    int lane = threadIdx.x % 32, w = threadIdx.x / 32, nw = (blockDim.x + 31) / 32;
    v = warp_max(v);
    __syncthreads();
    if (lane == 0)
        sh[w] = v;
    __syncthreads();
    v = lane < nw ? sh[lane] : -INFINITY;
    return warp_max(v);
}

/* 16 bytes of T, for vector loads and stores (LDG.128 / STG.128). */
template <typename T> struct alignas(16) pack16 {
    T t[16 / sizeof(T)];
};
template <typename T> __device__ __forceinline__ pack16<T> ld16(const T *p)
{
    return *reinterpret_cast<const pack16<T> *>(p);
}
template <typename T> __device__ __forceinline__ void st16(T *p, const pack16<T> &v)
{
    *reinterpret_cast<pack16<T> *>(p) = v;
}
static inline bool aligned16(const void *p) { return ((uintptr_t)p & 15) == 0; }

/* Copy with conversion (fp32 master weights -> the storage copy, and back for tests). */
template <typename D, typename S> __global__ void convert_kernel(D *out, const S *in, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = fromf<D>(tof(in[i]));
}
template <typename D, typename S> static void convert(D *out, const S *in, size_t n, cudaStream_t s)
{
    if (!n)
        return;
    convert_kernel<<<cdiv(n, 512), 512, 0, s>>>(out, in, n);
    CUDA_LAUNCHED();
}

#endif

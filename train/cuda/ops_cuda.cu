/* ops_cuda.cu - the CUDA operation table (train/ops/ops.h): the parallel model of
 * train/model/gpt.c on one GPU per rank (or ranks sharing one), with this
 * folder's kernels (encoder, LayerNorm, GELU, cuBLASLt matmuls with bias
 * epilogues, attention) and small kernels for the operations the CPU table does
 * in loops (row-parallel residual sum, positions, the vocab-parallel
 * cross-entropy's parts, sums, AdamW). Everything is ordered on the legacy
 * default stream, as the communicators' NCCL calls are.
 *
 * Storage is fp32. Under --bf16 / --fp16 the model rounds weights, activations
 * and their gradients as the CPU tables do (round_prec), and the table runs the
 * products and attention on narrow copies of those operands on the tensor cores
 * (compute_prec; exact, since the values are rounded already), fp32 out; attention
 * through cuDNN's fused kernel where it takes the shape (WEBTEXT_NO_CUDNN_TABLE=1: not),
 * else our flash kernels, else batched GEMMs.
 * Checked on an H100 (scripts/gpu/gpu_suite.sh, tests/gpu/test_ops_cuda.cu): every
 * layout in fp32, bf16 and fp16 against one process. Speed: the single-GPU model
 * of gpt_cuda.cu (bf16 storage, cuDNN attention, fused kernels) stays the default
 * for one rank and plain data parallelism; see docs/parallel.md. */
extern "C" {
#include "common/err.h"
#include "train/ops/ops.h"
}
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <map>
#include <vector>

#include "train/cuda/adamw.cuh"
#include "train/cuda/attention.cuh"
#include "train/cuda/common.cuh"
#include "train/cuda/encoder.cuh"
#include "train/cuda/flash.cuh"
#include "train/cuda/gelu.cuh"
#include "train/cuda/layernorm.cuh"
#include "train/cuda/matmul.cuh"

/* ---- the table's state: cuBLAS handles, workspace, scratch that grows ---- */
static mm_ctx g_mm;
static int g_ready;
static float *g_part;        /* colsum scratch [COLSUM_CHUNKS, 2 * width] */
static size_t g_part_width;
static float *g_att;         /* attention scores [2, B * NH * T * T] */
static size_t g_att_n;
static double *g_norm;       /* [NORM_BLOCKS + 1] */

static void ready(void)
{
    if (g_ready)
        return;
    g_ready = 1;
    memset(&g_mm, 0, sizeof g_mm);
    CUBLAS_CHECK(cublasLtCreate(&g_mm.lt));
    CUBLAS_CHECK(cublasCreate(&g_mm.blas));
    CUBLAS_CHECK(cublasSetStream(g_mm.blas, 0));
    g_mm.ws_size = 32u << 20;
    CUDA_CHECK(cudaMalloc(&g_mm.ws, g_mm.ws_size));
    g_mm.epilogues = 1;
    g_mm.s = 0;
    CUDA_CHECK(cudaMalloc(&g_norm, (NORM_BLOCKS + 1) * sizeof(double)));
}

static void part_for(size_t width)
{
    ready();
    if (width <= g_part_width)
        return;
    if (g_part)
        CUDA_CHECK(cudaFree(g_part)); /* waits for the kernels that use it */
    CUDA_CHECK(cudaMalloc(&g_part, (size_t)COLSUM_CHUNKS * 2 * width * sizeof(float)));
    g_part_width = width;
    g_mm.part = g_part;
}

static attn_scratch<float> att_for(size_t n)
{
    ready();
    if (n > g_att_n) {
        if (g_att)
            CUDA_CHECK(cudaFree(g_att));
        CUDA_CHECK(cudaMalloc(&g_att, 2 * n * sizeof(float)));
        g_att_n = n;
    }
    attn_scratch<float> w = {g_att, g_att + g_att_n, NULL};
    return w;
}

/* ---- mixed precision's compute: bf16 / fp16 operands on the tensor cores ----
 * Under --bf16 / --fp16 the parallel model hands the products operands that are
 * already rounded to the compute precision (weights, activations and their
 * gradients: train/model/gpt.c's RP). Converting them to bf16 / fp16 is then
 * exact, and a product of the narrow operands accumulated in fp32 is the same
 * arithmetic as the CPU table's fp32 product of the rounded values, in another
 * summation order. So the matmuls and attention run on the tensor cores with
 * fp32 outputs (which the model rounds next), through narrow scratch operands
 * that grow to the largest product and are reused. */
static int g_prec; /* GPT_PREC_*: 0 fp32, 1 bf16, 2 fp16 */
enum { NS_A, NS_B, NS_C, NS_D, NS_N };
static void *g_ns[NS_N];
static size_t g_ns_n[NS_N];
static void cu_compute_prec(int prec) { g_prec = prec == 1 || prec == 2 ? prec : 0; }

template <typename T> __global__ void to_narrow_kernel(T *y, const float *x, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = fromf<T>(x[i]);
}
template <typename T> __global__ void from_narrow_kernel(float *y, const T *x, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = tof(x[i]);
}
static unsigned grid_for(size_t n)
{
    size_t b = cdiv(n, 256);
    return (unsigned)(b > 65535 * 4 ? 65535 * 4 : b ? b : 1);
}
/* Slot k's scratch of n narrow values (2 bytes each), x converted into it when given. */
template <typename T> static T *narrow(int k, const float *x, size_t n)
{
    ready();
    if (n > g_ns_n[k]) {
        if (g_ns[k])
            CUDA_CHECK(cudaFree(g_ns[k]));
        CUDA_CHECK(cudaMalloc(&g_ns[k], n * sizeof(T)));
        g_ns_n[k] = n;
    }
    T *y = (T *)g_ns[k];
    if (x && n) {
        to_narrow_kernel<T><<<grid_for(n), 256>>>(y, x, n);
        CUDA_LAUNCHED();
    }
    return y;
}
template <typename T> static void widen(float *y, const T *x, size_t n)
{
    if (!n)
        return;
    from_narrow_kernel<T><<<grid_for(n), 256>>>(y, x, n);
    CUDA_LAUNCHED();
}

/* ---- memory: the bytes this process's table holds, for the memory report ---- */
static std::map<void *, size_t> g_sizes;
static size_t g_held;
static void *cu_alloc(size_t bytes)
{
    ready();
    void *p = NULL;
    if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    CUDA_CHECK(cudaMemset(p, 0, bytes ? bytes : 1));
    g_sizes[p] = bytes;
    g_held += bytes;
    return p;
}
static void cu_free(void *p)
{
    if (!p)
        return;
    auto it = g_sizes.find(p);
    if (it != g_sizes.end()) {
        g_held -= it->second;
        g_sizes.erase(it);
    }
    CUDA_CHECK(cudaFree(p));
}
static void cu_copy(void *dst, const void *src, size_t bytes)
{
    if (bytes)
        CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0));
}
static void cu_zero(void *dst, size_t bytes)
{
    if (bytes)
        CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes, 0));
}
static void cu_upload(void *dst, const void *host, size_t bytes)
{
    if (bytes)
        CUDA_CHECK(cudaMemcpy(dst, host, bytes, cudaMemcpyHostToDevice));
}
static void cu_download(void *host, const void *src, size_t bytes)
{
    if (bytes)
        CUDA_CHECK(cudaMemcpyAsync(host, src, bytes, cudaMemcpyDeviceToHost, 0));
}
static void cu_sync(void) { CUDA_CHECK(cudaStreamSynchronize(0)); }
static void *cu_host_alloc(size_t bytes)
{
    void *p = NULL;
    if (cudaMallocHost(&p, bytes ? bytes : 1) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return p;
}
static void cu_host_free(void *p)
{
    if (p)
        CUDA_CHECK(cudaFreeHost(p));
}
static void cu_device_uuid(unsigned char uuid[16])
{
    int dev = 0;
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    memcpy(uuid, p.uuid.bytes, 16);
}

/* ---- kernels of this folder ---- */
static void cu_encoder_forward(float *out, const int32_t *inp, const float *wte, const float *wpe, int B, int T, int C)
{
    encoder_forward<float>(out, inp, wte, wpe, B, T, C, 0);
}

__global__ void encoder_vp_kernel(float *out, const int32_t *inp, const float *wte, size_t v0, size_t Vl, int BT, int C)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (size_t)BT * C)
        return;
    size_t row = i / C, c = i % C, tok = (size_t)inp[row] - v0;
    out[i] = tok < Vl ? wte[tok * C + c] : 0.0f;
}
static void cu_encoder_forward_vp(float *out, const int32_t *inp, const float *wte, size_t v0, size_t Vl, int BT, int C)
{
    encoder_vp_kernel<<<cdiv((size_t)BT * C, 256), 256>>>(out, inp, wte, v0, Vl, BT, C);
    CUDA_LAUNCHED();
}

/* dwpe[t, c] += sum over b of dout[b, t, c] (in b order); dwte rows of this rank's
 * tokens += dout rows (atomics: the order of a token's rows is not fixed). */
__global__ void encoder_bwd_wpe_kernel(float *dwpe, const float *dout, int B, int T, int C)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (size_t)T * C)
        return;
    float s = 0;
    for (int b = 0; b < B; b++)
        s += dout[(size_t)b * T * C + i];
    dwpe[i] += s;
}
__global__ void encoder_bwd_wte_kernel(float *dwte, const float *dout, const int32_t *inp, int BT, int C, size_t v0,
                                       size_t Vl)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (size_t)BT * C)
        return;
    size_t row = i / C, c = i % C, tok = (size_t)inp[row] - v0;
    if (tok < Vl)
        atomicAdd(dwte + tok * C + c, dout[i]);
}
static void cu_encoder_backward(float *dwte, float *dwpe, const float *dout, const int32_t *inp, int B, int T, int C,
                                size_t v0, size_t Vl)
{
    if (dwpe) {
        encoder_bwd_wpe_kernel<<<cdiv((size_t)T * C, 256), 256>>>(dwpe, dout, B, T, C);
        CUDA_LAUNCHED();
    }
    encoder_bwd_wte_kernel<<<cdiv((size_t)B * T * C, 256), 256>>>(dwte, dout, inp, B * T, C, v0, Vl);
    CUDA_LAUNCHED();
}

static void cu_layernorm_forward(float *out, float *mean, float *rstd, const float *inp, const float *w,
                                 const float *b, int N, int C)
{
    layernorm_forward<float>(out, mean, rstd, inp, w, b, N, C, 0);
}
static void cu_layernorm_backward(float *dinp, float *dw, float *db, const float *dout, const float *inp,
                                  const float *w, const float *mean, const float *rstd, int N, int C, float *part)
{
    layernorm_backward<float>(dinp, dw, db, dout, inp, w, mean, rstd, N, C, part, 0);
}
static size_t cu_layernorm_part_floats(int C) { return (size_t)COLSUM_CHUNKS * 2 * (size_t)C; }

__global__ void add_bias_rows_kernel(float *out, const float *bias, int N, int OC)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (size_t)N * OC)
        out[i] += bias[i % OC];
}
/* out (+)= inp @ w^T (+ bias) with narrow operands, fp32 out. */
template <typename T>
static void matmul_forward_narrow(float *out, const float *inp, const float *w, const float *bias, int N, int C, int OC,
                                  int accumulate)
{
    cudaDataType_t dt = cuda_type<T>::t;
    const T *wn = narrow<T>(NS_A, w, (size_t)OC * C), *in = narrow<T>(NS_B, inp, (size_t)N * C);
    float beta = accumulate ? 1.0f : 0.0f;
    if (bias && lt_matmul(&g_mm, out, CUDA_R_32F, wn, in, dt, OC, N, C, true, false, C, C, OC, beta,
                          CUBLASLT_EPILOGUE_BIAS, bias, NULL, 0))
        return;
    if (!lt_matmul(&g_mm, out, CUDA_R_32F, wn, in, dt, OC, N, C, true, false, C, C, OC, beta, CUBLASLT_EPILOGUE_DEFAULT,
                   NULL, NULL, 0))
        blas_matmul(&g_mm, out, CUDA_R_32F, wn, in, dt, OC, N, C, true, false, C, C, OC, beta);
    if (bias) {
        add_bias_rows_kernel<<<cdiv((size_t)N * OC, 256), 256>>>(out, bias, N, OC);
        CUDA_LAUNCHED();
    }
}
static void cu_matmul_forward(float *out, const float *inp, const float *w, const float *bias, int N, int C, int OC,
                              int accumulate)
{
    ready();
    if (g_prec == 1)
        return matmul_forward_narrow<__nv_bfloat16>(out, inp, w, bias, N, C, OC, accumulate);
    if (g_prec == 2)
        return matmul_forward_narrow<__half>(out, inp, w, bias, N, C, OC, accumulate);
    if (!accumulate) {
        matmul_forward<float>(&g_mm, out, inp, w, bias, N, C, OC, NULL);
        return;
    }
    /* out += inp @ w^T (+ bias) */
    if (!lt_matmul(&g_mm, out, CUDA_R_32F, w, inp, CUDA_R_32F, OC, N, C, true, false, C, C, OC, 1.0f,
                   CUBLASLT_EPILOGUE_DEFAULT, NULL, NULL, 0))
        blas_matmul(&g_mm, out, CUDA_R_32F, w, inp, CUDA_R_32F, OC, N, C, true, false, C, C, OC, 1.0f);
    if (bias) {
        add_bias_rows_kernel<<<cdiv((size_t)N * OC, 256), 256>>>(out, bias, N, OC);
        CUDA_LAUNCHED();
    }
}
/* dinp (+)= dout @ w in fp32; dw += dout^T @ inp and dbias += column sums of dout
 * (matmul.cuh's fp32 accumulation), from narrow operands. */
template <typename T>
static void matmul_backward_narrow(float *dinp, float *dw, float *dbias, const float *dout, const float *inp,
                                   const float *w, int N, int C, int OC, int accumulate_dinp)
{
    cudaDataType_t dt = cuda_type<T>::t;
    const T *dn = narrow<T>(NS_C, dout, (size_t)N * OC);
    if (dinp) {
        const T *wn = narrow<T>(NS_A, w, (size_t)OC * C);
        float beta = accumulate_dinp ? 1.0f : 0.0f;
        if (!lt_matmul(&g_mm, dinp, CUDA_R_32F, wn, dn, dt, C, N, OC, false, false, C, OC, C, beta,
                       CUBLASLT_EPILOGUE_DEFAULT, NULL, NULL, 0))
            blas_matmul(&g_mm, dinp, CUDA_R_32F, wn, dn, dt, C, N, OC, false, false, C, OC, C, beta);
    }
    const T *in = narrow<T>(NS_B, inp, (size_t)N * C);
    matmul_backward<T>(&g_mm, (T *)NULL, dw, dbias, dn, in, (const T *)NULL, N, C, OC, (const T *)NULL);
}
static void cu_matmul_backward(float *dinp, float *dw, float *dbias, const float *dout, const float *inp,
                               const float *w, int N, int C, int OC, int accumulate_dinp)
{
    part_for((size_t)OC);
    if (g_prec == 1)
        return matmul_backward_narrow<__nv_bfloat16>(dinp, dw, dbias, dout, inp, w, N, C, OC, accumulate_dinp);
    if (g_prec == 2)
        return matmul_backward_narrow<__half>(dinp, dw, dbias, dout, inp, w, N, C, OC, accumulate_dinp);
    if (!accumulate_dinp || !dinp) {
        matmul_backward<float>(&g_mm, dinp, dw, dbias, dout, inp, w, N, C, OC, NULL);
        return;
    }
    if (!lt_matmul(&g_mm, dinp, CUDA_R_32F, w, dout, CUDA_R_32F, C, N, OC, false, false, C, OC, C, 1.0f,
                   CUBLASLT_EPILOGUE_DEFAULT, NULL, NULL, 0))
        blas_matmul(&g_mm, dinp, CUDA_R_32F, w, dout, CUDA_R_32F, C, N, OC, false, false, C, OC, C, 1.0f);
    matmul_backward<float>(&g_mm, NULL, dw, dbias, dout, inp, w, N, C, OC, NULL);
}

/* att: the table keeps the log-sum-exps [B, NH, T] there (the CPU its probabilities). */
/* Attention with narrow operands: the flash kernels where they apply (head size 64,
 * T a multiple of 64), else the batched GEMMs on narrow T x T scratch; the output
 * and the input gradient widened to fp32 for the model to round. */
static float *g_dd; /* the flash backward's [B, NH, T] */
static size_t g_dd_n;
template <typename T> static attn_scratch<T> att_narrow(size_t n)
{
    attn_scratch<float> f = att_for((n + 1) / 2); /* two T x T buffers of 2-byte values */
    attn_scratch<T> w = {(T *)f.s1, (T *)f.s1 + n, NULL};
    return w;
}
/* cuDNN's fused attention where it takes the shape (it compiles a graph per shape, once):
 * the single-GPU model's default, and the fastest of the three. */
template <typename T> static int use_cudnn(int B, int Tn, int NH, int hs)
{
#ifdef WEBTEXT_CUDNN
    static int key[5] = {-1, -1, -1, -1, -1}, ok;
    int k[5] = {cudnn_dtype<T>(), B, Tn, NH, hs};
    if (memcmp(k, key, sizeof k)) {
        char why[256];
        ok = getenv("WEBTEXT_NO_CUDNN_TABLE") ? 0 : cudnn_attention_prepare(k[0], B, Tn, NH, hs, why, sizeof why) == 0;
        memcpy(key, k, sizeof k);
    }
    return ok;
#else
    (void)B, (void)Tn, (void)NH, (void)hs;
    return 0;
#endif
}
template <typename T>
static void attention_forward_narrow(float *out, float *lse, const float *qkv, int B, int Tn, int C, int NH)
{
    const T *qn = narrow<T>(NS_A, qkv, (size_t)B * Tn * 3 * C);
    T *on = narrow<T>(NS_D, NULL, (size_t)B * Tn * C);
#ifdef WEBTEXT_CUDNN
    if (use_cudnn<T>(B, Tn, NH, C / NH))
        cudnn_attention_forward(cudnn_dtype<T>(), on, lse, qn, B, Tn, NH, C / NH, 0);
    else
#endif
    if (flash::usable<T>(Tn, C, NH))
        flash::forward(on, lse, qn, B, Tn, C, NH, 0);
    else
        attention_forward<T>(&g_mm, on, lse, qn, att_narrow<T>((size_t)B * NH * Tn * Tn), B, Tn, C, NH);
    widen(out, on, (size_t)B * Tn * C);
}
template <typename T>
static void attention_backward_narrow(float *dqkv, const float *dout, const float *qkv, const float *lse,
                                      const float *out, int B, int Tn, int C, int NH)
{
    const T *qn = narrow<T>(NS_A, qkv, (size_t)B * Tn * 3 * C);
    const T *dn = narrow<T>(NS_C, dout, (size_t)B * Tn * C);
    const T *yn = narrow<T>(NS_D, out, (size_t)B * Tn * C);
    T *dq = narrow<T>(NS_B, NULL, (size_t)B * Tn * 3 * C);
#ifdef WEBTEXT_CUDNN
    if (use_cudnn<T>(B, Tn, NH, C / NH)) {
        cudnn_attention_backward(cudnn_dtype<T>(), dq, dn, qn, yn, lse, B, Tn, NH, C / NH, 0);
        widen(dqkv, dq, (size_t)B * Tn * 3 * C);
        return;
    }
#endif
    if (flash::usable<T>(Tn, C, NH)) {
        size_t n = (size_t)B * NH * Tn;
        if (n > g_dd_n) {
            if (g_dd)
                CUDA_CHECK(cudaFree(g_dd));
            CUDA_CHECK(cudaMalloc(&g_dd, n * sizeof(float)));
            g_dd_n = n;
        }
        flash::backward(dq, dn, yn, qn, lse, g_dd, B, Tn, C, NH, 0);
    } else {
        attention_backward<T>(&g_mm, dq, dn, yn, qn, lse, att_narrow<T>((size_t)B * NH * Tn * Tn), B, Tn, C, NH);
    }
    widen(dqkv, dq, (size_t)B * Tn * 3 * C);
}
static void cu_attention_forward(float *out, float *att, const float *qkv, int B, int T, int C, int NH)
{
    ready();
    if (g_prec == 1)
        return attention_forward_narrow<__nv_bfloat16>(out, att, qkv, B, T, C, NH);
    if (g_prec == 2)
        return attention_forward_narrow<__half>(out, att, qkv, B, T, C, NH);
    attn_scratch<float> w = att_for((size_t)B * NH * T * T);
    attention_forward<float>(&g_mm, out, att, qkv, w, B, T, C, NH);
}
static void cu_attention_backward(float *dqkv, float *scratch, const float *dout, const float *qkv, const float *att,
                                  const float *out, int B, int T, int C, int NH)
{
    (void)scratch;
    if (g_prec == 1)
        return attention_backward_narrow<__nv_bfloat16>(dqkv, dout, qkv, att, out, B, T, C, NH);
    if (g_prec == 2)
        return attention_backward_narrow<__half>(dqkv, dout, qkv, att, out, B, T, C, NH);
    attn_scratch<float> w = att_for((size_t)B * NH * T * T);
    attention_backward<float>(&g_mm, dqkv, dout, out, qkv, att, w, B, T, C, NH);
}
static size_t cu_attention_scratch_floats(int T)
{
    (void)T;
    return 1;
}
static void cu_gelu_forward(float *out, const float *inp, size_t n) { gelu_forward<float>(out, inp, n, 0); }
static void cu_gelu_backward(float *dinp, const float *inp, const float *dout, size_t n)
{
    gelu_backward<float>(dinp, inp, dout, n, 0);
}

/* ---- the small operations ---- */
__global__ void residual_bias_kernel(float *out, const float *res, const float *t, const float *bias, int rows, int OC)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (size_t)rows * OC)
        out[i] = res[i] + t[i] + bias[i % OC];
}
static void cu_residual_bias(float *out, const float *res, const float *t, const float *bias, int rows, int OC)
{
    residual_bias_kernel<<<cdiv((size_t)rows * OC, 256), 256>>>(out, res, t, bias, rows, OC);
    CUDA_LAUNCHED();
}
__global__ void add_positions_kernel(float *x, const float *wpe, size_t r0, size_t R, int T, int C)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < R * C)
        x[i] += wpe[((r0 + i / C) % (size_t)T) * C + i % C];
}
static void cu_add_positions(float *x, const float *wpe, size_t r0, size_t R, int T, int C)
{
    add_positions_kernel<<<cdiv(R * C, 256), 256>>>(x, wpe, r0, R, T, C);
    CUDA_LAUNCHED();
}

/* A block's reduction (256 threads), by op. */
template <typename Op> __device__ float block_reduce(float v, Op op)
{
    __shared__ float sh[256];
    sh[threadIdx.x] = v;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            sh[threadIdx.x] = op(sh[threadIdx.x], sh[threadIdx.x + k]);
        __syncthreads();
    }
    float r = sh[0];
    __syncthreads();
    return r;
}
struct max_op {
    __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct sum_op {
    __device__ float operator()(float a, float b) const { return a + b; }
};

/* One block per row: the max over the nv real logits, the sum of exponentials
 * past it and the target's logit (rows [v0, v0 + Vs) of the vocabulary here). */
__global__ void ce_parts_kernel(float *max, float *sum, float *tl, const float *logits, const float *gmax,
                                const int32_t *targets, int nv, size_t Vs, size_t v0)
{
    size_t i = blockIdx.x;
    const float *x = logits + i * Vs;
    float m = -INFINITY;
    if (!gmax) {
        for (int v = threadIdx.x; v < nv; v += blockDim.x)
            m = fmaxf(m, x[v]);
        m = block_reduce(m, max_op());
        if (max && threadIdx.x == 0)
            max[i] = m;
    } else {
        m = gmax[i];
    }
    if (!sum)
        return;
    float s = 0;
    for (int v = threadIdx.x; v < nv; v += blockDim.x)
        s += expf(x[v] - m);
    s = block_reduce(s, sum_op());
    if (threadIdx.x == 0) {
        sum[i] = nv ? s : 0.0f;
        size_t row = (size_t)targets[i] - v0;
        tl[i] = row < Vs ? x[row] : 0.0f;
    }
}
__global__ void ce_finish_kernel(float *lse, float *loss, const float *max, const float *sum, const float *tl,
                                 size_t BT)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < BT) {
        float l = max[i] + logf(sum[i]);
        lse[i] = l;
        loss[i] = l - tl[i];
    }
}
static float *g_ce;
static size_t g_ce_n;
static float *ce_scratch(size_t n)
{
    ready();
    if (n > g_ce_n) {
        if (g_ce)
            CUDA_CHECK(cudaFree(g_ce));
        CUDA_CHECK(cudaMalloc(&g_ce, 3 * n * sizeof(float)));
        g_ce_n = n;
    }
    return g_ce;
}
static void cu_crossentropy_forward(float *lse, float *loss, const float *logits, const int32_t *targets, size_t BT,
                                    int nv, size_t Vs)
{
    float *s = ce_scratch(BT);
    ce_parts_kernel<<<(unsigned)BT, 256>>>(s, s + BT, s + 2 * BT, logits, NULL, targets, nv, Vs, 0);
    CUDA_LAUNCHED();
    ce_finish_kernel<<<cdiv(BT, 256), 256>>>(lse, loss, s, s + BT, s + 2 * BT, BT);
    CUDA_LAUNCHED();
}
static void cu_crossentropy_vp_max(float *max, const float *logits, size_t BT, int nv, size_t Vs)
{
    ce_parts_kernel<<<(unsigned)BT, 256>>>(max, NULL, NULL, logits, NULL, NULL, nv, Vs, 0);
    CUDA_LAUNCHED();
}
static void cu_crossentropy_vp_sum(float *sum, float *tl, const float *logits, const float *max,
                                   const int32_t *targets, size_t BT, int nv, size_t Vs, size_t v0)
{
    ce_parts_kernel<<<(unsigned)BT, 256>>>(NULL, sum, tl, logits, max, targets, nv, Vs, v0);
    CUDA_LAUNCHED();
}
static void cu_crossentropy_vp_finish(float *lse, float *loss, const float *max, const float *sum, const float *tl,
                                      size_t BT)
{
    ce_finish_kernel<<<cdiv(BT, 256), 256>>>(lse, loss, max, sum, tl, BT);
    CUDA_LAUNCHED();
}
__global__ void ce_backward_kernel(float *logits, const float *lse, const int32_t *targets, int nv, size_t Vs,
                                   size_t v0, float dl)
{
    size_t i = blockIdx.x;
    float *x = logits + i * Vs, l = lse[i];
    for (size_t v = threadIdx.x; v < Vs; v += blockDim.x)
        x[v] = v < (size_t)nv ? expf(x[v] - l) * dl : 0.0f;
    __syncthreads();
    size_t row = (size_t)targets[i] - v0;
    if (threadIdx.x == 0 && row < Vs)
        x[row] -= dl;
}
static void cu_crossentropy_backward(float *logits, const float *lse, const int32_t *targets, size_t BT, int nv,
                                     size_t Vs, size_t v0, float dl)
{
    ce_backward_kernel<<<(unsigned)BT, 256>>>(logits, lse, targets, nv, Vs, v0, dl);
    CUDA_LAUNCHED();
}

/* One block, a fixed order: the same result every run. */
__global__ void sum_f64_kernel(double *out, const float *x, size_t n)
{
    __shared__ double sh[256];
    double s = 0;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x)
        s += x[i];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            sh[threadIdx.x] += sh[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = sh[0];
}
static void cu_sum_f64(double *out, const float *x, size_t n)
{
    sum_f64_kernel<<<1, 256>>>(out, x, n);
    CUDA_LAUNCHED();
}
static void cu_sumsq_f64(double *out, const float *x, size_t n, size_t blk)
{
    (void)blk; /* the GPU's own fixed grid (adamw.cuh) */
    ready();
    grad_sumsq(g_norm, x, n, 0);
    CUDA_CHECK(cudaMemcpyAsync(out, g_norm + NORM_BLOCKS, sizeof(double), cudaMemcpyDeviceToDevice, 0));
}
__global__ void scale_kernel(float *x, float s, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= s;
}
static void cu_scale(float *x, float s, size_t n)
{
    if (!n)
        return;
    scale_kernel<<<cdiv(n, 256), 256>>>(x, s, n);
    CUDA_LAUNCHED();
}
__global__ void add_kernel(float *y, const float *x, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += x[i];
}
static void cu_add(float *y, const float *x, size_t n)
{
    if (!n)
        return;
    add_kernel<<<cdiv(n, 256), 256>>>(y, x, n);
    CUDA_LAUNCHED();
}
/* Mixed precision's rounding (train/cpu/precision.h is the reference): the
 * hardware's own conversions, to nearest even, back to fp32. */
__global__ void round_prec_kernel(float *x, size_t n, int prec)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = prec == 1 ? __bfloat162float(__float2bfloat16_rn(x[i])) : __half2float(__float2half_rn(x[i]));
}
static void cu_round_prec(float *x, size_t n, int prec)
{
    if (!n || (prec != 1 && prec != 2))
        return;
    round_prec_kernel<<<cdiv(n, 256), 256>>>(x, n, prec);
    CUDA_LAUNCHED();
}
static void cu_adamw(float *p, const float *g, float *m, float *v, size_t n, float lr, float beta1, float beta2,
                     float eps, float decay, float bc1, float bc2)
{
    adamw<float>(p, (float *)NULL, g, m, v, n, 1.0f, lr, beta1, beta2, eps, decay, bc1, bc2, 0);
}

extern "C" const gpt_ops gpt_ops_cuda = {
    "cuda", 1, 1,
    {cu_alloc, cu_free, cu_copy, cu_zero, cu_upload, cu_download, cu_sync, cu_host_alloc, cu_host_free, cu_device_uuid},
    cu_encoder_forward, cu_encoder_forward_vp, cu_encoder_backward, cu_layernorm_forward, cu_layernorm_backward,
    cu_layernorm_part_floats, cu_matmul_forward, cu_matmul_backward, cu_attention_forward, cu_attention_backward,
    cu_attention_scratch_floats, cu_gelu_forward, cu_gelu_backward, cu_residual_bias, cu_add_positions,
    cu_crossentropy_forward, cu_crossentropy_vp_max, cu_crossentropy_vp_sum, cu_crossentropy_vp_finish,
    cu_crossentropy_backward, cu_sum_f64, cu_sumsq_f64, cu_scale, cu_add, cu_round_prec, cu_adamw, cu_compute_prec,
};

/* The GPUs this process sees (0 and *n = 0 when none). */
extern "C" int gpt_ops_cuda_count(int *n)
{
    *n = 0;
    if (cudaGetDeviceCount(n) != cudaSuccess) {
        cudaGetLastError();
        *n = 0;
    }
    return 0;
}

/* Pick this rank's GPU: its rank on the node modulo the GPUs (ranks may share one;
 * the communicators then stage). Returns the device or -1 with a message. */
extern "C" int gpt_ops_cuda_select(int local_rank)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        cudaGetLastError();
        return err_set(ERR_USAGE, "--device cuda: no CUDA GPU found"), -1;
    }
    int dev = (local_rank < 0 ? 0 : local_rank) % n;
    CUDA_CHECK(cudaSetDevice(dev));
    ready();
    return dev;
}

extern "C" void gpt_ops_cuda_mem(size_t *held, size_t *free_bytes, size_t *total_bytes)
{
    *held = g_held;
    *free_bytes = *total_bytes = 0;
    if (cudaMemGetInfo(free_bytes, total_bytes) != cudaSuccess)
        cudaGetLastError();
}

/* ops_cuda.cu - the CUDA operation table (train/ops/ops.h): the model of
 * train/model/gpt.c on one GPU per rank (or ranks sharing one), for one rank and
 * every layout, with this folder's kernels (encoder, LayerNorm with the residual,
 * GELU, cuBLASLt matmuls with bias and GELU epilogues, cuDNN / flash / batched-GEMM
 * attention, the one-pass cross-entropy, AdamW) and small kernels for the operations
 * the CPU table does in loops (row-parallel residual sum, positions, the
 * vocab-parallel cross-entropy's parts, sums). Everything is ordered on the legacy
 * default stream, as the communicators' NCCL calls are.
 *
 * Typed storage (train/ops/ops.h's floatX): under --bf16 / --fp16 the model's compute
 * weights, activations and their gradients are __nv_bfloat16 / __half buffers and
 * every kernel is instantiated for the type (BY_TYPE below); master weights, weight
 * gradients and AdamW's state are fp32. Checked on H100s and H200s (every layout in
 * fp32, bf16 and fp16 against one process; tests/gpu/test_ops_cuda.cu against the CPU
 * table); as fast as the single-GPU model it replaced (gpt_cuda.cu, deleted on
 * 2026-11-28); see docs/parallel.md. */
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
#include "train/cuda/classifier.cuh"
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

/* ---- typed storage: the precision, and each operation instantiated per type ----
 * The model's floatX buffers hold T = float, __nv_bfloat16 or __half (storage_prec),
 * so the kernels of this folder run on them as the single-GPU model ran them: the
 * products on the tensor cores with fp32 accumulation and a T output (cuBLASLt's
 * bias epilogue), LayerNorm and GELU loading T and computing in fp32, attention
 * through cuDNN's fused kernel where it takes the shape (WEBTEXT_NO_CUDNN_TABLE=1:
 * not), else the flash kernels, else batched GEMMs; no conversion passes. */
static int g_prec; /* GPT_PREC_*: 0 fp32, 1 bf16, 2 fp16 */
static void cu_storage_prec(int prec) { g_prec = prec == 1 || prec == 2 ? prec : 0; }
/* fn<T>(args...) for the storage type */
#define BY_TYPE(fn, ...)                          \
    do {                                          \
        if (g_prec == 1)                          \
            fn<__nv_bfloat16>(__VA_ARGS__);       \
        else if (g_prec == 2)                     \
            fn<__half>(__VA_ARGS__);              \
        else                                      \
            fn<float>(__VA_ARGS__);               \
    } while (0)
#define TX(p) ((T *)(void *)(p))
#define CTX(p) ((const T *)(const void *)(p))

template <typename T> static void to_prec_t(floatX *dst, const float *src, size_t n) { convert(TX(dst), src, n, 0); }
template <typename T> static void from_prec_t(float *dst, const floatX *src, size_t n) { convert(dst, CTX(src), n, 0); }
static void cu_to_prec(floatX *dst, const float *src, size_t n) { BY_TYPE(to_prec_t, dst, src, n); }
static void cu_from_prec(float *dst, const floatX *src, size_t n) { BY_TYPE(from_prec_t, dst, src, n); }

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
template <typename T>
static void enc_fwd_t(floatX *out, const int32_t *inp, const floatX *wte, const floatX *wpe, int B, int T_, int C)
{
    encoder_forward<T>(TX(out), inp, CTX(wte), CTX(wpe), B, T_, C, 0);
}
/* The encoder's backward as the single-GPU model ran it, deterministic (no atomics): the
 * positions grouped by token on the host (encoder.cuh's encoder_group), one block a
 * token adding its positions in order. The forward copies its tokens to the host as it
 * runs (pinned, an event), keyed by the device buffer, which the backward of the same
 * micro-batch finds (a pipeline holds several micro-batches between the two). */
struct tok_stash {
    int32_t *host = NULL; /* pinned [n] */
    size_t n = 0, cap = 0;
    cudaEvent_t ev = NULL;
};
static std::map<const int32_t *, tok_stash> g_tok;
static std::vector<int> g_count;   /* [max token + 1] zeroed scratch */
static int *g_grp_h, *g_grp_d;     /* pinned / device [3 * BT + 1]: tok | off | pos */
static size_t g_grp_cap;
static cudaEvent_t g_grp_ev;       /* the last copy of g_grp_h up */

static void stash_tokens(const int32_t *inp, size_t n)
{
    tok_stash &t = g_tok[inp];
    if (t.cap < n) {
        if (t.host)
            CUDA_CHECK(cudaFreeHost(t.host));
        CUDA_CHECK(cudaMallocHost(&t.host, n * sizeof(int32_t)));
        t.cap = n;
    }
    if (!t.ev)
        CUDA_CHECK(cudaEventCreateWithFlags(&t.ev, cudaEventDisableTiming));
    t.n = n;
    CUDA_CHECK(cudaMemcpyAsync(t.host, inp, n * sizeof(int32_t), cudaMemcpyDeviceToHost, 0));
    CUDA_CHECK(cudaEventRecord(t.ev, 0));
}

static void cu_encoder_forward(floatX *out, const int32_t *inp, const floatX *wte, const floatX *wpe, int B, int T,
                               int C)
{
    stash_tokens(inp, (size_t)B * T);
    BY_TYPE(enc_fwd_t, out, inp, wte, wpe, B, T, C);
}

template <typename T>
__global__ void encoder_vp_kernel(T *out, const int32_t *inp, const T *wte, size_t v0, size_t Vl, int BT, int C)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (size_t)BT * C)
        return;
    size_t row = i / C, c = i % C, tok = (size_t)inp[row] - v0;
    out[i] = tok < Vl ? wte[tok * C + c] : fromf<T>(0.0f);
}
template <typename T>
static void enc_vp_t(floatX *out, const int32_t *inp, const floatX *wte, size_t v0, size_t Vl, int BT, int C)
{
    encoder_vp_kernel<T><<<cdiv((size_t)BT * C, 256), 256>>>(TX(out), inp, CTX(wte), v0, Vl, BT, C);
    CUDA_LAUNCHED();
}
static void cu_encoder_forward_vp(floatX *out, const int32_t *inp, const floatX *wte, size_t v0, size_t Vl, int BT,
                                  int C)
{
    stash_tokens(inp, (size_t)BT);
    BY_TYPE(enc_vp_t, out, inp, wte, v0, Vl, BT, C);
}

/* dwpe[t, c] += sum over b of dout[b, t, c] (in b order); dwte rows of this rank's
 * tokens [v0, v0 + Vl) += their dout rows, each token's positions in order (encoder.cuh). */
template <typename T>
static void enc_bwd_t(float *dwte, float *dwpe, const floatX *dout, const int *tok, const int *off, const int *pos,
                      int nu, int B, int Tn, int C)
{
    if (dwpe) {
        encoder_backward_wpe_kernel<T><<<cdiv((size_t)Tn * C, 256), 256>>>(dwpe, CTX(dout), B, Tn, C);
        CUDA_LAUNCHED();
    }
    if (nu > 0) {
        encoder_backward_wte_kernel<T><<<nu, C < 256 ? 128 : 256>>>(dwte, CTX(dout), tok, off, pos, C);
        CUDA_LAUNCHED();
    }
}
static void cu_encoder_backward(float *dwte, float *dwpe, const floatX *dout, const int32_t *inp, int B, int T, int C,
                                size_t v0, size_t Vl)
{
    size_t BT = (size_t)B * T;
    auto it = g_tok.find(inp);
    if (it == g_tok.end() || it->second.n != BT) {
        fprintf(stderr, "train: cuda table: the encoder's backward without its forward's tokens (%zu)\n", BT);
        abort(); /* the model's order is broken: a bug, not an input */
    }
    tok_stash &t = it->second;
    CUDA_CHECK(cudaEventSynchronize(t.ev)); /* copied during the forward, long done */
    if (g_grp_cap < 3 * BT + 1) {
        if (g_grp_h) {
            CUDA_CHECK(cudaEventSynchronize(g_grp_ev));
            CUDA_CHECK(cudaFreeHost(g_grp_h));
            CUDA_CHECK(cudaFree(g_grp_d));
        }
        CUDA_CHECK(cudaMallocHost(&g_grp_h, (3 * BT + 1) * sizeof(int)));
        CUDA_CHECK(cudaMalloc(&g_grp_d, (3 * BT + 1) * sizeof(int)));
        if (!g_grp_ev)
            CUDA_CHECK(cudaEventCreateWithFlags(&g_grp_ev, cudaEventDisableTiming));
        g_grp_cap = 3 * BT + 1;
    } else {
        CUDA_CHECK(cudaEventSynchronize(g_grp_ev)); /* the last groups are up: their buffer is free */
    }
    /* this rank's rows only (vocabulary-parallel), as local rows */
    std::vector<int> local;
    local.reserve(BT);
    int most = 0;
    for (size_t i = 0; i < BT; i++) {
        size_t row = (size_t)t.host[i] - v0;
        int r = row < Vl ? (int)row : -1;
        local.push_back(r);
        most = r > most ? r : most;
    }
    if ((size_t)most + 1 > g_count.size())
        g_count.assign((size_t)most + 1, 0);
    /* encoder_group over the local rows, positions of other ranks' tokens left out */
    int *tok = g_grp_h, *off = tok + BT, *pos = off + BT + 1, nu = 0;
    for (size_t i = 0; i < BT; i++)
        if (local[i] >= 0 && g_count[local[i]]++ == 0)
            tok[nu++] = local[i];
    off[0] = 0;
    for (int u = 0; u < nu; u++) {
        off[u + 1] = off[u] + g_count[tok[u]];
        g_count[tok[u]] = off[u];
    }
    for (size_t i = 0; i < BT; i++)
        if (local[i] >= 0)
            pos[g_count[local[i]]++] = (int)i;
    for (int u = 0; u < nu; u++)
        g_count[tok[u]] = 0;
    CUDA_CHECK(cudaMemcpyAsync(g_grp_d, g_grp_h, (3 * BT + 1) * sizeof(int), cudaMemcpyHostToDevice, 0));
    CUDA_CHECK(cudaEventRecord(g_grp_ev, 0));
    BY_TYPE(enc_bwd_t, dwte, dwpe, dout, g_grp_d, g_grp_d + BT, g_grp_d + 2 * BT + 1, nu, B, T, C);
}

template <typename T>
static void ln_fwd_t(floatX *out, float *mean, float *rstd, const floatX *inp, const floatX *w, const floatX *b, int N,
                     int C)
{
    layernorm_forward<T>(TX(out), mean, rstd, CTX(inp), CTX(w), CTX(b), N, C, 0);
}
static void cu_layernorm_forward(floatX *out, float *mean, float *rstd, const floatX *inp, const floatX *w,
                                 const floatX *b, int N, int C)
{
    BY_TYPE(ln_fwd_t, out, mean, rstd, inp, w, b, N, C);
}
template <typename T>
static void ln_bwd_t(floatX *dinp, float *dw, float *db, const floatX *dout, const floatX *inp, const floatX *w,
                     const float *mean, const float *rstd, int N, int C, float *part)
{
    layernorm_backward<T>(TX(dinp), dw, db, CTX(dout), CTX(inp), CTX(w), mean, rstd, N, C, part, 0);
}
static void cu_layernorm_backward(floatX *dinp, float *dw, float *db, const floatX *dout, const floatX *inp,
                                  const floatX *w, const float *mean, const float *rstd, int N, int C, float *part)
{
    BY_TYPE(ln_bwd_t, dinp, dw, db, dout, inp, w, mean, rstd, N, C, part);
}
static size_t cu_layernorm_part_floats(int C) { return (size_t)COLSUM_CHUNKS * 2 * (size_t)C; }

/* out (+)= inp @ w^T (+ bias): matmul.cuh's (cuBLASLt, the bias in the epilogue), or with
 * accumulate the same product with beta 1 (read, added in fp32, stored once). */
template <typename T>
static void mm_fwd_t(floatX *out, const floatX *inp, const floatX *w, const floatX *bias, int N, int C, int OC,
                     int accumulate)
{
    if (!accumulate) {
        matmul_forward<T>(&g_mm, TX(out), CTX(inp), CTX(w), CTX(bias), N, C, OC, (T *)NULL);
        return;
    }
    cudaDataType_t dt = cuda_type<T>::t;
    if (!lt_matmul(&g_mm, out, dt, w, inp, dt, OC, N, C, true, false, C, C, OC, 1.0f, CUBLASLT_EPILOGUE_DEFAULT, NULL,
                   NULL, 0))
        blas_matmul(&g_mm, out, dt, w, inp, dt, OC, N, C, true, false, C, C, OC, 1.0f);
    if (bias) {
        add_bias_kernel<T><<<cdiv((size_t)N * OC, 256), 256>>>(TX(out), CTX(bias), N, OC);
        CUDA_LAUNCHED();
    }
}
static void cu_matmul_forward(floatX *out, const floatX *inp, const floatX *w, const floatX *bias, int N, int C, int OC,
                              int accumulate)
{
    ready();
    BY_TYPE(mm_fwd_t, out, inp, w, bias, N, C, OC, accumulate);
}
/* dinp (+)= dout @ w; dw += dout^T @ inp and dbias += column sums of dout in fp32. */
template <typename T>
static void mm_bwd_t(floatX *dinp, float *dw, float *dbias, const floatX *dout, const floatX *inp, const floatX *w,
                     int N, int C, int OC, int accumulate_dinp)
{
    if (dinp && accumulate_dinp) {
        cudaDataType_t dt = cuda_type<T>::t;
        if (!lt_matmul(&g_mm, dinp, dt, w, dout, dt, C, N, OC, false, false, C, OC, C, 1.0f,
                       CUBLASLT_EPILOGUE_DEFAULT, NULL, NULL, 0))
            blas_matmul(&g_mm, dinp, dt, w, dout, dt, C, N, OC, false, false, C, OC, C, 1.0f);
        dinp = NULL;
    }
    matmul_backward<T>(&g_mm, TX(dinp), dw, dbias, CTX(dout), CTX(inp), CTX(w), N, C, OC, (const T *)NULL);
}
static void cu_matmul_backward(floatX *dinp, float *dw, float *dbias, const floatX *dout, const floatX *inp,
                               const floatX *w, int N, int C, int OC, int accumulate_dinp)
{
    part_for((size_t)OC);
    BY_TYPE(mm_bwd_t, dinp, dw, dbias, dout, inp, w, N, C, OC, accumulate_dinp);
}

/* att: the table keeps the log-sum-exps [B, NH, T] there (the CPU its probabilities).
 * cuDNN's fused attention where it takes the shape (it compiles a graph per shape,
 * once), else the flash kernels (head size 64, T a multiple of 64), else the batched
 * GEMMs on T x T scratch. */
static float *g_dd; /* the flash backward's [B, NH, T] */
static size_t g_dd_n;
template <typename T> static attn_scratch<T> att_t(size_t n)
{
    attn_scratch<float> f = att_for((n * sizeof(T) + sizeof(float) - 1) / sizeof(float));
    attn_scratch<T> w = {(T *)f.s1, (T *)f.s1 + n, NULL};
    return w;
}
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
template <> int use_cudnn<float>(int, int, int, int) { return 0; } /* cuDNN's fused attention is 16-bit */
/* The flash kernels where they apply (16-bit types only); false: not run. */
static float *flash_dd(size_t n)
{
    if (n > g_dd_n) {
        if (g_dd)
            CUDA_CHECK(cudaFree(g_dd));
        CUDA_CHECK(cudaMalloc(&g_dd, n * sizeof(float)));
        g_dd_n = n;
    }
    return g_dd;
}
template <typename T> struct flash_of {
    static bool fwd(T *out, float *lse, const T *qkv, int B, int Tn, int C, int NH)
    {
        if (!flash::usable<T>(Tn, C, NH))
            return false;
        flash::forward(out, lse, qkv, B, Tn, C, NH, 0);
        return true;
    }
    static bool bwd(T *dqkv, const T *dout, const T *out, const T *qkv, const float *lse, int B, int Tn, int C, int NH)
    {
        if (!flash::usable<T>(Tn, C, NH))
            return false;
        flash::backward(dqkv, dout, out, qkv, lse, flash_dd((size_t)B * NH * Tn), B, Tn, C, NH, 0);
        return true;
    }
};
template <> struct flash_of<float> {
    static bool fwd(float *, float *, const float *, int, int, int, int) { return false; }
    static bool bwd(float *, const float *, const float *, const float *, const float *, int, int, int, int)
    {
        return false;
    }
};
static int g_attn = GPT_ATTN_AUTO; /* gpt_ops_cuda_configure */
static char g_attn_desc[640] = "auto";
template <typename T>
static void att_fwd_t(floatX *out_, float *lse, const floatX *qkv_, int B, int Tn, int C, int NH)
{
    T *out = TX(out_);
    const T *qkv = CTX(qkv_);
    if (g_attn == GPT_ATTN_UNFUSED) {
        attention_forward<T>(&g_mm, out, lse, qkv, att_t<T>((size_t)B * NH * Tn * Tn), B, Tn, C, NH);
        return;
    }
#ifdef WEBTEXT_CUDNN
    if (g_attn != GPT_ATTN_FLASH && use_cudnn<T>(B, Tn, NH, C / NH)) {
        cudnn_attention_forward(cudnn_dtype<T>(), out, lse, qkv, B, Tn, NH, C / NH, 0);
        return;
    }
#endif
    if (!flash_of<T>::fwd(out, lse, qkv, B, Tn, C, NH))
        attention_forward<T>(&g_mm, out, lse, qkv, att_t<T>((size_t)B * NH * Tn * Tn), B, Tn, C, NH);
}
template <typename T>
static void att_bwd_t(floatX *dqkv_, const floatX *dout_, const floatX *qkv_, const float *lse, const floatX *out_, int B,
                      int Tn, int C, int NH)
{
    T *dqkv = TX(dqkv_);
    const T *dout = CTX(dout_), *qkv = CTX(qkv_), *out = CTX(out_);
    if (g_attn == GPT_ATTN_UNFUSED) {
        attention_backward<T>(&g_mm, dqkv, dout, out, qkv, lse, att_t<T>((size_t)B * NH * Tn * Tn), B, Tn, C, NH);
        return;
    }
#ifdef WEBTEXT_CUDNN
    if (g_attn != GPT_ATTN_FLASH && use_cudnn<T>(B, Tn, NH, C / NH)) {
        cudnn_attention_backward(cudnn_dtype<T>(), dqkv, dout, qkv, out, lse, B, Tn, NH, C / NH, 0);
        return;
    }
#endif
    if (!flash_of<T>::bwd(dqkv, dout, out, qkv, lse, B, Tn, C, NH))
        attention_backward<T>(&g_mm, dqkv, dout, out, qkv, lse, att_t<T>((size_t)B * NH * Tn * Tn), B, Tn, C, NH);
}
static void cu_attention_forward(floatX *out, float *att, const floatX *qkv, int B, int T, int C, int NH)
{
    ready();
    BY_TYPE(att_fwd_t, out, att, qkv, B, T, C, NH);
}
static void cu_attention_backward(floatX *dqkv, float *scratch, const floatX *dout, const floatX *qkv, const float *att,
                                  const floatX *out, int B, int T, int C, int NH)
{
    (void)scratch;
    BY_TYPE(att_bwd_t, dqkv, dout, qkv, att, out, B, T, C, NH);
}
static size_t cu_attention_scratch_floats(int T)
{
    (void)T;
    return 1;
}
static size_t cu_attention_state_floats(int T) { return (size_t)T; } /* the log-sum-exps */
template <typename T> static void gelu_fwd_t(floatX *out, const floatX *inp, size_t n)
{
    gelu_forward<T>(TX(out), CTX(inp), n, 0);
}
template <typename T> static void gelu_bwd_t(floatX *dinp, const floatX *inp, const floatX *dout, size_t n)
{
    gelu_backward<T>(TX(dinp), CTX(inp), CTX(dout), n, 0);
}
static void cu_gelu_forward(floatX *out, const floatX *inp, size_t n) { BY_TYPE(gelu_fwd_t, out, inp, n); }
static void cu_gelu_backward(floatX *dinp, const floatX *inp, const floatX *dout, size_t n)
{
    BY_TYPE(gelu_bwd_t, dinp, inp, dout, n);
}

/* ---- fused: the epilogues and fused kernels (the CPU table runs the sequences) ---- */
template <typename T>
static void mmg_t(floatX *out, floatX *pre, const floatX *inp, const floatX *w, const floatX *bias, int N, int C, int OC)
{
    matmul_forward<T>(&g_mm, TX(out), CTX(inp), CTX(w), CTX(bias), N, C, OC, TX(pre));
}
static void cu_matmul_gelu_forward(floatX *out, floatX *pre, const floatX *inp, const floatX *w, const floatX *bias,
                                   int N, int C, int OC)
{
    ready();
    BY_TYPE(mmg_t, out, pre, inp, w, bias, N, C, OC);
}
template <typename T>
static void mmdg_t(floatX *dinp, float *dw, float *dbias, const floatX *dout, const floatX *inp, const floatX *w,
                   const floatX *pre, int N, int C, int OC)
{
    matmul_backward<T>(&g_mm, TX(dinp), dw, dbias, CTX(dout), CTX(inp), CTX(w), N, C, OC, CTX(pre));
}
static void cu_matmul_dgelu_backward(floatX *dinp, float *dw, float *dbias, const floatX *dout, const floatX *inp,
                                     const floatX *w, const floatX *pre, int N, int C, int OC)
{
    part_for((size_t)OC);
    BY_TYPE(mmdg_t, dinp, dw, dbias, dout, inp, w, pre, N, C, OC);
}
template <typename T>
static void resln_t(floatX *res_out, floatX *out, float *mean, float *rstd, const floatX *res, const floatX *t,
                    const floatX *tbias, const floatX *w, const floatX *b, int N, int C)
{
    residual_layernorm_forward<T>(TX(res_out), TX(out), mean, rstd, CTX(res), CTX(t), CTX(w), CTX(b), N, C, 0,
                                  CTX(tbias));
}
static void cu_residual_layernorm_forward(floatX *res_out, floatX *out, float *mean, float *rstd, const floatX *res,
                                          const floatX *t, const floatX *tbias, const floatX *w, const floatX *b, int N,
                                          int C)
{
    BY_TYPE(resln_t, res_out, out, mean, rstd, res, t, tbias, w, b, N, C);
}

/* ---- the small operations ---- */
template <typename T>
__global__ void residual_bias_kernel(T *out, const T *res, const T *t, const T *bias, int rows, int OC)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (size_t)rows * OC)
        out[i] = fromf<T>(tof(res[i]) + tof(t[i]) + tof(bias[i % OC]));
}
template <typename T>
static void resb_t(floatX *out, const floatX *res, const floatX *t, const floatX *bias, int rows, int OC)
{
    residual_bias_kernel<T><<<cdiv((size_t)rows * OC, 256), 256>>>(TX(out), CTX(res), CTX(t), CTX(bias), rows, OC);
    CUDA_LAUNCHED();
}
static void cu_residual_bias(floatX *out, const floatX *res, const floatX *t, const floatX *bias, int rows, int OC)
{
    BY_TYPE(resb_t, out, res, t, bias, rows, OC);
}
template <typename T> __global__ void add_positions_kernel(T *x, const T *wpe, size_t r0, size_t R, int Tn, int C)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < R * C)
        x[i] = fromf<T>(tof(x[i]) + tof(wpe[((r0 + i / C) % (size_t)Tn) * C + i % C]));
}
template <typename T> static void pos_t(floatX *x, const floatX *wpe, size_t r0, size_t R, int Tn, int C)
{
    add_positions_kernel<T><<<cdiv(R * C, 256), 256>>>(TX(x), CTX(wpe), r0, R, Tn, C);
    CUDA_LAUNCHED();
}
static void cu_add_positions(floatX *x, const floatX *wpe, size_t r0, size_t R, int T, int C)
{
    BY_TYPE(pos_t, x, wpe, r0, R, T, C);
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
template <typename T>
__global__ void ce_parts_kernel(float *max, float *sum, float *tl, const T *logits, const float *gmax,
                                const int32_t *targets, int nv, size_t Vs, size_t v0)
{
    size_t i = blockIdx.x;
    const T *x = logits + i * Vs;
    float m = -INFINITY;
    if (!gmax) {
        for (int v = threadIdx.x; v < nv; v += blockDim.x)
            m = fmaxf(m, tof(x[v]));
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
        s += expf(tof(x[v]) - m);
    s = block_reduce(s, sum_op());
    if (threadIdx.x == 0) {
        sum[i] = nv ? s : 0.0f;
        size_t row = (size_t)targets[i] - v0;
        tl[i] = row < Vs ? tof(x[row]) : 0.0f;
    }
}
template <typename T>
static void ce_parts_t(float *max, float *sum, float *tl, const floatX *logits, const float *gmax,
                       const int32_t *targets, size_t BT, int nv, size_t Vs, size_t v0)
{
    ce_parts_kernel<T><<<(unsigned)BT, 256>>>(max, sum, tl, CTX(logits), gmax, targets, nv, Vs, v0);
    CUDA_LAUNCHED();
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
/* The whole vocabulary here: classifier.cuh's one-pass kernel (16-byte loads, the
 * online softmax). */
template <typename T>
static void ce_fwd_t(float *lse, float *loss, const floatX *logits, const int32_t *targets, size_t BT, int nv, size_t Vs)
{
    crossentropy_forward<T>(loss, lse, CTX(logits), targets, (int)BT, nv, (int)Vs, 0);
}
static void cu_crossentropy_forward(float *lse, float *loss, const floatX *logits, const int32_t *targets, size_t BT,
                                    int nv, size_t Vs)
{
    BY_TYPE(ce_fwd_t, lse, loss, logits, targets, BT, nv, Vs);
}
static void cu_crossentropy_vp_max(float *max, const floatX *logits, size_t BT, int nv, size_t Vs)
{
    BY_TYPE(ce_parts_t, max, (float *)NULL, (float *)NULL, logits, (const float *)NULL, (const int32_t *)NULL, BT, nv,
            Vs, (size_t)0);
}
static void cu_crossentropy_vp_sum(float *sum, float *tl, const floatX *logits, const float *max,
                                   const int32_t *targets, size_t BT, int nv, size_t Vs, size_t v0)
{
    BY_TYPE(ce_parts_t, (float *)NULL, sum, tl, logits, max, targets, BT, nv, Vs, v0);
}
static void cu_crossentropy_vp_finish(float *lse, float *loss, const float *max, const float *sum, const float *tl,
                                      size_t BT)
{
    ce_finish_kernel<<<cdiv(BT, 256), 256>>>(lse, loss, max, sum, tl, BT);
    CUDA_LAUNCHED();
}
/* dlogits in place, classifier.cuh's kernel (16-byte loads), the rank's columns from v0 */
template <typename T>
static void ce_bwd_t(floatX *logits, const float *lse, const int32_t *targets, size_t BT, int nv, size_t Vs, size_t v0,
                     float dl)
{
    crossentropy_backward<T>(TX(logits), lse, targets, (int)BT, nv, (int)Vs, dl, 0, (long long)v0);
}
static void cu_crossentropy_backward(floatX *logits, const float *lse, const int32_t *targets, size_t BT, int nv,
                                     size_t Vs, size_t v0, float dl)
{
    BY_TYPE(ce_bwd_t, logits, lse, targets, BT, nv, Vs, v0, dl);
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
template <typename T>
static void adamw_t(float *p, floatX *plow, const float *g, float *m, float *v, size_t n, float gs, float lr,
                    float beta1, float beta2, float eps, float decay, float bc1, float bc2)
{
    adamw<T>(p, TX(plow), g, m, v, n, gs, lr, beta1, beta2, eps, decay, bc1, bc2, 0);
}
/* adamw.cuh's kernel: the fp32 master update with the gradient's scale, and the
 * compute copy in the same pass */
static void cu_adamw(float *p, floatX *plow, const float *g, float *m, float *v, size_t n, float gs, float lr,
                     float beta1, float beta2, float eps, float decay, float bc1, float bc2)
{
    BY_TYPE(adamw_t, p, plow, g, m, v, n, gs, lr, beta1, beta2, eps, decay, bc1, bc2);
}

/* the profile's events (WEBTEXT_PROFILE=events): a pool reused after each clear */
static std::vector<cudaEvent_t> g_pev;
static size_t g_npev;
static int cu_event_record(void)
{
    if (g_npev == g_pev.size()) {
        cudaEvent_t e;
        CUDA_CHECK(cudaEventCreate(&e));
        g_pev.push_back(e);
    }
    CUDA_CHECK(cudaEventRecord(g_pev[g_npev], 0));
    return (int)g_npev++;
}
static double cu_event_seconds(int a, int b)
{
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, g_pev[(size_t)a], g_pev[(size_t)b]));
    return ms * 1e-3;
}
static void cu_events_clear(void) { g_npev = 0; }

extern "C" const gpt_ops gpt_ops_cuda = {
    "cuda", 1, 1,
    {cu_alloc, cu_free, cu_copy, cu_zero, cu_upload, cu_download, cu_sync, cu_host_alloc, cu_host_free, cu_device_uuid,
     cu_event_record, cu_event_seconds, cu_events_clear},
    cu_storage_prec, cu_to_prec, cu_from_prec, cu_encoder_forward, cu_encoder_forward_vp, cu_encoder_backward, cu_layernorm_forward, cu_layernorm_backward,
    cu_layernorm_part_floats, cu_matmul_forward, cu_matmul_backward, cu_attention_forward, cu_attention_backward,
    cu_attention_scratch_floats, cu_attention_state_floats, cu_gelu_forward, cu_gelu_backward, cu_matmul_gelu_forward,
    cu_matmul_dgelu_backward, cu_residual_layernorm_forward, cu_residual_bias, cu_add_positions,
    cu_crossentropy_forward, cu_crossentropy_vp_max, cu_crossentropy_vp_sum, cu_crossentropy_vp_finish,
    cu_crossentropy_backward, cu_sum_f64, cu_sumsq_f64, cu_scale, cu_add, cu_round_prec, cu_adamw,
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

extern "C" int gpt_ops_cuda_device(char *name, size_t n, size_t *mem_total, double *peak)
{
    int dev = 0, cnt = 0;
    gpt_ops_cuda_count(&cnt);
    if (cnt < 1)
        return err_set(ERR_USAGE, "--device cuda: no CUDA GPU found (%s)",
                       "is the NVIDIA driver loaded and a GPU visible? use --device cpu");
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    snprintf(name, n, "%s", p.name);
    *mem_total = p.totalGlobalMem;
    /* bf16 dense tensor-core peaks of the parts we know (datasheet; SXM forms). */
    double pk = 0;
    if (strstr(p.name, "H100"))
        pk = strstr(p.name, "PCIe") ? 756 : 989;
    else if (strstr(p.name, "H200") || strstr(p.name, "GH200"))
        pk = 989;
    else if (strstr(p.name, "A100"))
        pk = 312;
    else if (strstr(p.name, "B200"))
        pk = 2250;
    else if (strstr(p.name, "L40S"))
        pk = 362;
    else if (strstr(p.name, "A10"))
        pk = 125;
    *peak = pk;
    return 0;
}

extern "C" int gpt_ops_cuda_configure(int prec, int attention, int epilogues, int B, int T, int NH, int hs)
{
    ready();
    g_mm.epilogues = epilogues;
    g_attn = attention;
    const char *unf = "unfused (batched GEMMs)";
    bool flash_ok = prec && flash::usable<__nv_bfloat16>(T, NH * hs, NH);
    const char *flash_desc = "flash (WMMA FlashAttention-2 kernels)";
    if (!prec) {
        if (attention == GPT_ATTN_FUSED)
            return err_set(ERR_USAGE, "--attention-backend fused: needs --bf16 or --fp16 (cuDNN's fused attention has "
                                      "no fp32 form)");
        snprintf(g_attn_desc, sizeof g_attn_desc, "%s%s", unf,
                 attention == GPT_ATTN_FLASH ? "; flash attention needs bf16/fp16" : "");
        return 0;
    }
    if (attention == GPT_ATTN_UNFUSED) {
        snprintf(g_attn_desc, sizeof g_attn_desc, "%s", unf);
        return 0;
    }
    if (attention == GPT_ATTN_FLASH) {
        snprintf(g_attn_desc, sizeof g_attn_desc, "%s",
                 flash_ok ? flash_desc
                          : "unfused (batched GEMMs; flash attention not applicable: needs head size 64 and seq-length a "
                            "multiple of 64)");
        return 0;
    }
    char why[512] = "";
#ifdef WEBTEXT_CUDNN
    int dt = prec == 1 ? cudnn_dtype<__nv_bfloat16>() : cudnn_dtype<__half>();
    if (!getenv("WEBTEXT_NO_CUDNN_TABLE") && cudnn_attention_prepare(dt, B, T, NH, hs, why, sizeof why) == 0) {
        long v = cudnn_attention_version();
        snprintf(g_attn_desc, sizeof g_attn_desc, "fused (cuDNN %ld.%ld.%ld)", v / 10000, v / 100 % 100, v % 100);
        return 0;
    }
    if (getenv("WEBTEXT_NO_CUDNN_TABLE"))
        snprintf(why, sizeof why, "WEBTEXT_NO_CUDNN_TABLE is set");
#else
    (void)B;
    snprintf(why, sizeof why, "this build has no cuDNN attention (the cuDNN frontend headers were not found at build time)");
#endif
    if (attention == GPT_ATTN_FUSED)
        return err_set(ERR_USAGE, "--attention-backend fused: %s", why);
    snprintf(g_attn_desc, sizeof g_attn_desc, "%s (fused: %s)", flash_ok ? flash_desc : unf, why);
    return 0;
}

extern "C" const char *gpt_ops_cuda_attention(void) { return g_attn_desc; }

extern "C" void gpt_ops_cuda_mem(size_t *held, size_t *free_bytes, size_t *total_bytes)
{
    *held = g_held;
    *free_bytes = *total_bytes = 0;
    if (cudaMemGetInfo(free_bytes, total_bytes) != cudaSuccess)
        cudaGetLastError();
}

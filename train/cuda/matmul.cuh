/* matmul.cuh - linear layers through cuBLASLt: out[N, OC] = inp[N, C] @ w[OC, C]^T
 * + bias (torch.nn.Linear's layout, row-major), with the bias and GELU folded
 * into the matmul's epilogue where cuBLASLt offers it (GELU_AUX_BIAS forward,
 * DGELU on the input gradient backward). Weight gradients are accumulated in
 * fp32 (bf16/fp16 operands, fp32 output). CPU reference: matmul_forward /
 * matmul_backward in train/cpu/kernels.c. */
#ifndef TRAIN_CUDA_MATMUL_CUH
#define TRAIN_CUDA_MATMUL_CUH
#include <cublasLt.h>
#include <cublas_v2.h>
#include <stdint.h>
#include <string.h>

#include <map>
#include <utility>

#include "train/cuda/common.cuh"
#include "train/cuda/gelu.cuh"
#include "train/cuda/layernorm.cuh"

static inline void cublas_check_(cublasStatus_t st, const char *what, const char *file, int line)
{
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "train: cuBLAS error %d at %s:%d (%s)\n", (int)st, file, line, what);
        exit(5); /* EXIT_INTERNAL */
    }
}
#define CUBLAS_CHECK(x) cublas_check_((x), #x, __FILE__, __LINE__)

typedef struct {
    cublasLtHandle_t lt;
    cublasHandle_t blas;
    void *ws;
    size_t ws_size;
    int epilogues;   /* fold bias / GELU into cuBLASLt epilogues */
    int flash;       /* attention through flash.cuh where it applies */
    int fused;       /* attention through cuDNN (cudnn_attention.h); takes precedence over flash */
    cudaStream_t s;
    float *part;     /* colsum scratch [COLSUM_CHUNKS, 2 * max width] */
    /* profiling (WEBTEXT_CUDA_PROFILE): mark(arg, name) after each step */
    void (*mark)(void *arg, const char *name);
    void *mark_arg;
} mm_ctx;

static inline void mm_mark(const mm_ctx *c, const char *name)
{
    if (c->mark)
        c->mark(c->mark_arg, name);
}

template <typename T> struct cuda_type;
template <> struct cuda_type<float> { static const cudaDataType_t t = CUDA_R_32F; };
template <> struct cuda_type<__nv_bfloat16> { static const cudaDataType_t t = CUDA_R_16BF; };
template <> struct cuda_type<__half> { static const cudaDataType_t t = CUDA_R_16F; };

static inline uint32_t ptr_align(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    uint32_t al = 256;
    while (al > 1 && a % al)
        al >>= 1;
    return al;
}

/* Column-major D[m, n] = op(A) op(B) + beta D, with an epilogue. false: no algorithm. */
static bool lt_matmul(const mm_ctx *c, void *D, cudaDataType_t dD, const void *A, const void *B, cudaDataType_t dAB,
                      int m, int n, int k, bool ta, bool tb, int lda, int ldb, int ldd, float beta,
                      cublasLtEpilogue_t epi, const void *bias, void *aux, int ldaux)
{
    cublasLtMatmulDesc_t op;
    CUBLAS_CHECK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t oa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, ob = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &oa, sizeof oa));
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &ob, sizeof ob));
    if (epi != CUBLASLT_EPILOGUE_DEFAULT)
        CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    if (bias)
        CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
    if (aux) {
        int64_t ld = ldaux;
        CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &aux, sizeof aux));
        CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &ld, sizeof ld));
    }
    cublasLtMatrixLayout_t la, lb, ld;
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&la, dAB, ta ? k : m, ta ? m : k, lda));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lb, dAB, tb ? n : k, tb ? k : n, ldb));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&ld, dD, m, n, ldd));
    cublasLtMatmulPreference_t pref;
    CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
    CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &c->ws_size,
                                                      sizeof c->ws_size));
    uint32_t al[4] = {ptr_align(A), ptr_align(B), ptr_align(D), ptr_align(D)};
    CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &al[0], 4));
    CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &al[1], 4));
    CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &al[2], 4));
    CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &al[3], 4));
    /* The heuristic's choice depends on the shapes, types, epilogue and alignments
     * only: ask once per combination. */
    struct key_t {
        int v[16];
        bool operator<(const key_t &o) const { return memcmp(v, o.v, sizeof v) < 0; }
    } key;
    memset(&key, 0, sizeof key);
    int kv[16] = {(int)dD, (int)dAB, m, n, k, ta, tb, lda, ldb, ldd, (int)epi, bias != NULL, (int)al[0], (int)al[1],
                  (int)al[2], beta != 0.0f};
    memcpy(key.v, kv, sizeof kv);
    static std::map<key_t, std::pair<bool, cublasLtMatmulHeuristicResult_t>> cache;
    cublasLtMatmulHeuristicResult_t res;
    bool ok;
    auto it = cache.find(key);
    if (it != cache.end()) {
        ok = it->second.first;
        res = it->second.second;
    } else {
        int nres = 0;
        cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(c->lt, op, la, lb, ld, ld, pref, 1, &res, &nres);
        ok = st == CUBLAS_STATUS_SUCCESS && nres > 0;
        cache[key] = std::make_pair(ok, res);
    }
    if (ok) {
        float alpha = 1.0f;
        CUBLAS_CHECK(cublasLtMatmul(c->lt, op, &alpha, A, la, B, lb, &beta, D, ld, D, ld, &res.algo, c->ws, c->ws_size,
                                    c->s));
    }
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatmulDescDestroy(op);
    return ok;
}

/* The same product through cublasGemmEx (no epilogue): the fallback. */
static void blas_matmul(const mm_ctx *c, void *D, cudaDataType_t dD, const void *A, const void *B, cudaDataType_t dAB,
                        int m, int n, int k, bool ta, bool tb, int lda, int ldb, int ldd, float beta)
{
    float alpha = 1.0f;
    CUBLAS_CHECK(cublasGemmEx(c->blas, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k, &alpha,
                              A, dAB, lda, B, dAB, ldb, &beta, D, dD, ldd, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

template <typename T> __global__ void add_bias_kernel(T *out, const T *bias, int N, int OC)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (size_t)N * OC)
        out[i] = fromf<T>(tof(out[i]) + tof(bias[i % OC]));
}

static __global__ void add_f32_kernel(float *acc, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        acc[i] += x[i];
}

/* out[N, OC] = inp[N, C] @ w[OC, C]^T + bias. With gelu_pre: gelu_pre gets that
 * and out = gelu(gelu_pre). */
template <typename T>
static void matmul_forward(const mm_ctx *c, T *out, const T *inp, const T *w, const T *bias, int N, int C, int OC,
                           T *gelu_pre)
{
    cudaDataType_t dt = cuda_type<T>::t;
    if (gelu_pre) {
        if (c->epilogues && lt_matmul(c, out, dt, w, inp, dt, OC, N, C, true, false, C, C, OC, 0.0f,
                                      bias ? CUBLASLT_EPILOGUE_GELU_AUX_BIAS : CUBLASLT_EPILOGUE_GELU_AUX, bias,
                                      gelu_pre, OC))
            return;
        matmul_forward<T>(c, gelu_pre, inp, w, bias, N, C, OC, NULL);
        gelu_forward(out, gelu_pre, (size_t)N * OC, c->s);
        return;
    }
    if (bias && c->epilogues &&
        lt_matmul(c, out, dt, w, inp, dt, OC, N, C, true, false, C, C, OC, 0.0f, CUBLASLT_EPILOGUE_BIAS, bias, NULL, 0))
        return;
    if (!lt_matmul(c, out, dt, w, inp, dt, OC, N, C, true, false, C, C, OC, 0.0f, CUBLASLT_EPILOGUE_DEFAULT, NULL,
                   NULL, 0))
        blas_matmul(c, out, dt, w, inp, dt, OC, N, C, true, false, C, C, OC, 0.0f);
    if (bias) {
        add_bias_kernel<<<cdiv((size_t)N * OC, 256), 256, 0, c->s>>>(out, bias, N, OC);
        CUDA_LAUNCHED();
    }
}

/* dinp[N, C] = dout[N, OC] @ w (overwritten; times gelu'(gelu_pre) when given: the
 * gradient before the GELU whose output was this layer's input); dw[OC, C] +=
 * dout^T @ inp and dbias[OC] += column sums of dout, in fp32. */
template <typename T>
static void matmul_backward(const mm_ctx *c, T *dinp, float *dw, float *dbias, const T *dout, const T *inp, const T *w,
                            int N, int C, int OC, const T *gelu_pre)
{
    cudaDataType_t dt = cuda_type<T>::t;
    if (dinp) {
        bool done = false;
        if (gelu_pre && c->epilogues)
            done = lt_matmul(c, dinp, dt, w, dout, dt, C, N, OC, false, false, C, OC, C, 0.0f, CUBLASLT_EPILOGUE_DGELU,
                             NULL, (void *)gelu_pre, C);
        if (!done) {
            if (!lt_matmul(c, dinp, dt, w, dout, dt, C, N, OC, false, false, C, OC, C, 0.0f, CUBLASLT_EPILOGUE_DEFAULT,
                           NULL, NULL, 0))
                blas_matmul(c, dinp, dt, w, dout, dt, C, N, OC, false, false, C, OC, C, 0.0f);
            if (gelu_pre)
                gelu_backward(dinp, gelu_pre, dinp, (size_t)N * C, c->s);
        }
        mm_mark(c, gelu_pre ? "matmul backward dinp (+dgelu)" : "matmul backward dinp");
    }
    /* The bias gradient in the dweight product's epilogue (cuBLASLt's BGRADB: column
     * sums of dout, the product's B, over k = N) saves reading dout again; it
     * overwrites, so it goes to scratch and is added to the fp32 accumulator. */
    if (dbias && c->epilogues &&
        lt_matmul(c, dw, CUDA_R_32F, inp, dout, dt, C, OC, N, false, true, C, OC, C, 1.0f, CUBLASLT_EPILOGUE_BGRADB,
                  c->part, NULL, 0)) {
        add_f32_kernel<<<cdiv(OC, 256), 256, 0, c->s>>>(dbias, c->part, OC);
        CUDA_LAUNCHED();
        mm_mark(c, "matmul backward dweight (+dbias)");
        return;
    }
    if (!lt_matmul(c, dw, CUDA_R_32F, inp, dout, dt, C, OC, N, false, true, C, OC, C, 1.0f, CUBLASLT_EPILOGUE_DEFAULT,
                   NULL, NULL, 0))
        blas_matmul(c, dw, CUDA_R_32F, inp, dout, dt, C, OC, N, false, true, C, OC, C, 1.0f);
    mm_mark(c, "matmul backward dweight");
    if (dbias) {
        bias_backward(dbias, dout, N, OC, c->part, c->s);
        mm_mark(c, "bias backward");
    }
}

#endif

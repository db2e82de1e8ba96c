/* flash.cuh - causal self-attention with no T x T matrix in device memory
 * (FlashAttention-2's algorithm: Dao, 2023), on tensor cores through WMMA.
 * CPU reference: attention_forward / attention_backward in train/cpu/kernels.c.
 *
 * For 16-bit storage, head size 64 (every GPT-2 size) and T a multiple of 64;
 * attention.cuh falls back to batched GEMMs otherwise. q, k and v are read
 * where they lie in qkv [B, T, 3C], the output and the gradients written in
 * place. One block of 4 warps per (64-row tile, head, sequence); each warp owns
 * 16 rows of the tile. Scores, probabilities and accumulators stay in shared
 * memory (fp32), operands go through the tensor cores as 16-bit fragments.
 *   forward  O = softmax(scale q k^T) v with the online softmax; keeps
 *            lse = log sum exp per query row for the backward.
 *   backward D = rowsum(dO * O); one kernel walks the query tiles for each key
 *            tile (dK, dV), another the key tiles for each query tile (dQ), so
 *            no two blocks add into the same gradient: deterministic, no atomics. */
#ifndef TRAIN_CUDA_FLASH_CUH
#define TRAIN_CUDA_FLASH_CUH
#include <mma.h>

#include <type_traits>

#include "train/cuda/common.cuh"

namespace flash {
using namespace nvcuda;
constexpr int D = 64;   /* head size */
constexpr int LT = 72;  /* shared-memory row of a 16-bit tile, padded (elements) */
constexpr int LF = 68;  /* of an fp32 tile */
constexpr int NT = 128; /* threads: 4 warps */
constexpr size_t TILE16 = 64 * LT * 2, TILE32 = 64 * LF * 4;
constexpr size_t FWD_SMEM = 4 * TILE16 + 2 * TILE32 + 2 * 64 * 4;
constexpr size_t KV_SMEM = 6 * TILE16 + 4 * TILE32 + 2 * 64 * 4;
constexpr size_t Q_SMEM = 5 * TILE16 + 3 * TILE32 + 2 * 64 * 4;

/* 64 rows x 64 columns from src (row stride ld) into a shared tile, 16 bytes a thread a step. */
template <typename T> __device__ __forceinline__ void load_tile(T *dst, const T *src, size_t ld)
{
    for (int v = threadIdx.x; v < 64 * 8; v += NT) {
        int r = v >> 3, c = (v & 7) * 8;
        *(uint4 *)(dst + r * LT + c) = *(const uint4 *)(src + (size_t)r * ld + c);
    }
}

/* One warp: Cs[16, 64] (+)= As[16, 64] . B[64, 64], B row-major in Bs or, with
 * col_major, the transpose of the row-major tile Bs. */
template <typename T, typename BL>
__device__ __forceinline__ void warp_mm(float *Cs, const T *As, const T *Bs, bool acc)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a[4];
#pragma unroll
    for (int k = 0; k < 4; k++)
        wmma::load_matrix_sync(a[k], As + k * 16, LT);
#pragma unroll
    for (int n = 0; n < 4; n++) {
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
        if (acc)
            wmma::load_matrix_sync(c, Cs + n * 16, LF, wmma::mem_row_major);
        else
            wmma::fill_fragment(c, 0.0f);
#pragma unroll
        for (int k = 0; k < 4; k++) {
            wmma::fragment<wmma::matrix_b, 16, 16, 16, T, BL> b;
            const T *bp = std::is_same<BL, wmma::row_major>::value ? Bs + k * 16 * LT + n * 16 : Bs + n * 16 * LT + k * 16;
            wmma::load_matrix_sync(b, bp, LT);
            wmma::mma_sync(c, a[k], b, c);
        }
        wmma::store_matrix_sync(Cs + n * 16, c, LF, wmma::mem_row_major);
    }
}

template <typename T>
__global__ void __launch_bounds__(NT) fwd_kernel(T *out, float *lse, const T *qkv, int Tn, int NH, float scale)
{
    extern __shared__ __align__(128) unsigned char smem[];
    T *sQ = (T *)smem, *sK = sQ + 64 * LT, *sV = sK + 64 * LT, *sP = sV + 64 * LT;
    float *sS = (float *)(sP + 64 * LT), *sO = sS + 64 * LF, *sM = sO + 64 * LF, *sL = sM + 64;
    int qt = gridDim.x - 1 - blockIdx.x, h = blockIdx.y, b = blockIdx.z; /* the longest rows first */
    int C = NH * D, w = threadIdx.x / 32, lane = threadIdx.x % 32;
    size_t ld = 3 * (size_t)C;
    const T *base = qkv + (size_t)b * Tn * ld + h * D;
    load_tile(sQ, base + (size_t)qt * 64 * ld, ld);
    for (int i = threadIdx.x; i < 64 * LF; i += NT)
        sO[i] = 0.0f;
    if (threadIdx.x < 64) {
        sM[threadIdx.x] = -INFINITY;
        sL[threadIdx.x] = 0.0f;
    }
    int r = w * 16 + lane / 2, half = lane & 1;
    for (int kt = 0; kt <= qt; kt++) {
        __syncthreads();
        load_tile(sK, base + C + (size_t)kt * 64 * ld, ld);
        load_tile(sV, base + 2 * C + (size_t)kt * 64 * ld, ld);
        __syncthreads();
        warp_mm<T, wmma::col_major>(sS + w * 16 * LF, sQ + w * 16 * LT, sK, false); /* S = q k^T */
        __syncwarp();
        const float *srow = sS + r * LF + half * 32;
        T *prow = sP + r * LT + half * 32;
        int lim = kt == qt ? r : 63; /* keys past the query are masked */
        float mx = -INFINITY;
        for (int c = 0; c < 32; c++)
            if (half * 32 + c <= lim)
                mx = fmaxf(mx, srow[c] * scale);
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
        float mold = sM[r], mnew = fmaxf(mold, mx), sum = 0.0f;
        for (int c = 0; c < 32; c++) {
            float p = half * 32 + c <= lim ? __expf(srow[c] * scale - mnew) : 0.0f;
            prow[c] = fromf<T>(p);
            sum += p;
        }
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        float alpha = __expf(mold - mnew);
        float *orow = sO + r * LF + half * 32;
        for (int c = 0; c < 32; c++)
            orow[c] *= alpha;
        __syncwarp();
        if (!half) {
            sM[r] = mnew;
            sL[r] = sL[r] * alpha + sum;
        }
        __syncwarp();
        warp_mm<T, wmma::row_major>(sO + w * 16 * LF, sP + w * 16 * LT, sV, true); /* O += P v */
        __syncwarp();
    }
    int t = qt * 64 + r;
    float l = sL[r];
    T *o = out + ((size_t)b * Tn + t) * C + h * D + half * 32;
    const float *orow = sO + r * LF + half * 32;
    for (int c = 0; c < 32; c += 8) {
        pack16<T> v;
#pragma unroll
        for (int k = 0; k < 8; k++)
            v.t[k] = fromf<T>(orow[c + k] / l);
        st16(o + c, v);
    }
    if (!half)
        lse[((size_t)b * NH + h) * Tn + t] = sM[r] + logf(l);
}

/* D[(b, h), t] = sum_d dy * y over the head's 64 channels; one warp per row. */
template <typename T> __global__ void dot_kernel(float *Dd, const T *y, const T *dy, int B, int Tn, int NH)
{
    size_t row = (size_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= (size_t)B * Tn * NH)
        return;
    int h = (int)(row % NH);
    size_t bt = row / NH;
    int t = (int)(bt % Tn), b = (int)(bt / Tn);
    size_t off = bt * NH * D + (size_t)h * D + lane * 2;
    float s = tof(y[off]) * tof(dy[off]) + tof(y[off + 1]) * tof(dy[off + 1]);
    s = warp_sum(s);
    if (lane == 0)
        Dd[((size_t)b * NH + h) * Tn + t] = s;
}

/* dK and dV of one key tile: walk the query tiles at or after it. */
template <typename T>
__global__ void __launch_bounds__(NT) bwd_kv_kernel(T *dqkv, const T *qkv, const T *dy, const float *lse,
                                                    const float *Dd, int Tn, int NH, float scale)
{
    extern __shared__ __align__(128) unsigned char smem[];
    T *sK = (T *)smem, *sV = sK + 64 * LT, *sQ = sV + 64 * LT, *sdO = sQ + 64 * LT, *sPt = sdO + 64 * LT,
      *sdSt = sPt + 64 * LT;
    float *sSt = (float *)(sdSt + 64 * LT), *sdPt = sSt + 64 * LF, *sdK = sdPt + 64 * LF, *sdV = sdK + 64 * LF,
          *sLse = sdV + 64 * LF, *sD = sLse + 64;
    int kt = blockIdx.x, h = blockIdx.y, b = blockIdx.z, nq = Tn / 64;
    int C = NH * D, w = threadIdx.x / 32, lane = threadIdx.x % 32;
    size_t ld = 3 * (size_t)C;
    const T *base = qkv + (size_t)b * Tn * ld + h * D, *dbase = dy + (size_t)b * Tn * C + h * D;
    const float *lrow = lse + ((size_t)b * NH + h) * Tn, *drow = Dd + ((size_t)b * NH + h) * Tn;
    load_tile(sK, base + C + (size_t)kt * 64 * ld, ld);
    load_tile(sV, base + 2 * C + (size_t)kt * 64 * ld, ld);
    for (int i = threadIdx.x; i < 64 * LF; i += NT)
        sdK[i] = sdV[i] = 0.0f;
    int r = w * 16 + lane / 2, half = lane & 1;
    for (int qt = kt; qt < nq; qt++) {
        __syncthreads();
        load_tile(sQ, base + (size_t)qt * 64 * ld, ld);
        load_tile(sdO, dbase + (size_t)qt * 64 * C, C);
        if (threadIdx.x < 64) {
            sLse[threadIdx.x] = lrow[qt * 64 + threadIdx.x];
            sD[threadIdx.x] = drow[qt * 64 + threadIdx.x];
        }
        __syncthreads();
        warp_mm<T, wmma::col_major>(sSt + w * 16 * LF, sK + w * 16 * LT, sQ, false);  /* S^T = k q^T */
        warp_mm<T, wmma::col_major>(sdPt + w * 16 * LF, sV + w * 16 * LT, sdO, false); /* dP^T = v dy^T */
        __syncwarp();
        for (int c = 0; c < 32; c++) {
            int col = half * 32 + c; /* query col of this tile, key r */
            bool ok = qt > kt || col >= r;
            float p = ok ? __expf(sSt[r * LF + col] * scale - sLse[col]) : 0.0f;
            float ds = p * (sdPt[r * LF + col] - sD[col]) * scale;
            sPt[r * LT + col] = fromf<T>(p);
            sdSt[r * LT + col] = fromf<T>(ds);
        }
        __syncwarp();
        warp_mm<T, wmma::row_major>(sdV + w * 16 * LF, sPt + w * 16 * LT, sdO, true); /* dv += P^T dy */
        warp_mm<T, wmma::row_major>(sdK + w * 16 * LF, sdSt + w * 16 * LT, sQ, true); /* dk += dS^T q */
        __syncwarp();
    }
    int t = kt * 64 + r;
    T *dk = dqkv + ((size_t)b * Tn + t) * ld + C + h * D + half * 32, *dv = dk + C;
    for (int c = 0; c < 32; c += 8) {
        pack16<T> a, v;
#pragma unroll
        for (int k = 0; k < 8; k++) {
            a.t[k] = fromf<T>(sdK[r * LF + half * 32 + c + k]);
            v.t[k] = fromf<T>(sdV[r * LF + half * 32 + c + k]);
        }
        st16(dk + c, a);
        st16(dv + c, v);
    }
}

/* dQ of one query tile: walk the key tiles up to it. */
template <typename T>
__global__ void __launch_bounds__(NT) bwd_q_kernel(T *dqkv, const T *qkv, const T *dy, const float *lse,
                                                   const float *Dd, int Tn, int NH, float scale)
{
    extern __shared__ __align__(128) unsigned char smem[];
    T *sQ = (T *)smem, *sdO = sQ + 64 * LT, *sK = sdO + 64 * LT, *sV = sK + 64 * LT, *sdS = sV + 64 * LT;
    float *sS = (float *)(sdS + 64 * LT), *sdP = sS + 64 * LF, *sdQ = sdP + 64 * LF, *sLse = sdQ + 64 * LF,
          *sD = sLse + 64;
    int qt = gridDim.x - 1 - blockIdx.x, h = blockIdx.y, b = blockIdx.z;
    int C = NH * D, w = threadIdx.x / 32, lane = threadIdx.x % 32;
    size_t ld = 3 * (size_t)C;
    const T *base = qkv + (size_t)b * Tn * ld + h * D, *dbase = dy + (size_t)b * Tn * C + h * D;
    const float *lrow = lse + ((size_t)b * NH + h) * Tn, *drow = Dd + ((size_t)b * NH + h) * Tn;
    load_tile(sQ, base + (size_t)qt * 64 * ld, ld);
    load_tile(sdO, dbase + (size_t)qt * 64 * C, C);
    if (threadIdx.x < 64) {
        sLse[threadIdx.x] = lrow[qt * 64 + threadIdx.x];
        sD[threadIdx.x] = drow[qt * 64 + threadIdx.x];
    }
    for (int i = threadIdx.x; i < 64 * LF; i += NT)
        sdQ[i] = 0.0f;
    int r = w * 16 + lane / 2, half = lane & 1;
    for (int kt = 0; kt <= qt; kt++) {
        __syncthreads();
        load_tile(sK, base + C + (size_t)kt * 64 * ld, ld);
        load_tile(sV, base + 2 * C + (size_t)kt * 64 * ld, ld);
        __syncthreads();
        warp_mm<T, wmma::col_major>(sS + w * 16 * LF, sQ + w * 16 * LT, sK, false);   /* S = q k^T */
        warp_mm<T, wmma::col_major>(sdP + w * 16 * LF, sdO + w * 16 * LT, sV, false); /* dP = dy v^T */
        __syncwarp();
        float l = sLse[r], dd = sD[r];
        for (int c = 0; c < 32; c++) {
            int col = half * 32 + c; /* key col of this tile, query r */
            bool ok = kt < qt || col <= r;
            float p = ok ? __expf(sS[r * LF + col] * scale - l) : 0.0f;
            sdS[r * LT + col] = fromf<T>(p * (sdP[r * LF + col] - dd) * scale);
        }
        __syncwarp();
        warp_mm<T, wmma::row_major>(sdQ + w * 16 * LF, sdS + w * 16 * LT, sK, true); /* dq += dS k */
        __syncwarp();
    }
    int t = qt * 64 + r;
    T *dq = dqkv + ((size_t)b * Tn + t) * ld + h * D + half * 32;
    for (int c = 0; c < 32; c += 8) {
        pack16<T> a;
#pragma unroll
        for (int k = 0; k < 8; k++)
            a.t[k] = fromf<T>(sdQ[r * LF + half * 32 + c + k]);
        st16(dq + c, a);
    }
}

/* Whether these shapes take the flash path. */
template <typename T> static inline bool usable(int Tn, int C, int NH)
{
    return sizeof(T) == 2 && NH > 0 && C / NH == D && C % NH == 0 && Tn % 64 == 0;
}

template <typename T> static void setup_once()
{
    static bool done = false;
    if (done)
        return;
    CUDA_CHECK(cudaFuncSetAttribute(fwd_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)FWD_SMEM));
    CUDA_CHECK(cudaFuncSetAttribute(bwd_kv_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)KV_SMEM));
    CUDA_CHECK(cudaFuncSetAttribute(bwd_q_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)Q_SMEM));
    done = true;
}

template <typename T>
static void forward(T *out, float *lse, const T *qkv, int B, int Tn, int C, int NH, cudaStream_t s)
{
    setup_once<T>();
    fwd_kernel<T><<<dim3(Tn / 64, NH, B), NT, FWD_SMEM, s>>>(out, lse, qkv, Tn, NH, rsqrtf((float)D));
    CUDA_LAUNCHED();
}

/* Dd: scratch [B, NH, T] floats. */
template <typename T>
static void backward(T *dqkv, const T *dy, const T *y, const T *qkv, const float *lse, float *Dd, int B, int Tn, int C,
                     int NH, cudaStream_t s)
{
    setup_once<T>();
    size_t rows = (size_t)B * Tn * NH;
    dot_kernel<T><<<cdiv(rows, 8), 256, 0, s>>>(Dd, y, dy, B, Tn, NH);
    CUDA_LAUNCHED();
    float scale = rsqrtf((float)D);
    bwd_kv_kernel<T><<<dim3(Tn / 64, NH, B), NT, KV_SMEM, s>>>(dqkv, qkv, dy, lse, Dd, Tn, NH, scale);
    CUDA_LAUNCHED();
    bwd_q_kernel<T><<<dim3(Tn / 64, NH, B), NT, Q_SMEM, s>>>(dqkv, qkv, dy, lse, Dd, Tn, NH, scale);
    CUDA_LAUNCHED();
}
} /* namespace flash */

#endif

/* layernorm.cuh - LayerNorm forward (alone, or fused with the residual add
 * before it) and backward. CPU reference: layernorm_forward /
 * layernorm_backward in train/cpu/kernels.c (eps 1e-5, biased variance).
 * Forward: one warp per row. Backward, deterministic without atomics: one warp
 * per row for the input gradient; the weight and bias gradients are column sums,
 * taken per chunk of rows into a partial buffer, then added in chunk order. */
#ifndef TRAIN_CUDA_LAYERNORM_CUH
#define TRAIN_CUDA_LAYERNORM_CUH
#include "train/cuda/common.cuh"

/* res (optional): res = a + b (+ rb, a bias of b's, when given) is stored and
 * normalised; else a is normalised. */
template <typename T>
__global__ void layernorm_forward_kernel(T *out, float *mean, float *rstd, T *res, const T *a, const T *b, const T *rb,
                                         const T *w, const T *bias, int N, int C)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= N)
        return;
    const T *x = a + (size_t)row * C;
    const T *y = b ? b + (size_t)row * C : NULL;
    T *r = res ? res + (size_t)row * C : NULL;
    float s = 0;
    for (int c = lane; c < C; c += 32) {
        float v = tof(x[c]);
        if (y) {
            float t = v + tof(y[c]);
            if (rb)
                t += tof(rb[c]);
            T sum = fromf<T>(t);
            r[c] = sum;
            v = tof(sum);
        }
        s += v;
    }
    /* the stored residual is re-read below: make this warp's writes visible to itself */
    __syncwarp();
    const T *src = r ? r : x;
    float mu = warp_sum(s) / C, v2 = 0;
    for (int c = lane; c < C; c += 32) {
        float d = tof(src[c]) - mu;
        v2 += d * d;
    }
    float rs = rsqrtf(warp_sum(v2) / C + 1e-5f);
    T *o = out + (size_t)row * C;
    for (int c = lane; c < C; c += 32)
        o[c] = fromf<T>((tof(src[c]) - mu) * rs * tof(w[c]) + tof(bias[c]));
    if (lane == 0) {
        mean[row] = mu;
        rstd[row] = rs;
    }
}
template <typename T>
static void layernorm_forward(T *out, float *mean, float *rstd, const T *inp, const T *w, const T *b, int N, int C,
                              cudaStream_t s)
{
    layernorm_forward_kernel<<<cdiv(N, 8), 256, 0, s>>>(out, mean, rstd, (T *)NULL, inp, (const T *)NULL,
                                                        (const T *)NULL, w, b, N, C);
    CUDA_LAUNCHED();
}
/* res = a + b (+ rb when given: the bias of a row-parallel layer, added after its sum);
 * out = LayerNorm(res). */
template <typename T>
static void residual_layernorm_forward(T *res, T *out, float *mean, float *rstd, const T *a, const T *b, const T *w,
                                       const T *bias, int N, int C, cudaStream_t s, const T *rb = NULL)
{
    layernorm_forward_kernel<<<cdiv(N, 8), 256, 0, s>>>(out, mean, rstd, res, a, b, rb, w, bias, N, C);
    CUDA_LAUNCHED();
}

/* dinp += d(LN)/d(inp) . dout, one warp per row. */
template <typename T>
__global__ void layernorm_backward_dx_kernel(T *dinp, const T *dout, const T *inp, const T *w, const float *mean,
                                             const float *rstd, int N, int C)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= N)
        return;
    const T *x = inp + (size_t)row * C, *dy = dout + (size_t)row * C;
    T *dx = dinp + (size_t)row * C;
    float mu = mean[row], rs = rstd[row], dm = 0, dnm = 0;
    for (int c = lane; c < C; c += 32) {
        float norm = (tof(x[c]) - mu) * rs, dn = tof(w[c]) * tof(dy[c]);
        dm += dn;
        dnm += dn * norm;
    }
    dm = warp_sum(dm) / C;
    dnm = warp_sum(dnm) / C;
    for (int c = lane; c < C; c += 32) {
        float norm = (tof(x[c]) - mu) * rs, dn = tof(w[c]) * tof(dy[c]);
        dx[c] = fromf<T>(tof(dx[c]) + (dn - dm - norm * dnm) * rs);
    }
}

/* Column sums over row chunks: part[chunk][0..C) of dout * norm (when inp is
 * given; the LayerNorm weight gradient) and part[chunk][C..2C) of dout (the bias
 * gradient). Block (32, 8): 32 columns, 8 row lanes summed in a fixed order. */
enum { COLSUM_CHUNKS = 128 };
template <typename T>
__global__ void colsum_partial_kernel(float *part, const T *dout, const T *inp, const float *mean, const float *rstd,
                                      int N, int C)
{
    __shared__ float sw[8][33], sb[8][33];
    int c = blockIdx.x * 32 + threadIdx.x, chunk = blockIdx.y, rows = (N + gridDim.y - 1) / gridDim.y;
    int r0 = chunk * rows, r1 = min(N, r0 + rows);
    float aw = 0, ab = 0;
    if (c < C)
        for (int r = r0 + threadIdx.y; r < r1; r += 8) {
            float d = tof(dout[(size_t)r * C + c]);
            ab += d;
            if (inp)
                aw += d * (tof(inp[(size_t)r * C + c]) - mean[r]) * rstd[r];
        }
    sw[threadIdx.y][threadIdx.x] = aw;
    sb[threadIdx.y][threadIdx.x] = ab;
    __syncthreads();
    if (threadIdx.y == 0 && c < C) {
        for (int k = 1; k < 8; k++) {
            aw += sw[k][threadIdx.x];
            ab += sb[k][threadIdx.x];
        }
        part[(size_t)chunk * 2 * C + c] = aw;
        part[(size_t)chunk * 2 * C + C + c] = ab;
    }
}
/* dw[c] += sum of part[k][c] (k in order); db likewise (either may be NULL). */
static __global__ void colsum_finish_kernel(float *dw, float *db, const float *part, int chunks, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C)
        return;
    float aw = 0, ab = 0;
    for (int k = 0; k < chunks; k++) {
        aw += part[(size_t)k * 2 * C + c];
        ab += part[(size_t)k * 2 * C + C + c];
    }
    if (dw)
        dw[c] += aw;
    if (db)
        db[c] += ab;
}
/* colsum_partial_kernel with 16-byte loads: each thread V adjacent columns. */
template <typename T>
__global__ void colsum_partial_vec_kernel(float *part, const T *dout, const T *inp, const float *mean,
                                          const float *rstd, int N, int C)
{
    constexpr int V = 16 / sizeof(T);
    __shared__ float sw[8][32 * V], sb[8][32 * V];
    int c = (blockIdx.x * 32 + threadIdx.x) * V, chunk = blockIdx.y, rows = (N + gridDim.y - 1) / gridDim.y;
    int r0 = chunk * rows, r1 = min(N, r0 + rows);
    float aw[V], ab[V];
#pragma unroll
    for (int k = 0; k < V; k++)
        aw[k] = ab[k] = 0.0f;
    if (c < C)
        for (int r = r0 + threadIdx.y; r < r1; r += 8) {
            pack16<T> d = ld16(dout + (size_t)r * C + c);
            if (inp) {
                pack16<T> x = ld16(inp + (size_t)r * C + c);
                float mu = mean[r], rs = rstd[r];
#pragma unroll
                for (int k = 0; k < V; k++)
                    aw[k] += tof(d.t[k]) * (tof(x.t[k]) - mu) * rs;
            }
#pragma unroll
            for (int k = 0; k < V; k++)
                ab[k] += tof(d.t[k]);
        }
#pragma unroll
    for (int k = 0; k < V; k++) {
        sw[threadIdx.y][threadIdx.x * V + k] = aw[k];
        sb[threadIdx.y][threadIdx.x * V + k] = ab[k];
    }
    __syncthreads();
    if (threadIdx.y == 0 && c < C)
#pragma unroll
        for (int k = 0; k < V; k++) {
            float w = aw[k], b = ab[k];
            for (int j = 1; j < 8; j++) {
                w += sw[j][threadIdx.x * V + k];
                b += sb[j][threadIdx.x * V + k];
            }
            part[(size_t)chunk * 2 * C + c + k] = w;
            part[(size_t)chunk * 2 * C + C + c + k] = b;
        }
}

static inline int colsum_chunks(int N) { return N < COLSUM_CHUNKS * 8 ? (N + 7) / 8 : COLSUM_CHUNKS; }
/* Scratch part: [COLSUM_CHUNKS, 2C] floats. */
template <typename T>
static void colsum(float *dw, float *db, const T *dout, const T *inp, const float *mean, const float *rstd, int N, int C,
                   float *part, cudaStream_t s)
{
    int chunks = colsum_chunks(N);
    constexpr int V = 16 / sizeof(T);
    if (C % V == 0 && aligned16(dout) && (!inp || aligned16(inp)))
        colsum_partial_vec_kernel<<<dim3(cdiv(C, 32 * V), chunks), dim3(32, 8), 0, s>>>(part, dout, inp, mean, rstd, N,
                                                                                        C);
    else
        colsum_partial_kernel<<<dim3(cdiv(C, 32), chunks), dim3(32, 8), 0, s>>>(part, dout, inp, mean, rstd, N, C);
    CUDA_LAUNCHED();
    colsum_finish_kernel<<<cdiv(C, 256), 256, 0, s>>>(dw, db, part, chunks, C);
    CUDA_LAUNCHED();
}
/* dbias[OC] += column sums of dout [N, OC] (the bias gradient of a linear layer). */
template <typename T> static void bias_backward(float *dbias, const T *dout, int N, int OC, float *part, cudaStream_t s)
{
    colsum<T>((float *)NULL, dbias, dout, (const T *)NULL, (const float *)NULL, (const float *)NULL, N, OC, part, s);
}
/* The same with 16-byte accesses (C a multiple of 16 / sizeof(T), rows aligned). */
template <typename T>
__global__ void layernorm_backward_dx_vec_kernel(T *dinp, const T *dout, const T *inp, const T *w, const float *mean,
                                                 const float *rstd, int N, int C)
{
    constexpr int V = 16 / sizeof(T);
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= N)
        return;
    const T *x = inp + (size_t)row * C, *dy = dout + (size_t)row * C;
    T *dx = dinp + (size_t)row * C;
    float mu = mean[row], rs = rstd[row], dm = 0, dnm = 0;
    for (int c = lane * V; c < C; c += 32 * V) {
        pack16<T> xv = ld16(x + c), dyv = ld16(dy + c), wv = ld16(w + c);
#pragma unroll
        for (int k = 0; k < V; k++) {
            float norm = (tof(xv.t[k]) - mu) * rs, dn = tof(wv.t[k]) * tof(dyv.t[k]);
            dm += dn;
            dnm += dn * norm;
        }
    }
    dm = warp_sum(dm) / C;
    dnm = warp_sum(dnm) / C;
    for (int c = lane * V; c < C; c += 32 * V) {
        pack16<T> xv = ld16(x + c), dyv = ld16(dy + c), wv = ld16(w + c), dxv = ld16(dx + c);
#pragma unroll
        for (int k = 0; k < V; k++) {
            float norm = (tof(xv.t[k]) - mu) * rs, dn = tof(wv.t[k]) * tof(dyv.t[k]);
            dxv.t[k] = fromf<T>(tof(dxv.t[k]) + (dn - dm - norm * dnm) * rs);
        }
        st16(dx + c, dxv);
    }
}

template <typename T>
static void layernorm_backward(T *dinp, float *dw, float *db, const T *dout, const T *inp, const T *w,
                               const float *mean, const float *rstd, int N, int C, float *part, cudaStream_t s)
{
    if (C % (16 / sizeof(T)) == 0 && aligned16(dinp) && aligned16(dout) && aligned16(inp) && aligned16(w))
        layernorm_backward_dx_vec_kernel<<<cdiv(N, 8), 256, 0, s>>>(dinp, dout, inp, w, mean, rstd, N, C);
    else
        layernorm_backward_dx_kernel<<<cdiv(N, 8), 256, 0, s>>>(dinp, dout, inp, w, mean, rstd, N, C);
    CUDA_LAUNCHED();
    colsum(dw, db, dout, inp, mean, rstd, N, C, part, s);
}

#endif

/* encoder.cuh - token + position embedding, forward and backward.
 * CPU reference: encoder_forward / encoder_backward in train/cpu/kernels.c.
 * The backward is deterministic without atomics: the host groups the batch's
 * positions by token (the inputs are on the host anyway), and one block per
 * distinct token sums its positions' gradients in position order. */
#ifndef TRAIN_CUDA_ENCODER_CUH
#define TRAIN_CUDA_ENCODER_CUH
#include "train/cuda/common.cuh"

template <typename T>
__global__ void encoder_forward_kernel(T *out, const int *inp, const T *wte, const T *wpe, int BT, int Tn, int C)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (size_t)BT * C)
        return;
    int bt = (int)(i / C), c = (int)(i % C);
    out[i] = fromf<T>(tof(wte[(size_t)inp[bt] * C + c]) + tof(wpe[(size_t)(bt % Tn) * C + c]));
}
template <typename T>
static void encoder_forward(T *out, const int *inp, const T *wte, const T *wpe, int B, int Tn, int C, cudaStream_t s)
{
    size_t n = (size_t)B * Tn * C;
    encoder_forward_kernel<<<cdiv(n, 256), 256, 0, s>>>(out, inp, wte, wpe, B * Tn, Tn, C);
    CUDA_LAUNCHED();
}

/* dwpe[t, c] += sum over b of dout[b, t, c] (b in order). */
template <typename T> __global__ void encoder_backward_wpe_kernel(float *dwpe, const T *dout, int B, int Tn, int C)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (size_t)Tn * C)
        return;
    float s = 0;
    for (int b = 0; b < B; b++)
        s += tof(dout[(size_t)b * Tn * C + i]);
    dwpe[i] += s;
}
/* Block u: token tok[u], whose positions are pos[off[u] .. off[u+1]). */
template <typename T>
__global__ void encoder_backward_wte_kernel(float *dwte, const T *dout, const int *tok, const int *off, const int *pos,
                                            int C)
{
    int u = blockIdx.x, a = off[u], b = off[u + 1];
    float *w = dwte + (size_t)tok[u] * C;
    for (int c = threadIdx.x; c < C; c += blockDim.x) {
        float s = 0;
        for (int k = a; k < b; k++)
            s += tof(dout[(size_t)pos[k] * C + c]);
        w[c] += s;
    }
}
/* groups: from encoder_group (device copies of tok[nu], off[nu+1], pos[BT]). */
template <typename T>
static void encoder_backward(float *dwte, float *dwpe, const T *dout, const int *tok, const int *off, const int *pos,
                             int nu, int B, int Tn, int C, cudaStream_t s)
{
    encoder_backward_wpe_kernel<<<cdiv((size_t)Tn * C, 256), 256, 0, s>>>(dwpe, dout, B, Tn, C);
    CUDA_LAUNCHED();
    if (nu > 0) {
        encoder_backward_wte_kernel<<<nu, C < 256 ? 128 : 256, 0, s>>>(dwte, dout, tok, off, pos, C);
        CUDA_LAUNCHED();
    }
}

/* Host: group the BT positions of inp by token (counting sort; positions stay in
 * order within a token). buf: [3 * BT + 1] ints laid out tok | off | pos. Returns nu. */
static inline int encoder_group(const int *inp, int BT, int *count /* [V] zeroed scratch */, int *tok, int *off,
                                int *pos)
{
    int nu = 0;
    for (int i = 0; i < BT; i++)
        if (count[inp[i]]++ == 0)
            tok[nu++] = inp[i];
    /* tokens in first-seen order; offsets by a prefix sum over that order */
    off[0] = 0;
    for (int u = 0; u < nu; u++) {
        off[u + 1] = off[u] + count[tok[u]];
        count[tok[u]] = off[u]; /* now the next free slot */
    }
    for (int i = 0; i < BT; i++)
        pos[count[inp[i]]++] = i;
    for (int u = 0; u < nu; u++)
        count[tok[u]] = 0;
    return nu;
}

#endif

/* cudnn_attention.h - causal self-attention through cuDNN's fused (flash)
 * attention, the "fused" attention backend (Megatron's --attention-backend
 * fused: Transformer Engine's FusedAttention is this cuDNN kernel).
 *
 * Same contract as attention.cuh: qkv [B, T, 3C] with q, k, v of NH heads of
 * hs = C/NH read in place (strided: no permute), out [B, T, C], and the
 * per-row log-sum-exp of the scaled scores [B, NH, T] in fp32 (cuDNN's softmax
 * statistics), which the backward takes back; dqkv [B, T, 3C] written in place.
 * No T x T matrix is ever held. The backward is cuDNN's deterministic algorithm,
 * so two runs give identical gradients. 16-bit storage only (bf16 / fp16), as in
 * cuDNN; fp32 runs take the batched-GEMM path.
 *
 * Built when the cuDNN frontend headers are found (scripts/setup/install_deps.sh
 * fetches them; the Makefile defines WEBTEXT_CUDNN). The graphs are built once
 * per shape (slow: cuDNN compiles kernels) and cached. This file is host C++
 * only (g++), so the large frontend headers are compiled once, not per GPU
 * architecture. CPU reference: attention_forward / attention_backward in
 * train/cpu/kernels.c. */
#ifndef TRAIN_CUDA_CUDNN_ATTENTION_H
#define TRAIN_CUDA_CUDNN_ATTENTION_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { CUDNN_ATT_BF16 = 1, CUDNN_ATT_FP16 = 2 };

/* Build (or find) the forward and backward graphs for this shape on GPU 0.
 * 0, or -1 with the reason in why (cuDNN too old, head size not supported,
 * no GPU support): the caller then takes another attention backend. */
int cudnn_attention_prepare(int dtype, int B, int T, int NH, int hs, char *why, size_t n);
/* Forward on stream (a cudaStream_t). lse may be NULL (inference: no statistics). */
void cudnn_attention_forward(int dtype, void *out, float *lse, const void *qkv, int B, int T, int NH, int hs,
                             void *stream);
/* Backward: dqkv (overwritten) from dout, the forward's out and lse. */
void cudnn_attention_backward(int dtype, void *dqkv, const void *dout, const void *qkv, const void *out,
                              const float *lse, int B, int T, int NH, int hs, void *stream);
/* Device bytes held by the attention workspace. */
size_t cudnn_attention_workspace(void);
/* The cuDNN library version in use (e.g. 91900), 0 when it cannot be loaded. */
long cudnn_attention_version(void);

#ifdef __cplusplus
}
#endif
#endif

/* build_info.cu - what the CUDA part of this build was compiled with, for
 * `train --version`: the CUDA toolkit, the GPU architectures its kernels were
 * built for (nvcc's __CUDA_ARCH_LIST__), cuDNN and NCCL when linked. Compile-time
 * facts only: it asks no driver, so it answers on a machine without a GPU. */
#include <cuda_runtime_api.h>
#include <stdio.h>

#ifdef WEBTEXT_CUDNN
#include <cudnn_version.h>
#endif
#ifdef WEBTEXT_NCCL
#include <nccl.h>
#endif

#define BI_STR2(...) #__VA_ARGS__
#define BI_STR(...) BI_STR2(__VA_ARGS__)

extern "C" void cuda_build_info(char *cuda, size_t nc, char *archs, size_t na, char *cudnn, size_t nd, char *nccl,
                                size_t nn)
{
    snprintf(cuda, nc, "yes (CUDA %d.%d, cuBLAS/cuBLASLt)", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    /* __CUDA_ARCH_LIST__: "800,900" (nvcc 11.5+) */
#ifdef __CUDA_ARCH_LIST__
    const char *list = BI_STR(__CUDA_ARCH_LIST__);
    size_t k = 0;
    archs[0] = 0;
    for (const char *p = list; *p && k + 8 < na;) {
        int v = 0;
        while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
        while (*p && (*p < '0' || *p > '9')) p++;
        k += (size_t)snprintf(archs + k, na - k, "%ssm_%d", k ? " " : "", v / 10);
    }
#else
    snprintf(archs, na, "unknown (nvcc older than 11.5)");
#endif
#ifdef WEBTEXT_CUDNN
    snprintf(cudnn, nd, "yes (cuDNN %d.%d.%d: fused attention)", CUDNN_MAJOR, CUDNN_MINOR, CUDNN_PATCHLEVEL);
#else
    snprintf(cudnn, nd, "no (cuDNN or its frontend headers were not found when this was built)");
#endif
#ifdef WEBTEXT_NCCL
    snprintf(nccl, nn, "yes (NCCL %d.%d.%d)", NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH);
#else
    snprintf(nccl, nn, "no (nccl.h was not found when this was built)");
#endif
}

/* build_info.c - what this build of the trainer has, printed by --version of
 * train, generate and convert_checkpoint: MPI, OpenMP, the BLAS and the kernels
 * it runs here, CUDA with its GPU architectures, cuDNN and NCCL. The GPU suite
 * (scripts/gpu/gpu_suite.sh) reads these lines and refuses a build that lacks a
 * part it needs. */
#include "train/build_info.h"

#include <stdio.h>

#include "train/cpu/blas.h"
#include "train/parallel/dist.h"

#ifdef WEBTEXT_CUDA
void cuda_build_info(char *cuda, size_t nc, char *archs, size_t na, char *cudnn, size_t nd, char *nccl, size_t nn);
#endif

void train_build_info(void)
{
    char blas[256];
    blas_describe(blas, sizeof blas, NULL);
    printf("MPI: %s\n", dist_mpi_info());
#ifdef _OPENMP
    printf("OpenMP: yes (%d)\n", _OPENMP);
#else
    printf("OpenMP: no (the compiler had no -fopenmp: one thread)\n");
#endif
    printf("BLAS: %s\n", blas);
#ifdef WEBTEXT_CUDA
    char cuda[96], archs[128], cudnn[96], nccl[96];
    cuda_build_info(cuda, sizeof cuda, archs, sizeof archs, cudnn, sizeof cudnn, nccl, sizeof nccl);
    printf("CUDA: %s\nGPU architectures: %s\ncuDNN: %s\nNCCL: %s\n", cuda, archs, cudnn, nccl);
#else
    printf("CUDA: no (nvcc was not found when this was built: --device cpu and checked only)\n"
           "GPU architectures: none\ncuDNN: no\nNCCL: no\n");
#endif
}

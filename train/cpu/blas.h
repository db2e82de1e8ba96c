/* blas.h - which BLAS the CPU kernels run on, and making sure it runs the
 * kernels this CPU can: OpenBLAS built with DYNAMIC_ARCH (Debian's) picks its
 * kernels from a table of CPU models as it loads, and falls back to its SSE3
 * "Prescott" kernels on a CPU newer than the library (OpenBLAS 0.3.21 on
 * several AVX-512 Xeons: 3-4x slower). A constructor in blas.c, run after the
 * library's own initialiser and before main(), compares the library's choice
 * with what cpuid and the OS offer (AVX2+FMA, AVX-512) and re-initialises
 * OpenBLAS with the matching kernels (Haswell or Zen, SkylakeX) when the
 * library chose weaker ones. OPENBLAS_CORETYPE set by the user is respected.
 */
#ifndef TRAIN_CPU_BLAS_H
#define TRAIN_CPU_BLAS_H

#include <stddef.h>

/* The widest vector level of a CPU or of a kernel set: 0 unknown, 1 SSE
 * (Prescott, Core2, Nehalem, ...), 2 AVX (Sandybridge, Bulldozer, ...),
 * 3 AVX2 + FMA (Haswell, Zen, ...), 4 AVX-512 (SkylakeX, Cooperlake, ...). */
enum { BLAS_LEVEL_UNKNOWN, BLAS_LEVEL_SSE, BLAS_LEVEL_AVX, BLAS_LEVEL_AVX2, BLAS_LEVEL_AVX512 };

/* The level of an OpenBLAS core name (case-insensitive); 0 for a name not known. */
int blas_core_level(const char *core);

/* The OpenBLAS core to force for a CPU of this level and vendor (amd != 0: AMD),
 * or NULL when the library's core (lib_core) is already as wide as the CPU, or
 * is not a name we know (then it is left alone). Pure: the unit test's entry. */
const char *blas_core_for(const char *lib_core, int cpu_level, int amd);

/* This CPU's level as cpuid and the OS's saved state (XGETBV) allow, and whether
 * its vendor is AMD. */
int blas_cpu_level(int *amd);

/* Compare the library's kernels with the CPU and re-initialise OpenBLAS with
 * wider ones when it fell back (what the constructor does; callable again, as
 * the test does). 1 when it changed the kernels, 0 otherwise. */
int blas_fix_core(void);

/* One line for start-up logs and benchmarks: the library, its version and
 * threading, the kernels it runs and, when they were changed or forced, why.
 * e.g. "OpenBLAS 0.3.21 (openmp), kernels Haswell for this CPU's AVX2 (the
 * library chose Prescott)". *slow is set to 1 when the kernels are narrower
 * than this CPU allows (OPENBLAS_CORETYPE forcing them). */
void blas_describe(char *buf, size_t n, int *slow);

#endif

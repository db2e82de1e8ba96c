#!/usr/bin/env bash
# configure.sh - probe what this machine has for the build and write it as make
# variables into build/config.mk, which the Makefile includes.
#
#   scripts/setup/configure.sh OUT [CC]
#
# The Makefile runs it right after scripts/setup/install_deps.sh, as the recipe of the
# included build/config.mk, so that every target (make, make tools, make train,
# make test-bins, make bench, make fuzz, ...) sees what the installer has just
# put on the machine: a first build is the same build a second run would make.
# OUT is rewritten only when a probe's answer changed; every object depends on
# it, so a machine that gains or loses MPI, OpenMP, CUDA, cuDNN or NCCL is
# rebuilt whole, never half with the old answer.
set -u
out=${1:?usage: scripts/setup/configure.sh OUT [CC]}
cc=${2:-cc}
yn() { if "$@" >/dev/null 2>&1; then echo yes; else echo no; fi; }

nvcc=$(command -v nvcc 2>/dev/null || true)
have_nvcc=$([ -n "$nvcc" ] && echo yes || echo no)
cuda_home=${nvcc%/bin/nvcc}
have_nccl=no
for h in /usr/include/nccl.h /usr/local/include/nccl.h /usr/local/cuda/include/nccl.h ${cuda_home:+$cuda_home/include/nccl.h}; do
  [ -e "$h" ] && have_nccl=yes
done
have_mpi=$(yn command -v mpicc)
mpi_cflags="" mpi_libs=""
if [ "$have_mpi" = yes ]; then
  mpi_cflags=$(mpicc --showme:compile 2>/dev/null || true)
  mpi_libs=$(mpicc --showme:link 2>/dev/null || true)
fi
have_openmp=$(echo 'int main(void){return 0;}' | yn "$cc" -fopenmp -x c - -o /dev/null)
have_fuzz=no
if command -v clang >/dev/null 2>&1; then
  have_fuzz=$(printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t*d,size_t n){(void)d;(void)n;return 0;}' |
    yn clang -fsanitize=fuzzer -x c - -o /dev/null)
fi
have_help2man=$(yn command -v help2man)
# Profile-guided optimisation of the cleanup chain (the Makefile's PGO): GCC 12's
# -fprofile-prefix-path and -dumpbase name the counts files (clang's PGO works otherwise).
have_pgo=$(echo 'int main(void){return 0;}' |
  yn "$cc" -fprofile-generate=/tmp -fprofile-prefix-path=/ -dumpbase x.c -x c - -o /dev/null)
# cuDNN: the library next to nvcc's CUDA (or Debian's), and the frontend headers
# scripts/setup/install_deps.sh fetched into build/third_party.
cudnn_fe_inc=$(ls -d build/third_party/cudnn_frontend-*/include 2>/dev/null | head -1)
cudnn_libdir=""
for l in ${cuda_home:+$cuda_home/lib64/libcudnn.so $cuda_home/lib/libcudnn.so} /usr/lib/x86_64-linux-gnu/libcudnn.so; do
  if [ -e "$l" ]; then cudnn_libdir=${l%/libcudnn.so}; break; fi
done

tmp=$(mktemp "$out.XXXXXX")
cat > "$tmp" <<EOF
# build/config.mk - what scripts/setup/configure.sh found on this machine, after
# scripts/setup/install_deps.sh ran. Written by the build; do not edit (make rewrites it).
CONF_HAVE_NVCC := $have_nvcc
CONF_CUDA_HOME := $cuda_home
CONF_HAVE_NCCL := $have_nccl
CONF_HAVE_MPI := $have_mpi
CONF_MPI_CFLAGS := $mpi_cflags
CONF_MPI_LIBS := $mpi_libs
CONF_HAVE_OPENMP := $have_openmp
CONF_HAVE_FUZZ := $have_fuzz
CONF_HAVE_HELP2MAN := $have_help2man
CONF_HAVE_PGO := $have_pgo
CONF_CUDNN_FE_INC := $cudnn_fe_inc
CONF_CUDNN_LIBDIR := $cudnn_libdir
EOF
if [ -e "$out" ] && cmp -s "$tmp" "$out"; then
  rm -f "$tmp"
else
  mv -f "$tmp" "$out"
  cudnn=$([ -n "$cudnn_fe_inc" ] && [ -n "$cudnn_libdir" ] && echo yes || echo no)
  echo "configure: $out: nvcc $have_nvcc, NCCL $have_nccl, cuDNN $cudnn, MPI $have_mpi, OpenMP $have_openmp, libFuzzer $have_fuzz, help2man $have_help2man" >&2
fi

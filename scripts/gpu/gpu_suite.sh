#!/usr/bin/env bash
# gpu_suite.sh - every GPU check of the parallel model (issue 25) in one command,
# so that a session lent a GPU spends its minutes on results, not set-up.
#
#   scripts/gpu/gpu_suite.sh prepare   (here, on the development machine: network, no GPU)
#       builds the release with nvcc (make tools test-bins), and puts in
#       build/gpu-carry/ what the GPU machine lacks and cannot download (it
#       reaches no network and has no MPI): Debian's .debs of OpenMPI and of the
#       runtime libraries bin/train links (OpenBLAS, cJSON, PCRE2, ...), to be
#       unpacked there into a folder, never over /. Prints the device call.
#   scripts/gpu/gpu_suite.sh run       (there; writes its logs under $OUT)
#       unpacks the .debs into /tmp/gpu-carry, then runs, each step logged:
#         1. nvidia-smi; the CUDA kernel tests against the CPU references, the table's
#            model against the CPU table, and training against the CPU (make test-gpu's checks);
#         2. the layouts on one GPU with several ranks (mpirun -np 2..8,
#            --device cuda, staged communicator): tp 2 + sp, pp 2, interleaved
#            pp 2 x 2, dp 2 ZeRO-2 and ZeRO-3 (and with --overlap-grad-reduce
#            --overlap-param-gather; one rank of it on NCCL, a group of one, for
#            the side stream), dp 2 ZeRO-0 and ZeRO-1 (and pp 2 x dp 2) with --overlap-grad-reduce, --cpu-offload
#            at one rank and dp 2, tp 2 x pp 2 x dp 2, each against
#            one GPU process (fp32: 1e-4 relative; bf16: 2e-2, see docs/parallel.md);
#         3. a checkpoint saved by tp 2 x pp 2 x dp 2 on the GPU, resumed in one CPU
#            process, continuing the loss curve (1e-4 against the GPU's own);
#         4. the GPU memory each rank holds for ZeRO-1/2/3 and tp 2 (the trainer's
#            "GPU memory held" line) beside the formulas;
#         5. tokens/s and MFU at 124M and 1.5B against PyTorch (bench/bench_gpu.sh);
#         6. where the time goes at 124M (WEBTEXT_PROFILE=1 and =events), and --cpu-offload's speed;
#         7. tp 2 and pp 2 (ranks sharing the GPU) in bf16 with WEBTEXT_PROFILE=1: the step
#            split into compute, collectives, point to point and the schedule's bubble.
#       summary.txt lists PASS / FAIL per check.
#   SUITE_DEVICE=checked scripts/gpu/gpu_suite.sh run   (here, no GPU: the same steps 2-4 and 7 on
#       the device-discipline table, to check the suite itself; 1, 5 and 6 are left out)
#   scripts/gpu/gpu_suite.sh trim | untrim   (here, around the call: the working tree under the
#       device's 64 MiB; see below)
# Device call (its carry: the build and the .debs), between trim and untrim:
#   run(command="bash scripts/gpu/gpu_suite.sh run", carry=["bin/train", "bin/preprocess_data", "build/rel/tests/gpu/test_cuda_kernels", "build/rel/tests/gpu/test_ops_cuda", "build/gpu-carry"], timeout_s=540)
# with ["bin/train", "bin/preprocess_data", "build/rel/tests/gpu/test_cuda_kernels", "build/rel/tests/gpu/test_ops_cuda", "build/gpu-carry"] the files the steps run (the whole bin/ and the tests' objects pass the device's
# 64 MiB): the line `prepare` prints, which checks the sum.
set -uo pipefail
cd "$(dirname "$0")/../.."
CARRY=build/gpu-carry
mode=${1:-}

# require_build PART...: bin/train --version must say "PART: yes" for each (MPI, OpenMP,
# CUDA, cuDNN, NCCL) and list sm_90 among its GPU architectures when CUDA is asked for;
# a build that lacks one is refused, naming it (a first build once lacked MPI and cuDNN
# unnoticed, and the suite passed dp 2 runs that had each trained alone).
require_build() {
  local v missing="" p
  v=$(bin/train --version 2>&1) || { echo "gpu_suite: bin/train --version failed: $v" >&2; return 1; }
  for p in "$@"; do
    echo "$v" | grep -q "^$p: yes" || missing="$missing $p"
  done
  case " $* " in *" CUDA "*) echo "$v" | grep -q "^GPU architectures:.*sm_90" || missing="$missing sm_90";; esac
  if [ -n "$missing" ]; then
    echo "gpu_suite: bin/train lacks:$missing; it says:" >&2; echo "$v" | sed 's/^/  /' >&2
    echo "gpu_suite: run 'make tools test-bins' (it installs what is missing first) and check 'bin/train --version'" >&2
    return 1
  fi
}

if [ "$mode" = prepare ]; then
  make -j"$(nproc)" tools test-bins || exit 1
  require_build MPI OpenMP CUDA cuDNN NCCL || exit 1
  rm -rf "$CARRY"; mkdir -p "$CARRY/debs"
  # The packages of the libraries bin/train and the GPU tests link, less the C library and
  # CUDA's (the GPU machine has its own), then OpenMPI and what it needs.
  libs=$(for f in bin/train build/rel/tests/gpu/test_*; do [ -x "$f" ] && ldd "$f"; done | awk '/=> \//{print $3}' | sort -u |
         grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libgcc_s|libstdc\+\+)\.so|cuda|nvidia|libcu|libnccl|libcudnn|libnv')
  pk=$(for l in $libs; do dpkg -S "$(readlink -f "$l")" 2>/dev/null || dpkg -S "$l" 2>/dev/null; done | cut -d: -f1 | sort -u)
  mpi=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
        openmpi-bin libopenmpi3 openmpi-common | grep -v '^ \|<' | sort -u)
  base='libc6|libgcc-s1|libstdc\+\+6|gcc-12-base|zlib1g|debconf|perl-base|dpkg|tar|coreutils|base-files|debianutils|openssh-client|adduser|passwd|init-system-helpers|lsb-base|sysvinit-utils|util-linux.*|login|procps|libsystemd.*|libudev1|libselinux1|libpcre2-8-0|libcrypt1|libpam.*|libaudit.*|libcap.*|libsemanage.*|libsepol2|libdb5.3|libssl3|libgcrypt20|libgpg-error0|liblz4-1|liblzma5|libbz2-1.0|libzstd1|libacl1|libattr1|libgmp10|libkrb5.*|libgssapi.*|libk5crypto3|libkeyutils1|libcom-err2|libtirpc.*|libx11.*|libxcb1|libxau6|libxdmcp6|libxext6|libbsd0|libmd0|libtinfo6|libncursesw6|libedit2|libfido2-1|libcbor0.8|libsqlite3-0|libffi8|libgnutls30|libhogweed6|libnettle8|libidn2-0|libunistring2|libp11-kit0|libtasn1-6|mawk|sensible-utils|ucf|libxml2|libicu72|libdebconfclient0|libsmartcols1|libblkid1|libmount1|libuuid1|libproc2-0|cdebconf|install-info|libnewt.*|libslang2|libtextwrap1|libdebian-installer4|readline-common|libreadline8'
  pk=$(printf '%s\n' $pk $mpi | sort -u | grep -v -x -E "$base")
  (cd "$CARRY/debs" && apt-get download $pk) || { echo "gpu_suite: apt-get download failed" >&2; exit 1; }
  cp -r build/third_party "$CARRY/" 2>/dev/null || true
  carry="bin/train bin/preprocess_data build/rel/tests/gpu/test_cuda_kernels build/rel/tests/gpu/test_ops_cuda $CARRY"
  kb=$(du -skc $carry | tail -1 | cut -f1)
  echo "gpu_suite: $(ls "$CARRY/debs" | wc -l) packages, $(du -sh "$CARRY" | cut -f1) in $CARRY; the carry in all $((kb / 1024)) MiB (the device carries 64 MiB)"
  [ "$kb" -le $((64 * 1024)) ] || { echo "gpu_suite: the carry is over the device's 64 MiB" >&2; exit 1; }
  echo 'device call: run(command="bash scripts/gpu/gpu_suite.sh run", carry=["bin/train", "bin/preprocess_data", "build/rel/tests/gpu/test_cuda_kernels", "build/rel/tests/gpu/test_ops_cuda", "build/gpu-carry"], timeout_s=540)'
  exit 0
fi

# trim / untrim (here): the device copies the working tree (tracked and untracked files) and takes
# 64 MiB in all with the carry; the fuzz corpora, the data corpus, third_party and most fixtures
# are over it. trim takes them out of the index and ignores them (.git/info/exclude, a marked
# block) for the call; untrim puts them back. Keeps tests/fixtures/cc and gptdata (the suite's).
TRIM_MARK="# gpu_suite trim"
if [ "$mode" = trim ]; then
  P="tests/fuzz data/corpus third_party bench/extract $(ls -d tests/fixtures/* | grep -v -E '/(cc|gptdata)$' | tr '\n' ' ')"
  git rm -r -q --cached $P || exit 1
  { echo "$TRIM_MARK"; printf '%s\n' $P; echo "$TRIM_MARK end"; } >> .git/info/exclude
  echo "gpu_suite: the working tree the device copies: $(git ls-files -co --exclude-standard | xargs -d '\n' stat -c %s 2>/dev/null |
        awk '{s += $1} END {printf "%.1f MiB", s / 1048576}'); run 'scripts/gpu/gpu_suite.sh untrim' after the call"
  exit 0
fi
if [ "$mode" = untrim ]; then
  git reset -q && sed -i "/^$TRIM_MARK\$/,/^$TRIM_MARK end\$/d" .git/info/exclude && git status --short | head -5
  exit 0
fi

# run: steps 1-7; run-checks: 1-4; run-bench: 5-7 (two device calls when one would pass 10 minutes)
case "$mode" in run) steps="1 2 3 4 5 6 7";; run-checks) steps="1 2 3 4";; run-bench) steps="5 6 7";;
  *) echo "usage: scripts/gpu/gpu_suite.sh prepare|trim|untrim|run|run-checks|run-bench (see the header)" >&2; exit 2;; esac
steps=${SUITE_STEPS:-$steps} # e.g. SUITE_STEPS="2 6": only those
step() { case " $steps " in *" $1 "*) return 0;; esac; return 1; }

OUT=${OUT:-$(mktemp -d)}; mkdir -p "$OUT"
LOG=$OUT/suite.log SUM=$OUT/summary.txt
: > "$SUM"
say() { echo "$*" | tee -a "$SUM"; }
ok() { say "PASS $1"; }
bad() { say "FAIL $1${2:+: $2}"; }
exec > >(tee -a "$LOG") 2>&1
DEV=${SUITE_DEVICE:-cuda}
R=/tmp/gpu-carry
if [ -d "$CARRY/debs" ]; then
  rm -rf "$R"; mkdir -p "$R"
  for f in "$CARRY"/debs/*.deb; do dpkg -x "$f" "$R"; done
  export PATH="$R/usr/bin:$PATH" LD_LIBRARY_PATH="$R/usr/lib/x86_64-linux-gnu:$R/usr/lib/x86_64-linux-gnu/openmpi/lib:$R/usr/lib/x86_64-linux-gnu/blas:$R/usr/lib/x86_64-linux-gnu/lapack:$R/usr/lib/x86_64-linux-gnu/openblas-openmp:${LD_LIBRARY_PATH:-}"
  export OPAL_PREFIX="$R/usr"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
[ "$DEV" = cuda ] && { nvidia-smi -L; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; }
bin/train --version
if [ "$DEV" = cuda ]; then need="MPI OpenMP CUDA cuDNN NCCL"; else need="MPI OpenMP"; fi
require_build $need || { bad build "bin/train lacks a part the suite needs (see above)"; say "done: 0 passed, 1 failed"; exit 1; }
command -v mpirun >/dev/null && mpirun --version | head -1 || bad mpirun "not found after unpacking"
ldd bin/train | grep 'not found' && bad libraries "bin/train misses libraries (see suite.log)"

# 1. kernels and single-GPU training against the CPU references
for t in build/rel/tests/gpu/test_*; do
  [ "$DEV" = cuda ] && step 1 || break
  case "$t" in *.o|*.d) continue;; esac
  [ -x "$t" ] || continue
  if "$t" > "$OUT/t.log" 2>&1; then ok "$(basename "$t") ($(grep -c '^PASS' "$OUT/t.log") checks)"
  else bad "$(basename "$t")" "$(grep '^FAIL' "$OUT/t.log" | head -3 | tr '\n' ' ')"; fi
  cat "$OUT/t.log"
done
# ... and training end to end against the CPU (tests/gpu/test_train_cuda.sh: precisions, attention
# backends, offload, NCCL with a group of one, resume, fp16 scaling, out of memory); it needs
# tests/fixtures/gptdata in the working tree the device copies
if [ "$DEV" = cuda ] && step 1; then
  if [ -d tests/fixtures/gptdata ]; then
    BIN=bin bash tests/gpu/test_train_cuda.sh > "$OUT/t.log" 2>&1
    if ! grep -q '^FAIL' "$OUT/t.log" && grep -q '^PASS' "$OUT/t.log"; then ok "test_train_cuda.sh ($(grep -c '^PASS' "$OUT/t.log") checks)"
    else bad test_train_cuda.sh "$(grep '^FAIL' "$OUT/t.log" | head -3 | tr '\n' ' ')"; fi
    cat "$OUT/t.log"
  else bad test_train_cuda.sh "tests/fixtures/gptdata is not in the working tree here"; fi
fi
rm -f "$OUT/t.log"

# 2. the layouts on one GPU, several ranks, against one GPU process
W=$(mktemp -d)
cat tests/fixtures/cc/dolma_cc_en_head-0091.jsonl > "$W/text.jsonl"
bin/preprocess_data --input "$W/text.jsonl" --output-prefix "$W/d" --append-eod -q >/dev/null
M="--num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 64 --micro-batch-size 2 --global-batch-size 16
   --lr 1e-3 --train-iters 12 --log-interval 1 --eval-iters 0 --split 100,0,0 --data-path $W/d_text_document
   --data-cache-path $W --device $DEV"
cmpj() { python3 - "$@" <<'PY'
import json, math, sys
a, b, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
r = lambda p: {x["iteration"]: x for x in map(json.loads, open(p)) if "lm_loss" in x}
ra, rb = r(a), r(b); ks = sorted(set(ra) & set(rb))
w, fin = 0.0, 0
for k in ks:
    for f in ("lm_loss", "grad_norm"):
        x, y = ra[k][f], rb[k][f]
        if x is None or y is None or not (math.isfinite(x) and math.isfinite(y)):
            # a skipped fp16 step (overflow: NaN written as null, or inf): both must skip it
            same = (x is None and y is None) or (x is not None and y is not None and (x == y or (math.isnan(x) and math.isnan(y))))
            w = max(w, 0.0 if same else math.inf); continue
        fin += 1; w = max(w, abs(x - y) / max(abs(x), 1e-30))
print(f"{len(ks)} iterations ({fin // 2} compared, the rest skipped by both), worst relative difference {w:.2e} (tolerance {tol:g})")
sys.exit(0 if fin >= 10 and w <= tol else 1)
PY
}
# fp16 starts its dynamic loss scale at 2^16 (Megatron's default 2^32 skips the first ~16
# steps of a 12-step run on overflows; the CPU tests cover that back-off)
pflag() { case $1 in bf16) echo --bf16;; fp16) echo --fp16 --initial-loss-scale 65536;; esac; }
ptol() { case $1 in bf16) echo 1e-2;; fp16) echo 2e-3;; *) echo 1e-4;; esac; }
# The reference of a layout: one GPU process of the same model (the parallel model on the
# CUDA operation table) in the same precision. Tolerances: fp32
# 1e-4; bf16 1e-2 and fp16 2e-3, what the CPU tables allow (docs/parallel.md: measured
# 1.05e-3 / 4.1e-4 there): a layout changes the shapes of the products, so the fp32 sums
# inside them round differently before the result is rounded to 8 or 11 bits.
ref_of() { # PRECISION -> path of the one-process log
  local prec=$1 ref="$W/single_$1.jsonl"
  if [ ! -f "$ref" ]; then
    bin/train $M $(pflag "$prec") --log-json "$ref" > "$W/ref_$prec.out" 2>&1 ||
      { bad "single_$prec" "$(tail -2 "$W/ref_$prec.out" | tr '\n' ' ')"; rm -f "$ref"; return 1; }
  fi
  echo "$ref"
}
layout() { # NAME NP PRECISION FLAGS...
  local n=$1 np=$2 prec=$3; shift 3
  local ref tol; tol=$(ptol "$prec"); ref=$(ref_of "$prec") || return
  if mpirun -np "$np" bin/train $M $(pflag "$prec") "$@" --log-json "$W/${n}_$prec.jsonl" > "$W/${n}_$prec.out" 2>&1; then
    grep -E '^> (device|communicators|parallel layout)|GPU memory held' "$W/${n}_$prec.out" | head -4 | cut -c1-160
    # the run must have been the layout it was launched as: one log, world NP over MPI
    if [ "$(grep -c '^> parallel layout: world '"$np"' = .*(MPI)' "$W/${n}_$prec.out")" != 1 ]; then
      bad "$n $prec" "not run as $np ranks: $(grep -m1 'parallel layout' "$W/${n}_$prec.out" | cut -c1-120)"; return
    fi
    r=$(cmpj "$ref" "$W/${n}_$prec.jsonl" "$tol") && ok "$n $prec: $r" || bad "$n $prec" "$r"
  else bad "$n $prec" "$(grep -v '^\[' "$W/${n}_$prec.out" | tail -2 | tr '\n' ' ')"; fi
}
# SUITE_PRECS: the precisions of step 2 (default fp32 bf16 fp16 on a GPU, fp32 on checked)
step 2 && for prec in ${SUITE_PRECS:-fp32 $([ "$DEV" = cuda ] && echo bf16 fp16)}; do
  layout dp2 2 $prec
  layout tp2_sp 2 $prec --tensor-model-parallel-size 2 --sequence-parallel
  layout tp2_sp_recompute 2 $prec --tensor-model-parallel-size 2 --sequence-parallel --recompute-activations
  layout pp2 2 $prec --pipeline-model-parallel-size 2
  layout pp2_vpp2 2 $prec --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1
  layout dp2_zero1 2 $prec --zero-stage 1
  layout dp2_zero2 2 $prec --zero-stage 2
  layout dp2_zero3 2 $prec --zero-stage 3
  layout dp2_zero3_overlap 2 $prec --zero-stage 3 --overlap-grad-reduce --overlap-param-gather
  layout dp2_zero0_overlap 2 $prec --overlap-grad-reduce
  layout dp2_zero1_overlap 2 $prec --use-distributed-optimizer --overlap-grad-reduce
  layout pp2_dp2_zero1_overlap 4 $prec --pipeline-model-parallel-size 2 --use-distributed-optimizer --overlap-grad-reduce
  # a group of one on its own GPU takes NCCL: the overlap's side stream and events run
  layout zero3_overlap_nccl_group_of_one 1 $prec --zero-stage 3 --overlap-grad-reduce --overlap-param-gather
  layout tp2_pp2_dp2 8 $prec --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2
  # the optimizer on the CPU (the host's AdamW, the compute weights uploaded chunk by chunk)
  layout cpu_offload 1 $prec --cpu-offload
  layout dp2_cpu_offload 2 $prec --cpu-offload
done
# the one model is deterministic on a GPU (the encoder's backward grouped by token, no atomics;
# fixed reduction orders): a second run gives the same bits
if [ "$DEV" = cuda ] && step 2 && ref=$(ref_of bf16); then
  if bin/train $M $(pflag bf16) --log-json "$W/again_bf16.jsonl" > "$W/again.out" 2>&1; then
    r=$(cmpj "$ref" "$W/again_bf16.jsonl" 0) && ok "one_model_deterministic bf16: $r" || bad "one_model_deterministic bf16" "$r"
  else bad "one_model_deterministic bf16" "$(tail -2 "$W/again.out" | tr '\n' ' ')"; fi
fi

# 3. a GPU tp2 x pp2 x dp2 checkpoint resumed in one CPU process
C="${M/--train-iters 12/--train-iters 10}"
if ! step 3; then :
elif mpirun -np 8 bin/train $C --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --save "$W/ck" --exit-interval 5 > "$W/ck1.out" 2>&1 &&
   bin/train ${C/--device $DEV/--device cpu} --save "$W/ck" --load "$W/ck" > "$W/ck2.out" 2>&1 &&
   bin/train $C --log-json "$W/straight.jsonl" > "$W/ck3.out" 2>&1; then
  r=$(cmpj "$W/straight.jsonl" "$W/ck/train_log.jsonl" 1e-4) && ok "gpu_tpd_checkpoint_resumes_on_cpu: $r" || bad gpu_tpd_checkpoint_resumes_on_cpu "$r"
else bad gpu_tpd_checkpoint_resumes_on_cpu "$(cat "$W"/ck*.out | grep -v '^\[' | tail -3 | tr '\n' ' ')"; fi

# 4. GPU memory per rank: ZeRO-1/2/3 and tp 2 (124M shape), beside the formulas the trainer prints
G="--num-layers 12 --hidden-size 768 --num-attention-heads 12 --seq-length 1024 --micro-batch-size 4 --global-batch-size 16
   --lr 1e-4 --train-iters 2 --log-interval 1 --eval-iters 0 --split 100,0,0 --data-path $W/d_text_document --data-cache-path $W --device $DEV"
for pz in fp32:0: fp32:1:--zero-stage\ 1 fp32:2:--zero-stage\ 2 fp32:3:--zero-stage\ 3 fp32:tp2:--tensor-model-parallel-size\ 2 \
          bf16:0: bf16:1:--zero-stage\ 1 bf16:2:--zero-stage\ 2 bf16:3:--zero-stage\ 3 bf16:tp2:--tensor-model-parallel-size\ 2; do
  step 4 || break
  prec=${pz%%:*}; z=${pz#*:}; n=${z%%:*}_$prec; f="${z#*:} $(pflag "$prec")"
  [ "$DEV" = cuda ] || G="${G/--num-layers 12 --hidden-size 768 --num-attention-heads 12 --seq-length 1024/--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 64}"
  if mpirun -np 2 bin/train $G $f > "$W/mem$n.out" 2>&1; then
    # the bytes this rank's table holds before activations against the formula: parameters +
    # gradients + optimizer state (bytes per parameter x local parameters) + working buffers,
    # plus at most 64 MiB (cuBLASLt's workspace, reductions) and 2 %, less at most 0.5 %
    # (the formula counts whole buckets; the table pads and rounds allocations)
    r=$(python3 - "$W/mem$n.out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"memory per rank .*?parameters ([0-9.]+) MB, gradients ([0-9.]+) MB, optimizer state ([0-9.]+) MB, "
              r"activations [0-9.]+ MB, working buffers ([0-9.]+) MB; ([0-9.]+) bytes per parameter", t)
h = re.search(r"GPU memory held ([0-9.]+) GB by this rank", t)
if not m:
    print("no memory line"); sys.exit(1)
want = sum(float(x) for x in m.group(1, 2, 3, 4))
held = float(h.group(1)) * 1000 if h else float("nan")
print(f"held {held:.1f} MB, formula {want:.1f} MB ({m.group(5)} bytes per parameter + working buffers)")
sys.exit(0 if h and want * 0.995 <= held <= want * 1.02 + 67.1 else 1)
PY
); mrc=$?
    if [ "$DEV" = cuda ]; then [ $mrc = 0 ] && ok "memory_$n: $r" || bad "memory_$n" "$r"; else say "memory $n: $r"; fi
  else bad "memory_$n" "$(grep -v '^\[' "$W/mem$n.out" | tail -2 | tr '\n' ' ')"; fi
done

# 5. one GPU, one rank: tokens/s and MFU against PyTorch
BCONF=${SUITE_CONFIGS:-"124M:16 1558M:4"} # e.g. "124M:16 1558M:4,8"
[ "$DEV" = cuda ] && step 5 && CONFIGS="$BCONF" ITERS=20 bash bench/bench_gpu.sh 2>&1 | tee "$OUT/bench.log" | tail -8 >> "$SUM"
# 6. where the one model's time goes at 124M (WEBTEXT_PROFILE=1: each operation synchronised;
#    =events: the table's events, no syncs, so "outside" is the GPU's idle time), and the speed
#    with the optimizer on the CPU (--cpu-offload)
if [ "$DEV" = cuda ] && step 6; then
  PR="--num-layers 12 --hidden-size 768 --num-attention-heads 12 --seq-length 1024 --micro-batch-size 16
      --global-batch-size 16 --train-iters 6 --lr 6e-4 --log-interval 1 --eval-iters 0 --split 100,0,0
      --data-path $W/d_text_document --data-cache-path $W --device cuda --bf16"
  WEBTEXT_PROFILE=1 bin/train $PR > "$OUT/profile_124M.log" 2>&1
  sed -n '/operation/,$p' "$OUT/profile_124M.log" | head -40
  WEBTEXT_PROFILE=events bin/train $PR > "$OUT/profile_124M_events.log" 2>&1
  grep '^> ' "$OUT/profile_124M_events.log" | sed -n '/profile (WEBTEXT/,$p' | head -40
  CONFIGS="124M:16" ITERS=20 NO_TORCH=1 EXTRA=--cpu-offload bash bench/bench_gpu.sh 2>&1 | tee "$OUT/bench_offload.log" |
    grep '^row:' | sed "s/^row:/cpu offload:/" >> "$SUM"
fi
# 7. tp 2 and pp 2 with the ranks sharing the GPU (staged communicator), bf16: where the step's time
#    goes (compute, collectives, point to point with the pipeline's waits, the schedule's bubble),
#    to project the cost on nodes with a GPU per rank. The dry run (checked) uses a small shape.
if step 7; then
  P="--num-layers 12 --hidden-size 768 --num-attention-heads 12 --seq-length 1024 --micro-batch-size 8"
  [ "$DEV" = cuda ] || P="--num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 64 --micro-batch-size 2"
  for lay in "tp2:--tensor-model-parallel-size 2 --sequence-parallel" "pp2:--pipeline-model-parallel-size 2"; do
    n=${lay%%:*}
    if mpirun -np 2 -x WEBTEXT_PROFILE=1 bin/train $P --global-batch-size 32 --train-iters 2 --lr 6e-4 --log-interval 1 \
         --eval-iters 0 --split 100,0,0 --data-path "$W/d_text_document" --data-cache-path "$W" --device $DEV --bf16 \
         ${lay#*:} > "$OUT/profile_$n.log" 2>&1 && grep -q '^> profile split' "$OUT/profile_$n.log"; then
      ok "profile_$n"
      grep '^> profile split\|^> pipeline bubble' "$OUT/profile_$n.log" | sed "s/^/  $n /" | tee -a "$SUM"
    else
      bad "profile_$n" "$(grep -v '^\[' "$OUT/profile_$n.log" | tail -2 | tr '\n' ' ')"
    fi
  done
fi
say "done: $(grep -c '^PASS' "$SUM") passed, $(grep -c '^FAIL' "$SUM") failed"

#!/usr/bin/env bash
# layout_losses.sh - the refactoring check of issue 25: train a small model in six
# parallel layouts (one process; pp 2; interleaved pp 2 x 2 chunks; pp 4; tp 2 x pp 2
# x dp 2 with sequence parallelism; tp 2 x interleaved pp 2) for 8 iterations and
# compare each run's per-iteration lm loss, grad norm, validation and test loss and
# communication bytes with tests/fixtures/train_layouts/, taken before the parallel
# model was restructured. Bit for bit, so only on a machine whose BLAS kernels and
# -march=native code match the fixture's (see its machine.txt); not part of make test.
#   scripts/check/layout_losses.sh           compare
#   scripts/check/layout_losses.sh --update  rewrite the fixture (say why in the commit)
set -u
cd "$(dirname "$0")/../.."
FIXD=${FIXD:-tests/fixtures/train_layouts} # FIXD=DIR: compare with (or --update) another directory, e.g. a run of the binaries before a change on this machine
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1 # ranks give up the core while they wait (more ranks than cores here)
BIN=${BIN:-bin}
EXTRA=${EXTRA:-} # e.g. EXTRA="--device checked": the same layouts through the device-discipline table
M="--num-layers 4 --hidden-size 32 --num-attention-heads 2 --seq-length 16 --micro-batch-size 2 --global-batch-size 16
   --lr 3e-3 --min-lr 3e-4 --lr-decay-style cosine --lr-warmup-iters 2 --weight-decay 0.1 --adam-beta2 0.95
   --split 90,8,2 --data-cache-path $out --eval-interval 4 --eval-iters 2 --log-interval 1
   --data-path tests/fixtures/gptdata/a --train-iters 8 -q $EXTRA"
run() { # NAME NP FLAGS...
  local n=$1 np=$2; shift 2
  if [ "$np" = 1 ]; then "$BIN/train" $M "$@" --log-json "$out/$n.jsonl" >/dev/null 2>"$out/$n.err"
  else mpirun --oversubscribe -np "$np" "$BIN/train" $M "$@" --log-json "$out/$n.jsonl" >/dev/null 2>"$out/$n.err"; fi ||
    { echo "layout_losses: $n failed: $(tail -2 "$out/$n.err")" >&2; return 1; }
  grep -o '"\(iteration\|lm_loss\|grad_norm\|val_loss\|test_loss\|comm_bytes\)":[^,}]*' "$out/$n.jsonl" > "$out/$n.txt"
}
run single 1 && run pp2 2 --pipeline-model-parallel-size 2 &&
run ilv 2 --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1 &&
run pp4 4 --pipeline-model-parallel-size 4 &&
run tp2pp2dp2 8 --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --sequence-parallel &&
run tp2ilv 4 --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1 --tensor-model-parallel-size 2 ||
  exit 1
machine="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $("$BIN/train" --num-layers 1 --hidden-size 8 --num-attention-heads 1 --seq-length 4 --micro-batch-size 1 --global-batch-size 1 --train-iters 1 --eval-iters 0 --split 1,0,0 --data-path tests/fixtures/gptdata/a --data-cache-path "$out" 2>/dev/null | grep -m1 '^> blas' | sed 's/^> blas: //')"
if [ "${1:-}" = --update ]; then
  mkdir -p "$FIXD"; cp "$out"/*.txt "$FIXD/"; echo "$machine" > "$FIXD/machine.txt"
  echo "layout_losses: fixture rewritten ($machine)"; exit 0
fi
[ "$machine" = "$(cat "$FIXD/machine.txt")" ] ||
  echo "layout_losses: note: this machine ($machine) is not the fixture's ($(cat "$FIXD/machine.txt")); differences may be rounding" >&2
bad=0
for f in "$out"/*.txt; do
  n=$(basename "$f" .txt)
  if cmp -s "$f" "$FIXD/$n.txt"; then echo "identical $n ($(grep -c lm_loss "$f") iterations)"; else echo "DIFFERENT $n"; bad=1; fi
done
exit $bad

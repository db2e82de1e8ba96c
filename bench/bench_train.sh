#!/usr/bin/env bash
# bench_train.sh - training throughput of bin/train (CPU backend) vs PyTorch on
# the CPU, same GPT-2 shapes, same batch, same number of threads
# (bench/bench_train_torch.py; torch from scripts/setup/install_deps.sh --bench).
#   BENCH_LAYERS/HIDDEN/HEADS/SEQ/BATCH/THREADS override the GPT-2-small shape.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
L=${BENCH_LAYERS:-12} C=${BENCH_HIDDEN:-768} NH=${BENCH_HEADS:-12} T=${BENCH_SEQ:-256} B=${BENCH_BATCH:-4}
TH=${BENCH_THREADS:-$(nproc)}
. bench/bench_lib.sh; bench_python bench_train torch
DATA=data/build/corpus_text_document
[ -e "$DATA.idx" ] || DATA=tests/fixtures/gptdata/a
W=$(mktemp -d /tmp/bench_train.XXXXXX)
trap 'rm -rf "$W"' EXIT
ITERS=6 WARM=2
echo "shape: $L layers, hidden $C, $NH heads, seq $T, batch $B, vocab 50257 (padded 50304); $TH threads"
OMP_NUM_THREADS=$TH "$BIN/train" --num-layers "$L" --hidden-size "$C" --num-attention-heads "$NH" --seq-length "$T" \
  --micro-batch-size "$B" --global-batch-size "$B" --lr 1e-4 --weight-decay 0.1 --adam-beta2 0.95 --train-iters $ITERS \
  --log-interval 1 --eval-iters 0 --split 1,0,0 --data-path "$DATA" --data-cache-path "$W" --log-json "$W/log.jsonl" \
  > "$W/train.out"
echo "cpu: $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
echo "bin/train kernels: $(grep -m1 '^> blas: ' "$W/train.out" | sed 's/^> blas: //')"
ours=$(grep -o '"ms_per_iter":[0-9.]*' "$W/log.jsonl" | tail -n $((ITERS - WARM)) | cut -d: -f2 |
  awk '{s += $1; n++} END {printf "%.1f", s / n}')
ours_tok=$(awk -v ms="$ours" -v bt=$((B * T)) 'BEGIN {printf "%.1f", bt / (ms / 1000)}')
echo "bin/train: $ours ms/iter, $ours_tok tokens/s"
line=$("$PY" bench/bench_train_torch.py --layers "$L" --hidden "$C" --heads "$NH" --seq "$T" --batch "$B" \
  --threads "$TH" --iters $((ITERS - WARM)) --warmup $WARM)
echo "$line" | sed -n 1p
echo "$line" | sed -n 2p
line=$(echo "$line" | sed -n 1p)
torch_tok=$(echo "$line" | grep -o '[0-9.]* tokens/s' | cut -d' ' -f1)
awk -v a="$ours_tok" -v b="$torch_tok" -v k="${OPENBLAS_CORETYPE:+ (OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE)}" \
  'BEGIN {printf "ratio bin/train / PyTorch: %.2fx tokens/s%s\n", a / b, k}'
echo "llm.c: not measured (its CPU trainer reads a checkpoint and token files that its Python scripts download)"

#!/usr/bin/env bash
# probe_gpu_capacity.sh - the largest GPT-2 shape that trains on this GPU with
# and without --cpu-offload: each candidate runs 2 iterations (seq 1024,
# micro-batch 1, bf16) and reports "trains" with its GPU memory and time per
# iteration, or the error. Env: BIN, SHAPES ("L:C ..."), MODES ("gpu offload"),
# TIMEOUT (seconds per candidate, default 280), EXTRA.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
SHAPES=${SHAPES:-"48:1600 40:2880 44:3200"}
WORK=$(mktemp -d /tmp/probe.XXXXXX); trap 'rm -rf "$WORK"' EXIT
"$BIN/preprocess_data" --input tests/fixtures/cc/dolma_cc_en_head-0091.jsonl --output-prefix "$WORK/p" --append-eod -q
for m in ${MODES:-gpu offload}; do
  mode=; [ "$m" = offload ] && mode=--cpu-offload
  for sh in $SHAPES; do
    L=${sh%%:*}; C=${sh#*:}
    start=$(date +%s)
    timeout "${TIMEOUT:-280}" "$BIN/train" --num-layers "$L" --hidden-size "$C" --num-attention-heads $((C / 64)) --seq-length 1024 \
      --micro-batch-size 1 --train-iters 2 --log-interval 1 --eval-iters 0 --split 100,0,0 --data-path "$WORK/p_text_document" \
      --data-cache-path "$WORK" --device cuda --bf16 $mode ${EXTRA:-} > "$WORK/o" 2> "$WORK/e"
    rc=$?
    params=$(grep -o '[0-9]* parameters' "$WORK/o" | head -1)
    if [ $rc = 0 ]; then
      echo "L=$L C=$C ($params) ${mode:-on the GPU}: trains; $(grep -o 'GPU memory held [0-9.]* GB' "$WORK/o"); $(grep 'iteration  *2/' "$WORK/o" | grep -o 'elapsed time per iteration (ms): [0-9.]*'); $(( $(date +%s) - start )) s in all"
    else
      echo "L=$L C=$C ($params) ${mode:-on the GPU}: does not train (exit $rc): $(tail -1 "$WORK/e" | cut -c1-200)"
    fi
  done
done

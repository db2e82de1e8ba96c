#!/usr/bin/env bash
# bench_gpu.sh - GPT-2 training throughput on one GPU: bin/train --device cuda
# --bf16 against PyTorch on the same GPU, model, micro-batch and sequence length,
# in the same run (bench/bench_gpu_torch.py: bf16 autocast, SDPA, torch.compile,
# fused AdamW). Prints tokens/s, MFU (6N + 6LCT FLOPs per token against the GPU's
# bf16 dense peak) and the ratio. Env: BIN, PY (a Python with CUDA PyTorch;
# default python3), ITERS (default 30), CONFIGS (default "124M:16,32 350M:8,16"),
# NO_TORCH=1 (ours only).
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}; PY=${PY:-python3}; ITERS=${ITERS:-30}
CONFIGS=${CONFIGS:-"124M:16,32 350M:8,16"}
WORK=$(mktemp -d /tmp/bench_gpu.XXXXXX); trap 'rm -rf "$WORK"' EXIT
if ! nvidia-smi -L >/dev/null 2>&1; then echo "bench_gpu: no NVIDIA GPU here (nvidia-smi -L failed)"; exit 1; fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
# Text for the data loader (throughput does not depend on it).
cat tests/fixtures/cc/dolma_cc_en_head-0091.jsonl tests/fixtures/cc/dolma_cc_en_head-0174.jsonl > "$WORK/text.jsonl"
"$BIN/preprocess_data" --input "$WORK/text.jsonl" --output-prefix "$WORK/bench" --append-eod -q >/dev/null
shape() { case $1 in 124M) echo "12 768 12";; 350M) echo "24 1024 16";; 774M) echo "36 1280 20";; 1558M) echo "48 1600 25";; esac; }
rows=()
for cfg in $CONFIGS; do
  name=${cfg%%:*}; read -r L C NH <<<"$(shape "$name")"
  for mbs in ${cfg#*:}; do mbs=${mbs//,/ }; for b in $mbs; do
    "$BIN/train" --num-layers "$L" --hidden-size "$C" --num-attention-heads "$NH" --seq-length 1024 \
      --micro-batch-size "$b" --global-batch-size "$b" --train-iters "$ITERS" --lr 6e-4 --log-interval 10 \
      --eval-iters 0 --split 100,0,0 --data-path "$WORK/bench_text_document" --data-cache-path "$WORK" \
      --device cuda --bf16 --log-json "$WORK/o.jsonl" ${EXTRA:-} > "$WORK/o.out" 2> "$WORK/o.err"
    rc=$?
    if [ $rc != 0 ]; then
      ours="failed ($(grep -o 'out of GPU memory' "$WORK/o.err" | head -1 || true) exit $rc)"; otok=0; mfu=0
      tail -3 "$WORK/o.err" >&2
    else
      read -r otok mfu <<<"$("$PY" -c 'import json,sys; r=[json.loads(x) for x in open(sys.argv[1]) if "tokens_per_s" in x][-1]; print(round(r["tokens_per_s"]), "%.1f" % (100*r["mfu"]))' "$WORK/o.jsonl")"
      ours="$otok tok/s, MFU $mfu%"
      grep -o 'GPU memory held [0-9.]* GB' "$WORK/o.out" | head -1 | sed "s/^/  $name mbs $b: /"
    fi
    rm -f "$WORK/o.jsonl"
    if [ "${NO_TORCH:-0}" = 1 ]; then theirs="not run"; ratio=""
    else
      t=$(PYTHONUNBUFFERED=1 "$PY" bench/bench_gpu_torch.py --layers "$L" --hidden "$C" --heads "$NH" --seq 1024 --mbs "$b" --iters "$ITERS" 2>"$WORK/t.err" | tail -1)
      ttok=$(echo "$t" | grep -o 'tokens_per_s=[0-9]*' | cut -d= -f2)
      if [ -z "$ttok" ]; then theirs="failed: $(grep -o 'OutOfMemoryError\|Error.*' "$WORK/t.err" | tail -1 | cut -c1-60)"; ratio=""
      else theirs="$ttok tok/s ($(echo "$t" | grep -o 'peak_mem_gb=[0-9.]*'))"
        ratio=$(awk -v a="$otok" -v b="$ttok" 'BEGIN{ if (b > 0) printf "%.2fx", a / b }'); fi
    fi
    rows+=("$(printf '%-6s mbs %-3s | ours: %-32s | PyTorch: %-40s | %s' "$name" "$b" "$ours" "$theirs" "$ratio")")
    # each row as soon as it is measured (a run cut short keeps what it finished)
    echo "row: ${rows[${#rows[@]}-1]}"
  done; done
done
echo "GPT-2 training, seq 1024, bf16, one GPU, $ITERS iterations (last 10 timed for ours, after 5 warm-up for PyTorch):"
printf '%s\n' "${rows[@]}"

#!/usr/bin/env bash
# make_train.sh - `make train`: train a small GPT-2 (3 layers, width 128, 4 heads, 128
# positions; 1.1 M parameters with the 4,096-token BPE `make data` trains on the corpus)
# on the dataset `make data` built, check that the validation loss ends well below the
# unigram entropy of the training tokens, draw the loss curve (SVG, next to the
# checkpoints) and print samples from the model. With a CUDA build and a GPU present it
# trains on the GPU.
#
# Resumable: it saves every quarter of the run into $TRAIN_OUT and picks up from the
# latest checkpoint there (Ctrl-C saves too). Settings via the environment:
#   TRAIN_OUT    checkpoint directory (default data/build/checkpoints/gpt-small)
#   TRAIN_ITERS  iterations of TRAIN_BATCH x 128 tokens (default 300, 1.2 M tokens: about
#                1.5 minutes on 2 cores)
#   TRAIN_BATCH  global batch in sequences (default 32)
#   TRAIN_LAYERS, TRAIN_HIDDEN, TRAIN_HEADS  the model (default 3, 128, 4)
#   TRAIN_LR, TRAIN_MIN_LR  the cosine schedule's peak and end (default 3e-3, 3e-4)
#   TRAIN_EVAL_ITEMS  items of each evaluation set in data/eval (HellaSwag, ARC-Easy, PIQA)
#                scored zero-shot at each evaluation and at the end (default 200; 0: all)
#   OMP_NUM_THREADS threads (default: all cores)
# The tokenizer is the one the dataset was made with (data/build/corpus_text_document.tokenizer).
set -euo pipefail
BIN=${BIN:-bin}
DATA=data/build/corpus_text_document
OUT=${TRAIN_OUT:-data/build/checkpoints/gpt-small}
ITERS=${TRAIN_ITERS:-300}
LAYERS=${TRAIN_LAYERS:-3}; HIDDEN=${TRAIN_HIDDEN:-128}; HEADS=${TRAIN_HEADS:-4}
GBS=${TRAIN_BATCH:-32}
MBS=$(( GBS < 16 ? GBS : 16 ))
WARMUP=$(( ITERS / 10 > 0 ? ITERS / 10 : 1 ))
EVAL=$(( ITERS / 4 > 0 ? ITERS / 4 : 1 ))
LR=${TRAIN_LR:-3e-3}
MINLR=${TRAIN_MIN_LR:-3e-4}
if [ ! -e "$DATA.idx" ]; then
  echo "make train: $DATA.bin/.idx not found; run 'make data' first" >&2
  exit 2
fi
# the vocabulary the dataset was made with (make data writes its flags beside it; a dataset
# made before that: GPT-2's)
read -r -a TOK <<< "$(cat "$DATA.tokenizer" 2>/dev/null || echo "--vocab-file data/gpt2/encoder.json --merge-file data/gpt2/vocab.bpe")"
mkdir -p "$OUT"
"$BIN/train" \
  --num-layers "$LAYERS" --hidden-size "$HIDDEN" --num-attention-heads "$HEADS" --seq-length 128 --max-position-embeddings 128 \
  --micro-batch-size "$MBS" --global-batch-size "$GBS" --train-iters "$ITERS" \
  --lr "$LR" --min-lr "$MINLR" --lr-decay-style cosine --lr-warmup-iters "$WARMUP" \
  --weight-decay 0.1 --adam-beta1 0.9 --adam-beta2 0.95 --clip-grad 1.0 --seed 1234 \
  --data-path "$DATA" "${TOK[@]}" --split 98,2,0 \
  --log-interval 20 --eval-interval "$EVAL" --eval-iters 10 \
  --eval-tasks data/eval --eval-tasks-limit "${TRAIN_EVAL_ITEMS:-200}" \
  --save "$OUT" --save-interval "$EVAL" --load "$OUT"
LOG=$OUT/train_log.jsonl
h=$(grep -o '"unigram_entropy":[0-9.]*' "$LOG" | tail -1 | cut -d: -f2)
v=$(grep '"final":true' "$LOG" | grep '"val_loss"' | tail -1 | grep -o '"val_loss":[0-9.]*' | cut -d: -f2)
echo
if [ -z "$h" ] || [ -z "$v" ]; then
  echo "make train: no final validation loss in $LOG" >&2
  exit 1
fi
awk -v h="$h" -v v="$v" 'BEGIN {
  printf "validation loss %.3f nats/token vs unigram entropy %.3f: %.3f below (perplexity %.0f vs %.0f)\n", v, h, h - v, exp(v), exp(h)
  if (v > h - 0.5) { print "make train: the model did not learn enough (need at least 0.5 nats below the unigram entropy)"; exit 1 } }'
# the downstream scores at the end (lm-evaluation-harness's zero-shot acc / acc_norm)
grep '"tasks"' "$LOG" | grep '"final":true' | tail -1 | awk '{
  s = $0; line = ""
  while (match(s, /"[A-Za-z0-9_.-]+":\{"items":[0-9]+,"acc":[0-9.e-]+(,"acc_norm":[0-9.e-]+)?/)) {
    t = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
    name = t; sub(/^"/, "", name); sub(/".*/, "", name)
    acc = t; sub(/.*"acc":/, "", acc); sub(/,.*/, "", acc)
    norm = ""; if (t ~ /acc_norm/) { norm = t; sub(/.*"acc_norm":/, "", norm) }
    items = t; sub(/.*"items":/, "", items); sub(/,.*/, "", items)
    line = line sprintf("  %-20s %4d items  acc %.3f%s\n", name, items, acc, norm != "" ? sprintf("  acc_norm %.3f", norm) : "")
  }
  if (line != "") printf "zero-shot scores at the end (chance: 0.25 for HellaSwag and ARC-Easy, 0.50 for PIQA; a model\nthis small, trained this briefly, scores near chance: these show the scoring works, not skill):\n%s", line }'
bash scripts/make/plot_loss.sh "$LOG" "$OUT/loss.svg" && echo "loss curve: $OUT/loss.svg"
echo
echo "== generate --load $OUT ${TOK[*]} --prompt 'The history of the' --max-tokens 60 --top-k 40 --temperature 0.8 --num-samples 2 --ignore-eod"
"$BIN/generate" --load "$OUT" "${TOK[@]}" --prompt "The history of the" --max-tokens 60 --top-k 40 --temperature 0.8 --seed 1 \
  --num-samples 2 --ignore-eod

#!/usr/bin/env bash
# make_train.sh - `make train`: train a small GPT-2 (4 layers, width 128, 7.2 M
# parameters, most of them the 50,304 x 128 token embedding) on the dataset
# `make data` built, check that the validation loss ends well below the unigram
# entropy of the training tokens, draw the loss curve (SVG, next to the
# checkpoints) and print a sample from the model. With a CUDA build and a GPU
# present it trains on the GPU.
#
# Resumable: it saves every quarter of the run into $TRAIN_OUT and picks up from the
# latest checkpoint there (Ctrl-C saves too). Settings via the environment:
#   TRAIN_OUT   checkpoint directory (default data/build/checkpoints/gpt-small)
#   TRAIN_ITERS iterations of TRAIN_BATCH x 128 tokens (default 200, about 0.82 M tokens:
#               about 7.5 minutes on 2 AVX2 cores at 2.45 GHz)
#   TRAIN_BATCH global batch in sequences (default 32)
#   OMP_NUM_THREADS threads (default: all cores)
set -euo pipefail
BIN=${BIN:-bin}
DATA=data/build/corpus_text_document
OUT=${TRAIN_OUT:-data/build/checkpoints/gpt-small}
ITERS=${TRAIN_ITERS:-200}
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
mkdir -p "$OUT"
"$BIN/train" \
  --num-layers 4 --hidden-size 128 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
  --micro-batch-size "$MBS" --global-batch-size "$GBS" --train-iters "$ITERS" \
  --lr "$LR" --min-lr "$MINLR" --lr-decay-style cosine --lr-warmup-iters "$WARMUP" \
  --weight-decay 0.1 --adam-beta1 0.9 --adam-beta2 0.95 --clip-grad 1.0 --seed 1234 \
  --data-path "$DATA" --split 98,2,0 \
  --log-interval 20 --eval-interval "$EVAL" --eval-iters 10 \
  --save "$OUT" --save-interval "$EVAL" --load "$OUT"
LOG=$OUT/train_log.jsonl
h=$(grep -o '"unigram_entropy":[0-9.]*' "$LOG" | tail -1 | cut -d: -f2)
v=$(grep '"final":true' "$LOG" | tail -1 | grep -o '"val_loss":[0-9.]*' | cut -d: -f2)
echo
if [ -z "$h" ] || [ -z "$v" ]; then
  echo "make train: no final validation loss in $LOG" >&2
  exit 1
fi
awk -v h="$h" -v v="$v" 'BEGIN {
  printf "validation loss %.3f nats/token vs unigram entropy %.3f: %.3f below (perplexity %.0f vs %.0f)\n", v, h, h - v, exp(v), exp(h)
  if (v > h - 0.5) { print "make train: the model did not learn enough (need at least 0.5 nats below the unigram entropy)"; exit 1 } }'
bash scripts/make/plot_loss.sh "$LOG" "$OUT/loss.svg" && echo "loss curve: $OUT/loss.svg"
echo
echo "== generate --load $OUT --prompt 'The history of the' --max-tokens 60 --top-k 40 --temperature 0.8 --num-samples 2 --ignore-eod"
"$BIN/generate" --load "$OUT" --prompt "The history of the" --max-tokens 60 --top-k 40 --temperature 0.8 --seed 1 \
  --num-samples 2 --ignore-eod

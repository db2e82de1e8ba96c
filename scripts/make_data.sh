#!/usr/bin/env bash
# make_data.sh - the corpus pipeline behind `make data`, on data/corpus/.
# Today: the documents of both corpora shuffled together (seeded) into
# data/build/corpus.jsonl.zst, then tokenized with GPT-2 BPE into the Megatron
# dataset data/build/corpus_text_document.bin/.idx (what the trainer reads).
# The cleanup and dedup stages join here as their tools land (see README, Status).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
mkdir -p data/build
"$BIN/shuffle" --seed 1234 data/corpus/enwiki_sample.jsonl.zst data/corpus/wikinews.jsonl.zst -o data/build/corpus.jsonl.zst
"$BIN/preprocess_data" --input data/build/corpus.jsonl.zst --output-prefix data/build/corpus --append-eod \
  --workers "$(nproc)"
"$BIN/inspect_dataset" data/build/corpus_text_document
echo "make data: wrote data/build/corpus.jsonl.zst and data/build/corpus_text_document.bin/.idx"

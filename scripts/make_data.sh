#!/usr/bin/env bash
# make_data.sh - the corpus pipeline behind `make data`, on data/corpus/.
# Today: the documents of both corpora shuffled together (seeded) into
# data/build/corpus.jsonl.zst. The cleanup, dedup and tokenization stages join
# here as their tools land (see README, Status).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
mkdir -p data/build
"$BIN/shuffle" --seed 1234 data/corpus/enwiki_sample.jsonl.zst data/corpus/wikinews.jsonl.zst -o data/build/corpus.jsonl.zst
echo "make data: wrote data/build/corpus.jsonl.zst"

#!/usr/bin/env bash
# make_data.sh - the corpus pipeline behind `make data`, on data/corpus/:
#   cleanup     fix_text, English only, drop short documents (per corpus)
#   dedup       minhash -> find_duplicates -> group_duplicates -> remove_duplicates
#   shuffle     both corpora together, seeded
#   tokenize    GPT-2 BPE into the Megatron dataset data/build/corpus_text_document.bin/.idx
# Everything goes to data/build/; each tool prints what it kept and dropped.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
B=data/build
mkdir -p $B
for c in enwiki_sample wikinews; do
  "$BIN/cleanup" data/corpus/$c.jsonl.zst $B/$c.clean.jsonl.zst --removed $B/$c.removed.jsonl.zst
done
"$BIN/minhash" --id-field url $B/enwiki_sample.clean.jsonl.zst $B/wikinews.clean.jsonl.zst -o $B/corpus.mh
"$BIN/find_duplicates" $B/corpus.mh --threshold 0.8 -o $B/pairs.jsonl
"$BIN/group_duplicates" --threshold 0.9 $B/pairs.jsonl -o $B/groups.jsonl
"$BIN/remove_duplicates" --id-field url --groups $B/groups.jsonl $B/enwiki_sample.clean.jsonl.zst \
  $B/wikinews.clean.jsonl.zst -o $B/dedup.jsonl.zst --removed $B/dups_removed.jsonl
"$BIN/shuffle" --seed 1234 $B/dedup.jsonl.zst -o $B/corpus.jsonl.zst
"$BIN/preprocess_data" --input $B/corpus.jsonl.zst --output-prefix $B/corpus --append-eod --workers "$(nproc)"
"$BIN/inspect_dataset" $B/corpus_text_document
echo "make data: wrote $B/corpus.jsonl.zst and $B/corpus_text_document.bin/.idx"

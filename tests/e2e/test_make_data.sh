#!/usr/bin/env bash
# test_make_data.sh - `make data`'s rules (scripts/make/data.mk) on two small corpora:
# the first run makes every stage; a second run makes nothing; a newer input
# re-runs only the stages downstream of it (the other corpus's cleanup is kept)
# and gives the same dataset; the near-duplicates shared by the corpora go; the
# vocabulary is trained on the corpus (TOKENIZER=gpt2: GPT-2's).
. "$(dirname "$0")/lib.sh"
C=$WORK/corpus; mkdir -p "$C"
# b repeats a's first 10 documents under other URLs: duplicates across corpora.
{ zcat "$FIX/cc/olmo_c4-sample.01.json.gz"; zcat "$FIX/cc/olmo_c4-sample.02.json.gz"; } | zstd -q -o "$C/a.jsonl.zst"
{ zcat "$FIX/cc/olmo_c4-sample.03.json.gz"; zcat "$FIX/cc/olmo_c4-sample.01.json.gz" | sed 's/"url":"/"url":"copy:/'; } |
  zstd -q -o "$C/b.jsonl.zst"
run() { make --no-print-directory -C "$ROOT" -f scripts/make/data.mk BIN="$BIN" CORPUS_DIR="$C" CORPORA="a b" B="$WORK/b" > "$WORK/run$1.out" 2>&1; }
ran() { grep -c "^$BIN/$2 " "$WORK/run$1.out"; }
if run 1; then pass make_data_runs; else fail make_data_runs "$(tail -5 "$WORK/run1.out")"; exit 0; fi
n=0; for t in cleanup minhash find_duplicates group_duplicates remove_duplicates shuffle train_bpe preprocess_data inspect_dataset; do
  n=$((n + $(ran 1 $t))); done
[ "$n" = 10 ] && pass make_data_every_stage || fail make_data_every_stage "$n commands"
# the vocabulary trained on the corpus, named beside the dataset, its ids below its size
if [ "$(cat "$WORK/b/corpus_text_document.tokenizer")" = "--vocab-file $WORK/b/bpe/encoder.json --merge-file $WORK/b/bpe/vocab.bpe" ] &&
   [ "$("$BIN/inspect_dataset" "$WORK/b/corpus_text_document" | awk '/token ids/ {print $NF}')" -lt 4096 ]; then pass make_data_trained_vocabulary
else fail make_data_trained_vocabulary "$(cat "$WORK/b/corpus_text_document.tokenizer"; "$BIN/inspect_dataset" "$WORK/b/corpus_text_document" | grep 'token ids')"; fi
[ -s "$WORK/b/corpus_text_document.idx" ] && [ -s "$WORK/b/corpus_text_document.bin" ] && pass make_data_dataset || fail make_data_dataset
cp "$WORK/b/corpus_text_document.bin" "$WORK/first.bin"
# the shared documents that cleanup kept: one copy of each is removed
rm_n=$(wc -l < "$WORK/b/dups_removed.jsonl")
[ "$rm_n" -ge 5 ] && pass "make_data_cross_corpus_duplicates ($rm_n removed)" || fail make_data_cross_corpus_duplicates "$rm_n removed"
run 2
[ "$(grep -c "^$BIN/" "$WORK/run2.out")" = 0 ] && grep -q 'up to date' "$WORK/run2.out" && pass make_data_second_run_does_nothing ||
  fail make_data_second_run_does_nothing "$(grep "^$BIN/" "$WORK/run2.out" | head -3)"
sleep 1; touch "$C/b.jsonl.zst"
run 3
if [ "$(grep -c "^$BIN/cleanup $C/b" "$WORK/run3.out")" = 1 ] && [ "$(grep -c "^$BIN/cleanup $C/a" "$WORK/run3.out")" = 0 ] &&
   [ "$(ran 3 preprocess_data)" = 1 ]; then pass make_data_reruns_downstream_only; else fail make_data_reruns_downstream_only "$(grep "^$BIN/" "$WORK/run3.out" | cut -c1-80)"; fi
cmp -s "$WORK/first.bin" "$WORK/b/corpus_text_document.bin" && pass make_data_same_dataset || fail make_data_same_dataset
no_tmp_left "$WORK/b" make_data_no_tmp
# TOKENIZER=gpt2: the dataset again with GPT-2's vocabulary (only the tokenize stage runs)
make --no-print-directory -C "$ROOT" -f scripts/make/data.mk BIN="$BIN" CORPUS_DIR="$C" CORPORA="a b" B="$WORK/b" TOKENIZER=gpt2 > "$WORK/run4.out" 2>&1
if [ "$(grep -c "^$BIN/" "$WORK/run4.out")" = 2 ] && [ "$(ran 4 preprocess_data)" = 1 ] &&
   grep -q -- '--vocab-file data/gpt2/encoder.json' "$WORK/b/corpus_text_document.tokenizer" &&
   "$BIN/inspect_dataset" "$WORK/b/corpus_text_document" | grep -q 'token ids   0 \.\. [0-9]\{5\}$'; then pass make_data_gpt2_vocabulary
else fail make_data_gpt2_vocabulary "$(grep "^$BIN/" "$WORK/run4.out" | cut -c1-80)"; fi
# SUBSTR=1: exact-substring deduplication after MinHash; only it and the stages after it run
make --no-print-directory -C "$ROOT" -f scripts/make/data.mk BIN="$BIN" CORPUS_DIR="$C" CORPORA="a b" B="$WORK/b" TOKENIZER=gpt2 \
  SUBSTR=1 > "$WORK/run5.out" 2>&1
if [ "$(ran 5 substr_dedup)" = 1 ] && [ "$(ran 5 shuffle)" = 1 ] && [ "$(ran 5 cleanup)" = 0 ] && [ "$(ran 5 minhash)" = 0 ] &&
   [ "$(ran 5 preprocess_data)" = 1 ] && grep -q '^substr_dedup: [0-9]* documents in: ' "$WORK/run5.out" &&
   [ -e "$WORK/b/substr_spans.jsonl" ]; then pass "make_data_substr ($(grep -o 'struck: [0-9]* spans' "$WORK/run5.out"))"
else fail make_data_substr "$(grep "^$BIN/\|^make" "$WORK/run5.out" | cut -c1-80)"; fi
# DECONTAMINATE=DIR: decontamination against the evaluation sets after MinHash; only it and the
# stages after it run, and a run without it goes back
make --no-print-directory -C "$ROOT" -f scripts/make/data.mk BIN="$BIN" CORPUS_DIR="$C" CORPORA="a b" B="$WORK/b" TOKENIZER=gpt2 \
  SUBSTR=1 DECONTAMINATE="$ROOT/data/eval" > "$WORK/run6.out" 2>&1
if [ "$(ran 6 decontaminate)" = 1 ] && [ "$(ran 6 substr_dedup)" = 1 ] && [ "$(ran 6 cleanup)" = 0 ] &&
   [ "$(ran 6 minhash)" = 0 ] && grep -q '^decontaminate: [0-9]* documents in: ' "$WORK/run6.out" &&
   grep -q 'hellaswag_val1000' "$WORK/run6.out" && [ -e "$WORK/b/decont_report.jsonl" ]; then pass make_data_decontaminate
else fail make_data_decontaminate "$(grep "^$BIN/\|^make" "$WORK/run6.out" | cut -c1-80)"; fi

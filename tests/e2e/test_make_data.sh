#!/usr/bin/env bash
# test_make_data.sh - `make data`'s rules (scripts/make/data.mk) on two small corpora:
# the first run makes every stage; a second run makes nothing; a newer input
# re-runs only the stages downstream of it (the other corpus's cleanup is kept)
# and gives the same dataset; the near-duplicates shared by the corpora go.
. "$(dirname "$0")/lib.sh"
C=$WORK/corpus; mkdir -p "$C"
# b repeats a's first 10 documents under other URLs: duplicates across corpora.
{ zcat "$FIX/cc/olmo_c4-sample.01.json.gz"; zcat "$FIX/cc/olmo_c4-sample.02.json.gz"; } | zstd -q -o "$C/a.jsonl.zst"
{ zcat "$FIX/cc/olmo_c4-sample.03.json.gz"; zcat "$FIX/cc/olmo_c4-sample.01.json.gz" | sed 's/"url":"/"url":"copy:/'; } |
  zstd -q -o "$C/b.jsonl.zst"
run() { make --no-print-directory -C "$ROOT" -f scripts/make/data.mk BIN="$BIN" CORPUS_DIR="$C" CORPORA="a b" B="$WORK/b" > "$WORK/run$1.out" 2>&1; }
ran() { grep -c "^$BIN/$2 " "$WORK/run$1.out"; }
if run 1; then pass make_data_runs; else fail make_data_runs "$(tail -5 "$WORK/run1.out")"; exit 0; fi
n=0; for t in cleanup minhash find_duplicates group_duplicates remove_duplicates shuffle preprocess_data inspect_dataset; do
  n=$((n + $(ran 1 $t))); done
[ "$n" = 9 ] && pass make_data_every_stage || fail make_data_every_stage "$n commands"
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

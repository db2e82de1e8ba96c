# reliability_cases.sh - the writing tools on real inputs, for test_crash.sh and
# test_faults.sh. Sourced after lib.sh. setup_inputs fills $IN; case_NAME sets
#   CMD    the command, run with bash -c in the case's output directory $O
#   OUTS   its outputs (relative to $O), a group (committed together, in this
#          order) written "a+b"; a directory output ends with "/"
# Every command is deterministic, so a finished run gives the same bytes (the
# training log, with its times, is left out of the comparison).
IN=$WORK/in
CASES=${RELIABILITY_CASES:-"preprocess_data merge_datasets cleanup shuffle shuffle_ooc minhash find_duplicates group_duplicates
       remove_duplicates blacklist_urls tokenize train_bpe convert_checkpoint train"}

setup_inputs() {
  mkdir -p "$IN/parts"
  # 600 real documents with planted near-duplicates (about 600 KB)
  zstd -dc "$FIX/dedup/planted.jsonl.zst" | head -n 600 > "$IN/docs.jsonl"
  head -n 300 "$IN/docs.jsonl" > "$IN/small.jsonl"
  "$BIN/preprocess_data" --input "$IN/small.jsonl" --output-prefix "$IN/parts/a" --workers 1 >/dev/null 2>&1
  tail -n 300 "$IN/docs.jsonl" | "$BIN/preprocess_data" --input - --output-prefix "$IN/parts/b" --workers 1 >/dev/null 2>&1
  "$BIN/minhash" -q "$IN/docs.jsonl" -o "$IN/sig.mh" -j 1
  "$BIN/find_duplicates" -q "$IN/sig.mh" -o "$IN/pairs.jsonl" -j 1
  "$BIN/group_duplicates" -q "$IN/pairs.jsonl" -o "$IN/groups.jsonl" 2>/dev/null
  head -n 3000 "$FIX/urls/reddit_2005_urls.txt" > "$IN/urls.txt"
  "$BIN/train" $TRAIN_ARGS --train-iters 2 --save "$IN/ck" >/dev/null 2>&1
}
TRAIN_ARGS="--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 32 --micro-batch-size 2"
TRAIN_ARGS="$TRAIN_ARGS --global-batch-size 4 --lr 3e-3 --split 90,8,2 --eval-iters 0 --device cpu --seed 5"
TRAIN_ARGS="$TRAIN_ARGS --data-path $FIX/gptdata/a --data-cache-path $WORK/in"

case_preprocess_data() { CMD="'$BIN/preprocess_data' --input '$IN/docs.jsonl' --output-prefix out --workers 2"
  OUTS="out_text_document.bin+out_text_document.idx"; }
case_merge_datasets() { CMD="'$BIN/merge_datasets' --input '$IN/parts' --output-prefix merged"; OUTS="merged.bin+merged.idx"; }
case_cleanup() { CMD="'$BIN/cleanup' -q -j 2 '$IN/docs.jsonl' kept.jsonl --removed removed.jsonl"; OUTS="kept.jsonl+removed.jsonl"; }
case_shuffle() { CMD="'$BIN/shuffle' -q --seed 7 '$IN/docs.jsonl' -o shuf.jsonl"; OUTS="shuf.jsonl"; }
case_shuffle_ooc() { CMD="'$BIN/shuffle' -q --seed 7 --memory 512K -T . '$IN/small.jsonl' -o shuf.jsonl.zst"; OUTS="shuf.jsonl.zst"; }
case_minhash() { CMD="'$BIN/minhash' -q '$IN/docs.jsonl' -o sig.mh -j 2"; OUTS="sig.mh"; }
case_find_duplicates() { CMD="'$BIN/find_duplicates' -q '$IN/sig.mh' -o pairs.jsonl -j 2"; OUTS="pairs.jsonl"; }
case_group_duplicates() { CMD="'$BIN/group_duplicates' -q '$IN/pairs.jsonl' -o groups.jsonl"; OUTS="groups.jsonl"; }
case_remove_duplicates() { CMD="'$BIN/remove_duplicates' -q -g '$IN/groups.jsonl' '$IN/docs.jsonl' -o kept.jsonl --removed removed.jsonl"
  OUTS="kept.jsonl+removed.jsonl"; }
case_blacklist_urls() { CMD="'$BIN/blacklist_urls' -q '$IN/urls.txt' -o kept.txt --rejected rejected.tsv"; OUTS="kept.txt+rejected.tsv"; }
case_tokenize() { CMD="'$BIN/tokenize' -q '$IN/small.jsonl' -o ids.txt.zst"; OUTS="ids.txt.zst"; }
case_train_bpe() { CMD="'$BIN/train_bpe' -q --input '$IN/small.jsonl' --output-dir bpe --vocab-size 600"; OUTS="bpe/encoder.json+bpe/vocab.bpe"; }
case_convert_checkpoint() { CMD="'$BIN/convert_checkpoint' --load '$IN/ck' --to hf hf"; OUTS="hf/"; }
# train: checkpoints at iterations 2 and 4 (the second one replaces nothing;
# the crash test checks 'latest' and resumes)
case_train() { CMD="'$BIN/train' $TRAIN_ARGS --train-iters 4 --save-interval 2 --save ck"; OUTS="ck/"; }

#!/usr/bin/env bash
# data_sharded.sh - `make data`'s pipeline cut into shards, for Slurm array jobs
# (scripts/cluster/slurm_data.sh submits them with their dependencies) or a local run.
# Usage: data_sharded.sh STAGE [INDEX]     (INDEX defaults to $SLURM_ARRAY_TASK_ID)
#   extract I    (with WARCS=LIST) the I-th WARC of LIST into documents                  one job per WARC
#   split        the corpora (then the extracted web pages), in order, into SHARDS shards 1 job
#   cleanup I    fix_text, English only, length filter on shard I                       SHARDS jobs
#   minhash I    shard I's MinHash signatures (version 3: no texts; 32 bytes a document   SHARDS jobs
#                and its values, pointing back into the shard)
#   find J       band range J of BAND_JOBS: reads only those bands' values of every      BAND_JOBS jobs
#                shard's signatures, sorts their keys in MEMORY, writes candidate pairs
#   verify       the candidates merged, their texts read back from the shards, the      1 job
#                pairs verified with exact Jaccard into OUT/pairs.jsonl
#   group        the pairs joined into duplicate groups                                 1 job
#   remove I     shard I without duplicates (earlier shards count as met first)         SHARDS jobs
#   decont I     (DECONTAMINATE=DIR) shard I without what overlaps the evaluation sets SHARDS jobs
#                in DIR (decontaminate: GPT-3's 13-gram cut, as make data)
#   substr_find I  (SUBSTR=1) exact-substring dedup: shard I of SHARDS (documents by a  SHARDS jobs
#                hash of their url), its suffix array's repeats of 50+ GPT-2 tokens
#                and its fingerprints, in OUT/substr_work
#   substr_cross I (SUBSTR=1) hash range I of the fingerprints: the repeats across      SHARDS jobs
#                shards, exactly
#   substr       (SUBSTR=1) every shard in order with the spans struck: what one suffix 1 job
#                array of the whole corpus strikes, byte for byte
#   shuffle      every shard in order (or substr's output), seeded, then cut into     1 job
#                SHARDS contiguous parts
#   tokenize I   part I into a Megatron dataset                                         SHARDS jobs
#   merge        the parts, in order, into OUT/corpus_text_document.bin/.idx            1 job
#   all          every stage in order on this machine (PARALLEL=N shards at once)
# The result is byte for byte the dataset `make data` (scripts/make/data.mk) makes from the
# same corpora (tested). A job whose output is already there skips (every output is
# written under a temporary name and renamed), so a failed or preempted array is
# simply submitted again.
# Env: BIN (bin), CORPUS_DIR (data/corpus), CORPORA ("enwiki_sample wikinews"; files
# CORPUS_DIR/NAME.jsonl.zst), OUT (data/build/sharded), SHARDS (4), BAND_JOBS (4), BANDS
# and ROWS (16 x 8: what find_duplicates chooses for minhash's 128 permutations at
# threshold 0.8), MEMORY (1G: what a find or verify job may hold; beyond it they spill),
# WORKERS (threads of each job, default all), PARALLEL (1),
# SUBSTR (0, or 1: the substr stage before shuffle, as make data SUBSTR=1), DECONTAMINATE
# (evaluation sets: the decont stage after remove, as make data DECONTAMINATE=DIR; DECONT_FLAGS),
# WARCS (a file listing WARC / WET files, one per line: web pages added after the corpora).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}; CORPUS_DIR=${CORPUS_DIR:-data/corpus}; CORPORA=${CORPORA:-enwiki_sample wikinews}
OUT=${OUT:-data/build/sharded}; SHARDS=${SHARDS:-4}; BAND_JOBS=${BAND_JOBS:-4}; BANDS=${BANDS:-16}; ROWS=${ROWS:-8}
MEMORY=${MEMORY:-1G}
WORKERS=${WORKERS:-$(nproc)}; PARALLEL=${PARALLEL:-1}; WARCS=${WARCS:-}; SUBSTR=${SUBSTR:-0}
DECONTAMINATE=${DECONTAMINATE:-}; DECONT_FLAGS=${DECONT_FLAGS:-}
# the documents after MinHash: remove's, or decont's when there are evaluation sets
if [ -n "$DECONTAMINATE" ]; then DD=decont; else DD=dedup; fi
case "$SUBSTR" in 0|1) ;; *) echo "data_sharded.sh: SUBSTR=$SUBSTR: 0 or 1" >&2; exit 2;; esac
nwarcs() { if [ -n "$WARCS" ]; then grep -c . "$WARCS"; else echo 0; fi; }
stage=${1:-}; i=${2:-${SLURM_ARRAY_TASK_ID:-}}
S=$OUT/shards
mkdir -p "$S" "$S/tok"
n4() { printf %04d "$1"; }
need_i() {
  [[ "$i" =~ ^[0-9]+$ ]] || { echo "data_sharded.sh: $stage needs an index (argument or SLURM_ARRAY_TASK_ID)" >&2; exit 2; }
  [ "$i" -lt "$1" ] || { echo "data_sharded.sh: $stage $i: index out of range 0..$(( $1 - 1 ))" >&2; exit 2; }
}
have() { if [ -e "$1" ]; then echo "data_sharded.sh: $stage${i:+ $i}: $1 is there; skipped"; return 0; fi; return 1; }
# cut_into FILE PREFIX: SHARDS contiguous line ranges PREFIX.NNNN.jsonl.zst, then PREFIX.done
cut_into() {
  local tmp k; tmp=$(mktemp -d "$OUT/.cut.XXXXXX")
  split -n l/"$SHARDS" -d -a 4 --additional-suffix=.jsonl "$1" "$tmp/p."
  for k in $(seq 0 $(( SHARDS - 1 ))); do
    [ -e "$tmp/p.$(n4 "$k").jsonl" ] || : > "$tmp/p.$(n4 "$k").jsonl"
    zstd -q --rm "$tmp/p.$(n4 "$k").jsonl" -o "$tmp/p.$(n4 "$k").jsonl.zst"
    mv -f "$tmp/p.$(n4 "$k").jsonl.zst" "$2.$(n4 "$k").jsonl.zst"
  done
  rmdir "$tmp"
  : > "$2.done"
}
shards() { local k; for k in $(seq 0 $(( SHARDS - 1 ))); do printf '%s ' "$S/$1.$(n4 "$k")$2"; done; }

case "$stage" in
extract)
  need_i "$(nwarcs)"; o=$S/web.$(n4 "$i").jsonl.zst; have "$o" && exit 0
  w=$(grep . "$WARCS" | sed -n "$(( i + 1 ))p")
  "$BIN/extract" -j "$WORKERS" "$w" -o "$o" --rejected "$S/web_rejected.$(n4 "$i").tsv" ;;
split)
  have "$S/raw.done" && exit 0
  cat_tmp=$OUT/.corpora.$$.jsonl
  { for c in $CORPORA; do zstd -dqc "$CORPUS_DIR/$c.jsonl.zst"; done
    for k in $(seq 0 $(( $(nwarcs) - 1 ))); do zstd -dqc "$S/web.$(n4 "$k").jsonl.zst"; done; } > "$cat_tmp"
  cut_into "$cat_tmp" "$S/raw"; rm -f "$cat_tmp" ;;
cleanup)
  need_i "$SHARDS"; o=$S/clean.$(n4 "$i").jsonl.zst; have "$o" && exit 0
  "$BIN/cleanup" "$S/raw.$(n4 "$i").jsonl.zst" "$o" --removed "$S/cleanup_removed.$(n4 "$i").jsonl.zst" ;;
minhash)
  need_i "$SHARDS"; o=$S/sig.$(n4 "$i").mh; have "$o" && exit 0
  "$BIN/minhash" --id-field url "$S/clean.$(n4 "$i").jsonl.zst" -o "$o" ;;
find)
  need_i "$BAND_JOBS"; lo=$(( i * BANDS / BAND_JOBS )); hi=$(( (i + 1) * BANDS / BAND_JOBS ))
  o=$S/lsh/cand.$(n4 "$lo")-$(n4 "$hi"); have "$o" && exit 0
  # shellcheck disable=SC2046
  "$BIN/find_duplicates" $(shards sig .mh) --threshold 0.8 --bands "$BANDS" --rows "$ROWS" --memory "$MEMORY" \
    --stage bands --band-range "$lo:$hi" --work-dir "$S/lsh" -j "$WORKERS" ;;
verify)
  have "$OUT/pairs.jsonl" && exit 0
  # shellcheck disable=SC2046
  "$BIN/find_duplicates" $(shards sig .mh) --threshold 0.8 --bands "$BANDS" --rows "$ROWS" --memory "$MEMORY" \
    --stage verify --work-dir "$S/lsh" -j "$WORKERS" -o "$OUT/pairs.jsonl" ;;
group)
  have "$OUT/groups.jsonl" && exit 0
  "$BIN/group_duplicates" --threshold 0.9 "$OUT/pairs.jsonl" -o "$OUT/groups.jsonl" ;;
remove)
  need_i "$SHARDS"; o=$S/dedup.$(n4 "$i").jsonl.zst; have "$o" && exit 0
  earlier=(); for k in $(seq 0 $(( i - 1 ))); do earlier+=(--earlier "$S/clean.$(n4 "$k").jsonl.zst"); done
  "$BIN/remove_duplicates" --id-field url --groups "$OUT/groups.jsonl" "$S/clean.$(n4 "$i").jsonl.zst" -o "$o" \
    --removed "$S/dups_removed.$(n4 "$i").jsonl" "${earlier[@]}" ;;
decont)
  need_i "$SHARDS"; o=$S/decont.$(n4 "$i").jsonl.zst; have "$o" && exit 0
  [ -n "$DECONTAMINATE" ] || { echo "data_sharded.sh: decont needs DECONTAMINATE (evaluation sets)" >&2; exit 2; }
  # shellcheck disable=SC2086
  "$BIN/decontaminate" --eval "$DECONTAMINATE" $DECONT_FLAGS --id-field url "$S/dedup.$(n4 "$i").jsonl.zst" -o "$o" \
    --report "$S/decont_report.$(n4 "$i").jsonl" ;;
substr_find|substr_cross)
  need_i "$SHARDS"; sw=$OUT/substr_work
  if [ "$stage" = substr_find ]; then o=$sw/spans.$(n4 "$i"); else o=$sw/cross.$(n4 "$i"); fi
  have "$o" && exit 0
  # shellcheck disable=SC2046
  "$BIN/substr_dedup" -j "$WORKERS" --id-field url --shards "$SHARDS" --work-dir "$sw" --stage "${stage#substr_}" \
    --index "$i" $(shards "$DD" .jsonl.zst) ;;
substr)
  have "$OUT/substr.jsonl.zst" && exit 0
  # shellcheck disable=SC2046
  "$BIN/substr_dedup" -j "$WORKERS" --id-field url --shards "$SHARDS" --work-dir "$OUT/substr_work" --stage write \
    $(shards "$DD" .jsonl.zst) -o "$OUT/substr.jsonl.zst" --spans "$OUT/substr_spans.jsonl" ;;
shuffle)
  have "$S/part.done" && exit 0
  if [ "$SUBSTR" = 1 ]; then in=$OUT/substr.jsonl.zst; else in=$(shards "$DD" .jsonl.zst); fi
  # shellcheck disable=SC2086
  [ -e "$OUT/corpus.jsonl.zst" ] || "$BIN/shuffle" --seed 1234 $in -o "$OUT/corpus.jsonl.zst"
  tmp=$OUT/.corpus.$$.jsonl; zstd -dqc "$OUT/corpus.jsonl.zst" > "$tmp"
  cut_into "$tmp" "$S/part"; rm -f "$tmp" ;;
tokenize)
  need_i "$SHARDS"; p=$S/tok/part.$(n4 "$i"); have "${p}_text_document.idx" && exit 0
  "$BIN/preprocess_data" --input "$S/part.$(n4 "$i").jsonl.zst" --output-prefix "$p" --append-eod --workers "$WORKERS" ;;
merge)
  have "$OUT/corpus_text_document.idx" && exit 0
  "$BIN/merge_datasets" --input "$S/tok" --output-prefix "$OUT/corpus_text_document"
  "$BIN/inspect_dataset" "$OUT/corpus_text_document" ;;
all)
  self=$0
  each() { seq 0 $(( $2 - 1 )) | xargs -P "$PARALLEL" -I{} bash "$self" "$1" {}; }
  [ "$(nwarcs)" -gt 0 ] && each extract "$(nwarcs)"
  bash "$self" split; each cleanup "$SHARDS"; each minhash "$SHARDS"; each find "$BAND_JOBS"
  bash "$self" verify; bash "$self" group; each remove "$SHARDS"; [ -n "$DECONTAMINATE" ] && each decont "$SHARDS"
  if [ "$SUBSTR" = 1 ]; then each substr_find "$SHARDS"; each substr_cross "$SHARDS"; bash "$self" substr; fi
  bash "$self" shuffle; each tokenize "$SHARDS"; bash "$self" merge
  echo "data_sharded.sh: $OUT/corpus.jsonl.zst and $OUT/corpus_text_document.bin/.idx are ready" ;;
*)
  sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# slurm_data.sh - submit `make data`'s sharded pipeline (scripts/cluster/data_sharded.sh)
# to Slurm: one job or job array per stage, each stage waiting for the one
# before it (afterok). Prints the job ids. Resubmitting after a failure redoes
# only the outputs that are missing.
#   SHARDS=64 BAND_JOBS=16 OUT=/scratch/owt CORPUS_DIR=/data/owt CORPORA="a b c" scripts/cluster/slurm_data.sh
#   WARCS=warc_paths.txt CORPORA="" scripts/cluster/slurm_data.sh     (Common Crawl WARCs: one extract job each)
#   DECONTAMINATE=data/eval scripts/cluster/slurm_data.sh     (evaluation sets' overlaps cut, per shard)
#   SUBSTR=1 scripts/cluster/slurm_data.sh     (exact-substring deduplication after MinHash: a suffix
#                                               array a shard, the cross-shard ranges, the write)
# Env: as data_sharded.sh, plus SBATCH_OPTS (e.g. "--partition=cpu --time=2:00:00
# --cpus-per-task=8 --mem=16G"), MAX_PARALLEL (array tasks at once, default 32).
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARDS=${SHARDS:-4}; BAND_JOBS=${BAND_JOBS:-4}; MAX_PARALLEL=${MAX_PARALLEL:-32}; SUBSTR=${SUBSTR:-0}
export SHARDS BAND_JOBS SUBSTR
D="bash $PWD/scripts/cluster/data_sharded.sh"
dep=""
submit() { # NAME ARRAY_SIZE (0: a single job) STAGE
  local a=() id
  [ "$2" -gt 0 ] && a=(--array="0-$(( $2 - 1 ))%$MAX_PARALLEL")
  # shellcheck disable=SC2086
  id=$(sbatch --parsable --export=ALL --job-name="data-$3" --chdir="$PWD" ${dep:+--dependency=afterok:$dep} \
       "${a[@]}" ${SBATCH_OPTS:-} --wrap "$D $3")
  id=${id%%;*}
  echo "$3: job $id${a:+ (array of $2)}"
  dep=$id
}
# WARCS=LIST (one WARC / WET path per line): an extract job per WARC first
[ -n "${WARCS:-}" ] && { export WARCS; submit extract "$(grep -c . "$WARCS")" extract; }
submit split 0 split
submit cleanup "$SHARDS" cleanup
submit minhash "$SHARDS" minhash
submit find "$BAND_JOBS" find
submit verify 0 verify
submit group 0 group
submit remove "$SHARDS" remove
# DECONTAMINATE=DIR: the evaluation sets' overlaps cut from every shard
[ -n "${DECONTAMINATE:-}" ] && { export DECONTAMINATE DECONT_FLAGS; submit decont "$SHARDS" decont; }
# SUBSTR=1: exact-substring deduplication: a suffix array a shard, the repeats across shards by
# hash range, then one job that writes the corpus with the spans struck
if [ "$SUBSTR" = 1 ]; then
  submit substr_find "$SHARDS" substr_find
  submit substr_cross "$SHARDS" substr_cross
  submit substr 0 substr
fi
submit shuffle 0 shuffle
submit tokenize "$SHARDS" tokenize
submit merge 0 merge
n=10; [ -n "${WARCS:-}" ] && n=$((n + 1)); [ "$SUBSTR" = 1 ] && n=$((n + 3)); [ -n "${DECONTAMINATE:-}" ] && n=$((n + 1))
echo "slurm_data.sh: $n stages submitted; the dataset will be ${OUT:-data/build/sharded}/corpus_text_document.bin/.idx"

#!/usr/bin/env bash
# test_data_sharded.sh - the sharded data pipeline (scripts/cluster/data_sharded.sh, the
# stages scripts/cluster/slurm_data.sh submits as Slurm array jobs) run locally on two
# small corpora gives byte for byte the dataset of the one-process pipeline
# (scripts/make/data.mk with GPT-2's vocabulary); a rerun skips every finished output; a lost output is
# redone alone; stages take SLURM_ARRAY_TASK_ID; the Slurm script submits the
# ten stages as dependent jobs and arrays (through a stand-in sbatch).
. "$(dirname "$0")/lib.sh"
C=$WORK/corpus; mkdir -p "$C"
{ zcat "$FIX/cc/olmo_c4-sample.01.json.gz"; zcat "$FIX/cc/olmo_c4-sample.02.json.gz"; } | zstd -q -o "$C/a.jsonl.zst"
{ zcat "$FIX/cc/olmo_c4-sample.03.json.gz"; zcat "$FIX/cc/olmo_c4-sample.01.json.gz" | sed 's/"url":"/"url":"copy:/';
  zcat "$FIX/cc/olmo_c4_100_domains_theguardian.jsonl.gz"; } | zstd -q -o "$C/b.jsonl.zst"
make --no-print-directory -C "$ROOT" -f scripts/make/data.mk BIN="$BIN" CORPUS_DIR="$C" CORPORA="a b" B="$WORK/one" TOKENIZER=gpt2 > "$WORK/one.out" 2>&1 ||
  { fail sharded_reference "$(tail -3 "$WORK/one.out")"; exit 0; }
export BIN CORPUS_DIR="$C" CORPORA="a b" OUT="$WORK/sh" SHARDS=3 BAND_JOBS=2 WORKERS=1 PARALLEL=2
if bash "$ROOT/scripts/cluster/data_sharded.sh" all > "$WORK/sh.out" 2>&1; then pass sharded_runs; else fail sharded_runs "$(tail -5 "$WORK/sh.out")"; exit 0; fi
if cmp -s "$WORK/one/corpus_text_document.bin" "$WORK/sh/corpus_text_document.bin" &&
   cmp -s "$WORK/one/corpus_text_document.idx" "$WORK/sh/corpus_text_document.idx" &&
   cmp -s <(zstd -dqc "$WORK/one/corpus.jsonl.zst") <(zstd -dqc "$WORK/sh/corpus.jsonl.zst"); then
  pass sharded_same_dataset_as_one_process; else fail sharded_same_dataset_as_one_process; fi
[ "$(cat "$WORK"/sh/shards/dups_removed.*.jsonl | wc -l)" = "$(wc -l < "$WORK/one/dups_removed.jsonl")" ] &&
  pass sharded_same_duplicates_removed || fail sharded_same_duplicates_removed
bash "$ROOT/scripts/cluster/data_sharded.sh" all > "$WORK/again.out" 2>&1
n=$(grep -c 'is there; skipped' "$WORK/again.out")
[ "$n" = 19 ] && ! grep -q '^cleanup:\|^minhash:\|^preprocess_data:' "$WORK/again.out" && pass sharded_rerun_skips_everything ||
  fail sharded_rerun_skips_everything "$n skipped"
rm "$WORK/sh/shards/clean.0001.jsonl.zst"
SLURM_ARRAY_TASK_ID=1 bash "$ROOT/scripts/cluster/data_sharded.sh" cleanup > "$WORK/one_task.out" 2>&1
SLURM_ARRAY_TASK_ID=2 bash "$ROOT/scripts/cluster/data_sharded.sh" cleanup >> "$WORK/one_task.out" 2>&1
[ -s "$WORK/sh/shards/clean.0001.jsonl.zst" ] && [ "$(grep -c '^cleanup:' "$WORK/one_task.out")" = 1 ] && pass sharded_array_task_redoes_lost_output ||
  fail sharded_array_task_redoes_lost_output
expect_exit sharded_bad_index 2 bash "$ROOT/scripts/cluster/data_sharded.sh" cleanup 7
expect_exit sharded_no_index 2 env -u SLURM_ARRAY_TASK_ID bash "$ROOT/scripts/cluster/data_sharded.sh" remove
expect_exit sharded_unknown_stage 2 bash "$ROOT/scripts/cluster/data_sharded.sh" frobnicate
# The Slurm submission, through a stand-in sbatch that records its arguments.
mkdir -p "$WORK/fake"
cat > "$WORK/fake/sbatch" <<'SB'
#!/usr/bin/env bash
n=$(( $(cat "$SBATCH_LOG.n" 2>/dev/null || echo 100) + 1 )); echo $n > "$SBATCH_LOG.n"
echo "$*" >> "$SBATCH_LOG"; echo "$n;cluster"
SB
chmod +x "$WORK/fake/sbatch"
SBATCH_LOG=$WORK/sbatch.log PATH="$WORK/fake:$PATH" SHARDS=8 BAND_JOBS=4 bash "$ROOT/scripts/cluster/slurm_data.sh" > "$WORK/slurm.out" 2>&1
if [ "$(wc -l < "$WORK/sbatch.log")" = 10 ] && grep -q -- '--array=0-7%32.*data_sharded.sh cleanup' "$WORK/sbatch.log" &&
   grep -q -- '--dependency=afterok:101 .*--array=0-7' "$WORK/sbatch.log" && grep -q -- '--array=0-3%32.*find' "$WORK/sbatch.log" &&
   grep -q -- '--dependency=afterok:104 .*data_sharded.sh verify$' "$WORK/sbatch.log" &&
   grep -q -- '--dependency=afterok:109 .*merge' "$WORK/sbatch.log"; then pass slurm_submission
else fail slurm_submission "$(head -c 400 "$WORK/sbatch.log")"; fi
# SUBSTR=1: the substr stages after remove (a suffix array a shard, the cross-shard ranges, the
# write); the same corpus and dataset as make data SUBSTR=1 (one suffix array)
make --no-print-directory -C "$ROOT" -f scripts/make/data.mk BIN="$BIN" CORPUS_DIR="$C" CORPORA="a b" B="$WORK/one" TOKENIZER=gpt2 \
  SUBSTR=1 > "$WORK/one_substr.out" 2>&1 || fail sharded_substr_reference "$(tail -3 "$WORK/one_substr.out")"
if OUT="$WORK/sh2" SUBSTR=1 bash "$ROOT/scripts/cluster/data_sharded.sh" all > "$WORK/sh2.out" 2>&1 &&
   grep -q '^substr_dedup: ' "$WORK/sh2.out" &&
   cmp -s <(zstd -dqc "$WORK/one/corpus.jsonl.zst") <(zstd -dqc "$WORK/sh2/corpus.jsonl.zst") &&
   cmp -s "$WORK/one/corpus_text_document.bin" "$WORK/sh2/corpus_text_document.bin"; then pass sharded_substr_same_as_make_data
else fail sharded_substr_same_as_make_data "$(tail -3 "$WORK/sh2.out")"; fi
# DECONTAMINATE=DIR: the decont stage per shard after remove; the same as make data DECONTAMINATE=DIR
make --no-print-directory -C "$ROOT" -f scripts/make/data.mk BIN="$BIN" CORPUS_DIR="$C" CORPORA="a b" B="$WORK/one3" TOKENIZER=gpt2 \
  DECONTAMINATE="$ROOT/data/eval" > "$WORK/one_decont.out" 2>&1 || fail sharded_decont_reference "$(tail -3 "$WORK/one_decont.out")"
if OUT="$WORK/sh3" DECONTAMINATE="$ROOT/data/eval" bash "$ROOT/scripts/cluster/data_sharded.sh" all > "$WORK/sh3.out" 2>&1 &&
   [ "$(grep -c '^decontaminate: ' "$WORK/sh3.out")" -ge 2 ] &&
   cmp -s <(zstd -dqc "$WORK/one3/corpus.jsonl.zst") <(zstd -dqc "$WORK/sh3/corpus.jsonl.zst") &&
   cmp -s "$WORK/one3/corpus_text_document.bin" "$WORK/sh3/corpus_text_document.bin"; then pass sharded_decont_same_as_make_data
else fail sharded_decont_same_as_make_data "$(tail -3 "$WORK/sh3.out")"; fi
: > "$WORK/sbatch3.log"
SBATCH_LOG=$WORK/sbatch3.log PATH="$WORK/fake:$PATH" SHARDS=8 BAND_JOBS=4 DECONTAMINATE=data/eval bash "$ROOT/scripts/cluster/slurm_data.sh" > "$WORK/slurm3.out" 2>&1
grep -q -- '--array=0-7%32.*data_sharded.sh decont' "$WORK/sbatch3.log" && grep -q '11 stages submitted' "$WORK/slurm3.out" &&
  pass slurm_submission_decont || fail slurm_submission_decont "$(cat "$WORK/slurm3.out")"
: > "$WORK/sbatch2.log"
SBATCH_LOG=$WORK/sbatch2.log PATH="$WORK/fake:$PATH" SHARDS=8 BAND_JOBS=4 SUBSTR=1 bash "$ROOT/scripts/cluster/slurm_data.sh" > "$WORK/slurm2.out" 2>&1
if [ "$(wc -l < "$WORK/sbatch2.log")" = 13 ] && grep -q -- '--array=0-7%32.*data_sharded.sh substr_find' "$WORK/sbatch2.log" &&
   grep -q -- '--array=0-7%32.*data_sharded.sh substr_cross' "$WORK/sbatch2.log" &&
   grep -q 'data-substr .*data_sharded.sh substr$' "$WORK/sbatch2.log" &&
   grep -q '13 stages submitted' "$WORK/slurm2.out"; then pass slurm_submission_substr
else fail slurm_submission_substr "$(cat "$WORK/slurm2.out")"; fi

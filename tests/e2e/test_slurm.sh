#!/usr/bin/env bash
# test_slurm.sh - the cluster scripts under a real Slurm: munged, slurmctld and slurmd started
# here on one node (tests/slurm/lib.sh) and stopped by process id at the end.
#   slurm_data.sh: every stage a real job or array in dependency order; the dataset and the
#     deduplicated documents byte for byte make data's; a cancelled array task and the
#     submission repeated: only what is missing is redone; WARC input: one extract job a WARC.
#   slurm_train.sbatch, 2 tasks: one world of 2 through srun --mpi=pmix; the losses mpirun -np 2's
#     bit for bit, with tp 2 too; scancel --signal=TERM: both ranks save at one iteration, exit 0,
#     and a second submission resumes to the uninterrupted run's final loss; a one-process tool
#     launched as 2 tasks is refused.
# Without the daemons (not root, slurm-wlm missing) everything is skipped with the reason.
# Nothing is written beside the fixtures (the sample indices go to --data-cache-path).
. "$(dirname "$0")/lib.sh"
# The sanitizer tier checks the tools themselves in the other tests; what this one checks is
# Slurm's orchestration of them, which the release tier covers (4.5 minutes saved in CI).
if [ "${TEST_TIER:-rel}" = san ]; then echo "note: test_slurm runs in the release tier only"; exit 0; fi
. "$ROOT/tests/slurm/lib.sh"
if ! slurm_start; then skip slurm_all "$slurm_why"; exit 0; fi
pass "slurm_started (node $(sinfo -h -o %N), $(sinfo -V))"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export LSAN_OPTIONS="fast_unwind_on_malloc=0:suppressions=$ROOT/tests/lsan_mpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
[ "${TEST_TIER:-rel}" = san ] && export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
LOGS=$WORK/logs; mkdir -p "$LOGS"
last_job() { awk '/: job [0-9]+/ { for (i = 1; i <= NF; i++) if ($i == "job") j = $(i + 1) } END { print j }' "$1"; }
job_of() { awk -v s="$2:" '$1 == s { print $3 }' "$1"; }

# ---- the sharded data pipeline ----
C=$WORK/corpus; mkdir -p "$C"
{ zcat "$FIX/cc/olmo_c4-sample.01.json.gz"; zcat "$FIX/cc/olmo_c4-sample.02.json.gz"; } | zstd -q -o "$C/a.jsonl.zst"
{ zcat "$FIX/cc/olmo_c4-sample.03.json.gz"; zcat "$FIX/cc/olmo_c4-sample.01.json.gz" | sed 's/"url":"/"url":"copy:/'; } |
  zstd -q -o "$C/b.jsonl.zst"
make --no-print-directory -C "$ROOT" -f scripts/make/data.mk BIN="$BIN" CORPUS_DIR="$C" CORPORA="a b" B="$WORK/one" TOKENIZER=gpt2 \
  > "$WORK/one.out" 2>&1 || fail slurm_data_reference "$(tail -3 "$WORK/one.out")"
submit_data() { # OUT extra-env...: the pipeline submitted; its job lines in $WORK/submit.out
  local out=$1; shift
  env "$@" BIN="$BIN" CORPUS_DIR="$C" CORPORA="a b" OUT="$out" SHARDS=3 BAND_JOBS=2 WORKERS=1 \
    SBATCH_OPTS="--output=$LOGS/%x-%A_%a.out --cpus-per-task=1 ${HOLD:-}" bash "$ROOT/scripts/cluster/slurm_data.sh" > "$WORK/submit.out" 2>&1
}
t0=$SECONDS
if submit_data "$WORK/sl"; then pass "slurm_data_submitted ($(grep -c ': job' "$WORK/submit.out") jobs and arrays)"
else fail slurm_data_submitted "$(tail -3 "$WORK/submit.out")"; fi
cp "$WORK/submit.out" "$WORK/submit1.out"
last=$(last_job "$WORK/submit1.out")
slurm_wait "$last" 600 || fail slurm_data_finished "job $last still queued"
st=$(slurm_state "$last")
[ "$st" = COMPLETED ] && pass "slurm_data_finished (last job $last $st, $((SECONDS - t0)) s)" ||
  fail slurm_data_finished "last job $last: ${st:-gone}; $(tail -3 "$LOGS"/data-merge-*.out 2>/dev/null)"
# every stage ran as a job of its own (the dependencies keep their order: the result above)
ok=1; prev=0
for s in split cleanup minhash find verify group remove shuffle tokenize merge; do
  j=$(job_of "$WORK/submit1.out" "$s"); [ -n "$j" ] || { ok=0; continue; }
  [ "$(ls "$LOGS"/data-"$s"-"$j"_*.out 2>/dev/null | wc -l)" -ge 1 ] || ok=0
done
[ $ok = 1 ] && pass slurm_data_every_stage_a_job || fail slurm_data_every_stage_a_job "$(ls "$LOGS" | head -20 | tr '\n' ' ')"
[ "$(ls "$LOGS"/data-cleanup-*_*.out | wc -l)" = 3 ] && [ "$(ls "$LOGS"/data-find-*_*.out | wc -l)" = 2 ] &&
  pass slurm_data_arrays_of_their_size || fail slurm_data_arrays_of_their_size "$(ls "$LOGS" | tr '\n' ' ')"
if cmp -s "$WORK/one/corpus_text_document.bin" "$WORK/sl/corpus_text_document.bin" &&
   cmp -s "$WORK/one/corpus_text_document.idx" "$WORK/sl/corpus_text_document.idx" &&
   cmp -s <(zstd -dqc "$WORK/one/dedup.jsonl.zst") <(cat "$WORK"/sl/shards/dedup.*.jsonl.zst | zstd -dqc); then
  pass slurm_data_same_as_make_data; else fail slurm_data_same_as_make_data; fi
# a cancelled array task: submitted held, cleanup task 1 cancelled, the rest released; the jobs
# after it can never run (afterok) and are cancelled; the submission repeated redoes only what
# is missing
rm -rf "$LOGS"; mkdir -p "$LOGS"
HOLD=--hold submit_data "$WORK/sl2"; cp "$WORK/submit.out" "$WORK/submit2.out"
cj=$(job_of "$WORK/submit2.out" cleanup)
scancel "${cj}_1"
for j in $(awk '/: job/ { print $3 }' "$WORK/submit2.out"); do scontrol release "$j" 2>/dev/null || true; done
sj=$(job_of "$WORK/submit2.out" split)
slurm_wait "$sj" 120; slurm_wait "${cj}" 120
for _ in $(seq 100); do [ -s "$WORK/sl2/shards/clean.0002.jsonl.zst" ] && [ -s "$WORK/sl2/shards/clean.0000.jsonl.zst" ] && break; sleep 0.2; done
for j in $(awk '/: job/ { print $3 }' "$WORK/submit2.out"); do scancel "$j" 2>/dev/null || true; done
[ ! -e "$WORK/sl2/shards/clean.0001.jsonl.zst" ] && [ -e "$WORK/sl2/shards/clean.0000.jsonl.zst" ] &&
  pass slurm_data_cancelled_task_left_its_output_missing || fail slurm_data_cancelled_task_left_its_output_missing "$(ls "$WORK/sl2/shards")"
rm -rf "$LOGS"; mkdir -p "$LOGS"
submit_data "$WORK/sl2"; cp "$WORK/submit.out" "$WORK/submit3.out"
last=$(last_job "$WORK/submit3.out"); slurm_wait "$last" 600
sk=$(cat "$LOGS"/data-split-*.out "$LOGS"/data-cleanup-*.out 2>/dev/null | grep -c 'is there; skipped')
ran=$(cat "$LOGS"/data-cleanup-*.out 2>/dev/null | grep -c '^cleanup:')
[ "$(slurm_state "$last")" = COMPLETED ] && [ "$sk" = 3 ] && [ "$ran" = 1 ] &&
  cmp -s "$WORK/one/corpus_text_document.bin" "$WORK/sl2/corpus_text_document.bin" &&
  pass "slurm_data_resubmission_redoes_only_the_missing (split and 2 cleanup tasks skipped, 1 ran)" ||
  fail slurm_data_resubmission_redoes_only_the_missing "state $(slurm_state "$last"), $sk skipped, $ran cleanup ran"
# WARC input: one extract job a WARC
W=$FIX/warc
printf '%s\n' "$W/whirlwind.warc.wet.gz" "$W/whirlwind.warc.gz" > "$WORK/warcs.txt"
rm -rf "$LOGS"; mkdir -p "$LOGS"
submit_data "$WORK/sl3" WARCS="$WORK/warcs.txt"; cp "$WORK/submit.out" "$WORK/submit4.out"
last=$(last_job "$WORK/submit4.out"); slurm_wait "$last" 600
[ "$(slurm_state "$last")" = COMPLETED ] && [ "$(ls "$LOGS"/data-extract-*_*.out | wc -l)" = 2 ] &&
  [ -s "$WORK/sl3/shards/web.0000.jsonl.zst" ] && [ -s "$WORK/sl3/shards/web.0001.jsonl.zst" ] &&
  [ -s "$WORK/sl3/corpus_text_document.bin" ] && pass slurm_data_warcs_one_extract_job_each ||
  fail slurm_data_warcs_one_extract_job_each "$(slurm_state "$last"); $(ls "$LOGS" | tr '\n' ' ')"

# ---- the training script: 2 tasks through srun --mpi=pmix ----
if ! ldd "$BIN/train" | grep -q libmpi; then skip slurm_train "bin/train was built without MPI"; exit 0; fi
D=$FIX/gptdata
MODEL="--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 32 --max-position-embeddings 32"
# the script's fixed flags, for mpirun's run of the same training
SAME="--micro-batch-size 2 --global-batch-size 8 --lr 6e-4 --min-lr 6e-5 --lr-decay-style cosine --lr-warmup-iters 4
  --weight-decay 0.1 --adam-beta2 0.95 --clip-grad 1.0 --device cpu --use-distributed-optimizer --data-path $D/a
  --split 969,30,1 --eval-interval 1000 --eval-iters 20 --log-interval 10 --save-interval 1000
  --data-cache-path $WORK/cache"
sub_train() { # SAVE ITERS EXTRA: the sbatch script submitted from $WORK; prints the job id
  (cd "$WORK" && env DATA="$D/a" SAVE="$1" BIN="$BIN" MBS=2 GBS=8 WARMUP=4 TRAIN_ITERS="$2" MODEL="$MODEL" \
     EXTRA="--data-cache-path $WORK/cache $3" \
     sbatch --parsable --nodes=1 --ntasks-per-node=2 --cpus-per-task=1 --time=10 --output="$LOGS/train-%j.out" \
     "$ROOT/scripts/cluster/slurm_train.sbatch")
}
losses() { grep -o '"iteration":[0-9]*,"consumed_samples":[0-9]*,"lm_loss":[^,]*' "$1"; }
for lay in "" "--tensor-model-parallel-size 2"; do
  n=dp2; [ -n "$lay" ] && n=tp2
  j=$(sub_train "$WORK/ck_$n" 40 "$lay")
  slurm_wait "$j" 300
  [ "$(slurm_state "$j")" = COMPLETED ] && grep -q 'world 2 = ' "$LOGS/train-$j.out" &&
    pass "slurm_train_${n}_one_world_of_2 ($(grep -o 'world 2 = [^;]*' "$LOGS/train-$j.out"))" ||
    fail "slurm_train_${n}_one_world_of_2" "$(slurm_state "$j"): $(grep -i 'error\|layout' "$LOGS/train-$j.out" | head -3)"
  # shellcheck disable=SC2086
  OMP_NUM_THREADS=1 timeout 300 mpirun -np 2 "$BIN/train" $MODEL $SAME --lr-warmup-iters 4 --train-iters 40 $lay \
    --save "$WORK/mp_$n" > "$WORK/mp_$n.out" 2>&1
  a=$(losses "$WORK/ck_$n/train_log.jsonl"); b=$(losses "$WORK/mp_$n/train_log.jsonl")
  [ -n "$a" ] && [ "$a" = "$b" ] && pass "slurm_train_${n}_same_losses_as_mpirun ($(echo "$a" | wc -l) logged)" ||
    fail "slurm_train_${n}_same_losses_as_mpirun" "$(echo "$a" | tail -1) / $(echo "$b" | tail -1)"
done
# preemption: scancel --signal=TERM mid-run, then the submission again resumes it
j=$(sub_train "$WORK/ck_full" 120 "")
slurm_wait "$j" 300
j=$(sub_train "$WORK/ck_pre" 120 "")
for _ in $(seq 600); do grep -q '"iteration":[5-9][0-9],\|"iteration":[1-9][0-9][0-9],' "$WORK/ck_pre/train_log.jsonl" 2>/dev/null && break; sleep 0.1; done
scancel --signal=TERM "$j"
slurm_wait "$j" 120
it=$(cat "$WORK/ck_pre/latest_checkpointed_iteration.txt" 2>/dev/null || echo none)
[ "$(slurm_state "$j")" = COMPLETED ] && grep -q 'received SIGTERM at iteration' "$LOGS/train-$j.out" &&
  [ "$it" != none ] && [ "$it" -lt 120 ] && pass "slurm_train_term_saves_and_exits_0 (saved at iteration $it)" ||
  fail slurm_train_term_saves_and_exits_0 "$(slurm_state "$j"), latest $it: $(grep -i 'sigterm\|error' "$LOGS/train-$j.out" | head -3)"
[ "$(ls -d "$WORK"/ck_pre/iter_* 2>/dev/null | wc -l)" = 1 ] && pass slurm_train_term_one_checkpoint ||
  fail slurm_train_term_one_checkpoint "$(ls "$WORK/ck_pre")"
j=$(sub_train "$WORK/ck_pre" 120 "")
slurm_wait "$j" 300
f1=$(grep '"final":true' "$WORK/ck_full/train_log.jsonl" | grep -o '"val_loss":[^,]*')
f2=$(grep '"final":true' "$WORK/ck_pre/train_log.jsonl" | grep -o '"val_loss":[^,]*')
l1=$(losses "$WORK/ck_full/train_log.jsonl" | tail -1 | grep -o '"lm_loss":.*'); l2=$(losses "$WORK/ck_pre/train_log.jsonl" | tail -1 | grep -o '"lm_loss":.*')
[ -n "$f1" ] && [ "$f1" = "$f2" ] && [ "$l1" = "$l2" ] && pass "slurm_train_resubmission_resumes_exactly ($f1)" ||
  fail slurm_train_resubmission_resumes_exactly "$f1 / $f2; $l1 / $l2"
# a one-process tool launched as 2 tasks is refused by each (the trainer built without MPI takes
# the same path: tests/unit/test_launch.c)
echo '{"text":"a b c"}' > "$WORK/in.jsonl"
srun -n 2 "$BIN/tokenize" "$WORK/in.jsonl" > "$WORK/srun_tool.out" 2>&1; rc=$?
[ "$rc" != 0 ] && grep -q 'srun' "$WORK/srun_tool.out" && pass "slurm_one_process_tool_refused_under_srun" ||
  fail slurm_one_process_tool_refused_under_srun "exit $rc: $(head -2 "$WORK/srun_tool.out")"
slurm_stop
# the daemons gone, and the job steps' slurmstepd after them
for _ in $(seq 100); do ps -e -o comm= | grep -qx 'slurmctld\|slurmd\|munged\|slurmstepd' || break; sleep 0.1; done
! ps -e -o comm= | grep -qx 'slurmctld\|slurmd\|munged\|slurmstepd' && pass slurm_daemons_stopped ||
  fail slurm_daemons_stopped "$(ps -e -o pid=,comm= | grep 'slurm\|munge')"

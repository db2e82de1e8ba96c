#!/usr/bin/env bash
# test_evaluate.sh - bin/evaluate: a checkpoint trained here scored on the evaluation sets of
# data/eval (HellaSwag, ARC-Easy, PIQA) and a Winogrande-format set, zero-shot; the per-item
# log-likelihoods and the accuracies equal lm-evaluation-harness's own on the same checkpoint
# exported to Hugging Face (scripts/check/check_lm_eval.py, where lm_eval and torch import:
# scripts/setup/install_deps.sh --bench), with the window cutting contexts on the left too;
# the same against an independent numpy reference of lm-eval's rules (make test's check);
# bad task files are named; the output is near chance and says so.
. "$(dirname "$0")/lib.sh"
export OMP_NUM_THREADS=2
# the sanitizer tier scores fewer items (the same paths; the numbers are the release tier's)
N=40; N24=30; [ "${TEST_TIER:-rel}" = san ] && N=8 N24=8
D=$FIX/gptdata; EV=$ROOT/data/eval
M="--num-layers 2 --hidden-size 64 --num-attention-heads 4 --micro-batch-size 4 --global-batch-size 8
   --lr 3e-3 --split 90,8,2 --data-cache-path $WORK --eval-iters 0 --device cpu --train-iters 20 --data-path $D/a"
expect_exit train_160 0 "$BIN/train" $M --seq-length 160 --save "$WORK/ck160"
expect_exit train_24 0 "$BIN/train" $M --seq-length 24 --save "$WORK/ck24"
cat > "$WORK/wino.jsonl" <<'W'
{"sentence": "The trophy doesn't fit into the brown suitcase because the _ is too large.", "option1": "trophy", "option2": "suitcase", "answer": "1"}
{"sentence": "The trophy doesn't fit into the brown suitcase because the _ is too small.", "option1": "trophy", "option2": "suitcase", "answer": "2"}
{"sentence": "Sarah was a much better surgeon than Maria so _ always got the harder cases.", "option1": "Sarah", "option2": "Maria", "answer": "1"}
{"sentence": "Sarah was a much better surgeon than Maria so _ always got the easier cases.", "option1": "Sarah", "option2": "Maria", "answer": "2"}
W
T160="--tasks $EV/arc_easy_val.jsonl --tasks $EV/hellaswag_val1000.jsonl --tasks $EV/piqa_val.jsonl --tasks $WORK/wino.jsonl"
T24="--tasks $EV/arc_easy_val.jsonl --tasks $WORK/wino.jsonl"
expect_exit evaluate_160 0 "$BIN/evaluate" --load "$WORK/ck160" --limit $N $T160 -o "$WORK/ours160.jsonl"
cp "$WORK/.out" "$WORK/table160"
grep -q "^hellaswag_val1000 *$N " "$WORK/table160" && grep -q '^wino  *4 .* - ' "$WORK/table160" &&
  pass "evaluate_table ($(grep -c . "$WORK/ours160.jsonl") items)" || fail evaluate_table "$(cat "$WORK/table160")"
grep -q 'within three standard errors of chance' "$WORK/table160" && pass evaluate_says_near_chance || fail evaluate_says_near_chance
expect_exit evaluate_24 0 "$BIN/evaluate" --load "$WORK/ck24" --limit $N24 $T24 -o "$WORK/ours24.jsonl"
grep -q '^arc_easy_val .* [1-9][0-9]* of [0-9]* requests' "$WORK/.out" && pass evaluate_counts_truncated ||
  fail evaluate_counts_truncated "$(cat "$WORK/.out")"
# the default tasks are the project's data/eval; the default batch and a batch of one agree
expect_exit evaluate_default_tasks 0 "$BIN/evaluate" --load "$WORK/ck160" --limit 5 --batch-size 1 -o "$WORK/b1.jsonl"
expect_exit evaluate_batch_16 0 "$BIN/evaluate" --load "$WORK/ck160" --limit 5 -o "$WORK/b16.jsonl"
"$PY" - "$WORK/b1.jsonl" "$WORK/b16.jsonl" <<'PY' && pass evaluate_batch_independent || fail evaluate_batch_independent
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]; b = [json.loads(l) for l in open(sys.argv[2])]
ok = len(a) == len(b) == 15 and all(x["task"] == y["task"] and max(abs(p - q) for p, q in zip(x["loglikelihoods"], y["loglikelihoods"])) < 1e-4 for x, y in zip(a, b))
sys.exit(0 if ok else 1)
PY
# against references: lm-evaluation-harness's rules written again in Python over the HF export run
# in numpy float64 and tokenized by Hugging Face's tokenizers (make test's venv has them); and
# lm-evaluation-harness itself where lm_eval and torch import (make bench's venv: install_deps.sh
# --bench; where they do not, that comparison is left to it and noted, not counted)
expect_exit hf_export_160 0 "$BIN/convert_checkpoint" --load "$WORK/ck160" --to hf "$WORK/hf160"
expect_exit hf_export_24 0 "$BIN/convert_checkpoint" --load "$WORK/ck24" --to hf "$WORK/hf24"
LM=0; has_py lm_eval.models.huggingface torch transformers datasets && LM=1
for s in 160 24; do
  if [ $s = 160 ]; then files="$EV/arc_easy_val.jsonl $EV/hellaswag_val1000.jsonl $EV/piqa_val.jsonl $WORK/wino.jsonl"; n=$N
  else files="$EV/arc_easy_val.jsonl $WORK/wino.jsonl"; n=$N24; fi
  if ! has_py numpy tokenizers; then skip "same_as_reference_window_$s" "numpy and tokenizers not importable by $PY"
  # shellcheck disable=SC2086
  elif r=$("$PY" "$ROOT/scripts/check/check_scores_numpy.py" "$WORK/hf$s" "$WORK/ours$s.jsonl" $n $files 2> "$WORK/np$s.err"); then
    pass "same_as_reference_window_$s ($(echo "$r" | tr '\n' ';'))"
  else
    fail "same_as_reference_window_$s" "$r $(tail -3 "$WORK/np$s.err")"
  fi
  if [ $LM = 0 ]; then
    echo "note: same_as_lm_eval_window_$s not run: lm_eval with torch not importable by $PY (install_deps.sh --bench)"
  # shellcheck disable=SC2086
  elif r=$("$PY" "$ROOT/scripts/check/check_lm_eval.py" "$WORK/hf$s" "$WORK/ours$s.jsonl" $n $files 2> "$WORK/lm$s.err"); then
    pass "same_as_lm_eval_window_$s ($(echo "$r" | sed 's/, ours.*//' | tr '\n' ';'))"
  else
    fail "same_as_lm_eval_window_$s" "$r $(grep -v -i 'warn\|it/s\|%' "$WORK/lm$s.err" | tail -3)"
  fi
done
# during training: --eval-tasks every --eval-interval and at the end, into the log; the final
# scores are bin/evaluate's on the checkpoint saved (the trainer's shape: micro-batch x seq-length)
expect_exit train_eval_tasks 0 "$BIN/train" $M --seq-length 128 --eval-interval 10 --eval-iters 1 --save "$WORK/ckt" \
  --eval-tasks "$EV" --eval-tasks-limit $N24
grep -q '^ task scores at iteration 10 (zero-shot): arc_easy_val acc' "$WORK/.out" && pass train_prints_task_scores ||
  fail train_prints_task_scores "$(grep -i task "$WORK/.out" | head -3)"
expect_exit evaluate_saved 0 "$BIN/evaluate" --load "$WORK/ckt" --limit $N24 -o "$WORK/ckt.jsonl"
"$PY" - "$WORK/ckt/train_log.jsonl" "$WORK/ckt.jsonl" <<'PY' && pass train_scores_equal_evaluate || fail train_scores_equal_evaluate
import json, sys
final = [json.loads(l) for l in open(sys.argv[1]) if '"tasks"' in l and '"final":true' in l][-1]["tasks"]
items = [json.loads(l) for l in open(sys.argv[2])]
ok = bool(final)
for t, v in final.items():
    its = [i for i in items if i["task"] == t]
    acc = sum(i["pred"] == i["gold"] for i in its) / len(its)
    norm = sum(i["pred_norm"] == i["gold"] for i in its) / len(its)
    ok &= len(its) == v["items"] and abs(acc - v["acc"]) < 1e-6 and abs(norm - v["acc_norm"]) < 1e-6
sys.exit(0 if ok else 1)
PY
if command -v mpirun >/dev/null 2>&1 && ldd "$BIN/train" | grep -q libmpi; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  export LSAN_OPTIONS="fast_unwind_on_malloc=0:suppressions=$ROOT/tests/lsan_mpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  MPI="timeout 200 mpirun --oversubscribe"
  [ "${TEST_TIER:-rel}" = san ] && MPI="timeout 200 env ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 mpirun --oversubscribe"
  for lay in "--tensor-model-parallel-size 2" "--use-distributed-optimizer"; do
    n=$(echo "$lay" | tr -dc 'a-z' | cut -c1-12)
    expect_exit "train_eval_tasks_$n" 0 env OMP_NUM_THREADS=1 $MPI -np 2 "$BIN/train" $M --seq-length 128 --eval-interval 10 \
      --eval-iters 1 --save "$WORK/ck_$n" --eval-tasks "$EV" --eval-tasks-limit $N24 $lay
    a=$(grep '"final":true' "$WORK/ckt/train_log.jsonl" | grep -o '"tasks".*'); b=$(grep '"final":true' "$WORK/ck_$n/train_log.jsonl" | grep -o '"tasks".*')
    [ -n "$a" ] && [ "$a" = "$b" ] && pass "train_eval_tasks_same_scores_$n" || fail "train_eval_tasks_same_scores_$n" "$a / $b"
  done
  expect_exit eval_tasks_pipeline_refused 2 env OMP_NUM_THREADS=1 $MPI -np 2 "$BIN/train" $M --seq-length 128 \
    --pipeline-model-parallel-size 2 --eval-tasks "$EV"
  stderr_has eval_tasks_pipeline_message "--eval-tasks: scoring runs on one pipeline stage"
else
  skip train_eval_tasks_parallel "bin/train without MPI or no mpirun"
fi
# bad input
{ head -2 "$EV/piqa_val.jsonl"; echo '{"goal": '; } > "$WORK/bad.jsonl"
expect_exit bad_task_line 1 "$BIN/evaluate" --load "$WORK/ck160" --tasks "$WORK/bad.jsonl"
stderr_has bad_task_line_named "bad.jsonl: line 3: not JSON"
echo '{"text": "no choices"}' > "$WORK/odd.jsonl"
expect_exit unknown_format 1 "$BIN/evaluate" --load "$WORK/ck160" --tasks "$WORK/odd.jsonl"
stderr_has unknown_format_named "odd.jsonl: line 1: a record of no known multiple-choice format"
: > "$WORK/empty.jsonl"
expect_exit empty_task 1 "$BIN/evaluate" --load "$WORK/ck160" --tasks "$WORK/empty.jsonl"
stderr_has empty_task_named "empty.jsonl: no items"
echo '{"question": "q?", "choices": {"text": ["a", "b"], "label": ["A", "B"]}, "answerKey": "C"}' > "$WORK/arcbad.jsonl"
expect_exit bad_gold 1 "$BIN/evaluate" --load "$WORK/ck160" --tasks "$WORK/arcbad.jsonl"
stderr_has bad_gold_named "arcbad.jsonl: line 1: an ARC record whose \"answerKey\" is not among"
expect_exit no_load 2 "$BIN/evaluate" --tasks "$EV"
check help "$BIN/evaluate" --help

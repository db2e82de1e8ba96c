#!/usr/bin/env bash
# test_train.sh - bin/train and bin/generate end to end on the small fixture
# datasets (tests/fixtures/gptdata/{a,b}, GPT-2 token ids): Megatron log layout,
# JSON log, bit-identical resume, SIGTERM checkpoint, refused damaged or
# mismatched checkpoints, NaN skipping, bad input, generation.
. "$(dirname "$0")/lib.sh"
export OMP_NUM_THREADS=2
D=$FIX/gptdata
# A tiny model: 2 layers, width 32, 16 positions.
M="--num-layers 2 --hidden-size 32 --num-attention-heads 2 --seq-length 16 --micro-batch-size 2 --global-batch-size 4
   --lr 3e-3 --min-lr 3e-4 --lr-decay-style cosine --lr-warmup-iters 2 --weight-decay 0.1 --adam-beta2 0.95
   --split 90,8,2 --data-cache-path $WORK/cache --eval-interval 5 --eval-iters 2 --log-interval 1 --device cpu"
mkdir -p "$WORK/cache"

# --- a plain run: Megatron's log layout, JSON lines, validation and test loss
expect_exit run_ok 0 "$BIN/train" $M --train-iters 10 --data-path "$D/a" --log-json "$WORK/log1.jsonl"
cp "$WORK/.out" "$WORK/run1.out"
if grep -qE '^ \[[0-9-]+ [0-9:]+\] iteration +10/ +10 \| consumed samples: +40 \| elapsed time per iteration \(ms\): [0-9.]+ \| throughput per GPU \(TFLOP/s/GPU\): [0-9.]+ \| tokens per second: [0-9]+ \| MFU: [0-9.]+% \| learning rate: [0-9.]+E[-+][0-9]+ \| global batch size: +4 \| lm loss: [0-9.]+E\+[0-9]+ \| loss scale: 1.0 \| grad norm: [0-9.]+ \| number of skipped iterations: +0 \| number of nan iterations: +0 \|$' "$WORK/run1.out"; then
  pass log_layout; else fail log_layout "$(grep 'iteration  *10/' "$WORK/run1.out")"; fi
# The start-up lines name the BLAS and the kernels it runs (issue 26): a CPU's
# own choice, and OPENBLAS_CORETYPE forcing narrower kernels, with a note.
if grep -qE '^> blas: OpenBLAS [0-9.]+ \([a-z]+(, dynamic)?\), kernels [A-Za-z0-9]+ \((SSE|AVX|AVX2|AVX-512)\)' "$WORK/run1.out"; then
  pass blas_named; else fail blas_named "$(grep '^> blas' "$WORK/run1.out")"; fi
expect_exit blas_forced_run 0 env OPENBLAS_CORETYPE=Prescott "$BIN/train" $M --train-iters 1 --eval-iters 0 --data-path "$D/a"
if grep -q '^> blas: .*kernels Prescott (SSE) as OPENBLAS_CORETYPE asks' "$WORK/.out"; then pass blas_forced_named
else fail blas_forced_named "$(grep '^> blas' "$WORK/.out")"; fi
if grep -q 'avx2' /proc/cpuinfo; then stderr_has blas_forced_note "narrower than this CPU allows"; fi
if grep -q 'validation loss at iteration 5 | lm loss value: .* | lm loss PPL: ' "$WORK/run1.out" &&
   grep -q 'validation loss at the end of training for test data' "$WORK/run1.out"; then pass val_test_loss; else fail val_test_loss; fi
if [ "$(grep -c '"lm_loss"' "$WORK/log1.jsonl")" = 10 ] && [ "$(grep -c '"val_loss"' "$WORK/log1.jsonl")" = 3 ]; then
  pass json_log; else fail json_log "$(wc -l < "$WORK/log1.jsonl") lines"; fi
# On real text (a Common Crawl fixture, tokenized here) the loss falls clearly.
"$BIN/preprocess_data" --input "$FIX/cc/dolma_cc_en_head-0091.jsonl" --output-prefix "$WORK/real" --append-eod -q >/dev/null 2>&1
expect_exit real_text 0 "$BIN/train" ${M/--lr 3e-3/--lr 1e-2} --train-iters 40 --data-path "$WORK/real_text_document" --log-json "$WORK/real.jsonl"
"$PY" - "$WORK/real.jsonl" <<'PY' && pass loss_falls || fail loss_falls "$(grep -o '"lm_loss":[0-9.]*' "$WORK/real.jsonl" | sed -n '1p;$p' | tr '\n' ' ')"
import json, sys
l = [json.loads(x) for x in open(sys.argv[1]) if '"lm_loss"' in x]
sys.exit(0 if l[-1]["lm_loss"] < l[0]["lm_loss"] - 1.0 else 1)
PY
# The learning-rate schedule: warmup 0 -> 3e-3 over 2 iterations, cosine to 3e-4 at 10.
"$PY" - "$WORK/log1.jsonl" <<'PY' && pass lr_schedule || fail lr_schedule
import json, math, sys
l = [json.loads(x) for x in open(sys.argv[1]) if '"lm_loss"' in x]
def lr(n):  # Megatron OptimizerParamScheduler, n iterations done
    if n <= 2: return 3e-3 * n / 2
    r = (n - 2) / (10 - 2)
    return 3e-4 + 0.5 * (math.cos(math.pi * r) + 1) * (3e-3 - 3e-4)
sys.exit(0 if all(abs(x["learning_rate"] - lr(x["iteration"] - 1)) <= 1e-8 * lr(x["iteration"] - 1) for x in l) else 1)
PY
# The loss curve as a picture (scripts/make/plot_loss.sh, used by make train): well-formed SVG with one
# point per logged iteration, the validation points and the unigram line.
if bash "$ROOT/scripts/make/plot_loss.sh" "$WORK/log1.jsonl" "$WORK/loss.svg" &&
   "$PY" - "$WORK/loss.svg" <<'PY'
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot(); ns = "{http://www.w3.org/2000/svg}"
pts = r.find(ns + "polyline").get("points").split()
sys.exit(0 if len(pts) == 10 and len(r.findall(ns + "circle")) >= 3 and any(l.get("stroke-dasharray") for l in r.iter(ns + "line")) else 1)
PY
then pass loss_curve_svg; else fail loss_curve_svg; fi
bash "$ROOT/scripts/make/plot_loss.sh" /dev/null "$WORK/none.svg" 2>/dev/null && fail loss_curve_empty_log || { [ ! -e "$WORK/none.svg" ] && pass loss_curve_empty_log || fail loss_curve_empty_log "left a file"; }
# The same run again gives the same losses bit for bit.
expect_exit rerun 0 "$BIN/train" $M --train-iters 10 --data-path "$D/a" --log-json "$WORK/log1b.jsonl"
if diff <(grep -o '"lm_loss":[^,]*,"grad_norm":[^,]*' "$WORK/log1.jsonl") \
        <(grep -o '"lm_loss":[^,]*,"grad_norm":[^,]*' "$WORK/log1b.jsonl") >/dev/null; then pass reproducible; else fail reproducible; fi
# WEBTEXT_PROFILE=1 times each operation of the table (train/ops/ops_profile.c): the report, and
# the same losses; --recompute-activations on the CPU: the same losses too.
expect_exit profile_run 0 env WEBTEXT_PROFILE=1 "$BIN/train" $M --train-iters 10 --data-path "$D/a" --log-json "$WORK/log1p.jsonl"
if grep -q '^> profile (WEBTEXT_PROFILE=1, cpu table): ' "$WORK/.out" && grep -qE '^>   matmul forward +[0-9.]+ ms +[0-9]+ calls' "$WORK/.out" &&
   grep -q '^>   outside (communication, data, host)' "$WORK/.out" &&
   grep -qE '^> profile split \(rank 0\): compute [0-9.]+ ms \([0-9.]+ %\), collectives 0.0 ms in 0 calls' "$WORK/.out"
then pass profile_report; else fail profile_report "$(grep '^> *profile' "$WORK/.out")"; fi
# WEBTEXT_PROFILE=events: the table's timing events instead of a sync after each operation (the
# CUDA table's; the checked table's stand for them and count a read before a sync as a violation):
# the report, no violation, and the losses of the checked table unprofiled
expect_exit checked_run 0 "$BIN/train" ${M/--device cpu/--device checked} --train-iters 6 --data-path "$D/a" --log-json "$WORK/logck.jsonl"
expect_exit profile_events_run 0 env WEBTEXT_PROFILE=events "$BIN/train" ${M/--device cpu/--device checked} --train-iters 6 \
  --data-path "$D/a" --log-json "$WORK/logcke.jsonl"
if grep -q '^> profile (WEBTEXT_PROFILE=events: device time, no syncs, checked table): ' "$WORK/.out" &&
   grep -qE '^>   matmul forward +[0-9.]+ ms +[0-9]+ calls' "$WORK/.out" && ! grep -q 'device-discipline' "$WORK/.err" &&
   diff <(grep -o '"lm_loss":[^,]*,"grad_norm":[^,]*' "$WORK/logck.jsonl") \
        <(grep -o '"lm_loss":[^,]*,"grad_norm":[^,]*' "$WORK/logcke.jsonl") >/dev/null
then pass profile_events_report; else fail profile_events_report "$(grep '^> *profile' "$WORK/.out"; grep device-discipline "$WORK/.err" | head -2)"; fi
expect_exit recompute_run 0 "$BIN/train" $M --train-iters 10 --data-path "$D/a" --log-json "$WORK/log1r.jsonl" --recompute-activations
for f in log1p log1r; do
  if diff <(grep -o '"lm_loss":[^,]*,"grad_norm":[^,]*' "$WORK/log1.jsonl") \
          <(grep -o '"lm_loss":[^,]*,"grad_norm":[^,]*' "$WORK/$f.jsonl") >/dev/null; then pass "${f}_same_losses"; else fail "${f}_same_losses"; fi
done
# The sample index was cached in --data-cache-path (and nothing written next to the fixture).
if ls "$WORK/cache"/a.train.*.gptidx >/dev/null 2>&1 && ! ls "$D"/*.gptidx >/dev/null 2>&1; then pass index_cache; else fail index_cache; fi
# --data-cache-path shared with Megatron-LM: our files (PREFIX.SPLIT.HASH.gptidx, magic WTGPTIDX)
# and Megatron's (MD5-GPTDataset-SPLIT-*.npy, MD5-BlendedDataset-...) never share a name, and a
# Megatron cache there is neither read nor touched.
for f in document_index sample_index shuffle_index; do
  printf 'not ours' > "$WORK/cache/0123456789abcdef0123456789abcdef-GPTDataset-train-$f.npy"; done
expect_exit cache_megatron_beside 0 "$BIN/train" $M --train-iters 2 --eval-iters 0 --data-path "$D/a"
if [ "$(cat "$WORK"/cache/*-GPTDataset-train-*.npy)" = "not oursnot oursnot ours" ] &&
   ! ls "$WORK/cache" | grep -v -e '\.gptidx$' -e '-GPTDataset-' | grep -q . &&
   [ "$(head -c 8 "$(ls "$WORK"/cache/a.train.*.gptidx | head -1)")" = WTGPTIDX ]; then pass cache_megatron_names
else fail cache_megatron_names "$(ls "$WORK/cache")"; fi

# --- bit-identical resume: 12 iterations straight vs 6 + exit + resume 6
expect_exit straight 0 "$BIN/train" $M --train-iters 12 --data-path "$D/a" --save "$WORK/ckA" --save-interval 6
expect_exit first_half 0 "$BIN/train" $M --train-iters 12 --data-path "$D/a" --save "$WORK/ckB" --exit-interval 6
if [ "$(cat "$WORK/ckB/latest_checkpointed_iteration.txt")" = 6 ] && [ ! -e "$WORK/ckB/iter_0000012" ]; then pass exit_interval; else fail exit_interval; fi
expect_exit resume 0 "$BIN/train" $M --train-iters 12 --data-path "$D/a" --save "$WORK/ckB" --load "$WORK/ckB"
grep -q 'loaded checkpoint .*iter_0000006/model.ckpt at iteration 6' "$WORK/.out" && pass resume_message || fail resume_message
if diff <(grep -o '"iteration":\(7\|8\|9\|10\|11\|12\),[^}]*"lm_loss":[^,]*,"grad_norm":[^,]*' "$WORK/ckA/train_log.jsonl" | sed 's/"ms_per.*//') \
        <(grep -o '"iteration":\(7\|8\|9\|10\|11\|12\),[^}]*"lm_loss":[^,]*,"grad_norm":[^,]*' "$WORK/ckB/train_log.jsonl" | sed 's/"ms_per.*//') >"$WORK/d" &&
   [ "$(grep -c '"iteration":1[0-2],' "$WORK/ckB/train_log.jsonl")" -ge 3 ]; then pass resume_same_losses; else fail resume_same_losses "$(head -5 "$WORK/d")"; fi
if cmp -s "$WORK/ckA/iter_0000012/model.ckpt" "$WORK/ckB/iter_0000012/model.ckpt"; then pass resume_bit_identical; else fail resume_bit_identical; fi
no_tmp_left "$WORK/ckB" ckpt_no_tmp
# --- --cpu-offload (a device table, here the checked one, bf16): AdamW on the CPU table over the
# host's master weights and moments, the compute weights uploaded chunk by chunk: the same bits as
# the device's AdamW (both the CPU kernels here); a checkpoint saved with it resumes without it
MO="${M/--device cpu/--device checked} --bf16 --train-iters 12 --data-path $D/a"
expect_exit offload_ref 0 "$BIN/train" $MO --save "$WORK/ckO1" --save-interval 6
expect_exit offload_run 0 "$BIN/train" $MO --cpu-offload --save "$WORK/ckO2" --save-interval 6
grep -q '^> device checked .*optimizer on the CPU (--cpu-offload' "$WORK/.out" &&
  grep -q 'memory per rank .*(params 2.000 + grads 4.000 + moments 0.000)' "$WORK/.out" && pass offload_banner ||
  fail offload_banner "$(grep '^> device\|memory per rank' "$WORK/.out" | cut -c1-300)"
if diff <(grep -o '"lm_loss":[^,]*,"grad_norm":[^,]*' "$WORK/ckO1/train_log.jsonl") \
        <(grep -o '"lm_loss":[^,]*,"grad_norm":[^,]*' "$WORK/ckO2/train_log.jsonl") >/dev/null &&
   cmp -s "$WORK/ckO1/iter_0000012/model.ckpt" "$WORK/ckO2/iter_0000012/model.ckpt"; then pass offload_same_bits
else fail offload_same_bits; fi
expect_exit offload_half 0 "$BIN/train" $MO --cpu-offload --save "$WORK/ckO3" --exit-interval 6
expect_exit offload_resume_plain 0 "$BIN/train" $MO --save "$WORK/ckO3" --load "$WORK/ckO3"
if cmp -s "$WORK/ckO1/iter_0000012/model.ckpt" "$WORK/ckO3/iter_0000012/model.ckpt"; then pass offload_resume_bit_identical
else fail offload_resume_bit_identical; fi
expect_exit offload_zero1_refused 2 "$BIN/train" $MO --cpu-offload --use-distributed-optimizer
stderr_has offload_zero1_says "--cpu-offload with ZeRO stage 1"

# --- damaged and mismatched checkpoints are refused
cp -r "$WORK/ckA" "$WORK/ckC"
printf '\x55' | dd of="$WORK/ckC/iter_0000012/model.ckpt" bs=1 seek=5000 conv=notrunc status=none
expect_exit corrupt_refused 1 "$BIN/train" $M --train-iters 14 --data-path "$D/a" --load "$WORK/ckC"
stderr_has corrupt_message "checksum mismatch"
truncate -s 1000 "$WORK/ckC/iter_0000012/model.ckpt"
expect_exit truncated_refused 1 "$BIN/train" $M --train-iters 14 --data-path "$D/a" --load "$WORK/ckC"
stderr_has truncated_message "truncated or damaged"
head -c 400 /dev/urandom > "$WORK/ckC/iter_0000012/model.ckpt"
expect_exit foreign_refused 1 "$BIN/train" $M --train-iters 14 --data-path "$D/a" --load "$WORK/ckC"
stderr_has foreign_message "bad magic"
echo 7x > "$WORK/ckC/latest_checkpointed_iteration.txt"
expect_exit bad_latest 1 "$BIN/train" $M --train-iters 14 --data-path "$D/a" --load "$WORK/ckC"
stderr_has bad_latest_message "expected an iteration number"
expect_exit mismatch_refused 1 "$BIN/train" ${M/--hidden-size 32/--hidden-size 64} --train-iters 14 --data-path "$D/a" --load "$WORK/ckA"
stderr_has mismatch_message "does not match the requested one"
expect_exit load_empty_dir 0 "$BIN/train" $M --train-iters 2 --data-path "$D/a" --load "$WORK/cache"
stderr_has load_empty_note "starting from scratch"

# --- SIGTERM saves a checkpoint at the end of the iteration and exits 0
"$BIN/train" $M --train-iters 100000 --eval-interval 100000 --data-path "$D/a" --save "$WORK/ckS" >"$WORK/s.out" 2>"$WORK/s.err" &
pid=$!
for _ in $(seq 1 300); do grep -q '"iteration":3,' "$WORK/ckS/train_log.jsonl" 2>/dev/null && break; sleep 0.1; done
kill -TERM $pid; wait $pid; rc=$?
it=$(cat "$WORK/ckS/latest_checkpointed_iteration.txt" 2>/dev/null)
if [ $rc = 0 ] && [ -n "$it" ] && [ "$it" -ge 3 ] && grep -q 'received SIGTERM' "$WORK/s.err"; then pass sigterm_saves; else fail sigterm_saves "rc $rc, latest '$it'"; fi
expect_exit sigterm_resume 0 "$BIN/train" $M --train-iters $((it + 2)) --data-path "$D/a" --load "$WORK/ckS"
grep -q "iteration  *$((it + 2))/" "$WORK/.out" && pass sigterm_resume_continues || fail sigterm_resume_continues

# --- non-finite gradients: skipped and reported; repeated: stop cleanly
WEBTEXT_TRAIN_INJECT_NAN=3 "$BIN/train" $M --train-iters 5 --data-path "$D/a" >"$WORK/n.out" 2>"$WORK/n.err"; rc=$?
if [ $rc = 0 ] && grep -q 'iteration 3: non-finite gradient norm' "$WORK/n.err" &&
   grep -q 'iteration  *3/ .*number of skipped iterations:   1 | number of nan iterations:   1' "$WORK/n.out" &&
   grep -q 'iteration  *4/ .*number of skipped iterations:   0' "$WORK/n.out"; then pass nan_skipped; else fail nan_skipped "rc $rc"; fi
WEBTEXT_TRAIN_INJECT_NAN=3,4,5 expect_exit nan_stops 1 "$BIN/train" $M --train-iters 8 --max-consecutive-skips 3 --data-path "$D/a" --save "$WORK/ckN"
stderr_has nan_stop_message "3 consecutive iterations were skipped"
[ "$(cat "$WORK/ckN/latest_checkpointed_iteration.txt" 2>/dev/null)" = 5 ] && pass nan_stop_saves || fail nan_stop_saves

# --- empty documents: Megatron splits and samples by sequence (FORMATS.md section 2), so a
# dataset whose empty documents add boundaries but no sequences trains exactly like the
# same dataset without them. Empty texts at the start, alone and in runs in the middle,
# and at the end.
E='{"text": ""}'
zstd -dc "$ROOT/data/corpus/wikinews.jsonl.zst" | grep -v '"text": *""' | head -n 200 > "$WORK/full.jsonl"
{ echo "$E"; echo "$E"; head -n 20 "$WORK/full.jsonl"; echo "$E"; sed -n 21,40p "$WORK/full.jsonl"; echo "$E"; echo "$E"; echo "$E"
  sed -n '41,$p' "$WORK/full.jsonl"; echo "$E"; } > "$WORK/holes.jsonl"
ndocs=$(wc -l < "$WORK/full.jsonl")
"$BIN/preprocess_data" -q --input "$WORK/full.jsonl" --output-prefix "$WORK/full" --append-eod
"$BIN/preprocess_data" -q --input "$WORK/holes.jsonl" --output-prefix "$WORK/holes" --append-eod
if "$BIN/inspect_dataset" "$WORK/holes_text_document" | grep -q "documents   $((ndocs + 7)) (7 empty)" &&
   "$BIN/inspect_dataset" "$WORK/holes_text_document" | grep -q "sequences   $ndocs\$"; then
  pass empty_docs_fixture; else fail empty_docs_fixture "$("$BIN/inspect_dataset" "$WORK/holes_text_document" | head -4)"; fi
EM="$M --train-iters 6 --eval-interval 3 --eval-iters 1"
expect_exit empty_docs_train 0 "$BIN/train" $EM --data-path "$WORK/holes_text_document" --log-json "$WORK/holes.log"
expect_exit empty_docs_reference 0 "$BIN/train" $EM --data-path "$WORK/full_text_document" --log-json "$WORK/full.log"
strip_log() { grep -o '"\(lm_loss\|grad_norm\|val_loss\|test_loss\)":[^,}]*' "$1"; }
if [ "$(strip_log "$WORK/holes.log" | wc -l)" -ge 12 ] && diff <(strip_log "$WORK/holes.log") <(strip_log "$WORK/full.log") >/dev/null; then
  pass empty_docs_same_losses; else fail empty_docs_same_losses; fi
# Sentence-split documents (a JSON list of strings: several sequences per document) train
# exactly like the same sentences given one per document: the sequences are the unit.
"$PY" - "$WORK/full.jsonl" "$WORK/sents.jsonl" "$WORK/lines.jsonl" <<'PY'
import json, re, sys
docs = [json.loads(l)["text"] for l in open(sys.argv[1])][:120]
with open(sys.argv[2], "w") as grouped, open(sys.argv[3], "w") as flat:
    for t in docs:
        s = [x for x in re.split(r"(?<=[.!?])\s+", t) if x]
        grouped.write(json.dumps({"text": s}) + "\n")
        for x in s:
            flat.write(json.dumps({"text": x}) + "\n")
PY
"$BIN/preprocess_data" -q --input "$WORK/sents.jsonl" --output-prefix "$WORK/sents"
"$BIN/preprocess_data" -q --input "$WORK/lines.jsonl" --output-prefix "$WORK/lines"
nd=$("$BIN/inspect_dataset" "$WORK/sents_text_document" | awk '/documents/ {print $2}')
ns=$("$BIN/inspect_dataset" "$WORK/sents_text_document" | awk '/sequences/ {print $2}')
expect_exit sentence_docs_train 0 "$BIN/train" $EM --data-path "$WORK/sents_text_document" --log-json "$WORK/sents.log"
expect_exit sentence_lines_train 0 "$BIN/train" $EM --data-path "$WORK/lines_text_document" --log-json "$WORK/lines.log"
if [ "$nd" = 120 ] && [ "$ns" -gt 240 ] && [ "$(strip_log "$WORK/sents.log" | wc -l)" -ge 12 ] &&
   diff <(strip_log "$WORK/sents.log") <(strip_log "$WORK/lines.log") >/dev/null; then
  pass sentence_docs_same_losses; else fail sentence_docs_same_losses "$nd documents, $ns sequences"; fi
# The same with a blend: the empty-document dataset beside another.
expect_exit empty_docs_blend 0 "$BIN/train" $EM --data-path 0.5 "$WORK/holes_text_document" 0.5 "$D/c"

# --- blending two datasets
expect_exit blend 0 "$BIN/train" $M --train-iters 3 --data-path 0.7 "$D/a" 0.3 "$D/b"
grep -q '> data: 2 dataset(s)' "$WORK/.out" && pass blend_two || fail blend_two
# Several prefixes without weights (Megatron: one epoch of each, blended by size, capped at the
# request) and one weighted prefix (Megatron: a blend over it, 1.005 x the request built).
expect_exit blend_unweighted 0 "$BIN/train" $M --train-iters 3 --data-path "$D/a" "$D/b"
grep -q '> data: 2 dataset(s); samples train 12,' "$WORK/.out" && pass blend_unweighted_size ||
  fail blend_unweighted_size "$(grep '> data' "$WORK/.out")"
expect_exit blend_one_weighted 0 "$BIN/train" $M --train-iters 3 --data-path 1.0 "$D/a"
grep -q '> data: 1 dataset(s); samples train 12,' "$WORK/.out" && pass blend_one_weighted_size ||
  fail blend_one_weighted_size "$(grep '> data' "$WORK/.out")"
# An unweighted blend where one dataset's test split is empty: a note (Megatron stops on an assertion).
expect_exit blend_empty_split 0 "$BIN/train" $M --train-iters 3 --split 969,30,1 --data-path "$D/a" "$D/b"
stderr_has blend_empty_split_note "split holds no sequences; no test evaluation (Megatron-LM stops on an assertion"

# --- bad input and usage
expect_exit missing_data 3 "$BIN/train" $M --train-iters 3 --data-path "$WORK/nope"
stderr_has missing_data_names "$WORK/nope"
# oov: 50 sequences of token ids 60000.. (tests/golden/make_gptdata_fixtures.py)
expect_exit token_out_of_vocab 1 "$BIN/train" $M --train-iters 3 --data-path "$D/oov"
stderr_has token_out_of_vocab_message "outside the vocabulary of 50257"
expect_exit heads_not_dividing 2 "$BIN/train" ${M/--num-attention-heads 2/--num-attention-heads 3} --train-iters 3 --data-path "$D/a"
expect_exit gbs_not_multiple 2 "$BIN/train" ${M/--global-batch-size 4/--global-batch-size 5} --train-iters 3 --data-path "$D/a"
expect_exit seq_too_long 2 "$BIN/train" $M --max-position-embeddings 8 --train-iters 3 --data-path "$D/a"
# the exit status tells the kinds of failure apart: out of memory 4, an internal error 5
ASAN_OPTIONS=allocator_may_return_null=1 expect_exit out_of_memory 4 "$BIN/train" ${M/--hidden-size 32/--hidden-size 1048576} --train-iters 3 --data-path "$D/a"
WEBTEXT_TRAIN_FAIL_AT=0:2 expect_exit internal_error 5 "$BIN/train" $M --train-iters 5 --data-path "$D/a"
expect_exit no_train_iters 2 "$BIN/train" $M --data-path "$D/a"
if nvidia-smi -L >/dev/null 2>&1; then  # a GPU here: tests/gpu covers --device cuda
  expect_exit device_cuda_runs 0 "$BIN/train" $M --train-iters 3 --data-path "$D/a" --device cuda
else
  expect_exit device_cuda 2 "$BIN/train" $M --train-iters 3 --data-path "$D/a" --device cuda
  if grep -q 'no CUDA GPU found\|no CUDA backend' "$WORK/.err"; then pass device_cuda_message; else fail device_cuda_message "$(head -c 200 "$WORK/.err")"; fi
fi
expect_exit bad_split 2 "$BIN/train" $M --train-iters 3 --data-path "$D/a" --split 0,1,0
expect_exit bad_decay_style 2 "$BIN/train" ${M/cosine/exponential} --train-iters 3 --data-path "$D/a"
expect_exit warmup_both 2 "$BIN/train" $M --train-iters 3 --data-path "$D/a" --lr-warmup-fraction 0.1
expect_exit tp_unsupported 2 "$BIN/train" $M --train-iters 3 --data-path "$D/a" --tensor-model-parallel-size 2
expect_exit megatron_flags_accepted 0 "$BIN/train" ${M/--lr-warmup-iters 2/} --train-iters 2 --data-path "$D/a" --tokenizer-type GPT2BPETokenizer \
  --fp16 --attention-dropout 0.1 --hidden-dropout 0.1 --distributed-backend nccl --num-workers 2 --data-impl mmap \
  --tensor-model-parallel-size 1 --ffn-hidden-size 128 --lr-warmup-fraction .01 --lr-decay-iters 2 --split 949,50,1
check help "$BIN/train" --help

# --- generate
G="$BIN/generate --load $WORK/ckA --prompt Hello --max-tokens 12"
expect_exit gen_greedy 0 $G --temperature 0
cp "$WORK/.out" "$WORK/g1"
$G --temperature 0 > "$WORK/g2" 2>/dev/null
if head -c 5 "$WORK/g1" | grep -q '^Hello' && [ "$(wc -c < "$WORK/g1")" -gt 8 ] && cmp -s "$WORK/g1" "$WORK/g2"; then pass gen_prints_text; else fail gen_prints_text; fi
# The KV cache gives what recomputing the whole window gives, also once the 16-position window slides.
for mode in "--temperature 0" "--temperature 0.9 --top-k 50 --seed 3"; do
  $G --max-tokens 40 --ignore-eod $mode > "$WORK/kv1" 2>/dev/null
  $G --max-tokens 40 --ignore-eod $mode --no-kv-cache > "$WORK/kv2" 2>/dev/null
  if [ "$(wc -c < "$WORK/kv1")" -gt 20 ] && cmp -s "$WORK/kv1" "$WORK/kv2"; then pass "gen_kv_cache_same_text ($mode)"; else fail "gen_kv_cache_same_text ($mode)"; fi
done
$G --top-k 40 --top-p 0.9 --temperature 0.8 --seed 7 > "$WORK/g3" 2>/dev/null
$G --top-k 40 --top-p 0.9 --temperature 0.8 --seed 7 > "$WORK/g4" 2>/dev/null
$G --top-k 40 --top-p 0.9 --temperature 0.8 --seed 8 --num-samples 2 > "$WORK/g5" 2>/dev/null
if cmp -s "$WORK/g3" "$WORK/g4" && [ "$(grep -c '=== sample' "$WORK/g5")" = 2 ]; then pass gen_seeded; else fail gen_seeded; fi
expect_exit gen_iter_dir 0 "$BIN/generate" --load "$WORK/ckA/iter_0000006" --max-tokens 3 --temperature 0
expect_exit gen_no_ckpt 2 "$BIN/generate" --load "$WORK/cache" --prompt x
expect_exit gen_damaged 1 "$BIN/generate" --load "$WORK/ckC/iter_0000012" --prompt x
expect_exit gen_no_load 2 "$BIN/generate" --prompt x

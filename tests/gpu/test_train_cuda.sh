#!/usr/bin/env bash
# test_train_cuda.sh - bin/train --device cuda end to end against the CPU
# backend on the fixture datasets: fp32 losses follow the CPU's per iteration,
# bf16 within a stated tolerance; determinism; bit-identical resume; fp16 loss
# scaling; --recompute-activations; NaN skipping; loss falls on real text.
# Without a GPU: checks the clear refusal, then counts the rest as skipped.
. "$(dirname "$0")/../e2e/lib.sh"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
D=$FIX/gptdata
mkdir -p "$WORK/cache"
M="--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 32 --micro-batch-size 4 --global-batch-size 8
   --lr 3e-3 --min-lr 3e-4 --lr-decay-style cosine --lr-warmup-iters 2 --weight-decay 0.1 --adam-beta2 0.95
   --split 90,8,2 --data-cache-path $WORK/cache --eval-interval 10 --eval-iters 2 --log-interval 1"

# A wrong --attention-backend is a usage error on any machine.
expect_exit attention_backend_bad 2 "$BIN/train" $M --train-iters 1 --data-path "$D/a" --attention-backend fast
stderr_has attention_backend_bad_message "--attention-backend fast: expected auto, fused, flash, unfused or local"
"$BIN/train" $M --train-iters 1 --data-path "$D/a" --device cuda >"$WORK/probe.out" 2>"$WORK/probe.err"; rc=$?
if grep -q 'no CUDA GPU found\|no CUDA backend' "$WORK/probe.err"; then
  if [ "$rc" = 2 ]; then pass cuda_refused_clearly; else fail cuda_refused_clearly "exit $rc"; fi
  skip "gpu: test_train_cuda" "$(head -1 "$WORK/probe.err" | sed 's/^train: //')"
  exit 0
fi
[ "$rc" = 0 ] && pass cuda_runs || { fail cuda_runs "exit $rc: $(head -c 400 "$WORK/probe.err")"; exit 1; }

losses() { grep -o '"iteration":[0-9]*,"consumed_samples":[0-9]*,"lm_loss":[^,]*,"grad_norm":[^,]*' "$1"; }
# compare A B TOL FIELD: every iteration's FIELD within relative TOL
compare() {
  "$PY" - "$1" "$2" "$3" "$4" <<'PY'
import json, sys
a, b, tol, f = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
def rd(p): return {x["iteration"]: x[f] for x in map(json.loads, open(p)) if x.get(f) is not None}
A, B = rd(a), rd(b)
common = sorted(set(A) & set(B))
worst = max((abs(A[k] - B[k]) / abs(A[k]) for k in common), default=float("inf"))
print(f"worst relative difference of {f}: {worst:.2e} over {len(common)} iterations (tolerance {tol:g})")
sys.exit(0 if len(common) > 0 and worst <= tol else 1)
PY
}
expect_exit cpu_run 0 "$BIN/train" $M --train-iters 20 --data-path "$D/a" --device cpu --log-json "$WORK/cpu.jsonl"
expect_exit cuda_fp32_run 0 "$BIN/train" $M --train-iters 20 --data-path "$D/a" --device cuda --log-json "$WORK/f32.jsonl"
grep -q '> device cuda: .*fp32.*attention unfused' "$WORK/.out" && pass cuda_device_line || fail cuda_device_line "$(grep '> device' "$WORK/.out")"
r=$(compare "$WORK/cpu.jsonl" "$WORK/f32.jsonl" 1e-4 lm_loss) && pass "cuda_fp32_losses_follow_cpu ($r)" || fail cuda_fp32_losses_follow_cpu "$r"
r=$(compare "$WORK/cpu.jsonl" "$WORK/f32.jsonl" 1e-3 grad_norm) && pass "cuda_fp32_grad_norms_follow_cpu ($r)" || fail cuda_fp32_grad_norms_follow_cpu "$r"
r=$(compare "$WORK/cpu.jsonl" "$WORK/f32.jsonl" 1e-4 val_loss) && pass "cuda_fp32_val_loss ($r)" || fail cuda_fp32_val_loss "$r"
expect_exit cuda_bf16_run 0 "$BIN/train" $M --train-iters 20 --data-path "$D/a" --device cuda --bf16 --log-json "$WORK/b16.jsonl"
r=$(compare "$WORK/cpu.jsonl" "$WORK/b16.jsonl" 2e-2 lm_loss) && pass "cuda_bf16_losses_follow_cpu ($r)" || fail cuda_bf16_losses_follow_cpu "$r"
expect_exit cuda_bf16_rerun 0 "$BIN/train" $M --train-iters 20 --data-path "$D/a" --device cuda --bf16 --log-json "$WORK/b16b.jsonl"
if diff <(losses "$WORK/b16.jsonl") <(losses "$WORK/b16b.jsonl") >/dev/null; then pass cuda_deterministic; else fail cuda_deterministic; fi
expect_exit cuda_no_epilogues 0 "$BIN/train" $M --train-iters 20 --data-path "$D/a" --device cuda --bf16 --no-cublaslt-epilogues --log-json "$WORK/noepi.jsonl"
r=$(compare "$WORK/b16.jsonl" "$WORK/noepi.jsonl" 1e-2 lm_loss) && pass "cuda_epilogues_match_separate_kernels ($r)" || fail cuda_epilogues_match_separate_kernels "$r"
expect_exit cuda_recompute 0 "$BIN/train" $M --train-iters 20 --data-path "$D/a" --device cuda --bf16 --recompute-activations --log-json "$WORK/rec.jsonl"
r=$(compare "$WORK/b16.jsonl" "$WORK/rec.jsonl" 1e-2 lm_loss) && pass "cuda_recompute_same_losses ($r)" || fail cuda_recompute_same_losses "$r"
# The bf16 runs above took the default attention: fused (cuDNN) where the build has it.
# Head size 64 and T 64: every attention backend against the batched-GEMM path and the CPU.
MF="${M/--hidden-size 64 --num-attention-heads 4 --seq-length 32/--hidden-size 128 --num-attention-heads 2 --seq-length 64}"
expect_exit cpu_run_hs64 0 "$BIN/train" $MF --train-iters 10 --data-path "$D/a" --device cpu --log-json "$WORK/cpu64.jsonl"
expect_exit cuda_flash 0 "$BIN/train" $MF --train-iters 10 --data-path "$D/a" --device cuda --bf16 --use-flash-attn --log-json "$WORK/flash.jsonl"
grep -q ', attention flash' "$WORK/.out" && pass cuda_flash_line || fail cuda_flash_line "$(grep '> device' "$WORK/.out")"
expect_exit cuda_noflash 0 "$BIN/train" $MF --train-iters 10 --data-path "$D/a" --device cuda --bf16 --attention-backend unfused --log-json "$WORK/noflash.jsonl"
grep -q ', attention unfused' "$WORK/.out" && pass cuda_unfused_line || fail cuda_unfused_line "$(grep '> device' "$WORK/.out")"
r=$(compare "$WORK/noflash.jsonl" "$WORK/flash.jsonl" 1e-2 lm_loss) && pass "cuda_flash_matches_batched_gemm_attention ($r)" || fail cuda_flash_matches_batched_gemm_attention "$r"
r=$(compare "$WORK/cpu64.jsonl" "$WORK/flash.jsonl" 2e-2 lm_loss) && pass "cuda_flash_follows_cpu ($r)" || fail cuda_flash_follows_cpu "$r"
expect_exit cuda_flash_rerun 0 "$BIN/train" $MF --train-iters 10 --data-path "$D/a" --device cuda --bf16 --use-flash-attn --log-json "$WORK/flash2.jsonl"
if diff <(losses "$WORK/flash.jsonl") <(losses "$WORK/flash2.jsonl") >/dev/null; then pass cuda_flash_deterministic; else fail cuda_flash_deterministic; fi
# cuDNN's fused attention (the default in 16 bits when the build has it): the same checks,
# and the run without a backend named takes it.
"$BIN/train" $MF --train-iters 1 --data-path "$D/a" --device cuda --bf16 --attention-backend fused >"$WORK/fz.out" 2>"$WORK/fz.err"
if grep -q 'no cuDNN attention' "$WORK/fz.err"; then
  skip "gpu: cuda_fused_attention" "$(head -1 "$WORK/fz.err" | sed 's/^train: //')"
else
  expect_exit cuda_fused 0 "$BIN/train" $MF --train-iters 10 --data-path "$D/a" --device cuda --bf16 --attention-backend fused --log-json "$WORK/fused.jsonl"
  grep -q ', attention fused (cuDNN [0-9.]*)' "$WORK/.out" && pass cuda_fused_line || fail cuda_fused_line "$(grep '> device' "$WORK/.out")"
  r=$(compare "$WORK/noflash.jsonl" "$WORK/fused.jsonl" 1e-2 lm_loss) && pass "cuda_fused_matches_batched_gemm_attention ($r)" || fail cuda_fused_matches_batched_gemm_attention "$r"
  r=$(compare "$WORK/cpu64.jsonl" "$WORK/fused.jsonl" 2e-2 lm_loss) && pass "cuda_fused_follows_cpu ($r)" || fail cuda_fused_follows_cpu "$r"
  expect_exit cuda_fused_default 0 "$BIN/train" $MF --train-iters 10 --data-path "$D/a" --device cuda --bf16 --log-json "$WORK/fused2.jsonl"
  grep -q ', attention fused (cuDNN' "$WORK/.out" && pass cuda_fused_is_default || fail cuda_fused_is_default "$(grep '> device' "$WORK/.out")"
  if diff <(losses "$WORK/fused.jsonl") <(losses "$WORK/fused2.jsonl") >/dev/null; then pass cuda_fused_deterministic; else fail cuda_fused_deterministic; fi
  expect_exit cuda_fused_fp16 0 "$BIN/train" $MF --train-iters 10 --data-path "$D/a" --device cuda --fp16 --initial-loss-scale 4096 --attention-backend fused --log-json "$WORK/fused16.jsonl"
  r=$(compare "$WORK/cpu64.jsonl" "$WORK/fused16.jsonl" 5e-2 lm_loss) && pass "cuda_fused_fp16_follows_cpu ($r)" || fail cuda_fused_fp16_follows_cpu "$r"
  expect_exit cuda_fused_fp32_refused 2 "$BIN/train" $MF --train-iters 1 --data-path "$D/a" --device cuda --attention-backend fused
  stderr_has cuda_fused_fp32_message "needs --bf16 or --fp16"
fi
# NCCL on the GPU with one rank: --distributed-backend nccl gives each group a NCCL communicator
# of one; ZeRO-3 with overlap reduce-scatters and gathers every layer through it (on its side
# stream): the losses of the plain run within bf16's tolerance (ZeRO sums its buckets apart).
"$BIN/train" $M --train-iters 1 --data-path "$D/a" --device cuda --distributed-backend nccl >"$WORK/nc.out" 2>"$WORK/nc.err"
if grep -q 'no NCCL' "$WORK/nc.err"; then
  skip "gpu: cuda_nccl" "$(head -1 "$WORK/nc.err" | sed 's/^train: //')"
else
  expect_exit cuda_nccl_world1 0 "$BIN/train" $M --train-iters 20 --data-path "$D/a" --device cuda --bf16 --distributed-backend nccl \
    --zero-stage 3 --overlap-grad-reduce --overlap-param-gather --log-json "$WORK/nccl.jsonl"
  r=$(compare "$WORK/b16.jsonl" "$WORK/nccl.jsonl" 1e-2 lm_loss) && pass "cuda_nccl_world1_zero3_follows_plain ($r)" ||
    fail cuda_nccl_world1_zero3_follows_plain "$r"
fi
# --cpu-offload: the optimizer on the CPU gives the losses of the GPU optimizer, and resumes.
expect_exit cuda_offload_fp32 0 "$BIN/train" $M --train-iters 20 --data-path "$D/a" --device cuda --cpu-offload --log-json "$WORK/off32.jsonl"
grep -q 'optimizer on the CPU' "$WORK/.out" && pass cuda_offload_line || fail cuda_offload_line "$(grep '> device' "$WORK/.out")"
r=$(compare "$WORK/cpu.jsonl" "$WORK/off32.jsonl" 1e-4 lm_loss) && pass "cuda_offload_fp32_follows_cpu ($r)" || fail cuda_offload_fp32_follows_cpu "$r"
expect_exit cuda_offload_bf16 0 "$BIN/train" $M --train-iters 20 --data-path "$D/a" --device cuda --bf16 --cpu-offload --log-json "$WORK/off16.jsonl"
r=$(compare "$WORK/b16.jsonl" "$WORK/off16.jsonl" 2e-3 lm_loss) && pass "cuda_offload_bf16_follows_gpu_optimizer ($r)" || fail cuda_offload_bf16_follows_gpu_optimizer "$r"
expect_exit cuda_offload_save 0 "$BIN/train" $M --train-iters 12 --data-path "$D/a" --device cuda --bf16 --cpu-offload --save "$WORK/ckO" --exit-interval 6
expect_exit cuda_offload_resume 0 "$BIN/train" $M --train-iters 12 --data-path "$D/a" --device cuda --bf16 --cpu-offload --save "$WORK/ckO" --load "$WORK/ckO"
expect_exit cuda_offload_straight 0 "$BIN/train" $M --train-iters 12 --data-path "$D/a" --device cuda --bf16 --cpu-offload --save "$WORK/ckP"
if cmp -s "$WORK/ckO/iter_0000012/model.ckpt" "$WORK/ckP/iter_0000012/model.ckpt"; then pass cuda_offload_resume_bit_identical; else fail cuda_offload_resume_bit_identical; fi
# bit-identical resume on the GPU: 12 straight vs 6 + resume 6
expect_exit cuda_straight 0 "$BIN/train" $M --train-iters 12 --data-path "$D/a" --device cuda --bf16 --save "$WORK/ckA" --save-interval 6
expect_exit cuda_first_half 0 "$BIN/train" $M --train-iters 12 --data-path "$D/a" --device cuda --bf16 --save "$WORK/ckB" --exit-interval 6
expect_exit cuda_resume 0 "$BIN/train" $M --train-iters 12 --data-path "$D/a" --device cuda --bf16 --save "$WORK/ckB" --load "$WORK/ckB"
if diff <(losses "$WORK/ckA/train_log.jsonl" | grep -E '"iteration":([7-9]|1[0-2]),') \
        <(losses "$WORK/ckB/train_log.jsonl" | grep -E '"iteration":([7-9]|1[0-2]),') >/dev/null &&
   cmp -s "$WORK/ckA/iter_0000012/model.ckpt" "$WORK/ckB/iter_0000012/model.ckpt"; then pass cuda_resume_bit_identical; else fail cuda_resume_bit_identical; fi
# A GPU checkpoint continues on the CPU (the same file format).
expect_exit cuda_ckpt_on_cpu 0 "$BIN/train" $M --train-iters 14 --data-path "$D/a" --device cpu --load "$WORK/ckA"
# fp16: the dynamic loss scale starts at 2^32, overflows, backs off, and training goes on.
expect_exit cuda_fp16 0 "$BIN/train" $M --train-iters 30 --data-path "$D/a" --device cuda --fp16 --log-json "$WORK/f16.jsonl"
cp "$WORK/.out" "$WORK/f16.out"; cp "$WORK/.err" "$WORK/f16.err"
if grep -q 'fp16 gradients overflowed at loss scale 4.29497e+09; step skipped' "$WORK/f16.err" &&
   grep 'iteration  *30/' "$WORK/f16.out" | grep -q 'loss scale: [0-9]*\.[0-9] ' &&
   ! grep 'iteration  *30/' "$WORK/f16.out" | grep -q 'loss scale: 4294967296'; then pass cuda_fp16_loss_scale_backs_off
else fail cuda_fp16_loss_scale_backs_off "$(grep 'iteration  *30/' "$WORK/f16.out" | grep -o 'loss scale: [^|]*')"; fi
r=$(compare "$WORK/cpu.jsonl" "$WORK/f16.jsonl" 5e-2 val_loss) && pass "cuda_fp16_val_loss_follows_cpu ($r)" || fail cuda_fp16_val_loss_follows_cpu "$r"
# A NaN in the gradients skips the step.
WEBTEXT_TRAIN_INJECT_NAN=3 expect_exit cuda_nan_skip 0 "$BIN/train" $M --train-iters 5 --data-path "$D/a" --device cuda --bf16
stderr_has cuda_nan_skip_message "iteration 3: non-finite gradient norm"
# On real text the loss falls clearly.
"$BIN/preprocess_data" --input "$FIX/cc/dolma_cc_en_head-0091.jsonl" --output-prefix "$WORK/real" --append-eod -q >/dev/null 2>&1
expect_exit cuda_real_text 0 "$BIN/train" ${M/--lr 3e-3/--lr 1e-2} --train-iters 40 --data-path "$WORK/real_text_document" --device cuda --bf16 --log-json "$WORK/real.jsonl"
"$PY" - "$WORK/real.jsonl" <<'PY' && pass cuda_loss_falls || fail cuda_loss_falls
import json, sys
l = [json.loads(x) for x in open(sys.argv[1]) if '"lm_loss"' in x]
sys.exit(0 if l[-1]["lm_loss"] < l[0]["lm_loss"] - 1.0 else 1)
PY
# Out of GPU memory is a clear error naming what to lower, not a crash (4096 x 1024 tokens of
# logits: 420 GB).
expect_exit cuda_oom 4 "$BIN/train" --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 1024 \
  --micro-batch-size 4096 --train-iters 1 --eval-iters 0 --data-path "$WORK/real_text_document" --split 100,0,0 \
  --data-cache-path "$WORK/cache" --device cuda --bf16
stderr_has cuda_oom_message "out of GPU memory for activations"
# --eval-tasks on the CUDA table: the final zero-shot scores (fp32) equal bin/evaluate's on the
# CPU for the checkpoint it saved (the same acc on every task)
expect_exit cuda_eval_tasks 0 "$BIN/train" $M --seq-length 128 --train-iters 10 --data-path "$D/a" --device cuda \
  --save "$WORK/ckE" --eval-tasks "$ROOT/data/eval" --eval-tasks-limit 40
expect_exit cuda_eval_tasks_cpu 0 "$BIN/evaluate" --load "$WORK/ckE" --limit 40 -o "$WORK/ckE.jsonl"
"$PY" - "$WORK/ckE/train_log.jsonl" "$WORK/ckE.jsonl" <<'PY' && pass cuda_eval_tasks_same_as_cpu || fail cuda_eval_tasks_same_as_cpu
import json, sys
final = [json.loads(l) for l in open(sys.argv[1]) if '"tasks"' in l and '"final":true' in l][-1]["tasks"]
items = [json.loads(l) for l in open(sys.argv[2])]
ok = bool(final)
for t, v in final.items():
    its = [i for i in items if i["task"] == t]
    ok &= len(its) == v["items"] and abs(sum(i["pred"] == i["gold"] for i in its) / len(its) - v["acc"]) < 1e-6
sys.exit(0 if ok else 1)
PY

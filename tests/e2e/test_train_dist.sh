#!/usr/bin/env bash
# test_train_dist.sh - bin/train under mpirun: data parallelism (dp 2 and 4), the
# sharded optimizer (ZeRO stages 1, 2 and 3), tensor parallelism (tp 2, and tp 2 x dp 2)
# against one process, the memory per rank and the communication volume against
# the ZeRO / Megatron formulas, checkpoints that move between layouts, a failing
# rank, SIGTERM to one rank, usage errors.
# One OpenMP thread per rank, and the single-process reference with one thread
# too (a thread count changes the order of float sums).
. "$(dirname "$0")/lib.sh"
if ! command -v mpirun >/dev/null 2>&1 || ! ldd "$BIN/train" | grep -q libmpi; then
  skip dist_all "bin/train was built without MPI or mpirun is missing (scripts/setup/install_deps.sh installs OpenMPI)"
  exit 0
fi
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# ASan builds: MPI's own allocations at startup are not ours to free. Full unwinding, so
# that stacks reach OpenMPI's frames (its plugins are unloaded before the leak report).
export LSAN_OPTIONS="fast_unwind_on_malloc=0:suppressions=$ROOT/tests/lsan_mpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
MPI="timeout 120 mpirun --oversubscribe" MPI_L="timeout 120 mpirun --oversubscribe"
# The sanitizer tier checks for leaks on the runs marked $MPI_L, one for each code path the
# layouts have (LeakSanitizer's check of an MPI run unwinds OpenMPI's thousands of allocations
# slowly, to match the suppressions: 2.4 s of a 6-iteration 2-rank run against 1.5 s without);
# every other run keeps AddressSanitizer's and UBSan's checks and goes without the leak check.
if [ "${TEST_TIER:-rel}" = san ]; then MPI="timeout 120 env ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 mpirun --oversubscribe"; fi
# The sanitizer tier (make test SAN=1) runs each layout's code on fewer iterations, and leaves
# out the runs that repeat another run's code paths at another size (dp 4, pp 4, 8 processes,
# some resharding pairs): the plain tier runs and checks all of them.
IT=20 IT8=10 EI=10 FULL=1
if [ "${TEST_TIER:-rel}" = san ]; then
  IT=6 IT8=6 EI=3 FULL=0
  echo "  (sanitizer tier: $IT iterations a run; the runs that repeat another's code paths are in the plain tier)"
fi
full() { if [ "$FULL" = 1 ]; then "$@"; fi; }
D=$FIX/gptdata
# The models are the smallest that run every code path: 2 layers of width 32, 16 tokens, and a
# vocabulary of 1,100 (the dataset s: random documents, NullTokenizer): with GPT-2's 50,257 the
# output layer was nine tenths of every run's time. Megatron pads it to 128 x tp rows: 1,152 at
# tp 1, 1,280 at tp 2.
NT="--tokenizer-type NullTokenizer --vocab-size 1099" VP1=1152 VP2=1280
M="--num-layers 2 --hidden-size 32 --num-attention-heads 2 --seq-length 16 --micro-batch-size 2 --global-batch-size 8
   --lr 3e-3 --min-lr 3e-4 --lr-decay-style cosine --lr-warmup-iters 2 --weight-decay 0.1 --adam-beta2 0.95
   --split 90,8,2 --data-cache-path $WORK --eval-interval $EI --eval-iters 2 --log-interval 1 --data-path $D/s $NT"

# compare A B TOL: per iteration, lm_loss and grad_norm agree within TOL (relative); TOL 0: bit for bit.
compare() {
  "$PY" - "$@" <<'PY'
import json, sys
a, b, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
def recs(p):
    return {r["iteration"]: r for r in map(json.loads, open(p)) if "lm_loss" in r}
ra, rb = recs(a), recs(b)
keys = sorted(set(ra) & set(rb))
worst = 0.0
for k in keys:
    for f in ("lm_loss", "grad_norm"):
        x, y = ra[k][f], rb[k][f]
        worst = max(worst, abs(x - y) / max(abs(x), 1e-30))
print(f"  {len(keys)} iterations compared, worst relative difference {worst:.2e} (tolerance {tol:g})")
sys.exit(0 if len(keys) >= 5 and worst <= tol else 1)
PY
}

# --- dp 2 and 4, ZeRO 0 and 1, against one process: 20 iterations, same global batch and data
expect_exit single 0 "$BIN/train" $M --train-iters $IT --log-json "$WORK/s.jsonl"
expect_exit dp2 0 $MPI -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/dp2.jsonl"
cp "$WORK/.out" "$WORK/dp2.out"
expect_exit dp2_zero1 0 $MPI_L -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/z1.jsonl" --use-distributed-optimizer
cp "$WORK/.out" "$WORK/z1.out"
full expect_exit dp4_zero1 0 $MPI -np 4 "$BIN/train" $M --train-iters $IT --log-json "$WORK/dp4.jsonl" --zero-stage 1
full cp "$WORK/.out" "$WORK/dp4.out"
# Stated tolerance: dp sums the ranks' gradients in another order than one process does;
# measured ~2e-8 relative, asserted 1e-6.
check dp2_losses_match_single compare "$WORK/s.jsonl" "$WORK/dp2.jsonl" 1e-6
compare "$WORK/s.jsonl" "$WORK/dp2.jsonl" 1e-6 | sed 's/^/ /'
full check dp4_zero1_losses_match_single compare "$WORK/s.jsonl" "$WORK/dp4.jsonl" 1e-6
# Tensor parallelism: the heads, the MLP and the vocabulary split over 2 ranks; the sums of
# the row-parallel layers are made in another order (measured ~2e-7 on the gradient norm).
expect_exit tp2 0 $MPI -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/tp2.jsonl" --tensor-model-parallel-size 2
cp "$WORK/.out" "$WORK/tp2.out"
expect_exit tp2_dp2_zero1 0 $MPI_L -np 4 "$BIN/train" $M --train-iters $IT --log-json "$WORK/tp2dp2.jsonl" \
  --tensor-model-parallel-size 2 --use-distributed-optimizer
cp "$WORK/.out" "$WORK/tp2dp2.out"
check tp2_losses_match_single compare "$WORK/s.jsonl" "$WORK/tp2.jsonl" 1e-6
compare "$WORK/s.jsonl" "$WORK/tp2.jsonl" 1e-6 | sed 's/^/ /'
check tp2_dp2_zero1_losses_match_single compare "$WORK/s.jsonl" "$WORK/tp2dp2.jsonl" 1e-6
grep -q '> parallel layout: world 4 = tensor 2 x pipeline 1 x data 2 (MPI); ranks (tensor, data, pipeline): 0=(0,0,0) 1=(1,0,0) 2=(0,1,0) 3=(1,1,0)' \
  "$WORK/tp2dp2.out" && pass tp_rank_layout || fail tp_rank_layout "$(grep 'parallel layout' "$WORK/tp2dp2.out")"
# Sequence parallelism (tp 2): LayerNorms and the residual stream on half of the tokens each,
# all-gather / reduce-scatter in place of the all-reduces; with a pipeline too.
expect_exit tp2_sp 0 $MPI_L -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/sp.jsonl" --tensor-model-parallel-size 2 \
  --sequence-parallel
cp "$WORK/.out" "$WORK/sp.out"
full expect_exit tp2_pp2_sp 0 $MPI -np 4 "$BIN/train" $M --train-iters $IT --log-json "$WORK/sppp.jsonl" \
  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --sequence-parallel
check tp2_sp_losses_match_single compare "$WORK/s.jsonl" "$WORK/sp.jsonl" 1e-6
full check tp2_pp2_sp_losses_match_single compare "$WORK/s.jsonl" "$WORK/sppp.jsonl" 1e-6
# The same activation traffic as tp 2 without it, plus the LayerNorm gradients' all-reduce once an
# iteration (4 x h x layers + 2 x h floats, ring cost 2(t-1)/t); fewer activation bytes per rank.
"$PY" - "$WORK/tp2.jsonl" "$WORK/sp.jsonl" <<'PY' && pass sp_comm_volume || fail sp_comm_volume
import json, sys
tp, sp = ([r["comm_bytes"] for r in map(json.loads, open(p)) if "comm_bytes" in r] for p in sys.argv[1:3])
h, L = 32, 2
sys.exit(0 if tp and len(tp) == len(sp) and all(b - a == (4 * h * L + 2 * h) * 4 for a, b in zip(tp, sp)) else 1)
PY
act() { grep -o 'activations [0-9.]* MB' "$1" | head -1 | grep -o '[0-9.]*'; }
awk -v a="$(act "$WORK/tp2.out")" -v b="$(act "$WORK/sp.out")" 'BEGIN { exit !(b < a) }' && pass sp_fewer_activations ||
  fail sp_fewer_activations "$(act "$WORK/tp2.out") -> $(act "$WORK/sp.out") MB"

# Pipeline parallelism: one layer per stage, the 1F1B schedule over 4 micro-batches; and all
# three at once on 8 processes (tp 2 x pp 2 x dp 2, ZeRO-1).
expect_exit pp2 0 $MPI -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/pp2.jsonl" --pipeline-model-parallel-size 2
cp "$WORK/.out" "$WORK/pp2.out"
full expect_exit tp2_pp2_dp2_zero1 0 $MPI -np 8 "$BIN/train" $M --train-iters $IT --log-json "$WORK/tpd.jsonl" \
  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --use-distributed-optimizer
full cp "$WORK/.out" "$WORK/tpd.out"
check pp2_losses_match_single compare "$WORK/s.jsonl" "$WORK/pp2.jsonl" 1e-6
compare "$WORK/s.jsonl" "$WORK/pp2.jsonl" 1e-6 | sed 's/^/ /'
full check tp2_pp2_dp2_losses_match_single compare "$WORK/s.jsonl" "$WORK/tpd.jsonl" 1e-6
full compare "$WORK/s.jsonl" "$WORK/tpd.jsonl" 1e-6 | sed 's/^/ /'
if [ "$(grep -c '"val_loss"' "$WORK/pp2.jsonl")" = 3 ]; then pass pp2_validation; else fail pp2_validation; fi
# WEBTEXT_PROFILE=1 under a pipeline: the split of the step (compute, collectives, point to point)
# and the schedule's bubble, (p - 1) / (m + p - 1) with m = 4 micro-batches: 1/5
expect_exit pp2_profile 0 $MPI -np 2 -x WEBTEXT_PROFILE=1 "$BIN/train" $M --train-iters 2 --eval-iters 0 \
  --pipeline-model-parallel-size 2
if grep -qE '^> profile split \(rank 0\): compute [0-9.]+ ms .*point to point [0-9.]+ ms in [1-9][0-9]* calls' "$WORK/.out" &&
   grep -q '^> pipeline bubble of the schedule: .* = 20.0 % of a step (p 2 stages, v 1 chunks, m 4 micro-batches)' "$WORK/.out"
then pass pp2_profile_split; else fail pp2_profile_split "$(grep '^> p' "$WORK/.out" | tail -3)"; fi
if [ "$FULL" = 1 ]; then
grep -q '> parallel layout: world 8 = tensor 2 x pipeline 2 x data 2 (MPI); ranks (tensor, data, pipeline): 0=(0,0,0) 1=(1,0,0) 2=(0,1,0) 3=(1,1,0) 4=(0,0,1) 5=(1,0,1) 6=(0,1,1) 7=(1,1,1)' \
  "$WORK/tpd.out" && pass tp_pp_dp_rank_layout || fail tp_pp_dp_rank_layout "$(grep 'parallel layout' "$WORK/tpd.out")"
fi
# Pipeline communication of the first stage (rank 0): each of the 4 micro-batches' activations
# b x s x h floats sent on, plus the tied embedding's gradient all-reduced with the last stage
# (2(2-1)/2 x 4 x Vp x h), plus two 8-byte reductions over the pipeline (loss, norm).
pp_comm_ok() {
  "$PY" - "$WORK/pp2.jsonl" "$VP1" <<'PY'
import json, sys
b, s, h, micro, Vp = 2, 16, 32, 4, int(sys.argv[2])
want = micro * b * s * h * 4 + 4 * Vp * h + 16
got = [r["comm_bytes"] for r in map(json.loads, open(sys.argv[1])) if "comm_bytes" in r]
print(f"  {len(got)} iterations: {got[0]} bytes, formula {want}")
sys.exit(0 if got and all(g == want for g in got) else 1)
PY
}
check comm_volume_pp2 pp_comm_ok
pp_comm_ok | sed 's/^/ /'
# Interleaved 1F1B (Megatron's virtual pipeline, --num-layers-per-virtual-pipeline-stage): each
# stage holds several model chunks; pp 2 x 2 chunks of 4 layers, pp 4 x 2 chunks of 8 layers with
# 8 micro-batches and with 4 (= pp: all warm-up), and tp 2 x pp 2 x dp 2 x 2 chunks, against one
# process of the same model (the same sums as the plain pipeline: asserted 1e-6).
M4="$M --num-layers 4"
M8="$M --num-layers 8 --micro-batch-size 1"
expect_exit single_4_layers 0 "$BIN/train" $M4 --train-iters $IT --log-json "$WORK/s4.jsonl"
expect_exit single_8_layers 0 "$BIN/train" $M8 --train-iters $IT8 --log-json "$WORK/s8.jsonl"
expect_exit single_8_layers_m4 0 "$BIN/train" $M8 --train-iters $IT8 --log-json "$WORK/s8m4.jsonl" --global-batch-size 4
expect_exit pp2_vpp2 0 $MPI_L -np 2 "$BIN/train" $M4 --train-iters $IT --log-json "$WORK/v2.jsonl" \
  --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1
cp "$WORK/.out" "$WORK/v2.out"
full expect_exit pp4_vpp2 0 $MPI -np 4 "$BIN/train" $M8 --train-iters $IT8 --log-json "$WORK/p4v2.jsonl" \
  --pipeline-model-parallel-size 4 --num-layers-per-virtual-pipeline-stage 1
expect_exit pp4_vpp2_all_warmup 0 $MPI -np 4 "$BIN/train" $M8 --train-iters $IT8 --log-json "$WORK/p4v2m4.jsonl" \
  --pipeline-model-parallel-size 4 --num-layers-per-virtual-pipeline-stage 1 --global-batch-size 4
expect_exit tp2_pp2_dp2_vpp2 0 $MPI_L -np 8 "$BIN/train" $M8 --train-iters $IT8 --log-json "$WORK/tpdv.jsonl" \
  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 2
check pp2_vpp2_losses_match_single compare "$WORK/s4.jsonl" "$WORK/v2.jsonl" 1e-6
compare "$WORK/s4.jsonl" "$WORK/v2.jsonl" 1e-6 | sed 's/^/ /'
full check pp4_vpp2_losses_match_single compare "$WORK/s8.jsonl" "$WORK/p4v2.jsonl" 1e-6
check pp4_vpp2_all_warmup_losses_match_single compare "$WORK/s8m4.jsonl" "$WORK/p4v2m4.jsonl" 1e-6
check tp2_pp2_dp2_vpp2_losses_match_single compare "$WORK/s8.jsonl" "$WORK/tpdv.jsonl" 1e-6
compare "$WORK/s8.jsonl" "$WORK/tpdv.jsonl" 1e-6 | sed 's/^/ /'
"$PY" - "$WORK/s4.jsonl" "$WORK/v2.jsonl" <<'PY' && pass vpp2_validation || fail vpp2_validation
import json, sys
a, b = ([r["val_loss"] for r in map(json.loads, open(p)) if "val_loss" in r] for p in sys.argv[1:3])
sys.exit(0 if len(a) == len(b) == 3 and all(abs(x - y) <= 1e-6 * x for x, y in zip(a, b)) else 1)
PY
grep -q '> parallel layout: world 2 = tensor 1 x pipeline 2 x data 1 (MPI), interleaved pipeline: 2 model chunks of 1 layers per stage' \
  "$WORK/v2.out" && pass vpp_layout_printed || fail vpp_layout_printed "$(grep 'parallel layout' "$WORK/v2.out")"
# Its communication (first stage): every chunk's output goes on (v M messages), every chunk's input
# gradient but the first chunk's goes back ((v - 1) M), b x s x h floats each: (2v - 1) M of them,
# v times the plain pipeline's traffic less the one end, plus the tied embedding and two scalars.
"$PY" - "$WORK/v2.jsonl" "$VP1" <<'PY' && pass comm_volume_vpp2 || fail comm_volume_vpp2
import json, sys
b, s, h, micro, v, Vp = 2, 16, 32, 4, 2, int(sys.argv[2])
want = (2 * v - 1) * micro * b * s * h * 4 + 4 * Vp * h + 16
got = [r["comm_bytes"] for r in map(json.loads, open(sys.argv[1])) if "comm_bytes" in r]
print(f"  {len(got)} iterations: {got[0]} bytes, formula {want}")
sys.exit(0 if got and all(g == want for g in got) else 1)
PY
expect_exit vpp_needs_pp 2 "$BIN/train" $M4 --train-iters 2 --num-layers-per-virtual-pipeline-stage 1
stderr_has vpp_needs_pp_message "--num-layers-per-virtual-pipeline-stage needs --pipeline-model-parallel-size of 2 or more"
expect_exit vpp_not_dividing 2 $MPI -np 2 "$BIN/train" $M4 --train-iters 2 --pipeline-model-parallel-size 2 \
  --num-layers-per-virtual-pipeline-stage 3
stderr_has vpp_not_dividing_message "does not divide the 2 layers of each of the 2 pipeline stages"
expect_exit vpp_micro_not_multiple 2 $MPI -np 2 "$BIN/train" $M4 --train-iters 2 --pipeline-model-parallel-size 2 \
  --num-layers-per-virtual-pipeline-stage 1 --global-batch-size 6
stderr_has vpp_micro_not_multiple_message "3 micro-batches per data-parallel rank is not a multiple of --pipeline-model-parallel-size 2"
WEBTEXT_TRAIN_FAIL_AT=1:3 expect_exit rank_failure_vpp 5 $MPI -np 2 "$BIN/train" $M4 --train-iters 50 \
  --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1
stderr_has rank_failure_vpp_message "rank 1: failure injected at iteration 3"

# The sharded optimizer does the same arithmetic per parameter as the replicated one: bit for bit.
check zero1_equals_zero0 compare "$WORK/dp2.jsonl" "$WORK/z1.jsonl" 0
if [ "$FULL" = 1 ]; then
grep -q '> parallel layout: world 4 = tensor 1 x pipeline 1 x data 4 (MPI); ranks (tensor, data, pipeline): 0=(0,0,0) 1=(0,1,0) 2=(0,2,0) 3=(0,3,0)' \
  "$WORK/dp4.out" && pass rank_layout_printed || fail rank_layout_printed "$(grep 'parallel layout' "$WORK/dp4.out")"
fi
# Validation loss is evaluated across the ranks too.
if [ "$(grep -c '"val_loss"' "$WORK/dp2.jsonl")" = 3 ]; then pass dp2_validation; else fail dp2_validation; fi

# --- memory per rank: bytes per parameter of each stage (fp32: params 4, grads 4, moments 8;
# stage 1 keeps a reduced-gradient shard 4/dp and moments 8/dp)
bpp() { grep -o '[0-9.]* bytes per parameter' "$1" | cut -d' ' -f1; }
[ "$(bpp "$WORK/dp2.out")" = 16.000 ] && pass memory_zero0 || fail memory_zero0 "$(bpp "$WORK/dp2.out")"
[ "$(bpp "$WORK/z1.out")" = 14.000 ] && pass memory_zero1_dp2 || fail memory_zero1_dp2 "$(bpp "$WORK/z1.out") (want 8 + 12/2)"
if [ "$FULL" = 1 ]; then
[ "$(bpp "$WORK/dp4.out")" = 11.000 ] && pass memory_zero1_dp4 || fail memory_zero1_dp4 "$(bpp "$WORK/dp4.out") (want 8 + 12/4)"
fi

# --- communication per iteration and rank: 2(d-1)/d x 4N bytes (ring all-reduce, or
# reduce-scatter + all-gather), plus a few scalars (loss, gradient norm)
N=$(grep -o '): [0-9]* parameters' "$WORK/dp2.out" | grep -o '[0-9]*')
comm_ok() { # JSONL D
  "$PY" - "$1" "$2" "$N" <<'PY'
import json, sys
p, d, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
want = 2 * (d - 1) / d * 4 * n
got = [r["comm_bytes"] for r in map(json.loads, open(p)) if "comm_bytes" in r]
print(f"  {len(got)} iterations: {got[0]} bytes, formula {want:.0f}")
sys.exit(0 if got and all(abs(g - want) <= 64 for g in got) else 1)
PY
}
check comm_volume_dp2 comm_ok "$WORK/dp2.jsonl" 2
check comm_volume_dp2_zero1 comm_ok "$WORK/z1.jsonl" 2
full check comm_volume_dp4 comm_ok "$WORK/dp4.jsonl" 4
# Tensor parallel (Megatron-LM paper): per micro-batch 4 all-reduces of b x s x h floats per
# layer and 2 more (embedding, output layer), ring cost 2(t-1)/t each; the cross-entropy sends
# per-token scalars only (max, sum of exponentials, target logit: 3 floats a token), never logits.
tp_comm_ok() { # JSONL OUT DP MICRO_PER_RANK
  "$PY" - "$1" "$2" "$3" "$4" <<'PY'
import json, re, sys
p, out, dp, micro = sys.argv[1], open(sys.argv[2]).read(), int(sys.argv[3]), int(sys.argv[4])
n_local = int(re.search(r"x (\d+) parameters\)", out).group(1))
t, L, b, s, h = 2, 2, 2, 16, 32
tp = micro * (4 * L + 2) * 2 * (t - 1) / t * 4 * b * s * h
ce = micro * 2 * (t - 1) / t * 4 * 3 * b * s
dpv = 2 * (dp - 1) / dp * 4 * n_local if dp > 1 else 0
want = tp + ce + dpv
got = [r["comm_bytes"] for r in map(json.loads, open(p)) if "comm_bytes" in r]
print(f"  {len(got)} iterations: {got[0]} bytes; formula {want:.0f} (tensor {tp:.0f} + cross-entropy {ce:.0f} + data {dpv:.0f})")
sys.exit(0 if got and all(abs(g - want) <= 64 for g in got) else 1)
PY
}
check comm_volume_tp2 tp_comm_ok "$WORK/tp2.jsonl" "$WORK/tp2.out" 1 4
check comm_volume_tp2_dp2 tp_comm_ok "$WORK/tp2dp2.jsonl" "$WORK/tp2dp2.out" 2 2
tp_comm_ok "$WORK/tp2dp2.jsonl" "$WORK/tp2dp2.out" 2 2 | sed 's/^/ /'
# Each tensor rank holds half of the split tensors: parameters per rank fall accordingly.
n1=$(grep -o 'x [0-9]* parameters)' "$WORK/dp2.out" | grep -o '[0-9]*'); n2=$(grep -o 'x [0-9]* parameters)' "$WORK/tp2.out" | grep -o '[0-9]*')
# (Megatron's vocabulary padding: 128 x tp, so VP1 rows at tp 1 and VP2 at tp 2)
"$PY" -c "import sys; n1, n2 = $n1, $n2; C, L, T = 32, 2, 16
split = lambda V: V * C + L * (3 * C * C + 3 * C + C * C + 4 * C * C + 4 * C + 4 * C * C)
sys.exit(0 if n2 == n1 - split($VP1) + split($VP2) // 2 else 1)" && pass tp_memory_halves_split_tensors || fail tp_memory_halves_split_tensors "$n1 -> $n2"
[ "$(grep -o '"comm_bytes":[0-9]*' "$WORK/s.jsonl" | sort -u)" = '"comm_bytes":0' ] && pass comm_single_none || fail comm_single_none

# --- ZeRO stages 2 (gradients sharded too) and 3 (parameters too, gathered one unit at a time):
# against one process (the per-micro-batch reduce-scatter sums in yet another order: asserted
# 1e-6), stage 3 equal to stage 2 bit for bit, with tensor and sequence parallelism too.
expect_exit dp2_zero2 0 $MPI -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/z2.jsonl" --zero-stage 2
cp "$WORK/.out" "$WORK/z2.out"
expect_exit dp2_zero3 0 $MPI_L -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/z3.jsonl" --zero-stage 3
cp "$WORK/.out" "$WORK/z3.out"
full expect_exit dp4_zero3 0 $MPI -np 4 "$BIN/train" $M --train-iters $IT --log-json "$WORK/dp4z3.jsonl" --zero-stage 3
full cp "$WORK/.out" "$WORK/dp4z3.out"
expect_exit tp2_dp2_sp_zero3 0 $MPI_L -np 4 "$BIN/train" $M --train-iters $IT --log-json "$WORK/tdz3.jsonl" \
  --tensor-model-parallel-size 2 --sequence-parallel --zero-stage 3
check dp2_zero2_losses_match_single compare "$WORK/s.jsonl" "$WORK/z2.jsonl" 1e-6
compare "$WORK/s.jsonl" "$WORK/z2.jsonl" 1e-6 | sed 's/^/ /'
check dp2_zero3_losses_match_single compare "$WORK/s.jsonl" "$WORK/z3.jsonl" 1e-6
full check dp4_zero3_losses_match_single compare "$WORK/s.jsonl" "$WORK/dp4z3.jsonl" 1e-6
check tp2_dp2_sp_zero3_losses_match_single compare "$WORK/s.jsonl" "$WORK/tdz3.jsonl" 1e-6
compare "$WORK/s.jsonl" "$WORK/tdz3.jsonl" 1e-6 | sed 's/^/ /'
check zero3_equals_zero2 compare "$WORK/z2.jsonl" "$WORK/z3.jsonl" 0
# Bytes per parameter: stage 2, 4 + 12/dp; stage 3, 16/dp (the units' padding is below 0.0005).
[ "$(bpp "$WORK/z2.out")" = 10.000 ] && pass memory_zero2_dp2 || fail memory_zero2_dp2 "$(bpp "$WORK/z2.out") (want 4 + 12/2)"
[ "$(bpp "$WORK/z3.out")" = 8.000 ] && pass memory_zero3_dp2 || fail memory_zero3_dp2 "$(bpp "$WORK/z3.out") (want 16/2)"
if [ "$FULL" = 1 ]; then
[ "$(bpp "$WORK/dp4z3.out")" = 4.000 ] && pass memory_zero3_dp4 || fail memory_zero3_dp4 "$(bpp "$WORK/dp4z3.out") (want 16/4)"
fi
# ... and the working buffers: the embedding unit, one layer and the final LayerNorm, padded;
# gradients only for stage 2, parameters too for stage 3; and each one's reduce-scattered part
# (units / dp).
"$PY" - "$WORK/z2.out" "$WORK/z3.out" "$VP1" <<'PY' && pass zero_working_buffers || fail zero_working_buffers
import re, sys
C, L, V, T, dp = 32, 2, int(sys.argv[3]), 16, 2
pad = lambda n: -(-n // dp) * dp
units = pad(V * C + T * C) + pad(12 * C * C + 13 * C) + pad(2 * C)
w = [float(re.search(r"working buffers ([0-9.]+) MB", open(p).read()).group(1)) for p in sys.argv[1:3]]
want = [(4 * units + 4 * units // dp) / 1e6, (8 * units + 4 * units // dp) / 1e6]
print(f"  working buffers {w} MB, formula {want[0]:.1f} and {want[1]:.1f}")
sys.exit(0 if abs(w[0] - want[0]) < 0.06 and abs(w[1] - want[1]) < 0.06 else 1)
PY
# Communication (ZeRO paper, ring costs, m micro-batches per rank): stage 2 a reduce-scatter per
# micro-batch and one all-gather, (m+1)(d-1)/d x 4N; stage 3 two all-gathers and a reduce-scatter
# per micro-batch, 3m(d-1)/d x 4N (N: the units padded to a multiple of d).
zcomm_ok() { # JSONL OUT D FACTOR
  "$PY" - "$@" <<'PY'
import json, re, sys
p, out, d, f = sys.argv[1], open(sys.argv[2]).read(), int(sys.argv[3]), int(sys.argv[4])
n = int(re.search(r"x (\d+) parameters\)", out).group(1))
want = f * (d - 1) / d * 4 * n
got = [r["comm_bytes"] for r in map(json.loads, open(p)) if "comm_bytes" in r]
print(f"  {len(got)} iterations: {got[0]} bytes, formula {want:.0f}")
sys.exit(0 if got and all(abs(g - want) <= 64 for g in got) else 1)
PY
}
check comm_volume_dp2_zero2 zcomm_ok "$WORK/z2.jsonl" "$WORK/z2.out" 2 3
check comm_volume_dp2_zero3 zcomm_ok "$WORK/z3.jsonl" "$WORK/z3.out" 2 6
full check comm_volume_dp4_zero3 zcomm_ok "$WORK/dp4z3.jsonl" "$WORK/dp4z3.out" 4 3
zcomm_ok "$WORK/z3.jsonl" "$WORK/z3.out" 2 6 | sed 's/^/ /'


# --- the same layouts through the device-discipline table (--device checked: the CPU kernels
# behind the device interface; a host access to "device" memory faults, a download read before
# its sync is NaN; ranks share one "GPU", so every group's communicator is the staged one that
# ranks sharing a real GPU use). The numbers are the CPU table's, so bit for bit (tolerance 0).
CK="--device checked"
expect_exit checked_tp2_sp 0 $MPI_L -np 2 "$BIN/train" $M $CK --train-iters $IT --log-json "$WORK/ck_sp.jsonl" \
  --tensor-model-parallel-size 2 --sequence-parallel
grep -q '^> communicators: tensor staged, pipeline staged, data staged' "$WORK/.out" && pass checked_staged_communicators ||
  fail checked_staged_communicators
expect_exit checked_pp2 0 $MPI -np 2 "$BIN/train" $M $CK --train-iters $IT --log-json "$WORK/ck_pp2.jsonl" \
  --pipeline-model-parallel-size 2
expect_exit checked_pp2_vpp2 0 $MPI -np 2 "$BIN/train" $M4 $CK --train-iters $IT --log-json "$WORK/ck_v2.jsonl" \
  --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1
expect_exit checked_dp2_zero2 0 $MPI -np 2 "$BIN/train" $M $CK --train-iters $IT --log-json "$WORK/ck_z2.jsonl" --zero-stage 2
expect_exit checked_dp2_zero3 0 $MPI_L -np 2 "$BIN/train" $M $CK --train-iters $IT --log-json "$WORK/ck_z3.jsonl" --zero-stage 3
full expect_exit checked_tp2_pp2_dp2_zero1 0 $MPI -np 8 "$BIN/train" $M $CK --train-iters $IT --log-json "$WORK/ck_tpd.jsonl" \
  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --use-distributed-optimizer
for pair in sp:sp pp2:pp2 v2:v2 z2:z2 z3:z3; do
  check "checked_${pair%%:*}_same_bits_as_cpu" compare "$WORK/${pair#*:}.jsonl" "$WORK/ck_${pair%%:*}.jsonl" 0
done
full check checked_tpd_same_bits_as_cpu compare "$WORK/tpd.jsonl" "$WORK/ck_tpd.jsonl" 0
check checked_tp2_sp_matches_single compare "$WORK/s.jsonl" "$WORK/ck_sp.jsonl" 1e-6
check checked_zero3_matches_single compare "$WORK/s.jsonl" "$WORK/ck_z3.jsonl" 1e-6
check checked_pp2_vpp2_matches_single compare "$WORK/s4.jsonl" "$WORK/ck_v2.jsonl" 1e-6
# --cpu-offload under tensor parallelism with sequence parallelism (each rank steps its own slices
# on its CPU): the same bits as the device's AdamW
expect_exit checked_tp2_sp_offload 0 $MPI_L -np 2 "$BIN/train" $M $CK --train-iters $IT --log-json "$WORK/ck_spo.jsonl" \
  --tensor-model-parallel-size 2 --sequence-parallel --cpu-offload
check checked_tp2_sp_offload_same_bits compare "$WORK/ck_sp.jsonl" "$WORK/ck_spo.jsonl" 0
# --recompute-activations in the parallel model (any table): one layer's LayerNorm and GELU outputs
# kept, recomputed in the backward (with sequence parallelism, their all-gathers again): the same bits.
expect_exit recompute_tp2_sp 0 $MPI -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/rc_sp.jsonl" \
  --tensor-model-parallel-size 2 --sequence-parallel --recompute-activations
cp "$WORK/.out" "$WORK/rc_sp.out"
check recompute_tp2_sp_same_bits compare "$WORK/sp.jsonl" "$WORK/rc_sp.jsonl" 0
awk -v a="$(act "$WORK/sp.out")" -v b="$(act "$WORK/rc_sp.out")" 'BEGIN { exit !(b < a) }' && pass recompute_fewer_activations ||
  fail recompute_fewer_activations "$(act "$WORK/sp.out") -> $(act "$WORK/rc_sp.out") MB"
expect_exit recompute_checked_zero3 0 $MPI -np 2 "$BIN/train" $M $CK --train-iters $IT --log-json "$WORK/rc_z3.jsonl" \
  --zero-stage 3 --recompute-activations
check recompute_checked_zero3_same_bits compare "$WORK/z3.jsonl" "$WORK/rc_z3.jsonl" 0
# ... and with NCCL's point-to-point semantics emulated (--distributed-backend nccl on the checked
# table: messages between two ranks match by order, not tag; a send completes only once its
# receive is posted; each step's transfers complete together): the schedules' batched transfers
# must neither deadlock nor cross (a crossed pair of same-sized messages would change the bits).
CKN="--device checked --distributed-backend nccl"
expect_exit nccl_semantics_pp2 0 $MPI -np 2 "$BIN/train" $M $CKN --train-iters $IT --log-json "$WORK/cn_pp2.jsonl" \
  --pipeline-model-parallel-size 2
grep -q "^> communicators: .*pipeline staged with NCCL's semantics" "$WORK/.out" && pass nccl_semantics_reported ||
  fail nccl_semantics_reported
expect_exit nccl_semantics_pp2_vpp2 0 $MPI_L -np 2 "$BIN/train" $M4 $CKN --train-iters $IT --log-json "$WORK/cn_v2.jsonl" \
  --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1
expect_exit nccl_semantics_pp4_vpp2_all_warmup 0 $MPI -np 4 "$BIN/train" $M8 $CKN --train-iters $IT8 \
  --log-json "$WORK/cn_p4v2m4.jsonl" --pipeline-model-parallel-size 4 --num-layers-per-virtual-pipeline-stage 1 --global-batch-size 4
full expect_exit nccl_semantics_tp2_pp2_dp2_vpp2 0 $MPI -np 8 "$BIN/train" $M8 $CKN --train-iters $IT8 \
  --log-json "$WORK/cn_tpdv.jsonl" --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 \
  --num-layers-per-virtual-pipeline-stage 2
for pair in pp2:pp2 v2:v2 p4v2m4:p4v2m4; do
  check "nccl_semantics_${pair%%:*}_same_bits_as_cpu" compare "$WORK/${pair#*:}.jsonl" "$WORK/cn_${pair%%:*}.jsonl" 0
done
full check nccl_semantics_tpdv_same_bits_as_cpu compare "$WORK/tpdv.jsonl" "$WORK/cn_tpdv.jsonl" 0

# --- Megatron's overlap on ZeRO-0, ZeRO-2 and ZeRO-3: --overlap-grad-reduce starts each layer's
# reduce-scatter as the backward finishes it and completes it (adds it into the shard) when its
# buffer is taken again (layers alternate between two) or before the step; --overlap-param-gather
# starts the next layer's all-gather while this one computes. The sums and the order of the
# additions are those without overlap: the same bits, on the CPU table (MPI's nonblocking
# collectives), the checked table (staged: sent down at the start, completed and copied up at the
# wait) and under NCCL's emulated semantics. Ranks that started them in different orders would
# hang (the timeout) or mix two layers' sums.
OV="--overlap-grad-reduce"
expect_exit overlap_zero2 0 $MPI -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/ov_z2.jsonl" --zero-stage 2 $OV
expect_exit overlap_zero3 0 $MPI_L -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/ov_z3.jsonl" --zero-stage 3 \
  $OV --overlap-param-gather
cp "$WORK/.out" "$WORK/ov_z3.out"
expect_exit overlap_checked_zero3 0 $MPI -np 2 "$BIN/train" $M $CK --train-iters $IT --log-json "$WORK/ck_ov_z3.jsonl" \
  --zero-stage 3 $OV --overlap-param-gather
expect_exit overlap_nccl_semantics_zero2 0 $MPI_L -np 2 "$BIN/train" $M $CKN --train-iters $IT --log-json "$WORK/cn_ov_z2.jsonl" \
  --zero-stage 2 $OV
expect_exit overlap_nccl_semantics_zero3_recompute 0 $MPI -np 2 "$BIN/train" $M $CKN --train-iters $IT \
  --log-json "$WORK/cn_ov_z3.jsonl" --zero-stage 3 $OV --overlap-param-gather --recompute-activations
# ZeRO-0 (plain data parallelism): each layer all-reduced from a packed copy in the backward of
# the iteration's last micro-batch (2 here), unpacked before the step; with sequence parallelism
# its LayerNorms summed over the tensor group first: the bits of the buckets' all-reduce
expect_exit overlap_zero0 0 $MPI -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/ov_z0.jsonl" $OV
expect_exit overlap_checked_zero0 0 $MPI -np 2 "$BIN/train" $M $CK --train-iters $IT --log-json "$WORK/ck_ov_z0.jsonl" $OV
expect_exit overlap_nccl_semantics_zero0 0 $MPI_L -np 2 "$BIN/train" $M $CKN --train-iters $IT --log-json "$WORK/cn_ov_z0.jsonl" $OV
expect_exit tp2_sp_dp2 0 $MPI_L -np 4 "$BIN/train" $M --train-iters $IT --log-json "$WORK/tpsp_dp2.jsonl" \
  --tensor-model-parallel-size 2 --sequence-parallel
expect_exit overlap_tp2_sp_dp2_zero0 0 $MPI_L -np 4 "$BIN/train" $M --train-iters $IT --log-json "$WORK/ov_tpsp_dp2.jsonl" \
  --tensor-model-parallel-size 2 --sequence-parallel $OV
for pair in z2:ov_z2 z3:ov_z3 z3:ck_ov_z3 z2:cn_ov_z2 z3:cn_ov_z3 dp2:ov_z0 dp2:ck_ov_z0 dp2:cn_ov_z0 tpsp_dp2:ov_tpsp_dp2; do
  check "${pair#*:}_same_bits" compare "$WORK/${pair%%:*}.jsonl" "$WORK/${pair#*:}.jsonl" 0
done
# the second layer buffers are counted in the working buffers (stage 3: gradients and parameters)
"$PY" - "$WORK/z3.out" "$WORK/ov_z3.out" "$VP1" <<'PY' && pass overlap_working_buffers || fail overlap_working_buffers
import re, sys
C, dp = 32, 2
layer = -(-(12 * C * C + 13 * C) // dp) * dp
w = [float(re.search(r"working buffers ([0-9.]+) MB", open(p).read()).group(1)) for p in sys.argv[1:3]]
want = w[0] + (8 * layer + 4 * layer // dp) / 1e6
print(f"  working buffers {w} MB, with overlap {want:.2f} expected")
sys.exit(0 if abs(w[1] - want) < 0.06 else 1)  # printed to 0.1 MB
PY
# ZeRO-1 (the distributed optimizer, Megatron's usual pairing with the overlap): the units' shard
# layout, each unit reduce-scattered in the last micro-batch's backward from the gradients in
# place; the sums, the steps and the gathered parameters are those of the flat buckets' (dp 2),
# the gradient norm summed piece by piece (its last bits): within 1e-6; and its checkpoint
# resumes in one process
expect_exit overlap_zero1 0 $MPI -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/ov_z1.jsonl" \
  --use-distributed-optimizer $OV
expect_exit zero1_plain 0 $MPI -np 2 "$BIN/train" $M --train-iters $IT --log-json "$WORK/z1p.jsonl" --use-distributed-optimizer
check overlap_zero1_matches_zero1 compare "$WORK/z1p.jsonl" "$WORK/ov_z1.jsonl" 1e-6
expect_exit overlap_checked_tp2_sp_dp2_zero1 0 $MPI_L -np 4 "$BIN/train" $M $CK --train-iters $IT \
  --log-json "$WORK/ck_ov_tpsp_z1.jsonl" --tensor-model-parallel-size 2 --sequence-parallel --use-distributed-optimizer $OV
check overlap_checked_tp2_sp_dp2_zero1_matches compare "$WORK/tpsp_dp2.jsonl" "$WORK/ck_ov_tpsp_z1.jsonl" 1e-6
CO="$M --train-iters 12 --eval-interval 100"
expect_exit overlap_zero1_save 0 $MPI -np 2 "$BIN/train" $CO --use-distributed-optimizer $OV --save "$WORK/ckOZ" --exit-interval 6
expect_exit overlap_zero1_resume_single 0 "$BIN/train" $CO --save "$WORK/ckOZ" --load "$WORK/ckOZ" --log-json "$WORK/ovz1r.jsonl"
expect_exit overlap_zero1_straight_single 0 "$BIN/train" $CO --log-json "$WORK/ovz1s.jsonl"
check overlap_zero1_checkpoint_resumes compare "$WORK/ovz1s.jsonl" "$WORK/ckOZ/train_log.jsonl" 1e-6
# With a pipeline (pp 2 x dp 2): the schedules mark each stage's (each model chunk's) last backward;
# the tied embedding waits for the embedding group's sum after the backwards, then goes as
# without overlap: 1F1B with ZeRO-0, interleaved with ZeRO-1, the same bits
expect_exit pp2_dp2 0 $MPI_L -np 4 "$BIN/train" $M --train-iters $IT --log-json "$WORK/ppdp.jsonl" --pipeline-model-parallel-size 2
expect_exit overlap_pp2_dp2_zero0 0 $MPI_L -np 4 "$BIN/train" $M --train-iters $IT --log-json "$WORK/ov_ppdp.jsonl" \
  --pipeline-model-parallel-size 2 $OV
check overlap_pp2_dp2_zero0_same_bits compare "$WORK/ppdp.jsonl" "$WORK/ov_ppdp.jsonl" 0
VI="--pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1 --use-distributed-optimizer"
expect_exit vpp2_dp2_zero1 0 $MPI_L -np 4 "$BIN/train" $M4 --train-iters $IT --log-json "$WORK/vdz1.jsonl" $VI
expect_exit overlap_vpp2_dp2_zero1 0 $MPI_L -np 4 "$BIN/train" $M4 --train-iters $IT --log-json "$WORK/ov_vdz1.jsonl" $VI $OV
check overlap_vpp2_dp2_zero1_matches compare "$WORK/vdz1.jsonl" "$WORK/ov_vdz1.jsonl" 1e-6
expect_exit overlap_param_refused_zero2 2 "$BIN/train" $M --train-iters 2 --zero-stage 2 --overlap-param-gather
stderr_has overlap_param_refusal_says_why "--overlap-param-gather: implemented for --zero-stage 3"

# --- checkpoints move between layouts: dp2 + ZeRO-1 -> one process, and back, continue as one run
C="$M --train-iters 12 --eval-interval 100"
expect_exit straight 0 "$BIN/train" $C --save "$WORK/ckS"
expect_exit reshard_save_dp2 0 $MPI_L -np 2 "$BIN/train" $C --save "$WORK/ckA" --exit-interval 6 --use-distributed-optimizer
expect_exit reshard_load_single 0 "$BIN/train" $C --save "$WORK/ckA" --load "$WORK/ckA"
expect_exit reshard_save_single 0 "$BIN/train" $C --save "$WORK/ckB" --exit-interval 6
expect_exit reshard_load_dp2 0 $MPI_L -np 2 "$BIN/train" $C --save "$WORK/ckB" --load "$WORK/ckB" --use-distributed-optimizer
check reshard_dp2_to_single compare "$WORK/ckS/train_log.jsonl" "$WORK/ckA/train_log.jsonl" 1e-6
check reshard_single_to_dp2 compare "$WORK/ckS/train_log.jsonl" "$WORK/ckB/train_log.jsonl" 1e-6
[ "$(grep -c '"lm_loss"' "$WORK/ckB/train_log.jsonl")" = 12 ] && pass one_rank_logs || fail one_rank_logs
# ... and between tensor-parallel layouts: tp 2 -> one process, one process -> tp 2 x dp 2 + ZeRO-1.
full expect_exit reshard_save_tp2 0 $MPI -np 2 "$BIN/train" $C --save "$WORK/ckC" --exit-interval 6 --tensor-model-parallel-size 2
full expect_exit reshard_load_tp1 0 "$BIN/train" $C --save "$WORK/ckC" --load "$WORK/ckC"
full expect_exit reshard_save_tp1 0 "$BIN/train" $C --save "$WORK/ckD" --exit-interval 6
full expect_exit reshard_load_tp2_dp2 0 $MPI -np 4 "$BIN/train" $C --save "$WORK/ckD" --load "$WORK/ckD" \
  --tensor-model-parallel-size 2 --zero-stage 1
full check reshard_tp2_to_single compare "$WORK/ckS/train_log.jsonl" "$WORK/ckC/train_log.jsonl" 1e-6
# ... and between pipeline layouts: tp 2 x pp 2 x dp 2 + ZeRO-1 -> one process, one process -> pp 2.
full expect_exit reshard_save_tpd 0 $MPI -np 8 "$BIN/train" $C --save "$WORK/ckE" --exit-interval 6 \
  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --zero-stage 1
full expect_exit reshard_load_single_from_tpd 0 "$BIN/train" $C --save "$WORK/ckE" --load "$WORK/ckE"
expect_exit reshard_save_single_for_pp 0 "$BIN/train" $C --save "$WORK/ckF" --exit-interval 6
expect_exit reshard_load_pp2 0 $MPI_L -np 2 "$BIN/train" $C --save "$WORK/ckF" --load "$WORK/ckF" \
  --pipeline-model-parallel-size 2
full check reshard_tpd_to_single compare "$WORK/ckS/train_log.jsonl" "$WORK/ckE/train_log.jsonl" 1e-6
check reshard_single_to_pp2 compare "$WORK/ckS/train_log.jsonl" "$WORK/ckF/train_log.jsonl" 1e-6
# A checkpoint saved through the device-discipline table (tp 2 x pp 2; x dp 2 in the plain tier)
# resumes in one CPU process and continues the loss curve.
if [ "$FULL" = 1 ]; then CKN=8; else CKN=4; fi
expect_exit checked_save_tp2_pp2 0 $MPI -np $CKN "$BIN/train" $C --device checked --save "$WORK/ckK" --exit-interval 6 \
  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2
expect_exit checked_resume_single_cpu 0 "$BIN/train" $C --device cpu --save "$WORK/ckK" --load "$WORK/ckK"
check checked_tpd_to_single_cpu compare "$WORK/ckS/train_log.jsonl" "$WORK/ckK/train_log.jsonl" 1e-6
full check reshard_single_to_tp2_dp2 compare "$WORK/ckS/train_log.jsonl" "$WORK/ckD/train_log.jsonl" 1e-6
# ... and out of and into an interleaved pipeline (4 layers: pp 2 x 2 chunks; its stages hold
# layers {0, 2} and {1, 3}): pp 2 x vpp 2 -> one process, one process -> pp 2 x vpp 2 (the loaded
# checkpoint says what layout it was saved from).
C4="$C --num-layers 4"
expect_exit straight_4_layers 0 "$BIN/train" $C4 --save "$WORK/ckS4"
expect_exit reshard_save_vpp 0 $MPI_L -np 2 "$BIN/train" $C4 --save "$WORK/ckV" --exit-interval 6 \
  --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1
expect_exit reshard_load_single_from_vpp 0 "$BIN/train" $C4 --save "$WORK/ckV" --load "$WORK/ckV"
grep -q 'saved at tensor 1 x pipeline 2 (2 chunks per stage) x data 1, ZeRO stage 0; loaded into tensor 1 x pipeline 1 x data 1' \
  "$WORK/.out" && pass checkpoint_records_layout || fail checkpoint_records_layout "$(grep 'loaded checkpoint' "$WORK/.out")"
expect_exit reshard_save_single_for_vpp 0 "$BIN/train" $C4 --save "$WORK/ckW" --exit-interval 6
expect_exit reshard_load_vpp 0 $MPI -np 2 "$BIN/train" $C4 --save "$WORK/ckW" --load "$WORK/ckW" \
  --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1
check reshard_vpp_to_single compare "$WORK/ckS4/train_log.jsonl" "$WORK/ckV/train_log.jsonl" 1e-6
check reshard_single_to_vpp compare "$WORK/ckS4/train_log.jsonl" "$WORK/ckW/train_log.jsonl" 1e-6
# ... and out of and into ZeRO-3's sharded parameters: dp 2 + ZeRO-3 -> one process, one process ->
# dp 2 + ZeRO-2.
expect_exit reshard_save_zero3 0 $MPI_L -np 2 "$BIN/train" $C --save "$WORK/ckG" --exit-interval 6 --zero-stage 3
expect_exit reshard_load_single_from_zero3 0 "$BIN/train" $C --save "$WORK/ckG" --load "$WORK/ckG"
full expect_exit reshard_save_single_for_zero2 0 "$BIN/train" $C --save "$WORK/ckH" --exit-interval 6
full expect_exit reshard_load_zero2 0 $MPI -np 2 "$BIN/train" $C --save "$WORK/ckH" --load "$WORK/ckH" --zero-stage 2
check reshard_zero3_to_single compare "$WORK/ckS/train_log.jsonl" "$WORK/ckG/train_log.jsonl" 1e-6
full check reshard_single_to_zero2 compare "$WORK/ckS/train_log.jsonl" "$WORK/ckH/train_log.jsonl" 1e-6

# --- a failing rank ends every rank, with its message, never a hang
WEBTEXT_TRAIN_FAIL_AT=1:3 expect_exit rank_failure_stops_all 5 $MPI -np 2 "$BIN/train" $M --train-iters 50
stderr_has rank_failure_message "rank 1: failure injected at iteration 3"

# ... also under ZeRO-3, where the other rank is in a collective of its backward or step.
WEBTEXT_TRAIN_FAIL_AT=0:2 expect_exit rank_failure_zero3 5 $MPI -np 2 "$BIN/train" $M --train-iters 50 --zero-stage 3
stderr_has rank_failure_zero3_message "rank 0: failure injected at iteration 2"
# ... also in a tp 2 x pp 2 layout, where the other ranks may wait in a pipeline receive.
WEBTEXT_TRAIN_FAIL_AT=3:2 expect_exit rank_failure_tp_pp 5 $MPI -np 4 "$BIN/train" $M --train-iters 50 \
  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2
stderr_has rank_failure_tp_pp_message "rank 3: failure injected at iteration 2"

# --- non-finite gradients on every rank: skipped together
WEBTEXT_TRAIN_INJECT_NAN=3 expect_exit dp2_nan_skip 0 $MPI_L -np 2 "$BIN/train" $M --train-iters 5
grep -q 'iteration  *3/ .*number of skipped iterations:   1' "$WORK/.out" && pass dp2_nan_reported || fail dp2_nan_reported

# rank_pids N SAVEDIR: once the run saving into SAVEDIR has logged iteration 3 (so every rank
# has its signal handler), the pids of its N ranks, found by command line (not by the process
# tree, whose shape depends on the MPI launcher); waits up to 100 s.
rank_pids() {
  local k p
  for k in $(seq 1 1000); do
    grep -q '"iteration":3,' "$2/train_log.jsonl" 2>/dev/null && break; sleep 0.1; done
  for k in $(seq 1 100); do
    p=$(pgrep -f -- "^$BIN/train .*--save $2( |\$)" | tr '\n' ' '); p=${p% }
    [ "$(wc -w <<<"$p")" = "$1" ] && break; sleep 0.1; done
  echo "$p"
}
# --- SIGTERM to one rank only (as a scheduler may deliver it): all ranks agree, save, exit 0
$MPI -np 2 "$BIN/train" $M --train-iters 100000 --eval-interval 100000 --save "$WORK/ckT" --zero-stage 1 \
  >"$WORK/t.out" 2>"$WORK/t.err" &
pid=$!
ranks=$(rank_pids 2 "$WORK/ckT"); last=${ranks##* }
kill -TERM "$last"; wait $pid; rc=$?
it=$(cat "$WORK/ckT/latest_checkpointed_iteration.txt" 2>/dev/null)
if [ $rc = 0 ] && [ -n "$it" ] && [ "$it" -ge 3 ] && grep -q 'received SIGTERM' "$WORK/t.err"; then pass sigterm_one_rank;
else fail sigterm_one_rank "rc $rc, latest '$it', ranks '$ranks'"; fi
expect_exit sigterm_resume_single 0 "$BIN/train" $M --train-iters $((it + 2)) --load "$WORK/ckT"
# The same in a tp 2 x pp 2 layout (the signal reaches one rank; all save one checkpoint).
$MPI -np 4 "$BIN/train" $M --train-iters 100000 --eval-interval 100000 --save "$WORK/ckU" \
  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 >"$WORK/u.out" 2>"$WORK/u.err" &
pid=$!
ranks=$(rank_pids 4 "$WORK/ckU"); last=${ranks##* }
kill -TERM "$last"; wait $pid; rc=$?
it=$(cat "$WORK/ckU/latest_checkpointed_iteration.txt" 2>/dev/null)
if [ $rc = 0 ] && [ -n "$it" ] && [ "$it" -ge 3 ]; then pass sigterm_one_rank_tp_pp; else fail sigterm_one_rank_tp_pp "rc $rc, latest '$it', ranks '$ranks'"; fi
expect_exit sigterm_tp_pp_resume_dp 0 $MPI_L -np 2 "$BIN/train" $M --train-iters $((it + 2)) --load "$WORK/ckU"

# --- usage
expect_exit gbs_not_multiple_of_dp 2 $MPI -np 2 "$BIN/train" $M --train-iters 2 --global-batch-size 6
stderr_has gbs_not_multiple_message "not a multiple of --micro-batch-size 2 x data-parallel size 2"
expect_exit layers_not_divisible_by_pp 2 $MPI -np 4 "$BIN/train" $M --train-iters 2 --pipeline-model-parallel-size 4
stderr_has layers_not_divisible_message "--num-layers 2 is not divisible by --pipeline-model-parallel-size 4"
expect_exit heads_not_divisible_by_tp 2 $MPI -np 4 "$BIN/train" $M --train-iters 2 --tensor-model-parallel-size 4
stderr_has heads_not_divisible_message "--num-attention-heads 2 is not divisible by --tensor-model-parallel-size 4"
expect_exit world_not_multiple 2 $MPI -np 3 "$BIN/train" $M --train-iters 2 --pipeline-model-parallel-size 2
stderr_has world_not_multiple_message "the world size 3 is not a multiple"
expect_exit zero3_with_pp_refused 2 $MPI -np 2 "$BIN/train" $M --train-iters 2 --zero-stage 3 --pipeline-model-parallel-size 2
stderr_has zero3_with_pp_message "ZeRO stages 2 and 3 do not combine with pipeline parallelism"
expect_exit zero4_refused 2 "$BIN/train" $M --train-iters 2 --zero-stage 4
# --device cuda with several ranks: every layout is the one model on the CUDA operation table;
# --cpu-offload with ZeRO is refused with the reason, on any machine (the distributed optimizer's
# shards stay on the device); without a GPU they stop at "no CUDA GPU found" (or the build has no
# CUDA).
expect_exit cuda_zero1_offload_refused 2 $MPI -np 2 "$BIN/train" $M --train-iters 2 --device cuda --use-distributed-optimizer --bf16 --cpu-offload
if grep -qE -- '--cpu-offload with ZeRO stage 1: the distributed optimizer' "$WORK/.err"; then
  pass cuda_zero1_offload_refused_message; else fail cuda_zero1_offload_refused_message "$(head -c 300 "$WORK/.err")"; fi
if ! nvidia-smi -L >/dev/null 2>&1; then
  expect_exit cuda_tp_needs_gpu 2 $MPI -np 2 "$BIN/train" $M --train-iters 2 --device cuda --tensor-model-parallel-size 2
  if grep -qE 'no CUDA GPU found|this build has no (CUDA backend|NCCL)' "$WORK/.err"; then
    pass cuda_tp_needs_gpu_message; else fail cuda_tp_needs_gpu_message "$(head -c 300 "$WORK/.err")"; fi
  expect_exit cuda_dp_needs_gpu 2 $MPI -np 2 "$BIN/train" $M --train-iters 2 --device cuda
  if grep -qE 'no CUDA GPU found|this build has no (CUDA backend|NCCL)' "$WORK/.err"; then
    pass cuda_dp_needs_gpu_message; else fail cuda_dp_needs_gpu_message "$(head -c 300 "$WORK/.err")"; fi
  expect_exit cuda_zero1_needs_gpu 2 $MPI -np 2 "$BIN/train" $M --train-iters 2 --device cuda --use-distributed-optimizer
  if grep -qE 'no CUDA GPU found|this build has no (CUDA backend|NCCL)' "$WORK/.err"; then
    pass cuda_zero1_needs_gpu_message; else fail cuda_zero1_needs_gpu_message "$(head -c 300 "$WORK/.err")"; fi
fi

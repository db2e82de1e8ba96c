#!/usr/bin/env bash
# test_convert.sh - convert_checkpoint: ours -> Hugging Face GPT-2 gives the
# logits of a numpy GPT-2 written from the HF format (scripts/lib/hf_gpt2_numpy.py);
# ours -> HF -> ours -> HF is byte-identical; a randomly initialised HF model
# imports with its logits and trains on; bad input is refused by name.
# (scripts/check/check_hf_export.py makes the same comparison with transformers itself.)
. "$(dirname "$0")/lib.sh"
export OMP_NUM_THREADS=2
D=$FIX/gptdata
M="--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 32 --micro-batch-size 2 --global-batch-size 4
   --lr 3e-3 --split 90,8,2 --data-cache-path $WORK --eval-iters 0 --device cpu"
expect_exit conv_train 0 "$BIN/train" $M --train-iters 5 --data-path "$D/a" --save "$WORK/ck"
expect_exit conv_to_hf 0 "$BIN/convert_checkpoint" --load "$WORK/ck" --to hf "$WORK/hf"
ok=1; for f in config.json model.safetensors vocab.json merges.txt tokenizer_config.json special_tokens_map.json; do
  [ -s "$WORK/hf/$f" ] || ok=0; done
[ $ok = 1 ] && ! ls -d "$WORK"/hf.tmp-* >/dev/null 2>&1 && pass conv_hf_files || fail conv_hf_files "$(ls "$WORK/hf")"
"$PY" -c 'import json,sys; c=json.load(open(sys.argv[1])); sys.exit(0 if (c["model_type"],c["n_layer"],c["n_embd"],c["n_head"],c["vocab_size"],c["n_positions"],c["activation_function"])==("gpt2",2,64,4,50257,32,"gelu_new") else 1)' \
  "$WORK/hf/config.json" && pass conv_hf_config || fail conv_hf_config
P="The history of the world is long and"
ids=$(printf '{"text":"%s"}\n' "$P" | "$BIN/tokenize" 2>/dev/null | tr ' ' ',')
expect_exit conv_logits_out 0 "$BIN/generate" --load "$WORK/ck" --prompt "$P" --logits-out "$WORK/ours.f32"
# The numpy reference needs the test venv (scripts/setup/install_deps.sh --test); without
# numpy those checks are counted as skipped, and the rest run on our own export.
NP=1; has_py numpy || NP=0
NOPY="numpy not importable by $PY (scripts/setup/install_deps.sh --test installs it)"
if [ $NP = 0 ]; then skip conv_hf_logits "$NOPY"
elif r=$("$PY" "$ROOT/scripts/lib/hf_gpt2_numpy.py" logits "$WORK/hf" "$ids" "$WORK/ours.f32" --tol 1e-5); then pass "conv_hf_logits ($r)"; else fail conv_hf_logits "$r"; fi
expect_exit conv_from_hf 0 "$BIN/convert_checkpoint" --from hf "$WORK/hf" --save "$WORK/ck2"
expect_exit conv_to_hf_again 0 "$BIN/convert_checkpoint" --load "$WORK/ck2" --to hf "$WORK/hf2"
cmp -s "$WORK/hf/model.safetensors" "$WORK/hf2/model.safetensors" && pass conv_roundtrip_identical || fail conv_roundtrip_identical
# A GPT-2 as transformers lays it out, random weights, without our vocabulary padding.
if [ $NP = 1 ]; then
"$PY" "$ROOT/scripts/lib/hf_gpt2_numpy.py" random "$WORK/rnd" --layers 2 --embd 64 --heads 4 --vocab 50257 --positions 32 --seed 3
expect_exit conv_import_random 0 "$BIN/convert_checkpoint" --from hf "$WORK/rnd" --save "$WORK/ck3"
expect_exit conv_import_logits_out 0 "$BIN/generate" --load "$WORK/ck3" --prompt "$P" --logits-out "$WORK/rnd.f32"
if r=$("$PY" "$ROOT/scripts/lib/hf_gpt2_numpy.py" logits "$WORK/rnd" "$ids" "$WORK/rnd.f32" --tol 1e-5); then pass "conv_import_logits ($r)"; else fail conv_import_logits "$r"; fi
else
  for n in conv_import_random conv_import_logits_out conv_import_logits; do skip $n "$NOPY"; done
  # fine-tune the import of our own export instead
  rm -rf "$WORK/ck3"; cp -r "$WORK/ck2" "$WORK/ck3"
fi
expect_exit conv_finetune 0 "$BIN/train" $M --train-iters 3 --data-path "$D/a" --load "$WORK/ck3" --save "$WORK/ck3"
grep -q 'loaded checkpoint .*iter_0000000' "$WORK/.out" && pass conv_finetune_loads || fail conv_finetune_loads
# bad input
expect_exit conv_exists 2 "$BIN/convert_checkpoint" --load "$WORK/ck" --to hf "$WORK/hf"
stderr_has conv_exists_message "exists and is not an empty directory"
expect_exit conv_no_config 3 "$BIN/convert_checkpoint" --from hf "$WORK/ck" --save "$WORK/x"
stderr_has conv_no_config_message "config.json"
mkdir -p "$WORK/bad" && cp "$WORK/hf/model.safetensors" "$WORK/bad/" &&
  sed -E 's/"n_embd":[[:space:]]*64/"n_embd": 96/; s/"n_inner":[[:space:]]*256/"n_inner": 384/' "$WORK/hf/config.json" > "$WORK/bad/config.json"
expect_exit conv_wrong_shape 1 "$BIN/convert_checkpoint" --from hf "$WORK/bad" --save "$WORK/x"
stderr_has conv_wrong_shape_message "transformer.wte.weight has shape [50257, 64], expected [50257, 96]"
head -c 1000 "$WORK/hf/model.safetensors" > "$WORK/bad/model.safetensors"; cp "$WORK/hf/config.json" "$WORK/bad/"
expect_exit conv_truncated 1 "$BIN/convert_checkpoint" --from hf "$WORK/bad" --save "$WORK/x"
stderr_has conv_truncated_message "model.safetensors"
[ ! -e "$WORK/x" ] && pass conv_nothing_written_on_error || fail conv_nothing_written_on_error
# A hostile download (issue 31), each refused by name with nothing written, and no undefined
# behaviour (the sanitizer tier runs this too): shapes whose product overflows, a config whose
# sizes the file cannot hold (checked before anything is allocated), a duplicate tensor name,
# holes and overlaps in the data, an integer weight, an oversized header, deeply nested JSON.
for c in "huge_shape|shape needs more bytes than the file" "n_layer_1e9|n_layer 1000000000 needs" \
         "n_embd_1e20|\"n_embd\" is not a whole number from 1 to" "duplicate_key|appears twice in the header" \
         "hole|leaves a hole after" "overlap|overlaps the previous tensor" "int_dtype|has dtype I32" \
         "header_too_big|over the format's limit" "deep_json|header is not a JSON object"; do
  n=${c%%|*} msg=${c#*|}
  rm -rf "$WORK/hostile" "$WORK/x"
  "$PY" "$ROOT/scripts/check/hf_mutate.py" "$WORK/hf" "$WORK/hostile" "$n" || { fail "conv_hostile_$n" "mutation failed"; continue; }
  expect_exit "conv_hostile_$n" 1 "$BIN/convert_checkpoint" --from hf "$WORK/hostile" --save "$WORK/x"
  stderr_has "conv_hostile_${n}_message" "$msg"
  [ ! -e "$WORK/x" ] && pass "conv_hostile_${n}_nothing_written" || fail "conv_hostile_${n}_nothing_written"
done
rm -rf "$WORK/hostile"
expect_exit conv_usage 2 "$BIN/convert_checkpoint" --load "$WORK/ck"

#!/usr/bin/env bash
# End-to-end tests of the tokenizer families beyond GPT-2 (issue 28): ids equal
# to tiktoken / tokenizers / sentencepiece on multilingual text and a real
# corpus for the real vocabularies (fetched into build/tokenizers by
# scripts/setup/install_deps.sh --test; skipped when absent), preprocess_data's
# output read by an independent reader with Megatron's dtype rule, and bad
# input of every kind refused with a message and nothing written.
. "$(dirname "$0")/lib.sh"
T=$BIN/tokenize; P=$BIN/preprocess_data; M=$BIN/merge_datasets
TOKD=$ROOT/build/tokenizers; TF=$FIX/tokenizers
ML=$TF/multilingual.jsonl
# 1,500 wikinews documents; the sanitizer tier, 300: the same code paths under ASan and UBSan
# (the libraries' ids on the other 1,200 are the plain tier's to compare)
NWN=1500; [ "${TEST_TIER:-rel}" = san ] && NWN=300
zstd -dc "$ROOT/data/corpus/wikinews.jsonl.zst" | head -$NWN > "$WORK/wn.jsonl"

# --- the real vocabularies against their own libraries ------------------------------------
while read -r name type file pattern; do
  f=$TOKD/$file
  if [ ! -e "$f" ]; then skip "ids_$name" "$f missing (scripts/setup/fetch_tokenizers.py)"; continue; fi
  if ! has_py tiktoken tokenizers sentencepiece; then skip "ids_$name" "python modules tiktoken/tokenizers/sentencepiece missing (scripts/setup/install_deps.sh --test)"; continue; fi
  extra=(); case $pattern in -) ;; legacy) extra=(--tokenizer-sentencepiece-legacy);; *) extra=(--tiktoken-pattern "$pattern");; esac
  if "$PY" "$ROOT/scripts/lib/tok_crosscheck.py" --bin "$BIN" --decode --tokenizer-type "$type" --tokenizer-model "$f" "${extra[@]}" \
      "$ML" "$WORK/wn.jsonl" > "$WORK/cc_$name.txt" 2>&1; then
    pass "ids_and_decode_equal_library_$name"
  else fail "ids_and_decode_equal_library_$name" "$(tail -4 "$WORK/cc_$name.txt")"; fi
done <<'LIST'
cl100k_base TikTokenizer cl100k_base.tiktoken -
o200k_base TikTokenizer o200k_base.tiktoken -
p50k_base TikTokenizer p50k_base.tiktoken -
llama3 TikTokenizer llama3.tiktoken -
qwen2 TikTokenizer qwen2.tiktoken -
deepseek_v3 HuggingFaceTokenizer deepseek_v3/tokenizer.json -
mistral_v1 GPTSentencePieceTokenizer mistral_v1.model -
mistral_v3 GPTSentencePieceTokenizer mistral_v3.model -
mistral_v3_sp_megatron_today SentencePieceTokenizer mistral_v3.model -
mistral_v3_sp_megatron_legacy SentencePieceTokenizer mistral_v3.model legacy
botchan_bpe_llama2 Llama2Tokenizer botchan_bpe.model -
LIST

# the Llama-3 model card's example: BOS and EOS added by the caller
if [ -e "$TOKD/llama3.tiktoken" ]; then
  got=$(printf 'This is a test sentence.' | "$T" --text --tokenizer-type TikTokenizer --tokenizer-model "$TOKD/llama3.tiktoken")
  [ "$got" = "2028 374 264 1296 11914 13" ] && pass llama3_model_card_ids || fail llama3_model_card_ids "$got"
else skip llama3_model_card_ids "no Llama-3 file"; fi

# --- preprocess_data: int32 for big vocabularies, uint16 for small, ids = the library's --------
run_pp() { # NAME TYPE MODEL EOD VOCAB
  local n=$1 ty=$2 mo=$3 eod=$4 vs=$5
  if [ ! -e "$mo" ]; then skip "preprocess_$n" "$mo missing"; return; fi
  if ! "$P" -q --input "$WORK/wn.jsonl" "$ML" --output-prefix "$WORK/pp_$n" --append-eod --workers 2 \
       --tokenizer-type "$ty" --tokenizer-model "$mo" 2> "$WORK/pp_$n.err"; then
    fail "preprocess_$n" "$(cat "$WORK/pp_$n.err")"; return; fi
  if has_py numpy tiktoken tokenizers sentencepiece; then
    check "preprocess_${n}_read_by_numpy_ids_equal_library" "$PY" "$ROOT/scripts/check/check_dataset.py" "$WORK/pp_${n}_text_document" \
      "$WORK/wn.jsonl" "$ML" --append-eod --tokenizer-type "$ty" --tokenizer-model "$mo" --eod "$eod" --vocab-size "$vs"
  else skip "preprocess_${n}_read_by_numpy_ids_equal_library" "python modules missing"; fi
}
run_pp llama3 TikTokenizer "$TOKD/llama3.tiktoken" 128001 128256
run_pp mistral_v1 GPTSentencePieceTokenizer "$TF/mistral_v1.model" 2 32000
run_pp deepseek HuggingFaceTokenizer "$TOKD/deepseek_v3/tokenizer.json" 1 129280
if [ -e "$WORK/pp_llama3_text_document.bin" ] && [ -e "$WORK/pp_mistral_v1_text_document.bin" ]; then
  mkdir -p "$WORK/mix" && cp "$WORK"/pp_llama3_text_document.* "$WORK"/pp_mistral_v1_text_document.* "$WORK/mix/"
  expect_exit merge_refuses_mixed_dtypes 1 "$M" --input "$WORK/mix" --output-prefix "$WORK/merged"
  stderr_has merge_mixed_dtypes_message "differs from the output's"
  [ ! -e "$WORK/merged.bin" ] && [ ! -e "$WORK/merged.idx" ] && pass merge_mixed_writes_nothing || fail merge_mixed_writes_nothing
fi

# NullTokenizer: ids in, ids out (Megatron: EOD = vocab size)
printf '{"text": "1 2 3"}\n{"text": "41 0"}\n' > "$WORK/null.jsonl"
"$P" -q --input "$WORK/null.jsonl" --output-prefix "$WORK/null" --append-eod --tokenizer-type NullTokenizer --vocab-size 50
got=$("$BIN/inspect_dataset" -d 0 -d 1 --ids "$WORK/null_text_document" 2>/dev/null | tr '\n' ' ')
[ "$got" = "1 2 3 50 41 0 50 " ] && pass null_tokenizer_ids || fail null_tokenizer_ids "$got"

# --- bad input: refused with a message naming the file and the entry; nothing written -------------
bad() { # NAME WANT TYPE MODEL [INPUT]
  local n=$1 want=$2 ty=$3 mo=$4 in=${5:-$ML}
  rm -rf "$WORK/out_$n"; mkdir -p "$WORK/out_$n"
  "$P" --input "$in" --output-prefix "$WORK/out_$n/x" --tokenizer-type "$ty" --tokenizer-model "$mo" --vocab-size 50 \
    > /dev/null 2> "$WORK/bad_$n.err"
  local rc=$?
  if [ $rc -ne 0 ] && grep -qF -- "$want" "$WORK/bad_$n.err" && [ -z "$(ls -A "$WORK/out_$n")" ]; then pass "refuses_$n"
  else fail "refuses_$n" "exit $rc, stderr: $(head -c 300 "$WORK/bad_$n.err"), left: $(ls "$WORK/out_$n")"; fi
}
head -c 3000 "$TF/cl100k_first600.tiktoken" > "$WORK/trunc.tiktoken"
bad truncated_tiktoken "trunc.tiktoken:" TikTokenizer "$WORK/trunc.tiktoken"
sed '5s/ 4$/ 4x/' "$TF/cl100k_first600.tiktoken" > "$WORK/corrupt.tiktoken"
bad corrupt_tiktoken "corrupt.tiktoken:5:" TikTokenizer "$WORK/corrupt.tiktoken"
printf 'IQ== 2147483648\n' > "$WORK/big.tiktoken"
bad vocabulary_over_2_31 "2^31" TikTokenizer "$WORK/big.tiktoken"
head -c 4000 "$TF/deepseek_small.tokenizer.json" > "$WORK/trunc.json"
bad truncated_tokenizer_json "trunc.json: not a tokenizer.json" HuggingFaceTokenizer "$WORK/trunc.json"
sed 's/"Regex": *"\\\\p{N}{1,3}"/"Regex":"(?<=x+)y"/; s/"Regex":"\\\\p{N}{1,3}"/"Regex":"(?<=x+)y"/' "$TF/deepseek_small.tokenizer.json" > "$WORK/badre.json"
bad pattern_pcre2_cannot_compile "PCRE2 cannot compile" HuggingFaceTokenizer "$WORK/badre.json"
head -c 5000 "$TF/spm_bpe_bytes.model" > "$WORK/trunc.model"
bad truncated_sentencepiece "trunc.model: byte" GPTSentencePieceTokenizer "$WORK/trunc.model"
bad unigram_sentencepiece "Unigram model: only the BPE type" GPTSentencePieceTokenizer "$TF/spm_unigram.model"
printf '{"text": "1 2 50"}\n' > "$WORK/nullbad.jsonl"
bad null_id_out_of_range "nullbad.jsonl:1: token 3: id 50 is out of range" NullTokenizer "" "$WORK/nullbad.jsonl"
expect_exit tokenizer_type_unknown 2 "$P" --input "$ML" --output-prefix "$WORK/u" --tokenizer-type BertWordPieceCase
stderr_has tokenizer_type_unknown_message "not one of GPT2BPETokenizer"
expect_exit tokenizer_model_missing 2 "$P" --input "$ML" --output-prefix "$WORK/u" --tokenizer-type TikTokenizer
stderr_has tokenizer_model_missing_message "needs --tokenizer-model"

# --- a model on the Llama-3 vocabulary: trained (loss falls), exported, read back -------------------
if [ -e "$WORK/pp_llama3_text_document.bin" ]; then
  TK=(--tokenizer-type TikTokenizer --tokenizer-model "$TOKD/llama3.tiktoken")
  if OMP_NUM_THREADS=2 "$BIN/train" -q --num-layers 2 --hidden-size 64 --num-attention-heads 2 --seq-length 32 \
      --max-position-embeddings 64 --micro-batch-size 8 --global-batch-size 8 --lr 3e-3 --train-iters 24 --log-interval 4 \
      --eval-iters 0 --split 100,0,0 --data-path "$WORK/pp_llama3_text_document" "${TK[@]}" --save "$WORK/l3ck" \
      --data-cache-path "$WORK" --log-json "$WORK/l3.jsonl" > "$WORK/l3.out" 2>&1; then
    first=$(grep -o '"lm_loss":[0-9.e+-]*' "$WORK/l3.jsonl" | head -1 | cut -d: -f2)
    last=$(grep -o '"lm_loss":[0-9.e+-]*' "$WORK/l3.jsonl" | tail -1 | cut -d: -f2)
    grep -q 'vocab 128256 (padded 128256)' "$WORK/l3.out" && pass train_llama3_vocab_size || fail train_llama3_vocab_size "$(grep '> model' "$WORK/l3.out")"
    awk -v a="$first" -v b="$last" 'BEGIN { exit !(b < a - 1) }' && pass train_llama3_loss_falls || fail train_llama3_loss_falls "$first -> $last"
    if "$BIN/convert_checkpoint" --load "$WORK/l3ck" --to hf "$WORK/l3hf" "${TK[@]}" > /dev/null 2> "$WORK/conv.err"; then
      pass export_llama3_vocab
      # The export read back by independent code: the tokenizer.json by Hugging Face tokenizers
      # (what transformers' fast tokenizers run), the weights by a numpy GPT-2 written from the
      # format (scripts/check/check_hf_export.py does the same with transformers itself: make bench's venv).
      P="The history of the world, in 2026: 你好 🎉"
      ids=$(printf '%s' "$P" | "$T" --text "${TK[@]}")
      hfids=$("$PY" -c "import sys; from tokenizers import Tokenizer; print(' '.join(map(str, Tokenizer.from_file(sys.argv[1]).encode(sys.argv[2]).ids)))" \
        "$WORK/l3hf/tokenizer.json" "$P")
      [ -n "$ids" ] && [ "$ids" = "$hfids" ] && pass exported_tokenizer_json_ids_equal_ours || fail exported_tokenizer_json_ids_equal_ours "$hfids vs $ids"
      "$BIN/generate" --load "$WORK/l3ck" "${TK[@]}" --prompt "$P" --logits-out "$WORK/l3.f32" > /dev/null 2>&1
      if r=$("$PY" "$ROOT/scripts/lib/hf_gpt2_numpy.py" logits "$WORK/l3hf" "$(echo $ids | tr ' ' ,)" "$WORK/l3.f32" --tol 1e-5); then
        pass "exported_llama3_vocab_logits ($r)"; else fail exported_llama3_vocab_logits "$r"; fi
      expect_exit export_wrong_tokenizer 2 "$BIN/convert_checkpoint" --load "$WORK/l3ck" --to hf "$WORK/l3hf2"
      stderr_has export_wrong_tokenizer_message "the checkpoint has a vocabulary of 128256, the tokenizer 50257"
    else fail export_llama3_vocab "$(cat "$WORK/conv.err")"; fi
    out=$("$BIN/generate" --load "$WORK/l3ck" "${TK[@]}" --prompt "Hello" -n 5 --seed 3 2>&1) && [ -n "$out" ] &&
      pass generate_llama3_vocab || fail generate_llama3_vocab "$out"
  else fail train_llama3_vocab "$(tail -3 "$WORK/l3.out")"; fi
else skip train_llama3_vocab "no Llama-3 dataset (the vocabulary was not fetched)"; fi

# --- a SentencePiece model's export: tokenizer.model and a tokenizer.json that tokenizers reads -----
if [ -e "$WORK/pp_mistral_v1_text_document.bin" ]; then
  TM=(--tokenizer-type GPTSentencePieceTokenizer --tokenizer-model "$TF/mistral_v1.model")
  if OMP_NUM_THREADS=1 "$BIN/train" -q --num-layers 1 --hidden-size 32 --num-attention-heads 2 --seq-length 32 \
      --micro-batch-size 2 --global-batch-size 2 --train-iters 2 --eval-iters 0 --split 100,0,0 \
      --data-path "$WORK/pp_mistral_v1_text_document" "${TM[@]}" --save "$WORK/mick" --data-cache-path "$WORK" > "$WORK/mi.out" 2>&1 &&
     "$BIN/convert_checkpoint" --load "$WORK/mick" --to hf "$WORK/mihf" "${TM[@]}" > /dev/null 2>&1; then
    [ -e "$WORK/mihf/tokenizer.model" ] && [ -e "$WORK/mihf/tokenizer.json" ] && pass export_sentencepiece_files || fail export_sentencepiece_files "$(ls "$WORK/mihf")"
    P="Hello world, this is Mistral's tokenizer: 你好 🎉 1234"
    ids=$(printf '%s' "$P" | "$T" --text "${TM[@]}")
    hfids=$("$PY" -c "import sys; from tokenizers import Tokenizer; print(' '.join(map(str, Tokenizer.from_file(sys.argv[1]).encode(sys.argv[2]).ids)))" \
      "$WORK/mihf/tokenizer.json" "$P")
    [ -n "$ids" ] && [ "$ids" = "$hfids" ] && pass exported_sentencepiece_json_ids_equal_ours || fail exported_sentencepiece_json_ids_equal_ours "$hfids vs $ids"
  else fail export_sentencepiece "$(tail -3 "$WORK/mi.out")"; fi
fi

#!/usr/bin/env bash
# End-to-end tests of the tokenizer tools on the real corpora and bad input:
# tokenize, preprocess_data, merge_datasets, inspect_dataset, train_bpe.
. "$(dirname "$0")/lib.sh"
T=$BIN/tokenize; P=$BIN/preprocess_data; M=$BIN/merge_datasets; I=$BIN/inspect_dataset; TB=$BIN/train_bpe
C=$ROOT/data/corpus
case "$BIN" in *san*) SAN=1 ;; *) SAN=0 ;; esac

# --- tokenize: spec vectors, decode, lone surrogates in JSON --------------------------
got=$(printf ' 日本語とEnglish 12345!\n' | "$T" --text)
[ "$got" = "10545 245 98 17312 105 45739 252 30201 15823 17031 2231 0 198" ] && pass tokenize_vector || fail tokenize_vector "$got"
got=$(printf '0000000000' | head -c 9 | "$T" --text)
[ "$got" = "10535 830" ] && pass tokenize_merge_order || fail tokenize_merge_order "$got"
got=$(echo "31373 995 50256" | "$T" --decode)
[ "$got" = "hello world<|endoftext|>" ] && pass tokenize_decode || fail tokenize_decode "$got"
"$T" -q "$FIX/bpe/json_cases.jsonl" > "$WORK/jc.ids"
check lone_surrogates_like_tiktoken cmp "$WORK/jc.ids" "$FIX/bpe/json_cases.ids"
printf 'a\xffb \xe2\x82 c' | "$T" --text > "$WORK/inv.ids"  # tiktoken on bytes.decode("utf-8", "replace")
[ "$(cat "$WORK/inv.ids")" = "64 4210 65 20543 269" ] && pass invalid_utf8_is_fffd || fail invalid_utf8_is_fffd "$(cat "$WORK/inv.ids")"
expect_exit decode_bad_id 1 "$T" --decode <<< "1 2 99999"
stderr_has decode_bad_id_message "<stdin>:1: token id 99999 is not in the vocabulary"

# --- preprocess_data on both corpora: byte-identical to tiktoken + numpy golden ----------
"$P" -q --input "$C/enwiki_sample.jsonl.zst" "$C/wikinews.jsonl.zst" --output-prefix "$WORK/corpus" --append-eod \
  --workers 2 --tokenizer-type GPT2BPETokenizer
check corpus_golden_sha256 bash -c "cd '$WORK' && sha256sum -c --quiet '$FIX/bpe/corpus.sha256'"
"$P" -q -i "$C/enwiki_sample.jsonl.zst" -i "$C/wikinews.jsonl.zst" -o "$WORK/one" --append-eod --workers 1
check same_output_1_and_2_workers cmp "$WORK/one_text_document.bin" "$WORK/corpus_text_document.bin"
check same_index_1_and_2_workers cmp "$WORK/one_text_document.idx" "$WORK/corpus_text_document.idx"
no_tmp_left "$WORK" preprocess_no_tmp_left
"$I" "$WORK/corpus_text_document" > "$WORK/inspect.txt"
grep -q "documents   135748 (80054 empty)" "$WORK/inspect.txt" && pass inspect_counts || fail inspect_counts "$(cat "$WORK/inspect.txt")"
if [ "${TEST_TIER:-rel}" = san ]; then
  : # the sanitizer tier: the bytes are the golden ones (corpus_golden_sha256), which the plain tier decodes with numpy
elif has_py numpy; then
  check numpy_reader_decodes_input "$PY" "$ROOT/scripts/check/check_dataset.py" "$WORK/corpus_text_document" \
    "$C/enwiki_sample.jsonl.zst" "$C/wikinews.jsonl.zst" --append-eod
else skip numpy_reader_decodes_input "python module numpy not installed (scripts/setup/install_deps.sh --test)"; fi

# Decoding a document gives its text back.
zstd -dc "$C/wikinews.jsonl.zst" > "$WORK/wn.jsonl"
"$I" -d 2 "$WORK/corpus_text_document" 2>/dev/null | head -c 60 > "$WORK/d2.txt"
[ -s "$WORK/d2.txt" ] && pass inspect_decode || fail inspect_decode

# --- merge_datasets == one run over the concatenation --------------------------------
mkdir -p "$WORK/parts"
split -n l/3 -d "$WORK/wn.jsonl" "$WORK/parts/wn" && for f in "$WORK"/parts/wn0?; do mv "$f" "$f.jsonl"; done
for f in "$WORK"/parts/wn0?.jsonl; do "$P" -q -i "$f" -o "${f%.jsonl}" --append-eod; rm "$f"; done
"$P" -q -i "$WORK/wn.jsonl" -o "$WORK/whole" --append-eod
"$M" -q --input "$WORK/parts" --output-prefix "$WORK/merged"
check merge_equals_whole_bin cmp "$WORK/merged.bin" "$WORK/whole_text_document.bin"
check merge_equals_whole_idx cmp "$WORK/merged.idx" "$WORK/whole_text_document.idx"
rm "$WORK/parts/wn00_text_document.bin"
expect_exit merge_missing_pair 3 "$M" --input "$WORK/parts" --output-prefix "$WORK/m2"
stderr_has merge_missing_pair_message "wn00_text_document.idx has no matching wn00_text_document.bin"
mkdir -p "$WORK/empty"
expect_exit merge_empty_dir 2 "$M" --input "$WORK/empty" --output-prefix "$WORK/m2"

# --- Megatron semantics: partitions, several keys, lists of sentences, empty docs --------
awk 'NR%3==1' "$WORK/wn.jsonl" > "$WORK/rr.jsonl"; awk 'NR%3==2' "$WORK/wn.jsonl" >> "$WORK/rr.jsonl"
awk 'NR%3==0' "$WORK/wn.jsonl" >> "$WORK/rr.jsonl"
"$P" -q -i "$WORK/wn.jsonl" -o "$WORK/part3" --append-eod --partitions 3 --workers 2
"$P" -q -i "$WORK/rr.jsonl" -o "$WORK/rr" --append-eod
check partitions_round_robin_like_megatron cmp "$WORK/part3_text_document.bin" "$WORK/rr_text_document.bin"
check partitions_index cmp "$WORK/part3_text_document.idx" "$WORK/rr_text_document.idx"
check partitions_parts_removed bash -c "! ls '$WORK' | grep -q partition"
"$P" -q -i "$WORK/wn.jsonl" -o "$WORK/keys" --json-keys text title
check two_keys_two_datasets test -s "$WORK/keys_title_document.idx" -a -s "$WORK/keys_text_document.idx"
"$I" "$WORK/keys_title_document" | grep -q "documents   39409 (0 empty)" && pass title_dataset_counts || fail title_dataset_counts
printf '%s\n' '{"text": ["hello world", "", " again"]}' '{"text": ""}' '{"text": "x"}' > "$WORK/sent.jsonl"
"$P" -q -i "$WORK/sent.jsonl" -o "$WORK/sent" --append-eod
"$I" "$WORK/sent_text_document" | grep -q "documents   3 (1 empty)" && pass empty_doc_keeps_boundary || fail empty_doc_keeps_boundary
"$I" "$WORK/sent_text_document" | grep -q "sequences   3" && pass list_gives_sequences || fail list_gives_sequences
got=$("$I" --ids -d 0 "$WORK/sent_text_document" 2>/dev/null)
[ "$got" = "31373 995 757 50256" ] && pass eod_ends_last_sequence || fail eod_ends_last_sequence "$got"

# --- bad input: counted and named, --strict stops, nothing half-written ------------------
{ head -3 "$WORK/wn.jsonl"; echo 'not json'; echo '{"title": "no text"}'; echo '{"text": 42}'; echo; echo '{"text": "ok"}'; } > "$WORK/bad.jsonl"
expect_exit bad_records_dropped 0 "$P" -i "$WORK/bad.jsonl" -o "$WORK/bad"
stderr_has bad_json_named "bad.jsonl:4: invalid JSON"
stderr_has missing_key_named "bad.jsonl:5: key \"text\" is missing"
stderr_has not_string_named "bad.jsonl:6: key \"text\" is not a string"
stderr_has bad_summary "7 documents in: 4 kept, 3 dropped (from 1 input; 1 blank lines skipped)"
for r in bad-json missing-key not-string; do
  grep -qE "^  dropped $r +1 documents$" "$WORK/.err" && pass "bad_summary_$r" || fail "bad_summary_$r" "$(cat "$WORK/.err")"
done
expect_exit strict_stops 1 "$P" -i "$WORK/bad.jsonl" -o "$WORK/strict" --strict
stderr_has strict_message "bad.jsonl:4: invalid JSON"
check strict_no_output test ! -e "$WORK/strict_text_document.bin" -a ! -e "$WORK/strict_text_document.idx"
head -c 3000000 "$C/wikinews.jsonl.zst" > "$WORK/cut.jsonl.zst"
expect_exit truncated_zst 1 "$P" -i "$WORK/cut.jsonl.zst" -o "$WORK/cut"
stderr_has truncated_zst_message "cut.jsonl.zst: truncated zstd stream"
check truncated_no_output test ! -e "$WORK/cut_text_document.bin"
no_tmp_left "$WORK" truncated_no_tmp
expect_exit unwritable_dir 3 "$P" -i "$WORK/sent.jsonl" -o /nonexistent/dir/x
stderr_has unwritable_message "/nonexistent/dir/x_text_document.bin"
expect_exit missing_input 3 "$P" -i "$WORK/nope.jsonl" -o "$WORK/nope"
expect_exit no_output_prefix 2 "$P" -i "$WORK/sent.jsonl"
expect_exit bad_tokenizer_type 2 "$P" -i "$WORK/sent.jsonl" -o "$WORK/x" --tokenizer-type SentencePieceTokenizer
expect_exit full_disk 3 env IO_FAULT_ENOSPC_AFTER=100000 "$P" -i "$WORK/wn.jsonl" -o "$WORK/full"
check full_disk_no_output test ! -e "$WORK/full_text_document.bin"
no_tmp_left "$WORK" full_disk_no_tmp
# A 200 MB document (50 MB under the sanitizers): one sequence, near-linear time.
size=$([ $SAN = 1 ] && echo 50000000 || echo 200000000)
{ printf '{"text": "'; head -c "$size" /dev/zero | tr '\0' 'a' | fold -w 97 | tr '\n' ' '; printf '"}\n{"text": "tail"}\n'; } > "$WORK/huge.jsonl"
expect_exit huge_document 0 "$P" -i "$WORK/huge.jsonl" -o "$WORK/huge" --workers 2
"$I" "$WORK/huge_text_document" | grep -q "documents   2 (0 empty)" && pass huge_document_counts || fail huge_document_counts
rm -f "$WORK"/huge*

# --- inspect_dataset on corruption --------------------------------------------------------
cp "$WORK/sent_text_document.idx" "$WORK/c.idx"; cp "$WORK/sent_text_document.bin" "$WORK/c.bin"
printf 'XX' | dd of="$WORK/c.idx" bs=1 seek=0 conv=notrunc 2>/dev/null
expect_exit inspect_bad_magic 1 "$I" "$WORK/c"
stderr_has inspect_bad_magic_message "c.idx: bad magic"
cp "$WORK/sent_text_document.idx" "$WORK/c.idx"; head -c 5 "$WORK/sent_text_document.bin" > "$WORK/c.bin"
expect_exit inspect_short_bin 1 "$I" "$WORK/c"
stderr_has inspect_short_bin_message "c.bin: 5 bytes, but the index describes"
expect_exit inspect_missing 3 "$I" "$WORK/none"

# --- train_bpe: deterministic, loadable, round trip ---------------------------------------
"$TB" -q -i "$WORK/wn.jsonl" --vocab-size 2000 -o "$WORK/v1" -j 2
"$TB" -q -i "$C/wikinews.jsonl.zst" --vocab-size 2000 -o "$WORK/v2" -j 1
check train_deterministic cmp "$WORK/v1/vocab.bpe" "$WORK/v2/vocab.bpe"
check train_deterministic_encoder cmp "$WORK/v1/encoder.json" "$WORK/v2/encoder.json"
[ "$(wc -l < "$WORK/v1/vocab.bpe")" = 1744 ] && pass train_merge_count || fail train_merge_count "$(wc -l < "$WORK/v1/vocab.bpe")"
head -200 "$WORK/wn.jsonl" > "$WORK/few.jsonl"
"$T" -q --vocab-file "$WORK/v1/encoder.json" --merge-file "$WORK/v1/vocab.bpe" "$WORK/few.jsonl" > "$WORK/few.ids"
"$T" --vocab-file "$WORK/v1/encoder.json" --merge-file "$WORK/v1/vocab.bpe" --decode "$WORK/few.ids" > "$WORK/few.txt"
"$PY" -c 'import json,sys; [print(json.loads(l)["text"]) for l in open(sys.argv[1])]' "$WORK/few.jsonl" > "$WORK/few.want" 2>/dev/null &&
  check trained_vocab_round_trip cmp "$WORK/few.txt" "$WORK/few.want"
if has_py tokenizers; then
  check trained_vocab_loads_in_hf_tokenizers "$PY" "$ROOT/scripts/check/check_trained_vocab.py" "$WORK/v1" "$WORK/wn.jsonl" --limit 2000
else skip trained_vocab_loads_in_hf_tokenizers "python module tokenizers not installed (scripts/setup/install_deps.sh --test)"; fi

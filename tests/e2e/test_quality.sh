#!/usr/bin/env bash
# End-to-end tests of cleanup's quality filters (gopher_repetition, gopher_quality,
# c4_quality, fineweb_quality): datatrove and spaCy themselves, pinned in the test
# venv, run beside ours on real corpora and the CC fixtures (every decision, every
# reason, c4_quality's text byte for byte; spaCy's tokens one by one); accounting,
# --removed, threads; bad input: one 16 MB line, only punctuation, only newlines,
# mixed scripts, invalid UTF-8, flags out of range.
. "$(dirname "$0")/lib.sh"
CL=$BIN/cleanup
BUILD=${BUILD:-build/rel}
TQ=$ROOT/$BUILD/tests/test_quality
CORPUS=$ROOT/data/corpus
LIMIT=1000 SYN=1000 RND=20000 BIG_MB=16
[ "${TEST_TIER:-rel}" = san ] && LIMIT=200 SYN=400 RND=5000 BIG_MB=4

if has_py datatrove spacy; then
  # spaCy's tokens and sentence counts, text for text
  if "$PY" "$ROOT/scripts/check/spacy_crosscheck.py" "$TQ --tokens" "$CORPUS/enwiki_sample.jsonl.zst" \
       "$CORPUS/wikinews.jsonl.zst" "$FIX"/cc/*.jsonl "$FIX"/cc/*.gz --limit $LIMIT --random $RND >"$WORK/sp.log" 2>&1; then
    pass spacy_tokens_equal_spacy; else fail spacy_tokens_equal_spacy "$(tail -5 "$WORK/sp.log")"; fi
  # datatrove's decisions, filter by filter and FineWeb's chain
  if "$PY" "$ROOT/scripts/check/quality_crosscheck.py" "$CL" "$CORPUS/enwiki_sample.jsonl.zst" "$CORPUS/wikinews.jsonl.zst" \
       "$FIX"/cc/*.jsonl "$FIX"/cc/*.gz --limit $LIMIT --synthetic $SYN --workdir "$WORK" >"$WORK/q.log" 2>&1; then
    pass quality_filters_equal_datatrove; else fail quality_filters_equal_datatrove "$(tail -8 "$WORK/q.log")"; fi
  sed 's/^/    /' "$WORK/q.log" | cut -c1-110
else
  skip spacy_tokens_equal_spacy "python modules datatrove/spacy missing (scripts/setup/install_deps.sh --test)"
  skip quality_filters_equal_datatrove "python modules datatrove/spacy missing (scripts/setup/install_deps.sh --test)"
fi

ALL=gopher_repetition,gopher_quality,c4_quality,fineweb_quality
D=$FIX/quality/docs.jsonl
# accounting: documents in = kept + dropped by reason; the removed lines name filter and reason
"$CL" -j 2 --tasks $ALL "$D" "$WORK/k.jsonl" --removed "$WORK/r.jsonl" 2>"$WORK/sum"
n_in=$(wc -l < "$D"); n_k=$(wc -l < "$WORK/k.jsonl"); n_r=$(wc -l < "$WORK/r.jsonl")
[ $((n_k + n_r)) = "$n_in" ] && grep -q "$n_in documents in: $n_k kept, $n_r dropped" "$WORK/sum" &&
  pass accounting_in_equals_kept_plus_dropped || fail accounting_in_equals_kept_plus_dropped "$n_in != $n_k + $n_r: $(cat "$WORK/sum")"
by_reason=$(grep -E '^  dropped [a-z_0-9]+/' "$WORK/sum" | awk '{s += $3} END {print s + 0}')
[ "$by_reason" = "$n_r" ] && pass summary_reasons_add_up || fail summary_reasons_add_up "$by_reason != $n_r"
"$PY" - "$WORK/r.jsonl" <<'PYEOF' && pass removed_names_filter_and_reason || fail removed_names_filter_and_reason
import json, sys
ok = all(d.get("cleanup_filter") in ("gopher_repetition", "gopher_quality", "c4_quality", "fineweb_quality")
         and d.get("cleanup_reason") for d in map(json.loads, open(sys.argv[1])))
sys.exit(0 if ok else 1)
PYEOF
grep -q "gopher_repetition/dup_line_frac" "$WORK/sum" && grep -q "kept documents edited by c4_quality" "$WORK/sum" &&
  pass summary_names_datatrove_reasons || fail summary_names_datatrove_reasons "$(cat "$WORK/sum")"
"$CL" -q -j 1 --tasks $ALL "$D" "$WORK/k1.jsonl"
check same_output_any_threads cmp "$WORK/k.jsonl" "$WORK/k1.jsonl"
# one filter alone in a pipeline, and the OpenWebText steps then the filters
zstd -q -c "$D" | "$CL" -q --tasks gopher_quality --min-doc-words 80 > "$WORK/g.jsonl" && [ -s "$WORK/g.jsonl" ] &&
  pass one_filter_in_a_pipeline || fail one_filter_in_a_pipeline
"$CL" --no-length-filter --filters gopher_quality,fineweb_quality "$D" "$WORK/f.jsonl" 2>"$WORK/fsum" &&
  grep -q "dropped non_english" "$WORK/fsum" && grep -q "dropped fineweb_quality/" "$WORK/fsum" &&
  pass owt_steps_then_filters || fail owt_steps_then_filters "$(cat "$WORK/fsum")"

# bad input: a defined decision for each, nothing lost (invalid UTF-8 becomes U+FFFD, as elsewhere in cleanup)
"$PY" - "$WORK/bad.jsonl" "$BIG_MB" <<'PYEOF'
import json, sys
docs = ["!" * (1 << 20), "a" * (int(sys.argv[2]) << 20), "\n" * (1 << 20), ("word " * 7 + "end. ") * 400000,
        "?!.,;:" * 1000, "\n\n\n", "", " ", "English text. Русский текст. 中文文本。 العربية. " * 50,
        "http://" + "a." * 100000 + "com/x", "(" * 5000 + "x" + ")" * 5000]
with open(sys.argv[1], "w") as f:
    for d in docs:
        f.write(json.dumps({"text": d}) + "\n")
PYEOF
printf '{"text": "raw bytes \xff\xfe and the of to. %s"}\n' "$(printf 'Sentence here with the words. %.0s' $(seq 1 30))" >> "$WORK/bad.jsonl"
n_bad=$(wc -l < "$WORK/bad.jsonl")
if timeout 300 "$CL" -j 2 --tasks $ALL "$WORK/bad.jsonl" "$WORK/bk.jsonl" --removed "$WORK/br.jsonl" 2>"$WORK/bsum"; then
  [ $(( $(wc -l < "$WORK/bk.jsonl") + $(wc -l < "$WORK/br.jsonl") )) = "$n_bad" ] && ! grep -q quality_error "$WORK/bsum" &&
    pass bad_input_defined_decisions || fail bad_input_defined_decisions "$(cat "$WORK/bsum")"
else fail bad_input_defined_decisions "exit $?: $(tail -3 "$WORK/bsum")"; fi
# flags out of range: a clear message naming the flag, exit 2
expect_exit flag_fraction_negative 2 "$CL" --tasks gopher_repetition --dup-line-frac -0.5 "$D"
stderr_has flag_fraction_negative_named "--dup-line-frac"
expect_exit flag_ngrams_malformed 2 "$CL" --tasks gopher_repetition --top-n-grams 2:0.2,x "$D"
stderr_has flag_ngrams_malformed_named "--top-n-grams"
expect_exit flag_bool_malformed 2 "$CL" --tasks c4_quality --c4-filter-policy maybe "$D"
stderr_has flag_bool_malformed_named "--c4-filter-policy"
expect_exit flag_c4_below_minus_one 2 "$CL" --tasks c4_quality --c4-min-num-sentences -2 "$D"
expect_exit unknown_filter 2 "$CL" --filters gopher_qualty "$D"
stderr_has unknown_filter_named "gopher_qualty"
expect_exit filter_listed_twice 2 "$CL" --tasks c4_quality,c4_quality "$D"
no_tmp_left "$WORK" no_temporary_files

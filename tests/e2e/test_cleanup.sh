#!/usr/bin/env bash
# End-to-end tests of cleanup against Megatron's cleanup semantics computed in
# Python with ftfy, langdetect and tiktoken (tests/golden/make_cleanup_golden.py),
# plus bad input: invalid UTF-8, NUL, lone surrogates, bad JSON, a 100 MB
# document, unknown options.
. "$(dirname "$0")/lib.sh"
CL=$BIN/cleanup
F=$FIX/cleanup

# compare KEPT REMOVED EXPECTED: kept texts equal, every removal has the expected reason,
# documents in = kept + removed, other keys unchanged byte for byte
compare() {
  "$PY" - "$@" <<'EOF'
import json, sys
kept_f, removed_f, exp_f, docs_f = sys.argv[1:5]
exp = {e["i"]: e for e in map(json.loads, open(exp_f, encoding="utf-8"))}
docs = {}
for line in open(docs_f, encoding="utf-8"):
    try: docs[json.loads(line)["i"]] = line.rstrip("\n")
    except Exception: pass
errors = []
kept = [json.loads(l) for l in open(kept_f, encoding="utf-8")]
removed = [json.loads(l) for l in open(removed_f, encoding="utf-8")]
seen = set()
for d in kept:
    e = exp[d["i"]]; seen.add(d["i"])
    if e["reason"] != "kept": errors.append("doc %d kept, expected %s" % (d["i"], e["reason"]))
    elif d["text"] != e["text"]: errors.append("doc %d: text differs from ftfy" % d["i"])
    orig = json.loads(docs[d["i"]])
    for k in orig:
        if k != "text" and orig[k] != d[k]: errors.append("doc %d: key %s changed" % (d["i"], k))
for d in removed:
    if d["cleanup_reason"] in ("bad_json", "no_text"):
        i = json.loads(d["raw"])["i"] if d["cleanup_reason"] == "no_text" else int(d["raw"].split(":")[1].split(",")[0])
    else:
        i = d["i"]
    seen.add(i)
    if exp[i]["reason"] != d["cleanup_reason"]:
        errors.append("doc %d removed as %s, expected %s" % (i, d["cleanup_reason"], exp[i]["reason"]))
if len(kept) + len(removed) != len(exp) or seen != set(exp):
    errors.append("documents in %d != kept %d + removed %d" % (len(exp), len(kept), len(removed)))
for e in errors[:10]: print("   ", e)
sys.exit(1 if errors else 0)
EOF
}

"$CL" -j 2 "$F/docs.jsonl" "$WORK/kept.jsonl" --removed "$WORK/removed.jsonl" 2>"$WORK/summary"
check cleanup_matches_megatron_semantics compare "$WORK/kept.jsonl" "$WORK/removed.jsonl" "$F/expected.jsonl" "$F/docs.jsonl"
grep -q "73 documents in: 46 kept, 27 dropped" "$WORK/summary" && pass summary_counts || fail summary_counts "$(cat "$WORK/summary")"
grep -q "dropped non_english .* 12 documents" "$WORK/summary" && pass summary_non_english || fail summary_non_english "$(cat "$WORK/summary")"
grep -q "docs.jsonl:71:.*not valid JSON" "$WORK/summary" && pass bad_json_named_by_line || fail bad_json_named_by_line "$(cat "$WORK/summary")"
# the kept lines keep every other key byte for byte (1.5e+300 is not rewritten as cJSON would print it)
grep -q '"n": 1.5e+300, "nested": {"a": \[1, 2, {"b": "c"}\]}' "$WORK/kept.jsonl" && pass other_keys_verbatim || fail other_keys_verbatim
# threads do not change the output; stdin/stdout and .zst work
"$CL" -q -j 1 < "$F/docs.jsonl" > "$WORK/kept1.jsonl"
check same_output_any_threads cmp "$WORK/kept.jsonl" "$WORK/kept1.jsonl"
zstd -q -c "$F/docs.jsonl" > "$WORK/docs.jsonl.zst"
"$CL" -q "$WORK/docs.jsonl.zst" -o "$WORK/kept.jsonl.zst"
check zst_in_and_out cmp "$WORK/kept.jsonl" <(zstd -dc "$WORK/kept.jsonl.zst")
no_tmp_left "$WORK" no_temporary_files

# --tasks (cleanup_fix_dataset)
"$CL" -q --tasks remove_512,remove_256_javascript,ftfy_fix_text "$F/tasks_docs.jsonl" "$WORK/tk.jsonl" --removed "$WORK/tr.jsonl"
check tasks_match_megatron "$PY" -c '
import json, sys
exp = {e["i"]: e for e in map(json.loads, open(sys.argv[1]))}
kept = [json.loads(l) for l in open(sys.argv[2])]
rem = [json.loads(l) for l in open(sys.argv[3])]
ok = len(kept) + len(rem) == len(exp)
for d in kept: ok &= exp[d["i"]]["reason"] == "kept" and exp[d["i"]]["text"] == d["text"]
for d in rem: ok &= exp[d["i"]]["reason"] == d["cleanup_reason"] and exp[d["i"]]["text"] == d["text"]
sys.exit(0 if ok else 1)' "$F/tasks_expected.jsonl" "$WORK/tk.jsonl" "$WORK/tr.jsonl"
"$CL" -q --tasks remove_256_javascript,general_cleaning "$F/tasks_docs.jsonl" "$WORK/tk2.jsonl" --removed "$WORK/tr2.jsonl"
check task_javascript "$PY" -c '
import json, sys
rem = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if [d["cleanup_reason"] for d in rem] == ["remove_256_javascript"] and "JavaScript" in rem[0]["text"] else 1)' "$WORK/tr2.jsonl"
check task_general_cleaning "$PY" -c '
import json, re, sys
src = {d["i"]: d["text"] for d in map(json.loads, open(sys.argv[1]))}
ok = all(re.sub(r"  +|\b\n+ |\b\n+", " ", src[d["i"]]) == d["text"] for d in map(json.loads, open(sys.argv[2])))
sys.exit(0 if ok else 1)' "$F/tasks_docs.jsonl" "$WORK/tk2.jsonl"

# bad input: invalid UTF-8 and NUL bytes in raw text, lone surrogate escapes
# (a raw tab inside a string is not JSON: Python's json refuses it, and so do we: bad_json)
printf '{"text": "caf\xc3\xa9 \xff\xfe bad bytes and an escaped tab\\t"}\n{"text": "nul \\u0000 in \\ud800 text \\udc00"}\n\n{"text": "a raw tab\t"}\n' > "$WORK/bad.jsonl"
"$CL" -q --fix-only "$WORK/bad.jsonl" "$WORK/bad.out" --removed "$WORK/bad.removed"
check bad_bytes_become_fffd "$PY" -c '
import json, sys
d = [json.loads(l)["text"] for l in open(sys.argv[1], encoding="utf-8")]
r = [json.loads(l)["cleanup_reason"] for l in open(sys.argv[2], encoding="utf-8")]
sys.exit(0 if d == ["café \ufffd\ufffd bad bytes and an escaped tab\t", "nul  in \ufffd text \ufffd"] and r == ["bad_json"] else 1)' "$WORK/bad.out" "$WORK/bad.removed"
expect_exit unknown_task 2 "$CL" --tasks remove_1024 "$F/docs.jsonl"
stderr_has unknown_task_named 'unknown task "remove_1024"'
expect_exit unknown_lang 2 "$CL" --lang xx "$F/docs.jsonl"
expect_exit missing_input 3 "$CL" "$WORK/nope.jsonl" "$WORK/out.jsonl"
stderr_has missing_input_named "nope.jsonl"
[ ! -e "$WORK/out.jsonl" ] && pass no_output_on_error || fail no_output_on_error
# a truncated .zst is an error, and leaves no output that looks complete
head -c 2000 "$WORK/docs.jsonl.zst" > "$WORK/trunc.jsonl.zst"
expect_exit truncated_zst 1 "$CL" -q "$WORK/trunc.jsonl.zst" "$WORK/t.jsonl"
[ ! -e "$WORK/t.jsonl" ] && pass truncated_leaves_no_output || fail truncated_leaves_no_output

# a 100 MB document (one line, mojibake every 1000 characters) in bounded time
"$PY" -c '
import json, sys
unit = ("word " * 199) + "caf\u00c3\u00a9 "
sys.stdout.write(json.dumps({"id": 1, "text": unit * (100_000_000 // len(unit))}) + "\n")' > "$WORK/big.jsonl"
"$CL" -q --no-lang-filter "$WORK/big.jsonl" "$WORK/big.out"
check big_document_fixed "$PY" -c '
import json, sys
t = json.loads(open(sys.argv[1]).read())["text"]
sys.exit(0 if len(t) > 99_000_000 and "caf\u00e9 " in t and "\u00c3" not in t else 1)' "$WORK/big.out"

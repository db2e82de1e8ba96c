#!/usr/bin/env bash
# test_decontaminate.sh - decontaminate against the evaluation sets in data/eval, on documents
# made from their items (verbatim, re-cased, re-punctuated, cut mid-item, embedded in long text
# with other scripts around, several items in one document) and on corpus documents:
# --mode cut gives what lm-evaluation-harness's Janitor gives, piece for piece (a document
# without a match passes unchanged, where Janitor returns nothing for one under 200
# characters), --mode drop drops the documents datatrove's NGramsDecontFilter drops, with its
# task and n-gram; in = kept + dropped; bad evaluation files are named.
. "$(dirname "$0")/lib.sh"
B="$BIN/decontaminate"
EV=$ROOT/data/eval
"$PY" - "$WORK/docs.jsonl" "$EV" "$ROOT/data/corpus/wikinews.jsonl.zst" <<'PY'
import io, json, os, random, re, subprocess, sys
sys.path.insert(0, os.path.join(os.environ.get("ROOT", "."), "tests/e2e"))
random.seed(11)
out, ev, corpus = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else ".")
from decont_items import load_items
items = []
for f in sorted(os.listdir(ev)):
    if f.endswith(".jsonl"):
        items += load_items(os.path.join(ev, f))
raw = subprocess.run(["zstd", "-dc", corpus], capture_output=True, check=True).stdout.decode()
filler = [json.loads(l)["text"] for l in raw.splitlines()[:400] if len(json.loads(l)["text"]) > 300]
def text_of(it):
    return ((it[2] or "") + " " + (it[3] or "")).strip()
def repunct(s):
    w = s.split()
    return " ".join(x + random.choice(["", "", ",", ".", ";", " -", "!"]) for x in w).replace("'", "")
docs = []
for k in range(260):
    it = random.choice(items)
    t = text_of(it)
    r = k % 8
    if r == 0: body = t
    elif r == 1: body = t.upper()
    elif r == 2: body = repunct(t)
    elif r == 3: body = t[random.randrange(max(1, len(t) // 3)):]           # cut mid-item
    elif r == 4: body = random.choice(filler)[:700] + " naïve café — 日本語 " + t + "\n\n" + random.choice(filler)[:900]
    elif r == 5: body = " ".join(text_of(random.choice(items)) for _ in range(random.randint(3, 14)))  # many items
    elif r == 6: body = random.choice(filler)                               # clean text
    else:         body = random.choice(filler)[:random.randint(50, 400)] + "\t" + t[: random.randint(20, 300)]
    docs.append({"id": f"d{k}", "text": body})
docs.append({"id": "empty", "text": ""})
docs.append({"id": "notext"})
with open(out, "w", encoding="utf-8") as f:
    for d in docs:
        f.write(json.dumps(d, ensure_ascii=False) + "\n")
PY
zstd -dc "$ROOT/data/corpus/enwiki_sample.jsonl.zst" | head -1500 |
  "$PY" -c 'import json,sys; [print(json.dumps(dict(json.loads(l), id="c%d" % i), ensure_ascii=False)) for i, l in enumerate(sys.stdin)]' > "$WORK/corpus.jsonl"
SEP='<PIECE>'
compare() { # mode docs: our output and report against the reference's decisions
  "$PY" - "$1" "$2" "$3" "$4" "$SEP" <<'PY'
import json, sys
mode, docs_p, ours_p, ref_p, sep = sys.argv[1:]
docs = [json.loads(l) for l in open(docs_p, encoding="utf-8")]
ours = {json.loads(l)["id"]: json.loads(l) for l in open(ours_p, encoding="utf-8") if "id" in json.loads(l)}
bad, counts = 0, {"clean": 0, "dropped": 0, "cut": 0}
for l in open(ref_p, encoding="utf-8"):
    r = json.loads(l)
    d = docs[r["doc"]]
    got = ours.get(d["id"])
    res = r["result"]
    if res == "clean":
        ok = got is not None and got.get("text") == d.get("text"); counts["clean"] += 1
    elif res == "dropped":
        ok = got is None; counts["dropped"] += 1
    else:
        ok = got is not None and got["text"].split(sep) == res; counts["cut"] += 1
    if not ok:
        bad += 1
        if bad <= 3:
            print("doc", r["doc"], "want", str(res)[:200], "got", str(got and got.get("text"))[:200], file=sys.stderr)
print(json.dumps(counts))
if sum(counts.values()) != len(docs):
    print("the reference decided %d of %d documents" % (sum(counts.values()), len(docs)), file=sys.stderr)
    bad += 1
sys.exit(1 if bad else 0)
PY
}
for mode in cut drop; do
  for set in docs corpus; do
    n=13
    expect_exit "run_${mode}_$set" 0 "$B" --mode $mode -n $n --eval "$EV" --piece-separator "$SEP" "$WORK/$set.jsonl" \
      -o "$WORK/${mode}_$set.out" --report "$WORK/${mode}_$set.report" --removed "$WORK/${mode}_$set.removed"
    cp "$WORK/.err" "$WORK/${mode}_$set.err"
    "$PY" "$ROOT/tests/e2e/decont_reference.py" "$WORK/$set.jsonl" "$EV"/arc_easy_val.jsonl "$EV"/hellaswag_val1000.jsonl \
      "$EV"/piqa_val.jsonl $mode $n > "$WORK/${mode}_$set.ref" 2> "$WORK/${mode}_$set.referr" ||
      fail "reference_${mode}_$set" "$(tail -3 "$WORK/${mode}_$set.referr")"
    if c=$(compare $mode "$WORK/$set.jsonl" "$WORK/${mode}_$set.out" "$WORK/${mode}_$set.ref" 2> "$WORK/cmp.err"); then
      pass "${mode}_same_as_reference_$set ($c)"
    else
      fail "${mode}_same_as_reference_$set" "$(head -c 600 "$WORK/cmp.err")"
    fi
    in=$(grep -o '^decontaminate: [0-9]* documents in: [0-9]* kept, [0-9]* dropped' "$WORK/${mode}_$set.err")
    echo "$in" | awk '{ exit !($2 == $5 + $7) }' && pass "in_equals_kept_plus_dropped_${mode}_$set ($in)" ||
      fail "in_equals_kept_plus_dropped_${mode}_$set" "$in"
  done
done
# the planted documents do match, every task is counted, the report names task, item and n-gram
grep -q '"task":"hellaswag_val1000"' "$WORK/cut_docs.report" && grep -q '"task":"piqa_val"' "$WORK/cut_docs.report" &&
  grep -q '"task":"arc_easy_val"' "$WORK/cut_docs.report" && pass report_names_tasks || fail report_names_tasks
"$PY" - "$WORK/drop_docs.report" "$WORK/drop_docs.ref" <<'PY' && pass drop_report_same_ngram_and_task || fail drop_report_same_ngram_and_task
import json, sys
ours = {json.loads(l)["doc"]: json.loads(l) for l in open(sys.argv[1], encoding="utf-8")}
ref = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
bad = [r["doc"] for r in ref if r["result"] == "dropped" and (ours[r["doc"]]["ngram"] != r["ngram"] or ours[r["doc"]]["task"] != r["task"])]
sys.exit(1 if bad or not ours else 0)
PY
grep -q '"contaminated_task"' "$WORK/drop_docs.removed" && pass removed_documents_written || fail removed_documents_written
stderr_has per_task_summary "hellaswag_val1000"
# bad input: a malformed evaluation line, an empty set, a record of no known format; nothing written
{ head -3 "$EV/piqa_val.jsonl"; echo '{"goal": "x", "sol1"'; } > "$WORK/badset.jsonl"
expect_exit bad_eval_line 1 "$B" --eval "$WORK/badset.jsonl" "$WORK/docs.jsonl" -o "$WORK/never.jsonl"
stderr_has bad_eval_line_named "badset.jsonl: line 4: not JSON"
: > "$WORK/emptyset.jsonl"
expect_exit empty_eval_set 1 "$B" --eval "$WORK/emptyset.jsonl" "$WORK/docs.jsonl" -o "$WORK/never.jsonl"
stderr_has empty_eval_set_named "emptyset.jsonl: no evaluation items"
echo '{"question": "q"}' > "$WORK/odd.jsonl"
expect_exit unknown_format 1 "$B" --eval "$WORK/odd.jsonl" "$WORK/docs.jsonl" -o "$WORK/never.jsonl"
stderr_has unknown_format_named "odd.jsonl: line 1: a record of no known evaluation format"
expect_exit no_eval 2 "$B" "$WORK/docs.jsonl"
expect_exit bad_mode 2 "$B" --mode wipe --eval "$EV" "$WORK/docs.jsonl"
[ ! -e "$WORK/never.jsonl" ] && pass no_output_on_error || fail no_output_on_error
# a generic set (--eval-text-field) under a task name of its own, and standard input
"$PY" -c 'import json,sys; t=[json.loads(l)["text"] for l in open(sys.argv[1])]; print(json.dumps({"passage": [x for x in t if len(x) > 2000][3][500:900]}))' \
  "$WORK/corpus.jsonl" > "$WORK/generic.jsonl"
expect_exit generic_set 0 sh -c "'$B' --eval mine='$WORK/generic.jsonl' --eval-text-field passage --mode drop < '$WORK/corpus.jsonl' > '$WORK/gen.out'"
stderr_has generic_set_counted "mine "
[ "$(wc -l < "$WORK/gen.out")" -lt "$(wc -l < "$WORK/corpus.jsonl")" ] && pass generic_set_drops_its_source || fail generic_set_drops_its_source
no_tmp_left "$WORK" no_temporary_files
check help "$B" --help

#!/usr/bin/env bash
# test_substr_dedup.sh - substr_dedup (exact-substring deduplication) on documents with
# planted repeats (lengths just under and over the threshold, overlapping repeats,
# repeats that would cross a document's end, multi-byte characters cut by a span, a
# document repeated whole): the spans struck equal those of an independent Python
# reference (tests/e2e/substr_reference.py: sorted suffixes by brute force), in bytes
# and in GPT-2 tokens, keeping the first copy and striking all; the documents written
# are the texts with those spans cut; in = kept + dropped; bad input.
. "$(dirname "$0")/lib.sh"
B="$BIN/substr_dedup"
"$PY" - "$WORK/docs.jsonl" <<'PY'
import json, random, sys
random.seed(7)
words = "the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there been one all we their has would when if so no out up said what its about into them than can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three".split()
multi = ["café", "naïve", "日本語", "Ünïcödé", "emoji😀"]
def text(n):
    return " ".join(random.choice(words + multi) for _ in range(n))
planted = text(60)                    # a long sentence repeated (over any threshold)
short = text(6)                       # a short one (under the thresholds)
docs = []
for i in range(120):
    t = text(random.randint(5, 60))
    r = random.random()
    if r < 0.15:
        t = t + " " + planted + " " + text(3)
    elif r < 0.25:
        t = short + " " + t + " " + short
    elif r < 0.32:                     # part of an earlier document, cut mid-word
        src = docs[random.randrange(len(docs))]["text"] if docs else t
        a = random.randrange(max(1, len(src) // 2))
        t = t[: len(t) // 2] + src[a:a + random.randint(20, 200)] + t[len(t) // 2:]
    elif r < 0.36 and docs:            # the end of one document and the start of the next
        t = docs[-1]["text"][-30:] + t
    docs.append({"id": f"d{i}", "text": t})
docs.append({"id": "whole", "text": docs[3]["text"]})   # a document repeated whole: left empty
docs.append({"id": "empty", "text": ""})
with open(sys.argv[1], "w", encoding="utf-8") as f:
    for d in docs:
        f.write(json.dumps(d, ensure_ascii=False) + "\n")
PY
# the same documents with a line that is not JSON and one without text (passed through)
{ head -60 "$WORK/docs.jsonl"; echo 'not json'; echo '{"id":"notext"}'; tail -n +61 "$WORK/docs.jsonl"; } > "$WORK/mixed.jsonl"
"$BIN/tokenize" "$WORK/docs.jsonl" -o "$WORK/ids.txt" 2>/dev/null
ENC=$ROOT/data/gpt2/encoder.json

# spans of the tool without the ids (the reference numbers the documents of docs.jsonl)
spans_of() { "$PY" -c 'import json,sys; [print(json.dumps({k: v for k, v in json.loads(l).items() if k != "id"})) for l in open(sys.argv[1])]' "$1"; }
for unit in bytes tokens; do
  k=40; [ $unit = tokens ] && k=12
  for which in later all; do
    n=${unit}_$which
    expect_exit "run_$n" 0 "$B" --unit $unit -k $k --remove $which "$WORK/docs.jsonl" -o "$WORK/$n.jsonl" \
      --spans "$WORK/$n.spans"
    cp "$WORK/.err" "$WORK/$n.err"
    "$PY" "$ROOT/tests/e2e/substr_reference.py" "$WORK/docs.jsonl" $k $which $unit "$WORK/ids.txt" "$ENC" \
      > "$WORK/$n.ref" 2> "$WORK/$n.referr" || fail "reference_$n" "$(tail -2 "$WORK/$n.referr")"
    if [ -s "$WORK/$n.ref" ] && diff <(spans_of "$WORK/$n.spans") "$WORK/$n.ref" > "$WORK/$n.diff"; then
      pass "spans_equal_reference_$n ($(wc -l < "$WORK/$n.ref") spans)"
    else
      fail "spans_equal_reference_$n" "$(head -4 "$WORK/$n.diff" | tr '\n' ' ')"
    fi
    # the documents written: each text with its spans cut, still valid UTF-8; in = kept + dropped
    "$PY" - "$WORK/docs.jsonl" "$WORK/$n.spans" "$WORK/$n.jsonl" <<'PY' && pass "texts_cut_$n" || fail "texts_cut_$n"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
spans = {}
for l in open(sys.argv[2]):
    s = json.loads(l)
    spans.setdefault(s["doc"], []).append((s["start"], s["end"]))
want = []
for i, d in enumerate(docs):
    t = d["text"].encode()
    keep, at = b"", 0
    for a, b in spans.get(i, []):
        keep += t[at:a]
        at = b
    keep += t[at:]
    if len(keep) >= 1 or not t:   # --min-length 1: a document left empty is dropped
        if i in spans and not keep:
            continue
        want.append(keep.decode("utf-8"))
got = [json.loads(l)["text"] for l in open(sys.argv[3], encoding="utf-8")]
sys.exit(0 if got == want else 1)
PY
    in=$(grep -o '^substr_dedup: [0-9]* documents in: [0-9]* kept, [0-9]* dropped' "$WORK/$n.err")
    echo "$in" | awk '{ exit !($2 == $5 + $7 && $7 >= 1) }' && pass "in_equals_kept_plus_dropped_$n ($in)" ||
      fail "in_equals_kept_plus_dropped_$n" "$in"
  done
done
# shards: one suffix array per shard (by a hash of the id) and the cross-shard pass strike
# exactly what one suffix array strikes, byte for byte, in every mode, for any shard and
# range count (more shards than documents: empty shards)
for n in bytes_later bytes_all tokens_later tokens_all; do
  unit=${n%_*}; which=${n#*_}; k=40; [ $unit = tokens ] && k=12
  for sh in "3 2" "5 5" "200 1"; do
    set -- $sh
    expect_exit "shards_${n}_$1x$2" 0 "$B" --unit $unit -k $k --remove $which --shards $1 --hash-ranges $2 \
      "$WORK/docs.jsonl" -o "$WORK/sh.jsonl" --spans "$WORK/sh.spans"
    cmp -s "$WORK/sh.jsonl" "$WORK/$n.jsonl" && cmp -s "$WORK/sh.spans" "$WORK/$n.spans" &&
      pass "shards_same_as_one_suffix_array_${n}_$1x$2" || fail "shards_same_as_one_suffix_array_${n}_$1x$2"
  done
done
stderr_has shards_summary "200 shards ("
# on the corpus in data/: 4,000 real documents (wikinews and Wikipedia), GPT-2 tokens, k 50
{ zstd -dc "$ROOT/data/corpus/wikinews.jsonl.zst" | head -2000; zstd -dc "$ROOT/data/corpus/enwiki_sample.jsonl.zst" | head -2000; } > "$WORK/real.jsonl"
expect_exit real_one 0 "$B" "$WORK/real.jsonl" -o "$WORK/real_one.jsonl" --spans "$WORK/real_one.spans"
expect_exit real_shards 0 "$B" --shards 4 "$WORK/real.jsonl" -o "$WORK/real_sh.jsonl" --spans "$WORK/real_sh.spans"
[ -s "$WORK/real_one.spans" ] && cmp -s "$WORK/real_one.jsonl" "$WORK/real_sh.jsonl" && cmp -s "$WORK/real_one.spans" "$WORK/real_sh.spans" &&
  pass "corpus_shards_same_as_one ($(wc -l < "$WORK/real_one.spans") spans)" || fail corpus_shards_same_as_one
# the stages as a cluster runs them, each its own process over a shared work directory; then
# a write stage that finds other settings, another input, or a stage missing, refuses, naming the file
W=$WORK/work
for i in 0 1 2; do expect_exit "stage_find_$i" 0 "$B" --shards 3 --work-dir "$W" --stage find --index $i "$WORK/real.jsonl"; done
for r in 0 1 2; do expect_exit "stage_cross_$r" 0 "$B" --shards 3 --work-dir "$W" --stage cross --index $r "$WORK/real.jsonl"; done
expect_exit stage_write 0 "$B" --shards 3 --work-dir "$W" --stage write "$WORK/real.jsonl" -o "$WORK/real_st.jsonl" --spans "$WORK/real_st.spans"
cmp -s "$WORK/real_one.jsonl" "$WORK/real_st.jsonl" && cmp -s "$WORK/real_one.spans" "$WORK/real_st.spans" &&
  pass stages_same_as_one || fail stages_same_as_one
expect_exit stage_other_k 1 "$B" --shards 3 -k 40 --work-dir "$W" --stage write "$WORK/real.jsonl" -o "$WORK/never.jsonl"
stderr_has stage_other_k_named "spans.0000: made by a run with other settings"
head -100 "$WORK/real.jsonl" > "$WORK/real100.jsonl"
expect_exit stage_other_input 1 "$B" --shards 3 --work-dir "$W" --stage write "$WORK/real100.jsonl" -o "$WORK/never.jsonl"
stderr_has stage_other_input_named "made from 4000 input records, this input has 100"
head -c 100 "$W/spans.0001" > "$W/t" && mv "$W/t" "$W/spans.0001"
expect_exit stage_truncated 1 "$B" --shards 3 --work-dir "$W" --stage write "$WORK/real.jsonl" -o "$WORK/never.jsonl"
stderr_has stage_truncated_named "spans.0001: truncated or damaged"
expect_exit stage_find_again 0 "$B" --shards 3 --work-dir "$W" --stage find --index 1 "$WORK/real.jsonl"
rm "$W/cross.0002"
expect_exit stage_missing 3 "$B" --shards 3 --work-dir "$W" --stage write "$WORK/real.jsonl" -o "$WORK/never.jsonl"
stderr_has stage_missing_named "cross.0002: No such file"
expect_exit stage_needs_work_dir 2 "$B" --shards 3 --stage find --index 0 "$WORK/real.jsonl"
expect_exit stage_index_range 2 "$B" --shards 3 --work-dir "$W" --stage find --index 3 "$WORK/real.jsonl"
expect_exit stage_stdin 2 sh -c "'$B' --shards 3 --work-dir '$W' --stage find --index 0 < '$WORK/real.jsonl'"
stderr_has stage_stdin_message "not standard input"
# standard input with shards: spooled once, the same result
mkdir -p "$WORK/tmpd"
expect_exit shards_stdin 0 sh -c "TMPDIR='$WORK/tmpd' '$B' --shards 3 < '$WORK/real.jsonl' > '$WORK/real_in.jsonl'"
cmp -s "$WORK/real_in.jsonl" "$WORK/real_one.jsonl" && pass shards_stdin_same || fail shards_stdin_same
[ -z "$(ls -A "$WORK/tmpd")" ] && pass shards_temporary_work_dir_removed || fail shards_temporary_work_dir_removed
# a repeat across a document's end is not one: the two documents' seam is not struck unless
# each side repeats on its own (the reference agrees: checked above); a threshold over every
# repeat strikes nothing and writes the input unchanged
expect_exit huge_threshold 0 "$B" --unit bytes -k 100000 "$WORK/docs.jsonl" -o "$WORK/same.jsonl"
cmp -s "$WORK/docs.jsonl" "$WORK/same.jsonl" && pass unchanged_when_nothing_repeats || fail unchanged_when_nothing_repeats
# records without text and lines that are not JSON pass through, in place
expect_exit mixed 0 "$B" --unit bytes -k 40 "$WORK/mixed.jsonl" -o "$WORK/mixed_out.jsonl"
grep -qx 'not json' "$WORK/mixed_out.jsonl" && grep -qx '{"id":"notext"}' "$WORK/mixed_out.jsonl" &&
  pass passes_records_without_text || fail passes_records_without_text
stderr_has mixed_counted "2 records without text passed through"
# standard input, compressed input: the same result
zstd -q -c "$WORK/docs.jsonl" > "$WORK/docs.jsonl.zst"
expect_exit stdin 0 sh -c "'$B' --unit bytes -k 40 < '$WORK/docs.jsonl' > '$WORK/stdin_out.jsonl'"
cmp -s "$WORK/stdin_out.jsonl" "$WORK/bytes_later.jsonl" && pass stdin_same_as_file || fail stdin_same_as_file
expect_exit zst 0 "$B" --unit bytes -k 40 "$WORK/docs.jsonl.zst" -o "$WORK/zst_out.jsonl"
cmp -s "$WORK/zst_out.jsonl" "$WORK/bytes_later.jsonl" && pass zst_same_as_plain || fail zst_same_as_plain
# the separate removal step: a spans file applied gives what the run that wrote it gave; an
# edited one (every other span) strikes what it lists; a bad one is refused naming its line
expect_exit apply_spans 0 "$B" --apply-spans "$WORK/tokens_later.spans" "$WORK/docs.jsonl" -o "$WORK/applied.jsonl"
cmp -s "$WORK/applied.jsonl" "$WORK/tokens_later.jsonl" && pass apply_spans_same_as_the_run || fail apply_spans_same_as_the_run
awk 'NR % 2' "$WORK/tokens_later.spans" > "$WORK/half.spans"
expect_exit apply_edited_spans 0 "$B" --apply-spans "$WORK/half.spans" "$WORK/docs.jsonl" -o "$WORK/half.jsonl"
"$PY" - "$WORK/docs.jsonl" "$WORK/half.spans" "$WORK/half.jsonl" <<'PY' && pass apply_edited_spans_strikes_them || fail apply_edited_spans_strikes_them
import json, sys
docs = [json.loads(l)["text"].encode() for l in open(sys.argv[1], encoding="utf-8")]
cut = {}
for l in open(sys.argv[2]):
    s = json.loads(l)
    cut.setdefault(s["doc"], []).append((s["start"], s["end"]))
want = []
for i, t in enumerate(docs):
    keep, at = b"", 0
    for a, b in cut.get(i, []):
        keep, at = keep + t[at:a], b
    keep += t[at:]
    if keep or not t:
        want.append(keep.decode())
got = [json.loads(l)["text"] for l in open(sys.argv[3], encoding="utf-8")]
sys.exit(0 if got == want else 1)
PY
printf '{"doc":3,"start":0,"end":5}\n{"doc":1,"start":0,"end":5}\n' > "$WORK/order.spans"
expect_exit apply_out_of_order 1 "$B" --apply-spans "$WORK/order.spans" "$WORK/docs.jsonl" -o "$WORK/never.jsonl"
stderr_has apply_out_of_order_names_line "order.spans: line 2: out of order"
printf '{"doc":0,"start":0,"end":99999}\n' > "$WORK/past.spans"
expect_exit apply_past_text 1 "$B" --apply-spans "$WORK/past.spans" "$WORK/docs.jsonl" -o "$WORK/never.jsonl"
stderr_has apply_past_text_names_line "past.spans: line 1: a span past the text of record 0"
printf '{"doc":9999,"start":0,"end":1}\n' > "$WORK/far.spans"
expect_exit apply_past_input 1 "$B" --apply-spans "$WORK/far.spans" "$WORK/docs.jsonl" -o "$WORK/never.jsonl"
stderr_has apply_past_input_names_line "far.spans: line 1: a span of record 9999, past the input's 122 records"
printf '{"doc":0,"start":"x","end":1}\n' > "$WORK/bad.spans"
expect_exit apply_bad_value 1 "$B" --apply-spans "$WORK/bad.spans" "$WORK/docs.jsonl" -o "$WORK/never.jsonl"
stderr_has apply_bad_value_names_line "bad.spans: line 1: \"doc\", \"start\" and \"end\" must be whole numbers"
# bad input: usage errors name the flag; a missing file is named; nothing is left behind
expect_exit bad_unit 2 "$B" --unit words "$WORK/docs.jsonl"
stderr_has bad_unit_message "--unit: expected tokens or bytes"
expect_exit bad_threshold 2 "$B" -k 0 "$WORK/docs.jsonl"
expect_exit missing_file 3 "$B" "$WORK/nope.jsonl" -o "$WORK/never.jsonl"
stderr_has missing_file_named "nope.jsonl"
[ ! -e "$WORK/never.jsonl" ] && pass no_output_on_error || fail no_output_on_error
no_tmp_left "$WORK" no_temporary_files
# an empty input: nothing in, nothing out, a summary that says so
: > "$WORK/empty.jsonl"
expect_exit empty_input 0 "$B" "$WORK/empty.jsonl" -o "$WORK/empty_out.jsonl"
[ -e "$WORK/empty_out.jsonl" ] && [ ! -s "$WORK/empty_out.jsonl" ] && pass empty_input_empty_output || fail empty_input_empty_output
stderr_has empty_input_summary "0 documents in"
# one document of 100 MB (the release tier; 8 MB under the sanitizers): its repeats struck, the
# rest kept, the text still valid UTF-8
mb=100; [ "${TEST_TIER:-rel}" = san ] && mb=8
"$PY" - "$WORK/big.jsonl" "$mb" <<'PY'
import json, random, sys
random.seed(3)
words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho".split() + ["naïve", "日本"]
para = " ".join(random.choice(words) for _ in range(400))
parts, n = [], 0
while n < int(sys.argv[2]) * 1000000:
    p = " ".join(random.choice(words) for _ in range(300)) + (" " + para if random.random() < 0.3 else "")
    parts.append(p); n += len(p.encode()) + 1
open(sys.argv[1], "w", encoding="utf-8").write(json.dumps({"id": "big", "text": "\n".join(parts)}, ensure_ascii=False) + "\n")
PY
expect_exit big_document 0 "$B" -j 2 "$WORK/big.jsonl" -o "$WORK/big_out.jsonl"
"$PY" -c 'import json,sys; a=json.loads(open(sys.argv[1]).read())["text"]; b=json.loads(open(sys.argv[2]).read())["text"]; sys.exit(0 if 0 < len(b) < len(a) else 1)' \
  "$WORK/big.jsonl" "$WORK/big_out.jsonl" && pass "big_document_struck ($mb MB)" || fail big_document_struck
# kill -9 mid-run: no output that looks complete, nothing left beside it
for i in 1 2 3 4; do cat "$WORK/big.jsonl"; done > "$WORK/four.jsonl"
"$B" -j 1 "$WORK/four.jsonl" -o "$WORK/killed.jsonl" --spans "$WORK/killed.spans" 2> /dev/null & kp=$!
sleep 1; kill -9 $kp 2>/dev/null; wait $kp 2>/dev/null
[ ! -e "$WORK/killed.jsonl" ] && [ ! -e "$WORK/killed.spans" ] && pass kill9_leaves_no_output || fail kill9_leaves_no_output
no_tmp_left "$WORK" kill9_no_temporary_files
"$B" -j 1 --shards 2 --work-dir "$WORK/kw" "$WORK/four.jsonl" -o "$WORK/killed.jsonl" 2> /dev/null & kp=$!
sleep 1; kill -9 $kp 2>/dev/null; wait $kp 2>/dev/null
[ ! -e "$WORK/killed.jsonl" ] && pass kill9_shards_leaves_no_output || fail kill9_shards_leaves_no_output
no_tmp_left "$WORK/kw" kill9_shards_no_temporary_work_files
check help "$B" --help

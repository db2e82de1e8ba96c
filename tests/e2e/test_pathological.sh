#!/usr/bin/env bash
# test_pathological.sh - hostile documents through the whole pipeline.
#
# pathological_inputs.py writes six corpora (a document on one very long
# line, many tiny documents, deep nesting, every Unicode plane, NUL bytes,
# CRLF and mixed newlines) and, for each, what Python's json makes of every
# line. Each corpus goes through cleanup, minhash + find_duplicates,
# preprocess_data (+ inspect_dataset), tokenize, shuffle (in memory and out of
# core), blacklist_urls and train_bpe. Every run must exit 0 and account for
# every record (in = kept + dropped, the counts on stderr against the lines
# of the outputs); the records each tool parses are the ones Python's json
# parses; what preprocess_data stores decodes back to the text Python reads,
# byte for byte; shuffle keeps every line's bytes.
# Sizes: PATHO_LONG_MB (default 16) and PATHO_TINY_DOCS (default 200000);
# `make reliability` runs the 1 GB line and 10 million documents.
. "$(dirname "$0")/lib.sh"
export OMP_NUM_THREADS=2
LONG_MB=${PATHO_LONG_MB:-16}
TINY=${PATHO_TINY_DOCS:-200000}
# the sanitizer build (5-20x slower) takes the same cases at a quarter of the size
[ "${TEST_TIER:-rel}" = san ] && LONG_MB=${PATHO_LONG_MB:-4} TINY=${PATHO_TINY_DOCS:-50000}
P=$WORK/p
command -v python3 >/dev/null || { skip pathological "python3 missing (scripts/setup/install_deps.sh --test)"; exit 0; }
python3 "$ROOT/tests/e2e/pathological_inputs.py" "$P" "$LONG_MB" "$TINY" || { fail pathological_inputs "generator failed"; exit 0; }

num() { grep -oE "$1" "$WORK/err" | grep -oE '[0-9]+' | head -1; }
lines() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }
# run NAME CMD...: run in $O, stderr in $WORK/err; records a failure and returns 1 on a non-zero exit
run() { local n=$1; shift; (cd "$O" && "$@" >/dev/null 2>"$WORK/err"); local rc=$?
  [ $rc = 0 ] || { bad="$bad [$n: exit $rc: $(grep -v warning "$WORK/err" | head -c 200)]"; return 1; }; }

for c in long_line tiny nested unicode nul newlines; do
  IN=$P/$c.jsonl; O=$WORK/o_$c; rm -rf "$O"; mkdir -p "$O"
  recs=$(head -n 1 "$P/$c.expect"); pyok=$(($(wc -l < "$P/$c.expect") - 1))
  bad=""; t0=$SECONDS
  # cleanup: N documents in: K kept, D dropped; K + D = records, the files hold K and D lines
  if run cleanup "$BIN/cleanup" -j 2 "$IN" kept.jsonl --removed removed.jsonl; then
    n=$(num '[0-9]+ documents in'); k=$(num '[0-9]+ kept'); d=$(num '[0-9]+ dropped')
    [ "$n" = "$recs" ] && [ $((k + d)) = "$n" ] && [ "$(lines "$O/kept.jsonl")" = "$k" ] && [ "$(lines "$O/removed.jsonl")" = "$d" ] ||
      bad="$bad [cleanup: $n in ($recs records), $k kept + $d dropped, files $(lines "$O/kept.jsonl") + $(lines "$O/removed.jsonl")]"
    nbad=$(grep -oE 'bad_json +[0-9]+' "$WORK/err" | grep -oE '[0-9]+$'); nbad=${nbad:-0}
    [ $((recs - nbad)) = "$pyok" ] || bad="$bad [cleanup parsed $((recs - nbad)) records, Python's json $pyok]"
  fi
  # minhash: signed + skipped = records; then find_duplicates over the signatures
  if run minhash "$BIN/minhash" "$IN" -o sig.mh -j 2; then
    n=$(num '[0-9]+ documents in'); s=$(num '[0-9]+ kept')
    sk=$(grep -E '^  dropped [a-z-]+ +[0-9]+ documents' "$WORK/err" | awk '{ s += $3 } END { print s + 0 }')
    [ "$n" = "$recs" ] && [ $((s + sk)) = "$n" ] || bad="$bad [minhash: $n documents ($recs records), $s signed + $sk skipped]"
    run find_duplicates "$BIN/find_duplicates" -q sig.mh -o pairs.jsonl -j 2
    # version 3 (texts read back from the input) gives the pairs of the file with texts
    if run minhash_text "$BIN/minhash" -q --store-text "$IN" -o sigt.mh -j 2 &&
       run find_duplicates_text "$BIN/find_duplicates" -q sigt.mh -o pairst.jsonl -j 2; then
      cmp -s "$O/pairs.jsonl" "$O/pairst.jsonl" || bad="$bad [find_duplicates: other pairs from the signatures with texts]"
    fi
  fi
  # preprocess_data: kept + dropped = records; inspect_dataset validates; the texts decode back
  if run preprocess_data "$BIN/preprocess_data" --input "$IN" --output-prefix pp --workers 2; then
    k=$(num '[0-9]+ kept'); d=$(num '[0-9]+ dropped')
    [ $((k + d)) = "$recs" ] && [ "$k" = "$pyok" ] || bad="$bad [preprocess_data: $k kept + $d dropped, $recs records, Python parses $pyok]"
    if (cd "$O" && "$BIN/inspect_dataset" pp_text_document > "$WORK/err" 2>&1) || { bad="$bad [inspect_dataset: $(head -c 200 "$WORK/err")]"; false; }; then
      docs=$(grep -oE 'documents +[0-9]+' "$WORK/err" | head -1 | grep -oE '[0-9]+')
      [ "$docs" = "$k" ] || bad="$bad [inspect_dataset: $docs documents, preprocess kept $k]"
      # decode up to 40 documents (the first 40) and compare with Python's texts
      m=$(( k < 40 ? k : 40 )); args=""; i=0
      while [ $i -lt $m ]; do args="$args --doc $i"; i=$((i + 1)); done
      if [ $m -gt 0 ] && [ "$c" != long_line ]; then
        (cd "$O" && "$BIN/inspect_dataset" -q $args pp_text_document > decoded.txt 2>/dev/null)
        python3 - "$P/$c.expect" "$O/decoded.txt" "$m" "$P/$c.texts" > "$WORK/cmp" 2>&1 <<'EOF' || bad="$bad [decoded texts differ: $(head -c 300 "$WORK/cmp")]"
import sys
texts = open(sys.argv[4], "rb").read()
rows = [texts[int(o):int(o) + int(n)] for _, o, n in (l.split("\t") for l in open(sys.argv[1]).read().splitlines()[1:])]
m = int(sys.argv[3])
# the non-empty texts, in order (an empty document stores no sequence)
want = [r for r in rows if r][:m]
got = open(sys.argv[2], "rb").read()
exp = b"".join(w + b"\n" for w in want)
if got != exp:
    i = next((i for i in range(min(len(got), len(exp))) if got[i] != exp[i]), min(len(got), len(exp)))
    print("first difference at byte %d: got %r, want %r" % (i, got[max(0, i - 20):i + 20], exp[max(0, i - 20):i + 20]))
    sys.exit(1)
EOF
      elif [ "$c" = long_line ]; then # the long documents: token count against the text length, cheaply
        (cd "$O" && "$BIN/inspect_dataset" -q --doc 0 pp_text_document > decoded.txt 2>/dev/null)
        want=$(sed -n 2p "$P/$c.expect" | cut -f3)
        [ "$(wc -c < "$O/decoded.txt")" = $((want + 1)) ] || bad="$bad [long document decodes to $(wc -c < "$O/decoded.txt") bytes, not $((want + 1))]"
        cmp -s <(head -c "$want" "$P/$c.texts") <(head -c "$want" "$O/decoded.txt") || bad="$bad [the long document does not decode back to its text]"
      fi
    fi
  fi
  # tokenize: one line per record (an empty one for a record it cannot read), as many non-empty as parsed
  if run tokenize "$BIN/tokenize" -q "$IN" -o ids.txt; then
    [ "$(lines "$O/ids.txt")" = "$recs" ] && [ "$(grep -c . "$O/ids.txt")" -le "$pyok" ] ||
      bad="$bad [tokenize: $(lines "$O/ids.txt") lines ($(grep -c . "$O/ids.txt") non-empty), $recs records, $pyok parsed]"
  fi
  # shuffle keeps every line's bytes, in memory and out of core alike
  if run shuffle "$BIN/shuffle" -q --seed 3 "$IN" -o s1.jsonl && run shuffle_ooc "$BIN/shuffle" -q --seed 3 --memory 64K -T . "$IN" -o s2.jsonl; then
    a=$(LC_ALL=C sort "$IN" | sha256sum); b=$(LC_ALL=C sort "$O/s1.jsonl" | sha256sum)
    [ "$a" = "$b" ] || bad="$bad [shuffle changed the lines]"
    cmp -s "$O/s1.jsonl" "$O/s2.jsonl" || bad="$bad [shuffle --memory 64K gave another order or other bytes]"
  fi
  # blacklist_urls in JSON-lines mode: kept + rejected = records
  if run blacklist_urls "$BIN/blacklist_urls" -q --key url "$IN" -o bl.jsonl --rejected bl.tsv; then
    [ $(( $(lines "$O/bl.jsonl") + $(lines "$O/bl.tsv") )) = "$recs" ] || bad="$bad [blacklist_urls: $(lines "$O/bl.jsonl") kept + $(lines "$O/bl.tsv") rejected, $recs records]"
  fi
  run train_bpe "$BIN/train_bpe" -q --input "$IN" --output-dir bpe --vocab-size 300
  no_litter=$(cd "$O" && find . -name '*tmp-*' | head -3)
  [ -z "$no_litter" ] || bad="$bad [temporaries left: $no_litter]"
  desc="$(stat -c %s "$IN") bytes, $recs records, $pyok parsed by Python's json, $((SECONDS - t0)) s"
  if [ -z "$bad" ]; then pass "pathological_$c ($desc)"; else fail "pathological_$c" "$desc:$(echo "$bad" | head -c 2500)"; fi
done
true

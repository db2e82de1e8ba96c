#!/usr/bin/env bash
# bench_decont.sh - decontaminate against the evaluation sets of data/eval, one thread, on
# the corpora of data/corpus (planted with 2 % of documents made from evaluation items), beside
# its peers on the same documents in the same run: lm-evaluation-harness's Janitor for --mode
# cut (on a sample of about SUB documents: it is slow) and datatrove's NGramsDecontFilter for --mode
# drop; MB of input per second and the ratio (tests/e2e/test_decontaminate.sh checks the decisions equal).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}; SUB=${SUB:-8000}
. bench/bench_lib.sh
bench_python bench_decont.sh datatrove spacy xxhash numpy
W=$(mktemp -d /tmp/bench_decont.XXXXXX); trap 'rm -rf "$W"' EXIT
EV=data/eval
zstd -dc data/corpus/*.jsonl.zst | "$PY" -c '
import json, random, sys
sys.path.insert(0, "tests/e2e")
from decont_items import load_items
random.seed(5)
items = [it for f in sys.argv[1:] for it in load_items(f)]
for i, l in enumerate(sys.stdin):
    d = json.loads(l)
    if random.random() < 0.02:
        it = random.choice(items)
        t = d["text"]; k = len(t) // 2
        d["text"] = t[:k] + " " + (it[2] or "") + " " + (it[3] or "") + " " + t[k:]
    d["id"] = "b%d" % i
    print(json.dumps(d, ensure_ascii=False))' "$EV"/*.jsonl > "$W/in.jsonl"
awk -v k="$(( $(wc -l < "$W/in.jsonl") / SUB ))" 'NR % k == 1' "$W/in.jsonl" > "$W/sub.jsonl"  # a sample of every part
size=$(stat -c %s "$W/in.jsonl"); sub=$(stat -c %s "$W/sub.jsonl")
echo "input: $(wc -l < "$W/in.jsonl") documents, $((size / 1000000)) MB (data/corpus, 2 % with an evaluation item planted); peers on a sample of $(wc -l < "$W/sub.jsonl") ($((sub / 1000000)) MB); ratios of MB/s per thread"
for mode in cut drop; do
  /usr/bin/time -o "$W/time" -f '%e %M' "$BIN/decontaminate" -q --mode $mode --eval "$EV" "$W/in.jsonl" -o /dev/null
  read -r t m < "$W/time"
  /usr/bin/time -o "$W/time" -f '%e %M' "$BIN/decontaminate" -q --mode $mode --eval "$EV" "$W/sub.jsonl" -o /dev/null
  read -r ts _ < "$W/time"
  peer=$("$PY" bench/bench_decont.py $mode "$W/sub.jsonl" "$EV"/*.jsonl 2>/dev/null)
  pt=${peer#* }
  awk -v mode=$mode -v t="$t" -v m="$m" -v s="$size" -v ts="$ts" -v subb="$sub" -v pt="$pt" -v peer="${peer% *}" 'BEGIN {
    printf "--mode %-4s ours %6.2f s %7.1f MB/s (all), %6.2f s %7.1f MB/s (sample), peak %d MB; %s %7.2f s %6.2f MB/s: %.0fx\n",
      mode, t, s / 1e6 / t, ts, subb / 1e6 / ts, m / 1024, peer, pt, subb / 1e6 / pt, (s / 1e6 / t) / (subb / 1e6 / pt) }'
done

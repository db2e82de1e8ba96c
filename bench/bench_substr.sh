#!/usr/bin/env bash
# bench_substr.sh - substr_dedup (exact-substring deduplication) on the corpora of
# data/corpus: the whole tool's MB of input per second and per thread, peak RSS and
# bytes of memory per byte of input (GNU time), with the suffix array built by libsais
# (ours: one thread and every core; bytes and GPT-2 tokens) beside the same scan with the
# suffix array built by libdivsufsort (Debian's libdivsufsort, one thread, bytes: it
# sorts bytes only), in the same run; the spans found are the same (checked here too); and
# in 4 shards with the cross-shard pass (the same output, checked; memory a shard's).
# REPEAT: the corpora concatenated that many times (default 1; 2 makes every document
# a repeat of an earlier one).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}; REPEAT=${REPEAT:-1}
W=$(mktemp -d /tmp/bench_substr.XXXXXX); trap 'rm -rf "$W"' EXIT
for i in $(seq "$REPEAT"); do zstd -dc data/corpus/*.jsonl.zst; done > "$W/in.jsonl"
size=$(stat -c %s "$W/in.jsonl"); lines=$(wc -l < "$W/in.jsonl")
echo "input: $lines documents, $((size / 1000000)) MB of JSON lines (data/corpus x $REPEAT), $(nproc) cores"
run() { # label, threads, command...: best of 2 (the first also warms the page cache)
  local label=$1 th=$2 best="" i r; shift 2
  for i in 1 2; do
    /usr/bin/time -o "$W/time" -f '%e %M' "$@" 2> "$W/err" > /dev/null ||
      { echo "bench_substr: '$*' failed: $(tail -2 "$W/err")" >&2; exit 1; }
    r=$(tail -1 "$W/time")
    if [ -z "$best" ] || awk -v a="${r% *}" -v b="${best% *}" 'BEGIN{exit !(a<b)}'; then best=$r; fi
  done
  awk -v l="$label" -v t="${best% *}" -v m="${best#* }" -v s="$size" -v th="$th" 'BEGIN {
    printf "%-44s %7.2f s %7.1f MB/s %7.1f MB/s/thread %7d MB %5.2f B/B\n", l, t, s / 1e6 / t, s / 1e6 / t / th, m / 1024, m * 1024 / s }'
  echo "${best% *}" > "$W/t_$(echo "$label" | tr -c 'a-z0-9' _)"
}
printf '%-44s %9s %12s %19s %10s %7s\n' run time rate "per thread" "peak RSS" "memory" >&2
n=$(nproc)
run "ours, tokens, libsais, 1 thread" 1 "$BIN/substr_dedup" -q -j 1 "$W/in.jsonl" -o "$W/tok1.jsonl"
run "ours, tokens, libsais, $n threads" "$n" "$BIN/substr_dedup" -q -j "$n" "$W/in.jsonl" -o "$W/tokn.jsonl"
run "ours, bytes, libsais, 1 thread" 1 "$BIN/substr_dedup" -q -j 1 --unit bytes "$W/in.jsonl" -o "$W/b1.jsonl" --spans "$W/b1.spans"
run "the same scan, bytes, libdivsufsort, 1 thread" 1 "$BIN/substr_dedup" -q --unit bytes --sa-builder divsufsort \
  "$W/in.jsonl" -o "$W/d1.jsonl" --spans "$W/d1.spans"
run "ours, tokens, 4 shards, 1 thread" 1 "$BIN/substr_dedup" -q -j 1 --shards 4 "$W/in.jsonl" -o "$W/sh4.jsonl"
cmp -s "$W/tok1.jsonl" "$W/sh4.jsonl" && echo "shards: 4 suffix arrays and the cross-shard pass give what one gives" ||
  { echo "bench_substr: --shards 4 differs from one suffix array" >&2; exit 1; }
"$BIN/substr_dedup" -j 1 --shards 4 "$W/in.jsonl" -o /dev/null 2>&1 | grep -E '^substr_dedup: (shard|cross)|shards \(' | sed 's/^ */  /'
cmp -s "$W/b1.spans" "$W/d1.spans" && echo "spans: the same with either suffix array ($(wc -l < "$W/b1.spans") spans in bytes)" ||
  { echo "bench_substr: the spans differ between libsais and libdivsufsort" >&2; exit 1; }
cmp -s "$W/tok1.jsonl" "$W/tokn.jsonl" || { echo "bench_substr: 1 and $n threads differ" >&2; exit 1; }
"$BIN/substr_dedup" -j 1 --unit bytes "$W/in.jsonl" -o /dev/null 2>&1 | grep 'suffix array' | sed 's/^ */ours, bytes: /'
"$BIN/substr_dedup" --unit bytes --sa-builder divsufsort "$W/in.jsonl" -o /dev/null 2>&1 | grep 'suffix array' |
  sed 's/^ */libdivsufsort, bytes: /'
awk -v a="$(cat "$W"/t_the_same_scan*)" -v b="$(cat "$W"/t_ours__bytes__libsais__1*)" \
  'BEGIN { printf "whole tool, bytes, one thread: libsais %.2fx the libdivsufsort run\n", a / b }'

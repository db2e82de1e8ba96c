#!/usr/bin/env bash
# bench_shuffle.sh - our shuffle vs GNU shuf on the same file, same run:
# wall time and peak memory (GNU time), in memory and out of core.
# Input: the two corpora of data/corpus decompressed and concatenated REPEAT times.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}; REPEAT=${REPEAT:-2}
W=$(mktemp -d /tmp/bench_shuffle.XXXXXX); trap 'rm -rf "$W"' EXIT
for i in $(seq "$REPEAT"); do zstd -dc data/corpus/*.jsonl.zst; done > "$W/in.jsonl"
size=$(stat -c %s "$W/in.jsonl"); lines=$(wc -l < "$W/in.jsonl")
echo "input: $lines lines, $((size / 1000000)) MB (data/corpus x $REPEAT), $(nproc) cores"
run() { # label, command...
  local label=$1 t; shift
  local best="" i r
  for i in 1 2 3; do # best of 3: the first run also warms the page cache
    r=$( { /usr/bin/time -f '%e %M' "$@" > /dev/null; } 2>&1 | tail -1 )
    case "$r" in *[!0-9.\ ]*|"") echo "bench_shuffle: '$*' failed: $r" >&2; exit 1;; esac
    if [ -z "$best" ] || awk -v a="${r% *}" -v b="${best% *}" 'BEGIN{exit !(a<b)}'; then best=$r; fi
  done
  t=$best
  printf '%-34s %8.2f s %8d MB\n' "$label" "${t% *}" "$(( ${t#* } / 1024 ))" >&2
  echo "${t% *}"
}
printf '%-34s %10s %11s\n' tool time "peak RSS" >&2
t_shuf=$(run "GNU shuf" shuf "$W/in.jsonl")
t_mem=$(run "shuffle (in memory, --memory 4G)" "$BIN/shuffle" -q --memory 4G "$W/in.jsonl")
t_ext=$(run "shuffle (out of core, --memory 64M)" "$BIN/shuffle" -q --memory 64M -T "$W" "$W/in.jsonl")
zstd -q -1 -c "$W/in.jsonl" > "$W/in.jsonl.zst"
t_zst=$(run "shuffle (.zst in and out, --memory 4G)" "$BIN/shuffle" -q --memory 4G "$W/in.jsonl.zst" -o "$W/out.jsonl.zst")
awk -v a="$t_shuf" -v b="$t_mem" -v c="$t_ext" 'BEGIN{printf "speed-up vs GNU shuf: in memory %.2fx, out of core %.2fx\n", a/b, a/c}'

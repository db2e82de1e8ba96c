#!/usr/bin/env bash
# bench_blacklist_urls.sh - our blacklist_urls vs the reference logic of
# Megatron's blacklist_urls.py (Python + tldextract, tests/golden/make_url_golden.py)
# on the same URL list, same run; also checks the two agree line for line.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}; COPIES=${COPIES:-200}
. bench/bench_lib.sh; bench_python bench_blacklist_urls tldextract
W=$(mktemp -d /tmp/bench_bl.XXXXXX); trap 'rm -rf "$W"' EXIT
# Real URLs made distinct by a query parameter (so duplicates stay rare).
awk -v n="$COPIES" '{ u[NR]=$0 } END { for (c=0; c<n; c++) for (i=1; i<=NR; i++) print u[i] (index(u[i],"?") ? "&" : "?") "c=" c }' tests/fixtures/urls/reddit_2005_urls.txt > "$W/urls.txt"
echo "input: $(wc -l < "$W/urls.txt") URLs ($((COPIES)) variants of the 1182 reddit 2005 URLs)"
s=$(date +%s.%N); "$PY" tests/golden/make_url_golden.py "$W/urls.txt" > "$W/ref.tsv"; e=$(date +%s.%N)
t_ref=$(echo "$e - $s" | bc)
s=$(date +%s.%N); "$BIN/blacklist_urls" -q "$W/urls.txt" --rejected "$W/rej.tsv" > "$W/kept.txt"; e=$(date +%s.%N)
t_ours=$(echo "$e - $s" | bc)
same=yes
awk -F'\t' '$1=="kept"{print $2}' "$W/ref.tsv" | cmp -s - "$W/kept.txt" || same=NO
printf 'reference (Python + tldextract): %7.2f s\nblacklist_urls:                  %7.2f s\n' "$t_ref" "$t_ours"
awk -v a="$t_ref" -v b="$t_ours" -v n="$(wc -l < "$W/urls.txt")" 'BEGIN{printf "speed-up: %.1fx (%.0f URLs/s vs %.0f URLs/s)\n", a/b, n/b, n/a}'
echo "same kept URLs as the reference: $same"
[ "$same" = yes ]

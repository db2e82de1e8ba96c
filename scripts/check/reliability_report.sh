#!/usr/bin/env bash
# reliability_report.sh [DIR] - the reliability table (markdown) from the
# tables that scripts/check/reliability.sh (DIR, default build/reliability) and
# scripts/check/fuzz_campaign.sh (build/fuzz/campaign/table.txt) leave behind.
set -u
cd "$(dirname "$0")/../.."
R=${1:-build/reliability}
F=build/fuzz/campaign/table.txt
get() { [ -f "$1" ] && awk -v t="$2" '$1 == t' "$1"; }
echo "| tool | kill -9 points (I/O calls per run) | I/O faults injected: runs, failed cleanly (exit 3), survived | ulimit -v runs: exit 4, loader, finished at |"
echo "|---|---|---|---|"
for t in preprocess_data merge_datasets cleanup shuffle shuffle_ooc minhash find_duplicates group_duplicates \
         remove_duplicates blacklist_urls tokenize train_bpe convert_checkpoint train; do
  c=$(get "$R/crash.txt" "$t"); f=$(get "$R/faults.txt" "$t"); m=$(get "$R/memory.txt" "$t")
  cs=-; [ -n "$c" ] && cs=$(echo "$c" | awk '{ printf "%d (%d)", $2, $3 }')
  fs=-; [ -n "$f" ] && fs=$(echo "$f" | awk '{ printf "%d: %d, %d", $2, $3, $4 }')
  ms=-; [ -n "$m" ] && ms=$(echo "$m" | awk '{ printf "%d: %d, %d, %s MB", $2, $4, $3, $5 }')
  echo "| $t | $cs | $fs | $ms |"
done
if [ -f "$F" ]; then
  echo
  echo "| fuzz target | executions | seconds | execs/s | corpus | result |"
  echo "|---|---|---|---|---|---|"
  tail -n +2 "$F" | awk '{ r = $6; for (i = 7; i <= NF; i++) r = r " " $i; printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, r }'
fi

#!/usr/bin/env bash
# fuzz_campaign.sh - the long fuzzing campaign behind `make fuzz`.
#
# Runs every libFuzzer target of build/fuzz (ASan + UBSan builds) for
# FUZZ_RUNS executions (default 10 million) or FUZZ_SECONDS seconds per
# target (default 0: no time cap), FUZZ_JOBS targets at a time (default 1),
# starting from its committed corpus tests/fuzz/corpus_NAME. Then prints a
# table: target, executions, seconds, executions/s, corpus units, result.
# A crash stops that target and leaves its reproducer in build/fuzz/crashes/.
# FUZZ_MERGE=1 afterwards minimises the grown corpus (libFuzzer -merge=1) back
# into tests/fuzz/corpus_NAME, for committing.
#   FUZZ_TARGETS="idx args" scripts/check/fuzz_campaign.sh   # some targets only
#   FUZZ_TABLE=FILE                                    # also write the table there
#   FUZZ_WORKDIR=DIR   work folder (default build/fuzz/campaign); a second
#                      campaign of the same target beside a first needs its own
set -u
cd "$(dirname "$0")/../.."
RUNS=${FUZZ_RUNS:-10000000}
SECS=${FUZZ_SECONDS:-0}
JOBS=${FUZZ_JOBS:-1}
TARGETS=${FUZZ_TARGETS:-$(ls build/fuzz/ 2>/dev/null | sed -n 's/^fuzz_//p' | grep -v '\.' | tr '\n' ' ')}
[ -n "$TARGETS" ] || { echo "fuzz_campaign: no targets in build/fuzz (make fuzz-bins)" >&2; exit 1; }
W=${FUZZ_WORKDIR:-build/fuzz/campaign}
mkdir -p "$W" build/fuzz/crashes

run_one() {
  local t=$1 bin=build/fuzz/fuzz_$1 corpus=tests/fuzz/corpus_$1
  rm -rf "$W/$t.corpus"; mkdir -p "$W/$t.corpus"
  local start=$SECONDS cap=()
  [ "$SECS" != 0 ] && cap=(-max_total_time="$SECS")
  "$bin" -runs="$RUNS" "${cap[@]}" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix=build/fuzz/crashes/"$t"- "$W/$t.corpus" "$corpus" > "$W/$t.log" 2>&1
  local rc=$? el=$((SECONDS - start))
  local execs; execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$W/$t.log" | grep -o '[0-9]*$' | tail -1)
  local units; units=$(ls "$W/$t.corpus" | wc -l)
  local res=ok; [ $rc = 0 ] || res="CRASH: $(grep -m1 -oE 'ERROR: [A-Za-z]+: [a-z-]+' "$W/$t.log") ($(ls -t build/fuzz/crashes/"$t"-* 2>/dev/null | head -1))"
  echo "$t ${execs:-0} $el $(( ${execs:-0} / (el > 0 ? el : 1) )) $(( units + $(ls "$corpus" | wc -l) )) $res" > "$W/$t.row"
  if [ "${FUZZ_MERGE:-0}" = 1 ] && [ $rc = 0 ]; then
    rm -rf "$W/$t.min"; mkdir -p "$W/$t.min"
    "$bin" -merge=1 -rss_limit_mb=2048 -timeout=10 "$W/$t.min" "$corpus" "$W/$t.corpus" >> "$W/$t.log" 2>&1 &&
      rm -rf "$corpus" && mv "$W/$t.min" "$corpus"
  fi
}

echo "fuzz_campaign: $(echo $TARGETS | wc -w) targets, $RUNS executions each$([ "$SECS" != 0 ] && echo " (at most ${SECS}s)"), $JOBS at a time; logs in $W" >&2
running=0
for t in $TARGETS; do
  [ -x "build/fuzz/fuzz_$t" ] || { echo "fuzz_campaign: build/fuzz/fuzz_$t missing" >&2; continue; }
  run_one "$t" &
  running=$((running + 1))
  if [ $running -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait
{
  printf '%-10s %12s %8s %9s %7s  %s\n' target executions seconds "execs/s" corpus result
  fail=0
  for t in $TARGETS; do
    [ -f "$W/$t.row" ] || continue
    read -r name execs el rate units res < "$W/$t.row"
    printf '%-10s %12s %8s %9s %7s  %s\n' "$name" "$execs" "$el" "$rate" "$units" "$res"
    case "$res" in ok) ;; *) fail=1 ;; esac
  done
} | tee "$W/table.txt" "${FUZZ_TABLE:-/dev/null}"
grep -q CRASH "$W"/*.row 2>/dev/null && exit 1
exit 0

#!/usr/bin/env bash
# reliability.sh - the full reliability campaign behind `make reliability`:
# test_crash.sh with CRASH_POINTS kill points per run (default 40, besides the
# last 8 calls), test_faults.sh with EIO, ENOSPC and short transfers at every
# I/O call, test_memory.sh, and test_pathological.sh with a 1 GB single-line
# document and 10 million tiny documents (PATHO_LONG_MB, PATHO_TINY_DOCS).
# Logs and tables go to build/reliability/; then scripts/check/reliability_report.sh
# prints the table docs/reliability.md shows (with the fuzz campaign's figures when
# `make fuzz` has run). Takes about an hour on 2 cores.
# RELIABILITY_STEPS="crash faults" runs some of the steps only.
set -u
cd "$(dirname "$0")/../.."
R=build/reliability
mkdir -p "$R"
export BIN=${BIN:-bin} TEST_TIER=rel
pass=0 failn=0
run_step() {
  local name=$1; shift
  echo "== $name" >&2
  local t0=$SECONDS
  env "$@" > "$R/$name.log" 2>&1
  local p f
  p=$(grep -c '^PASS' "$R/$name.log"); f=$(grep -c '^FAIL' "$R/$name.log")
  pass=$((pass + p)); failn=$((failn + f))
  echo "   $p passed, $f failed in $((SECONDS - t0)) s ($R/$name.log)" >&2
  grep '^FAIL' "$R/$name.log" | cut -c1-300 >&2
}
STEPS=${RELIABILITY_STEPS:-crash faults memory pathological}
step() {
  case " $STEPS " in *" $1 "*) run_step "$@" ;; *) echo "== $1: not in RELIABILITY_STEPS, skipped" >&2 ;; esac
}
step crash CRASH_POINTS="${CRASH_POINTS:-40}" CRASH_TRAIN_STEP=1 CRASH_TABLE="$R/crash.txt" bash tests/e2e/test_crash.sh
step faults FAULT_KINDS="${FAULT_KINDS:-eio enospc short}" FAULT_TABLE="$R/faults.txt" bash tests/e2e/test_faults.sh
step memory MEMORY_TABLE="$R/memory.txt" bash tests/e2e/test_memory.sh
step pathological PATHO_LONG_MB="${PATHO_LONG_MB:-1024}" PATHO_TINY_DOCS="${PATHO_TINY_DOCS:-10000000}" bash tests/e2e/test_pathological.sh
bash scripts/check/reliability_report.sh "$R"
echo "$pass passed, $failn failed"
[ "$failn" = 0 ]

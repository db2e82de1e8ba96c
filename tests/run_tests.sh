#!/usr/bin/env bash
# run_tests.sh - run unit tests, end-to-end tests and (briefly) fuzz targets;
# print every result and end with "N passed, N failed, N skipped".
# A check that cannot run here (a missing Python module, no libFuzzer) prints
# "SKIP name: why" and is counted as skipped, never as passed.
# Env: BIN (tools), BUILD (build dir with tests/), HAVE_FUZZ, FUZZ_SECONDS;
# REQUIRE_ALL=1 (set by .ci/run): a skipped check fails the run.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}; BUILD=${BUILD:-build/rel}; FUZZ_SECONDS=${FUZZ_SECONDS:-10}
export BIN ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
passed=0; failed=0; skipped=0; log=$(mktemp)
tally_log() { # NAME RC LOG: echo a finished check's PASS/FAIL/SKIP lines, count them; a crash is a failure
  local name=$1 rc=$2 lg=$3
  grep -E '^(PASS|FAIL|SKIP) |^  ' "$lg"
  local p f s; p=$(grep -c '^PASS ' "$lg"); f=$(grep -c '^FAIL ' "$lg"); s=$(grep -c '^SKIP ' "$lg")
  skipped=$((skipped + s))
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
    echo "FAIL $name: exited with status $rc"; tail -20 "$lg" | sed 's/^/    /'; f=1
  elif [ "$f" != 0 ]; then grep -vE '^(PASS|FAIL|SKIP) |^  ' "$lg" | tail -20 | sed 's/^/    /'
  fi
  passed=$((passed + p)); failed=$((failed + f))
}
tally() { # run a command and tally it
  local name=$1; shift
  "$@" > "$log" 2>&1; tally_log "$name" $? "$log"
}
# The end-to-end tests, E2E_JOBS at a time (default: the cores): the trainer's (test_train*:
# many ranks each, so never two of them at once) one after another on one worker, which then
# helps with the rest; the rest from one queue, the longest first (their seconds as measured
# in CI on 2 cores, release and sanitizer builds; a test not listed counts as short). Then,
# alone, those that time network reads. Each test's output is kept and printed in name order.
# E2E_JOBS=1: one after another.
e2e_cost() { # NAME: seconds in this tier, as measured
  local r s
  case $1 in
    test_train_dist) r=134 s=237;; test_train_precision) r=103 s=226;; test_crash) r=95 s=56;;
    test_faults) r=74 s=80;; test_quality) r=47 s=41;; test_train) r=42 s=63;; test_tokenizer) r=23 s=61;;
    test_tokfamilies) r=22 s=83;; test_memory) r=30 s=1;; test_pathological) r=16 s=20;;
    test_cld2_vendored) r=16 s=25;; test_shuffle) r=9 s=15;; test_convert) r=8 s=12;; test_cleanup) r=4 s=11;;
    test_dedup) r=2 s=8;; test_slurm) r=122 s=1;; test_evaluate) r=60 s=120;; test_substr_dedup) r=16 s=25;;
    test_decontaminate) r=13 s=15;; *) r=1 s=1;;
  esac
  if [ "${TEST_TIER:-rel}" = san ]; then echo "$s"; else echo "$r"; fi
}
e2e_one() { # TEST DIR: run one end-to-end test into DIR/NAME.{log,rc,s}
  local t=$1 d=$2 n t0=$SECONDS; n=$(basename "$t" .sh)
  bash "$t" > "$d/$n.log" 2>&1; echo $? > "$d/$n.rc"; echo $((SECONDS - t0)) > "$d/$n.s"
}
e2e_worker() { # DIR: take tests from DIR/queue (under DIR/lock) until it is empty
  local d=$1 t
  while t=$(flock "$d/lock" sh -c 't=$(head -n 1 "$1"); sed -i 1d "$1"; echo "$t"' _ "$d/queue") && [ -n "$t" ]; do
    e2e_one "$t" "$d"
  done
}
e2e_tests() {
  local d t n alone="" trainer="" jobs i; d=$(mktemp -d)
  : > "$d/queue.unsorted"
  for t in tests/e2e/test_*.sh; do
    case "$(basename "$t")" in
      test_download.sh) alone="$alone $t";;
      test_train*.sh) trainer="$trainer $t";;
      *) echo "$(e2e_cost "$(basename "$t" .sh)") $t" >> "$d/queue.unsorted";;
    esac
  done
  sort -k1,1nr -k2 "$d/queue.unsorted" | awk '{print $2}' > "$d/queue"; : > "$d/lock"
  jobs=${E2E_JOBS:-$(nproc 2>/dev/null || echo 1)}
  if [ "$jobs" -le 1 ]; then
    for t in $trainer; do e2e_one "$t" "$d"; done
    e2e_worker "$d"
  else
    ( for t in $trainer; do e2e_one "$t" "$d"; done; e2e_worker "$d" ) &
    for ((i = 1; i < jobs; i++)); do e2e_worker "$d" & done
    wait
  fi
  for t in $alone; do e2e_one "$t" "$d"; done
  for t in tests/e2e/test_*.sh; do
    n=$(basename "$t" .sh); echo "== $t"
    tally_log "$t" "$(cat "$d/$n.rc" 2>/dev/null || echo 1)" "$d/$n.log"; echo "   ($t: $(cat "$d/$n.s" 2>/dev/null) s)"
  done
  rm -rf "$d"
}
# The unit tests, as many at a time as there are cores (each into its own log), printed and
# counted in name order.
unit_tests() {
  local d t n jobs; d=$(mktemp -d); jobs=$(nproc 2>/dev/null || echo 1)
  for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && [ -f "$t" ] || continue
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n 2>/dev/null || true; done
    n=$(basename "$t"); ( "$t" > "$d/$n.log" 2>&1; echo $? > "$d/$n.rc" ) &
  done
  wait
  for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && [ -f "$t" ] || continue
    n=$(basename "$t"); echo "== $t"; tally_log "$t" "$(cat "$d/$n.rc" 2>/dev/null || echo 1)" "$d/$n.log"
  done
  rm -rf "$d"
}
# GPU checks (tests/gpu): without a GPU they print "SKIP gpu: ..." and are
# counted as skipped; REQUIRE_ALL does not fail on those (CI machines have no GPU).
gpu_tests() {
  for t in "$BUILD"/tests/gpu/test_*; do
    case "$t" in *.o|*.d) continue;; esac
    [ -x "$t" ] || continue; echo "== $t"; tally "$t" "$t"
  done
  for t in tests/gpu/test_*.sh; do echo "== $t"; tally "$t" bash "$t"; done
}
gpu_skipped() { grep -c '^SKIP gpu:' "$glog" 2>/dev/null || true; }
glog=$(mktemp)
mode=${1:-all}
times="" # the time of each part, printed before the summary
t0=$SECONDS
if [ "$mode" = "--gpu-only" ]; then
  gpu_tests > "$glog"; cat "$glog"
elif [ "${1:-}" != "--fuzz-only" ]; then
  unit_tests
  times="unit $((SECONDS - t0)) s"; t0=$SECONDS
  e2e_tests
  times="$times, end-to-end $((SECONDS - t0)) s"; t0=$SECONDS
  gpu_tests > "$glog"; cat "$glog"
fi
times="$times${times:+, }GPU $((SECONDS - t0)) s"; t0=$SECONDS
if [ "$mode" = "--gpu-only" ]; then
  :
elif [ "${HAVE_FUZZ:-no}" = yes ]; then
  # the targets run side by side, one per core (each is one thread); results in name order
  fdir=$(mktemp -d); jobs_max=$(nproc 2>/dev/null || echo 1); mkdir -p build/fuzz/crashes
  for f in build/fuzz/fuzz_*; do
    [ -x "$f" ] || continue
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n 2>/dev/null || true; done
    name=$(basename "$f"); corpus=tests/fuzz/corpus_${name#fuzz_}
    (
      work=$(mktemp -d)
      # a crash's input goes to build/fuzz/crashes/ (never the working directory: libFuzzer's default)
      "$f" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=2048 -timeout=10 -print_final_stats=0 \
        -artifact_prefix=build/fuzz/crashes/"${name#fuzz_}"- "$work" "$corpus" > "$fdir/$name.log" 2>&1
      echo $? > "$fdir/$name.rc"; rm -rf "$work"
    ) &
  done
  wait
  for f in build/fuzz/fuzz_*; do
    [ -x "$f" ] || continue
    name=$(basename "$f")
    echo "== $f (${FUZZ_SECONDS}s)"
    if [ "$(cat "$fdir/$name.rc" 2>/dev/null)" = 0 ]; then
      echo "PASS $name ($(grep -o 'DONE.*\|Done [0-9]* runs' "$fdir/$name.log" | tail -1))"; passed=$((passed + 1))
    else
      echo "FAIL $name"; grep -E 'ERROR|SUMMARY|Test unit written' "$fdir/$name.log" | head -5 | sed 's/^/    /'; failed=$((failed + 1))
    fi
  done
  rm -rf "$fdir"
elif [ "${HAVE_FUZZ:-no}" = san ]; then
  echo "(fuzz targets not rerun: they are ASan+UBSan builds already and run in the plain 'make test')"
else
  for f in tests/fuzz/fuzz_*.c; do
    echo "SKIP $(basename "$f" .c): clang with libFuzzer not found (scripts/setup/install_deps.sh --test installs it)"
    skipped=$((skipped + 1))
  done
fi
[ "$mode" != "--gpu-only" ] && times="$times, fuzz $((SECONDS - t0)) s"
echo "time: $times"
gskip=$(gpu_skipped); [ "$gskip" = 0 ] && gskip=
rm -f "$log" "$glog"
echo "$passed passed, $failed failed, $skipped skipped${gskip:+ ($gskip of them GPU checks: no GPU here; make test-gpu on one)}"
if [ "$failed" != 0 ]; then exit 1; fi
if [ $((skipped - ${gskip:-0})) != 0 ] && [ "${REQUIRE_ALL:-0}" = 1 ]; then
  echo "REQUIRE_ALL=1: $((skipped - ${gskip:-0})) check(s) could not run on this machine; that is a failure here" >&2
  exit 1
fi

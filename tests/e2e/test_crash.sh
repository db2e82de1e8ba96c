#!/usr/bin/env bash
# test_crash.sh - kill -9 every writing tool in the middle of a real run.
#
# A file changes on disk only at an I/O call, so killing a process just before
# its k-th I/O call, for k spread over the whole run and for each of its last
# calls (where outputs are fsynced, linked and renamed), covers every state a
# SIGKILL at a random moment can leave (WEBTEXT_FAULT=k:kill, common/fault.h).
# A few kills at random times of a longer run check that argument too.
#
# For each kill: an output is absent, or the old one, or byte-identical to a
# finished run's, never anything else; outputs of a group are never new beside
# old; with no older output there is no litter at all, and with one the only
# litter allowed is a temporary of the dead process, which the next run
# removes. Then a run without a kill finishes with the reference bytes. For
# train: `latest` always names a complete checkpoint and --load resumes from it
# to the same final checkpoint. Two processes writing one output at once leave
# one complete result.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/reliability_cases.sh"
export OMP_NUM_THREADS=2
KPOINTS=${CRASH_POINTS:-10}   # kill points spread over a run, besides its last LAST calls
LAST=${CRASH_LAST:-8}
# The sanitizer tier repeats a few kills only: a SIGKILL shows nothing more there.
[ "${TEST_TIER:-rel}" = san ] && KPOINTS=${CRASH_POINTS:-1} LAST=${CRASH_LAST:-2}
setup_inputs
host=$(hostname)

# litter DIR: entries that are neither outputs nor inputs (printed)
litter() {
  local d=$1 f
  (cd "$d" && find . -mindepth 1 \( -name '*tmp-*' -o -name '.*' \) -print 2>/dev/null | sed 's|^\./||')
}
# sums of the outputs of the current case in $1 (absent -> "-")
sums() {
  local d=$1 o f
  for o in $(echo "$OUTS" | tr '+' ' '); do
    if [ "${o%/}" != "$o" ]; then
      if [ -d "$d/$o" ]; then (cd "$d/$o" && find . -type f ! -name train_log.jsonl | sort | xargs -r sha256sum | sha256sum | cut -c1-16); else echo -; fi
    elif [ -f "$d/$o" ]; then sha256sum < "$d/$o" | cut -c1-16; else echo -; fi
  done
}
old_sums() { local o; for o in $(echo "$OUTS" | tr '+' ' '); do sha256sum < "$WORK/old.txt" | cut -c1-16; done; }
put_old() { local d=$1 o; for o in $(echo "$OUTS" | tr '+' ' '); do
    if [ "${o%/}" = "$o" ]; then mkdir -p "$(dirname "$d/$o")"; cp "$WORK/old.txt" "$d/$o"; fi; done; }
echo "an older output" > "$WORK/old.txt"

# check_state CASE POINT MODE: outputs each absent/old/new; a group is a prefix of new ones or all old
check_state() {
  local name=$1 k=$2 mode=$3
  local got; got=($(sums "$O")); local ref=($(cat "$WORK/$name.ref")); local old=($(old_sums))
  local i n=${#ref[@]} bad="" seen_old=0 seen_new=0 seen_absent=0
  for ((i = 0; i < n; i++)); do
    if [ "${got[$i]}" = "${ref[$i]}" ]; then
      [ $seen_absent = 1 ] || [ $seen_old = 1 ] && [ "$mode" = fresh ] && bad="new output after a missing one"
      seen_new=1
    elif [ "${got[$i]}" = - ]; then seen_absent=1
    elif [ "$mode" = old ] && [ "${got[$i]}" = "${old[$i]}" ]; then
      [ $seen_new = 1 ] && bad="an old output beside a new one of its group"
      seen_old=1
    else bad="output $((i + 1)) is neither absent, old nor complete (${got[$i]})"; fi
  done
  if [ $n -gt 1 ] && [ $seen_new = 1 ] && [ $seen_old = 1 ]; then bad="new and old outputs of one group"; fi
  echo "$bad"
}

crash_case() {
  local name=$1; "case_$name"
  O=$WORK/run_$name; rm -rf "$O"; mkdir -p "$O"
  (cd "$O" && WEBTEXT_FAULT_COUNT="$WORK/count" bash -c "$CMD" >/dev/null 2>"$WORK/err") ||
    { fail "crash_$name" "reference run failed: $(head -c 300 "$WORK/err")"; return; }
  sums "$O" > "$WORK/$name.ref"
  local N; N=$(cat "$WORK/count")
  local points k i
  points=$( { for ((i = 1; i <= KPOINTS; i++)); do echo $(( (N * i + KPOINTS) / (KPOINTS + 1) )); done
              for ((k = N - LAST + 1; k <= N; k++)); do echo $k; done; } | awk '$1 >= 1' | sort -n | uniq)
  local tried=0 problems="" mode bad l
  for mode in fresh old; do
    for k in $points; do
      rm -rf "$O"; mkdir -p "$O"
      [ $mode = old ] && put_old "$O"
      (cd "$O" && WEBTEXT_FAULT=$k:kill bash -c "$CMD" >/dev/null 2>"$WORK/err") 2>/dev/null
      tried=$((tried + 1))
      bad=$(check_state "$name" "$k" "$mode")
      l=$(litter "$O")
      if [ -n "$l" ]; then
        if [ $mode = fresh ] && [ "$name" != train ] && [ "$name" != convert_checkpoint ]; then bad="${bad:+$bad; }litter after a kill: $l"
        else # only temporaries of a dead process of this host, which the next run removes
          local f pid
          for f in $l; do pid=$(echo "$f" | sed -n 's/.*tmp-\([0-9]*\).*/\1/p')
            if [ -z "$pid" ] || kill -0 "$pid" 2>/dev/null; then bad="${bad:+$bad; }unexpected litter: $f"; fi; done
        fi
      fi
      if [ "$mode" = old ] || [ -n "$l" ]; then # the next run cleans up and completes
        (cd "$O" && bash -c "$CMD" >/dev/null 2>"$WORK/err") || bad="${bad:+$bad; }the run after a kill failed: $(head -c 200 "$WORK/err")"
        [ "$(sums "$O")" = "$(cat "$WORK/$name.ref")" ] || bad="${bad:+$bad; }the run after a kill gave other bytes"
        [ -z "$(litter "$O")" ] || bad="${bad:+$bad; }litter left after the next run: $(litter "$O")"
      fi
      [ -n "$bad" ] && problems="$problems [kill at call $k/$N, $mode outputs: $bad]"
    done
  done
  if [ -z "$problems" ]; then pass "crash_$name ($tried kills over $N I/O calls)"
  else fail "crash_$name" "$problems"; fi
  echo "$name $tried $N" >> "$WORK/crash_table"
}

for c in $CASES; do [ "$c" = train ] || crash_case "$c"; done

# --- train: killed at every I/O call of a checkpoint save (and spread over the run)
case_train; O=$WORK/run_train
rm -rf "$O"; mkdir -p "$O"
(cd "$O" && WEBTEXT_FAULT_COUNT="$WORK/count" bash -c "$CMD" >/dev/null 2>"$WORK/err") || fail crash_train "reference: $(head -c 300 "$WORK/err")"
cp -r "$O/ck" "$WORK/ck_ref"; N=$(cat "$WORK/count")
# the save's I/O calls: from the last read of the data to the end; kill at each
tried=0; problems=""
# every call in `make reliability` (CRASH_TRAIN_STEP=1), every 3rd in make test
TSTEP=${CRASH_TRAIN_STEP:-3}; [ "${TEST_TIER:-rel}" = san ] && TSTEP=${CRASH_TRAIN_STEP:-25}
for ((k = 1; k <= N; k += TSTEP)); do
  rm -rf "$O"; mkdir -p "$O"
  (cd "$O" && WEBTEXT_FAULT=$k:kill bash -c "$CMD" >/dev/null 2>"$WORK/err") 2>/dev/null; rc=$?
  tried=$((tried + 1)); bad=""
  if [ -f "$O/ck/latest_checkpointed_iteration.txt" ]; then
    it=$(cat "$O/ck/latest_checkpointed_iteration.txt"); d=$(printf 'iter_%07d' "$it")
    cmp -s "$O/ck/$d/model.ckpt" "$WORK/ck_ref/$d/model.ckpt" || bad="latest names $d, which is not complete"
  fi
  if [ $rc != 0 ]; then # resume from whatever is there, to the end
    (cd "$O" && bash -c "$CMD --load ck" >/dev/null 2>"$WORK/err") || bad="${bad:+$bad; }resume failed: $(head -c 200 "$WORK/err")"
    cmp -s "$O/ck/iter_0000004/model.ckpt" "$WORK/ck_ref/iter_0000004/model.ckpt" || bad="${bad:+$bad; }resumed run ends elsewhere"
    l=$(litter "$O/ck"); [ -z "$l" ] || bad="${bad:+$bad; }litter after resume: $l"
  fi
  [ -n "$bad" ] && problems="$problems [kill at call $k/$N: $bad]"
done
if [ -z "$problems" ]; then pass "crash_train_checkpoint ($tried kills over its $N I/O calls; latest always complete, resumes bit-identically)"
else fail crash_train_checkpoint "$problems"; fi
echo "train $tried $N" >> "$WORK/crash_table"

# --- kills at random times of a longer run (the I/O-boundary argument, checked),
# and concurrent writers: release tier only (the sanitizer build adds nothing to them)
if [ "${TEST_TIER:-rel}" != san ]; then
zstd -dc "$ROOT/data/corpus/enwiki_sample.jsonl.zst" 2>/dev/null | head -c 40000000 > "$WORK/big.jsonl"
B=$WORK/rand; mkdir -p "$B"
t0=$(date +%s%N); "$BIN/preprocess_data" --input "$WORK/big.jsonl" --output-prefix "$B/ref" --workers 2 >/dev/null 2>&1
T=$(( ($(date +%s%N) - t0) / 1000000 )); bad=""
for i in 1 2 3 4 5 6; do
  rm -f "$B"/out*; ms=$(( (RANDOM % (T > 10 ? T : 10)) ))
  "$BIN/preprocess_data" --input "$WORK/big.jsonl" --output-prefix "$B/out" --workers 2 >/dev/null 2>&1 & p=$!
  sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"; kill -9 $p 2>/dev/null; wait $p 2>/dev/null
  for x in bin idx; do [ ! -e "$B/out_text_document.$x" ] || cmp -s "$B/out_text_document.$x" "$B/ref_text_document.$x" ||
    bad="$bad out.$x incomplete after a kill at ${ms} ms"; done
  [ -z "$(litter "$B")" ] || bad="$bad litter: $(litter "$B")"
done
[ -z "$bad" ] && pass "crash_random_times (6 kills of a ${T} ms preprocess_data run)" || fail crash_random_times "$bad"

# --- two processes writing the same output at once: one complete result
C=$WORK/conc; mkdir -p "$C"
head -n 2000 "$WORK/big.jsonl" > "$WORK/c1.jsonl"; tail -n 2000 "$WORK/big.jsonl" > "$WORK/c2.jsonl"
"$BIN/preprocess_data" --input "$WORK/c1.jsonl" --output-prefix "$C/r1" --workers 1 >/dev/null 2>&1
"$BIN/preprocess_data" --input "$WORK/c2.jsonl" --output-prefix "$C/r2" --workers 1 >/dev/null 2>&1
bad=""
for i in 1 2 3 4 5; do
  "$BIN/preprocess_data" --input "$WORK/c1.jsonl" --output-prefix "$C/o" --workers 1 >/dev/null 2>&1 & p1=$!
  "$BIN/preprocess_data" --input "$WORK/c2.jsonl" --output-prefix "$C/o" --workers 1 >/dev/null 2>&1 & p2=$!
  wait $p1 || bad="$bad first exit $?"; wait $p2 || bad="$bad second exit $?"
  if { cmp -s "$C/o_text_document.bin" "$C/r1_text_document.bin" && cmp -s "$C/o_text_document.idx" "$C/r1_text_document.idx"; } ||
     { cmp -s "$C/o_text_document.bin" "$C/r2_text_document.bin" && cmp -s "$C/o_text_document.idx" "$C/r2_text_document.idx"; }; then :
  else bad="$bad round $i: the .bin/.idx pair is a mix or incomplete"; fi
  [ -z "$(litter "$C")" ] || bad="$bad litter: $(litter "$C")"
done
[ -z "$bad" ] && pass "concurrent_writers (5 rounds of two preprocess_data on one output prefix)" || fail concurrent_writers "$bad"
fi

# --- where O_TMPFILE is missing: named temporaries, and the next run removes a dead process's
export WEBTEXT_NO_TMPFILE=1
case_cleanup; O=$WORK/notmp; mkdir -p "$O"
(cd "$O" && WEBTEXT_FAULT_COUNT="$WORK/count" bash -c "$CMD" >/dev/null 2>&1); rm -f "$O"/*.jsonl
# the next-to-last call is the first rename: both named temporaries exist then
(cd "$O" && WEBTEXT_FAULT=$(( $(cat "$WORK/count") - 1 )):kill bash -c "$CMD" >/dev/null 2>&1) 2>/dev/null
l1=$(litter "$O")
(cd "$O" && bash -c "$CMD" >/dev/null 2>&1)
l2=$(litter "$O")
if [ -n "$l1" ] && [ -z "$l2" ]; then pass "stale_tmp_removed (named temporaries: $l1 removed by the next run)"
else fail stale_tmp_removed "after the kill: '$l1'; after the next run: '$l2'"; fi
unset WEBTEXT_NO_TMPFILE
# a temporary of a live process, or of another host, is left alone
sleep 30 & live=$!
touch "$O/.kept.jsonl.tmp-$live-0@$host" "$O/.kept.jsonl.tmp-999999-0@another-host"
(cd "$O" && bash -c "$CMD" >/dev/null 2>&1)
[ -e "$O/.kept.jsonl.tmp-$live-0@$host" ] && [ -e "$O/.kept.jsonl.tmp-999999-0@another-host" ] &&
  pass stale_tmp_spares_live_and_remote || fail stale_tmp_spares_live_and_remote "$(ls -A "$O")"
kill $live 2>/dev/null
[ -n "${CRASH_TABLE:-}" ] && cp "$WORK/crash_table" "$CRASH_TABLE"
true

#!/usr/bin/env bash
# test_faults.sh - an I/O fault at every I/O call of every writing tool.
#
# For each tool of reliability_cases.sh and each kind of fault (EIO, ENOSPC, a
# short read or write), the tool is run with the fault at its 1st, 2nd, ...
# I/O call (WEBTEXT_FAULT=k:KIND, common/fault.h) until a run finishes without
# reaching the fault. Each run must either end with exit 3 (I/O error), a
# message from the tool besides the injection's own line, nothing under its
# output names and no temporary left; or succeed with the reference bytes (a
# fault the tool may survive, such as a short transfer). Under `make test
# SAN=1` the same loop runs on the sanitizer build, so that no error path
# leaks (LeakSanitizer fails the run) or touches freed memory.
# FAULT_STRIDE=S tries every S-th call only (1, the default: every call).
# FAULT_KINDS: `make test` tries eio (at every 3rd call in the sanitizer tier,
# where the leaks are); `make reliability` all three kinds at every call.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/reliability_cases.sh"
export OMP_NUM_THREADS=2
STRIDE=${FAULT_STRIDE:-1}
# make test: EIO at every call (every 3rd under the sanitizers); make reliability: all three kinds
KINDS=${FAULT_KINDS:-eio}
[ "${TEST_TIER:-rel}" = san ] && STRIDE=${FAULT_STRIDE:-3}
setup_inputs

outs_present() { local o f=""; for o in $(echo "$OUTS" | tr '+' ' '); do [ -e "$O/${o%/}" ] && f="$f ${o%/}"; done; echo "$f"; }
sums() { local o; for o in $(echo "$OUTS" | tr '+' ' '); do
  if [ -d "$O/$o" ]; then (cd "$O/$o" && find . -type f ! -name train_log.jsonl | sort | xargs -r sha256sum | sha256sum | cut -c1-16)
  elif [ -f "$O/$o" ]; then sha256sum < "$O/$o" | cut -c1-16; else echo -; fi; done; }
litter() { (cd "$O" && find . -mindepth 1 \( -name '*tmp-*' -o -name '.*' \) -print 2>/dev/null); }

fault_case() {
  local name=$1; "case_$name"
  O=$WORK/f_$name; rm -rf "$O"; mkdir -p "$O"
  (cd "$O" && bash -c "$CMD" >/dev/null 2>"$WORK/err") || { fail "faults_$name" "reference run failed: $(head -c 300 "$WORK/err")"; return; }
  local ref; ref=$(sums)
  [ "$name" = train ] && { rm -rf "$WORK/train_ref"; cp -r "$O/ck" "$WORK/train_ref"; }
  local kind k runs=0 failed=0 survived=0 problems="" rc bad
  for kind in $KINDS; do
    k=1
    while :; do
      rm -rf "$O"; mkdir -p "$O"
      (cd "$O" && WEBTEXT_FAULT=$k:$kind bash -c "$CMD" >/dev/null 2>"$WORK/err"); rc=$?
      runs=$((runs + 1)); bad=""
      if ! grep -q '^fault injection:' "$WORK/err"; then
        # past the last I/O call: a clean run
        [ $rc = 0 ] && [ "$(sums)" = "$ref" ] || bad="the run past the last fault failed (exit $rc): $(head -c 200 "$WORK/err")"
        [ -n "$bad" ] && problems="$problems [$kind@$k: $bad]"
        break
      fi
      if [ $rc = 0 ]; then
        survived=$((survived + 1))
        [ "$(sums)" = "$ref" ] || bad="exit 0 but other bytes"
      else
        failed=$((failed + 1))
        [ $rc = 3 ] || bad="exit $rc, wanted 3"
        grep -v '^fault injection:' "$WORK/err" | grep -qE '[a-z_]+: .+' || bad="${bad:+$bad; }no message"
        [ $kind = short ] && bad="${bad:+$bad; }a short transfer made it fail: $(grep -v '^fault' "$WORK/err" | head -c 200)"
        if [ "$name" = train ]; then # the save directory stays; 'latest' names a complete checkpoint or is absent
          if [ -f "$O/ck/latest_checkpointed_iteration.txt" ]; then
            local d; d=$(printf 'iter_%07d' "$(cat "$O/ck/latest_checkpointed_iteration.txt")")
            cmp -s "$O/ck/$d/model.ckpt" "$WORK/train_ref/$d/model.ckpt" || bad="${bad:+$bad; }latest names an incomplete $d"
          fi
        else
          [ -z "$(outs_present)" ] || bad="${bad:+$bad; }left under the final name:$(outs_present)"
        fi
      fi
      [ -z "$(litter)" ] || bad="${bad:+$bad; }litter: $(litter | tr '\n' ' ')"
      [ -n "$bad" ] && problems="$problems [$kind@$k: $bad; stderr: $(grep -v '^fault' "$WORK/err" | head -c 160)]"
      k=$((k + STRIDE))
    done
  done
  if [ -z "$problems" ]; then pass "faults_$name ($(echo $KINDS | tr ' ' '+') at each I/O call: $runs runs, $failed failed cleanly with exit 3, $survived survived with the same bytes)"
  else fail "faults_$name" "$(echo "$problems" | head -c 3000)"; fi
  echo "$name $runs $failed $survived" >> "$WORK/fault_table"
}

for c in $CASES; do fault_case "$c"; done
[ -n "${FAULT_TABLE:-}" ] && cp "$WORK/fault_table" "$FAULT_TABLE"
true

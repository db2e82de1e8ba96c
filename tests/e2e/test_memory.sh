#!/usr/bin/env bash
# test_memory.sh - out of memory, and the tools that promise a memory bound.
#
# 1. Each writing tool of reliability_cases.sh runs under `ulimit -v` limits
#    from 8 MB up, doubling-ish, until a run succeeds. Each run must end with
#    exit 0 and the reference bytes, or exit 4 with a message and nothing under
#    the final names and no temporaries; never a signal, another exit status or
#    a partial output. A limit under which the dynamic loader cannot map the
#    tool's libraries at all (exit 127 before main, "error while loading shared
#    libraries") is counted apart: no code of ours runs there.
# 2. shuffle --memory M: the peak resident size (GNU time's %M) minus M stays
#    under a fixed overhead (the program, its I/O buffers and a zstd
#    compressor) and does not grow with the input.
# 3. find_duplicates: one band pass at a time, so the peak resident size is
#    the same for one band as for all of them, and beyond the mapped signature
#    files it stays under 64 bytes per document plus 16 per candidate pair.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/reliability_cases.sh"
export OMP_NUM_THREADS=2
if [ "${TEST_TIER:-rel}" = san ]; then # the sanitizers reserve terabytes of shadow address space
  echo "(memory checks not rerun: address-space limits and resident sizes are measured on the release build, in the plain 'make test')"
  exit 0
fi
LIMITS_MB=${MEMORY_LIMITS_MB:-"8 16 24 32 48 64 96 128 192 256 320 384 512 1024 2048"}
setup_inputs

outs_present() { local o f=""; for o in $(echo "$OUTS" | tr '+' ' '); do [ -e "$O/${o%/}" ] && f="$f ${o%/}"; done; echo "$f"; }
sums() { local o; for o in $(echo "$OUTS" | tr '+' ' '); do
  if [ -d "$O/$o" ]; then (cd "$O/$o" && find . -type f ! -name train_log.jsonl | sort | xargs -r sha256sum | sha256sum | cut -c1-16)
  elif [ -f "$O/$o" ]; then sha256sum < "$O/$o" | cut -c1-16; else echo -; fi; done; }
litter() { (cd "$O" && find . -mindepth 1 \( -name '*tmp-*' -o -name '.*' \) -print 2>/dev/null); }

memory_case() {
  local name=$1; "case_$name"
  O=$WORK/m_$name; rm -rf "$O"; mkdir -p "$O"
  (cd "$O" && bash -c "$CMD" >/dev/null 2>"$WORK/err") || { fail "memory_$name" "reference run failed: $(head -c 300 "$WORK/err")"; return; }
  local ref; ref=$(sums)
  local tool; tool=$(eval "set -- $CMD"; echo "$1")
  local mb rc bad problems="" runs=0 nomem=0 loader=0 ok_at=""
  for mb in $LIMITS_MB; do
    rm -rf "$O"; mkdir -p "$O"
    (cd "$O" && ulimit -v $((mb * 1024)) && bash -c "$CMD" >/dev/null 2>"$WORK/err"); rc=$?
    runs=$((runs + 1)); bad=""
    if [ $rc = 127 ] && grep -q 'error while loading shared libraries' "$WORK/err"; then
      loader=$((loader + 1)); continue
    fi
    if [ $rc = 0 ]; then
      [ "$(sums)" = "$ref" ] || bad="exit 0 but other bytes"
      ok_at=$mb
    elif [ $rc = 4 ]; then
      nomem=$((nomem + 1))
      grep -qiE 'out of memory|cannot allocate' "$WORK/err" || bad="exit 4 without an out-of-memory message"
      if [ "$name" = train ]; then
        # a checkpoint saved before the failure stays; 'latest' names a complete one or is absent
        if [ -f "$O/ck/latest_checkpointed_iteration.txt" ]; then
          local d; d=$(printf 'iter_%07d' "$(cat "$O/ck/latest_checkpointed_iteration.txt")")
          [ -f "$O/ck/$d/model.ckpt" ] || bad="${bad:+$bad; }latest names a missing $d"
        fi
      else
        [ -z "$(outs_present)" ] || bad="${bad:+$bad; }left under the final name:$(outs_present)"
      fi
    else
      bad="exit $rc, wanted 0 or 4"
    fi
    [ -z "$(litter)" ] || bad="${bad:+$bad; }litter: $(litter | tr '\n' ' ')"
    [ -n "$bad" ] && problems="$problems [${mb}MB: $bad; stderr: $(head -c 200 "$WORK/err")]"
    [ -n "$ok_at" ] && break
  done
  [ -n "$ok_at" ] || problems="$problems [no limit up to ${mb}MB let it finish]"
  if [ -z "$problems" ]; then
    pass "memory_$name (ulimit -v from 8 MB: $runs runs, $loader below the loader's need, $nomem exit 4 with a message, finished at ${ok_at} MB)"
  else fail "memory_$name" "$(echo "$problems" | head -c 3000)"; fi
  echo "$name $runs $loader $nomem $ok_at" >> "$WORK/memory_table"
}
for c in $CASES; do memory_case "$c"; done
[ -n "${MEMORY_TABLE:-}" ] && cp "$WORK/memory_table" "$MEMORY_TABLE"

# peak resident size in KB of a command (GNU time)
peak_kb() { /usr/bin/time -f '%M' -o "$WORK/peak" "$@" >/dev/null 2>"$WORK/err" || { echo "FAILED: $(head -c 200 "$WORK/err")"; return; }; tail -n 1 "$WORK/peak"; }

if [ ! -x /usr/bin/time ]; then
  skip memory_shuffle_bound "GNU time missing (scripts/setup/install_deps.sh --test installs it)"
  skip memory_find_duplicates_bound "GNU time missing (scripts/setup/install_deps.sh --test installs it)"
  exit 0
fi

# shuffle: 20 MB and 40 MB of real documents (ids made unique) under 1M .. 8M
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do
  sed "s/^{/{\"copy\": $i, /" "$IN/docs.jsonl"; done > "$WORK/s20.jsonl"
cat "$WORK/s20.jsonl" "$WORK/s20.jsonl" > "$WORK/s40.jsonl"
OVER_KB=8192 # the program and its libraries (~2 MB), I/O buffers, one zstd compressor (~3.5 MB)
problems=""; figs=""
for m in 1 4 8; do
  for out in s.jsonl s.jsonl.zst; do
    a=$(peak_kb "$BIN/shuffle" -q --seed 3 --memory ${m}M -T "$WORK" "$WORK/s20.jsonl" -o "$WORK/$out")
    b=$(peak_kb "$BIN/shuffle" -q --seed 3 --memory ${m}M -T "$WORK" "$WORK/s40.jsonl" -o "$WORK/$out")
    case "$a$b" in *FAILED*) problems="$problems [--memory ${m}M -o $out: $a $b]"; continue ;; esac
    figs="$figs ${m}M${out#s.jsonl}:$((a / 1024))/$((b / 1024))MB"
    [ $((a - m * 1024)) -le $OVER_KB ] || problems="$problems [--memory ${m}M -o $out: peak ${a} KB on 20 MB]"
    [ $((b - m * 1024)) -le $OVER_KB ] || problems="$problems [--memory ${m}M -o $out: peak ${b} KB on 40 MB]"
    [ $((b - a)) -le 1024 ] || problems="$problems [--memory ${m}M -o $out: peak grows with the input: $a -> $b KB]"
  done
done
rm -f "$WORK/s.jsonl" "$WORK/s.jsonl.zst"
if [ -z "$problems" ]; then pass "memory_shuffle_bound (peak RSS 20 MB/40 MB input:$figs; at most --memory + 8 MB)"
else fail memory_shuffle_bound "$problems"; fi

# find_duplicates: 20000 wikinews documents
zstd -dc "$ROOT/data/corpus/wikinews.jsonl.zst" | head -n 20000 > "$WORK/wn.jsonl"
"$BIN/minhash" -q "$WORK/wn.jsonl" -o "$WORK/s.mh" -j 2 2>/dev/null
n=$(wc -l < "$WORK/wn.jsonl")
sig_kb=$(( $(stat -c %s "$WORK/s.mh") / 1024 ))
all=$(peak_kb "$BIN/find_duplicates" -q "$WORK/s.mh" -o "$WORK/p.jsonl" -j 2)
cand=$(wc -l < "$WORK/p.jsonl")
one=$(peak_kb "$BIN/find_duplicates" -q "$WORK/s.mh" -o "$WORK/p1.jsonl" -j 2 --band-range 0:1)
problems=""
case "$all$one" in *FAILED*) problems="[$all $one]" ;; *)
  [ $((all - one)) -le 1024 ] || problems="$problems [all bands $all KB, one band $one KB: the passes do not reuse their memory]"
  bound=$((sig_kb + (n * 64 + cand * 16) / 1024 + OVER_KB))
  [ "$all" -le "$bound" ] || problems="$problems [peak $all KB > $bound KB (signatures $sig_kb KB + 64 B x $n documents + 16 B x $cand pairs + 8 MB)]" ;;
esac
if [ -z "$problems" ]; then pass "memory_find_duplicates_bound ($n documents, $cand pairs: peak $all KB all bands, $one KB one band, signatures $sig_kb KB)"
else fail memory_find_duplicates_bound "$problems"; fi

# find_duplicates over version 3 signature files (issue 66): a synthetic corpus of 124 MB of text
# with planted near-duplicate clusters (tests/tools/gen_dupcorpus.c), deduplicated in an address
# space of 64 MB (ulimit -v; --memory 8M, one thread): the same pairs as without a limit, and
# the band job's and the verification's resident sizes within --memory and a fixed overhead.
GEN=${BUILD:-$ROOT/build/rel}/tests/gen_dupcorpus
if [ ! -x "$GEN" ]; then fail memory_find_duplicates_v3 "$GEN missing (make test-bins builds it)"; else
  mkdir -p "$WORK/big"
  "$GEN" --bytes 120M --shards 3 --out "$WORK/big/c" 2>/dev/null
  for k in 0 1 2; do "$BIN/minhash" -q "$WORK/big/c.000$k.jsonl.zst" -o "$WORK/big/s$k.mh" -j 2; done
  "$BIN/find_duplicates" -q "$WORK"/big/s?.mh -o "$WORK/big/free.jsonl" -j 2
  text_mb=$(( $(for k in 0 1 2; do zstd -dc "$WORK/big/c.000$k.jsonl.zst"; done | wc -c) / 1000000 ))
  ( ulimit -v 65536; MALLOC_ARENA_MAX=1 "$BIN/find_duplicates" -q "$WORK"/big/s?.mh -o "$WORK/big/limited.jsonl" -j 1 \
      --memory 8M --work-dir "$WORK/big/w" ) 2> "$WORK/big/err"
  rc=$?
  b=$(peak_kb "$BIN/find_duplicates" -q "$WORK"/big/s?.mh --stage bands --band-range 0:8 --work-dir "$WORK/big/w2" --memory 8M -j 1)
  v=$(peak_kb "$BIN/find_duplicates" -q "$WORK"/big/s?.mh --stage bands --band-range 8:16 --work-dir "$WORK/big/w2" --memory 8M -j 1)
  v=$(peak_kb "$BIN/find_duplicates" -q "$WORK"/big/s?.mh --stage verify --work-dir "$WORK/big/w2" --memory 8M -j 1 -o "$WORK/big/v.jsonl")
  n=$(wc -l < "$WORK/big/free.jsonl")
  if [ $rc = 0 ] && cmp -s "$WORK/big/free.jsonl" "$WORK/big/limited.jsonl" && cmp -s "$WORK/big/free.jsonl" "$WORK/big/v.jsonl" &&
     [ "$n" -gt 10000 ] && [ "$b" -le $((8192 + OVER_KB)) ] && [ "$v" -le $((8192 + 16384 + OVER_KB)) ]; then
    pass "memory_find_duplicates_v3 ($text_mb MB of text in 64 MB of address space: $n pairs, the same; peak RSS band job $b KB, verification $v KB at --memory 8M)"
  else fail memory_find_duplicates_v3 "exit $rc, $n pairs, band job $b KB, verify $v KB: $(head -c 300 "$WORK/big/err")"; fi
  rm -rf "$WORK/big"
fi
true

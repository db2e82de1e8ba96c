#!/usr/bin/env bash
# End-to-end tests of bin/shuffle on the real corpus and bad input.
. "$(dirname "$0")/lib.sh"
S=$BIN/shuffle
CORPUS=$ROOT/data/corpus/wikinews.jsonl.zst

zstd -dc "$CORPUS" > "$WORK/in.jsonl"
"$S" -q --seed 7 "$WORK/in.jsonl" -o "$WORK/a.jsonl"
"$S" -q --seed 7 --memory 4M -T "$WORK" "$WORK/in.jsonl" -o "$WORK/b.jsonl"
"$S" -q --seed 7 --memory 256K -T "$WORK" < "$WORK/in.jsonl" > "$WORK/c.jsonl"
check same_output_whatever_memory cmp "$WORK/a.jsonl" "$WORK/b.jsonl"
check same_output_stdin_tiny_memory cmp "$WORK/a.jsonl" "$WORK/c.jsonl"
check is_permutation bash -c "cmp <(LC_ALL=C sort '$WORK/in.jsonl') <(LC_ALL=C sort '$WORK/a.jsonl')"
check order_changed bash -c "! cmp -s '$WORK/in.jsonl' '$WORK/a.jsonl'"
"$S" -q --seed 8 "$WORK/in.jsonl" -o "$WORK/d.jsonl"
check other_seed_other_order bash -c "! cmp -s '$WORK/a.jsonl' '$WORK/d.jsonl'"
"$S" -q --seed 7 "$CORPUS" -o "$WORK/a.jsonl.zst"
check zst_in_zst_out bash -c "zstd -dc '$WORK/a.jsonl.zst' | cmp - '$WORK/a.jsonl'"
"$S" --memory 4M -T "$WORK" "$WORK/in.jsonl" -o /dev/null 2> "$WORK/sum.txt"
if grep -q 'out of core' "$WORK/sum.txt"; then pass external_mode_reported; else fail external_mode_reported "$(cat "$WORK/sum.txt")"; fi
no_tmp_left "$WORK" no_bucket_files_left

# Two inputs are concatenated before shuffling.
head -1000 "$WORK/in.jsonl" > "$WORK/p1"; tail -n +1001 "$WORK/in.jsonl" > "$WORK/p2"
"$S" -q --seed 7 "$WORK/p1" "$WORK/p2" -o "$WORK/e.jsonl"
check multiple_inputs cmp "$WORK/a.jsonl" "$WORK/e.jsonl"

# Missing input, truncated .zst: clear errors, no output under the final name.
expect_exit missing_input 3 "$S" "$WORK/nope.jsonl" -o "$WORK/never.jsonl"
stderr_has missing_input_message "$WORK/nope.jsonl: cannot open"
check missing_input_no_output test ! -e "$WORK/never.jsonl"
head -c 2000000 "$CORPUS" > "$WORK/cut.zst"
expect_exit truncated_zst 1 "$S" "$WORK/cut.zst" -o "$WORK/never.jsonl"
stderr_has truncated_zst_message "cut.zst: truncated zstd stream"
check truncated_zst_no_output test ! -e "$WORK/never.jsonl"
no_tmp_left "$WORK" truncated_zst_no_tmp

# A 100 MB single line under a 1 MB bound, with a short line beside it.
{ head -c 100000000 /dev/zero | tr '\0' 'x'; printf '\nshort\n'; } > "$WORK/huge.txt"
"$S" -q --memory 1M -T "$WORK" "$WORK/huge.txt" -o "$WORK/huge.out"
check huge_line bash -c "cmp <(sort '$WORK/huge.txt' | md5sum) <(sort '$WORK/huge.out' | md5sum)"
rm -f "$WORK/huge.txt" "$WORK/huge.out"

# Edge inputs: empty, no final newline, binary garbage.
: > "$WORK/empty"; "$S" -q "$WORK/empty" -o "$WORK/empty.out"
check empty_input test ! -s "$WORK/empty.out"
printf 'a\nb\nc' | "$S" -q > "$WORK/nonl.out"
check final_newline_added bash -c "[ \$(wc -l < '$WORK/nonl.out') = 3 ] && sort '$WORK/nonl.out' | tr -d '\n' | grep -qx abc"
head -c 1000000 /dev/urandom > "$WORK/bin"
"$S" -q --memory 64K -T "$WORK" "$WORK/bin" -o "$WORK/bin.out"
check binary_garbage_permutation bash -c "cmp <(LC_ALL=C sort '$WORK/bin') <(LC_ALL=C sort '$WORK/bin.out')"

# Bad temporary directory when spilling; full disk; usage errors.
expect_exit bad_tmpdir 3 "$S" --memory 64K -T "$WORK/no/such/dir" "$WORK/in.jsonl" -o "$WORK/never.jsonl"
stderr_has bad_tmpdir_message "$WORK/no/such/dir"
expect_exit dev_full 3 "$S" "$WORK/p1" -o /dev/full
stderr_has dev_full_message "No space left on device"
IO_FAULT_ENOSPC_AFTER=100000 expect_exit simulated_full_disk 3 "$S" "$WORK/in.jsonl" -o "$WORK/full.jsonl"
check simulated_full_disk_no_output test ! -e "$WORK/full.jsonl"
expect_exit bad_memory_value 2 "$S" --memory lots "$WORK/p1"
stderr_has bad_memory_message "needs a size like 512M"
expect_exit help 0 "$S" --help

# SIGTERM while reading (output temp open) and after spilling to buckets:
# the tool is blocked on a pipe that stays open, so the signal always lands.
for mem in 1G 256K; do
  rm -rf "$WORK/sig"; mkdir -p "$WORK/sig"
  { head -3000 "$WORK/in.jsonl"; sleep 3; } | "$S" -q --memory $mem -T "$WORK/sig" -o "$WORK/sig/out.jsonl" &
  sleep 1; kill -TERM $! ; wait 2>/dev/null   # $!: the shuffle, last in the pipeline
  if [ -z "$(ls -A "$WORK/sig")" ]; then pass "sigterm_cleanup_memory_$mem"; else fail "sigterm_cleanup_memory_$mem" "left: $(ls -A "$WORK/sig")"; fi
done

#!/usr/bin/env bash
# End-to-end tests of bin/blacklist_urls on real fixtures and bad input.
. "$(dirname "$0")/lib.sh"
B=$BIN/blacklist_urls
U=$FIX/urls

# Golden comparisons with the reference logic (tests/golden/make_url_golden.py).
for f in reddit_2005 edge_cases; do
  src=$U/${f}_urls.txt; [ -f "$src" ] || src=$U/$f.txt
  "$B" -q "$src" --rejected "$WORK/rej.tsv" > "$WORK/kept.txt"
  if awk -F'\t' '$1=="kept"{print $2}' "$U/${f}_golden.tsv" | cmp -s - "$WORK/kept.txt"; then pass "golden_kept_$f"; else fail "golden_kept_$f" "kept URLs differ from the reference"; fi
  if awk -F'\t' '$1!="kept"{print $1"\t"$2}' "$U/${f}_golden.tsv" | cmp -s - <(cut -f1,3 "$WORK/rej.tsv"); then pass "golden_rejected_$f"; else fail "golden_rejected_$f" "rejections differ from the reference"; fi
done

# Summary: totals add up, reasons listed.
"$B" "$U/reddit_2005_urls.txt" -o "$WORK/k.txt" 2> "$WORK/sum.txt"
if grep -q '1182 URLs in: 1162 kept, 20 dropped (from 1 input)' "$WORK/sum.txt" && grep -qE '^  dropped domain +10 URLs$' "$WORK/sum.txt"; then pass summary_counts; else fail summary_counts "$(cat "$WORK/sum.txt")"; fi

# Compressed input (by content) and output (by suffix), stdin.
zstd -q -c "$U/reddit_2005_urls.txt" > "$WORK/u.zst"; gzip -c "$U/reddit_2005_urls.txt" > "$WORK/u.gz"
"$B" -q "$WORK/u.zst" > "$WORK/kz.txt"; "$B" -q < "$WORK/u.gz" > "$WORK/kg.txt"
check zst_input cmp "$WORK/k.txt" "$WORK/kz.txt"
check gz_stdin_input cmp "$WORK/k.txt" "$WORK/kg.txt"
"$B" -q "$U/reddit_2005_urls.txt" -o "$WORK/k.txt.zst"
check zst_output bash -c "zstd -dc '$WORK/k.txt.zst' | cmp - '$WORK/k.txt'"

# Directories: *.txt files in name order (Megatron's glob), others ignored.
mkdir -p "$WORK/d"; head -600 "$U/reddit_2005_urls.txt" > "$WORK/d/a.txt"; tail -n +601 "$U/reddit_2005_urls.txt" > "$WORK/d/b.txt"; echo junk > "$WORK/d/notes.md"
"$B" -q "$WORK/d" > "$WORK/kd.txt"
check directory_input cmp "$WORK/k.txt" "$WORK/kd.txt"
mkdir -p "$WORK/empty"; touch "$WORK/empty/x.csv"
expect_exit directory_without_url_files 2 "$B" "$WORK/empty" -o "$WORK/never.txt"
stderr_has directory_without_url_files_message "$WORK/empty: directory has no input files"
check directory_without_url_files_no_output test ! -e "$WORK/never.txt"

# Missing file: clear error, nothing written.
expect_exit missing_file 3 "$B" "$WORK/nope.txt" -o "$WORK/never.txt"
stderr_has missing_file_message "$WORK/nope.txt: cannot open"
check missing_file_no_output test ! -e "$WORK/never.txt"

# Truncated .zst: error naming the file, no output under the final name.
head -c 3000 "$WORK/u.zst" > "$WORK/cut.zst"
expect_exit truncated_zst 1 "$B" "$WORK/cut.zst" -o "$WORK/never.txt"
stderr_has truncated_zst_message "cut.zst: truncated zstd stream"
check truncated_zst_no_output test ! -e "$WORK/never.txt"
no_tmp_left "$WORK" truncated_zst_no_tmp

# Binary garbage and invalid UTF-8: processed, every line accounted for.
head -c 300000 /dev/urandom > "$WORK/garbage.bin"
printf 'http://example.com/caf\xe9\nhttp://ok.example.com/\xff\xfe\nhttp://fine.example.com/\n' >> "$WORK/garbage.bin"
"$B" "$WORK/garbage.bin" -o "$WORK/kb.txt" 2> "$WORK/sum.txt"; rc=$?
lines=$(wc -l < "$WORK/garbage.bin"); last=$(tail -c1 "$WORK/garbage.bin" | wc -l); [ "$last" = 1 ] || lines=$((lines + 1))
total=$(sed -n 's/^blacklist_urls: \([0-9]*\) URLs.*/\1/p' "$WORK/sum.txt")
kept=$(sed -n 's/.*: \([0-9]*\) kept.*/\1/p' "$WORK/sum.txt"); dropped=$(sed -n 's/.* \([0-9][0-9]*\) dropped.*/\1/p' "$WORK/sum.txt")
reasons=$(awk '/^  dropped [a-z-]+ +[0-9]+ URLs$/{s+=$3} END{print s+0}' "$WORK/sum.txt")
if [ "$rc" = 0 ] && [ "$total" = "$lines" ] && [ $((kept + dropped)) = "$total" ] && [ "$reasons" = "$dropped" ]; then pass garbage_accounted; else fail garbage_accounted "rc=$rc lines=$lines total=$total kept=$kept dropped=$dropped reasons=$reasons"; fi
if tail -1 "$WORK/kb.txt" | grep -qx 'http://fine.example.com/' && ! grep -q 'ok.example.com' "$WORK/kb.txt"; then pass invalid_utf8_dropped; else fail invalid_utf8_dropped; fi

# A 100 MB single line: kept, intact.
{ printf 'http://example.com/'; head -c 100000000 /dev/zero | tr '\0' 'a'; printf '\n'; } > "$WORK/huge.txt"
"$B" -q "$WORK/huge.txt" -o "$WORK/khuge.txt"
check huge_line cmp "$WORK/huge.txt" "$WORK/khuge.txt"
rm -f "$WORK/huge.txt" "$WORK/khuge.txt"

# User block list.
printf '# mine\nnytimes.com\n' > "$WORK/block.txt"
"$B" -q --blocklist "$WORK/block.txt" "$U/reddit_2005_urls.txt" --rejected "$WORK/rej.tsv" > /dev/null
n_block=$(grep -c '^blocklist' "$WORK/rej.tsv")
n_ny=$(grep -v '^domain' "$WORK/rej.tsv" | cut -f3 | grep -ciE '^https?://([a-z0-9.-]*\.)?nytimes\.com([:/?]|$)')
if [ "$n_block" -gt 0 ] && [ "$n_block" = "$n_ny" ]; then pass blocklist; else fail blocklist "blocked $n_block, nytimes URLs $n_ny"; fi

# JSON-lines mode on real documents, and bad documents.
"$B" -q --key metadata.url "$FIX/cc/dolma_cc_en_head-0091.jsonl" -o "$WORK/docs.jsonl" --rejected "$WORK/rej.tsv"
in=$(wc -l < "$FIX/cc/dolma_cc_en_head-0091.jsonl"); out=$(wc -l < "$WORK/docs.jsonl"); rj=$(wc -l < "$WORK/rej.tsv")
if [ "$in" = $((out + rj)) ] && [ "$out" -gt 0 ]; then pass jsonl_mode_real_docs; else fail jsonl_mode_real_docs "in=$in out=$out rejected=$rj"; fi
check jsonl_mode_lines_unchanged bash -c "grep -Fxf '$WORK/docs.jsonl' '$FIX/cc/dolma_cc_en_head-0091.jsonl' | cmp - '$WORK/docs.jsonl'"
"$B" --key url "$FIX/cc/olmo_c4-sample.01.json.gz" -o "$WORK/c4.jsonl" 2> "$WORK/sum.txt"
if grep -qE 'documents in: [1-9][0-9]* kept, [0-9]+ dropped \(from 1 input' "$WORK/sum.txt"; then pass jsonl_mode_gz_c4; else fail jsonl_mode_gz_c4 "$(cat "$WORK/sum.txt")"; fi
printf '{"url": "http://example.com/a", "text": "x"}\n{"url": broken\n{"text": "no url"}\n{"url": 42}\n{"url": "http://youtube.com/x"}\n' > "$WORK/bad.jsonl"
"$B" --key url "$WORK/bad.jsonl" -o "$WORK/good.jsonl" 2> "$WORK/sum.txt"
if grep -q '5 documents in: 1 kept, 4 dropped (from 1 input' "$WORK/sum.txt" && grep -qE 'dropped bad-json +1 documents$' "$WORK/sum.txt" && grep -qE 'dropped missing-key +2 documents$' "$WORK/sum.txt" && grep -q 'bad.jsonl:2: not valid JSON' "$WORK/sum.txt"; then pass jsonl_bad_documents; else fail jsonl_bad_documents "$(cat "$WORK/sum.txt")"; fi
expect_exit jsonl_strict 1 "$B" --strict --key url "$WORK/bad.jsonl" -o "$WORK/never.txt"
stderr_has jsonl_strict_message "bad.jsonl:2: not valid JSON"
check jsonl_strict_no_output test ! -e "$WORK/never.txt"

# Full disk: real (/dev/full) and simulated on a regular file.
expect_exit dev_full 3 "$B" "$U/reddit_2005_urls.txt" -o /dev/full
stderr_has dev_full_message "No space left on device"
IO_FAULT_ENOSPC_AFTER=1000 expect_exit simulated_full_disk 3 "$B" "$U/reddit_2005_urls.txt" -o "$WORK/full.txt"
check simulated_full_disk_no_output test ! -e "$WORK/full.txt"
no_tmp_left "$WORK" simulated_full_disk_no_tmp

# Usage.
expect_exit help 0 "$B" --help
expect_exit unknown_option 2 "$B" --frobnicate
stderr_has unknown_option_message "unknown option '--frobnicate'"
expect_exit version 0 "$B" --version

#!/usr/bin/env bash
# End-to-end tests of minhash, find_duplicates, group_duplicates, remove_duplicates
# on a corpus with planted near-duplicates (tests/golden/make_planted_dedup.py), against
# the brute-force exact Jaccard computed in Python when the fixture was made.
. "$(dirname "$0")/lib.sh"
MH=$BIN/minhash; FD=$BIN/find_duplicates; GD=$BIN/group_duplicates; RD=$BIN/remove_duplicates
PL=$FIX/dedup/planted.jsonl.zst; EXP=$FIX/dedup/expected_pairs.tsv
AWK="$ROOT/tests/e2e/dedup_pairs.awk"

"$MH" -q "$PL" -o "$WORK/p.mh" -j 2
"$FD" -q "$WORK/p.mh" -o "$WORK/pairs.jsonl" --threshold 0.8 -j 2
awk -v min=0.8 -f "$AWK" "$WORK/pairs.jsonl" | LC_ALL=C sort > "$WORK/ours.tsv"
awk -F'\t' '$3 >= 0.8' "$EXP" | LC_ALL=C sort > "$WORK/exp.tsv"
read -r recall precision maxdiff < <(awk -F'\t' 'NR==FNR { e[$1 FS $2] = $3; ne++; next }
  { no++; k = $1 FS $2; if (k in e) { hit++; d = $3 - e[k]; if (d < 0) d = -d; if (d > md) md = d } }
  END { printf "%.4f %.4f %.7f\n", hit / ne, (no ? hit / no : 0), md }' "$WORK/exp.tsv" "$WORK/ours.tsv")
echo "planted corpus at 0.8: recall $recall, precision $precision ($(wc -l < "$WORK/exp.tsv") true pairs)"
awk -v r="$recall" 'BEGIN { exit !(r >= 0.98) }' && pass recall_at_0.8 || fail recall_at_0.8 "$recall"
[ "$precision" = 1.0000 ] && pass precision_at_0.8 || fail precision_at_0.8 "$precision"
awk -v d="$maxdiff" 'BEGIN { exit !(d < 0.000002) }' && pass jaccard_equals_python || fail jaccard_equals_python "$maxdiff"

# --scheme oph (one permutation hashing with optimal densification): the same planted pairs
# found at 0.8, exact Jaccard verified as before; a version-2 file; mixing schemes is refused.
"$MH" -q --scheme oph "$PL" -o "$WORK/o.mh" -j 2
"$FD" -q "$WORK/o.mh" -o "$WORK/opairs.jsonl" --threshold 0.8 -j 2
awk -v min=0.8 -f "$AWK" "$WORK/opairs.jsonl" | LC_ALL=C sort > "$WORK/oours.tsv"
read -r orecall oprecision < <(awk -F'\t' 'NR==FNR { e[$1 FS $2] = 1; ne++; next }
  { no++; if (($1 FS $2) in e) hit++ } END { printf "%.4f %.4f\n", hit / ne, (no ? hit / no : 0) }' "$WORK/exp.tsv" "$WORK/oours.tsv")
echo "planted corpus at 0.8, --scheme oph: recall $orecall, precision $oprecision"
awk -v r="$orecall" -v c="$recall" 'BEGIN { exit !(r >= 0.98 && r >= c - 0.005) }' && pass oph_recall_at_0.8 || fail oph_recall_at_0.8 "$orecall (minhash: $recall)"
[ "$oprecision" = 1.0000 ] && pass oph_precision_at_0.8 || fail oph_precision_at_0.8 "$oprecision"
"$MH" -q --scheme oph --store-text "$PL" -o "$WORK/ot.mh" -j 2
[ "$(od -An -tu4 -j8 -N4 "$WORK/ot.mh" | tr -d ' ')" = 2 ] && [ "$(od -An -tu4 -j8 -N4 "$WORK/o.mh" | tr -d ' ')" = 3 ] &&
  [ "$(od -An -tu4 -j8 -N4 "$WORK/p.mh" | tr -d ' ')" = 3 ] &&
  pass oph_file_version_2 || fail oph_file_version_2 "$(od -An -tu4 -j8 -N4 "$WORK/ot.mh")"
"$FD" -q "$WORK/ot.mh" -o "$WORK/otpairs.jsonl" --threshold 0.8 -j 2
check oph_same_pairs_with_texts_stored cmp "$WORK/opairs.jsonl" "$WORK/otpairs.jsonl"
expect_exit oph_mixed_refused 1 "$FD" -q "$WORK/p.mh" "$WORK/o.mh" -o "$WORK/mixed.jsonl"
stderr_has oph_mixed_refused_says "signatures are not comparable"

# Same output whatever the threads, the sharding, the band split.
"$MH" -q "$PL" -o "$WORK/p1.mh" -j 1
check same_signatures_any_threads cmp "$WORK/p.mh" "$WORK/p1.mh"
"$FD" -q "$WORK/p1.mh" -o "$WORK/pairs1.jsonl" -j 1
check same_pairs_any_threads cmp "$WORK/pairs.jsonl" "$WORK/pairs1.jsonl"
zstd -dc "$PL" > "$WORK/pl.jsonl"; head -400 "$WORK/pl.jsonl" > "$WORK/s1.jsonl"; tail -n +401 "$WORK/pl.jsonl" > "$WORK/s2.jsonl"
"$MH" -q "$WORK/s1.jsonl" -o "$WORK/s1.mh"; "$MH" -q "$WORK/s2.jsonl" -o "$WORK/s2.mh"
"$FD" -q "$WORK/s1.mh" "$WORK/s2.mh" -o "$WORK/pairs_sharded.jsonl"
check same_pairs_sharded cmp "$WORK/pairs.jsonl" "$WORK/pairs_sharded.jsonl"
"$FD" -q "$WORK/p.mh" --bands 16 --rows 8 --band-range 0:8 -o "$WORK/b0.jsonl"
"$FD" -q "$WORK/p.mh" --bands 16 --rows 8 --band-range 8:16 -o "$WORK/b1.jsonl"
"$FD" -q "$WORK/p.mh" --bands 16 --rows 8 -o "$WORK/ball.jsonl"
check band_split_union_equals_whole bash -c "cmp <(LC_ALL=C sort -u '$WORK/b0.jsonl' '$WORK/b1.jsonl') <(LC_ALL=C sort '$WORK/ball.jsonl')"

# Groups and removal: representative = first in input order; in = kept + removed.
"$GD" "$WORK/pairs.jsonl" -o "$WORK/groups.jsonl" 2> "$WORK/gd.err"
grep -q "to remove" "$WORK/gd.err" && pass group_summary || fail group_summary "$(cat "$WORK/gd.err")"
"$RD" -g "$WORK/groups.jsonl" "$PL" -o "$WORK/kept.jsonl" --removed "$WORK/removed.jsonl" 2> "$WORK/rd.err"
in=$(wc -l < "$WORK/pl.jsonl"); kept=$(wc -l < "$WORK/kept.jsonl"); rem=$(wc -l < "$WORK/removed.jsonl")
[ $((kept + rem)) = "$in" ] && [ "$rem" -gt 100 ] && pass in_equals_kept_plus_removed || fail in_equals_kept_plus_removed "$in != $kept + $rem"
first=$(head -1 "$WORK/groups.jsonl" | sed 's/.*"ids": \["\([^"]*\)", "\([^"]*\)".*/\1 \2/')
a=${first% *}; b=${first#* }
na=$(grep -n "\"url\": \"$a\"" "$WORK/pl.jsonl" | cut -d: -f1); nb=$(grep -n "\"url\": \"$b\"" "$WORK/pl.jsonl" | cut -d: -f1)
rep=$([ "$na" -lt "$nb" ] && echo "$a" || echo "$b")
grep -q "\"url\": \"$rep\"" "$WORK/kept.jsonl" && pass representative_is_first_in_input || fail representative_is_first_in_input "$rep"
"$MH" -q "$WORK/kept.jsonl" -o "$WORK/k.mh"; "$FD" -q "$WORK/k.mh" --min-similarity 0.9 -o "$WORK/k.pairs"
[ ! -s "$WORK/k.pairs" ] && pass no_duplicates_left || fail no_duplicates_left "$(head -2 "$WORK/k.pairs")"

# Word n-grams work too.
"$MH" -q --word-ngrams --ngram 3 "$PL" -o "$WORK/w.mh"; "$FD" -q "$WORK/w.mh" -o "$WORK/w.pairs"
[ "$(wc -l < "$WORK/w.pairs")" -gt 150 ] && pass word_ngrams || fail word_ngrams "$(wc -l < "$WORK/w.pairs")"

# Bad input.
printf '%s\n' '{"url": "u1", "text": "hello world, hello world"}' '{"text": "no id"}' '{"url": "u1", "text": "dup id"}' \
  '{"url": "u2", "text": ""}' '{"url": "u3", "text": "abc"}' '{"url": "u4", "text": "abc"}' 'not json' > "$WORK/bad.jsonl"
expect_exit bad_input_counted 0 "$MH" "$WORK/bad.jsonl" -o "$WORK/bad.mh"
stderr_has missing_id_named "bad.jsonl:2: missing-id"
stderr_has duplicate_id_named "bad.jsonl:3: duplicate-id"
stderr_has bad_summary "7 documents in: 3 kept, 4 dropped"
for r in bad-json missing-id empty duplicate-id; do
  grep -qE "^  dropped $r +1 documents" "$WORK/.err" && pass "bad_summary_$r" || fail "bad_summary_$r" "$(cat "$WORK/.err")"
done
stderr_has bad_summary_id_named 'missing-id            1 documents  no string "url"'
"$FD" -q "$WORK/bad.mh" -o "$WORK/bad.pairs"
grep -q '"a": "u3", "b": "u4", "jaccard": 1.000000' "$WORK/bad.pairs" && pass short_docs_match || fail short_docs_match "$(cat "$WORK/bad.pairs")"
"$MH" -q --num-perm 64 "$WORK/bad.jsonl" -o "$WORK/other.mh" 2>/dev/null
expect_exit other_params_refused 1 "$FD" "$WORK/bad.mh" "$WORK/other.mh"
stderr_has other_params_message "other.mh: made with other parameters"
head -c 200 "$WORK/p.mh" > "$WORK/cut.mh"
expect_exit truncated_sigfile 1 "$FD" "$WORK/cut.mh"
stderr_has truncated_sigfile_message "cut.mh: no end marker"
"$MH" -q --store-text "$WORK/bad.jsonl" -o "$WORK/badt.mh" 2>/dev/null
cp "$WORK/badt.mh" "$WORK/v9.mh"; printf '\x09' | dd of="$WORK/v9.mh" bs=1 seek=8 conv=notrunc 2>/dev/null
expect_exit other_version_refused 1 "$FD" "$WORK/v9.mh"
stderr_has other_version_message "signature file version 9, this build reads versions 1, 2 and 3"
expect_exit not_a_sigfile 1 "$FD" "$PL"

# Version 3 (issue 66): no texts in the file, band jobs that read only their bands, the texts
# read back from the sources. The same pairs, groups and removals as the files with texts.
"$MH" -q --store-text "$PL" -o "$WORK/t.mh" -j 2
"$FD" -q "$WORK/t.mh" -o "$WORK/tpairs.jsonl" --threshold 0.8 -j 2
check v3_same_pairs_as_texts_stored cmp "$WORK/pairs.jsonl" "$WORK/tpairs.jsonl"
[ "$(stat -c %s "$WORK/p.mh")" -lt "$(( $(stat -c %s "$WORK/t.mh") / 2 ))" ] && pass v3_smaller_than_with_texts ||
  fail v3_smaller_than_with_texts "$(stat -c %s "$WORK/p.mh") vs $(stat -c %s "$WORK/t.mh")"
"$MH" -q --store-text "$WORK/s1.jsonl" -o "$WORK/t1.mh"; "$MH" -q --store-text "$WORK/s2.jsonl" -o "$WORK/t2.mh"
"$FD" -q "$WORK/t1.mh" "$WORK/t2.mh" --min-similarity 0 -o "$WORK/tall.jsonl"
"$FD" -q "$WORK/s1.mh" "$WORK/s2.mh" --min-similarity 0 -o "$WORK/sall.jsonl"
check v3_sharded_same_pairs cmp "$WORK/tall.jsonl" "$WORK/sall.jsonl"
# band jobs in 4 KB of sort memory (every sort spills runs) and a verify job: the same pairs
for r in 0:5 5:11 11:16; do "$FD" -q "$WORK/s1.mh" "$WORK/s2.mh" --min-similarity 0 --stage bands --band-range $r \
  --work-dir "$WORK/lsh" --memory 4k; done
"$FD" "$WORK/s1.mh" "$WORK/s2.mh" --min-similarity 0 --stage verify --work-dir "$WORK/lsh" --memory 4k -o "$WORK/staged.jsonl" 2> "$WORK/v.err"
check v3_band_jobs_same_pairs cmp "$WORK/tall.jsonl" "$WORK/staged.jsonl"
grep -q "candidate pairs of 3 candidate files" "$WORK/v.err" && pass v3_verify_summary || fail v3_verify_summary "$(cat "$WORK/v.err")"
"$FD" "$WORK/s1.mh" "$WORK/s2.mh" --stage bands --band-range 0:5 --work-dir "$WORK/lsh1" --memory 4k 2> "$WORK/spill.err"
grep -qE "spilled [1-9][0-9.]* MB|spilled 0\.[0-9]*[1-9][0-9]* MB" "$WORK/spill.err" && pass v3_small_memory_spills || fail v3_small_memory_spills "$(cat "$WORK/spill.err")"
"$GD" -q "$WORK/tall.jsonl" -o "$WORK/tg.jsonl"; "$GD" -q "$WORK/staged.jsonl" -o "$WORK/sg.jsonl"
check v3_same_groups cmp "$WORK/tg.jsonl" "$WORK/sg.jsonl"
# refusals: a band missing, a band twice, other signature files, a source changed or gone,
# files of both kinds, --stage on files with texts, a cut candidate file
mv "$WORK/lsh/cand.0005-0011" "$WORK/c511"
expect_exit v3_missing_band_refused 1 "$FD" "$WORK/s1.mh" "$WORK/s2.mh" --stage verify --work-dir "$WORK/lsh" -o "$WORK/x.jsonl"
stderr_has v3_missing_band_named "no candidate file starts at band 5"
cp "$WORK/c511" "$WORK/lsh/cand.0005-0011"; cp "$WORK/lsh1/cand.0000-0005" "$WORK/lsh/cand.0000-0005b"
expect_exit v3_band_twice_refused 1 "$FD" "$WORK/s1.mh" "$WORK/s2.mh" --stage verify --work-dir "$WORK/lsh" -o "$WORK/x.jsonl"
stderr_has v3_band_twice_named "bands from 0 in both"
rm "$WORK/lsh/cand.0000-0005b"
expect_exit v3_other_corpus_refused 1 "$FD" "$WORK/s1.mh" --stage verify --work-dir "$WORK/lsh" -o "$WORK/x.jsonl"
stderr_has v3_other_corpus_named "made from other signature files"
head -c 100 "$WORK/c511" > "$WORK/lsh/cand.0005-0011"
expect_exit v3_cut_candidates_refused 1 "$FD" "$WORK/s1.mh" "$WORK/s2.mh" --stage verify --work-dir "$WORK/lsh" -o "$WORK/x.jsonl"
stderr_has v3_cut_candidates_named "cand.0005-0011: no end marker"
cp "$WORK/c511" "$WORK/lsh/cand.0005-0011"
cp "$WORK/s2.jsonl" "$WORK/s2.keep"; sed -i '5s/a/b/' "$WORK/s2.jsonl"
expect_exit v3_changed_source_refused 1 "$FD" "$WORK/s1.mh" "$WORK/s2.mh" -o "$WORK/x.jsonl"
stderr_has v3_changed_source_named "s2.jsonl: changed since"
mv "$WORK/s2.jsonl" "$WORK/s2.gone"
expect_exit v3_missing_source_refused 3 "$FD" "$WORK/s1.mh" "$WORK/s2.mh" -o "$WORK/x.jsonl"
stderr_has v3_missing_source_named "s2.jsonl: No such file or directory (a source of"
mv "$WORK/s2.keep" "$WORK/s2.jsonl"; rm "$WORK/s2.gone"
expect_exit v3_mixed_kinds_refused 2 "$FD" "$WORK/s1.mh" "$WORK/t2.mh" -o "$WORK/x.jsonl"
stderr_has v3_mixed_kinds_named "make them all the same way"
expect_exit v3_stage_needs_v3 2 "$FD" "$WORK/t1.mh" --stage bands --work-dir "$WORK/lsh2"
stderr_has v3_stage_needs_v3_says "--stage needs version 3 signature files"
expect_exit v3_stage_needs_work_dir 2 "$FD" "$WORK/s1.mh" --stage bands
cat "$WORK/s1.jsonl" | "$MH" -q -o "$WORK/stdin.mh"
[ "$(od -An -tu4 -j8 -N4 "$WORK/stdin.mh" | tr -d ' ')" = 1 ] && pass v3_stdin_keeps_texts || fail v3_stdin_keeps_texts
head -c 300 "$WORK/s1.mh" > "$WORK/cut3.mh"
expect_exit v3_truncated_refused 1 "$FD" "$WORK/cut3.mh"
stderr_has v3_truncated_named "cut3.mh: no end marker"
# a band job killed (kill -9, at an I/O call half-way) leaves no candidate file and no
# temporary; its rerun alone completes the set; the other jobs' files are untouched
rm -rf "$WORK/lsh3"; mkdir "$WORK/lsh3"
"$FD" -q "$WORK/s1.mh" "$WORK/s2.mh" --stage bands --band-range 0:8 --work-dir "$WORK/lsh3" --memory 4k
WEBTEXT_FAULT_COUNT="$WORK/count" "$FD" -q "$WORK/s1.mh" "$WORK/s2.mh" --stage bands --band-range 8:16 --work-dir "$WORK/lsh4" --memory 4k
half=$(( $(cat "$WORK/count") / 2 )); before=$(stat -c %Y.%s "$WORK/lsh3/cand.0000-0008")
{ WEBTEXT_FAULT="$half:kill" "$FD" -q "$WORK/s1.mh" "$WORK/s2.mh" --stage bands --band-range 8:16 --work-dir "$WORK/lsh3" --memory 4k; } 2>/dev/null
killed=$?
[ $killed = 137 ] && [ ! -e "$WORK/lsh3/cand.0008-0016" ] && [ "$(ls -A "$WORK/lsh3")" = cand.0000-0008 ] &&
  pass "v3_killed_band_job_leaves_nothing (call $half of $(cat "$WORK/count"))" || fail v3_killed_band_job_leaves_nothing "exit $killed: $(ls -A "$WORK/lsh3")"
expect_exit v3_verify_after_kill_refused 1 "$FD" "$WORK/s1.mh" "$WORK/s2.mh" --stage verify --work-dir "$WORK/lsh3" -o "$WORK/x.jsonl"
"$FD" -q "$WORK/s1.mh" "$WORK/s2.mh" --stage bands --band-range 8:16 --work-dir "$WORK/lsh3" --memory 4k
"$FD" -q "$WORK/s1.mh" "$WORK/s2.mh" --min-similarity 0 --stage verify --work-dir "$WORK/lsh3" -o "$WORK/rerun.jsonl"
[ "$(stat -c %Y.%s "$WORK/lsh3/cand.0000-0008")" = "$before" ] && cmp -s "$WORK/rerun.jsonl" "$WORK/tall.jsonl" &&
  pass v3_rerun_redoes_only_the_killed_job || fail v3_rerun_redoes_only_the_killed_job
expect_exit missing_groups 2 "$RD" "$PL"
no_tmp_left "$WORK" no_tmp_left

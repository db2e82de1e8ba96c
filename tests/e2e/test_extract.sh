#!/usr/bin/env bash
# End-to-end tests of bin/extract: Common Crawl's own WARC / WET / WAT of one page, a WARC
# written by warcio (tests/e2e/make_warc.py) read record for record as warcio reads it, the
# codecs (gzip per record, plain, zstd, stdin), and bad input: a truncated gzip member, a
# Content-Length past the end, a header line of megabytes, invalid UTF-8 in headers, a page
# of 100 MB, nesting 100,000 deep, a wrong charset declaration.
. "$(dirname "$0")/lib.sh"
X=$BIN/extract
W=$FIX/warc
json_ok() { "$PY" -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$1" 2>/dev/null; }
field() { "$PY" -c 'import json,sys; print("\n".join(str(json.loads(l).get(sys.argv[2])) for l in open(sys.argv[1])))' "$1" "$2"; }

# Common Crawl's WARC: warcinfo, request, response, metadata; one document.
"$X" "$W/whirlwind.warc.gz" -o "$WORK/ww.jsonl" 2> "$WORK/ww.err"
if grep -q '4 records in: 1 kept, 3 dropped (from 1 input)' "$WORK/ww.err" && grep -qE '^  dropped record_type +3 ' "$WORK/ww.err"; then
  pass whirlwind_counts; else fail whirlwind_counts "$(cat "$WORK/ww.err")"; fi
if [ "$(field "$WORK/ww.jsonl" url)" = "https://an.wikipedia.org/wiki/Escopete" ] &&
   [ "$(field "$WORK/ww.jsonl" id)" = "<urn:uuid:2aabeff2-67f5-4608-8466-e87c6296e2b6>" ] &&
   [ "$(field "$WORK/ww.jsonl" date)" = "2024-05-18T01:58:10Z" ] &&
   [ "$(field "$WORK/ww.jsonl" title)" = "Escopete - Biquipedia, a enciclopedia libre" ]; then
  pass whirlwind_fields; else fail whirlwind_fields "$(head -c 400 "$WORK/ww.jsonl")"; fi
field "$WORK/ww.jsonl" text > "$WORK/ww.txt"
if grep -q 'A suya población ye de 84 habitants' "$WORK/ww.txt" && ! grep -q 'Menú principal' "$WORK/ww.txt"; then
  pass whirlwind_main_content; else fail whirlwind_main_content "$(head -c 400 "$WORK/ww.txt")"; fi
"$X" -q --mode all "$W/whirlwind.warc.gz" | field /dev/stdin text > "$WORK/wwa.txt"
if grep -q 'Menú principal' "$WORK/wwa.txt" && grep -q 'A suya población' "$WORK/wwa.txt"; then
  pass whirlwind_all_text; else fail whirlwind_all_text "$(head -c 300 "$WORK/wwa.txt")"; fi
# WET: the conversion record's text passed through (as warcio reads its block); WAT: no page.
"$X" -q "$W/whirlwind.warc.wet.gz" -o "$WORK/wet.jsonl"
if has_py warcio; then
  "$PY" - "$W/whirlwind.warc.wet.gz" "$WORK/wet.jsonl" > "$WORK/wet.out" 2>&1 <<'PY'
import json, sys
from warcio.archiveiterator import ArchiveIterator
want = [r.content_stream().read().decode("utf-8").strip() for r in ArchiveIterator(open(sys.argv[1], "rb"))
        if r.rec_type == "conversion"]
got = [json.loads(l)["text"] for l in open(sys.argv[2])]
sys.exit(0 if got == want and len(got) == 1 else print(len(got), len(want)) or 1)
PY
  if [ $? = 0 ]; then pass wet_text_as_warcio; else fail wet_text_as_warcio "$(cat "$WORK/wet.out")"; fi
else fail wet_text_as_warcio "warcio missing in $PY (scripts/setup/install_deps.sh --test installs it)"; fi
"$X" "$W/whirlwind.warc.wat.gz" -o "$WORK/wat.jsonl" 2> "$WORK/wat.err"
if [ ! -s "$WORK/wat.jsonl" ] && grep -q '2 records in: 0 kept, 2 dropped (from 1 input)' "$WORK/wat.err"; then
  pass wat_no_documents; else fail wat_no_documents "$(cat "$WORK/wat.err")"; fi

# --language: CLD2's code of the extracted text (as cleanup's filter names it), pages and WET
# texts alike; no such key without the flag.
mkdir -p "$WORK/lang"
"$PY" - "$WORK/lang" <<'PY'
import sys
en = "The weather in the north of the country was cold and wet for most of the week, and the farmers waited. " * 6
de = "Das Wetter im Norden des Landes war die ganze Woche kalt und nass, und die Bauern warteten lange. " * 6
for name, t in (("en", en), ("de", de)):
    open(f"{sys.argv[1]}/{name}.html", "w", encoding="utf-8").write(
        f"<html><head><title>{name}</title></head><body><article><p>{t}</p></article></body></html>")
PY
"$X" -q --language "$WORK/lang" | field /dev/stdin language > "$WORK/lang.txt"
"$X" -q "$WORK/lang" | field /dev/stdin language > "$WORK/nolang.txt"
"$X" -q --language "$W/whirlwind.warc.wet.gz" | field /dev/stdin language > "$WORK/wetlang.txt"
if [ "$(tr '\n' ' ' < "$WORK/lang.txt")" = "de en " ] && [ "$(tr '\n' ' ' < "$WORK/nolang.txt")" = "None None " ] &&
   [ "$(wc -l < "$WORK/wetlang.txt")" = 1 ] && grep -qE '^[a-z]{2,3}$' "$WORK/wetlang.txt"; then
  pass language_field; else fail language_field "$(cat "$WORK/lang.txt" "$WORK/nolang.txt" "$WORK/wetlang.txt")"; fi

# A WARC written by warcio: every record accounted for, in warcio's order, each page decoded.
if has_py warcio; then
  "$PY" "$ROOT/tests/e2e/make_warc.py" "$WORK/t.warc.gz" "$WORK/t.tsv"
  "$X" "$WORK/t.warc.gz" --rejected "$WORK/rej.tsv" -o "$WORK/t.jsonl" 2> "$WORK/t.err"
  n=$(wc -l < "$WORK/t.tsv"); k=$(wc -l < "$WORK/t.jsonl"); d=$(wc -l < "$WORK/rej.tsv")
  if [ "$n" = $((k + d)) ] && grep -q "$n records in: $k kept, $d dropped (from 1 input)" "$WORK/t.err"; then
    pass warcio_records_in_equal_out; else fail warcio_records_in_equal_out "warcio $n, kept $k, dropped $d: $(cat "$WORK/t.err")"; fi
  # the ids of documents and drops, in record order, are warcio's
  "$PY" - "$WORK/t.tsv" "$WORK/t.jsonl" "$WORK/rej.tsv" > "$WORK/ids.out" 2>&1 <<'PY'
import json, sys
want = [l.split("\t")[1] for l in open(sys.argv[1])]
kept = [json.loads(l)["id"] for l in open(sys.argv[2])]
rej = {int(l.split("\t")[1].rsplit(":", 1)[1]): l.split("\t")[2] for l in open(sys.argv[3])}
got, ki = [], iter(kept)
for i in range(1, len(want) + 1):
    got.append(rej[i] if i in rej else next(ki))
sys.exit(0 if got == want else print(got, want) or 1)
PY
  if [ $? = 0 ]; then pass warcio_same_records; else fail warcio_same_records "$(head -c 400 "$WORK/ids.out")"; fi
  for pair in "http_status:http://example.com/missing" "not_html:http://example.com/image.png" \
              "truncated:http://example.com/cut" "empty:http://example.com/empty"; do
    r=${pair%%:*}; u=${pair#*:}
    if grep -qP "^$r\t.*\t\Q$u\E$" "$WORK/rej.tsv"; then pass "warcio_dropped_$r"; else fail "warcio_dropped_$r" "$(cat "$WORK/rej.tsv")"; fi
  done
  field "$WORK/t.jsonl" text > "$WORK/t.txt"
  for want in "Café crème, naïve über alles." "“Quoted” €5 — café" "日本語の文章です" "UTF-16 with a BOM" \
              "Compressed body text" "Sent in chunks" "A resource record"; do
    if grep -qF "$want" "$WORK/t.txt"; then pass "decoded: $want"; else fail "decoded: $want" "$(head -c 600 "$WORK/t.txt")"; fi
  done
  if ! grep -qE 'Home|Footer text' "$WORK/t.txt"; then pass warcio_boilerplate_dropped; else fail warcio_boilerplate_dropped "$(cat "$WORK/t.txt" | head -20)"; fi
  # --list: the index of every record, as warcio reads them
  "$X" -q --list "$WORK/t.warc.gz" | cut -f4- > "$WORK/list.tsv"
  check list_as_warcio cmp "$WORK/list.tsv" "$WORK/t.tsv"
  # plain, zstd and stdin give the same documents
  zcat "$WORK/t.warc.gz" > "$WORK/t.warc"; zstd -q -c "$WORK/t.warc" > "$WORK/t.warc.zst"
  "$X" -q "$WORK/t.warc" -o "$WORK/tp.jsonl"; "$X" -q "$WORK/t.warc.zst" -o "$WORK/tz.jsonl"; "$X" -q < "$WORK/t.warc.gz" > "$WORK/ts.jsonl"
  check plain_warc_same cmp "$WORK/t.jsonl" "$WORK/tp.jsonl"
  check zstd_warc_same cmp "$WORK/t.jsonl" "$WORK/tz.jsonl"
  check stdin_warc_same cmp "$WORK/t.jsonl" "$WORK/ts.jsonl"
  # threads: the same documents in the same order
  "$X" -q -j 1 "$WORK/t.warc.gz" -o "$WORK/t1.jsonl"; "$X" -q -j 3 "$WORK/t.warc.gz" "$WORK/t.warc" -o "$WORK/t3.jsonl"
  check workers_same_as_one_thread cmp "$WORK/t.jsonl" "$WORK/t1.jsonl"
  check workers_keep_order cmp <(cat "$WORK/t.jsonl" "$WORK/t.jsonl") "$WORK/t3.jsonl"
  # a directory: its WARC and HTML files
  mkdir -p "$WORK/dir"; cp "$WORK/t.warc.gz" "$WORK/dir/"; printf '<p>A page on disk, with text.</p>' > "$WORK/dir/p.html"; echo x > "$WORK/dir/notes.md"
  "$X" "$WORK/dir" -o "$WORK/dir.jsonl" 2> "$WORK/dir.err"
  if grep -q "$((n + 1)) records in: $((k + 1)) kept, .* (from 2 inputs)" "$WORK/dir.err"; then pass directory_input; else fail directory_input "$(cat "$WORK/dir.err")"; fi

  # Bad input. A gzip member cut short: the records before it kept, a message naming the file.
  sz=$(stat -c %s "$WORK/t.warc.gz"); head -c $((sz * 6 / 10)) "$WORK/t.warc.gz" > "$WORK/cut.warc.gz"
  expect_exit truncated_gzip_exit 0 "$X" "$WORK/cut.warc.gz" -o "$WORK/cut.jsonl"
  stderr_has truncated_gzip_named "cut.warc.gz: truncated gzip stream"
  if [ "$(wc -l < "$WORK/cut.jsonl")" -ge 3 ]; then pass truncated_gzip_keeps_before; else fail truncated_gzip_keeps_before "$(wc -l < "$WORK/cut.jsonl") documents"; fi
  # a Content-Length past the end of the file
  "$PY" - "$WORK/t.warc" "$WORK/over.warc" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
i = b.rindex(b"Content-Length: ")
j = b.index(b"\r\n", i)
open(sys.argv[2], "wb").write(b[:i] + b"Content-Length: " + str(int(b[i + 16:j]) + 5000).encode() + b[j:])
PY
  expect_exit overrun_exit 0 "$X" "$WORK/over.warc" -o "$WORK/over.jsonl"
  stderr_has overrun_named "over.warc: record 14"
  stderr_has overrun_reason "Content-Length overruns the file"
  if [ "$(wc -l < "$WORK/over.jsonl")" = 6 ]; then pass overrun_keeps_before; else fail overrun_keeps_before "$(wc -l < "$WORK/over.jsonl")"; fi
  # a header line of megabytes, and invalid UTF-8 in a header: that record named and skipped, the rest read
  "$PY" - "$WORK/t.warc" "$WORK/long.warc" <<'PY'
import sys
import re
b = open(sys.argv[1], "rb").read()
starts = [m.start() for m in re.finditer(rb"(?m)^WARC/1\.[01]\r\n", b)] + [len(b)]
parts = [b[starts[i]:starts[i + 1]] for i in range(len(starts) - 1)]
parts[1] = parts[1].replace(b"WARC-Type:", b"X-Long: " + b"a" * 3000000 + b"\r\nWARC-Type:", 1)
parts[2] = parts[2].replace(b"WARC-Target-URI: http://example.com/cp1252", b"WARC-Target-URI: http://example.com/\xff\xfe", 1)
open(sys.argv[2], "wb").write(b"".join(parts))
PY
  expect_exit long_header_exit 0 "$X" "$WORK/long.warc" -o "$WORK/long.jsonl"
  stderr_has long_header_named "long.warc: record 2"
  stderr_has long_header_reason "a header line of megabytes"
  if [ "$(wc -l < "$WORK/long.jsonl")" = 6 ]; then pass long_header_rest_read; else fail long_header_rest_read "$(wc -l < "$WORK/long.jsonl") documents"; fi
  if json_ok "$WORK/long.jsonl" && grep -q 'http://example.com/\\ufffd\|http://example.com/�' "$WORK/long.jsonl"; then
    pass invalid_utf8_header_replaced; else fail invalid_utf8_header_replaced "$(grep -o '"url":"[^"]*cp1252[^"]*"' "$WORK/long.jsonl")"; fi
  expect_exit strict_stops 1 "$X" --strict "$WORK/long.warc" -o "$WORK/strict.jsonl"
  [ ! -e "$WORK/strict.jsonl" ] && pass strict_writes_nothing || fail strict_writes_nothing "output left"
else
  fail warcio_checks "warcio missing in $PY (scripts/setup/install_deps.sh --test installs it)"
fi

# A page nested 100,000 deep; a wrong charset declaration; a page of 100 MB.
"$PY" -c 'import sys; sys.stdout.write("<div>" * 100000 + "deep text" + "</div>" * 100000)' > "$WORK/deep.html"
# Deeper than 10,000: dropped as too_deep with a message naming the file and the record, at once (the
# HTML5 tree builder's time grows with the square of the depth: 17 s for this page when it was parsed).
start=$(date +%s)
expect_exit deep_nesting 0 "$X" --mode all "$WORK/deep.html" -o "$WORK/deep.jsonl"
[ $(( $(date +%s) - start )) -lt 5 ] && pass deep_nesting_fast || fail deep_nesting_fast "$(( $(date +%s) - start )) s"
stderr_has deep_nesting_named "deep.html: record 1: markup nested deeper than 10000 elements"
stderr_has deep_nesting_counted "dropped too_deep              1 records"
[ ! -s "$WORK/deep.jsonl" ] && pass deep_nesting_no_document || fail deep_nesting_no_document "$(head -c 200 "$WORK/deep.jsonl")"
"$PY" -c 'import sys; sys.stdout.write("<div>" * 5000 + "deep text" + "</div>" * 5000)' > "$WORK/deep5k.html"
expect_exit deep_5000 0 "$X" --mode all "$WORK/deep5k.html" -o "$WORK/deep5k.jsonl"
if [ "$(field "$WORK/deep5k.jsonl" text)" = "deep text" ]; then pass deep_5000_text; else fail deep_5000_text "$(head -c 200 "$WORK/deep5k.jsonl")"; fi
printf '<html><head><meta charset="shift_jis"></head><body><p>Caf\xc3\xa9 au lait, but declared Shift_JIS.</p></body></html>' > "$WORK/wrong.html"
expect_exit wrong_charset 0 "$X" --mode all "$WORK/wrong.html" -o "$WORK/wrong.jsonl"
if json_ok "$WORK/wrong.jsonl" && [ "$(field "$WORK/wrong.jsonl" charset)" = CP932 ]; then pass wrong_charset_read_as_declared; else fail wrong_charset_read_as_declared "$(cat "$WORK/wrong.jsonl")"; fi
if [ "${TEST_TIER:-rel}" = rel ]; then
  "$PY" -c '
import sys
p = "<p>" + "word " * 2000 + "</p>\n"
sys.stdout.write("<html><body>" + p * (100 * 1024 * 1024 // len(p)) + "</body></html>")' > "$WORK/big.html"
  "$X" "$WORK/big.html" -o "$WORK/big.jsonl" 2> "$WORK/big.err"
  if grep -qE '^  dropped too_large +1 ' "$WORK/big.err" && [ ! -s "$WORK/big.jsonl" ]; then pass page_100mb_too_large; else fail page_100mb_too_large "$(cat "$WORK/big.err")"; fi
  "$X" -q --max-size 128M --mode all "$WORK/big.html" -o "$WORK/big2.jsonl"
  if [ "$(field "$WORK/big2.jsonl" text | wc -l)" -ge 10000 ]; then pass page_100mb_extracted; else fail page_100mb_extracted "$(head -c 200 "$WORK/big2.jsonl")"; fi
  rm -f "$WORK/big.html" "$WORK/big2.jsonl"
fi
expect_exit usage_mode 2 "$X" --mode bogus "$W/whirlwind.warc.gz"
expect_exit usage_favor 2 "$X" --favor-precision --favor-recall "$W/whirlwind.warc.gz"
expect_exit usage_workers 2 "$X" -j -2 "$W/whirlwind.warc.gz"
expect_exit missing_file 3 "$X" "$WORK/nope.warc.gz"
expect_exit help 0 "$X" --help
# Bytes that are not a page give no document: 1 MB of random bytes named x.warc.gz (as a new
# user tried), or a WARC name on gzip'd HTML, or .gz on plain bytes, is refused naming the file;
# random bytes named .html are dropped as not_html; a page of menus only is counted as
# no_main_content (and named in --rejected), never written as an empty or junk document.
head -c 1000000 /dev/urandom > "$WORK/x.warc.gz"
expect_exit random_warc_gz_refused 1 "$X" "$WORK/x.warc.gz" -o "$WORK/x.jsonl"
stderr_has random_warc_gz_named "x.warc.gz: not a WARC file"
if [ ! -e "$WORK/x.jsonl" ]; then pass random_warc_gz_no_output; else fail random_warc_gz_no_output "$(head -c 200 "$WORK/x.jsonl")"; fi
printf '<html><body><p>a page</p></body></html>' | gzip > "$WORK/page.warc.gz"
expect_exit gzip_html_named_warc 1 "$X" "$WORK/page.warc.gz"
stderr_has gzip_html_named_warc_why "do not start with WARC/1.0"
head -c 5000 /dev/urandom > "$WORK/r.gz"
expect_exit plain_bytes_named_gz 1 "$X" "$WORK/r.gz"
stderr_has plain_bytes_named_gz_why "r.gz: not gzip data"
cp "$WORK/x.warc.gz" "$WORK/x.html"
"$X" "$WORK/x.html" --rejected "$WORK/x.rej" -o "$WORK/xh.jsonl" 2> "$WORK/xh.err"
if grep -qE '^  dropped not_html +1 ' "$WORK/xh.err" && [ ! -s "$WORK/xh.jsonl" ] && grep -q "^not_html	" "$WORK/x.rej"; then
  pass random_html_not_html; else fail random_html_not_html "$(cat "$WORK/xh.err")"; fi
printf '<html><body><nav><a href=/>Home</a> <a href=/a>About</a></nav><footer>(c) 2024 Example Inc. <a href=/p>Privacy</a></footer></body></html>' > "$WORK/menus.html"
"$X" "$WORK/menus.html" --rejected "$WORK/m.rej" -o "$WORK/m.jsonl" 2> "$WORK/m.err"
if grep -qE '^  dropped no_main_content +1 ' "$WORK/m.err" && [ ! -s "$WORK/m.jsonl" ] && grep -q "^no_main_content	.*menus.html" "$WORK/m.rej"; then
  pass menus_no_main_content; else fail menus_no_main_content "$(cat "$WORK/m.err")"; fi
printf '<html><body> </body></html>' > "$WORK/blank.html"
"$X" "$WORK/blank.html" -o "$WORK/b.jsonl" 2> "$WORK/b.err"
if grep -qE '^  dropped empty +1 ' "$WORK/b.err"; then pass blank_page_empty; else fail blank_page_empty "$(cat "$WORK/b.err")"; fi
# The data pipeline's WARC input: make data's rule (WARC=...) and the sharded extract stage.
make --no-print-directory -s -f "$ROOT/scripts/make/data.mk" BIN="$BIN" B="$WORK/md" WARC="$W/whirlwind.warc.gz" \
  "$WORK/md/web.clean.jsonl.zst" > "$WORK/md.out" 2>&1
if [ "$(zstd -dc "$WORK/md/web.jsonl.zst" | wc -l)" = 1 ] && [ -e "$WORK/md/web.clean.jsonl.zst" ] &&
   [ "$(wc -l < "$WORK/md/web.rejected.tsv")" = 3 ]; then pass data_mk_warc_input; else fail data_mk_warc_input "$(tail -3 "$WORK/md.out")"; fi
printf '%s\n' "$W/whirlwind.warc.wet.gz" "$W/whirlwind.warc.gz" > "$WORK/warcs.txt"
for k in 0 1; do WARCS="$WORK/warcs.txt" OUT="$WORK/sh" WORKERS=1 bash "$ROOT/scripts/cluster/data_sharded.sh" extract $k > /dev/null 2>&1; done
if [ "$(zstd -dc "$WORK/sh/shards/web.0000.jsonl.zst" | field /dev/stdin url)" = "https://an.wikipedia.org/wiki/Escopete" ] &&
   [ "$(zstd -dc "$WORK/sh/shards/web.0001.jsonl.zst" | wc -l)" = 1 ]; then pass sharded_extract_stage; else fail sharded_extract_stage "$(ls "$WORK/sh/shards" 2>&1)"; fi

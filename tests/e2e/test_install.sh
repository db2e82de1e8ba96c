#!/usr/bin/env bash
# test_install.sh - `make install`: the tools, their GPT-2 vocabulary and help
# texts go under PREFIX; the installed tree still works after being moved, with
# the source tree's data out of reach (no path is compiled in); a tool that
# cannot find its vocabulary says where it looked.
. "$(dirname "$0")/lib.sh"
unset WEBTEXT_DATA
if make -s --no-print-directory -C "$ROOT" install-files PREFIX="$WORK/inst" BIN="$BIN" >"$WORK/inst.log" 2>&1; then
  pass install_runs; else fail install_runs "$(tail -3 "$WORK/inst.log")"; exit 0; fi
for f in bin/tokenize bin/train bin/cleanup share/webtext-gpt/gpt2/encoder.json share/webtext-gpt/gpt2/vocab.bpe \
         share/doc/webtext-gpt/README.md share/doc/webtext-gpt/train.txt; do
  [ -e "$WORK/inst/$f" ] || { fail install_layout "missing $f"; break; }
done && pass install_layout
grep -q '^Usage: train ' "$WORK/inst/share/doc/webtext-gpt/train.txt" && pass install_help_text || fail install_help_text
# Manual pages (help2man, at build time) into share/man/man1, readable with man -l; docs/ beside the README.
if command -v help2man >/dev/null 2>&1 && command -v man >/dev/null 2>&1; then
  n=$(ls "$WORK/inst/share/man/man1/"*.1 2>/dev/null | wc -l); nt=$(ls "$WORK/inst/bin" | wc -l)
  if [ "$n" = "$nt" ] && [ "$n" -ge 18 ] && MANPAGER=cat man -l "$WORK/inst/share/man/man1/cleanup.1" 2>/dev/null | grep -q -- '--min-tokens'; then
    pass "install_man_pages ($n, one a tool)"; else fail install_man_pages "$n pages for $nt tools"; fi
else skip install_man_pages "help2man or man missing (scripts/setup/install_deps.sh installs them)"; fi
[ -e "$WORK/inst/share/doc/webtext-gpt/docs/train.md" ] && pass install_docs || fail install_docs
# make uninstall takes all of it away again (a copy, so that the moved tree below is tested on the original).
cp -r "$WORK/inst" "$WORK/inst2"
make -s --no-print-directory -C "$ROOT" uninstall PREFIX="$WORK/inst2" >/dev/null 2>&1
left=$(find "$WORK/inst2" -type f | wc -l)
[ "$left" = 0 ] && pass uninstall_removes_all || fail uninstall_removes_all "$left files left: $(find "$WORK/inst2" -type f | head -3)"
mv "$WORK/inst" "$WORK/moved"
printf '{"text":"Hello world, the installed tokenizer."}\n' > "$WORK/in.jsonl"
"$BIN/tokenize" "$WORK/in.jsonl" > "$WORK/ids.src" 2>/dev/null
# Run from / so that no relative data/ can be found, with the source binaries' directory out of the picture.
( cd / && "$WORK/moved/bin/tokenize" "$WORK/in.jsonl" ) > "$WORK/ids.inst" 2>"$WORK/err"
if [ -s "$WORK/ids.inst" ] && cmp -s "$WORK/ids.src" "$WORK/ids.inst"; then pass installed_tree_moved_works
else fail installed_tree_moved_works "$(head -c 300 "$WORK/err")"; fi
if grep -aq "$ROOT/data" "$WORK/moved/bin/tokenize" "$WORK/moved/bin/train"; then fail no_compiled_source_path; else pass no_compiled_source_path; fi
# A lone binary with no vocabulary next to it: a clear error naming the file it wanted.
mkdir -p "$WORK/lone/bin" && cp "$WORK/moved/bin/tokenize" "$WORK/lone/bin/"
( cd / && "$WORK/lone/bin/tokenize" "$WORK/in.jsonl" ) >/dev/null 2>"$WORK/err"; rc=$?
if [ "$rc" != 0 ] && grep -q 'encoder.json' "$WORK/err"; then pass lone_binary_clear_error; else fail lone_binary_clear_error "exit $rc: $(head -c 200 "$WORK/err")"; fi
# WEBTEXT_DATA points elsewhere.
( cd / && WEBTEXT_DATA="$WORK/moved/share/webtext-gpt" "$WORK/lone/bin/tokenize" "$WORK/in.jsonl" ) > "$WORK/ids.env" 2>/dev/null
cmp -s "$WORK/ids.src" "$WORK/ids.env" && pass webtext_data_env || fail webtext_data_env

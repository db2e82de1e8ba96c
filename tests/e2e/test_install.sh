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

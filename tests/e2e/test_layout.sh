#!/usr/bin/env bash
# test_layout.sh - the layering docs/layout.md draws, checked on the sources and
# the objects:
#   - the folders, read from the tree (every directory under the top folders that
#     holds our sources), include one another without a circle, at every depth and
#     between the top folders; common/ includes nothing of ours;
#   - preprocess/'s stages (web/, filters/, shuffle/) reach no other stage but the
#     text tools they share (text/);
#   - no circle between files: an object that uses a symbol another defines
#     depends on it (trainer.c -> trainer_log.c -> trainer.c was one);
#   - tokenizer/ is three layers, each calling only the layers below it: the BPE
#     core (bpe.c, encode.c, pretok.c, hfjson.c), the families on it (gpt2.c,
#     tiktoken.c, hftok.c, spm.c), the face (tokcli.c opens any family, hfwrite.c
#     exports);
#   - no function in preprocess/, tokenizer/, train/ or a program (*_main.c) is over
#     150 lines (option tables are data, not code).
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build/rel}
cd "$ROOT" || exit 1
TOPS="common preprocess tokenizer dedup train bench"
SRC_NAMES=(-name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cu' -o -name '*.cuh' -o -name '*.cpp')

# ---- folders ----------------------------------------------------------------------------
# folder -> folder of each file it includes (#include "path" that names a file of ours)
folders=$(find $TOPS -type f \( "${SRC_NAMES[@]}" \) -printf '%h\n' | sort -u)
edges=$WORK/edges
find $TOPS -type f \( "${SRC_NAMES[@]}" \) -print0 | xargs -0 grep -oHE '^#include "[A-Za-z0-9_./]+"' |
  sed -E 's/:#include "/ /; s/"$//' |
  while read -r f inc; do [ -f "$inc" ] && echo "$(dirname "$f") $(dirname "$inc")"; done |
  awk '$1 != $2' | sort -u > "$edges"
nf=$(echo "$folders" | wc -l)
if [ "$nf" -ge 10 ]; then pass "folders_read_from_tree ($nf folders)"
else fail folders_read_from_tree "only $nf folders found under $TOPS"; fi
bad=$(awk '$1 ~ /^common(\/|$)/ && $2 !~ /^common(\/|$)/' "$edges" | tr '\n' ' ')
if [ -z "$bad" ]; then pass common_includes_nothing_else; else fail common_includes_nothing_else "$bad"; fi
# tsort reports a cycle on stderr
if tsort "$edges" > /dev/null 2> "$WORK/tsort.err"; then pass folders_without_circle
else fail folders_without_circle "$(grep -v 'input contains a loop' "$WORK/tsort.err" | sed 's/^tsort: //' | tr '\n' ' ')"; fi
awk '{split($1, a, "/"); split($2, b, "/"); if (a[1] != b[1]) print a[1], b[1]}' "$edges" | sort -u > "$WORK/top"
if tsort "$WORK/top" > /dev/null 2> "$WORK/tsort.err"; then pass top_folders_without_circle
else fail top_folders_without_circle "$(grep -v 'input contains a loop' "$WORK/tsort.err" | sed 's/^tsort: //' | tr '\n' ' ')"; fi
# preprocess/STAGE/... -> preprocess/OTHER/...: only OTHER = text
bad=$(awk '$1 ~ /^preprocess\// && $2 ~ /^preprocess\// {
  split($1, a, "/"); split($2, b, "/"); if (a[2] != b[2] && b[2] != "text") print $1 "->" $2 }' "$edges" | tr '\n' ' ')
if [ -z "$bad" ]; then pass preprocess_stages_share_only_text; else fail preprocess_stages_share_only_text "$bad"; fi

# ---- files --------------------------------------------------------------------------------
# object A -> object B when A uses a symbol B defines (the library's objects and the programs')
objs=$(find $(for t in common preprocess tokenizer dedup train; do echo "$BUILD/$t"; done) -name '*.o' 2>/dev/null | sort)
if [ -z "$objs" ]; then
  fail files_without_circle "no objects under $BUILD (make first)"
else
  # one nm for all the objects: "FILE: VALUE TYPE SYMBOL" (defined) or "FILE:  U SYMBOL" (used)
  nm -A -g --defined-only $objs 2>/dev/null | awk -v b="$BUILD/" '{f = $1; sub(/:.*$/, "", f); sub("^" b, "", f); sub(/\.o$/, "", f); print $NF, f}' |
    sort -k1,1 > "$WORK/def"
  nm -A -u $objs 2>/dev/null | awk -v b="$BUILD/" '{f = $1; sub(/:.*$/, "", f); sub("^" b, "", f); sub(/\.o$/, "", f); print $NF, f}' |
    sort -k1,1 > "$WORK/use"
  join "$WORK/use" "$WORK/def" | awk '$2 != $3 {print $2, $3}' | sort -u > "$WORK/fedges"
  if tsort "$WORK/fedges" > /dev/null 2> "$WORK/tsort.err"; then pass "files_without_circle ($(wc -l < "$WORK/fedges") uses between $(echo "$objs" | wc -l) objects)"
  else fail files_without_circle "$(grep -v 'input contains a loop' "$WORK/tsort.err" | sed 's/^tsort: //' | tr '\n' ' ')"; fi
fi

# ---- tokenizer layers, on the objects' symbols ------------------------------------------
core="bpe encode pretok hfjson"; families="gpt2 tiktoken hftok spm"; face="tokcli hfwrite"
defined() { for f in "$@"; do nm -g --defined-only "$BUILD/tokenizer/$f.o" | awk '{print $3}'; done | sort -u; }
used() { for f in "$@"; do nm -u "$BUILD/tokenizer/$f.o" | awk '{print $2}'; done | sort -u; }
missing=""
for f in $core $families $face; do [ -f "$BUILD/tokenizer/$f.o" ] || missing="$missing $f"; done
if [ -n "$missing" ]; then
  fail tokenizer_objects "not built:$missing (make first)"
else
  up=$(comm -12 <(used $core) <(defined $families $face) | tr '\n' ' ')
  if [ -z "$up" ]; then pass tokenizer_core_calls_no_family; else fail tokenizer_core_calls_no_family "$up"; fi
  up=$(comm -12 <(used $families) <(defined $face) | tr '\n' ' ')
  if [ -z "$up" ]; then pass tokenizer_families_call_no_face; else fail tokenizer_families_call_no_face "$up"; fi
  # and the families do not call one another
  cross=""
  for f in $families; do
    others=$(echo $families | tr ' ' '\n' | grep -vx "$f")
    c=$(comm -12 <(used "$f") <(defined $others) | tr '\n' ' ')
    [ -n "$c" ] && cross="$cross $f: $c"
  done
  if [ -z "$cross" ]; then pass tokenizer_families_apart; else fail tokenizer_families_apart "$cross"; fi
fi

# ---- function lengths -----------------------------------------------------------------------
# A definition starts at column 0 (a line with "(" that is no declaration, typedef or macro)
# and ends at the first "}" in column 0; the checker itself is checked on a planted function.
funclen() { # FILE... -> "LINES FILE:LINE NAME" per function
  awk '
    FNR == 1 { inbody = 0; pending = "" }
    function name_of(s) { gsub(/__attribute__\(\([^)]*\)\)/, "", s); sub(/\(.*/, "", s); sub(/.*[ *]/, "", s); return s }
    {
      if (inbody) { if ($0 ~ /^}/) { print FNR - start + 1, FILENAME ":" start, name; inbody = 0 }; next }
      if ($0 ~ /^[A-Za-z_].*\(/ && $0 !~ /^(typedef|enum|#)/ && $0 !~ /;[ \t]*$/ && $0 !~ /=/) {
        pending = $0; pline = FNR
        if ($0 ~ /\{[ \t]*$/) { inbody = 1; start = pline; name = name_of(pending); pending = "" }
        next
      }
      if (pending != "" && $0 ~ /^\{/) { inbody = 1; start = pline; name = name_of(pending); pending = ""; next }
      if (pending != "" && $0 ~ /;[ \t]*$/ && $0 !~ /^[ \t]/) pending = ""
    }' "$@"
}
{ echo "static int planted(void)"; echo "{"; for i in $(seq 1 151); do echo "    x++;"; done; echo "}"; } > "$WORK/planted.c"
if [ "$(funclen "$WORK/planted.c" | awk '{print $1}')" = 154 ]; then pass function_length_checker_sees_a_long_one
else fail function_length_checker_sees_a_long_one "$(funclen "$WORK/planted.c")"; fi
long=$(funclen $(find preprocess tokenizer train -type f \( -name '*.c' -o -name '*.cu' -o -name '*.cc' -o -name '*.cpp' \)) \
         $(find common dedup bench -name '*_main.c') | awk '$1 > 150' | sort -rn | tr '\n' ';')
if [ -z "$long" ]; then pass functions_at_most_150_lines; else fail functions_at_most_150_lines "$long"; fi

#!/usr/bin/env bash
# test_layout.sh - the layering docs/layout.md draws, checked on the sources and
# the objects: the top folders include one another without a circle (common/
# includes nothing of ours), and tokenizer/ is three layers, each calling only
# the layers below it: the BPE core (bpe.c, pretok.c, hfjson.c), the families
# on it (tiktoken.c, hftok.c, spm.c), the face (tokcli.c opens any family,
# hfwrite.c exports).
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build/rel}

# folder -> folders it includes, from the #include lines
edges=$WORK/edges
for d in common tokenizer train preprocess dedup bench; do
  grep -rhoE '#include "(common|tokenizer|train|preprocess|dedup|bench)/' "$d" \
    --include=*.c --include=*.h --include=*.cu --include=*.cpp --include=*.cc |
    sed -E 's/#include "//; s#/$##' | sort -u | grep -vx "$d" | sed "s#^#$d #"
done > "$edges"
if [ -z "$(awk '$1 == "common"' "$edges")" ]; then pass common_includes_nothing_else
else fail common_includes_nothing_else "$(awk '$1 == "common" {print $2}' "$edges" | tr '\n' ' ')"; fi
# tsort reports a cycle on stderr
if tsort "$edges" > /dev/null 2> "$WORK/tsort.err"; then pass folders_without_circle
else fail folders_without_circle "$(head -5 "$WORK/tsort.err" | tr '\n' ' ')"; fi

# tokenizer layers, on the objects' symbols: what each layer's objects use from a layer above
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

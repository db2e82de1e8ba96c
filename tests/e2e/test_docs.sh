#!/usr/bin/env bash
# test_docs.sh - the documentation cannot drift from the code: every long flag a
# tool's --help lists appears on the tool's page in docs/; every page the README
# links to exists; each tool's manual page (made by help2man at build time)
# renders with `man -l` and shows the tool's usage.
. "$(dirname "$0")/lib.sh"
page_of() {
  case $1 in
    minhash|find_duplicates|group_duplicates|remove_duplicates|substr_dedup) echo dedup ;;
    tokenize|preprocess_data|merge_datasets|inspect_dataset|train_bpe) echo tokenizer ;;
    train) echo "train parallel cuda" ;;
    generate|evaluate) echo train ;;
    *) echo "$1" ;;
  esac
}
TOOLS="download extract blacklist_urls cleanup decontaminate minhash find_duplicates group_duplicates remove_duplicates substr_dedup shuffle tokenize
       preprocess_data merge_datasets inspect_dataset train_bpe train generate evaluate convert_checkpoint"
for t in $TOOLS; do
  pages=""; for p in $(page_of "$t"); do pages="$pages $ROOT/docs/$p.md"; done
  # option lines of --help: indented, starting with a dash
  flags=$("$BIN/$t" --help | grep -E '^ +-' | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u)
  missing=""
  for f in $flags; do
    case $f in --help|--version) continue ;; esac
    cat $pages | grep -qE -- "$f([^a-z0-9-]|\$)" || missing="$missing $f"
  done
  n=$(echo "$flags" | wc -w)
  if [ -z "$missing" ] && [ "$n" -gt 2 ]; then pass "docs_flags_$t ($n flags)"
  else fail "docs_flags_$t" "not on $(page_of "$t" | sed 's/\([a-z_]*\)/docs\/\1.md/g'):$missing"; fi
done
# links from the README and between pages
bad=""
for f in "$ROOT/README.md" "$ROOT"/docs/*.md; do
  for l in $(grep -oE '\]\([^)#]+\.md\)' "$f" | sed 's/^](//; s/)$//'); do
    [ -e "$(dirname "$f")/$l" ] || bad="$bad $(basename "$f"):$l"
  done
done
[ -z "$bad" ] && pass docs_links || fail docs_links "$bad"
# manual pages
MAN=$ROOT/build/${TEST_TIER:-rel}/man
[ "${TEST_TIER:-rel}" = san ] && MAN=$ROOT/build/san/man
if ! command -v man >/dev/null 2>&1; then skip docs_man "man is missing (scripts/setup/install_deps.sh --test installs man-db)"
elif ! command -v help2man >/dev/null 2>&1; then skip docs_man "help2man is missing (scripts/setup/install_deps.sh installs it)"
else
  bad=""
  for t in $TOOLS; do
    out=$(MANPAGER=cat MANWIDTH=100 man -l "$MAN/$t.1" 2>&1) || { bad="$bad $t(man failed)"; continue; }
    echo "$out" | grep -q "^NAME" && echo "$out" | grep -qE "^ +$t " && echo "$out" | grep -q -- "--help" ||
      bad="$bad $t"
  done
  [ -z "$bad" ] && pass "docs_man_pages ($(echo $TOOLS | wc -w) pages render with man -l)" || fail docs_man_pages "$bad"
fi
# docs/layout.md has an entry for every folder of sources (the folders as test_layout.sh reads them)
missing=""
for d in $(cd "$ROOT" && find common preprocess tokenizer dedup train bench -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' \
             -o -name '*.cu' -o -name '*.cuh' -o -name '*.cpp' \) -printf '%h\n' | sort -u); do
  grep -qE "^$d/( |$)" "$ROOT/docs/layout.md" || missing="$missing $d/"
done
if [ -z "$missing" ]; then pass docs_layout_every_folder; else fail docs_layout_every_folder "no entry in docs/layout.md for:$missing"; fi

#!/usr/bin/env bash
# doc_options.sh - (re)write the option reference of each tool in its docs/ page:
# the block between "<!-- options:TOOL -->" and "<!-- /options:TOOL -->" (added at
# the end of the page when missing) becomes the tool's --help text. Run it after
# changing a tool's flags; tests/e2e/test_docs.sh fails while a flag of --help is
# missing from the tool's page.
#   scripts/setup/doc_options.sh [BIN]     (default bin/)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-bin}
page_of() {
  case $1 in
    minhash|find_duplicates|group_duplicates|remove_duplicates|substr_dedup) echo dedup ;;
    tokenize|preprocess_data|merge_datasets|inspect_dataset|train_bpe) echo tokenizer ;;
    generate|evaluate) echo train ;;
    *) echo "$1" ;;
  esac
}
for t in blacklist_urls cleanup decontaminate minhash find_duplicates group_duplicates remove_duplicates substr_dedup shuffle tokenize \
         preprocess_data merge_datasets inspect_dataset train_bpe train generate evaluate convert_checkpoint; do
  page=docs/$(page_of "$t").md
  help=$("$BIN/$t" --help)
  python3 - "$page" "$t" "$help" <<'PY'
import sys
page, tool, helptext = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(page).read()
start, end = f"<!-- options:{tool} -->", f"<!-- /options:{tool} -->"
block = f"{start}\n### `{tool}` options (`{tool} --help`)\n\n```\n{helptext.rstrip()}\n```\n{end}"
if start in s and end in s:
    a = s.index(start); b = s.index(end) + len(end)
    s = s[:a] + block + s[b:]
else:
    if "\n## Options reference\n" not in s:
        s = s.rstrip("\n") + "\n\n## Options reference\n\nEach tool's `--help`, as of this page's last update (`scripts/setup/doc_options.sh` rewrites these blocks).\n"
    s = s.rstrip("\n") + "\n\n" + block + "\n"
open(page + ".tmp", "w").write(s)
import os; os.replace(page + ".tmp", page)
PY
done
echo "doc_options: option blocks written"

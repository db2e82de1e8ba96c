#!/usr/bin/env bash
# gen_man.sh TOOL_BINARY OUT.1 - the tool's manual page, made from its --help and
# --version by help2man (Debian's help2man, installed by scripts/setup/install_deps.sh).
# The NAME line is the first sentence of the help's description.
set -euo pipefail
bin=$1 out=$2
tool=$(basename "$bin")
desc=$("$bin" --help | sed -n '2p' | sed -E 's/ \([^)]*\)?//g; s/[.:]? *$//; s/\. .*//')
mkdir -p "$(dirname "$out")"
help2man --no-info --no-discard-stderr --section=1 --source="webtext-gpt" \
  --manual="webtext-gpt toolkit" --name="$desc" "$bin" > "$out.tmp-$$"
mv "$out.tmp-$$" "$out"

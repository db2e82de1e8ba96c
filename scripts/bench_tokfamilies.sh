#!/usr/bin/env bash
# bench_tokfamilies.sh - tiktoken vocabularies, a tokenizer.json and a SentencePiece model:
# ours vs tiktoken, tokenizers and sentencepiece, 1 and 2 threads (scripts/bench_tokfamilies.py).
# Vocabularies: build/tokenizers (scripts/install_deps.sh --bench fetches them).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench_lib.sh; bench_python bench_tokfamilies tiktoken tokenizers sentencepiece
[ -e build/tokenizers/cl100k_base.tiktoken ] || python3 scripts/fetch_tokenizers.py
BIN=${BIN:-bin} "$PY" scripts/bench_tokfamilies.py

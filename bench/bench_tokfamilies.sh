#!/usr/bin/env bash
# bench_tokfamilies.sh - tiktoken vocabularies, a tokenizer.json and a SentencePiece model:
# ours vs tiktoken, tokenizers and sentencepiece, 1 and 2 threads (bench/bench_tokfamilies.py).
# Vocabularies: build/tokenizers (scripts/setup/install_deps.sh --bench fetches them).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/bench_lib.sh; bench_python bench_tokfamilies tiktoken tokenizers sentencepiece
[ -e build/tokenizers/cl100k_base.tiktoken ] || python3 scripts/setup/fetch_tokenizers.py
BIN=${BIN:-bin} "$PY" bench/bench_tokfamilies.py

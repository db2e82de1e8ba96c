#!/usr/bin/env bash
# bench_tokenizer.sh - GPT-2 BPE throughput, ours vs tiktoken and HF tokenizers,
# 1 and 2 threads (see scripts/bench_tokenizer.py). Peer tools: tiktoken,
# tokenizers, numpy (scripts/install_deps.sh --bench).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench_lib.sh; bench_python bench_tokenizer tiktoken tokenizers numpy
BIN=${BIN:-bin} "$PY" scripts/bench_tokenizer.py

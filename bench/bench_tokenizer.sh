#!/usr/bin/env bash
# bench_tokenizer.sh - GPT-2 BPE throughput, ours vs tiktoken and HF tokenizers,
# 1 and 2 threads (see bench/bench_tokenizer.py). Peer tools: tiktoken,
# tokenizers, numpy (scripts/setup/install_deps.sh --bench).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/bench_lib.sh; bench_python bench_tokenizer tiktoken tokenizers numpy
BIN=${BIN:-bin} "$PY" bench/bench_tokenizer.py

#!/usr/bin/env bash
# bench_tokenizer.sh - GPT-2 BPE throughput, ours vs tiktoken and HF tokenizers,
# 1 and 2 threads (see scripts/bench_tokenizer.py). Needs python3 with
# tiktoken, tokenizers and numpy (installed with pip when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import tiktoken, tokenizers' 2>/dev/null || pip install -q tiktoken tokenizers numpy >&2 ||
  { echo "bench_tokenizer: pip install tiktoken tokenizers failed" >&2; exit 1; }
BIN=${BIN:-bin} python3 scripts/bench_tokenizer.py

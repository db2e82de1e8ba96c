#!/usr/bin/env bash
# bench_dedup.sh - minhash + find_duplicates vs datasketch MinHash + MinHashLSH
# (see scripts/bench_dedup.py). Installs datasketch with pip when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import datasketch' 2>/dev/null || pip install -q datasketch >&2 ||
  { echo "bench_dedup: pip install datasketch failed" >&2; exit 1; }
BIN=${BIN:-bin} python3 scripts/bench_dedup.py

#!/usr/bin/env bash
# bench_dedup.sh - minhash + find_duplicates vs datasketch MinHash + MinHashLSH
# (see bench/bench_dedup.py; datasketch from scripts/setup/install_deps.sh --bench).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/bench_lib.sh; bench_python bench_dedup datasketch
BIN=${BIN:-bin} "$PY" bench/bench_dedup.py
# the signature step alone beside rensa's Rust kernel (issue 42)
"$PY" -c "import rensa" 2>/dev/null || { echo "bench_dedup: rensa missing in $PY; run scripts/setup/install_deps.sh --bench" >&2; exit 1; }
BIN=${BIN:-bin} "$PY" bench/bench_minhash.py "${BIN:-bin}"

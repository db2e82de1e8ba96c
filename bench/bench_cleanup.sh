#!/usr/bin/env bash
# bench_cleanup.sh - fix_text vs ftfy.fix_text, and the whole cleanup tool vs
# Megatron's cleanup_dataset.py recipe in Python (see bench/bench_cleanup.py).
# Peer tools: ftfy, langdetect, tiktoken (scripts/setup/install_deps.sh --bench).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/bench_lib.sh; bench_python bench_cleanup ftfy langdetect tiktoken
BUILD=${BUILD:-build/rel}
make -s "$BUILD/bench/bench_fixtext" >&2
BIN=${BIN:-bin} BENCH_FIXTEXT="$BUILD/bench/bench_fixtext" "$PY" bench/bench_cleanup.py

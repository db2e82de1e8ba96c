#!/usr/bin/env bash
# bench_cleanup.sh - fix_text vs ftfy.fix_text, and the whole cleanup tool vs
# Megatron's cleanup_dataset.py recipe in Python (see scripts/bench_cleanup.py).
# Installs ftfy, langdetect and tiktoken with pip when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import ftfy, langdetect, tiktoken' 2>/dev/null || pip install -q ftfy==6.3.1 langdetect tiktoken >&2 ||
  { echo "bench_cleanup: pip install ftfy langdetect tiktoken failed" >&2; exit 1; }
BUILD=${BUILD:-build/rel}
make -s "$BUILD/bench/bench_fixtext" >&2
BIN=${BIN:-bin} BENCH_FIXTEXT="$BUILD/bench/bench_fixtext" python3 scripts/bench_cleanup.py

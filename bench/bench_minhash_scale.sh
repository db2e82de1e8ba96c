#!/usr/bin/env bash
# bench_minhash_scale.sh - the MinHash pipeline on a synthetic corpus with planted near-duplicate
# clusters (issue 66; bench/bench_minhash_scale.py): per stage wall and CPU time, peak resident
# size, bytes read and written with the page cache dropped before each job, beside datatrove's
# four MinHash steps on the same corpus (recall and precision of both against the planted
# clusters), and the projection to 10 TB. SIZES (GB of text, default 1; e.g. SIZES="1 4 16")
# runs the larger sizes too; DATATROVE=0 leaves datatrove out. The corpora are kept in
# build/bench/minhash_scale (about 0.4 GB of disk per GB of text).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}; SIZES=${SIZES:-1}; DATATROVE=${DATATROVE:-1}
GEN=${GEN:-build/rel/tests/gen_dupcorpus}
[ -x "$GEN" ] || make --no-print-directory "$GEN" >&2
dt=()
if [ "$DATATROVE" = 1 ]; then
  . bench/bench_lib.sh
  bench_python bench_minhash_scale.sh datatrove orjson zstandard
  dt=(--datatrove "$PY")
fi
# shellcheck disable=SC2086
python3 bench/bench_minhash_scale.py --bin "$BIN" --gen "$GEN" --work build/bench/minhash_scale --sizes $SIZES "${dt[@]}" \
  --band-memory "${BAND_MEMORY:-1G}" --verify-memory "${VERIFY_MEMORY:-4G}"

#!/usr/bin/env bash
# bench_quality.sh - cleanup's quality filters vs datatrove's (GopherRepetitionFilter,
# GopherQualityFilter, C4QualityFilter, FineWebQualityFilter) on the same documents in the
# same run, each alone and the four together (see bench/bench_quality.py).
# Peer: datatrove + spaCy, pinned (scripts/setup/install_deps.sh --bench).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/bench_lib.sh; bench_python bench_quality datatrove spacy ftfy
BIN=${BIN:-bin} "$PY" bench/bench_quality.py

#!/usr/bin/env bash
# make_data.sh - `make data`: the corpus pipeline of scripts/make/data.mk on
# data/corpus/ (cleanup per corpus, near-duplicate removal, shuffle, GPT-2 BPE
# into data/build/corpus_text_document.bin/.idx). Only the stages whose inputs
# changed run again; each tool prints what it kept and dropped.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec make --no-print-directory -f scripts/make/data.mk BIN="${BIN:-bin}" "$@"

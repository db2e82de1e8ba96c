#!/usr/bin/env bash
# bench_extract.sh - extract beside its peers on the same input in the same run, one thread:
#   1. quality and speed of extraction on the development sets (bench/extract: trafilatura's
#      evaluation pages, Zyte's left out; Readability's test pages; newspaper3k's news; WCXB's
#      dev split by page type; Dragnet, CleanEval, CleanPortalEval, L3S-GN1, Big5, Chaos,
#      Google-Trends-2017; see bench/make_extract_*.py): trafilatura 2.3.1 (default and FineWeb's
#      settings), resiliparse 2.0.1 (DCLM's main content, and all text), readability-lxml 0.9 and
#      newspaper3k (on its three sets), by bench/eval_extract.py;
#   2. reading alone: the development set as a Common Crawl-style .warc.gz (one gzip member
#      per record), every record's payload read, by `extract --list` against FastWARC (the
#      fastest published reader) and warcio. Records/s and MB/s of .warc.gz.
# Peer tools: warcio, trafilatura, resiliparse, fastwarc, readability-lxml (scripts/setup/install_deps.sh --bench).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/bench_lib.sh; bench_python bench_extract warcio trafilatura resiliparse fastwarc readability
BIN=${BIN:-bin}
echo "== extraction (quality: trafilatura's with/without passages; speed: one thread)"
"$PY" bench/eval_extract.py "$BIN" bench/extract
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
# the pages 8 times over as response records, gzip per record: a WARC like Common Crawl's
"$PY" - "$W" <<'PY'
import io, subprocess, sys
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter
w = sys.argv[1]
subprocess.run(["zstd", "-d", "-q", "-f", "bench/extract/devset.warc.zst", "-o", w + "/d.warc"], check=True)
pages = [(r.rec_headers.get_header("WARC-Target-URI"), r.content_stream().read())
         for r in ArchiveIterator(open(w + "/d.warc", "rb")) if r.rec_type == "resource"]
with open(w + "/big.warc.gz", "wb") as f:
    wr = WARCWriter(f, gzip=True)
    for _ in range(8):
        for url, p in pages:
            h = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            wr.write_record(wr.create_warc_record(url, "response", payload=io.BytesIO(p), http_headers=h))
PY
"$PY" - "$W/big.warc.gz" "$BIN/extract" <<'PY'
import os, subprocess, sys, time
path, ours = sys.argv[1], sys.argv[2]
mb = os.path.getsize(path) / 1e6
def best(fn, k=3):
    t = min(timeit(fn) for _ in range(k))
    return t
def timeit(fn):
    t0 = time.perf_counter(); n = fn(); dt = time.perf_counter() - t0
    timeit.n = n
    return dt
rows = []
t = best(lambda: int(subprocess.run([ours, "-q", "-j", "1", "--list", path], capture_output=True, check=True).stdout.count(b"\n")))
rows.append(("extract --list (ours)", timeit.n, t))
from fastwarc.warc import ArchiveIterator as FI
def fw():
    n = 0
    with open(path, "rb") as f:
        for r in FI(f, parse_http=False):
            r.reader.read(); n += 1
    return n
t = best(fw); rows.append(("FastWARC 2.0.1", timeit.n, t))
from warcio.archiveiterator import ArchiveIterator as WI
def wi():
    n = 0
    with open(path, "rb") as f:
        for r in WI(f):
            r.raw_stream.read(); n += 1
    return n
t = best(wi); rows.append(("warcio 1.8.1", timeit.n, t))
print(f"== reading a .warc.gz of {rows[0][1]} records, {mb:.1f} MB (one gzip member per record), every payload read; best of 3")
base = rows[0][2]
for name, n, t in rows:
    print(f"{name:24s} {n:6d} records  {n / t:9.0f} records/s  {mb / t:7.1f} MB/s  time / ours {t / base:5.2f}")
PY

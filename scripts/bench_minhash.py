#!/usr/bin/env python3
"""minhash's signature step beside rensa 0.5.0 (MinHash in Rust: RMinHash's
digest_matrix_from_token_byte_sets, 128 permutations, the fastest we found), on the same
documents' character 5-gram shingles, one thread and all threads, in one run.

    bench_minhash.py BIN [SAMPLE_MB]

Input: data/corpus (wikinews + enwiki_sample). rensa is given the shingles as Python
bytes (built beforehand, not timed: a Python user also has to build them, which this
leaves out in rensa's favour); it runs on a sample of SAMPLE_MB (default 16) MB of text, as
the token sets of the whole corpus would not fit in memory, twice (cold, then warm: the
figure reported). Ours: the whole minhash tool (JSON parse, shingling, exact-duplicate
hash, signatures, the signature file written) on the same sample and on the whole corpus.
Rates are MB of text per CPU second (user + system), the issue's unit.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

RENSA_CHILD = r'''
import json, sys, time
from rensa import RMinHash
docs = [json.loads(l)["text"].encode() for l in open(sys.argv[1])]
sets = [[d[i:i + 5] for i in range(max(1, len(d) - 4))] for d in docs]
best = None
for _ in range(2):
    t0 = time.process_time()
    RMinHash.digest_matrix_from_token_byte_sets(sets, 128, 1)
    t = time.process_time() - t0
    best = t if best is None else min(best, t)
    first = t if _ == 0 else first
print(json.dumps({"cold": first, "warm": best}))
'''


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def ours(bin_, path, jobs, out):
    c0, t0 = cpu_children(), time.time()
    subprocess.run([bin_ + "/minhash", "-q", "-j", str(jobs), path, "-o", out], check=True)
    return cpu_children() - c0, time.time() - t0


def main():
    bin_ = sys.argv[1]
    sample_mb = float(sys.argv[2]) if len(sys.argv) > 2 else 16
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        full = os.path.join(tmp, "all.jsonl")
        with open(full, "wb") as f:
            for c in ("wikinews", "enwiki_sample"):
                f.write(subprocess.run(["zstd", "-dc", "data/corpus/%s.jsonl.zst" % c], check=True,
                                       capture_output=True).stdout)
        sample = os.path.join(tmp, "sample.jsonl")
        text_full = text_sample = 0
        with open(full) as f, open(sample, "w") as o:
            for line in f:
                t = json.loads(line).get("text", "")
                n = len(t.encode())
                text_full += n
                if text_sample < sample_mb * 1e6:
                    o.write(line)
                    text_sample += n
        mb_full, mb_sample = text_full / 1e6, text_sample / 1e6
        print("input: data/corpus wikinews + enwiki_sample, %.1f MB of text; sample %.1f MB; %d cores" %
              (mb_full, mb_sample, os.cpu_count()))
        rows = []
        for jobs in (1, os.cpu_count()):
            c, w = ours(bin_, sample, jobs, os.path.join(tmp, "s.mh"))
            rows.append(("minhash -j %d, sample" % jobs, mb_sample / c, mb_sample / w))
            c, w = ours(bin_, full, jobs, os.path.join(tmp, "f.mh"))
            rows.append(("minhash -j %d, whole corpus" % jobs, mb_full / c, mb_full / w))
        for threads in (1, os.cpu_count()):
            env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
            t0 = time.time()
            r = json.loads(subprocess.run([py, "-c", RENSA_CHILD, sample], env=env, check=True,
                                          capture_output=True, text=True).stdout)
            rows.append(("rensa %d thread%s, warm (cold)" % (threads, "" if threads == 1 else "s"),
                         mb_sample / r["warm"], None, mb_sample / r["cold"]))
        print("%-34s %16s %12s" % ("", "MB per CPU s", "MB/s wall"))
        for r in rows:
            extra = " (cold %.1f)" % r[3] if len(r) > 3 else ""
            print("%-34s %16.1f %12s%s" % (r[0], r[1], "%.1f" % r[2] if r[2] else "-", extra))
        one = rows[0][1]
        rensa1 = [r for r in rows if r[0].startswith("rensa 1")][0][1]
        print("minhash -j 1 (whole tool) / rensa's warm kernel, one thread, per CPU second: %.2fx (goal >= 1)" % (one / rensa1))


if __name__ == "__main__":
    main()

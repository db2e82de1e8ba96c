#!/usr/bin/env python3
"""Near-duplicate detection throughput: ours (minhash + find_duplicates, 2 threads)
vs datasketch (MinHash + MinHashLSH, same 128 permutations, same character
5-gram shingles, same bands chosen for threshold 0.8) on the same documents;
wall time, docs/s, MB/s and the peak memory of each process, measured by GNU time
(/usr/bin/time -f %M) per process: minhash and find_duplicates are separate steps of
a pipeline, so their peaks are reported apart, never summed or folded together.
datasketch is run on a sample (it is slow) and its rate is extrapolated.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "lib"))
from tiktoken_offline import ROOT, read_jsonl  # noqa: E402

BIN = os.environ.get("BIN", os.path.join(ROOT, "bin"))

DS = r'''
import json, sys, time
from datasketch import MinHash, MinHashLSH
docs = [json.loads(l) for l in open(sys.argv[1])]
t = time.perf_counter()
lsh = MinHashLSH(threshold=0.8, num_perm=128)
pairs = 0
for d in docs:
    b = d["text"].encode()
    m = MinHash(num_perm=128)
    m.update_batch([b[i:i + 5] for i in range(max(1, len(b) - 4))])
    pairs += len(lsh.query(m))
    lsh.insert(d["url"], m)
dt = time.perf_counter() - t
print(dt, pairs)
'''


def timed(cmd, tmp):
    """Run cmd under GNU time: (wall seconds, peak RSS of that one process in MB, stdout)."""
    tf = os.path.join(tmp, "time.txt")
    t = time.perf_counter()
    out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tf] + cmd, check=True, capture_output=True,
                         text=True).stdout
    dt = time.perf_counter() - t
    return dt, int(open(tf).read().split()[-1]) / 1024, out


def main():
    lines = [l for l in read_jsonl(os.path.join(ROOT, "data", "corpus", "wikinews.jsonl.zst")) if l.strip()]
    docs = [json.loads(l) for l in lines]
    docs = [{"url": d["url"], "text": d["text"]} for d in docs if d["text"]]
    tmp = tempfile.mkdtemp(prefix="bench_dedup.")
    full = os.path.join(tmp, "all.jsonl")
    with open(full, "w") as f:
        for d in docs:
            f.write(json.dumps(d) + "\n")
    mb = sum(len(d["text"].encode()) for d in docs) / 1e6
    sample = os.path.join(tmp, "sample.jsonl")
    ns = 3000
    with open(sample, "w") as f:
        for d in docs[:ns]:
            f.write(json.dumps(d) + "\n")
    mb_s = sum(len(d["text"].encode()) for d in docs[:ns]) / 1e6
    print(f"input: wikinews, {len(docs)} non-empty documents, {mb:.1f} MB of text; {os.cpu_count()} cores")
    t_mh, rss_mh, _ = timed([os.path.join(BIN, "minhash"), "-q", "-j", "2", full, "-o", os.path.join(tmp, "a.mh")], tmp)
    t_fd, rss_fd, _ = timed([os.path.join(BIN, "find_duplicates"), "-q", "-j", "2", os.path.join(tmp, "a.mh"), "-o",
                             os.path.join(tmp, "pairs.jsonl")], tmp)
    ours = t_mh + t_fd
    npairs = sum(1 for _ in open(os.path.join(tmp, "pairs.jsonl")))
    _, ds_rss, out = timed([sys.executable, "-c", DS, sample], tmp)
    out = out.split()
    ds_t, ds_pairs = float(out[0]), int(out[1])
    ours_rate, ds_rate = mb / ours, mb_s / ds_t
    print(f"{'':28} {'docs/s':>10} {'MB/s':>8} {'peak RSS per process (GNU time)':>32}")
    print(f"{'ours (2 threads)':28} {len(docs) / ours:>10.0f} {ours_rate:>8.2f}"
          f"   minhash {rss_mh:.0f} MB, find_duplicates {rss_fd:.0f} MB"
          f"   ({t_mh:.2f} + {t_fd:.2f} s for all, {npairs} verified pairs)")
    print(f"{'datasketch (1 thread)':28} {ns / ds_t:>10.0f} {ds_rate:>8.2f}"
          f"   python {ds_rss:.0f} MB (its {ns}-document sample)"
          f"   ({ds_t:.2f} s for {ns} documents, {ds_pairs} unverified candidates)")
    print(f"speed-up: {ours_rate / ds_rate:.1f}x datasketch (MB/s; datasketch has no threads, ours uses 2 cores)")
    subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()

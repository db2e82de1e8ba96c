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
Rates are MB of text per CPU second (user + system), the issue's unit. Both schemes of
minhash: the classic K functions and --scheme oph (one permutation hashing with optimal
densification), and the estimator of each on real pairs: 400 documents against copies with
a tenth of their words replaced, estimate minus exact Jaccard of the 5-byte shingle sets.
"""
import json
import shutil
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


def ours(bin_, path, jobs, out, scheme="minhash", kernel=None):
    env = dict(os.environ, WEBTEXT_MINHASH_KERNEL=kernel) if kernel else None
    c0, t0 = cpu_children(), time.time()
    subprocess.run([bin_ + "/minhash", "-q", "-j", str(jobs), "--scheme", scheme, path, "-o", out], check=True, env=env)
    return cpu_children() - c0, time.time() - t0


def read_sigs(path):
    """id -> signature (tuple of u32) from a signature file (dedup/mhsig.h)."""
    import struct
    data = open(path, "rb").read()
    k = struct.unpack_from("<I", data, 12)[0]
    pos, end, out = 64, len(data) - 24, {}
    while pos < end:
        (il,) = struct.unpack_from("<I", data, pos); pos += 4
        i = data[pos:pos + il].decode(); pos += il
        (tl,) = struct.unpack_from("<I", data, pos); pos += 4 + tl + 8
        out[i] = struct.unpack_from("<%dI" % k, data, pos); pos += 4 * k
    return out


def estimator(bin_, full, tmp):
    import random
    rnd = random.Random(7)
    docs = []
    for line in open(full):
        t = json.loads(line).get("text", "")
        if 2000 < len(t) < 20000:
            docs.append(t)
        if len(docs) == 400:
            break
    path = os.path.join(tmp, "pairs.jsonl")
    exact = []
    with open(path, "w") as o:
        for n, t in enumerate(docs):
            w = t.split(" ")
            for _ in range(len(w) // 10):
                w[rnd.randrange(len(w))] = "x%d" % rnd.randrange(10 ** 6)
            u = " ".join(w)
            o.write(json.dumps({"url": "a%d" % n, "text": t}) + "\n")
            o.write(json.dumps({"url": "b%d" % n, "text": u}) + "\n")
            A = {t.encode()[i:i + 5] for i in range(len(t.encode()) - 4)}
            B = {u.encode()[i:i + 5] for i in range(len(u.encode()) - 4)}
            exact.append(len(A & B) / len(A | B))
    rows = []
    for scheme in ("minhash", "oph"):
        out = os.path.join(tmp, "pairs.%s.mh" % scheme)
        subprocess.run([bin_ + "/minhash", "-q", "--scheme", scheme, path, "-o", out], check=True)
        sig = read_sigs(out)
        err = []
        for n, e in enumerate(exact):
            a, b = sig["a%d" % n], sig["b%d" % n]
            err.append(sum(x == y for x, y in zip(a, b)) / len(a) - e)
        m = sum(err) / len(err)
        sd = (sum((x - m) ** 2 for x in err) / len(err)) ** 0.5
        rows.append((scheme, m, sd))
    print("estimator on %d real pairs (exact Jaccard %.2f-%.2f, mean %.2f): estimate - exact" %
          (len(exact), min(exact), max(exact), sum(exact) / len(exact)))
    for scheme, m, sd in rows:
        print("  %-8s mean %+.4f  spread (sd) %.4f" % (scheme, m, sd))


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
        for scheme in ("minhash", "oph"):
            for jobs in (1, os.cpu_count()):
                name = "minhash%s -j %d" % (" --scheme oph" if scheme == "oph" else "", jobs)
                c, w = ours(bin_, sample, jobs, os.path.join(tmp, "s.mh"), scheme)
                rows.append((name + ", sample", mb_sample / c, mb_sample / w))
                c, w = ours(bin_, full, jobs, os.path.join(tmp, "f.mh"), scheme)
                rows.append((name + ", whole corpus", mb_full / c, mb_full / w))
                if scheme == "minhash" and jobs == 1:
                    shutil.copy(os.path.join(tmp, "f.mh"), os.path.join(tmp, "f1.mh"))
        # the classic kernel's lower builds on this CPU (AVX2 machines run the avx2 one; the same
        # signatures, checked here byte for byte against the default's file)
        for kernel in ("avx2", "baseline"):
            out = os.path.join(tmp, "k.mh")
            c, w = ours(bin_, full, 1, out, "minhash", kernel)
            same = open(out, "rb").read() == open(os.path.join(tmp, "f1.mh"), "rb").read()
            rows.append(("minhash -j 1, whole corpus, %s kernel%s" % (kernel, "" if same else " (DIFFERS)"),
                         mb_full / c, mb_full / w))
        for threads in (1, os.cpu_count()):
            env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
            t0 = time.time()
            r = json.loads(subprocess.run([py, "-c", RENSA_CHILD, sample], env=env, check=True,
                                          capture_output=True, text=True).stdout)
            rows.append(("rensa %d thread%s, warm (cold)" % (threads, "" if threads == 1 else "s"),
                         mb_sample / r["warm"], None, mb_sample / r["cold"]))
        print("%-42s %14s %12s" % ("", "MB per CPU s", "MB/s wall"))
        for r in rows:
            extra = " (cold %.1f)" % r[3] if len(r) > 3 else ""
            print("%-42s %14.1f %12s%s" % (r[0], r[1], "%.1f" % r[2] if r[2] else "-", extra))
        rensa1 = [r for r in rows if r[0].startswith("rensa 1")][0][1]
        for name in ("minhash -j 1, whole corpus", "minhash --scheme oph -j 1, whole corpus"):
            one = [r for r in rows if r[0] == name][0][1]
            print("%s / rensa's warm kernel (one thread, sample), per CPU second: %.2fx" % (name, one / rensa1))
        estimator(bin_, full, tmp)


if __name__ == "__main__":
    main()

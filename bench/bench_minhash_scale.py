#!/usr/bin/env python3
"""The MinHash pipeline at scale, simulated on this machine (issue 66): a synthetic corpus with
planted near-duplicate clusters (tests/tools/gen_dupcorpus.c) of SIZE GB of text, cut into shards
of about 256 MB, run through the sharded pipeline of scripts/cluster/data_sharded.sh stage by
stage, each job measured: wall and CPU time, peak resident size, and the bytes it read from and
wrote to storage (/proc/PID/io read_bytes and write_bytes, read when the job has exited and
before it is reaped, so that its waited-for children count too), with the page cache dropped
before every job (echo 3 > /proc/sys/vm/drop_caches as root; otherwise posix_fadvise DONTNEED on
every file of the run). With --datatrove, datatrove's four MinHash steps run on the same corpus
in the same run, and both are scored against the planted clusters and the exact Jaccard
similarity (recall: pairs (member, cluster base) with exact Jaccard >= 0.8 that a system puts
in one cluster; precision: pairs a system puts in one cluster that belong to one planted cluster).

    bench_minhash_scale.py --bin BIN --gen GEN --work DIR [--sizes 1 4 16] [--datatrove PY]
                           [--band-jobs 4] [--threads N] [--band-memory 1G] [--verify-memory 4G]

Prints a table per size and, at the end, the projection to 10 TB of text; writes DIR/results.json.
"""
import argparse
import glob
import json
import os
import resource
import subprocess
import sys
import time

GB = 1 << 30


def drop_caches(root):
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        return "drop_caches"
    except OSError:
        for d, _, fs in os.walk(root):
            for name in fs:
                try:
                    fd = os.open(os.path.join(d, name), os.O_RDONLY)
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                    os.close(fd)
                except OSError:
                    pass
        return "fadvise"


def sys_counters():
    """CPU seconds of the whole machine (user + system) and the bytes its disks read and wrote."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    cpu = (v[0] + v[1] + v[2] + v[5] + v[6]) / os.sysconf("SC_CLK_TCK")
    rd = wr = 0
    with open("/proc/diskstats") as f:
        for line in f:
            x = line.split()
            name = x[2]
            if os.path.exists(f"/sys/block/{name}") and not name.startswith(("loop", "ram", "zram")):
                rd += int(x[5]) * 512
                wr += int(x[9]) * 512
    return cpu, rd, wr


def measure(cmd, root, log, system=False):
    """Run cmd (a list) after dropping the page cache: wall, cpu, rss_kb, read, written. system:
    CPU and bytes of the whole machine (sync'd after the job) instead of the process's counters,
    for a tool whose worker processes its main process does not wait for (datatrove's)."""
    drop_caches(root)
    c0 = sys_counters()
    t0 = time.time()
    with open(log, "ab") as lf:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=lf)
        os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
        io = {}
        with open(f"/proc/{p.pid}/io") as f:
            for line in f:
                k, v = line.split(":")
                io[k] = int(v)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.time() - t0
    if p.returncode != 0:
        sys.exit(f"bench_minhash_scale: {' '.join(cmd)} failed ({p.returncode}); see {log}")
    r = {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_kb": ru.ru_maxrss,
         "read": io["read_bytes"], "written": io["write_bytes"]}
    if system:
        os.sync()
        c1 = sys_counters()
        r.update(cpu=c1[0] - c0[0], read=c1[1] - c0[1], written=c1[2] - c0[2])
    return r


def stage(name, cmds, root, log, system=False):
    jobs = [measure(c, root, log, system) for c in cmds]
    return {"stage": name, "jobs": len(jobs), "wall": sum(j["wall"] for j in jobs),
            "cpu": sum(j["cpu"] for j in jobs), "rss_kb": max(j["rss_kb"] for j in jobs),
            "read": sum(j["read"] for j in jobs), "written": sum(j["written"] for j in jobs)}


def table(title, rows, text_bytes, start=0):
    """start: what a job reads to start (its program and libraries, after the cache is dropped):
    'data read' leaves it out."""
    print(f"\n{title}")
    print(f"| stage | jobs | wall s | CPU s | peak RSS a job (MB) | read (MB) | data read / text | written (MB) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        r["data_read"] = max(0, r["read"] - r["jobs"] * start)
        print(f"| {r['stage']} | {r['jobs']} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['rss_kb'] / 1024:.0f} | "
              f"{r['read'] / 1e6:.0f} | {r['data_read'] / text_bytes:.3f} | {r['written'] / 1e6:.0f} |")
    tot = {k: sum(r[k] for r in rows) for k in ("wall", "cpu", "read", "written", "data_read")}
    print(f"| **all** | {sum(r['jobs'] for r in rows)} | {tot['wall']:.1f} | {tot['cpu']:.1f} | "
          f"{max(r['rss_kb'] for r in rows) / 1024:.0f} | {tot['read'] / 1e6:.0f} | {tot['data_read'] / text_bytes:.3f} | "
          f"{tot['written'] / 1e6:.0f} |")
    return tot


def generate(gen, d, size, truth):
    corpus = os.path.join(d, "corpus")
    stamp = os.path.join(d, "gen.json")
    if os.path.exists(stamp):
        info = json.load(open(stamp))
        if info.get("truth") or not truth:
            return info
    os.makedirs(corpus, exist_ok=True)
    for f in glob.glob(os.path.join(corpus, "*")):
        os.unlink(f)
    shards = max(4, int(size * 4))
    cmd = [gen, "--bytes", f"{int(size * GB)}", "--shards", str(shards), "--out", os.path.join(corpus, "part")]
    if truth:
        cmd += ["--truth", os.path.join(d, "truth.tsv")]
    t0 = time.time()
    r = subprocess.run(cmd, stderr=subprocess.PIPE, text=True, check=True)
    # "gen_dupcorpus: N documents, X MB of text in S shards; ..."
    words = r.stderr.split()
    info = {"docs": int(words[1]), "text_bytes": int(float(words[3]) * 1e6), "shards": shards,
            "truth": truth, "seconds": time.time() - t0, "line": r.stderr.strip()}
    json.dump(info, open(stamp, "w"))
    return info


def ours(a, d, info):
    B, sh = a.bin, info["shards"]
    parts = [os.path.join(d, "corpus", f"part.{i:04d}.jsonl.zst") for i in range(sh)]
    w = os.path.join(d, "ours")
    if os.path.exists(w):
        subprocess.run(["rm", "-rf", w], check=True)
    os.makedirs(w)
    sigs = [os.path.join(w, f"sig.{i:04d}.mh") for i in range(sh)]
    log = os.path.join(w, "log.txt")
    T = str(a.threads)
    rows = [stage("minhash (signatures)", [[f"{B}/minhash", "-q", "-j", T, p, "-o", s] for p, s in zip(parts, sigs)], d, log)]
    bands = [[f"{B}/find_duplicates", *sigs, "--threshold", "0.8", "--bands", "16", "--rows", "8", "--stage", "bands",
              "--band-range", f"{j * 16 // a.band_jobs}:{(j + 1) * 16 // a.band_jobs}", "--work-dir", f"{w}/lsh",
              "--memory", a.band_memory, "-j", T] for j in range(a.band_jobs)]
    rows.append(stage(f"find_duplicates --stage bands (--memory {a.band_memory})", bands, d, log))
    rows.append(stage(f"find_duplicates --stage verify (--memory {a.verify_memory})",
                      [[f"{B}/find_duplicates", *sigs, "--threshold", "0.8", "--bands", "16", "--rows", "8", "--stage", "verify",
                        "--work-dir", f"{w}/lsh", "--memory", a.verify_memory, "-j", T, "-o", f"{w}/pairs.jsonl"]], d, log))
    rows.append(stage("group_duplicates", [[f"{B}/group_duplicates", "-q", "--threshold", "0.8", f"{w}/pairs.jsonl",
                                            "-o", f"{w}/groups.jsonl"]], d, log))
    rows.append(stage("remove_duplicates", [[f"{B}/remove_duplicates", "-q", "--groups", f"{w}/groups.jsonl", *parts,
                                             "-o", f"{w}/dedup.jsonl.zst", "--removed", f"{w}/removed.jsonl"]], d, log))
    return rows


def datatrove(a, d, info):
    w = os.path.join(d, "datatrove")
    if os.path.exists(w):
        subprocess.run(["rm", "-rf", w], check=True)
    os.makedirs(w)
    log = os.path.join(w, "log.txt")
    drv = os.path.join(os.path.dirname(os.path.abspath(__file__)), "minhash_scale_datatrove.py")
    rows = []
    for step in ("signature", "buckets", "cluster", "filter"):
        rows.append(stage(f"datatrove {step}", [[a.datatrove, drv, step, os.path.join(d, "corpus"), w, str(info["shards"]),
                                                 str(a.threads)]], d, log, system=True))
    return rows


def score(d, info):
    """Recall and precision of each system's clusters against the truth (see the docstring)."""
    base, member_of, jac = {}, {}, {}
    for line in open(os.path.join(d, "truth.tsv")):
        i, c, m, j = line.split("\t")
        member_of[i] = int(c)
        jac[i] = float(j)
        if m == "0":
            base[int(c)] = i
    truth = [(i, base[c]) for i, c in member_of.items() if i != base[c] and jac[i] >= 0.8]
    systems = {}
    cl = {}
    for line in open(os.path.join(d, "ours", "groups.jsonl")):
        g = json.loads(line)
        for i in g["ids"]:
            cl[i] = g["group"]
    systems["ours"] = cl
    dt = os.path.join(d, "datatrove", "remove_ids")
    if os.path.isdir(dt):
        import struct
        n, S = info["docs"], info["shards"]
        cl = {}
        for r in range(S):
            lo = n * r // S
            f = os.path.join(dt, f"{r:06d}.clusters")
            if not os.path.exists(f):
                continue
            data = open(f, "rb").read()
            for k in range(0, len(data), 8):
                idx, c = struct.unpack_from("<II", data, k)
                cl[f"doc-{lo + idx}"] = c
        systems["datatrove"] = cl
    out = {}
    for name, cl in systems.items():
        hit = sum(1 for a, b in truth if a in cl and b in cl and cl[a] == cl[b])
        groups = {}
        for i, c in cl.items():
            groups.setdefault(c, {}).setdefault(member_of.get(i, ("u", i)), 0)
            groups[c][member_of.get(i, ("u", i))] += 1
        same = tot = 0
        for g in groups.values():
            s = sum(g.values())
            tot += s * (s - 1) // 2
            same += sum(k * (k - 1) // 2 for k in g.values())
        removed = sum(len(g) and sum(g.values()) - 1 for g in groups.values())
        out[name] = {"recall": hit / len(truth) if truth else 1.0, "precision": same / tot if tot else 1.0,
                     "clusters": len(groups), "removed": removed}
    return out, len(truth)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="bin")
    ap.add_argument("--gen", default="build/rel/tests/gen_dupcorpus")
    ap.add_argument("--work", default="build/bench/minhash_scale")
    ap.add_argument("--sizes", nargs="+", type=float, default=[1])
    ap.add_argument("--datatrove", default=None, help="the Python with datatrove: its four steps at the first size")
    ap.add_argument("--band-jobs", type=int, default=4)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--band-memory", default="1G")
    ap.add_argument("--verify-memory", default="4G")
    a = ap.parse_args()
    results = {}
    path = os.path.join(a.work, "results.json")
    if os.path.exists(path):
        results = json.load(open(path))
    for k, size in enumerate(a.sizes):
        d = os.path.join(a.work, f"{size:g}GB")
        os.makedirs(d, exist_ok=True)
        want_dt = a.datatrove and k == 0
        info = generate(a.gen, d, size, truth=bool(want_dt))
        print(f"\n== {size:g} GB: {info['line']} ({info['seconds']:.0f} s to generate); "
              f"{a.threads} threads a job, {a.band_jobs} band jobs; page cache dropped before each job by "
              f"{drop_caches(a.work)}")
        start = measure([f"{a.bin}/find_duplicates", "--version"], a.work, os.devnull)["read"]
        rows = ours(a, d, info)
        tot = table(f"ours, {info['text_bytes'] / 1e9:.2f} GB of text (a job's start reads {start / 1e6:.1f} MB: "
                    f"program and libraries, left out of 'data read')", rows, info["text_bytes"], start)
        band = rows[1]
        print(f"band jobs together read {band['data_read'] / 1e6:.0f} MB of data = {band['data_read'] / info['text_bytes']:.3f} x the text "
              f"(goal <= 2); peak RSS of a band job {band['rss_kb'] / 1024:.0f} MB at --memory {a.band_memory}, "
              f"of the verification {rows[2]['rss_kb'] / 1024:.0f} MB at --memory {a.verify_memory}")
        entry = results.get(f"{size:g}", {})  # a run without datatrove keeps an earlier run's datatrove figures
        entry.update({"info": info, "ours": rows, "start_read": start, "threads": a.threads, "band_jobs": a.band_jobs,
                      "band_memory": a.band_memory, "verify_memory": a.verify_memory})
        if want_dt:
            drows = datatrove(a, d, info)
            dtot = table(f"datatrove {info['text_bytes'] / 1e9:.2f} GB of text (LocalPipelineExecutor, "
                         f"{a.threads} workers)", drows, info["text_bytes"])
            q, ntruth = score(d, info)
            entry["datatrove"] = drows
            entry["quality"] = q
            print(f"\nend to end: ours {tot['wall']:.0f} s wall, {tot['cpu']:.0f} CPU s; datatrove {dtot['wall']:.0f} s wall, "
                  f"{dtot['cpu']:.0f} CPU s (the machine's: its workers are not waited for by the process measured; "
                  f"bytes from the disks' counters too): {dtot['cpu'] / tot['cpu']:.1f}x our CPU time, "
                  f"{dtot['wall'] / tot['wall']:.1f}x our wall time")
            print(f"against the planted clusters ({ntruth} pairs (member, base) with exact Jaccard >= 0.8):")
            for name, r in q.items():
                print(f"  {name:10s} recall {r['recall']:.4f}  precision {r['precision']:.4f}  "
                      f"({r['clusters']} clusters, {r['removed']} documents removed)")
        results[f"{size:g}"] = entry
        json.dump(results, open(path, "w"), indent=1)
    # projection to 10 TB from the largest size measured
    sizes = sorted(results, key=float)
    if sizes:
        big = results[sizes[-1]]
        tb = big["info"]["text_bytes"]
        f = 10e12 / tb
        print(f"\nprojected to 10 TB of text from the {sizes[-1]} GB run (x {f:.0f}; per stage, linear):")
        print("| stage | CPU hours | data read (TB) | written (TB) | data read / text |")
        print("|---|---|---|---|---|")
        for r in big["ours"]:
            print(f"| {r['stage']} | {r['cpu'] * f / 3600:.0f} | {r['data_read'] * f / 1e12:.2f} | "
                  f"{r['written'] * f / 1e12:.2f} | {r['data_read'] / tb:.3f} |")
        if len(sizes) > 1:
            print("\ngrowth (time per GB of text at each size, all stages):")
            for s in sizes:
                e = results[s]
                t = e["info"]["text_bytes"] / 1e9
                print(f"  {s:>4} GB: {sum(r['wall'] for r in e['ours']) / t:6.1f} s/GB wall, "
                      f"{sum(r['cpu'] for r in e['ours']) / t:6.1f} CPU s/GB, "
                      f"data read {sum(r['data_read'] for r in e['ours']) / e['info']['text_bytes']:.3f} x the text")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Planted near-duplicate corpus for the dedup tests, from data/corpus/wikinews.

Takes 600 Wikinews articles of 1,500+ bytes and plants 200 near-copies of known
kinds (word edits, insertions, truncations, reordered paragraphs, exact and
case/space-only copies). Writes tests/fixtures/dedup/planted.jsonl.zst and the
ground truth made by brute force in Python, independently of our C code:
expected_pairs.tsv = every pair of documents with exact Jaccard of character
5-gram sets (UTF-8 bytes, all 5-grams) >= 0.5, as "ID_A<TAB>ID_B<TAB>J".
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from tiktoken_offline import ROOT, read_jsonl  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "dedup")


def shingles(t, n=5):
    b = t.encode()
    return {b[i:i + n] for i in range(len(b) - n + 1)} if len(b) >= n else {b}


def main():
    rng = random.Random(2024)
    docs = [json.loads(l) for l in read_jsonl(os.path.join(ROOT, "data", "corpus", "wikinews.jsonl.zst")) if l.strip()]
    docs = [d for d in docs if 1500 <= len(d["text"].encode()) <= 6000]
    rng.shuffle(docs)
    base = docs[:600]
    out = [{"url": d["url"], "text": d["text"]} for d in base]
    kinds = ["edit", "edit", "insert", "truncate", "reorder", "exact", "case"]
    for k in range(200):
        src = rng.choice(base)["text"]
        kind = kinds[k % len(kinds)]
        words = src.split(" ")
        if kind == "edit":
            frac = rng.uniform(0.005, 0.06)
            for _ in range(max(1, int(len(words) * frac))):
                words[rng.randrange(len(words))] = rng.choice(["lorem", "ipsum", "dolor", "sit", "amet"])
            t = " ".join(words)
        elif kind == "insert":
            other = rng.choice(base)["text"]
            pos = rng.randrange(len(src))
            t = src[:pos] + " " + other[:rng.randint(50, 600)] + " " + src[pos:]
        elif kind == "truncate":
            t = src[:int(len(src) * rng.uniform(0.7, 0.98))]
        elif kind == "reorder":
            paras = src.split("\n")
            rng.shuffle(paras)
            t = "\n".join(paras)
        elif kind == "exact":
            t = src
        else:
            t = src.upper().replace(" ", "  ")
        out.append({"url": f"https://planted.example/{k}/{kind}", "text": t})
    rng.shuffle(out)
    path = os.path.join(OUT, "planted.jsonl")
    os.makedirs(OUT, exist_ok=True)
    with open(path, "w") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    subprocess.run(["zstd", "-q", "-f", "-19", "--rm", path], check=True)
    sets = [shingles(d["text"]) for d in out]
    pairs = []
    for i in range(len(out)):
        for j in range(i + 1, len(out)):
            a, b = sets[i], sets[j]
            inter = len(a & b)
            if not inter:
                continue
            jac = inter / (len(a) + len(b) - inter)
            if jac >= 0.5:
                x, y = sorted([out[i]["url"], out[j]["url"]])
                pairs.append((x, y, jac))
    pairs.sort()
    with open(os.path.join(OUT, "expected_pairs.tsv"), "w") as f:
        for x, y, jac in pairs:
            f.write(f"{x}\t{y}\t{jac:.6f}\n")
    print(f"{len(out)} documents, {len(pairs)} pairs >= 0.5, {sum(p[2] >= 0.8 for p in pairs)} >= 0.8")


if __name__ == "__main__":
    main()

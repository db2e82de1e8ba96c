#!/usr/bin/env python3
"""Cross-check our GPT-2 BPE against tiktoken on whole corpora.

For every JSON-lines input, encodes the --key field of each record with
tiktoken's "gpt2" encode_ordinary and with `bin/tokenize`, and reports the
number of documents whose ids differ (must be 0). Exit status 1 on any
difference. Usage: scripts/check/bpe_crosscheck.py [--bin bin] FILE.jsonl[.zst]...
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from tiktoken_offline import gpt2_encoding, read_jsonl  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bin"))
    ap.add_argument("--key", default="text")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    enc = gpt2_encoding()
    bad_total = 0
    for path in args.files:
        lines = [l for l in read_jsonl(path) if l.strip()]
        texts = [json.loads(l)[args.key] for l in lines]
        ref = enc.encode_ordinary_batch(texts, num_threads=args.workers)
        out = subprocess.run([os.path.join(args.bin, "tokenize"), "-q", "--json-key", args.key,
                              "--workers", str(args.workers), path], check=True, capture_output=True).stdout
        ours = out.decode().split("\n")[:-1]
        if len(ours) != len(ref):
            print(f"{path}: {len(ours)} documents from ours, {len(ref)} from tiktoken")
            bad_total += 1
            continue
        diff = 0
        for i, (a, b) in enumerate(zip(ours, ref)):
            ids = [int(x) for x in a.split()] if a else []
            if ids != b:
                diff += 1
                if diff <= 5:
                    k = next((j for j in range(min(len(ids), len(b))) if ids[j] != b[j]), min(len(ids), len(b)))
                    print(f"  {path}: document {i + 1} differs at token {k}: ours {ids[k:k + 8]} tiktoken {b[k:k + 8]}"
                          f" (text {enc.decode(b[max(0, k - 3):k + 8])!r})")
        ntok = sum(len(b) for b in ref)
        print(f"{path}: {len(ref)} documents, {ntok} tokens, {diff} differing documents")
        bad_total += diff
    return 1 if bad_total else 0


if __name__ == "__main__":
    sys.exit(main())

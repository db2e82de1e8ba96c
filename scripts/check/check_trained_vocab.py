#!/usr/bin/env python3
"""Check a vocabulary written by train_bpe: Hugging Face `tokenizers` loads it as
a GPT-2 byte-level BPE, and encodes the documents of INPUT exactly as our
`bin/tokenize` does with the same files.

  scripts/check/check_trained_vocab.py DIR INPUT.jsonl[.zst] [--limit N]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from tiktoken_offline import ROOT, read_jsonl  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("input")
    ap.add_argument("--limit", type=int, default=5000)
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin"))
    args = ap.parse_args()
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    vocab, merges = os.path.join(args.dir, "encoder.json"), os.path.join(args.dir, "vocab.bpe")
    tok = Tokenizer(models.BPE.from_file(vocab, merges))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    lines = [l for l in read_jsonl(args.input) if l.strip()][:args.limit]
    texts = [json.loads(l)["text"] for l in lines]
    ref = [e.ids for e in tok.encode_batch(texts, add_special_tokens=False)]
    data = ("\n".join(lines) + "\n").encode()
    out = subprocess.run([os.path.join(args.bin, "tokenize"), "-q", "--vocab-file", vocab, "--merge-file", merges],
                         input=data, check=True, capture_output=True).stdout.decode().split("\n")[:-1]
    ours = [[int(x) for x in l.split()] for l in out]
    diff = sum(a != b for a, b in zip(ours, ref)) + abs(len(ours) - len(ref))
    roundtrip = sum(tok.decode(r) != t for r, t in zip(ref, texts) if "\ufffd" not in t)
    print(f"{args.dir}: {len(json.load(open(vocab)))} tokens; {len(ref)} documents: {diff} differ between ours and "
          f"Hugging Face tokenizers; {roundtrip} fail to decode back to their text")
    return 1 if diff or roundtrip else 0


if __name__ == "__main__":
    sys.exit(main())

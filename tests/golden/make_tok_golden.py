#!/usr/bin/env python3
"""Golden ids for tests/unit/test_tokenizer.c: every line of
tests/fixtures/tokenizers/multilingual.jsonl encoded by the tokenizers' own
libraries (tiktoken, tokenizers, sentencepiece in build/venv) with the small
vocabularies committed beside it (cut from cl100k_base and DeepSeek-V3's
tokenizer.json, trained SentencePiece models, Mistral's v1 model), written to
tests/fixtures/tokenizers/golden.jsonl as {"type", "model", "pattern", "line",
"ids", "decoded"}. Rerun after changing a fixture."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from tok_crosscheck import read_jsonl, reference  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
D = os.path.join("tests", "fixtures", "tokenizers")
# (type, model, tiktoken pattern, --tokenizer-sentencepiece-legacy)
CASES = [("TikTokenizer", "cl100k_first600.tiktoken", "cl100k_base", False),
         ("HuggingFaceTokenizer", "deepseek_small.tokenizer.json", None, False),
         ("GPTSentencePieceTokenizer", "spm_bpe_bytes.model", None, False),
         ("Llama2Tokenizer", "spm_bpe_nfkc.model", None, False),
         ("GPTSentencePieceTokenizer", "mistral_v1.model", None, False),
         # Megatron-LM's SentencePieceTokenizer today (plain sentencepiece), and its old wrapper
         ("SentencePieceTokenizer", "spm_bpe_bytes.model", None, False),
         ("SentencePieceTokenizer", "mistral_v1.model", None, False),
         ("SentencePieceTokenizer", "spm_bpe_bytes.model", None, True),
         ("SentencePieceTokenizer", "mistral_v1.model", None, True)]


class A:
    pass


def main():
    os.chdir(ROOT)
    lines = [l for l in read_jsonl(os.path.join(D, "multilingual.jsonl")) if l.strip()]
    texts = [json.loads(l)["text"] for l in lines]
    with open(os.path.join(D, "golden.jsonl"), "w", encoding="utf-8") as f:
        for typ, model, pat, legacy in CASES:
            a = A()
            a.tokenizer_type, a.tokenizer_model, a.tiktoken_pattern = typ, os.path.join(D, model), pat
            a.tokenizer_sentencepiece_legacy = legacy
            enc, dec = reference(a)
            for i, t in enumerate(texts):
                ids = enc(t)
                o = {"type": typ, "model": model, "pattern": pat, "line": i + 1, "ids": ids, "decoded": dec(ids)}
                if legacy:
                    o["legacy"] = True
                f.write(json.dumps(o, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Golden fixtures for the tokenizer tests, made with tiktoken (PyPI) from the
project's data/gpt2 files. Writes into tests/fixtures/bpe/:

  cases.tsv         HEX(utf-8 bytes, some invalid)<TAB>ids   (tiktoken.encode_ordinary
                    of bytes.decode("utf-8", "replace"))
  json_cases.jsonl  documents whose JSON holds lone surrogate escapes, and
  json_cases.ids    their ids (tiktoken replaces lone surrogates with U+FFFD)
  corpus.sha256     sha256 of the .bin/.idx that preprocess_data must write for
                    data/corpus/enwiki_sample + wikinews with --append-eod,
                    written here with numpy (scripts/lib/megatron_mmidx.py)
"""
import hashlib
import json
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from megatron_mmidx import write  # noqa: E402
from tiktoken_offline import ROOT, gpt2_encoding, read_jsonl  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "bpe")

HAND = [
    "hello world", "Hello world", " Hello world", "0" * 9, "\n\n\n", "a\u00a0b",
    " 日本語とEnglish 12345!\n", "<|endoftext|>", "", " ", "  ", "\t", "a", "'", "''", "'s", "'S", "'sup",
    "I'm you're we've he'll she'd it's they'LL", "don't 'tis rock'n'roll", "x 's", " 's", "!'s", "a's",
    "hello  world", "hello   world", "hello\n\nworld", "hello \n world", "a \u3000b", "a\u2003\u2003b", "a\x1cb\x1f",
    "\u0085x", "x\u0085", "a\u200bb", "\r\n\r\n", " \n ", "end with spaces   ", "   ", "\n",
    "naïve café résumé", "Ελληνικά κείμενα", "Русский текст", "עברית", "العربية ١٢٣", "हिन्दी पाठ", "ไทย",
    "한국어 텍스트", "中文文本，标点。", "ｆｕｌｌｗｉｄｔｈ１２３", "x² + y³ = ½", "Ⅻ ⅻ 〇", "e\u0301", "👍🏽 👨‍👩‍👧 🇫🇷",
    "price: $1,234.56 (approx.)", "C++ && Rust || Go", "email@example.com http://x.y/z?q=1#f", "#hashtag @user",
    "tabs\tand\ttabs", "🙂🙂🙂", "ab" * 50, "\ufeffBOM", "\U0001d400\U0001d401 math", "\U00020000 ext-B",
    "a" * 10000, "^" * 10000, " " * 10000, "\n" * 5000 + "x", "1234567890" * 500, " a" * 3000,
    "😀" * 2000, ".." * 3000, "x" + " " * 5000 + "y",
]

INVALID = [
    b"\xff", b"a\xffb", b"\xe2\x82", b"\xe2\x82a", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf0\x9f\x98",
    b"abc\x80\x80def", b"\xe0\x80\x80", b"hello \xc3 world", b"\xf5\xf6", b" \xfe\xff ", b"\xc3\xa9\xc3",
]

ALPHABETS = [
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789", " ", "  \t\n\r\x0b\x0c",
    "'srtvmldSRTVMLD", "!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~", "\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\u0085",
    "\x1c\x1d\x1e\x1f\x00\x07\x7f\u200b\u200d\ufeff", "éèêëàâäôöùûüçñßøåæœ", "αβγδεζηθΩΣ", "абвгдежзиЯЖ",
    "\u0301\u0308\u0327\u093f\u0940\u0e31", "中文日本語한국어", "٠١٢٣٤٥٦٧٨٩०१२३", "²³¹¼½¾ⅠⅡⅫ", "😀👍🏽🇫🇷€£¥©®™",
    "\U0001d400\U00020000\U0001f600",
]


def random_cases(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        k = rng.randint(1, 4)
        pool = "".join(rng.sample(ALPHABETS, k))
        out.append("".join(rng.choice(pool) for _ in range(rng.randint(1, 60))))
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    enc = gpt2_encoding()
    with open(os.path.join(OUT, "cases.tsv"), "w") as f:
        items = [t.encode("utf-8") for t in HAND + random_cases(3000, 1234)] + INVALID
        rng = random.Random(99)
        for _ in range(300):  # random bytes
            items.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))))
        for b in items:
            ids = enc.encode_ordinary(b.decode("utf-8", "replace"))
            f.write(b.hex() + "\t" + " ".join(map(str, ids)) + "\n")
    jc = ["a\ud800b", "\udc00", "x\ud83dy", "\ud83d\ude00 ok", "\udfff\ud800", "tail\ud800"]
    with open(os.path.join(OUT, "json_cases.jsonl"), "w") as f, open(os.path.join(OUT, "json_cases.ids"), "w") as g:
        for t in jc:
            f.write(json.dumps({"text": t}) + "\n")
            g.write(" ".join(map(str, enc.encode_ordinary(t))) + "\n")
    docs = []
    for name in ("enwiki_sample", "wikinews"):
        texts = [json.loads(l)["text"] for l in read_jsonl(os.path.join(ROOT, "data", "corpus", name + ".jsonl.zst"))
                 if l.strip()]
        for ids in enc.encode_ordinary_batch(texts, num_threads=2):
            docs.append([ids + [enc.eot_token]] if ids else [])
    with tempfile.TemporaryDirectory() as d:
        write(os.path.join(d, "x"), docs)
        with open(os.path.join(OUT, "corpus.sha256"), "w") as f:
            for ext in (".bin", ".idx"):
                h = hashlib.sha256(open(os.path.join(d, "x" + ext), "rb").read()).hexdigest()
                f.write(f"{h}  corpus_text_document{ext}\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compare preprocess/text/spacy_tok.c with spaCy (spacy.blank("en") + sentencizer),
token for token and sentence count for sentence count, on real documents and
on random strings built from the characters the rules care about.

    scripts/check/spacy_crosscheck.py "build/rel/tests/test_quality --tokens" FILE.jsonl[.zst|.gz]... [--random N] [--limit N]

The command (test_quality --tokens) reads texts separated by NUL on stdin and prints, per text,
its tokens joined by \\x1f, \\x1e, the sentence count, a newline. Exit status 1 on any difference."""
import gzip
import io
import json
import random
import shlex
import subprocess
import sys

import spacy


def read_texts(path, limit, skip=lambda t: any(c in t for c in "\x00\x1d\x1e\x1f")):
    """The "text" strings of a JSON-lines file (.zst, .gz or plain), the first `limit`
    that `skip` does not reject (by default: texts holding our record separators)."""
    if path.endswith(".zst"):
        data = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
        f = io.StringIO(data.decode("utf-8"))
    elif path.endswith(".gz"):
        f = io.TextIOWrapper(gzip.open(path), encoding="utf-8")
    else:
        f = open(path, encoding="utf-8")
    out = []
    for line in f:
        try:
            t = json.loads(line).get("text")
        except Exception:
            continue
        if isinstance(t, str) and not skip(t):
            out.append(t)
        if len(out) >= limit:
            break
    return out


PIECES = ["a", "b", "Z", "é", "1", "10", "x", "the", "don't", "can't", "U.S.", "a.m.", "p.m", ".", "..", "...", "…",
          ",", ":", ";", "!", "?", "(", ")", "[", "]", "{", "}", "'", '"', "“", "”", "’", "‘", "-", "--", "—", "–",
          "/", "\\", "$", "€", "£", "%", "#", "@", "&", "*", "+", "=", "<", ">", "^", "_", "~", "`", "|", ":)", ":(",
          ";)", "<3", "(:", "°", "km", "kg", "'s", "'S", "n't", "http://", "https://", "www.", ".com", ".org", "://",
          "e.g.", "i.e.", "Mr.", "etc.", "No.", "vs.", "°C", "°F", "¡", "¿", "«", "»", "·", "•", "→", "😀", "中文",
          "Ä", "ß", "ı", "İ", "K", " ", " ", "  ", "\t", "\n", "\n\n", "\u00a0", "\u2028", "\x85", "\u3000"]


def random_texts(n, seed=1):
    r = random.Random(seed)

    def piece():
        if r.random() < 0.8:
            return r.choice(PIECES)
        while True:  # any character, mostly from the first planes
            c = chr(r.choice([r.randrange(0x20, 0x3000), r.randrange(0x20, 0x30000)]))
            if not 0xD800 <= ord(c) <= 0xDFFF and c not in "\x1d\x1e\x1f":
                return c
    return ["".join(piece() for _ in range(r.randint(1, 40))) for _ in range(n)]


def main():
    args = sys.argv[1:]
    limit, nrand = 10 ** 9, 0
    if "--limit" in args:
        i = args.index("--limit"); limit = int(args[i + 1]); del args[i:i + 2]
    if "--random" in args:
        i = args.index("--random"); nrand = int(args[i + 1]); del args[i:i + 2]
    binary, files = args[0], args[1:]
    texts = []
    for f in files:
        texts += read_texts(f, limit)
    texts += random_texts(nrand)
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.max_length = 10 ** 9
    inp = "\x00".join(texts).encode("utf-8")
    out = subprocess.run(shlex.split(binary), input=inp, check=True, capture_output=True).stdout.decode("utf-8").split("\x1d")
    bad = 0
    ntok = 0
    for i, t in enumerate(texts):
        doc = nlp(t)
        want = [x.text for x in doc]
        ntok += len(want)
        nsent = len(list(doc.sents))
        got_toks, got_sent = out[i].split("\x1e")
        got = got_toks.split("\x1f") if got_toks else []
        if got != want or int(got_sent) != nsent:
            bad += 1
            if bad <= 8:
                k = next((j for j in range(min(len(got), len(want))) if got[j] != want[j]), min(len(got), len(want)))
                print("text %d: differs at token %d: ours %r spaCy %r; sentences %s vs %d" % (
                    i, k, got[max(0, k - 3):k + 3], want[max(0, k - 3):k + 3], got_sent, nsent))
    print("spacy_crosscheck: %d texts, %d tokens: %d differ" % (len(texts), ntok, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compare our fix_text with ftfy.fix_text (PyPI, the oracle).

    scripts/check/ftfy_compare.py [--bin bin/cleanup] [--limit N] [--show K]
                            [--write-fixture DIR] CORPUS.jsonl[.zst] ...

Three sets of documents:
  corpus    every document of the given corpora (the 'text' key);
  mojibake  generated: paragraphs of the corpora with non-ASCII characters,
            encoded as UTF-8 and decoded as each of ftfy's single-byte
            encodings (latin-1, sloppy windows-1250/1251/1252/1253/1254/1257,
            iso-8859-2, macroman, cp437), once and twice;
  clean     the corpus documents that ftfy leaves unchanged: we must not
            change any of them either ("never damages text ftfy leaves alone").
Our side runs `BIN --fix-only` (cleanup with every filter off) on the same
JSON lines. Prints the share of documents whose outputs differ, per set and
per encoding, and exits 1 when a target is missed (corpus >= 99.9 %,
mojibake >= 99 %, clean: no document changed).
--write-fixture DIR also writes DIR/cases.jsonl: a sample of inputs with
ftfy's outputs, for tests/unit/test_fixtext.c.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import ftfy
import ftfy.bad_codecs  # noqa: F401

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from tiktoken_offline import ROOT, read_jsonl  # noqa: E402

ENCODINGS = ["latin-1", "sloppy-windows-1252", "sloppy-windows-1251", "sloppy-windows-1250",
             "sloppy-windows-1253", "sloppy-windows-1254", "sloppy-windows-1257", "iso-8859-2",
             "macroman", "cp437"]


def make_mojibake(texts, per_encoding, rng):
    paras = []
    for t in texts:
        for p in t.split("\n"):
            if len(p) > 40 and any(ord(c) > 127 for c in p):
                paras.append(p[:2000])
    rng.shuffle(paras)
    out = []  # (label, text, original)
    for enc in ENCODINGS:
        k = 0
        for p in paras:
            if k >= per_encoding:
                break
            try:
                once = p.encode("utf-8").decode(enc)
            except UnicodeDecodeError:
                continue
            out.append((enc + " x1", once, p))
            try:
                twice = once.encode("utf-8").decode(enc)
                out.append((enc + " x2", twice, p))
            except UnicodeDecodeError:
                pass
            k += 1
    return out


def make_random(n, rng):
    """Short random strings built from the characters ftfy's heuristics look at:
    the single-byte encodings' upper halves, entities, controls, line breaks."""
    pool = set()
    for enc in ENCODINGS:
        pool.update(bytes(range(0x80, 0x100)).decode(enc))
    pool = sorted(pool) + list("abcXYZ .,;'\"!?<>&#0123456789") + [
        "\n", "\r", "\r\n", "\x1b[31m", "\x00", "\x1a", "\u2028", "\ufeff", "\ufb01", "\uff21", "\u3000",
        "\u2018", "\u201c", "&amp;", "&eacute;", "&EACUTE;", "&#233;", "&#x1F600;", "&#128;", "&#0;", "&#59;",
        "\u00e9", "e\u0301", "\u00c3\u00a9", "\u00e2\u20ac\u2122", "\u00c2 ", "\u00c3 ", "\U0001F600",
        "\u0413\u045e\u0412\u0402\u0412\u0459", "\u00e2\u20ac\ufffd"]
    out = []
    for _ in range(n):
        k = rng.randint(1, 12)
        out.append(("random", "".join(rng.choice(pool) for _ in range(k)), None))
    return out


def run_ours(binary, texts):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for t in texts:
            f.write(json.dumps({"text": t}, ensure_ascii=False) + "\n")
        name = f.name
    try:
        res = subprocess.run([binary, "--fix-only", name, "-"], stdout=subprocess.PIPE, check=True)
    finally:
        os.unlink(name)
    outs = [json.loads(l)["text"] for l in res.stdout.split(b"\n") if l.strip()]
    if len(outs) != len(texts):
        raise SystemExit("ours returned %d documents for %d" % (len(outs), len(texts)))
    return outs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpora", nargs="*")
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin", "cleanup"))
    ap.add_argument("--limit", type=int, default=0, help="documents per corpus (0: all)")
    ap.add_argument("--per-encoding", type=int, default=300)
    ap.add_argument("--show", type=int, default=3, help="differences to print per set")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random", type=int, default=20000, help="random strings (no target; reported)")
    ap.add_argument("--write-fixture", metavar="DIR")
    a = ap.parse_args()
    corpora = a.corpora or [os.path.join(ROOT, "data", "corpus", f) for f in
                            ("enwiki_sample.jsonl.zst", "wikinews.jsonl.zst")]
    rng = random.Random(a.seed)
    texts = []
    for c in corpora:
        n = 0
        for line in read_jsonl(c):
            if not line.strip():
                continue
            t = json.loads(line).get("text")
            if isinstance(t, str) and t:
                texts.append(t)
                n += 1
                if a.limit and n >= a.limit:
                    break
    moji = make_mojibake(texts, a.per_encoding, rng)
    sets = {"corpus": [("corpus", t, None) for t in texts], "mojibake": moji,
            "random": make_random(a.random, rng)}
    ok = True
    fixture = []
    clean_total = clean_bad = 0
    for name, items in sets.items():
        inputs = [t for _, t, _ in items]
        ref = [ftfy.fix_text(t) for t in inputs]
        ours = run_ours(a.bin, inputs)
        by = {}
        shown = 0
        for (label, t, orig), r, o in zip(items, ref, ours):
            s = by.setdefault(label, [0, 0, 0])
            s[0] += 1
            s[2] += orig is not None and r == orig
            if r != o:
                s[1] += 1
                if shown < a.show:
                    shown += 1
                    for i, (x, y) in enumerate(zip(r, o)):
                        if x != y:
                            break
                    else:
                        i = min(len(r), len(o))
                    print("  [%s %s] differs at %d:\n    input %r\n    ftfy  %r\n    ours  %r" % (
                        name, label, i, t[max(0, i - 40):i + 40], r[max(0, i - 40):i + 40],
                        o[max(0, i - 40):i + 40]))
            if name == "corpus" and r == t:
                clean_total += 1
                if o != t:
                    clean_bad += 1
        total = sum(v[0] for v in by.values())
        diff = sum(v[1] for v in by.values())
        agree = 100.0 * (total - diff) / max(total, 1)
        target = {"corpus": 99.9, "mojibake": 99.0, "random": 0.0}[name]
        print("%-9s %7d documents, %5d differ: %.3f %% identical (target >= %.1f %%)" % (
            name, total, diff, agree, target))
        if name == "mojibake":
            for label in sorted(by):
                v = by[label]
                print("    %-26s %5d docs %4d differ   (ftfy restores %d of them exactly)" % (
                    label, v[0], v[1], v[2]))
        if agree < target:
            ok = False
        if a.write_fixture:
            pick = list(zip(inputs, ref))
            rng.shuffle(pick)
            changed = [p for p in pick if p[0] != p[1]][:150]
            same = [p for p in pick if p[0] == p[1] and any(ord(c) > 127 for c in p[0])][:50]
            for t, r in changed + same:
                if len(t) > 3000:
                    cut = t[:3000].rfind("\n")
                    t = t[:cut + 1] if cut > 0 else t[:3000]
                    r = ftfy.fix_text(t)
                fixture.append({"set": name, "in": t, "ftfy": r})
    print("clean     %7d documents ftfy leaves alone, %d changed by ours" % (clean_total, clean_bad))
    if clean_bad:
        ok = False
    if a.write_fixture:
        os.makedirs(a.write_fixture, exist_ok=True)
        with open(os.path.join(a.write_fixture, "cases.jsonl"), "w", encoding="utf-8") as f:
            for d in fixture:
                f.write(json.dumps(d, ensure_ascii=True) + "\n")
        print("wrote %d cases to %s/cases.jsonl (ftfy %s)" % (len(fixture), a.write_fixture, ftfy.__version__))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

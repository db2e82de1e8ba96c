#!/usr/bin/env python3
"""Golden fixtures for the cleanup tests, made with ftfy, tiktoken and
langdetect from PyPI. Writes tests/fixtures/cleanup/:

  ftfy_cases.jsonl   {"set", "in", "ftfy"}: corpus paragraphs, generated
                     mojibake (each of ftfy's single-byte encodings, once and
                     twice) and random strings, with ftfy.fix_text's output
  general_cleaning.jsonl  {"in", "out"}: re.sub(r"  +|\\b\\n+ |\\b\\n+", " ", in)
  docs.jsonl         documents for the end-to-end test (English, short,
                     non-English manual pages, mojibake, NUL, lone surrogate,
                     bad JSON, no text key, extra keys)
  expected.jsonl     {"i", "reason", "text"}: what Megatron's cleanup_dataset
                     semantics give for each document of docs.jsonl (the text
                     only for kept documents): ftfy.fix_text, then language
                     (langdetect, seeded; only documents where the verdict is
                     clear-cut are used), then the < 1024 characters and
                     < 128 tokens incl. EOD rule (tiktoken GPT-2)
  tasks_expected.jsonl  {"i", "reason", "text"} for --tasks
                     remove_512,remove_256_javascript,ftfy_fix_text
Run after scripts/check/langid_eval.py has fetched the manual pages (build/langid).
"""
import glob
import json
import os
import random
import re
import sys

import ftfy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from ftfy_compare import make_mojibake, make_random  # noqa: E402
from langid_eval import fetch, render  # noqa: E402
from tiktoken_offline import ROOT, gpt2_encoding, read_jsonl  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "cleanup")


def corpus_texts():
    out = []
    for c in ("enwiki_sample.jsonl.zst", "wikinews.jsonl.zst"):
        for line in read_jsonl(os.path.join(ROOT, "data", "corpus", c)):
            if line.strip():
                t = json.loads(line)["text"]
                if t:
                    out.append(t)
    return out


def main():
    rng = random.Random(5)
    os.makedirs(OUT, exist_ok=True)
    texts = corpus_texts()

    # 1. fix_text cases
    cases = []
    paras = [p + "\n" for t in texts for p in t.split("\n") if p]
    rng.shuffle(paras)
    changed = [p for p in paras if ftfy.fix_text(p) != p][:150]
    nonascii = [p for p in paras if any(ord(c) > 127 for c in p) and ftfy.fix_text(p) == p][:60]
    for p in changed + nonascii:
        cases.append(("corpus", p))
    for label, t, _ in make_mojibake(texts, 25, rng):
        cases.append(("mojibake " + label, t))
    for label, t, _ in make_random(400, rng):
        cases.append(("random", t))
    hand = ["", "\n", "abc", "&lt;b&gt; &amp;amp; &EACUTE; &#x1F600; &#128; &#0; &#59; &#xD800; &#99999999;",
            "<b>&amp;</b>\n&amp;", "\x1b[31mred\x1b[0m \x1b[1;2;3m", "caf\u00c3\u00a9 \u00e2\u20ac\u0153quoted\u00e2\u20ac\ufffd",
            "\u00c3 la carte", "\ufeffBOM\u2028line\u2029para\x85next\r\nwin\rmac",
            "\uff21\uff22\uff23\u3000\uff76\uff9e", "\ufb01\ufb02 \u0133 \u01c4", "e\u0301 A\u030a \u1100\u1161\u11a8",
            "\u0413\u045e\u0412\u0402\u0412\u00a9", "x\u00c0\n", "\u00c0\n"]
    for t in hand:
        cases.append(("hand", t))
    with open(os.path.join(OUT, "ftfy_cases.jsonl"), "w", encoding="utf-8") as f:
        for label, t in cases:
            f.write(json.dumps({"set": label, "in": t, "ftfy": ftfy.fix_text(t)}, ensure_ascii=True) + "\n")

    # 2. general_cleaning
    gc = ["a  b", "a\nb", "a\n b", "a.\nb", "a \n b", "\nstart", "x_\n\n\ny", "\u00e9\n z", "\u4e2d\n\u6587",
          "a   \n\n  b", "1\n2", "!\n!", "a\n", "  ", "\u00a0\n", "\u2160\nx", "tab\t\n"]
    gc += [p for p in paras[:40]]
    with open(os.path.join(OUT, "general_cleaning.jsonl"), "w", encoding="utf-8") as f:
        for t in gc:
            f.write(json.dumps({"in": t, "out": re.sub(r"  +|\b\n+ |\b\n+", " ", t)}, ensure_ascii=True) + "\n")

    # 3. end-to-end documents
    from langdetect import DetectorFactory, detect
    DetectorFactory.seed = 0
    enc = gpt2_encoding()
    docs = []  # raw JSON lines
    exp = []

    def add(obj_line, reason, text=None):
        exp.append({"i": len(docs), "reason": reason, "text": text})
        docs.append(obj_line)

    def add_doc(text, extra=None):
        fixed = ftfy.fix_text(text)
        d = {"i": len(docs), "url": "http://example.com/%d" % len(docs)}
        if extra:
            d.update(extra)
        d["text"] = text
        line = json.dumps(d, ensure_ascii=False)
        if not fixed:
            add(line, "empty")
            return
        if detect(fixed) != "en":
            add(line, "non_english")
            return
        if len(fixed) < 1024 and len(enc.encode_ordinary(fixed)) + 1 < 128:
            add(line, "too_short")
            return
        add(line, "kept", fixed)

    long_en = [t for t in texts if 1500 < len(t) < 6000]
    rng.shuffle(long_en)
    for t in long_en[:20]:
        add_doc(t)
    mid = [t for t in texts if 500 < len(t) < 1000]
    rng.shuffle(mid)
    for t in mid[:20]:
        add_doc(t)
    short = [t for t in texts if 20 < len(t) < 300]
    rng.shuffle(short)
    for t in short[:10]:
        add_doc(t)
    mandir = fetch(os.path.join(ROOT, "build", "langid"))
    for lang in ("de", "fr", "es", "ru", "ja", "pl"):
        pages = sorted(glob.glob(os.path.join(mandir, lang, "man1", "*.gz")))
        rng.shuffle(pages)
        k = 0
        for p in pages:
            t = render(p)
            if 1500 < len(t) < 5000 and detect(t) == lang:
                add_doc(t)
                k += 1
                if k == 2:
                    break
    for t in long_en[20:24]:  # mojibake: UTF-8 read as windows-1252 / latin-1
        add_doc(t.encode("utf-8").decode("sloppy-windows-1252"))
    add_doc("")
    add_doc("Null\u0000byte " + long_en[30])
    add_doc(long_en[31], extra={"n": 1.5e300, "nested": {"a": [1, 2, {"b": "c"}]}, "uni": "\u00e9\u2028"})
    # lone surrogate escape: Python's json gives '\ud800', ftfy replaces it by U+FFFD
    t = long_en[32]
    line = json.dumps({"i": len(docs), "text": "\ud800" + t})
    add(line, "kept", ftfy.fix_text("\ud800" + t))
    add('{"i": %d, "text": "unterminated' % len(docs), "bad_json")
    add('{"i": %d, "title": "no text key"}' % len(docs), "no_text")
    add('{"i": %d, "text": 42}' % len(docs), "no_text")
    with open(os.path.join(OUT, "docs.jsonl"), "w", encoding="utf-8") as f:
        for l in docs:
            f.write(l + "\n")
    with open(os.path.join(OUT, "expected.jsonl"), "w", encoding="utf-8") as f:
        for e in exp:
            f.write(json.dumps(e, ensure_ascii=True) + "\n")

    # 4. --tasks remove_512,remove_256_javascript,ftfy_fix_text (Megatron's process_doc)
    texts_js = ["Please enable JavaScript to view this page.", "javascript:void(0) " * 20]
    tdocs, texp = [], []
    for t in short[10:16] + mid[20:26] + long_en[40:46] + texts_js + [
            long_en[46].encode("utf-8").decode("sloppy-windows-1252")]:
        i = len(tdocs)
        tdocs.append(json.dumps({"i": i, "text": t}, ensure_ascii=False))
        if len(t) < 512:
            texp.append({"i": i, "reason": "remove_512", "text": t})
        elif len(t) < 256 and "javascript" in t.lower():
            texp.append({"i": i, "reason": "remove_256_javascript", "text": t})
        else:
            texp.append({"i": i, "reason": "kept", "text": ftfy.fix_text(t)})
    with open(os.path.join(OUT, "tasks_docs.jsonl"), "w", encoding="utf-8") as f:
        for l in tdocs:
            f.write(l + "\n")
    with open(os.path.join(OUT, "tasks_expected.jsonl"), "w", encoding="utf-8") as f:
        for e in texp:
            f.write(json.dumps(e, ensure_ascii=True) + "\n")
    print("wrote %s: %d fix_text cases, %d general_cleaning cases, %d documents (%s), %d task documents" % (
        OUT, len(cases), len(gc), len(docs),
        ", ".join("%s %d" % (r, sum(e["reason"] == r for e in exp)) for r in sorted({e["reason"] for e in exp})),
        len(tdocs)))


if __name__ == "__main__":
    main()

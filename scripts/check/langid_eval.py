#!/usr/bin/env python3
"""Measure cleanup's language identification (CLD2) on documents over 500
characters: English from the project's corpora, non-English from the
translated manual pages of Debian's manpages-XX packages (17 languages,
rendered to text with groff).

    scripts/check/langid_eval.py [--bin bin/cleanup] [--per-lang 150] [--langdetect N]

Downloads the .deb files with `apt-get download` into build/langid/ the first
time. Accuracy = English documents kept + non-English documents dropped, over
all documents. --langdetect N also runs Python's langdetect (what Megatron
uses; seeded) on N documents of each side, for comparison.
"""
import argparse
import glob
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from tiktoken_offline import ROOT, read_jsonl  # noqa: E402

PKGS = ["manpages-de", "manpages-fr", "manpages-es", "manpages-it", "manpages-pl", "manpages-ru", "manpages-ja",
        "manpages-zh", "manpages-pt-br", "manpages-nl", "manpages-ro", "manpages-uk", "manpages-cs", "manpages-da",
        "manpages-fi", "manpages-sv", "manpages-hu"]


def fetch(cache):
    os.makedirs(cache, exist_ok=True)
    have = glob.glob(os.path.join(cache, "*.deb"))
    if len(have) < len(PKGS):
        subprocess.run(["apt-get", "download"] + PKGS, cwd=cache, check=True, stdout=subprocess.DEVNULL)
    root = os.path.join(cache, "root")
    if not os.path.isdir(root):
        for d in glob.glob(os.path.join(cache, "*.deb")):
            subprocess.run(["dpkg-deb", "-x", d, root], check=True)
    return os.path.join(root, "usr", "share", "man")


def render(path):
    zc = subprocess.run(["zcat", path], stdout=subprocess.PIPE, check=True).stdout
    r = subprocess.run(["groff", "-k", "-Tutf8", "-man", "-P-cbou"], input=zc, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    text = r.stdout.decode("utf-8", "replace")
    lines = [l.strip() for l in text.split("\n")]
    text = "\n".join(l for l in lines if l)
    return re.sub(r"[ \t]+", " ", text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin", "cleanup"))
    ap.add_argument("--per-lang", type=int, default=150)
    ap.add_argument("--langdetect", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    mandir = fetch(os.path.join(ROOT, "build", "langid"))
    docs = []  # (lang, text)
    for lang in sorted(os.listdir(mandir)):
        pages = sorted(glob.glob(os.path.join(mandir, lang, "man*", "*.gz")))
        rng.shuffle(pages)
        k = 0
        for p in pages:
            if k >= a.per_lang:
                break
            t = render(p)
            if len(t) > 500:
                docs.append((lang, t))
                k += 1
    for c in ("enwiki_sample.jsonl.zst", "wikinews.jsonl.zst"):
        for line in read_jsonl(os.path.join(ROOT, "data", "corpus", c)):
            if line.strip():
                t = json.loads(line)["text"]
                if len(t) > 500:
                    docs.append(("en", t))
    with tempfile.TemporaryDirectory() as td:
        inp = os.path.join(td, "in.jsonl")
        with open(inp, "w", encoding="utf-8") as f:
            for i, (lang, t) in enumerate(docs):
                f.write(json.dumps({"i": i, "lang": lang, "text": t}, ensure_ascii=False) + "\n")
        out = os.path.join(td, "out.jsonl")
        subprocess.run([a.bin, "--no-length-filter", "-q", inp, out], check=True)
        kept = set()
        with open(out, encoding="utf-8") as f:
            for line in f:
                kept.add(json.loads(line)["i"])
    per = {}
    for i, (lang, t) in enumerate(docs):
        s = per.setdefault(lang, [0, 0])
        s[0] += 1
        right = (i in kept) == (lang == "en")
        s[1] += right
    total = sum(v[0] for v in per.values())
    right = sum(v[1] for v in per.values())
    en = per.get("en", [0, 0])
    non = [sum(v[0] for k, v in per.items() if k != "en"), sum(v[1] for k, v in per.items() if k != "en")]
    print("language identification (CLD2) on documents over 500 characters:")
    print("  English kept        %6d / %6d  %.2f %%" % (en[1], en[0], 100.0 * en[1] / max(en[0], 1)))
    print("  non-English dropped %6d / %6d  %.2f %%" % (non[1], non[0], 100.0 * non[1] / max(non[0], 1)))
    print("  " + "  ".join("%s %d/%d" % (k, v[1], v[0]) for k, v in sorted(per.items()) if k != "en"))
    print("  accuracy            %6d / %6d  %.2f %% (target >= 99 %%)" % (right, total, 100.0 * right / total))
    if a.langdetect:
        from langdetect import DetectorFactory, detect
        DetectorFactory.seed = 0
        ens = [t for l, t in docs if l == "en"]
        nons = [(l, t) for l, t in docs if l != "en"]
        rng.shuffle(ens)
        rng.shuffle(nons)
        ok_en = sum(detect(t) == "en" for t in ens[:a.langdetect])
        ok_non = sum(detect(t) != "en" for _, t in nons[:a.langdetect])
        print("  langdetect (Megatron's choice, seeded) on %d + %d of them: English kept %.2f %%, "
              "non-English dropped %.2f %%" % (min(a.langdetect, len(ens)), min(a.langdetect, len(nons)),
                                               100.0 * ok_en / max(1, min(a.langdetect, len(ens))),
                                               100.0 * ok_non / max(1, min(a.langdetect, len(nons)))))
    sys.exit(0 if right / total >= 0.99 else 1)


if __name__ == "__main__":
    main()

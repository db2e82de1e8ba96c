#!/usr/bin/env python3
"""Benchmark of the cleanup stage, peer measured in the same run.

1. fix_text alone, one thread, texts in memory: our fixtext_fix
   (bench/bench_fixtext.c) vs ftfy.fix_text, on each corpus of data/corpus.
2. The whole tool: `cleanup` (read .zst, parse JSON, fix, CLD2, GPT-2 length
   check, write) with 1 and 2 threads, vs Megatron's cleanup_dataset.py
   recipe in Python (json.loads, ftfy.fix_text, langdetect.detect, GPT-2
   token count by tiktoken -- faster than the HF tokenizer Megatron uses --,
   json.dumps) on a sample of documents, since langdetect is slow.
MB/s are of document text (UTF-8 bytes of the 'text' values).
"""
import json
import os
import subprocess
import sys
import time

import ftfy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "lib"))
from tiktoken_offline import ROOT, gpt2_encoding, read_jsonl  # noqa: E402

BIN = os.environ.get("BIN", os.path.join(ROOT, "bin"))
BENCH = os.environ.get("BENCH_FIXTEXT", os.path.join(ROOT, "build", "rel", "bench", "bench_fixtext"))
CORPORA = [os.path.join(ROOT, "data", "corpus", c) for c in ("enwiki_sample.jsonl.zst", "wikinews.jsonl.zst")]
SAMPLE = int(os.environ.get("BENCH_CLEANUP_SAMPLE", "3000"))


def texts_of(path):
    out = []
    for line in read_jsonl(path):
        if line.strip():
            t = json.loads(line)["text"]
            if t:
                out.append(t)
    return out


def main():
    print("fix_text, 1 thread, texts in memory (best of 3 for ours, 1 run for ftfy %s):" % ftfy.__version__)
    print("  %-22s %10s %12s %12s %8s" % ("corpus", "MB", "ours MB/s", "ftfy MB/s", "ratio"))
    for c in CORPORA:
        texts = texts_of(c)
        mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
        t0 = time.perf_counter()
        for t in texts:
            ftfy.fix_text(t)
        ftfy_rate = mb / (time.perf_counter() - t0)
        ours = float(subprocess.run([BENCH, c], stdout=subprocess.PIPE, check=True).stdout.split()[0])
        print("  %-22s %10.1f %12.1f %12.2f %7.0fx" % (os.path.basename(c), mb, ours, ftfy_rate, ours / ftfy_rate))

    c = CORPORA[0]
    texts = texts_of(c)
    mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    print("whole tool on %s (%d documents with text, %.1f MB of text; %d lines in all):" % (
        os.path.basename(c), len(texts), mb, sum(1 for l in read_jsonl(c) if l.strip())))
    rates = {}
    for j in (1, 2):
        t0 = time.perf_counter()
        subprocess.run([os.path.join(BIN, "cleanup"), "-q", "-j", str(j), c, os.devnull], check=True)
        dt = time.perf_counter() - t0
        rates[j] = mb / dt
        print("  cleanup -j%d: %.2f s, %.1f MB/s of text" % (j, dt, rates[j]))
    # Megatron's recipe, on a sample of the documents that have text
    from langdetect import detect
    from langdetect.lang_detect_exception import LangDetectException
    enc = gpt2_encoding()
    lines = [l for l in read_jsonl(c) if l.strip()]
    sample = [l for l in lines if json.loads(l)["text"]][:SAMPLE]
    smb = sum(len(json.loads(l)["text"].encode("utf-8")) for l in sample) / 1e6
    t0 = time.perf_counter()
    kept = 0
    for line in sample:
        d = json.loads(line)
        text = ftfy.fix_text(d["text"])
        d["text"] = text
        try:
            if detect(text) != "en":
                continue
        except LangDetectException:
            continue
        if len(text) < 1024 and len(enc.encode_ordinary(text)) + 1 < 128:
            continue
        json.dumps(d, ensure_ascii=False)
        kept += 1
    py = smb / (time.perf_counter() - t0)
    print("  Megatron recipe in Python (ftfy + langdetect + tiktoken), first %d documents with text: %.2f MB/s" % (
        len(sample), py))
    print("  ratio: cleanup -j1 %.0fx, -j2 %.0fx" % (rates[1] / py, rates[2] / py))


if __name__ == "__main__":
    main()

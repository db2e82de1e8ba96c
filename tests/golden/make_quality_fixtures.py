#!/usr/bin/env python3
"""Write the golden fixtures of the quality filters (tests/fixtures/quality/) from spaCy and
datatrove themselves (pinned in scripts/setup/install_deps.sh --test):

  tokens.jsonl    {"text", "tokens", "sentences"}: spaCy's tokens (spacy.blank("en"), whitespace
                  tokens included) and the sentencizer's count, for random strings of the pieces
                  the rules care about and paragraphs of the CC fixtures
  docs.jsonl      {"i", "text"}: synthetic documents reaching every reason, CC fixture documents
  expected.jsonl  {"i", "<filter>": [keep, reason, c4 text or null], ..., "chain": [...]} for the four
                  filters alone (datatrove's defaults) and FineWeb's chain

    build/venv/bin/python tests/golden/make_quality_fixtures.py
test_quality (tests/unit) reads them without Python."""
import json
import os
import sys

import spacy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from quality_crosscheck import datatrove_decisions, read_texts, synthetic  # noqa: E402
from spacy_crosscheck import random_texts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fixtures", "quality")
CC = [os.path.join(ROOT, "tests", "fixtures", "cc", f) for f in sorted(os.listdir(os.path.join(ROOT, "tests", "fixtures", "cc")))
      if f.endswith((".jsonl", ".json.gz", ".jsonl.gz"))]


def main():
    os.makedirs(OUT, exist_ok=True)
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    texts = random_texts(2500, seed=5)
    for f in CC:
        for t in read_texts(f, 40):
            texts += [p for p in t.split("\n\n") if p.strip()][:5]
    with open(os.path.join(OUT, "tokens.jsonl"), "w", encoding="utf-8") as f:
        for t in texts:
            d = nlp(t)
            f.write(json.dumps({"text": t, "tokens": [x.text for x in d], "sentences": len(list(d.sents))},
                               ensure_ascii=False) + "\n")
    docs = synthetic(500, seed=11)
    for f in CC:
        docs += read_texts(f, 30)
    want = datatrove_decisions(docs)
    with open(os.path.join(OUT, "docs.jsonl"), "w", encoding="utf-8") as f:
        for i, t in enumerate(docs):
            f.write(json.dumps({"i": i, "text": t}, ensure_ascii=False) + "\n")
    with open(os.path.join(OUT, "expected.jsonl"), "w", encoding="utf-8") as f:
        for i in range(len(docs)):
            e = {"i": i}
            for name, dec in want.items():
                keep, reason, text = dec[i]
                e[name] = [keep, reason, text if keep and name in ("c4_quality", "chain") else None]
            f.write(json.dumps(e, ensure_ascii=False) + "\n")
    print("wrote %s: %d token texts, %d documents" % (OUT, len(texts), len(docs)))


if __name__ == "__main__":
    main()

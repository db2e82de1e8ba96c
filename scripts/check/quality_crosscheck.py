#!/usr/bin/env python3
"""Golden check of cleanup's quality filters against datatrove itself.

    scripts/check/quality_crosscheck.py BIN/cleanup FILE.jsonl[.zst|.gz]... [--limit N] [--synthetic N]
                                  [--workdir DIR] [--report FILE]

Reads the documents (the first N of each file, plus N synthetic documents built
to reach every reason of every filter), runs datatrove's (pinned) filters on
each with datatrove's defaults, each filter alone on the original text, and the
FineWeb chain (gopher_repetition, gopher_quality, c4_quality with
filter_no_terminal_punct=False, fineweb_quality) in sequence; runs
`cleanup --tasks NAME` for each and the chain, and compares every decision,
every reason, and for c4_quality the kept text byte for byte. Prints the
agreement per filter; exit status 1 on any difference."""
import collections
import json
import os
import random
import subprocess
import sys
import tempfile

from datatrove.data import Document
from datatrove.pipeline.filters import (C4QualityFilter, FineWebQualityFilter, GopherQualityFilter,
                                        GopherRepetitionFilter)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts", "lib"))
from spacy_crosscheck import read_texts as spacy_read_texts  # noqa: E402

FILTERS = {
    "gopher_repetition": lambda: GopherRepetitionFilter(),
    "gopher_quality": lambda: GopherQualityFilter(),
    "c4_quality": lambda: C4QualityFilter(),
    "fineweb_quality": lambda: FineWebQualityFilter(),
}
CHAIN = [("gopher_repetition", GopherRepetitionFilter()), ("gopher_quality", GopherQualityFilter()),
         ("c4_quality", C4QualityFilter(filter_no_terminal_punct=False)), ("fineweb_quality", FineWebQualityFilter())]
CHAIN_FLAGS = ["--c4-filter-no-terminal-punct", "false"]
# other parameters than the defaults: datatrove's filter, our task and flags
VARIANTS = {
    "c4_sentences": (lambda: C4QualityFilter(split_paragraph=False, remove_citations=False),
                     "c4_quality", ["--c4-split-paragraph", "false", "--c4-remove-citations", "false"]),
    "fineweb_options": (lambda: FineWebQualityFilter(line_punct_thr=0.3, line_punct_exclude_zero=True,
                                                     stop_chars=(".", "!", "\u3002"), short_line_length=10),
                        "fineweb_quality", ["--line-punct-thr", "0.3", "--line-punct-exclude-zero", "true",
                                            "--stop-chars", ".!\u3002", "--short-line-length", "10"]),
    "gopher_options": (lambda: GopherRepetitionFilter(top_n_grams=((2, 0.1), (5, 0.05)), dup_n_grams=((3, 0.1),),
                                                      dup_line_frac=0),
                       "gopher_repetition", ["--top-n-grams", "2:0.1,5:0.05", "--dup-n-grams", "3:0.1",
                                             "--dup-line-frac", "0"]),
    "gopher_quality_options": (lambda: GopherQualityFilter(min_doc_words=10, stop_words=["the", "a", "of"],
                                                           min_stop_words=3, max_non_alpha_words_ratio=0.9),
                               "gopher_quality", ["--min-doc-words", "10", "--stop-words", "the,a,of",
                                                  "--min-stop-words", "3", "--max-non-alpha-words-ratio", "0.9"]),
}


def read_texts(path, limit):
    """The first `limit` texts of a corpus; lone surrogates (which our reader makes U+FFFD) left out."""
    return spacy_read_texts(path, limit, skip=lambda t: any(0xD800 <= ord(c) <= 0xDFFF for c in t))


SENT = ["The quick brown fox jumps over the lazy dog.", "It was the best of times, it was the worst of times.",
        "This website uses cookies to improve your experience.", "Read our privacy policy and terms of use.",
        "Please enable JavaScript to view the comments.", "Lorem ipsum dolor sit amet, consectetur adipiscing elit.",
        "Click here!", "Home", "Contact us", "Share this:", "- item one", "• bullet point", "And then...",
        "Wait for it…", "#hashtag #another #more", "function f() { return 1; }", "See the note [1] and [edit].",
        "According to sources.[citation needed]", "Mr. Smith went to Washington, D.C. at 10 a.m. today.",
        "I don't know what you're talking about!", "Is this the end?", "\"Quoted sentence.\"", "'Single quoted.'",
        "12345 67890 !!!", "... ... ...", "Ünïcödé wörds änd çhäracters ärë hérë.", "中文句子。", "Это русский текст.",
        "e-mail me at someone@example.com or visit http://example.com/page.", ":) :( ;) <3", "x" * 1200,
        "A line with trailing space. ", "the be to of and that have with", "THE BE TO", "a", "", "\t", "   "]


def synthetic(n, seed=7):
    r = random.Random(seed)
    docs = []
    for i in range(n):
        kind = i % 6
        if kind == 0:  # mixed lines
            lines = [r.choice(SENT) for _ in range(r.randint(1, 30))]
        elif kind == 1:  # repetition
            base = [r.choice(SENT) for _ in range(r.randint(1, 5))]
            lines = [r.choice(base) for _ in range(r.randint(2, 40))]
        elif kind == 2:  # word salad with repeated n-grams
            words = [w for s in r.sample(SENT, 4) for w in s.split()]
            k = r.randint(1, 8)
            chunk = [r.choice(words) for _ in range(k)]
            body = []
            for _ in range(r.randint(5, 60)):
                body += chunk if r.random() < 0.5 else [r.choice(words)]
            lines = [" ".join(body[j:j + 12]) + r.choice([".", "", "!", "..."]) for j in range(0, len(body), 12)]
        elif kind == 3:  # paragraphs
            paras = [" ".join(r.choice(SENT) for _ in range(r.randint(1, 6))) for _ in range(r.randint(1, 8))]
            paras += [r.choice(paras) for _ in range(r.randint(0, 3))]
            lines = ["\n\n".join(paras)]
        elif kind == 4:  # odd characters and line breaks
            pool = SENT + ["\r\n", "\u2028", "\x0b", "\x0c", "\x85", "\xa0", "！", "。", "…", "\u3002", "??", "!!!"]
            lines = ["".join(r.choice(pool) for _ in range(r.randint(1, 12))) for _ in range(r.randint(1, 20))]
        else:  # list-like: many short lines
            lines = [r.choice(["Home", "News", "- a", "• b", "1.", "Next »", "Posted by admin", "Tags:"])
                     for _ in range(r.randint(5, 80))] + [r.choice(SENT) for _ in range(r.randint(0, 5))]
        sep = r.choice(["\n", "\n", "\n\n", "\n\n\n", " \n"])
        docs.append(sep.join(lines))
    docs += ["", "\n", "\n\n\n", "...", "!!!!", "# # # #", " ", "a\nb\nc", "\u2028\u2029", "x" * 5000]
    return docs


def datatrove_decisions(texts):
    """per filter: list of (keep, reason, text_after)"""
    out = {name: [] for name in FILTERS}
    out["chain"] = []
    insts = {name: mk() for name, mk in FILTERS.items()}
    insts.update({name: v[0]() for name, v in VARIANTS.items()})
    out.update({name: [] for name in VARIANTS})
    for t in texts:
        for name, f in insts.items():
            d = Document(text=t, id="x")
            res = f.filter(d)
            keep, reason = (res, None) if not isinstance(res, tuple) else res
            out[name].append((bool(keep), reason, d.text))
        d = Document(text=t, id="x")
        dec = (True, None, None)
        for name, f in CHAIN:
            res = f.filter(d)
            keep, reason = (res, None) if not isinstance(res, tuple) else res
            if not keep:
                dec = (False, "%s/%s" % (name, reason), None)
                break
        if dec[0]:
            dec = (True, None, d.text)
        out["chain"].append(dec)
    return out


def ours(binary, texts, tasks, extra, workdir):
    inp = os.path.join(workdir, "in.jsonl")
    with open(inp, "w", encoding="utf-8") as f:
        for i, t in enumerate(texts):
            f.write(json.dumps({"i": i, "text": t}) + "\n")
    kept_f, rm_f = os.path.join(workdir, "kept.jsonl"), os.path.join(workdir, "removed.jsonl")
    subprocess.run([binary, "-q", "--tasks", tasks, *extra, inp, kept_f, "--removed", rm_f], check=True)
    res = {}
    for line in open(kept_f, encoding="utf-8"):
        d = json.loads(line)
        res[d["i"]] = (True, None, d["text"])
    chain = "," in tasks
    for line in open(rm_f, encoding="utf-8"):
        d = json.loads(line)
        reason = d["cleanup_reason"] if not chain else "%s/%s" % (d.get("cleanup_filter"), d["cleanup_reason"])
        res[d["i"]] = (False, reason, None)
    if len(res) != len(texts):
        raise SystemExit("cleanup --tasks %s: %d documents out of %d" % (tasks, len(res), len(texts)))
    return [res[i] for i in range(len(texts))]


def main():
    args = sys.argv[1:]
    opts = {"--limit": "1000000000", "--synthetic": "0", "--workdir": None, "--report": None}
    for k in list(opts):
        if k in args:
            i = args.index(k)
            opts[k] = args[i + 1]
            del args[i:i + 2]
    binary, files = args[0], args[1:]
    texts = []
    for f in files:
        texts += read_texts(f, int(opts["--limit"]))
    texts += synthetic(int(opts["--synthetic"]))
    want = datatrove_decisions(texts)
    workdir = opts["--workdir"] or tempfile.mkdtemp()
    os.makedirs(workdir, exist_ok=True)
    bad_total = 0
    lines = []
    for name in list(FILTERS) + ["chain"] + list(VARIANTS):
        if name in VARIANTS:
            got = ours(binary, texts, VARIANTS[name][1], VARIANTS[name][2], workdir)
        else:
            got = ours(binary, texts, name if name != "chain" else ",".join(n for n, _ in CHAIN),
                       [] if name != "chain" else CHAIN_FLAGS, workdir)
        bad = 0
        reasons = collections.Counter()
        for i, (g, w) in enumerate(zip(got, want[name])):
            check_text = name in ("c4_quality", "chain", "c4_sentences")
            same = g[0] == w[0] and (g[1] == w[1] if not w[0] else True) and (not w[0] or not check_text or g[2] == w[2])
            reasons[w[1] or "kept"] += 1
            if not same:
                bad += 1
                if bad <= 5:
                    what = "text differs" if g[0] and w[0] else "ours %s, datatrove %s" % (
                        g[1] or "kept", w[1] or "kept")
                    print("  %s: document %d: %s" % (name, i, what))
        bad_total += bad
        agree = 100.0 * (len(texts) - bad) / max(1, len(texts))
        lines.append("%-18s %7d documents  %7d differ  agreement %.3f%%   datatrove: %s" % (
            name, len(texts), bad, agree, ", ".join("%s %d" % kv for kv in reasons.most_common())))
    for l in lines:
        print(l)
    if opts["--report"]:
        with open(opts["--report"], "w") as f:
            f.write("\n".join(lines) + "\n")
    sys.exit(1 if bad_total else 0)


if __name__ == "__main__":
    main()

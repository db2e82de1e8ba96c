"""eval_extract.py BIN DEVSET_DIR [ONLY] - extract's quality and speed on its three quality
sets, beside trafilatura, resiliparse and, when installed, newspaper3k, on the same pages in
the same run, one thread each.

1. devset (bench/make_extract_devset.py: trafilatura's evaluation pages, Zyte's left out),
   scored as trafilatura scores itself (tests/eval_common.py): per page, each "with" passage
   found in the output (white space normalised) is a true positive, else a false negative;
   each "without" passage found is a false positive, else a true negative; precision, recall
   and F1 over all pages, and over the "dev" and "test" halves (tune on dev, report test).
2. fullset (bench/make_extract_fullset.py: Mozilla Readability's test pages with their whole
   expected text), scored as Zyte's article-extraction benchmark scores (our code, the same
   definition): shingles of 4 \\w+ tokens, TP/FP/FN per page normalised to sum to 1, precision
   and recall averaged over the pages, F1 of the two; also per half.
3. newsset (bench/make_extract_newsset.py: newspaper3k's full-text test pages, 98 news and
   magazine pages with the article text newspaper's maintainers accepted; newspaper's own
   output, so newspaper scores itself near 1.0): scored as the fullset; no rule was tuned on
   it, a check of how the rules carry to pages nobody looked at.
Speed: pages per second and MB/s of HTML, extraction only for the Python tools (the HTML
already in memory), the whole tool (reading the zstd WARC, writing JSON) for ours.
4. wcxb (bench/make_extract_wcxb.py: 400 pages of WCXB's development split, seven page types,
   with the main content its annotators wrote down), scored as the fullset, and per page type.
5. dragnet, cleaneval, portal, l3s, big5, chaos, gtrends (bench/make_extract_more.py: up to 100
   pages of each public benchmark, with its own gold text), scored as the fullset.
ONLY: one set's name to run it alone. PAGES=1: each dev-half page's F1 per
extractor (the test halves are not listed: they are kept unread while tuning).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def score(meta, outputs, half=None):
    tp = fp = fn = tn = 0
    for m, out in zip(meta, outputs):
        if half and m["half"] != half:
            continue
        o = norm(out or "")
        t = sum(1 for w in m["with"] if norm(w) in o)
        f = sum(1 for w in m["without"] if norm(w) in o)
        tp += t
        fp += f
        fn += len(m["with"]) - t
        tn += len(m["without"]) - f
    p = tp / (tp + fp) if tp + fp else 0
    r = tp / (tp + fn) if tp + fn else 0
    return p, r, (2 * p * r / (p + r) if p + r else 0)


TOKEN = re.compile(r"\w+", re.UNICODE)


def shingles(text, n=4):
    t = TOKEN.findall(text or "")
    return Counter(tuple(t[i:i + n]) for i in range(max(1, len(t) - n + 1)) if t[i:i + n])


def page_tp_fp_fn(truth, pred):
    a, b = shingles(truth), shingles(pred)
    tp = sum(min(a[k], b[k]) for k in a.keys() & b.keys())
    fp = sum(b.values()) - tp
    fn = sum(a.values()) - tp
    s = tp + fp + fn
    return (tp / s, fp / s, fn / s) if s else (0.0, 0.0, 0.0)


def score_full(meta, outputs, half=None):
    ps, rs = [], []
    for m, out in zip(meta, outputs):
        if half and m["half"] != half:
            continue
        tp, fp, fn = page_tp_fp_fn(m["truth"], out or "")
        if tp + fp > 0:
            ps.append(1.0 if fp == fn == 0 else tp / (tp + fp))
        if tp + fn > 0:
            rs.append(1.0 if fp == fn == 0 else tp / (tp + fn))
    p = sum(ps) / len(ps) if ps else 0
    r = sum(rs) / len(rs) if rs else 0
    return p, r, (2 * p * r / (p + r) if p + r else 0)


def run_all(bin_dir, warc, meta):
    """Every extractor over the pages of warc: [(name, outputs, seconds)], MB of HTML."""
    from warcio.archiveiterator import ArchiveIterator
    pages = []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "d.warc")
        subprocess.run(["zstd", "-d", "-q", "-f", warc, "-o", plain], check=True)
        for r in ArchiveIterator(open(plain, "rb")):
            if r.rec_type == "resource":
                pages.append(r.content_stream().read())
        assert len(pages) == len(meta)
        mb = sum(len(p) for p in pages) / 1e6

        def ours(flags, name):
            out = os.path.join(tmp, "o.jsonl")
            t0 = time.perf_counter()
            subprocess.run([os.path.join(bin_dir, "extract"), "-q", "-j", "1", *flags, warc, "-o", out], check=True)
            dt = time.perf_counter() - t0
            by_url = {}
            for line in open(out, encoding="utf-8"):
                j = json.loads(line)
                by_url[j["url"]] = j["text"]
            rows.append((name, [by_url.get(m["url"]) for m in meta], dt))

        ours([], "extract (ours)")
        ours(["--favor-precision"], "extract --favor-precision")
        ours(["--mode", "all"], "extract --mode all")

        def theirs(name, fn):
            outs = []
            t0 = time.perf_counter()
            for p in pages:
                try:
                    outs.append(fn(p))
                except Exception:
                    outs.append(None)
            rows.append((name, outs, time.perf_counter() - t0))

        try:
            import trafilatura
            theirs("trafilatura 2.3.1", lambda p: trafilatura.extract(p))
            theirs("trafilatura (FineWeb's settings)", lambda p: trafilatura.extract(
                p, favor_precision=True, include_comments=False, deduplicate=True))
        except ImportError:
            print("trafilatura not installed (scripts/setup/install_deps.sh --bench)", file=sys.stderr)
        try:
            from resiliparse.extract.html2text import extract_plain_text
            from resiliparse.parse.encoding import bytes_to_str, detect_encoding
            theirs("resiliparse (main content, DCLM)", lambda p: extract_plain_text(
                bytes_to_str(p, detect_encoding(p)), main_content=True, alt_texts=False, links=False))
            theirs("resiliparse (all text)", lambda p: extract_plain_text(bytes_to_str(p, detect_encoding(p))))
        except ImportError:
            print("resiliparse not installed (scripts/setup/install_deps.sh --bench)", file=sys.stderr)
        try:
            import lxml.html
            from readability import Document

            def rl_extract(p):
                summary = Document(p).summary(html_partial=True)
                return "\n".join(l.strip() for l in lxml.html.fromstring(summary).text_content().split("\n") if l.strip())
            theirs("readability-lxml 0.9", rl_extract)
        except ImportError:
            print("readability-lxml not installed (scripts/setup/install_deps.sh --bench)", file=sys.stderr)
        try:
            if os.path.basename(warc).split(".")[0] not in ("devset", "fullset", "newsset"):
                raise ImportError  # (0.4-20 pages/s: on its own three sets only, to keep the run short)
            from newspaper import Article

            def np_extract(p):
                a = Article("http://example.com/")
                a.set_html(p.decode("utf-8", "replace"))
                a.parse()
                return a.text
            theirs("newspaper3k", np_extract)
        except ImportError:
            pass  # (not installed, or not one of its sets)
    return rows, mb


def empties(outs):
    return sum(1 for o in outs if not (o or "").strip())


def report(title, meta, rows, mb, fn):
    print(title)
    print(f"{'extractor':36s} {'P':>6s} {'R':>6s} {'F1':>6s} {'F1 dev':>7s} {'F1 test':>7s} {'empty':>6s} {'pages/s':>8s} {'MB/s':>7s}")
    for name, outs, dt in rows:
        p, r, f = fn(meta, outs)
        print(f"{name:36s} {p:6.3f} {r:6.3f} {f:6.3f} {fn(meta, outs, 'dev')[2]:7.3f} "
              f"{fn(meta, outs, 'test')[2]:7.3f} {empties(outs):6d} {len(meta) / dt:8.1f} {mb / dt:7.1f}")
    types = sorted({m["type"] for m in meta if "type" in m})
    if types:  # WCXB: F1 per page type (both halves), pages in brackets
        print("F1 per page type:")
        print(f"{'extractor':36s} " + " ".join(f"{t[:11] + ' (' + str(sum(m.get('type') == t for m in meta)) + ')':>16s}" for t in types))
        for name, outs, dt in rows:
            cells = []
            for t in types:
                sub = [(m, o) for m, o in zip(meta, outs) if m.get("type") == t]
                cells.append(f"{fn([m for m, _ in sub], [o for _, o in sub])[2]:16.3f}")
            print(f"{name:36s} " + " ".join(cells))
    if os.environ.get("PAGES"):  # per page F1 of each extractor, for looking at the dev half
        for i, m in enumerate(meta):
            if m["half"] == "dev":
                print(m["name"], m.get("type", ""), " ".join(f"{fn([m], [outs[i]])[2]:.2f}" for _, outs, _ in rows))


SETS = [  # (name, what its pages are, how they are scored, scorer)
    ("devset", "from trafilatura's evaluation data, Zyte's pages left out",
     "precision / recall / F1 of trafilatura's with/without passages", score),
    ("fullset", "from Mozilla Readability's test pages with their whole expected text",
     "precision / recall / F1 of 4-token shingles (Zyte's benchmark's measure), averaged over pages", score_full),
    ("newsset", "of news from newspaper3k's full-text tests, with the text its maintainers accepted "
     "(newspaper's own output); no rule tuned on them", "4-token shingles as above", score_full),
    ("wcxb", "of seven types from WCXB's development split (its test split held out, never read)",
     "4-token shingles as above", score_full),
    # bench/make_extract_more.py: the public boilerplate-removal benchmarks, 100 pages of each at most
    ("dragnet", "from Dragnet's benchmark (news and blog articles, 2012; article text without comments)",
     "4-token shingles as above", score_full),
    ("cleaneval", "from CleanEval's final set (2007, mixed English pages)", "4-token shingles as above", score_full),
    ("portal", "from CleanPortalEval (news portals, Hungarian and English)", "4-token shingles as above", score_full),
    ("l3s", "from L3S-GN1 (Google News pages, 2010; headline, full and supplemental text)",
     "4-token shingles as above", score_full),
    ("big5", "from Big5 (nine news sites in 2005, 2009, 2013 and 2017)", "4-token shingles as above", score_full),
    ("chaos", "from Chaos (2017 news pages of about 240 sites)", "4-token shingles as above", score_full),
    ("gtrends", "from Google-Trends-2017 (BoilerNet's pages of any kind; the elements labelled content)",
     "4-token shingles as above", score_full),
]


def main():
    bin_dir, d = sys.argv[1], sys.argv[2]
    only = sys.argv[3] if len(sys.argv) > 3 else None
    for name, what, how, fn in SETS:
        if only not in (None, name) or not os.path.exists(os.path.join(d, name + ".json")):
            continue
        meta = json.load(open(os.path.join(d, name + ".json"), encoding="utf-8"))
        rows, mb = run_all(bin_dir, os.path.join(d, name + ".warc.zst"), meta)
        report(f"{len(meta)} pages ({mb:.1f} MB of HTML) {what}; one thread; {how}", meta, rows, mb, fn)


main()

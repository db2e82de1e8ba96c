"""make_extract_fullset.py READABILITY_CHECKOUT OUT_DIR - extract's second development set,
scored on whole texts (the first, make_extract_devset.py, on passages).

From Mozilla Readability's test pages (github.com/mozilla/readability, test/test-pages/NAME/
source.html and expected.html; Apache-2.0): each real page with the main content that
Readability.js keeps, written down by its maintainers. The synthetic cases of that suite
(a few hundred bytes of HTML each, testing one rule) are left out: a page is taken when its
source has at least 10 KB and its expected text at least 100 words. The expected HTML is
turned into text with a line break at each block element. Pages are ordered by the SHA-1 of
their names (content-blind), the first half "dev" (for tuning), the rest "test" (for
reporting). Written:
  OUT_DIR/fullset.warc.zst  the source pages as WARC resource records (text/html,
                            WARC-Target-URI http://readability-test-pages/NAME/), zstd -19;
  OUT_DIR/fullset.json      [{"url", "name", "truth", "half"}] in record order.
The score (bench/eval_extract.py) is the one of Zyte's article-extraction benchmark, computed
by our own code on these pages: shingles of 4 \\w+ tokens, true/false positives and false
negatives per page normalised to sum to 1, precision and recall averaged over pages.
"""
import hashlib
import io
import json
import os
import re
import subprocess
import sys

import lxml.html
from warcio.warcwriter import WARCWriter

BLOCKS = {"p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr", "td", "th",
          "blockquote", "pre", "figure", "figcaption", "section", "article", "header", "footer", "dl", "dt",
          "dd", "hr", "aside", "nav", "main", "details", "summary", "caption"}


def html_text(data):
    root = lxml.html.fromstring(data)
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.lower() in BLOCKS:
            el.tail = "\n" + (el.tail or "")
            if el.text is not None or len(el):
                el.text = "\n" + (el.text or "")
    text = root.text_content()
    return "\n".join(re.sub(r"[ \t\r\f\v]+", " ", l).strip() for l in text.split("\n") if l.strip())


def main():
    src, out = sys.argv[1], sys.argv[2]
    base = os.path.join(src, "test", "test-pages")
    items = []
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        s, e = os.path.join(d, "source.html"), os.path.join(d, "expected.html")
        if not (os.path.exists(s) and os.path.exists(e)) or os.path.getsize(s) < 10000:
            continue
        truth = html_text(open(e, "rb").read().decode("utf-8", "replace"))  # the suite is UTF-8 throughout
        if len(re.findall(r"\w+", truth)) < 100:
            continue
        items.append((hashlib.sha1(name.encode()).hexdigest(), name, s, truth))
    items.sort()
    os.makedirs(out, exist_ok=True)
    raw = os.path.join(out, "fullset.warc")
    meta = []
    with open(raw, "wb") as fh:
        w = WARCWriter(fh, gzip=False)
        for i, (_, name, path, truth) in enumerate(items):
            url = "http://readability-test-pages/%s/" % name
            rec = w.create_warc_record(url, "resource", payload=io.BytesIO(open(path, "rb").read()),
                                       warc_content_type="text/html")
            w.write_record(rec)
            meta.append({"url": url, "name": name, "truth": truth, "half": "dev" if i < len(items) // 2 else "test"})
    subprocess.run(["zstd", "-19", "-q", "-f", "--rm", raw, "-o", raw + ".zst"], check=True)
    with open(os.path.join(out, "fullset.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=0)
    print("%d pages (%d dev, %d test) into %s" % (len(meta), len(meta) // 2, len(meta) - len(meta) // 2, out))


main()

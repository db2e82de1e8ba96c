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
import os
import re
import sys

import lxml.html
from extract_sets import write_set

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
    write_set(out, "fullset", [(name, path, truth) for _, name, path, truth in items], "http://readability-test-pages/%s/")


main()

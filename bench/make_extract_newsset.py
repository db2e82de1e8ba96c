"""make_extract_newsset.py NEWSPAPER_CHECKOUT OUT_DIR - extract's third quality set, a check
that no rule was tuned on, scored on whole texts as the second (make_extract_fullset.py).

From newspaper3k's full-text test data (github.com/codelucas/newspaper, MIT licence;
tests/data/html/NAME.html and tests/data/text/NAME.txt): real news and magazine pages of
2013-2015 (The New Yorker, Reuters, Fox News, Slate, USA Today, ...; a few in other languages),
each with the article text that newspaper's maintainers accepted as the correct extraction.
It is not written by hand: it is newspaper's own output where they judged it right, so it
leaves out what newspaper leaves out (captions, some list items) and newspaper scores itself
near 1.0 on it; the other extractors are compared with each other. Some of those files hold a
note instead of a text ("LAST PARAGRAPH IS MISSED") or newspaper's wrong answer (a newsletter
box): a page is taken when its text has at least 150 words, which leaves them out. Pages are
ordered by the SHA-1 of their names, halves "dev" and "test" as in the other sets, though no
rule was tuned on either half of this one. Written:
  OUT_DIR/newsset.warc.zst  the pages as WARC resource records (text/html,
                            WARC-Target-URI http://newspaper-test-pages/NAME/), zstd -19;
  OUT_DIR/newsset.json      [{"url", "name", "truth", "half"}] in record order.
"""
import hashlib
import os
import re
import sys

from extract_sets import write_set


def main():
    src, out = sys.argv[1], sys.argv[2]
    html_dir, text_dir = os.path.join(src, "tests", "data", "html"), os.path.join(src, "tests", "data", "text")
    items = []
    for f in sorted(os.listdir(text_dir)):
        name = f[:-4]
        page = os.path.join(html_dir, name + ".html")
        if not f.endswith(".txt") or not os.path.exists(page):
            continue
        truth = open(os.path.join(text_dir, f), encoding="utf-8").read()
        if len(re.findall(r"\w+", truth)) < 150:
            continue
        items.append((hashlib.sha1(name.encode()).hexdigest(), name, page, truth))
    items.sort()
    write_set(out, "newsset", [(name, path, truth) for _, name, path, truth in items], "http://newspaper-test-pages/%s/")


main()

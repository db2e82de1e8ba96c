"""make_extract_wcxb.py WCXB_CHECKOUT OUT_DIR [N] - extract's fourth quality set: pages of seven
types from WCXB's development split (github.com/Murrough-Foley/web-content-extraction-benchmark,
CC-BY-4.0; 1,497 pages: articles, forums, products, collections, listings, documentation,
service pages), scored on whole texts as the other whole-text sets.

Only dev/ is read: WCXB's test split is held out (it scores this project from outside) and is
never opened here. The pages are ordered by the SHA-1 of their file id (content-blind) and the
first N (default 400) taken: the first half "dev" (for tuning), the rest "test" (kept unread
while tuning; it reports). Each entry carries its page type (WCXB's "category" is a
collection, as its evaluate.py reads it). Written:
  OUT_DIR/wcxb.warc.zst  the pages as WARC resource records (text/html, WARC-Target-URI
                         http://wcxb-dev/ID/), zstd -19;
  OUT_DIR/wcxb.json      [{"url", "name", "truth", "half", "type"}] in record order.
"""
import gzip
import hashlib
import json
import os
import sys
import tempfile

from extract_sets import write_set


def main():
    src, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 400
    gt_dir, html_dir = os.path.join(src, "dev", "ground-truth"), os.path.join(src, "dev", "html")
    ids = sorted((hashlib.sha1(f[:-5].encode()).hexdigest(), f[:-5]) for f in os.listdir(gt_dir) if f.endswith(".json"))
    items, types = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for _, fid in ids[:n]:
            d = json.load(open(os.path.join(gt_dir, fid + ".json"), encoding="utf-8"))
            gt = d.get("ground_truth") or {}
            pt = ((d.get("_internal") or {}).get("page_type") or {})
            pt = pt.get("primary", "article") if isinstance(pt, dict) else (pt or "article")
            types[fid] = "collection" if pt == "category" else pt
            path = os.path.join(tmp, fid + ".html")
            with open(path, "wb") as f:
                f.write(gzip.open(os.path.join(html_dir, fid + ".html.gz")).read())
            items.append((fid, path, gt.get("main_content") or ""))
        write_set(out, "wcxb", items, "http://wcxb-dev/%s/")
    # each page's type into the set's entries
    meta_path = os.path.join(out, "wcxb.json")
    meta = json.load(open(meta_path, encoding="utf-8"))
    for m in meta:
        m["type"] = types[m["name"]]
    json.dump(meta, open(meta_path, "w", encoding="utf-8"), ensure_ascii=False, indent=0)


main()

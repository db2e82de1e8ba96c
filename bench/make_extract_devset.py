"""make_extract_devset.py TRAFILATURA_CHECKOUT OUT_DIR [N] - extract's development set.

From trafilatura's own evaluation data (github.com/adbar/trafilatura, tests/evaldata.json
and the pages in tests/eval and tests/cache; Apache-2.0): real pages, each with passages
that must be in the main text ("with") and passages that must not ("without"). The pages
named by a 32-digit hex hash are Zyte's (Scrapinghub's) article-extraction benchmark,
which scores this project from outside: they are left out. N pages (default 200) are taken
in the order of the SHA-1 of their file names (a fixed, content-blind sample) and written:
  OUT_DIR/devset.warc.zst   the pages as WARC resource records (Content-Type text/html,
                            WARC-Target-URI the page's URL), as bytes, zstd -19;
  OUT_DIR/devset.json       [{"url", "file", "with", "without", "half"}] in record order;
                            half "dev" (the first half: for tuning) or "test" (the rest:
                            for reporting).
"""
import hashlib
import io
import json
import os
import re
import subprocess
import sys

from warcio.warcwriter import WARCWriter


def main():
    src, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    data = json.load(open(os.path.join(src, "tests", "evaldata.json"), encoding="utf-8"))
    items = []
    for url, it in data.items():
        f = it["file"]
        if re.match(r"^[0-9a-f]{32}\.html", f):
            continue  # Zyte's benchmark: the held-out set
        path = next((os.path.join(src, "tests", d, f) for d in ("eval", "cache")
                     if os.path.exists(os.path.join(src, "tests", d, f))), None)
        if path:
            items.append((hashlib.sha1(f.encode()).hexdigest(), url, it, path))
    items.sort()
    items = items[:n]
    os.makedirs(out, exist_ok=True)
    raw = os.path.join(out, "devset.warc")
    meta = []
    with open(raw, "wb") as fh:
        w = WARCWriter(fh, gzip=False)
        for i, (_, url, it, path) in enumerate(items):
            rec = w.create_warc_record(url, "resource", payload=io.BytesIO(open(path, "rb").read()),
                                       warc_content_type="text/html")
            w.write_record(rec)
            meta.append({"url": url, "file": it["file"], "with": it["with"], "without": it["without"],
                         "half": "dev" if i < len(items) // 2 else "test"})
    subprocess.run(["zstd", "-19", "-q", "-f", "--rm", raw, "-o", raw + ".zst"], check=True)
    json.dump(meta, open(os.path.join(out, "devset.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=0)
    print(f"{len(items)} pages into {out}")


main()

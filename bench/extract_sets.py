"""extract_sets.py - what the makers of extract's whole-text quality sets share
(make_extract_fullset.py, make_extract_newsset.py): pages and their truths written as a set."""
import io
import json
import os
import subprocess

from warcio.warcwriter import WARCWriter


def write_set(out, set_name, items, url_format):
    """items: [(name, html_path, truth)] in the set's order. Writes OUT/SET.warc.zst (the pages
    as WARC resource records, text/html, WARC-Target-URI url_format % name; zstd -19) and
    OUT/SET.json ([{"url", "name", "truth", "half"}] in record order: the first half "dev",
    the rest "test")."""
    os.makedirs(out, exist_ok=True)
    raw = os.path.join(out, set_name + ".warc")
    meta = []
    with open(raw, "wb") as fh:
        w = WARCWriter(fh, gzip=False)
        for i, (name, path, truth) in enumerate(items):
            url = url_format % name
            rec = w.create_warc_record(url, "resource", payload=io.BytesIO(open(path, "rb").read()),
                                       warc_content_type="text/html")
            w.write_record(rec)
            meta.append({"url": url, "name": name, "truth": truth, "half": "dev" if i < len(items) // 2 else "test"})
    subprocess.run(["zstd", "-19", "-q", "-f", "--rm", raw, "-o", raw + ".zst"], check=True)
    with open(os.path.join(out, set_name + ".json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=0)
    print("%d pages (%d dev, %d test) into %s" % (len(meta), len(meta) // 2, len(meta) - len(meta) // 2, out))

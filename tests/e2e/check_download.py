#!/usr/bin/env python3
"""Check download's output with an independent reader (warcio).

    check_download.py DIR LOG URLLIST [--expect FILE] [--all-fetched]

- every *.warc.gz in DIR reads to its end in warcio, with its block and payload
  digests checked; a warcinfo record opens each file; each response record has
  its request record (WARC-Concurrent-To); no .part file is left;
- each URL has at most one response record in all the files, and its payload
  (as warcio hands it over) is what tests/e2e/http_faults.py sent for that path;
- the log has one line per line of URLLIST (duplicates included), each with an
  outcome; a fetched line's URL has its response record and the other way round;
- --expect FILE: lines "PATH STATUS [REASON]": the URL ending in PATH ended so;
- --all-fetched: every URL was fetched.
Prints what is wrong and exits 1, or prints "ok N" and exits 0.
"""
import collections
import glob
import json
import os
import sys
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_faults import body_for  # noqa: E402
from warcio.archiveiterator import ArchiveIterator  # noqa: E402


def main():
    args = sys.argv[1:]
    expect = None
    all_fetched = "--all-fetched" in args
    if "--expect" in args:
        i = args.index("--expect")
        expect = args[i + 1]
        del args[i:i + 2]
    args = [a for a in args if a != "--all-fetched"]
    out, log, urllist = args
    errors = []
    if glob.glob(os.path.join(out, "*.part")):
        errors.append("a .part file is left: %s" % glob.glob(os.path.join(out, "*.part")))
    fetched = collections.Counter()
    for path in sorted(glob.glob(os.path.join(out, "*.warc.gz"))):
        req_ids = set()
        resp = []
        try:
            with open(path, "rb") as f:
                first = True
                for rec in ArchiveIterator(f, check_digests="raise"):
                    t = rec.rec_type
                    if first and t != "warcinfo":
                        errors.append("%s: first record is %s, not warcinfo" % (path, t))
                    first = False
                    if t == "request":
                        req_ids.add(rec.rec_headers.get_header("WARC-Concurrent-To"))
                    if t != "response":
                        continue
                    src = rec.rec_headers.get_header("WebText-Source-URI") or rec.rec_headers.get_header("WARC-Target-URI")
                    final = rec.rec_headers.get_header("WARC-Target-URI")
                    resp.append(rec.rec_headers.get_header("WARC-Record-ID"))
                    payload = rec.content_stream().read()
                    want = body_for(urlsplit(final).path)
                    if payload != want:
                        errors.append("%s: %s: payload of %d bytes differs from the %d the server sent" %
                                      (path, src, len(payload), len(want)))
                    if not rec.rec_headers.get_header("WARC-Payload-Digest", "").startswith("sha1:"):
                        errors.append("%s: %s: no sha1 payload digest" % (path, src))
                    if not rec.rec_headers.get_header("WARC-IP-Address"):
                        errors.append("%s: %s: no WARC-IP-Address" % (path, src))
                    fetched[src] += 1
        except Exception as e:  # warcio refuses the file
            errors.append("%s: warcio: %s" % (path, e))
        for rid in resp:
            if rid not in req_ids:
                errors.append("%s: response %s has no request record" % (path, rid))
    for u, n in fetched.items():
        if n > 1:
            errors.append("%s: %d response records" % (u, n))
    urls = [l.strip() for l in open(urllist) if l.strip()]
    lines = [json.loads(l) for l in open(log)]
    per_url = collections.defaultdict(list)
    for r in lines:
        per_url[r["url"]].append(r)
    if len(lines) != len(urls):
        errors.append("log has %d lines for %d URLs" % (len(lines), len(urls)))
    for u in set(urls):
        if len(per_url[u]) != urls.count(u):
            errors.append("%s: %d log lines for %d occurrences" % (u, len(per_url[u]), urls.count(u)))
    for u, rs in per_url.items():
        st = [r["status"] for r in rs]
        if ("fetched" in st) != (fetched[u] == 1):
            errors.append("%s: log says %s, WARC files hold %d records" % (u, st, fetched[u]))
        if all_fetched and "fetched" not in st:
            errors.append("%s: not fetched: %s" % (u, rs))
    if expect:
        for line in open(expect):
            parts = line.split()
            if not parts:
                continue
            path, status = parts[0], parts[1]
            reason = parts[2] if len(parts) > 2 else None
            rs = [r for u, v in per_url.items() if u.endswith(path) for r in v]
            if not rs:
                errors.append("%s: no log line" % path)
                continue
            r = rs[0]
            if r["status"] != status or (reason and r.get("reason") != reason):
                errors.append("%s: %s %s, wanted %s %s" % (path, r["status"], r.get("reason"), status, reason))
    if errors:
        print("\n".join(errors[:30]))
        sys.exit(1)
    print("ok %d" % sum(fetched.values()))


if __name__ == "__main__":
    main()

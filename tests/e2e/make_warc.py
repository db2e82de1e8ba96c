"""make_warc.py OUT.warc.gz OUT.tsv - a WARC written by warcio (one gzip member per
record, as Common Crawl writes them) holding what extract must tell apart, and the
records as warcio reads them back (TYPE<TAB>ID<TAB>URI per line) for the test to
compare against: pages in UTF-8, windows-1252 (declared in <meta>), Shift_JIS
(declared in HTTP) and UTF-16 with a BOM; gzip and chunked transfer; a 404; an image;
a truncated record; a revisit; a request; warcinfo; a resource record."""
import gzip
import io
import sys

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter


def page(title, body):
    return f"<!doctype html><html><head><title>{title}</title></head><body><nav><a href='/'>Home</a></nav>" \
           f"<article><h1>{title}</h1><p>{body}</p></article><footer>Footer text</footer></body></html>"


def main():
    out, tsv = sys.argv[1], sys.argv[2]
    with open(out, "wb") as f:
        w = WARCWriter(f, gzip=True)
        w.write_record(w.create_warcinfo_record("test.warc.gz", {"software": "warcio"}))

        def resp(url, body, headers, status="200 OK", extra=None):
            h = StatusAndHeaders(status, headers, protocol="HTTP/1.1")
            r = w.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=h,
                                     warc_headers_dict=extra or {})
            w.write_record(r)
            return r

        resp("http://example.com/utf8", page("UTF-8 page", "Caf\u00e9 cr\u00e8me, na\u00efve \u00fcber alles.").encode(),
             [("Content-Type", "text/html; charset=utf-8")])
        resp("http://example.com/cp1252",
             page("Legacy page", "\u201cQuoted\u201d \u20ac5 \u2014 caf\u00e9").replace(
                 "<head>", "<head><meta charset=iso-8859-1>").encode("cp1252"),
             [("Content-Type", "text/html")])
        resp("http://example.com/sjis", page("Japanese", "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3067\u3059").encode("shift_jis"),
             [("Content-Type", "text/html; charset=Shift_JIS")])
        resp("http://example.com/utf16", b"\xff\xfe" + page("Sixteen", "UTF-16 with a BOM").encode("utf-16-le"),
             [("Content-Type", "text/html")])
        resp("http://example.com/gzip", gzip.compress(page("Gzipped", "Compressed body text").encode()),
             [("Content-Type", "text/html"), ("Content-Encoding", "gzip")])
        body = page("Chunked", "Sent in chunks").encode()
        chunked = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (10, body[:10], len(body) - 10, body[10:])
        resp("http://example.com/chunked", chunked, [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")])
        resp("http://example.com/missing", page("Not found", "Gone").encode(), [("Content-Type", "text/html")],
             status="404 Not Found")
        resp("http://example.com/image.png", b"\x89PNG\r\n\x1a\n" + bytes(100), [("Content-Type", "image/png")])
        resp("http://example.com/cut", page("Cut", "Truncated by the crawler").encode(), [("Content-Type", "text/html")],
             extra={"WARC-Truncated": "length"})
        resp("http://example.com/empty", b"<html><body><script>only()</script></body></html>",
             [("Content-Type", "text/html")])
        req = w.create_warc_record("http://example.com/utf8", "request", payload=io.BytesIO(b"GET /utf8 HTTP/1.1\r\n\r\n"))
        w.write_record(req)
        rv = w.create_revisit_record("http://example.com/utf8", "sha1:AAAA", "http://example.com/utf8",
                                     "2024-01-01T00:00:00Z")
        w.write_record(rv)
        res = w.create_warc_record("http://example.com/resource.html", "resource",
                                   payload=io.BytesIO(page("Resource", "A resource record").encode()),
                                   warc_content_type="text/html; charset=utf-8")
        w.write_record(res)
    with open(out, "rb") as f, open(tsv, "w") as t:
        for r in ArchiveIterator(f):
            t.write("%s\t%s\t%s\n" % (r.rec_type, r.rec_headers.get_header("WARC-Record-ID"),
                                      r.rec_headers.get_header("WARC-Target-URI") or ""))


main()

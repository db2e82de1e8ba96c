#!/usr/bin/env python3
"""pathological_inputs.py - hostile JSON-lines corpora for test_pathological.sh.

    pathological_inputs.py DIR LONG_MB TINY_DOCS

writes into DIR (standard library only, deterministic):
  long_line.jsonl   one document of LONG_MB MB of real words on a single line,
                    one of LONG_MB/4 MB with no space at all, and a short one
  tiny.jsonl        TINY_DOCS documents of one to three characters
  nested.jsonl      metadata nested 100, 900, 5000 and 100000 levels deep
                    (arrays and objects) beside a normal text
  unicode.jsonl     code points of every plane (noncharacters, private use,
                    the last of each plane), escaped and raw, surrogate pairs,
                    lone surrogates, and invalid UTF-8 bytes
  nul.jsonl         escaped NULs in text and url, and raw NUL bytes
  newlines.jsonl    CRLF lines, lone CRs, escaped CR/LF/U+2028 in texts, blank
                    CRLF lines, no newline at the end
and for each, NAME.expect: the number of lines that are JSON records
(non-blank), then one line "lineno<TAB>offset<TAB>length" per record Python
parses, locating in NAME.texts the UTF-8 of its text as Python's json reads it
(bytes decoded with errors=replace, lone surrogates as U+FFFD). Memory stays
near three times the longest line.
"""
import json
import os
import sys

WORDS = ("the of and to in a is that for it as was with be by on not he this are or his from at which but "
         "have an they you were her she there been one all we their has would when if so no will out more "
         "Zürich naïve 東京 Москва العربية 😀 ").split(" ")


def words(nbytes, seed, ascii_only=False):
    """About nbytes of words; beyond 1 MB, a 1 MB block repeated."""
    ws = [w for w in WORDS if w and (w.isascii() or not ascii_only)]
    out, n, i = [], 0, seed
    while n < min(nbytes, 2**20):
        i = (i * 1103515245 + 12345) & 0x7FFFFFFF
        w = ws[i % len(ws)]
        out.append(w)
        n += len(w.encode()) + 1
    block = " ".join(out)
    if nbytes <= 2**20:
        return block
    return " ".join([block] * (nbytes // (len(block.encode()) + 1) + 1))


def rec(url, text, **extra):
    d = {"url": url, "text": text}
    d.update(extra)
    return json.dumps(d, ensure_ascii=False)


def write(path, lines, raw=False, end=b"\n"):
    with open(path, "wb") as f:
        for i, l in enumerate(lines):
            b = l if raw else l.encode("utf-8", "surrogatepass")
            f.write(b)
            if i + 1 < len(lines) or end:
                f.write(end if isinstance(end, bytes) and end else b"\n")


def nested(depth, kind):
    s = ("[" * depth + "]" * depth) if kind == "a" else ('{"a":' * depth + "1" + "}" * depth)
    return '{"url": "http://nest.example/%d%s", "text": "nested %d %s levels", "meta": %s}' % (depth, kind, depth, kind, s)


def expect(path):
    """What Python's json makes of each line (the reference tools' view)."""
    recs, rows, off = 0, [], 0
    with open(path, "rb") as f, open(path[:-6] + ".texts", "wb") as tf:
        for ln, raw in enumerate(f, 1):  # lines end at LF only in binary mode
            if not raw.strip(b" \t\r\n"):
                continue
            recs += 1
            try:
                o = json.loads(raw.decode("utf-8", "replace"))
            except (ValueError, RecursionError):
                continue
            del raw
            t = o.get("text") if isinstance(o, dict) else None
            del o
            if not isinstance(t, str):
                continue
            if not t.isascii():
                t = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in t)
            b = t.encode("utf-8")
            del t
            tf.write(b)
            rows.append("%d\t%d\t%d" % (ln, off, len(b)))
            off += len(b)
    with open(path[:-6] + ".expect", "w") as f:
        f.write("%d\n" % recs)
        f.write("\n".join(rows) + ("\n" if rows else ""))


def main():
    d, long_mb, tiny = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    os.makedirs(d, exist_ok=True)
    # 1. long lines
    with open(f"{d}/long_line.jsonl", "wb") as f:  # written in pieces: no second copy of the text
        big = words(int(long_mb * 2**20), 1, ascii_only=True)
        f.write(b'{"url": "http://long.example/a", "text": "')
        f.write(big.encode())
        f.write(b'"}\n')
        del big
        f.write(b'{"url": "http://long.example/b", "text": "' + b"abcdefghij" * int(long_mb * 2**20 / 40) + b'"}\n')
        f.write(rec("http://long.example/c", words(3000, 2)).encode() + b"\n")
    # 2. tiny documents
    with open(f"{d}/tiny.jsonl", "w") as f:
        for i in range(tiny):
            f.write('{"url": "http://t.example/%d", "text": "%s"}\n' % (i, "abc"[: 1 + i % 3]))
    # 3. deep nesting
    write(f"{d}/nested.jsonl", [nested(100, "a"), nested(900, "o"), nested(5000, "a"), nested(100000, "a"),
                                nested(5000, "o"), rec("http://nest.example/plain", words(2000, 3))])
    # 4. every plane
    lines = []
    for plane in range(17):
        base = plane * 0x10000
        cps = [base + o for o in (0x20, 0x41, 0x100, 0x3000, 0xE000, 0xFDD0, 0xFFFD, 0xFFFE, 0xFFFF)]
        cps = [c for c in cps if not 0xD800 <= c <= 0xDFFF and c != 0]
        text = "plane %d: " % plane + " ".join(chr(c) for c in cps) + " " + words(300, plane)
        lines.append(rec("http://u.example/raw%d" % plane, text))
        lines.append(json.dumps({"url": "http://u.example/esc%d" % plane, "text": text}, ensure_ascii=True))
    lines.append('{"url": "http://u.example/pair", "text": "pair \\ud83d\\ude00 and lone \\ud800 and \\udfff end"}')
    lines.append('{"url": "http://u.example/ctl", "text": "controls \\u0001\\u001f\\u007f\\u0085 bidi \\u202e\\u2066 zw \\u200b\\ufeff"}')
    raw = [l.encode() for l in lines]
    raw.append(b'{"url": "http://u.example/bad", "text": "invalid utf-8: \xff \xc0\x80 \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82 end"}')
    write(f"{d}/unicode.jsonl", raw, raw=True)
    # 5. NUL
    write(f"{d}/nul.jsonl", [
        b'{"url": "http://n.example/1", "text": "before\\u0000after the escaped NUL, ' + words(200, 5).encode() + b'"}',
        b'{"url": "http://n.example/2\\u0000x", "text": "a NUL in the url ' + words(200, 6).encode() + b'"}',
        b'{"url": "http://n.example/3", "text": "raw NUL \x00 inside a string"}',
        b'\x00{"url": "http://n.example/4", "text": "raw NUL before the record"}',
        b'{"url": "http://n.example/5", "text": "\\u0000"}',
        b'{"url": "http://n.example/6", "text": "plain ' + words(300, 7).encode() + b'"}',
    ], raw=True)
    # 6. newlines
    body = (b'{"url": "http://nl.example/1", "text": "crlf line ' + words(200, 8).encode() + b'"}\r\n'
            b'\r\n'
            b'{"url": "http://nl.example/2", "text": "escaped \\r\\n and \\r and \\n and \\u2028 \\u2029 \\u0085 inside"}\r\n'
            b'{"url": "http://nl.example/3", "text": "raw CR \r in a string"}\n'
            b'{"url": "http://nl.example/4", "text": "lf line ' + words(200, 9).encode() + b'"}\n'
            b'   \t \r\n'
            b'{"url": "http://nl.example/5", "text": "after a lone CR"}\r{"url": "http://nl.example/6", "text": "same line"}\n'
            b'{"url": "http://nl.example/7", "text": "no newline at the end ' + words(200, 10).encode() + b'"}')
    with open(f"{d}/newlines.jsonl", "wb") as f:
        f.write(body)
    for name in ("long_line", "tiny", "nested", "unicode", "nul", "newlines"):
        expect(f"{d}/{name}.jsonl")


if __name__ == "__main__":
    main()

"""substr_reference.py - an independent reference for substr_dedup: for each position
of the corpus, the longest repeat it starts (with an earlier position, or with any
other: Lee et al.'s remove-all), never crossing a document's end, by brute force over
a sorted list of suffixes (Python's own sort, no suffix-array library); spans struck
where it reaches the threshold, merged, mapped to bytes (token byte lengths from
GPT-2's encoder.json) and narrowed to whole UTF-8 characters. Prints the spans file's
lines: {"doc", "start", "end"}.

usage: substr_reference.py DOCS.jsonl THRESHOLD later|all bytes|tokens [IDS ENCODER_JSON]
"""
import json
import sys


def byte_decoder():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


def main():
    docs_path, k, which, unit = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    texts = [json.loads(l)["text"].encode() for l in open(docs_path, encoding="utf-8")]
    if unit == "bytes":
        seqs = [list(t) for t in texts]
        lens = [[1] * len(t) for t in texts]
    else:
        ids = [[int(x) for x in l.split()] for l in open(sys.argv[5])]
        dec = byte_decoder()
        enc = json.load(open(sys.argv[6], encoding="utf-8"))
        tlen = {i: len(bytes(dec[c] for c in s)) for s, i in enc.items()}
        seqs = ids
        lens = [[tlen[i] for i in s] for s in ids]
    # the corpus: (document, offset) for every position; a suffix is the rest of its document
    pos = [(d, i) for d, s in enumerate(seqs) for i in range(len(s))]
    key = lambda p: seqs[p[0]][p[1]:]
    order = sorted(range(len(pos)), key=lambda j: key(pos[j]))

    def lcp(a, b):
        x, y = key(pos[a]), key(pos[b])
        n = 0
        while n < len(x) and n < len(y) and x[n] == y[n]:
            n += 1
        return n

    L = [0] * len(pos)
    for r, j in enumerate(order):
        best = 0
        if which == "all":
            for nb in (r - 1, r + 1):
                if 0 <= nb < len(order):
                    best = max(best, lcp(j, order[nb]))
        else:  # the most shared with any earlier position: scan outwards in the sorted order
            m = None
            for nb in range(r - 1, -1, -1):
                v = lcp(j, order[nb]) if m is None else min(m, lcp(order[nb + 1], order[nb]))
                m = v
                if m <= best:
                    break
                if order[nb] < j:
                    best = m
                    break
            m = None
            for nb in range(r + 1, len(order)):
                v = lcp(j, order[nb]) if m is None else min(m, lcp(order[nb - 1], order[nb]))
                m = v
                if m <= best:
                    break
                if order[nb] < j:
                    best = max(best, m)
                    break
        L[j] = best
    out = []
    start = 0
    for d, s in enumerate(seqs):
        spans, end = [], -1
        for i in range(len(s)):
            l = L[start + i]
            if l >= k:
                if spans and i <= end:
                    end = max(end, i + l)
                    spans[-1][1] = end
                else:
                    end = i + l
                    spans.append([i, end])
        start += len(s)
        off = [0]
        for x in lens[d]:
            off.append(off[-1] + x)
        t = texts[d]
        for a, b in spans:
            x, y = off[a], min(off[b], len(t))
            while x < y and (t[x] & 0xC0) == 0x80:
                x += 1
            while y > x and y < len(t) and (t[y] & 0xC0) == 0x80:
                y -= 1
            if x < y:
                out.append({"doc": d, "start": x, "end": y})
    for o in out:
        print(json.dumps(o))


main()

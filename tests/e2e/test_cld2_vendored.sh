#!/usr/bin/env bash
# The project's CLD2 (third_party/cld2: Debian's source, built at -O3 with two changes that
# must not change an answer) against Debian's libcld2.so: every answer of
# ExtDetectLanguageSummary, in plain-text and HTML mode, on the fixtures' texts in many
# languages and scripts, cut and mixed texts, HTML pages and random bytes made valid UTF-8.
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build/rel}
LIBW=$ROOT/$BUILD/libwebtext.a
CXX=${CXX:-g++}
if [ ! -e /usr/include/cld2/public/compact_lang_det.h ]; then
  skip cld2_vendored_same_answers "Debian's libcld2-dev is not installed (scripts/setup/install_deps.sh installs it)"; exit 0
fi
# Not instrumented (the SAN tier's library holds CLD2 built without sanitizers, as Debian's is),
# linked as the release tools are: inlined across CLD2's files (link-time optimization of its
# fat objects; see CLD2_LTO_SRC in the Makefile).
LTO=; [ "$BUILD" = build/rel ] && LTO="-flto=auto -O3"
$CXX -O2 $LTO -I"$ROOT" "$ROOT/tests/e2e/cld2_answers.cc" "$LIBW" -o "$WORK/ours" 2>"$WORK/cc1.err" &&
  $CXX -O2 -DSYSTEM_CLD2 "$ROOT/tests/e2e/cld2_answers.cc" -o "$WORK/debian" -lcld2 2>"$WORK/cc2.err" ||
  { fail cld2_vendored_build "$(head -c 400 "$WORK"/cc*.err)"; exit 0; }
zstd -dcq "$ROOT/bench/extract/devset.warc.zst" > "$WORK/pages.warc" 2>/dev/null || : > "$WORK/pages.warc"
"$PY" - "$WORK/recs" "$WORK/pages.warc" "$FIX"/cleanup/*.jsonl "$FIX"/quality/*.jsonl "$FIX"/cc/*.jsonl <<'PY'
import json, random, struct, sys
random.seed(42)
out = open(sys.argv[1], "wb"); texts = []
def rec(b):
    b = b.decode("utf-8", "ignore").encode()  # CLD2 takes valid UTF-8 only
    out.write(struct.pack("<I", len(b))); out.write(b)
def strings(x):
    if isinstance(x, str): yield x
    elif isinstance(x, dict): 
        for v in x.values(): yield from strings(v)
    elif isinstance(x, list):
        for v in x: yield from strings(v)
for p in sys.argv[3:]:
    for line in open(p, encoding="utf-8", errors="replace"):
        try: d = json.loads(line)
        except Exception: continue
        for t in strings(d):
            texts.append(t.encode("utf-8", "surrogatepass"))
pages = open(sys.argv[2], "rb").read().split(b"WARC/1.0\r\n")[1:]
for t in texts: rec(t)
for p in pages: rec(p.split(b"\r\n\r\n", 1)[-1])
for _ in range(3000):  # mixtures and cuts
    t = b" ".join(random.choice(texts) for _ in range(random.randint(1, 30)))
    rec(t[:random.randint(0, len(t))] if random.random() < 0.5 else t)
for n in (40919, 40920, 40927, 40928, 40929, 40936, 81857, 123456):  # around the span buffer's size
    rec((b"abcdefghij" * (n // 10 + 1))[:n])
    rec(b" ".join(random.choice([b"the", b"alphabet", b"Zebra", b"x", b"d\xc3\xa9j\xc3\xa0"]) for _ in range(n // 4))[:n])
# lowercasing that changes a character's length or joins two (I with a dot, capital sharp s,
# halfwidth katakana and its voicing mark, fullwidth A, the Kelvin sign) between ASCII
# letters, up to the lowered span's buffer
wide = [b"\xc4\xb0", b"I", b"\xe1\xba\x9e", b"\xef\xbd\xb6\xef\xbe\x9e", b"\xef\xbe\x9e", b"\xce\xa3",
        b"\xd0\x96", b"A", b"b", b" ", b"\xc3\x89", b"\xef\xbc\xa1", b"\xe2\x84\xaa"]
for n in (100, 2000, 40900, 61000):
    rec(b"".join(random.choice(wide) for _ in range(n // 2))[:n])
    rec(b"\xc4\xb0" * (n // 2))
for _ in range(3000):
    rec(b"".join(random.choice(wide) for _ in range(random.randint(1, 60))))
for _ in range(1000):
    rec(bytes(random.randrange(256) for _ in range(random.randint(0, 2000))))
    rec(bytes(random.choice(b"ab <>&;#xX09AZ\xc3\xa9\xe2\x80\x99\xd0\x96 \n") for _ in range(random.randint(0, 2000))))
PY
"$WORK/ours" "$WORK/recs" > "$WORK/ours.txt" 2>"$WORK/run1.err"; r1=$?
"$WORK/debian" "$WORK/recs" > "$WORK/debian.txt" 2>"$WORK/run2.err"; r2=$?
n=$(wc -l < "$WORK/debian.txt"); langs=$(cut -d' ' -f1 "$WORK/debian.txt" | sort -u | wc -l)
if [ $r1 != 0 ] || [ $r2 != 0 ]; then fail cld2_vendored_same_answers "exit $r1 / $r2: $(head -c 300 "$WORK"/run*.err)"
elif [ "$n" -lt 5000 ] || [ "$langs" -lt 20 ]; then fail cld2_vendored_same_answers "too few texts ($n) or languages ($langs) to compare"
elif cmp -s "$WORK/ours.txt" "$WORK/debian.txt"; then pass "cld2_vendored_same_answers ($n texts, $langs languages, plain text and HTML)"
else fail cld2_vendored_same_answers "$(diff "$WORK/ours.txt" "$WORK/debian.txt" | head -4 | tr '\n' ' ')"; fi

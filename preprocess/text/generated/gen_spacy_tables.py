#!/usr/bin/env python3
"""Generate preprocess/text/generated/spacy_en_data.h: what decides the word and
sentence splits of datatrove's English word tokenizer (spaCy's rule-based
tokenizer, `spacy.blank("en")` plus the "sentencizer"), and the character
tables of datatrove's quality filters, so that preprocess/filters/quality.c and
preprocess/text/spacy_tok.c reproduce them without Python at run time.

    scripts/setup/install_deps.sh --test     # datatrove and spaCy, pinned, in build/venv
    build/venv/bin/python preprocess/text/generated/gen_spacy_tables.py

Taken from spaCy (its English Defaults, read from the live objects):
  - the prefix, suffix and infix regular expressions and the URL match, as
    compiled by spaCy (Python `re`), rewritten for PCRE2: \\uXXXX and
    \\UXXXXXXXX become \\x{...}; Python's Unicode \\w and \\S become explicit
    classes of this Python's str.isalnum()/str.isspace(), so that PCRE2's own
    Unicode tables do not decide;
  - the special cases (tokenizer exceptions: "don't" -> "do" "n't", "a.m.",
    emoticons...) with the split of each;
  - the special cases spaCy also matches after affix splitting (its
    PhraseMatcher pass, with `faster_heuristics`): each rule's token sequence
    as the tokenizer makes it without special cases;
  - the sentencizer's punctuation characters.
Taken from Python (the interpreter datatrove runs under): str.isspace(),
str.isalpha(), and unicodedata.category() == "P*" (spaCy's is_punct), as
code-point ranges. Taken from datatrove: PUNCTUATION_SET, TERMINAL_PUNCTUATION,
the Gopher stop words.
"""
import os
import re
import sys
import unicodedata

import spacy
from datatrove.pipeline.filters import gopher_quality_filter
from datatrove.utils.text import PUNCTUATION_SET, TERMINAL_PUNCTUATION
from importlib.metadata import version

from spacy.attrs import ORTH
from spacy.tokenizer import Tokenizer

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "spacy_en_data.h")


def ranges_of(pred):
    out, start = [], None
    for c in range(0x110000):
        if 0xD800 <= c <= 0xDFFF:
            ok = start is not None  # no surrogates in UTF-8: let a range run through them
        else:
            ok = pred(chr(c))
        if ok and start is None:
            start = c
        elif not ok and start is not None:
            out.append((start, c - 1))
            start = None
    if start is not None:
        out.append((start, 0x10FFFF))
    return out


def pcre_class(ranges, negate=False):
    def one(c):
        return "\\x{%X}" % c
    body = "".join(one(a) if a == b else "%s-%s" % (one(a), one(b)) for a, b in ranges)
    return "[%s%s]" % ("^" if negate else "", body)


SPACE = ranges_of(str.isspace)
WORD = ranges_of(lambda ch: ch.isalnum() or ch == "_")
NOT_SPACE = ranges_of(lambda ch: not ch.isspace())


def to_pcre(p):
    """Python `re` pattern -> PCRE2 (UTF) pattern with the same meaning."""
    out, i = [], 0
    in_class = False
    while i < len(p):
        c = p[i]
        if c == "\\":
            n = p[i + 1]
            if n == "u":
                out.append("\\x{%s}" % p[i + 2:i + 6])
                i += 6
                continue
            if n == "U":
                out.append("\\x{%s}" % p[i + 2:i + 10].lstrip("0"))
                i += 10
                continue
            if n in "wS":
                cls = pcre_class(WORD if n == "w" else NOT_SPACE)
                out.append(cls[1:-1] if in_class else cls)
                i += 2
                continue
            if n in "WsbB":
                raise SystemExit("escape \\%s not handled" % n)
            out.append(p[i:i + 2])
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            out.append(c)
            i += 1
            if i < len(p) and p[i] == "^":
                out.append("^")
                i += 1
            if i < len(p) and p[i] == "]":  # a leading ] is literal in both
                out.append("\\]")
                i += 1
            continue
        if c == "[" and in_class:
            out.append("\\[")  # Python: literal [ in a class; PCRE2 would read [: as POSIX
            i += 1
            continue
        if c == "]" and in_class:
            in_class = False
        out.append(c)
        i += 1
    s = "".join(out)
    if s.startswith("(?u)"):
        s = s[4:]
    return s


def cstr(s):
    b = s.encode("utf-8")
    out = []
    for ch in b:
        if ch == 0x22 or ch == 0x5C:
            out.append("\\" + chr(ch))
        elif 0x20 <= ch < 0x7F and ch != 0x3F:  # ? escaped: no trigraphs
            out.append(chr(ch))
        else:
            out.append("\\%03o" % ch)
    return '"' + "".join(out) + '"'


def cstr_long(s, width=100):
    """A long string as adjacent C literals."""
    parts, cur = [], ""
    for ch in s:
        cur += ch
        if len(cur) >= width:
            parts.append(cur)
            cur = ""
    if cur:
        parts.append(cur)
    return "\n    ".join(cstr(x) for x in parts)


def main():
    nlp = spacy.blank("en")
    tok = nlp.tokenizer
    pats = {
        "prefix": tok.prefix_search.__self__,
        "suffix": tok.suffix_search.__self__,
        "infix": tok.infix_finditer.__self__,
        "url": tok.url_match.__self__,
    }
    for name, p in pats.items():
        if p.flags & ~(re.UNICODE) & 0xFF:
            raise SystemExit("%s: flags %d not handled" % (name, p.flags))
    if tok.token_match is not None:
        raise SystemExit("token_match is set: not handled")
    for probe in ["", "a", "-", "1-2"]:
        if any(m.start() == m.end() for m in pats["infix"].finditer(probe)):
            raise SystemExit("the infix pattern matches the empty string: not handled")
    # a run of whitespace is one token (spacy_tok.c relies on it)
    for cp in range(0x110000):
        ch = chr(cp)
        if ch.isspace() and (tok.find_prefix(ch) or tok.find_suffix(ch) or tok.find_infix(ch * 3)
                             or tok.url_match(ch) or len(tok(ch * 3)) != 1):
            raise SystemExit("whitespace U+%04X is split by the rules: not handled" % cp)
    # spacy_tok.c takes a span of ASCII letters as one token unless it is a special case:
    # no affix rule and no URL may match one
    import itertools
    import string
    letters = string.ascii_letters
    probes = [""] + list(letters) + ["".join(p) for p in itertools.product(letters, repeat=2)]
    probes += [a + b for a in probes for b in ["a", "Z", "km", "kg", "s", "S", "m", "T", "US", "C", "A"]]
    probes += ["".join(p) for p in itertools.product("aZkmgsTUCA", repeat=3)] + ["Washington", "kilometres" * 3]
    for w in probes:
        if w and (tok.find_prefix(w) or tok.find_suffix(w) or tok.find_infix(w) or tok.url_match(w)):
            raise SystemExit("the letters-only span %r is split by the rules: spacy_tok.c's fast path is wrong" % w)
    # and letters with one closing mark: no prefix, the mark the whole suffix (split_span's
    # fast path; test_quality's quality_spacy_fast_paths checks it again on every build)
    for w in probes:
        for mark in ",;:!?)":
            if w and (tok.find_prefix(w + mark) or tok.find_suffix(w + mark) != 1):
                raise SystemExit("the span %r is not split as letters and a mark: spacy_tok.c's fast path is wrong"
                                 % (w + mark))
    rules = tok.rules
    # what the tokenizer makes of each rule without special cases
    bare = Tokenizer(nlp.vocab, rules={}, prefix_search=tok.prefix_search, suffix_search=tok.suffix_search,
                     infix_finditer=tok.infix_finditer, token_match=tok.token_match, url_match=tok.url_match)
    specials, matcher = [], []
    for key in sorted(rules):
        orths = [d[ORTH] if ORTH in d else d["ORTH"] for d in rules[key]]
        if "".join(orths) != key:
            raise SystemExit("rule %r: pieces %r do not make the key" % (key, orths))
        specials.append((key, orths))
        if (not tok.faster_heuristics or tok.find_prefix(key) or tok.find_infix(key) or tok.find_suffix(key)
                or " " in key):
            matcher.append([t.text for t in bare(key)])
    sentencizer = nlp.add_pipe("sentencizer")
    punct_chars = sorted(sentencizer.punct_chars)
    if any(len(c) != 1 for c in punct_chars):
        raise SystemExit("a sentencizer punct_char of more than one character: not handled")

    w = []
    w.append("/* preprocess/text/generated/spacy_en_data.h - GENERATED by preprocess/text/generated/gen_spacy_tables.py")
    w.append(" * from spaCy %s (spacy.blank(\"en\") + sentencizer) and datatrove %s," % (spacy.__version__,
                                                                                      version("datatrove")))
    w.append(" * Python %s (Unicode %s). Do not edit. */" % (sys.version.split()[0], unicodedata.unidata_version))
    w.append("#ifndef PREPROCESS_SPACY_EN_DATA_H")
    w.append("#define PREPROCESS_SPACY_EN_DATA_H")
    w.append("#include <stdint.h>")
    w.append('#define SPACY_EN_VERSION "spaCy %s, datatrove %s"' % (spacy.__version__, version("datatrove")))
    for name, p in pats.items():
        w.append("static const char spacy_en_%s_re[] =\n    %s;" % (name, cstr_long(to_pcre(p.pattern))))

    def table(name, ranges):
        w.append("static const uint32_t %s[][2] = {" % name)
        line = "   "
        for a, b in ranges:
            item = " {0x%X, 0x%X}," % (a, b)
            if len(line) + len(item) > 110:
                w.append(line)
                line = "   "
            line += item
        w.append(line)
        w.append("};")

    table("py_space_ranges", SPACE)
    table("py_alpha_ranges", ranges_of(str.isalpha))
    table("uc_punct_ranges", ranges_of(lambda ch: unicodedata.category(ch).startswith("P")))
    table("dt_punctuation_ranges", ranges_of(lambda ch: ch in PUNCTUATION_SET))
    table("dt_terminal_ranges", ranges_of(lambda ch: ch in TERMINAL_PUNCTUATION))
    table("spacy_sent_punct_ranges", ranges_of(lambda ch: ch in punct_chars))
    table("py_decimal_ranges", ranges_of(str.isdecimal))  # what \\d matches in Python's re
    # str.lower(): the characters whose lower case holds an ASCII letter (C4's "javascript", ...)
    lower_ascii = [(ord(ch), ch.lower()) for ch in map(chr, range(0x80, 0x110000))
                   if not 0xD800 <= ord(ch) <= 0xDFFF and any(c.isascii() for c in ch.lower())]
    w.append("/* non-ASCII characters whose str.lower() holds ASCII: code point, lower case (UTF-8) */")
    w.append("static const struct { uint32_t cp; const char *lower; } py_lower_to_ascii[] = {%s};" % ", ".join(
        "{0x%X, %s}" % (cp, cstr(lo)) for cp, lo in lower_ascii))

    # special cases: key, then the byte length of each piece
    w.append("/* tokenizer exceptions: the string, then its pieces' lengths in bytes (0-terminated) */")
    w.append("static const struct { const char *key; uint8_t piece[8]; } spacy_en_specials[] = {")
    for key, orths in specials:
        lens = [len(o.encode("utf-8")) for o in orths]
        if len(lens) > 7 or max(lens) > 255:
            raise SystemExit("rule %r: too many or too long pieces" % key)
        w.append("    {%s, {%s}}," % (cstr(key), ", ".join(map(str, lens + [0]))))
    w.append("};")
    w.append("/* the special cases matched again after affix splitting: each one's token sequence,")
    w.append(" * the tokens joined by \\x1f */")
    w.append("static const char *const spacy_en_matcher[] = {")
    for toks in matcher:
        if any("\x1f" in t for t in toks):
            raise SystemExit("a token holds \\x1f")
        w.append("    %s," % cstr("\x1f".join(toks)))
    w.append("};")
    w.append("static const char *const gopher_stop_words[] = {%s};" % ", ".join(
        cstr(s) for s in gopher_quality_filter.STOP_WORDS))
    w.append("#endif")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(w) + "\n")
    print("wrote %s (%d special cases, %d re-matched; prefix %d, suffix %d, infix %d, url %d chars)" % (
        OUT, len(specials), len(matcher), *(len(to_pcre(p.pattern)) for p in pats.values())))


if __name__ == "__main__":
    main()

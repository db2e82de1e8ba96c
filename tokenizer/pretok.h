/* pretok.h - GPT-2 pre-tokenisation, hand-written.
 *
 * Splits text exactly as the GPT-2 pattern (FORMATS.md section 3)
 *   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 * does under leftmost-first alternation, in one forward pass without
 * backtracking (linear in the input whatever it holds). \p{L} and \p{N} are
 * the Unicode general categories L* and N* (utf8proc's tables), \s is the
 * Unicode White_Space property. Equivalence with the regex (run by PCRE2) is
 * checked by the unit tests on random and adversarial strings.
 *
 * The input must be valid UTF-8 (see utf8_sanitize()).
 */
#ifndef TOKENIZER_PRETOK_H
#define TOKENIZER_PRETOK_H
#include <stddef.h>
#include <stdint.h>

enum { PRETOK_OTHER = 0, PRETOK_LETTER = 1, PRETOK_NUMBER = 2, PRETOK_SPACE = 3 };

/* The GPT-2 pattern, for PCRE2 (tests and the --regex cross-check). */
#define PRETOK_GPT2_PATTERN \
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+"

/* Class of a code point (thread-safe; tables are built on first use). */
int pretok_class(uint32_t cp);

/* End of the piece that starts at s[i] (i < n). */
size_t pretok_next(const unsigned char *s, size_t n, size_t i);

/* End of the piece at s[i] under the Llama 3 pattern (max_digits 3), Qwen2's
 * (max_digits 1) or cl100k_base's (max_digits 3, cl100k 1): the same pieces
 * as PCRE2 running those patterns (tests/unit/test_tokfamilies.c checks it on
 * random and adversarial strings). */
size_t pretok_tiktoken_next(const unsigned char *s, size_t n, size_t i, int max_digits, int cl100k);
/* The same for o200k_base's pattern (upper/lower-case letter runs). */
size_t pretok_o200k_next(const unsigned char *s, size_t n, size_t i);
/* ---- the common pieces, inline ---------------------------------------------
 * Most pieces of natural text are ASCII: a word with a space before it or
 * none, a run of punctuation, a few digits. pretok_fast finds such a piece at
 * s[i] the way the pattern of `mode` does and returns its end, or 0 where the
 * full splitter must decide (anything else, or a piece that a byte past 0x7F
 * or a rarer control byte might continue). The splitters below call it first,
 * so the tests that hold them to PCRE2 hold it too. */
enum { PRETOK_FAST_GPT2 = 0, /* GPT-2's pattern */
       PRETOK_FAST_LLAMA3 = 1, /* cl100k_base, Llama 3, Qwen2 (max_digits 3 or 1) */
       PRETOK_FAST_O200K = 2 };

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* End of the run from j of bytes b with ((b | fold) - lo) < span (mod 256). */
static inline __attribute__((always_inline)) size_t pretok_ascii_run(const unsigned char *s, size_t n, size_t j, unsigned lo, unsigned span, unsigned fold)
{
#if defined(__SSE2__)
    if (j + 16 <= n) {
        const __m128i f = _mm_set1_epi8((char)fold), l = _mm_set1_epi8((char)lo), top = _mm_set1_epi8((char)(span - 1));
        do {
            __m128i v = _mm_sub_epi8(_mm_or_si128(_mm_loadu_si128((const __m128i *)(s + j)), f), l);
            unsigned out = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, top), v)) & 0xFFFFu;
            if (out) return j + (size_t)__builtin_ctz(out);
            j += 16;
        } while (j + 16 <= n);
    }
#endif
    while (j < n && (unsigned char)((s[j] | fold) - lo) < span) j++;
    return j;
}

static inline int pretok_is_alpha(unsigned c) { return (unsigned char)((c | 0x20u) - 'a') < 26; }
static inline int pretok_is_digit(unsigned c) { return (unsigned char)(c - '0') < 10; }
/* printable ASCII punctuation and symbols: !"#$%&'()*+,-./ :;<=>?@ [\]^_` {|}~ */
static inline int pretok_is_punct(unsigned c) { return c > 0x20 && c < 0x7F && !pretok_is_alpha(c) && !pretok_is_digit(c); }
/* A byte that surely ends a run of punctuation (the end of the text too). */
static inline int pretok_ends_punct(const unsigned char *s, size_t n, size_t j)
{
    if (j >= n) return 1;
    unsigned c = s[j];
    return pretok_is_alpha(c) || pretok_is_digit(c) || c == ' ' || c == '\n' || c == '\r' || c == '\t';
}
/* A run of punctuation from j, the end of the run after it (or 0: the full splitter's) */
static inline __attribute__((always_inline)) size_t pretok_punct_run(const unsigned char *s, size_t n, size_t j)
{
    while (j < n && pretok_is_punct(s[j])) j++;
    return pretok_ends_punct(s, n, j) ? j : 0;
}

/* After a run of punctuation: [\r\n]* (cl100k, Llama 3), [\r\n/]* (o200k), nothing (GPT-2). */
static inline size_t pretok_fast_breaks(const unsigned char *s, size_t n, size_t j, int mode)
{
    if (mode == PRETOK_FAST_GPT2) return j;
    while (j < n && (s[j] == '\r' || s[j] == '\n' || (s[j] == '/' && mode == PRETOK_FAST_O200K))) j++;
    return j;
}

/* Letters from p: ASCII only, and no letter, mark or apostrophe (o200k) after them. */
static inline __attribute__((always_inline)) size_t pretok_fast_letters(const unsigned char *s, size_t n, size_t p, int mode)
{
    size_t j;
#if defined(__SSE2__)
    if (p + 16 <= n) { /* a word shorter than 16 bytes: one load, its classes as bit masks */
        __m128i x = _mm_loadu_si128((const __m128i *)(s + p));
        __m128i top = _mm_set1_epi8(25);
        __m128i vu = _mm_sub_epi8(x, _mm_set1_epi8('A')), vl = _mm_sub_epi8(x, _mm_set1_epi8('a'));
        unsigned up = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(vu, top), vu));
        unsigned lo = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(vl, top), vl));
        unsigned k; /* the word's length */
        if (mode == PRETOK_FAST_O200K) {
            unsigned u = (unsigned)__builtin_ctz(~up);          /* [A-Z]* */
            k = u + (unsigned)__builtin_ctz(~(lo >> u) | 0x10000u >> u); /* then [a-z]* */
        } else {
            k = (unsigned)__builtin_ctz(~(up | lo)); /* [A-Za-z]* */
        }
        if (k < 16) {
            unsigned next = s[p + k];
            if (next >= 0x80 || (mode == PRETOK_FAST_O200K && next == '\'')) return 0;
            return p + k;
        }
    }
#endif
    if (mode == PRETOK_FAST_O200K) {
        j = pretok_ascii_run(s, n, p, 'A', 26, 0);
        j = pretok_ascii_run(s, n, j, 'a', 26, 0);
        if (j < n && s[j] == '\'') return 0; /* a contraction may follow */
    } else {
        j = pretok_ascii_run(s, n, p, 'a', 26, 0x20);
    }
    if (j < n && s[j] >= 0x80) return 0;
    return j;
}

static inline __attribute__((always_inline)) size_t pretok_fast(const unsigned char *s, size_t n, size_t i, int mode, int max_digits)
{
    unsigned c = s[i], d = i + 1 < n ? s[i + 1] : 0x100; /* 0x100: the end */
    if (pretok_is_alpha(c)) return pretok_fast_letters(s, n, i, mode);
    if (c == ' ') {
        if (pretok_is_alpha(d)) return pretok_fast_letters(s, n, i + 1, mode);
        if (pretok_is_digit(d)) {
            if (mode != PRETOK_FAST_GPT2) return i + 1; /* the space alone: \s+ */
            size_t j = pretok_ascii_run(s, n, i + 1, '0', 10, 0); /*  ?\p{N}+ */
            return j < n && s[j] >= 0x80 ? 0 : j;
        }
        if (pretok_is_punct(d)) { /*  ?[^\s\p{L}\p{N}]+ and the line breaks after it */
            size_t j = pretok_punct_run(s, n, i + 1);
            return j ? pretok_fast_breaks(s, n, j, mode) : 0;
        }
        return 0;
    }
    if (pretok_is_digit(c)) {
        if (mode == PRETOK_FAST_GPT2) {
            size_t j = pretok_ascii_run(s, n, i, '0', 10, 0);
            return j < n && s[j] >= 0x80 ? 0 : j;
        }
        size_t j = i + 1, lim = i + (size_t)max_digits;
        while (j < lim && j < n && pretok_is_digit(s[j])) j++;
        return j < lim && j < n && s[j] >= 0x80 ? 0 : j;
    }
    if (pretok_is_punct(c)) {
        if (c == '\'' && mode != PRETOK_FAST_O200K) return 0; /* a contraction may start here */
        if (mode != PRETOK_FAST_GPT2) {
            if (pretok_is_alpha(d)) return pretok_fast_letters(s, n, i + 1, mode); /* the word's leading character */
            if (d >= 0x80 && d != 0x100) return 0;
        }
        size_t j = pretok_punct_run(s, n, i);
        return j ? pretok_fast_breaks(s, n, j, mode) : 0;
    }
    return 0;
}

/* DeepSeek-V3's three Split patterns (which = 1, 2, 3): the next match at or
 * after pos, as PCRE2 would find it; 0 when there is none. */
int pretok_deepseek_search(int which, const unsigned char *s, size_t n, size_t pos, size_t *ms, size_t *me);
#define PRETOK_DS_PAT1 "\\p{N}{1,3}"
#define PRETOK_DS_PAT2 "[\xe4\xb8\x80-\xe9\xbe\xa5\xe3\x81\x80-\xe3\x82\x9f\xe3\x82\xa0-\xe3\x83\xbf]+"
#define PRETOK_DS_PAT3 "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"

#endif

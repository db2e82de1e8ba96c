/* quality_c4.c - datatrove's C4QualityFilter (c4_filters.py), line by line
 * as quality.c says; one of the four quality filters of cleanup --filters. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/utf8.h"
#include "preprocess/filters/quality_int.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Python's whitespace among ASCII bytes: 0x09..0x0D, 0x1C..0x20 */
static inline uint64_t pyspace8(uint64_t w) { return in_range8(w, 0x09, 0x0D) | in_range8(w, 0x1C, 0x20); }

/* CITATION_REGEX.sub("", line): \[\d*]|\[edit]|\[citation needed] (\d: Unicode Nd) */
static size_t remove_citations(const char *s, size_t n, char *out)
{
    size_t o = 0, i = 0;
    while (i < n) {
        const char *br = memchr(s + i, '[', n - i);
        size_t to = br ? (size_t)(br - s) : n;
        memcpy(out + o, s + i, to - i);
        o += to - i;
        i = to;
        if (i == n) break;
        {
            size_t j = i + 1;
            while (j < n) {
                uint32_t cp;
                int k = utf8_decode((const unsigned char *)s + j, n - j, &cp);
                if (k < 0 || !py_isdecimal_cp(cp)) break;
                j += (size_t)k;
            }
            size_t m = 0;
            if (j < n && s[j] == ']') m = j + 1 - i;
            else if (q_starts_with(s + i, n - i, "[edit]")) m = 6;
            else if (q_starts_with(s + i, n - i, "[citation needed]")) m = 17;
            if (m) {
                i += m;
                continue;
            }
        }
        out[o++] = s[i++];
    }
    return o;
}

/* line.lower(), enough to find ASCII phrases: ASCII folded, U+0130 and U+212A as
 * Python lowers them, every other character copied (it cannot match ASCII) */
static size_t lower_for_ascii(const char *s, size_t n, char *out)
{
    size_t o = 0, i = 0;
    while (i < n) {
        if (i + 8 <= n) { /* eight ASCII bytes: the uppercase letters' 0x20 bit set */
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (!(w & HI8)) {
                w |= in_range8(w, 'A', 'Z') >> 2;
                memcpy(out + o, &w, 8);
                o += 8;
                i += 8;
                continue;
            }
        }
        unsigned char b = (unsigned char)s[i];
        if (b < 0x80) {
            out[o++] = (char)(b >= 'A' && b <= 'Z' ? b + 32 : b);
            i++;
            continue;
        }
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k < 0) k = 1;
        const char *l = k > 1 ? py_lower_special(cp) : NULL;
        if (l) {
            size_t ll = strlen(l);
            memcpy(out + o, l, ll);
            o += ll;
        } else {
            memcpy(out + o, s + i, (size_t)k);
            o += (size_t)k;
        }
        i += (size_t)k;
    }
    return o;
}

/* the phrases looked for in a lowered line, found in one pass */
#define PH_LOREM 1
#define PH_JS 2
#define PH_POLICY 4
static const struct {
    const char *s;
    size_t n;
    int bit;
} phrases[] = {{"lorem ipsum", 11, PH_LOREM},     {"javascript", 10, PH_JS},         {"terms of use", 12, PH_POLICY},
               {"privacy policy", 14, PH_POLICY}, {"cookie policy", 13, PH_POLICY},  {"uses cookies", 12, PH_POLICY},
               {"use of cookies", 14, PH_POLICY}, {"use cookies", 11, PH_POLICY}};

/* which of the phrases s[0..n) holds (PH_ bits) */
/* the phrases at s[i] (i + 10 <= n), as PH_ bits */
static inline int phrases_at(const char *s, size_t n, size_t i)
{
    int found = 0;
    uint32_t head; /* the first four bytes, compared before the whole phrase */
    memcpy(&head, s + i, 4);
    for (size_t k = 0; k < sizeof phrases / sizeof *phrases; k++) {
        uint32_t ph;
        memcpy(&ph, phrases[k].s, 4);
        if (ph == head && phrases[k].n <= n - i && !memcmp(s + i, phrases[k].s, phrases[k].n)) found |= phrases[k].bit;
    }
    return found;
}

static int find_phrases(const char *s, size_t n, int simd)
{
    /* each phrase's first byte, and the second byte every phrase starting so has */
    static const char second[256] = {['l'] = 'o', ['j'] = 'a', ['t'] = 'e', ['p'] = 'r', ['c'] = 'o', ['u'] = 's'};
    int found = 0;
    size_t i = 0;
#if defined(__SSE2__)
    /* sixteen places at once: those where one of the six first pairs starts */
#define EQ(x, ch) _mm_cmpeq_epi8((x), _mm_set1_epi8(ch))
    for (; simd && i + 17 <= n; i += 16) {
        __m128i x0 = _mm_loadu_si128((const __m128i *)(s + i)), x1 = _mm_loadu_si128((const __m128i *)(s + i + 1));
        __m128i o = EQ(x1, 'o');
        __m128i m = _mm_or_si128(_mm_and_si128(_mm_or_si128(EQ(x0, 'l'), EQ(x0, 'c')), o),
                                 _mm_or_si128(_mm_and_si128(EQ(x0, 'j'), EQ(x1, 'a')),
                                              _mm_or_si128(_mm_and_si128(EQ(x0, 't'), EQ(x1, 'e')),
                                                           _mm_or_si128(_mm_and_si128(EQ(x0, 'p'), EQ(x1, 'r')),
                                                                        _mm_and_si128(EQ(x0, 'u'), EQ(x1, 's'))))));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        while (bits) {
            size_t at = i + (size_t)__builtin_ctz(bits);
            bits &= bits - 1;
            if (at + 10 <= n) found |= phrases_at(s, n, at);
        }
    }
#undef EQ
#endif
    for (; i + 10 <= n; i++) {
        char c2 = second[(unsigned char)s[i]];
        if (c2 && s[i + 1] == c2) found |= phrases_at(s, n, i);
    }
    return found;
}

/* lines = text.splitlines() if split_paragraph else split_into_sentences(text), into q->parts */
static int c4_lines(quality_ctx *q, const quality_params *p, const char *t, size_t n)
{
    int rc;
    if (p->c4_split_paragraph) return q_splitlines(t, n, &q->parts);
    if ((rc = spacy_tokenize(q->sp, t, n, &q->toks))) return rc;
    q->ends.n = 0;
    if (spacy_sentences(t, &q->toks, &q->ends) == SIZE_MAX) return ERR_NOMEM;
    q->parts.n = 0;
    if (q->ends.n == 0) return q_spans_push(&q->parts, 0, n);
    size_t a = 0;
    for (size_t i = 0; i < q->ends.n; i++) {
        size_t b = i + 1 < q->ends.n ? q->ends.t[i].off : n;
        if ((rc = q_spans_push(&q->parts, a, b - a))) return rc;
        a = b;
    }
    return 0;
}

/* Room for the kept lines and a lowered copy of one line (lower() grows U+0130 by one byte;
 * sentences joined by " " can outgrow the text: "a.b." -> "a. b."). */
static int c4_reserve(quality_ctx *q, size_t n)
{
    if (q->out_cap < 2 * n + 1) {
        char *no = realloc(q->out, 2 * n + 1);
        if (!no) return ERR_NOMEM;
        q->out = no;
        q->out_cap = 2 * n + 1;
    }
    if (q->low_cap < 2 * n + 1) {
        char *nl = realloc(q->low, 2 * n + 1);
        if (!nl) return ERR_NOMEM;
        q->low = nl;
        q->low_cap = 2 * n + 1;
    }
    return 0;
}

/* words = line.split(): the count, and the longest word in code points (exact for words over
 * eight; swar: eight ASCII bytes at once where they are ASCII). */
static inline __attribute__((always_inline)) size_t c4_line_words(const char *line, size_t ll, int swar,
                                                                  size_t *longest_out)
{
    size_t nwords = 0, longest = 0, i = 0, cur = 0;
    int in_word = 0;
    while (i < ll) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* eight ASCII bytes at once: the words that start in them, the run of the word
         * going on (longest only has to be right about words over 8 characters) */
        if (swar && i + 8 <= ll) {
            uint64_t w;
            memcpy(&w, line + i, 8);
            if (!(w & HI8)) {
                uint64_t sp = pyspace8(w), ns = ~sp & HI8;
                uint64_t starts = ns & ~((ns << 8) | (in_word ? 0x80u : 0u));
                nwords += (size_t)(((starts >> 7) * ONES8) >> 56);
                if (!in_word) cur = 0;
                if (!sp) cur += 8;
                else {
                    cur += (size_t)__builtin_ctzll(sp) >> 3; /* the run before the first space */
                    if (cur > longest) longest = cur;
                    cur = (size_t)__builtin_clzll(sp) >> 3; /* the run at the end */
                }
                if (cur > longest) longest = cur;
                in_word = cur > 0;
                i += 8;
                continue;
            }
        }
#endif
        unsigned char b = (unsigned char)line[i];
        uint32_t cp = b;
        int k = 1;
        if (b >= 0x80 && (k = utf8_decode((const unsigned char *)line + i, ll - i, &cp)) < 0) k = 1, cp = 0xFFFD;
        if (b < 0x80 ? utf8_ascii_pyspace[b] : utf8_is_pyspace(cp)) {
            in_word = 0;
        } else {
            if (!in_word) nwords++, cur = 0;
            in_word = 1;
            if (++cur > longest) longest = cur;
        }
        i += (size_t)k;
    }
    *longest_out = longest;
    return nwords;
}

/* len(split_into_sentences(line)) of a kept line (at least one part), and its words added to
 * *kept_words. An unchanged line (ll == line_len) is its stretch of the document's tokens. */
static int c4_line_sentences(quality_ctx *q, const char *t, size_t line_off, size_t line_len, const char *l,
                             size_t ll, size_t *kept_words, size_t *ns)
{
    if (ll == line_len) {
        size_t lo = 0, hi = q->all.n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (q->all.t[mid].off < line_off) lo = mid + 1;
            else hi = mid;
        }
        size_t e = lo;
        while (e < q->all.n && q->all.t[e].off < line_off + line_len) e++;
        *ns = spacy_sentences_range(t, q->all.t + lo, e - lo, NULL);
        for (size_t k = lo; k < e; k++) *kept_words += !spacy_is_space_token(t, &q->all.t[k]);
        return 0;
    }
    int rc = spacy_tokenize(q->sp, l, ll, &q->toks);
    if (rc) return rc;
    *ns = spacy_sentences(l, &q->toks, NULL);
    for (size_t k = 0; k < q->toks.n; k++) *kept_words += !spacy_is_space_token(l, &q->toks.t[k]);
    return 0;
}

int quality_c4(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **out, size_t *out_len,
               const char **reason)
{
    int rc;
    if ((rc = c4_lines(q, p, t, n)) || (rc = c4_reserve(q, n))) return rc;
    long long num_sentences = 0;
    size_t olen = 0, kept = 0, kept_words = 0;
    /* the sentences of an unchanged line come from the document's tokens (one tokenization) */
    int slice = p->c4_split_paragraph && p->c4_min_num_sentences != -1;
    if (slice && (rc = q_get_words(q, t, n))) return rc;
    /* the eight-byte word count keeps only runs that cross eight-byte blocks exact */
    int swar_words = !q->c4_reference && (p->c4_max_word_length == -1 || p->c4_max_word_length >= 8);
    for (size_t li = 0; li < q->parts.n; li++) {
        const char *line = t + q->parts.v[li].off;
        size_t ll = q->parts.v[li].len;
        utf8_strip_pyspace(&line, &ll); /* line = line.strip() */
        size_t longest, nwords = c4_line_words(line, ll, swar_words, &longest);
        if (p->c4_max_word_length != -1 && (long long)longest > p->c4_max_word_length) continue;
        /* the line after citation removal goes where the kept lines go */
        char *l = q->out + olen + (kept ? 1 : 0);
        size_t line_off = (size_t)(line - t), line_len = ll;
        if (p->c4_remove_citations) ll = remove_citations(line, ll, l);
        else memmove(l, line, ll);
        if (p->c4_filter_no_terminal_punct) {
            int term = ll && (l[ll - 1] == '.' || l[ll - 1] == '?' || l[ll - 1] == '!' || l[ll - 1] == '"' ||
                              l[ll - 1] == '\'');
            if (!term || q_ends_with(l, ll, "...")) continue;
        }
        if ((long long)nwords < p->c4_min_words_per_line) continue;
        int ph = 0;
        if (p->c4_filter_lorem_ipsum || p->c4_filter_javascript || p->c4_filter_policy)
            ph = find_phrases(q->low, lower_for_ascii(l, ll, q->low), !q->c4_reference);
        if (p->c4_filter_lorem_ipsum && (ph & PH_LOREM)) {
            *reason = "lorem_ipsum";
            return 0;
        }
        if (p->c4_filter_javascript && (ph & PH_JS)) continue;
        if (p->c4_filter_curly_bracket && memchr(l, '{', ll)) {
            *reason = "curly_bracket";
            return 0;
        }
        if (p->c4_filter_policy && (ph & PH_POLICY)) continue;
        if (p->c4_min_num_sentences != -1) {
            if (p->c4_split_paragraph) {
                /* len(split_into_sentences(line)): the sentencizer's count, at least one part */
                size_t ns;
                if ((rc = c4_line_sentences(q, t, line_off, line_len, l, ll, &kept_words, &ns))) return rc;
                num_sentences += ns ? (long long)ns : 1;
            } else num_sentences += 1;
        }
        if (kept) q->out[olen] = p->c4_split_paragraph ? '\n' : ' ';
        olen += (kept ? 1 : 0) + ll;
        kept++;
    }
    if (num_sentences < p->c4_min_num_sentences) {
        *reason = "too_few_sentences";
        return 0;
    }
    /* "\n".join(kept_lines).strip() */
    const char *o = q->out;
    size_t on = olen;
    utf8_strip_pyspace(&o, &on);
    *out = o;
    *out_len = on;
    /* the words of "\n".join(kept_lines) are the kept lines' words (a line break is a
     * whitespace token: no token or special case joins two lines) */
    q->c4_out = o;
    q->c4_on = on;
    q->c4_words = kept_words;
    q->c4_valid = slice;
    return 1;
}

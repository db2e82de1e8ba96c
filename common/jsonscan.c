/* jsonscan.c - see jsonscan.h. */
#include "jsonscan.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline int ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static inline size_t skip_ws(const unsigned char *s, size_t n, size_t i)
{
    while (i < n && ws(s[i])) i++;
    return i;
}


/* Position of the first '"', '\\' or control byte in s[i..n), or n. */
static inline size_t string_stop(const unsigned char *s, size_t n, size_t i)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), c1f = _mm_set1_epi8(0x1F);
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
                                   _mm_cmpeq_epi8(_mm_max_epu8(x, c1f), c1f)); /* x <= 0x1F */
        unsigned m = (unsigned)_mm_movemask_epi8(hit);
        if (m) return i + (size_t)__builtin_ctz(m);
    }
#endif
    for (; i < n; i++)
        if (s[i] == '"' || s[i] == '\\' || s[i] < 0x20) return i;
    return n;
}

/* The string at s[*i] == '"': *i moves past its closing quote. 0 on
 * anything the fast path leaves to cJSON. */
static int scan_string(const unsigned char *s, size_t n, size_t *pi, uint8_t *escaped)
{
    size_t i = *pi + 1;
    *escaped = 0;
    for (;;) {
        i = string_stop(s, n, i);
        if (i >= n || s[i] < 0x20) return 0;
        if (s[i] == '"') break;
        /* a backslash */
        if (i + 1 >= n) return 0;
        *escaped = 1;
        switch (s[i + 1]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
            i += 2;
            break;
        case 'u': {
            unsigned v;
            if (i + 6 > n || !jsonscan_hex4(s + i + 2, &v) || (v >= 0xD800 && v <= 0xDFFF)) return 0;
            i += 6;
            break;
        }
        default:
            return 0;
        }
    }
    *pi = i + 1;
    return 1;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? of at most 40 characters */
static int scan_number(const unsigned char *s, size_t n, size_t *pi)
{
    size_t i = *pi, start = i;
#define DIGIT(k) ((k) < n && s[k] >= '0' && s[k] <= '9')
    if (i < n && s[i] == '-') i++;
    if (!DIGIT(i)) return 0;
    if (s[i] == '0') i++;
    else while (DIGIT(i)) i++;
    if (i < n && s[i] == '.') {
        i++;
        if (!DIGIT(i)) return 0;
        while (DIGIT(i)) i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        if (!DIGIT(i)) return 0;
        while (DIGIT(i)) i++;
    }
#undef DIGIT
    if (i - start > 40) return 0;
    *pi = i;
    return 1;
}

static int scan_value(const unsigned char *s, size_t n, size_t *pi, int depth, uint8_t *type, uint8_t *escaped);

/* The object or array at s[*i]; keys/spans only for the top-level object. */
static int scan_container(const unsigned char *s, size_t n, size_t *pi, int depth, const char *const *keys,
                          size_t nk, jsonscan_span *spans)
{
    if (depth > JSONSCAN_MAX_DEPTH) return 0;
    int obj = s[*pi] == '{';
    unsigned char close = obj ? '}' : ']';
    size_t i = skip_ws(s, n, *pi + 1);
    if (i < n && s[i] == close) {
        *pi = i + 1;
        return 1;
    }
    for (;;) {
        int want = -1;
        if (obj) {
            if (i >= n || s[i] != '"') return 0;
            size_t ks = i;
            uint8_t kesc;
            if (!scan_string(s, n, &i, &kesc)) return 0;
            if (keys) {
                if (kesc) return 0; /* compared decoded by cJSON: its path */
                size_t kl = i - ks - 2;
                for (size_t k = 0; k < nk; k++)
                    if (strlen(keys[k]) == kl && !memcmp(s + ks + 1, keys[k], kl)) {
                        if (spans[k].end) return 0; /* twice: cJSON takes the first, Python the last */
                        want = (int)k;
                    }
            }
            i = skip_ws(s, n, i);
            if (i >= n || s[i] != ':') return 0;
            i = skip_ws(s, n, i + 1);
        }
        if (i >= n) return 0;
        size_t vs = i;
        uint8_t type, esc = 0;
        if (!scan_value(s, n, &i, depth, &type, &esc)) return 0;
        if (want >= 0) {
            spans[want].start = vs;
            spans[want].end = i;
            spans[want].type = type;
            spans[want].escaped = esc;
        }
        i = skip_ws(s, n, i);
        if (i >= n) return 0;
        if (s[i] == close) {
            *pi = i + 1;
            return 1;
        }
        if (s[i] != ',') return 0;
        i = skip_ws(s, n, i + 1);
    }
}

static int scan_value(const unsigned char *s, size_t n, size_t *pi, int depth, uint8_t *type, uint8_t *escaped)
{
    size_t i = *pi;
    switch (s[i]) {
    case '"':
        *type = JSONSCAN_STRING;
        return scan_string(s, n, pi, escaped);
    case '{':
        *type = JSONSCAN_OBJECT;
        return scan_container(s, n, pi, depth + 1, NULL, 0, NULL);
    case '[':
        *type = JSONSCAN_ARRAY;
        return scan_container(s, n, pi, depth + 1, NULL, 0, NULL);
    case 't':
    case 'f':
    case 'n': {
        const char *lit = s[i] == 't' ? "true" : s[i] == 'f' ? "false" : "null";
        size_t l = strlen(lit);
        if (n - i < l || memcmp(s + i, lit, l)) return 0;
        *type = JSONSCAN_LITERAL;
        *pi = i + l;
        return 1;
    }
    default:
        *type = JSONSCAN_NUMBER;
        return scan_number(s, n, pi);
    }
}

int jsonscan_fields(const char *line, size_t n, const char *const *keys, size_t nk, jsonscan_span *spans)
{
    const unsigned char *s = (const unsigned char *)line;
    if (nk > JSONSCAN_MAX_KEYS) return 0;
    memset(spans, 0, nk * sizeof *spans);
    size_t i = skip_ws(s, n, 0);
    if (i >= n || s[i] != '{') return 0;
    if (!scan_container(s, n, &i, 1, keys, nk, spans)) return 0;
    if (skip_ws(s, n, i) != n) return 0;
    for (size_t k = 0; k < nk; k++)
        if (!spans[k].end && strchr(keys[k], '.')) return 0;
    return 1;
}

int jsonscan_string(const char *line, const jsonscan_span *sp, const char **out, size_t *len, char **buf, size_t *cap)
{
    const unsigned char *s = (const unsigned char *)line + sp->start + 1;
    size_t n = sp->end - sp->start - 2;
    if (!sp->escaped) {
        *out = (const char *)s;
        *len = n;
        return 0;
    }
    if (*cap < n + 1) { /* decoding never lengthens */
        size_t c = *cap ? *cap : 256;
        while (c < n + 1) c *= 2;
        char *nb = realloc(*buf, c);
        if (!nb) return err_set(ERR_NOMEM, "out of memory");
        *buf = nb;
        *cap = c;
    }
    char *o = *buf;
    size_t k = 0, i = 0;
    while (i < n) {
        const unsigned char *b = memchr(s + i, '\\', n - i);
        size_t run = b ? (size_t)(b - (s + i)) : n - i;
        memcpy(o + k, s + i, run);
        k += run;
        i += run;
        if (i >= n) break;
        unsigned char e = s[i + 1];
        i += 2;
        switch (e) {
        case 'b': o[k++] = '\b'; break;
        case 'f': o[k++] = '\f'; break;
        case 'n': o[k++] = '\n'; break;
        case 'r': o[k++] = '\r'; break;
        case 't': o[k++] = '\t'; break;
        case 'u': {
            unsigned v = 0;
            jsonscan_hex4(s + i, &v); /* checked by the scan; never a surrogate */
            i += 4;
            k += (size_t)utf8_encode(v, o + k);
            break;
        }
        default: o[k++] = (char)e; /* " \ / */
        }
    }
    *out = o;
    *len = k;
    return 0;
}

int jsonscan_string_at(const char *s, size_t n, size_t *i, jsonscan_span *sp)
{
    size_t start = *i;
    uint8_t esc = 0;
    if (start >= n || s[start] != '"' || !scan_string((const unsigned char *)s, n, i, &esc)) return 0;
    *sp = (jsonscan_span){start, *i, JSONSCAN_STRING, esc};
    return 1;
}

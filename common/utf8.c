/* utf8.c - see utf8.h. */
#include "utf8.h"

#include <string.h>

int utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    if (c < 0x80) { *cp = c; return 1; }
    int len;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) { len = 2; v = c & 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; v = c & 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; v = c & 0x07; min = 0x10000; }
    else goto bad;
    if ((size_t)len > n) goto bad;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) goto bad;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) goto bad;
    *cp = v;
    return len;
bad:
    *cp = 0xFFFD;
    return -1;
}

int utf8_encode(uint32_t cp, char out[4])
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t utf8_valid_prefix(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        /* ASCII fast path, 8 bytes at a time */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= n) break;
        if (p[i] < 0x80) { i++; continue; }
        uint32_t cp;
        int k = utf8_decode(p + i, n - i, &cp);
        if (k < 0) return i;
        i += (size_t)k;
    }
    return n;
}

size_t utf8_invalid_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    int len;
    unsigned lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else return 1;
    size_t k = 1;
    while (k < (size_t)len && k < n) {
        unsigned b = s[k];
        if (k == 1 ? (b < lo || b > hi) : (b & 0xC0) != 0x80) break;
        k++;
    }
    return k; /* k < len here, or the sequence would have been valid */
}

size_t utf8_sanitize(const char *s, size_t n, char *out)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, o = 0;
    while (i < n) {
        size_t v = utf8_valid_prefix(s + i, n - i);
        memcpy(out + o, s + i, v);
        o += v;
        i += v;
        if (i >= n) break;
        size_t k = utf8_invalid_len(p + i, n - i);
        memcpy(out + o, "\xEF\xBF\xBD", 3);
        o += 3;
        i += k;
    }
    return o;
}

const uint8_t utf8_ascii_pyspace[128] = {['\t'] = 1, ['\n'] = 1, [0x0B] = 1, [0x0C] = 1, ['\r'] = 1,
                                         [0x1C] = 1,  [0x1D] = 1, [0x1E] = 1, [0x1F] = 1, [' '] = 1};

int utf8_is_pyspace(uint32_t c)
{
    if (c <= 0x20) return c == 0x20 || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
    switch (c) {
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
        return 1;
    default:
        return c >= 0x2000 && c <= 0x200A;
    }
}

int utf8_is_white_space(uint32_t c)
{
    if (c <= 0x20) return c == 0x20 || (c >= 0x09 && c <= 0x0D);
    return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
           c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

void utf8_lstrip_pyspace(const char **sp, size_t *np)
{
    const unsigned char *s = (const unsigned char *)*sp;
    size_t n = *np;
    uint32_t cp;
    while (n) {
        int k = utf8_decode(s, n, &cp);
        if (k < 0 || !utf8_is_pyspace(cp)) break;
        s += k;
        n -= (size_t)k;
    }
    *sp = (const char *)s;
    *np = n;
}

void utf8_rstrip_pyspace(const char *sp, size_t *np)
{
    const unsigned char *s = (const unsigned char *)sp;
    size_t n = *np;
    uint32_t cp;
    while (n) {
        /* find the start of the last code point */
        size_t j = n - 1;
        while (j > 0 && n - j < 4 && (s[j] & 0xC0) == 0x80) j--;
        int k = utf8_decode(s + j, n - j, &cp);
        if (k < 0 || (size_t)k != n - j || !utf8_is_pyspace(cp)) break;
        n = j;
    }
    *np = n;
}

void utf8_strip_pyspace(const char **sp, size_t *np)
{
    utf8_lstrip_pyspace(sp, np);
    utf8_rstrip_pyspace(*sp, np);
}

/* pretok.c - see pretok.h. */
#include "pretok.h"

#include <pthread.h>
#include <utf8proc.h>

#include "common/utf8.h"

static uint8_t bmp_class[0x10000];
static pthread_once_t bmp_once = PTHREAD_ONCE_INIT;

static int class_slow(uint32_t cp)
{
    if (utf8_is_white_space(cp)) return PRETOK_SPACE;
    switch (utf8proc_category((utf8proc_int32_t)cp)) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO:
        return PRETOK_LETTER;
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
        return PRETOK_NUMBER;
    default:
        return PRETOK_OTHER;
    }
}

static void bmp_init(void)
{
    for (uint32_t c = 0; c < 0x10000; c++) bmp_class[c] = (uint8_t)class_slow(c);
}

int pretok_class(uint32_t cp)
{
    if (cp < 0x10000) {
        pthread_once(&bmp_once, bmp_init);
        return bmp_class[cp];
    }
    return class_slow(cp);
}

/* Decode the (valid) code point at s[i]; sets *len. */
static inline uint32_t cp_at(const unsigned char *s, size_t i, size_t *len)
{
    unsigned c = s[i];
    if (c < 0x80) { *len = 1; return c; }
    if (c < 0xE0) { *len = 2; return ((c & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu); }
    if (c < 0xF0) {
        *len = 3;
        return ((c & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu);
    }
    *len = 4;
    return ((c & 0x07u) << 18) | ((s[i + 1] & 0x3Fu) << 12) | ((s[i + 2] & 0x3Fu) << 6) | (s[i + 3] & 0x3Fu);
}

static inline int class_at(const unsigned char *s, size_t i, size_t *len)
{
    if (s[i] < 0x80) {
        *len = 1;
        return bmp_class[s[i]];
    }
    uint32_t cp = cp_at(s, i, len);
    return cp < 0x10000 ? bmp_class[cp] : class_slow(cp);
}

/* End of the run of class `cls` starting at i. */
static inline size_t run_end(const unsigned char *s, size_t n, size_t i, int cls)
{
    while (i < n) {
        size_t k;
        if (class_at(s, i, &k) != cls) break;
        i += k;
    }
    return i;
}

size_t pretok_next(const unsigned char *s, size_t n, size_t i)
{
    pthread_once(&bmp_once, bmp_init);
    unsigned c = s[i];
    if (c == '\'' && i + 1 < n) {
        unsigned d = s[i + 1];
        if (d == 's' || d == 't' || d == 'm' || d == 'd') return i + 2;
        if (i + 2 < n) {
            unsigned e = s[i + 2];
            if ((d == 'r' && e == 'e') || (d == 'v' && e == 'e') || (d == 'l' && e == 'l')) return i + 3;
        }
    }
    size_t k;
    int cls = class_at(s, i, &k);
    if (c == ' ' && i + 1 < n) {
        size_t k2;
        int cls2 = class_at(s, i + 1, &k2);
        if (cls2 != PRETOK_SPACE) return run_end(s, n, i + 1 + k2, cls2);
    }
    if (cls != PRETOK_SPACE) return run_end(s, n, i + k, cls);
    /* whitespace: \s+(?!\S) then \s+ */
    size_t last = i, j = i + k;
    while (j < n) {
        size_t k2;
        if (class_at(s, j, &k2) != PRETOK_SPACE) break;
        last = j;
        j += k2;
    }
    if (j == n) return n;  /* run reaches the end: all of it */
    return last > i ? last : j;  /* leave the last space to the next piece */
}

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
    size_t f = pretok_fast(s, n, i, PRETOK_FAST_GPT2, 0);
    if (f) return f;
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

/* ---- the Llama 3 / cl100k / Qwen2 patterns -------------------------------
 *   (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
 *   | ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
 * under leftmost-first alternation with backtracking. cl100k_base differs
 * only where it decides: \s++$ (a whitespace run reaching the end of the text
 * is one piece) before \s*[\r\n]; its possessive quantifiers and single
 * trailing \s give the same pieces. Qwen2 takes digits one at a time. */

/* (?i:'s|'t|'re|'ve|'m|'ll|'d) at s[i] == '\'': the match length, or 0. Case
 * folding as both regex engines do it: s also matches U+017F (long s). */
static size_t contraction(const unsigned char *s, size_t n, size_t i)
{
    if (i + 1 >= n) return 0;
    unsigned d = s[i + 1] | 0x20u;
    if (s[i + 1] < 0x80) {
        if (d == 's' || d == 't' || d == 'm' || d == 'd') return 2;
        if (i + 2 < n && s[i + 2] < 0x80) {
            unsigned e = s[i + 2] | 0x20u;
            if ((d == 'r' && e == 'e') || (d == 'v' && e == 'e') || (d == 'l' && e == 'l')) return 3;
        }
        return 0;
    }
    if (s[i + 1] == 0xC5 && i + 2 < n && s[i + 2] == 0xBF) return 3; /* 'ſ */
    return 0;
}

static inline int is_crlf(unsigned c) { return c == '\r' || c == '\n'; }

/* The whitespace alternatives of the Llama 3 family of patterns, at a
 * White_Space character s[i] of k bytes: \s++$ (cl100k only: a run reaching
 * the end is one piece), \s*[\r\n]+ (up to the run's last line break),
 * \s+(?!\S), \s+. */
static size_t ws_piece(const unsigned char *s, size_t n, size_t i, size_t k, int cl100k)
{
    size_t j = i + k, last = i, last_nl = is_crlf(s[i]) ? i : SIZE_MAX;
    while (j < n) {
        size_t k3;
        if (class_at(s, j, &k3) != PRETOK_SPACE) break;
        if (is_crlf(s[j])) last_nl = j;
        last = j;
        j += k3;
    }
    if (cl100k && j == n) return n;
    if (last_nl != SIZE_MAX) return last_nl + 1;
    if (j == n) return n;
    return last > i ? last : j;
}

size_t pretok_tiktoken_next(const unsigned char *s, size_t n, size_t i, int max_digits, int cl100k)
{
    size_t f = pretok_fast(s, n, i, PRETOK_FAST_LLAMA3, max_digits);
    if (f) return f;
    pthread_once(&bmp_once, bmp_init);
    unsigned c = s[i];
    if (c == '\'') {
        size_t m = contraction(s, n, i);
        if (m) return i + m;
    }
    size_t k;
    int cls = class_at(s, i, &k);
    if (cls == PRETOK_LETTER) return run_end(s, n, i + k, PRETOK_LETTER);
    if (cls == PRETOK_NUMBER) {
        size_t j = i + k;
        for (int d = 1; d < max_digits && j < n; d++) {
            size_t k2;
            if (class_at(s, j, &k2) != PRETOK_NUMBER) break;
            j += k2;
        }
        return j;
    }
    /* [^\r\n\p{L}\p{N}]\p{L}+ : any non-letter, non-number but CR/LF, then letters */
    size_t k2 = 0;
    int cls2 = i + k < n ? class_at(s, i + k, &k2) : -1;
    if (!is_crlf(c) && cls2 == PRETOK_LETTER) return run_end(s, n, i + k + k2, PRETOK_LETTER);
    /*  ?[^\s\p{L}\p{N}]+[\r\n]* */
    size_t p = 0;
    if (cls == PRETOK_OTHER) p = i;
    else if (c == ' ' && cls2 == PRETOK_OTHER) p = i + k;
    else p = SIZE_MAX;
    if (p != SIZE_MAX) {
        size_t j = run_end(s, n, p, PRETOK_OTHER);
        while (j < n && is_crlf(s[j])) j++;
        return j;
    }
    return ws_piece(s, n, i, k, cl100k);
}

/* ---- o200k_base ----------------------------------------------------------
 *   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
 *  |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
 *  |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
 * Classes: UU = Lu Lt (upper only), LL = Ll (lower only), OL = Lm Lo and
 * M = marks (in both the "upper" set U and the "lower" set W; marks are not
 * letters, so they also count as the optional leading character and as
 * punctuation), N, S (White_Space), P (the rest). */
enum { OC_UU = 0, OC_LL, OC_OL, OC_M, OC_N, OC_S, OC_P };
static uint8_t o2_bmp[0x10000];
static pthread_once_t o2_once = PTHREAD_ONCE_INIT;

static int o2_slow(uint32_t cp)
{
    if (utf8_is_white_space(cp)) return OC_S;
    switch (utf8proc_category((utf8proc_int32_t)cp)) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LT: return OC_UU;
    case UTF8PROC_CATEGORY_LL: return OC_LL;
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO: return OC_OL;
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME: return OC_M;
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO: return OC_N;
    default: return OC_P;
    }
}

static void o2_init(void)
{
    for (uint32_t c = 0; c < 0x10000; c++) o2_bmp[c] = (uint8_t)o2_slow(c);
}

static inline int o2_at(const unsigned char *s, size_t i, size_t *len)
{
    if (s[i] < 0x80) { *len = 1; return o2_bmp[s[i]]; }
    uint32_t cp = cp_at(s, i, len);
    return cp < 0x10000 ? o2_bmp[cp] : o2_slow(cp);
}

#define IN_U(c) ((c) == OC_UU || (c) == OC_OL || (c) == OC_M)
#define IN_W(c) ((c) == OC_LL || (c) == OC_OL || (c) == OC_M)
#define IN_X(c) ((c) == OC_M || (c) == OC_S || (c) == OC_P) /* [^\p{L}\p{N}], CR/LF apart */

static size_t o2_run(const unsigned char *s, size_t n, size_t i, int w)
{
    while (i < n) {
        size_t k;
        int c = o2_at(s, i, &k);
        if (w ? !IN_W(c) : !IN_U(c)) break;
        i += k;
    }
    return i;
}

/* U*W+ from p (the regex's backtracking made explicit): end, or 0 */
static size_t o2_alt1(const unsigned char *s, size_t n, size_t p)
{
    size_t q = p, last_w = SIZE_MAX, last_w_len = 0;
    while (q < n) {
        size_t k;
        int c = o2_at(s, q, &k);
        if (!IN_U(c)) break;
        if (IN_W(c)) last_w = q, last_w_len = k;
        q += k;
    }
    if (q < n) {
        size_t k;
        if (IN_W(o2_at(s, q, &k))) return o2_run(s, n, q + k, 1);
    }
    return last_w != SIZE_MAX ? last_w + last_w_len : 0; /* U* gives back up to the last W */
}

/* U+W* from p: end, or 0 */
static size_t o2_alt2(const unsigned char *s, size_t n, size_t p)
{
    size_t q = o2_run(s, n, p, 0);
    return q > p ? o2_run(s, n, q, 1) : 0;
}

size_t pretok_o200k_next(const unsigned char *s, size_t n, size_t i)
{
    size_t f = pretok_fast(s, n, i, PRETOK_FAST_O200K, 3);
    if (f) return f;
    pthread_once(&bmp_once, bmp_init);
    pthread_once(&o2_once, o2_init);
    size_t k;
    unsigned c0 = s[i];
    int c = o2_at(s, i, &k);
    int x = IN_X(c) && !is_crlf(c0); /* the optional leading character may be taken */
    for (int alt = 1; alt <= 2; alt++)
        for (int take = x; take >= 0; take--) {
            size_t p = take ? i + k : i;
            if (p >= n) continue;
            size_t r = alt == 1 ? o2_alt1(s, n, p) : o2_alt2(s, n, p);
            if (r) {
                if (r < n && s[r] == '\'') r += contraction(s, n, r);
                return r;
            }
        }
    if (c == OC_N) {
        size_t j = i + k;
        for (int d = 1; d < 3 && j < n; d++) {
            size_t k2;
            if (o2_at(s, j, &k2) != OC_N) break;
            j += k2;
        }
        return j;
    }
    /*  ?[^\s\p{L}\p{N}]+[\r\n/]* */
    size_t p = SIZE_MAX, k2;
    if (c == OC_M || c == OC_P) p = i;
    else if (c0 == ' ' && i + 1 < n && (o2_at(s, i + 1, &k2) == OC_M || o2_at(s, i + 1, &k2) == OC_P)) p = i + 1;
    if (p != SIZE_MAX) {
        size_t j = p;
        while (j < n) {
            int cj = o2_at(s, j, &k2);
            if (cj != OC_M && cj != OC_P) break;
            j += k2;
        }
        while (j < n && (is_crlf(s[j]) || s[j] == '/')) j++;
        return j;
    }
    return ws_piece(s, n, i, k, 0); /* whitespace: as the Llama 3 pattern */
}

/* ---- DeepSeek-V3's pre-tokenizer patterns (tokenizer.json, three Splits) --
 *   1  \p{N}{1,3}
 *   2  [一-龥\u3040-ゟ゠-ヿ]+
 *   3  [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+
 *      | ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
 * Each is a search: the next match at or after `pos` (the text before it is
 * a piece of its own, behavior Isolated). */
enum { DC_L = 0, DC_M, DC_N, DC_P, DC_S, DC_W /* White_Space */, DC_O /* the rest */ };
static uint8_t ds_bmp[0x10000];
static pthread_once_t ds_once = PTHREAD_ONCE_INIT;

static int ds_slow(uint32_t cp)
{
    if (utf8_is_white_space(cp)) return DC_W;
    switch (utf8proc_category((utf8proc_int32_t)cp)) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO: return DC_L;
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME: return DC_M;
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO: return DC_N;
    case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD: case UTF8PROC_CATEGORY_PS: case UTF8PROC_CATEGORY_PE:
    case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF: case UTF8PROC_CATEGORY_PO: return DC_P;
    case UTF8PROC_CATEGORY_SM: case UTF8PROC_CATEGORY_SC: case UTF8PROC_CATEGORY_SK: case UTF8PROC_CATEGORY_SO: return DC_S;
    default: return DC_O;
    }
}

static void ds_init(void)
{
    for (uint32_t c = 0; c < 0x10000; c++) ds_bmp[c] = (uint8_t)ds_slow(c);
}

static inline int ds_at(const unsigned char *s, size_t i, size_t *len)
{
    if (s[i] < 0x80) { *len = 1; return ds_bmp[s[i]]; }
    uint32_t cp = cp_at(s, i, len);
    return cp < 0x10000 ? ds_bmp[cp] : ds_slow(cp);
}

static inline int is_cjk(uint32_t cp)
{
    return (cp >= 0x4E00 && cp <= 0x9FA5) || (cp >= 0x3040 && cp <= 0x309F) || (cp >= 0x30A0 && cp <= 0x30FF);
}

static inline int ascii_punct(unsigned c)
{
    return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
}

static inline int ascii_alpha(unsigned c) { return (c | 0x20u) >= 'a' && (c | 0x20u) <= 'z'; }

/* Pattern 3 at exactly position i: the match end, or 0. */
static size_t ds3_at(const unsigned char *s, size_t n, size_t i)
{
    unsigned c0 = s[i];
    if (ascii_punct(c0) && i + 1 < n && ascii_alpha(s[i + 1])) {
        size_t j = i + 1;
        while (j < n && ascii_alpha(s[j])) j++;
        return j;
    }
    size_t k;
    int c = ds_at(s, i, &k);
    /* [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+ */
    int x = c != DC_L && c != DC_P && c != DC_S && !is_crlf(c0);
    for (int take = x; take >= 0; take--) {
        size_t j = take ? i + k : i, st = j;
        while (j < n) {
            size_t k2;
            int cj = ds_at(s, j, &k2);
            if (cj != DC_L && cj != DC_M) break;
            j += k2;
        }
        if (j > st) return j;
    }
    /*  ?[\p{P}\p{S}]+[\r\n]* */
    size_t p = SIZE_MAX, k2;
    if (c == DC_P || c == DC_S) p = i;
    else if (c0 == ' ' && i + 1 < n) {
        int c1 = ds_at(s, i + 1, &k2);
        if (c1 == DC_P || c1 == DC_S) p = i + 1;
    }
    if (p != SIZE_MAX) {
        size_t j = p;
        while (j < n) {
            int cj = ds_at(s, j, &k2);
            if (cj != DC_P && cj != DC_S) break;
            j += k2;
        }
        while (j < n && is_crlf(s[j])) j++;
        return j;
    }
    return c == DC_W ? ws_piece(s, n, i, k, 0) : 0;
}

int pretok_deepseek_search(int which, const unsigned char *s, size_t n, size_t pos, size_t *ms, size_t *me)
{
    pthread_once(&bmp_once, bmp_init);
    pthread_once(&ds_once, ds_init);
    size_t i = pos;
    while (i < n) {
        size_t k;
        if (which == 1) {
            if (ds_at(s, i, &k) == DC_N) {
                size_t j = i + k;
                for (int d = 1; d < 3 && j < n; d++) {
                    size_t k2;
                    if (ds_at(s, j, &k2) != DC_N) break;
                    j += k2;
                }
                *ms = i, *me = j;
                return 1;
            }
        } else if (which == 2) {
            uint32_t cp = s[i] < 0x80 ? (k = 1, s[i]) : cp_at(s, i, &k);
            if (is_cjk(cp)) {
                size_t j = i + k;
                while (j < n) {
                    size_t k2;
                    uint32_t c2 = s[j] < 0x80 ? (k2 = 1, s[j]) : cp_at(s, j, &k2);
                    if (!is_cjk(c2)) break;
                    j += k2;
                }
                *ms = i, *me = j;
                return 1;
            }
        } else {
            size_t e = ds3_at(s, n, i);
            if (e) {
                *ms = i, *me = e;
                return 1;
            }
            if (s[i] < 0x80) k = 1;
            else cp_at(s, i, &k);
        }
        i += k;
    }
    return 0;
}

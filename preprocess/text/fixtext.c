/* fixtext.c - ftfy.fix_text in C; see fixtext.h. Each function below names
 * the ftfy function it reproduces; the comments say where we take a shortcut
 * and why it cannot change the result. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "preprocess/text/fixtext.h"

#include <pcre2.h>
#include <pthread.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "common/utf8.h"
#include "preprocess/text/generated/ftfy_data.h"

/* ---------- growable byte buffer ---------- */

typedef struct {
    char *p;
    size_t n, cap;
} fbuf;

static int fb_reserve(fbuf *b, size_t extra)
{
    if (b->n + extra + 1 <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + extra + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}
static int fb_put(fbuf *b, const void *d, size_t n)
{
    if (fb_reserve(b, n)) return -1;
    memcpy(b->p + b->n, d, n);
    b->n += n;
    return 0;
}
static int fb_putc(fbuf *b, char c)
{
    if (b->n + 2 > b->cap && fb_reserve(b, 1)) return -1;
    b->p[b->n++] = c;
    return 0;
}
static int fb_put_cp(fbuf *b, uint32_t cp)
{
    char t[4];
    return fb_put(b, t, (size_t)utf8_encode(cp, t));
}
static int fb_set(fbuf *b, const char *s, size_t n)
{
    b->n = 0;
    return fb_put(b, s, n);
}
static void fb_free(fbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}
static int same(const char *a, size_t an, const char *b, size_t bn)
{
    return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

/* Decode one code point of valid UTF-8 (our buffers always are). */
static inline uint32_t dec(const char *s, size_t n, size_t *i)
{
    unsigned char c = (unsigned char)s[*i];
    if (c < 0x80) {
        (*i)++;
        return c;
    }
    uint32_t cp;
    int k = utf8_decode((const unsigned char *)s + *i, n - *i, &cp);
    *i += k > 0 ? (size_t)k : 1;
    return cp;
}

size_t fixtext_cp_len(const char *s, size_t n)
{
    size_t k = 0, i = 0;
#if defined(__SSE2__)
    /* a byte that is not a continuation byte (0x80..0xBF) is > -65 as a signed char */
    /* counted per byte lane (a true compare is -1: subtracted, it adds one), the lanes
     * summed every 255 blocks (no popcount: x86-64's baseline has no POPCNT and GCC
     * would call libgcc's) */
    const __m128i lim = _mm_set1_epi8(-65), zero = _mm_setzero_si128();
    while (i + 16 <= n) {
        __m128i acc = zero;
        for (int b = 0; b < 255 && i + 16 <= n; b++, i += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpgt_epi8(_mm_loadu_si128((const __m128i *)(s + i)), lim));
        __m128i sum = _mm_sad_epu8(acc, zero);
        k += (size_t)_mm_cvtsi128_si64(sum) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum));
    }
#endif
    for (; i < n; i++) k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}

/* ---------- shared tables, built once ---------- */

enum { F_C1 = 1, F_LIG = 2, F_WIDTH = 4, F_QUOTE = 8, F_LB = 16, F_CTRL = 32, F_ESC = 64, F_NFC = 128 };

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_ok;
static pcre2_code *re_bad, *re_det, *re_clean;
static uint16_t g_encmask[0x10000];              /* bit e: cp encodable in charmap e */
static uint8_t g_encbyte[FTFY_N_CHARMAPS][0x10000];
static uint8_t g_nfc_unsafe[0x110000 / 8];
static uint8_t g_flag[0x10000];                  /* F_* for BMP code points */
static const char *g_width[0x10000 - 0xFF00];    /* U+FF00.. -> replacement */
static uint8_t g_byte_special[256];              /* bytes that may make a segment change */

static pcre2_code *compile(const char *pat)
{
    int ec;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_NO_UTF_CHECK, &ec, &off,
                                   NULL);
    if (re) pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* falls back to the interpreter if JIT is unavailable */
    return re;
}

/* the NFC-unsafe code points as a bitmap, built alone for fixtext_is_nfc (extract's
 * output needs no more of fix_text's tables) */
static pthread_once_t g_nfc_once = PTHREAD_ONCE_INIT;
static void build_nfc(void)
{
    for (int i = 0; i < FTFY_N_NFC_UNSAFE; i++)
        for (uint32_t c = ftfy_nfc_unsafe[i][0]; c <= ftfy_nfc_unsafe[i][1]; c++)
            g_nfc_unsafe[c >> 3] |= (uint8_t)(1u << (c & 7));
}

static void build_once(void)
{
    for (int e = 0; e < FTFY_N_CHARMAPS; e++)
        for (int b = 0; b < 256; b++) {
            uint16_t cp = ftfy_charmap_decode[e][b];
            g_encmask[cp] |= (uint16_t)(1u << e);
            g_encbyte[e][cp] = (uint8_t)b;
        }
    pthread_once(&g_nfc_once, build_nfc);
    for (int i = 0; i < FTFY_N_NFC_UNSAFE; i++)
        for (uint32_t c = ftfy_nfc_unsafe[i][0]; c <= ftfy_nfc_unsafe[i][1] && c < 0x10000; c++) g_flag[c] |= F_NFC;
    for (uint32_t c = 0x80; c <= 0x9F; c++) g_flag[c] |= F_C1;
    for (int i = 0; i < FTFY_N_LIGATURES; i++) g_flag[ftfy_ligatures[i].cp] |= F_LIG;
    for (int i = 0; i < FTFY_N_WIDTH; i++) {
        uint32_t c = ftfy_width[i].cp;
        g_flag[c] |= F_WIDTH;
        if (c >= 0xFF00) g_width[c - 0xFF00] = ftfy_width[i].to;
    }
    g_flag[0x2BC] |= F_QUOTE;
    for (uint32_t c = 0x2018; c <= 0x201F; c++) g_flag[c] |= F_QUOTE;
    g_flag['\r'] |= F_LB;
    g_flag[0x85] |= F_LB;
    g_flag[0x2028] |= F_LB;
    g_flag[0x2029] |= F_LB;
    for (int i = 0; i < FTFY_N_CONTROL; i++) g_flag[ftfy_control[i]] |= F_CTRL;
    g_flag[0x1B] |= F_ESC;
    for (int b = 0; b < 256; b++)
        g_byte_special[b] = b >= 0x80 || b == '&' || (b < 0x80 && (g_flag[b] & (F_LB | F_CTRL | F_ESC)));
    re_bad = compile(ftfy_badness_re);
    re_det = compile(ftfy_utf8_detector_re);
    char *pat = malloc(strlen(ftfy_py_word_class) + 32);
    if (pat) {
        strcpy(pat, "  +|(?<=");
        strcat(pat, ftfy_py_word_class);
        strcat(pat, ")\\n+ ?");
        re_clean = compile(pat);
        free(pat);
    }
    g_ok = re_bad && re_det && re_clean;
}

static inline int nfc_unsafe(uint32_t c) { return (g_nfc_unsafe[c >> 3] >> (c & 7)) & 1; }
static inline uint8_t cpflag(uint32_t c) { return c < 0x10000 ? g_flag[c] : (nfc_unsafe(c) ? F_NFC : 0); }

int fixtext_is_nfc(const char *s, size_t n)
{
    pthread_once(&g_nfc_once, build_nfc);
    size_t i = 0;
    while (i < n) {
        if ((unsigned char)s[i] < 0x80) i++;
        else if (nfc_unsafe(dec(s, n, &i))) return 0;
    }
    return 1;
}

/* OR of the F_* flags of every code point of s. */
static unsigned scan_flags(const char *s, size_t n)
{
    unsigned f = 0;
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            f |= g_flag[c];
            i++;
        } else {
            f |= cpflag(dec(s, n, &i));
        }
    }
    return f;
}

/* ---------- context ---------- */

struct fixtext_ctx {
    fbuf a, b, orig, out, seg, san;
    pcre2_match_data *md;
    int32_t *u32;
    size_t u32cap;
};

fixtext_ctx *fixtext_new(void)
{
    pthread_once(&g_once, build_once);
    if (!g_ok) return NULL;
    fixtext_ctx *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->md = pcre2_match_data_create(16, NULL);
    if (!x->md) {
        free(x);
        return NULL;
    }
    return x;
}

void fixtext_free(fixtext_ctx *x)
{
    if (!x) return;
    fb_free(&x->a);
    fb_free(&x->b);
    fb_free(&x->orig);
    fb_free(&x->out);
    fb_free(&x->seg);
    fb_free(&x->san);
    pcre2_match_data_free(x->md);
    free(x->u32);
    free(x);
}

void fixtext_config_default(fixtext_config *c)
{
    c->unescape_html = 1;
    c->remove_terminal_escapes = 1;
    c->fix_encoding = 1;
    c->fix_c1_controls = 1;
    c->fix_latin_ligatures = 1;
    c->fix_character_width = 1;
    c->uncurl_quotes = 1;
    c->fix_line_breaks = 1;
    c->remove_control_chars = 1;
    c->normalization = 1;
    c->max_decode_length = 1000000;
}

/* ---------- badness (ftfy.badness.is_bad) ---------- */

static int search(pcre2_code *re, pcre2_match_data *md, const char *s, size_t n, size_t start)
{
    int rc = pcre2_match(re, (PCRE2_SPTR)s, n, start, PCRE2_NO_UTF_CHECK, md, NULL);
    return rc >= 0;
}

int fixtext_is_bad_full(fixtext_ctx *x, const char *s, size_t n)
{
    return search(re_bad, x->md, s, n, 0);
}

/* Every alternative of BADNESS_RE holds at least one non-ASCII character and
 * spans at most 7 characters, so a match starts at most 6 characters before
 * a non-ASCII character, and ends at most 6 after one. We search only those
 * windows, each against the whole text before it (lookbehind, '^') and cut 8
 * ASCII bytes after its last non-ASCII character. The unit test compares this
 * with the full search on random text. */
/* Every class BADNESS_RE names holds no ASCII, and each of its alternatives takes two
 * non-ASCII characters next to each other, but for five that take one: [{c1}],
 * [\u0152\u0153][^A-Za-z], [a-z]\s?[\u00c3\u00c2][ ], ^[\u00c3\u00c2][ ] and
 * [a-z.,?!...] \u00c2 [ ...]. So where s[a..b) (non-ASCII characters apart by ASCII) holds
 * no two side by side and none of U+0080..U+009F, U+00C2, U+00C3, U+0152, U+0153, no
 * match can touch it (test_badness_window draws its strings from every character the
 * pattern names). Bytes that are not UTF-8: 1 (the search decides). */
static int may_be_bad(const char *s, size_t a, size_t b)
{
    int prev_wide = 0;
    for (size_t i = a; i < b;) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            prev_wide = 0;
            i++;
            continue;
        }
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, b - i, &cp);
        if (k <= 0 || prev_wide || cp <= 0x9F || cp == 0xC2 || cp == 0xC3 || cp == 0x152 || cp == 0x153) return 1;
        prev_wide = 1;
        i += (size_t)k;
    }
    return 0;
}

static int is_bad(fixtext_ctx *x, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && (unsigned char)s[i] < 0x80) i++;
        if (i >= n) break;
        /* window start: 6 characters back */
        size_t ws = i;
        for (int k = 0; k < 6 && ws > 0; k++) {
            ws--;
            while (ws > 0 && ((unsigned char)s[ws] & 0xC0) == 0x80) ws--;
        }
        /* extend over non-ASCII characters separated by fewer than 8 ASCII bytes */
        size_t last_end = i;
        size_t j = i;
        while (j < n) {
            if ((unsigned char)s[j] >= 0x80) {
                dec(s, n, &j);
                last_end = j;
            } else {
                if (j - last_end >= 8) break;
                j++;
            }
        }
        size_t lim = last_end + 8 < n ? last_end + 8 : n;
        if (may_be_bad(s, i, last_end) && search(re_bad, x->md, s, lim, ws)) return 1;
        i = lim;
    }
    return 0;
}

int fixtext_is_bad(fixtext_ctx *x, const char *s, size_t n)
{
    return is_bad(x, s, n);
}

/* ---------- fix_encoding pieces ---------- */

/* ALTERED_UTF8_RE at b[i]: length of the match or 0. */
static size_t altered_at(const unsigned char *b, size_t n, size_t i)
{
    unsigned char c = b[i];
#define CONT_NO85A0(x) (((x) >= 0x80 && (x) <= 0x84) || ((x) >= 0x86 && (x) <= 0x9F) || ((x) >= 0xA1 && (x) <= 0xBF))
#define CONT(x) ((x) >= 0x80 && (x) <= 0xBF)
    if ((c == 0xC2 || c == 0xC3 || c == 0xC5 || c == 0xCE || c == 0xD0 || c == 0xD9) && i + 1 < n && b[i + 1] == ' ')
        return 2;
    if ((c == 0xE2 || c == 0xE3) && i + 2 < n && b[i + 1] == ' ' && CONT_NO85A0(b[i + 2])) return 3;
    if (c >= 0xE0 && c <= 0xE3 && i + 2 < n && CONT_NO85A0(b[i + 1]) && b[i + 2] == ' ') return 3;
    if (c == 0xF0 && i + 3 < n) {
        if (b[i + 1] == ' ' && CONT(b[i + 2]) && CONT(b[i + 3])) return 4;
        if (CONT(b[i + 1]) && b[i + 2] == ' ' && CONT(b[i + 3])) return 4;
        if (CONT(b[i + 1]) && CONT(b[i + 2]) && b[i + 3] == ' ') return 4;
    }
    return 0;
}

/* fixes.restore_byte_a0, gated as in ftfy by ALTERED_UTF8_RE.search. Returns
 * 1 with the new bytes in out when they differ. */
static int restore_byte_a0(const unsigned char *b, size_t n, fbuf *out, fbuf *tmp)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (altered_at(b, n, i)) break;
    if (i == n) return 0;
    /* A_GRAVE_WORD_RE: b"\xc3 (?! |quele|quela|quilo|s )" -> b"\xc3\xa0 " */
    tmp->n = 0;
    for (i = 0; i < n;) {
        if (b[i] == 0xC3 && i + 1 < n && b[i + 1] == ' ') {
            const unsigned char *r = b + i + 2;
            size_t rn = n - i - 2;
            int neg = (rn >= 1 && r[0] == ' ') || (rn >= 5 && (!memcmp(r, "quele", 5) || !memcmp(r, "quela", 5) ||
                                                              !memcmp(r, "quilo", 5))) ||
                      (rn >= 2 && r[0] == 's' && r[1] == ' ');
            if (!neg) {
                if (fb_put(tmp, "\xc3\xa0 ", 3)) return -1;
                i += 2;
                continue;
            }
        }
        if (fb_putc(tmp, (char)b[i])) return -1;
        i++;
    }
    out->n = 0;
    const unsigned char *t = (const unsigned char *)tmp->p;
    for (i = 0; i < tmp->n;) {
        size_t k = altered_at(t, tmp->n, i);
        if (k) {
            for (size_t j = 0; j < k; j++)
                if (fb_putc(out, (char)(t[i + j] == ' ' ? 0xA0 : t[i + j]))) return -1;
            i += k;
        } else {
            if (fb_putc(out, (char)t[i])) return -1;
            i++;
        }
    }
    return !same(out->p, out->n, (const char *)b, n);
}

/* LOSSY_UTF8_RE at b[i]: length of the match or 0. */
static size_t lossy_at(const unsigned char *b, size_t n, size_t i)
{
#define L1A(x) ((x) == 0x1A)
#define LQ(x) ((x) == 0x1A || (x) == '?')
#define LC(x) ((x) == 0x1A || CONT(x))
#define LQC(x) ((x) == 0x1A || (x) == '?' || CONT(x))
    unsigned char c = b[i];
    size_t r = n - i;
    if (c >= 0xC2 && c <= 0xDF && r >= 2 && L1A(b[i + 1])) return 2;
    if ((c == 0xC2 || c == 0xC3) && r >= 2 && b[i + 1] == '?') return 2;
    if (c == 0xED && r >= 6 && b[i + 1] >= 0xA0 && b[i + 1] <= 0xAF && b[i + 3] == 0xED && b[i + 4] >= 0xB0 &&
        b[i + 4] <= 0xBF) {
        if (LQ(b[i + 2]) && LQC(b[i + 5])) return 6;
        if (LQC(b[i + 2]) && LQ(b[i + 5])) return 6;
    }
    if (c >= 0xE0 && c <= 0xEF && r >= 3) {
        if (LQ(b[i + 1]) && LC(b[i + 2])) return 3;
        if (LC(b[i + 1]) && LQ(b[i + 2])) return 3;
    }
    if (c >= 0xF0 && c <= 0xF4 && r >= 4) {
        if (LQ(b[i + 1]) && LC(b[i + 2]) && LC(b[i + 3])) return 4;
        if (LC(b[i + 1]) && LQ(b[i + 2]) && LC(b[i + 3])) return 4;
        if (LC(b[i + 1]) && LC(b[i + 2]) && LQ(b[i + 3])) return 4;
    }
    if (c == 0x1A) return 1;
    return 0;
}

/* fixes.replace_lossy_sequences. Returns 1 with the new bytes in out when
 * they differ. */
static int replace_lossy(const unsigned char *b, size_t n, fbuf *out)
{
    out->n = 0;
    int changed = 0;
    for (size_t i = 0; i < n;) {
        size_t k = lossy_at(b, n, i);
        if (k) {
            if (fb_put(out, "\xef\xbf\xbd", 3)) return -1;
            if (k != 3 || memcmp(b + i, "\xef\xbf\xbd", 3)) changed = 1;
            i += k;
        } else {
            if (fb_putc(out, (char)b[i])) return -1;
            i++;
        }
    }
    return changed;
}

/* bytes.decode("utf-8") or, with variants, ftfy's "utf-8-variants" (CESU-8
 * surrogate pairs, Java's C0 80 for U+0000; like ftfy's regex, a C0 that is
 * followed only by a final '\n' also reads as U+0000, newline included).
 * Returns 0 (text in out) or -1 where Python raises UnicodeDecodeError, -2 out
 * of memory. */
static int decode_utf8(const unsigned char *b, size_t n, int variants, fbuf *out)
{
    out->n = 0;
    if (!variants) {
        if (!utf8_valid((const char *)b, n)) return -1;
        return fb_put(out, b, n) ? -2 : 0;
    }
    size_t i = 0;
    while (i < n) {
        size_t v = i + utf8_valid_prefix((const char *)b + i, n - i);
        if (fb_put(out, b + i, v - i)) return -2;
        i = v;
        if (i >= n) break;
        if (b[i] == 0xC0 && i + 1 < n && (b[i + 1] == 0x80 || (b[i + 1] == '\n' && i + 2 == n))) {
            if (fb_putc(out, 0)) return -2;
            i += 2;
            continue;
        }
        if (b[i] == 0xED && i + 6 <= n && b[i + 1] >= 0xA0 && b[i + 1] <= 0xAF && CONT(b[i + 2]) && b[i + 3] == 0xED &&
            b[i + 4] >= 0xB0 && b[i + 4] <= 0xBF && CONT(b[i + 5])) {
            uint32_t cp = ((uint32_t)(b[i + 1] & 0x0F) << 16) + ((uint32_t)(b[i + 2] & 0x3F) << 10) +
                          ((uint32_t)(b[i + 4] & 0x0F) << 6) + (b[i + 5] & 0x3F) + 0x10000;
            if (fb_put_cp(out, cp)) return -2;
            i += 6;
            continue;
        }
        return -1;
    }
    return 0;
}

static int fix_encoding_loop(fixtext_ctx *x, const char *s, size_t n, fbuf *out);

/* fixes.decode_inconsistent_utf8. Returns 1 with the result in out (which
 * may equal the input), -1 out of memory. */
static int decode_inconsistent(fixtext_ctx *x, const char *s, size_t n, fbuf *out)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re_det, NULL);
    if (!md) return -1;
    fbuf sub = {0};
    size_t total = fixtext_cp_len(s, n);
    size_t pos = 0;
    int rc = 1;
    out->n = 0;
    while (pos <= n) {
        int m = pcre2_match(re_det, (PCRE2_SPTR)s, n, pos, PCRE2_NO_UTF_CHECK, md, NULL);
        if (m < 0) break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        size_t ms = ov[0], me = ov[1];
        if (fb_put(out, s + pos, ms - pos)) goto oom;
        const char *t = s + ms;
        size_t tn = me - ms;
        if (fixtext_cp_len(t, tn) < total && is_bad(x, t, tn)) {
            int r = fix_encoding_loop(x, t, tn, &sub);
            if (r < 0) goto oom;
            if (r) {
                if (fb_put(out, sub.p, sub.n)) goto oom;
            } else if (fb_put(out, t, tn)) goto oom;
        } else if (fb_put(out, t, tn)) goto oom;
        pos = me > ms ? me : me + 1;
    }
    if (pos < n && fb_put(out, s + pos, n - pos)) goto oom;
    goto done;
oom:
    rc = -1;
done:
    fb_free(&sub);
    pcre2_match_data_free(md);
    return rc;
}

/* _fix_encoding_one_step_and_explain. Returns 0 (text unchanged), 1 (a
 * candidate in out, possibly equal to the input) or -1 (out of memory). */
static int fix_encoding_step(fixtext_ctx *x, const char *s, size_t n, fbuf *out)
{
    if (n == 0) return 0;
    unsigned mask = (1u << FTFY_N_CHARMAPS) - 1;
    int ascii = 1, c1 = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            if (c == 0x1A) mask &= g_encmask[0x1A];
            i++;
            continue;
        }
        ascii = 0;
        uint32_t cp = dec(s, n, &i);
        if (cp >= 0x80 && cp <= 0x9F) c1 = 1;
        mask &= cp < 0x10000 ? g_encmask[cp] : 0;
    }
    if (ascii || !is_bad(x, s, n)) return 0;

    fbuf enc = {0}, t1 = {0}, t2 = {0};
    int rc = 0;
    for (int e = 0; e < FTFY_N_CHARMAPS; e++) {
        if (!(mask & (1u << e))) continue;
        enc.n = 0;
        if (fb_reserve(&enc, n)) goto oom;
        for (size_t i = 0; i < n;) {
            uint32_t cp = dec(s, n, &i);
            enc.p[enc.n++] = (char)g_encbyte[e][cp];
        }
        const char *name = ftfy_charmap_names[e];
        if (strcmp(name, "macroman") != 0) {
            int r = restore_byte_a0((const unsigned char *)enc.p, enc.n, &t1, &t2);
            if (r < 0) goto oom;
            if (r && fb_set(&enc, t1.p, t1.n)) goto oom;
        }
        if (strncmp(name, "sloppy", 6) == 0) {
            int r = replace_lossy((const unsigned char *)enc.p, enc.n, &t1);
            if (r < 0) goto oom;
            if (r && fb_set(&enc, t1.p, t1.n)) goto oom;
        }
        int variants = memchr(enc.p, 0xED, enc.n) || memchr(enc.p, 0xC0, enc.n);
        int d = decode_utf8((const unsigned char *)enc.p, enc.n, variants, out);
        if (d == -2) goto oom;
        if (d == 0) {
            rc = 1;
            goto done;
        }
    }
    if (search(re_det, x->md, s, n, 0)) {
        int r = decode_inconsistent(x, s, n, out);
        if (r < 0) goto oom;
        if (!same(out->p, out->n, s, n)) {
            rc = 1;
            goto done;
        }
    }
    if (mask & 1u) { /* "latin-1" possible; "windows-1252" never is in ftfy's list */
        out->n = 0;
        int ok = 1;
        for (size_t i = 0; i < n && ok;) {
            uint32_t cp = dec(s, n, &i);
            uint32_t t = ftfy_cp1252_strict[cp];
            if (t == 0xFFFFFFFFu) ok = 0;
            else if (fb_put_cp(out, t)) goto oom;
        }
        if (ok && !same(out->p, out->n, s, n)) {
            rc = 1;
            goto done;
        }
    }
    if (c1) {
        out->n = 0;
        for (size_t i = 0; i < n;) {
            uint32_t cp = dec(s, n, &i);
            if (cp >= 0x80 && cp <= 0x9F) cp = ftfy_c1_fix[cp - 0x80];
            if (fb_put_cp(out, cp)) goto oom;
        }
        rc = 1;
        goto done;
    }
    rc = 0;
    goto done;
oom:
    rc = -1;
done:
    fb_free(&enc);
    fb_free(&t1);
    fb_free(&t2);
    return rc;
}

/* ftfy.fix_encoding: steps until the text stops changing. Returns 1 with the
 * result in out if it differs from s, 0 if unchanged, -1 out of memory. */
static int fix_encoding_loop(fixtext_ctx *x, const char *s, size_t n, fbuf *out)
{
    fbuf cur = {0}, nxt = {0};
    int r = fix_encoding_step(x, s, n, &nxt);
    if (r <= 0) {
        fb_free(&nxt); /* a step may fill it and still decide "unchanged" */
        return r;
    }
    if (same(nxt.p, nxt.n, s, n)) {
        fb_free(&nxt);
        return 0;
    }
    for (;;) {
        fbuf t = cur;
        cur = nxt;
        nxt = t;
        r = fix_encoding_step(x, cur.p, cur.n, &nxt);
        if (r < 0) break;
        if (r == 0 || same(nxt.p, nxt.n, cur.p, cur.n)) break;
    }
    if (r >= 0) {
        if (fb_set(out, cur.p, cur.n)) r = -1;
        else r = !same(cur.p, cur.n, s, n);
    }
    fb_free(&cur);
    fb_free(&nxt);
    return r;
}

const char *fixtext_fix_encoding(fixtext_ctx *x, const char *s, size_t n, size_t *out_n)
{
    int r = fix_encoding_loop(x, s, n, &x->out);
    if (r < 0) return NULL;
    if (r == 0 && fb_set(&x->out, s, n)) return NULL;
    *out_n = x->out.n;
    return x->out.p;
}

/* ---------- the other passes: each returns 1 with a changed text in out,
 * 0 if nothing changed, -1 out of memory ---------- */

/* fixes.unescape_html: HTML_ENTITY_RE = &#?[0-9A-Za-z]{1,24}; */
static int ent_cmp(const void *k, const void *e)
{
    const char *key = k;
    return strcmp(key, ((const ftfy_entity *)e)->name);
}
static int u32_cmp(const void *k, const void *e)
{
    uint32_t a = *(const uint32_t *)k, b = *(const uint32_t *)e;
    return a < b ? -1 : a > b;
}
static int ref_cmp(const void *k, const void *e)
{
    uint32_t a = *(const uint32_t *)k, b = ((const ftfy_charref_fix *)e)->num;
    return a < b ? -1 : a > b;
}
static inline int is_alnum_ascii(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static inline int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The replacement of one matched entity s[0..m) ("&...;"), or 0 to keep it. */
static int unescape_one(const char *s, size_t m, fbuf *out)
{
    char key[32];
    memcpy(key, s, m);
    key[m] = 0;
    const ftfy_entity *e = bsearch(key, ftfy_entities, FTFY_N_ENTITIES, sizeof *ftfy_entities, ent_cmp);
    if (e) return fb_put(out, e->value, strlen(e->value)) ? -1 : 1;
    if (s[1] != '#') return 0;
    /* html.unescape of "&#BODY;": BODY must be all digits, or x/X + hex digits */
    const char *b = s + 2;
    size_t bn = m - 3;
    uint64_t num = 0;
    int big = 0;
    if (b[0] == 'x' || b[0] == 'X') {
        if (bn < 2) return 0;
        for (size_t i = 1; i < bn; i++) {
            int v = hexval((unsigned char)b[i]);
            if (v < 0) return 0;
            if (num > 0x10FFFF) big = 1;
            else num = num * 16 + (uint64_t)v;
        }
    } else {
        for (size_t i = 0; i < bn; i++) {
            if (b[i] < '0' || b[i] > '9') return 0;
            if (num > 0x10FFFF) big = 1;
            else num = num * 10 + (uint64_t)(b[i] - '0');
        }
    }
    if (big || num > 0x10FFFF) return fb_put(out, "\xef\xbf\xbd", 3) ? -1 : 1;
    uint32_t n32 = (uint32_t)num;
    const ftfy_charref_fix *f = bsearch(&n32, ftfy_charref_fix_tbl, FTFY_N_CHARREF_FIX, sizeof *ftfy_charref_fix_tbl,
                                        ref_cmp);
    if (f) return fb_put_cp(out, f->cp) ? -1 : 1;
    if (n32 >= 0xD800 && n32 <= 0xDFFF) return fb_put(out, "\xef\xbf\xbd", 3) ? -1 : 1;
    if (bsearch(&n32, ftfy_invalid_cp, FTFY_N_INVALID_CP, sizeof *ftfy_invalid_cp, u32_cmp)) return 1; /* '' */
    if (n32 == ';') return 0; /* ftfy keeps the entity when the result holds ';' */
    return fb_put_cp(out, n32) ? -1 : 1;
}

static int pass_unescape(const char *s, size_t n, fbuf *out)
{
    const char *amp = memchr(s, '&', n);
    if (!amp) return 0;
    out->n = 0;
    int changed = 0;
    size_t pos = 0; /* copied up to here */
    for (size_t i = (size_t)(amp - s); i < n; i++) {
        if (s[i] != '&') continue;
        size_t j = i + 1;
        if (j < n && s[j] == '#') j++;
        size_t k = j;
        while (k < n && k - j < 25 && is_alnum_ascii((unsigned char)s[k])) k++;
        if (k == j || k - j > 24 || k >= n || s[k] != ';') continue;
        size_t m = k + 1 - i;
        size_t mark = out->n;
        if (fb_put(out, s + pos, i - pos)) return -1;
        size_t before = out->n;
        int r = unescape_one(s + i, m, out);
        if (r < 0) return -1;
        if (r == 0) {
            out->n = mark;
            continue; /* keep as is; scanning resumes after the match */
        }
        (void)before;
        changed = 1;
        pos = k + 1;
        i = k;
    }
    if (!changed) return 0;
    return fb_put(out, s + pos, n - pos) ? -1 : 1;
}

/* A per-character translation (str.translate / str.replace passes). */
typedef const char *(*map_fn)(uint32_t cp, char buf[8], size_t *len);

static const char *map_c1(uint32_t cp, char buf[8], size_t *len)
{
    if (cp < 0x80 || cp > 0x9F) return NULL;
    *len = (size_t)utf8_encode(ftfy_c1_fix[cp - 0x80], buf);
    return buf;
}
static int lig_cmp(const void *k, const void *e)
{
    uint32_t a = *(const uint32_t *)k, b = ((const ftfy_map *)e)->cp;
    return a < b ? -1 : a > b;
}
static const char *map_lig(uint32_t cp, char buf[8], size_t *len)
{
    if (cp >= 0x10000 || !(g_flag[cp] & F_LIG)) return NULL;
    const ftfy_map *m = bsearch(&cp, ftfy_ligatures, FTFY_N_LIGATURES, sizeof *ftfy_ligatures, lig_cmp);
    if (!m) return NULL;
    *len = strlen(m->to);
    return m->to;
}
static const char *map_width(uint32_t cp, char buf[8], size_t *len)
{
    if (cp == 0x3000) {
        *len = 1;
        return " ";
    }
    if (cp < 0xFF00 || cp >= 0x10000 || !g_width[cp - 0xFF00]) return NULL;
    *len = strlen(g_width[cp - 0xFF00]);
    return g_width[cp - 0xFF00];
}
static const char *map_quote(uint32_t cp, char buf[8], size_t *len)
{
    *len = 1;
    if (cp == 0x2BC || (cp >= 0x2018 && cp <= 0x201B)) return "'";
    if (cp >= 0x201C && cp <= 0x201F) return "\"";
    return NULL;
}
static const char *map_ctrl(uint32_t cp, char buf[8], size_t *len)
{
    if (cp >= 0x10000 || !(g_flag[cp] & F_CTRL)) return NULL;
    *len = 0;
    return "";
}

static int pass_map(const char *s, size_t n, fbuf *out, map_fn f)
{
    int changed = 0;
    size_t pos = 0, i = 0;
    char buf[8];
    while (i < n) {
        size_t st = i;
        uint32_t cp = dec(s, n, &i);
        size_t len;
        const char *r = f(cp, buf, &len);
        if (!r) continue;
        if (!changed) {
            out->n = 0;
            changed = 1;
        }
        if (fb_put(out, s + pos, st - pos) || fb_put(out, r, len)) return -1;
        pos = i;
    }
    if (!changed) return 0;
    return fb_put(out, s + pos, n - pos) ? -1 : 1;
}

/* fixes.fix_line_breaks */
static int pass_linebreaks(const char *s, size_t n, fbuf *out)
{
    out->n = 0;
    int changed = 0;
    size_t pos = 0, i = 0;
    while (i < n) {
        size_t st = i;
        uint32_t cp = dec(s, n, &i);
        if (cp == '\r' || cp == 0x85 || cp == 0x2028 || cp == 0x2029) {
            if (cp == '\r' && i < n && s[i] == '\n') i++;
            if (fb_put(out, s + pos, st - pos) || fb_putc(out, '\n')) return -1;
            pos = i;
            changed = 1;
        }
    }
    if (!changed) return 0;
    return fb_put(out, s + pos, n - pos) ? -1 : 1;
}

/* fixes.remove_terminal_escapes: \033\[((?:\d|;)*)([a-zA-Z]) ; \d is any Nd */
static int pass_ansi(const char *s, size_t n, fbuf *out)
{
    out->n = 0;
    int changed = 0;
    size_t pos = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] != 0x1B || s[i + 1] != '[') continue;
        size_t j = i + 2;
        while (j < n) {
            unsigned char c = (unsigned char)s[j];
            if (c == ';' || (c >= '0' && c <= '9')) {
                j++;
                continue;
            }
            if (c >= 0x80) {
                size_t k = j;
                uint32_t cp = dec(s, n, &k);
                if (utf8proc_category((utf8proc_int32_t)cp) == UTF8PROC_CATEGORY_ND) {
                    j = k;
                    continue;
                }
            }
            break;
        }
        if (j < n && ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z'))) {
            if (fb_put(out, s + pos, i - pos)) return -1;
            pos = j + 1;
            i = j;
            changed = 1;
        }
    }
    if (!changed) return 0;
    return fb_put(out, s + pos, n - pos) ? -1 : 1;
}

/* unicodedata.normalize("NFC") by utf8proc */
static int pass_nfc(fixtext_ctx *x, const char *s, size_t n, fbuf *out)
{
    utf8proc_option_t opt = UTF8PROC_STABLE | UTF8PROC_COMPOSE;
    utf8proc_ssize_t need = utf8proc_decompose((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, NULL, 0, opt);
    if (need < 0) return 0; /* cannot happen on valid UTF-8 */
    if ((size_t)need + 1 > x->u32cap) {
        size_t cap = (size_t)need + 1;
        int32_t *p = realloc(x->u32, cap * sizeof *p);
        if (!p) return -1;
        x->u32 = p;
        x->u32cap = cap;
    }
    need = utf8proc_decompose((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, x->u32, need, opt);
    utf8proc_ssize_t len = utf8proc_reencode(x->u32, need, opt);
    if (len < 0) return 0;
    if (same((const char *)x->u32, (size_t)len, s, n)) return 0;
    return fb_set(out, (const char *)x->u32, (size_t)len) ? -1 : 1;
}

/* fix_and_explain on one segment, result in x->a (returns 0, or -1 OOM). */
static int fix_segment(fixtext_ctx *x, const fixtext_config *c, int unescape, const char *s, size_t n)
{
    fbuf *cur = &x->a, *alt = &x->b;
    if (fb_set(cur, s, n)) return -1;
    for (;;) {
        if (fb_set(&x->orig, cur->p, cur->n)) return -1;
        int changed = 0, r;
#define RUN(expr)                  \
    do {                           \
        r = (expr);                \
        if (r < 0) return -1;      \
        if (r) {                   \
            fbuf *t_ = cur;        \
            cur = alt;             \
            alt = t_;              \
            changed = 1;           \
        }                          \
    } while (0)
        if (unescape) RUN(pass_unescape(cur->p, cur->n, alt));
        if (c->fix_encoding) RUN(fix_encoding_loop(x, cur->p, cur->n, alt));
        unsigned f = scan_flags(cur->p, cur->n);
        if (c->fix_c1_controls && (f & F_C1)) {
            RUN(pass_map(cur->p, cur->n, alt, map_c1));
            if (r) f = scan_flags(cur->p, cur->n);
        }
        if (c->fix_latin_ligatures && (f & F_LIG)) {
            RUN(pass_map(cur->p, cur->n, alt, map_lig));
            if (r) f = scan_flags(cur->p, cur->n);
        }
        if (c->fix_character_width && (f & F_WIDTH)) {
            RUN(pass_map(cur->p, cur->n, alt, map_width));
            if (r) f = scan_flags(cur->p, cur->n);
        }
        if (c->uncurl_quotes && (f & F_QUOTE)) {
            RUN(pass_map(cur->p, cur->n, alt, map_quote));
            if (r) f = scan_flags(cur->p, cur->n);
        }
        if (c->fix_line_breaks && (f & F_LB)) {
            RUN(pass_linebreaks(cur->p, cur->n, alt));
            if (r) f = scan_flags(cur->p, cur->n);
        }
        if (c->remove_terminal_escapes && (f & F_ESC)) {
            RUN(pass_ansi(cur->p, cur->n, alt));
            if (r) f = scan_flags(cur->p, cur->n);
        }
        if (c->remove_control_chars && (f & F_CTRL)) {
            RUN(pass_map(cur->p, cur->n, alt, map_ctrl));
            if (r) f = scan_flags(cur->p, cur->n);
        }
        if (c->normalization && (f & F_NFC)) RUN(pass_nfc(x, cur->p, cur->n, alt));
#undef RUN
        if (!changed || same(cur->p, cur->n, x->orig.p, x->orig.n)) break;
    }
    if (cur != &x->a) {
        fbuf t = x->a;
        x->a = x->b;
        x->b = t;
    }
    return 0;
}

const char *fixtext_fix(fixtext_ctx *x, const fixtext_config *c, const char *s, size_t n, size_t *out_n)
{
    if (!utf8_valid(s, n)) {
        x->san.n = 0;
        if (fb_reserve(&x->san, 3 * n)) return NULL;
        x->san.n = utf8_sanitize(s, n, x->san.p);
        s = x->san.p;
        n = x->san.n;
    }
    x->out.n = 0;
    int unescape = c->unescape_html;
    size_t maxlen = c->max_decode_length ? c->max_decode_length : (size_t)-1;
    size_t pos = 0;
    while (pos < n) {
        /* the segment: up to and including the next '\n', at most maxlen code points */
        const char *nl = memchr(s + pos, '\n', n - pos);
        size_t end = nl ? (size_t)(nl - s) + 1 : n;
        if (end - pos > maxlen) { /* bytes >= code points: only then can it be too long */
            size_t k = 0, i = pos;
            while (i < end && k < maxlen) {
                i++;
                while (i < end && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
                k++;
            }
            end = i;
        }
        const char *seg = s + pos;
        size_t sn = end - pos;
        if (unescape && memchr(seg, '<', sn)) unescape = 0;
        int plain = 1;
        for (size_t i = 0; i < sn; i++)
            if (g_byte_special[(unsigned char)seg[i]]) {
                plain = 0;
                break;
            }
        if (plain) {
            if (fb_put(&x->out, seg, sn)) return NULL;
        } else {
            if (fix_segment(x, c, unescape, seg, sn)) return NULL;
            if (fb_put(&x->out, x->a.p, x->a.n)) return NULL;
        }
        pos = end;
    }
    if (fb_reserve(&x->out, 0)) return NULL;
    x->out.p[x->out.n] = 0;
    *out_n = x->out.n;
    return x->out.p;
}

const char *fixtext_general_cleaning(fixtext_ctx *x, const char *s, size_t n, size_t *out_n)
{
    x->out.n = 0;
    size_t pos = 0;
    while (pos <= n) {
        int m = pcre2_match(re_clean, (PCRE2_SPTR)s, n, pos, PCRE2_NO_UTF_CHECK, x->md, NULL);
        if (m < 0) break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(x->md);
        if (fb_put(&x->out, s + pos, ov[0] - pos) || fb_putc(&x->out, ' ')) return NULL;
        pos = ov[1];
    }
    if (pos < n && fb_put(&x->out, s + pos, n - pos)) return NULL;
    if (fb_reserve(&x->out, 0)) return NULL;
    x->out.p[x->out.n] = 0;
    *out_n = x->out.n;
    return x->out.p;
}

/* Unit tests of preprocess/fixtext (ftfy.fix_text in C), the JSON raw-string
 * helpers the cleanup tool uses, and the CLD2 wrapper. Golden outputs come
 * from ftfy 6.3.1 (tests/golden/make_cleanup_golden.py). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "check.h"
#include "common/jsonl.h"
#include "common/utf8.h"
#include "preprocess/text/fixtext.h"
#include "preprocess/text/langid.h"

static char *get(const char *line, size_t len, const char *key, size_t *n)
{
    size_t vs, ve;
    char *buf = NULL;
    size_t cap = 0;
    if (!jsonl_value_span(line, len, key, &vs, &ve)) return NULL;
    if (jsonl_unescape(line + vs, ve - vs, &buf, n, &cap)) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void show(const char *what, const char *s, size_t n)
{
    printf("    %s: \"", what);
    for (size_t i = 0; i < n && i < 300; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) printf("\\x%02x", c);
        else putchar(c);
    }
    printf("\"\n");
}

/* tests/fixtures/cleanup/ftfy_cases.jsonl: ~1,100 inputs with ftfy's output */
static void test_ftfy_golden(void)
{
    jsonl_reader *jr;
    CHECK_EQ_INT(jsonl_open(&jr, "tests/fixtures/cleanup/ftfy_cases.jsonl"), 0);
    fixtext_ctx *x = fixtext_new();
    CHECK(x != NULL);
    fixtext_config c;
    fixtext_config_default(&c);
    jsonl_record r;
    int n = 0, bad = 0, changed = 0;
    while (jsonl_next(jr, &r) == JSONL_OK) {
        size_t in_n, want_n, got_n;
        char *in = get(r.line, r.len, "in", &in_n), *want = get(r.line, r.len, "ftfy", &want_n);
        CHECK(in && want);
        if (!in || !want) break;
        const char *got = fixtext_fix(x, &c, in, in_n, &got_n);
        n++;
        changed += in_n != want_n || memcmp(in, want, in_n) != 0;
        if (!got || got_n != want_n || memcmp(got, want, want_n) != 0) {
            if (bad++ < 5) {
                printf("  case %d (line %llu) differs from ftfy\n", n, (unsigned long long)r.lineno);
                show("in  ", in, in_n);
                show("ftfy", want, want_n);
                if (got) show("ours", got, got_n);
            }
        }
        free(in);
        free(want);
    }
    jsonl_close(jr);
    fixtext_free(x);
    printf("  %d cases (%d changed by ftfy), %d differ\n", n, changed, bad);
    CHECK(n > 1000);
    CHECK(changed > 500);
    CHECK_EQ_INT(bad, 0);
}

/* Hand-written expectations of single passes (documented ftfy behaviour). */
static void test_passes(void)
{
    fixtext_ctx *x = fixtext_new();
    fixtext_config c;
    fixtext_config_default(&c);
    size_t n;
    const char *o;
#define FIX(in, want)                                                  \
    do {                                                               \
        o = fixtext_fix(x, &c, in, sizeof(in) - 1, &n);                \
        CHECK(o != NULL && n == sizeof(want) - 1 && !memcmp(o, want, n)); \
        if (o && (n != sizeof(want) - 1 || memcmp(o, want, n))) show("got", o, n); \
    } while (0)
    FIX("doesn\xc3\x83\xc2\xa2\xc3\xa2\xe2\x80\x9a\xc2\xac\xc3\xa2\xe2\x80\x9e\xc2\xa2t", "doesn't"); /* 2x mojibake */
    FIX("&lt;tag&gt;", "<tag>");
    FIX("<b>&amp;</b>", "<b>&amp;</b>");            /* '<' switches HTML unescaping off */
    FIX("P&EACUTE;REZ", "P\xc3\x89REZ");
    FIX("&ntilde; &Ntilde; &NTILDE; &nTILDE;", "\xc3\xb1 \xc3\x91 \xc3\x91 &nTILDE;");
    FIX("\x1b[36;44mblue\x1b[0m", "blue");
    FIX("\xef\xac\x82u\xef\xac\x83" "e\xef\xac\x86", "fluffiest");
    FIX("\xef\xbc\xac\xef\xbc\xaf\xef\xbc\xb5\xef\xbc\xa4\xe3\x80\x80", "LOUD ");
    FIX("a\r\nb\rc\xe2\x80\xa8" "d", "a\nb\nc\nd");
    FIX("nul\0byte\x7f", "nulbyte");
    FIX("e\xcc\x81", "\xc3\xa9");                     /* NFC */
    FIX("\xc2\x85", "\xe2\x80\xa6");                  /* C1 NEL read as windows-1252: ellipsis */
    FIX("bad \xff utf8", "bad \xef\xbf\xbd utf8");    /* invalid UTF-8 -> U+FFFD, as errors="replace" */
    FIX("", "");
#undef FIX
    /* switches */
    c.uncurl_quotes = 0;
    o = fixtext_fix(x, &c, "\xe2\x80\x9chi\xe2\x80\x9d", 8, &n);
    CHECK(o && n == 8);
    c.uncurl_quotes = 1;
    c.unescape_html = 0;
    o = fixtext_fix(x, &c, "&amp;", 5, &n);
    CHECK(o && n == 5 && !memcmp(o, "&amp;", 5));
    fixtext_free(x);
}

/* The windowed badness search must agree with a full PCRE2 search. */
static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
/* the windowed and the full badness search on s[0..n): the bad ones and the
 * disagreements counted (the first three shown) */
static void badness_compare(fixtext_ctx *x, const char *s, size_t n, int *bad, int *diff)
{
    int a = fixtext_is_bad(x, s, n), b = fixtext_is_bad_full(x, s, n);
    *bad += b;
    if (a != b && (*diff)++ < 3) show("windowed and full badness differ on", s, n);
}

static void test_badness_window(void)
{
    /* characters that BADNESS_RE cares about, plus ASCII */
    static const uint32_t pool[] = {'a', 'z', 'A', ' ', ' ', '\n', '.', '!', 'x', 0xC3, 0xC2, 0xA0, 0xA9, 0xAE, 0xB0,
                                    0xE2, 0x20AC, 0x2122, 0x201C, 0x201D, 0x0152, 0x0153, 0xC0, 0xD1, 0xE9, 0xF1,
                                    0xB2, 0xB3, 0xD7, 0x2502, 0x2550, 0x2591, 0x393, 0x3B2, 0x412, 0x413, 0x420,
                                    0x402, 0x45E, 0x221A, 0x2248, 0x201A, 0xC4, 0x3C0, 0xFFFD, 0x80, 0x9F, 0xA6,
                                    0x101, 0x394, 0x392, 0x39F, 0xD8, 0xD9, 0xB5, 0xBB, 0xB7, 0xAD, 0x2014, 0x2013};
    size_t np = sizeof pool / sizeof *pool;
    fixtext_ctx *x = fixtext_new();
    char s[256];
    int diff = 0, badcount = 0;
    for (int it = 0; it < 200000; it++) {
        size_t n = 0;
        int len = 1 + (int)(rnd() % 20);
        for (int k = 0; k < len; k++) {
            uint32_t cp = pool[rnd() % np];
            if (rnd() % 3 == 0) cp = 'a' + (uint32_t)(rnd() % 26); /* long ASCII runs too */
            n += (size_t)utf8_encode(cp, s + n);
        }
        badness_compare(x, s, n, &badcount, &diff);
    }
    printf("  200000 random strings, %d bad, %d disagreements\n", badcount, diff);
    CHECK(badcount > 1000);
    CHECK_EQ_INT(diff, 0);
    /* every character BADNESS_RE names (each class expanded, ftfy 6.3.1), with ASCII and
     * characters it does not name between them: the search skipped where no two non-ASCII
     * characters touch and none of the five single ones is there (is_bad's may_be_bad) */
    static const uint32_t named[] = {
    0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x8B, 0x8C, 0x8D, 0x8E, 0x8F, 0x90,
    0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B, 0x9C, 0x9D, 0x9E, 0x9F, 0xA0, 0xA1,
    0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xAB, 0xAC, 0xAD, 0xAE, 0xAF, 0xB0, 0xB1, 0xB2,
    0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xBB, 0xBC, 0xBD, 0xBE, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3,
    0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xCB, 0xCC, 0xCD, 0xCE, 0xCF, 0xD0, 0xD1, 0xD2, 0xD3, 0xD4,
    0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xDB, 0xDC, 0xDD, 0xDE, 0xDF, 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5,
    0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xEB, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6,
    0xF7, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC, 0x100, 0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0x107, 0x10C, 0x10D,
    0x10E, 0x10F, 0x110, 0x111, 0x112, 0x113, 0x116, 0x117, 0x118, 0x119, 0x11A, 0x11B, 0x11E, 0x11F, 0x122,
    0x123, 0x12A, 0x12B, 0x12F, 0x130, 0x136, 0x137, 0x139, 0x13A, 0x13B, 0x13C, 0x13D, 0x13E, 0x141, 0x142,
    0x143, 0x145, 0x147, 0x14C, 0x150, 0x152, 0x153, 0x155, 0x158, 0x15A, 0x15B, 0x15E, 0x15F, 0x160, 0x161,
    0x162, 0x164, 0x165, 0x16A, 0x16E, 0x170, 0x172, 0x178, 0x179, 0x17A, 0x17B, 0x17C, 0x17D, 0x17E, 0x192,
    0x2C6, 0x2C7, 0x2D8, 0x2DB, 0x2DC, 0x2DD, 0x384, 0x385, 0x386, 0x388, 0x389, 0x38A, 0x38C, 0x38E, 0x38F,
    0x391, 0x392, 0x393, 0x394, 0x395, 0x396, 0x397, 0x398, 0x399, 0x39A, 0x39B, 0x39C, 0x39D, 0x39E, 0x39F,
    0x3A0, 0x3A1, 0x3A2, 0x3A3, 0x3A4, 0x3A5, 0x3A6, 0x3A7, 0x3A8, 0x3A9, 0x3AA, 0x3AB, 0x3AC, 0x3AD, 0x3AE,
    0x3AF, 0x3B0, 0x3B1, 0x3B2, 0x3B3, 0x3B4, 0x3B5, 0x3B6, 0x3B7, 0x3B8, 0x3B9, 0x3BA, 0x3BB, 0x3BC, 0x3BD,
    0x3BE, 0x3BF, 0x3C0, 0x3C1, 0x3C2, 0x3C3, 0x3C4, 0x3C5, 0x3C6, 0x3C7, 0x3C8, 0x3C9, 0x401, 0x402, 0x403,
    0x404, 0x405, 0x406, 0x407, 0x408, 0x409, 0x40A, 0x40B, 0x40C, 0x40D, 0x40E, 0x40F, 0x410, 0x411, 0x412,
    0x413, 0x414, 0x415, 0x416, 0x417, 0x418, 0x419, 0x41A, 0x41B, 0x41C, 0x41D, 0x41E, 0x41F, 0x420, 0x421,
    0x422, 0x423, 0x424, 0x425, 0x426, 0x427, 0x428, 0x429, 0x42A, 0x42B, 0x42C, 0x42D, 0x42E, 0x42F, 0x430,
    0x431, 0x432, 0x433, 0x434, 0x435, 0x436, 0x437, 0x438, 0x439, 0x43A, 0x43B, 0x43C, 0x43D, 0x43E, 0x43F,
    0x440, 0x441, 0x442, 0x443, 0x444, 0x445, 0x446, 0x447, 0x448, 0x449, 0x44A, 0x44B, 0x44C, 0x44D, 0x44E,
    0x44F, 0x450, 0x451, 0x452, 0x453, 0x454, 0x455, 0x456, 0x457, 0x458, 0x459, 0x45A, 0x45B, 0x45C, 0x45D,
    0x45E, 0x45F, 0x490, 0x491, 0x2013, 0x2014, 0x2015, 0x2018, 0x2019, 0x201A, 0x201C, 0x201D, 0x201E,
    0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203A, 0x2044, 0x20A7, 0x20AC, 0x2116, 0x2122, 0x2202,
    0x2206, 0x220F, 0x2211, 0x221A, 0x221E, 0x2229, 0x222B, 0x2248, 0x2260, 0x2261, 0x2264, 0x2265, 0x2310,
    0x2502, 0x250C, 0x2510, 0x2518, 0x251C, 0x2524, 0x252C, 0x253C, 0x2550, 0x2551, 0x2552, 0x2553, 0x2554,
    0x2555, 0x2556, 0x2557, 0x2558, 0x2559, 0x255A, 0x255B, 0x255C, 0x255D, 0x255E, 0x255F, 0x2560, 0x2561,
    0x2562, 0x2563, 0x2564, 0x2565, 0x2566, 0x2567, 0x2568, 0x2569, 0x256A, 0x256B, 0x256C, 0x2580, 0x2584,
    0x2588, 0x258C, 0x2590, 0x2591, 0x2592, 0x2593, 0x25CA, 0xF8FF, 0xFB01, 0xFB02, 0xFFFD,
    };
    static const uint32_t other[] = {'a', 'q', 'Z', ' ', ' ', '.', ',', '?', '!', '\'', '"', '1', '\t', 0x436, 0x4E2D,
                                     0x2003, 0x3000, 0x5D0, 0x627, 0x100, 0x1E9E, 0xFB01};
    int diff2 = 0, bad2 = 0;
    for (int it = 0; it < 300000; it++) {
        size_t n = 0;
        int len = 1 + (int)(rnd() % 9);
        for (int k = 0; k < len; k++) {
            uint64_t r = rnd();
            uint32_t cp = r % 3 ? other[(r >> 8) % (sizeof other / sizeof *other)]
                                : named[(r >> 8) % (sizeof named / sizeof *named)];
            n += (size_t)utf8_encode(cp, s + n);
        }
        badness_compare(x, s, n, &bad2, &diff2);
    }
    printf("  300000 strings of the characters it names, %d bad, %d disagreements\n", bad2, diff2);
    CHECK(bad2 > 1000);
    CHECK_EQ_INT(diff2, 0);
    fixtext_free(x);
}

static void test_general_cleaning(void)
{
    jsonl_reader *jr;
    CHECK_EQ_INT(jsonl_open(&jr, "tests/fixtures/cleanup/general_cleaning.jsonl"), 0);
    fixtext_ctx *x = fixtext_new();
    jsonl_record r;
    int n = 0, bad = 0;
    while (jsonl_next(jr, &r) == JSONL_OK) {
        size_t in_n, want_n, got_n;
        char *in = get(r.line, r.len, "in", &in_n), *want = get(r.line, r.len, "out", &want_n);
        const char *got = fixtext_general_cleaning(x, in, in_n, &got_n);
        n++;
        if (!got || got_n != want_n || memcmp(got, want, want_n)) {
            bad++;
            show("in", in, in_n);
            show("want", want, want_n);
        }
        free(in);
        free(want);
    }
    jsonl_close(jr);
    fixtext_free(x);
    CHECK(n > 50);
    CHECK_EQ_INT(bad, 0);
}

static void test_json_strings(void)
{
    char *buf = NULL;
    size_t len, cap = 0;
    /* NUL kept, pair joined, lone surrogates replaced, escapes decoded */
    const char *lit = "\"a\\u0000b\\ud83d\\ude00\\ud800x\\udc00\\n\\\"\\/\"";
    CHECK_EQ_INT(jsonl_unescape(lit, strlen(lit), &buf, &len, &cap), 0);
    const char want[] = "a\0b\xf0\x9f\x98\x80\xef\xbf\xbdx\xef\xbf\xbd\n\"/";
    CHECK(len == sizeof want - 1 && !memcmp(buf, want, len));
    /* raw invalid UTF-8 inside the string */
    CHECK_EQ_INT(jsonl_unescape("\"\xff\"", 3, &buf, &len, &cap), 0);
    CHECK(len == 3 && !memcmp(buf, "\xef\xbf\xbd", 3));
    CHECK(jsonl_unescape("\"\\q\"", 4, &buf, &len, &cap) < 0);
    CHECK(jsonl_unescape("\"\\u12\"", 6, &buf, &len, &cap) < 0);
    /* escape: as json.dumps(ensure_ascii=False) */
    char *e = NULL;
    size_t el, ec = 0;
    CHECK_EQ_INT(jsonl_escape("a\0\"\\\n\x01\xc3\xa9", 8, &e, &el, &ec), 0);
    CHECK(el == strlen("\"a\\u0000\\\"\\\\\\n\\u0001\xc3\xa9\"") &&
          !memcmp(e, "\"a\\u0000\\\"\\\\\\n\\u0001\xc3\xa9\"", el));
    /* round trip */
    CHECK_EQ_INT(jsonl_unescape(e, el, &buf, &len, &cap), 0);
    CHECK(len == 8 && !memcmp(buf, "a\0\"\\\n\x01\xc3\xa9", 8));
    /* value span: nested values skipped, last duplicate wins, escaped key */
    const char *line = "{\"x\": {\"text\": \"no\"}, \"text\": \"first\", \"a\": [\"]\", {}], \"t\\u0065xt\": \"last\"}";
    size_t vs, ve;
    CHECK_EQ_INT(jsonl_value_span(line, strlen(line), "text", &vs, &ve), 1);
    CHECK(ve - vs == 6 && !memcmp(line + vs, "\"last\"", 6));
    CHECK_EQ_INT(jsonl_value_span(line, strlen(line), "missing", &vs, &ve), 0);
    CHECK_EQ_INT(jsonl_value_span("[1]", 3, "text", &vs, &ve), 0);
    free(buf);
    free(e);
}

static void test_langid(void)
{
    langid_result r;
    const char *en = "The quick brown fox jumps over the lazy dog. This sentence is written in plain English and "
                     "should be recognised as such by any reasonable language detector.";
    const char *de = "Der schnelle braune Fuchs springt \xc3\xbc" "ber den faulen Hund. Dieser Satz ist auf Deutsch "
                     "geschrieben und sollte als solcher erkannt werden.";
    langid_detect(en, strlen(en), &r);
    CHECK_EQ_STR(r.code, "en");
    CHECK(r.reliable);
    langid_detect(de, strlen(de), &r);
    CHECK_EQ_STR(r.code, "de");
    langid_detect("12345 678", 9, &r);
    CHECK_EQ_STR(r.code, "un");
    langid_detect("", 0, &r);
    CHECK_EQ_STR(r.code, "un");
    CHECK(langid_known("en") && langid_known("de") && !langid_known("xx") && !langid_known("un"));
}

/* fixtext_cp_len (SIMD, lanes summed every 255 blocks) against counting the bytes
 * that are not continuation bytes, on random bytes of every length up to 9000 */
static void test_cp_len(void)
{
    static char buf[9000];
    uint64_t r = 99;
    int bad = 0;
    for (size_t n = 0; n <= sizeof buf; n += 1 + n / 7) {
        for (size_t i = 0; i < n; i++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = (char)(r >> 56);
        }
        size_t want = 0;
        for (size_t i = 0; i < n; i++) want += ((unsigned char)buf[i] & 0xC0) != 0x80;
        bad += fixtext_cp_len(buf, n) != want;
    }
    memset(buf, 'a', sizeof buf);
    bad += fixtext_cp_len(buf, sizeof buf) != sizeof buf;
    CHECK_EQ_INT(bad, 0);
}

/* fixtext_is_nfc (extract's quick check before utf8proc's NFC): every code point, alone
 * and after a letter and a precomposed letter, that it calls NFC-safe is left unchanged by
 * utf8proc's NFC; and the known cases both ways */
static void test_is_nfc(void)
{
    int wrong = 0, safe = 0;
    for (uint32_t c = 0x80; c < 0x110000; c++) {
        if (c >= 0xD800 && c < 0xE000) continue;
        char s[16];
        size_t n = 0;
        s[n++] = 'e';
        n += utf8_encode(c, s + n);
        n += utf8_encode(0xE9, s + n); /* é */
        n += utf8_encode(c, s + n);
        if (!fixtext_is_nfc(s, n)) continue;
        safe++;
        utf8proc_uint8_t *o = NULL;
        utf8proc_ssize_t on = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &o,
                                           UTF8PROC_STABLE | UTF8PROC_COMPOSE);
        if (on < 0 || (size_t)on != n || memcmp(o, s, n)) {
            if (wrong++ < 5) printf("    U+%04X called NFC-safe, utf8proc's NFC changes it\n", (unsigned)c);
        }
        free(o);
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK(safe > 1000000);
    CHECK(fixtext_is_nfc("plain ASCII", 11));
    CHECK(fixtext_is_nfc("caf\xC3\xA9 \xED\x95\x9C \xF0\x9F\x98\x80", 14)); /* café, 한, an emoji */
    CHECK(!fixtext_is_nfc("cafe\xCC\x81", 6));                              /* e + U+0301 */
    CHECK(!fixtext_is_nfc("\xE1\x84\x80\xE1\x85\xA1", 6));              /* jamo L + V */
    CHECK(!fixtext_is_nfc("\xE2\x84\xAB", 3));                              /* U+212B ANGSTROM SIGN */
}

int main(void)
{
    RUN(test_ftfy_golden);
    RUN(test_passes);
    RUN(test_badness_window);
    RUN(test_general_cleaning);
    RUN(test_json_strings);
    RUN(test_langid);
    RUN(test_cp_len);
    RUN(test_is_nfc);
    return check_total_failed != 0;
}

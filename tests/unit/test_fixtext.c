/* Unit tests of preprocess/fixtext (ftfy.fix_text in C), the JSON raw-string
 * helpers the cleanup tool uses, and the CLD2 wrapper. Golden outputs come
 * from ftfy 6.3.1 (tests/golden/make_cleanup_golden.py). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/jsonl.h"
#include "common/utf8.h"
#include "preprocess/fixtext.h"
#include "preprocess/langid.h"

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
        int a = fixtext_is_bad(x, s, n), b = fixtext_is_bad_full(x, s, n);
        badcount += b;
        if (a != b && diff++ < 3) show("windowed and full badness differ on", s, n);
    }
    printf("  200000 random strings, %d bad, %d disagreements\n", badcount, diff);
    CHECK(badcount > 1000);
    CHECK_EQ_INT(diff, 0);
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

int main(void)
{
    RUN(test_ftfy_golden);
    RUN(test_passes);
    RUN(test_badness_window);
    RUN(test_general_cleaning);
    RUN(test_json_strings);
    RUN(test_langid);
    RUN(test_cp_len);
    return check_total_failed != 0;
}

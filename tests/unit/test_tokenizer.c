/* Unit tests of tokenizer/: pretokenizer (against PCRE2 running the GPT-2
 * pattern), BPE (spec vectors, tiktoken golden cases, short vs heap merge,
 * pathological inputs), the Megatron index (round trip, corruption, int64
 * pointers past 4 GB, merge), BPE training. Run from the repository root. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/io.h"
#include "common/utf8.h"
#include "tests/unit/check.h"
#include "tokenizer/bpe.h"
#include "tokenizer/bpe_int.h"
#include "tokenizer/bpetrain.h"
#include "tokenizer/mmidx.h"
#include "tokenizer/pretok.h"

static bpe *gpt2;
static char tmpdir[] = "/tmp/test_tokenizer.XXXXXX";

static const char *ids_str(const bpe_ids *v, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (size_t i = 0; i < v->n && o + 12 < n; i++) o += (size_t)snprintf(buf + o, n - o, i ? " %u" : "%u", v->v[i]);
    return buf;
}

static void encode_str(const char *s, size_t n, char *out, size_t outn, int heap)
{
    bpe_ctx *c = bpe_ctx_new(gpt2);
    bpe_ctx_force_heap(c, heap);
    bpe_ids v = {0};
    CHECK_EQ_INT(bpe_encode(c, s, n, &v), 0);
    ids_str(&v, out, outn);
    bpe_ids_free(&v);
    bpe_ctx_free(c);
}

static void test_vectors(void)
{
    static const struct { const char *text; size_t n; const char *ids; } v[] = {
        {"hello world", 11, "31373 995"},
        {"Hello world", 11, "15496 995"},
        {" Hello world", 12, "18435 995"},
        {"000000000", 9, "10535 830"},
        {"\n\n\n", 3, "628 198"},
        {"a\xC2\xA0" "b", 4, "64 1849 65"},
        {" \xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\xE3\x81\xA8" "English 12345!\n", 28,
         "10545 245 98 17312 105 45739 252 30201 15823 17031 2231 0 198"},
        {"<|endoftext|>", 13, "27 91 437 1659 5239 91 29"},
    };
    char buf[512];
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        for (int heap = 0; heap < 2; heap++) {
            encode_str(v[i].text, v[i].n, buf, sizeof buf, heap);
            CHECK_EQ_STR(buf, v[i].ids);
        }
    }
    CHECK_EQ_INT(bpe_vocab_size(gpt2), 50257);
    CHECK_EQ_INT(bpe_n_merges(gpt2), 50000);
    CHECK_EQ_INT(bpe_eod(gpt2), 50256);
    /* decode round trip */
    uint32_t ids[] = {31373, 995, 50256};
    char *t = NULL;
    size_t tl = 0, tc = 0;
    CHECK_EQ_INT(bpe_decode(gpt2, ids, 3, &t, &tl, &tc), 0);
    CHECK_EQ_STR(t, "hello world<|endoftext|>");
    uint32_t bad = 60000;
    CHECK_EQ_INT(bpe_decode(gpt2, &bad, 1, &t, &tl, &tc), ERR_FORMAT);
    free(t);
}

static int unhex(const char *h, size_t n, char *out)
{
    for (size_t i = 0; i + 1 < n + 1 && i < n; i += 2) {
        unsigned v;
        if (sscanf(h + i, "%2x", &v) != 1) return -1;
        out[i / 2] = (char)v;
    }
    return (int)(n / 2);
}

/* tests/fixtures/bpe/cases.tsv: tiktoken's ids for ~3,400 strings */
static void test_golden_cases(void)
{
    io_reader *r;
    CHECK_EQ_INT(io_reader_open(&r, "tests/fixtures/bpe/cases.tsv"), 0);
    if (check_fails) return;
    char *line, *text = NULL, *buf = NULL;
    size_t len, bad = 0, n = 0;
    bpe_ctx *c = bpe_ctx_new(gpt2), *h = bpe_ctx_new(gpt2);
    bpe_ctx_force_heap(h, 1);
    bpe_ids v = {0}, w = {0};
    while (io_getline(r, &line, &len) == 1) {
        char *tab = strchr(line, '\t');
        if (!tab) continue;
        text = realloc(text, len);
        int tn = unhex(line, (size_t)(tab - line), text);
        v.n = w.n = 0;
        bpe_encode(c, text, (size_t)tn, &v);
        bpe_encode(h, text, (size_t)tn, &w);
        buf = realloc(buf, v.n * 12 + 16);
        ids_str(&v, buf, v.n * 12 + 16);
        int same_heap = v.n == w.n && (v.n == 0 || memcmp(v.v, w.v, v.n * 4) == 0);
        if (strcmp(buf, tab + 1) != 0 || !same_heap) {
            if (bad++ < 5) printf("  case %zu (%.40s...): ours %.60s, tiktoken %.60s%s\n", n + 1, line, buf, tab + 1,
                                  same_heap ? "" : " (heap differs)");
        }
        n++;
    }
    CHECK(n > 3000);
    CHECK_EQ_INT(bad, 0);
    bpe_ids_free(&v);
    bpe_ids_free(&w);
    bpe_ctx_free(c);
    bpe_ctx_free(h);
    free(text);
    free(buf);
    io_reader_close(r);
}

/* The GPT-2 pattern with \s spelled out as Unicode White_Space (PCRE2's \s
 * under UCP lacks U+0085). */
#define WS "\\t-\\r \\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}"
static const char *PATTERN =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^" WS "\\p{L}\\p{N}]+|[" WS "]+(?![^" WS "])|[" WS "]+";

static void test_pretok_vs_pcre2(void)
{
    int err;
    PCRE2_SIZE eoff;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)PATTERN, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP, &err, &eoff, NULL);
    CHECK(re != NULL);
    if (!re) return;
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    static const char *alpha[] = {
        "a", "b", "Z", "s", "t", "r", "e", "v", "m", "l", "d", "S", "'", "'", " ", " ", " ", "\t", "\n", "\r", "0", "7",
        "!", ".", "-", "\xC2\xA0", "\xE3\x80\x80", "\xC2\x85", "\x1C", "\xE2\x80\x8B", "\xC3\xA9", "\xCE\xB1", "\xD0\xB6",
        "\xE4\xB8\xAD", "\xCC\x81", "\xE0\xA4\xBF", "\xD9\xA3", "\xC2\xB2", "\xE2\x85\xAB", "\xF0\x9F\x98\x80",
        "\xF0\x9D\x90\x80", "\xEF\xBF\xBD", "\xE2\x80\xA8", "\xE1\x9A\x80",
        /* ASCII runs (pretok_fast's): punctuation of every range, controls, words, numbers */
        "\"", "#", "(", ")", ";", "@", "[", "`", "{", "~", "/", "\x7f", "\x0b", "\x1f", "word", "The", "1990", " (",
    };
    size_t na = sizeof alpha / sizeof *alpha, mismatches = 0;
    rng_state rng;
    rng_seed(&rng, 42);
    char s[512];
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = 0, k = 1 + rng_below(&rng, 40);
        for (size_t i = 0; i < k; i++) {
            const char *a = alpha[rng_below(&rng, na)];
            memcpy(s + n, a, strlen(a));
            n += strlen(a);
        }
        size_t i = 0;
        while (i < n) {
            size_t ours = pretok_next((const unsigned char *)s, n, i);
            int m = pcre2_match(re, (PCRE2_SPTR)s, n, i, PCRE2_ANCHORED | PCRE2_NO_UTF_CHECK, md, NULL);
            size_t theirs = m > 0 ? pcre2_get_ovector_pointer(md)[1] : i;
            if (ours != theirs) {
                if (mismatches++ < 5) printf("  pretok mismatch at %zu in \"%.*s\": ours ends %zu, pcre2 %zu\n", i, (int)n, s, ours, theirs);
                break;
            }
            i = ours;
        }
    }
    CHECK_EQ_INT(mismatches, 0);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
}

/* Long pieces must not be quadratic: these finish in milliseconds; a
 * quadratic merge would take hours and the test would time out. */
static void test_pathological(void)
{
    size_t n = 10u << 20;
    char *s = malloc(n);
    bpe_ctx *c = bpe_ctx_new(gpt2);
    bpe_ids v = {0};
    memset(s, 'a', 1000000);
    CHECK_EQ_INT(bpe_encode(c, s, 1000000, &v), 0);
    size_t tot = 0;
    for (size_t i = 0; i < v.n; i++) { size_t l; bpe_token_bytes(gpt2, v.v[i], &l); tot += l; }
    CHECK_EQ_INT(tot, 1000000);
    v.n = 0;
    memset(s, '^', 1000000);
    CHECK_EQ_INT(bpe_encode(c, s, 1000000, &v), 0);
    CHECK(v.n > 0);
    v.n = 0;
    memset(s, ' ', n);
    CHECK_EQ_INT(bpe_encode(c, s, n, &v), 0);
    CHECK(v.n > 0);
    v.n = 0;
    rng_state r;
    rng_seed(&r, 7);
    for (size_t i = 0; i < n; i++) s[i] = (char)rng_below(&r, 256);
    CHECK_EQ_INT(bpe_encode(c, s, n, &v), 0);
    CHECK(v.n > 0);
    /* the heap path on a long piece equals the short path piecewise */
    char buf1[4096], buf2[4096];
    memset(s, 'a', 200);
    encode_str(s, 200, buf1, sizeof buf1, 0);
    encode_str(s, 200, buf2, sizeof buf2, 1);
    CHECK_EQ_STR(buf1, buf2);
    bpe_ids_free(&v);
    bpe_ctx_free(c);
    free(s);
}

static void test_sanitize(void)
{
    char out[64];
    /* maximal subparts, as bytes.decode("utf-8", "replace") */
    CHECK_EQ_INT(utf8_sanitize("\xE2\x82" "a", 3, out), 4);
    CHECK(memcmp(out, "\xEF\xBF\xBD" "a", 4) == 0);
    CHECK_EQ_INT(utf8_sanitize("\xED\xA0\x80", 3, out), 9);   /* surrogate: 3 replacements */
    CHECK_EQ_INT(utf8_sanitize("\xF0\x9F\x98", 3, out), 3);   /* truncated 4-byte: one */
    CHECK_EQ_INT(utf8_sanitize("\xC0\x80", 2, out), 6);       /* overlong: two */
    CHECK_EQ_INT(utf8_sanitize("ok", 2, out), 2);
}

static void test_load_errors(void)
{
    char p[256], q[256];
    bpe *b = NULL;
    snprintf(p, sizeof p, "%s/enc.json", tmpdir);
    snprintf(q, sizeof q, "%s/merges.bpe", tmpdir);
    FILE *f = fopen(p, "w");
    fputs("{\"a\": 0, \"b\": 1}", f);
    fclose(f);
    f = fopen(q, "w");
    fputs("#version: 0.2\na b\n", f);
    fclose(f);
    CHECK_EQ_INT(bpe_load(&b, p, q), ERR_FORMAT); /* not every byte has a token */
    CHECK(strstr(err_msg(), "no token for byte") != NULL);
    CHECK_EQ_INT(bpe_load(&b, "/nonexistent/enc.json", q), ERR_IO);
    f = fopen(p, "w");
    fputs("{\"a\": 0,", f);
    fclose(f);
    CHECK_EQ_INT(bpe_load(&b, p, q), ERR_FORMAT);
    CHECK(strstr(err_msg(), p) != NULL);
    CHECK_EQ_INT(bpe_load(&b, "data/gpt2/encoder.json", "tests/fixtures/bpe/cases.tsv"), ERR_FORMAT);
    CHECK(strstr(err_msg(), "cases.tsv:1") != NULL);
}

/* encoder.json's one-pass reader against cJSON's: where it takes a file, the same
 * entries in the same order; what it must decline, declined (cJSON's reader then
 * decides, as before) */
static int enc_compare(const char *js, size_t n)
{
    enc_list a = {0}, b = {0};
    int ra = bpe_encoder_flat(js, n, &a);
    int rb = bpe_encoder_json("t.json", js, n, &b);
    if (ra == 0) {
        CHECK_EQ_INT(rb, 0);
        CHECK_EQ_INT((long long)a.n, (long long)b.n);
        size_t bad = 0;
        for (size_t k = 0; k < a.n && k < b.n; k++)
            bad += a.e[k].id != b.e[k].id || strcmp(a.keys + a.e[k].off, b.keys + b.e[k].off) != 0;
        CHECK_EQ_INT((long long)bad, 0);
    }
    bpe_enc_list_free(&a);
    bpe_enc_list_free(&b);
    return ra;
}

static void test_encoder_readers(void)
{
    char *data = NULL;
    size_t len = 0;
    CHECK_EQ_INT(bpe_slurp("data/gpt2/encoder.json", &data, &len), 0);
    CHECK_EQ_INT(enc_compare(data, len), 0); /* GPT-2's own file: read by the flat reader, the same entries */
    free(data);
    static const char *take[] = {
        "{\"a\": 0, \"b\": 1}",
        " {\n\t\"\\u0041\\/\\\"\\\\\\n\\b\\f\\r\\t\": 5 ,\"\\u00e9\\u4e2d\\uFFFF\": 16777216 }  \n",
        "{\"a\":1,\"a\":2}", /* a repeated key: both entries, in order (the loader refuses the second id) */
        "{\"\xff\xfe\": 3, \"\": 0}", /* raw bytes that are not UTF-8, an empty key: as cJSON keeps them */
        "{\"x\": 0, \"y\": 10, \"z\": 999999}",
    };
    for (size_t i = 0; i < sizeof take / sizeof *take; i++) CHECK_EQ_INT(enc_compare(take[i], strlen(take[i])), 0);
    static const char *decline[] = {
        "{}", "{\"a\": 007}", "{\"a\": 1.0}", "{\"a\": 1e2}", "{\"a\": -1}", "{\"a\": 16777217}",
        "{\"a\": 1234567890}", "{\"a\": 1} x", "\xEF\xBB\xBF{\"a\": 1}", "{\"a\x01\": 1}", "{\"\\u0000\": 1}",
        "{\"\\ud83d\\ude00\": 1}", "{\"a\": 1,}", "{\"a\" 1}", "{\"a\": 1", "{\"a\\q\": 1}", "{\"\\u12\": 1}",
        "{\"a\": true}", "[1]", "{\"a\": 1}\x0b", "{\"a\":\x0c 1}",
    };
    for (size_t i = 0; i < sizeof decline / sizeof *decline; i++) {
        int r = enc_compare(decline[i], strlen(decline[i]));
        if (r != 1) printf("  not declined: %s\n", decline[i]);
        CHECK_EQ_INT(r, 1);
    }
    enc_list L = {0}; /* cJSON's reader names a bad id's entry and key (read before the tree is freed) */
    static const char badid[] = "{\"a\": 1, \"key\": 2.5}";
    CHECK_EQ_INT(bpe_encoder_json("t.json", badid, sizeof badid - 1, &L), ERR_FORMAT);
    CHECK(strstr(err_msg(), "t.json: entry 2 (\"key\"): id is not an integer") != NULL);
    bpe_enc_list_free(&L);
    /* mutations of a small encoder file: one to three bytes replaced, inserted or
     * removed from an alphabet of JSON's own characters */
    static const char base[] = "{\"\\u0120the\": 262, \"a\\\"b\": 7, \"\\u00e9t\\u00e9\": 1000, \"\\n\": 198}";
    static const char alpha[] = "{}\":, \\u0123456789abcdefAF.eE-+\n\t\x01\xff\xc3\xa9/x";
    uint64_t r = 88172645463325252ull;
    size_t taken = 0;
    for (int t = 0; t < 20000; t++) {
        char buf[128];
        size_t n = sizeof base - 1;
        memcpy(buf, base, n);
        int edits = 1 + t % 3;
        for (int e = 0; e < edits; e++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            size_t at = (size_t)(r % (n + 1));
            char c = alpha[(r >> 32) % (sizeof alpha - 1)];
            int op = (int)((r >> 40) % 3);
            if (op == 0 && at < n) buf[at] = c;
            else if (op == 1 && n < sizeof buf - 1) memmove(buf + at + 1, buf + at, n - at), buf[at] = c, n++;
            else if (at < n) memmove(buf + at, buf + at + 1, n - at - 1), n--;
        }
        taken += enc_compare(buf, n) == 0;
    }
    CHECK(taken > 2000); /* the comparison ran on many files the flat reader took */
}

static void write_bytes(const char *path, const void *d, size_t n);

/* bpe_load's one-pass readers (encoder.json straight into token bytes, the common merge
 * line) against the general ones (bpe_encoder_direct_off): the same table, or the same
 * message; on GPT-2's files and on small ones with one to three bytes changed */

static void test_direct_readers(void)
{
    char why[1200];
    CHECK_EQ_INT(bpe_load_compare("data/gpt2/encoder.json", "data/gpt2/vocab.bpe", why, sizeof why), 1);
    /* a small vocabulary: the 256 bytes (as \uXXXX, raw UTF-8 or themselves), a few merges */
    char enc[16384], pe[300], pm[300];
    size_t n = 0;
    n += (size_t)snprintf(enc + n, sizeof enc - n, "{");
    for (unsigned c = 0; c < 256; c++) {
        uint32_t cp = bpe_byte_to_cp(c);
        if (c == '"' || c == '\\') n += (size_t)snprintf(enc + n, sizeof enc - n, "\"\\%c\": %u, ", (char)c, c);
        else if (cp < 128) n += (size_t)snprintf(enc + n, sizeof enc - n, "\"%c\": %u, ", (char)c, c);
        else if (c % 2) n += (size_t)snprintf(enc + n, sizeof enc - n, "\"\\u%04x\": %u, ", cp, c);
        else n += (size_t)snprintf(enc + n, sizeof enc - n, "\"%c%c\": %u, ", (char)(0xC0 | cp >> 6), (char)(0x80 | (cp & 0x3F)), c);
    }
    n += (size_t)snprintf(enc + n, sizeof enc - n,
                          "\"\\u0120t\": 256, \"he\": 257, \"\\u0120the\": 258, \"ab\": 259, \"<|endoftext|>\": 260}");
    const char *merges = "#version: 0.2\n\xc4\xa0 t\nh e\n\xc4\xa0t he\na b\n";
    snprintf(pe, sizeof pe, "%s/direct_enc.json", tmpdir);
    snprintf(pm, sizeof pm, "%s/direct_merges.txt", tmpdir);
    write_bytes(pe, enc, n);
    write_bytes(pm, merges, strlen(merges));
    CHECK_EQ_INT(bpe_load_compare(pe, pm, why, sizeof why), 1);
    /* one more key, spelled every way that the one-pass reader takes or leaves to the other */
    static const char *keys[] = {"\\n", "\\t", "\\b", "\\f", "\\r", "\\u0000", "\\u0020", "\\u007f", "\\u00ad",
                                 "\\u00a1x", "\\u0143", "\\u0144", "\\u0200", "\\ud800", "\\uD83D\\uDE00", "\\u00e9\\u00E9",
                                 " ", "a b", "\x7f", "\xc2\xa0", "\xc2\xa1", "\xc5\x83", "\xc5\x84", "\xc8\x80", "\xe4\xb8\xad",
                                 "\xc4", "\xff", "\\/\\\"\\\\", "\\\\", "\\u002F", "<|endoftext|>", "\\u003c|endoftext|>", "", "\\u12",
                                 "\\x41", "\\U0041"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        char e2[16640];
        memcpy(e2, enc, n - 1); /* without the closing brace */
        for (int zq = 0; zq < 2; zq++) { /* alone, and with "zq" after it (no other token's bytes) */
            size_t en = n - 1 + (size_t)snprintf(e2 + n - 1, sizeof e2 - (n - 1), ", \"%s%s\": 261}", keys[k], zq ? "zq" : "");
            write_bytes(pe, e2, en);
            int got = bpe_load_compare(pe, pm, why, sizeof why);
            if (!got) printf("  key \"%s%s\": %s\n", keys[k], zq ? "zq" : "", why);
            CHECK(got != 0);
        }
    }
    static const char alpha[] = "{}\":, \\u0123456789abcdefAF.eE-+\n\r\t\x01\xff\xc3\xa9\xc4\xa0/x<|>#";
    uint64_t r = 0x9E3779B97F4A7C15ull;
    int bad = 0, loaded = 0, refused = 0;
    unsigned long taken = bpe_direct_taken;
    for (int t = 0; t < 6000; t++) {
        char e2[16640], m2[4200];
        size_t en = n, mn = strlen(merges);
        memcpy(e2, enc, en);
        memcpy(m2, merges, mn);
        int edits = 1 + t % 3, in_merges = t % 4 == 3;
        char *buf = in_merges ? m2 : e2;
        size_t *bn = in_merges ? &mn : &en;
        /* the edits fall near the changing parts: the last keys, or anywhere in the merges */
        size_t from = in_merges ? 0 : (t % 2 ? n - 120 : 0);
        for (int k = 0; k < edits; k++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            size_t at = from + (size_t)(r % (*bn - from + 1));
            char c = alpha[(r >> 32) % (sizeof alpha - 1)];
            int op = (int)((r >> 40) % 3);
            if (op == 0 && at < *bn) buf[at] = c;
            else if (op == 1) memmove(buf + at + 1, buf + at, *bn - at), buf[at] = c, (*bn)++;
            else if (at < *bn) memmove(buf + at, buf + at + 1, *bn - at - 1), (*bn)--;
        }
        write_bytes(pe, e2, en);
        write_bytes(pm, m2, mn);
        int got = bpe_load_compare(pe, pm, why, sizeof why);
        if (!got && bad++ < 5) printf("  edit %d: %s\n", t, why);
        loaded += got == 1;
        refused += got == 2;
    }
    CHECK_EQ_INT(bad, 0);
    printf("  %d loaded, %d refused the same way, %lu taken by the one-pass readers\n", loaded, refused,
           bpe_direct_taken - taken);
    CHECK(loaded > 300 && refused > 2000 && bpe_direct_taken - taken > 6000);
}

static void write_bytes(const char *path, const void *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (n) fwrite(d, 1, n, f);
    fclose(f);
}

static void test_mmidx(void)
{
    char prefix[256], path[300];
    snprintf(prefix, sizeof prefix, "%s/ds", tmpdir);
    mmidx_builder *b;
    CHECK_EQ_INT(mmidx_builder_open(&b, prefix, MMIDX_UINT16), 0);
    uint32_t s1[] = {1, 2, 3}, s2[] = {50256}, s3[] = {7, 8};
    mmidx_add_sequence(b, s1, 3);
    mmidx_add_sequence(b, s2, 1);
    mmidx_end_document(b);
    mmidx_end_document(b); /* empty document */
    mmidx_add_sequence(b, s3, 2);
    mmidx_end_document(b);
    uint32_t big = 70000;
    CHECK_EQ_INT(mmidx_add_sequence(b, &big, 1), ERR_FORMAT);
    CHECK_EQ_INT(mmidx_builder_commit(b), 0);
    mmidx d;
    CHECK_EQ_INT(mmidx_open(&d, prefix), 0);
    CHECK_EQ_INT(d.n_seq, 3);
    CHECK_EQ_INT(d.n_doc_idx, 4);
    CHECK_EQ_INT(d.idx_size, 34 + 12 * 3 + 8 * 4);
    CHECK_EQ_INT(d.bin_size, 12);
    CHECK_EQ_INT(mmidx_pointer(&d, 2), 8);
    CHECK_EQ_INT(mmidx_doc_index(&d, 1), 2);
    CHECK_EQ_INT(mmidx_doc_index(&d, 2), 2);
    CHECK_EQ_INT(mmidx_token(&d, 2, 1), 8);
    /* merge with itself: Megatron's add_index twice */
    char mprefix[300];
    snprintf(mprefix, sizeof mprefix, "%s/merged", tmpdir);
    CHECK_EQ_INT(mmidx_builder_open(&b, mprefix, MMIDX_UINT16), 0);
    CHECK_EQ_INT(mmidx_builder_append(b, &d), 0);
    CHECK_EQ_INT(mmidx_builder_append(b, &d), 0);
    CHECK_EQ_INT(mmidx_builder_commit(b), 0);
    mmidx m;
    CHECK_EQ_INT(mmidx_open(&m, mprefix), 0);
    CHECK_EQ_INT(m.n_seq, 6);
    CHECK_EQ_INT(m.n_doc_idx, 7);
    int64_t want_doc[] = {0, 2, 2, 3, 5, 5, 6};
    for (int k = 0; k < 7; k++) CHECK_EQ_INT(mmidx_doc_index(&m, (uint64_t)k), want_doc[k]);
    CHECK_EQ_INT(mmidx_pointer(&m, 3), 12);
    CHECK_EQ_INT(mmidx_token(&m, 5, 0), 7);
    mmidx_close(&m);
    /* dtype mismatch */
    CHECK_EQ_INT(mmidx_builder_open(&b, mprefix, MMIDX_INT32), 0);
    CHECK_EQ_INT(mmidx_builder_append(b, &d), ERR_FORMAT);
    mmidx_builder_abort(b);
    /* corruptions, each named */
    size_t isz = d.idx_size;
    uint8_t *idx = malloc(isz);
    memcpy(idx, d.idx, isz);
    mmidx_close(&d);
    snprintf(path, sizeof path, "%s.idx", prefix);
    struct { size_t off; uint8_t val; const char *msg; } bad[] = {
        {0, 'X', "bad magic"}, {9, 2, "version"}, {17, 9, "dtype"}, {34, 0xFF, "length"},
        {34 + 12 + 8, 5, "pointer"}, {34 + 36 + 8, 9, "document index"}, {18, 4, "bytes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint8_t *c = malloc(isz);
        memcpy(c, idx, isz);
        c[bad[i].off] = bad[i].val;
        if (bad[i].off == 34) c[35] = c[36] = c[37] = 0xFF; /* -1 */
        write_bytes(path, c, isz);
        free(c);
        int rc = mmidx_open(&d, prefix);
        CHECK_EQ_INT(rc, ERR_CORRUPT);
        if (rc == ERR_CORRUPT && !strstr(err_msg(), bad[i].msg)) printf("  message \"%s\" lacks \"%s\"\n", err_msg(), bad[i].msg), check_fails++;
    }
    write_bytes(path, idx, isz - 1); /* truncated */
    CHECK_EQ_INT(mmidx_open(&d, prefix), ERR_CORRUPT);
    write_bytes(path, idx, isz);
    snprintf(path, sizeof path, "%s.bin", prefix);
    write_bytes(path, "\0\0\0", 3); /* .bin shorter than the index says */
    CHECK_EQ_INT(mmidx_open(&d, prefix), ERR_CORRUPT);
    CHECK(strstr(err_msg(), ".bin") != NULL);
    free(idx);
    /* int64 pointers past 4 GB: 3 sequences of 2^30 uint16 tokens */
    int32_t lens[3] = {1 << 30, 1 << 30, 1 << 30};
    int64_t docs[3] = {0, 2, 3};
    snprintf(path, sizeof path, "%s/big.idx", tmpdir);
    CHECK_EQ_INT(mmidx_write_index(path, MMIDX_UINT16, lens, 3, docs, 3), 0);
    FILE *f = fopen(path, "rb");
    int64_t ptr[3] = {0};
    fseek(f, 34 + 12, SEEK_SET);
    CHECK_EQ_INT(fread(ptr, 8, 3, f), 3);
    fclose(f);
    CHECK_EQ_INT(ptr[1], 1ll << 31);
    CHECK_EQ_INT(ptr[2], 1ll << 32);
    /* and the reader accepts it with a sparse 6 GiB .bin */
    snprintf(path, sizeof path, "%s/big.bin", tmpdir);
    f = fopen(path, "wb");
    fclose(f);
    if (truncate(path, 3ll << 31) == 0) {
        snprintf(path, sizeof path, "%s/big", tmpdir);
        CHECK_EQ_INT(mmidx_open(&d, path), 0);
        CHECK_EQ_INT(mmidx_pointer(&d, 2), 1ll << 32);
        mmidx_close(&d);
    }
}

static void test_train(void)
{
    bpetrain *t = bpetrain_new();
    const char *text = "the cat sat on the mat. the cat ate the rat. low lower lowest newer wider new\n";
    for (int i = 0; i < 50; i++) CHECK_EQ_INT(bpetrain_add_text(t, text, strlen(text)), 0);
    CHECK_EQ_INT(bpetrain_add_text(t, "bad \xFF utf8", 10), 0);
    CHECK_EQ_INT(bpetrain_run(t, 40, 2, 0), 0);
    CHECK(bpetrain_n_merges(t) > 10);
    char e[256], m[256];
    snprintf(e, sizeof e, "%s/enc.json", tmpdir);
    snprintf(m, sizeof m, "%s/vocab.bpe", tmpdir);
    CHECK_EQ_INT(bpetrain_write(t, e, m), 0);
    bpe *b = NULL;
    CHECK_EQ_INT(bpe_load(&b, e, m), 0);
    if (b) {
        CHECK_EQ_INT(bpe_vocab_size(b), 257 + bpetrain_n_merges(t));
        CHECK_EQ_INT(bpe_eod(b), 256 + bpetrain_n_merges(t));
        bpe_ctx *c = bpe_ctx_new(b);
        bpe_ids v = {0};
        CHECK_EQ_INT(bpe_encode(c, " the cat", 8, &v), 0);
        CHECK(v.n <= 3); /* " the" and " cat" are frequent: merged */
        char *d = NULL;
        size_t dl = 0, dc = 0;
        bpe_decode(b, v.v, v.n, &d, &dl, &dc);
        CHECK_EQ_STR(d, " the cat");
        free(d);
        bpe_ids_free(&v);
        bpe_ctx_free(c);
        bpe_free(b);
    }
    /* deterministic: a second run from the same counts gives the same files */
    bpetrain *t2 = bpetrain_new();
    for (int i = 0; i < 50; i++) bpetrain_add_text(t2, text, strlen(text));
    bpetrain_add_text(t2, "bad \xFF utf8", 10);
    bpetrain_run(t2, 40, 2, 0);
    char m2[256];
    snprintf(m2, sizeof m2, "%s/vocab2.bpe", tmpdir);
    snprintf(e, sizeof e, "%s/enc2.json", tmpdir);
    CHECK_EQ_INT(bpetrain_write(t2, e, m2), 0);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", m, m2);
    CHECK_EQ_INT(system(cmd), 0);
    bpetrain_free(t);
    bpetrain_free(t2);
}

/* bpe_count_at_least answers as the full count does, for every k around it, on
 * texts of words, digits, punctuation, spaces, multibyte characters and the
 * special token (the piece bound must never be above the ids). */
static void test_count_at_least(void)
{
    static const char *const parts[] = {"the", " quick", "  ", "\n", "1234567", "!?", " caf\xc3\xa9", "\xe4\xb8\xad\xe6\x96\x87",
                                        "'s", " <|endoftext|>", "aaaaaaaaaaaaaaaa", "\xff", " \t", "x"};
    bpe_ctx *c = bpe_ctx_new(gpt2);
    bpe_ids v = {0};
    rng_state r;
    rng_seed(&r, 11);
    char text[4096];
    int bad = 0;
    for (int trial = 0; trial < 2000 && c; trial++) {
        size_t n = 0, parts_n = (size_t)rng_below(&r, 60);
        for (size_t i = 0; i < parts_n; i++) {
            const char *p = parts[rng_below(&r, sizeof parts / sizeof *parts)];
            size_t l = strlen(p);
            if (n + l < sizeof text) memcpy(text + n, p, l), n += l;
        }
        v.n = 0;
        CHECK_EQ_INT(bpe_encode(c, text, n, &v), 0);
        for (size_t k = v.n > 3 ? v.n - 3 : 0; k <= v.n + 3; k++) {
            int yes = -1;
            CHECK_EQ_INT(bpe_count_at_least(c, text, n, k, &yes), 0);
            bad += yes != (v.n >= k);
        }
    }
    CHECK_EQ_INT(bad, 0);
    bpe_ids_free(&v);
    bpe_ctx_free(c);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) return 1;
    if (bpe_load(&gpt2, "data/gpt2/encoder.json", "data/gpt2/vocab.bpe")) {
        printf("FAIL load: %s\n", err_msg());
        return 1;
    }
    RUN(test_vectors);
    RUN(test_golden_cases);
    RUN(test_pretok_vs_pcre2);
    RUN(test_pathological);
    RUN(test_count_at_least);
    RUN(test_sanitize);
    RUN(test_load_errors);
    RUN(test_encoder_readers);
    RUN(test_direct_readers);
    RUN(test_mmidx);
    RUN(test_train);
    bpe_free(gpt2);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd)) return 1;
    return check_total_failed ? 1 : 0;
}

/* Unit tests of the quality filters (preprocess/filters/quality.c) and of datatrove's word
 * splitter in C (preprocess/text/spacy_tok.c), against golden files that spaCy and
 * datatrove themselves wrote (tests/golden/make_quality_fixtures.py):
 *   tokens.jsonl    every token and the sentence count of spaCy, text by text;
 *   docs/expected   every filter's decision, reason and (c4_quality) kept text, alone
 *                   and as FineWeb's chain.
 * Also: the generated character tables against common/utf8.c, the flags' range
 * checks, and that the comparison can fail (a changed threshold is noticed).
 *
 * `test_quality --tokens` reads texts separated by NUL on stdin and prints each
 * one's tokens joined by \x1f, \x1e, its sentence count, \x1d: the driver of
 * scripts/check/spacy_crosscheck.py. Run from the repository root. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/utf8.h"
#include "preprocess/filters/quality.h"
#include "preprocess/filters/quality_int.h"
#include "preprocess/text/spacy_tok.h"
#include "tests/unit/check.h"
#ifndef NELEM
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define FIX "tests/fixtures/quality/"

static cJSON **read_jsonl(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    *n = 0;
    if (!f) return NULL;
    cJSON **v = NULL;
    size_t cap = 0;
    char *line = NULL;
    size_t lcap = 0;
    ssize_t l;
    while ((l = getline(&line, &lcap, f)) > 0) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            v = realloc(v, cap * sizeof *v);
        }
        v[(*n)++] = cJSON_ParseWithLength(line, (size_t)l);
    }
    free(line);
    fclose(f);
    return v;
}

static void free_jsonl(cJSON **v, size_t n)
{
    for (size_t i = 0; i < n; i++) cJSON_Delete(v[i]);
    free(v);
}

static void test_tokens_golden(void)
{
    size_t n;
    cJSON **v = read_jsonl(FIX "tokens.jsonl", &n);
    CHECK(n > 2000);
    spacy_ctx *c = spacy_ctx_new();
    CHECK(c != NULL);
    sp_tokens t = {0};
    size_t bad = 0, ntok = 0;
    for (size_t i = 0; c && i < n; i++) {
        const char *text = cJSON_GetObjectItem(v[i], "text")->valuestring;
        const cJSON *want = cJSON_GetObjectItem(v[i], "tokens");
        size_t len = strlen(text);
        int ok = spacy_tokenize(c, text, len, &t) == 0 && t.n == (size_t)cJSON_GetArraySize(want);
        for (size_t k = 0; ok && k < t.n; k++) {
            const char *w = cJSON_GetArrayItem(want, (int)k)->valuestring;
            ok = strlen(w) == t.t[k].len && !memcmp(w, text + t.t[k].off, t.t[k].len);
        }
        ok = ok && spacy_sentences(text, &t, NULL) == (size_t)cJSON_GetObjectItem(v[i], "sentences")->valueint;
        ntok += t.n;
        if (!ok && bad++ < 5) printf("  tokens differ from spaCy's for text %zu: %.60s\n", i, text);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(ntok > 20000);
    sp_tokens_free(&t);
    spacy_ctx_free(c);
    free_jsonl(v, n);
}

/* the decisions of docs.jsonl under params p against expected.jsonl; returns the differences */
static size_t run_docs(const quality_params *p, const quality_params *chain_p, int print)
{
    size_t nd, ne, bad = 0;
    cJSON **docs = read_jsonl(FIX "docs.jsonl", &nd), **exp = read_jsonl(FIX "expected.jsonl", &ne);
    CHECK(nd == ne && nd > 500);
    quality_ctx *q = quality_ctx_new();
    static const char *const names[] = {"gopher_repetition", "gopher_quality", "c4_quality", "fineweb_quality"};
    for (size_t i = 0; q && i < nd && i < ne; i++) {
        const char *text = cJSON_GetObjectItem(docs[i], "text")->valuestring;
        size_t len = strlen(text);
        for (int f = 0; f < 5; f++) {
            const cJSON *e = cJSON_GetObjectItem(exp[i], f < 4 ? names[f] : "chain");
            int keep = cJSON_IsTrue(cJSON_GetArrayItem(e, 0));
            const cJSON *er = cJSON_GetArrayItem(e, 1), *et = cJSON_GetArrayItem(e, 2);
            const char *reason = NULL, *out = NULL;
            char chain_reason[128] = "";
            size_t on = 0;
            int k = 1;
            quality_begin(q);
            if (f == 0) k = quality_gopher_repetition(q, p, text, len, &reason);
            else if (f == 1) k = quality_gopher_quality(q, p, text, len, &reason);
            else if (f == 2) k = quality_c4(q, p, text, len, &out, &on, &reason);
            else if (f == 3) k = quality_fineweb(q, p, text, len, &reason);
            else {
                const char *t = text;
                size_t tn = len;
                for (int s = 0; s < 4 && k == 1; s++) {
                    if (s == 0) k = quality_gopher_repetition(q, chain_p, t, tn, &reason);
                    else if (s == 1) k = quality_gopher_quality(q, chain_p, t, tn, &reason);
                    else if (s == 2) {
                        k = quality_c4(q, chain_p, t, tn, &out, &on, &reason);
                        if (k == 1) t = out, tn = on;
                    } else k = quality_fineweb(q, chain_p, t, tn, &reason);
                    if (k == 0) snprintf(chain_reason, sizeof chain_reason, "%s/%s", names[s], reason);
                }
                if (k == 1) out = t, on = tn;
                reason = chain_reason;
            }
            int ok = k == keep;
            if (ok && !keep) ok = cJSON_IsString(er) && !strcmp(er->valuestring, reason);
            if (ok && keep && cJSON_IsString(et)) ok = strlen(et->valuestring) == on && !memcmp(et->valuestring, out, on);
            if (!ok) {
                bad++;
                if (print && bad <= 8)
                    printf("  document %zu, %s: ours %s, datatrove %s\n", i, f < 4 ? names[f] : "chain",
                           k == 1 ? "kept" : k == 0 ? reason : "error", keep ? "kept" : er->valuestring);
            }
        }
    }
    quality_ctx_free(q);
    free_jsonl(docs, nd);
    free_jsonl(exp, ne);
    return bad;
}

static void test_filters_golden(void)
{
    quality_params p, chain;
    quality_params_default(&p);
    chain = p;
    chain.c4_filter_no_terminal_punct = 0; /* FineWeb's C4QualityFilter(filter_no_terminal_punct=False) */
    CHECK_EQ_INT(run_docs(&p, &chain, 1), 0);
}

/* the golden comparison notices a changed threshold (it can fail) */
static void test_filters_golden_can_fail(void)
{
    quality_params p, chain;
    quality_params_default(&p);
    chain = p;
    chain.c4_filter_no_terminal_punct = 0;
    p.min_doc_words = 51;
    p.c4_min_num_sentences = 4;
    p.top_frac[0] = 0.21;
    CHECK(run_docs(&p, &chain, 0) > 0);
}

static void test_char_tables(void)
{
    size_t bad = 0;
    for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
        if (cp >= 0xD800 && cp <= 0xDFFF) continue;
        if (!!utf8_is_pyspace(cp) != !!py_isspace_cp(cp)) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(py_isalpha_cp('a') && py_isalpha_cp(0xE9) && !py_isalpha_cp('1') && py_isalpha_cp(0x4E2D));
    CHECK(uc_ispunct_cp('.') && uc_ispunct_cp(0x2014) && !uc_ispunct_cp('$') && !uc_ispunct_cp('+'));
    CHECK(dt_terminal_cp('.') && dt_terminal_cp(0x3002) && !dt_terminal_cp(','));
    CHECK(dt_punctuation_cp(',') && dt_punctuation_cp(0x2014) && !dt_punctuation_cp('a'));
    CHECK(py_isdecimal_cp('7') && py_isdecimal_cp(0x0663) && !py_isdecimal_cp(0x00B2));
    CHECK_EQ_STR(py_lower_special(0x212A), "k");
    CHECK(py_lower_special('A') == NULL);
}

/* Python semantics that decide documents, each on a hand-made text */
static void test_quirks(void)
{
    quality_params p;
    quality_params_default(&p);
    quality_ctx *q = quality_ctx_new();
    const char *r = NULL, *out;
    size_t on;
    /* C4: words are counted before citation removal; the line then ends in a space */
    const char *t1 = "One two three four. [1]\nA b c d.\nA b c d.\nA b c d.\nA b c d.\nA b c d.";
    quality_begin(q);
    CHECK_EQ_INT(quality_c4(q, &p, t1, strlen(t1), &out, &on, &r), 1);
    CHECK(on == 44 && !memcmp(out, "A b c d.\nA b c d.\nA b c d.\nA b c d.\nA b c d.", on));
    /* C4: the Kelvin sign lowers to k: "coo\u212Aie policy" is a policy line */
    const char *t2 = "Our coo\xe2\x84\xaaie policy is here.\nA b c d e.\nA b c d e.\nA b c d e.\nA b c d e.\nA b c d e.";
    quality_begin(q);
    CHECK_EQ_INT(quality_c4(q, &p, t2, strlen(t2), &out, &on, &r), 1);
    CHECK(on > 0 && out[0] == 'A');
    /* C4: "{" drops the document, but only on a line that got that far */
    const char *t3 = "x {\nA b c d {e}.";
    quality_begin(q);
    CHECK_EQ_INT(quality_c4(q, &p, t3, strlen(t3), &out, &on, &r), 0);
    CHECK_EQ_STR(r, "curly_bracket");
    /* FineWeb: an empty text, a text of newlines */
    quality_begin(q);
    CHECK_EQ_INT(quality_fineweb(q, &p, "\n\n \n", 4, &r), 0);
    CHECK_EQ_STR(r, "empty");
    /* Gopher repetition: a text of newlines has one empty paragraph and duplicate empty lines */
    quality_begin(q);
    CHECK_EQ_INT(quality_gopher_repetition(q, &p, "\n\n\n", 3, &r), 0);
    CHECK_EQ_STR(r, "dup_line_frac");
    quality_begin(q);
    CHECK_EQ_INT(quality_gopher_repetition(q, &p, "", 0, &r), 0);
    CHECK_EQ_STR(r, "empty");
    /* Gopher quality with no words and min_doc_words off: datatrove divides by zero; we keep going */
    p.min_doc_words = 0;
    p.min_stop_words = 0;
    quality_begin(q);
    CHECK_EQ_INT(quality_gopher_quality(q, &p, "", 0, &r), 1);
    quality_ctx_free(q);
}

/* the word-at-a-time and table-driven helpers against byte-at-a-time references,
 * and the per-pass tables reset by epoch: the same decisions over many documents */
static void test_helpers(void)
{
    { /* q_cplen on long texts (its sixteen-byte lanes are summed every 255 rounds) */
        static char big[20000];
        uint64_t r0 = 99;
        for (int it = 0; it < 40; it++) {
            size_t n = (size_t)(it * 997 % 20000);
            size_t want = 0;
            for (size_t i = 0; i < n; i++) {
                r0 = r0 * 6364136223846793005ull + 1442695040888963407ull;
                big[i] = (char)(it % 4 == 3 ? 0x80 | (r0 >> 58) : r0 >> 56); /* now and then all continuation bytes */
                want += ((unsigned char)big[i] & 0xC0) != 0x80;
            }
            CHECK_EQ_INT((long long)q_cplen(big, n), (long long)want);
        }
    }
    uint64_t r = 12345;
    const char pool[] = "ab \n\r\x0b\x0c\x1c\x1d\x1e\xc2\x85\xe2\x80\xa8\xa9\xc3\xa9\xf0\x9f\x98\x80";
    char buf[64];
    spans a = {0};
    for (int it = 0; it < 20000; it++) {
        size_t n = (size_t)(it % 48);
        for (size_t i = 0; i < n; i++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = pool[(r >> 33) % (sizeof pool - 1)];
        }
        size_t want = 0;
        for (size_t i = 0; i < n; i++) want += ((unsigned char)buf[i] & 0xC0) != 0x80;
        CHECK_EQ_INT((long long)q_cplen(buf, n), (long long)want);
        /* str.count: non-overlapping, left to right */
        const char *subs[] = {"\n", "\n\n", "ab", "\xe2\x80\xa8", "aaa"};
        for (size_t k = 0; k < sizeof subs / sizeof *subs; k++) {
            size_t sl = strlen(subs[k]), cnt = 0;
            for (size_t i = 0; i + sl <= n;)
                if (!memcmp(buf + i, subs[k], sl)) cnt++, i += sl;
                else i++;
            CHECK_EQ_INT((long long)q_count_sub(buf, n, subs[k]), (long long)cnt);
        }
        /* splitlines: every byte tried as a break */
        size_t lines[64], nl = 0, start = 0, i = 0;
        while (i < n) {
            size_t k = q_line_break_at(buf, n, i);
            if (k) lines[nl++] = i - start, i += k, start = i;
            else i++;
        }
        if (start < n) lines[nl++] = n - start;
        CHECK_EQ_INT(q_splitlines(buf, n, &a), 0);
        CHECK_EQ_INT((long long)a.n, (long long)nl);
        for (size_t k = 0; k < nl && k < a.n; k++) CHECK_EQ_INT(a.v[k].len, (long long)lines[k]);
    }
    free(a.v);
    quality_params p;
    quality_params_default(&p);
    quality_ctx *q = quality_ctx_new();
    const char *rep = "one two three four five six seven eight nine ten eleven twelve one two three four five six "
                      "seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen";
    const char *fresh = "The quick brown fox jumps over the lazy dog while seven wizards quietly hex the jolly "
                        "judge and a sphinx of black quartz judges my vow beside five boxing wizards";
    int bad = 0;
    for (int d = 0; d < 700; d++) { /* past the 255 epochs of the n-gram table, twice */
        const char *t = d % 3 ? fresh : rep, *why = NULL;
        quality_begin(q);
        int k = quality_gopher_repetition(q, &p, t, strlen(t), &why);
        bad += k != (d % 3 ? 1 : 0);
    }
    CHECK_EQ_INT(bad, 0);
    /* c4's phrases, anywhere in a line and in any case (U+212A lowers to k) */
    const char *lines[][2] = {
        {"This site uses cookies to work. It is fine. Here is more. And more. And more.", "kept 4"},
        {"Read the Terms of Use now please. It is fine. Here is more. And more. And more.", "kept 4"},
        {"It is fine. Here is more. And more. And more. Enable JavaScript today please now.", "kept 4"},
        {"It is fine. Here is more. And more. Lorem Ipsum dolor sit amet. And more.", "lorem_ipsum"},
        {"It is fine. Here is more. And more. And more. We set a coo\xe2\x84\xaaie policy here.", "kept 4"},
    };
    for (size_t k = 0; k < sizeof lines / sizeof *lines; k++) {
        char text[512];
        snprintf(text, sizeof text, "%s\nA second line is here. It has words.\nA third line is here too. Yes.\n"
                 "A fourth line is here too. Yes.\nA fifth line is here too. Yes.", lines[k][0]);
        const char *out, *why = "kept";
        size_t on;
        quality_begin(q);
        int keep = quality_c4(q, &p, text, strlen(text), &out, &on, &why);
        char got[64];
        if (keep) snprintf(got, sizeof got, "kept %d", (int)(on < strlen(text) ? 4 : 5));
        else snprintf(got, sizeof got, "%s", why);
        if (strcmp(got, lines[k][1])) printf("  c4 line %zu: %s\n", k, got);
        CHECK_EQ_STR(got, lines[k][1]);
    }
    quality_ctx_free(q);
}

/* the tokenizer's fast paths against spaCy's patterns: a span of ASCII letters has no
 * prefix and no suffix; letters and one closing mark have no prefix and the mark as suffix */
static void test_fast_paths(void)
{
    spacy_ctx *c = spacy_ctx_new();
    const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", marks[] = ",;:!?)";
    const char *words[] = {"km", "kg", "mph", "s", "S", "US", "C", "A", "nt", "ll", "ve", "re", "m", "d", "lb",
                           "ft", "in", "am", "pm", "Inc", "Co", "vs", "etc", "e", "g", "i", "x", "T", "Mr", "Dr"};
    uint64_t r = 7;
    char w[32];
    int bad = 0;
    for (int it = 0; it < 60000; it++) {
        size_t n;
        if (it < 30 * 7) { /* each listed word, alone and with each mark */
            n = strlen(words[it / 7]);
            memcpy(w, words[it / 7], n);
        } else {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            n = 1 + (r >> 60) % 12;
            for (size_t i = 0; i < n; i++) {
                r = r * 6364136223846793005ull + 1442695040888963407ull;
                w[i] = letters[(r >> 33) % 52];
            }
        }
        int mark = it % 7; /* 0: none */
        if (mark) w[n++] = marks[mark - 1];
        size_t pre = 9, suf = 9;
        CHECK_EQ_INT(spacy_affixes(c, w, n, &pre, &suf), 0);
        if (pre != 0 || suf != (mark ? 1u : 0u)) {
            if (bad++ < 5) printf("  %.*s: prefix %zu suffix %zu\n", (int)n, w, pre, suf);
        }
    }
    CHECK_EQ_INT(bad, 0);
    spacy_ctx_free(c);
}

/* split_span's known splits (a word of ASCII letters or digits, with at most one opening
 * bracket or quote and one mark, closing bracket or quote or full stop) against the
 * patterns' way (spacy_split with slow 1), span by span */
/* the fast split of w[0..n) and the patterns' own the same (the first five that differ
 * printed: shown counts how many were before) */
static int split_same(spacy_ctx *c, const char *w, size_t n, int shown)
{
    uint32_t la[16], lb[16];
    size_t na = 0, nb = 0;
    CHECK_EQ_INT(spacy_split(c, w, n, 0, la, 16, &na), 0);
    CHECK_EQ_INT(spacy_split(c, w, n, 1, lb, 16, &nb), 0);
    if (na == nb && !memcmp(la, lb, (na < 16 ? na : 16) * sizeof *la)) return 1;
    if (shown < 5) printf("  %.*s: %zu tokens, the patterns %zu\n", (int)n, w, na, nb);
    return 0;
}

static void test_known_splits(void)
{
    spacy_ctx *c = spacy_ctx_new();
    const char *words[] = {"Mr", "Dr", "etc", "Jan", "Feb", "Inc", "Co", "vs", "St", "Mt", "Jr", "Ltd", "Gov",
                           "US", "UK", "A", "I", "a", "U", "e", "p", "am", "pm", "km", "No", "no", "Ph", "ft",
                           "cannot", "gonna", "Let", "lets", "ain", "Its", "id", "Sept", "Rev", "Mass", "Fla"};
    const char marks[] = ",;:!?).]\"", opens[] = "(\"[", letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    uint64_t r = 17;
    char w[64];
    int bad = 0;
    for (int it = 0; c && it < 240000; it++) {
        size_t n = 0;
        int open = it >= 39 * 10 && (it / 7) % 2; /* half with an opening bracket or quote, or two */
        if (open) w[n++] = opens[(it / 14) % 3];
        if (open && (it / 28) % 4 == 0) w[n++] = opens[(it / 112) % 3];
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        int kind = (int)((r >> 40) % 5);
        if (it < 39 * 10 || (it % 5 == 0)) { /* each listed word, alone and with each mark */
            size_t l = strlen(words[(it / 10) % 39]);
            memcpy(w + n, words[(it / 10) % 39], l);
            n += l;
        } else if (kind == 1 && (it & 8)) { /* letters of other scripts, now and then a mark, digit or symbol */
            static const char *const wide[] = {"\xc3\xa9", "\xc3\xbc", "\xc3\x9f", "\xc3\xb1", "\xce\xb1", "\xd0\xb6",
                                               "\xe4\xb8\xad", "\xd8\xb9", "\xd7\xa9", "\xc7\x85", "\xca\xb0", "a", "Z",
                                               "\xc3\x89", "\xe2\x80\x99", "\xe2\x80\x93", "\xc2\xb0", "\xcc\x81",
                                               "\xd9\xa3", "\xf0\x9f\x98\x80", "\xe2\x80\xa6", "\xc2\xb2"};
            size_t l = 1 + (r >> 20) % 5;
            for (size_t i = 0; i < l; i++) {
                r = r * 6364136223846793005ull + 1442695040888963407ull;
                const char *x = wide[(r >> 33) % ((r >> 60) ? 14 : 22)];
                memcpy(w + n, x, strlen(x));
                n += strlen(x);
            }
        } else if (kind == 0) { /* digits */
            size_t l = 1 + (r >> 20) % 9;
            for (size_t i = 0; i < l; i++) w[n++] = (char)('0' + (r >> (4 * i % 60)) % 10);
        } else { /* letters: lower, upper, capitalised, mixed */
            size_t l = 1 + (r >> 20) % 10;
            for (size_t i = 0; i < l; i++) {
                r = r * 6364136223846793005ull + 1442695040888963407ull;
                char ch = letters[(r >> 33) % 26];
                if (kind == 2 || (kind == 3 && i == 0) || (kind == 4 && (r >> 50) & 1)) ch = (char)(ch - 32);
                w[n++] = ch;
            }
        }
        if (kind >= 2 && (it & 16)) { /* hyphenated: another word after a hyphen (or two, or a dash) */
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            static const char *const joins[] = {"-", "-", "-", "--", "\xe2\x80\x93"};
            const char *j = joins[(r >> 30) % 5];
            memcpy(w + n, j, strlen(j));
            n += strlen(j);
            size_t l = (r >> 40) % 7; /* 0: a hyphen at the end */
            for (size_t i = 0; i < l; i++) w[n++] = letters[(r >> (i * 5 % 50)) % 52];
            if ((r >> 60) == 0 && n < 40) w[n++] = '-', w[n++] = 'x';
        }
        int closers = it < 39 * 10 ? 1 : 1 + (int)((r >> 61) % 3); /* one to three marks after it */
        for (int cm = 0; cm < closers; cm++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            int mark = it < 39 * 10 ? it % 10 : (int)((r >> 55) % 12); /* 0: none */
            if (mark >= 10) { /* a possessive: 's or 'S */
                w[n++] = '\'';
                w[n++] = mark == 10 ? 's' : 'S';
            } else if (mark) w[n++] = marks[mark - 1];
        }
        bad += !split_same(c, w, n, bad);
    }
    CHECK_EQ_INT(bad, 0);
    /* compounds: runs of letters and digits (units, ordinals, words of other scripts, URL
     * parts) joined by the separators the fast middle takes and by others, after brackets,
     * quotes or currency signs and before marks, units and possessives */
    static const char *const runs[] = {"18", "2", "1990", "th", "s", "km", "m", "in", "kmh", "MB", "K", "t", "year",
                                       "old", "COVID", "U", "S", "A", "J", "ab", "Xy", "mph", "Pa", "h", "ft", "x1",
                                       "M1", "e", "com", "org", "www", "\xc3\xa9t\xc3\xa9", "\xce\xb1", "0", "255",
                                       "192", "168", "http", "s3", "co", "uk", "Z", "mbar", "\xc3\x89", "n", "b2B"};
    static const char *const joins[] = {"-", "-", "-", "\xe2\x80\x93", "\xe2\x80\x94", ",", ",", ":", "/", "/", "_",
                                        "'", ".", ".", ".", "--", "+", "*", "^", "=", "<", ">", "&", "@", "~",
                                        "\xe2\x80\x99", "://", "..", "%", "\xc2\xb0", "\xc2\xb2", "$", "\xe2\x80\xa6",
                                        "", "", "", "", "", ""};
    static const char *const before[] = {"", "", "", "", "(", "[", "\"", "'", "$", "#", "\xc2\xa3", "((", "'\"",
                                         "-", "+", "\xe2\x80\x9c", "\xc2\xa3$", "US$", "\xe2\x80\x93"};
    static const char *const after[] = {"", "", "", "", ",", ".", ")", ").", "%", "'", "'s", "\"", ";", "!", "?",
                                        ".)", "%)", "...", "km", "/h", "\xe2\x80\x99s", "],", "'S", "%.", "\xe2\x80\x93",
                                        ".'", "''", "\xc2\xb0", "+", "$", "g", "mg", "M", "in", "th", "nd", "km/h", "m/s", "kmh",
                                        "mbar", "hPa", "\xc2\xb2", "s", "1"};
    int bad2 = 0;
    static const char *const fixed[] = {"1.2.3.4/ab", "192.168.0.1", "1.2.3/ab", "10.0.0.1:80/x", "1.5/ab", "F.K.",
                                        "U.S.A.", "J.", "5km/h", "5m/s", "18th", "1.2.3.4", "(1.2.3.4/ab).", "a.b.c/d",
                                        "A.B.C.D/x", "1.2.3.4:8080", "5g", "5G.", "x.Y", "X.y", "X.Y", "1.2.a",
                                        "2.5mg", "3in.", "O'Neill's", "5's", "win/loss", "MT-07", "2-0", "2--0",
                                        "1.2.3.4/ab5", "(1.2.3.4/x-y1),", "a.b/c1"};
    for (size_t k = 0; c && k < NELEM(fixed); k++) bad2 += !split_same(c, fixed[k], strlen(fixed[k]), bad2);
    for (int it = 0; c && it < 200000; it++) {
        size_t n = 0;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        const char *x = before[(r >> 20) % NELEM(before)];
        memcpy(w + n, x, strlen(x));
        n += strlen(x);
        int parts = 1 + (int)((r >> 28) % 4);
        for (int k = 0; k < parts; k++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            if (k) {
                x = joins[(r >> 24) % NELEM(joins)];
                memcpy(w + n, x, strlen(x));
                n += strlen(x);
            }
            x = runs[(r >> 36) % NELEM(runs)];
            memcpy(w + n, x, strlen(x));
            n += strlen(x);
        }
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        x = after[(r >> 44) % NELEM(after)];
        memcpy(w + n, x, strlen(x));
        n += strlen(x);
        bad2 += !split_same(c, w, n, bad2);
    }
    CHECK_EQ_INT(bad2, 0);
    spacy_ctx_free(c);
}

/* c4_quality's eight-byte word count and sixteen-byte phrase search against its
 * byte-at-a-time ones (q->c4_reference): the same decisions, reasons and kept text, with
 * word length limits around 8 and 16, and the phrases (and near misses) in the lines */
static void test_c4_word_count(void)
{
    quality_ctx *ref = quality_ctx_new(), *fast = quality_ctx_new();
    CHECK(ref && fast);
    if (!ref || !fast) return;
    ref->c4_reference = 1;
    static const long long limits[] = {-1, 8, 9, 10, 15, 16, 17, 1000};
    static const char *const odd[] = {"\xc3\xa9t\xc3\xa9", "na\xc3\xafve", "\t", "  ", "\xe2\x80\x83",
                                      "Terms of Use", "JavaScript", "privacy Policy", "cookie policy", "uses cookies",
                                      "use of cookies", "USE COOKIES", "terms of us", "cookie polic", "javascrip",
                                      "\xe2\x84\xaaookies", "lorem ipsum"};
    static char buf[4096];
    uint64_t r = 5;
    int bad = 0;
    for (int it = 0; it < 20000; it++) {
        size_t o = 0;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        size_t lines = 1 + (r >> 40) % 8;
        for (size_t li = 0; li < lines && o < sizeof buf - 200; li++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            size_t words = (r >> 30) % 12;
            for (size_t k = 0; k < words && o < sizeof buf - 100; k++) {
                r = r * 6364136223846793005ull + 1442695040888963407ull;
                if ((r >> 62) == 0) { /* now and then a space or non-ASCII word, at times run into the next */
                    const char *x = odd[(r >> 20) % (it % 50 ? 16 : 17)]; /* lorem ipsum now and then */
                    memcpy(buf + o, x, strlen(x));
                    o += strlen(x);
                    if ((r >> 44) & 1) continue;
                } else {
                    size_t l = 1 + (r >> 33) % 22;
                    for (size_t j = 0; j < l; j++) buf[o++] = (char)('a' + (r >> (j % 40)) % 26);
                }
                buf[o++] = (r >> 45) % 7 ? ' ' : '\t';
            }
            buf[o++] = '.';
            buf[o++] = '\n';
        }
        buf[o] = 0;
        quality_params p;
        quality_params_default(&p);
        p.c4_max_word_length = limits[it % 8];
        p.c4_min_words_per_line = (long long)(it / 8 % 4);
        p.c4_min_num_sentences = it % 3 ? 1 : -1;
        const char *ra = NULL, *rb = NULL, *oa = NULL, *ob = NULL;
        size_t na = 0, nb = 0;
        quality_begin(ref);
        quality_begin(fast);
        int ka = quality_c4(ref, &p, buf, o, &oa, &na, &ra), kb = quality_c4(fast, &p, buf, o, &ob, &nb, &rb);
        if (ka != kb || (ka == 0 && strcmp(ra, rb)) || (ka == 1 && (na != nb || memcmp(oa, ob, na)))) {
            if (bad++ < 5) printf("  text %d (limit %lld): %s against %s\n", it, p.c4_max_word_length,
                                  ka == 1 ? "kept" : ra, kb == 1 ? "kept" : rb);
        }
    }
    CHECK_EQ_INT(bad, 0);
    quality_ctx_free(ref);
    quality_ctx_free(fast);
}

/* q_splitlines (eight bytes at a time between breaks) against a byte-at-a-time split
 * with q_line_break_at, and q_get_words' code points per word (one load for short
 * words) against q_cplen, on random texts of breaks, ASCII and multibyte characters */
static void test_fast_helpers(void)
{
    static const char *const bits[] = {"a", "word ", "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
                                       "\xc2\x85", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xc3\xa9", "\xe2\x80\x99",
                                       "\x1f", "\x09", "abcdefghijkl ", "\xf0\x9f\x98\x80", "x."};
    quality_ctx *q = quality_ctx_new();
    CHECK(q != NULL);
    if (!q) return;
    static char buf[2048];
    spans got = {0};
    uint64_t r = 3;
    int bad = 0;
    for (int it = 0; it < 20000; it++) {
        size_t n = 0;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        size_t parts = (r >> 40) % 80;
        for (size_t k = 0; k < parts; k++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            const char *b = bits[(r >> 33) % 20];
            size_t l = strlen(b);
            memcpy(buf + n, b, l);
            n += l;
        }
        CHECK_EQ_INT(q_splitlines(buf, n, &got), 0);
        size_t start = 0, i = 0, k = 0;
        int ok = 1;
        while (i < n) {
            size_t lb = q_line_break_at(buf, n, i);
            if (lb) {
                ok &= k < got.n && got.v[k].off == start && got.v[k].len == i - start;
                k++;
                i += lb;
                start = i;
            } else i++;
        }
        if (start < n) ok &= k < got.n && got.v[k].off == start && got.v[k].len == n - start, k++;
        ok &= k == got.n;
        quality_begin(q);
        CHECK_EQ_INT(q_get_words(q, buf, n), 0);
        for (size_t w = 0; w < q->words.n; w++)
            ok &= q->wcp[w] == q_cplen(buf + q->words.t[w].off, q->words.t[w].len);
        if (!ok && bad++ < 5) printf("  text %d differs\n", it);
    }
    CHECK_EQ_INT(bad, 0);
    free(got.v);
    quality_ctx_free(q);
}

static void test_flags(void)
{
    struct { const char *top, *dup, *b; double frac; long long c4n; int ok; } cases[] = {
        {NULL, NULL, NULL, 0.3, 5, 1},        {"2:0.2,3:0.1", "5:0.15", "false", 0.3, 5, 1},
        {"2:0.2,", NULL, NULL, 0.3, 5, 1},    {"0:0.2", NULL, NULL, 0.3, 5, 0},
        {"2", NULL, NULL, 0.3, 5, 0},         {NULL, "5:-1", NULL, 0.3, 5, 0},
        {NULL, "5:x", NULL, 0.3, 5, 0},       {NULL, NULL, "maybe", 0.3, 5, 0},
        {NULL, NULL, NULL, -0.1, 5, 0},       {NULL, NULL, NULL, 0.0 / 0.0, 5, 0},
        {NULL, NULL, NULL, 0.3, -2, 0},       {NULL, NULL, NULL, 0.3, -1, 1},
        {"", NULL, NULL, 0.3, 5, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        quality_params p;
        quality_params_default(&p);
        quality_cli s = {0};
        s.top_n_grams = cases[i].top;
        s.dup_n_grams = cases[i].dup;
        s.c4_filter_javascript = cases[i].b;
        p.dup_line_frac = cases[i].frac;
        p.c4_min_num_sentences = cases[i].c4n;
        int rc = quality_cli_finish(&p, &s);
        if ((rc == 0) != cases[i].ok) printf("  case %zu: rc %d (%s)\n", i, rc, rc ? err_msg() : "");
        CHECK((rc == 0) == cases[i].ok);
        quality_cli_free(&s);
    }
    quality_params p;
    quality_params_default(&p);
    quality_cli s = {0};
    s.top_n_grams = "3:0.5";
    s.stop_chars = ".!";
    s.stop_words = "a,b";
    CHECK_EQ_INT(quality_cli_finish(&p, &s), 0);
    CHECK(p.n_top == 1 && p.top_n[0] == 3 && !strcmp(p.top_reason[0], "top_3_gram"));
    CHECK(p.n_stop_chars == 2 && p.stop_chars[1] == '!');
    CHECK(p.n_stop_words == 2 && !strcmp(p.stop_words[1], "b"));
    quality_cli_free(&s);
}

/* the driver of scripts/check/spacy_crosscheck.py */
static int tokens_main(void)
{
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    spacy_ctx *c = spacy_ctx_new();
    if (!buf || !c) {
        fprintf(stderr, "test_quality: %s\n", err_msg());
        return 1;
    }
    sp_tokens t = {0};
    for (;;) {
        int ch = getchar();
        if (ch == EOF || ch == 0) {
            if (ch == EOF && n == 0) break;
            if (spacy_tokenize(c, buf, n, &t)) {
                fprintf(stderr, "test_quality: %s\n", err_msg());
                return 1;
            }
            for (size_t i = 0; i < t.n; i++) {
                if (i) putchar(0x1f);
                fwrite(buf + t.t[i].off, 1, t.t[i].len, stdout);
            }
            printf("\x1e%zu\x1d", spacy_sentences(buf, &t, NULL));
            n = 0;
            if (ch == EOF) break;
            continue;
        }
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) return 1;
            buf = nb;
        }
        buf[n++] = (char)ch;
    }
    sp_tokens_free(&t);
    spacy_ctx_free(c);
    free(buf);
    return 0;
}

/* gopher_repetition's shortcuts (quality_gopher_repetition.c: the bound that skips the
 * top n-gram count, the candidate positions of the duplicated n-grams) against counting
 * every n-gram at every position (q->rep_reference): the same repeated characters for
 * every size 1..10, the same decision and reason at several thresholds, on the golden
 * documents and on texts built to defeat them (words that are prefixes of each other,
 * so that different words join to the same bytes; n-grams under 16 bytes; repeats) */
static void synth_text(uint64_t *r, int kind, char *buf, size_t cap)
{
    static const char *const tiny[] = {"a", "ab", "abc", "b", "bc", "c", "ca", "x", ".", ",", "the", "of"};
    static const char *const longw[] = {"abcdefgh", "abcd", "efgh", "ijkl", "abcdefghijkl", "mnopqrst",
                                        "efghijkl", "mnop", "qrst", "ijklmnopqrst", "uvwxyzab", "the", "."};
    size_t o = 0;
    *r = *r * 6364136223846793005ull + 1442695040888963407ull;
    if (kind == 3) { /* the same letters cut into words at different places, again and again */
        char base[64];
        size_t bn = 8 + (*r >> 33) % 56, copies = 2 + (*r >> 50) % 12;
        for (size_t i = 0; i < bn; i++) {
            *r = *r * 6364136223846793005ull + 1442695040888963407ull;
            base[i] = (char)('a' + (*r >> 40) % 3);
        }
        for (size_t c = 0; c < copies; c++) {
            size_t i = 0;
            while (i < bn && o + 16 < cap) {
                *r = *r * 6364136223846793005ull + 1442695040888963407ull;
                size_t l = 1 + (*r >> 35) % 9;
                if (l > bn - i) l = bn - i;
                if (o) buf[o++] = ' ';
                memcpy(buf + o, base + i, l);
                o += l;
                i += l;
            }
        }
        buf[o] = 0;
        return;
    }
    size_t nwords = 5 + (*r >> 33) % 600;
    for (size_t i = 0; i < nwords; i++) {
        *r = *r * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t x = *r >> 20;
        const char *wd;
        if (kind == 0) wd = tiny[x % 12];
        else if (kind == 1) wd = longw[x % 13];
        else wd = (x & 1) ? tiny[(x >> 1) % 12] : longw[(x >> 1) % 13];
        size_t l = strlen(wd);
        if (o + l + 2 >= cap) break;
        if (o) buf[o++] = (x >> 8) % 17 ? ' ' : '\n';
        memcpy(buf + o, wd, l);
        o += l;
    }
    buf[o] = 0;
}

/* the interned ids of the last gopher_repetition: equal words <=> equal ids */
static const char *cmp_text;
static const sp_token *cmp_words;
static int cmp_word(const void *a, const void *b)
{
    const sp_token *x = &cmp_words[*(const uint32_t *)a], *y = &cmp_words[*(const uint32_t *)b];
    size_t l = x->len < y->len ? x->len : y->len;
    int c = memcmp(cmp_text + x->off, cmp_text + y->off, l);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}
static int ids_wrong(const quality_ctx *q, const char *text)
{
    size_t nw = q->words.n;
    uint32_t *ord = malloc((nw + 1) * sizeof *ord);
    if (!ord) return 1;
    for (size_t i = 0; i < nw; i++) ord[i] = (uint32_t)i;
    cmp_text = text;
    cmp_words = q->words.t;
    qsort(ord, nw, sizeof *ord, cmp_word);
    int wrong = 0;
    size_t distinct = 0;
    for (size_t i = 0; i < nw; i++) {
        int same = i > 0 && !cmp_word(&ord[i - 1], &ord[i]);
        distinct += !same;
        if (same && q->wid[ord[i]] != q->wid[ord[i - 1]]) wrong = 1;
        if (q->wid[ord[i]] >= nw) wrong = 1;
    }
    /* as many ids as distinct words: no two different words share one */
    uint8_t *seen = calloc(nw + 1, 1);
    size_t ids = 0;
    for (size_t i = 0; seen && i < nw; i++)
        if (q->wid[i] < nw && !seen[q->wid[i]]) seen[q->wid[i]] = 1, ids++;
    if (!seen || ids != distinct) wrong = 1;
    free(seen);
    free(ord);
    return wrong;
}

static void test_repetition_shortcuts(void)
{
    size_t nd;
    cJSON **docs = read_jsonl(FIX "docs.jsonl", &nd);
    quality_ctx *ref = quality_ctx_new(), *fast = quality_ctx_new();
    CHECK(ref && fast && nd > 500);
    if (!ref || !fast) return;
    ref->rep_reference = 1;
    quality_params all; /* every size counted: no threshold is reached */
    quality_params_default(&all);
    all.dup_para_frac = all.dup_para_char_frac = all.dup_line_frac = all.dup_line_char_frac = 0;
    all.n_top = 0;
    all.n_dup = 10;
    for (int k = 0; k < 10; k++) all.dup_n[k] = 10 - k, all.dup_frac[k] = 1e9;
    quality_params_reasons(&all);
    static const double tops[] = {0.2, 0.05, 0.02, 0.005};
    static char buf[8192];
    uint64_t r = 12345;
    size_t bad = 0, compared = 0, skipped_top = 0;
    for (size_t i = 0; i < nd + 6000; i++) {
        const char *text;
        if (i < nd) text = cJSON_GetObjectItem(docs[i], "text")->valuestring;
        else {
            synth_text(&r, (int)(i % 4), buf, sizeof buf);
            text = buf;
        }
        size_t len = strlen(text);
        const char *ra = NULL, *rb = NULL;
        quality_begin(ref);
        quality_begin(fast);
        int ka = quality_gopher_repetition(ref, &all, text, len, &ra),
            kb = quality_gopher_repetition(fast, &all, text, len, &rb);
        if (ka != kb || (ka == 1 && memcmp(ref->rep_dup, fast->rep_dup, 10 * sizeof *ref->rep_dup))) {
            if (bad++ < 5) printf("  text %zu: repeated characters differ\n", i);
        }
        /* the bound is never under the count, the sizes in any order; the first two orders
         * take the bounds of 2, 3 and 4 in one pass, the last two size by size (a size 1
         * among them): the same bound of each size either way */
        static const int orders[4][3] = {{2, 3, 4}, {4, 2, 3}, {3, 3, 1}, {1, 4, 2}};
        uint64_t bnd[4][5];
        memset(bnd, 0xFF, sizeof bnd);
        for (int o = 0; o < 4; o++) {
            quality_params tp = all;
            tp.n_top = 3;
            for (int k = 0; k < 3; k++) tp.top_n[k] = orders[o][k], tp.top_frac[k] = 1e9;
            quality_params_reasons(&tp);
            quality_begin(ref);
            if (quality_gopher_repetition(ref, &tp, text, len, &ra) == 1)
                for (int k = 0; k < 3; k++) {
                    if ((size_t)orders[o][k] <= ref->words.n) bnd[o][orders[o][k]] = ref->rep_bound[k];
                    if (ref->rep_top[k] != UINT64_MAX && ref->rep_bound[k] < ref->rep_top[k]) {
                        if (bad++ < 5) printf("  text %zu: the bound %llu under the count %llu\n", i,
                                              (unsigned long long)ref->rep_bound[k], (unsigned long long)ref->rep_top[k]);
                    }
                }
        }
        for (int g = 2; g <= 4; g++) {
            uint64_t alone = g == 3 ? bnd[2][3] : bnd[3][g];
            for (int o = 0; o < 2; o++)
                if (alone != UINT64_MAX && bnd[o][g] != UINT64_MAX && bnd[o][g] != alone) {
                    if (bad++ < 5) printf("  text %zu: the bound of %d %llu in one pass, %llu alone\n", i, g,
                                          (unsigned long long)bnd[o][g], (unsigned long long)alone);
                }
        }
        if (kb == 1 && fast->words.n && ids_wrong(fast, text)) {
            if (bad++ < 5) printf("  text %zu: the interned ids are wrong\n", i);
        }
        compared++;
        for (size_t t = 0; t < sizeof tops / sizeof *tops; t++) { /* the decisions, the bound at work */
            quality_params p;
            quality_params_default(&p);
            for (int k = 0; k < p.n_top; k++) p.top_frac[k] = tops[t] * (1 + k) / 2;
            if (t == 3) { /* sizes out of order: the bound's window starts again */
                p.top_n[0] = 4, p.top_n[1] = 2, p.top_n[2] = 3;
                quality_params_reasons(&p);
            }
            quality_begin(ref);
            quality_begin(fast);
            ra = rb = NULL;
            ka = quality_gopher_repetition(ref, &p, text, len, &ra);
            kb = quality_gopher_repetition(fast, &p, text, len, &rb);
            if (ka != kb || (ka == 0 && strcmp(ra, rb))) {
                if (bad++ < 5) printf("  text %zu: %s against %s\n", i, ka ? "kept" : ra, kb ? "kept" : rb);
            }
            for (int k = 0; k < p.n_top; k++) skipped_top += fast->rep_top[k] == UINT64_MAX;
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(compared > 3500 && skipped_top > 1000); /* the bound was used */
    quality_ctx_free(ref);
    quality_ctx_free(fast);
    free_jsonl(docs, nd);
}

/* gopher_quality's stop-word rule, len(set(stop_words) & set(words)) < min_stop_words,
 * against a count of its own: stop lists with repeats, of up to 64 words (one pass with
 * early exit) and over 64 (word by word), texts that hold some, many or none of them */
static void test_stop_words(void)
{
    static const char *vocab[] = {"the", "be", "to", "of", "and", "that", "have", "with", "cat", "dog",
                                  "tree", "a", "an", "in", "on", "then", "bee", "tot", "off", "haves"};
    enum { NV = sizeof vocab / sizeof *vocab };
    const char *list[80];
    char text[4096];
    quality_params p;
    quality_params_default(&p);
    p.min_doc_words = 0;
    p.min_avg_word_length = 0;
    p.max_avg_word_length = 0;
    p.max_symbol_word_ratio = 0;
    p.max_bullet_lines_ratio = 0;
    p.max_ellipsis_lines_ratio = 0;
    p.max_non_alpha_words_ratio = 0;
    quality_ctx *q = quality_ctx_new();
    uint64_t r = 12345;
    int bad = 0, kept = 0, dropped = 0, long_lists = 0;
    for (int it = 0; it < 4000; it++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        size_t nl = it % 5 == 4 ? 65 + (size_t)(r >> 59) % 15 : 1 + (size_t)(r >> 58) % 12;
        long_lists += nl > 64;
        for (size_t k = 0; k < nl; k++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            list[k] = vocab[(r >> 40) % (k < 12 ? NV : 8)]; /* past 12: repeats of the first eight */
        }
        p.stop_words = list;
        p.n_stop_words = nl;
        p.min_stop_words = 1 + it % 4;
        size_t tl = 0, nw = (size_t)(r >> 33) % 40;
        for (size_t i = 0; i < nw; i++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            const char *wd = it % 3 ? vocab[8 + (r >> 40) % (NV - 8)] : vocab[(r >> 40) % NV]; /* a third of texts: stop words too */
            tl += (size_t)snprintf(text + tl, sizeof text - tl, "%s%s", i ? " " : "", wd);
        }
        int distinct = 0;
        for (size_t k = 0; k < nl; k++) {
            int dupe = 0, in = 0;
            for (size_t j = 0; j < k; j++) dupe |= !strcmp(list[j], list[k]);
            if (dupe) continue;
            size_t sl = strlen(list[k]);
            for (size_t i = 0; i + sl <= tl && !in; i++)
                in = (i == 0 || text[i - 1] == ' ') && !memcmp(text + i, list[k], sl) && (i + sl == tl || text[i + sl] == ' ');
            distinct += in;
        }
        const char *why = NULL;
        quality_begin(q);
        int k = quality_gopher_quality(q, &p, text, tl, &why);
        int want = distinct >= p.min_stop_words;
        if (k != want || (!k && strcmp(why, "gopher_enough_stop_words"))) {
            if (bad++ < 5) printf("  list of %zu, min %lld, \"%.60s\": %d, want %d\n", nl, p.min_stop_words, text, k, want);
        }
        kept += k == 1;
        dropped += k == 0;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(kept > 500 && dropped > 500 && long_lists > 500);
    quality_ctx_free(q);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--tokens")) return tokens_main();
    check_run("quality_char_tables", test_char_tables);
    check_run("quality_spacy_tokens_golden", test_tokens_golden);
    check_run("quality_filters_golden", test_filters_golden);
    check_run("quality_filters_golden_can_fail", test_filters_golden_can_fail);
    check_run("quality_python_quirks", test_quirks);
    check_run("quality_flags", test_flags);
    check_run("quality_helpers", test_helpers);
    check_run("quality_spacy_fast_paths", test_fast_paths);
    check_run("quality_spacy_known_splits", test_known_splits);
    check_run("quality_repetition_shortcuts", test_repetition_shortcuts);
    check_run("quality_c4_word_count", test_c4_word_count);
    check_run("quality_fast_helpers", test_fast_helpers);
    check_run("quality_stop_words", test_stop_words);
    return check_total_failed ? 1 : 0;
}

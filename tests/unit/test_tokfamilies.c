/* Unit tests of the tokenizer families beyond GPT-2 (tiktoken.c, hftok.c,
 * spm.c, NullTokenizer, hfwrite.c): ids and decodings equal to the golden
 * file that the libraries themselves wrote (tests/golden/make_tok_golden.py) for
 * small committed vocabularies; Megatron's TikTokenizer layout; hostile and
 * broken files of each format refused with a message naming the file and the
 * entry; the padded vocabulary rule. Run from the repository root. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/err.h"
#include "common/utf8.h"
#include "tests/unit/check.h"
#include "tokenizer/bpe.h"
#include "tokenizer/bpe_int.h"
#include "tokenizer/pretok.h"
#include "tokenizer/tokcli.h"

#define FIX "tests/fixtures/tokenizers/"
static char tmpdir[] = "/tmp/test_tokfamilies.XXXXXX";

static char *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long l = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)l + 1);
    if (b && fread(b, 1, (size_t)l, f) != (size_t)l) { free(b); b = NULL; }
    fclose(f);
    if (b) b[l] = 0;
    if (n) *n = (size_t)l;
    return b;
}

static void put(const char *name, const char *data, size_t n, char *path, size_t pn)
{
    snprintf(path, pn, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    if (n) fwrite(data, 1, n, f);
    fclose(f);
}

/* The texts of multilingual.jsonl, as the tools parse them (raw bytes kept). */
static char **texts;
static size_t *text_len, n_texts;

static void load_texts(void)
{
    size_t n;
    char *all = slurp(FIX "multilingual.jsonl", &n);
    if (!all) return;
    texts = calloc(200, sizeof *texts);
    text_len = calloc(200, sizeof *text_len);
    char *save = NULL;
    for (char *line = strtok_r(all, "\n", &save); line && n_texts < 200; line = strtok_r(NULL, "\n", &save)) {
        cJSON *o = cJSON_Parse(line);
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "text");
        if (cJSON_IsString(t)) {
            texts[n_texts] = strdup(t->valuestring);
            text_len[n_texts++] = strlen(t->valuestring);
        }
        cJSON_Delete(o);
    }
    free(all);
}

static void test_golden(void)
{
    size_t n;
    char *all = slurp(FIX "golden.jsonl", &n);
    CHECK(all != NULL);
    if (!all) return;
    char *save = NULL, last_model[256] = "", last_type[64] = "";
    int last_legacy = 0;
    bpe *b = NULL;
    bpe_ctx *c = NULL, *cw = NULL, *ch = NULL;
    size_t cases = 0, bad = 0, bad_dec = 0;
    for (char *line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *o = cJSON_Parse(line);
        const char *type = cJSON_GetObjectItemCaseSensitive(o, "type")->valuestring;
        const char *model = cJSON_GetObjectItemCaseSensitive(o, "model")->valuestring;
        const cJSON *pat = cJSON_GetObjectItemCaseSensitive(o, "pattern");
        int ln = (int)cJSON_GetObjectItemCaseSensitive(o, "line")->valuedouble;
        int legacy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "legacy"));
        if (strcmp(model, last_model) || strcmp(type, last_type) || legacy != last_legacy) {
            bpe_ctx_free(c);
            bpe_ctx_free(cw);
            bpe_ctx_free(ch);
            bpe_free(b);
            b = NULL;
            char path[512];
            snprintf(path, sizeof path, FIX "%s", model);
            tokcli_spec s = {.type = type, .model = path, .tiktoken_pattern = cJSON_IsString(pat) ? pat->valuestring : NULL,
                             .sp_legacy = legacy};
            int rc = tokcli_open(&b, &s);
            if (rc) printf("  %s: %s\n", model, err_msg());
            CHECK_EQ_INT(rc, 0);
            c = b ? bpe_ctx_new(b) : NULL;
            cw = b ? bpe_ctx_new(b) : NULL;
            if (cw) bpe_ctx_cache_now(cw);
            ch = b ? bpe_ctx_new(b) : NULL;
            if (ch) bpe_ctx_force_heap(ch, 1);
            snprintf(last_model, sizeof last_model, "%s", model);
            snprintf(last_type, sizeof last_type, "%s", type);
            last_legacy = legacy;
        }
        if (b && ln >= 1 && (size_t)ln <= n_texts) {
            bpe_ids ids = {0}, cached = {0};
            CHECK_EQ_INT(bpe_encode(c, texts[ln - 1], text_len[ln - 1], &ids), 0);
            /* through the piece cache (SentencePiece: word by word), twice: a miss, then a hit */
            for (int rep = 0; rep < 2; rep++) {
                cached.n = 0;
                CHECK_EQ_INT(bpe_encode(cw, texts[ln - 1], text_len[ln - 1], &cached), 0);
                if ((cached.n != ids.n || (ids.n && memcmp(cached.v, ids.v, ids.n * sizeof *ids.v))) && bad++ < 5)
                    printf("  %s (%s) line %d: ids through the cache differ\n", model, type, ln);
            }
            /* the heap (long-piece) merge on every piece */
            cached.n = 0;
            CHECK_EQ_INT(bpe_encode(ch, texts[ln - 1], text_len[ln - 1], &cached), 0);
            if ((cached.n != ids.n || (ids.n && memcmp(cached.v, ids.v, ids.n * sizeof *ids.v))) && bad++ < 5)
                printf("  %s (%s) line %d: ids of the heap merge differ\n", model, type, ln);
            bpe_ids_free(&cached);
            const cJSON *want = cJSON_GetObjectItemCaseSensitive(o, "ids");
            int same = (size_t)cJSON_GetArraySize(want) == ids.n;
            size_t k = 0;
            for (const cJSON *e = want->child; e && same; e = e->next, k++) same = (uint32_t)e->valuedouble == ids.v[k];
            if (!same && bad++ < 5) printf("  %s (%s%s) line %d: ids differ from the library's\n", model, type, legacy ? ", legacy" : "", ln);
            char *buf = NULL;
            size_t len = 0, cap = 0;
            CHECK_EQ_INT(bpe_decode(b, ids.v, ids.n, &buf, &len, &cap), 0);
            /* the libraries return str: our bytes with invalid UTF-8 replaced as Python does */
            char *clean = malloc(3 * len + 1);
            size_t cl = utf8_sanitize(buf ? buf : "", len, clean);
            clean[cl] = 0;
            const char *wd = cJSON_GetObjectItemCaseSensitive(o, "decoded")->valuestring;
            if (strcmp(clean, wd) && bad_dec++ < 5) printf("  %s (%s%s) line %d: decode differs: \"%.60s\" vs \"%.60s\"\n", model, type, legacy ? ", legacy" : "", ln, clean, wd);
            free(clean);
            free(buf);
            bpe_ids_free(&ids);
            cases++;
        }
        cJSON_Delete(o);
    }
    bpe_ctx_free(c);
    bpe_ctx_free(cw);
    bpe_ctx_free(ch);
    bpe_free(b);
    free(all);
    CHECK(cases >= 700); /* 9 vocabularies x 86 texts */
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(bad_dec, 0);
}

static void encode_str(bpe *b, const char *s, bpe_ids *out)
{
    bpe_ctx *c = bpe_ctx_new(b);
    CHECK_EQ_INT(bpe_encode(c, s, strlen(s), out), 0);
    bpe_ctx_free(c);
}

static void test_megatron_tiktoken(void)
{
    bpe *a = NULL, *m = NULL;
    tokcli_spec s = {.type = "TikTokenizer", .model = FIX "cl100k_first600.tiktoken", .tiktoken_pattern = "cl100k_base"};
    CHECK_EQ_INT(tokcli_open(&a, &s), 0);
    tokcli_spec v = {.type = "TikTokenizer", .model = FIX "cl100k_first600.tiktoken", .tiktoken_pattern = "v2",
                     .tiktoken_num_special = 1000};
    CHECK_EQ_INT(tokcli_open(&m, &v), 0);
    if (!a || !m) { bpe_free(a); bpe_free(m); return; }
    CHECK_EQ_INT(bpe_vocab_size(m), 1600);
    CHECK_EQ_INT(bpe_eod(m), 2); /* </s> */
    CHECK_EQ_INT(bpe_bos(m), 1);
    size_t tl;
    const char *t = bpe_token_bytes(m, 999, &tl);
    CHECK(t && tl == 13 && !memcmp(t, "<SPECIAL_999>", 13));
    bpe_ids x = {0}, y = {0};
    encode_str(a, "hello there, 42", &x); /* the same words split alike by both patterns */
    encode_str(m, "hello there, 42", &y);
    CHECK(x.n > 0 && x.n == y.n);
    for (size_t i = 0; i < x.n && i < y.n; i++) CHECK_EQ_INT(y.v[i], x.v[i] + 1000);
    bpe_ids_free(&x);
    bpe_ids_free(&y);
    /* cl100k's own layout: <|endoftext|> at 100257 after the ranks */
    CHECK_EQ_INT(bpe_eod(a), 100257);
    CHECK_EQ_INT(bpe_vocab_size(a), 100277);
    bpe_free(a);
    bpe_free(m);
    CHECK_EQ_INT(tokcli_padded_vocab(50257, 128, 1), 50304);
    CHECK_EQ_INT(tokcli_padded_vocab(50257, 128, 2), 50432);
    CHECK_EQ_INT(tokcli_padded_vocab(128256, 128, 8), 129024);
}

static void test_null(void)
{
    bpe *b = NULL;
    tokcli_spec s = {.type = "NullTokenizer", .vocab_size = 1000};
    CHECK_EQ_INT(tokcli_open(&b, &s), 0);
    if (!b) return;
    CHECK_EQ_INT(bpe_vocab_size(b), 1001);
    CHECK_EQ_INT(bpe_eod(b), 1000);
    bpe_ids ids = {0};
    encode_str(b, "5 0 999 17", &ids);
    CHECK_EQ_INT(ids.n, 4);
    if (ids.n == 4) CHECK(ids.v[0] == 5 && ids.v[1] == 0 && ids.v[2] == 999 && ids.v[3] == 17);
    bpe_ctx *c = bpe_ctx_new(b);
    static const char *const bad[] = {"1 1000", "1 -3", "1 x2", "1  2", "99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ids.n = 0;
        int rc = bpe_encode(c, bad[i], strlen(bad[i]), &ids);
        CHECK_EQ_INT(rc, ERR_FORMAT);
        CHECK(strstr(err_msg(), "token ") != NULL);
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    uint32_t d[3] = {5, 17, 1000};
    CHECK_EQ_INT(bpe_decode(b, d, 3, &buf, &len, &cap), 0);
    CHECK_EQ_STR(buf, "5 17 1000");
    free(buf);
    bpe_ctx_free(c);
    bpe_ids_free(&ids);
    bpe_free(b);
    s.vocab_size = ((long long)1 << 31);
    CHECK_EQ_INT(tokcli_open(&b, &s), ERR_USAGE);
    tokcli_spec none = {.type = "NullTokenizer"};
    CHECK_EQ_INT(tokcli_open(&b, &none), ERR_USAGE);
}

/* Open `data` written as a file of the given type; expect a refusal whose
 * message holds `want` and the file's name. */
static void refuse(const char *type, const char *name, const char *data, size_t n, const char *want)
{
    char path[512];
    put(name, data, n, path, sizeof path);
    tokcli_spec s = {.type = type, .model = path, .tiktoken_pattern = "cl100k_base"};
    bpe *b = NULL;
    int rc = tokcli_open(&b, &s);
    if (rc == 0) {
        printf("  %s: accepted, expected a refusal (%s)\n", name, want);
        bpe_free(b);
    }
    CHECK(rc != 0);
    if (rc && (!strstr(err_msg(), want) || !strstr(err_msg(), name)))
        printf("  %s: message \"%s\" lacks \"%s\" or the file name\n", name, err_msg(), want);
    CHECK(rc && strstr(err_msg(), want) && strstr(err_msg(), name));
}

static void test_bad_tiktoken(void)
{
    size_t n;
    char *good = slurp(FIX "cl100k_first600.tiktoken", &n);
    CHECK(good != NULL);
    if (!good) return;
    refuse("TikTokenizer", "trunc.tiktoken", good, n / 2 - 3, "BASE64 RANK"); /* cut inside a line */
    refuse("TikTokenizer", "empty.tiktoken", "", 0, "no tokens");
    refuse("TikTokenizer", "norank.tiktoken", "IQ==\n", 5, "BASE64 RANK");
    refuse("TikTokenizer", "badrank.tiktoken", "IQ== 1x\n", 8, "integer");
    refuse("TikTokenizer", "huge.tiktoken", "IQ== 2147483648\n", 16, "2^31");
    refuse("TikTokenizer", "sparse.tiktoken", "IQ== 0\nIg== 1000000000\n", 24, "sparse");
    refuse("TikTokenizer", "dup.tiktoken", "IQ== 0\nIQ== 1\n", 14, "same bytes");
    refuse("TikTokenizer", "nobytes.tiktoken", "IQ== 0\nIg== 1\n", 14, "no token for byte");
    /* a pattern name that does not exist, and "auto" on an unknown size */
    char path[512];
    put("ok.tiktoken", good, n, path, sizeof path);
    tokcli_spec s = {.type = "TikTokenizer", .model = path, .tiktoken_pattern = "cl200k"};
    bpe *b = NULL;
    CHECK_EQ_INT(tokcli_open(&b, &s), ERR_USAGE);
    CHECK(strstr(err_msg(), "--tiktoken-pattern") != NULL);
    s.tiktoken_pattern = NULL;
    CHECK_EQ_INT(tokcli_open(&b, &s), ERR_USAGE);
    CHECK(strstr(err_msg(), "600 ranks") != NULL);
    free(good);
}

static void test_bad_hf(void)
{
    size_t n;
    char *good = slurp(FIX "deepseek_small.tokenizer.json", &n);
    CHECK(good != NULL);
    if (!good) return;
    refuse("HuggingFaceTokenizer", "trunc.json", good, n / 2, "JSON parse error");
    cJSON *root = cJSON_Parse(good);
    struct { const char *name, *path, *json, *want; } cases[] = {
        {"wordpiece.json", "model", "{\"type\":\"WordPiece\",\"vocab\":{}}", "model WordPiece is not supported"},
        {"unigram.json", "model", "{\"type\":\"Unigram\",\"vocab\":[]}", "model Unigram is not supported"},
        {"metaspace.json", "pre_tokenizer", "{\"type\":\"Metaspace\"}", "pre_tokenizer Metaspace is not supported"},
        {"lower.json", "normalizer", "{\"type\":\"Lowercase\"}", "normalizer Lowercase is not supported"},
        {"badre.json", "pre_tokenizer",
         "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?<=a+)b\"},"
         "\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"use_regex\":false}]}",
         "PCRE2 cannot compile"},
        {"merged.json", "pre_tokenizer",
         "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"a\"},"
         "\"behavior\":\"MergedWithNext\",\"invert\":false},{\"type\":\"ByteLevel\"}]}", "behavior MergedWithNext"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cJSON *r = cJSON_Duplicate(root, 1);
        cJSON_ReplaceItemInObjectCaseSensitive(r, cases[i].path, cJSON_Parse(cases[i].json));
        char *t = cJSON_PrintUnformatted(r);
        refuse("HuggingFaceTokenizer", cases[i].name, t, strlen(t), cases[i].want);
        free(t);
        cJSON_Delete(r);
    }
    /* an id of 2^31, a merge of a token not in the vocabulary, an added token clashing with the vocabulary */
    cJSON *r = cJSON_Duplicate(root, 1);
    cJSON *model = cJSON_GetObjectItemCaseSensitive(r, "model");
    cJSON_AddNumberToObject(cJSON_GetObjectItemCaseSensitive(model, "vocab"), "zzzq", 2147483648.0);
    char *t = cJSON_PrintUnformatted(r);
    refuse("HuggingFaceTokenizer", "bigid.json", t, strlen(t), "2^31");
    free(t);
    cJSON_Delete(r);
    r = cJSON_Duplicate(root, 1);
    model = cJSON_GetObjectItemCaseSensitive(r, "model");
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(model, "merges"), cJSON_CreateString("qqqq zzzz"));
    t = cJSON_PrintUnformatted(r);
    refuse("HuggingFaceTokenizer", "badmerge.json", t, strlen(t), "model.merges entry");
    free(t);
    cJSON_Delete(r);
    r = cJSON_Duplicate(root, 1);
    cJSON *at = cJSON_GetObjectItemCaseSensitive(r, "added_tokens");
    cJSON_ReplaceItemInObjectCaseSensitive(at->child, "id", cJSON_CreateNumber(70));
    t = cJSON_PrintUnformatted(r);
    refuse("HuggingFaceTokenizer", "clash.json", t, strlen(t), "another token");
    free(t);
    cJSON_Delete(r);
    cJSON_Delete(root);
    free(good);
}

static void test_bad_spm(void)
{
    size_t n;
    char *good = slurp(FIX "spm_bpe_bytes.model", &n);
    CHECK(good != NULL);
    if (!good) return;
    refuse("GPTSentencePieceTokenizer", "trunc.model", good, n - 7, "byte");
    refuse("GPTSentencePieceTokenizer", "junk.model", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11, "not a protobuf field");
    refuse("GPTSentencePieceTokenizer", "empty.model", "", 0, "no pieces");
    /* a length prefix past the end: field 1 announces 1000 bytes */
    refuse("GPTSentencePieceTokenizer", "long.model", "\x0a\xe8\x07" "abc", 6, "not a protobuf field");
    char path[512];
    put("uni.model", NULL, 0, path, sizeof path);
    size_t un;
    char *uni = slurp(FIX "spm_unigram.model", &un);
    if (uni) refuse("GPTSentencePieceTokenizer", "unigram.model", uni, un, "Unigram model");
    free(uni);
    free(good);
}

/* A tokenizer.json written by hfwrite.c, read back by hftok.c: the same ids. */
static void test_write_json(void)
{
    bpe *a = NULL, *b = NULL;
    tokcli_spec s = {.type = "TikTokenizer", .model = FIX "cl100k_first600.tiktoken", .tiktoken_pattern = "cl100k_base"};
    CHECK_EQ_INT(tokcli_open(&a, &s), 0);
    if (!a) return;
    char path[512];
    snprintf(path, sizeof path, "%s/tokenizer.json", tmpdir);
    CHECK_EQ_INT(bpe_write_tokenizer_json(a, path), 0);
    tokcli_spec h = {.type = "HuggingFaceTokenizer", .model = tmpdir};
    CHECK_EQ_INT(tokcli_open(&b, &h), 0);
    if (b) {
        CHECK_EQ_INT(bpe_vocab_size(b), bpe_vocab_size(a));
        CHECK_EQ_INT(bpe_eod(b), bpe_eod(a));
        size_t same = 0;
        for (size_t i = 0; i < n_texts; i++) {
            if (strstr(texts[i], "<|")) { same++; continue; } /* HF matches added tokens in text; tiktoken does not */
            bpe_ids x = {0}, y = {0};
            bpe_ctx *c1 = bpe_ctx_new(a), *c2 = bpe_ctx_new(b);
            bpe_encode(c1, texts[i], text_len[i], &x);
            bpe_encode(c2, texts[i], text_len[i], &y);
            same += x.n == y.n && (!x.n || !memcmp(x.v, y.v, x.n * sizeof *x.v));
            bpe_ctx_free(c1);
            bpe_ctx_free(c2);
            bpe_ids_free(&x);
            bpe_ids_free(&y);
        }
        CHECK_EQ_INT(same, n_texts);
    }
    bpe_free(a);
    bpe_free(b);
}

/* 1 to 32 pieces of the alphabet, joined (an LCG: the same strings every run). */
static size_t rand_text(char *buf, size_t cap, const char *const *alpha, size_t na, uint64_t *rng)
{
    size_t n = 0;
    int len = 1 + (int)((*rng = *rng * 6364136223846793005ull + 1442695040888963407ull) >> 59);
    for (int k = 0; k < len; k++) {
        const char *a = alpha[((*rng = *rng * 6364136223846793005ull + 1442695040888963407ull) >> 33) % na];
        size_t al = strlen(a);
        if (n + al >= cap) break;
        memcpy(buf + n, a, al);
        n += al;
    }
    return n;
}

/* The hand-written splitter against PCRE2 running the pattern itself, on
 * random strings over an alphabet that holds every case the patterns tell
 * apart (contractions in both cases and with long s, letters, marks, digits of
 * several scripts, CR/LF, spaces, other white space, punctuation). */
static void test_fast_split_vs_pcre2(void)
{
    static const char *const alpha[] = {"a", "Z", "\xc3\xa9", "\xe4\xb8\xad", "\xcc\x81", "'", "s", "S", "t", "re", "VE", "l", "L", "d", "m",
                                        "\xc5\xbf", "0", "7", "\xd9\xa3", "\xe2\x85\xa0", " ", " ", "  ", "\n", "\r", "\t",
                                        "\xe3\x80\x80", "\xc2\x85", "\xe1\xa0\x8e", ".", ",", "!", "/", "(", "\xf0\x9f\x8e\x89",
                                        "\xe2\x80\x8b", "-", "_", "\xc2\xa0", "\xca\xb0", "\xc7\x85", "A", "\xd7\x90", "\xe0\xa4\x95", "\xe0\xa4\xbf", "\xe2\x83\x9d", "\xf0\x9d\x90\x80", "/", "\r\n",
                                        /* ASCII runs (pretok_fast's): punctuation of every range, controls, words, numbers */
                                        "\"", "#", ")", ";", "@", "[", "`", "{", "~", "\x7f", "\x0b", "\x1c", "1990", "word",
                                        "The", "HTMLParser", " (", "\n/", "'S", "'ll"};
    static const char *const pats[] = {"cl100k_base", "llama3", "qwen2", "o200k_base"};
    uint64_t rng = 28;
    size_t checked = 0, bad = 0;
    for (int p = 0; p < 4; p++) {
        bpe *b = NULL;
        tokcli_spec s = {.type = "TikTokenizer", .model = FIX "cl100k_first600.tiktoken", .tiktoken_pattern = pats[p]};
        CHECK_EQ_INT(tokcli_open(&b, &s), 0);
        if (!b) continue;
        CHECK_EQ_INT(b->pre, PRE_TIKTOKEN);
        pcre2_match_data *md = pcre2_match_data_create(1, NULL);
        char buf[256];
        for (int iter = 0; iter < 20000; iter++) {
            size_t n = rand_text(buf, sizeof buf, alpha, sizeof alpha / sizeof *alpha, &rng);
            const unsigned char *u = (const unsigned char *)buf;
            size_t i = 0;
            int same = 1;
            while (i < n) {
                size_t j = b->fast_digits ? pretok_tiktoken_next(u, n, i, b->fast_digits, b->fast_cl100k) : pretok_o200k_next(u, n, i);
                int m = pcre2_match(b->re[0], u, n, i, 0, md, NULL);
                PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
                if (m < 0 || ov[0] != i || ov[1] != j) {
                    same = 0;
                    if (bad < 5) printf("  %s: \"%.*s\" at %zu: ours ends at %zu, PCRE2 %d [%zu, %zu)\n", pats[p], (int)n, buf, i, j, m,
                                        m < 0 ? 0 : (size_t)ov[0], m < 0 ? 0 : (size_t)ov[1]);
                    break;
                }
                i = j;
            }
            bad += !same;
            checked++;
        }
        pcre2_match_data_free(md);
        bpe_free(b);
    }
    CHECK_EQ_INT(checked, 80000);
    CHECK_EQ_INT(bad, 0);
}

/* DeepSeek-V3's three Split patterns: the hand-written searches against
 * PCRE2 compiled from the tokenizer.json itself. */
static void test_deepseek_search_vs_pcre2(void)
{
    static const char *const alpha[] = {"a", "Zq", "\xc3\xa9", "\xe4\xb8\xad", "\xe9\xbe\xa5", "\xe9\xbe\xa6", "\xe3\x90\x80",
                                        "\xe3\x81\x82", "\xe3\x82\xa2", "\xe3\x83\xbf", "\xcc\x81", "'", "0", "12", "\xd9\xa3",
                                        "\xe2\x85\xa0", " ", "  ", "\n", "\r", "\t", "\xe3\x80\x80", "\xc2\x85", ".", ",", "!",
                                        "$", "+", "\xc2\xa9", "\xf0\x9f\x8e\x89", "\xe3\x80\x81", "\xe3\x80\x82", "-", "_", "`",
                                        "\\", "\x01", "\xe2\x80\x8b", "\xd7\x90", "\xe0\xa4\xbf", "(", "[", "~"};
    bpe *b = NULL;
    tokcli_spec s = {.type = "HuggingFaceTokenizer", .model = FIX "deepseek_small.tokenizer.json"};
    CHECK_EQ_INT(tokcli_open(&b, &s), 0);
    if (!b) return;
    CHECK_EQ_INT(b->n_re, 3);
    for (int l = 0; l < b->n_re; l++) CHECK_EQ_INT(b->re_fast[l], l + 1);
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    uint64_t rng = 29;
    size_t checked = 0, bad = 0;
    char buf[256];
    for (int iter = 0; iter < 30000; iter++) {
        size_t n = rand_text(buf, sizeof buf, alpha, sizeof alpha / sizeof *alpha, &rng);
        const unsigned char *u = (const unsigned char *)buf;
        for (int l = 0; l < 3; l++) {
            size_t pos = 0;
            for (;;) {
                size_t ms = 0, me = 0;
                int f = pretok_deepseek_search(l + 1, u, n, pos, &ms, &me);
                int m = pos < n ? pcre2_match(b->re[l], u, n, pos, 0, md, NULL) : -1;
                PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
                int same = (f == 0 && m < 0) || (f && m >= 0 && ov[0] == ms && ov[1] == me);
                if (!same) {
                    if (bad++ < 5) printf("  pattern %d on \"%.*s\" from %zu: ours %d [%zu, %zu), PCRE2 %d [%zu, %zu)\n", l + 1, (int)n,
                                          buf, pos, f, ms, me, m, m < 0 ? 0 : (size_t)ov[0], m < 0 ? 0 : (size_t)ov[1]);
                    break;
                }
                if (!f) break;
                pos = me;
            }
            checked++;
        }
    }
    pcre2_match_data_free(md);
    bpe_free(b);
    CHECK_EQ_INT(checked, 90000);
    CHECK_EQ_INT(bad, 0);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) return 1;
    load_texts();
    RUN(test_golden);
    RUN(test_megatron_tiktoken);
    RUN(test_null);
    RUN(test_bad_tiktoken);
    RUN(test_bad_hf);
    RUN(test_bad_spm);
    RUN(test_write_json);
    RUN(test_fast_split_vs_pcre2);
    RUN(test_deepseek_search_vs_pcre2);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd)) return 1;
    for (size_t i = 0; i < n_texts; i++) free(texts[i]);
    free(texts);
    free(text_len);
    return check_total_failed ? 1 : 0;
}

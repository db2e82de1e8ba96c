/* tiktoken.c - tiktoken BPE files (`.tiktoken`: "base64-token rank" per line)
 * with their split patterns: cl100k_base, o200k_base, p50k_base/r50k_base,
 * Llama 3's tokenizer.model, Qwen2's qwen.tiktoken, and Megatron's
 * TikTokenizer layout (--tiktoken-pattern v1/v2: num_special_tokens special
 * ids first, then the ranks shifted up by that many).
 *
 * A token's id is its rank (plus the shift). tiktoken merges the adjacent
 * pair whose concatenation has the lowest rank, leftmost on ties, and takes a
 * piece that is a token whole; the pair table built from every split of
 * every token (bpe_core_pairs_from_ranks) makes the shared BPE core do exactly
 * that. Text between pattern matches is dropped, as tiktoken's find_iter
 * does (the shipped patterns match every character). Special tokens are not
 * recognised in text (encode_ordinary, what Megatron's TikTokenizer calls);
 * EOD is appended by the caller.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe_int.h"
#include "common/err.h"

typedef struct {
    const char *name;
    size_t n_ranks;       /* ranks in the shipped file: how "auto" recognises it */
    const char *pattern;
    int nfc;
    const char *eod, *bos; /* special token names */
} tt_encoding;

#define PAT_R50K "'(?:[sdmt]|ll|ve|re)| ?\\p{L}++| ?\\p{N}++| ?[^\\s\\p{L}\\p{N}]++|\\s++$|\\s+(?!\\S)|\\s"
#define PAT_CL100K \
    "'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}++|\\p{N}{1,3}+| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*+|\\s++$|\\s*[\\r\\n]|\\s+(?!\\S)|\\s"
#define PAT_O200K                                                                                         \
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|" \
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|" \
    "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"
#define PAT_LLAMA3 \
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"
#define PAT_QWEN2 \
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"
/* Megatron-LM's PATTERN_TIKTOKEN and PATTERN_TIKTOKEN_V2 */
#define PAT_V1 "[^\\r\\n\\p{L}\\p{N}]?+\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*|\\s*[\\r\\n]|\\s+(?!\\S)|\\s+"
#define PAT_V2                                                                                 \
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+|" \
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*|" \
    "\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"

static const tt_encoding encodings[] = {
    {"cl100k_base", 100256, PAT_CL100K, 0, "<|endoftext|>", NULL},
    {"o200k_base", 199998, PAT_O200K, 0, "<|endoftext|>", NULL},
    {"p50k_base", 50280, PAT_R50K, 0, "<|endoftext|>", NULL},
    {"r50k_base", 50256, PAT_R50K, 0, "<|endoftext|>", NULL},
    {"llama3", 128000, PAT_LLAMA3, 0, "<|end_of_text|>", "<|begin_of_text|>"},
    {"qwen2", 151643, PAT_QWEN2, 1, "<|endoftext|>", NULL},
    {"v1", 0, PAT_V1, 0, "</s>", "<s>"},
    {"v2", 0, PAT_V2, 0, "</s>", "<s>"},
};
#define N_ENC (sizeof encodings / sizeof *encodings)

/* The special tokens that follow the ranks in the named encodings. */
static int named_specials(const tt_encoding *e, size_t n_ranks, char ***names, uint32_t **ids_out, size_t *n_names)
{
    static const char *const cl100k[] = {"<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>"};
    size_t cap = 512, n = 0;
    char **v = calloc(cap, sizeof *v);
    uint32_t *ids = calloc(cap, sizeof *ids);
    if (!v || !ids) { free(v); free(ids); return err_set(ERR_NOMEM, "out of memory"); }
#define ADD(id_, ...)                                                   \
    do {                                                                \
        char t_[64];                                                    \
        snprintf(t_, sizeof t_, __VA_ARGS__);                           \
        v[n] = strdup(t_);                                              \
        ids[n++] = (uint32_t)(id_);                                     \
    } while (0)
    if (!strcmp(e->name, "cl100k_base")) {
        for (int i = 0; i < 4; i++) ADD(100257 + i, "%s", cl100k[i]);
        ADD(100276, "<|endofprompt|>");
    } else if (!strcmp(e->name, "o200k_base")) {
        ADD(199999, "<|endoftext|>");
        ADD(200018, "<|endofprompt|>");
    } else if (!strcmp(e->name, "p50k_base") || !strcmp(e->name, "r50k_base")) {
        ADD(50256, "<|endoftext|>");
    } else if (!strcmp(e->name, "llama3")) {
        static const char *const first[] = {"<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>",
                                            "<|reserved_special_token_1|>", "<|finetune_right_pad_id|>", "<|step_id|>",
                                            "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>",
                                            "<|python_tag|>", "<|image|>"};
        for (size_t i = 0; i < 12; i++) ADD(n_ranks + i, "%s", first[i]);
        for (size_t i = 12; i < 256; i++) ADD(n_ranks + i, "<|reserved_special_token_%zu|>", i - 10);
    } else if (!strcmp(e->name, "qwen2")) {
        ADD(151643, "<|endoftext|>");
        ADD(151644, "<|im_start|>");
        ADD(151645, "<|im_end|>");
        for (int i = 0; i < 205; i++) ADD(151646 + i, "<|extra_%d|>", i);
    }
#undef ADD
    int rc = 0;
    for (size_t i = 0; i < n; i++)
        if (!v[i]) rc = err_set(ERR_NOMEM, "out of memory");
    if (rc) {
        for (size_t i = 0; i < n; i++) free(v[i]);
        free(v);
        free(ids);
        return rc;
    }
    *names = v;
    *ids_out = ids;
    *n_names = n;
    return 0;
}

/* base64: each digit's value + 1, 0 for the rest */
static uint8_t b64tab[256];
static pthread_once_t b64_once = PTHREAD_ONCE_INIT;
static void b64_init(void)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; i++) b64tab[(unsigned char)digits[i]] = (uint8_t)(i + 1);
}

/* Standard base64 with padding; returns the decoded length or -1. */
static long b64decode(const char *s, size_t n, unsigned char *out)
{
    if (n == 0 || n % 4) return -1;
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 4) {
        unsigned v0 = b64tab[u[i]], v1 = b64tab[u[i + 1]], v2 = b64tab[u[i + 2]], v3 = b64tab[u[i + 3]];
        int pad = 0;
        if (i + 4 == n && u[i + 3] == '=') { /* the last group: "xx==" or "xxx=" */
            pad = u[i + 2] == '=' ? 2 : 1;
            v3 = 1;
            if (pad == 2) v2 = 1;
        }
        if (!v0 || !v1 || !v2 || !v3) return -1;
        uint32_t w = (v0 - 1) << 18 | (v1 - 1) << 12 | (v2 - 1) << 6 | (v3 - 1);
        out[o++] = (unsigned char)(w >> 16);
        if (pad < 2) out[o++] = (unsigned char)(w >> 8);
        if (pad < 1) out[o++] = (unsigned char)w;
    }
    return (long)o;
}

/* A line of the file: the token's base64 in data (off, len; after decoding, the token's bytes
 * in the decoded buffer), its rank and line number. */
typedef struct {
    uint32_t off, len, rank;
    size_t line;
} tt_tok;

/* Pass 1: check the format, find the largest rank, note each line's token and rank. */
static int tt_scan(char *data, size_t len, const char *path, tt_tok **out, size_t *n_out, uint64_t *max_out)
{
    size_t n_lines = 0, cap = 0, lineno = 0;
    tt_tok *tt = NULL;
    uint64_t max_rank = 0;
    char *p = data, *end = data + len;
    int rc = 0;
    if (len >= UINT32_MAX) return err_set(ERR_FORMAT, "%s: a tiktoken file of 4 GB or more", path);
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *le = nl ? nl : end;
        lineno++;
        size_t ll = (size_t)(le - p);
        if (ll && p[ll - 1] == '\r') ll--;
        if (ll == 0) { p = le + 1; continue; }
        char *sp = memchr(p, ' ', ll);
        if (!sp || sp == p || sp + 1 >= p + ll) {
            rc = err_set(ERR_FORMAT, "%s:%zu: not a tiktoken line \"BASE64 RANK\"", path, lineno);
            break;
        }
        uint64_t r = 0;
        for (char *q = sp + 1; q < p + ll; q++) {
            if (*q < '0' || *q > '9' || r > ((uint64_t)1 << 31)) {
                rc = err_set(ERR_FORMAT, "%s:%zu: the rank is not an integer below 2^31", path, lineno);
                break;
            }
            r = r * 10 + (uint64_t)(*q - '0');
        }
        if (rc) break;
        if (r >= ((uint64_t)1 << 31)) {
            rc = err_set(ERR_FORMAT, "%s:%zu: rank %llu: at most 2^31 ids are supported", path, lineno, (unsigned long long)r);
            break;
        }
        if (r > max_rank) max_rank = r;
        if (n_lines == cap) {
            size_t nc = cap ? cap * 2 : 4096;
            tt_tok *nt = realloc(tt, nc * sizeof *nt);
            if (!nt) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
            tt = nt;
            cap = nc;
        }
        tt[n_lines++] = (tt_tok){(uint32_t)(p - data), (uint32_t)(sp - p), (uint32_t)r, lineno};
        p = le + 1;
    }
    if (rc == 0 && n_lines == 0) rc = err_set(ERR_FORMAT, "%s: no tokens (an empty tiktoken file)", path);
    if (rc) { free(tt); return rc; }
    *out = tt;
    *n_out = n_lines;
    *max_out = max_rank;
    return 0;
}

/* The encoding (split pattern, specials) named, or known by the file's number of ranks. */
static int tt_find_encoding(const char *pattern_name, size_t n_lines, const char *path, const tt_encoding **out)
{
    const tt_encoding *e = NULL;
    if (!pattern_name || !strcmp(pattern_name, "auto")) {
        for (size_t i = 0; i < N_ENC; i++)
            if (encodings[i].n_ranks == n_lines) e = &encodings[i];
        if (!e)
            return err_set(ERR_USAGE, "%s: %zu ranks: not a vocabulary this tool knows by its size; name its split "
                           "pattern with --tiktoken-pattern (cl100k_base, o200k_base, p50k_base, r50k_base, llama3, "
                           "qwen2, v1, v2)", path, n_lines);
    } else {
        for (size_t i = 0; i < N_ENC; i++)
            if (!strcmp(encodings[i].name, pattern_name)) e = &encodings[i];
        if (!e)
            return err_set(ERR_USAGE, "--tiktoken-pattern %s: not one of cl100k_base, o200k_base, p50k_base, r50k_base, "
                           "llama3, qwen2, v1, v2", pattern_name);
    }
    *out = e;
    return 0;
}

/* Pass 2: the tokens decoded one after the other; then set at rank + shift, each token's slot
 * asked for 16 tokens ahead (the table is megabytes: a cache miss each otherwise). */
static int tt_set_tokens(bpe *b, const char *data, size_t len, tt_tok *tt, size_t n_lines, size_t shift,
                         const char *path)
{
    int rc = 0;
    unsigned char *tok = malloc(len + 4);
    if (!tok) return err_set(ERR_NOMEM, "out of memory");
    size_t toff = 0;
    for (size_t i = 0; i < n_lines && !rc; i++) {
        long tl = b64decode(data + tt[i].off, tt[i].len, tok + toff);
        if (tl <= 0) rc = err_set(ERR_FORMAT, "%s:%zu: the token is not base64", path, tt[i].line);
        tt[i].off = (uint32_t)toff; /* from now on: the decoded token in tok */
        tt[i].len = (uint32_t)(tl > 0 ? tl : 0);
        toff += tt[i].len;
    }
    for (size_t i = 0; i < n_lines && !rc; i++) {
        if (i + 16 < n_lines) bpe_prefetch_slot(b, (const char *)tok + tt[i + 16].off, tt[i + 16].len);
        rc = bpe_core_set_line(b, tt[i].rank + (uint32_t)shift, (const char *)tok + tt[i].off, tt[i].len, tt[i].line,
                               tt[i].rank);
    }
    free(tok);
    return rc ? rc : bpe_core_bytes(b);
}

/* The encoding's split pattern, and the hand-written splitter where one exists (pretok.c;
 * equal to PCRE2 on the pattern). No pair table: the merges look ranks up by bytes
 * (merge_rank in encode.c). */
static int tt_splitter(bpe *b, const tt_encoding *e)
{
    b->whole_first = 1;
    b->nfc = e->nfc;
    b->re_flags = PCRE2_DOLLAR_ENDONLY;
    int rc = bpe_add_regex(b, e->pattern, e->name);
    if (rc) return rc;
    if (!strcmp(e->name, "llama3") || !strcmp(e->name, "qwen2") || !strcmp(e->name, "cl100k_base")) {
        b->pre = PRE_TIKTOKEN;
        b->fast_digits = strcmp(e->name, "qwen2") ? 3 : 1;
        b->fast_cl100k = !strcmp(e->name, "cl100k_base");
    }
    if (!strcmp(e->name, "o200k_base")) {
        b->pre = PRE_TIKTOKEN;
        b->fast_digits = 0; /* 0: o200k's splitter */
    }
    return 0;
}

/* The special tokens: Megatron's layout (num_special ids before the ranks: <unk>, <s>, </s>,
 * <SPECIAL_3>, ...), or the named encoding's at their fixed ids. */
static int tt_specials(bpe *b, const tt_encoding *e, int megatron, int num_special, char **names,
                       const uint32_t *sp_ids, size_t n_names)
{
    int rc;
    if (megatron) {
        static const char *const base[3] = {"<unk>", "<s>", "</s>"};
        for (int i = 0; i < num_special; i++) {
            char t[48];
            if (i < 3) snprintf(t, sizeof t, "%s", base[i]);
            else snprintf(t, sizeof t, "<SPECIAL_%d>", i);
            if ((rc = bpe_core_set(b, (uint32_t)i, t, strlen(t), 0, t))) return rc;
            b->tok_flags[i] |= TOKFL_SPECIAL;
        }
        b->bos = 1;
        b->eod = 2;
        return 0;
    }
    for (size_t i = 0; i < n_names; i++) {
        uint32_t id = sp_ids[i];
        if ((rc = bpe_core_set(b, id, names[i], strlen(names[i]), 0, names[i]))) return rc;
        b->tok_flags[id] |= TOKFL_SPECIAL;
        if (e->eod && !strcmp(names[i], e->eod)) b->eod = id;
        if (e->bos && !strcmp(names[i], e->bos)) b->bos = id;
    }
    return 0;
}

int tiktoken_load(bpe **out, const char *path, const char *pattern_name, int num_special, const char *type)
{
    char *data = NULL;
    size_t len = 0;
    pthread_once(&b64_once, b64_init);
    int rc = bpe_slurp(path, &data, &len);
    if (rc) return rc;
    bpe *b = bpe_new(TOKF_TIKTOKEN, type ? type : "TikTokenizer", path);
    if (!b) { free(data); return err_set(ERR_NOMEM, "out of memory"); }
    tt_tok *tt = NULL;
    size_t n_lines = 0, shift = 0, n_names = 0;
    uint64_t max_rank = 0;
    const tt_encoding *e = NULL;
    char **names = NULL;
    uint32_t *sp_ids = NULL;
    int megatron = 0;
    if ((rc = tt_scan(data, len, path, &tt, &n_lines, &max_rank)) || (rc = tt_find_encoding(pattern_name, n_lines, path, &e)))
        goto out;
    megatron = !strcmp(e->name, "v1") || !strcmp(e->name, "v2");
    if (megatron) {
        if (num_special < 3) {
            rc = err_set(ERR_USAGE, "--tiktoken-num-special-tokens %d: Megatron's layout needs at least 3 (<unk>, <s>, </s>)", num_special);
            goto out;
        }
        shift = (size_t)num_special;
    } else if ((rc = named_specials(e, (size_t)max_rank + 1, &names, &sp_ids, &n_names))) {
        goto out;
    }
    size_t n_ids = (size_t)max_rank + 1 + shift;
    for (size_t i = 0; i < n_names; i++)
        if (sp_ids[i] + (size_t)1 > n_ids) n_ids = sp_ids[i] + (size_t)1;
    if (max_rank + 1 > 2 * (uint64_t)n_lines + 65536) {
        rc = err_set(ERR_FORMAT, "%s: ranks up to %llu for %zu lines: ranks this sparse are refused", path,
                     (unsigned long long)max_rank, n_lines);
        goto out;
    }
    /* the named encodings' specials sit at fixed ids (cl100k's at 100257...), even past a cut-down file */
    if ((rc = bpe_core_alloc(b, n_ids, n_ids > n_lines + shift + n_names ? n_ids : n_lines + shift + n_names)) ||
        (rc = tt_set_tokens(b, data, len, tt, n_lines, shift, path)) || (rc = tt_splitter(b, e)) ||
        (rc = tt_specials(b, e, megatron, num_special, names, sp_ids, n_names)))
        goto out;
    b->vocab_size = b->n_ids;
out:
    for (size_t i = 0; i < n_names; i++) free(names[i]);
    free(names);
    free(sp_ids);
    free(data);
    free(tt);
    if (rc) { bpe_free(b); return rc; }
    *out = b;
    return 0;
}

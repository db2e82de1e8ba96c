/* hftok.c - Hugging Face `tokenizer.json` for byte-level BPE models (GPT-2
 * style, Llama 3, Qwen2, DeepSeek-V3...), read with cJSON.
 *
 * Supported, as the `tokenizers` library runs them:
 *   normalizer     null, NFC, or a Sequence of those;
 *   pre_tokenizer  ByteLevel (add_prefix_space false; use_regex: GPT-2's
 *                  pattern, run by the hand-written splitter), Split
 *                  (Regex or String, behavior Isolated, invert false), Digits,
 *                  and a Sequence of them with ByteLevel last;
 *   model          BPE over the byte-level alphabet (vocab, merges as "a b"
 *                  strings or ["a", "b"] pairs, ignore_merges);
 *   added_tokens   matched in the text first, leftmost then longest, with
 *                  lstrip/rstrip, whether special or not (as encode() does);
 *   post_processor ByteLevel (nothing to do), TemplateProcessing (the special
 *                  tokens around $A of "single": Megatron's tokenize() adds
 *                  them), a Sequence of those;
 *   decoder        ByteLevel (token bytes joined).
 * Anything else (WordPiece, Unigram, WordLevel models, Metaspace, Lowercase,
 * NFKC...) is refused naming the part, so no file is read half-right.
 * Regex patterns run through PCRE2 in Oniguruma's sense of $ (end of line).
 *
 * EOD/BOS: tokenizer_config.json beside the file (eos_token, bos_token) when
 * there is one, else the usual names among the special added tokens.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe_int.h"
#include "common/err.h"
#include "common/jsonl.h"
#include "common/utf8.h"

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int jtrue(const cJSON *o, const char *k)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static int unsupported(const char *path, const char *part, const char *what)
{
    return err_set(ERR_FORMAT, "%s: %s %s is not supported (byte-level BPE only: normalizer NFC, pre_tokenizer "
                   "ByteLevel/Split/Digits, post_processor TemplateProcessing/ByteLevel)", path, part, what);
}

static int add_split(bpe *b, const cJSON *pt, const char *path)
{
    const char *beh = jstr(pt, "behavior");
    if (!beh || strcmp(beh, "Isolated")) return unsupported(path, "pre_tokenizer Split behavior", beh ? beh : "(none)");
    if (jtrue(pt, "invert")) return unsupported(path, "pre_tokenizer Split", "with invert true");
    const cJSON *pat = cJSON_GetObjectItemCaseSensitive(pt, "pattern");
    const char *re = jstr(pat, "Regex"), *lit = jstr(pat, "String");
    if (re) return bpe_add_regex(b, re, "pre_tokenizer Split pattern");
    if (!lit) return err_set(ERR_FORMAT, "%s: pre_tokenizer Split: no pattern (Regex or String)", path);
    size_t n = strlen(lit);
    char *q = malloc(n * 4 + 8);
    if (!q) return err_set(ERR_NOMEM, "out of memory");
    size_t o = 0;
    for (size_t i = 0; i < n; i++) { /* quote every ASCII punctuation character */
        unsigned char c = (unsigned char)lit[i];
        if (c < 0x80 && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80))
            q[o++] = '\\';
        q[o++] = (char)c;
    }
    q[o] = 0;
    int rc = bpe_add_regex(b, q, "pre_tokenizer Split string");
    free(q);
    return rc;
}

static int pre_one(bpe *b, const cJSON *pt, int last, const char *path)
{
    const char *t = jstr(pt, "type");
    if (!t) return err_set(ERR_FORMAT, "%s: pre_tokenizer without a type", path);
    if (!strcmp(t, "ByteLevel")) {
        if (!last) return unsupported(path, "pre_tokenizer", "ByteLevel before other pre-tokenizers");
        if (jtrue(pt, "add_prefix_space")) return unsupported(path, "pre_tokenizer ByteLevel", "with add_prefix_space true");
        const cJSON *ur = cJSON_GetObjectItemCaseSensitive(pt, "use_regex");
        b->byte_level_regex = !ur || cJSON_IsTrue(ur);
        return 0;
    }
    if (!strcmp(t, "Split")) return add_split(b, pt, path);
    if (!strcmp(t, "Digits"))
        return bpe_add_regex(b, jtrue(pt, "individual_digits") ? "\\p{N}" : "\\p{N}+", "pre_tokenizer Digits");
    return unsupported(path, "pre_tokenizer", t);
}

static int normalizer(bpe *b, const cJSON *nm, const char *path)
{
    if (!nm || cJSON_IsNull(nm)) return 0;
    const char *t = jstr(nm, "type");
    if (!t) return err_set(ERR_FORMAT, "%s: normalizer without a type", path);
    if (!strcmp(t, "NFC")) { b->nfc = 1; return 0; }
    if (!strcmp(t, "Sequence")) {
        const cJSON *l = cJSON_GetObjectItemCaseSensitive(nm, "normalizers");
        for (const cJSON *it = l ? l->child : NULL; it; it = it->next) {
            int rc = normalizer(b, it, path);
            if (rc) return rc;
        }
        return 0;
    }
    return unsupported(path, "normalizer", t);
}

static int post_processor(bpe *b, const cJSON *pp, const char *path, int64_t *prefix)
{
    if (!pp || cJSON_IsNull(pp)) return 0;
    const char *t = jstr(pp, "type");
    if (!t) return err_set(ERR_FORMAT, "%s: post_processor without a type", path);
    if (!strcmp(t, "ByteLevel")) return 0;
    if (!strcmp(t, "Sequence")) {
        const cJSON *l = cJSON_GetObjectItemCaseSensitive(pp, "processors");
        for (const cJSON *it = l ? l->child : NULL; it; it = it->next) {
            int rc = post_processor(b, it, path, prefix);
            if (rc) return rc;
        }
        return 0;
    }
    if (strcmp(t, "TemplateProcessing")) return unsupported(path, "post_processor", t);
    const cJSON *single = cJSON_GetObjectItemCaseSensitive(pp, "single");
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(pp, "special_tokens");
    int seen_a = 0;
    for (const cJSON *it = single ? single->child : NULL; it; it = it->next) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(it, "SpecialToken");
        if (cJSON_GetObjectItemCaseSensitive(it, "Sequence")) { seen_a = 1; continue; }
        const char *name = jstr(st, "id");
        const cJSON *ent = name ? cJSON_GetObjectItemCaseSensitive(sp, name) : NULL;
        const cJSON *ids = cJSON_GetObjectItemCaseSensitive(ent, "ids");
        if (!name || cJSON_GetArraySize(ids) != 1 || !cJSON_IsNumber(ids->child))
            return err_set(ERR_FORMAT, "%s: post_processor TemplateProcessing: special token %s without one id", path,
                           name ? name : "(unnamed)");
        if (seen_a) return unsupported(path, "post_processor TemplateProcessing", "with tokens after $A");
        if (*prefix >= 0) return unsupported(path, "post_processor TemplateProcessing", "with more than one token before $A");
        *prefix = (int64_t)ids->child->valuedouble;
    }
    return 0;
}

static const char *config_token(const cJSON *cfg, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cfg, key);
    if (cJSON_IsString(v)) return v->valuestring;
    return jstr(v, "content");
}

/* The model's kind and the text pipeline: normalizer, pre_tokenizer (byte-level), decoder. */
static int hf_pipeline(bpe *b, const cJSON *root, const cJSON *model, const char *path)
{
    int rc;
    const char *mt = jstr(model, "type");
    if (!model) return err_set(ERR_FORMAT, "%s: no \"model\"", path);
    if (mt && strcmp(mt, "BPE")) return unsupported(path, "model", mt);
    if (jtrue(model, "byte_fallback"))
        return unsupported(path, "model BPE", "with byte_fallback (a SentencePiece-style model: pass its .model as SentencePieceTokenizer)");
    const char *csp = jstr(model, "continuing_subword_prefix"), *eow = jstr(model, "end_of_word_suffix");
    if ((csp && *csp) || (eow && *eow)) return unsupported(path, "model BPE", "with a subword prefix or word suffix");
    b->whole_first = jtrue(model, "ignore_merges");
    if ((rc = normalizer(b, cJSON_GetObjectItemCaseSensitive(root, "normalizer"), path))) return rc;
    const cJSON *pt = cJSON_GetObjectItemCaseSensitive(root, "pre_tokenizer");
    const char *ptt = jstr(pt, "type");
    if (!ptt) return unsupported(path, "pre_tokenizer", "(none: not a byte-level BPE)");
    int have_bl = 0;
    if (!strcmp(ptt, "Sequence")) {
        const cJSON *l = cJSON_GetObjectItemCaseSensitive(pt, "pretokenizers");
        for (const cJSON *it = l ? l->child : NULL; it && !rc; it = it->next) {
            const char *t = jstr(it, "type");
            have_bl |= t && !strcmp(t, "ByteLevel");
            rc = pre_one(b, it, it->next == NULL, path);
        }
    } else {
        have_bl = !strcmp(ptt, "ByteLevel");
        rc = pre_one(b, pt, 1, path);
    }
    if (rc) return rc;
    if (!have_bl) return unsupported(path, "pre_tokenizer", "without ByteLevel (not a byte-level BPE)");
    if (b->n_re == 0) b->pre = b->byte_level_regex ? PRE_GPT2 : PRE_REGEX;
    b->keep_gaps = 1;
    const cJSON *decoder = cJSON_GetObjectItemCaseSensitive(root, "decoder");
    const char *dt = jstr(decoder, "type");
    if (dt && strcmp(dt, "ByteLevel")) return unsupported(path, "decoder", dt);
    return 0;
}

/* model.vocab (and added_tokens' ids, for the table's size) into the core's tables. */
static int hf_vocab(bpe *b, const cJSON *model, const cJSON *added, const char *path, char **buf, size_t *bcap)
{
    int rc;
    const cJSON *vocab = cJSON_GetObjectItemCaseSensitive(model, "vocab");
    if (!cJSON_IsObject(vocab)) return err_set(ERR_FORMAT, "%s: model.vocab is not an object", path);
    size_t n_tok = 0;
    double max_id = -1;
    for (const cJSON *it = vocab->child; it; it = it->next, n_tok++) {
        if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble >= 2147483648.0 ||
            it->valuedouble != (double)(int64_t)it->valuedouble)
            return err_set(ERR_FORMAT, "%s: model.vocab entry %zu (\"%.80s\"): the id is not an integer in [0, 2^31)", path,
                           n_tok + 1, it->string);
        if (it->valuedouble > max_id) max_id = it->valuedouble;
    }
    size_t k = 0;
    for (const cJSON *it = added ? added->child : NULL; it; it = it->next, k++) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(it, "id");
        if (!cJSON_IsNumber(id) || id->valuedouble < 0 || id->valuedouble >= 2147483648.0 ||
            id->valuedouble != (double)(int64_t)id->valuedouble || !jstr(it, "content"))
            return err_set(ERR_FORMAT, "%s: added_tokens entry %zu: needs an integer id in [0, 2^31) and a content string", path, k + 1);
        if (id->valuedouble > max_id) max_id = id->valuedouble;
    }
    if (n_tok == 0) return err_set(ERR_FORMAT, "%s: model.vocab is empty", path);
    if ((rc = bpe_core_alloc(b, (size_t)max_id + 1, n_tok + k))) return rc;
    k = 0;
    for (const cJSON *it = vocab->child; it; it = it->next, k++) {
        size_t sl = strlen(it->string);
        char what[160];
        snprintf(what, sizeof what, "model.vocab entry %zu (\"%.80s\")", k + 1, it->string);
        if ((rc = bpe_buf_reserve(buf, bcap, sl + 1))) return rc;
        long bl = bpe_unmap(it->string, sl, *buf);
        if (bl <= 0) { /* not in the ByteLevel alphabet (an added token listed in the vocab too): BPE never makes it */
            if (!utf8_valid(it->string, sl) || sl == 0)
                return err_set(ERR_FORMAT, "%s: %s: an empty or invalid token", path, what);
            if ((rc = bpe_core_set(b, (uint32_t)it->valuedouble, it->string, sl, 0, what))) return rc;
            continue;
        }
        if ((rc = bpe_core_set(b, (uint32_t)it->valuedouble, *buf, (size_t)bl, 1, what))) return rc;
    }
    return bpe_core_bytes(b);
}

/* model.merges ("LEFT RIGHT" or [LEFT, RIGHT], in rank order) into the pair table. */
static int hf_merges(bpe *b, const cJSON *model, const char *path, char **buf, size_t *bcap)
{
    int rc = 0;
    const cJSON *merges = cJSON_GetObjectItemCaseSensitive(model, "merges");
    size_t nm = (size_t)cJSON_GetArraySize(merges), k = 0;
    pair_slot *tmp = malloc((nm + 1) * sizeof *tmp);
    if (!tmp) return err_set(ERR_NOMEM, "out of memory");
    for (const cJSON *it = merges ? merges->child : NULL; it && !rc; it = it->next, k++) {
        const char *l = NULL, *r = NULL;
        size_t ln = 0, rn = 0;
        if (cJSON_IsString(it)) {
            const char *sp = strchr(it->valuestring, ' ');
            if (sp && sp != it->valuestring && sp[1] && !strchr(sp + 1, ' ')) {
                l = it->valuestring, ln = (size_t)(sp - l), r = sp + 1, rn = strlen(r);
            }
        } else if (cJSON_IsArray(it) && cJSON_GetArraySize(it) == 2 && cJSON_IsString(it->child) &&
                   cJSON_IsString(it->child->next)) {
            l = it->child->valuestring, ln = strlen(l), r = it->child->next->valuestring, rn = strlen(r);
        }
        if (!l || !ln || !rn) { rc = err_set(ERR_FORMAT, "%s: model.merges entry %zu: not \"LEFT RIGHT\" or [LEFT, RIGHT]", path, k + 1); break; }
        if ((rc = bpe_buf_reserve(buf, bcap, ln + rn + 1))) break;
        long lb = bpe_unmap(l, ln, *buf), rb = lb < 0 ? -1 : bpe_unmap(r, rn, *buf + lb);
        int64_t lid = lb > 0 ? bpe_lookup(b, *buf, (size_t)lb) : -1;
        int64_t rid = rb > 0 ? bpe_lookup(b, *buf + lb, (size_t)rb) : -1;
        int64_t mid = lid >= 0 && rid >= 0 ? bpe_lookup(b, *buf, (size_t)(lb + rb)) : -1;
        if (mid < 0) {
            rc = err_set(ERR_FORMAT, "%s: model.merges entry %zu (\"%.60s\" \"%.60s\"): %s is not in the vocabulary", path,
                         k + 1, l, r, lid < 0 ? "the left part" : rid < 0 ? "the right part" : "the merged token");
            break;
        }
        tmp[k] = (pair_slot){((uint64_t)lid << 32) | (uint64_t)rid, (uint32_t)k, (uint32_t)mid};
    }
    if (rc == 0) rc = bpe_core_pairs(b, tmp, k);
    free(tmp);
    return rc;
}

/* added_tokens: matched in the text (specials), set where model.vocab does not hold them. */
static int hf_added(bpe *b, const cJSON *added, const char *path)
{
    int rc;
    size_t k = 0;
    for (const cJSON *it = added ? added->child : NULL; it; it = it->next, k++) {
        uint32_t id = (uint32_t)cJSON_GetObjectItemCaseSensitive(it, "id")->valuedouble;
        const char *c = jstr(it, "content");
        size_t cl = strlen(c);
        char what[160];
        snprintf(what, sizeof what, "added_tokens entry %zu (\"%.80s\")", k + 1, c);
        if (b->tok_off[id] == UINT64_MAX) {
            if ((rc = bpe_core_set(b, id, c, cl, 0, what))) return rc;
        } else if (b->tok_len[id] != cl || memcmp(b->arena + b->tok_off[id], c, cl)) {
            return err_set(ERR_FORMAT, "%s: %s: id %u is another token in model.vocab", path, what, id);
        }
        if (jtrue(it, "special")) b->tok_flags[id] |= TOKFL_SPECIAL;
        if ((rc = bpe_add_special(b, c, cl, id, jtrue(it, "lstrip"), jtrue(it, "rstrip")))) return rc;
    }
    bpe_sort_specials(b);
    return 0;
}

/* EOD and BOS: tokenizer_config.json beside it, else the usual names. */
static void hf_eod_bos(bpe *b, const char *path)
{
    char cfgp[1024];
    const char *slash = strrchr(path, '/');
    snprintf(cfgp, sizeof cfgp, "%.*stokenizer_config.json", slash ? (int)(slash - path + 1) : 0, path);
    char *cdata = NULL;
    size_t clen = 0;
    cJSON *cfg = NULL;
    FILE *cf = fopen(cfgp, "rb");
    if (cf) {
        fclose(cf);
        if (bpe_slurp(cfgp, &cdata, &clen) == 0) cfg = cJSON_ParseWithLength(cdata, clen);
        free(cdata);
    }
    static const char *const eods[] = {"<|endoftext|>", "<|end_of_text|>", "<｜end▁of▁sentence｜>", "</s>", "<eos>", "<|im_end|>"};
    static const char *const boss[] = {"<|begin_of_text|>", "<｜begin▁of▁sentence｜>", "<s>", "<bos>"};
    const char *ce = cfg ? config_token(cfg, "eos_token") : NULL, *cb = cfg ? config_token(cfg, "bos_token") : NULL;
    for (size_t i = 0; i < b->n_sp; i++) {
        const special_tok *s = &b->sp[i];
        if (ce ? !strcmp(s->s, ce) : 0) b->eod = s->id;
        if (cb ? !strcmp(s->s, cb) : 0) { if (b->bos < 0) b->bos = s->id; }
    }
    for (size_t j = 0; j < sizeof eods / sizeof *eods && b->eod < 0 && !ce; j++)
        for (size_t i = 0; i < b->n_sp; i++)
            if (!strcmp(b->sp[i].s, eods[j])) { b->eod = b->sp[i].id; break; }
    for (size_t j = 0; j < sizeof boss / sizeof *boss && b->bos < 0 && !cb; j++)
        for (size_t i = 0; i < b->n_sp; i++)
            if (!strcmp(b->sp[i].s, boss[j])) { b->bos = b->sp[i].id; break; }
    cJSON_Delete(cfg);
}

int hftok_load(bpe **out, const char *path, const char *type)
{
    char *data = NULL;
    size_t len = 0;
    int rc = bpe_slurp(path, &data, &len);
    if (rc) return rc;
    const char *end = NULL;
    int nomem;
    cJSON *root = json_parse(data, len, &end, &nomem);
    long off = end ? (long)(end - data) : -1;
    free(data);
    if (nomem) return err_set(ERR_NOMEM, "%s: out of memory parsing it", path);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return err_set(ERR_FORMAT, "%s: not a tokenizer.json (JSON parse error near byte %ld)", path, off);
    }
    bpe *b = bpe_new(TOKF_HF, type ? type : "HuggingFaceTokenizer", path);
    char *buf = NULL;
    size_t bcap = 0;
    if (!b) {
        cJSON_Delete(root);
        return err_set(ERR_NOMEM, "out of memory");
    }
    b->re_flags = PCRE2_MULTILINE;
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
    const cJSON *added = cJSON_GetObjectItemCaseSensitive(root, "added_tokens");
    int64_t prefix = -1;
    if ((rc = hf_pipeline(b, root, model, path)) || (rc = hf_vocab(b, model, added, path, &buf, &bcap)) ||
        (rc = hf_merges(b, model, path, &buf, &bcap)) || (rc = hf_added(b, added, path)) ||
        (rc = post_processor(b, cJSON_GetObjectItemCaseSensitive(root, "post_processor"), path, &prefix)))
        goto out;
    if (prefix >= 0) {
        if ((size_t)prefix >= b->n_ids) { rc = err_set(ERR_FORMAT, "%s: post_processor: token id %lld is out of range", path, (long long)prefix); goto out; }
        b->bos = prefix;
        b->prepend_bos = 1;
    }
    hf_eod_bos(b, path);
    b->vocab_size = b->n_ids;
out:
    free(buf);
    cJSON_Delete(root);
    if (rc) { bpe_free(b); return rc; }
    *out = b;
    return 0;
}

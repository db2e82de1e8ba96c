/* hfwrite.c - write a byte-level BPE tokenizer (GPT-2 files, tiktoken files,
 * a tokenizer.json we read) as a Hugging Face tokenizer.json that
 * `tokenizers` and transformers load: what `convert_checkpoint --to hf`
 * ships beside the model.
 *
 * The vocabulary is the token bytes in the ByteLevel alphabet; the merges are
 * the pair table, ordered by rank and then by the ranks of the two parts (as
 * transformers' TikTokenConverter orders them); ignore_merges is set, since
 * tiktoken takes a piece that is a token whole. The split patterns become
 * Split (Isolated) pre-tokenizers before a ByteLevel one; specials become
 * added tokens. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe_int.h"
#include "common/err.h"
#include "common/io.h"
#include "common/utf8.h"

static char *to_bytelevel(const char *s, size_t n)
{
    char *o = malloc(n * 2 + 1);
    if (!o) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += (size_t)utf8_encode(bpe_byte_to_cp((unsigned char)s[i]), o + k);
    o[k] = 0;
    return o;
}

typedef struct {
    uint32_t l, r, rank;
} merge_t;

static int merge_cmp(const void *a, const void *b)
{
    const merge_t *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    if (x->l != y->l) return x->l < y->l ? -1 : 1;
    return x->r < y->r ? -1 : x->r > y->r;
}

int bpe_write_tokenizer_json(const bpe *b, const char *path)
{
    if (b->fam && b->fam->write_tokenizer_json) return b->fam->write_tokenizer_json(b, path);
    if (b->family != TOKF_GPT2 && b->family != TOKF_TIKTOKEN && b->family != TOKF_HF)
        return err_set(ERR_USAGE, "%s: a NullTokenizer has no tokenizer.json", b->file);
    int rc = 0;
    cJSON *root = cJSON_CreateObject(), *added = cJSON_CreateArray(), *vocab = cJSON_CreateObject(),
          *merges = cJSON_CreateArray(), *model = cJSON_CreateObject();
    merge_t *ms = NULL;
    if (!root || !added || !vocab || !merges || !model) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
    cJSON_AddStringToObject(root, "version", "1.0");
    cJSON_AddNullToObject(root, "truncation");
    cJSON_AddNullToObject(root, "padding");
    cJSON_AddItemToObject(root, "added_tokens", added);
    for (size_t id = 0; id < b->n_ids && !rc; id++) {
        if (b->tok_off[id] == UINT64_MAX) continue;
        const char *t = b->arena + b->tok_off[id];
        size_t n = b->tok_len[id];
        int hashed = bpe_lookup(b, t, n) == (int64_t)id;
        if (!hashed) { /* a special token: an added token */
            cJSON *a = cJSON_CreateObject();
            char *c = strndup(t, n);
            if (!a || !c) { free(c); cJSON_Delete(a); rc = err_set(ERR_NOMEM, "out of memory"); break; }
            cJSON_AddNumberToObject(a, "id", (double)id);
            cJSON_AddStringToObject(a, "content", c);
            cJSON_AddBoolToObject(a, "single_word", 0);
            cJSON_AddBoolToObject(a, "lstrip", 0);
            cJSON_AddBoolToObject(a, "rstrip", 0);
            cJSON_AddBoolToObject(a, "normalized", 0);
            cJSON_AddBoolToObject(a, "special", 1);
            cJSON_AddItemToArray(added, a);
            free(c);
            continue;
        }
        char *s = to_bytelevel(t, n);
        if (!s) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
        cJSON_AddNumberToObject(vocab, s, (double)id);
        free(s);
    }
    if (rc) goto out;
    if (b->nfc) {
        cJSON *nm = cJSON_AddObjectToObject(root, "normalizer");
        cJSON_AddStringToObject(nm, "type", "NFC");
    } else {
        cJSON_AddNullToObject(root, "normalizer");
    }
    cJSON *pre = cJSON_AddObjectToObject(root, "pre_tokenizer");
    cJSON_AddStringToObject(pre, "type", "Sequence");
    cJSON *pl = cJSON_AddArrayToObject(pre, "pretokenizers");
    for (int i = 0; i < b->n_re; i++) {
        cJSON *sp = cJSON_CreateObject();
        cJSON_AddStringToObject(sp, "type", "Split");
        cJSON *pat = cJSON_AddObjectToObject(sp, "pattern");
        cJSON_AddStringToObject(pat, "Regex", b->re_src[i]);
        cJSON_AddStringToObject(sp, "behavior", "Isolated");
        cJSON_AddBoolToObject(sp, "invert", 0);
        cJSON_AddItemToArray(pl, sp);
    }
    cJSON *bl = cJSON_CreateObject();
    cJSON_AddStringToObject(bl, "type", "ByteLevel");
    cJSON_AddBoolToObject(bl, "add_prefix_space", 0);
    cJSON_AddBoolToObject(bl, "trim_offsets", 1);
    cJSON_AddBoolToObject(bl, "use_regex", b->pre == PRE_GPT2 || b->byte_level_regex);
    cJSON_AddItemToArray(pl, bl);
    cJSON *pp = cJSON_AddObjectToObject(root, "post_processor");
    if (b->prepend_bos && b->bos >= 0) {
        size_t bl2;
        const char *bt = bpe_token_bytes(b, (uint32_t)b->bos, &bl2);
        char *bs = bt ? strndup(bt, bl2) : NULL;
        if (!bs) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
        hfjson_bos_template(pp, bs, b->bos);
        free(bs);
    } else {
        cJSON_AddStringToObject(pp, "type", "ByteLevel");
        cJSON_AddBoolToObject(pp, "add_prefix_space", 1);
        cJSON_AddBoolToObject(pp, "trim_offsets", 0);
        cJSON_AddBoolToObject(pp, "use_regex", 1);
    }
    cJSON *dec = cJSON_AddObjectToObject(root, "decoder");
    cJSON_AddStringToObject(dec, "type", "ByteLevel");
    cJSON_AddBoolToObject(dec, "add_prefix_space", 1);
    cJSON_AddBoolToObject(dec, "trim_offsets", 1);
    cJSON_AddBoolToObject(dec, "use_regex", 1);
    cJSON_AddItemToObject(root, "model", model);
    cJSON_AddStringToObject(model, "type", "BPE");
    cJSON_AddNullToObject(model, "dropout");
    cJSON_AddNullToObject(model, "unk_token");
    cJSON_AddNullToObject(model, "continuing_subword_prefix");
    cJSON_AddNullToObject(model, "end_of_word_suffix");
    cJSON_AddBoolToObject(model, "fuse_unk", 0);
    cJSON_AddBoolToObject(model, "byte_fallback", 0);
    cJSON_AddBoolToObject(model, "ignore_merges", b->whole_first);
    cJSON_AddItemToObject(model, "vocab", vocab);
    vocab = NULL;
    size_t n = 0, cap = 1 << 16;
    ms = malloc(cap * sizeof *ms);
    if (!ms) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
    if (b->pairs) {
        for (size_t i = 0; i <= b->pair_mask && !rc; i++) {
            if (b->pairs[i].key == UINT64_MAX) continue;
            if (n == cap && !(ms = realloc(ms, (cap *= 2) * sizeof *ms))) rc = err_set(ERR_NOMEM, "out of memory");
            if (!rc) ms[n++] = (merge_t){(uint32_t)(b->pairs[i].key >> 32), (uint32_t)b->pairs[i].key, b->pairs[i].rank};
        }
    } else { /* a tiktoken vocabulary: every split of a token into two tokens, at the token's rank */
        for (size_t id = 0; id < b->n_ids && !rc; id++) {
            if (b->tok_off[id] == UINT64_MAX) continue;
            const char *tt = b->arena + b->tok_off[id];
            size_t len = b->tok_len[id];
            if (bpe_lookup(b, tt, len) != (int64_t)id) continue; /* a special token */
            for (size_t k = 1; k < len && !rc; k++) {
                int64_t l = bpe_lookup(b, tt, k), r = l >= 0 ? bpe_lookup(b, tt + k, len - k) : -1;
                if (l < 0 || r < 0) continue;
                if (n == cap && !(ms = realloc(ms, (cap *= 2) * sizeof *ms))) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
                ms[n++] = (merge_t){(uint32_t)l, (uint32_t)r, (uint32_t)id};
            }
        }
    }
    if (rc) goto out;
    qsort(ms, n, sizeof *ms, merge_cmp);
    for (size_t i = 0; i < n && !rc; i++) {
        char *l = to_bytelevel(b->arena + b->tok_off[ms[i].l], b->tok_len[ms[i].l]);
        char *r = to_bytelevel(b->arena + b->tok_off[ms[i].r], b->tok_len[ms[i].r]);
        if (!l || !r) rc = err_set(ERR_NOMEM, "out of memory");
        else {
            const char *pair[2] = {l, r};
            cJSON_AddItemToArray(merges, cJSON_CreateStringArray(pair, 2));
        }
        free(l);
        free(r);
    }
    cJSON_AddItemToObject(model, "merges", merges);
    merges = NULL;
    model = NULL;
    if (rc) goto out;
    rc = hfjson_write(root, path);
out:
    free(ms);
    cJSON_Delete(vocab);
    cJSON_Delete(merges);
    cJSON_Delete(model);
    cJSON_Delete(root);
    return rc;
}

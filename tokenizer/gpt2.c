/* gpt2.c - GPT-2's vocabulary files, a family like tiktoken.c and hftok.c: encoder.json
 * (token -> id in the bytes_to_unicode alphabet) and vocab.bpe (the merges in rank order),
 * read in one pass straight into token bytes where the files are as GPT-2's are written,
 * else through the general readers (cJSON), whose answers and messages stay the reference. */
#include "tokenizer/bpe.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/jsonscan.h"
#include "common/utf8.h"
#include "tokenizer/bpe_int.h"

void bpe_enc_list_free(enc_list *L)
{
    free(L->e);
    free(L->keys);
    *L = (enc_list){0};
}

static int enc_push(enc_list *L, uint32_t id, size_t off)
{
    if (L->n == L->cap) {
        size_t nc = L->cap ? 2 * L->cap : 1 << 16;
        enc_ent *ne = realloc(L->e, nc * sizeof *ne);
        if (!ne) return ERR_NOMEM;
        L->e = ne;
        L->cap = nc;
    }
    L->e[L->n++] = (enc_ent){id, off};
    return 0;
}

/* encoder.json as GPT-2's and every copy of it are written: one flat object of
 * string -> integer id. Read in one pass here (cJSON builds a tree of 50,257 nodes
 * and reads each id through strtod: half of the whole load). What this reader does
 * not take returns 1 and the file goes to cJSON, whose answers and messages stay
 * the reference: escapes other than the simple ones and \uXXXX outside the
 * surrogates and NUL, numbers other than plain digits up to 2^24 (no leading zero),
 * control characters, an empty object, anything but whitespace after it (the keys
 * scanned and decoded by common/jsonscan, as the JSON-lines fast path's strings).
 * Returns 0, 1 or ERR_NOMEM. */
static int encoder_flat(const char *s, size_t n, enc_list *L, char **kbuf, size_t *kbcap);

int bpe_encoder_flat(const char *s, size_t n, enc_list *L)
{
    char *kbuf = NULL;
    size_t kbcap = 0;
    int rc = encoder_flat(s, n, L, &kbuf, &kbcap);
    free(kbuf);
    return rc;
}

#define ENC_WS(c) ((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r')

/* An entry's id at s[*pi] as the one-pass readers take it: plain digits (no leading zero),
 * at most 2^24, not followed by more digits, a fraction or an exponent; 0 if not so. */
static inline int enc_scan_id(const char *s, size_t n, size_t *pi, uint32_t *out)
{
    size_t i = *pi;
    if (i == n || s[i] < '0' || s[i] > '9' || (s[i] == '0' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9'))
        return 0;
    uint32_t id = 0;
    int digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9' && digits < 9) id = id * 10 + (uint32_t)(s[i++] - '0'), digits++;
    if (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == 'e' || s[i] == 'E')) return 0;
    if (id > 16777216) return 0;
    *pi = i;
    *out = id;
    return 1;
}

static int encoder_flat(const char *s, size_t n, enc_list *L, char **kbuf, size_t *kbcap)
{
#define WS(c) ENC_WS(c)
    size_t i = 0;
    while (i < n && WS(s[i])) i++;
    if (i == n || s[i++] != '{') return 1;
    if (!(L->keys = malloc(n + 1))) return ERR_NOMEM; /* a key never decodes longer than it is written */
    L->kcap = n + 1;
    for (;;) {
        while (i < n && WS(s[i])) i++;
        jsonscan_span sp;
        const char *key;
        size_t kl;
        if (!jsonscan_string_at(s, n, &i, &sp)) return 1;
        if (jsonscan_string(s, &sp, &key, &kl, kbuf, kbcap)) return ERR_NOMEM;
        if (sp.escaped && memchr(key, 0, kl)) return 1; /* \u0000: cJSON's key ends there (a raw NUL: not scanned) */
        size_t off = L->klen;
        memcpy(L->keys + L->klen, key, kl);
        L->klen += kl;
        L->keys[L->klen++] = 0;
        while (i < n && WS(s[i])) i++;
        if (i == n || s[i++] != ':') return 1;
        while (i < n && WS(s[i])) i++;
        uint32_t id;
        if (!enc_scan_id(s, n, &i, &id)) return 1;
        if (enc_push(L, id, off)) return ERR_NOMEM;
        while (i < n && WS(s[i])) i++;
        if (i == n) return 1;
        if (s[i] == ',') { i++; continue; }
        if (s[i++] != '}') return 1;
        break;
    }
    while (i < n && WS(s[i])) i++;
    return i == n ? 0 : 1;
#undef WS
}

/* the same list from cJSON's tree (every entry's id checked as before) */
int bpe_encoder_json(const char *path, const char *data, size_t len, enc_list *L)
{
    const char *end = NULL;
    int nomem;
    cJSON *root = json_parse(data, len, &end, &nomem);
    if (nomem) return err_set(ERR_NOMEM, "%s: out of memory parsing it", path);
    if (!root || !cJSON_IsObject(root)) {
        long off = end ? (long)(end - data) : -1;
        cJSON_Delete(root);
        return err_set(ERR_FORMAT, "%s: not a JSON object of token -> id (parse error near byte %ld)", path, off);
    }
    size_t n = 0;
    for (cJSON *it = root->child; it; it = it->next, n++) {
        if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble > 16777216.0 ||
            it->valuedouble != (double)(int64_t)it->valuedouble) {
            int rc = err_set(ERR_FORMAT, "%s: entry %zu (\"%.100s\"): id is not an integer in [0, 2^24]", path, n + 1,
                             it->string ? it->string : "");
            cJSON_Delete(root); /* after the message: it names the entry's key */
            return rc;
        }
    }
    int rc = 0;
    for (cJSON *it = root->child; it && !rc; it = it->next) {
        size_t sl = strlen(it->string);
        if ((rc = bpe_buf_reserve(&L->keys, &L->kcap, L->klen + sl + 1))) break;
        memcpy(L->keys + L->klen, it->string, sl + 1);
        if ((rc = enc_push(L, (uint32_t)it->valuedouble, L->klen))) break;
        L->klen += sl + 1;
    }
    cJSON_Delete(root);
    return rc ? err_set(ERR_NOMEM, "%s: out of memory parsing it", path) : 0;
}

/* encoder.json's bytes (data, len: freed here) read by the one-pass flat reader or cJSON's */
static int load_encoder(bpe *b, const char *path, char *data, size_t len)
{
    enc_list L = {0};
    int rc = bpe_encoder_flat(data, len, &L);
    if (rc == 1) {
        bpe_enc_list_free(&L);
        rc = bpe_encoder_json(path, data, len, &L);
    } else if (rc) {
        rc = err_set(ERR_NOMEM, "%s: out of memory parsing it", path);
    }
    free(data);
    int64_t max_id = -1;
    for (size_t k = 0; !rc && k < L.n; k++)
        if ((int64_t)L.e[k].id > max_id) max_id = L.e[k].id;
    if (!rc && L.n == 0) rc = err_set(ERR_FORMAT, "%s: empty vocabulary", path);
    if (!rc) rc = bpe_core_alloc(b, (size_t)max_id + 1, L.n);
    char *buf = NULL;
    size_t bcap = 0;
    for (size_t k = 0; !rc && k < L.n; k++) {
        uint32_t id = L.e[k].id;
        const char *s = L.keys + L.e[k].off;
        size_t sl = strlen(s);
        if ((rc = bpe_buf_reserve(&buf, &bcap, sl + 1))) break;
        if (strcmp(s, "<|endoftext|>") == 0) {
            if ((rc = bpe_core_set_entry(b, id, s, sl, 0, k + 1, s))) break;
            b->tok_flags[id] |= TOKFL_SPECIAL;
            b->eod = id;
            continue;
        }
        long bl = bpe_unmap(s, sl, buf);
        if (bl <= 0) {
            rc = err_set(ERR_FORMAT, "%s: entry %zu (\"%.100s\"): not a byte-level BPE token "
                         "(a character outside GPT-2's bytes_to_unicode alphabet)", path, k + 1, s);
            break;
        }
        if ((rc = bpe_core_set_entry(b, id, buf, (size_t)bl, 1, k + 1, s))) break;
    }
    free(buf);
    bpe_enc_list_free(&L);
    if (!rc) rc = bpe_core_bytes(b);
    return rc;
}

int bpe_encoder_direct_off; /* tests: the general readers only (bpe_int.h) */
unsigned long bpe_direct_taken; /* tests: files and merge lines the one-pass readers took */

/* tests and fuzzing: a and g the same vocabulary and merges, as loaded (every table
 * byte for byte; a free pair slot is its key alone) */
int bpe_core_equal(const bpe *a, const bpe *g)
{
    if (a->n_ids != g->n_ids || a->n_entries != g->n_entries || a->eod != g->eod || a->n_merges != g->n_merges ||
        a->pair_mask != g->pair_mask || a->tok_mask != g->tok_mask || a->arena_len != g->arena_len ||
        memcmp(a->arena, g->arena, a->arena_len) || memcmp(a->tok_len, g->tok_len, a->n_ids * sizeof *a->tok_len) ||
        memcmp(a->tok_off, g->tok_off, a->n_ids * sizeof *a->tok_off) || memcmp(a->tok_flags, g->tok_flags, a->n_ids) ||
        memcmp(a->byte_id, g->byte_id, sizeof a->byte_id) ||
        memcmp(a->tok_slots, g->tok_slots, (a->tok_mask + 1) * sizeof *a->tok_slots) || !a->pairs != !g->pairs)
        return 0;
    for (size_t i = 0; a->pairs && i <= a->pair_mask; i++)
        if (a->pairs[i].key != g->pairs[i].key ||
            (a->pairs[i].key != UINT64_MAX && (a->pairs[i].rank != g->pairs[i].rank || a->pairs[i].merged != g->pairs[i].merged)))
            return 0;
    return 1;
}

/* tests and fuzzing: enc and merges loaded by bpe_load with the one-pass readers and
 * with the general ones. 1: both loaded the same tables; 2: both refused with the same
 * message; 0: they differ, said in why. */
int bpe_load_compare(const char *enc, const char *merges, char *why, size_t whycap)
{
    bpe *a = NULL, *g = NULL;
    int off = bpe_encoder_direct_off;
    bpe_encoder_direct_off = 0;
    int ra = bpe_load(&a, enc, merges);
    char ma[1100]; /* err_msg() holds up to 1,024 bytes */
    snprintf(ma, sizeof ma, "%s", ra ? err_msg() : "");
    bpe_encoder_direct_off = 1;
    int rg = bpe_load(&g, enc, merges);
    bpe_encoder_direct_off = off;
    int same = ra == rg && !strcmp(ma, rg ? err_msg() : "") && (ra || bpe_core_equal(a, g));
    if (!same && !ra && !rg)
        snprintf(why, whycap, "tables differ: ids %zu/%zu entries %zu/%zu merges %zu/%zu arena %zu/%zu", a->n_ids,
                 g->n_ids, a->n_entries, g->n_entries, a->n_merges, g->n_merges, a->arena_len, g->arena_len);
    else if (!same)
        snprintf(why, whycap, "one-pass %d \"%s\" / general %d \"%s\"", ra, ma, rg, rg ? err_msg() : "");
    bpe_free(a);
    bpe_free(g);
    return same ? (ra ? 2 : 1) : 0;
}

/* The common merge line in one pass: "LEFT RIGHT" of alphabet characters (printable
 * ASCII, two-byte UTF-8) and one space, ended by a newline or the data's end, under 1,023
 * bytes: both halves unmapped into out (*ll and *rl bytes), *len the line's bytes. 0 for
 * anything else (a CR, an empty half, a second space, another character, a long line),
 * which load_merges' general path then takes, with its messages. */
static inline int merge_line_fast(const unsigned char *p, size_t avail, char *out, long *ll, long *rl, size_t *len)
{
    size_t i = 0, o = 0;
    long left = -1;
    if (avail > 1022) avail = 1023; /* a line that reaches 1,023 bytes goes to the general path */
    while (i < avail) {
        unsigned c = p[i];
        if (c >= '!' && c <= '~') {
            out[o++] = (char)c;
            i++;
        } else if (c == ' ') {
            if (left >= 0 || o == 0) return 0;
            left = (long)o;
            i++;
        } else if (c == '\n') {
            break;
        } else if (i + 1 < avail && bpe_unmap_two_ok(c, p[i + 1])) {
            int byte = bpe_unmap_two(c, p[i + 1]);
            if (byte < 0) return 0;
            out[o++] = (char)byte;
            i += 2;
        } else return 0;
    }
    if (i == 1023 || left < 0 || (long)o == left) return 0;
    *ll = left;
    *rl = (long)o - left;
    *len = i;
    return 1;
}

/* encoder.json as GPT-2's is written, read straight into token bytes: each key's
 * characters (printable ASCII, \" \\ \/, \uXXXX and two-byte UTF-8 of the
 * bytes_to_unicode alphabet) unmapped as they are scanned, then the entries set in order
 * as load_encoder sets them (the same calls, the same table). 1: declined, for anything
 * else (an escape or character outside the alphabet, an empty key, an id repeated, any
 * entry core_set refuses, a number or a layout bpe_encoder_flat would not take), b then
 * to be thrown away: load_encoder reads the file again and says what is wrong. */

static int encoder_direct(bpe *b, const char *data, size_t n)
{
#define WS(c) ENC_WS(c)
    const unsigned char *s = (const unsigned char *)data;
    size_t i = 0, ne = 0, cap = 0, ul = 0;
    uint32_t *ent = NULL; /* id, then the key's unmapped length, per entry */
    unsigned char *ub = malloc(n + 1);
    uint8_t *seen = NULL;
    uint32_t max_id = 0;
    int rc = 1;
    if (!ub) return 1;
    while (i < n && WS(s[i])) i++;
    if (i == n || s[i++] != '{') goto out;
    for (;;) {
        while (i < n && WS(s[i])) i++;
        if (i == n || s[i++] != '"') goto out;
        size_t start = ul;
        for (;;) {
            if (i >= n) goto out;
            unsigned c = s[i];
            if (c >= '!' && c <= '~' && c != '"' && c != '\\') {
                ub[ul++] = (unsigned char)c;
                i++;
            } else if (c == '"') {
                i++;
                break;
            } else if (c == '\\') {
                unsigned v;
                if (i + 1 >= n) goto out;
                c = s[i + 1];
                if (c == '"' || c == '\\' || c == '/') {
                    ub[ul++] = (unsigned char)c;
                    i += 2;
                    continue;
                }
                if (c != 'u' || i + 6 > n || !jsonscan_hex4(s + i + 2, &v) || v >= 512 || bpe_u2b[v] < 0) goto out;
                ub[ul++] = (unsigned char)bpe_u2b[v];
                i += 6;
            } else if (i + 1 < n && bpe_unmap_two_ok(c, s[i + 1])) {
                int byte = bpe_unmap_two(c, s[i + 1]);
                if (byte < 0) goto out;
                ub[ul++] = (unsigned char)byte;
                i += 2;
            } else goto out;
        }
        if (ul == start) goto out;
        while (i < n && WS(s[i])) i++;
        if (i == n || s[i++] != ':') goto out;
        while (i < n && WS(s[i])) i++;
        uint32_t id;
        if (!enc_scan_id(data, n, &i, &id)) goto out;
        if (ne == cap) {
            size_t nc = cap ? 2 * cap : 1 << 16;
            uint32_t *nent = realloc(ent, nc * 2 * sizeof *nent);
            if (!nent) goto out;
            ent = nent;
            cap = nc;
        }
        ent[2 * ne] = id;
        ent[2 * ne + 1] = (uint32_t)(ul - start);
        ne++;
        if (id > max_id) max_id = id;
        while (i < n && WS(s[i])) i++;
        if (i == n) goto out;
        if (s[i] == ',') {
            i++;
            continue;
        }
        if (s[i++] != '}') goto out;
        break;
    }
    while (i < n && WS(s[i])) i++;
    if (i != n || ne == 0) goto out;
    if (!(seen = calloc((size_t)max_id / 8 + 1, 1))) goto out;
    for (size_t k = 0; k < ne; k++) { /* an id twice: load_encoder names the entry */
        uint32_t id = ent[2 * k];
        if (seen[id >> 3] >> (id & 7) & 1) goto out;
        seen[id >> 3] |= (uint8_t)(1u << (id & 7));
    }
    if ((rc = bpe_core_alloc(b, (size_t)max_id + 1, ne))) goto out; /* load_encoder's message too */
    rc = 1;
    for (size_t k = 0, at = 0; k < ne; k++) {
        uint32_t id = ent[2 * k], len = ent[2 * k + 1];
        const char *t = (const char *)ub + at;
        at += len;
        if (len == 13 && !memcmp(t, "<|endoftext|>", 13)) { /* only "<|endoftext|>" unmaps to these bytes */
            if (bpe_core_set_entry(b, id, t, len, 0, k + 1, "")) goto out;
            b->tok_flags[id] |= TOKFL_SPECIAL;
            b->eod = id;
        } else if (bpe_core_set_entry(b, id, t, len, 1, k + 1, "")) goto out;
    }
    rc = bpe_core_bytes(b);
    if (!rc) __atomic_add_fetch(&bpe_direct_taken, 1, __ATOMIC_RELAXED);
out:
    free(ub);
    free(ent);
    free(seen);
    return rc;
#undef WS
}

static int load_merges(bpe *b, const char *path)
{
    char *data = NULL;
    size_t dlen = 0;
    int rc = bpe_slurp(path, &data, &dlen);
    if (rc) return rc;
    size_t cap = 1 << 16, n = 0;
    pair_slot *tmp = malloc(cap * sizeof *tmp); /* in rank order, then hashed */
    if (!tmp) { free(data); return err_set(ERR_NOMEM, "out of memory loading %s", path); }
    /* The lines are taken MERGE_AHEAD ahead of their lookups: split, unmapped, and the
     * three slots they look up (left, right, merged) prefetched, since the token table is
     * megabytes and each lookup a cache miss otherwise; each line is then checked and
     * looked up in order, with the messages it always had. */
    enum { MERGE_AHEAD = 8 };
    struct {
        char *line;
        size_t len;
        uint64_t lineno;
        long ll, rl; /* unmapped lengths (-1: not in the alphabet); ll == -2: not "LEFT RIGHT" */
        char buf[1024];
    } q[MERGE_AHEAD];
    size_t pos = 0;
    uint64_t lineno = 0;
    int nq = 0, head = 0;
    unsigned long taken = 0; /* lines the one-pass split took (bpe_direct_taken, for the tests) */
    for (;;) {
        while (nq < MERGE_AHEAD && pos < dlen) {
            if (lineno > 0 && !bpe_encoder_direct_off) { /* not the first line, which may be "#version" */
                int k = (head + nq) % MERGE_AHEAD;
                long ll, rl;
                size_t len;
                if (merge_line_fast((const unsigned char *)data + pos, dlen - pos, q[k].buf, &ll, &rl, &len)) {
                    char *line = data + pos;
                    pos += len + (pos + len < dlen ? 1 : 0);
                    lineno++;
                    line[len] = 0;
                    nq++;
                    q[k].line = line;
                    q[k].len = len;
                    q[k].lineno = lineno;
                    q[k].ll = ll;
                    q[k].rl = rl;
                    bpe_prefetch_slot(b, q[k].buf, (size_t)ll);
                    bpe_prefetch_slot(b, q[k].buf + ll, (size_t)rl);
                    bpe_prefetch_slot(b, q[k].buf, (size_t)(ll + rl));
                    taken++;
                    continue;
                }
            }
            char *line = data + pos, *nl = memchr(line, '\n', dlen - pos);
            size_t len = nl ? (size_t)(nl - line) : dlen - pos;
            pos += len + (nl ? 1 : 0);
            lineno++;
            line[len] = 0; /* the newline, or the NUL after the data */
            if (len && line[len - 1] == '\r') line[--len] = 0;
            if (lineno == 1 && strncmp(line, "#version", 8) == 0) continue;
            if (len == 0) continue;
            int k = (head + nq++) % MERGE_AHEAD;
            q[k].line = line;
            q[k].len = len;
            q[k].lineno = lineno;
            char *sp = memchr(line, ' ', len);
            if (!sp || sp == line || sp + 1 == line + len || memchr(sp + 1, ' ', len - (size_t)(sp + 1 - line)) ||
                len >= sizeof q[k].buf) {
                q[k].ll = -2;
                continue;
            }
            long ll = bpe_unmap(line, (size_t)(sp - line), q[k].buf);
            long rl = ll < 0 ? -1 : bpe_unmap(sp + 1, len - (size_t)(sp + 1 - line), q[k].buf + ll);
            q[k].ll = ll;
            q[k].rl = rl;
            if (ll > 0) bpe_prefetch_slot(b, q[k].buf, (size_t)ll);
            if (rl > 0) {
                bpe_prefetch_slot(b, q[k].buf + ll, (size_t)rl);
                bpe_prefetch_slot(b, q[k].buf, (size_t)(ll + rl));
            }
        }
        if (!nq) break;
        int k = head;
        head = (head + 1) % MERGE_AHEAD;
        nq--;
        if (q[k].ll == -2) {
            rc = err_set(ERR_FORMAT, "%s:%llu: not a merge \"LEFT RIGHT\"", path, (unsigned long long)q[k].lineno);
            break;
        }
        long ll = q[k].ll, rl = q[k].rl;
        const char *buf = q[k].buf;
        int64_t lid = ll > 0 ? bpe_lookup(b, buf, (size_t)ll) : -1;
        int64_t rid = rl > 0 ? bpe_lookup(b, buf + ll, (size_t)rl) : -1;
        int64_t mid = (lid >= 0 && rid >= 0) ? bpe_lookup(b, buf, (size_t)(ll + rl)) : -1;
        if (mid < 0) {
            rc = err_set(ERR_FORMAT, "%s:%llu: merge \"%s\": %s is not in the vocabulary", path,
                         (unsigned long long)q[k].lineno, q[k].line,
                         lid < 0 ? "the left part" : rid < 0 ? "the right part" : "the merged token");
            break;
        }
        if (n == cap) {
            pair_slot *nt = realloc(tmp, cap * 2 * sizeof *tmp);
            if (!nt) { rc = err_set(ERR_NOMEM, "out of memory loading %s", path); break; }
            tmp = nt;
            cap *= 2;
        }
        tmp[n].key = ((uint64_t)lid << 32) | (uint64_t)rid;
        tmp[n].rank = (uint32_t)n;
        tmp[n].merged = (uint32_t)mid;
        n++;
    }
    free(data);
    __atomic_add_fetch(&bpe_direct_taken, taken, __ATOMIC_RELAXED);
    if (rc) { free(tmp); return rc; }
    rc = bpe_core_pairs(b, tmp, n);
    free(tmp);
    return rc;
}

int bpe_load(bpe **out, const char *encoder_json, const char *vocab_bpe)
{
    bpe *b = bpe_new(TOKF_GPT2, "GPT2BPETokenizer", encoder_json);
    if (!b) return err_set(ERR_NOMEM, "out of memory");
    b->whole_first = 1;
    char *data = NULL;
    size_t len = 0;
    int rc = bpe_slurp(encoder_json, &data, &len);
    if (rc) {
        bpe_free(b);
        return rc;
    }
    rc = bpe_encoder_direct_off ? 1 : encoder_direct(b, data, len);
    if (rc == 1 && !bpe_encoder_direct_off) { /* declined: a fresh start on the general path */
        bpe_free(b);
        if (!(b = bpe_new(TOKF_GPT2, "GPT2BPETokenizer", encoder_json))) {
            free(data);
            return err_set(ERR_NOMEM, "out of memory");
        }
        b->whole_first = 1;
    }
    if (rc == 1) rc = load_encoder(b, encoder_json, data, len); /* frees data */
    else free(data);
    if (!rc) rc = load_merges(b, vocab_bpe);
    if (rc) { bpe_free(b); return rc; }
    b->vocab_size = b->n_entries;
    *out = b;
    return 0;
}


/* bpe.c - see bpe.h. */
#include "bpe.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bigmem.h"
#include "common/err.h"
#include "common/jsonl.h"
#include "common/jsonscan.h"
#include "common/hash.h"
#include "common/io.h"
#include "common/utf8.h"
#include "pretok.h"
#include "bpe_int.h"

/* bpe_encode_piece's return when bpe_count_at_least's count is reached (every caller
 * passes a non-zero return up unchanged, so the encoding ends there) */
#define BPE_STOPPED 1
#include <utf8proc.h>

#define NO_RANK UINT32_MAX
#define SHORT_PIECE 96 /* bytes; longer pieces use the heap */

typedef struct {
    uint32_t rank;
    uint32_t pos;
} heap_ent;

/* ---- bytes_to_unicode ---------------------------------------------------- */

static uint32_t b2u[256];
static int16_t u2b[512];
static int b2u_ready;

static void b2u_init(void)
{
    if (__atomic_load_n(&b2u_ready, __ATOMIC_ACQUIRE)) return;
    uint32_t t[256];
    int16_t inv[512];
    for (int i = 0; i < 512; i++) inv[i] = -1;
    int n = 0;
    for (unsigned b = 0; b < 256; b++) {
        int printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        t[b] = printable ? b : 256 + (uint32_t)n++;
    }
    for (unsigned b = 0; b < 256; b++) inv[t[b]] = (int16_t)b;
    memcpy(b2u, t, sizeof t);
    memcpy(u2b, inv, sizeof inv);
    __atomic_store_n(&b2u_ready, 1, __ATOMIC_RELEASE);
}

uint32_t bpe_byte_to_cp(unsigned b)
{
    b2u_init();
    return b2u[b & 0xFF];
}

int bpe_cp_to_byte(uint32_t cp)
{
    b2u_init();
    return cp < 512 ? u2b[cp] : -1;
}

/* Two bytes that are UTF-8 of U+0080..U+01FF (where the rest of the alphabet lies), and
 * the byte their character stands for (-1: not in the alphabet). */
static inline int unmap_two_ok(unsigned c0, unsigned c1) { return c0 >= 0xC2 && c0 <= 0xC7 && (c1 & 0xC0) == 0x80; }
static inline int unmap_two(unsigned c0, unsigned c1) { return u2b[((c0 & 0x1Fu) << 6) | (c1 & 0x3Fu)]; }

/* Convert a vocabulary string (bytes_to_unicode alphabet) to bytes, in place
 * into out (at most strlen(s) bytes). Returns length or -1. */
long bpe_unmap(const char *s, size_t n, char *out)
{
    size_t i = 0, o = 0;
    b2u_init();
    while (i < n) {
        unsigned char ch = (unsigned char)s[i];
        if (ch >= '!' && ch <= '~') { /* printable ASCII stands for itself */
            out[o++] = (char)ch;
            i++;
            continue;
        }
        if (i + 1 < n && unmap_two_ok(ch, (unsigned char)s[i + 1])) {
            /* U+0080..U+01FF: the rest of the alphabet, two bytes */
            int byte = unmap_two(ch, (unsigned char)s[i + 1]);
            if (byte < 0) return -1;
            out[o++] = (char)byte;
            i += 2;
            continue;
        }
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k < 0) return -1;
        int byte = cp < 512 ? u2b[cp] : -1;
        if (byte < 0) return -1;
        out[o++] = (char)byte;
        i += (size_t)k;
    }
    return (long)o;
}

/* ---- hash tables --------------------------------------------------------- */

int64_t bpe_lookup(const bpe *b, const char *s, size_t n) { return bpe_lookup_fast(b, s, n); }

static inline const pair_slot *pair_get(const bpe *b, uint32_t l, uint32_t r)
{
    uint64_t key = ((uint64_t)l << 32) | r;
    size_t i = (size_t)hash_mix64(key) & b->pair_mask;
    for (;;) {
        const pair_slot *p = &b->pairs[i];
        if (p->key == key) return p;
        if (p->key == UINT64_MAX) return NULL;
        i = (i + 1) & b->pair_mask;
    }
}

static size_t pow2_at_least(size_t n)
{
    size_t s = 16;
    while (s < n) s <<= 1;
    return s;
}

/* ---- the core's tables --------------------------------------------------- */

int bpe_slurp(const char *path, char **data, size_t *len)
{
    io_reader *r;
    int rc = io_reader_open(&r, path);
    if (rc) return rc;
    size_t cap = 1 << 20, n = 0;
    struct stat st; /* a plain file's size: read in one buffer, not grown (a compressed one may grow it) */
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size + 1 > cap && (uint64_t)st.st_size < ((uint64_t)1 << 34))
        cap = (size_t)st.st_size + 1;
    char *buf = malloc(cap + 1);
    if (!buf) { io_reader_close(r); return err_set(ERR_NOMEM, "out of memory reading %s", path); }
    for (;;) {
        if (n == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) { free(buf); io_reader_close(r); return err_set(ERR_NOMEM, "out of memory reading %s", path); }
            buf = nb;
            cap *= 2;
        }
        ssize_t got = io_read(r, buf + n, cap - n);
        if (got < 0) { free(buf); io_reader_close(r); return (int)got; }
        if (got == 0) break;
        n += (size_t)got;
    }
    io_reader_close(r);
    buf[n] = 0;
    *data = buf;
    *len = n;
    return 0;
}

int bpe_buf_reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 4096;
    while (nc < need) {
        if (nc > SIZE_MAX / 2) return err_set(ERR_NOMEM, "out of memory");
        nc *= 2;
    }
    char *nb = realloc(*buf, nc);
    if (!nb) return err_set(ERR_NOMEM, "out of memory");
    *buf = nb;
    *cap = nc;
    return 0;
}

bpe *bpe_new(int family, const char *type, const char *file)
{
    b2u_init();
    (void)pretok_class(0); /* build the class table now, not in a worker */
    bpe *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->family = family;
    snprintf(b->type, sizeof b->type, "%s", type ? type : "");
    snprintf(b->file, sizeof b->file, "%s", file ? file : "");
    b->eod = b->bos = -1;
    return b;
}

void bpe_free(bpe *b)
{
    if (!b) return;
    free(b->tok_off);
    free(b->tok_len);
    free(b->tok_flags);
    free(b->arena);
    free(b->tok_slots);
    free(b->pair_id);
    free(b->pairs);
    for (int i = 0; i < b->n_re; i++) pcre2_code_free(b->re[i]), free(b->re_src[i]);
    for (size_t i = 0; i < b->n_sp; i++) free(b->sp[i].s);
    free(b->sp);
    if (b->fam && b->fam->free_model) b->fam->free_model(b);
    free(b);
}

int bpe_core_alloc(bpe *b, size_t n_ids, size_t n_tokens)
{
    if (n_ids == 0 || n_ids > ((size_t)1 << 31))
        return err_set(ERR_FORMAT, "%s: %zu token ids (at most 2^31 are supported)", b->file, n_ids);
    if (n_ids > 2 * n_tokens + ((size_t)1 << 20)) /* a small file naming id 2^30 would otherwise cost gigabytes */
        return err_set(ERR_FORMAT, "%s: ids up to %zu for %zu tokens: ids this sparse are refused", b->file, n_ids - 1,
                       n_tokens);
    b->n_ids = n_ids;
    b->tok_off = malloc(n_ids * sizeof *b->tok_off);
    b->tok_len = calloc(n_ids, sizeof *b->tok_len);
    b->tok_flags = calloc(n_ids, 1);
    b->tok_mask = pow2_at_least(n_tokens * 2 + 2) - 1;
    b->tok_slots = big_alloc((b->tok_mask + 1) * sizeof *b->tok_slots, 1);
    if (!b->tok_off || !b->tok_len || !b->tok_flags || !b->tok_slots)
        return err_set(ERR_NOMEM, "out of memory loading %s", b->file);
    for (size_t i = 0; i < n_ids; i++) b->tok_off[i] = UINT64_MAX;
    return 0;
}

/* what: the entry's name in messages; NULL: "line L (rank R)", written only
 * when there is a message (the tiktoken loader sets 200,000 tokens). */
static int core_set(bpe *b, uint32_t id, const char *s, size_t n, int hashed, const char *what, size_t line,
                    uint32_t rank, const char *entry)
{
    char at[160];
#define WHAT                                                                                                   \
    (what    ? what                                                                                            \
     : entry ? (snprintf(at, sizeof at, "entry %zu (\"%.100s\")", line, entry), at)                          \
             : (snprintf(at, sizeof at, "line %zu (rank %u)", line, rank), at))
    if (id >= b->n_ids) return err_set(ERR_FORMAT, "%s: %s: id %u is out of range", b->file, WHAT, id);
    if (b->tok_off[id] != UINT64_MAX) return err_set(ERR_FORMAT, "%s: %s: id %u used twice", b->file, WHAT, id);
    if (n > UINT32_MAX) return err_set(ERR_FORMAT, "%s: %s: token too long", b->file, WHAT);
    uint64_t hh = 0, key = 0;
    if (hashed) {
        if (n == 0) return err_set(ERR_FORMAT, "%s: %s: empty token", b->file, WHAT);
        if (bpe_lookup_fast(b, s, n) >= 0)
            return err_set(ERR_FORMAT, "%s: %s: the same bytes as another token", b->file, WHAT);
        hh = tok_hash(s, n, &key);
    }
#undef WHAT
    int rc = bpe_buf_reserve(&b->arena, &b->arena_cap, b->arena_len + n + 1);
    if (rc) return rc;
    memcpy(b->arena + b->arena_len, s, n);
    b->tok_off[id] = b->arena_len;
    b->tok_len[id] = (uint32_t)n;
    b->arena_len += n;
    b->n_entries++;
    if (hashed) {
        if (b->n_entries * 2 > b->tok_mask) return err_set(ERR_FORMAT, "%s: more tokens than announced", b->file);
        size_t h = (size_t)hh & b->tok_mask;
        while (b->tok_slots[h].id1) h = (h + 1) & b->tok_mask;
        b->tok_slots[h] = (tok_slot){key, id + 1, (uint32_t)n};
    }
    return 0;
}

int bpe_core_set(bpe *b, uint32_t id, const char *s, size_t n, int hashed, const char *what)
{
    return core_set(b, id, s, n, hashed, what, 0, 0, NULL);
}

int bpe_core_set_line(bpe *b, uint32_t id, const char *s, size_t n, size_t line, uint32_t rank)
{
    return core_set(b, id, s, n, 1, NULL, line, rank, NULL);
}

/* encoder.json's entry number k, named "entry K ("KEY")" in messages. */
static int core_set_entry(bpe *b, uint32_t id, const char *s, size_t n, int hashed, size_t k, const char *key)
{
    return core_set(b, id, s, n, hashed, NULL, k, 0, key);
}

int bpe_core_bytes(bpe *b)
{
    for (unsigned c = 0; c < 256; c++) {
        char ch = (char)c;
        int64_t id = bpe_lookup(b, &ch, 1);
        if (id < 0)
            return err_set(ERR_FORMAT, "%s: no token for byte 0x%02X: not a byte-level vocabulary", b->file, c);
        b->byte_id[c] = (uint32_t)id;
    }
    if (b->family == TOKF_TIKTOKEN && !b->pair_id) { /* merges start from pairs of bytes: a direct table */
        if (!(b->pair_id = calloc(65536, sizeof *b->pair_id))) return err_set(ERR_NOMEM, "out of memory loading %s", b->file);
        for (unsigned v = 0; v < 65536; v++) {
            char two[2] = {(char)(v & 0xFF), (char)(v >> 8)};
            int64_t id = bpe_lookup_fast(b, two, 2);
            b->pair_id[v] = id < 0 ? 0 : (uint32_t)id + 1;
        }
    }
    return 0;
}

int bpe_core_pairs(bpe *b, const pair_slot *tmp, size_t n)
{
    b->n_merges = n;
    b->pair_mask = pow2_at_least(n * 2 + 2) - 1;
    b->pairs = big_alloc((b->pair_mask + 1) * sizeof *b->pairs, 0);
    if (!b->pairs) return err_set(ERR_NOMEM, "out of memory loading %s", b->file);
    for (size_t i = 0; i <= b->pair_mask; i++) b->pairs[i].key = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t h = (size_t)hash_mix64(tmp[i].key) & b->pair_mask;
        while (b->pairs[h].key != UINT64_MAX && b->pairs[h].key != tmp[i].key) h = (h + 1) & b->pair_mask;
        if (b->pairs[h].key == tmp[i].key) {
            if (tmp[i].rank < b->pairs[h].rank) b->pairs[h] = tmp[i]; /* a repeated pair: the lowest rank wins */
            continue;
        }
        b->pairs[h] = tmp[i];
    }
    return 0;
}

int bpe_core_pairs_from_ranks(bpe *b, const uint32_t *rank_of)
{
    size_t cap = 1 << 16, n = 0;
    pair_slot *tmp = malloc(cap * sizeof *tmp);
    if (!tmp) return err_set(ERR_NOMEM, "out of memory loading %s", b->file);
    for (size_t id = 0; id < b->n_ids; id++) {
        if (rank_of[id] == UINT32_MAX || b->tok_off[id] == UINT64_MAX) continue;
        const char *t = b->arena + b->tok_off[id];
        size_t len = b->tok_len[id];
        for (size_t k = 1; k < len; k++) {
            int64_t l = bpe_lookup(b, t, k), r = l >= 0 ? bpe_lookup(b, t + k, len - k) : -1;
            if (l < 0 || r < 0) continue;
            if (n == cap) {
                pair_slot *nt = realloc(tmp, cap * 2 * sizeof *tmp);
                if (!nt) { free(tmp); return err_set(ERR_NOMEM, "out of memory loading %s", b->file); }
                tmp = nt;
                cap *= 2;
            }
            tmp[n++] = (pair_slot){((uint64_t)l << 32) | (uint64_t)r, rank_of[id], (uint32_t)id};
        }
    }
    int rc = bpe_core_pairs(b, tmp, n);
    free(tmp);
    return rc;
}

/* \s and \S as Unicode White_Space (the Rust regex crate behind tiktoken and
 * Oniguruma behind tokenizers agree on it; PCRE2 10.42 also counts U+180E). */
#define WS_CLASS "\\t-\\r\\x{20}\\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}"

int bpe_add_regex(bpe *b, const char *pat, const char *what)
{
    if (b->n_re == BPE_MAX_RE) return err_set(ERR_FORMAT, "%s: %s: more than %d split patterns", b->file, what, BPE_MAX_RE);
    size_t n = strlen(pat);
    char *out = malloc(n * 40 + 1);
    if (!out) return err_set(ERR_NOMEM, "out of memory");
    size_t o = 0;
    int in_class = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = pat[i];
        if (ch == '\\' && i + 1 < n) {
            char nx = pat[i + 1];
            if (nx == 's' || nx == 'S') {
                const char *cls = WS_CLASS;
                if (in_class && nx == 's') o += (size_t)sprintf(out + o, "%s", cls);
                else if (!in_class) o += (size_t)sprintf(out + o, nx == 's' ? "[%s]" : "[^%s]", cls);
                else { memcpy(out + o, pat + i, 2); o += 2; } /* \S inside a class: left as PCRE2's */
                i++;
                continue;
            }
            out[o++] = ch;
            out[o++] = nx;
            i++;
            continue;
        }
        if (!in_class && ch == '[') {
            in_class = 1;
            out[o++] = ch;
            if (i + 1 < n && pat[i + 1] == '^') out[o++] = pat[++i];
            if (i + 1 < n && pat[i + 1] == ']') out[o++] = pat[++i];
            continue;
        }
        if (in_class && ch == ']') in_class = 0;
        out[o++] = ch;
    }
    out[o] = 0;
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)out, o, PCRE2_UTF | PCRE2_UCP | b->re_flags, &ec, &eo, NULL);
    free(out);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(ec, msg, sizeof msg);
        return err_set(ERR_FORMAT, "%s: %s: PCRE2 cannot compile the pattern: %s", b->file, what, (const char *)msg);
    }
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* falls back to the interpreter when JIT is unavailable */
    b->re_src[b->n_re] = strdup(pat);
    b->re_fast[b->n_re] = !strcmp(pat, PRETOK_DS_PAT1) ? 1 : !strcmp(pat, PRETOK_DS_PAT2) ? 2 : !strcmp(pat, PRETOK_DS_PAT3) ? 3 : 0;
    b->re[b->n_re++] = re;
    b->pre = PRE_REGEX;
    return 0;
}

int bpe_add_special(bpe *b, const char *s, size_t n, uint32_t id, int lstrip, int rstrip)
{
    if (n == 0) return 0;
    special_tok *ns = realloc(b->sp, (b->n_sp + 1) * sizeof *ns);
    if (!ns) return err_set(ERR_NOMEM, "out of memory");
    b->sp = ns;
    char *c = malloc(n + 1);
    if (!c) return err_set(ERR_NOMEM, "out of memory");
    memcpy(c, s, n);
    c[n] = 0;
    b->sp[b->n_sp++] = (special_tok){c, n, id, lstrip, rstrip};
    b->sp_first[(unsigned char)s[0]] = 1;
    return 0;
}

static int sp_cmp(const void *a, const void *b)
{
    const special_tok *x = a, *y = b;
    return x->n < y->n ? 1 : x->n > y->n ? -1 : memcmp(x->s, y->s, x->n);
}

void bpe_sort_specials(bpe *b)
{
    if (b->n_sp) qsort(b->sp, b->n_sp, sizeof *b->sp, sp_cmp);
}

/* ---- GPT-2's files ------------------------------------------------------- */

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
            if ((rc = core_set_entry(b, id, s, sl, 0, k + 1, s))) break;
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
        if ((rc = core_set_entry(b, id, buf, (size_t)bl, 1, k + 1, s))) break;
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
        } else if (i + 1 < avail && unmap_two_ok(c, p[i + 1])) {
            int byte = unmap_two(c, p[i + 1]);
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
                if (c != 'u' || i + 6 > n || !jsonscan_hex4(s + i + 2, &v) || v >= 512 || u2b[v] < 0) goto out;
                ub[ul++] = (unsigned char)u2b[v];
                i += 6;
            } else if (i + 1 < n && unmap_two_ok(c, s[i + 1])) {
                int byte = unmap_two(c, s[i + 1]);
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
            if (core_set_entry(b, id, t, len, 0, k + 1, "")) goto out;
            b->tok_flags[id] |= TOKFL_SPECIAL;
            b->eod = id;
        } else if (core_set_entry(b, id, t, len, 1, k + 1, "")) goto out;
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

size_t bpe_vocab_size(const bpe *b) { return b->vocab_size; }
size_t bpe_n_ids(const bpe *b) { return b->n_ids; }
size_t bpe_n_merges(const bpe *b) { return b->n_merges; }
int64_t bpe_eod(const bpe *b) { return b->eod; }
int64_t bpe_bos(const bpe *b) { return b->bos; }
const char *bpe_type(const bpe *b) { return b->type; }
const char *bpe_file(const bpe *b) { return b->file; }
int bpe_lossless(const bpe *b) { return b->family != TOKF_SPM && b->family != TOKF_NULL && !b->nfc; }

const char *bpe_token_bytes(const bpe *b, uint32_t id, size_t *len)
{
    if (id >= b->n_ids || b->tok_off[id] == UINT64_MAX) return NULL;
    *len = b->tok_len[id];
    return b->arena + b->tok_off[id];
}

int bpe_token_is_special(const bpe *b, uint32_t id)
{
    return id < b->n_ids && (b->tok_flags[id] & (TOKFL_SPECIAL | TOKFL_CONTROL));
}

/* ---- encoding ------------------------------------------------------------ */

int bpe_ids_push(bpe_ids *o, uint32_t id)
{
    if (o->n == o->cap) {
        size_t nc = o->cap ? o->cap * 2 : 256;
        uint32_t *nv = realloc(o->v, nc * sizeof *nv);
        if (!nv) return err_set(ERR_NOMEM, "out of memory");
        o->v = nv;
        o->cap = nc;
    }
    o->v[o->n++] = id;
    return 0;
}

int bpe_ids_reserve(bpe_ids *o, size_t extra)
{
    if (o->n + extra <= o->cap) return 0;
    size_t nc = o->cap ? o->cap : 256;
    while (nc < o->n + extra) nc *= 2;
    uint32_t *nv = realloc(o->v, nc * sizeof *nv);
    if (!nv) return err_set(ERR_NOMEM, "out of memory");
    o->v = nv;
    o->cap = nc;
    return 0;
}

void bpe_ids_free(bpe_ids *o)
{
    free(o->v);
    o->v = NULL;
    o->n = o->cap = 0;
}

bpe_ctx *bpe_ctx_new(const bpe *b)
{
    bpe_ctx *c = calloc(1, sizeof *c);
    if (c) c->b = b;
    return c;
}

void bpe_ctx_free(bpe_ctx *c)
{
    if (!c) return;
    free(c->clean);
    free(c->sym);
    free(c->rk);
    free(c->mg);
    free(c->prev);
    free(c->next);
    free(c->heap);
    free(c->pcache);
    free(c->nfc);
    if (c->family_scratch && c->b->fam && c->b->fam->free_scratch) c->b->fam->free_scratch(c->family_scratch);
    if (c->md) pcre2_match_data_free(c->md);
    if (c->mctx) pcre2_match_context_free(c->mctx);
    if (c->jit) pcre2_jit_stack_free(c->jit);
    bpe_ids_free(&c->bound);
    free(c);
}

void bpe_ctx_force_heap(bpe_ctx *c, int on) { c->force_heap = on; }
void bpe_ctx_force_regex(bpe_ctx *c, int on) { c->force_regex = on; }
void bpe_ctx_cache_now(bpe_ctx *c) { c->pieces_seen = UINT64_MAX / 2; }

static int ctx_reserve(bpe_ctx *c, size_t n)
{
    if (n <= c->sym_cap) return 0;
    size_t nc = c->sym_cap ? c->sym_cap : 256;
    while (nc < n) nc *= 2;
    uint32_t **arrs[5] = {&c->sym, &c->rk, &c->mg, &c->prev, &c->next};
    for (int i = 0; i < 5; i++) {
        uint32_t *p = realloc(*arrs[i], nc * sizeof(uint32_t));
        if (!p) return err_set(ERR_NOMEM, "out of memory");
        *arrs[i] = p;
    }
    c->sym_cap = nc;
    return 0;
}

static inline void set_pair(const bpe *b, uint32_t l, uint32_t r, uint32_t *rank, uint32_t *merged)
{
    const pair_slot *p = pair_get(b, l, r);
    *rank = p ? p->rank : NO_RANK;
    *merged = p ? p->merged : 0;
}

/* Short pieces: arrays, scan for the leftmost lowest rank. */
static int merge_short(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    const bpe *b = c->b;
    uint32_t *sym = c->sym, *rk = c->rk, *mg = c->mg;
    size_t m = n;
    for (size_t i = 0; i < n; i++) sym[i] = b->byte_id[s[i]];
    for (size_t i = 0; i + 1 < m; i++) set_pair(b, sym[i], sym[i + 1], &rk[i], &mg[i]);
    while (m > 1) {
        size_t best = 0;
        uint32_t br = rk[0];
        for (size_t i = 1; i + 1 < m; i++)
            if (rk[i] < br) { br = rk[i]; best = i; }
        if (br == NO_RANK) break;
        sym[best] = mg[best];
        /* drop symbol best+1 and pair best+1 */
        memmove(sym + best + 1, sym + best + 2, (m - best - 2) * sizeof *sym);
        if (best + 2 < m) {
            memmove(rk + best + 1, rk + best + 2, (m - best - 3) * sizeof *rk);
            memmove(mg + best + 1, mg + best + 2, (m - best - 3) * sizeof *mg);
        }
        m--;
        if (best > 0) set_pair(b, sym[best - 1], sym[best], &rk[best - 1], &mg[best - 1]);
        if (best + 1 < m) set_pair(b, sym[best], sym[best + 1], &rk[best], &mg[best]);
    }
    int rc = bpe_ids_reserve(out, m);
    if (rc) return rc;
    memcpy(out->v + out->n, sym, m * sizeof *sym);
    out->n += m;
    return 0;
}

/* tiktoken's own rule for short pieces: a pair's rank is the rank of the
 * token its bytes make, looked up in the token table (a few MB that stay in
 * the cache) rather than in the pair table (tens of MB for a 128K vocabulary).
 * A symbol is s[pos[i], pos[i+1]); ids grow with ranks in every tiktoken
 * layout, so comparing ids compares ranks. */
static int merge_short_tiktoken(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    const bpe *b = c->b;
    /* symbol i (a start byte) spans s[i, nxt[i]); rk[i]: the rank of its pair with the next */
    uint32_t *sym = c->sym, *rk = c->rk, *nxt = c->mg;
    const char *t = (const char *)s;
    for (size_t i = 0; i < n; i++) {
        sym[i] = b->byte_id[s[i]];
        nxt[i] = (uint32_t)i + 1;
        rk[i] = i + 1 < n ? b->pair_id[s[i] | (unsigned)s[i + 1] << 8] - 1 : NO_RANK; /* none: NO_RANK */
    }
    for (;;) {
        uint32_t br = NO_RANK;
        size_t best = 0, bprev = n;
        for (size_t i = 0, prev = n; i < n; prev = i, i = nxt[i])
            if (rk[i] < br) { br = rk[i]; best = i; bprev = prev; }
        if (br == NO_RANK) break;
        sym[best] = br;
        nxt[best] = nxt[nxt[best]];
        size_t after = nxt[best]; /* the symbol after the merged one, or n */
        if (bprev != n) {
            int64_t id = bpe_lookup_fast(b, t + bprev, after - bprev);
            rk[bprev] = id < 0 ? NO_RANK : (uint32_t)id;
        }
        if (after < n) {
            int64_t id = bpe_lookup_fast(b, t + best, nxt[after] - best);
            rk[best] = id < 0 ? NO_RANK : (uint32_t)id;
        } else {
            rk[best] = NO_RANK;
        }
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i = nxt[i]) m++;
    int rc = bpe_ids_reserve(out, m);
    if (rc) return rc;
    for (size_t i = 0; i < n; i = nxt[i]) out->v[out->n++] = sym[i];
    return 0;
}

/* Min-heap on (rank, pos). */
static inline int heap_less(heap_ent a, heap_ent b) { return a.rank < b.rank || (a.rank == b.rank && a.pos < b.pos); }

static void heap_push(heap_ent *h, size_t *hn, heap_ent e)
{
    size_t i = (*hn)++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!heap_less(e, h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

static heap_ent heap_pop(heap_ent *h, size_t *hn)
{
    heap_ent top = h[0], e = h[--*hn];
    size_t n = *hn, i = 0;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n) break;
        size_t m = (l + 1 < n && heap_less(h[l + 1], h[l])) ? l + 1 : l;
        if (!heap_less(h[m], e)) break;
        h[i] = h[m];
        i = m;
    }
    if (n) h[i] = e;
    return top;
}

/* Long pieces: doubly linked symbols, lazy heap of candidate pairs. A heap
 * entry (rank, i) is current iff i is alive, has a right neighbour and that
 * pair's rank is still `rank` (a rank names one pair). */
static int merge_long(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    const bpe *b = c->b;
    uint32_t *sym = c->sym, *prev = c->prev, *next = c->next, *rk = c->rk;
    const uint32_t NONE = UINT32_MAX;
    if (c->heap_cap < n) {
        heap_ent *h = realloc(c->heap, n * sizeof *h);
        if (!h) return err_set(ERR_NOMEM, "out of memory");
        c->heap = h;
        c->heap_cap = n;
    }
    /* pushes never exceed live pairs + merges done <= 2n; grow lazily */
    size_t hn = 0;
    for (size_t i = 0; i < n; i++) {
        sym[i] = b->byte_id[s[i]];
        prev[i] = i ? (uint32_t)i - 1 : NONE;
        next[i] = i + 1 < n ? (uint32_t)i + 1 : NONE;
        rk[i] = 1; /* alive */
    }
    for (size_t i = 0; i + 1 < n; i++) {
        const pair_slot *p = pair_get(b, sym[i], sym[i + 1]);
        if (p) heap_push(c->heap, &hn, (heap_ent){p->rank, (uint32_t)i});
    }
    while (hn) {
        heap_ent e = heap_pop(c->heap, &hn);
        uint32_t i = e.pos;
        if (!rk[i] || next[i] == NONE) continue;
        uint32_t j = next[i];
        const pair_slot *p = pair_get(b, sym[i], sym[j]);
        if (!p || p->rank != e.rank) continue;
        sym[i] = p->merged;
        rk[j] = 0;
        next[i] = next[j];
        if (next[j] != NONE) prev[next[j]] = i;
        if (hn + 2 > c->heap_cap) {
            size_t nc = c->heap_cap * 2;
            heap_ent *h = realloc(c->heap, nc * sizeof *h);
            if (!h) return err_set(ERR_NOMEM, "out of memory");
            c->heap = h;
            c->heap_cap = nc;
        }
        if (prev[i] != NONE) {
            const pair_slot *q = pair_get(b, sym[prev[i]], sym[i]);
            if (q) heap_push(c->heap, &hn, (heap_ent){q->rank, prev[i]});
        }
        if (next[i] != NONE) {
            const pair_slot *q = pair_get(b, sym[i], sym[next[i]]);
            if (q) heap_push(c->heap, &hn, (heap_ent){q->rank, i});
        }
    }
    for (uint32_t i = 0; i != NONE; i = next[i]) {
        int rc = bpe_ids_push(out, sym[i]);
        if (rc) return rc;
    }
    return 0;
}

/* merge_long for tiktoken vocabularies: the heap over ranks looked up by the
 * bytes of each candidate pair, as merge_short_tiktoken (no pair table). */
static int merge_long_tiktoken(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    const bpe *b = c->b;
    uint32_t *sym = c->sym, *prev = c->prev, *next = c->next, *alive = c->rk, *pos = c->mg;
    const uint32_t NONE = UINT32_MAX;
    const char *t = (const char *)s;
    if (c->heap_cap < n) {
        heap_ent *h = realloc(c->heap, n * sizeof *h);
        if (!h) return err_set(ERR_NOMEM, "out of memory");
        c->heap = h;
        c->heap_cap = n;
    }
    size_t hn = 0;
    for (size_t i = 0; i < n; i++) {
        sym[i] = b->byte_id[s[i]];
        prev[i] = i ? (uint32_t)i - 1 : NONE;
        next[i] = i + 1 < n ? (uint32_t)i + 1 : NONE;
        alive[i] = 1;
        pos[i] = (uint32_t)i;
    }
#define SPAN_END(j) (next[j] == NONE ? (uint32_t)n : pos[next[j]])
    for (size_t i = 0; i + 1 < n; i++) {
        int64_t id = bpe_lookup(b, t + i, 2);
        if (id >= 0) heap_push(c->heap, &hn, (heap_ent){(uint32_t)id, (uint32_t)i});
    }
    while (hn) {
        heap_ent e = heap_pop(c->heap, &hn);
        uint32_t i = e.pos;
        if (!alive[i] || next[i] == NONE) continue;
        uint32_t j = next[i];
        int64_t id = bpe_lookup(b, t + pos[i], SPAN_END(j) - pos[i]);
        if (id < 0 || (uint32_t)id != e.rank) continue; /* a neighbour changed since */
        sym[i] = (uint32_t)id;
        alive[j] = 0;
        next[i] = next[j];
        if (next[j] != NONE) prev[next[j]] = i;
        if (hn + 2 > c->heap_cap) {
            size_t nc = c->heap_cap * 2;
            heap_ent *h = realloc(c->heap, nc * sizeof *h);
            if (!h) return err_set(ERR_NOMEM, "out of memory");
            c->heap = h;
            c->heap_cap = nc;
        }
        if (prev[i] != NONE) {
            int64_t q = bpe_lookup(b, t + pos[prev[i]], SPAN_END(i) - pos[prev[i]]);
            if (q >= 0) heap_push(c->heap, &hn, (heap_ent){(uint32_t)q, prev[i]});
        }
        if (next[i] != NONE) {
            int64_t q = bpe_lookup(b, t + pos[i], SPAN_END(next[i]) - pos[i]);
            if (q >= 0) heap_push(c->heap, &hn, (heap_ent){(uint32_t)q, i});
        }
    }
#undef SPAN_END
    for (uint32_t i = 0; i != NONE; i = next[i]) {
        int rc = bpe_ids_push(out, sym[i]);
        if (rc) return rc;
    }
    return 0;
}

static int encode_piece_uncached(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out);

int bpe_encode_piece(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    if (n == 0) return 0;
    if (c->stop_at && out->n >= c->stop_at) return BPE_STOPPED; /* bpe_count_at_least has its answer */
    const bpe *b = c->b;
    if (n == 1) return bpe_ids_push(out, b->byte_id[s[0]]);
    if (n > PCACHE_MAXLEN || c->force_heap || (!c->pcache && ++c->pieces_seen < PCACHE_AFTER))
        return encode_piece_uncached(c, s, n, out);
    if (!c->pcache) {
        if (!(c->pcache = calloc(PCACHE_SLOTS, sizeof *c->pcache))) return err_set(ERR_NOMEM, "out of memory");
        c->pcache_mask = PCACHE_SLOTS - 1;
    }
    uint64_t w[3];
    uint64_t h = piece_key(s, n, w);
    pcache_ent *e = &c->pcache[h & c->pcache_mask];
    if (e->len == n && e->w[0] == w[0] && e->w[1] == w[1] && e->w[2] == w[2]) {
        if (out->cap - out->n < PCACHE_MAXIDS) {
            int rc = bpe_ids_reserve(out, PCACHE_MAXIDS);
            if (rc) return rc;
        }
        memcpy(out->v + out->n, e->ids, sizeof e->ids); /* all six: a fixed-size copy */
        out->n += e->nids;
        return 0;
    }
    size_t before = out->n;
    int rc = encode_piece_uncached(c, s, n, out);
    if (rc || out->n - before > PCACHE_MAXIDS) return rc;
    memcpy(e->w, w, sizeof w);
    e->len = (uint8_t)n;
    e->nids = (uint8_t)(out->n - before);
    memcpy(e->ids, out->v + before, e->nids * sizeof *e->ids);
    return 0;
}

static int encode_piece_uncached(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    const bpe *b = c->b;
    if (b->whole_first) {
        int64_t whole = bpe_lookup_fast(b, (const char *)s, n);
        if (whole >= 0) return bpe_ids_push(out, (uint32_t)whole);
    }
    int rc = ctx_reserve(c, n + 1);
    if (rc) return rc;
    if (n <= SHORT_PIECE && !c->force_heap)
        return b->family == TOKF_TIKTOKEN ? merge_short_tiktoken(c, s, n, out) : merge_short(c, s, n, out);
    return b->family == TOKF_TIKTOKEN ? merge_long_tiktoken(c, s, n, out) : merge_long(c, s, n, out);
}

/* The split loop of the hand-written splitters: pretok_fast's common pieces
 * and the cache's hits inline, with the output's length in a register; the
 * rest through the full splitter (slow) and bpe_encode_piece. One copy per
 * pattern (mode and slow are constants where it is called). */
static int encode_piece_uncached(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out);
typedef size_t (*slow_split_fn)(const bpe *b, const unsigned char *s, size_t n, size_t i);

static inline __attribute__((always_inline)) int split_loop(bpe_ctx *c, const unsigned char *s, size_t n,
                                                            bpe_ids *out, int mode, int max_digits, slow_split_fn slow)
{
    const bpe *b = c->b;
    const pcache_ent *cache = c->force_heap ? NULL : c->pcache;
    size_t stop = c->stop_at ? c->stop_at : SIZE_MAX; /* bpe_count_at_least's */
    uint32_t *v = out->v;
    size_t on = out->n, room = out->cap - out->n, i = 0;
    while (i < n) {
        if (on >= stop) {
            out->n = on;
            return BPE_STOPPED;
        }
        size_t j = pretok_fast(s, n, i, mode, max_digits);
        if (!j) j = slow(b, s, n, i);
        size_t len = j - i;
        if (room >= PCACHE_MAXIDS) {
            if (len == 1) {
                v[on++] = b->byte_id[s[i]];
                room--;
                i = j;
                continue;
            }
            if (cache && len <= PCACHE_MAXLEN) {
                uint64_t w[3];
                pcache_ent *e = &c->pcache[piece_key(s + i, len, w) & c->pcache_mask];
                if (e->len == len && e->w[0] == w[0] && e->w[1] == w[1] && e->w[2] == w[2]) {
                    memcpy(v + on, e->ids, sizeof e->ids); /* all six: a fixed-size copy */
                    on += e->nids;
                    room -= e->nids;
                    i = j;
                    continue;
                }
                /* a miss: encoded here and kept in the slot it missed (bpe_encode_piece's work, without its
                 * second probe) */
                out->n = on;
                int rc = encode_piece_uncached(c, s + i, len, out);
                if (rc) return rc;
                size_t got = out->n - on;
                if (got <= PCACHE_MAXIDS) {
                    memcpy(e->w, w, sizeof w);
                    e->len = (uint8_t)len;
                    e->nids = (uint8_t)got;
                    memcpy(e->ids, out->v + on, got * sizeof *e->ids);
                }
                v = out->v;
                on = out->n;
                room = out->cap - out->n;
                i = j;
                continue;
            }
        }
        out->n = on;
        int rc = bpe_encode_piece(c, s + i, len, out);
        if (rc) return rc;
        v = out->v;
        on = out->n;
        room = out->cap - out->n;
        if (!cache && !c->force_heap) cache = c->pcache; /* made after the first pieces */
        i = j;
    }
    out->n = on;
    return 0;
}

static size_t slow_gpt2(const bpe *b, const unsigned char *s, size_t n, size_t i) { (void)b; return pretok_next(s, n, i); }
static size_t slow_llama3(const bpe *b, const unsigned char *s, size_t n, size_t i)
{
    return pretok_tiktoken_next(s, n, i, b->fast_digits, b->fast_cl100k);
}
static size_t slow_o200k(const bpe *b, const unsigned char *s, size_t n, size_t i) { (void)b; return pretok_o200k_next(s, n, i); }

static int gpt2_split(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    return split_loop(c, s, n, out, PRETOK_FAST_GPT2, 0, slow_gpt2);
}

static int leaf_piece(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    return c->b->byte_level_regex ? gpt2_split(c, s, n, out) : bpe_encode_piece(c, s, n, out);
}

static int ctx_regex(bpe_ctx *c)
{
    if (c->md) return 0;
    c->md = pcre2_match_data_create(1, NULL);
    c->jit = pcre2_jit_stack_create(32 * 1024, 8 * 1024 * 1024, NULL);
    c->mctx = pcre2_match_context_create(NULL);
    if (!c->md || !c->jit || !c->mctx) return err_set(ERR_NOMEM, "out of memory");
    pcre2_jit_stack_assign(c->mctx, NULL, c->jit);
    return 0;
}

/* Pattern `level` of the split sequence over s[0..n): matches are pieces;
 * what lies between them is a piece too (HF Split, behavior Isolated) or
 * dropped (tiktoken's find_iter). The last level hands pieces to the BPE. */
static int regex_split(bpe_ctx *c, int level, const unsigned char *s, size_t n, bpe_ids *out)
{
    const bpe *b = c->b;
    if (level == b->n_re) return leaf_piece(c, s, n, out);
    int rc = ctx_regex(c);
    if (rc) return rc;
    size_t pos = 0, gap = 0;
    int fast = c->force_regex ? 0 : b->re_fast[level];
    while (pos < n) {
        if (fast) { /* a hand-written search, equal to PCRE2 on the pattern */
            size_t ms, me;
            if (!pretok_deepseek_search(fast, s, n, pos, &ms, &me)) break;
            if (ms > gap && b->keep_gaps && (rc = regex_split(c, level + 1, s + gap, ms - gap, out))) return rc;
            if ((rc = regex_split(c, level + 1, s + ms, me - ms, out))) return rc;
            pos = gap = me;
            continue;
        }
        int m = pcre2_match(b->re[level], s, n, pos, PCRE2_NO_UTF_CHECK, c->md, c->mctx);
        if (m == PCRE2_ERROR_NOMATCH) break;
        if (m < 0) {
            PCRE2_UCHAR msg[200];
            pcre2_get_error_message(m, msg, sizeof msg);
            return err_set(ERR_LIMIT, "%s: split pattern %d failed on a text: %s", b->file, level + 1, (const char *)msg);
        }
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(c->md);
        size_t ms = ov[0], me = ov[1];
        if (me == ms) { /* an empty match splits nothing: step over one character */
            pos = ms + 1;
            while (pos < n && (s[pos] & 0xC0) == 0x80) pos++;
            continue;
        }
        if (ms > gap && b->keep_gaps && (rc = regex_split(c, level + 1, s + gap, ms - gap, out))) return rc;
        if ((rc = regex_split(c, level + 1, s + ms, me - ms, out))) return rc;
        pos = gap = me;
    }
    if (n > gap && b->keep_gaps && (rc = regex_split(c, level + 1, s + gap, n - gap, out))) return rc;
    return 0;
}

static int tiktoken_split(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    const bpe *b = c->b;
    if (!b->fast_digits) return split_loop(c, s, n, out, PRETOK_FAST_O200K, 3, slow_o200k);
    if (b->fast_digits == 3) return split_loop(c, s, n, out, PRETOK_FAST_LLAMA3, 3, slow_llama3);
    return split_loop(c, s, n, out, PRETOK_FAST_LLAMA3, b->fast_digits, slow_llama3);
}

static int encode_segment(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    if (n == 0) return 0;
    switch (c->b->pre) {
    case PRE_GPT2: return gpt2_split(c, s, n, out);
    case PRE_TIKTOKEN: return c->force_regex ? regex_split(c, 0, s, n, out) : tiktoken_split(c, s, n, out);
    case PRE_REGEX: return regex_split(c, 0, s, n, out);
    default:
        if (c->b->fam && c->b->fam->encode) return c->b->fam->encode(c, (const char *)s, n, out);
        return err_set(ERR_INTERNAL, "%s: no pre-tokenizer and no family encoder", c->b->file);
    }
}

static inline int is_ws_at(const unsigned char *s, size_t n, size_t i, size_t *len)
{
    uint32_t cp;
    int k = utf8_decode(s + i, n - i, &cp);
    if (k < 0 || !utf8_is_white_space(cp)) return 0;
    *len = (size_t)k;
    return 1;
}

/* Split on the special tokens (leftmost, then longest), encoding the text
 * between them; lstrip/rstrip take the adjacent whitespace with the token. */
static int encode_specials(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    const bpe *b = c->b;
    size_t start = 0, i = 0;
    while (i < n) {
        if (!b->sp_first[s[i]]) { i++; continue; }
        const special_tok *hit = NULL;
        for (size_t k = 0; k < b->n_sp; k++)
            if (b->sp[k].n <= n - i && memcmp(b->sp[k].s, s + i, b->sp[k].n) == 0) { hit = &b->sp[k]; break; }
        if (!hit) { i++; continue; }
        size_t seg_end = i, after = i + hit->n, wl;
        if (hit->lstrip)
            while (seg_end > start) {
                size_t k = seg_end - 1;
                while (k > start && (s[k] & 0xC0) == 0x80) k--;
                if (!is_ws_at(s, n, k, &wl) || k + wl != seg_end) break;
                seg_end = k;
            }
        if (hit->rstrip)
            while (after < n && is_ws_at(s, n, after, &wl)) after += wl;
        int rc = encode_segment(c, s + start, seg_end - start, out);
        if (!rc) rc = bpe_ids_push(out, hit->id);
        if (rc) return rc;
        start = i = after;
    }
    return encode_segment(c, s + start, n - start, out);
}

static int null_encode(bpe_ctx *c, const char *s, size_t n, bpe_ids *out)
{
    /* Megatron's NullTokenizer: [int(x) for x in text.split(' ')] */
    const bpe *b = c->b;
    size_t i = 0, field = 0;
    for (;;) {
        size_t j = i;
        while (j < n && s[j] != ' ') j++;
        field++;
        size_t k = i;
        while (k < j && (s[k] == '\t' || s[k] == '\n' || s[k] == '\r')) k++; /* int() strips whitespace */
        size_t e = j;
        while (e > k && (s[e - 1] == '\t' || s[e - 1] == '\n' || s[e - 1] == '\r')) e--;
        uint64_t v = 0;
        int neg = 0;
        if (k < e && (s[k] == '+' || s[k] == '-')) neg = s[k++] == '-';
        if (k == e) return err_set(ERR_FORMAT, "token %zu: \"%.*s\" is not an integer id", field, (int)(j - i > 40 ? 40 : j - i), s + i);
        for (; k < e; k++) {
            if (s[k] < '0' || s[k] > '9' || v > UINT32_MAX)
                return err_set(ERR_FORMAT, "token %zu: \"%.*s\" is not an integer id", field, (int)(j - i > 40 ? 40 : j - i), s + i);
            v = v * 10 + (uint64_t)(s[k] - '0');
        }
        if (neg && v) return err_set(ERR_FORMAT, "token %zu: id -%llu is negative", field, (unsigned long long)v);
        if (v >= b->null_vocab)
            return err_set(ERR_FORMAT, "token %zu: id %llu is out of range (--vocab-size %u)", field,
                           (unsigned long long)v, b->null_vocab);
        int rc = bpe_ids_push(out, (uint32_t)v);
        if (rc) return rc;
        if (j >= n) break;
        i = j + 1;
    }
    return 0;
}

int bpe_encode(bpe_ctx *c, const char *text, size_t n, bpe_ids *out)
{
    const bpe *b = c->b;
    if (b->family == TOKF_NULL) return n ? null_encode(c, text, n, out) : 0;
    if (b->prepend_bos && b->bos >= 0) {
        int rc = bpe_ids_push(out, (uint32_t)b->bos);
        if (rc) return rc;
    }
    const unsigned char *s = (const unsigned char *)text;
    size_t v = utf8_valid_prefix(text, n);
    if (v < n) { /* as Python's bytes.decode("utf-8", "replace") before the library sees the text */
        if (n > (SIZE_MAX - 16) / 3) return err_set(ERR_NOMEM, "text too large");
        int rc = bpe_buf_reserve(&c->clean, &c->clean_cap, 3 * n + 1);
        if (rc) return rc;
        n = utf8_sanitize(text, n, c->clean);
        s = (const unsigned char *)c->clean;
    }
    if (b->nfc && n) {
        /* NFC never composes across a following ASCII character, nor changes
         * one: only the non-ASCII runs (with the ASCII character before each,
         * which may take a combining mark) go through utf8proc. */
        int rc = bpe_buf_reserve(&c->nfc, &c->nfc_cap, n + 1);
        if (rc) return rc;
        size_t o = 0, i = 0;
        while (i < n) {
            size_t a = i;
            while (i < n && s[i] < 0x80) i++;
            if (i == n) {
                memcpy(c->nfc + o, s + a, i - a), o += i - a;
                break;
            }
            size_t start = i > a ? i - 1 : i; /* the ASCII character before the run */
            memcpy(c->nfc + o, s + a, start - a), o += start - a;
            size_t q = i;
            while (q < n && s[q] >= 0x80) q++;
            utf8proc_uint8_t *m = NULL;
            utf8proc_ssize_t r = utf8proc_map((const utf8proc_uint8_t *)s + start, (utf8proc_ssize_t)(q - start), &m,
                                              UTF8PROC_STABLE | UTF8PROC_COMPOSE);
            if (r < 0) { free(m); return err_set(ERR_NOMEM, "NFC: %s", utf8proc_errmsg(r)); }
            if ((rc = bpe_buf_reserve(&c->nfc, &c->nfc_cap, o + (size_t)r + (n - q) + 1))) { free(m); return rc; }
            memcpy(c->nfc + o, m, (size_t)r), o += (size_t)r;
            free(m);
            i = q;
        }
        s = (const unsigned char *)c->nfc;
        n = o;
    }
    if (b->n_sp) return encode_specials(c, s, n, out);
    return encode_segment(c, s, n, out);
}

int bpe_decode(const bpe *b, const uint32_t *ids, size_t n, char **buf, size_t *len, size_t *cap)
{
    return bpe_decode_more(b, ids, n, 0, buf, len, cap);
}

int bpe_decode_more(const bpe *b, const uint32_t *ids, size_t n, int continuing, char **buf, size_t *len, size_t *cap)
{
    if (b->fam && b->fam->decode) return b->fam->decode(b, ids, n, continuing, buf, len, cap);
    for (size_t i = 0; i < n; i++) {
        size_t tl;
        const char *t;
        char num[16];
        if (b->family == TOKF_NULL) {
            if (ids[i] > b->null_vocab) return err_set(ERR_FORMAT, "token id %u is not in the vocabulary (%u ids)", ids[i], b->null_vocab + 1);
            tl = (size_t)snprintf(num, sizeof num, i || continuing ? " %u" : "%u", ids[i]);
            t = num;
        } else if (!(t = bpe_token_bytes(b, ids[i], &tl)))
            return err_set(ERR_FORMAT, "token id %u is not in the vocabulary (%zu ids)", ids[i], b->n_ids);
        int rc = bpe_buf_reserve(buf, cap, *len + tl + 1);
        if (rc) return rc;
        memcpy(*buf + *len, t, tl);
        *len += tl;
    }
    if (*buf) (*buf)[*len] = 0;
    return 0;
}

int bpe_count_at_least(bpe_ctx *c, const char *text, size_t n, size_t k, int *yes)
{
    *yes = 1;
    if (k == 0) return 0;
    const bpe *b = c->b;
    if (b->family == TOKF_GPT2 && b->pre == PRE_GPT2 && !b->n_sp && !b->nfc && utf8_valid_prefix(text, n) == n) {
        /* GPT-2's byte-level BPE gives every piece of the split one id or more, and no
         * id covers less than a byte: k pieces are k ids, fewer than k bytes fewer ids */
        if (n < k && !(b->prepend_bos && b->bos >= 0)) {
            *yes = 0;
            return 0;
        }
        const unsigned char *s = (const unsigned char *)text;
        size_t pieces = 0, i = 0;
        /* a text this short is likely to be encoded below: its pieces' slots in the piece
         * cache and the token table are asked for now, so that the misses overlap (the
         * table is megabytes; one miss after another otherwise) */
        const pcache_ent *pc = (n < 4 * k && !c->force_heap) ? c->pcache : NULL;
        while (i < n && pieces < k) {
            size_t j = pretok_fast(s, n, i, PRETOK_FAST_GPT2, 0);
            j = j ? j : pretok_next(s, n, i);
            if (pc && j - i > 1 && j - i <= PCACHE_MAXLEN) {
                uint64_t w[3], h = piece_key(s + i, j - i, w);
                __builtin_prefetch(&pc[h & c->pcache_mask]);
                __builtin_prefetch(&b->tok_slots[h & b->tok_mask]);
            }
            i = j;
            pieces++;
        }
        if (pieces >= k) return 0;
    }
    c->bound.n = 0;
    c->stop_at = k; /* the encoding stops at the first piece once k ids are out */
    int rc = bpe_encode(c, text, n, &c->bound);
    c->stop_at = 0;
    if (rc == BPE_STOPPED) return 0;
    *yes = c->bound.n >= k;
    return rc;
}

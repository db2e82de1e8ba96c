/* bpe.c - the BPE core's tables (bpe_int.h): GPT-2's bytes_to_unicode alphabet, the
 * vocabulary's hash table (bytes -> id) and the pair table ((left, right) -> rank, merged
 * id) that every family fills through bpe_core_*, the pre-tokeniser's patterns and the
 * special tokens, and the accessors of bpe.h. Encoding is encode.c; the families' files
 * are gpt2.c, tiktoken.c, hftok.c and spm.c. */
#include "tokenizer/bpe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bigmem.h"
#include "common/err.h"
#include "common/hash.h"
#include "common/io.h"
#include "common/utf8.h"
#include "tokenizer/bpe_int.h"
#include "tokenizer/pretok.h"



/* ---- bytes_to_unicode ---------------------------------------------------- */

static uint32_t b2u[256];
int16_t bpe_u2b[512];
static int b2u_ready;

void bpe_alphabet_init(void)
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
    memcpy(bpe_u2b, inv, sizeof inv);
    __atomic_store_n(&b2u_ready, 1, __ATOMIC_RELEASE);
}

uint32_t bpe_byte_to_cp(unsigned b)
{
    bpe_alphabet_init();
    return b2u[b & 0xFF];
}

int bpe_cp_to_byte(uint32_t cp)
{
    bpe_alphabet_init();
    return cp < 512 ? bpe_u2b[cp] : -1;
}


/* Convert a vocabulary string (bytes_to_unicode alphabet) to bytes, in place
 * into out (at most strlen(s) bytes). Returns length or -1. */
long bpe_unmap(const char *s, size_t n, char *out)
{
    size_t i = 0, o = 0;
    bpe_alphabet_init();
    while (i < n) {
        unsigned char ch = (unsigned char)s[i];
        if (ch >= '!' && ch <= '~') { /* printable ASCII stands for itself */
            out[o++] = (char)ch;
            i++;
            continue;
        }
        if (i + 1 < n && bpe_unmap_two_ok(ch, (unsigned char)s[i + 1])) {
            /* U+0080..U+01FF: the rest of the alphabet, two bytes */
            int byte = bpe_unmap_two(ch, (unsigned char)s[i + 1]);
            if (byte < 0) return -1;
            out[o++] = (char)byte;
            i += 2;
            continue;
        }
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k < 0) return -1;
        int byte = cp < 512 ? bpe_u2b[cp] : -1;
        if (byte < 0) return -1;
        out[o++] = (char)byte;
        i += (size_t)k;
    }
    return (long)o;
}

/* ---- hash tables --------------------------------------------------------- */

int64_t bpe_lookup(const bpe *b, const char *s, size_t n) { return bpe_lookup_fast(b, s, n); }

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
    bpe_alphabet_init();
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

int bpe_core_set_entry(bpe *b, uint32_t id, const char *s, size_t n, int hashed, size_t k, const char *key)
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


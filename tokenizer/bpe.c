/* bpe.c - see bpe.h. */
#include "bpe.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/jsonl.h"
#include "common/hash.h"
#include "common/io.h"
#include "common/utf8.h"
#include "pretok.h"

#define NO_RANK UINT32_MAX
#define SHORT_PIECE 96 /* bytes; longer pieces use the heap */

typedef struct {
    uint64_t key;    /* (left id << 32) | right id; UINT64_MAX = empty */
    uint32_t rank;
    uint32_t merged;
} pair_slot;

struct bpe {
    size_t n_ids;        /* max id + 1 */
    size_t n_entries;    /* entries in encoder.json */
    size_t n_merges;
    int64_t eod;
    uint64_t *tok_off;   /* [n_ids] offset into arena, UINT64_MAX if unused */
    uint32_t *tok_len;
    char *arena;
    size_t arena_len;
    uint32_t *tok_slots; /* bytes -> id+1, open addressing; 0 = empty */
    size_t tok_mask;
    pair_slot *pairs;
    size_t pair_mask;
    uint32_t byte_id[256];
};

typedef struct {
    uint32_t rank;
    uint32_t pos;
} heap_ent;

struct bpe_ctx {
    const bpe *b;
    char *clean;     /* sanitised copy of invalid input */
    size_t clean_cap;
    uint32_t *sym, *rk, *mg, *prev, *next;
    size_t sym_cap;
    heap_ent *heap;
    size_t heap_cap;
    int force_heap;
};

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

/* Convert a vocabulary string (bytes_to_unicode alphabet) to bytes, in place
 * into out (at most strlen(s) bytes). Returns length or -1. */
static long unmap_string(const char *s, size_t n, char *out)
{
    size_t i = 0, o = 0;
    while (i < n) {
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k < 0) return -1;
        int byte = bpe_cp_to_byte(cp);
        if (byte < 0) return -1;
        out[o++] = (char)byte;
        i += (size_t)k;
    }
    return (long)o;
}

/* ---- hash tables --------------------------------------------------------- */

static inline uint64_t tok_hash(const char *s, size_t n) { return hash64(s, n, 0x6270652d746f6bull); }

int64_t bpe_lookup(const bpe *b, const char *s, size_t n)
{
    size_t i = (size_t)tok_hash(s, n) & b->tok_mask;
    for (;;) {
        uint32_t v = b->tok_slots[i];
        if (!v) return -1;
        uint32_t id = v - 1;
        if (b->tok_len[id] == n && memcmp(b->arena + b->tok_off[id], s, n) == 0) return id;
        i = (i + 1) & b->tok_mask;
    }
}

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

/* ---- loading ------------------------------------------------------------- */

static int slurp(const char *path, char **data, size_t *len)
{
    io_reader *r;
    int rc = io_reader_open(&r, path);
    if (rc) return rc;
    size_t cap = 1 << 20, n = 0;
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

void bpe_free(bpe *b)
{
    if (!b) return;
    free(b->tok_off);
    free(b->tok_len);
    free(b->arena);
    free(b->tok_slots);
    free(b->pairs);
    free(b);
}

static int load_encoder(bpe *b, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    int rc = slurp(path, &data, &len);
    if (rc) return rc;
    const char *end = NULL;
    int nomem;
    cJSON *root = json_parse(data, len, &end, &nomem);
    if (nomem) {
        free(data);
        return err_set(ERR_NOMEM, "%s: out of memory parsing it", path);
    }
    if (!root || !cJSON_IsObject(root)) {
        long off = end ? (long)(end - data) : -1;
        cJSON_Delete(root);
        free(data);
        return err_set(ERR_FORMAT, "%s: not a JSON object of token -> id (parse error near byte %ld)", path, off);
    }
    free(data);
    size_t n = 0, bytes = 0;
    int64_t max_id = -1;
    for (cJSON *it = root->child; it; it = it->next) {
        if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble > 16777216.0 ||
            it->valuedouble != (double)(int64_t)it->valuedouble) {
            cJSON_Delete(root);
            return err_set(ERR_FORMAT, "%s: entry %zu (\"%s\"): id is not an integer in [0, 2^24]", path, n + 1,
                           it->string ? it->string : "");
        }
        if ((int64_t)it->valuedouble > max_id) max_id = (int64_t)it->valuedouble;
        bytes += strlen(it->string);
        n++;
    }
    if (n == 0) { cJSON_Delete(root); return err_set(ERR_FORMAT, "%s: empty vocabulary", path); }
    b->n_entries = n;
    b->n_ids = (size_t)max_id + 1;
    b->tok_off = malloc(b->n_ids * sizeof *b->tok_off);
    b->tok_len = calloc(b->n_ids, sizeof *b->tok_len);
    b->arena = malloc(bytes + 1);
    b->tok_mask = pow2_at_least(n * 2) - 1;
    b->tok_slots = calloc(b->tok_mask + 1, sizeof *b->tok_slots);
    if (!b->tok_off || !b->tok_len || !b->arena || !b->tok_slots) {
        cJSON_Delete(root);
        return err_set(ERR_NOMEM, "out of memory loading %s", path);
    }
    for (size_t i = 0; i < b->n_ids; i++) b->tok_off[i] = UINT64_MAX;
    b->eod = -1;
    size_t k = 0;
    for (cJSON *it = root->child; it; it = it->next, k++) {
        uint32_t id = (uint32_t)it->valuedouble;
        const char *s = it->string;
        size_t sl = strlen(s);
        if (b->tok_off[id] != UINT64_MAX) {
            cJSON_Delete(root);
            return err_set(ERR_FORMAT, "%s: entry %zu (\"%s\"): id %u used twice", path, k + 1, s, id);
        }
        int special = strcmp(s, "<|endoftext|>") == 0;
        long bl;
        if (special) {
            memcpy(b->arena + b->arena_len, s, sl);
            bl = (long)sl;
            b->eod = id;
        } else {
            bl = unmap_string(s, sl, b->arena + b->arena_len);
            if (bl <= 0) {
                cJSON_Delete(root);
                return err_set(ERR_FORMAT, "%s: entry %zu (\"%s\"): not a byte-level BPE token "
                               "(a character outside GPT-2's bytes_to_unicode alphabet)", path, k + 1, s);
            }
        }
        b->tok_off[id] = b->arena_len;
        b->tok_len[id] = (uint32_t)bl;
        b->arena_len += (size_t)bl;
        if (special) continue;
        const char *tb = b->arena + b->tok_off[id];
        if (bpe_lookup(b, tb, (size_t)bl) >= 0) {
            cJSON_Delete(root);
            return err_set(ERR_FORMAT, "%s: entry %zu (\"%s\"): the same bytes as another token", path, k + 1, s);
        }
        size_t h = (size_t)tok_hash(tb, (size_t)bl) & b->tok_mask;
        while (b->tok_slots[h]) h = (h + 1) & b->tok_mask;
        b->tok_slots[h] = id + 1;
    }
    cJSON_Delete(root);
    for (unsigned c = 0; c < 256; c++) {
        char ch = (char)c;
        int64_t id = bpe_lookup(b, &ch, 1);
        if (id < 0)
            return err_set(ERR_FORMAT, "%s: no token for byte 0x%02X (\"\\u%04x\"): not a byte-level vocabulary",
                           path, c, bpe_byte_to_cp(c));
        b->byte_id[c] = (uint32_t)id;
    }
    return 0;
}

static int load_merges(bpe *b, const char *path)
{
    io_reader *r;
    int rc = io_reader_open(&r, path);
    if (rc) return rc;
    size_t cap = 1 << 16, n = 0;
    b->pair_mask = 0;
    pair_slot *tmp = malloc(cap * sizeof *tmp); /* in rank order, then hashed */
    if (!tmp) { io_reader_close(r); return err_set(ERR_NOMEM, "out of memory loading %s", path); }
    char *line, buf[1024];
    size_t len;
    while ((rc = io_getline(r, &line, &len)) == 1) {
        uint64_t lineno = io_reader_lineno(r);
        if (len && line[len - 1] == '\r') line[--len] = 0;
        if (lineno == 1 && strncmp(line, "#version", 8) == 0) continue;
        if (len == 0) continue;
        char *sp = memchr(line, ' ', len);
        if (!sp || sp == line || sp + 1 == line + len || memchr(sp + 1, ' ', len - (size_t)(sp + 1 - line)) ||
            len >= sizeof buf) {
            rc = err_set(ERR_FORMAT, "%s:%llu: not a merge \"LEFT RIGHT\"", path, (unsigned long long)lineno);
            break;
        }
        long ll = unmap_string(line, (size_t)(sp - line), buf);
        long rl = ll < 0 ? -1 : unmap_string(sp + 1, len - (size_t)(sp + 1 - line), buf + ll);
        int64_t lid = ll > 0 ? bpe_lookup(b, buf, (size_t)ll) : -1;
        int64_t rid = rl > 0 ? bpe_lookup(b, buf + ll, (size_t)rl) : -1;
        int64_t mid = (lid >= 0 && rid >= 0) ? bpe_lookup(b, buf, (size_t)(ll + rl)) : -1;
        if (mid < 0) {
            rc = err_set(ERR_FORMAT, "%s:%llu: merge \"%s\": %s is not in the vocabulary", path,
                         (unsigned long long)lineno, line,
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
    io_reader_close(r);
    if (rc < 0) { free(tmp); return rc; }
    b->n_merges = n;
    b->pair_mask = pow2_at_least(n * 2 + 2) - 1;
    b->pairs = malloc((b->pair_mask + 1) * sizeof *b->pairs);
    if (!b->pairs) { free(tmp); return err_set(ERR_NOMEM, "out of memory loading %s", path); }
    for (size_t i = 0; i <= b->pair_mask; i++) b->pairs[i].key = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t h = (size_t)hash_mix64(tmp[i].key) & b->pair_mask;
        while (b->pairs[h].key != UINT64_MAX && b->pairs[h].key != tmp[i].key) h = (h + 1) & b->pair_mask;
        if (b->pairs[h].key == tmp[i].key) continue; /* a repeated merge: the first (lowest rank) wins */
        b->pairs[h] = tmp[i];
    }
    free(tmp);
    return 0;
}

int bpe_load(bpe **out, const char *encoder_json, const char *vocab_bpe)
{
    b2u_init();
    (void)pretok_class(0); /* build the class table now, not in a worker */
    bpe *b = calloc(1, sizeof *b);
    if (!b) return err_set(ERR_NOMEM, "out of memory");
    int rc = load_encoder(b, encoder_json);
    if (!rc) rc = load_merges(b, vocab_bpe);
    if (rc) { bpe_free(b); return rc; }
    *out = b;
    return 0;
}

size_t bpe_vocab_size(const bpe *b) { return b->n_entries; }
size_t bpe_n_merges(const bpe *b) { return b->n_merges; }
int64_t bpe_eod(const bpe *b) { return b->eod; }

const char *bpe_token_bytes(const bpe *b, uint32_t id, size_t *len)
{
    if (id >= b->n_ids || b->tok_off[id] == UINT64_MAX) return NULL;
    *len = b->tok_len[id];
    return b->arena + b->tok_off[id];
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

static int ids_reserve(bpe_ids *o, size_t extra)
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
    free(c);
}

void bpe_ctx_force_heap(bpe_ctx *c, int on) { c->force_heap = on; }

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
    int rc = ids_reserve(out, m);
    if (rc) return rc;
    memcpy(out->v + out->n, sym, m * sizeof *sym);
    out->n += m;
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

int bpe_encode_piece(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out)
{
    if (n == 0) return 0;
    const bpe *b = c->b;
    if (n == 1) return bpe_ids_push(out, b->byte_id[s[0]]);
    int64_t whole = bpe_lookup(b, (const char *)s, n);
    if (whole >= 0) return bpe_ids_push(out, (uint32_t)whole);
    int rc = ctx_reserve(c, n);
    if (rc) return rc;
    if (n <= SHORT_PIECE && !c->force_heap) return merge_short(c, s, n, out);
    return merge_long(c, s, n, out);
}

int bpe_encode(bpe_ctx *c, const char *text, size_t n, bpe_ids *out)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t v = utf8_valid_prefix(text, n);
    if (v < n) {
        if (n > (SIZE_MAX - 16) / 3) return err_set(ERR_NOMEM, "text too large");
        if (c->clean_cap < 3 * n) {
            free(c->clean);
            c->clean = malloc(3 * n);
            c->clean_cap = c->clean ? 3 * n : 0;
            if (!c->clean) return err_set(ERR_NOMEM, "out of memory");
        }
        n = utf8_sanitize(text, n, c->clean);
        s = (const unsigned char *)c->clean;
    }
    size_t i = 0;
    while (i < n) {
        size_t j = pretok_next(s, n, i);
        int rc = bpe_encode_piece(c, s + i, j - i, out);
        if (rc) return rc;
        i = j;
    }
    return 0;
}

int bpe_decode(const bpe *b, const uint32_t *ids, size_t n, char **buf, size_t *len, size_t *cap)
{
    for (size_t i = 0; i < n; i++) {
        size_t tl;
        const char *t = bpe_token_bytes(b, ids[i], &tl);
        if (!t) return err_set(ERR_FORMAT, "token id %u is not in the vocabulary (%zu ids)", ids[i], b->n_ids);
        if (*len + tl + 1 > *cap) {
            size_t nc = *cap ? *cap * 2 : 4096;
            while (nc < *len + tl + 1) nc *= 2;
            char *nb = realloc(*buf, nc);
            if (!nb) return err_set(ERR_NOMEM, "out of memory");
            *buf = nb;
            *cap = nc;
        }
        memcpy(*buf + *len, t, tl);
        *len += tl;
    }
    if (*buf) (*buf)[*len] = 0;
    return 0;
}

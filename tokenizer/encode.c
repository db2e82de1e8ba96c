/* encode.c - text to ids and back (bpe.h: bpe_encode, bpe_decode): special tokens, NFC,
 * the pre-tokeniser's pieces (hand-written splitters in pretok.c, or PCRE2), a per-thread
 * cache of short pieces, and the one BPE merge loop over the families' rank look-ups. */
#include "tokenizer/bpe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/utf8.h"
#include "tokenizer/bpe_int.h"
#include "tokenizer/pretok.h"

/* bpe_encode_piece's return when bpe_count_at_least's count is reached (every caller
 * passes a non-zero return up unchanged, so the encoding ends there) */
#define BPE_STOPPED 1

#define SHORT_PIECE 96 /* bytes; longer pieces use the heap */

typedef struct {
    uint32_t rank;
    uint32_t pos;
} heap_ent;

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

/* ---- the merge loop ------------------------------------------------------------------- */

/* A pair's rank and the id of the token it merges into; NO_RANK: the pair does not merge. */
typedef struct {
    uint32_t rank, id;
} merge;
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* The rank look-up, the one thing the families differ in (by_bytes is a constant where the
 * loops are instantiated, so each is compiled once per rule, with no test inside):
 *   pair table (GPT-2, tokenizer.json): the merges file's rank of (left id, right id);
 *   by bytes (tiktoken, as its own _byte_pair_merge): the rank is the id of the token the
 *   pair's bytes make, looked up in the token table (a few MB that stay in the cache rather
 *   than the tens of MB of a 128K vocabulary's pair table; ids grow with ranks in every
 *   tiktoken layout, so comparing ids compares ranks).
 * Symbol l spans s[l, r) and its right neighbour r spans s[r, end). */
static ALWAYS_INLINE merge merge_rank(const bpe *b, int by_bytes, const uint32_t *sym, const unsigned char *s, size_t l,
                                      size_t r, size_t end)
{
    if (by_bytes) {
        int64_t id = bpe_lookup_fast(b, (const char *)s + l, end - l);
        return id < 0 ? (merge){NO_RANK, 0} : (merge){(uint32_t)id, (uint32_t)id};
    }
    const pair_slot *p = pair_get(b, sym[l], sym[r]);
    return p ? (merge){p->rank, p->merged} : (merge){NO_RANK, 0};
}

/* The same for the first pairs, two bytes s[i], s[i + 1]: by bytes, a direct table of the
 * 65,536 pairs of bytes. */
static ALWAYS_INLINE merge merge_rank_bytes(const bpe *b, int by_bytes, const unsigned char *s, size_t i)
{
    if (by_bytes) {
        uint32_t id1 = b->pair_id[s[i] | (unsigned)s[i + 1] << 8];
        return (merge){id1 - 1, id1 - 1}; /* none: 0 - 1 = NO_RANK */
    }
    const pair_slot *p = pair_get(b, b->byte_id[s[i]], b->byte_id[s[i + 1]]);
    return p ? (merge){p->rank, p->merged} : (merge){NO_RANK, 0};
}

/* Short pieces: symbols as a list by start byte (symbol i spans s[i, nxt[i])), rk[i] the
 * rank of its pair with the next and mg[i] what they merge into; each round merges the
 * leftmost lowest rank. */
static ALWAYS_INLINE int merge_short(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out, int by_bytes)
{
    const bpe *b = c->b;
    uint32_t *sym = c->sym, *rk = c->rk, *mg = c->mg, *nxt = c->next;
    for (size_t i = 0; i < n; i++) {
        sym[i] = b->byte_id[s[i]];
        nxt[i] = (uint32_t)i + 1;
        merge m = i + 1 < n ? merge_rank_bytes(b, by_bytes, s, i) : (merge){NO_RANK, 0};
        rk[i] = m.rank;
        if (!by_bytes) mg[i] = m.id; /* by bytes the merged id is the rank */
    }
    for (;;) {
        uint32_t br = NO_RANK;
        size_t best = 0, bprev = n;
        for (size_t i = 0, prev = n; i < n; prev = i, i = nxt[i])
            if (rk[i] < br) { br = rk[i]; best = i; bprev = prev; }
        if (br == NO_RANK) break;
        sym[best] = by_bytes ? br : mg[best];
        nxt[best] = nxt[nxt[best]];
        size_t after = nxt[best]; /* the symbol after the merged one, or n */
        if (bprev != n) {
            merge m = merge_rank(b, by_bytes, sym, s, bprev, best, after);
            rk[bprev] = m.rank;
            if (!by_bytes) mg[bprev] = m.id;
        }
        merge m = after < n ? merge_rank(b, by_bytes, sym, s, best, after, nxt[after]) : (merge){NO_RANK, 0};
        rk[best] = m.rank;
        if (!by_bytes) mg[best] = m.id;
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

/* Room for `need` heap entries (at least doubling). */
static int heap_reserve(bpe_ctx *c, size_t need)
{
    if (need <= c->heap_cap) return 0;
    size_t nc = c->heap_cap * 2 > need ? c->heap_cap * 2 : need;
    heap_ent *h = realloc(c->heap, nc * sizeof *h);
    if (!h) return err_set(ERR_NOMEM, "out of memory");
    c->heap = h;
    c->heap_cap = nc;
    return 0;
}

/* Long pieces: doubly linked symbols by start byte, a lazy heap of candidate pairs. A heap
 * entry (rank, i) is current iff i is alive, has a right neighbour and that pair's rank is
 * still `rank` (a rank names one pair). Pushes never exceed live pairs + merges done <= 2n;
 * the heap grows lazily. */
static ALWAYS_INLINE int merge_long(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out, int by_bytes)
{
    const bpe *b = c->b;
    uint32_t *sym = c->sym, *prev = c->prev, *next = c->next, *alive = c->rk;
    const uint32_t NONE = UINT32_MAX;
    int rc = heap_reserve(c, n);
    if (rc) return rc;
    size_t hn = 0;
    for (size_t i = 0; i < n; i++) {
        sym[i] = b->byte_id[s[i]];
        prev[i] = i ? (uint32_t)i - 1 : NONE;
        next[i] = i + 1 < n ? (uint32_t)i + 1 : NONE;
        alive[i] = 1;
    }
#define END(j) (next[j] == NONE ? n : next[j]) /* where symbol j ends */
    for (size_t i = 0; i + 1 < n; i++) {
        merge m = merge_rank_bytes(b, by_bytes, s, i);
        if (m.rank != NO_RANK) heap_push(c->heap, &hn, (heap_ent){m.rank, (uint32_t)i});
    }
    while (hn) {
        heap_ent e = heap_pop(c->heap, &hn);
        uint32_t i = e.pos;
        if (!alive[i] || next[i] == NONE) continue;
        uint32_t j = next[i];
        merge m = merge_rank(b, by_bytes, sym, s, i, j, END(j));
        if (m.rank == NO_RANK || m.rank != e.rank) continue; /* a neighbour changed since */
        sym[i] = m.id;
        alive[j] = 0;
        next[i] = next[j];
        if (next[j] != NONE) prev[next[j]] = i;
        if ((rc = heap_reserve(c, hn + 2))) return rc;
        if (prev[i] != NONE) {
            merge q = merge_rank(b, by_bytes, sym, s, prev[i], i, END(i));
            if (q.rank != NO_RANK) heap_push(c->heap, &hn, (heap_ent){q.rank, prev[i]});
        }
        if (next[i] != NONE) {
            merge q = merge_rank(b, by_bytes, sym, s, i, next[i], END(next[i]));
            if (q.rank != NO_RANK) heap_push(c->heap, &hn, (heap_ent){q.rank, i});
        }
    }
#undef END
    for (uint32_t i = 0; i != NONE; i = next[i]) {
        int rc2 = bpe_ids_push(out, sym[i]);
        if (rc2) return rc2;
    }
    return 0;
}

/* The loops once per rank rule. */
static int merge_short_pairs(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out) { return merge_short(c, s, n, out, 0); }
static int merge_short_bytes(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out) { return merge_short(c, s, n, out, 1); }
static int merge_long_pairs(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out) { return merge_long(c, s, n, out, 0); }
static int merge_long_bytes(bpe_ctx *c, const unsigned char *s, size_t n, bpe_ids *out) { return merge_long(c, s, n, out, 1); }

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
        return b->family == TOKF_TIKTOKEN ? merge_short_bytes(c, s, n, out) : merge_short_pairs(c, s, n, out);
    return b->family == TOKF_TIKTOKEN ? merge_long_bytes(c, s, n, out) : merge_long_pairs(c, s, n, out);
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


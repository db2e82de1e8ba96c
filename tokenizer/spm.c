/* spm.c - SentencePiece `.model` files of the BPE type (Llama 2, Mistral v1
 * and v3, any `spm_train --model_type=bpe` model), read and run without
 * libsentencepiece or libprotobuf.
 *
 * The file is a ModelProto; we read the fields that decide ids: pieces
 * (piece, score, type), trainer_spec (model_type, byte_fallback,
 * treat_whitespace_as_suffix) and normalizer_spec (name, precompiled_charsmap,
 * add_dummy_prefix, remove_extra_whitespaces, escape_whitespaces). Unknown
 * fields are skipped by wire type, as protobuf does; every length is checked
 * against the bytes that are left, so a hostile file is refused, not read past.
 *
 * Encoding follows sentencepiece 0.2 (normalizer.cc, bpe_model.cc,
 * sentencepiece_processor.cc):
 *  - normalise: the precompiled charsmap (a Darts-clone double array mapping
 *    the longest matching prefix to its replacement; empty for "identity"),
 *    each invalid UTF-8 byte becoming U+FFFD; user-defined pieces pass
 *    through; optional removal of leading, trailing and repeated spaces; the
 *    dummy "▁" prefix; spaces escaped to "▁";
 *  - split into characters (user-defined pieces whole and frozen), then merge
 *    the adjacent pair whose concatenation is a piece with the highest score,
 *    leftmost on ties, until none is left;
 *  - a symbol that is no piece becomes its bytes as <0xXX> pieces with
 *    byte_fallback, else the unknown id (adjacent unknowns fused).
 * Unigram models are refused with a message. Pieces of type UNUSED are
 * treated as ordinary pieces (sentencepiece re-splits them; the shipped
 * models have none).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe_int.h"
#include "common/err.h"
#include <cjson/cJSON.h>

#include "common/hash.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "common/io.h"
#include "common/utf8.h"

#define SPACE_SYM "\xE2\x96\x81" /* U+2581, what SentencePiece writes for a space */

enum { SP_NORMAL = 1, SP_UNKNOWN = 2, SP_CONTROL = 3, SP_USER = 4, SP_UNUSED = 5, SP_BYTE = 6 };

struct spm_model {
    size_t n_pieces;     /* ids past it: Megatron's SentencePieceTokenizer specials (tokcli.c) */
    float *score;        /* [n_pieces] */
    uint8_t *type;       /* [n_ids] */
    int byte_fallback;
    int add_dummy_prefix, remove_extra_ws, escape_ws;
    int64_t unk;
    uint32_t byte_piece[256];
    int have_bytes;
    uint32_t *trie;      /* charsmap double array */
    size_t trie_units;
    char *norm;          /* charsmap replacement strings */
    size_t norm_len;
    char **user;         /* user-defined pieces, longest first */
    size_t *user_len;
    size_t n_user;
    uint8_t user_first[256];
    int word_split;      /* no piece holds a non-space character followed by "▁" */
};

static void spm_free(spm_model *m)
{
    if (!m) return;
    free(m->score);
    free(m->type);
    free(m->trie);
    free(m->norm);
    for (size_t i = 0; i < m->n_user; i++) free(m->user[i]);
    free(m->user);
    free(m->user_len);
    free(m);
}

/* ---- protobuf ------------------------------------------------------------ */

typedef struct {
    const unsigned char *p, *end, *base;
} pb;

static int pb_varint(pb *r, uint64_t *v)
{
    uint64_t x = 0;
    for (int sh = 0; sh < 64; sh += 7) {
        if (r->p >= r->end) return -1;
        unsigned char c = *r->p++;
        x |= (uint64_t)(c & 0x7F) << sh;
        if (!(c & 0x80)) { *v = x; return 0; }
    }
    return -1;
}

/* Next field: number, wire type, and for wire type 2 the payload. */
static int pb_next(pb *r, uint32_t *field, int *wt, uint64_t *val, const unsigned char **data, size_t *len)
{
    uint64_t key;
    if (pb_varint(r, &key)) return -1;
    *field = (uint32_t)(key >> 3);
    *wt = (int)(key & 7);
    switch (*wt) {
    case 0: return pb_varint(r, val);
    case 1:
        if (r->end - r->p < 8) return -1;
        memcpy(val, r->p, 8);
        r->p += 8;
        return 0;
    case 5: {
        if (r->end - r->p < 4) return -1;
        uint32_t w;
        memcpy(&w, r->p, 4);
        *val = w;
        r->p += 4;
        return 0;
    }
    case 2: {
        uint64_t l;
        if (pb_varint(r, &l) || l > (uint64_t)(r->end - r->p)) return -1;
        *data = r->p;
        *len = (size_t)l;
        r->p += l;
        return 0;
    }
    default: return -1;
    }
}

#define BAD(...) return err_set(ERR_FORMAT, __VA_ARGS__)

static int user_cmp(const void *a, const void *b)
{
    size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

static const bpe_family spm_family; /* at the end: what the core calls for SentencePiece */

/* What pass 1 reads of the specs besides the model's own fields. */
typedef struct {
    size_t n_pieces;
    int model_type, ws_suffix;
    const unsigned char *cmap; /* normalizer_spec.precompiled_charsmap */
    size_t cmap_len;
} spm_specs;

/* Pass 1: count the pieces and read trainer_spec (2) and normalizer_spec (3). */
static int spm_read_specs(pb r, spm_model *m, spm_specs *sp, const char *path)
{
    while (r.p < r.end) {
        uint32_t f;
        int wt;
        uint64_t v;
        const unsigned char *d = NULL;
        size_t dl = 0;
        size_t at = (size_t)(r.p - r.base);
        if (pb_next(&r, &f, &wt, &v, &d, &dl)) return err_set(ERR_FORMAT, "%s: byte %zu: not a protobuf field (truncated or corrupt .model)", path, at);
        if (f == 1 && wt == 2) { sp->n_pieces++; continue; }
        if (!((f == 2 || f == 3) && wt == 2)) continue;
        pb s = {d, d + dl, r.base};
        while (s.p < s.end) {
            uint32_t g;
            int gw;
            uint64_t gv = 0;
            const unsigned char *gd = NULL;
            size_t gl = 0;
            size_t gat = (size_t)(s.p - s.base);
            if (pb_next(&s, &g, &gw, &gv, &gd, &gl)) return err_set(ERR_FORMAT, "%s: byte %zu: corrupt %s", path, gat, f == 2 ? "trainer_spec" : "normalizer_spec");
            if (f == 2 && gw == 0) {
                if (g == 3) sp->model_type = (int)gv;
                else if (g == 35) m->byte_fallback = gv != 0;
                else if (g == 24) sp->ws_suffix = gv != 0;
            } else if (f == 3) {
                if (g == 2 && gw == 2) sp->cmap = gd, sp->cmap_len = gl;
                else if (g == 3 && gw == 0) m->add_dummy_prefix = gv != 0;
                else if (g == 4 && gw == 0) m->remove_extra_ws = gv != 0;
                else if (g == 5 && gw == 0) m->escape_ws = gv != 0;
            }
        }
    }
    if (sp->n_pieces == 0) return err_set(ERR_FORMAT, "%s: no pieces (not a SentencePiece model)", path);
    if (sp->model_type != 2)
        return err_set(ERR_FORMAT, "%s: a SentencePiece %s model: only the BPE type is supported", path,
                       sp->model_type == 1 ? "Unigram" : sp->model_type == 3 ? "WORD" : sp->model_type == 4 ? "CHAR" : "unknown-type");
    if (sp->ws_suffix) return err_set(ERR_FORMAT, "%s: treat_whitespace_as_suffix is not supported", path);
    return 0;
}

/* The normaliser's precompiled_charsmap: uint32 trie size, the trie, then the replacement strings. */
static int spm_charsmap(spm_model *m, const unsigned char *cmap, size_t cmap_len, const char *path)
{
    if (!cmap_len) return 0;
    uint32_t ts;
    if (cmap_len < 4) return err_set(ERR_FORMAT, "%s: precompiled_charsmap: truncated", path);
    memcpy(&ts, cmap, 4);
    if (ts % 4 || ts > cmap_len - 4 || ts == 0) return err_set(ERR_FORMAT, "%s: precompiled_charsmap: trie size %u does not fit its %zu bytes", path, ts, cmap_len);
    m->trie_units = ts / 4;
    m->trie = malloc(ts);
    m->norm_len = cmap_len - 4 - ts;
    m->norm = malloc(m->norm_len + 1);
    if (!m->trie || !m->norm) return err_set(ERR_NOMEM, "out of memory");
    memcpy(m->trie, cmap + 4, ts);
    memcpy(m->norm, cmap + 4 + ts, m->norm_len);
    m->norm[m->norm_len] = 0;
    return 0;
}

/* One piece (its bytes pc[0..pl), score, type) as id: the core's table and the model's. */
static int spm_set_piece(bpe *b, spm_model *m, uint32_t id, const unsigned char *pc, size_t pl, float score,
                         int ptype, const char *path)
{
    int rc;
    char what[64];
    snprintf(what, sizeof what, "piece %u", id);
    if (!pc || pl == 0) return err_set(ERR_FORMAT, "%s: %s: empty", path, what);
    if (ptype < SP_NORMAL || ptype > SP_BYTE) return err_set(ERR_FORMAT, "%s: %s: unknown type %d", path, what, ptype);
    if (!utf8_valid((const char *)pc, pl)) return err_set(ERR_FORMAT, "%s: %s: not UTF-8", path, what);
    int hashed = ptype == SP_NORMAL || ptype == SP_USER || ptype == SP_UNUSED;
    if ((rc = bpe_core_set(b, id, (const char *)pc, pl, hashed, what))) return rc;
    m->score[id] = score;
    m->type[id] = (uint8_t)ptype;
    if (ptype == SP_CONTROL) b->tok_flags[id] |= TOKFL_CONTROL;
    if (ptype == SP_UNKNOWN) { b->tok_flags[id] |= TOKFL_UNKNOWN; if (m->unk < 0) m->unk = id; }
    if (ptype == SP_BYTE) {
        unsigned byte;
        char hex[8];
        if (pl != 6 || sscanf((const char *)pc, "<0x%2X>", &byte) != 1 || (snprintf(hex, sizeof hex, "<0x%02X>", byte), memcmp(hex, pc, 6)))
            return err_set(ERR_FORMAT, "%s: %s: a BYTE piece that is not <0xXX>", path, what);
        b->tok_flags[id] |= TOKFL_BYTE;
        m->byte_piece[byte] = id + 1;
    }
    if (ptype == SP_USER) {
        m->user[m->n_user] = strndup((const char *)pc, pl);
        if (!m->user[m->n_user]) return err_set(ERR_NOMEM, "out of memory");
        m->user_first[pc[0]] = 1;
        m->n_user++;
    }
    if (ptype == SP_CONTROL && pl == 3 && !memcmp(pc, "<s>", 3)) b->bos = id;
    if (ptype == SP_CONTROL && pl == 4 && !memcmp(pc, "</s>", 4)) b->eod = id;
    return 0;
}

/* Pass 2: the pieces (field 1: piece 1, score 2, type 3), in id order; *n: how many. */
static int spm_read_pieces(pb r, bpe *b, spm_model *m, const char *path, uint32_t *n)
{
    int rc;
    uint32_t id = 0;
    while (r.p < r.end) {
        uint32_t f;
        int wt;
        uint64_t v;
        const unsigned char *d = NULL;
        size_t dl = 0;
        pb_next(&r, &f, &wt, &v, &d, &dl);
        if (!(f == 1 && wt == 2)) continue;
        pb s = {d, d + dl, r.base};
        const unsigned char *pc = NULL;
        size_t pl = 0;
        int ptype = SP_NORMAL;
        float score = 0;
        while (s.p < s.end) {
            uint32_t g;
            int gw;
            uint64_t gv = 0;
            const unsigned char *gd = NULL;
            size_t gl = 0;
            if (pb_next(&s, &g, &gw, &gv, &gd, &gl)) return err_set(ERR_FORMAT, "%s: piece %u: corrupt", path, id);
            if (g == 1 && gw == 2) pc = gd, pl = gl;
            else if (g == 2 && gw == 5) { uint32_t w = (uint32_t)gv; memcpy(&score, &w, 4); }
            else if (g == 3 && gw == 0) ptype = (int)gv;
        }
        if ((rc = spm_set_piece(b, m, id, pc, pl, score, ptype, path))) return rc;
        id++;
    }
    *n = id;
    return 0;
}

/* After the pieces: the checks, the user pieces longest first, and whether every piece that
 * holds the space mark only begins with it (then the text splits into words first). */
static int spm_finish(bpe *b, spm_model *m, uint32_t n, const char *path)
{
    if (m->unk < 0) return err_set(ERR_FORMAT, "%s: no piece of type UNKNOWN", path);
    if (m->byte_fallback) {
        for (int i = 0; i < 256; i++)
            if (!m->byte_piece[i]) return err_set(ERR_FORMAT, "%s: byte_fallback without the piece <0x%02X>", path, i);
        m->have_bytes = 1;
    }
    qsort(m->user, m->n_user, sizeof *m->user, user_cmp);
    m->word_split = 1;
    for (uint32_t k = 0; k < n && m->word_split; k++) {
        if (!(m->type[k] == SP_NORMAL || m->type[k] == SP_USER || m->type[k] == SP_UNUSED)) continue;
        const char *p = b->arena + b->tok_off[k];
        size_t pl = b->tok_len[k];
        for (size_t q = 1; q + 3 <= pl; q++)
            if (!memcmp(p + q, SPACE_SYM, 3) && !(q >= 3 && !memcmp(p + q - 3, SPACE_SYM, 3))) { m->word_split = 0; break; }
    }
    for (size_t i = 0; i < m->n_user; i++) m->user_len[i] = strlen(m->user[i]);
    return 0;
}

int spm_load(bpe **out, const char *path, const char *type)
{
    char *data = NULL;
    size_t len = 0;
    int rc = bpe_slurp(path, &data, &len);
    if (rc) return rc;
    bpe *b = bpe_new(TOKF_SPM, type ? type : "SentencePieceTokenizer", path);
    spm_model *m = calloc(1, sizeof *m);
    if (!b || !m) { free(data); bpe_free(b); free(m); return err_set(ERR_NOMEM, "out of memory"); }
    b->fam = &spm_family;
    b->spm = m;
    b->pre = PRE_NONE;
    m->add_dummy_prefix = m->remove_extra_ws = m->escape_ws = 1;
    m->unk = -1;
    pb r = {(const unsigned char *)data, (const unsigned char *)data + len, (const unsigned char *)data};
    spm_specs sp = {.model_type = 1};
    uint32_t n = 0;
    if ((rc = spm_read_specs(r, m, &sp, path)) || (rc = spm_charsmap(m, sp.cmap, sp.cmap_len, path)) ||
        (rc = bpe_core_alloc(b, sp.n_pieces, sp.n_pieces)))
        goto fail;
    m->score = calloc(sp.n_pieces, sizeof *m->score);
    m->type = calloc(sp.n_pieces, 1);
    m->user = calloc(sp.n_pieces, sizeof *m->user);
    m->user_len = calloc(sp.n_pieces, sizeof *m->user_len);
    if (!m->score || !m->type || !m->user || !m->user_len) { rc = err_set(ERR_NOMEM, "out of memory"); goto fail; }
    if ((rc = spm_read_pieces(r, b, m, path, &n)) || (rc = spm_finish(b, m, n, path)))
        goto fail;
    m->n_pieces = sp.n_pieces;
    free(data);
    b->vocab_size = b->n_ids;
    *out = b;
    return 0;
fail:
    free(data);
    bpe_free(b);
    return rc;
}

/* ---- normaliser ---------------------------------------------------------- */

static size_t user_match(const spm_model *m, const unsigned char *s, size_t n)
{
    if (!m->n_user || !m->user_first[s[0]]) return 0;
    for (size_t i = 0; i < m->n_user; i++)
        if (m->user_len[i] <= n && !memcmp(m->user[i], s, m->user_len[i])) return m->user_len[i];
    return 0;
}

/* Darts-clone commonPrefixSearch: the longest key that prefixes s; returns
 * its length and sets *value, or 0. */
static size_t trie_longest(const spm_model *m, const unsigned char *s, size_t n, uint32_t *value)
{
    const uint32_t *a = m->trie;
    size_t units = m->trie_units, best = 0;
    size_t pos = 0;
    uint32_t u = a[0];
    pos ^= (size_t)((u >> 10) << ((u & (1u << 9)) >> 6));
    for (size_t i = 0; i < n; i++) {
        pos ^= s[i];
        if (pos >= units) break;
        u = a[pos];
        if ((u & ((1u << 31) | 0xFF)) != s[i]) break;
        pos ^= (size_t)((u >> 10) << ((u & (1u << 9)) >> 6));
        if (pos >= units) break;
        if ((u >> 8) & 1) {
            *value = a[pos] & ((1u << 31) - 1);
            best = i + 1;
        }
    }
    return best;
}

/* One normalised prefix of s: sets rep and rep_len, returns the bytes consumed. */
static size_t norm_prefix(const spm_model *m, const unsigned char *s, size_t n, const char **rep, size_t *rep_len)
{
    size_t u = user_match(m, s, n);
    if (u) { *rep = (const char *)s; *rep_len = u; return u; }
    if (m->trie) {
        uint32_t v = 0;
        size_t l = trie_longest(m, s, n, &v);
        if (l && v < m->norm_len) {
            *rep = m->norm + v;
            *rep_len = strlen(m->norm + v);
            return l;
        }
    }
    uint32_t cp;
    int k = utf8_decode(s, n, &cp);
    if (k < 0) { *rep = "\xEF\xBF\xBD"; *rep_len = 3; return 1; }
    *rep = (const char *)s;
    *rep_len = (size_t)k;
    return (size_t)k;
}


/* into c->nfc (SentencePiece has no NFC step; c->clean may hold the input) */
static int normalize(bpe_ctx *c, const spm_model *m, const unsigned char *s, size_t n, size_t *out_len)
{
    size_t o = 0;
    int rc;
    const char *rep;
    size_t rl;
    if (m->remove_extra_ws)
        while (n) {
            size_t k = norm_prefix(m, s, n, &rep, &rl);
            if (!(rl == 1 && rep[0] == ' ')) break;
            s += k, n -= k;
        }
    if (!n) { *out_len = 0; return 0; }
    if ((rc = bpe_buf_reserve(&c->nfc, &c->nfc_cap, 3 * n + 32))) return rc; /* 16 to spare: the copy below */
    if (!m->trie && !m->n_user && !m->remove_extra_ws && m->escape_ws && utf8_valid((const char *)s, n)) {
        /* the identity normaliser (Llama 2, Mistral): the dummy prefix, spaces escaped */
        char *d = c->nfc;
        if (m->add_dummy_prefix) memcpy(d, SPACE_SYM, 3), o = 3;
        size_t i = 0;
#if defined(__SSE2__)
        const __m128i sp = _mm_set1_epi8(' ');
        while (i + 16 <= n) { /* 16 bytes copied at once, up to the next space */
            __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
            unsigned k = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, sp));
            _mm_storeu_si128((__m128i *)(d + o), x);
            if (!k) {
                o += 16;
                i += 16;
                continue;
            }
            k = (unsigned)__builtin_ctz(k);
            memcpy(d + o + k, SPACE_SYM, 3);
            o += k + 3;
            i += k + 1;
        }
#endif
        for (; i < n; i++) {
            if (s[i] == ' ') memcpy(d + o, SPACE_SYM, 3), o += 3;
            else d[o++] = (char)s[i];
        }
        *out_len = o;
        return 0;
    }
    if (m->add_dummy_prefix) {
        if (m->escape_ws) memcpy(c->nfc, SPACE_SYM, 3), o = 3;
        else c->nfc[o++] = ' ';
    }
    int prev_space = m->remove_extra_ws;
    while (n) {
        size_t k = norm_prefix(m, s, n, &rep, &rl);
        if (prev_space) while (rl && rep[0] == ' ') rep++, rl--;
        if (rl) {
            if ((rc = bpe_buf_reserve(&c->nfc, &c->nfc_cap, o + 3 * rl + 16))) return rc;
            for (size_t i = 0; i < rl; i++) {
                if (m->escape_ws && rep[i] == ' ') memcpy(c->nfc + o, SPACE_SYM, 3), o += 3;
                else c->nfc[o++] = rep[i];
            }
            prev_space = rep[rl - 1] == ' ';
        }
        s += k, n -= k;
        if (!m->remove_extra_ws) prev_space = 0;
    }
    if (m->remove_extra_ws) {
        const char *sp = m->escape_ws ? SPACE_SYM : " ";
        size_t sl = m->escape_ws ? 3 : 1;
        while (o >= sl && !memcmp(c->nfc + o - sl, sp, sl)) o -= sl;
    }
    *out_len = o;
    return 0;
}

/* ---- BPE by score -------------------------------------------------------- */

typedef struct {
    uint32_t start, len;
    int32_t prev, next;
    int freeze;
} sym_t;

typedef struct {
    float score;
    uint32_t left, right, size;
} agenda_t;

/* max-heap: higher score first, then the leftmost */
static inline int ag_before(const agenda_t *a, const agenda_t *b)
{
    return a->score > b->score || (a->score == b->score && a->left < b->left);
}

typedef struct {
    sym_t *sym;
    size_t sym_cap;
    agenda_t *ag;
    size_t ag_n, ag_cap;
} spm_scratch;

static void spm_scratch_free(void *p)
{
    spm_scratch *w = p;
    if (!w) return;
    free(w->sym);
    free(w->ag);
    free(w);
}

static int ag_push(spm_scratch *w, agenda_t e)
{
    if (w->ag_n == w->ag_cap) {
        size_t nc = w->ag_cap ? w->ag_cap * 2 : 256;
        agenda_t *na = realloc(w->ag, nc * sizeof *na);
        if (!na) return err_set(ERR_NOMEM, "out of memory");
        w->ag = na;
        w->ag_cap = nc;
    }
    size_t i = w->ag_n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ag_before(&e, &w->ag[p])) break;
        w->ag[i] = w->ag[p];
        i = p;
    }
    w->ag[i] = e;
    return 0;
}

static agenda_t ag_pop(spm_scratch *w)
{
    agenda_t top = w->ag[0], e = w->ag[--w->ag_n];
    size_t n = w->ag_n, i = 0;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n) break;
        size_t k = (l + 1 < n && ag_before(&w->ag[l + 1], &w->ag[l])) ? l + 1 : l;
        if (!ag_before(&w->ag[k], &e)) break;
        w->ag[i] = w->ag[k];
        i = k;
    }
    if (n) w->ag[i] = e;
    return top;
}

static int maybe_pair(const bpe *b, spm_scratch *w, const char *t, int32_t l, int32_t r)
{
    if (l < 0 || r < 0 || w->sym[l].freeze || w->sym[r].freeze) return 0;
    uint32_t size = w->sym[l].len + w->sym[r].len;
    int64_t id = bpe_lookup(b, t + w->sym[l].start, size);
    if (id < 0) return 0;
    return ag_push(w, (agenda_t){b->spm->score[id], (uint32_t)l, (uint32_t)r, size});
}

static int emit(const bpe *b, const char *t, size_t len, bpe_ids *out, int *prev_unk)
{
    const spm_model *m = b->spm;
    int64_t id = bpe_lookup(b, t, len);
    if (id >= 0) { *prev_unk = 0; return bpe_ids_push(out, (uint32_t)id); }
    if (m->have_bytes) {
        *prev_unk = 0;
        for (size_t i = 0; i < len; i++) {
            int rc = bpe_ids_push(out, m->byte_piece[(unsigned char)t[i]] - 1);
            if (rc) return rc;
        }
        return 0;
    }
    if (*prev_unk) return 0; /* adjacent unknowns are one */
    *prev_unk = 1;
    return bpe_ids_push(out, (uint32_t)m->unk);
}

/* spm_segment for segments of at most SHORT_SEG symbols (a word, most of the
 * time): the same merges (the highest score first, the leftmost of equal
 * scores) found by scanning the few adjacent pairs instead of keeping an
 * agenda; symbols on the stack, ids of merged symbols kept. */
#define SHORT_SEG 32
static int spm_segment_short(const bpe *b, const char *t, size_t nl, bpe_ids *out, int *prev_unk)
{
    const spm_model *m = b->spm;
    uint32_t start[SHORT_SEG + 1];
    int32_t nxt[SHORT_SEG], id[SHORT_SEG], pair[SHORT_SEG]; /* pair[i]: the id its pair with the next would make, or -1 */
    uint8_t freeze[SHORT_SEG];
    int ns = 0;
    for (size_t i = 0; i < nl; ns++) {
        if (ns == SHORT_SEG) return 1; /* too many: the caller's agenda */
        size_t u = m->n_user ? user_match(m, (const unsigned char *)t + i, nl - i) : 0, k = u;
        if (!k) {
            if ((unsigned char)t[i] < 0x80) k = 1;
            else {
                uint32_t cp;
                int d = utf8_decode((const unsigned char *)t + i, nl - i, &cp);
                k = d < 0 ? 1 : (size_t)d;
            }
        }
        start[ns] = (uint32_t)i;
        freeze[ns] = u > 0;
        id[ns] = -1;
        i += k;
    }
    start[ns] = (uint32_t)nl;
    for (int i = 0; i < ns; i++) nxt[i] = i + 1;
#define PAIR_AT(l)                                                                                       \
    do {                                                                                                 \
        int32_t r_ = nxt[l];                                                                             \
        pair[l] = -1;                                                                                    \
        if (r_ < ns && !freeze[l] && !freeze[r_]) {                                                      \
            int64_t p_ = bpe_lookup_fast(b, t + start[l], start[nxt[r_] < ns ? nxt[r_] : ns] - start[l]); \
            pair[l] = (int32_t)p_;                                                                       \
        }                                                                                                \
    } while (0)
    /* a symbol i ends where the next live one starts: start[nxt[i]] */
    for (int i = 0; i < ns; i++) {
        int32_t r = i + 1;
        pair[i] = -1;
        if (r < ns && !freeze[i] && !freeze[r]) pair[i] = (int32_t)bpe_lookup_fast(b, t + start[i], start[r + 1] - start[i]);
    }
    const float *score = m->score;
    for (;;) {
        int32_t best = -1, bprev = -1;
        float bs = 0;
        for (int32_t i = 0, prev = -1; i < ns; prev = i, i = nxt[i])
            if (pair[i] >= 0 && (best < 0 || score[pair[i]] > bs)) {
                best = i;
                bprev = prev;
                bs = score[pair[i]];
            }
        if (best < 0) break;
        id[best] = pair[best];
        nxt[best] = nxt[nxt[best]];
        if (bprev >= 0) PAIR_AT(bprev);
        PAIR_AT(best);
    }
#undef PAIR_AT
    for (int32_t i = 0; i < ns; i = nxt[i]) {
        int rc;
        size_t len = start[nxt[i] < ns ? nxt[i] : ns] - start[i];
        if (id[i] >= 0) {
            *prev_unk = 0;
            rc = bpe_ids_push(out, (uint32_t)id[i]);
        } else {
            rc = emit(b, t + start[i], len, out, prev_unk);
        }
        if (rc) return rc;
    }
    return 0;
}

/* BPE of one segment t[0..nl) into out. */
static int spm_segment(bpe_ctx *c, spm_scratch *w, const char *t, size_t nl, bpe_ids *out, int *prev_unk)
{
    if (nl <= 4 * SHORT_SEG && !c->force_heap) {
        int rs = spm_segment_short(c->b, t, nl, out, prev_unk);
        if (rs <= 0) return rs;
    }
    const bpe *b = c->b;
    const spm_model *m = b->spm;
    int rc;
    if (w->sym_cap < nl) {
        sym_t *ns = realloc(w->sym, nl * sizeof *ns);
        if (!ns) return err_set(ERR_NOMEM, "out of memory");
        w->sym = ns;
        w->sym_cap = nl;
    }
    size_t ns = 0;
    for (size_t i = 0; i < nl;) {
        size_t u = user_match(m, (const unsigned char *)t + i, nl - i), k = u;
        if (!k) {
            uint32_t cp;
            int d = utf8_decode((const unsigned char *)t + i, nl - i, &cp);
            k = d < 0 ? 1 : (size_t)d;
        }
        w->sym[ns] = (sym_t){(uint32_t)i, (uint32_t)k, (int32_t)ns - 1, i + k < nl ? (int32_t)ns + 1 : -1, u > 0};
        ns++;
        i += k;
    }
    w->ag_n = 0;
    for (size_t i = 0; i + 1 < ns; i++)
        if ((rc = maybe_pair(b, w, t, (int32_t)i, (int32_t)i + 1))) return rc;
    while (w->ag_n) {
        agenda_t top = ag_pop(w);
        sym_t *L = &w->sym[top.left], *R = &w->sym[top.right];
        if (L->len == 0 || R->len == 0 || L->len + R->len != top.size || L->next != (int32_t)top.right) continue;
        L->len += R->len;
        L->next = R->next;
        if (R->next >= 0) w->sym[R->next].prev = (int32_t)top.left;
        R->len = 0;
        if ((rc = maybe_pair(b, w, t, L->prev, (int32_t)top.left))) return rc;
        if ((rc = maybe_pair(b, w, t, (int32_t)top.left, L->next))) return rc;
    }
    for (int32_t i = 0; i >= 0; i = w->sym[i].next)
        if ((rc = emit(b, t + w->sym[i].start, w->sym[i].len, out, prev_unk))) return rc;
    return 0;
}

static inline int is_space_sym(const char *t) { return !memcmp(t, SPACE_SYM, 3); }

/* SentencePiece encode of text[0..n) (raw, not normalised) into out. */
static int spm_encode(bpe_ctx *c, const char *text, size_t n, bpe_ids *out)
{
    const bpe *b = c->b;
    const spm_model *m = b->spm;
    size_t nl;
    int rc = normalize(c, m, (const unsigned char *)text, n, &nl);
    if (rc || nl == 0) return rc;
    const char *t = c->nfc;
    if (!c->family_scratch) {
        c->family_scratch = calloc(1, sizeof(spm_scratch));
        if (!c->family_scratch) return err_set(ERR_NOMEM, "out of memory");
    }
    spm_scratch *w = c->family_scratch;
    int prev_unk = 0;
    if (!m->word_split || (!c->pcache && (c->pieces_seen += nl) < PCACHE_AFTER * 16))
        return spm_segment(c, w, t, nl, out, &prev_unk);
    /* No piece holds "X▁" (X not ▁), so no merge crosses the start of a "▁"
     * that follows another character: encode word by word, through the cache. */
    if (!c->pcache) {
        if (!(c->pcache = calloc(PCACHE_SLOTS_SPM, sizeof *c->pcache))) return err_set(ERR_NOMEM, "out of memory");
        c->pcache_mask = PCACHE_SLOTS_SPM - 1;
    }
    size_t i = 0;
    while (i < nl) {
        /* the next "▁" that follows another character */
        size_t j = i + 1;
        for (;;) {
            const char *q = j < nl ? memchr(t + j, 0xE2, nl - j) : NULL;
            if (!q) { j = nl; break; }
            j = (size_t)(q - t);
            if (j >= 3 && j + 3 <= nl && is_space_sym(t + j) && !is_space_sym(t + j - 3)) break;
            j++;
        }
        size_t len = j - i;
        if (len <= PCACHE_MAXLEN) {
            uint64_t key[3];
            uint64_t h = piece_key((const unsigned char *)t + i, len, key);
            pcache_ent *e = &c->pcache[h & c->pcache_mask];
            if (e->len == len && e->w[0] == key[0] && e->w[1] == key[1] && e->w[2] == key[2]) {
                if (out->cap - out->n < PCACHE_MAXIDS && (rc = bpe_ids_reserve(out, PCACHE_MAXIDS))) return rc;
                memcpy(out->v + out->n, e->ids, sizeof e->ids); /* all six: a fixed-size copy */
                out->n += e->nids;
                prev_unk = 0;
                i = j;
                continue;
            }
            size_t before = out->n;
            int unk0 = prev_unk;
            if ((rc = spm_segment(c, w, t + i, len, out, &prev_unk))) return rc;
            int has_unk = unk0 || prev_unk;
            for (size_t k = before; k < out->n && !has_unk; k++) has_unk = out->v[k] == (uint32_t)m->unk;
            if (!has_unk && out->n - before <= PCACHE_MAXIDS) {
                memcpy(e->w, key, sizeof key);
                e->len = (uint8_t)len;
                e->nids = (uint8_t)(out->n - before);
                memcpy(e->ids, out->v + before, e->nids * sizeof *e->ids);
            }
        } else if ((rc = spm_segment(c, w, t + i, len, out, &prev_unk))) {
            return rc;
        }
        i = j;
    }
    return 0;
}

/* ---- decoding ------------------------------------------------------------ */

static int spm_decode(const bpe *b, const uint32_t *ids, size_t n, int continuing, char **buf, size_t *len, size_t *cap)
{
    const spm_model *m = b->spm;
    int first = !continuing, rc;
    size_t i = 0;
    while (i < n) {
        uint32_t id = ids[i];
        if (id >= b->n_ids || b->tok_off[id] == UINT64_MAX)
            return err_set(ERR_FORMAT, "token id %u is not in the vocabulary (%zu ids)", id, b->n_ids);
        int ty = id < m->n_pieces ? m->type[id] : SP_USER; /* Megatron's added specials: their text */
        if (b->sp_legacy && (b->tok_flags[id] & TOKFL_SPECIAL)) {
            /* Megatron's old wrapper: decode_ids(before) + " " + special + " ", and the
             * pieces after it decoded as a new text (its leading space dropped). */
            size_t tl = b->tok_len[id];
            if ((rc = bpe_buf_reserve(buf, cap, *len + tl + 3))) return rc;
            (*buf)[(*len)++] = ' ';
            memcpy(*buf + *len, b->arena + b->tok_off[id], tl);
            *len += tl;
            (*buf)[(*len)++] = ' ';
            first = 1;
            i++;
            continue;
        }
        if (ty == SP_CONTROL) { i++; continue; }
        if (ty == SP_BYTE) { /* a run of byte pieces is UTF-8, each invalid byte U+FFFD */
            size_t j = i;
            char tmp[64];
            size_t tn = 0;
            if ((rc = bpe_buf_reserve(buf, cap, *len + 3 * 64 + 1))) return rc;
            while (j < n && ids[j] < m->n_pieces && m->type[ids[j]] == SP_BYTE && tn < sizeof tmp) {
                unsigned v;
                sscanf(b->arena + b->tok_off[ids[j]] + 1, "0x%2X", &v);
                tmp[tn++] = (char)v;
                j++;
            }
            *len += utf8_sanitize(tmp, tn, *buf + *len);
            first = 0;
            i = j;
            continue;
        }
        const char *p = b->arena + b->tok_off[id];
        size_t pl = b->tok_len[id];
        if (ty == SP_UNKNOWN) p = " \xE2\x81\x87 ", pl = 5;
        if (first && (m->add_dummy_prefix || m->remove_extra_ws) && pl >= 3 && !memcmp(p, SPACE_SYM, 3)) p += 3, pl -= 3;
        first = 0;
        if ((rc = bpe_buf_reserve(buf, cap, *len + pl + 1))) return rc;
        for (size_t k = 0; k < pl;) {
            if (k + 3 <= pl && !memcmp(p + k, SPACE_SYM, 3)) { (*buf)[(*len)++] = ' '; k += 3; }
            else (*buf)[(*len)++] = p[k++];
        }
        i++;
    }
    if (*buf) (*buf)[*len] = 0;
    return 0;
}

/* ---- tokenizer.json for a SentencePiece BPE model -------------------------
 * What transformers' own converter (LlamaConverter / SentencePieceExtractor)
 * writes for Llama 2 and Mistral: the pieces as the BPE vocabulary with byte
 * fallback, merges from every split of a piece into two pieces (at character
 * boundaries) ordered by the piece's score, highest first (ties: the piece's
 * id, then the parts' ids), the dummy prefix and space escaping as a
 * normalizer, and the decoder that undoes them. Only the identity normaliser
 * can be written so (a charsmap or extra-space removal cannot). */
typedef struct {
    float score;
    uint32_t piece, l, r;
} spm_merge;

static int spm_merge_cmp(const void *a, const void *b)
{
    const spm_merge *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    if (x->piece != y->piece) return x->piece < y->piece ? -1 : 1;
    if (x->l != y->l) return x->l < y->l ? -1 : 1;
    return x->r < y->r ? -1 : x->r > y->r;
}

static int spm_write_tokenizer_json(const bpe *b, const char *path)
{
    const spm_model *m = b->spm;
    if (m->trie || m->remove_extra_ws || !m->escape_ws)
        return err_set(ERR_USAGE, "%s: only the identity normaliser (Llama 2, Mistral) can be written as a tokenizer.json",
                       b->file);
    int rc = 0;
    cJSON *root = cJSON_CreateObject(), *added = cJSON_CreateArray(), *vocab = cJSON_CreateObject();
    spm_merge *ms = NULL;
    size_t n = 0, cap = 1 << 16;
    char *unk = NULL;
    if (!root || !added || !vocab || !(ms = malloc(cap * sizeof *ms))) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
    cJSON_AddStringToObject(root, "version", "1.0");
    cJSON_AddNullToObject(root, "truncation");
    cJSON_AddNullToObject(root, "padding");
    cJSON_AddItemToObject(root, "added_tokens", added);
    for (size_t id = 0; id < b->n_ids && !rc; id++) {
        if (b->tok_off[id] == UINT64_MAX) continue;
        char *p = strndup(b->arena + b->tok_off[id], b->tok_len[id]);
        if (!p) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
        int ty = id < m->n_pieces ? m->type[id] : SP_CONTROL; /* Megatron's added specials */
        if (ty == SP_CONTROL || ty == SP_UNKNOWN || ty == SP_USER) {
            cJSON *a = cJSON_CreateObject();
            cJSON_AddNumberToObject(a, "id", (double)id);
            cJSON_AddStringToObject(a, "content", p);
            cJSON_AddBoolToObject(a, "single_word", 0);
            cJSON_AddBoolToObject(a, "lstrip", 0);
            cJSON_AddBoolToObject(a, "rstrip", 0);
            cJSON_AddBoolToObject(a, "normalized", ty == SP_USER);
            cJSON_AddBoolToObject(a, "special", ty != SP_USER);
            cJSON_AddItemToArray(added, a);
        }
        if (ty == SP_UNKNOWN && !unk) unk = p; /* kept for the model's unk_token */
        if (id < m->n_pieces) cJSON_AddNumberToObject(vocab, p, (double)id);
        if (p != unk) free(p);
        if (ty != SP_NORMAL && ty != SP_USER && ty != SP_UNUSED) continue;
        const char *t = b->arena + b->tok_off[id];
        size_t len = b->tok_len[id];
        for (size_t k = 1; k < len; k++) {
            if ((t[k] & 0xC0) == 0x80) continue; /* split at characters */
            int64_t l = bpe_lookup(b, t, k), r = l >= 0 ? bpe_lookup(b, t + k, len - k) : -1;
            if (l < 0 || r < 0) continue;
            if (n == cap) {
                spm_merge *nm = realloc(ms, (cap *= 2) * sizeof *ms);
                if (!nm) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
                ms = nm;
            }
            ms[n++] = (spm_merge){m->score[id], (uint32_t)id, (uint32_t)l, (uint32_t)r};
        }
    }
    if (rc) goto out;
    qsort(ms, n, sizeof *ms, spm_merge_cmp);
    cJSON *nm = cJSON_AddObjectToObject(root, "normalizer");
    cJSON_AddStringToObject(nm, "type", "Sequence");
    cJSON *nl = cJSON_AddArrayToObject(nm, "normalizers");
    if (m->add_dummy_prefix) {
        cJSON *pre = cJSON_CreateObject();
        cJSON_AddStringToObject(pre, "type", "Prepend");
        cJSON_AddStringToObject(pre, "prepend", SPACE_SYM);
        cJSON_AddItemToArray(nl, pre);
    }
    cJSON *rep = cJSON_CreateObject();
    cJSON_AddStringToObject(rep, "type", "Replace");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(rep, "pattern"), "String", " ");
    cJSON_AddStringToObject(rep, "content", SPACE_SYM);
    cJSON_AddItemToArray(nl, rep);
    cJSON_AddNullToObject(root, "pre_tokenizer");
    cJSON *pp = cJSON_AddObjectToObject(root, "post_processor");
    if (b->prepend_bos && b->bos >= 0) {
        char *bs = strndup(b->arena + b->tok_off[b->bos], b->tok_len[b->bos]);
        if (!bs) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
        hfjson_bos_template(pp, bs, b->bos);
        free(bs);
    } else {
        cJSON_DeleteItemFromObject(root, "post_processor");
        cJSON_AddNullToObject(root, "post_processor");
    }
    cJSON *dec = cJSON_AddObjectToObject(root, "decoder");
    cJSON_AddStringToObject(dec, "type", "Sequence");
    cJSON *dl = cJSON_AddArrayToObject(dec, "decoders");
    cJSON *d1 = cJSON_CreateObject();
    cJSON_AddStringToObject(d1, "type", "Replace");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(d1, "pattern"), "String", SPACE_SYM);
    cJSON_AddStringToObject(d1, "content", " ");
    cJSON_AddItemToArray(dl, d1);
    cJSON *d2 = cJSON_CreateObject();
    cJSON_AddStringToObject(d2, "type", "ByteFallback");
    cJSON_AddItemToArray(dl, d2);
    cJSON *d3 = cJSON_CreateObject();
    cJSON_AddStringToObject(d3, "type", "Fuse");
    cJSON_AddItemToArray(dl, d3);
    if (m->add_dummy_prefix) {
        cJSON *d4 = cJSON_CreateObject();
        cJSON_AddStringToObject(d4, "type", "Strip");
        cJSON_AddStringToObject(d4, "content", " ");
        cJSON_AddNumberToObject(d4, "start", 1);
        cJSON_AddNumberToObject(d4, "stop", 0);
        cJSON_AddItemToArray(dl, d4);
    }
    cJSON *model = cJSON_AddObjectToObject(root, "model");
    cJSON_AddStringToObject(model, "type", "BPE");
    cJSON_AddNullToObject(model, "dropout");
    if (unk) cJSON_AddStringToObject(model, "unk_token", unk);
    else cJSON_AddNullToObject(model, "unk_token");
    cJSON_AddNullToObject(model, "continuing_subword_prefix");
    cJSON_AddNullToObject(model, "end_of_word_suffix");
    cJSON_AddBoolToObject(model, "fuse_unk", 1);
    cJSON_AddBoolToObject(model, "byte_fallback", m->byte_fallback);
    cJSON_AddBoolToObject(model, "ignore_merges", 0);
    cJSON_AddItemToObject(model, "vocab", vocab);
    vocab = NULL;
    cJSON *merges = cJSON_AddArrayToObject(model, "merges");
    for (size_t i = 0; i < n && !rc; i++) {
        char *l = strndup(b->arena + b->tok_off[ms[i].l], b->tok_len[ms[i].l]);
        char *r = strndup(b->arena + b->tok_off[ms[i].r], b->tok_len[ms[i].r]);
        if (!l || !r) rc = err_set(ERR_NOMEM, "out of memory");
        else {
            const char *pair[2] = {l, r};
            cJSON_AddItemToArray(merges, cJSON_CreateStringArray(pair, 2));
        }
        free(l);
        free(r);
    }
    if (rc) goto out;
    rc = hfjson_write(root, path);
out:
    free(unk);
    free(ms);
    cJSON_Delete(vocab);
    cJSON_Delete(root);
    return rc;
}

static void spm_free_model(bpe *b)
{
    spm_free(b->spm);
    b->spm = NULL;
}

static const bpe_family spm_family = {
    .encode = spm_encode,
    .decode = spm_decode,
    .write_tokenizer_json = spm_write_tokenizer_json,
    .free_model = spm_free_model,
    .free_scratch = spm_scratch_free,
};

/* quality.c - datatrove's Gopher, C4 and FineWeb quality filters (see quality.h).
 *
 * Each function follows its datatrove counterpart line by line (datatrove
 * 0.10.1: pipeline/filters/gopher_repetition_filter.py, gopher_quality_filter.py,
 * c4_filters.py, fineweb_quality_filter.py); the comments name the Python
 * they stand for. Python's semantics kept: len() counts code points; strip(),
 * split() and splitlines() use Python's whitespace and line boundaries; "/" is
 * a float division; Counter.most_common(1) takes the first-inserted of ties. */
#define _GNU_SOURCE
#include "preprocess/quality.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/utf8.h"
#include "preprocess/spacy_tok.h"

/* ---------- Python string helpers on UTF-8 ---------- */

static size_t cplen(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* the last code point of s[0..n) (n > 0) */
static uint32_t last_cp(const char *s, size_t n)
{
    size_t j = n - 1;
    while (j > 0 && n - j < 4 && ((unsigned char)s[j] & 0xC0) == 0x80) j--;
    uint32_t cp;
    return utf8_decode((const unsigned char *)s + j, n - j, &cp) > 0 ? cp : 0xFFFD;
}

static int ends_with(const char *s, size_t n, const char *suf)
{
    size_t k = strlen(suf);
    return n >= k && !memcmp(s + n - k, suf, k);
}
static int starts_with(const char *s, size_t n, const char *pre)
{
    size_t k = strlen(pre);
    return n >= k && !memcmp(s, pre, k);
}

/* str.count(sub): non-overlapping occurrences */
static size_t count_sub(const char *s, size_t n, const char *sub)
{
    size_t k = strlen(sub), c = 0;
    const char *p = s, *e = s + n;
    while ((size_t)(e - p) >= k) {
        const char *q = memmem(p, (size_t)(e - p), sub, k);
        if (!q) break;
        c++;
        p = q + k;
    }
    return c;
}

/* str.splitlines() boundaries: \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029.
 * Returns the length of the line break at s[i] (0: none). */
static size_t line_break_at(const char *s, size_t n, size_t i)
{
    unsigned char b = (unsigned char)s[i];
    if (b == '\r') return i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
    if (b == '\n' || b == 0x0B || b == 0x0C || (b >= 0x1C && b <= 0x1E)) return 1;
    if (b == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] == 0x85) return 2;
    if (b == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
        ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9))
        return 3;
    return 0;
}

typedef struct { uint32_t off, len; } span;
typedef struct {
    span *v;
    size_t n, cap;
} spans;

static int spans_push(spans *a, size_t off, size_t len)
{
    if (a->n == a->cap) {
        size_t nc = a->cap ? 2 * a->cap : 256;
        span *nv = realloc(a->v, nc * sizeof *nv);
        if (!nv) return ERR_NOMEM;
        a->v = nv;
        a->cap = nc;
    }
    a->v[a->n++] = (span){(uint32_t)off, (uint32_t)len};
    return 0;
}

static int splitlines(const char *s, size_t n, spans *out)
{
    out->n = 0;
    size_t start = 0, i = 0;
    while (i < n) {
        size_t k = line_break_at(s, n, i);
        if (k) {
            if (spans_push(out, start, i - start)) return ERR_NOMEM;
            i += k;
            start = i;
        } else i++;
    }
    if (start < n && spans_push(out, start, n - start)) return ERR_NOMEM;
    return 0;
}

/* ---------- a set / counter of byte strings (per document) ---------- */

typedef struct {
    uint64_t h; /* 0: empty slot */
    uint32_t off, len;
    uint32_t val;
} sent;
typedef struct {
    sent *e;
    size_t mask, cap, used;
} sset;

static int sset_reset(sset *s, size_t expect)
{
    size_t want = 16;
    if (expect > 1 << 16) expect = 1 << 16; /* it grows */
    while (want < 2 * expect + 16) want *= 2;
    if (want > s->cap || s->cap > 4 * want) {
        free(s->e);
        s->e = malloc(want * sizeof *s->e);
        if (!s->e) {
            s->cap = 0;
            return ERR_NOMEM;
        }
        s->cap = want;
    }
    s->mask = s->cap - 1;
    s->used = 0;
    memset(s->e, 0, s->cap * sizeof *s->e);
    return 0;
}

static int sset_grow(sset *s)
{
    size_t nc = 2 * s->cap;
    sent *ne = calloc(nc, sizeof *ne);
    if (!ne) return ERR_NOMEM;
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->e[i].h) continue;
        size_t j = s->e[i].h & (nc - 1);
        while (ne[j].h) j = (j + 1) & (nc - 1);
        ne[j] = s->e[i];
    }
    free(s->e);
    s->e = ne;
    s->cap = nc;
    s->mask = nc - 1;
    return 0;
}

/* find or insert base[off..off+len); *created says which (-1: out of memory) */
static sent *sset_get(sset *s, const char *base, uint32_t off, uint32_t len, int *created)
{
    if (2 * (s->used + 1) > s->cap && sset_grow(s)) {
        *created = -1;
        return NULL;
    }
    uint64_t h = hash64(base + off, len, 3) | 1;
    for (size_t i = h & s->mask;; i = (i + 1) & s->mask) {
        sent *e = &s->e[i];
        if (!e->h) {
            *e = (sent){h, off, len, 0};
            s->used++;
            *created = 1;
            return e;
        }
        if (e->h == h && e->len == len && !memcmp(base + e->off, base + off, len)) {
            *created = 0;
            return e;
        }
    }
}

typedef struct {
    uint32_t tag;  /* the hash's high half */
    uint32_t pos1; /* first position + 1; 0: empty */
} ngent;

struct quality_ctx {
    spacy_ctx *sp;
    sp_tokens all, words, toks, ends; /* all: the document's tokens, whitespace ones too */
    /* c4_quality's output and its word count (the kept lines' words), for fineweb_quality */
    const char *c4_out;
    size_t c4_on, c4_words;
    int c4_valid;
    const char *wt; /* the text the words are of */
    size_t wn;
    int have_words;
    uint32_t *wcp, *wid; /* per word: code points, interned id */
    uint64_t *pre; /* prefix sums over the words (gopher_repetition): 6 arrays of nw + 1 */
    size_t precap;
    size_t wcap;
    ngent *ng; /* n-gram table */
    size_t ngmask, ngcap;
    uint32_t *cnt; /* top n-grams: count by first position */
    size_t cntcap;
    spans parts, lines;
    sset set;
    char *out, *low;
    size_t out_cap, low_cap;
};

quality_ctx *quality_ctx_new(void)
{
    quality_ctx *q = calloc(1, sizeof *q);
    if (!q) {
        err_set(ERR_NOMEM, "out of memory");
        return NULL;
    }
    q->sp = spacy_ctx_new();
    if (!q->sp) {
        free(q);
        return NULL;
    }
    return q;
}

void quality_ctx_free(quality_ctx *q)
{
    if (!q) return;
    spacy_ctx_free(q->sp);
    sp_tokens_free(&q->words);
    sp_tokens_free(&q->all);
    sp_tokens_free(&q->toks);
    sp_tokens_free(&q->ends);
    free(q->wcp);
    free(q->wid);
    free(q->pre);
    free(q->ng);
    free(q->cnt);
    free(q->parts.v);
    free(q->lines.v);
    free(q->set.e);
    free(q->out);
    free(q->low);
    free(q);
}

void quality_begin(quality_ctx *q) { q->have_words = q->c4_valid = 0; }

/* datatrove's split_into_words(text), once per document */
static int get_words(quality_ctx *q, const char *t, size_t n)
{
    if (q->have_words && q->wt == t && q->wn == n) return 0;
    int rc = spacy_tokenize(q->sp, t, n, &q->all);
    if (rc) return rc;
    /* strip_strings(): the words are the tokens that are not whitespace */
    if (q->words.cap < q->all.n) {
        sp_token *nt = realloc(q->words.t, q->all.n * sizeof *nt);
        if (!nt) return ERR_NOMEM;
        q->words.t = nt;
        q->words.cap = q->all.n;
    }
    q->words.n = 0;
    for (size_t i = 0; i < q->all.n; i++)
        if (!spacy_is_space_token(t, &q->all.t[i])) q->words.t[q->words.n++] = q->all.t[i];
    if (q->words.n > q->wcap) {
        size_t nc = q->words.n + q->words.n / 2;
        uint32_t *a = realloc(q->wcp, nc * sizeof *a), *b = a ? realloc(q->wid, nc * sizeof *b) : NULL;
        if (a) q->wcp = a;
        if (b) q->wid = b;
        if (!a || !b) return ERR_NOMEM;
        q->wcap = nc;
    }
    for (size_t i = 0; i < q->words.n; i++) q->wcp[i] = (uint32_t)cplen(t + q->words.t[i].off, q->words.t[i].len);
    q->wt = t;
    q->wn = n;
    q->have_words = 1;
    return 0;
}

void quality_params_reasons(quality_params *p)
{
    for (int i = 0; i < p->n_top; i++) snprintf(p->top_reason[i], sizeof p->top_reason[i], "top_%d_gram", p->top_n[i]);
    for (int i = 0; i < p->n_dup; i++)
        snprintf(p->dup_reason[i], sizeof p->dup_reason[i], "duplicated_%d_n_grams", p->dup_n[i]);
}

void quality_params_default(quality_params *p)
{
    memset(p, 0, sizeof *p);
    p->dup_line_frac = 0.3;
    p->dup_para_frac = 0.3;
    p->dup_line_char_frac = 0.2;
    p->dup_para_char_frac = 0.2;
    static const int tn[] = {2, 3, 4}, dn[] = {5, 6, 7, 8, 9, 10};
    static const double tf[] = {0.2, 0.18, 0.16}, df[] = {0.15, 0.14, 0.13, 0.12, 0.11, 0.10};
    p->n_top = 3;
    p->n_dup = 6;
    for (int i = 0; i < 3; i++) p->top_n[i] = tn[i], p->top_frac[i] = tf[i];
    for (int i = 0; i < 6; i++) p->dup_n[i] = dn[i], p->dup_frac[i] = df[i];
    quality_params_reasons(p);
    p->min_doc_words = 50;
    p->max_doc_words = 100000;
    p->min_avg_word_length = 3;
    p->max_avg_word_length = 10;
    p->max_symbol_word_ratio = 0.1;
    p->max_bullet_lines_ratio = 0.9;
    p->max_ellipsis_lines_ratio = 0.3;
    p->max_non_alpha_words_ratio = 0.8;
    p->min_stop_words = 2;
    p->stop_words = gopher_default_stop_words(&p->n_stop_words);
    p->c4_split_paragraph = 1;
    p->c4_remove_citations = 1;
    p->c4_filter_no_terminal_punct = 1;
    p->c4_min_num_sentences = 5;
    p->c4_min_words_per_line = 3;
    p->c4_max_word_length = 1000;
    p->c4_filter_lorem_ipsum = p->c4_filter_javascript = p->c4_filter_curly_bracket = p->c4_filter_policy = 1;
    p->line_punct_thr = 0.12;
    p->short_line_thr = 0.67;
    p->short_line_length = 30;
    p->char_duplicates_ratio = 0.01;
    p->new_line_ratio = 0.3;
}

/* find_duplicates(x): (elements seen before, their characters) */
static int find_duplicates(quality_ctx *q, const char *t, const spans *x, size_t *dup, size_t *dup_chars)
{
    *dup = *dup_chars = 0;
    if (sset_reset(&q->set, x->n)) return ERR_NOMEM;
    for (size_t i = 0; i < x->n; i++) {
        int created;
        sset_get(&q->set, t, x->v[i].off, x->v[i].len, &created);
        if (created < 0) return ERR_NOMEM;
        if (!created) {
            (*dup)++;
            *dup_chars += cplen(t + x->v[i].off, x->v[i].len);
        }
    }
    return 0;
}

/* ---------- GopherRepetitionFilter ---------- */

#define POLY_B 0x100000001B3ull
#define POLY_B_INV 0xCE965057AFF6957Bull /* POLY_B * POLY_B_INV == 1 mod 2^64 */

/* "".join(words[a:a+n]) == "".join(words[b:b+n]) (equal byte lengths known) */
static int concat_eq(const char *t, const sp_token *w, size_t a, size_t b, size_t n)
{
    size_t ia = a, ib = b, oa = 0, ob = 0, ea = a + n, eb = b + n;
    while (ia < ea && ib < eb) {
        size_t la = w[ia].len - oa, lb = w[ib].len - ob, l = la < lb ? la : lb;
        if (memcmp(t + w[ia].off + oa, t + w[ib].off + ob, l)) return 0;
        oa += l;
        ob += l;
        if (oa == w[ia].len) ia++, oa = 0;
        if (ob == w[ib].len) ib++, ob = 0;
    }
    return 1;
}

static int ng_reset(quality_ctx *q, size_t expect)
{
    size_t want = 16;
    while (want < expect + expect / 2 + 16) want *= 2;
    if (want > q->ngcap) {
        free(q->ng);
        q->ng = malloc(want * sizeof *q->ng);
        if (!q->ng) {
            q->ngcap = 0;
            return ERR_NOMEM;
        }
        q->ngcap = want;
    }
    q->ngmask = want - 1;
    memset(q->ng, 0, want * sizeof *q->ng);
    return 0;
}

int quality_gopher_repetition(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **reason)
{
    if (n == 0) { /* if not text */
        *reason = "empty";
        return 0;
    }
    double len_text = (double)cplen(t, n);
    size_t dup, dupc;
    int rc;
    /* paragraphs = re.split(r"\n{2,}", text.strip()) */
    const char *s = t;
    size_t sn = n;
    utf8_strip_pyspace(&s, &sn);
    q->parts.n = 0;
    {
        size_t start = 0, i = 0;
        while (i < sn) {
            if (s[i] == '\n' && i + 1 < sn && s[i + 1] == '\n') {
                size_t j = i;
                while (j < sn && s[j] == '\n') j++;
                if ((rc = spans_push(&q->parts, (size_t)(s - t) + start, i - start))) return rc;
                start = i = j;
            } else i++;
        }
        if ((rc = spans_push(&q->parts, (size_t)(s - t) + start, sn - start))) return rc;
    }
    if ((rc = find_duplicates(q, t, &q->parts, &dup, &dupc))) return rc;
    if (p->dup_para_frac && (double)dup / (double)q->parts.n > p->dup_para_frac) {
        *reason = "dup_para_frac";
        return 0;
    }
    if (p->dup_para_char_frac && (double)dupc / len_text > p->dup_para_char_frac) {
        *reason = "dup_para_char_frac";
        return 0;
    }
    /* lines = re.split("\n+", text) */
    q->lines.n = 0;
    {
        size_t start = 0, i = 0;
        while (i < n) {
            if (t[i] == '\n') {
                size_t j = i;
                while (j < n && t[j] == '\n') j++;
                if ((rc = spans_push(&q->lines, start, i - start))) return rc;
                start = i = j;
            } else i++;
        }
        if ((rc = spans_push(&q->lines, start, n - start))) return rc;
    }
    if ((rc = find_duplicates(q, t, &q->lines, &dup, &dupc))) return rc;
    if (p->dup_line_frac && (double)dup / (double)q->lines.n > p->dup_line_frac) {
        *reason = "dup_line_frac";
        return 0;
    }
    if (p->dup_line_char_frac && (double)dupc / len_text > p->dup_line_char_frac) {
        *reason = "dup_line_char_frac";
        return 0;
    }
    if ((rc = get_words(q, t, n))) return rc;
    size_t nw = q->words.n;
    const sp_token *w = q->words.t;
    if (p->n_top > 0 || p->n_dup > 0) {
        /* intern the words: equal " ".join(n-grams) <=> equal word sequences (no word holds a space) */
        if (sset_reset(&q->set, nw)) return ERR_NOMEM;
        uint32_t next = 0;
        for (size_t i = 0; i < nw; i++) {
            int created;
            sent *e = sset_get(&q->set, t, w[i].off, w[i].len, &created);
            if (created < 0) return ERR_NOMEM;
            if (created) e->val = next++;
            q->wid[i] = e->val;
        }
    }
    /* prefix sums, so that each n-gram's bytes, characters and hashes come in O(1):
     * pb bytes, pc characters, ph the polynomial hash of the concatenated bytes, pp and
     * pip POLY_B and its inverse to the power of the bytes, pid a polynomial hash of the ids */
    if (nw + 1 > q->precap) {
        uint64_t *np = realloc(q->pre, 6 * (nw + 1) * sizeof *np);
        if (!np) return ERR_NOMEM;
        q->pre = np;
        q->precap = nw + 1;
    }
    uint64_t *pb = q->pre, *pc = pb + (nw + 1), *ph = pc + (nw + 1), *pp = ph + (nw + 1), *pip = pp + (nw + 1),
             *pid = pip + (nw + 1);
    pb[0] = pc[0] = ph[0] = pid[0] = 0;
    pp[0] = pip[0] = 1;
    for (size_t i = 0; i < nw; i++) {
        uint64_t h = ph[i], pw = pp[i], ipw = pip[i];
        const unsigned char *x = (const unsigned char *)t + w[i].off;
        for (uint32_t j = 0; j < w[i].len; j++) {
            h = h * POLY_B + x[j];
            pw *= POLY_B;
            ipw *= POLY_B_INV;
        }
        ph[i + 1] = h;
        pp[i + 1] = pw;
        pip[i + 1] = ipw;
        pb[i + 1] = pb[i] + w[i].len;
        pc[i + 1] = pc[i] + q->wcp[i];
        pid[i + 1] = pid[i] * POLY_B + (uint64_t)q->wid[i] + 1;
    }
    /* top n-grams: find_top_duplicate(get_n_grams(words, n)); an n-gram is its words' ids */
    for (int k = 0; k < p->n_top; k++) {
        size_t gn = (size_t)p->top_n[k];
        if (gn == 0 || nw < gn) continue; /* if not n_grams: continue */
        size_t m = nw - gn + 1;
        if ((rc = ng_reset(q, m))) return rc;
        uint64_t bn = 1;
        for (size_t j = 0; j < gn; j++) bn *= POLY_B;
        if (m > q->cntcap) {
            uint32_t *nc = realloc(q->cnt, m * sizeof *nc);
            if (!nc) return ERR_NOMEM;
            q->cnt = nc;
            q->cntcap = m;
        }
        size_t best_count = 0, best_first = SIZE_MAX;
        for (size_t i = 0; i < m; i++) {
            uint64_t h = hash_mix64(pid[i + gn] - pid[i] * bn);
            uint32_t tag = (uint32_t)(h >> 32), first = (uint32_t)i;
            for (size_t x = h & q->ngmask;; x = (x + 1) & q->ngmask) {
                ngent *e = &q->ng[x];
                if (!e->pos1) {
                    *e = (ngent){tag, (uint32_t)i + 1};
                    q->cnt[i] = 0;
                    break;
                }
                if (e->tag == tag && !memcmp(q->wid + (e->pos1 - 1), q->wid + i, gn * sizeof *q->wid)) {
                    first = e->pos1 - 1;
                    break;
                }
            }
            size_t cn = ++q->cnt[first];
            if (cn > best_count || (cn == best_count && first < best_first)) {
                best_count = cn;
                best_first = first;
            }
        }
        size_t chars = gn - 1 + (size_t)(pc[best_first + gn] - pc[best_first]);
        if ((double)(chars * best_count) / len_text > p->top_frac[k]) {
            *reason = p->top_reason[k];
            return 0;
        }
    }
    /* duplicated n-grams: find_all_duplicate(words, n) on "".join(n-gram): the key is the
     * concatenated bytes, hashed as one polynomial (any split of the same bytes hashes
     * alike); equal hashes are compared byte for byte */
    for (int k = 0; k < p->n_dup; k++) {
        size_t gn = (size_t)p->dup_n[k];
        size_t repeated = 0;
        if (gn > 0 && nw >= gn) {
            size_t m = nw - gn + 1;
            if ((rc = ng_reset(q, m))) return rc;
            size_t idx = 0;
            while (idx < m) {
                /* hash(a..b) = ph[b] - ph[a] * POLY_B^(bytes a..b) */
                uint64_t h = hash_mix64(ph[idx + gn] - ph[idx] * (pp[idx + gn] * pip[idx]));
                uint32_t tag = (uint32_t)(h >> 32);
                uint64_t bytes = pb[idx + gn] - pb[idx];
                int found = 0;
                for (size_t x = h & q->ngmask;; x = (x + 1) & q->ngmask) {
                    ngent *e = &q->ng[x];
                    if (!e->pos1) {
                        *e = (ngent){tag, (uint32_t)idx + 1};
                        break;
                    }
                    size_t o = e->pos1 - 1;
                    if (e->tag == tag && pb[o + gn] - pb[o] == bytes && concat_eq(t, w, o, idx, gn)) {
                        found = 1;
                        break;
                    }
                }
                if (found) {
                    repeated += (size_t)(pc[idx + gn] - pc[idx]);
                    idx += gn;
                } else idx++;
            }
        }
        if ((double)repeated / len_text > p->dup_frac[k]) {
            *reason = p->dup_reason[k];
            return 0;
        }
    }
    return 1;
}

/* ---------- GopherQualityFilter ---------- */

static int any_char(const char *s, size_t n, int (*pred)(uint32_t), int want)
{
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k < 0) k = 1, cp = 0xFFFD;
        if (!!pred(cp) == want) return 1;
        i += (size_t)k;
    }
    return 0;
}

int quality_gopher_quality(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **reason)
{
    int rc = get_words(q, t, n);
    if (rc) return rc;
    size_t nw = q->words.n;
    const sp_token *w = q->words.t;
    /* non_symbol_words = [w for w in words if any(ch not in PUNCTUATION_SET for ch in w)] */
    size_t n_ns = 0, ns_chars = 0, n_alpha = 0;
    for (size_t i = 0; i < nw; i++) {
        const char *s = t + w[i].off;
        if (any_char(s, w[i].len, dt_punctuation_cp, 0)) {
            n_ns++;
            ns_chars += q->wcp[i];
        }
        if (any_char(s, w[i].len, py_isalpha_cp, 1)) n_alpha++;
    }
    if (p->min_doc_words && (long long)n_ns < p->min_doc_words) {
        *reason = "gopher_short_doc";
        return 0;
    }
    if (p->max_doc_words && (long long)n_ns > p->max_doc_words) {
        *reason = "gopher_long_doc";
        return 0;
    }
    double avg = n_ns ? (double)ns_chars / (double)n_ns : NAN; /* np.mean([]) is nan: no comparison holds */
    if (p->min_avg_word_length && avg < p->min_avg_word_length) {
        *reason = "gopher_below_avg_threshold";
        return 0;
    }
    if (p->max_avg_word_length && avg > p->max_avg_word_length) {
        *reason = "gopher_above_avg_threshold";
        return 0;
    }
    /* datatrove divides by len(words) here and raises on a text without words; we let the ratio be 0 */
    double dn = (double)nw;
    if (p->max_symbol_word_ratio && nw && (double)count_sub(t, n, "#") / dn > p->max_symbol_word_ratio) {
        *reason = "gopher_too_many_hashes";
        return 0;
    }
    if (p->max_symbol_word_ratio && nw &&
        (double)(count_sub(t, n, "...") + count_sub(t, n, "\xe2\x80\xa6")) / dn > p->max_symbol_word_ratio) {
        *reason = "gopher_too_many_ellipsis";
        return 0;
    }
    if ((rc = splitlines(t, n, &q->lines))) return rc;
    size_t nl = q->lines.n, bullets = 0, ell = 0;
    for (size_t i = 0; i < nl; i++) {
        const char *s = t + q->lines.v[i].off;
        size_t l = q->lines.v[i].len;
        const char *a = s;
        size_t al = l;
        utf8_lstrip_pyspace(&a, &al);
        bullets += starts_with(a, al, "\xe2\x80\xa2") || starts_with(a, al, "-");
        utf8_rstrip_pyspace(s, &l);
        ell += ends_with(s, l, "...") || ends_with(s, l, "\xe2\x80\xa6");
    }
    if (p->max_bullet_lines_ratio && nl && (double)bullets / (double)nl > p->max_bullet_lines_ratio) {
        *reason = "gopher_too_many_bullets";
        return 0;
    }
    if (p->max_ellipsis_lines_ratio && nl && (double)ell / (double)nl > p->max_ellipsis_lines_ratio) {
        *reason = "gopher_too_many_end_ellipsis";
        return 0;
    }
    if (p->max_non_alpha_words_ratio && nw && (double)n_alpha / dn < p->max_non_alpha_words_ratio) {
        *reason = "gopher_below_alpha_threshold";
        return 0;
    }
    if (p->min_stop_words) {
        long long found = 0;
        for (size_t k = 0; k < p->n_stop_words; k++) {
            size_t sl = strlen(p->stop_words[k]);
            int dupe = 0; /* the stop words are a set */
            for (size_t j = 0; j < k && !dupe; j++) dupe = !strcmp(p->stop_words[j], p->stop_words[k]);
            if (dupe) continue;
            for (size_t i = 0; i < nw; i++)
                if (w[i].len == sl && !memcmp(t + w[i].off, p->stop_words[k], sl)) {
                    found++;
                    break;
                }
        }
        if (found < p->min_stop_words) {
            *reason = "gopher_enough_stop_words";
            return 0;
        }
    }
    return 1;
}

/* ---------- C4QualityFilter ---------- */

/* CITATION_REGEX.sub("", line): \[\d*]|\[edit]|\[citation needed] (\d: Unicode Nd) */
static size_t remove_citations(const char *s, size_t n, char *out)
{
    size_t o = 0, i = 0;
    while (i < n) {
        if (s[i] == '[') {
            size_t j = i + 1;
            while (j < n) {
                uint32_t cp;
                int k = utf8_decode((const unsigned char *)s + j, n - j, &cp);
                if (k < 0 || !py_isdecimal_cp(cp)) break;
                j += (size_t)k;
            }
            size_t m = 0;
            if (j < n && s[j] == ']') m = j + 1 - i;
            else if (starts_with(s + i, n - i, "[edit]")) m = 6;
            else if (starts_with(s + i, n - i, "[citation needed]")) m = 17;
            if (m) {
                i += m;
                continue;
            }
        }
        out[o++] = s[i++];
    }
    return o;
}

/* line.lower(), enough to find ASCII phrases: ASCII folded, U+0130 and U+212A as
 * Python lowers them, every other character copied (it cannot match ASCII) */
static size_t lower_for_ascii(const char *s, size_t n, char *out)
{
    size_t o = 0, i = 0;
    while (i < n) {
        unsigned char b = (unsigned char)s[i];
        if (b < 0x80) {
            out[o++] = (char)(b >= 'A' && b <= 'Z' ? b + 32 : b);
            i++;
            continue;
        }
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k < 0) k = 1;
        const char *l = k > 1 ? py_lower_special(cp) : NULL;
        if (l) {
            size_t ll = strlen(l);
            memcpy(out + o, l, ll);
            o += ll;
        } else {
            memcpy(out + o, s + i, (size_t)k);
            o += (size_t)k;
        }
        i += (size_t)k;
    }
    return o;
}

static int has_sub(const char *s, size_t n, const char *sub) { return memmem(s, n, sub, strlen(sub)) != NULL; }

int quality_c4(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **out, size_t *out_len,
               const char **reason)
{
    int rc;
    /* lines = text.splitlines() if split_paragraph else split_into_sentences(text) */
    if (p->c4_split_paragraph) {
        if ((rc = splitlines(t, n, &q->parts))) return rc;
    } else {
        if ((rc = spacy_tokenize(q->sp, t, n, &q->toks))) return rc;
        q->ends.n = 0;
        if (spacy_sentences(t, &q->toks, &q->ends) == SIZE_MAX) return ERR_NOMEM;
        q->parts.n = 0;
        if (q->ends.n == 0) {
            if ((rc = spans_push(&q->parts, 0, n))) return rc;
        } else {
            size_t a = 0;
            for (size_t i = 0; i < q->ends.n; i++) {
                size_t b = i + 1 < q->ends.n ? q->ends.t[i].off : n;
                if ((rc = spans_push(&q->parts, a, b - a))) return rc;
                a = b;
            }
        }
    }
    /* room: the kept lines and a lowered copy of one line (lower() grows U+0130 by one byte) */
    if (q->out_cap < 2 * n + 1) { /* sentences joined by " " can outgrow the text: "a.b." -> "a. b." */
        char *no = realloc(q->out, 2 * n + 1);
        if (!no) return ERR_NOMEM;
        q->out = no;
        q->out_cap = 2 * n + 1;
    }
    if (q->low_cap < 2 * n + 1) {
        char *nl = realloc(q->low, 2 * n + 1);
        if (!nl) return ERR_NOMEM;
        q->low = nl;
        q->low_cap = 2 * n + 1;
    }
    static const char *const policy[] = {"terms of use", "privacy policy", "cookie policy",
                                         "uses cookies", "use of cookies", "use cookies"};
    long long num_sentences = 0;
    size_t olen = 0, kept = 0, kept_words = 0;
    /* the sentences of an unchanged line come from the document's tokens (one tokenization) */
    int slice = p->c4_split_paragraph && p->c4_min_num_sentences != -1;
    if (slice && (rc = get_words(q, t, n))) return rc;
    for (size_t li = 0; li < q->parts.n; li++) {
        const char *line = t + q->parts.v[li].off;
        size_t ll = q->parts.v[li].len;
        utf8_strip_pyspace(&line, &ll); /* line = line.strip() */
        /* words = line.split(): the count, and any word over max_word_length */
        size_t nwords = 0, longest = 0, i = 0, cur = 0;
        int in_word = 0;
        while (i < ll) {
            uint32_t cp;
            int k = utf8_decode((const unsigned char *)line + i, ll - i, &cp);
            if (k < 0) k = 1, cp = 0xFFFD;
            if (utf8_is_pyspace(cp)) {
                in_word = 0;
            } else {
                if (!in_word) nwords++, cur = 0;
                in_word = 1;
                if (++cur > longest) longest = cur;
            }
            i += (size_t)k;
        }
        if (p->c4_max_word_length != -1 && (long long)longest > p->c4_max_word_length) continue;
        /* the line after citation removal goes where the kept lines go */
        char *l = q->out + olen + (kept ? 1 : 0);
        size_t line_off = (size_t)(line - t), line_len = ll;
        if (p->c4_remove_citations) ll = remove_citations(line, ll, l);
        else memmove(l, line, ll);
        if (p->c4_filter_no_terminal_punct) {
            int term = ll && (l[ll - 1] == '.' || l[ll - 1] == '?' || l[ll - 1] == '!' || l[ll - 1] == '"' ||
                              l[ll - 1] == '\'');
            if (!term || ends_with(l, ll, "...")) continue;
        }
        if ((long long)nwords < p->c4_min_words_per_line) continue;
        size_t lowl = lower_for_ascii(l, ll, q->low);
        if (p->c4_filter_lorem_ipsum && has_sub(q->low, lowl, "lorem ipsum")) {
            *reason = "lorem_ipsum";
            return 0;
        }
        if (p->c4_filter_javascript && has_sub(q->low, lowl, "javascript")) continue;
        if (p->c4_filter_curly_bracket && memchr(l, '{', ll)) {
            *reason = "curly_bracket";
            return 0;
        }
        if (p->c4_filter_policy) {
            int hit = 0;
            for (size_t k = 0; k < sizeof policy / sizeof *policy && !hit; k++) hit = has_sub(q->low, lowl, policy[k]);
            if (hit) continue;
        }
        if (p->c4_min_num_sentences != -1) {
            if (p->c4_split_paragraph) {
                /* len(split_into_sentences(line)): the sentencizer's count, at least one part */
                size_t ns;
                if (ll == line_len) { /* unchanged: its stretch of the document's tokens */
                    size_t lo = 0, hi = q->all.n;
                    while (lo < hi) {
                        size_t mid = (lo + hi) / 2;
                        if (q->all.t[mid].off < line_off) lo = mid + 1;
                        else hi = mid;
                    }
                    size_t e = lo;
                    while (e < q->all.n && q->all.t[e].off < line_off + line_len) e++;
                    ns = spacy_sentences_range(t, q->all.t + lo, e - lo, NULL);
                    for (size_t k = lo; k < e; k++) kept_words += !spacy_is_space_token(t, &q->all.t[k]);
                } else {
                    if ((rc = spacy_tokenize(q->sp, l, ll, &q->toks))) return rc;
                    ns = spacy_sentences(l, &q->toks, NULL);
                    for (size_t k = 0; k < q->toks.n; k++) kept_words += !spacy_is_space_token(l, &q->toks.t[k]);
                }
                num_sentences += ns ? (long long)ns : 1;
            } else num_sentences += 1;
        }
        if (kept) q->out[olen] = p->c4_split_paragraph ? '\n' : ' ';
        olen += (kept ? 1 : 0) + ll;
        kept++;
    }
    if (num_sentences < p->c4_min_num_sentences) {
        *reason = "too_few_sentences";
        return 0;
    }
    /* "\n".join(kept_lines).strip() */
    const char *o = q->out;
    size_t on = olen;
    utf8_strip_pyspace(&o, &on);
    *out = o;
    *out_len = on;
    /* the words of "\n".join(kept_lines) are the kept lines' words (a line break is a
     * whitespace token: no token or special case joins two lines) */
    q->c4_out = o;
    q->c4_on = on;
    q->c4_words = kept_words;
    q->c4_valid = slice;
    return 1;
}

/* ---------- FineWebQualityFilter ---------- */

static int is_stop_char(const quality_params *p, uint32_t cp)
{
    if (!p->stop_chars) return dt_terminal_cp(cp);
    for (size_t i = 0; i < p->n_stop_chars; i++)
        if (p->stop_chars[i] == cp) return 1;
    return 0;
}

int quality_fineweb(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **reason)
{
    int rc;
    /* lines = [line for line in text.split("\n") if line.strip() != ""] */
    q->lines.n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && t[i] != '\n') continue;
        const char *s = t + start;
        size_t l = i - start;
        utf8_strip_pyspace(&s, &l);
        if (l && (rc = spans_push(&q->lines, start, i - start))) return rc;
        start = i + 1;
    }
    size_t nl = q->lines.n;
    if (nl == 0) {
        *reason = "empty";
        return 0;
    }
    size_t punct = 0, shorts = 0;
    for (size_t i = 0; i < nl; i++) {
        const char *s = t + q->lines.v[i].off;
        size_t l = q->lines.v[i].len;
        punct += is_stop_char(p, last_cp(s, l));
        shorts += (long long)cplen(s, l) <= p->short_line_length;
    }
    double ratio = (double)punct / (double)nl;
    if (ratio < p->line_punct_thr && !(ratio == 0 && p->line_punct_exclude_zero)) {
        *reason = "line_punct_ratio";
        return 0;
    }
    if ((double)shorts / (double)nl > p->short_line_thr) {
        *reason = "short_line_ratio";
        return 0;
    }
    size_t dup, dupc, newlines = 0;
    if ((rc = find_duplicates(q, t, &q->lines, &dup, &dupc))) return rc;
    for (size_t i = 0; i < n; i++) newlines += t[i] == '\n';
    /* / len(text.replace("\n", "")): not zero, a line is not blank */
    if ((double)dupc / (double)(cplen(t, n) - newlines) > p->char_duplicates_ratio) {
        *reason = "char_dup_ratio";
        return 0;
    }
    size_t nwords;
    if (q->c4_valid && t == q->c4_out && n == q->c4_on) nwords = q->c4_words;
    else {
        if ((rc = get_words(q, t, n))) return rc;
        nwords = q->words.n;
    }
    if (nwords && (double)newlines / (double)nwords > p->new_line_ratio) {
        *reason = "list_ratio";
        return 0;
    }
    return 1;
}

/* ---------- command-line glue ---------- */

static int parse_bool(const char *flag, const char *v, int *out)
{
    if (!v) return 0;
    if (!strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "yes")) *out = 1;
    else if (!strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "no")) *out = 0;
    else return err_set(ERR_USAGE, "--%s: \"%s\" is not true or false", flag, v);
    return 0;
}

static int parse_ngrams(const char *flag, const char *v, int *count, int *ns, double *fr)
{
    if (!v) return 0;
    *count = 0;
    const char *s = v;
    while (*s) {
        char *e;
        long nn = strtol(s, &e, 10);
        if (e == s || *e != ':') return err_set(ERR_USAGE, "--%s: \"%s\" is not a list of N:FRACTION", flag, v);
        s = e + 1;
        double f = strtod(s, &e);
        if (e == s || (*e && *e != ',')) return err_set(ERR_USAGE, "--%s: \"%s\" is not a list of N:FRACTION", flag, v);
        if (nn < 1 || nn > 1000) return err_set(ERR_USAGE, "--%s: n-gram size %ld is not in 1..1000", flag, nn);
        if (!(f >= 0) || isinf(f)) return err_set(ERR_USAGE, "--%s: fraction %g is not >= 0", flag, f);
        if (*count == QUALITY_MAX_NGRAMS) return err_set(ERR_USAGE, "--%s: at most %d n-gram sizes", flag, QUALITY_MAX_NGRAMS);
        ns[*count] = (int)nn;
        fr[*count] = f;
        (*count)++;
        s = *e ? e + 1 : e;
    }
    return 0;
}

int quality_cli_finish(quality_params *p, quality_cli *s)
{
    int rc = 0;
    if (!rc) rc = parse_ngrams("top-n-grams", s->top_n_grams, &p->n_top, p->top_n, p->top_frac);
    if (!rc) rc = parse_ngrams("dup-n-grams", s->dup_n_grams, &p->n_dup, p->dup_n, p->dup_frac);
    if (rc) return rc;
    quality_params_reasons(p);
    struct { const char *name, *v; int *dest; } bools[] = {
        {"c4-split-paragraph", s->c4_split_paragraph, &p->c4_split_paragraph},
        {"c4-remove-citations", s->c4_remove_citations, &p->c4_remove_citations},
        {"c4-filter-no-terminal-punct", s->c4_filter_no_terminal_punct, &p->c4_filter_no_terminal_punct},
        {"c4-filter-lorem-ipsum", s->c4_filter_lorem_ipsum, &p->c4_filter_lorem_ipsum},
        {"c4-filter-javascript", s->c4_filter_javascript, &p->c4_filter_javascript},
        {"c4-filter-curly-bracket", s->c4_filter_curly_bracket, &p->c4_filter_curly_bracket},
        {"c4-filter-policy", s->c4_filter_policy, &p->c4_filter_policy},
        {"line-punct-exclude-zero", s->line_punct_exclude_zero, &p->line_punct_exclude_zero},
    };
    for (size_t i = 0; i < sizeof bools / sizeof *bools; i++)
        if ((rc = parse_bool(bools[i].name, bools[i].v, bools[i].dest))) return rc;
    struct { const char *name; double v; } fr[] = {
        {"dup-line-frac", p->dup_line_frac}, {"dup-para-frac", p->dup_para_frac},
        {"dup-line-char-frac", p->dup_line_char_frac}, {"dup-para-char-frac", p->dup_para_char_frac},
        {"min-avg-word-length", p->min_avg_word_length}, {"max-avg-word-length", p->max_avg_word_length},
        {"max-symbol-word-ratio", p->max_symbol_word_ratio}, {"max-bullet-lines-ratio", p->max_bullet_lines_ratio},
        {"max-ellipsis-lines-ratio", p->max_ellipsis_lines_ratio},
        {"max-non-alpha-words-ratio", p->max_non_alpha_words_ratio}, {"line-punct-thr", p->line_punct_thr},
        {"short-line-thr", p->short_line_thr}, {"char-duplicates-ratio", p->char_duplicates_ratio},
        {"new-line-ratio", p->new_line_ratio},
    };
    for (size_t i = 0; i < sizeof fr / sizeof *fr; i++)
        if (!(fr[i].v >= 0) || isinf(fr[i].v))
            return err_set(ERR_USAGE, "--%s: %g is out of range (a number >= 0; 0 switches the check off)", fr[i].name,
                           fr[i].v);
    struct { const char *name; long long v, lo; } in[] = {
        {"min-doc-words", p->min_doc_words, 0}, {"max-doc-words", p->max_doc_words, 0},
        {"min-stop-words", p->min_stop_words, 0}, {"c4-min-num-sentences", p->c4_min_num_sentences, -1},
        {"c4-min-words-per-line", p->c4_min_words_per_line, -1}, {"c4-max-word-length", p->c4_max_word_length, -1},
        {"short-line-length", p->short_line_length, 0},
    };
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        if (in[i].v < in[i].lo)
            return err_set(ERR_USAGE, "--%s: %lld is out of range (at least %lld)", in[i].name, in[i].v, in[i].lo);
    if (s->stop_words) {
        s->stop_buf = strdup(s->stop_words);
        size_t n = 1;
        for (const char *c = s->stop_words; *c; c++) n += *c == ',';
        s->stop_vec = calloc(n, sizeof *s->stop_vec);
        if (!s->stop_buf || !s->stop_vec) return err_set(ERR_NOMEM, "out of memory");
        size_t k = 0;
        char *save = NULL;
        for (char *w = strtok_r(s->stop_buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
            if (!utf8_valid(w, strlen(w))) return err_set(ERR_USAGE, "--stop-words: not UTF-8");
            s->stop_vec[k++] = w;
        }
        p->stop_words = s->stop_vec;
        p->n_stop_words = k;
    }
    if (s->stop_chars) {
        size_t n = strlen(s->stop_chars), k = 0, i = 0;
        if (!n) return err_set(ERR_USAGE, "--stop-chars is empty");
        s->stop_chars_vec = calloc(n, sizeof *s->stop_chars_vec);
        if (!s->stop_chars_vec) return err_set(ERR_NOMEM, "out of memory");
        while (i < n) {
            uint32_t cp;
            int l = utf8_decode((const unsigned char *)s->stop_chars + i, n - i, &cp);
            if (l < 0) return err_set(ERR_USAGE, "--stop-chars: not UTF-8");
            s->stop_chars_vec[k++] = cp;
            i += (size_t)l;
        }
        p->stop_chars = s->stop_chars_vec;
        p->n_stop_chars = k;
    }
    return 0;
}

void quality_cli_free(quality_cli *s)
{
    free(s->stop_buf);
    free(s->stop_vec);
    free(s->stop_chars_vec);
}

/* quality_gopher_repetition.c - datatrove's GopherRepetitionFilter (gopher_repetition_filter.py), line by line
 * as quality.c says; one of the four quality filters of cleanup --filters. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/utf8.h"
#include "preprocess/filters/quality_int.h"

#define POLY_B 0x100000001B3ull
/* words of up to this many bytes are interned as two padded 8-byte halves (their bytes
 * first in memory are the low ones only where the machine is little-endian) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SHORT_WORD 16
#else
#define SHORT_WORD 0
#endif

static int ng_reset(quality_ctx *q, size_t expect)
{
    size_t want = 16;
    while (want < expect + expect / 2 + 16) want *= 2;
    void *t = q->ng;
    int rc = q_epoch_table(&t, &q->ngcap, sizeof *q->ng, want, &q->ngepoch, 65536);
    q->ng = t;
    q->ngmask = want - 1;
    return rc;
}

/* an n-gram's polynomial hash spread over the bits the table uses (one multiply: the
 * high half of the product, which every input bit reaches, folded onto the low half) */
static inline uint64_t ng_mix(uint64_t x)
{
    x *= 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 32);
}

/* a slot's tag: the hash's high 16 bits and the table's epoch (16 bits: the table is
 * cleared once in 65,535 uses, not once in 255) */
#define NG_TAG(h, q) (((uint32_t)((h) >> 32) & 0xFFFF0000u) | (q)->ngepoch)
#define NG_FREE(e, q) (((e)->tag & 0xFFFFu) != (q)->ngepoch)

/* Word i's key in the table of short words (a word of up to SHORT_WORD bytes: its two
 * padded 8-byte halves from q->wbuf, whose zeros follow the last word) and its hash; its
 * slot prefetched. Longer words: nothing (they go through the set). */
static inline __attribute__((always_inline)) void word_key(const quality_ctx *q, const sp_token *w, const uint64_t *pb,
                                                           size_t i, size_t wmask, uint64_t *pa, uint64_t *pbh, uint64_t *ph)
{
    uint32_t len = w[i].len;
    if (len > SHORT_WORD) return;
    uint64_t a, b;
    memcpy(&a, q->wbuf + pb[i], 8);
    memcpy(&b, q->wbuf + pb[i] + 8, 8);
    if (len < 8) {
        a &= ~0ull >> (64 - 8 * len); /* len >= 1: a word is not empty */
        b = 0;
    } else if (len < 16) b &= len == 8 ? 0 : ~0ull >> (128 - 8 * len);
    uint64_t h = ng_mix((a + len) * 0x9E3779B97F4A7C15ull ^ b * 0xBF58476D1CE4E5B9ull);
    __builtin_prefetch(&q->wtab[h & wmask]);
    __builtin_prefetch((const char *)&q->wtab[h & wmask] + sizeof(wentry) - 1); /* an entry can straddle two lines */
    *pa = a;
    *pbh = b;
    *ph = h;
}

/* What the n-gram checks need of the words (q->words): interned ids (q->wid) and how
 * often each occurs (q->idcnt); prefix sums over the words, so that each n-gram's
 * bytes, characters and id hash come in O(1): pb bytes, pc characters, pid a polynomial
 * hash of the ids; and "".join(words) itself (q->wbuf, 16 bytes of zeros after it),
 * where an n-gram's joined bytes are wbuf[pb[i]..pb[i + n]). */
static int rep_prepare(quality_ctx *q, const char *t, size_t n)
{
    size_t nw = q->words.n;
    const sp_token *w = q->words.t;
    if (nw + 1 > q->precap) {
        uint64_t *np = realloc(q->pre, 3 * (nw + 1) * sizeof *np);
        if (!np) return ERR_NOMEM;
        q->pre = np;
        uint32_t *nc = realloc(q->idcnt, (nw + 1) * sizeof *nc);
        if (!nc) return ERR_NOMEM;
        q->idcnt = nc;
        uint32_t *nm = realloc(q->wmin, (nw + 1) * sizeof *nm);
        if (!nm) return ERR_NOMEM;
        q->wmin = nm;
        q->precap = nw + 1;
    }
    q->wmin_n = 0;
    uint64_t *pb = q->pre, *pc = pb + (nw + 1), *pid = pc + (nw + 1);
    pb[0] = pc[0] = pid[0] = 0;
    for (size_t i = 0; i < nw; i++) {
        pb[i + 1] = pb[i] + w[i].len;
        pc[i + 1] = pc[i] + q->wcp[i];
    }
    size_t nb = (size_t)pb[nw];
    if (nb + 16 > q->wbuf_cap) {
        char *nbuf = realloc(q->wbuf, nb + nb / 2 + 16);
        if (!nbuf) return ERR_NOMEM;
        q->wbuf = nbuf;
        q->wbuf_cap = nb + nb / 2 + 16;
    }
    for (size_t i = 0; i < nw; i++) { /* a short word as 16 bytes where the text goes on (the rest is written over) */
        if (w[i].len <= 16 && w[i].off + 16 <= n) memcpy(q->wbuf + pb[i], t + w[i].off, 16);
        else memcpy(q->wbuf + pb[i], t + w[i].off, w[i].len);
    }
    memset(q->wbuf + nb, 0, 16);
    /* intern the words: equal " ".join(n-grams) <=> equal word sequences (no word holds
     * a space). A word of up to 16 bytes is its two padded 8-byte halves (read from wbuf,
     * whose zeros follow the last word), compared as such; longer ones go through the set */
    size_t want = 16;
    while (want < 2 * nw + 16) want *= 2;
    void *wt = q->wtab;
    int rc = q_epoch_table(&wt, &q->wtab_cap, sizeof *q->wtab, want, &q->wepoch, 65536);
    q->wtab = wt;
    if (rc) return rc;
    size_t wmask = want - 1;
    if (q_sset_reset(&q->set, 16)) return ERR_NOMEM;
    uint32_t next = 0;
    const char *wb = q->wbuf;
    /* the keys and hashes are taken WORD_AHEAD words ahead of their lookup and the slot
     * prefetched: the table is megabytes for a long text and read at random (the lookups
     * themselves, in order, are as before, so are the ids) */
    enum { WORD_AHEAD = 16 };
    struct { uint64_t a, b, h; } ring[WORD_AHEAD] = {{0, 0, 0}};
    for (size_t j = 0; j < WORD_AHEAD && j < nw; j++) word_key(q, w, pb, j, wmask, &ring[j].a, &ring[j].b, &ring[j].h);
    for (size_t i = 0; i < nw; i++) {
        uint32_t len = w[i].len, id;
        if (len <= SHORT_WORD) {
            size_t r = i % WORD_AHEAD;
            uint64_t a = ring[r].a, b = ring[r].b, h = ring[r].h;
            for (size_t x = h & wmask;; x = (x + 1) & wmask) {
                wentry *e = &q->wtab[x];
                if (e->epoch != q->wepoch) {
                    *e = (wentry){a, b, next, (uint16_t)len, (uint16_t)q->wepoch};
                    id = next;
                    q->idcnt[next++] = 0;
                    break;
                }
                if (e->a == a && e->b == b && e->len == len) {
                    id = e->id;
                    break;
                }
            }
        } else {
            int created;
            sent *e = q_sset_get(&q->set, wb, (uint32_t)pb[i], len, &created);
            if (created < 0) return ERR_NOMEM;
            if (created) {
                e->val = next;
                q->idcnt[next++] = 0;
            }
            id = e->val;
        }
        if (i + WORD_AHEAD < nw) {
            size_t r = i % WORD_AHEAD;
            word_key(q, w, pb, i + WORD_AHEAD, wmask, &ring[r].a, &ring[r].b, &ring[r].h);
        }
        q->wid[i] = id;
        q->idcnt[id]++;
        pid[i + 1] = pid[i] * POLY_B + (uint64_t)id + 1;
    }
    return 0;
}

/* The most frequent n-gram (of ids) and its count; ties to the first inserted. */
static int top_ngram(quality_ctx *q, size_t gn, size_t *best_count_out, size_t *best_first_out)
{
    size_t nw = q->words.n, m = nw - gn + 1;
    const uint64_t *pid = q->pre + 2 * (nw + 1);
    int rc;
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
        uint64_t h = ng_mix(pid[i + gn] - pid[i] * bn);
        uint32_t tag = NG_TAG(h, q), first = (uint32_t)i;
        for (size_t x = h & q->ngmask;; x = (x + 1) & q->ngmask) {
            ngent *e = &q->ng[x];
            if (NG_FREE(e, q)) {
                *e = (ngent){tag, (uint32_t)i + 1};
                q->cnt[i] = 0;
                break;
            }
            if (e->tag == tag && mem_same(q->wid + (e->pos1 - 1), q->wid + i, gn * sizeof *q->wid)) {
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
    *best_count_out = best_count;
    *best_first_out = best_first;
    return 0;
}

/* A bound on count x characters of every n-gram: an n-gram occurs no more often than
 * the rarest of its words, so the n-gram at i contributes at most its characters times
 * that word's count. UINT64_MAX (no bound) for n over 8. */
static uint64_t top_bound(quality_ctx *q, size_t gn)
{
    if (gn > 8) return UINT64_MAX;
    size_t nw = q->words.n, m = nw - gn + 1;
    const uint64_t *pc = q->pre + (nw + 1);
    uint32_t *mn = q->wmin; /* mn[i]: the least count of the words i .. i + wmin_n - 1 */
    if (q->wmin_n == 0 || q->wmin_n > gn) {
        for (size_t i = 0; i < nw; i++) mn[i] = q->idcnt[q->wid[i]];
        q->wmin_n = 1;
    }
    const uint32_t *wid = q->wid, *cnt = q->idcnt;
    for (; q->wmin_n + 1 < gn; q->wmin_n++) /* widened a word at a time (the sizes come 2, 3, 4) */
        for (size_t i = 0; i + q->wmin_n < nw; i++) {
            uint32_t d = cnt[wid[i + q->wmin_n]];
            mn[i] = d < mn[i] ? d : mn[i];
        }
    uint64_t best = 0;
    if (q->wmin_n + 1 == gn) { /* the last word of the widening and the bound in one pass (i < m = nw - wmin_n) */
        for (size_t i = 0; i < m; i++) {
            uint32_t d = cnt[wid[i + q->wmin_n]], x = d < mn[i] ? d : mn[i];
            mn[i] = x;
            uint64_t v = (uint64_t)x * (gn - 1 + pc[i + gn] - pc[i]);
            best = v > best ? v : best;
        }
        q->wmin_n = gn;
        return best;
    }
    for (size_t i = 0; i < m; i++) {
        uint64_t v = (uint64_t)mn[i] * (gn - 1 + pc[i + gn] - pc[i]);
        best = v > best ? v : best;
    }
    return best;
}

/* top_bound for the sizes 2, 3 and 4 at once (datatrove's defaults), in one pass: the
 * counts of the four words from i on slide along, each size's least count and bound taken
 * from them; b[g] for g = 2, 3, 4 (0 where the text has fewer than g words). */
static void top_bounds_234(const quality_ctx *q, uint64_t b[5])
{
    size_t nw = q->words.n;
    const uint64_t *pc = q->pre + (nw + 1);
    const uint32_t *wid = q->wid, *cnt = q->idcnt;
    uint64_t b2 = 0, b3 = 0, b4 = 0;
    size_t i = 0;
    if (nw >= 4) {
        uint32_t c0 = cnt[wid[0]], c1 = cnt[wid[1]], c2 = cnt[wid[2]];
        for (; i + 4 <= nw; i++) {
            uint32_t c3 = cnt[wid[i + 3]];
            uint32_t m2 = c0 < c1 ? c0 : c1, m3 = m2 < c2 ? m2 : c2, m4 = m3 < c3 ? m3 : c3;
            uint64_t v2 = (uint64_t)m2 * (1 + pc[i + 2] - pc[i]), v3 = (uint64_t)m3 * (2 + pc[i + 3] - pc[i]),
                     v4 = (uint64_t)m4 * (3 + pc[i + 4] - pc[i]);
            b2 = v2 > b2 ? v2 : b2;
            b3 = v3 > b3 ? v3 : b3;
            b4 = v4 > b4 ? v4 : b4;
            c0 = c1;
            c1 = c2;
            c2 = c3;
        }
    }
    for (; i + 2 <= nw; i++) { /* the last windows of two and three words */
        uint32_t c0 = cnt[wid[i]], c1 = cnt[wid[i + 1]], m2 = c0 < c1 ? c0 : c1;
        uint64_t v2 = (uint64_t)m2 * (1 + pc[i + 2] - pc[i]);
        b2 = v2 > b2 ? v2 : b2;
        if (i + 3 <= nw) {
            uint32_t c2 = cnt[wid[i + 2]], m3 = m2 < c2 ? m2 : c2;
            uint64_t v3 = (uint64_t)m3 * (2 + pc[i + 3] - pc[i]);
            b3 = v3 > b3 ? v3 : b3;
        }
    }
    b[2] = b2;
    b[3] = b3;
    b[4] = b4;
}

/* A key of rep_candidates found again: both positions marked. key: the first 8 or 16
 * bytes of "".join(words) at position i (wide: 16), in the table with the position's
 * wide flag in bit 31 of its pos1. */
static inline __attribute__((always_inline)) uint64_t rep_hash(const char *wb, const uint64_t *pb, size_t i, int wide,
                                                                uint64_t *pa, uint64_t *pbb)
{
    uint64_t a, b = 0;
    memcpy(&a, wb + pb[i], 8);
    if (wide) memcpy(&b, wb + pb[i] + 8, 8);
    *pa = a;
    *pbb = b;
    return ng_mix(a * 0x9E3779B97F4A7C15ull + (b ^ (b >> 29) ^ (uint64_t)wide) * 0xBF58476D1CE4E5B9ull);
}

/* the slot of position i's key, prefetched (rep_candidates, ahead of rep_key) */
static inline __attribute__((always_inline)) void rep_prefetch(const quality_ctx *q, const char *wb, const uint64_t *pb,
                                                               size_t i, int wide)
{
    uint64_t a, b;
    __builtin_prefetch(&q->ng[rep_hash(wb, pb, i, wide, &a, &b) & q->ngmask]);
}

static inline __attribute__((always_inline)) void rep_key(quality_ctx *q, const char *wb, const uint64_t *pb, size_t i, int wide)
{
    uint64_t a, b;
    uint64_t h = rep_hash(wb, pb, i, wide, &a, &b);
    uint32_t tag = NG_TAG(h, q), me = ((uint32_t)i + 1) | (uint32_t)wide << 31;
    for (size_t x = h & q->ngmask;; x = (x + 1) & q->ngmask) {
        ngent *e = &q->ng[x];
        if (NG_FREE(e, q)) {
            *e = (ngent){tag, me};
            return;
        }
        if (e->tag == tag && (e->pos1 >> 31) == (uint32_t)wide) {
            size_t o = (e->pos1 & 0x7FFFFFFFu) - 1;
            uint64_t c, d = 0;
            memcpy(&c, wb + pb[o], 8);
            if (wide) memcpy(&d, wb + pb[o] + 8, 8);
            if (c == a && d == b) {
                q->rmark[i] = q->rmark[o] = 1;
                return;
            }
        }
    }
}

/* The positions where an n-gram of g0 or more words can equal an earlier one, as
 * "".join() compares them, in order in q->rpos (*nr of them). Let L be the bytes of two
 * equal n-grams (n >= g0). When L >= 16 both starts have the same 16 bytes of
 * "".join(words) from there; when 8 <= L < 16, the same 8 bytes, and each start's g0
 * words hold fewer than 16 bytes; when L < 8, each start's g0 words hold fewer than 8.
 * So the candidates are the starts whose g0 words hold under 8 bytes, those whose 16
 * bytes occur at another start, and those whose g0 words hold under 16 bytes and whose
 * 8 bytes occur at another such start. Any other start is never a repeat nor the first
 * of one: find_all_duplicate adds it to its set and moves on, and nothing finds it
 * there. One pass of one table instead of a table per n over every position. */
static int rep_candidates(quality_ctx *q, size_t g0, size_t *nr)
{
    size_t nw = q->words.n, m = nw - g0 + 1;
    const uint64_t *pb = q->pre;
    int rc;
    if (m > q->rcap) {
        uint32_t *np = realloc(q->rpos, m * sizeof *np);
        if (!np) return ERR_NOMEM;
        q->rpos = np;
        uint8_t *nm = realloc(q->rmark, m);
        if (!nm) return ERR_NOMEM;
        q->rmark = nm;
        q->rcap = m;
    }
    if (m >= 0x7FFFFFFFu) return err_set(ERR_LIMIT, "a text of 2^31 words or more");
    if ((rc = ng_reset(q, 2 * m))) return rc;
    const char *wb = q->wbuf;
    uint64_t nb = pb[nw];
    enum { KEY_AHEAD = 16 }; /* the slots of the keys this many positions on are prefetched */
    for (size_t i = 0; i < m; i++) {
        if (i + KEY_AHEAD < m) {
            size_t j = i + KEY_AHEAD;
            uint64_t lgj = pb[j + g0] - pb[j], remj = nb - pb[j];
            if (remj >= 16) rep_prefetch(q, wb, pb, j, 1);
            if (lgj < 16 && remj >= 8) rep_prefetch(q, wb, pb, j, 0);
        }
        uint64_t lg = pb[i + g0] - pb[i], rem = nb - pb[i];
        q->rmark[i] = lg < 8;
        if (rem >= 16) rep_key(q, wb, pb, i, 1);
        if (lg < 16 && rem >= 8) rep_key(q, wb, pb, i, 0);
    }
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (q->rmark[i]) q->rpos[k++] = (uint32_t)i;
    *nr = k;
    return 0;
}

/* find_all_duplicate(words, n) on "".join(n-gram): the key is the joined bytes (in
 * q->wbuf), hashed, equal hashes compared byte for byte. pos: the positions to visit
 * (rep_candidates), ascending, or NULL for every one. */
static int dup_chars(quality_ctx *q, size_t gn, const uint32_t *pos, size_t np, size_t *out)
{
    size_t nw = q->words.n, m = nw - gn + 1;
    const uint64_t *pb = q->pre, *pc = pb + (nw + 1);
    const char *wb = q->wbuf;
    int rc;
    if ((rc = ng_reset(q, pos ? np : m))) return rc;
    size_t repeated = 0, idx = 0, r = 0;
    for (;;) {
        if (pos) { /* the next candidate at or after idx */
            while (r < np && pos[r] < idx) r++;
            if (r == np || pos[r] >= m) break;
            idx = pos[r];
        } else if (idx >= m) break;
        uint64_t bytes = pb[idx + gn] - pb[idx];
        uint64_t h = hash64_mem(wb + pb[idx], (size_t)bytes, 5);
        uint32_t tag = NG_TAG(h, q);
        int found = 0;
        for (size_t x = h & q->ngmask;; x = (x + 1) & q->ngmask) {
            ngent *e = &q->ng[x];
            if (NG_FREE(e, q)) {
                *e = (ngent){tag, (uint32_t)idx + 1};
                break;
            }
            size_t o = e->pos1 - 1;
            if (e->tag == tag && pb[o + gn] - pb[o] == bytes && mem_same(wb + pb[o], wb + pb[idx], (size_t)bytes)) {
                found = 1;
                break;
            }
        }
        if (found) {
            repeated += (size_t)(pc[idx + gn] - pc[idx]);
            idx += gn;
        } else idx++;
    }
    *out = repeated;
    return 0;
}

int quality_gopher_repetition(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **reason)
{
    if (n == 0) { /* if not text */
        *reason = "empty";
        return 0;
    }
    double len_text = (double)q_cplen(t, n);
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
            const char *nl = memchr(s + i, '\n', sn - i);
            if (!nl) break;
            i = (size_t)(nl - s);
            if (i + 1 < sn && s[i + 1] == '\n') {
                size_t j = i;
                while (j < sn && s[j] == '\n') j++;
                if ((rc = q_spans_push(&q->parts, (size_t)(s - t) + start, i - start))) return rc;
                start = i = j;
            } else i++;
        }
        if ((rc = q_spans_push(&q->parts, (size_t)(s - t) + start, sn - start))) return rc;
    }
    if ((rc = q_find_duplicates(q, t, &q->parts, &dup, &dupc))) return rc;
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
            const char *nl = memchr(t + i, '\n', n - i);
            if (!nl) break;
            i = (size_t)(nl - t);
            size_t j = i;
            while (j < n && t[j] == '\n') j++;
            if ((rc = q_spans_push(&q->lines, start, i - start))) return rc;
            start = i = j;
        }
        if ((rc = q_spans_push(&q->lines, start, n - start))) return rc;
    }
    if ((rc = q_find_duplicates(q, t, &q->lines, &dup, &dupc))) return rc;
    if (p->dup_line_frac && (double)dup / (double)q->lines.n > p->dup_line_frac) {
        *reason = "dup_line_frac";
        return 0;
    }
    if (p->dup_line_char_frac && (double)dupc / len_text > p->dup_line_char_frac) {
        *reason = "dup_line_char_frac";
        return 0;
    }
    if ((rc = q_get_words(q, t, n))) return rc;
    if (p->n_top == 0 && p->n_dup == 0) return 1;
    if ((rc = rep_prepare(q, t, n))) return rc;
    size_t nw = q->words.n;
    const uint64_t *pc = q->pre + (nw + 1);
    /* top n-grams: find_top_duplicate(get_n_grams(words, n)) */
    int sizes_234 = p->n_top > 0; /* every size 2, 3 or 4: their bounds in one pass */
    for (int k = 0; k < p->n_top; k++) sizes_234 &= p->top_n[k] >= 2 && p->top_n[k] <= 4;
    uint64_t b234[5];
    if (sizes_234) top_bounds_234(q, b234);
    for (int k = 0; k < p->n_top; k++) {
        size_t gn = (size_t)p->top_n[k];
        q->rep_top[k] = UINT64_MAX;
        if (gn == 0 || nw < gn) continue; /* if not n_grams: continue */
        /* count x chars of the top n-gram is at most this bound: skip the count when it passes */
        uint64_t bound = sizes_234 ? b234[gn] : top_bound(q, gn);
        q->rep_bound[k] = bound;
        if (!q->rep_reference && (double)bound / len_text <= p->top_frac[k]) continue;
        size_t best_count, best_first;
        if ((rc = top_ngram(q, gn, &best_count, &best_first))) return rc;
        size_t chars = gn - 1 + (size_t)(pc[best_first + gn] - pc[best_first]);
        q->rep_top[k] = (uint64_t)chars * best_count;
        if ((double)(chars * best_count) / len_text > p->top_frac[k]) {
            *reason = p->top_reason[k];
            return 0;
        }
    }
    /* duplicated n-grams: find_all_duplicate(words, n), walked only over the positions
     * that can repeat (rep_candidates) */
    int g0 = 0;
    for (int k = 0; k < p->n_dup; k++)
        if (p->dup_n[k] > 0 && (!g0 || p->dup_n[k] < g0)) g0 = p->dup_n[k];
    size_t nr = SIZE_MAX;
    if (g0 && (size_t)g0 <= nw && !q->rep_reference && (rc = rep_candidates(q, (size_t)g0, &nr))) return rc;
    for (int k = 0; k < p->n_dup; k++) {
        size_t gn = (size_t)p->dup_n[k], repeated = 0;
        if (gn > 0 && nw >= gn && (rc = dup_chars(q, gn, nr == SIZE_MAX ? NULL : q->rpos, nr, &repeated)))
            return rc;
        q->rep_dup[k] = repeated;
        if ((double)repeated / len_text > p->dup_frac[k]) {
            *reason = p->dup_reason[k];
            return 0;
        }
    }
    return 1;
}

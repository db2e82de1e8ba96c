/* quality.c - what datatrove's Gopher, C4 and FineWeb quality filters share (see
 * quality.h; each filter in its own file: quality_gopher_repetition.c,
 * quality_gopher_quality.c, quality_c4.c, quality_fineweb.c): the context, the
 * string helpers, the parameters and their command-line glue.
 *
 * Each function follows its datatrove counterpart line by line (datatrove
 * 0.10.1: pipeline/filters/gopher_repetition_filter.py, gopher_quality_filter.py,
 * c4_filters.py, fineweb_quality_filter.py); the comments name the Python
 * they stand for. Python's semantics kept: len() counts code points; strip(),
 * split() and q_splitlines() use Python's whitespace and line boundaries; "/" is
 * a float division; Counter.most_common(1) takes the first-inserted of ties. */
#define _GNU_SOURCE
#include "preprocess/filters/quality.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/err.h"
#include "common/hash.h"
#include "common/utf8.h"
#include "preprocess/filters/quality_int.h"
#include "preprocess/text/spacy_tok.h"

/* ---------- Python string helpers on UTF-8 ---------- */

size_t q_cplen(const char *s, size_t n)
{
    /* n less the continuation bytes (10xxxxxx), eight at a time: bit 7 set and bit 6
     * clear, gathered into one byte each and summed by a multiply */
    size_t c = n, i = 0;
#if defined(__SSE2__)
    /* sixteen at a time: a continuation byte is below -64 as a signed byte; each lane
     * counts them (up to 255 rounds), then the lanes are summed */
    const __m128i zero = _mm_setzero_si128(), lim = _mm_set1_epi8(-64);
    while (i + 16 <= n) {
        __m128i acc = zero;
        for (int k = 0; k < 255 && i + 16 <= n; k++, i += 16)
            acc = _mm_sub_epi8(acc, _mm_cmplt_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i)), lim));
        __m128i sum = _mm_sad_epu8(acc, zero);
        c -= (size_t)_mm_cvtsi128_si32(sum) + (size_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum));
    }
#endif
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        uint64_t k = (w & ~(w << 1) & 0x8080808080808080ull) >> 7;
        c -= (size_t)((k * 0x0101010101010101ull) >> 56);
    }
    for (; i < n; i++) c -= ((unsigned char)s[i] & 0xC0) == 0x80;
    return c;
}

/* the last code point of s[0..n) (n > 0) */
uint32_t q_last_cp(const char *s, size_t n)
{
    size_t j = n - 1;
    while (j > 0 && n - j < 4 && ((unsigned char)s[j] & 0xC0) == 0x80) j--;
    uint32_t cp;
    return utf8_decode((const unsigned char *)s + j, n - j, &cp) > 0 ? cp : 0xFFFD;
}

int q_ends_with(const char *s, size_t n, const char *suf)
{
    size_t k = strlen(suf);
    return n >= k && !memcmp(s + n - k, suf, k);
}
int q_starts_with(const char *s, size_t n, const char *pre)
{
    size_t k = strlen(pre);
    return n >= k && !memcmp(s, pre, k);
}

/* str.count(sub): non-overlapping occurrences */
size_t q_count_sub(const char *s, size_t n, const char *sub)
{
    size_t k = strlen(sub), c = 0;
    const char *p = s, *e = s + n;
    if (!k) return n + 1; /* as Python counts "" */
    /* memchr for the first byte (the needles are short and their first bytes rare):
     * several times faster than memmem's setup and shift table over a whole document */
    while ((size_t)(e - p) >= k) {
        const char *q = memchr(p, sub[0], (size_t)(e - p) - k + 1);
        if (!q) break;
        if (!memcmp(q + 1, sub + 1, k - 1)) {
            c++;
            p = q + k;
        } else p = q + 1;
    }
    return c;
}

/* str.q_splitlines() boundaries: \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029.
 * Returns the length of the line break at s[i] (0: none). */
size_t q_line_break_at(const char *s, size_t n, size_t i)
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


int q_spans_push(spans *a, size_t off, size_t len)
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

/* the bytes a line break can start with */
static const uint8_t lb_first[256] = {['\n'] = 1, ['\r'] = 1, [0x0B] = 1, [0x0C] = 1, [0x1C] = 1,
                                      [0x1D] = 1,  [0x1E] = 1, [0xC2] = 1, [0xE2] = 1};

int q_splitlines(const char *s, size_t n, spans *out)
{
    out->n = 0;
    size_t start = 0, i = 0;
    while (i < n) {
        /* eight bytes at a time while none can start a line break: every such byte is
         * 0x0A..0x0D, 0x1C..0x1E or above ASCII */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            uint64_t x = w & ~HI8;
            if ((w & HI8) | in_range8(x, 0x0A, 0x0D) | in_range8(x, 0x1C, 0x1E)) break;
            i += 8;
        }
        if (i >= n) break;
        if (!lb_first[(unsigned char)s[i]]) {
            i++;
            continue;
        }
        size_t k = q_line_break_at(s, n, i);
        if (k) {
            if (q_spans_push(out, start, i - start)) return ERR_NOMEM;
            i += k;
            start = i;
        } else i++;
    }
    if (start < n && q_spans_push(out, start, n - start)) return ERR_NOMEM;
    return 0;
}

int q_epoch_table(void **tab, size_t *cap, size_t elem, size_t want, uint32_t *epoch, uint32_t wrap)
{
    if (want > *cap) {
        free(*tab);
        *tab = calloc(want, elem);
        if (!*tab) {
            *cap = 0;
            return ERR_NOMEM;
        }
        *cap = want;
        *epoch = 0;
    }
    if (++*epoch == wrap) { /* wrapped: no slot may carry the new epoch */
        memset(*tab, 0, *cap * elem);
        *epoch = 1;
    }
    return 0;
}

/* ---------- a set / counter of byte strings (per document) ---------- */


int q_sset_reset(sset *s, size_t expect)
{
    size_t want = 16;
    if (expect > 1 << 16) expect = 1 << 16; /* it grows */
    while (want < 2 * expect + 16) want *= 2;
    /* the table is kept from document to document (an epoch resets it) and only its
     * first `want` slots used, so a short document touches little memory; one grown
     * for a long document is given back when over 6 MB */
    if (want > s->cap || (s->cap > (1u << 18) && s->cap > 4 * want)) {
        free(s->e);
        s->e = calloc(want, sizeof *s->e);
        if (!s->e) {
            s->cap = 0;
            return ERR_NOMEM;
        }
        s->cap = want;
        s->epoch = 0;
    }
    s->mask = want - 1;
    s->used = 0;
    if (++s->epoch == 0) { /* wrapped: no slot may carry the new epoch */
        memset(s->e, 0, s->cap * sizeof *s->e);
        s->epoch = 1;
    }
    return 0;
}

int q_sset_grow(sset *s)
{
    size_t nc = 2 * (s->mask + 1);
    sent *ne = calloc(nc, sizeof *ne);
    if (!ne) return ERR_NOMEM;
    for (size_t i = 0; i <= s->mask; i++) {
        if (s->e[i].epoch != s->epoch) continue;
        size_t j = s->e[i].h & (nc - 1);
        while (ne[j].epoch) j = (j + 1) & (nc - 1);
        ne[j] = s->e[i];
        ne[j].epoch = 1;
    }
    free(s->e);
    s->e = ne;
    s->cap = nc;
    s->mask = nc - 1;
    s->epoch = 1;
    return 0;
}

/* find or insert base[off..off+len); *created says which (-1: out of memory) */
sent *q_sset_get(sset *s, const char *base, uint32_t off, uint32_t len, int *created)
{
    if (2 * (s->used + 1) > s->mask + 1 && q_sset_grow(s)) {
        *created = -1;
        return NULL;
    }
    uint64_t h = hash64_mem(base + off, len, 3);
    for (size_t i = h & s->mask;; i = (i + 1) & s->mask) {
        sent *e = &s->e[i];
        if (e->epoch != s->epoch) {
            *e = (sent){h, off, len, 0, s->epoch};
            s->used++;
            *created = 1;
            return e;
        }
        if (e->h == h && e->len == len && mem_same(base + e->off, base + off, len)) {
            *created = 0;
            return e;
        }
    }
}



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
    free(q->idcnt);
    free(q->wmin);
    free(q->wtab);
    free(q->wbuf);
    free(q->rpos);
    free(q->rmark);
    free(q->parts.v);
    free(q->lines.v);
    free(q->set.e);
    free(q->out);
    free(q->low);
    free(q);
}

void quality_begin(quality_ctx *q) { q->have_words = q->c4_valid = 0; }

/* datatrove's split_into_words(text), once per document */
int q_get_words(quality_ctx *q, const char *t, size_t n)
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
    for (size_t i = 0; i < q->words.n; i++) {
        uint32_t off = q->words.t[i].off, len = q->words.t[i].len;
        if (len <= 8 && off + 8 <= n) { /* one load (the text goes on): its first len bytes counted */
            uint64_t w;
            memcpy(&w, t + off, 8);
            uint64_t k = (w & ~(w << 1) & 0x8080808080808080ull) >> 7; /* continuation bytes */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            k &= len == 8 ? ~0ull : (1ull << (8 * len)) - 1;
#else
            k &= len == 8 ? ~0ull : ~(~0ull >> (8 * len));
#endif
            q->wcp[i] = len - (uint32_t)((k * 0x0101010101010101ull) >> 56);
        } else q->wcp[i] = (uint32_t)q_cplen(t + off, len);
    }
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

/* q_find_duplicates(x): (elements seen before, their characters) */
int q_find_duplicates(quality_ctx *q, const char *t, const spans *x, size_t *dup, size_t *dup_chars)
{
    *dup = *dup_chars = 0;
    if (q_sset_reset(&q->set, x->n)) return ERR_NOMEM;
    for (size_t i = 0; i < x->n; i++) {
        int created;
        q_sset_get(&q->set, t, x->v[i].off, x->v[i].len, &created);
        if (created < 0) return ERR_NOMEM;
        if (!created) {
            (*dup)++;
            *dup_chars += q_cplen(t + x->v[i].off, x->v[i].len);
        }
    }
    return 0;
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

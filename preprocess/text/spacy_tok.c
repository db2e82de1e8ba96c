/* spacy_tok.c - spaCy's English tokenizer and sentencizer (see spacy_tok.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "preprocess/text/spacy_tok.h"

#include <pcre2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/utf8.h"
#include "preprocess/text/generated/spacy_en_data.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int in_ranges(const uint32_t (*r)[2], size_t n, uint32_t cp)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp < r[mid][0]) hi = mid;
        else if (cp > r[mid][1]) lo = mid + 1;
        else return 1;
    }
    return 0;
}
int py_isalpha_cp(uint32_t cp)
{
    if (cp < 0x80) return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
    return in_ranges(py_alpha_ranges, NELEM(py_alpha_ranges), cp);
}
/* the ASCII answers of the range tables, looked up instead of searched (bit per table) */
uint8_t sp_ascii_class[128];
__attribute__((constructor)) static void ascii_class_init(void)
{
    for (uint32_t c = 0; c < 128; c++)
        sp_ascii_class[c] = (uint8_t)((in_ranges(py_space_ranges, NELEM(py_space_ranges), c) ? A_SPACE : 0) |
                                      (in_ranges(uc_punct_ranges, NELEM(uc_punct_ranges), c) ? A_PUNCT : 0) |
                                      (in_ranges(dt_punctuation_ranges, NELEM(dt_punctuation_ranges), c) ? A_DTPUNCT : 0) |
                                      (in_ranges(dt_terminal_ranges, NELEM(dt_terminal_ranges), c) ? A_TERMINAL : 0) |
                                      (py_isalpha_cp(c) ? A_ALPHA : 0));
}
int py_isspace_cp(uint32_t cp)
{
    return cp < 128 ? sp_ascii_class[cp] & A_SPACE : in_ranges(py_space_ranges, NELEM(py_space_ranges), cp);
}
int uc_ispunct_cp(uint32_t cp)
{
    return cp < 128 ? (sp_ascii_class[cp] & A_PUNCT) != 0 : in_ranges(uc_punct_ranges, NELEM(uc_punct_ranges), cp);
}
int dt_punctuation_cp(uint32_t cp)
{
    return cp < 128 ? (sp_ascii_class[cp] & A_DTPUNCT) != 0
                    : in_ranges(dt_punctuation_ranges, NELEM(dt_punctuation_ranges), cp);
}
int dt_terminal_cp(uint32_t cp)
{
    return cp < 128 ? (sp_ascii_class[cp] & A_TERMINAL) != 0 : in_ranges(dt_terminal_ranges, NELEM(dt_terminal_ranges), cp);
}
int py_isdecimal_cp(uint32_t cp)
{
    if (cp < 0x80) return cp >= '0' && cp <= '9';
    return in_ranges(py_decimal_ranges, NELEM(py_decimal_ranges), cp);
}
const char *py_lower_special(uint32_t cp)
{
    for (size_t i = 0; i < NELEM(py_lower_to_ascii); i++)
        if (py_lower_to_ascii[i].cp == cp) return py_lower_to_ascii[i].lower;
    return NULL;
}
static int sent_punct_cp(uint32_t cp) { return in_ranges(spacy_sent_punct_ranges, NELEM(spacy_sent_punct_ranges), cp); }
const char *const *gopher_default_stop_words(size_t *n)
{
    *n = NELEM(gopher_stop_words);
    return gopher_stop_words;
}
const char *spacy_en_version(void) { return SPACY_EN_VERSION; }

/* ---------- shared rules ---------- */

/* a string -> value table (open addressing), built once */
typedef struct {
    const char *s;
    uint32_t len, val;
    uint64_t h;
    uint32_t cls; /* R.specials: the token's special-case classes (see tok_class) */
} kv;
typedef struct {
    kv *slot;
    size_t mask;
    uint64_t filter[1024]; /* one bit per key's kv_quick: most words are in no table and miss here */
} kvtab;

/* a cheap 16-bit digest of a key (length, first two and last bytes) for kvtab.filter */
static inline uint32_t kv_quick(const char *s, size_t len)
{
    if (!len) return 0;
    uint32_t x = ((uint32_t)(unsigned char)s[0] | (uint32_t)(unsigned char)s[len - 1] << 8 |
                  (len > 1 ? (uint32_t)(unsigned char)s[1] << 16 : 0)) ^
                 (uint32_t)len << 24;
    return (x * 0x9E3779B1u) >> 16;
}

static int kv_put(kvtab *t, const char *s, size_t len, uint32_t val)
{
    uint32_t q = kv_quick(s, len);
    t->filter[q >> 6] |= 1ull << (q & 63);
    uint64_t h = hash64_mem(s, len, 7);
    for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
        kv *e = &t->slot[i];
        if (!e->s) {
            *e = (kv){s, (uint32_t)len, val, h, 0};
            return 1;
        }
        if (e->h == h && e->len == len && mem_same(e->s, s, len)) return 0;
    }
}
static const kv *kv_get_slow(const kvtab *t, const char *s, size_t len);
/* the filter inline, the table only for what passes it */
static inline const kv *kv_get(const kvtab *t, const char *s, size_t len)
{
    uint32_t q = kv_quick(s, len);
    if (!(t->filter[q >> 6] >> (q & 63) & 1)) return NULL;
    return kv_get_slow(t, s, len);
}
static const kv *kv_get_slow(const kvtab *t, const char *s, size_t len)
{
    uint64_t h = hash64_mem(s, len, 7);
    for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
        const kv *e = &t->slot[i];
        if (!e->s) return NULL;
        if (e->h == h && e->len == len && mem_same(e->s, s, len)) return e;
    }
}

typedef struct {
    const char *tok[16]; /* token texts (pointers into the generated strings) */
    uint32_t len[16];
    int n;
} mpattern;

static struct {
    pcre2_code *prefix, *suffix, *infix, *url;
    kvtab specials; /* key -> index into spacy_en_specials */
    size_t max_special;
    mpattern *pat;  /* the special cases matched again after affix splitting */
    size_t npat;
    kvtab first;    /* first token text -> class (1..) and first pattern with it (chained by next[]) */
    kvtab second;   /* second token text -> class (1..) */
    uint32_t *head; /* class of a first token -> its first pattern */
    uint32_t *next;
    uint8_t *pair;  /* [first class][second class]: some pattern starts so */
    uint32_t nfirst, nsecond;
    size_t max_tok;
    int rc;
} R;
static pthread_once_t R_once = PTHREAD_ONCE_INIT;

/* R.specials holds the special cases (val: index into spacy_en_specials) and, with val
 * NOT_SPECIAL, the other tokens of the special-case patterns, for their classes */
#define NOT_SPECIAL UINT32_MAX
static const kv *special(const char *s, size_t n)
{
    if (n == 0 || n > R.max_special) return NULL;
    const kv *e = kv_get(&R.specials, s, n);
    return e && e->val != NOT_SPECIAL ? e : NULL;
}

/* anchoring is compiled in (PCRE2_ANCHORED / PCRE2_ENDANCHORED), never asked for at
 * match time: PCRE2's JIT code does not take those match options, and a pattern matched
 * with them runs in the interpreter, 5-7x slower on these */
static pcre2_code *compile(const char *name, const char *pat, uint32_t anchor)
{
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
                                   anchor | PCRE2_UTF | PCRE2_UCP | PCRE2_DOLLAR_ENDONLY, &ec, &eo, NULL);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(ec, msg, sizeof msg);
        err_set(ERR_INTERNAL, "spaCy %s pattern does not compile at %zu: %s", name, (size_t)eo, (char *)msg);
        return NULL;
    }
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
    return re;
}

static void rules_init(void)
{
    R.rc = ERR_INTERNAL;
    /* prefix_search and url_match are re.match (anchored at the start); every alternative
     * of the suffix pattern ends in $, so its matches end where the span ends */
    if (!(R.prefix = compile("prefix", spacy_en_prefix_re, PCRE2_ANCHORED)) ||
        !(R.suffix = compile("suffix", spacy_en_suffix_re, PCRE2_ENDANCHORED)) ||
        !(R.infix = compile("infix", spacy_en_infix_re, 0)) || !(R.url = compile("url", spacy_en_url_re, PCRE2_ANCHORED)))
        return;
    R.rc = ERR_NOMEM;
    size_t ns = NELEM(spacy_en_specials), cap = 1;
    while (cap < 8 * ns) cap *= 2;
    R.specials.slot = calloc(cap, sizeof(kv));
    R.specials.mask = cap - 1;
    if (!R.specials.slot) return;
    for (size_t i = 0; i < ns; i++) {
        size_t l = strlen(spacy_en_specials[i].key);
        kv_put(&R.specials, spacy_en_specials[i].key, l, (uint32_t)i);
        if (l > R.max_special) R.max_special = l;
    }
    /* the patterns of the special-case pass; one-token ones are left out: the rule of a
     * one-token pattern is that token (checked here), so it can change nothing, and being
     * shortest it is taken last, so it can block nothing either */
    size_t nall = NELEM(spacy_en_matcher);
    R.pat = calloc(nall, sizeof *R.pat);
    R.next = calloc(nall, sizeof *R.next);
    R.head = calloc(nall + 1, sizeof *R.head);
    cap = 1;
    while (cap < 4 * nall) cap *= 2;
    R.first.slot = calloc(cap, sizeof(kv));
    R.second.slot = calloc(cap, sizeof(kv));
    R.first.mask = R.second.mask = cap - 1;
    if (!R.pat || !R.next || !R.head || !R.first.slot || !R.second.slot) return;
    for (size_t i = 0; i < nall; i++) {
        mpattern p = {0};
        const char *s = spacy_en_matcher[i];
        for (;;) {
            const char *e = strchr(s, '\x1f');
            size_t l = e ? (size_t)(e - s) : strlen(s);
            if (p.n == 16) {
                R.rc = err_set(ERR_INTERNAL, "a spaCy special case of over 16 tokens");
                return;
            }
            p.tok[p.n] = s;
            p.len[p.n++] = (uint32_t)l;
            if (l > R.max_tok) R.max_tok = l;
            if (!e) break;
            s = e + 1;
        }
        if (p.n == 1) {
            const kv *sp = special(p.tok[0], p.len[0]);
            if (!sp || spacy_en_specials[sp->val].piece[0] != p.len[0] || spacy_en_specials[sp->val].piece[1]) {
                R.rc = err_set(ERR_INTERNAL, "spaCy special case \"%s\" is one token that its rule splits", p.tok[0]);
                return;
            }
            continue;
        }
        for (int k = 0; k < p.n; k++) { /* quality.c slices lines out of a document's tokens */
            uint32_t cp;
            if (utf8_decode((const unsigned char *)p.tok[k], p.len[k], &cp) > 0 && utf8_is_pyspace(cp)) {
                R.rc = err_set(ERR_INTERNAL, "spaCy special case \"%s\" has a whitespace token", spacy_en_matcher[i]);
                return;
            }
        }
        R.pat[R.npat++] = p;
    }
    if (R.max_tok > 255) {
        R.rc = err_set(ERR_INTERNAL, "a spaCy special-case token of over 255 bytes");
        return;
    }
    for (size_t i = R.npat; i-- > 0;) { /* chains in pattern order */
        mpattern *p = &R.pat[i];
        const kv *f = kv_get(&R.first, p->tok[0], p->len[0]);
        uint32_t fc = f ? f->val : ++R.nfirst;
        if (!f) kv_put(&R.first, p->tok[0], p->len[0], fc);
        R.next[i] = R.head[fc] ? R.head[fc] - 1 : UINT32_MAX;
        R.head[fc] = (uint32_t)i + 1;
        if (!kv_get(&R.second, p->tok[1], p->len[1])) kv_put(&R.second, p->tok[1], p->len[1], ++R.nsecond);
    }
    if (R.nfirst >= 4096 || R.nsecond >= 4096) {
        R.rc = err_set(ERR_INTERNAL, "over 4095 distinct first or second tokens in spaCy's special cases");
        return;
    }
    R.pair = calloc((size_t)(R.nfirst + 1) * (R.nsecond + 1), 1);
    if (!R.pair) return;
    for (size_t i = 0; i < R.npat; i++) {
        uint32_t fc = kv_get(&R.first, R.pat[i].tok[0], R.pat[i].len[0])->val;
        uint32_t sc = kv_get(&R.second, R.pat[i].tok[1], R.pat[i].len[1])->val;
        R.pair[(size_t)fc * (R.nsecond + 1) + sc] = 1;
        /* the classes go into the one table looked up per token */
        for (int k = 0; k < 2; k++) {
            const char *ts = R.pat[i].tok[k];
            size_t tl = R.pat[i].len[k];
            kv *e = (kv *)kv_get(&R.specials, ts, tl);
            if (!e) {
                kv_put(&R.specials, ts, tl, NOT_SPECIAL);
                e = (kv *)kv_get(&R.specials, ts, tl);
            }
            e->cls |= k == 0 ? fc << 12 : sc;
        }
        if (R.pat[i].len[0] > R.max_special) R.max_special = R.pat[i].len[0];
        if (R.pat[i].len[1] > R.max_special) R.max_special = R.pat[i].len[1];
    }
    R.rc = 0;
}

/* a token's classes: (first class << 12) | second class, 0 for most tokens */
static uint32_t tok_class(const char *s, size_t n)
{
    if (n > R.max_tok) return 0;
    const kv *e = kv_get(&R.specials, s, n);
    return e ? e->cls : 0;
}

/* ---------- per-thread context ---------- */

/* The cache of span -> tokens. A token is packed in 32 bits: its length (8 bits:
 * cached spans are at most CACHE_SPAN_MAX bytes) and its two special-case classes
 * (12 bits each). A small direct-mapped "hot" table in front, with the key inline,
 * answers the frequent words from L1/L2. */
typedef struct {
    uint64_t h;
    uint32_t key, klen; /* into kbuf */
    uint32_t toks, ntok; /* into tbuf */
} centry;
#define HOT_KEY 18
typedef struct {
    uint64_t h;
    uint32_t toks;
    uint8_t klen, ntok;
    char key[HOT_KEY];
} hentry;
#define HOT_SLOTS 16384
/* The spans that miss the cache go into it only when seen before: most spans of a text
 * are seen once (about 70 % of the distinct ones in enwiki) and would only push the
 * others out. The bits are cleared once a quarter of them is set. */
#define SEEN_BITS (1u << 20)
#define CACHE_SPAN_MAX 128
#define CACHE_SLOTS_MAX (1u << 15)

struct spacy_ctx {
    pcre2_match_data *md;
    pcre2_match_context *mc; /* no match limit (Python's re has none) and a JIT stack that can grow */
    pcre2_jit_stack *js;
    centry *cache;
    size_t cmask, cused;
    uint64_t *seen; /* a bit per span hash: seen once (SEEN_BITS bits), nseen of them set */
    size_t nseen;
    hentry *hot;
    char *kbuf;
    size_t klen, kcap;
    uint32_t *tbuf;
    size_t tlen, tcap;
    uint32_t *pre, *suf, *out; /* scratch lengths */
    size_t npre, nsuf, nout, cpre, csuf, cout;
    uint32_t *cls; /* per output token: its classes */
    size_t ccap;
    sp_tokens tmp;
    int slow; /* spacy_split's: no fast path in split_span */
    struct { uint32_t s, e; } *m;
    size_t nm, cm;
};

spacy_ctx *spacy_ctx_new(void)
{
    pthread_once(&R_once, rules_init);
    if (R.rc) {
        if (R.rc == ERR_NOMEM) err_set(ERR_NOMEM, "out of memory");
        return NULL;
    }
    spacy_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->md = pcre2_match_data_create(4, NULL);
    c->mc = pcre2_match_context_create(NULL);
    c->js = pcre2_jit_stack_create(32 << 10, 256 << 20, NULL);
    if (c->mc) {
        pcre2_set_match_limit(c->mc, UINT32_MAX);
        pcre2_set_depth_limit(c->mc, UINT32_MAX);
        pcre2_set_heap_limit(c->mc, UINT32_MAX);
        if (c->js) pcre2_jit_stack_assign(c->mc, NULL, c->js);
    }
    c->cmask = (1u << 14) - 1;
    c->cache = calloc(c->cmask + 1, sizeof *c->cache);
    c->hot = calloc(HOT_SLOTS, sizeof *c->hot);
    c->seen = calloc(SEEN_BITS / 64, sizeof *c->seen);
    if (!c->md || !c->mc || !c->cache || !c->hot || !c->seen) {
        spacy_ctx_free(c);
        err_set(ERR_NOMEM, "out of memory");
        return NULL;
    }
    return c;
}

void spacy_ctx_free(spacy_ctx *c)
{
    if (!c) return;
    pcre2_match_data_free(c->md);
    pcre2_match_context_free(c->mc);
    pcre2_jit_stack_free(c->js);
    free(c->cache);
    free(c->hot);
    free(c->seen);
    free(c->kbuf);
    free(c->tbuf);
    free(c->pre);
    free(c->suf);
    free(c->out);
    free(c->cls);
    free(c->m);
    sp_tokens_free(&c->tmp);
    free(c);
}

void sp_tokens_free(sp_tokens *v)
{
    free(v->t);
    v->t = NULL;
    v->n = v->cap = 0;
}

static int push_len(uint32_t **a, size_t *n, size_t *cap, uint32_t v)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        uint32_t *na = realloc(*a, nc * sizeof *na);
        if (!na) return ERR_NOMEM;
        *a = na;
        *cap = nc;
    }
    (*a)[(*n)++] = v;
    return 0;
}

/* append a token and its classes (c->cls runs beside out->t) */
static inline int push_tok(spacy_ctx *c, sp_tokens *v, uint32_t off, uint32_t len, uint32_t cls)
{
    if (v->n == v->cap) {
        size_t nc = v->cap ? 2 * v->cap : 256;
        sp_token *nt = realloc(v->t, nc * sizeof *nt);
        if (!nt) return ERR_NOMEM;
        v->t = nt;
        v->cap = nc;
    }
    if (v->n >= c->ccap) {
        size_t nc = v->cap > 2 * c->ccap ? v->cap : 2 * c->ccap + 256;
        uint32_t *ncl = realloc(c->cls, nc * sizeof *ncl);
        if (!ncl) return ERR_NOMEM;
        c->cls = ncl;
        c->ccap = nc;
    }
    c->cls[v->n] = cls;
    v->t[v->n++] = (sp_token){off, len};
    return 0;
}

static int re_match(spacy_ctx *c, pcre2_code *re, const char *s, size_t n, size_t start, size_t *ms, size_t *me)
{
    int r = pcre2_match(re, (PCRE2_SPTR)s, n, start, PCRE2_NO_UTF_CHECK, c->md, c->mc);
    if (r < 0) {
        if (r == PCRE2_ERROR_NOMATCH) return 0;
        return err_set(ERR_LIMIT, "a regular expression of spaCy's tokenizer failed (PCRE2 error %d)", r);
    }
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(c->md);
    *ms = ov[0];
    *me = ov[1];
    return 1;
}

static int find_prefix(spacy_ctx *c, const char *s, size_t n, size_t *len)
{
    size_t ms = 0, me = 0;
    int r = re_match(c, R.prefix, s, n, 0, &ms, &me);
    *len = r == 1 ? me - ms : 0;
    return r < 0 ? r : 0;
}

/* Python's suffix_search(s).end() - start(): the leftmost match (every
 * alternative ends at $). Every alternative but \.\.+$ matches at most 12 bytes
 * (the longest, a unit like "\u0627\u0643\u0648\u0627\u0628", is 10), so the search
 * starts 32 bytes from the end, or at a trailing run of dots. */
static int find_suffix(spacy_ctx *c, const char *s, size_t n, size_t *len)
{
    size_t start = 0;
    if (n > 32) {
        start = n - 32;
        while (start > 0 && ((unsigned char)s[start] & 0xC0) == 0x80) start--;
        size_t d = n;
        while (d > 0 && s[d - 1] == '.') d--;
        if (n - d >= 2 && d < start) start = d;
    }
    size_t ms = 0, me = 0;
    int r = re_match(c, R.suffix, s, n, start, &ms, &me);
    *len = r == 1 ? me - ms : 0;
    return r < 0 ? r : 0;
}

/* s[0..n) is ASCII letters only: no prefix, suffix, infix or URL rule matches it (the
 * generator checks it), so what is left of a span once it is letters needs no pattern */
static inline int ascii_letters(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (unsigned)((unsigned char)(s[i] | 0x20) - 'a') < 26u) i++;
    return i == n;
}

/* a mark that, after a word of ASCII letters or digits, is the span's whole suffix */
static inline int closing_mark(char ch)
{
    return ch == ',' || ch == ';' || ch == ':' || ch == '!' || ch == '?' || ch == ')';
}

static inline int ascii_digits(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (unsigned)((unsigned char)s[i] - '0') < 10u) i++;
    return i == n;
}

/* the special case's pieces, or the whole as one token */
static int push_word_sp(spacy_ctx *c, size_t n, const kv *sp)
{
    int rc;
    if (!sp) return push_len(&c->out, &c->nout, &c->cout, (uint32_t)n);
    for (int k = 0; k < 8 && spacy_en_specials[sp->val].piece[k]; k++)
        if ((rc = push_len(&c->out, &c->nout, &c->cout, spacy_en_specials[sp->val].piece[k]))) return rc;
    return 0;
}

/* s[0..n) is characters that Python's str.isalpha() takes (letters of any script; no
 * mark, digit, punctuation or symbol) and not all ASCII: no prefix, suffix, infix or URL
 * pattern matches such a word (each needs a digit, punctuation or a symbol; test_quality
 * checks words of many scripts against them) */
static int alpha_word(const char *s, size_t n)
{
    size_t i = 0;
    int wide = 0;
    while (i < n) {
        unsigned char b = (unsigned char)s[i];
        if (b < 0x80) {
            if ((unsigned)((b | 0x20) - 'a') >= 26u) return 0;
            i++;
            continue;
        }
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k <= 0 || !py_isalpha_cp(cp)) return 0;
        wide = 1;
        i += (size_t)k;
    }
    return wide;
}

/* ascii_letters() || alpha_word() in one scan: s[0..n) is letters of any script (ASCII
 * ones included); n >= 1 */
static int any_letters(const char *s, size_t n)
{
    size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; i + 8 <= n; i += 8) { /* eight ASCII letters at a time */
        uint64_t w;
        memcpy(&w, s + i, 8);
        uint64_t x = w | 0x2020202020202020ull;
        uint64_t letters = (x + 0x1F1F1F1F1F1F1F1Full) & ~(x + 0x0505050505050505ull) & ~w & 0x8080808080808080ull;
        if (letters != 0x8080808080808080ull) break;
    }
#endif
    while (i < n && (unsigned)((unsigned char)(s[i] | 0x20) - 'a') < 26u) i++;
    return i == n || alpha_word(s + i, n - i); /* the rest: other scripts' letters, at least one */
}

/* ASCII letters in two or more parts joined by single hyphens ("well-known") */
static int hyphenated(const char *s, size_t n)
{
    size_t i = 0, parts = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && (unsigned)((unsigned char)(s[j] | 0x20) - 'a') < 26u) j++;
        if (j == i) return 0;
        parts++;
        if (j == n) break;
        if (s[j] != '-' || j + 1 == n) return 0;
        i = j + 1;
    }
    return parts >= 2;
}

/* a hyphenated word's infix split (spaCy's hyphen between letters): part, "-", part ... */
static int push_hyphenated(spacy_ctx *c, const char *s, size_t n)
{
    int rc;
    const kv *sp = special(s, n);
    if (sp) {
        for (int k = 0; k < 8 && spacy_en_specials[sp->val].piece[k]; k++)
            if ((rc = push_len(&c->out, &c->nout, &c->cout, spacy_en_specials[sp->val].piece[k]))) return rc;
        return 0;
    }
    size_t start = 0;
    for (size_t i = 0; i <= n; i++)
        if (i == n || s[i] == '-') {
            if ((rc = push_len(&c->out, &c->nout, &c->cout, (uint32_t)(i - start)))) return rc;
            if (i < n && (rc = push_len(&c->out, &c->nout, &c->cout, 1))) return rc;
            start = i + 1;
        }
    return 0;
}

static inline int ascii_alnum(char ch)
{
    return (unsigned)((unsigned char)(ch | 0x20) - 'a') < 26u || (unsigned)((unsigned char)ch - '0') < 10u;
}

/* What prefix_search finds on x[0..n) (n >= 1) where the answer is known without the
 * patterns: nothing before a letter or digit; one character for ( [ " ' $ # (and the two
 * bytes of a pound sign) before one (each the only prefix rule that starts with it);
 * -1: not known (the patterns decide). */
static int known_prefix(const char *x, size_t n)
{
    if (ascii_alnum(x[0])) return 0;
    if ((x[0] == '(' || x[0] == '[' || x[0] == '"' || x[0] == '\'' || x[0] == '$' || x[0] == '#') && n >= 2 &&
        ascii_alnum(x[1]))
        return 1;
    if ((unsigned char)x[0] == 0xC2 && n >= 3 && (unsigned char)x[1] == 0xA3 && ascii_alnum(x[2])) return 2;
    return -1;
}

static inline int ascii_letter(char ch) { return (unsigned)((unsigned char)(ch | 0x20) - 'a') < 26u; }
static inline int ascii_digit(char ch) { return (unsigned)((unsigned char)ch - '0') < 10u; }
static inline int ascii_upper(char ch) { return (unsigned)((unsigned char)ch - 'A') < 26u; }

/* x[0..i) ends in a letter of any script (str.isalpha) written in two or more bytes */
static int wide_alpha_before(const char *x, size_t i)
{
    size_t j = i;
    while (j > 0 && i - j < 4 && ((unsigned char)x[j - 1] & 0xC0) == 0x80) j--;
    if (j == 0 || j == i || (unsigned char)x[j - 1] < 0xC0) return 0;
    uint32_t cp;
    int k = utf8_decode((const unsigned char *)x + j - 1, i - j + 1, &cp);
    return k == (int)(i - j + 1) && py_isalpha_cp(cp);
}

/* the units of spaCy's suffix rule (?<=[0-9])(?:km|...)$ written in ASCII letters only
 * (the others hold ², ³, µ, / or another script) */
static int ascii_unit(const char *u, size_t n)
{
    static const char *const units[] = {"km", "m", "dm", "cm", "mm", "ha", "nm", "yd", "in", "ft", "kg", "g",
                                        "mg", "t", "lb", "oz", "kmh", "mph", "hPa", "Pa", "mbar", "mb", "MB", "kb",
                                        "KB", "gb", "GB", "tb", "TB", "T", "G", "M", "K"};
    for (size_t i = 0; i < NELEM(units); i++)
        if (strlen(units[i]) == n && !memcmp(units[i], u, n)) return 1;
    return 0;
}

/* The same for suffix_search (every alternative ends at $; the leftmost match wins):
 * - after a digit, nothing (no alternative ends in a digit);
 * - after a run of letters, nothing, but for a unit right after a digit (the unit), 's
 *   after a letter (2), and what the patterns decide after a / (km/h, m/s), after
 *   another script's character but a dash, and for 's after anything else;
 * - one character for , ; : ! ? ) ] " ' after a letter (of any script), digit or closing
 *   mark; % after a digit (the unit %; after anything else the patterns decide); a full
 *   stop after a lowercase letter, a digit, ) ] " or two uppercase letters; nothing for a
 *   full stop after one uppercase letter (none of the rules ending in a full stop takes
 *   it);
 * -1: not known. */
static int known_suffix(const char *x, size_t n)
{
    char ch = x[n - 1], p = n >= 2 ? x[n - 2] : 0;
    if (ascii_digit(ch)) return 0;
    if (ascii_letter(ch)) {
        size_t r = n - 1;
        while (r > 0 && ascii_letter(x[r - 1])) r--;
        if (r == 0) return 0;
        char q = x[r - 1];
        if (ascii_digit(q)) return ascii_unit(x + r, n - r) ? (int)(n - r) : 0;
        if (q == '\'' && r == n - 1 && (ch == 's' || ch == 'S'))
            return r >= 2 && ascii_letter(x[r - 2]) ? 2 : -1;
        if (q == '/') return -1;
        if ((unsigned char)q < 0x80) return 0;
        if (r >= 3 && (unsigned char)x[r - 3] == 0xE2 && (unsigned char)x[r - 2] == 0x80 &&
            ((unsigned char)q == 0x93 || (unsigned char)q == 0x94))
            return 0; /* after an en or em dash */
        return -1;
    }
    if (n < 2) return -1;
    int after = ascii_alnum(p) || p == ')' || p == ']' || p == '"' || p == '.' || wide_alpha_before(x, n - 1);
    if (closing_mark(ch) || ch == ']' || ch == '\'') return after ? 1 : -1;
    if (ch == '"') return after && p != '"' ? 1 : -1;
    if (ch == '%') return ascii_digit(p) ? 1 : -1;
    if (ch == '.') {
        if ((p >= 'a' && p <= 'z') || (p >= '0' && p <= '9') || p == ')' || p == ']' || p == '"') return 1;
        if (ascii_upper(p)) {
            if (n >= 3 && ascii_upper(x[n - 3])) return 1;
            if (n == 2 || (unsigned char)x[n - 3] < 0x80) return 0;
        }
    }
    return -1;
}

/* A middle of ASCII letters and digits in runs joined by single - – — , : / _ ' or full
 * stops (between two digits, at most two of those; or after an uppercase letter, before
 * another or at the end). No URL can match one (a host name needs a full stop before a
 * lowercase top-level domain, an IP address three full stops between digits), and the
 * infix rules that can are one character between two runs: a hyphen between digits
 * ((?<=[0-9])[+\-*^](?=[0-9-])), a hyphen or dash before a letter, a comma between
 * letters, : or / before a letter. The pieces pushed; 1: not such a middle. */
#define MAX_JOINS 16
static int compound_middle(spacy_ctx *c, const char *m, size_t mn)
{
    uint32_t at[MAX_JOINS], len[MAX_JOINS];
    int split[MAX_JOINS];
    size_t nj = 0, i = 0, digit_dots = 0;
    if (!ascii_alnum(m[0])) return 1;
    while (i < mn) {
        while (i < mn && ascii_alnum(m[i])) i++;
        if (i == mn) break;
        char p = m[i - 1];
        size_t l = 1;
        unsigned char b = (unsigned char)m[i];
        if (b == 0xE2 && i + 2 < mn && (unsigned char)m[i + 1] == 0x80 &&
            ((unsigned char)m[i + 2] == 0x93 || (unsigned char)m[i + 2] == 0x94))
            l = 3;
        else if (b != '-' && b != ',' && b != ':' && b != '/' && b != '_' && b != '\'' && b != '.')
            return 1;
        if (nj == MAX_JOINS) return 1;
        if (i + l == mn) { /* only a full stop after an uppercase letter ends it */
            if (b != '.' || !ascii_upper(p)) return 1;
            break;
        }
        char q = m[i + l];
        if (!ascii_alnum(q)) return 1;
        int cut = 0;
        if (l == 3) cut = ascii_letter(q);
        else if (b == '-') cut = (ascii_digit(p) && ascii_digit(q)) || ascii_letter(q);
        else if (b == ',') cut = ascii_letter(p) && ascii_letter(q);
        else if (b == ':' || b == '/') cut = ascii_letter(q);
        else if (b == '.') {
            if (ascii_digit(p) && ascii_digit(q)) digit_dots++;
            else if (!ascii_upper(p) || !ascii_upper(q)) return 1;
        }
        at[nj] = (uint32_t)i;
        len[nj] = (uint32_t)l;
        split[nj++] = cut;
        i += l;
    }
    if (digit_dots > 2) return 1;
    int rc;
    size_t start = 0;
    for (size_t k = 0; k < nj; k++) {
        if (!split[k]) continue;
        if ((rc = push_len(&c->out, &c->nout, &c->cout, at[k] - (uint32_t)start))) return rc;
        if ((rc = push_len(&c->out, &c->nout, &c->cout, len[k]))) return rc;
        start = at[k] + len[k];
    }
    return push_len(&c->out, &c->nout, &c->cout, (uint32_t)(mn - start));
}

/* The middle of a span once its affixes are off, where its split is known: a special
 * case, or ASCII letters, letters of any script, digits (one token), or letters joined
 * by hyphens (the infix). 0 pushed, 1 not known, < 0 ERR_*. */
static int known_middle(spacy_ctx *c, const char *m, size_t mn)
{
    const kv *sp = special(m, mn);
    if (sp || any_letters(m, mn)) return push_word_sp(c, mn, sp);
    if (ascii_digits(m, mn)) return push_len(&c->out, &c->nout, &c->cout, (uint32_t)mn);
    if (hyphenated(m, mn)) return push_hyphenated(c, m, mn);
    return compound_middle(c, m, mn);
}

/* The split of s[0..n) where every step is known without the patterns: split_span's
 * loop followed step by step with known_prefix / known_suffix, then known_middle
 * (test_quality checks spans of every such shape against the patterns, spacy_split).
 * 1: done (c->out), 0: some step not known (nothing left in c), < 0: ERR_*. The whole
 * span is no special case (checked before). */
static int split_known(spacy_ctx *c, const char *s, size_t n)
{
    int rc;
    /* no affix: the patterns never match one (and the whole is no special case: checked before) */
    if (any_letters(s, n)) return (rc = push_word_sp(c, n, NULL)) ? rc : 1;
    size_t a = 0, b = n, last = SIZE_MAX;
    while (b > a && b - a != last) {
        /* (the whole span, the first time round: neither, as checked above) */
        if ((a || b < n) && (special(s + a, b - a) || any_letters(s + a, b - a))) break;
        last = b - a;
        int pre = known_prefix(s + a, b - a);
        if (pre < 0) goto unknown;
        if (pre && a + (size_t)pre < b && special(s + a + pre, b - a - (size_t)pre)) {
            if ((rc = push_len(&c->pre, &c->npre, &c->cpre, (uint32_t)pre))) return rc;
            a += (size_t)pre;
            break;
        }
        int suf = known_suffix(s + a + pre, b - a - (size_t)pre);
        if (suf < 0) goto unknown;
        if (suf && b - (size_t)suf > a && special(s + a, b - (size_t)suf - a)) {
            if ((rc = push_len(&c->suf, &c->nsuf, &c->csuf, (uint32_t)suf))) return rc;
            b -= (size_t)suf;
            break;
        }
        if (pre) {
            if ((rc = push_len(&c->pre, &c->npre, &c->cpre, (uint32_t)pre))) return rc;
            a += (size_t)pre;
        }
        if (suf) {
            if ((rc = push_len(&c->suf, &c->nsuf, &c->csuf, (uint32_t)suf))) return rc;
            b -= (size_t)suf;
        }
    }
    for (size_t i = 0; i < c->npre; i++)
        if ((rc = push_len(&c->out, &c->nout, &c->cout, c->pre[i]))) return rc;
    if (b > a && (rc = known_middle(c, s + a, b - a))) {
        if (rc < 0) return rc;
        goto unknown;
    }
    for (size_t i = c->nsuf; i-- > 0;)
        if ((rc = push_len(&c->out, &c->nout, &c->cout, c->suf[i]))) return rc;
    return 1;
unknown:
    c->npre = c->nsuf = c->nout = 0;
    return 0;
}

/* the split of one span s[0..n) into c->out (lengths in bytes), as spaCy's _tokenize */
static int split_span(spacy_ctx *c, const char *s, size_t n)
{
    c->npre = c->nsuf = c->nout = 0;
    const kv *sp = special(s, n);
    size_t a = 0, b = n;
    int rc;
    if (sp) goto attach;
    /* a word of ASCII letters or digits and at most one mark ("word," "Paris)" "1999."),
     * most of the spans that miss the cache: the patterns' answer is known */
    if (!c->slow && (rc = split_known(c, s, n))) return rc < 0 ? rc : 0;
    size_t last = SIZE_MAX;
    while (b > a && b - a != last) {
        if (special(s + a, b - a) || ascii_letters(s + a, b - a)) break;
        last = b - a;
        size_t pre, suf;
        if ((rc = find_prefix(c, s + a, b - a, &pre))) return rc;
        if (pre && a + pre < b && special(s + a + pre, b - a - pre)) {
            if ((rc = push_len(&c->pre, &c->npre, &c->cpre, (uint32_t)pre))) return rc;
            a += pre;
            break;
        }
        if ((rc = find_suffix(c, s + a + pre, b - a - pre, &suf))) return rc;
        if (suf && b - suf > a && special(s + a, b - suf - a)) {
            if ((rc = push_len(&c->suf, &c->nsuf, &c->csuf, (uint32_t)suf))) return rc;
            b -= suf;
            break;
        }
        if (pre) {
            if ((rc = push_len(&c->pre, &c->npre, &c->cpre, (uint32_t)pre))) return rc;
            a += pre;
        }
        if (suf) {
            if ((rc = push_len(&c->suf, &c->nsuf, &c->csuf, (uint32_t)suf))) return rc;
            b -= suf;
        }
    }
attach:
    for (size_t i = 0; i < c->npre; i++)
        if ((rc = push_len(&c->out, &c->nout, &c->cout, c->pre[i]))) return rc;
    if (b > a) {
        const char *m = s + a;
        size_t mn = b - a, ms, me;
        if ((sp = special(m, mn))) {
            for (int k = 0; k < 8 && spacy_en_specials[sp->val].piece[k]; k++)
                if ((rc = push_len(&c->out, &c->nout, &c->cout, spacy_en_specials[sp->val].piece[k]))) return rc;
        } else if (ascii_letters(m, mn)) {
            if ((rc = push_len(&c->out, &c->nout, &c->cout, (uint32_t)mn))) return rc;
        } else if ((rc = re_match(c, R.url, m, mn, 0, &ms, &me)) != 0) {
            if (rc < 0) return rc;
            if ((rc = push_len(&c->out, &c->nout, &c->cout, (uint32_t)mn))) return rc;
        } else {
            size_t start = 0, pos = 0;
            while (pos < mn && (rc = re_match(c, R.infix, m, mn, pos, &ms, &me)) == 1) {
                pos = me > ms ? me : me + 1; /* (the generator checks the pattern has no empty match) */
                if (ms == 0) continue;
                if (ms != start && (rc = push_len(&c->out, &c->nout, &c->cout, (uint32_t)(ms - start)))) return rc;
                if (me != ms && (rc = push_len(&c->out, &c->nout, &c->cout, (uint32_t)(me - ms)))) return rc;
                start = me;
            }
            if (rc < 0) return rc;
            if (start < mn && (rc = push_len(&c->out, &c->nout, &c->cout, (uint32_t)(mn - start)))) return rc;
        }
    }
    for (size_t i = c->nsuf; i-- > 0;)
        if ((rc = push_len(&c->out, &c->nout, &c->cout, c->suf[i]))) return rc;
    return 0;
}

int spacy_split(spacy_ctx *c, const char *s, size_t n, int slow, uint32_t *lens, size_t cap, size_t *nout)
{
    c->slow = slow;
    int rc = split_span(c, s, n);
    c->slow = 0;
    if (rc) return rc;
    *nout = c->nout;
    for (size_t k = 0; k < c->nout && k < cap; k++) lens[k] = c->out[k];
    return 0;
}

int spacy_affixes(spacy_ctx *c, const char *s, size_t n, size_t *prefix, size_t *suffix)
{
    int rc = find_prefix(c, s, n, prefix);
    return rc ? rc : find_suffix(c, s, n, suffix);
}

static void cache_clear(spacy_ctx *c)
{
    memset(c->cache, 0, (c->cmask + 1) * sizeof *c->cache);
    memset(c->hot, 0, HOT_SLOTS * sizeof *c->hot);
    c->cused = c->klen = c->tlen = 0;
}

static inline int emit_packed(spacy_ctx *c, sp_tokens *out, uint32_t off, const uint32_t *l, uint32_t n)
{
    int rc;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t len = l[k] & 0xFF;
        if ((rc = push_tok(c, out, off, len, l[k] >> 8))) return rc;
        off += len;
    }
    return 0;
}

/* tokens of one non-space span at text[off..off+n) appended to out */
/* h: the span's hash64_mem(s, n, 11) | 1 when the caller has it (tokenize's look-ahead), 0 when
 * not; letters: whether the span is ASCII letters only, as tokenize's scan found */
static int span_tokens(spacy_ctx *c, const char *text, uint32_t off, size_t n, sp_tokens *out, uint64_t h, int letters)
{
    const char *s = text + off;
    int rc;
    if (n > CACHE_SPAN_MAX) { /* long spans: not cached */
        if ((rc = split_span(c, s, n))) return rc;
        for (size_t k = 0; k < c->nout; k++) {
            if ((rc = push_tok(c, out, off, c->out[k], tok_class(s, c->out[k])))) return rc;
            s += c->out[k];
            off += c->out[k];
        }
        return 0;
    }
    /* a span of ASCII letters only: no prefix, suffix, infix or URL rule can match one
     * (each needs a digit, a symbol or punctuation; the generator checks it on every
     * string of one to three letters and on words), so it is a special case or one
     * token, and cheaper to look up in the small tables than in the cache */
    if (letters) {
        const kv *sp = n <= R.max_special ? kv_get(&R.specials, s, n) : NULL;
        if (!sp || sp->val == NOT_SPECIAL) return push_tok(c, out, off, (uint32_t)n, sp ? sp->cls : 0);
        for (int p = 0; p < 8 && spacy_en_specials[sp->val].piece[p]; p++) {
            uint32_t l = spacy_en_specials[sp->val].piece[p];
            if ((rc = push_tok(c, out, off, l, tok_class(text + off, l)))) return rc;
            off += l;
        }
        return 0;
    }
    if (!h) h = hash64_mem(s, n, 11) | 1;
    hentry *he = &c->hot[(h >> 20) & (HOT_SLOTS - 1)];
    if (he->h == h && he->klen == n && mem_same(he->key, s, n)) return emit_packed(c, out, off, c->tbuf + he->toks, he->ntok);
    centry *e = NULL;
    for (size_t i = h & c->cmask;; i = (i + 1) & c->cmask) {
        e = &c->cache[i];
        if (!e->h) break;
        if (e->h == h && e->klen == n && mem_same(c->kbuf + e->key, s, n)) {
            if (n <= HOT_KEY && e->ntok <= 255) {
                *he = (hentry){h, e->toks, (uint8_t)n, (uint8_t)e->ntok, {0}};
                memcpy(he->key, s, n);
            }
            return emit_packed(c, out, off, c->tbuf + e->toks, e->ntok);
        }
    }
    if ((rc = split_span(c, s, n))) return rc;
    for (size_t k = 0; k < c->nout; k++) { /* pack: length and classes */
        uint32_t len = c->out[k];
        c->out[k] = len | tok_class(s, len) << 8;
        s += len;
    }
    s = text + off;
    if ((rc = emit_packed(c, out, off, c->out, (uint32_t)c->nout))) return rc;
    /* remember it, if seen before */
    uint32_t bit = (uint32_t)(h >> 40) & (SEEN_BITS - 1);
    if (!(c->seen[bit >> 6] >> (bit & 63) & 1)) {
        c->seen[bit >> 6] |= 1ull << (bit & 63);
        if (++c->nseen >= SEEN_BITS / 4) {
            memset(c->seen, 0, SEEN_BITS / 8);
            c->nseen = 0;
        }
        return 0;
    }
    if (c->cused * 2 >= c->cmask + 1) {
        if (c->cmask + 1 < CACHE_SLOTS_MAX) {
            size_t nm = 2 * (c->cmask + 1) - 1;
            centry *nc = calloc(nm + 1, sizeof *nc);
            if (!nc) return ERR_NOMEM;
            for (size_t i = 0; i <= c->cmask; i++) {
                centry *x = &c->cache[i];
                if (!x->h) continue;
                size_t j = x->h & nm;
                while (nc[j].h) j = (j + 1) & nm;
                nc[j] = *x;
            }
            free(c->cache);
            c->cache = nc;
            c->cmask = nm;
        } else cache_clear(c);
        for (size_t i = h & c->cmask;; i = (i + 1) & c->cmask)
            if (!c->cache[i].h) {
                e = &c->cache[i];
                break;
            }
    }
    if (c->klen + n > c->kcap) {
        size_t nc = c->kcap ? 2 * c->kcap : 1 << 16;
        while (nc < c->klen + n) nc *= 2;
        char *nk = realloc(c->kbuf, nc);
        if (!nk) return ERR_NOMEM;
        c->kbuf = nk;
        c->kcap = nc;
    }
    if (c->tlen + c->nout > c->tcap) {
        size_t nc = c->tcap ? 2 * c->tcap : 1 << 14;
        while (nc < c->tlen + c->nout) nc *= 2;
        uint32_t *nt = realloc(c->tbuf, nc * sizeof *nt);
        if (!nt) return ERR_NOMEM;
        c->tbuf = nt;
        c->tcap = nc;
    }
    memcpy(c->kbuf + c->klen, s, n);
    memcpy(c->tbuf + c->tlen, c->out, c->nout * sizeof *c->out);
    *e = (centry){h, (uint32_t)c->klen, (uint32_t)n, (uint32_t)c->tlen, (uint32_t)c->nout};
    c->klen += n;
    c->tlen += c->nout;
    c->cused++;
    return 0;
}

/* spaCy's _apply_special_cases: the special cases whose key the affix rules split
 * (":)" in "x:)") matched over the token sequence and put back as the rule says.
 * Every pattern left has two tokens or more, so a match starts where a token of a
 * first class is followed by one of a matching second class. */
static int apply_specials(spacy_ctx *c, const char *text, sp_tokens *v)
{
    c->nm = 0;
    const uint32_t ns1 = R.nsecond + 1;
    for (size_t i = 0; i + 1 < v->n; i++) {
        uint32_t fc = c->cls[i] >> 12, sc = c->cls[i + 1] & 0xFFF;
        if (!fc || !sc || !R.pair[(size_t)fc * ns1 + sc]) continue;
        for (uint32_t p = R.head[fc] - 1; p != UINT32_MAX; p = R.next[p]) {
            const mpattern *mp = &R.pat[p];
            if (i + (size_t)mp->n > v->n) continue;
            int k;
            for (k = 0; k < mp->n; k++) {
                const sp_token *u = &v->t[i + (size_t)k];
                if (u->len != mp->len[k] || memcmp(text + u->off, mp->tok[k], u->len)) break;
            }
            if (k < mp->n) continue;
            if (c->nm == c->cm) {
                size_t nc = c->cm ? 2 * c->cm : 16;
                void *nmv = realloc(c->m, nc * sizeof *c->m);
                if (!nmv) return ERR_NOMEM;
                c->m = nmv;
                c->cm = nc;
            }
            c->m[c->nm].s = (uint32_t)i;
            c->m[c->nm].e = (uint32_t)(i + (size_t)mp->n);
            c->nm++;
        }
    }
    if (!c->nm) return 0;
    /* _filter_special_spans: longest first, then leftmost; a span is taken when
     * neither its first nor its last token was covered by one looked at before */
    size_t nm = c->nm;
    for (size_t i = 1; i < nm; i++) { /* insertion sort: few matches */
        __typeof__(*c->m) x = c->m[i];
        size_t j = i;
        while (j > 0) {
            __typeof__(*c->m) y = c->m[j - 1];
            uint32_t lx = x.e - x.s, ly = y.e - y.s;
            if (ly > lx || (ly == lx && y.s <= x.s)) break;
            c->m[j] = y;
            j--;
        }
        c->m[j] = x;
    }
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t i = 0; i < nm; i++) {
        if (c->m[i].s < lo) lo = c->m[i].s;
        if (c->m[i].e > hi) hi = c->m[i].e;
    }
    uint8_t *seen = calloc(hi - lo, 1);
    if (!seen) return ERR_NOMEM;
    size_t keep = 0;
    for (size_t i = 0; i < nm; i++) {
        uint32_t s = c->m[i].s, e = c->m[i].e;
        int ok = !seen[s - lo] && !seen[e - 1 - lo];
        for (uint32_t k = s; k < e; k++) seen[k - lo] = 1;
        if (ok) c->m[keep++] = c->m[i];
    }
    free(seen);
    for (size_t i = 1; i < keep; i++) { /* in token order */
        __typeof__(*c->m) x = c->m[i];
        size_t j = i;
        while (j > 0 && c->m[j - 1].s > x.s) {
            c->m[j] = c->m[j - 1];
            j--;
        }
        c->m[j] = x;
    }
    /* retokenize: a kept span whose text is a rule's key becomes the rule's pieces
     * (classes are not needed after this pass: 0) */
    sp_tokens *o = &c->tmp;
    o->n = 0;
    size_t i = 0;
    int rc;
    for (size_t k = 0; k <= keep; k++) {
        size_t upto = k < keep ? c->m[k].s : v->n;
        for (; i < upto; i++)
            if ((rc = push_tok(c, o, v->t[i].off, v->t[i].len, 0))) return rc;
        if (k == keep) break;
        uint32_t s = c->m[k].s, e = c->m[k].e;
        uint32_t off = v->t[s].off, end = v->t[e - 1].off + v->t[e - 1].len;
        const kv *sp = special(text + off, end - off);
        if (!sp) {
            for (; i < e; i++)
                if ((rc = push_tok(c, o, v->t[i].off, v->t[i].len, 0))) return rc;
            continue;
        }
        for (int p = 0; p < 8 && spacy_en_specials[sp->val].piece[p]; p++) {
            if ((rc = push_tok(c, o, off, spacy_en_specials[sp->val].piece[p], 0))) return rc;
            off += spacy_en_specials[sp->val].piece[p];
        }
        i = e;
    }
    sp_tokens t = *v;
    *v = *o;
    *o = t;
    return 0;
}

static inline int is_space_at(const char *s, size_t n, size_t i, size_t *cl)
{
    unsigned char b = (unsigned char)s[i];
    if (b < 0x80) {
        *cl = 1;
        return utf8_ascii_pyspace[b];
    }
    uint32_t cp;
    int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
    *cl = k > 0 ? (size_t)k : 1;
    return k > 0 && utf8_is_pyspace(cp);
}

/* The text as maximal runs of whitespace and of other characters (an invalid byte is
 * not whitespace): a run of whitespace is one token (checked by the generator) less the
 * plain space it starts with after a word; a run of other characters is a span. */
static int tokenize(spacy_ctx *c, const char *text, size_t n, sp_tokens *out)
{
    out->n = 0;
    if (n >= UINT32_MAX) return err_set(ERR_LIMIT, "a text of 4 GiB or more");
    size_t run = 0, cl;
    int rc;
    /* the runs are found RUN_AHEAD ahead of their tokens: a span that goes to the cache
     * has its hash taken then and its two slots and its seen bit prefetched (they miss often) */
    enum { RUN_AHEAD = 8 };
    struct { uint32_t st, len; uint64_t h; int ws, letters; } ring[RUN_AHEAD];
    int nring = 0, head = 0;
    for (;;) {
        while (nring < RUN_AHEAD && run < n) {
            int ws = is_space_at(text, n, run, &cl), letters = 1;
            size_t e = run;
            if (ws) {
                e += cl;
                while (e < n && is_space_at(text, n, e, &cl)) e += cl;
            } else {
                for (;;) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                    /* eight bytes at a time to the first that is whitespace or above ASCII
                     * (ASCII's whitespace is 0x09..0x0D, 0x1C..0x20: all <= 0x20); the bytes
                     * before it carry nothing into it */
                    if (e + 8 <= n) {
                        uint64_t w;
                        memcpy(&w, text + e, 8);
                        uint64_t stop = (w | ~(w + 0x5F5F5F5F5F5F5F5Full)) & 0x8080808080808080ull;
                        /* and whether the bytes before the stop are all letters */
                        uint64_t x = w | 0x2020202020202020ull;
                        uint64_t notl = ~((x + 0x1F1F1F1F1F1F1F1Full) & ~(x + 0x0505050505050505ull) & ~w) &
                                        0x8080808080808080ull;
                        if (!stop) {
                            letters &= !notl;
                            e += 8;
                            continue;
                        }
                        letters &= !(notl & (stop - 1));
                        e += (size_t)__builtin_ctzll(stop) >> 3;
                    }
#endif
                    if (e >= n) break;
                    unsigned char b = (unsigned char)text[e];
                    if (b < 0x80) {
                        if (utf8_ascii_pyspace[b]) break;
                        letters &= (unsigned)((b | 0x20) - 'a') < 26u;
                        e++;
                    } else if (is_space_at(text, n, e, &cl)) break;
                    else e += cl, letters = 0;
                }
            }
            size_t st = run > 0 && text[run] == ' ' ? run + 1 : run;
            run = e;
            /* a lone plain space after a span (an ASCII character that is not whitespace,
             * or the end, after it) is a run of whitespace that gives no token: stepped over */
            if (!ws && e < n && text[e] == ' ' &&
                (e + 1 == n || ((unsigned char)text[e + 1] < 0x80 && !utf8_ascii_pyspace[(unsigned char)text[e + 1]])))
                run = e + 1;
            if (st >= e) continue;
            int k = (head + nring++) % RUN_AHEAD;
            ring[k].st = (uint32_t)st;
            ring[k].len = (uint32_t)(e - st);
            ring[k].ws = ws;
            ring[k].letters = letters;
            ring[k].h = 0;
            if (!ws && e - st <= CACHE_SPAN_MAX && !letters) {
                uint64_t h = hash64_mem(text + st, e - st, 11) | 1;
                ring[k].h = h;
                __builtin_prefetch(&c->hot[(h >> 20) & (HOT_SLOTS - 1)]);
                __builtin_prefetch(&c->cache[h & c->cmask]);
                __builtin_prefetch(&c->seen[((uint32_t)(h >> 40) & (SEEN_BITS - 1)) >> 6]); /* read where the span misses */
            }
        }
        if (!nring) break;
        uint32_t st = ring[head].st, len = ring[head].len;
        if (ring[head].ws) rc = push_tok(c, out, st, len, tok_class(text + st, len));
        else rc = span_tokens(c, text, st, len, out, ring[head].h, ring[head].letters);
        if (rc) return rc;
        head = (head + 1) % RUN_AHEAD;
        nring--;
    }
    return apply_specials(c, text, out);
}

int spacy_tokenize(spacy_ctx *c, const char *text, size_t n, sp_tokens *out) { return tokenize(c, text, n, out); }

int spacy_words(spacy_ctx *c, const char *text, size_t n, sp_tokens *out)
{
    /* whitespace tokens can take part in the special-case pass (" " is a rule), so
     * they are kept for it and dropped after */
    int rc = tokenize(c, text, n, out);
    if (rc) return rc;
    size_t k = 0;
    for (size_t i = 0; i < out->n; i++)
        if (!spacy_is_space_token(text, &out->t[i])) out->t[k++] = out->t[i];
    out->n = k;
    return 0;
}

static int push_plain(sp_tokens *v, uint32_t off, uint32_t len)
{
    if (v->n == v->cap) {
        size_t nc = v->cap ? 2 * v->cap : 64;
        sp_token *nt = realloc(v->t, nc * sizeof *nt);
        if (!nt) return ERR_NOMEM;
        v->t = nt;
        v->cap = nc;
    }
    v->t[v->n++] = (sp_token){off, len};
    return 0;
}

/* spaCy's is_punct: every character of category P* */
static int token_is_punct(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k < 0 || !uc_ispunct_cp(cp)) return 0;
        i += (size_t)k;
    }
    return 1;
}

size_t spacy_sentences(const char *text, const sp_tokens *toks, sp_tokens *ends)
{
    return spacy_sentences_range(text, toks->t, toks->n, ends);
}

int spacy_is_space_token_wide(const char *text, const sp_token *t)
{
    if (!t->len) return 0;
    uint32_t cp;
    return utf8_decode((const unsigned char *)text + t->off, t->len, &cp) > 0 && utf8_is_pyspace(cp);
}

size_t spacy_sentences_range(const char *text, const sp_token *tk, size_t nt, sp_tokens *ends)
{
    const sp_tokens view = {(sp_token *)tk, nt, nt}, *toks = &view;
    if (!toks->n) return 0;
    size_t count = 1;
    int seen_period = 0;
    for (size_t i = 0; i < toks->n; i++) {
        const sp_token *t = &toks->t[i];
        const char *s = text + t->off;
        uint32_t cp = 0;
        int k = utf8_decode((const unsigned char *)s, t->len, &cp);
        int in_punct = k > 0 && (uint32_t)k == t->len && sent_punct_cp(cp);
        if (seen_period && !in_punct && !token_is_punct(s, t->len)) {
            if (ends && push_plain(ends, toks->t[i - 1].off + toks->t[i - 1].len, 0)) return SIZE_MAX;
            count++;
            seen_period = 0;
        } else if (in_punct) seen_period = 1;
    }
    if (ends && push_plain(ends, toks->t[toks->n - 1].off + toks->t[toks->n - 1].len, 0)) return SIZE_MAX;
    return count;
}

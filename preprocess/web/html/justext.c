/* justext.c - a second opinion on a page's main content (html_int.h): jusText's paragraph
 * classifier (Jan Pomikalek's, "Removing Boilerplate and Duplicate Content from Web
 * Corpora", 2011; justext/core.py 3.0.2), run over the tree the page was parsed into, with
 * the parameters trafilatura runs it with as its fallback (external.py, try_justext).
 *
 * Paragraphs: the text between the starts and ends of block elements (jusText's
 * PARAGRAPH_TAGS, and HTML5's sectioning blocks, which lxml's SAX walk would have merged
 * with their neighbours) and at <br><br>; white space runs as one space. Left out first, as
 * trafilatura's basic_cleaning and jusText's preprocessor do: what is never text, hidden
 * elements, <aside>, <footer>, a <div> named "footer", cookie and consent boxes. A
 * <noscript> holding elements is read (lexbor parses without scripting, as lxml does):
 * forums such as Discourse put the whole thread there for readers without JavaScript.
 * Classes (context-free): link text over 25 % of the characters, a copyright sign: bad;
 * under 50 characters: short (bad with a link); stop-word density (words split at white
 * space, lower case, in the union of jusText's 100 languages' lists, as trafilatura uses it
 * when the language is not given) 0.2 or more: good over 150 characters, else near-good;
 * 0.1 or more: near-good; else bad. Then in context: a short paragraph between good ones is
 * good, between bad ones bad, next to a near-good one across a bad one good; a near-good
 * one is bad between bad ones, else good. Headings get no favour (trafilatura's
 * no_headings). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

#include <lexbor/dom/interfaces/text.h>

#include "common/utf8.h"
#include "preprocess/web/html/generated/justext_stoplist.h"
#include "preprocess/web/html/html_int.h"

enum { JT_BAD, JT_SHORT, JT_NEARGOOD, JT_GOOD };

/* A word lower-cased code point by code point (utf8proc's simple mapping) into out;
 * the length, or 0 when it does not fit (no stop word is that long). */
static size_t lower_word(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned char a = (unsigned char)s[i];
        if (a < 0x80) {
            if (o + 1 > cap)
                return 0;
            out[o++] = (char)((unsigned)(a - 'A') < 26u ? a | 0x20 : a);
            i++;
            continue;
        }
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(n - i), &cp);
        if (k <= 0)
            return 0; /* (the text is valid UTF-8) */
        i += (size_t)k;
        if (o + 4 > cap)
            return 0;
        o += (size_t)utf8proc_encode_char(utf8proc_tolower(cp), (utf8proc_uint8_t *)out + o);
    }
    return o;
}

/* The stop words: the generated list is sorted by its bytes (lower case), so a word is found
 * by binary search over its lines' starts, found once (a pass over 2 MB: no table to build). */
static uint32_t *stop_at; /* start of each word; stop_at[n_stop] one past the last newline */
static size_t n_stop;
static pthread_once_t stop_once = PTHREAD_ONCE_INIT;
static void stop_init(void)
{
    uint32_t *at = malloc((JUSTEXT_STOP_WORDS + 1) * sizeof *at);
    if (!at)
        return; /* out of memory: no stop words (every paragraph bad) */
    const char *p = justext_stop_text, *end = p + sizeof justext_stop_text - 1;
    size_t k = 0;
    while (p < end && k < JUSTEXT_STOP_WORDS) {
        at[k++] = (uint32_t)(p - justext_stop_text);
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    at[k] = (uint32_t)(p - justext_stop_text);
    n_stop = k;
    stop_at = at;
}

static int is_stop(const char *w, size_t n)
{
    size_t lo = 0, hi = n_stop;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *s = justext_stop_text + stop_at[mid];
        size_t sl = stop_at[mid + 1] - stop_at[mid] - 1; /* without its newline */
        int c = memcmp(s, w, sl < n ? sl : n);
        if (c == 0)
            c = sl < n ? -1 : sl > n ? 1 : 0;
        if (c == 0)
            return 1;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

typedef struct {
    size_t off, len;        /* its text in the walk's buffer */
    uint32_t chars, links;  /* code points; of which inside <a> */
    uint32_t words, stops;
    uint8_t cf, cls;
} jt_para;

typedef struct {
    out_t text;          /* every paragraph's text, one after another */
    jt_para *p;
    size_t n, cap;
    size_t start;        /* the open paragraph's first byte in text */
    uint32_t chars, links;
    int space, br, link, failed;
} jt_walk;

/* the bytes of a white space character at s (Python's str.isspace, as jusText's split), or 0 */
static size_t utf8_space(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return utf8_ascii_pyspace[s[0]];
    if (s[0] < 0xC2) /* (a continuation byte: the text is valid UTF-8, never here) */
        return 0;
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate(s, (utf8proc_ssize_t)n, &cp);
    return k > 0 && utf8_is_pyspace((uint32_t)cp) ? (size_t)k : 0;
}

static size_t utf8_chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* the open paragraph closed: kept when it holds text */
static void jt_end(jt_walk *w)
{
    size_t len = w->text.n - w->start;
    if (len && !w->failed) {
        if (w->n == w->cap) {
            size_t nc = w->cap ? 2 * w->cap : 256;
            jt_para *np = realloc(w->p, nc * sizeof *np);
            if (!np) {
                w->failed = 1;
                return;
            }
            w->p = np;
            w->cap = nc;
        }
        jt_para *q = &w->p[w->n++];
        memset(q, 0, sizeof *q);
        q->off = w->start;
        q->len = len;
        q->chars = w->chars;
        q->links = w->links > w->chars ? w->chars : w->links;
    }
    w->start = w->text.n;
    w->chars = w->links = 0;
    w->space = 0;
}

static void jt_text(jt_walk *w, const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n && utf8_space(s + i, n - i))
        i += utf8_space(s + i, n - i);
    if (i == n)
        return; /* blank: jusText passes it over (a <br> before it still counts as one) */
    w->br = 0;
    if (i && w->text.n > w->start)
        w->space = 1;
    while (i < n) {
        size_t k = utf8_space(s + i, n - i);
        if (k) {
            w->space = 1;
            i += k;
            continue;
        }
        if (w->space && w->text.n > w->start) {
            html_out_put(&w->text, " ", 1);
            w->chars++;
            w->links += w->link > 0;
        }
        w->space = 0;
        size_t j = i;
        while (j < n && !utf8_space(s + j, n - j))
            j += ((s[j] & 0xE0) == 0xC0) ? 2 : ((s[j] & 0xF0) == 0xE0) ? 3 : ((s[j] & 0xF8) == 0xF0) ? 4 : 1;
        if (j > n)
            j = n;
        html_out_put(&w->text, (const char *)s + i, j - i);
        uint32_t c = (uint32_t)utf8_chars((const char *)s + i, j - i);
        w->chars += c;
        if (w->link)
            w->links += c;
        i = j;
    }
}

/* jusText's paragraph tags, and HTML5's blocks */
static int jt_block(lxb_tag_id_t t)
{
    switch (t) {
    case LXB_TAG_BODY: case LXB_TAG_BLOCKQUOTE: case LXB_TAG_CAPTION: case LXB_TAG_CENTER: case LXB_TAG_COL:
    case LXB_TAG_COLGROUP: case LXB_TAG_DD: case LXB_TAG_DIV: case LXB_TAG_DL: case LXB_TAG_DT: case LXB_TAG_FIELDSET:
    case LXB_TAG_FORM: case LXB_TAG_LEGEND: case LXB_TAG_OPTGROUP: case LXB_TAG_P: case LXB_TAG_PRE:
    case LXB_TAG_TABLE: case LXB_TAG_TD: case LXB_TAG_TFOOT: case LXB_TAG_TH: case LXB_TAG_THEAD: case LXB_TAG_TR:
    case LXB_TAG_UL: case LXB_TAG_OL: case LXB_TAG_LI: case LXB_TAG_H1: case LXB_TAG_H2: case LXB_TAG_H3:
    case LXB_TAG_H4: case LXB_TAG_H5: case LXB_TAG_H6: case LXB_TAG_SECTION: case LXB_TAG_ARTICLE:
    case LXB_TAG_MAIN: case LXB_TAG_HEADER: case LXB_TAG_NAV: case LXB_TAG_FIGURE: case LXB_TAG_FIGCAPTION:
    case LXB_TAG_ADDRESS: case LXB_TAG_HR: case LXB_TAG_DETAILS: case LXB_TAG_SUMMARY: case LXB_TAG_TBODY:
    case LXB_TAG_NOSCRIPT:
        return 1;
    default:
        return 0;
    }
}

/* A class or id naming a footer (on a <div>) or a cookie or consent box, as trafilatura's
 * basic_cleaning reads them: "footer"; "cookie" then [-_]? and banner, bar, consent, law,
 * notice, policy or description; "notice-cookie"; consent[-_]? then banner, manager or sdk;
 * borlabs, cookiebot, cmplz, onetrust, moove-gdpr. ASCII, without case. */
static int at(const char *s, const char *end, const char *w)
{
    size_t l = strlen(w);
    return (size_t)(end - s) >= l && !memcmp(s, w, l);
}

static int consent_or_footer(const char *v, size_t n, int div)
{
    char low[256];
    if (n > sizeof low)
        n = sizeof low;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)((unsigned)((unsigned char)v[i] - 'A') < 26u ? v[i] | 0x20 : v[i]);
    static const char *const after_cookie[] = {"banner", "bar", "consent", "law", "notice", "policy", "description", NULL};
    static const char *const after_consent[] = {"banner", "manager", "sdk", NULL};
    const char *end = low + n;
    for (const char *p = low; p < end; p++) {
        const char *const *next = NULL;
        const char *q = NULL;
        switch (*p) {
        case 'f':
            if (div && at(p, end, "footer"))
                return 1;
            break;
        case 'b':
            if (at(p, end, "borlabs"))
                return 1;
            break;
        case 'o':
            if (at(p, end, "onetrust"))
                return 1;
            break;
        case 'm':
            if (at(p, end, "moove") && (at(p + 5, end, "gdpr") || at(p + 5, end, "-gdpr") || at(p + 5, end, "_gdpr")))
                return 1;
            break;
        case 'n':
            if (at(p, end, "notice") && (at(p + 6, end, "-cookie") || at(p + 6, end, "_cookie") || at(p + 6, end, "--cookie") ||
                                         at(p + 6, end, "__cookie") || at(p + 6, end, "cookie")))
                return 1;
            break;
        case 'c':
            if (at(p, end, "cmplz") || at(p, end, "cookiebot"))
                return 1;
            if (at(p, end, "cookie")) {
                q = p + 6;
                next = after_cookie;
            } else if (at(p, end, "consent")) {
                q = p + 7;
                next = after_consent;
            }
            break;
        default:
            break;
        }
        if (next) {
            if (q < end && (*q == '-' || *q == '_'))
                q++;
            for (int i = 0; next[i]; i++)
                if (at(q, end, next[i]))
                    return 1;
        }
    }
    return 0;
}

/* trafilatura's basic_cleaning, and what is never shown */
static int jt_skip(htmltext *h, lxb_dom_node_t *body, lxb_dom_node_t *n, lxb_tag_id_t t)
{
    if (t == LXB_TAG_NOSCRIPT) { /* read when it holds elements (a page for readers without scripts) */
        for (lxb_dom_node_t *c = n->first_child; c; c = c->next)
            if (c->type == LXB_DOM_NODE_TYPE_ELEMENT)
                return 0;
        return 1;
    }
    if (never_text(t) || (html_hidden(n) && !html_hidden_page(h, n, body)))
        return 1;
    if (t == LXB_TAG_ASIDE || t == LXB_TAG_FOOTER) /* (not one left open around the page) */
        return !html_wraps_page(h, n, body);
    size_t lc = 0, li = 0;
    const char *c = html_attr(n, "class", &lc), *id = html_attr(n, "id", &li);
    return (c && lc && consent_or_footer(c, lc, t == LXB_TAG_DIV)) || (id && li && consent_or_footer(id, li, t == LXB_TAG_DIV));
}

static void jt_classify(jt_walk *w)
{
    pthread_once(&stop_once, stop_init);
    char low[256];
    for (size_t i = 0; i < w->n; i++) {
        jt_para *q = &w->p[i];
        const char *s = w->text.s + q->off;
        for (size_t a = 0; a < q->len;) { /* words at white space (the text has single spaces) */
            const char *sp = memchr(s + a, ' ', q->len - a);
            size_t e = sp ? (size_t)(sp - s) : q->len;
            size_t k = lower_word(s + a, e - a, low, sizeof low);
            q->words++;
            q->stops += k && stop_at && is_stop(low, k);
            a = e + 1;
        }
        double ld = q->chars ? (double)q->links / q->chars : 0;
        double sd = q->words ? (double)q->stops / q->words : 0;
        if (ld > 0.25 || memmem(s, q->len, "\xc2\xa9", 2) || memmem(s, q->len, "&copy", 5))
            q->cf = JT_BAD;
        else if (q->chars < 50)
            q->cf = q->links ? JT_BAD : JT_SHORT;
        else if (sd >= 0.2)
            q->cf = q->chars > 150 ? JT_GOOD : JT_NEARGOOD;
        else if (sd >= 0.1)
            q->cf = JT_NEARGOOD;
        else
            q->cf = JT_BAD;
        q->cls = q->cf;
    }
}

/* revise_paragraph_classification, in linear time: the nearest good-or-bad paragraph on each
 * side (and the nearest that is not short), found by one sweep each way */
static int jt_revise(jt_walk *w)
{
    size_t n = w->n;
    if (!n)
        return 0;
    uint8_t *pg = malloc(4 * n), *ng = pg + n, *pa = pg + 2 * n, *na = pg + 3 * n;
    if (!pg)
        return -1;
    uint8_t g = JT_BAD, a = JT_BAD;
    for (size_t i = 0; i < n; i++) { /* before i */
        pg[i] = g;
        pa[i] = a;
        uint8_t c = w->p[i].cls;
        if (c == JT_GOOD || c == JT_BAD)
            g = a = c;
        else if (c == JT_NEARGOOD)
            a = c;
    }
    g = a = JT_BAD;
    for (size_t i = n; i-- > 0;) { /* after i */
        ng[i] = g;
        na[i] = a;
        uint8_t c = w->p[i].cls;
        if (c == JT_GOOD || c == JT_BAD)
            g = a = c;
        else if (c == JT_NEARGOOD)
            a = c;
    }
    for (size_t i = 0; i < n; i++) {
        if (w->p[i].cls != JT_SHORT)
            continue;
        uint8_t c;
        if (pg[i] == JT_GOOD && ng[i] == JT_GOOD)
            c = JT_GOOD;
        else if (pg[i] == JT_BAD && ng[i] == JT_BAD)
            c = JT_BAD;
        else if ((pg[i] == JT_BAD && pa[i] == JT_NEARGOOD) || (ng[i] == JT_BAD && na[i] == JT_NEARGOOD))
            c = JT_GOOD;
        else
            c = JT_BAD;
        pa[i] = c; /* (pa is not read again: the new class, applied below) */
    }
    for (size_t i = 0; i < n; i++)
        if (w->p[i].cls == JT_SHORT)
            w->p[i].cls = pa[i];
    /* near-good ones: bad between bad ones; the ones before are revised already (jusText
     * revises in place), the ones after not (and are passed over) */
    g = JT_BAD;
    for (size_t i = n; i-- > 0;) {
        ng[i] = g;
        if (w->p[i].cls == JT_GOOD || w->p[i].cls == JT_BAD)
            g = w->p[i].cls;
    }
    g = JT_BAD;
    for (size_t i = 0; i < n; i++) {
        jt_para *q = &w->p[i];
        if (q->cls == JT_NEARGOOD)
            q->cls = g == JT_BAD && ng[i] == JT_BAD ? JT_BAD : JT_GOOD;
        if (q->cls == JT_GOOD || q->cls == JT_BAD)
            g = q->cls;
    }
    free(pg);
    return 0;
}

int html_justext(htmltext *h, lxb_dom_node_t *body, out_t *o, size_t *visible)
{
    h->walk_budget = 1 << 20;
    jt_walk w = {0};
    w.text.mode = HTMLTEXT_ALL;
    lxb_dom_node_t *n = body;
    while (n) {
        int descend = 0;
        if (n->type == LXB_DOM_NODE_TYPE_TEXT) {
            lxb_dom_text_t *tx = lxb_dom_interface_text(n);
            jt_text(&w, tx->char_data.data.data, tx->char_data.data.length);
        } else if (n->type == LXB_DOM_NODE_TYPE_ELEMENT) {
            lxb_tag_id_t t = lxb_dom_node_tag_id(n);
            if (n == body || !jt_skip(h, body, n, t)) {
                descend = 1;
                if (t == LXB_TAG_BR) {
                    if (w.br)
                        jt_end(&w);
                    else
                        w.space = 1;
                    w.br = 1;
                } else if (jt_block(t)) {
                    jt_end(&w);
                } else {
                    w.br = 0;
                    w.link += t == LXB_TAG_A;
                }
            }
        }
        if (descend && n->first_child) {
            n = n->first_child;
            continue;
        }
        /* leave n and the ancestors it closes (every ancestor was entered; n itself when descend) */
        for (int entered = descend;; entered = 1) {
            if (n->type == LXB_DOM_NODE_TYPE_ELEMENT && entered) {
                lxb_tag_id_t t = lxb_dom_node_tag_id(n);
                if (jt_block(t))
                    jt_end(&w);
                else if (t == LXB_TAG_A && w.link)
                    w.link--;
            }
            if (n == body) {
                n = NULL;
                break;
            }
            if (n->next) {
                n = n->next;
                break;
            }
            n = n->parent;
        }
    }
    jt_end(&w);
    int rc = 0;
    if (w.failed || w.text.failed || jt_revise((jt_classify(&w), &w)) < 0) {
        rc = -1;
    } else {
        size_t vis = 0;
        for (size_t i = 0; i < w.n; i++) {
            vis += w.p[i].chars;
            if (w.p[i].cls != JT_GOOD)
                continue;
            if (o->n)
                html_out_put(o, "\n", 1);
            html_out_put(o, w.text.s + w.p[i].off, w.p[i].len);
        }
        *visible = vis;
        rc = o->failed ? -1 : 0;
    }
    free(w.text.s);
    free(w.p);
    return rc;
}

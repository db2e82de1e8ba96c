/* htmltext.c - the extractor's face (htmltext.h): a parser per thread, the depth guard, then
 * decode (charset.c), parse (lexbor), annotate (annotate.c), choose (readability.c), render
 * (render.c) and NFC, a line at a time. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

#include <lexbor/dom/interfaces/text.h>

#include "common/err.h"
#include "common/utf8.h"
#include "preprocess/text/fixtext.h"
#include "preprocess/web/html/html_int.h"

int htmltext_new(htmltext **out)
{
    htmltext *h = calloc(1, sizeof *h);
    if (!h)
        return err_set(ERR_NOMEM, "out of memory");
    h->doc = lxb_html_document_create();
    if (!h->doc) {
        htmltext_free(h);
        return err_set(ERR_NOMEM, "out of memory for the HTML parser");
    }
    *out = h;
    return 0;
}

void htmltext_free(htmltext *h)
{
    if (!h)
        return;
    if (h->doc)
        lxb_html_document_destroy(h->doc);
    for (size_t i = 0; i < h->nblocks; i++)
        free(h->blocks[i]);
    free(h->blocks);
    free(h);
}

void htmltext_doc_free(htmltext_doc *d)
{
    free(d->text);
    free(d->title);
    memset(d, 0, sizeof *d);
}
static uint64_t tag_key(const char *t, size_t n)
{
    if (n == 0 || n > 8)
        return 0;
    unsigned char low[8] = {0};
    for (size_t i = 0; i < n; i++)
        low[i] = (unsigned char)(t[i] | 0x20); /* ASCII letters and digits: lower case (digits unchanged) */
    uint64_t k;
    memcpy(&k, low, 8);
    return k;
}

/* Elements a start tag does not nest: void elements, those the parser closes by
 * itself (optional end tags), and those it does not nest in themselves (a, nobr,
 * form, select, button, table: one in another closes or drops it), whose depth
 * would otherwise be overcounted. (A table nested in a cell is a scope boundary,
 * so the parser's checks stop there: not counting it costs nothing.) Their names
 * by length: flat_from[n] .. flat_from[n + 1]. */
static const char flat_names[][8] = {
    "p", "a", "br", "hr", "li", "dt", "dd", "tr", "td", "th", "rb", "rt", "rp", "col", "img", "wbr", "rtc",
    "area", "base", "link", "meta", "html", "head", "body", "nobr", "form", "embed", "input", "track", "param",
    "frame", "image", "tbody", "thead", "tfoot", "table", "source", "keygen", "option", "select", "button",
    "caption", "bgsound", "basefont", "optgroup", "colgroup"};
static const uint8_t flat_from[10] = {0, 0, 2, 13, 17, 26, 36, 41, 43, 46};

static int flat_tag(uint64_t key, size_t n)
{
    if (!key)
        return 0;
    for (unsigned e = flat_from[n]; e < flat_from[n + 1]; e++) {
        uint64_t c;
        memcpy(&c, flat_names[e], 8);
        if (c == key)
            return 1;
    }
    return 0;
}

size_t htmltext_depth(const char *s, size_t n)
{
    size_t depth = 0, max = 0;
    const char *p = s, *end = s + n;
    while ((p = memchr(p, '<', (size_t)(end - p))) != NULL) {
        p++;
        if (end - p >= 3 && p[0] == '!' && p[1] == '-' && p[2] == '-') {
            const char *q = p + 3;
            while (q + 2 < end && !(q[0] == '-' && q[1] == '-' && q[2] == '>'))
                q++;
            p = q;
            continue;
        }
        int close = p < end && *p == '/';
        const char *t = p + close, *e = t;
        if (e >= end || !isalpha((unsigned char)*e))
            continue;
        while (e < end && isalnum((unsigned char)*e))
            e++;
        size_t tn = (size_t)(e - t);
        const char *gt = memchr(e, '>', (size_t)(end - e));
        if (!gt)
            break;
        p = gt + 1;
        uint64_t key = tag_key(t, tn);
        if (close) {
            if (!flat_tag(key, tn) && depth)
                depth--;
            continue;
        }
        if (key == tag_key("script", 6) || key == tag_key("style", 5)) { /* raw text: to its end tag */
            const char *q = p;
            while ((q = memchr(q, '<', (size_t)(end - q))) != NULL && !(end - q > (ptrdiff_t)tn + 1 && q[1] == '/' &&
                                                                     !strncasecmp(q + 2, t, tn)))
                q++;
            const char *egt = q ? memchr(q, '>', (size_t)(end - q)) : NULL;
            p = egt ? egt + 1 : end; /* past its end tag */
            continue;
        }
        if (gt[-1] == '/' || flat_tag(key, tn))
            continue;
        if (++depth > max)
            max = depth;
    }
    return max;
}

/* Unicode NFC of valid UTF-8, a line at a time: a line feed neither composes nor is
 * reordered with anything, so each line normalises alone, and only the lines holding a
 * code point NFC may change go through utf8proc. NULL when out of memory. */
static char *nfc_lines(const char *s, size_t n, size_t *out_n)
{
    size_t cap = n + n / 8 + 16, o = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - s) + 1 : n;
        const char *piece = s + i;
        size_t pn = e - i;
        utf8proc_uint8_t *m = NULL;
        if (!fixtext_is_nfc(piece, pn)) {
            utf8proc_ssize_t ml = utf8proc_map((const utf8proc_uint8_t *)piece, (utf8proc_ssize_t)pn, &m,
                                               UTF8PROC_STABLE | UTF8PROC_COMPOSE);
            if (ml >= 0 && m) {
                piece = (const char *)m;
                pn = (size_t)ml;
            } /* else not valid UTF-8 (never: the text was made valid) or out of memory: kept as is */
        }
        if (o + pn + 1 > cap) {
            size_t nc = 2 * cap + pn;
            char *nb = realloc(out, nc);
            if (!nb) {
                free(m);
                free(out);
                return NULL;
            }
            out = nb;
            cap = nc;
        }
        memcpy(out + o, piece, pn);
        o += pn;
        free(m);
        i = e;
    }
    out[o] = '\0';
    *out_n = o;
    return out;
}

/* Characters (code points) of UTF-8 s[0..n). */
static size_t count_chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* The chosen container is, or is inside, an element of a boilerplate type: an <aside>, a
 * <footer>, a <nav>, an <address>, or one named like a comment list, a side column, a footer
 * (what class stripping removes; the try without it can land there). */
static int boilerplate_container(htmltext *h, lxb_dom_node_t *c, lxb_dom_node_t *body)
{
    h->walk_budget = 1 << 20;
    h->page_text_known = 0;
    for (lxb_dom_node_t *n = c; n && n != body && n->type == LXB_DOM_NODE_TYPE_ELEMENT; n = n->parent) {
        lxb_tag_id_t t = lxb_dom_node_tag_id(n);
        /* (a wrapper holding most of the page is the layout, "layout__2-sidebars-inline") */
        if ((t == LXB_TAG_ASIDE || t == LXB_TAG_FOOTER || t == LXB_TAG_NAV || t == LXB_TAG_ADDRESS ||
             html_boilerplate(n, HTMLTEXT_BALANCED)) &&
            !html_wraps_page(h, n, body))
            return 1;
    }
    return 0;
}

/* A second opinion, as trafilatura takes one (core.py, external.py; the rules in htmltext.h):
 * jusText's paragraphs (justext.c) and, when they are asked for, the main content by
 * --favor-recall's rules. *visible: the page's visible characters (counted when jusText ran),
 * for the reason an empty page is dropped under. 0, or ERR_NOMEM. */
int htmltext_fallback(size_t main_chars, size_t jt_chars, size_t visible, int unclean, int favor,
                      const size_t *recall_chars)
{
    if (main_chars < HTMLTEXT_FALLBACK_SHORT && jt_chars > main_chars)
        return HTMLTEXT_TAKE_JUSTEXT;
    if (main_chars >= HTMLTEXT_FALLBACK_SHORT && unclean && jt_chars && jt_chars < main_chars &&
        main_chars <= HTMLTEXT_FALLBACK_UNCLEAN * jt_chars)
        return HTMLTEXT_TAKE_JUSTEXT;
    if (favor == HTMLTEXT_PRECISION || main_chars >= HTMLTEXT_FALLBACK_LONG ||
        !(main_chars < HTMLTEXT_FALLBACK_SHARE * (double)visible))
        return HTMLTEXT_KEEP_MAIN;
    if (!recall_chars)
        return HTMLTEXT_NEED_RECALL;
    if (jt_chars > *recall_chars && jt_chars > HTMLTEXT_FALLBACK_JT_RATIO * (double)main_chars)
        return HTMLTEXT_TAKE_JUSTEXT;
    if (*recall_chars >= HTMLTEXT_FALLBACK_SHORT && *recall_chars > HTMLTEXT_FALLBACK_RECALL_RATIO * (double)main_chars)
        return HTMLTEXT_TAKE_RECALL;
    return HTMLTEXT_KEEP_MAIN;
}

static int second_opinion(htmltext *h, lxb_dom_node_t *body, int favor, out_t *o, int unclean, size_t *visible)
{
    size_t main_chars = count_chars(o->s ? o->s : "", o->n);
    /* no second opinion wanted: long enough, or a fair share of the page (its visible bytes,
     * counted once: jusText's count is not needed to know) */
    if (!unclean && main_chars >= HTMLTEXT_FALLBACK_SHORT &&
        (main_chars >= HTMLTEXT_FALLBACK_LONG || favor == HTMLTEXT_PRECISION ||
         (double)o->n >= HTMLTEXT_FALLBACK_SHARE * (double)html_page_all(h, body)))
        return 0;
    out_t j = {0}, r = {0};
    j.mode = HTMLTEXT_ALL;
    size_t vis = 0;
    if (html_justext(h, body, &j, &vis) < 0) {
        free(j.s);
        return err_set(ERR_NOMEM, "out of memory in the fallback extractor");
    }
    *visible = vis;
    size_t jt_chars = count_chars(j.s ? j.s : "", j.n);
    int choice = htmltext_fallback(main_chars, jt_chars, vis, unclean, favor, NULL);
    if (choice == HTMLTEXT_NEED_RECALL) {
        /* the recall try: the rules of --favor-recall over a fresh annotation (none when they
         * are the rules the main text was made by) */
        size_t r_chars = 0;
        if (favor != HTMLTEXT_RECALL) {
            r.mode = HTMLTEXT_MAIN;
            r.favor = HTMLTEXT_RECALL;
            r.titles[0] = o->titles[0];
            r.titles[1] = o->titles[1];
            int rc = html_annotate(h, body, HTMLTEXT_MAIN, HTMLTEXT_RECALL, STRIP_CLASSES | STRIP_LINKS);
            if (rc == 0) {
                html_main_content(h, body, HTMLTEXT_RECALL, &r);
                html_out_end(&r);
                rc = r.failed ? err_set(ERR_NOMEM, "out of memory in the fallback extractor") : 0;
            }
            if (rc < 0) {
                free(j.s);
                free(r.s);
                return rc;
            }
            r_chars = count_chars(r.s ? r.s : "", r.n);
        }
        choice = htmltext_fallback(main_chars, jt_chars, vis, unclean, favor, &r_chars);
    }
    if (choice == HTMLTEXT_TAKE_RECALL) {
        free(o->s);
        *o = r;
        o->favor = favor;
        r.s = NULL;
    } else if (choice == HTMLTEXT_TAKE_JUSTEXT) {
        free(o->s);
        o->s = j.s;
        o->n = j.n;
        o->cap = j.cap;
        o->pending = 0;
        j.s = NULL;
    }
    free(r.s);
    free(j.s);
    return 0;
}

int htmltext_extract(htmltext *h, const unsigned char *html, size_t n, const char *http_charset, int mode, int favor,
                     htmltext_doc *doc)
{
    memset(doc, 0, sizeof *doc);
    htmltext_sniff(html, n, http_charset, doc->charset, sizeof doc->charset);
    /* the page in UTF-8: itself (after a BOM) when it is valid UTF-8 already, as most
     * are, else converted into a copy */
    size_t un = n;
    const char *u = (const char *)html;
    char *copy = NULL;
    if (!strcmp(doc->charset, "UTF-8") && n >= 3 && html[0] == 0xEF && html[1] == 0xBB && html[2] == 0xBF) {
        u += 3;
        un -= 3;
    }
    if (strcmp(doc->charset, "UTF-8") || utf8_valid_prefix(u, un) != un) {
        if (!(u = copy = htmltext_to_utf8(html, n, doc->charset, &un)))
            return err_set(ERR_NOMEM, "out of memory decoding a page of %zu bytes", n);
    }
    if (htmltext_depth(u, un) > HTMLTEXT_MAX_DEPTH) {
        free(copy);
        return HTMLTEXT_TOO_DEEP;
    }
    lxb_html_document_clean(h->doc);
    html_attr_memo_reset(); /* the names' entries are the new page's */
    h->page_text_known = 0;
    lxb_status_t st = lxb_html_document_parse(h->doc, (const lxb_char_t *)u, un);
    free(copy);
    if (st != LXB_STATUS_OK)
        return err_set(ERR_NOMEM, "the HTML parser failed (status %d) on a page of %zu bytes", (int)st, n);
    /* the title, and og:title (which names the headline without the site's name more often
     * than <title>; for the headline rule): the first of each in <head> */
    lxb_html_head_element_t *head = lxb_html_document_head_element(h->doc);
    char *og = NULL;
    for (lxb_dom_node_t *c = head ? lxb_dom_interface_node(head)->first_child : NULL; c && !(doc->title && og);
         c = c->next) {
        if (c->type != LXB_DOM_NODE_TYPE_ELEMENT)
            continue;
        lxb_tag_id_t t = lxb_dom_node_tag_id(c);
        size_t pl = 0, cl = 0;
        const char *pv, *cv;
        if (t == LXB_TAG_TITLE && !doc->title && c->first_child && c->first_child->type == LXB_DOM_NODE_TYPE_TEXT) {
            lxb_dom_text_t *tx = lxb_dom_interface_text(c->first_child);
            doc->title = html_collapse(tx->char_data.data.data, tx->char_data.data.length);
        } else if (t == LXB_TAG_META && !og && (pv = html_attr(c, "property", &pl)) && pl == 8 &&
                   !memcmp(pv, "og:title", 8) && (cv = html_attr(c, "content", &cl)) && cl) {
            og = html_collapse((const unsigned char *)cv, cl);
        }
    }
    lxb_html_body_element_t *bodyel = lxb_html_document_body_element(h->doc);
    out_t o = {0};
    o.mode = mode;
    o.favor = favor;
    o.titles[0] = doc->title;
    o.titles[1] = og;
    if (bodyel) {
        lxb_dom_node_t *body = lxb_dom_interface_node(bodyel);
        int rc = html_annotate(h, body, mode, favor, STRIP_CLASSES | STRIP_LINKS);
        if (rc < 0) {
            free(og);
            return rc;
        }
        if (mode == HTMLTEXT_ALL) {
            html_render(body, &o);
        } else {
            html_main_content(h, body, favor, &o);
            /* As Readability: when stripping by class and id left too little (a wrapper
             * named "has-sidebar", say, held the article), try again without it and keep
             * the longer text. */
            /* Then, when still too little is left, without the link rules (blocks and lines):
             * a post that is a list of links (a link roll) is its links. */
            static const int retry[] = {STRIP_LINKS, STRIP_CLASSES};
            int unclean = 0; /* the text came from the try without class stripping, from a boilerplate-typed container */
            for (int k = 0; k < 2 && o.n < MAIN_MIN_TEXT && !o.failed; k++) {
                out_t o2 = {0};
                o2.mode = mode;
                o2.favor = favor;
                o2.titles[0] = o.titles[0];
                o2.titles[1] = o.titles[1];
                o2.keep_links = !(retry[k] & STRIP_LINKS);
                if ((rc = html_annotate(h, body, mode, favor, retry[k] | KEEP_OPEN_WRAPPERS)) < 0) {
                    free(o.s);
                    free(og);
                    return rc;
                }
                html_main_content(h, body, favor, &o2);
                if (o2.n > o.n || o2.failed) {
                    free(o.s);
                    o = o2;
                    unclean = k == 0 && boilerplate_container(h, o.container, body);
                } else {
                    free(o2.s);
                }
            }
            if (!o.failed && (rc = second_opinion(h, body, favor, &o, unclean, &doc->visible)) < 0) {
                free(o.s);
                free(og);
                return rc;
            }
            /* nothing kept: is there text on the page at all? (jusText's paragraphs leave out
             * footers and asides, where a shop's only text may be) */
            if (!o.n && !o.failed && html_page_all(h, body) > doc->visible)
                doc->visible = (size_t)html_page_all(h, body);
        }
    }
    free(og); /* the titles are not used after this */
    o.titles[1] = NULL;
    html_out_end(&o);
    if (o.failed) {
        free(o.s);
        htmltext_doc_free(doc);
        return err_set(ERR_NOMEM, "out of memory writing a page's text");
    }
    /* drop the final newline */
    while (o.n && o.s[o.n - 1] == '\n')
        o.n--;
    html_out_put(&o, "", 0);
    if (o.failed || !o.s) {
        free(o.s);
        o.s = strdup("");
        o.n = 0;
        if (!o.s) {
            htmltext_doc_free(doc);
            return err_set(ERR_NOMEM, "out of memory");
        }
    }
    o.s[o.n] = '\0';
    /* Unicode NFC, as trafilatura writes its text (and as cleanup's fix_text would make it):
     * a page's precomposed and decomposed forms of one letter read the same */
    size_t k = 0;
    while (k < o.n && (unsigned char)o.s[k] < 0x80)
        k++;
    if (k < o.n && !fixtext_is_nfc(o.s + k, o.n - k)) { /* most texts are NFC already: utf8proc only for the others */
        char *nfc = nfc_lines(o.s, o.n, &o.n);
        if (nfc) {
            free(o.s);
            o.s = nfc;
        } /* else out of memory: kept as is */
    }
    doc->text = o.s;
    doc->len = o.n;
    return 0;
}

/* html_int.h - what the extractor's files share (not for use outside preprocess/web/html/):
 *
 *   htmltext.c     the face (htmltext.h): a parser per thread, the depth guard, parse,
 *                  annotate, choose, render, NFC
 *   charset.c      the page's bytes to UTF-8: BOM, HTTP, <meta> prescan, uchardet, iconv
 *   annotate.c     per-node facts (ninfo): visible text, links, commas, what is never text,
 *                  hidden or boilerplate, link blocks; attribute look-ups
 *   readability.c  the main container: a semantic one (<article>, <main>, articleBody) or
 *                  Mozilla Readability's best-scoring candidate and its siblings
 *   render.c       the text out: one paragraph a line, white space collapsed, and the line
 *                  rules that drop boilerplate lines (labels, taxonomies, reading times)
 *   justext.c      the second opinion: jusText's paragraph classifier, for the fallback
 *
 * Every walk over the tree is iterative (first_child / next / parent), so a page
 * nested 100,000 deep costs memory for its nodes only, never stack. Per-node facts
 * live in blocks indexed through the node's `user` pointer. */
#ifndef PREPROCESS_WEB_HTML_HTML_INT_H
#define PREPROCESS_WEB_HTML_HTML_INT_H

#include <stddef.h>
#include <stdint.h>

#include <lexbor/html/html.h>

#include "preprocess/web/html/htmltext.h"

struct htmltext {
    lxb_html_document_t *doc;
    /* per-node facts in blocks of NBLOCK that never move (nodes point at them) */
    struct ninfo **blocks;
    size_t nblocks, used;
    size_t walk_budget; /* nodes holds_named_body may still visit on this page (it stays linear) */
    uint64_t page_text, page_all; /* visible text under body outside links, and all (html_page_text) */
    int page_text_known;
};
#define NBLOCK 4096

typedef struct ninfo {
    uint32_t text;  /* bytes of visible text under it (white space runs as one) */
    uint32_t links; /* of which inside <a> */
    uint32_t commas;
    float score;
    uint8_t skip;   /* 1: not part of the text */
    uint8_t para;   /* a paragraph-like block */
    uint8_t linkline; /* a <p> that is mostly links: its line is a link line */
} ninfo;

static inline ninfo *info_of(lxb_dom_node_t *n) { return (ninfo *)n->user; }

static inline int is_block(lxb_tag_id_t t)
{
    switch (t) {
    case LXB_TAG_P: case LXB_TAG_DIV: case LXB_TAG_LI: case LXB_TAG_UL: case LXB_TAG_OL: case LXB_TAG_DL:
    case LXB_TAG_DT: case LXB_TAG_DD: case LXB_TAG_H1: case LXB_TAG_H2: case LXB_TAG_H3: case LXB_TAG_H4:
    case LXB_TAG_H5: case LXB_TAG_H6: case LXB_TAG_TABLE: case LXB_TAG_TR: case LXB_TAG_PRE:
    case LXB_TAG_BLOCKQUOTE: case LXB_TAG_SECTION: case LXB_TAG_ARTICLE: case LXB_TAG_MAIN: case LXB_TAG_HEADER:
    case LXB_TAG_FOOTER: case LXB_TAG_NAV: case LXB_TAG_ASIDE: case LXB_TAG_FIGURE: case LXB_TAG_FIGCAPTION:
    case LXB_TAG_ADDRESS: case LXB_TAG_HR: case LXB_TAG_CAPTION: case LXB_TAG_DETAILS: case LXB_TAG_SUMMARY:
    case LXB_TAG_CENTER: case LXB_TAG_FORM: case LXB_TAG_BODY: case LXB_TAG_THEAD: case LXB_TAG_TBODY:
        return 1;
    default:
        return 0;
    }
}

/* Never text: code, media, form controls and what is not rendered. */
static inline int never_text(lxb_tag_id_t t)
{
    switch (t) {
    case LXB_TAG_SCRIPT: case LXB_TAG_STYLE: case LXB_TAG_NOSCRIPT: case LXB_TAG_TEMPLATE: case LXB_TAG_HEAD:
    case LXB_TAG_SVG: case LXB_TAG_MATH: case LXB_TAG_IFRAME: case LXB_TAG_OBJECT: case LXB_TAG_EMBED:
    case LXB_TAG_CANVAS: case LXB_TAG_VIDEO: case LXB_TAG_AUDIO: case LXB_TAG_SELECT: case LXB_TAG_OPTION:
    case LXB_TAG_TEXTAREA: case LXB_TAG_BUTTON: case LXB_TAG_INPUT: case LXB_TAG_DIALOG: case LXB_TAG_TITLE:
        return 1;
    default:
        return 0;
    }
}

static inline int is_heading(lxb_tag_id_t t)
{
    return t == LXB_TAG_H2 || t == LXB_TAG_H3 || t == LXB_TAG_H4 || t == LXB_TAG_H5 || t == LXB_TAG_H6;
}

/* Next node of a pre-order walk under root: into the children when descend, else past them. */
#define NEXT_SKIPPING(n, root, descend)                                                                               \
    do {                                                                                                              \
        if ((descend) && (n)->first_child) {                                                                          \
            (n) = (n)->first_child;                                                                                   \
            break;                                                                                                    \
        }                                                                                                             \
        while ((n) != (root) && !(n)->next)                                                                           \
            (n) = (n)->parent;                                                                                        \
        (n) = (n) == (root) ? NULL : (n)->next;                                                                       \
    } while (0)

/* annotate.c */
#define STRIP_CLASSES 1 /* boilerplate by class and id */
#define STRIP_LINKS 2   /* blocks that are mostly links (link_block) */
#define KEEP_OPEN_WRAPPERS 4 /* not the tag drops of an <aside>, <footer>, ... left open around the page
                              * (html_wraps_page), nor a hidden wrapper of the page (html_hidden_page):
                              * for the retries, since a page they swallowed comes out short */
/* Per-node facts for the tree under root (mode: HTMLTEXT_MAIN or _ALL; favor; strip: STRIP_*). */
int html_annotate(htmltext *h, lxb_dom_node_t *root, int mode, int favor, int strip);
/* An attribute's value (not NUL-terminated; *len) or NULL; the names are literals, looked up
 * once per page (html_attr_memo_reset when a page is parsed). */
const char *html_attr(lxb_dom_node_t *n, const char *name, size_t *len);
void html_attr_memo_reset(void);
/* The visible text (bytes, white space runs as one) under body outside links, and all of it,
 * counted once per page. */
uint64_t html_page_text(htmltext *h, lxb_dom_node_t *body);
uint64_t html_page_all(htmltext *h, lxb_dom_node_t *body);
/* An <aside> / <footer> / ... holding over half of the visible text under root: left open. */
int html_wraps_page(htmltext *h, lxb_dom_node_t *n, lxb_dom_node_t *root);
/* A hidden element holding more text than the rest of the page shows: shown. */
int html_hidden_page(htmltext *h, lxb_dom_node_t *n, lxb_dom_node_t *root);
/* An element named like boilerplate by its class, id or ARIA role (menus, comments, side
 * columns, footers, ...: annotate's list), unless it also names content. */
int html_boilerplate(lxb_dom_node_t *n, int favor);
/* hidden, aria-hidden="true", or styled display:none / visibility:hidden */
int html_hidden(lxb_dom_node_t *n);
/* An element whose class or itemprop names the article body (schema.org articleBody, ...). */
int html_named_body(lxb_dom_node_t *n, lxb_tag_id_t t);

/* readability.c */
/* Mozilla Readability's top candidate under body (NULL: none). */
lxb_dom_node_t *html_best_candidate(htmltext *h, lxb_dom_node_t *body);
/* An <article>, articleBody or <main> holding most of the page's paragraph text, or NULL. */
lxb_dom_node_t *html_semantic_container(lxb_dom_node_t *body);

/* render.c */
#define MAIN_MIN_TEXT 500
typedef struct {
    char *s;
    size_t n, cap;
    size_t line0;      /* where the current line starts */
    size_t line_links; /* bytes of the current line inside <a> */
    /* a lone link line after a line of text is kept when text follows it too: pend0..line0
     * is such a line, waiting for the next; after_text: the last line out was text */
    size_t pend0;
    int pending, after_text;
    int force_link; /* the current line is a link line whatever its links (ninfo.linkline) */
    int keep_links; /* no line is dropped for its links (the retry without the link rules) */
    int dateline;   /* the current line holds a <time> or a schema.org datePublished / dateModified */
    int space;         /* a space is pending */
    int failed;
    int mode, favor;
    const char *titles[2]; /* the page's <title> and og:title (collapsed), for the headline rule */
    lxb_dom_node_t *container; /* the element html_main_content chose */
} out_t;
void html_out_put(out_t *o, const char *s, size_t n);
void html_out_end(out_t *o);
/* A heading that repeats the page's title (the article's headline). */
int html_headline(lxb_dom_node_t *n, const out_t *o);
/* The text of the tree under root, by the facts annotate left. */
void html_render(lxb_dom_node_t *root, out_t *o);
/* s[0..n) with white space runs as one space, trimmed (malloc'd; NULL when out of memory). */
char *html_collapse(const unsigned char *s, size_t n);
/* The main content of body into o: the container, then its text with the link and line rules. */
void html_main_content(htmltext *h, lxb_dom_node_t *body, int favor, out_t *o);

/* justext.c */
/* jusText's good paragraphs of the page under body into o, a line each (trafilatura's
 * fallback: a second opinion); *visible: the characters of all its paragraphs, good or
 * not (the page's visible text). 0, or -1 when out of memory. */
int html_justext(htmltext *h, lxb_dom_node_t *body, out_t *o, size_t *visible);

#endif

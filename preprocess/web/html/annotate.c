/* annotate.c - per-node facts of a parsed page (html_int.h): visible text, links and commas
 * under each node, what is never text, hidden or boilerplate, blocks that are mostly links. */
#define _GNU_SOURCE
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <lexbor/dom/interfaces/text.h>

#include "common/err.h"
#include "preprocess/web/html/html_int.h"





/* lxb_dom_element_get_attribute, with the name's entry in the document's table of
 * attribute names (lxb_dom_attr_data_by_local_name: a hash of the lower-cased name)
 * looked up once per page and name, not once per element: the names are the literals
 * of the calls below, remembered by address, forgotten when a page is parsed */
enum { ATTR_MEMO = 32 }; /* slots, a power of two: a dozen names are asked */
static __thread struct {
    const char *name[ATTR_MEMO]; /* NULL: free */
    const lxb_dom_attr_data_t *data[ATTR_MEMO];
    int n;
} attr_memo;

void html_attr_memo_reset(void)
{
    memset(attr_memo.name, 0, sizeof attr_memo.name);
    attr_memo.n = 0;
}

static lxb_dom_attr_t *attr_node(lxb_dom_node_t *n, const char *name)
{
    lxb_dom_element_t *el = lxb_dom_interface_element(n);
    if (!el->first_attr)
        return NULL;
    if (n->ns != LXB_NS_HTML || n->owner_document->type != LXB_DOM_DOCUMENT_DTYPE_HTML)
        return lxb_dom_element_attr_by_name(el, (const lxb_char_t *)name, strlen(name));
    const lxb_dom_attr_data_t *data;
    size_t k = ((uintptr_t)name >> 2) & (ATTR_MEMO - 1);
    while (attr_memo.name[k] && attr_memo.name[k] != name)
        k = (k + 1) & (ATTR_MEMO - 1);
    if (attr_memo.name[k]) {
        data = attr_memo.data[k];
    } else {
        data = lxb_dom_attr_data_by_local_name(n->owner_document->attrs, (const lxb_char_t *)name, strlen(name));
        if (attr_memo.n < ATTR_MEMO / 2) { /* (never full: the probe always ends) */
            attr_memo.name[k] = name;
            attr_memo.data[k] = data;
            attr_memo.n++;
        }
    }
    if (!data)
        return NULL;
    for (lxb_dom_attr_t *a = el->first_attr; a; a = a->next)
        if (a->node.local_name == data->attr_id || a->qualified_name == data->attr_id)
            return a;
    return NULL;
}

/* an attribute's value (NULL when it is absent or has none) */
const char *html_attr(lxb_dom_node_t *n, const char *name, size_t *len)
{
    lxb_dom_attr_t *a = attr_node(n, name);
    *len = 0;
    return a ? (const char *)lxb_dom_attr_value(a, len) : NULL;
}

/* A list of words (below) filed by first letter, so that a class name's word is compared
 * with the few that start as it does; built once from the list, in its order. */
typedef struct {
    const char *w[128];
    uint8_t len[128], prefix[128]; /* len without the '*'; prefix: it ended in '*' */
    uint8_t from[27];              /* the words starting with 'a' + k are w[from[k] .. from[k + 1]) */
} word_index;

static void word_index_build(word_index *x, const char *const *words)
{
    size_t n = 0;
    for (int k = 0; k < 26; k++) {
        x->from[k] = (uint8_t)n;
        for (const char *const *w = words; *w; w++)
            if ((*w)[0] == 'a' + k && n < 128) { /* (the lists below hold fewer) */
                size_t l = strlen(*w);
                x->prefix[n] = (*w)[l - 1] == '*';
                x->len[n] = (uint8_t)(l - x->prefix[n]);
                x->w[n++] = *w;
            }
    }
    x->from[26] = (uint8_t)n;
}

/* Whether s[0..n) holds one of the words (separated by anything not a letter or
 * digit; "-" and "_" separate too: "share-bar" holds "share"). A word ending in '*'
 * matches as a prefix ("related*" holds "relatedposts"). */
static int has_word(const char *s, size_t n, const word_index *x)
{
    size_t i = 0;
    int negated = 0; /* the word follows "no" / "without" in the same name: "no_caption", "no-sidebar" */
    while (i < n) {
        int same_name = i > 0;
        while (i < n && !isalnum((unsigned char)s[i])) {
            same_name &= !isspace((unsigned char)s[i]);
            i++;
        }
        size_t j = i;
        while (j < n && isalnum((unsigned char)s[j]))
            j++;
        /* ("no-print" is not negated: what is not printed is the page's chrome) */
        int skip = negated && same_name && !(j - i == 5 && !strncasecmp(s + i, "print", 5));
        negated = (j - i == 2 && !strncasecmp(s + i, "no", 2)) || (j - i == 7 && !strncasecmp(s + i, "without", 7));
        if (skip || i == j) {
            i = j;
            continue;
        }
        unsigned k = (unsigned)((unsigned char)s[i] | 0x20) - 'a'; /* the words are lower-case letters first */
        if (k < 26)
            for (unsigned e = x->from[k]; e < x->from[k + 1]; e++) {
                size_t wl = x->len[e];
                if (x->prefix[e] ? j - i >= wl && !strncasecmp(s + i, x->w[e], wl)
                                 : wl == j - i && !strncasecmp(s + i, x->w[e], wl))
                    return 1;
            }
        i = j;
    }
    return 0;
}

/* a tab's panel is hidden until its tab is chosen: the page's content all the same (a
 * documentation page's code in each language, a product's specifications) */
static int tab_panel(lxb_dom_node_t *n)
{
    size_t len;
    const char *role = html_attr(n, "role", &len);
    return role && len == 8 && !strncasecmp(role, "tabpanel", 8);
}

static int hidden_by_attr(lxb_dom_node_t *n)
{
    size_t len;
    if (attr_node(n, "hidden"))
        return 1;
    const char *v = html_attr(n, "aria-hidden", &len);
    if (v && len == 4 && !strncasecmp(v, "true", 4))
        return 1;
    v = html_attr(n, "style", &len);
    if (v && len) {
        char b[256];
        size_t k = 0;
        for (size_t i = 0; i < len && k + 1 < sizeof b; i++)
            if (!isspace((unsigned char)v[i]))
                b[k++] = (char)tolower((unsigned char)v[i]);
        b[k] = '\0';
        if (strstr(b, "display:none") || strstr(b, "visibility:hidden"))
            return 1;
    }
    return 0;
}

int html_hidden(lxb_dom_node_t *n)
{
    return n->type == LXB_DOM_NODE_TYPE_ELEMENT && lxb_dom_interface_element(n)->first_attr && hidden_by_attr(n) &&
           !tab_panel(n);
}

/* Boilerplate named by class or id (Readability's unlikely candidates, trafilatura's
 * discard list, narrowed to whole words). */
static const char *const boiler_words[] = {
    "nav", "navbar", "navigation*", "menu*", "breadcrumb*", "sidebar*", "footer*", "masthead", "comment*", "comentario*", "kommentar*", "share*",
    "sharing", "social*", "related*", "recommend*", "advert*", "ad", "ads", "adsense", "sponsor*", "promo*", "banner*",
    "cookie*", "consent", "gdpr", "newsletter*", "subscri*", "popup*", "modal", "pagination", "pager", "widget*",
    "tags", "tagcloud", "signup", "login", "disqus", "outbrain", "taboola", "toolbar", "skip", "print", "rss", "yarpp",
    "teaser*", "morelinks", "most", "popular", "trending", "readmore", "author*", "byline",
    "caption", "credit*", "copyright", "disclosure*", "disclaimer*", "lightbox*", "overlay*", "dialog*", "tooltip*",
    "popover*", "offcanvas*", "dropdown*", "flyout*", "ai2html", "trc", "timestamp*", "bio", NULL};
/* ... unless they also name content (Readability's "maybe candidates"). */
static const char *const content_words[] = {"article", "content", "main", "body", "post", "entry", "story", "text",
                                            "blog", "column", NULL};
static word_index boiler_index, content_index;
static pthread_once_t word_once = PTHREAD_ONCE_INIT;
static void word_index_init(void)
{
    word_index_build(&boiler_index, boiler_words);
    word_index_build(&content_index, content_words);
}

/* Phrasing elements, which class names do not remove inside a paragraph: a link or a
 * span styled "popup" or "tooltip" in running text is the text. */
static int inline_in_text(lxb_dom_node_t *n)
{
    switch (lxb_dom_node_tag_id(n)) {
    case LXB_TAG_A: case LXB_TAG_SPAN: case LXB_TAG_EM: case LXB_TAG_STRONG: case LXB_TAG_B: case LXB_TAG_I:
    case LXB_TAG_U: case LXB_TAG_SMALL: case LXB_TAG_SUP: case LXB_TAG_SUB: case LXB_TAG_ABBR: case LXB_TAG_CITE:
    case LXB_TAG_MARK: case LXB_TAG_Q: case LXB_TAG_TIME: case LXB_TAG_FONT: case LXB_TAG_DFN: case LXB_TAG_CODE:
        break;
    default:
        return 0;
    }
    for (lxb_dom_node_t *p = n->parent; p && p->type == LXB_DOM_NODE_TYPE_ELEMENT; p = p->parent) {
        lxb_tag_id_t t = lxb_dom_node_tag_id(p);
        if (t == LXB_TAG_P || t == LXB_TAG_BLOCKQUOTE || t == LXB_TAG_DD)
            return 1;
        if (is_block(t))
            return 0;
    }
    return 0;
}

int html_boilerplate(lxb_dom_node_t *n, int favor)
{
    if (inline_in_text(n))
        return 0;
    size_t lc = 0, li = 0;
    const char *c = html_attr(n, "class", &lc), *id = html_attr(n, "id", &li);
    const char *role;
    size_t lr;
    if ((role = html_attr(n, "role", &lr)) && lr &&
        (!strncasecmp(role, "navigation", lr) || !strncasecmp(role, "banner", lr) ||
         !strncasecmp(role, "contentinfo", lr) || !strncasecmp(role, "complementary", lr)))
        return 1;
    pthread_once(&word_once, word_index_init);
    int bad = (c && has_word(c, lc, &boiler_index)) || (id && has_word(id, li, &boiler_index));
    if (!bad)
        return 0;
    if (favor == HTMLTEXT_PRECISION)
        return 1;
    return !((c && has_word(c, lc, &content_index)) || (id && has_word(id, li, &content_index)));
}

/* The next node's facts (zeroed), or NULL when out of memory. */
static ninfo *new_info(htmltext *h)
{
    size_t b = h->used / NBLOCK;
    if (b == h->nblocks) {
        ninfo **nb = realloc(h->blocks, (h->nblocks + 1) * sizeof *nb);
        if (!nb)
            return NULL;
        h->blocks = nb;
        if (!(h->blocks[h->nblocks] = malloc(NBLOCK * sizeof(ninfo))))
            return NULL;
        h->nblocks++;
    }
    ninfo *in = &h->blocks[b][h->used++ % NBLOCK];
    memset(in, 0, sizeof *in);
    return in;
}

/* Visible text bytes of a text node, white space runs counted as one. */
static void text_stats(lxb_dom_node_t *t, uint32_t *len, uint32_t *commas)
{
    lxb_dom_text_t *tx = lxb_dom_interface_text(t);
    const unsigned char *s = tx->char_data.data.data;
    size_t n = tx->char_data.data.length, k = 0, c = 0;
    int sp = 1;
    for (size_t i = 0; i < n; i++) {
        if (isspace(s[i])) {
            if (!sp)
                k++;
            sp = 1;
        } else {
            k++;
            sp = 0;
            c += s[i] == ',';
            /* the commas of other scripts: fullwidth U+FF0C, ideographic U+3001, Arabic U+060C */
            if (i + 2 < n && ((s[i] == 0xEF && s[i + 1] == 0xBC && s[i + 2] == 0x8C) ||
                              (s[i] == 0xE3 && s[i + 1] == 0x80 && s[i + 2] == 0x81)))
                c++;
            else if (i + 1 < n && s[i] == 0xD8 && s[i + 1] == 0x8C)
                c++;
        }
    }
    *len = (uint32_t)(k > UINT32_MAX / 2 ? UINT32_MAX / 2 : k);
    *commas = (uint32_t)(c > 1000000 ? 1000000 : c);
}


/* The main content drops a list or block that is mostly links (a related-articles box,
 * a tag list, a pager) and the short heading just before it ("Related articles"): both
 * are taken back out of the parent's sums. */
static void link_block(lxb_dom_node_t *n, ninfo *ci, ninfo *pi, int favor)
{
    lxb_tag_id_t t = lxb_dom_node_tag_id(n);
    if (!(t == LXB_TAG_UL || t == LXB_TAG_OL || t == LXB_TAG_DL || t == LXB_TAG_DIV || t == LXB_TAG_SECTION ||
          t == LXB_TAG_TABLE || t == LXB_TAG_P))
        return;
    double lim = favor == HTMLTEXT_PRECISION ? 0.35 : favor == HTMLTEXT_RECALL ? 0.85 : 0.55;
    int cards = 0; /* <article> children: a list of teasers of other pages */
    for (lxb_dom_node_t *c = n->first_child; c; c = c->next)
        cards += c->type == LXB_DOM_NODE_TYPE_ELEMENT && lxb_dom_node_tag_id(c) == LXB_TAG_ARTICLE;
    double ld = ci->text ? (double)ci->links / (double)ci->text : 0;
    if (!ci->text || (ld <= lim && (cards < 2 || ld < 0.15)) || ci->text > 3000)
        return;
    if (t == LXB_TAG_P && favor != HTMLTEXT_PRECISION) {
        /* one paragraph of links ("[Read: ...]"): a link line, kept only between lines of text */
        ci->linkline = 1;
        return;
    }
    ci->skip = 1;
    lxb_dom_node_t *prev = n->prev;
    while (prev && prev->type == LXB_DOM_NODE_TYPE_TEXT && info_of(prev) && info_of(prev)->text == 0)
        prev = prev->prev;
    if (!prev || prev->type != LXB_DOM_NODE_TYPE_ELEMENT || !prev->user)
        return;
    ninfo *hi = info_of(prev);
    lxb_tag_id_t ht = lxb_dom_node_tag_id(prev);
    if (hi->skip || hi->text > 80 || !(is_heading(ht) || ht == LXB_TAG_P || ht == LXB_TAG_DIV || ht == LXB_TAG_SPAN ||
                                       ht == LXB_TAG_STRONG || ht == LXB_TAG_B))
        return;
    hi->skip = 1;
    pi->text -= hi->text;
    pi->commas -= hi->commas;
    pi->links -= (lxb_dom_node_tag_id(n->parent) == LXB_TAG_A) ? hi->text : hi->links;
}

/* Pass 1: give every node its facts; mark what is never text (and, for the main
 * content, boilerplate); sum text, link text and commas up the tree (post-order:
 * a node's sums are added to its parent's when the walk leaves it). */
/* The class names content-management systems give an article's body (WordPress's
 * entry-content, and the like): words of a class or id, compared without case and
 * without '-' or '_' between their parts. */
static const char *const body_classes[] = {"entrycontent", "postcontent", "postbody", "postentry", "posttext",
                                           "articlebody", "articlecontent", "articletext", "storybody",
                                           "storycontent", "contentbody", "bodytext", NULL};
static int body_class(const char *s, size_t n);

/* An element that names itself an article's body: schema.org's articleBody, or a <div> /
 * <section> of a body class name (or id). */
int html_named_body(lxb_dom_node_t *n, lxb_tag_id_t t)
{
    size_t len, lc = 0, li = 0;
    const char *ip = html_attr(n, "itemprop", &len);
    if (ip && len == 11 && !strncmp(ip, "articleBody", 11))
        return 1;
    if (t != LXB_TAG_DIV && t != LXB_TAG_SECTION)
        return 0;
    const char *cl = html_attr(n, "class", &lc), *id = html_attr(n, "id", &li);
    return (cl && body_class(cl, lc)) || (id && body_class(id, li));
}

static int body_class(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        char w[48];
        size_t k = 0;
        for (; i < n && !isspace((unsigned char)s[i]); i++)
            if (s[i] != '-' && s[i] != '_' && k + 1 < sizeof w)
                w[k++] = (char)tolower((unsigned char)s[i]);
        w[k] = '\0';
        for (int j = 0; k && body_classes[j]; j++)
            if (!strcmp(w, body_classes[j]))
                return 1;
    }
    return 0;
}

/* Visible text bytes under root outside links (white space runs as one), what is never
 * text left out. */
static uint64_t subtree_text_all(lxb_dom_node_t *root, size_t *budget, uint64_t *all);
static uint64_t subtree_text(lxb_dom_node_t *root, size_t *budget)
{
    uint64_t all;
    return subtree_text_all(root, budget, &all);
}

/* ... and *all: the same with link text */
static uint64_t subtree_text_all(lxb_dom_node_t *root, size_t *budget, uint64_t *all)
{
    uint64_t sum = 0;
    *all = 0;
    int in_a = 0; /* open <a> elements around n */
    lxb_dom_node_t *n = root;
    while (n) {
        if (!*budget)
            return *all = 0;
        --*budget;
        int descend = 1;
        if (n->type == LXB_DOM_NODE_TYPE_ELEMENT) {
            descend = n == root || !(never_text(lxb_dom_node_tag_id(n)) || html_hidden(n));
        } else if (n->type == LXB_DOM_NODE_TYPE_TEXT) {
            uint32_t len, commas;
            text_stats(n, &len, &commas);
            if (!in_a)
                sum += len;
            *all += len;
            descend = 0;
        } else if (n != root) {
            descend = 0;
        }
        if (descend && n->first_child) {
            in_a += n->type == LXB_DOM_NODE_TYPE_ELEMENT && lxb_dom_node_tag_id(n) == LXB_TAG_A;
            n = n->first_child;
            continue;
        }
        while (n != root && !n->next) {
            n = n->parent;
            in_a -= n->type == LXB_DOM_NODE_TYPE_ELEMENT && lxb_dom_node_tag_id(n) == LXB_TAG_A && n != root;
        }
        n = n == root ? NULL : n->next;
    }
    return sum;
}

/* Inside n, an article's body named as such (an element of a body class name, or
 * schema.org's articleBody; not <article>, which teaser cards use too) with 500 bytes of
 * text or more: a wrapper named like boilerplate around it
 * ("above-footer") is not stripped. */
static int holds_named_body(lxb_dom_node_t *root, size_t *budget)
{
    lxb_dom_node_t *n = root;
    while (n) {
        if (!*budget) /* the page's allowance spent (nesting built to make this quadratic): strip */
            return 0;
        --*budget;
        int descend = 1;
        if (n->type == LXB_DOM_NODE_TYPE_ELEMENT && n != root) {
            lxb_tag_id_t t = lxb_dom_node_tag_id(n);
            if (never_text(t) || html_hidden(n)) {
                descend = 0;
            } else if (html_named_body(n, t) && subtree_text(n, budget) >= 500) {
                return 1;
            }
        } else if (n->type != LXB_DOM_NODE_TYPE_ELEMENT) {
            descend = 0;
        }
        NEXT_SKIPPING(n, root, descend);
    }
    return 0;
}

/* The visible text under body (the root every walk starts from), counted once per page. */
static void page_count(htmltext *h, lxb_dom_node_t *body)
{
    if (!h->page_text_known) {
        size_t budget = 1 << 21;
        h->page_text = subtree_text_all(body, &budget, &h->page_all);
        h->page_text_known = 1;
    }
}

uint64_t html_page_text(htmltext *h, lxb_dom_node_t *body)
{
    page_count(h, body);
    return h->page_text;
}

uint64_t html_page_all(htmltext *h, lxb_dom_node_t *body)
{
    page_count(h, body);
    return h->page_all;
}

/* An element that would be dropped by its tag (an <aside>, a <footer>) but holds over half of
 * the visible text under root: one left open, which the parser made the parent of the rest of
 * the page ("<aside class=announcement-banner>" never closed). Both counts walk at most
 * h->walk_budget nodes (the page's allowance). */
int html_wraps_page(htmltext *h, lxb_dom_node_t *n, lxb_dom_node_t *root)
{
    /* left open, it took in the rest of its parent: no element follows it (most asides, navs
     * and headers are followed by the page: no walk for them) */
    for (lxb_dom_node_t *x = n->next; x; x = x->next)
        if (x->type == LXB_DOM_NODE_TYPE_ELEMENT)
            return 0;
    uint64_t sub = subtree_text(n, &h->walk_budget); /* (first: most are small, and the page's walk is spared) */
    if (sub < 100)
        return 0;
    uint64_t page = html_page_text(h, root);
    return page >= 200 && sub * 2 > page;
}

/* A hidden element (styled display:none, say) holding more text than all the rest of the
 * page shows, 500 bytes at least: the page's content, hidden for a script to reveal (a
 * shop's "lockdown" wrapper) rather than a closed menu or dialog. */
int html_hidden_page(htmltext *h, lxb_dom_node_t *n, lxb_dom_node_t *root)
{
    uint64_t sub = subtree_text(n, &h->walk_budget);
    if (sub < 500)
        return 0;
    return sub > html_page_text(h, root);
}

/* what annotate strips for the main content besides what is never text */
int html_annotate(htmltext *h, lxb_dom_node_t *root, int mode, int favor, int strip)
{
    h->walk_budget = 1 << 20;
    h->used = 0;
    int in_article = 0; /* open <article> / <main> elements around n */
    lxb_dom_node_t *n = root;
    /* pre-order with explicit leave steps */
    for (;;) {
        ninfo *in = new_info(h);
        if (!in)
            return err_set(ERR_NOMEM, "out of memory for the page's tree");
        n->user = in;
        int descend = 1;
        if (n->type == LXB_DOM_NODE_TYPE_ELEMENT) {
            lxb_tag_id_t t = lxb_dom_node_tag_id(n);
            if (n != root) {
                if (never_text(t) || (html_hidden(n) && !((strip & KEEP_OPEN_WRAPPERS) && html_hidden_page(h, n, root))))
                    in->skip = 1;
                else if (mode == HTMLTEXT_MAIN &&
                         (((t == LXB_TAG_NAV || t == LXB_TAG_ASIDE || t == LXB_TAG_FORM || t == LXB_TAG_MENU ||
                            t == LXB_TAG_FIGURE || t == LXB_TAG_FIGCAPTION ||
                            ((t == LXB_TAG_FOOTER || t == LXB_TAG_HEADER) && !in_article)) &&
                           !((strip & KEEP_OPEN_WRAPPERS) && html_wraps_page(h, n, root))) ||
                          ((strip & STRIP_CLASSES) && html_boilerplate(n, favor) && !holds_named_body(n, &h->walk_budget))))
                    in->skip = 1;
            }
            if (!in->skip && (t == LXB_TAG_ARTICLE || t == LXB_TAG_MAIN))
                in_article++;
            in->para = t == LXB_TAG_P || t == LXB_TAG_PRE || t == LXB_TAG_TD || t == LXB_TAG_BLOCKQUOTE ||
                       t == LXB_TAG_LI || t == LXB_TAG_DD;
            descend = !in->skip;
        } else if (n->type == LXB_DOM_NODE_TYPE_TEXT) {
            text_stats(n, &in->text, &in->commas);
            descend = 0;
        } else if (n != root) {
            descend = 0; /* comments, doctype */
        }
        if (descend && n->first_child) {
            n = n->first_child;
            continue;
        }
        /* leave n, and every ancestor whose last child this was */
        for (;;) {
            ninfo *ci = info_of(n);
            if (n->type == LXB_DOM_NODE_TYPE_ELEMENT && !ci->skip && in_article &&
                (lxb_dom_node_tag_id(n) == LXB_TAG_ARTICLE || lxb_dom_node_tag_id(n) == LXB_TAG_MAIN))
                in_article--;
            if (n == root)
                return 0;
            lxb_dom_node_t *p = n->parent;
            ninfo *pi = info_of(p);
            if (mode == HTMLTEXT_MAIN && (strip & STRIP_LINKS) && !ci->skip && n->type == LXB_DOM_NODE_TYPE_ELEMENT)
                link_block(n, ci, pi, favor);
            if (!ci->skip) {
                pi->text += ci->text;
                pi->commas += ci->commas;
                pi->links += (p->type == LXB_DOM_NODE_TYPE_ELEMENT && lxb_dom_node_tag_id(p) == LXB_TAG_A) ? ci->text
                                                                                                         : ci->links;
            }
            if (n->next) {
                n = n->next;
                break;
            }
            n = p;
        }
    }
}

/* Readability's score of every paragraph, given to its parent and half to its
 * grandparent; the best candidate after the link-density penalty. */
/* render.c - the text of a page (html_int.h): one paragraph a line, white space collapsed
 * (kept in <pre>), link lines and boilerplate lines dropped by the line rules, the main content
 * chosen and rendered. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>
#include <lexbor/dom/interfaces/text.h>

#include "preprocess/web/html/html_int.h"


void html_out_put(out_t *o, const char *s, size_t n)
{
    if (o->failed)
        return;
    if (o->n + n + 2 > o->cap) {
        size_t nc = o->cap ? o->cap : 4096;
        while (nc < o->n + n + 2)
            nc *= 2;
        char *ns = realloc(o->s, nc);
        if (!ns) {
            o->failed = 1;
            return;
        }
        o->s = ns;
        o->cap = nc;
    }
    memcpy(o->s + o->n, s, n);
    o->n += n;
}

/* s[0..n) reduced to its letters and digits, lower-cased (UTF-8 into out, NUL-ended):
 * a headline and the <title> compared so ignore quotes, dashes and spaces, which pages
 * write differently in each ("“Within”" / "\"Within\"", a no-break space) */
static size_t alnum_key(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0, i = 0;
    while (i < n && o + 5 < cap) {
        unsigned char a = (unsigned char)s[i];
        if (a < 0x80) { /* ASCII: its letters and digits are the categories below */
            if ((unsigned)((a | 0x20) - 'a') < 26u || (unsigned)(a - '0') < 10u)
                out[o++] = (char)((unsigned)(a - 'A') < 26u ? a | 0x20 : a);
            i++;
            continue;
        }
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(n - i), &cp);
        if (k <= 0) {
            i++;
            continue;
        }
        i += (size_t)k;
        utf8proc_category_t c = utf8proc_category(cp);
        if (!(c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_LO) &&
            !(c >= UTF8PROC_CATEGORY_ND && c <= UTF8PROC_CATEGORY_NO))
            continue;
        o += (size_t)utf8proc_encode_char(utf8proc_tolower(cp), (utf8proc_uint8_t *)out + o);
    }
    out[o] = '\0';
    return o;
}

/* Lines that are a label, never the text (compared as alnum_key makes them: letters and
 * digits, lower-cased): the page's controls, an advertisement slot's label or a jump over one */
static const char *const label_lines[] = {
    "loading", "sharethisstory", "sharethisarticle", "sharethispage", "sharethis", "shareonfacebook",
    "shareontwitter", "tweetthis", "printthisarticle", "printthispage", "emailthisarticle", "emailthisstory",
    "aboutthiscontent", "artikelteilen", "partagerlarticle", "compartirart\xc3\xad" "culo",
    "advertisement", "advertisements", "advertisment", "advertising", "anzeige", "werbung", "publicit\xc3\xa9",
    "publicidad", "publicidade", "pubblicit\xc3\xa0", "reklama", "storycontinuesbelowadvertisement",
    "skipadvertisement", "continuereadingthemainstory", "advertisementcontinuereadingbelow",
    "close", "upnext", "playvideo", "replay", "watchnow", "clicktoenlarge", "enlargethisimage", "zoom", NULL};

static int label_line(const char *s, size_t n)
{
    if (n > 64)
        return 0;
    char k[80];
    alnum_key(s, n, k, sizeof k);
    for (const char *const *l = label_lines; *l; l++)
        if (!strcmp(k, *l))
            return 1;
    return 0;
}

/* The labels of a post's taxonomy line ("Posted in News, Sport", "Tags: a, b", "Kategorie:
 * ..."), compared without case on the line's start; the line goes when it is short and
 * links make a good part of it. */
static const char *const taxonomy_labels[] = {
    "posted in", "filed under", "tagged", "tags:", "tags :", "tag:", "category:", "categories:", "labels:",
    "kategorie:", "kategorien:", "schlagw\xc3\xb6rter:", "schlagworte:", "stichw\xc3\xb6rter:",
    "cat\xc3\xa9gorie", "mots-cl\xc3\xa9s", "mots cl\xc3\xa9s", "etiquetas:", "categor\xc3\xad" "a:",
    "categor\xc3\xad" "as:", "categorie:", "tag :", NULL};

/* A line that gives the reading time ("Oct 18, 2019 · 8 min read", "5 Min. Lesezeit") */
static int reading_time_line(const char *s, size_t n)
{
    static const char *const marks[] = {"min read", "minute read", "minutes read", "Min. Lesezeit", "min. Lesezeit",
                                        "Minuten Lesezeit", "min de lecture", "minutos de lectura", NULL};
    if (n >= 100)
        return 0;
    for (const char *const *m = marks; *m; m++)
        if (memmem(s, n, *m, strlen(*m)))
            return 1;
    return 0;
}

static int taxonomy_line(const char *s, size_t n, size_t links)
{
    if (n >= 200 || links * 10 < n * 3)
        return 0;
    for (const char *const *l = taxonomy_labels; *l; l++) {
        size_t k = strlen(*l);
        if (n > k && !strncasecmp(s, *l, k))
            return 1;
    }
    return 0;
}

/* A PHP error the server printed into the page ("Warning: Creating default object from
 * empty value in /var/www/... on line 12") */
static int php_error_line(const char *s, size_t n)
{
    static const char *const kinds[] = {"Warning: ", "Notice: ", "Deprecated: ", "Strict Standards: ",
                                        "Fatal error: ", "Parse error: ", NULL};
    if (n > 1000)
        return 0;
    for (const char *const *k = kinds; *k; k++) {
        size_t l = strlen(*k);
        if (n > l && !memcmp(s, *k, l))
            return memmem(s, n, " on line ", 9) != NULL && memmem(s, n, " in /", 5) != NULL;
    }
    return 0;
}

/* A line of the main content that is not text whatever its block: an ad slot's label or a
 * control, the dateline (a short line with the page's date in it, with the byline, the
 * publisher, "Updated ..."), a taxonomy line, a PHP error, the reading time */
static int boiler_line(const char *s, size_t n, size_t links, int dateline)
{
    return label_line(s, n) || (dateline && n < 200) || taxonomy_line(s, n, links) || php_error_line(s, n) ||
           reading_time_line(s, n);
}

/* End the current line: kept, or (main content) dropped when mostly link text. */
static void o_break(out_t *o)
{
    o->space = 0;
    size_t len = o->n - o->line0;
    if (!len)
        return;
    int dateline = o->dateline;
    o->dateline = 0;
    if (o->mode == HTMLTEXT_MAIN) {
        if (boiler_line(o->s + o->line0, len, o->line_links, dateline)) {
            o->n = o->line0;
            o->line_links = 0;
            o->force_link = 0;
            return;
        }
        double ld = (double)o->line_links / (double)len;
        double lim = o->favor == HTMLTEXT_PRECISION ? 0.3 : 0.9;
        int forced = o->force_link;
        o->force_link = 0;
        if ((ld > lim || forced) && !o->keep_links) {
            o->line_links = 0;
            if (o->after_text && o->favor != HTMLTEXT_PRECISION) { /* "Learn more about X" in the text */
                o->pend0 = o->line0;
                o->pending = 1;
                o->after_text = 0;
                html_out_put(o, "\n", 1);
                o->line0 = o->n;
                return;
            }
            /* a link line among link lines: a list of links, dropped with the one waiting */
            o->n = o->pending ? o->pend0 : o->line0;
            o->line0 = o->n;
            o->pending = o->after_text = 0;
            return;
        }
        o->pending = 0;
        o->after_text = 1;
    }
    html_out_put(o, "\n", 1);
    o->line0 = o->n;
    o->line_links = 0;
}

/* the end of the text: a link line still waiting is dropped */
void html_out_end(out_t *o)
{
    if (o->pending)
        o->n = o->pend0;
    o->pending = 0;
}

static void o_text(out_t *o, const unsigned char *s, size_t n, int pre, int in_link)
{
    size_t before = o->n;
    if (pre) {
        for (size_t i = 0; i < n; i++) {
            if (s[i] == '\n')
                o_break(o);
            else if (s[i] != '\r')
                html_out_put(o, (const char *)s + i, 1);
        }
    } else {
        size_t i = 0;
        while (i < n) {
            if (isspace(s[i])) {
                o->space = 1;
                i++;
                continue;
            }
            size_t j = i;
            while (j < n && !isspace(s[j]))
                j++;
            if (o->space && o->n > o->line0)
                html_out_put(o, " ", 1);
            o->space = 0;
            html_out_put(o, (const char *)s + i, j - i);
            i = j;
        }
    }
    if (in_link && o->n > before)
        o->line_links += o->n - before;
}

/* Write the text under root (skipping what pass 1 marked); NULL root: nothing. */
/* A short heading (h2-h6) after which its parent holds no more text: the title of a box that
 * was dropped. */
static int orphan_heading(lxb_dom_node_t *n)
{
    ninfo *in = info_of(n);
    if (!is_heading(lxb_dom_node_tag_id(n)) || in->text > 80)
        return 0;
    /* nothing after it in its parent, nor after its parent in the grandparent (a heading
     * wrapped alone in a <div> still titles what follows) */
    for (int up = 0; up < 2 && n; up++, n = n->parent)
        for (lxb_dom_node_t *s = n->next; s; s = s->next)
            if (s->user && !info_of(s)->skip && info_of(s)->text > 0)
                return 0;
    return 1;
}

/* The text under n, white space collapsed, into buf (at most cap - 1 bytes; 0 when longer, or
 * when n holds more than 256 nodes: a headline is a few, and a page of headings nested in
 * each other stays linear). */
static size_t heading_text(lxb_dom_node_t *n, char *buf, size_t cap)
{
    size_t k = 0, nodes = 0;
    int space = 0;
    lxb_dom_node_t *q = n->first_child;
    while (q) {
        if (++nodes > 256)
            return 0;
        if (q->type == LXB_DOM_NODE_TYPE_TEXT) {
            lxb_dom_text_t *tx = lxb_dom_interface_text(q);
            const unsigned char *t = tx->char_data.data.data;
            for (size_t i = 0; i < tx->char_data.data.length; i++) {
                if (isspace(t[i])) {
                    space = k > 0;
                    continue;
                }
                if (k + 2 >= cap)
                    return 0;
                if (space)
                    buf[k++] = ' ';
                space = 0;
                buf[k++] = (char)t[i];
            }
        } else if (q->type == LXB_DOM_NODE_TYPE_ELEMENT && q->first_child && !never_text(lxb_dom_node_tag_id(q))) {
            q = q->first_child;
            continue;
        }
        while (q && q != n && !q->next)
            q = q->parent;
        q = q && q != n ? q->next : NULL;
    }
    buf[k] = '\0';
    return k;
}

/* Is n the article's headline, before any of its text: an h1 or h2 whose text is the page's
 * title or og:title, or most of it ("Headline - Site")? The headline is the page's metadata
 * (htmltext_doc's title), not its body: Readability and the article-body benchmarks leave it
 * out of the text, and trafilatura does where the headline stands outside the body it picks. */
int html_headline(lxb_dom_node_t *n, const out_t *o)
{
    lxb_tag_id_t t = lxb_dom_node_tag_id(n);
    if ((t != LXB_TAG_H1 && t != LXB_TAG_H2) || o->n > 0 || info_of(n)->text > 400)
        return 0;
    char buf[512], hk[512], tk[1024];
    size_t k = alnum_key(buf, heading_text(n, buf, sizeof buf), hk, sizeof hk);
    if (k < 6)
        return 0;
    for (int i = 0; i < 2; i++) {
        const char *ti = o->titles[i];
        if (!ti)
            continue;
        size_t tl = alnum_key(ti, strlen(ti), tk, sizeof tk);
        if (tl >= k && strstr(tk, hk) && 2 * k >= tl)
            return 1;
    }
    return 0;
}

/* Headings that title what follows an article rather than the article: related and
 * most-read boxes, comment threads, in the languages of the web's largest shares. ASCII
 * letters compared without case. A phrase starting with '=' is the whole heading (but for
 * what follows it that is not a letter: "Comments (12)", "Related:"), since as a prefix it
 * would end articles at "Related work" or "Recommended dosage"; the others are prefixes. */
static const char *const after_article[] = {
    "=related", "=related articles", "=related posts", "=related stories", "=related content", "=related news",
    "=related links", "=recommended", "=recommended for you", "=trending", "=trending now", "=popular", "=comments",
    "=kommentare", "=commentaires", "=comentarios", "=read more", "=read next",
    "more from ", "more stories", "most popular", "most read", "most viewed", "you may also like",
    "you might also like", "you may be interested", "leave a comment", "leave a reply", "join the conversation",
    "\xc3\xa4hnliche ", "\xc3\x84hnliche ", "verwandte artikel", "verwandte beitr", "weitere meldungen",
    "weitere artikel", "mehr zum thema", "das k\xc3\xb6nnte sie auch interessieren", "die meistgelesenen",
    "meistgelesen", "\xc3\xa0 lire aussi", "\xc3\x80 lire aussi", "lire aussi", "articles similaires",
    "sur le m\xc3\xaame sujet", "les plus lus", "art\xc3\xad" "culos relacionados", "noticias relacionadas",
    "te puede interesar", "lo m\xc3\xa1s le\xc3\xad" "do", "leia tamb\xc3\xa9m", "not\xc3\xad" "cias relacionadas",
    "mais lidas", "articoli correlati", "potrebbe interessarti", "i pi\xc3\xb9 letti",
    "also in the news", "in other news", "=more news", "latest news", "latest stories", "recent posts",
    "popular posts", "editor's picks", "editors' picks", "recommended reading", "related reading",
    "you may also enjoy", "other articles", NULL};

/* A heading h2-h6 of at most 80 bytes after the article's text has begun (200 bytes out)
 * whose text is one of after_article: it and what follows it in its parent (or, when it
 * stands alone in a wrapper, in its grandparent) are not the article. */
static int after_article_heading(lxb_dom_node_t *n, const out_t *o)
{
    lxb_tag_id_t t = lxb_dom_node_tag_id(n);
    int heading = is_heading(t);
    if (o->n < 200 || info_of(n)->text > 80)
        return 0;
    /* a box's title written as a <div> or <p> of text alone ("<div class=title>Verwandte
     * Artikel</div>") counts too, its text the whole phrase */
    if (!heading) {
        if (t != LXB_TAG_DIV && t != LXB_TAG_P && t != LXB_TAG_SPAN && t != LXB_TAG_STRONG && t != LXB_TAG_B)
            return 0;
        for (lxb_dom_node_t *c = n->first_child; c; c = c->next)
            if (c->type == LXB_DOM_NODE_TYPE_ELEMENT && is_block(lxb_dom_node_tag_id(c)))
                return 0;
    }
    char buf[128];
    size_t k = heading_text(n, buf, sizeof buf);
    if (!k)
        return 0;
    for (int i = 0; after_article[i]; i++) {
        const char *ph = after_article[i];
        int whole = ph[0] == '=' || !heading;
        ph += ph[0] == '=';
        size_t l = strlen(ph);
        if (k < l || strncasecmp(buf, ph, l))
            continue;
        if (!whole)
            return 1;
        size_t q = l;
        while (q < k && !isalpha((unsigned char)buf[q]) && (unsigned char)buf[q] < 0x80)
            q++;
        if (q == k && (l == k || !isalnum((unsigned char)buf[l])))
            return 1;
    }
    return 0;
}

/* Skip n and its following siblings; a heading alone in its wrapper: the wrapper's too. */
static int only_element_child(lxb_dom_node_t *c)
{
    for (lxb_dom_node_t *s = c->parent->first_child; s; s = s->next)
        if (s != c && s->type == LXB_DOM_NODE_TYPE_ELEMENT && !(s->user && info_of(s)->skip))
            return 0;
    return 1;
}

static void skip_rest(lxb_dom_node_t *n)
{
    lxb_dom_node_t *from = n;
    if (only_element_child(n) && n->parent && n->parent->user)
        from = n->parent;
    for (lxb_dom_node_t *s = from; s; s = s->next)
        if (s->type == LXB_DOM_NODE_TYPE_ELEMENT && s->user)
            info_of(s)->skip = 1;
}

/* The main content's rules on headings, applied as render meets them: "Related articles"
 * over a list that was dropped (nothing after it) and the headline (the page's title, not
 * its text) are skipped; "Comments", "Most read" end the article (what follows goes too).
 * 1 when one fired. */
static int heading_rules(lxb_dom_node_t *n, const out_t *o)
{
    if (orphan_heading(n) || html_headline(n, o)) {
        info_of(n)->skip = 1;
        return 1;
    }
    if (after_article_heading(n, o)) {
        skip_rest(n);
        return 1;
    }
    return 0;
}

/* schema.org's date of the article on an element (itemprop datePublished / dateModified) */
static int date_prop(lxb_dom_node_t *n)
{
    size_t len;
    const char *v = html_attr(n, "itemprop", &len);
    return v && ((len == 13 && !strncasecmp(v, "datePublished", 13)) || (len == 12 && !strncasecmp(v, "dateModified", 12)));
}

void html_render(lxb_dom_node_t *root, out_t *o)
{
    lxb_dom_node_t *n = root;
    int pre = 0, link = 0;
    while (n) {
        ninfo *in = info_of(n);
        int descend = 0;
        if (n->type == LXB_DOM_NODE_TYPE_TEXT) {
            lxb_dom_text_t *tx = lxb_dom_interface_text(n);
            o_text(o, tx->char_data.data.data, tx->char_data.data.length, pre, link);
        } else if (n->type == LXB_DOM_NODE_TYPE_ELEMENT && n != root && !in->skip && o->mode == HTMLTEXT_MAIN &&
                   heading_rules(n, o)) {
            /* skipped by the heading rules */
        } else if (n->type == LXB_DOM_NODE_TYPE_ELEMENT && (!in->skip || n == root)) {
            lxb_tag_id_t t = lxb_dom_node_tag_id(n);
            if (t == LXB_TAG_BR)
                o_break(o);
            else if (is_block(t))
                o_break(o);
            if (in->linkline)
                o->force_link = 1;
            if ((t == LXB_TAG_TIME || date_prop(n)) && in->text)
                o->dateline = 1;
            else if (t == LXB_TAG_TD || t == LXB_TAG_TH)
                o->space = 1;
            if (t == LXB_TAG_PRE)
                pre++;
            if (t == LXB_TAG_A)
                link++;
            descend = 1;
        }
        if (descend && n->first_child) {
            n = n->first_child;
            continue;
        }
        /* leave n and the ancestors it closes */
        for (;;) {
            if (n->type == LXB_DOM_NODE_TYPE_ELEMENT && (!info_of(n)->skip || n == root)) {
                lxb_tag_id_t t = lxb_dom_node_tag_id(n);
                if (is_block(t))
                    o_break(o);
                if (info_of(n)->linkline)
                    o->force_link = 0; /* (an empty one) */
                if (t == LXB_TAG_PRE && pre)
                    pre--;
                if (t == LXB_TAG_A && link)
                    link--;
            }
            if (n == root) {
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
    o_break(o);
}

char *html_collapse(const unsigned char *s, size_t n)
{
    out_t o = {0};
    o.mode = HTMLTEXT_ALL;
    o_text(&o, s, n, 0, 0);
    html_out_put(&o, "", 0);
    if (o.failed || !o.s) {
        free(o.s);
        return NULL;
    }
    o.s[o.n] = '\0';
    return o.s;
}

/* The main content of an annotated body into o (htmltext.h's rules 2 and 3). */
/* Does the element's text hold a full stop followed by a space, or end with one? */
static int ends_sentence(lxb_dom_node_t *n)
{
    int last_dot = 0, found = 0;
    lxb_dom_node_t *r = n;
    for (lxb_dom_node_t *x = n->first_child; x && !found;) {
        if (x->type == LXB_DOM_NODE_TYPE_TEXT) {
            lxb_dom_text_t *tx = lxb_dom_interface_text(x);
            const unsigned char *t = tx->char_data.data.data;
            size_t k = tx->char_data.data.length;
            for (size_t i = 0; i < k; i++) {
                if (isspace(t[i])) {
                    if (last_dot) { found = 1; break; }
                    continue;
                }
                last_dot = t[i] == '.';
            }
        }
        NEXT_SKIPPING(x, r, x->type == LXB_DOM_NODE_TYPE_ELEMENT);
    }
    return found || last_dot;
}

#define CLIMB_SHARE 2.0
void html_main_content(htmltext *h, lxb_dom_node_t *body, int favor, out_t *o)
{
    lxb_dom_node_t *c = html_semantic_container(body);
    if (!c) {
        c = html_best_candidate(h, body);
        if (c && c != body) {
            /* Readability: a parent scoring higher than the candidate (its score going up a
             * step or two up the tree: more content lurks in other children) is taken instead;
             * then, while the candidate is an only child, its parent */
            float last = info_of(c)->score, floor_ = last / 3;
            for (lxb_dom_node_t *q = c->parent; q && q != body && q->user; q = q->parent) {
                float ps = info_of(q)->score;
                if (ps < floor_)
                    break;
                if (ps > last) {
                    c = q;
                    break;
                }
                last = ps;
            }
            while (c->parent && c->parent != body && c->parent->user && only_element_child(c))
                c = c->parent;
            /* the content spread over sections (a service page built of blocks): an ancestor
             * holding over CLIMB_SHARE times the candidate's text outside links, itself with little
             * link text, is the container */
            for (lxb_dom_node_t *q = c->parent; q && q != body && q->user; q = q->parent) {
                ninfo *ci = info_of(c), *qi = info_of(q);
                double own = (double)ci->text - ci->links, up = (double)qi->text - qi->links;
                if (up >= CLIMB_SHARE * own && qi->links < 0.25 * qi->text)
                    c = q;
            }
        }
    }
    o->container = c ? c : body;
    if (!c) {
        html_render(body, o);
        return;
    }
    /* the candidate with its siblings that score close to it (Readability) */
    lxb_dom_node_t *p = c->parent && c != body ? c->parent : NULL;
    float top = info_of(c)->score;
    float lim = top * 0.2f > 10 ? top * 0.2f : 10;
    if (!p) {
        html_render(c, o);
        return;
    }
    for (lxb_dom_node_t *s = p->first_child; s; s = s->next) {
        if (!s->user)
            continue;
        ninfo *si = info_of(s);
        if (s->type != LXB_DOM_NODE_TYPE_ELEMENT || si->skip)
            continue;
        /* a sibling of the candidate's class gets a fifth of its score as a bonus (Readability) */
        float bonus = 0;
        size_t l1 = 0, l2 = 0;
        const char *c1 = html_attr(c, "class", &l1), *c2 = s != c ? html_attr(s, "class", &l2) : NULL;
        if (c1 && c2 && l1 && l1 == l2 && !memcmp(c1, c2, l1))
            bonus = top * 0.2f;
        int take = s == c || si->score + bonus >= lim;
        if (!take && lxb_dom_node_tag_id(s) == LXB_TAG_P && favor != HTMLTEXT_PRECISION) {
            float ld = si->text ? (float)si->links / (float)si->text : 0;
            take = (si->text > 80 && ld < 0.25f) || (favor == HTMLTEXT_RECALL && si->text > 0) ||
                   (si->text > 0 && si->text <= 80 && si->links == 0 && ends_sentence(s));
        }
        if (take)
            html_render(s, o);
    }
}

/* A tag name of up to 8 bytes as a number: its bytes, ASCII letters in lower case,
 * zero-padded (0 for a longer one), so that names compare as numbers. */
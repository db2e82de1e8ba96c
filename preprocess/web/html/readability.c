/* readability.c - the main container of a page (html_int.h): a semantic container, else
 * Mozilla Readability's candidate scoring. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "preprocess/web/html/html_int.h"

#define ANCESTOR_LEVELS 5
/* whether s[0..n) holds one of subs (lower case) as a substring, ASCII letters compared
 * without case: s lower-cased once (on the stack when it fits), then searched */
static int has_sub(const char *s, size_t n, const char *const *subs)
{
    char buf[512], *low = n <= sizeof buf ? buf : malloc(n);
    if (!low)
        return 0; /* out of memory: no weight */
    for (size_t j = 0; j < n; j++)
        low[j] = (char)((unsigned)((unsigned char)s[j] - 'A') < 26u ? s[j] | 0x20 : s[j]);
    int found = 0;
    for (int i = 0; subs[i] && !found; i++)
        found = memmem(low, n, subs[i], strlen(subs[i])) != NULL;
    if (low != buf)
        free(low);
    return found;
}
/* Readability's start of a candidate's score: by its tag, and +-25 by words of its class and id */
static float class_weight(const char *s, size_t n)
{
    static const char *const neg[] = {"-ad-", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr",
                                      "masthead", "media", "meta", "outbrain", "promo", "related", "scroll", "share",
                                      "shoutbox", "sidebar", "skyscraper", "sponsor", "shopping", "tags", "widget", NULL};
    static const char *const pos[] = {"article", "body", "content", "entry", "hentry", "h-entry", "main", "page",
                                      "pagination", "post", "text", "blog", "story", NULL};
    if (!s || !n)
        return 0;
    return (has_sub(s, n, neg) ? -25.0f : 0.0f) + (has_sub(s, n, pos) ? 25.0f : 0.0f);
}
static float initial_score(lxb_dom_node_t *n)
{
    float v = 0;
    switch (lxb_dom_node_tag_id(n)) {
    case LXB_TAG_DIV: v = 5; break;
    case LXB_TAG_PRE: case LXB_TAG_TD: case LXB_TAG_BLOCKQUOTE: v = 3; break;
    case LXB_TAG_ADDRESS: case LXB_TAG_OL: case LXB_TAG_UL: case LXB_TAG_DL: case LXB_TAG_DD: case LXB_TAG_DT:
    case LXB_TAG_LI: case LXB_TAG_FORM: v = -3; break;
    case LXB_TAG_H1: case LXB_TAG_H2: case LXB_TAG_H3: case LXB_TAG_H4: case LXB_TAG_H5: case LXB_TAG_H6:
    case LXB_TAG_TH: v = -5; break;
    default: break;
    }
    size_t lc = 0, li = 0;
    const char *c = html_attr(n, "class", &lc), *id = html_attr(n, "id", &li);
    return v + class_weight(c, lc) + class_weight(id, li);
}
/* a <div> with no block child is a paragraph (Readability turns it into a <p>) */
static int div_paragraph(lxb_dom_node_t *n)
{
    if (n->type != LXB_DOM_NODE_TYPE_ELEMENT || lxb_dom_node_tag_id(n) != LXB_TAG_DIV)
        return 0;
    for (lxb_dom_node_t *c = n->first_child; c; c = c->next)
        if (c->type == LXB_DOM_NODE_TYPE_ELEMENT && is_block(lxb_dom_node_tag_id(c)))
            return 0;
    return 1;
}
lxb_dom_node_t *html_best_candidate(htmltext *h, lxb_dom_node_t *body)
{
    lxb_dom_node_t *n = body, *best = NULL;
    float bscore = 0;
    while (n) {
        ninfo *in = info_of(n);
        int descend = n->type == LXB_DOM_NODE_TYPE_ELEMENT && !in->skip;
        if (descend && (in->para || div_paragraph(n)) && in->text >= 25 && n != body) {
            float s = 1.0f + (float)in->commas + (in->text / 100.0f > 3 ? 3 : in->text / 100.0f);
            /* to the parent whole, the grandparent half, then up to five levels a third of the
             * level each (Readability's dividers) */
            lxb_dom_node_t *p = n->parent;
            for (int level = 0; level < ANCESTOR_LEVELS && p && p->user; level++, p = p->parent) {
                info_of(p)->score += s / (level == 0 ? 1.0f : level == 1 ? 2.0f : (float)level * 3.0f);
                if (p == body)
                    break;
            }
        }
        NEXT_SKIPPING(n, body, descend);
    }
    /* the five best, after the link-density penalty */
    lxb_dom_node_t *top[5] = {0};
    float ts[5] = {0};
    for (n = body; n;) {
        ninfo *in = info_of(n);
        int descend = n->type == LXB_DOM_NODE_TYPE_ELEMENT && !in->skip;
        if (descend && in->score > 0) {
            float ld = in->text ? (float)in->links / (float)in->text : 0;
            float s = (in->score + initial_score(n)) * (1 - ld);
            for (int i = 0; i < 5; i++)
                if (s > ts[i]) {
                    memmove(top + i + 1, top + i, (size_t)(4 - i) * sizeof *top);
                    memmove(ts + i + 1, ts + i, (size_t)(4 - i) * sizeof *ts);
                    top[i] = n;
                    ts[i] = s;
                    break;
                }
        }
        NEXT_SKIPPING(n, body, descend);
    }
    best = top[0];
    bscore = ts[0];
    /* Readability: when three or more of the others score within 75 % of the best, their
     * nearest common ancestor with it (holding at least three of them) is the content */
    int alt = 0;
    for (int i = 1; i < 5; i++)
        alt += top[i] && ts[i] >= 0.75f * bscore;
    if (best && best != body && alt >= 3) { /* (the body itself has no ancestor to take) */
        for (lxb_dom_node_t *q = best->parent; q && q != body; q = q->parent) {
            int under = 0;
            for (int i = 1; i < 5; i++) {
                if (!top[i] || ts[i] < 0.75f * bscore)
                    continue;
                for (lxb_dom_node_t *a = top[i]->parent; a; a = a->parent)
                    if (a == q) {
                        under++;
                        break;
                    }
            }
            if (under >= 3) {
                best = q;
                break;
            }
        }
    }
    return best;
}

/* An <article>, schema.org articleBody, <main> or a <div>/<section> of a body class
 * name, holding most of the paragraph text. */
lxb_dom_node_t *html_semantic_container(lxb_dom_node_t *body)
{
    lxb_dom_node_t *n = body, *best = NULL;
    uint32_t btext = 0;
    while (n) {
        ninfo *in = info_of(n);
        int descend = n->type == LXB_DOM_NODE_TYPE_ELEMENT && !in->skip;
        if (descend && n != body) {
            lxb_tag_id_t t = lxb_dom_node_tag_id(n);
            int sem = t == LXB_TAG_ARTICLE || t == LXB_TAG_MAIN || html_named_body(n, t);
            if (sem && in->text - in->links > btext) {
                btext = in->text - in->links;
                best = n;
            }
        }
        NEXT_SKIPPING(n, body, descend);
    }
    ninfo *bi = info_of(body);
    if (best && btext * 2 >= bi->text - bi->links && btext >= 200)
        return best;
    return NULL;
}

/* htmltext.c - decoding, HTML5 parsing (lexbor) and text extraction; see htmltext.h.
 *
 * Every walk over the tree is iterative (first_child / next / parent), so a page
 * nested 100,000 deep costs memory for its nodes only, never stack. Per-node
 * facts live in an array indexed through the node's `user` pointer. */
#define _GNU_SOURCE
#include "preprocess/text/fixtext.h"
#include "preprocess/web/html/htmltext.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <utf8proc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <lexbor/html/html.h>
#include <uchardet.h>
#include <lexbor/html/encoding.h>
#include <lexbor/dom/interfaces/text.h>

#include "common/err.h"
#include "common/utf8.h"

struct htmltext {
    lxb_html_document_t *doc;
    /* per-node facts in blocks of NBLOCK that never move (nodes point at them) */
    struct ninfo **blocks;
    size_t nblocks, used;
    size_t walk_budget; /* nodes holds_named_body may still visit on this page (it stays linear) */
};
#define NBLOCK 4096

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

/* ------------------------------------------------------------- decoding */

/* The Encoding Standard's label, as an iconv name (NULL: unknown). */
static const char *iconv_name(const char *label, size_t n, char *buf, size_t cap)
{
    while (n && isspace((unsigned char)*label)) {
        label++;
        n--;
    }
    while (n && isspace((unsigned char)label[n - 1]))
        n--;
    if (!n || n >= cap)
        return NULL;
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)tolower((unsigned char)label[i]);
    buf[n] = '\0';
    static const struct {
        const char *labels, *name;
    } map[] = {
        {"|utf-8|utf8|unicode-1-1-utf-8|unicode11utf8|unicode20utf8|x-unicode20utf8|", "UTF-8"},
        {"|iso-8859-1|iso8859-1|iso_8859-1|latin1|l1|ascii|us-ascii|cp1252|windows-1252|x-cp1252|cp819|ibm819|"
         "iso-ir-100|csisolatin1|iso88591|iso_8859-1:1987|ansi_x3.4-1968|",
         "WINDOWS-1252"},
        {"|gb2312|gbk|x-gbk|chinese|csgb2312|gb_2312|gb_2312-80|iso-ir-58|csiso58gb231280|gb18030|", "GB18030"},
        {"|shift_jis|shift-jis|sjis|x-sjis|ms_kanji|ms932|windows-31j|csshiftjis|", "CP932"},
        {"|euc-kr|ks_c_5601-1987|ks_c_5601-1989|ksc5601|ksc_5601|windows-949|cseuckr|korean|iso-ir-149|", "CP949"},
        {"|big5|big5-hkscs|x-x-big5|cn-big5|csbig5|", "BIG5-HKSCS"},
        {"|iso-8859-9|iso8859-9|latin5|l5|windows-1254|cp1254|x-cp1254|iso-ir-148|csisolatin5|", "WINDOWS-1254"},
        {"|tis-620|iso-8859-11|windows-874|dos-874|iso8859-11|", "WINDOWS-874"},
        {"|euc-jp|x-euc-jp|cseucpkdfmtjapanese|", "EUC-JP"},
        {"|iso-2022-jp|csiso2022jp|", "ISO-2022-JP"},
        {"|utf-16|utf-16le|unicode|ucs-2|csunicode|iso-10646-ucs-2|unicodefeff|", "UTF-16LE"},
        {"|utf-16be|unicodefffe|", "UTF-16BE"},
        {"|koi8-r|koi8|koi|cskoi8r|koi8_r|", "KOI8-R"},
        {"|koi8-u|koi8-ru|", "KOI8-U"},
        {"|x-user-defined|", "WINDOWS-1252"},
        {"|866|cp866|csibm866|ibm866|", "IBM866"},
        {"|csisolatin2|iso-8859-2|iso-ir-101|iso8859-2|iso88592|iso_8859-2|iso_8859-2:1988|l2|latin2|", "ISO-8859-2"},
        {"|csisolatin3|iso-8859-3|iso-ir-109|iso8859-3|iso88593|iso_8859-3|iso_8859-3:1988|l3|latin3|", "ISO-8859-3"},
        {"|csisolatin4|iso-8859-4|iso-ir-110|iso8859-4|iso88594|iso_8859-4|iso_8859-4:1988|l4|latin4|", "ISO-8859-4"},
        {"|csisolatincyrillic|cyrillic|iso-8859-5|iso-ir-144|iso8859-5|iso88595|iso_8859-5|iso_8859-5:1988|",
         "ISO-8859-5"},
        {"|arabic|asmo-708|csiso88596e|csiso88596i|csisolatinarabic|ecma-114|iso-8859-6|iso-8859-6-e|iso-8859-6-i|"
         "iso-ir-127|iso8859-6|iso88596|iso_8859-6|iso_8859-6:1987|",
         "ISO-8859-6"},
        {"|csisolatingreek|ecma-118|elot_928|greek|greek8|iso-8859-7|iso-ir-126|iso8859-7|iso88597|iso_8859-7|"
         "iso_8859-7:1987|sun_eu_greek|",
         "ISO-8859-7"},
        {"|csiso88598e|csisolatinhebrew|hebrew|iso-8859-8|iso-8859-8-e|iso-ir-138|iso8859-8|iso88598|iso_8859-8|"
         "iso_8859-8:1988|visual|csiso88598i|iso-8859-8-i|logical|",
         "ISO-8859-8"},
        {"|csisolatin6|iso-8859-10|iso-ir-157|iso8859-10|iso885910|l6|latin6|", "ISO-8859-10"},
        {"|iso-8859-13|iso8859-13|iso885913|", "ISO-8859-13"},
        {"|iso-8859-14|iso8859-14|iso885914|", "ISO-8859-14"},
        {"|csisolatin9|iso-8859-15|iso8859-15|iso885915|iso_8859-15|l9|", "ISO-8859-15"},
        {"|iso-8859-16|", "ISO-8859-16"},
        {"|cp1250|windows-1250|x-cp1250|", "WINDOWS-1250"},
        {"|cp1251|windows-1251|x-cp1251|", "WINDOWS-1251"},
        {"|cp1253|windows-1253|x-cp1253|", "WINDOWS-1253"},
        {"|cp1255|windows-1255|x-cp1255|", "WINDOWS-1255"},
        {"|cp1256|windows-1256|x-cp1256|", "WINDOWS-1256"},
        {"|cp1257|windows-1257|x-cp1257|", "WINDOWS-1257"},
        {"|cp1258|windows-1258|x-cp1258|", "WINDOWS-1258"},
        {"|csmacintosh|mac|macintosh|x-mac-roman|", "MACINTOSH"},
        {"|x-mac-cyrillic|x-mac-ukrainian|", "MAC-CYRILLIC"},
    };
    char key[48];
    snprintf(key, sizeof key, "|%s|", buf);
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strstr(map[i].labels, key))
            return map[i].name;
    return NULL; /* not a label of the Encoding Standard */
}

int htmltext_label(const char *label, char *name, size_t cap)
{
    char buf[64];
    const char *nm = iconv_name(label, strlen(label), buf, sizeof buf);
    if (!nm)
        return 0;
    snprintf(name, cap, "%s", nm);
    return 1;
}

int htmltext_prescan(const unsigned char *s, size_t n, char *name, size_t cap)
{
    /* lexbor's prescan of the <meta> declarations; the first declaration whose label is
     * known wins. The standard lets a browser stop after 1024 bytes; html5lib's tests (and
     * browsers) find a declaration after a long comment, so 16 KiB are read. */
    lxb_html_encoding_t em;
    int found = 0;
    if (lxb_html_encoding_init(&em) != LXB_STATUS_OK)
        return 0;
    size_t k = n < 16384 ? n : 16384;
    if (lxb_html_encoding_determine(&em, s, s + k) == LXB_STATUS_OK) {
        for (size_t i = 0; i < lxb_html_encoding_meta_length(&em) && !found; i++) {
            lxb_html_encoding_entry_t *e = lxb_html_encoding_meta_entry(&em, i);
            char buf[64];
            const char *nm = iconv_name((const char *)e->name, (size_t)(e->end - e->name), buf, sizeof buf);
            if (!nm)
                continue;
            /* a page cannot declare itself UTF-16 from inside: it is read as UTF-8 */
            if (!strncmp(nm, "UTF-16", 6))
                nm = "UTF-8";
            snprintf(name, cap, "%s", nm);
            found = 1;
        }
    }
    lxb_html_encoding_destroy(&em, false);
    return found;
}

void htmltext_sniff(const unsigned char *s, size_t n, const char *http_charset, char *name, size_t cap)
{
    char buf[64];
    const char *nm = NULL;
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        nm = "UTF-8";
    else if (n >= 2 && s[0] == 0xFE && s[1] == 0xFF)
        nm = "UTF-16BE";
    else if (n >= 2 && s[0] == 0xFF && s[1] == 0xFE)
        nm = "UTF-16LE";
    if (!nm && http_charset)
        nm = iconv_name(http_charset, strlen(http_charset), buf, sizeof buf);
    if (!nm && htmltext_prescan(s, n, buf, sizeof buf))
        nm = buf;
    if (!nm && utf8_valid((const char *)s, n))
        nm = "UTF-8";
    if (!nm) {
        /* nothing declared and not UTF-8: uchardet's guess from the bytes (the frequency
         * analysis the standard allows) when there are enough of them, else windows-1252 */
        size_t high = 0; /* a guess needs evidence: 16 bytes past ASCII at least */
        for (size_t i = 0; i < n && high < 16; i++)
            high += s[i] >= 0x80;
        uchardet_t ud = high >= 16 ? uchardet_new() : NULL;
        if (ud) {
            size_t k = n < 65536 ? n : 65536;
            if (uchardet_handle_data(ud, (const char *)s, k) == 0) {
                uchardet_data_end(ud);
                const char *g = uchardet_get_charset(ud);
                if (g && *g)
                    nm = iconv_name(g, strlen(g), buf, sizeof buf);
            }
            uchardet_delete(ud);
        }
    }
    if (!nm)
        nm = "WINDOWS-1252";
    snprintf(name, cap, "%s", nm);
}

char *htmltext_to_utf8(const unsigned char *s, size_t n, const char *label, size_t *out_len)
{
    size_t cap = n * 3 + 16;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    size_t o = 0;
    if (!strcmp(label, "UTF-8")) {
        if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
            s += 3;
            n -= 3;
        }
        /* valid runs copied, each invalid sequence one U+FFFD (as the Encoding Standard) */
        size_t i = 0;
        while (i < n) {
            size_t v = utf8_valid_prefix((const char *)s + i, n - i);
            memcpy(out + o, s + i, v);
            o += v;
            i += v;
            if (i < n) {
                size_t bad = utf8_invalid_len(s + i, n - i);
                memcpy(out + o, "\xEF\xBF\xBD", 3);
                o += 3;
                i += bad ? bad : 1;
            }
        }
        out[o] = '\0';
        *out_len = o;
        return out;
    }
    iconv_t cd = iconv_open("UTF-8", label);
    if (cd == (iconv_t)-1) { /* cannot happen for names iconv_name returned; be safe */
        free(out);
        return htmltext_to_utf8(s, n, "WINDOWS-1252", out_len);
    }
    char *in = (char *)s;
    size_t inleft = n;
    if (!strcmp(label, "UTF-16LE") && n >= 2 && s[0] == 0xFF && s[1] == 0xFE) {
        in += 2;
        inleft -= 2;
    } else if (!strcmp(label, "UTF-16BE") && n >= 2 && s[0] == 0xFE && s[1] == 0xFF) {
        in += 2;
        inleft -= 2;
    }
    while (inleft) {
        char *op = out + o;
        size_t oleft = cap - o - 4; /* 4 spare: a U+FFFD (3) and the final NUL */
        size_t r = iconv(cd, &in, &inleft, &op, &oleft);
        int e = errno;
        o = (size_t)(op - out);
        if (r != (size_t)-1)
            break;
        if (e != E2BIG) { /* EILSEQ / EINVAL: one unmapped or cut byte */
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            in++;
            inleft--;
            iconv(cd, NULL, NULL, NULL, NULL);
        }
        if (e == E2BIG || cap - o < 8) {
            char *nb = realloc(out, cap * 2);
            if (!nb) {
                free(out);
                iconv_close(cd);
                return NULL;
            }
            out = nb;
            cap *= 2;
        }
    }
    iconv_close(cd);
    out[o] = '\0';
    *out_len = o;
    return out;
}

/* ------------------------------------------------------------ the tree */

typedef struct ninfo {
    uint32_t text;  /* bytes of visible text under it (white space runs as one) */
    uint32_t links; /* of which inside <a> */
    uint32_t commas;
    float score;
    uint8_t skip;   /* 1: not part of the text */
    uint8_t para;   /* a paragraph-like block */
    uint8_t linkline; /* a <p> that is mostly links: its line is a link line */
} ninfo;

static ninfo *info_of(lxb_dom_node_t *n) { return (ninfo *)n->user; }

static int is_block(lxb_tag_id_t t)
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
static int never_text(lxb_tag_id_t t)
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

static void attr_memo_reset(void)
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
static const char *attr(lxb_dom_node_t *n, const char *name, size_t *len)
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

static int hidden(lxb_dom_node_t *n)
{
    size_t len;
    if (attr_node(n, "hidden"))
        return 1;
    const char *v = attr(n, "aria-hidden", &len);
    if (v && len == 4 && !strncasecmp(v, "true", 4))
        return 1;
    v = attr(n, "style", &len);
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

static int boilerplate(lxb_dom_node_t *n, int favor)
{
    if (inline_in_text(n))
        return 0;
    size_t lc = 0, li = 0;
    const char *c = attr(n, "class", &lc), *id = attr(n, "id", &li);
    const char *role;
    size_t lr;
    if ((role = attr(n, "role", &lr)) && lr &&
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

/* The main content drops a list or block that is mostly links (a related-articles box,
 * a tag list, a pager) and the short heading just before it ("Related articles"): both
 * are taken back out of the parent's sums. */
static int is_heading(lxb_tag_id_t t)
{
    return t == LXB_TAG_H2 || t == LXB_TAG_H3 || t == LXB_TAG_H4 || t == LXB_TAG_H5 || t == LXB_TAG_H6;
}
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
static int named_body(lxb_dom_node_t *n, lxb_tag_id_t t)
{
    size_t len, lc = 0, li = 0;
    const char *ip = attr(n, "itemprop", &len);
    if (ip && len == 11 && !strncmp(ip, "articleBody", 11))
        return 1;
    if (t != LXB_TAG_DIV && t != LXB_TAG_SECTION)
        return 0;
    const char *cl = attr(n, "class", &lc), *id = attr(n, "id", &li);
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
static uint64_t subtree_text(lxb_dom_node_t *root, size_t *budget)
{
    uint64_t sum = 0;
    int in_a = 0; /* open <a> elements around n */
    lxb_dom_node_t *n = root;
    while (n) {
        if (!*budget)
            return 0;
        --*budget;
        int descend = 1;
        if (n->type == LXB_DOM_NODE_TYPE_ELEMENT) {
            descend = n == root || !(never_text(lxb_dom_node_tag_id(n)) || hidden(n));
        } else if (n->type == LXB_DOM_NODE_TYPE_TEXT) {
            uint32_t len, commas;
            text_stats(n, &len, &commas);
            if (!in_a)
                sum += len;
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
            if (never_text(t) || hidden(n)) {
                descend = 0;
            } else if (named_body(n, t) && subtree_text(n, budget) >= 500) {
                return 1;
            }
        } else if (n->type != LXB_DOM_NODE_TYPE_ELEMENT) {
            descend = 0;
        }
        NEXT_SKIPPING(n, root, descend);
    }
    return 0;
}

/* what annotate strips for the main content besides what is never text */
#define STRIP_CLASSES 1 /* boilerplate by class and id */
#define STRIP_LINKS 2   /* blocks that are mostly links (link_block) */
static int annotate(htmltext *h, lxb_dom_node_t *root, int mode, int favor, int strip)
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
                if (never_text(t) || hidden(n))
                    in->skip = 1;
                else if (mode == HTMLTEXT_MAIN &&
                         (t == LXB_TAG_NAV || t == LXB_TAG_ASIDE || t == LXB_TAG_FORM || t == LXB_TAG_MENU ||
                          t == LXB_TAG_FIGURE || t == LXB_TAG_FIGCAPTION ||
                          ((t == LXB_TAG_FOOTER || t == LXB_TAG_HEADER) && !in_article) || ((strip & STRIP_CLASSES) && boilerplate(n, favor) && !holds_named_body(n, &h->walk_budget))))
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
    const char *c = attr(n, "class", &lc), *id = attr(n, "id", &li);
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
static lxb_dom_node_t *best_candidate(htmltext *h, lxb_dom_node_t *body)
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
static lxb_dom_node_t *semantic_container(lxb_dom_node_t *body)
{
    lxb_dom_node_t *n = body, *best = NULL;
    uint32_t btext = 0;
    while (n) {
        ninfo *in = info_of(n);
        int descend = n->type == LXB_DOM_NODE_TYPE_ELEMENT && !in->skip;
        if (descend && n != body) {
            lxb_tag_id_t t = lxb_dom_node_tag_id(n);
            int sem = t == LXB_TAG_ARTICLE || t == LXB_TAG_MAIN || named_body(n, t);
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

/* ------------------------------------------------------------- output */

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
} out_t;

static void o_put(out_t *o, const char *s, size_t n)
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
    "skipadvertisement", "continuereadingthemainstory", "advertisementcontinuereadingbelow", NULL};

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
                o_put(o, "\n", 1);
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
    o_put(o, "\n", 1);
    o->line0 = o->n;
    o->line_links = 0;
}

/* the end of the text: a link line still waiting is dropped */
static void o_end(out_t *o)
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
                o_put(o, (const char *)s + i, 1);
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
                o_put(o, " ", 1);
            o->space = 0;
            o_put(o, (const char *)s + i, j - i);
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
static int headline(lxb_dom_node_t *n, const out_t *o)
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
    "mais lidas", "articoli correlati", "potrebbe interessarti", "i pi\xc3\xb9 letti", NULL};

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
    if (orphan_heading(n) || headline(n, o)) {
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
    const char *v = attr(n, "itemprop", &len);
    return v && ((len == 13 && !strncasecmp(v, "datePublished", 13)) || (len == 12 && !strncasecmp(v, "dateModified", 12)));
}

static void render(lxb_dom_node_t *root, out_t *o)
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

static char *collapse(const unsigned char *s, size_t n)
{
    out_t o = {0};
    o.mode = HTMLTEXT_ALL;
    o_text(&o, s, n, 0, 0);
    o_put(&o, "", 0);
    if (o.failed || !o.s) {
        free(o.s);
        return NULL;
    }
    o.s[o.n] = '\0';
    return o.s;
}

/* The main content of an annotated body into o (htmltext.h's rules 2 and 3). */
#define MAIN_MIN_TEXT 500
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

static void main_content(htmltext *h, lxb_dom_node_t *body, int favor, out_t *o)
{
    lxb_dom_node_t *c = semantic_container(body);
    if (!c) {
        c = best_candidate(h, body);
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
        }
    }
    if (!c) {
        render(body, o);
        return;
    }
    /* the candidate with its siblings that score close to it (Readability) */
    lxb_dom_node_t *p = c->parent && c != body ? c->parent : NULL;
    float top = info_of(c)->score;
    float lim = top * 0.2f > 10 ? top * 0.2f : 10;
    if (!p) {
        render(c, o);
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
        const char *c1 = attr(c, "class", &l1), *c2 = s != c ? attr(s, "class", &l2) : NULL;
        if (c1 && c2 && l1 && l1 == l2 && !memcmp(c1, c2, l1))
            bonus = top * 0.2f;
        int take = s == c || si->score + bonus >= lim;
        if (!take && lxb_dom_node_tag_id(s) == LXB_TAG_P && favor != HTMLTEXT_PRECISION) {
            float ld = si->text ? (float)si->links / (float)si->text : 0;
            take = (si->text > 80 && ld < 0.25f) || (favor == HTMLTEXT_RECALL && si->text > 0) ||
                   (si->text > 0 && si->text <= 80 && si->links == 0 && ends_sentence(s));
        }
        if (take)
            render(s, o);
    }
}

/* A tag name of up to 8 bytes as a number: its bytes, ASCII letters in lower case,
 * zero-padded (0 for a longer one), so that names compare as numbers. */
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
    attr_memo_reset(); /* the names' entries are the new page's */
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
            doc->title = collapse(tx->char_data.data.data, tx->char_data.data.length);
        } else if (t == LXB_TAG_META && !og && (pv = attr(c, "property", &pl)) && pl == 8 &&
                   !memcmp(pv, "og:title", 8) && (cv = attr(c, "content", &cl)) && cl) {
            og = collapse((const unsigned char *)cv, cl);
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
        int rc = annotate(h, body, mode, favor, STRIP_CLASSES | STRIP_LINKS);
        if (rc < 0) {
            free(og);
            return rc;
        }
        if (mode == HTMLTEXT_ALL) {
            render(body, &o);
        } else {
            main_content(h, body, favor, &o);
            /* As Readability: when stripping by class and id left too little (a wrapper
             * named "has-sidebar", say, held the article), try again without it and keep
             * the longer text. */
            /* Then, when still too little is left, without the link rules (blocks and lines):
             * a post that is a list of links (a link roll) is its links. */
            static const int retry[] = {STRIP_LINKS, STRIP_CLASSES};
            for (int k = 0; k < 2 && o.n < MAIN_MIN_TEXT && !o.failed; k++) {
                out_t o2 = {0};
                o2.mode = mode;
                o2.favor = favor;
                o2.titles[0] = o.titles[0];
                o2.titles[1] = o.titles[1];
                o2.keep_links = !(retry[k] & STRIP_LINKS);
                if ((rc = annotate(h, body, mode, favor, retry[k])) < 0) {
                    free(o.s);
                    free(og);
                    return rc;
                }
                main_content(h, body, favor, &o2);
                if (o2.n > o.n || o2.failed) {
                    free(o.s);
                    o = o2;
                } else {
                    free(o2.s);
                }
            }
        }
    }
    free(og); /* the titles are not used after this */
    o.titles[1] = NULL;
    o_end(&o);
    if (o.failed) {
        free(o.s);
        htmltext_doc_free(doc);
        return err_set(ERR_NOMEM, "out of memory writing a page's text");
    }
    /* drop the final newline */
    while (o.n && o.s[o.n - 1] == '\n')
        o.n--;
    o_put(&o, "", 0);
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

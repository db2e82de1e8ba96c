/* htmltext.h - the text of a web page: its bytes decoded as a browser decodes
 * them, parsed by the HTML5 algorithm (lexbor, third_party/lexbor), and its main
 * content (or all its visible text) written as paragraphs.
 *
 * Decoding (htmltext_decode): a byte-order mark first, then the charset the
 * transport gave (HTTP Content-Type), then the <meta charset> / http-equiv
 * prescan of the first 16 KiB (lexbor's implementation of the HTML
 * standard's algorithm); without any of them, bytes that are valid UTF-8 are
 * UTF-8, else uchardet's guess (given 16 bytes past ASCII at least), else
 * windows-1252, the web's default. Labels are the
 * Encoding Standard's (iso-8859-1, ascii and latin1 are windows-1252, as
 * browsers read them; gb2312 is gb18030's subset). The text is converted to
 * UTF-8 with iconv; a byte the encoding does not map becomes U+FFFD.
 *
 * Extraction (htmltext_extract), in two modes:
 *   HTMLTEXT_ALL   every visible text of <body>: no script, style, template,
 *                  noscript, hidden elements (hidden, aria-hidden, display:none);
 *   HTMLTEXT_MAIN  the main content: boilerplate elements dropped first
 *                  (nav, aside, header / footer outside an article, forms,
 *                  and elements whose class or id names a menu, share bar,
 *                  comments, related links, ads, cookie or newsletter box),
 *                  then the container: an <article> or schema.org articleBody
 *                  or <main> holding most of the page's paragraph text, else
 *                  the element Mozilla Readability would choose (paragraphs
 *                  score 1 + commas + length / 100 up to 3, given to parent and
 *                  half to grandparent, scaled by 1 - link density), with its
 *                  siblings that score close to it. Inside it, link lists and
 *                  short link-dense blocks are dropped.
 * The text: one paragraph per line (p, headings, list items, table rows,
 * block quotes, pre, div breaks, <br>), white space collapsed inside a line
 * (kept inside <pre>), as trafilatura's plain-text output writes it.
 */
#ifndef PREPROCESS_HTMLTEXT_H
#define PREPROCESS_HTMLTEXT_H

#include <stddef.h>

enum { HTMLTEXT_MAIN = 0, HTMLTEXT_ALL = 1 };
enum { HTMLTEXT_BALANCED = 0, HTMLTEXT_PRECISION = 1, HTMLTEXT_RECALL = 2 };

typedef struct {
    char *text;      /* UTF-8, paragraphs one per line, no final newline */
    size_t len;
    char *title;     /* <title>, white space collapsed, or NULL */
    char charset[40]; /* the encoding the bytes were read as */
    size_t visible;   /* visible text the page holds (characters or bytes), when the main
                       * content's fallback counted it (a short main text): an empty text with
                       * visible > 0 is a page without main content, not a blank one */
} htmltext_doc;

typedef struct htmltext htmltext; /* a parser, reused from page to page (one per thread) */

int htmltext_new(htmltext **out);
void htmltext_free(htmltext *h);

/* Markup nested deeper than this (htmltext_depth) is not parsed: the HTML5 tree
 * builder's scope checks walk the stack of open elements, so its time grows with
 * the square of the depth (100,000 nested <div>s: 17 s for one 500 KB page). */
#define HTMLTEXT_MAX_DEPTH 10000
enum { HTMLTEXT_TOO_DEEP = 1 };

/* Decode, parse and extract page bytes. http_charset: the transport's label or
 * NULL. mode: HTMLTEXT_MAIN or _ALL; favor: HTMLTEXT_BALANCED / _PRECISION /
 * _RECALL. 0 with *doc filled (free with htmltext_doc_free); HTMLTEXT_TOO_DEEP
 * (nothing to free) when the markup nests deeper than HTMLTEXT_MAX_DEPTH; or ERR_*. */
int htmltext_extract(htmltext *h, const unsigned char *html, size_t n, const char *http_charset, int mode, int favor,
                     htmltext_doc *doc);
void htmltext_doc_free(htmltext_doc *doc);

/* The main content's second opinion (HTMLTEXT_MAIN), as trafilatura takes one (core.py,
 * external.py), with its thresholds: when the main text is short, a small share of the page,
 * or came from the try without class stripping out of a boilerplate-typed container (an
 * <aside>, <footer>, <nav>, <address>, or an element named like a comment list or side
 * column), jusText's paragraphs are computed (justext.c) and, when asked for, the main
 * content by --favor-recall's rules; which text is kept (characters, not bytes):
 *   main under SHORT: jusText's when longer;
 *   unclean: jusText's when shorter (boilerplate left out) but not by over UNCLEAN times;
 *   main under LONG and under SHARE of the page's visible text (not --favor-precision):
 *     jusText's when longer than the recall try's and over JT_RATIO times the main text's,
 *     else the recall try's when at least SHORT and over RECALL_RATIO times the main's;
 *   else the main text. */
#define HTMLTEXT_FALLBACK_SHORT 250        /* trafilatura's MIN_EXTRACTED_SIZE */
#define HTMLTEXT_FALLBACK_LONG 3000        /* its ESCALATION_MAX_LENGTH */
#define HTMLTEXT_FALLBACK_SHARE 0.2        /* ESCALATION_PAGE_SHARE */
#define HTMLTEXT_FALLBACK_JT_RATIO 2.0     /* ESCALATION_JUSTEXT_RATIO */
#define HTMLTEXT_FALLBACK_RECALL_RATIO 1.5 /* ESCALATION_ACCEPT_RATIO */
#define HTMLTEXT_FALLBACK_UNCLEAN 3        /* JUSTEXT_OVERRIDE_RATIO */
enum { HTMLTEXT_KEEP_MAIN, HTMLTEXT_TAKE_JUSTEXT, HTMLTEXT_TAKE_RECALL, HTMLTEXT_NEED_RECALL };
/* The choice, from the texts' lengths in characters: main, jusText's, the page's visible
 * text; unclean as above; favor; recall_chars the recall try's, or NULL when it was not made
 * (HTMLTEXT_NEED_RECALL: make it and ask again). */
int htmltext_fallback(size_t main_chars, size_t jt_chars, size_t visible, int unclean, int favor,
                      const size_t *recall_chars);

/* How deep the markup s[0..n) nests, counted on its tags before any parsing: start
 * tags minus end tags of the elements that do not close by themselves (void
 * elements, and those whose end tag may be left out: p, li, td, ..., are not
 * counted), comments, script and style skipped. The deepest point reached. */
size_t htmltext_depth(const char *s, size_t n);

/* The <meta> prescan alone (the first 1024 bytes): 1 with the iconv name of the first
 * declared encoding that is known, 0 when none is. */
int htmltext_prescan(const unsigned char *html, size_t n, char *name, size_t cap);
/* An Encoding Standard label as the iconv name used here: 1, or 0 when unknown. */
int htmltext_label(const char *label, char *name, size_t cap);
/* The encoding the page's bytes are read as (the rules above), into name. */
void htmltext_sniff(const unsigned char *html, size_t n, const char *http_charset, char *name, size_t cap);
/* Bytes in encoding `label` to UTF-8 (malloc'd, NUL-terminated); unmapped bytes
 * become U+FFFD. NULL when out of memory. */
char *htmltext_to_utf8(const unsigned char *s, size_t n, const char *label, size_t *out_len);

#endif

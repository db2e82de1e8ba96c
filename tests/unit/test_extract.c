/* test_extract.c - the WARC reader (preprocess/web/warc.c) and page text
 * (preprocess/web/html/htmltext.c) on hand-made inputs: fields and continuation lines,
 * resynchronisation after damage, a Content-Length past the end, HTTP chunks and
 * compression, charsets as browsers read them, hidden and boilerplate elements,
 * a page nested 100,000 deep. */
#include "tests/unit/check.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>
#include <zlib.h>

#include "common/err.h"
#include "preprocess/web/html/htmltext.h"
#include "preprocess/web/warc.h"

static char *rec(const char *type, const char *id, const char *extra, const char *block, size_t n)
{
    char *out = malloc(n + 1024);
    int k = sprintf(out, "WARC/1.1\r\nWARC-Type: %s\r\nWARC-Record-ID: %s\r\n%sContent-Length: %zu\r\n\r\n", type, id,
                    extra, n);
    memcpy(out + k, block, n);
    memcpy(out + k + n, "\r\n\r\n", 5);
    return out;
}

static void test_warc_records(void)
{
    const char *http = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"ISO-8859-1\"\r\n\r\n<p>caf\xe9</p>";
    char *a = rec("response", "<urn:a>", "WARC-Target-URI: http://x/a\r\nWARC-Date:\r\n  2024-01-01T00:00:00Z\r\n", http,
                  strlen(http));
    char *b = rec("request", "<urn:b>", "", "GET / HTTP/1.1\r\n\r\n", 18);
    char *c = rec("resource", "<urn:c>", "Content-Type: text/html\r\n", "", 0);
    /* a damaged record (no Content-Length) between them, then a good one */
    const char *bad = "WARC/1.0\r\nWARC-Type: response\r\n\r\nsome bytes\r\nthat are not a record\r\n\r\n";
    size_t n = strlen(a) + strlen(b) + strlen(bad) + strlen(c);
    char *all = malloc(n + 1);
    sprintf(all, "%s%s%s%s", a, b, bad, c);
    warc_reader *r;
    CHECK(warc_open_mem(&r, all, n, "mem", 0) == 0);
    warc_record x;
    CHECK_EQ_INT(warc_next(r, &x), 1);
    CHECK_EQ_STR(x.type, "response");
    CHECK_EQ_STR(x.record_id, "<urn:a>");
    CHECK_EQ_STR(x.target_uri, "http://x/a");
    CHECK_EQ_STR(x.date, "2024-01-01T00:00:00Z"); /* continuation joined */
    CHECK_EQ_STR(x.version, "WARC/1.1");
    CHECK_EQ_INT(x.content_length, strlen(http));
    warc_http h;
    CHECK(warc_http_parse(&h, x.block, x.content_length, 0) == 0);
    CHECK_EQ_INT(h.status, 200);
    CHECK_EQ_STR(h.charset, "ISO-8859-1");
    CHECK_EQ_INT(h.body_len, 11);
    warc_http_free(&h);
    CHECK_EQ_INT(warc_next(r, &x), 1);
    CHECK_EQ_STR(x.type, "request");
    CHECK_EQ_INT(warc_next(r, &x), ERR_CORRUPT); /* the damaged record: named, then skipped */
    CHECK(strstr(err_msg(), "mem: record 3") != NULL);
    CHECK(strstr(err_msg(), "no Content-Length") != NULL);
    CHECK(!warc_failed(r));
    CHECK_EQ_INT(warc_next(r, &x), 1);
    CHECK_EQ_STR(x.record_id, "<urn:c>");
    CHECK_EQ_INT(x.content_length, 0);
    CHECK_EQ_INT(x.number, 4);
    CHECK_EQ_INT(warc_next(r, &x), 0);
    warc_close(r);
    /* a Content-Length past the end of the input */
    char *over = strdup(a);
    char *cl = strstr(over, "Content-Length: ");
    memcpy(cl + 16, "9", 1); /* 9x bytes: more than there are */
    CHECK(warc_open_mem(&r, over, strlen(over), "over", 0) == 0);
    CHECK_EQ_INT(warc_next(r, &x), ERR_CORRUPT);
    CHECK(strstr(err_msg(), "Content-Length overruns the file") != NULL);
    CHECK_EQ_INT(warc_next(r, &x), 0);
    warc_close(r);
    /* max_block: too large, read past */
    CHECK(warc_open_mem(&r, all, n, "mem", 10) == 0);
    CHECK_EQ_INT(warc_next(r, &x), 1);
    CHECK(x.too_large && !x.block);
    CHECK_EQ_INT(warc_next(r, &x), 1); /* the request's block of 18 > 10: skipped too */
    CHECK(x.too_large && !x.block);
    CHECK_EQ_STR(x.type, "request");
    warc_close(r);
    free(a);
    free(b);
    free(c);
    free(all);
    free(over);
}

static void test_http_decoding(void)
{
    /* chunked + gzip */
    const char *text = "<html><body><p>Hello chunked gzip world.</p></body></html>";
    unsigned char gz[512];
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 6, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (unsigned char *)text;
    z.avail_in = (unsigned)strlen(text);
    z.next_out = gz;
    z.avail_out = sizeof gz;
    deflate(&z, Z_FINISH);
    size_t gn = sizeof gz - z.avail_out;
    deflateEnd(&z);
    char msg[2048];
    int k = sprintf(msg, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n%zx\r\n", gn / 2);
    memcpy(msg + k, gz, gn / 2);
    k += (int)(gn / 2);
    k += sprintf(msg + k, "\r\n%zx;ext=1\r\n", gn - gn / 2);
    memcpy(msg + k, gz + gn / 2, gn - gn / 2);
    k += (int)(gn - gn / 2);
    k += sprintf(msg + k, "\r\n0\r\n\r\n");
    warc_http h;
    CHECK(warc_http_parse(&h, (unsigned char *)msg, (size_t)k, 0) == 0);
    CHECK(!h.decode_error);
    CHECK_EQ_INT(h.body_len, strlen(text));
    CHECK(h.body && !memcmp(h.body, text, strlen(text)));
    warc_http_free(&h);
    /* broken gzip: kept as sent, flagged */
    k = sprintf(msg, "HTTP/1.1 404 Not Found\r\nContent-Encoding: gzip\r\n\r\nnot gzip");
    CHECK(warc_http_parse(&h, (unsigned char *)msg, (size_t)k, 0) == 0);
    CHECK_EQ_INT(h.status, 404);
    CHECK(h.decode_error);
    CHECK_EQ_INT(h.body_len, 8);
    warc_http_free(&h);
    CHECK_EQ_INT(warc_http_parse(&h, (unsigned char *)"HTTP/1.1 200 OK\r\nX: y", 21, 0), ERR_CORRUPT);
    warc_http_free(&h);
}

static char *text_of(htmltext *ht, const char *html, const char *cs, int mode)
{
    htmltext_doc d;
    if (htmltext_extract(ht, (const unsigned char *)html, strlen(html), cs, mode, HTMLTEXT_BALANCED, &d) != 0)
        return strdup("(error)");
    char *t = strdup(d.text);
    htmltext_doc_free(&d);
    return t;
}

static void test_charsets(void)
{
    char name[64];
    htmltext_sniff((const unsigned char *)"<meta charset=\"latin1\"><p>x", 27, NULL, name, sizeof name);
    CHECK_EQ_STR(name, "WINDOWS-1252"); /* latin1 is windows-1252, as browsers read it */
    htmltext_sniff((const unsigned char *)"<meta http-equiv=Content-Type content='text/html; charset=Shift_JIS'>", 69,
                   NULL, name, sizeof name);
    CHECK_EQ_STR(name, "CP932");
    htmltext_sniff((const unsigned char *)"<meta charset=utf-8>\xe9", 21, "koi8-r", name, sizeof name);
    CHECK_EQ_STR(name, "KOI8-R"); /* the transport wins over the page */
    htmltext_sniff((const unsigned char *)"\xEF\xBB\xBF<p>x", 7, "koi8-r", name, sizeof name);
    CHECK_EQ_STR(name, "UTF-8"); /* the BOM wins over the transport */
    htmltext_sniff((const unsigned char *)"<p>caf\xc3\xa9", 8, NULL, name, sizeof name);
    CHECK_EQ_STR(name, "UTF-8");
    htmltext_sniff((const unsigned char *)"<p>caf\xe9", 7, NULL, name, sizeof name);
    CHECK_EQ_STR(name, "WINDOWS-1252");
    htmltext_sniff((const unsigned char *)"<meta charset=utf-16le><p>x", 27, NULL, name, sizeof name);
    CHECK_EQ_STR(name, "UTF-8"); /* a page cannot declare UTF-16 from inside */
    /* nothing declared, not UTF-8: uchardet's guess */
    const char *ru = "<p>\xc2 \xed\xe0\xf8\xe5\xec \xe3\xee\xf0\xee\xe4\xe5 \xe1\xfb\xeb\xe0 \xf5\xee\xf0\xee\xf8\xe0\xff "
                     "\xef\xee\xe3\xee\xe4\xe0, \xe8 \xeb\xfe\xe4\xe8 \xe3\xf3\xeb\xff\xeb\xe8 \xef\xee "
                     "\xf3\xeb\xe8\xf6\xe0\xec \xe4\xee \xef\xee\xe7\xe4\xed\xe5\xe9 \xed\xee\xf7\xe8.</p>";
    htmltext_sniff((const unsigned char *)ru, strlen(ru), NULL, name, sizeof name);
    CHECK_EQ_STR(name, "WINDOWS-1251");
    size_t n;
    char *u = htmltext_to_utf8((const unsigned char *)"\x80\x93", 2, "WINDOWS-1252", &n);
    CHECK_EQ_STR(u, "\xE2\x82\xAC\xE2\x80\x9C"); /* euro sign, left double quote */
    free(u);
    u = htmltext_to_utf8((const unsigned char *)"a\xff\xfe" "b", 4, "UTF-8", &n);
    CHECK_EQ_STR(u, "a\xEF\xBF\xBD\xEF\xBF\xBD" "b");
    free(u);
    u = htmltext_to_utf8((const unsigned char *)"\x82\xa0", 2, "CP932", &n);
    CHECK_EQ_STR(u, "\xE3\x81\x82"); /* hiragana a */
    free(u);
}

static void test_text(void)
{
    htmltext *ht;
    CHECK(htmltext_new(&ht) == 0);
    char *t = text_of(ht,
                      "<html><head><title> A  title </title><style>p{}</style></head><body>"
                      "<script>var x='no';</script><p>One <b>two</b>\n three.</p><div hidden>gone</div>"
                      "<p style='display: none'>gone too</p><ul><li>a<li>b</ul><pre>x  y\nz</pre>"
                      "<table><tr><td>1<td>2<tr><td>3</table>line<br>break</body></html>",
                      NULL, HTMLTEXT_ALL);
    CHECK_EQ_STR(t, "One two three.\na\nb\nx  y\nz\n1 2\n3\nline\nbreak");
    free(t);
    /* attribute names in any case; and the names' entries remembered per page (attr_node):
     * a page without aria-hidden, then one with it, then one with a valueless HIDDEN */
    t = text_of(ht, "<body><p>kept</p><p class=x>also</p></body>", NULL, HTMLTEXT_ALL);
    CHECK_EQ_STR(t, "kept\nalso");
    free(t);
    t = text_of(ht, "<body><p ARIA-HIDDEN=TRUE>gone</p><P Style='DISPLAY : NONE'>gone</P><p>kept</p></body>", NULL,
                HTMLTEXT_ALL);
    CHECK_EQ_STR(t, "kept");
    free(t);
    /* NFC a line at a time (nfc_lines) as utf8proc makes the whole text: decomposed letters,
     * a combining mark that starts a line, Hangul jamo, an Angstrom sign */
    {
        const char *raw = "Cafe\xCC\x81 x\xCC\xA3\xCC\x87\n\xCC\x81x \xE1\x84\x80\xE1\x85\xA1\nplain\n\xE2\x84\xAB";
        utf8proc_uint8_t *want = NULL;
        CHECK(utf8proc_map((const utf8proc_uint8_t *)raw, (utf8proc_ssize_t)strlen(raw), &want,
                           UTF8PROC_STABLE | UTF8PROC_COMPOSE) > 0);
        t = text_of(ht,
                    "<body><p>Cafe\xCC\x81 x\xCC\xA3\xCC\x87</p><p>\xCC\x81x \xE1\x84\x80\xE1\x85\xA1</p><p>plain</p>"
                    "<p>\xE2\x84\xAB</p></body>",
                    "UTF-8", HTMLTEXT_ALL);
        CHECK_EQ_STR(t, (const char *)want);
        free(t);
        free(want);
    }
    t = text_of(ht, "<body><DIV HIDDEN>gone</DIV><svg><text hidden>svg</text></svg><p>kept</p></body>", NULL,
                HTMLTEXT_ALL);
    CHECK_EQ_STR(t, "kept");
    free(t);
    /* the main content: the article, without nav, share bar, footer, comments */
    const char *page =
        "<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>"
        "<div class='header'><a href=/>Site</a></div>"
        "<article><h1>Big news</h1><p>The first paragraph of the story, long enough to count, with a comma, "
        "and more words to carry it past the length the scoring wants to see here.</p>"
        "<div class='share-bar'><a href=/s>Share</a> <a href=/t>Tweet</a></div>"
        "<p>A second paragraph, which also belongs to the story and says something about it, at length, "
        "so that the article holds most of the text on the page.</p></article>"
        "<div id='comments'><p>First comment, which is not part of the article, whatever it says.</p></div>"
        "<footer>Copyright 2024 <a href=/about>About</a></footer></body></html>";
    t = text_of(ht, page, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "Big news\nThe first paragraph") == t);
    CHECK(strstr(t, "A second paragraph") != NULL);
    CHECK(!strstr(t, "Home") && !strstr(t, "Share") && !strstr(t, "comment") && !strstr(t, "Copyright"));
    free(t);
    /* no article: Readability's choice */
    const char *page2 =
        "<html><body><div id=menu><a href=/a>A</a><a href=/b>B</a></div><div class=wrap><div class=main-col>"
        "<p>Paragraph one, with commas, and words, enough of them to score well in the contest.</p>"
        "<p>Paragraph two, likewise long, and with commas, so the parent wins the candidate search.</p>"
        "<p>Paragraph three, long again, with a comma, to make the choice clear beyond doubt.</p></div>"
        "<div class=side><p><a href=/x>A link list entry that is long but all link text here</a></p></div>"
        "</div></body></html>";
    t = text_of(ht, page2, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "Paragraph one") == t);
    CHECK(strstr(t, "Paragraph three") != NULL);
    CHECK(!strstr(t, "link list"));
    free(t);
    /* a lone link line between lines of text stays ("Learn more about X"); link lines in a row,
     * or one that ends the text, go */
    const char *page_links =
        "<html><body><article><h2>WebIDE</h2><p>Develop, deploy and debug apps directly in your browser, with "
        "this tool, which replaces the App Manager of old, and more words to score.</p>"
        "<a href=/webide>Learn more about WebIDE</a><h2>Valence</h2><p>Develop and debug your app across "
        "multiple browsers and devices, with commas, and enough words to keep it.</p>"
        "<div><a href=/a>First linked story of another page</a></div><div><a href=/b>Second linked story of "
        "another page</a></div><p>A closing paragraph of text, long enough, with a comma, to be kept here.</p>"
        "<p> <i><a href=/r>[Read: a story the article points to]</a></i> </p><p>After it, one more paragraph "
        "of the article, long enough, and with a comma.</p><p><a href=/s>A paragraph that is one link</a></p>"
        "<p><a href=/t>and another paragraph that is one link</a></p><p>The last paragraph of the article, "
        "long enough, with a comma, to end it.</p>"
        "<a href=/c>Learn more about Valence</a></article></body></html>";
    t = text_of(ht, page_links, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "Manager of old, and more words to score.\nLearn more about WebIDE\nValence\n") != NULL);
    CHECK(!strstr(t, "linked story") && !strstr(t, "about Valence"));
    CHECK(strstr(t, "to keep it.\nA closing paragraph") != NULL);
    CHECK(strstr(t, "kept here.\n[Read: a story the article points to]\nAfter it") != NULL);
    CHECK(!strstr(t, "one link") && strstr(t, "with a comma.\nThe last paragraph") != NULL);
    free(t);
    /* a class that says what an element lacks ("no_caption", "no-sidebar") does not make it
     * boilerplate; "no-print" still does (what is not printed is the page's chrome) */
#define LONG_P "A paragraph of the article that goes on and on, with commas, clauses, and words, so that the " \
               "page holds text enough for the class rules to stand, as real articles do, and then some more."
    const char *page_neg =
        "<html><body><article><div class='item image no_caption'><h2>The first words of the story, a long "
        "heading that carries the lead of the article.</h2></div><p>The story goes on here, long enough, with a "
        "comma, and more words so that it counts.</p><p>" LONG_P "</p><p>" LONG_P "</p><div class='no-print'><p>Questions about this article? "
        "Write to us.</p></div><p>A second paragraph, which also belongs to the story and says something about "
        "it, at length.</p></article></body></html>";
    t = text_of(ht, page_neg, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "The first words of the story") == t);
    CHECK(!strstr(t, "Questions about"));
    free(t);
    /* a post that is a list of links (a link roll) is its links: the link-block rule is
     * dropped when it leaves too little */
    const char *page_roll =
        "<html><body><nav><a href=/>Home</a> <a href=/about>About</a></nav><article><h1>Links of the day</h1>"
        "<div class=entry-content><ul><li><p><a href=/1>Press subsidies: a study doubts the state's support</a></p>"
        "<p>via Horizont <a href=/h>horizont.net</a></p></li><li><p><a href=/2>Violence on the net: blame instead "
        "of protection</a></p><p>via netzpolitik.org <a href=/n>netzpolitik.org</a></p></li></ul></div>"
        "</article></body></html>";
    t = text_of(ht, page_roll, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "Press subsidies") != NULL && strstr(t, "blame instead of protection") != NULL);
    CHECK(!strstr(t, "Home"));
    free(t);
    /* the dateline (a short line with a <time> or schema.org's datePublished) and the
     * author's bio are not the text; a long paragraph with a date in it is */
    const char *page_date =
        "<html><body><article><p class=sig>Le Monde | <time datetime=2015-05-04>04.05.2015</time> | Par Martin U."
        "</p><p>" LONG_P "</p><p>" LONG_P " On <time>May 4</time> the vote was held, as this sentence and the "
        "words around it, which go on for long enough to make a paragraph of the story, say.</p>"
        "<div class=bio>Martin U. is a reporter for the paper.</div></article></body></html>";
    t = text_of(ht, page_date, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "A paragraph of the article") == t);
    CHECK(strstr(t, "the vote was held") != NULL && !strstr(t, "is a reporter"));
    free(t);
    /* a box's title written as a <div> ends the article as a heading does, when it is the
     * whole phrase; a paragraph that only starts like one does not */
    const char *page_box =
        "<html><body><article><p>" LONG_P "</p><p>More from this, the text goes on: " LONG_P "</p>"
        "<div class=articles><div class=t>Verwandte Artikel</div><div><p>A teaser of another page, "
        "written out at some length, with a comma.</p></div></div></article></body></html>";
    t = text_of(ht, page_box, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "More from this, the text goes on") != NULL);
    CHECK(!strstr(t, "Verwandte") && !strstr(t, "teaser"));
    free(t);
    /* the label of an advertisement slot is not text, nor is a chart's text (ai2html) */
    const char *page_ad =
        "<html><body><article><p>" LONG_P "</p><div class=slot><p> ADVERTISEMENT </p></div><p>" LONG_P
        " Second.</p><div class='ai2html ai2html-box'><p>Yield on 10-year note</p><p>MONTHLY</p></div><p>"
        LONG_P " Third.</p><p>Loading...</p><div>Oct 18, 2019 \xc2\xb7 8 min read</div><div>Share this story</div><br><b>Warning</b>: Creating default object from empty value in <b>/var/www/x.php</b> "
        "on line <b>12</b><br><p>Werbung</p><p>Tags: <a href=/t/a>storms</a>, <a href=/t/b>harbours</a></p><p>Advertisement is a word a sentence may hold, as this one does.</p>"
        "</article></body></html>";
    t = text_of(ht, page_ad, NULL, HTMLTEXT_MAIN);
    CHECK(!strstr(t, "ADVERTISEMENT") && !strstr(t, "Werbung") && !strstr(t, "MONTHLY") && !strstr(t, "Yield"));
    CHECK(!strstr(t, "Tags:") && !strstr(t, "default object"));
    CHECK(!strstr(t, "Loading") && !strstr(t, "min read") && !strstr(t, "Share this"));
    CHECK(strstr(t, "Second.\n") && strstr(t, "Advertisement is a word"));
    free(t);
    /* the headline matched on letters and digits: curly quotes and a no-break space in the h1,
     * straight quotes in the <title> */
    const char *page_q =
        "<html><head><title>Student Dies After Pills \"Burned Her Up From Within\" - News</title></head><body>"
        "<article><h1>Student Dies After Pills \xe2\x80\x9c" "Burned Her Up From&nbsp;Within\xe2\x80\x9d</h1>"
        "<p>The first paragraph of the story, long enough to count, with a comma, and more words to carry it "
        "past the length the scoring wants to see.</p></article></body></html>";
    t = text_of(ht, page_q, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "The first paragraph") == t);
    free(t);
    /* the headline: an h1 before any text that is the page's title (or most of it, the site's name
     * after it) or its og:title is metadata, not text; another h1, or one after text, stays */
    const char *body3 =
        "<article><h1>Storm  closes the harbour</h1><p>The first paragraph of the story, long enough to count, "
        "with a comma, and more words to carry it past the length the scoring wants to see here.</p>"
        "<h2>What comes next</h2><p>A second paragraph, which also belongs to the story and says something "
        "about it, at length, so that the article holds most of the text on the page.</p></article></body></html>";
    char page3[1024];
    snprintf(page3, sizeof page3, "<html><head><title>Storm closes the harbour - The Daily Site</title></head><body>%s",
             body3);
    t = text_of(ht, page3, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "The first paragraph") == t);
    CHECK(strstr(t, "What comes next\nA second") != NULL);
    free(t);
    snprintf(page3, sizeof page3,
             "<html><head><title>The Daily Site</title><meta property='og:title' content='Storm closes the harbour'>"
             "</head><body>%s", body3);
    t = text_of(ht, page3, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "The first paragraph") == t);
    free(t);
    snprintf(page3, sizeof page3, "<html><head><title>Storm closes the harbour, and a long tail of other words "
             "that make the headline less than half of it</title></head><body>%s", body3);
    t = text_of(ht, page3, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "Storm closes the harbour\nThe first paragraph") == t);
    free(t);
    t = text_of(ht, page3, NULL, HTMLTEXT_ALL); /* --mode all keeps every heading */
    CHECK(strstr(t, "Storm closes the harbour\n") != NULL);
    free(t);
    /* a heading that titles what follows the article ("Related articles", "Comments (3)", "Die
     * meistgelesenen ...") ends it; "Related work" does not */
    const char *page4 =
        "<html><body><article><p>The first paragraph of the story, long enough to count, with a comma, "
        "and more words to carry it past the length the scoring wants to see here.</p>"
        "<h2>Related work</h2><p>A second paragraph, which also belongs to the story and says something about "
        "it, at length, so that the article holds most of the text on the page.</p>"
        "<div><h3>Related articles</h3></div><p>A teaser of another story, written as plain text, no link.</p>"
        "<h2>Comments (3)</h2><p>A reader wrote this, and it is not the article.</p></article></body></html>";
    t = text_of(ht, page4, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "Related work\nA second paragraph") != NULL);
    CHECK(!strstr(t, "Related articles") && !strstr(t, "teaser") && !strstr(t, "reader"));
    free(t);
    t = text_of(ht, page4, NULL, HTMLTEXT_ALL);
    CHECK(strstr(t, "teaser") && strstr(t, "reader"));
    free(t);
    /* found by fuzz_extract: <body> itself the best candidate, with three others close to it,
     * took the common-ancestor step above <body> (to <html>, which has no scores: a crash) */
    static const char fuzz1[] = "i,tle>T\351e><p>Hello, \203\220\026\303/t. this is  paragr<article><p>Hello|window\215\322\317\30526|\226s a paragr</nav><article><p>Hello, world. Th a p/t. this is  paragr<article><p>Hello|window\215\322aragr</nav><article><p>He wl,olorld. Th<>Hello, \203\220\026\303/ this iml>";
    htmltext_doc fd;
    CHECK(htmltext_extract(ht, (const unsigned char *)fuzz1, sizeof fuzz1 - 1, NULL, HTMLTEXT_MAIN, 0, &fd) == 0);
    CHECK(fd.text && strstr(fd.text, "Hello, world."));
    htmltext_doc_free(&fd);
    /* 100,000 nested elements: no recursion, no crash */
    size_t depth = 100000;
    char *deep = malloc(depth * 5 + 64);
    size_t k = 0;
    for (size_t i = 0; i < depth; i++) {
        memcpy(deep + k, "<div>", 5);
        k += 5;
    }
    strcpy(deep + k, "deep text");
    /* deeper than HTMLTEXT_MAX_DEPTH: not parsed (the tree builder's time grows with the
     * square of the depth), HTMLTEXT_TOO_DEEP and nothing to free */
    htmltext_doc dd;
    CHECK_EQ_INT(htmltext_depth(deep, strlen(deep)), 100000);
    CHECK_EQ_INT(htmltext_extract(ht, (const unsigned char *)deep, strlen(deep), NULL, HTMLTEXT_MAIN, 0, &dd),
                 HTMLTEXT_TOO_DEEP);
    CHECK(!dd.text && !dd.title);
    /* 5,000 deep is parsed */
    strcpy(deep + 5000 * 5, "deep text");
    t = text_of(ht, deep, NULL, HTMLTEXT_ALL);
    CHECK_EQ_STR(t, "deep text");
    free(t);
    t = text_of(ht, deep, NULL, HTMLTEXT_MAIN);
    CHECK(t && strcmp(t, "(error)"));
    free(t);
    free(deep);
    /* the depth count: void elements, optional end tags, self-closing tags, comments, script
     * and style text, end tags */
    const char *d1 = "<html><body><div><p>a<p>b<br><img src=x><li>c<svg/><!-- <div><div><div> -->"
                     "<script>if (a<b) s='<div><div><div>';</script><style>a>b{}</style><span><b>x</b></span></div>"
                     "<div></div><DIV>";
    CHECK_EQ_INT(htmltext_depth(d1, strlen(d1)), 3); /* div > span > b */
    CHECK_EQ_INT(htmltext_depth("<div", 4), 0);      /* a tag never closed: not counted */
    CHECK_EQ_INT(htmltext_depth("<<<>>></></x", 12), 0);
    /* a wrong declaration: the bytes are read as declared, never a crash, always UTF-8 */
    htmltext_doc d;
    CHECK(htmltext_extract(ht, (const unsigned char *)"<meta charset=utf-8><p>caf\xe9 \xff</p>", 32, NULL, HTMLTEXT_ALL,
                           0, &d) == 0);
    CHECK_EQ_STR(d.text, "caf\xEF\xBF\xBD \xEF\xBF\xBD");
    htmltext_doc_free(&d);
    htmltext_free(ht);
}

/* html5lib-tests' encoding sniffing tests (tests/fixtures/html5lib/encoding/, the .dat files: #data then
 * #encoding), through the BOM and <meta> prescan; with no declaration found the standard's
 * default, windows-1252. The scripted tests need a script engine (document.write) and are not run. */
static int run_encoding_file(const char *path, int *total)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    int bad = 0;
    char *p = buf;
    while ((p = strstr(p, "#data\n"))) {
        char *d = p + 6, *e = strstr(d, "\n#encoding\n");
        if (!e)
            break;
        char *ename = e + 11, *eend = strchr(ename, '\n');
        if (!eend)
            eend = ename + strlen(ename);
        char want_label[48], want[64], got[64];
        snprintf(want_label, sizeof want_label, "%.*s", (int)(eend - ename), ename);
        if (!htmltext_label(want_label, want, sizeof want))
            snprintf(want, sizeof want, "(unknown label %s)", want_label);
        if ((unsigned char)d[0] == 0xEF && (unsigned char)d[1] == 0xBB && (unsigned char)d[2] == 0xBF)
            htmltext_sniff((const unsigned char *)d, (size_t)(e - d), NULL, got, sizeof got); /* the BOM */
        else if (!htmltext_prescan((const unsigned char *)d, (size_t)(e - d), got, sizeof got))
            snprintf(got, sizeof got, "WINDOWS-1252");
        (*total)++;
        if (strcmp(got, want)) {
            printf("  %s: test %d: got %s, want %s (%s)\n", path, *total, got, want, want_label);
            bad++;
        }
        p = eend;
    }
    return bad;
}

static void test_html5lib_encoding(void)
{
    const char *files[] = {"tests/fixtures/html5lib/encoding/tests1.dat", "tests/fixtures/html5lib/encoding/tests2.dat",
                           "tests/fixtures/html5lib/encoding/test-yahoo-jp.dat"};
    int total = 0;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        int bad = run_encoding_file(files[i], &total);
        CHECK(bad == 0);
    }
    CHECK_EQ_INT(total, 82);
    printf("  html5lib encoding: %d tests run (scripted/tests1.dat not run: it needs a script engine)\n", total);
}

/* The second opinion (htmltext_fallback): each rule's case, by the lengths alone, then small
 * pages that land in each. */
static void test_fallback_rules(void)
{
    size_t r0 = 0, r400 = 400, r2000 = 2000;
    const int B = HTMLTEXT_BALANCED, P = HTMLTEXT_PRECISION;
    /* short main: jusText's text when longer (even empty main against a few words) */
    CHECK_EQ_INT(htmltext_fallback(0, 40, 100, 0, B, NULL), HTMLTEXT_TAKE_JUSTEXT);
    CHECK_EQ_INT(htmltext_fallback(200, 240, 5000, 0, B, NULL), HTMLTEXT_TAKE_JUSTEXT);
    CHECK_EQ_INT(htmltext_fallback(200, 150, 400, 0, B, NULL), HTMLTEXT_KEEP_MAIN); /* shorter; 200 = half the page */
    CHECK_EQ_INT(htmltext_fallback(0, 0, 0, 0, B, NULL), HTMLTEXT_KEEP_MAIN);        /* a blank page */
    /* unclean: jusText's when shorter but within 3x, never when longer or far shorter */
    CHECK_EQ_INT(htmltext_fallback(5000, 2000, 9000, 1, B, NULL), HTMLTEXT_TAKE_JUSTEXT);
    CHECK_EQ_INT(htmltext_fallback(5000, 1000, 9000, 1, B, NULL), HTMLTEXT_KEEP_MAIN);
    CHECK_EQ_INT(htmltext_fallback(5000, 6000, 9000, 1, B, NULL), HTMLTEXT_KEEP_MAIN);
    CHECK_EQ_INT(htmltext_fallback(5000, 2000, 9000, 0, B, NULL), HTMLTEXT_KEEP_MAIN);
    /* a small share of the page: the recall try is asked for, then jusText's over 2x and over
     * the recall try's, else the recall try's over 1.5x and at least 250 */
    CHECK_EQ_INT(htmltext_fallback(300, 500, 10000, 0, B, NULL), HTMLTEXT_NEED_RECALL);
    CHECK_EQ_INT(htmltext_fallback(300, 700, 10000, 0, B, &r400), HTMLTEXT_TAKE_JUSTEXT);
    CHECK_EQ_INT(htmltext_fallback(300, 700, 10000, 0, B, &r2000), HTMLTEXT_TAKE_RECALL);
    CHECK_EQ_INT(htmltext_fallback(300, 500, 10000, 0, B, &r400), HTMLTEXT_KEEP_MAIN); /* 400 < 1.5 x 300 */
    CHECK_EQ_INT(htmltext_fallback(300, 500, 10000, 0, B, &r0), HTMLTEXT_KEEP_MAIN);
    CHECK_EQ_INT(htmltext_fallback(300, 5000, 1000, 0, B, NULL), HTMLTEXT_KEEP_MAIN);  /* 30 % of the page */
    CHECK_EQ_INT(htmltext_fallback(3000, 9000, 90000, 0, B, NULL), HTMLTEXT_KEEP_MAIN); /* long enough */
    CHECK_EQ_INT(htmltext_fallback(300, 5000, 10000, 0, P, NULL), HTMLTEXT_KEEP_MAIN);  /* --favor-precision */

    htmltext *ht;
    CHECK(htmltext_new(&ht) == 0);
    const char *prose = "The committee met on Tuesday and agreed that the new rules would be in force from the "
                        "first of the month, after a long debate about what they should say and to whom. ";
    char page[16384];
    /* the main content finds nothing (a forum's thread in <noscript>, as Discourse serves it to
     * readers without scripts): jusText's paragraphs */
    snprintf(page, sizeof page,
             "<html><body><div id=app></div><noscript><div class=topic><p>%s</p><p>%s</p></div></noscript>"
             "</body></html>", prose, prose);
    char *t = text_of(ht, page, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "The committee met on Tuesday") != NULL);
    free(t);
    /* an <aside> never closed holds the page: not dropped */
    snprintf(page, sizeof page,
             "<html><body><aside class=banner><a href=/x>News: we moved</a><div><h1>Title</h1><p>%s</p><p>%s</p>"
             "</div></body></html>", prose, prose);
    t = text_of(ht, page, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "The committee met on Tuesday") != NULL);
    free(t);
    /* a display:none wrapper holding the whole page (revealed by a script) is shown; a hidden
     * menu beside text is not */
    snprintf(page, sizeof page,
             "<html><body><div style='display:none'><p>%s</p><p>%s</p><p>%s</p><p>%s</p></div><p>Loading.</p>"
             "</body></html>", prose, prose, prose, prose);
    t = text_of(ht, page, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "The committee met on Tuesday") != NULL);
    free(t);
    snprintf(page, sizeof page,
             "<html><body><div style='display:none'><p>Secret menu entry</p></div><p>%s</p><p>%s</p></body></html>",
             prose, prose);
    t = text_of(ht, page, NULL, HTMLTEXT_MAIN);
    CHECK(strstr(t, "The committee met") != NULL && strstr(t, "Secret menu") == NULL);
    free(t);
    /* unclean: the text found only inside a container named "comments" (by the try without
     * class stripping; it holds under half the page, the rest an <aside>, so it is no layout wrapper), with a line
     * that is 30 % links in it (the main content keeps it, jusText does not): jusText's
     * paragraphs. Without the rule the line stays. */
    snprintf(page, sizeof page,
             "<html><body><aside><p>%s%s</p><p>%s%s</p><p>%s%s</p><p>%s%s</p><p>%s%s</p><p>%s%s</p></aside>"
             "<div class=comments><div class=thread><p>%s%s</p><p>%s%s</p><p>%s</p><div>Read also the report on the "
             "vote by <a href=/u>the city clerk</a> and <a href=/v>the mayor</a> today</div></div></div></body></html>",
             prose, prose, prose, prose, prose, prose, prose, prose, prose, prose, prose, prose, prose, prose, prose,
             prose, prose);
    htmltext_doc d;
    CHECK(htmltext_extract(ht, (const unsigned char *)page, strlen(page), NULL, HTMLTEXT_MAIN, HTMLTEXT_BALANCED, &d) == 0);
    CHECK(strstr(d.text, "The committee met") != NULL && strstr(d.text, "Read also") == NULL);
    CHECK(d.visible > d.len / 2);
    htmltext_doc_free(&d);
    /* a page of menus only: no main content, but visible text (extract's no_main_content) */
    const char *menus = "<html><body><nav><a href=/>Home</a> <a href=/a>About</a></nav><footer>(c) 2024 "
                        "Example Inc. All rights reserved. <a href=/p>Privacy</a></footer></body></html>";
    CHECK(htmltext_extract(ht, (const unsigned char *)menus, strlen(menus), NULL, HTMLTEXT_MAIN, HTMLTEXT_BALANCED, &d) == 0);
    CHECK_EQ_INT(d.len, 0);
    CHECK(d.visible > 0);
    htmltext_doc_free(&d);
    /* a blank page: nothing visible */
    CHECK(htmltext_extract(ht, (const unsigned char *)"<html><body> </body></html>", 27, NULL, HTMLTEXT_MAIN,
                           HTMLTEXT_BALANCED, &d) == 0);
    CHECK(d.len == 0 && d.visible == 0);
    htmltext_doc_free(&d);
    htmltext_free(ht);
}

int main(void)
{
    check_run("warc_records", test_warc_records);
    check_run("warc_http_decoding", test_http_decoding);
    check_run("htmltext_charsets", test_charsets);
    check_run("htmltext_text", test_text);
    check_run("html5lib_encoding_sniffing", test_html5lib_encoding);
    check_run("htmltext_fallback", test_fallback_rules);
    return check_total_failed ? 1 : 0;
}

/* Unit tests of download's parts: robots.txt (RFC 9309's matching rules and its
 * examples), Retry-After, the stored response header, sha1/base32 digests, and
 * WARC files written then read back, salvaged after a cut. */
#include "tests/unit/check.h"

#include "common/err.h"
#include "preprocess/web/fetch.h"
#include "preprocess/web/robots.h"
#include "preprocess/web/warcwrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int allowed(const char *txt, const char *agent, const char *path)
{
    robots *r = robots_parse(txt, strlen(txt), agent);
    int a = robots_allowed(r, path);
    robots_free(r);
    return a;
}

static void test_robots_groups(void)
{
    const char *t = "User-agent: *\nDisallow: /private/\n\n"
                    "User-Agent: WebText\nUser-agent: other\nDisallow: /mine/\nAllow: /mine/ok\n\n"
                    "user-agent: webtext\ndisallow: /also/\n";
    /* our groups (two, merged; case-insensitive), not "*" */
    CHECK(!allowed(t, "webtext", "/mine/x"));
    CHECK(!allowed(t, "webtext", "/also/y"));
    CHECK(allowed(t, "webtext", "/private/z"));
    CHECK(allowed(t, "webtext", "/mine/ok/1"));
    /* another agent gets "*" */
    CHECK(!allowed(t, "somebot", "/private/z"));
    CHECK(allowed(t, "somebot", "/mine/x"));
    /* the product token is matched as a whole word */
    CHECK(!allowed("User-agent: webtext-download/1.0\nDisallow: /\n", "webtext-download", "/a"));
    CHECK(allowed("User-agent: webtextx\nDisallow: /\n", "webtext", "/a"));
    /* nothing at all: everything allowed; robots.txt itself always */
    CHECK(allowed("", "webtext", "/a"));
    CHECK(allowed("User-agent: *\nDisallow: /\n", "webtext", "/robots.txt"));
    CHECK(!allowed("User-agent: *\nDisallow: /\n", "webtext", "/"));
    /* an empty Disallow matches nothing */
    CHECK(allowed("User-agent: *\nDisallow:\n", "webtext", "/x"));
    /* sitemap and unknown lines end no group; comments, BOM, CR-only lines */
    CHECK(!allowed("\xEF\xBB\xBFUser-agent: * # all\rSitemap: /s.xml\rDisallow: /x # no\r", "webtext", "/x/1"));
}

static void test_robots_matching(void)
{
    /* RFC 9309 2.2.3 and Google's examples: longest match wins, allow on a tie, '*' and '$' */
    const char *t = "User-agent: *\nAllow: /p\nDisallow: /\n";
    CHECK(allowed(t, "a", "/page"));
    CHECK(!allowed(t, "a", "/other"));
    t = "User-agent: *\nAllow: /folder\nDisallow: /folder\n";
    CHECK(allowed(t, "a", "/folder/page")); /* equal length: allow */
    t = "User-agent: *\nAllow: /page\nDisallow: /*.htm\n";
    CHECK(!allowed(t, "a", "/page.htm")); /* the disallow pattern is longer */
    t = "User-agent: *\nAllow: /$\nDisallow: /\n";
    CHECK(allowed(t, "a", "/"));
    CHECK(!allowed(t, "a", "/page.htm"));
    t = "User-agent: *\nDisallow: /*.php$\n";
    CHECK(!allowed(t, "a", "/index.php"));
    CHECK(!allowed(t, "a", "/a/b.php"));
    CHECK(allowed(t, "a", "/index.php?x=1"));
    CHECK(allowed(t, "a", "/index.php5"));
    t = "User-agent: *\nDisallow: /fish*\n";
    CHECK(!allowed(t, "a", "/fish"));
    CHECK(!allowed(t, "a", "/fishheads/yummy.html"));
    CHECK(allowed(t, "a", "/Fish.asp")); /* paths are case-sensitive */
    t = "User-agent: *\nDisallow: /*?\n";
    CHECK(!allowed(t, "a", "/a?b"));
    CHECK(allowed(t, "a", "/ab"));
    /* many stars do not blow up */
    t = "User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*b\n";
    CHECK(allowed(t, "a", "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac"));
    /* whole-site verdicts and crawl-delay */
    robots *r = robots_all(0);
    CHECK(!robots_allowed(r, "/x"));
    CHECK(robots_allowed(r, "/robots.txt"));
    robots_free(r);
    t = "User-agent: *\nCrawl-delay: 2.5\nDisallow: /x\n";
    r = robots_parse(t, strlen(t), "a");
    CHECK(robots_crawl_delay(r) == 2.5);
    CHECK_EQ_INT(robots_rule_count(r), 1);
    robots_free(r);
}

static void test_retry_after(void)
{
    const char *h = "HTTP/1.1 429 Too Many\r\nRetry-After: 120\r\nContent-Length: 0\r\n\r\n";
    CHECK(fetch_retry_after(h, strlen(h), 0) == 120);
    /* an HTTP-date: Wed, 21 Oct 2015 07:28:00 GMT is 1445412480 */
    h = "HTTP/1.1 503 x\r\nretry-after:  Wed, 21 Oct 2015 07:28:00 GMT \r\n\r\n";
    CHECK(fetch_retry_after(h, strlen(h), 1445412480 - 30) == 30);
    CHECK(fetch_retry_after(h, strlen(h), 1445412480 + 30) == 0);
    h = "HTTP/1.1 503 x\r\nRetry-After: soon\r\n\r\n";
    CHECK(fetch_retry_after(h, strlen(h), 0) == -1);
    h = "HTTP/1.1 503 x\r\n\r\n";
    CHECK(fetch_retry_after(h, strlen(h), 0) == -1);
}

static void test_digest_and_header(void)
{
    char d[33];
    warcw_sha1_base32("", 0, d); /* sha1("") = da39a3ee..., base32 as WARC files write it */
    CHECK_EQ_STR(d, "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    warcw_sha1_base32("abc", 3, d);
    CHECK_EQ_STR(d, "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
    const char *h = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
                    "Transfer-Encoding: chunked\r\ncontent-length: 99\r\n\r\n";
    char out[512];
    size_t n = warcw_rewrite_header(h, strlen(h), 1234, out, sizeof out);
    out[n] = 0;
    CHECK_EQ_STR(out, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Crawler-Content-Encoding: gzip\r\n"
                      "X-Crawler-Transfer-Encoding: chunked\r\nX-Crawler-content-length: 99\r\nContent-Length: 1234\r\n\r\n");
    CHECK_EQ_INT(warcw_rewrite_header(h, strlen(h), 1, out, 10), 0); /* too small: 0, no overrun */
}

typedef struct {
    int n;
    char urls[8][128];
    uint64_t len[8];
} seen;

static void on_rec(void *ctx, const char *url, const char *final_url, int status, uint64_t len)
{
    seen *s = ctx;
    (void)final_url;
    if (s->n < 8 && status == 200) {
        snprintf(s->urls[s->n], sizeof s->urls[0], "%s", url);
        s->len[s->n++] = len;
    }
}

static void test_write_scan_salvage(void)
{
    char dir[] = "/tmp/test_download.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    warcw *w;
    CHECK_EQ_INT(warcw_open(&w, dir, "t", 3, 0, "test", "agent", 1), 0);
    const char *hdr = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
    const char *req = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
    for (int i = 0; i < 3; i++) {
        char url[64], body[64];
        snprintf(url, sizeof url, "http://x/%d", i);
        snprintf(body, sizeof body, "<p>page %d</p>", i);
        warcw_page p = {url, i == 1 ? "http://x/final" : NULL, "127.0.0.1", req, strlen(req), hdr, strlen(hdr),
                        (const unsigned char *)body, strlen(body), 1700000000};
        const char *file = NULL;
        CHECK_EQ_INT(warcw_write(w, &p, &file), 0);
        CHECK_EQ_STR(file, "t-00003.warc.gz");
    }
    /* still open: a .part file */
    char part[256], fin[256];
    snprintf(part, sizeof part, "%s/t-00003.warc.gz.part", dir);
    snprintf(fin, sizeof fin, "%s/t-00003.warc.gz", dir);
    struct stat st;
    CHECK(stat(part, &st) == 0 && stat(fin, &st) != 0);
    seen s = {0};
    CHECK_EQ_INT(warcw_scan(part, 0, on_rec, &s), 3);
    CHECK_EQ_INT(s.n, 3);
    CHECK_EQ_STR(s.urls[1], "http://x/1"); /* the URL asked for, not the redirect's end */
    CHECK_EQ_INT(s.len[2], strlen("<p>page 2</p>"));
    /* cut the file in the middle of the last member: a salvage keeps two records */
    CHECK(stat(part, &st) == 0);
    CHECK(truncate(part, st.st_size - 7) == 0);
    memset(&s, 0, sizeof s);
    CHECK(warcw_scan(part, 0, on_rec, &s) < 0); /* a finished file must be whole */
    CHECK(strstr(err_msg(), "cut short") != NULL);
    memset(&s, 0, sizeof s);
    CHECK_EQ_INT(warcw_scan(part, 1, on_rec, &s), 2);
    CHECK_EQ_INT(warcw_scan(part, 0, NULL, NULL), 2); /* now whole (the lone request dropped) */
    warcw_abandon(w);
    /* close renames into place */
    CHECK_EQ_INT(warcw_open(&w, dir, "u", 0, 0, "test", "agent", 0), 0);
    warcw_page p = {"http://y/", NULL, NULL, NULL, 0, hdr, strlen(hdr), (const unsigned char *)"", 0, 0};
    CHECK_EQ_INT(warcw_write(w, &p, NULL), 0);
    CHECK_EQ_INT(warcw_close(w), 0);
    snprintf(fin, sizeof fin, "%s/u-00000.warc.gz", dir);
    CHECK_EQ_INT(warcw_scan(fin, 0, NULL, NULL), 1);
    /* garbage is refused in a finished file, cut away in a .part one */
    const unsigned char junk[] = "not gzip at all";
    size_t good = 99;
    CHECK(warcw_scan_mem(junk, sizeof junk, "junk", 0, &good, NULL, NULL) < 0);
    CHECK_EQ_INT(warcw_scan_mem(junk, sizeof junk, "junk", 1, &good, NULL, NULL), 0);
    CHECK_EQ_INT(good, 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

int main(void)
{
    RUN(test_robots_groups);
    RUN(test_robots_matching);
    RUN(test_retry_after);
    RUN(test_digest_and_header);
    RUN(test_write_scan_salvage);
    return check_total_failed != 0;
}

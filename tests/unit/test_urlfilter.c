/* Unit tests of preprocess/urlfilter: host parsing, registrable label,
 * each rule, block lists. The whole-file golden comparison with the
 * reference is in tests/e2e/test_blacklist_urls.sh. */
#include "common/err.h"
#include "preprocess/filters/urlfilter.h"
#include "tests/unit/check.h"

#include <stdlib.h>
#include <unistd.h>

static urlfilter *F;

static const char *host(const char *url)
{
    static char buf[256];
    const char *h;
    size_t n;
    urlfilter_host(url, strlen(url), &h, &n);
    snprintf(buf, sizeof buf, "%.*s", (int)n, h);
    return buf;
}

static const char *dom(const char *url)
{
    static char buf[256];
    urlfilter_domain(F, url, strlen(url), buf, sizeof buf);
    return buf;
}

static int chk(const char *url) { return urlfilter_check(F, url, strlen(url)); }

static void test_host(void)
{
    CHECK_EQ_STR(host("http://user:pw@Www.Example.com:8080/p?q#f"), "Www.Example.com");
    CHECK_EQ_STR(host("https://example.com?x=1"), "example.com");
    CHECK_EQ_STR(host("//cdn.example.com/x"), "cdn.example.com");
    CHECK_EQ_STR(host("example.com/path"), "example.com");
    CHECK_EQ_STR(host("http://[2001:db8::1]:80/x"), "[2001:db8::1]");
    CHECK_EQ_STR(host("http://example.com./"), "example.com");
    CHECK_EQ_STR(host("1http://x.com/"), "x.com");          /* digits are scheme chars */
    CHECK_EQ_STR(host("ht tp://x.com/"), "ht tp");           /* not a scheme: no stripping, port cut */
    CHECK_EQ_STR(host(""), "");
}

static void test_domain(void)
{
    CHECK_EQ_STR(dom("http://forums.news.cnn.com/"), "cnn");
    CHECK_EQ_STR(dom("http://forums.bbc.co.uk/"), "bbc");
    CHECK_EQ_STR(dom("http://foo.github.io/x"), "github"); /* private section ignored */
    CHECK_EQ_STR(dom("http://WWW.YouTube.COM/x"), "youtube");
    CHECK_EQ_STR(dom("http://localhost:8000/"), "localhost"); /* unknown TLD: last label */
    CHECK_EQ_STR(dom("http://a.b.internal/"), "internal");
    CHECK_EQ_STR(dom("http://192.168.1.20/x"), "192.168.1.20");
    CHECK_EQ_STR(dom("http://co.uk/"), "");                   /* whole host is a suffix */
    CHECK_EQ_STR(dom("http://www.city.kawasaki.jp/"), "city"); /* exception rule */
    CHECK_EQ_STR(dom("http://a.b.kawasaki.jp/"), "a");         /* wildcard rule */
    CHECK_EQ_STR(dom("http://xn--80ak6aa92e.xn--p1ai/"), "xn--80ak6aa92e");
    CHECK_EQ_STR(dom("http://\xD0\x9F\xD1\x80\xD0\xB8\xD0\xBC\xD0\xB5\xD1\x80.\xD1\x80\xD1\x84/"),
                 "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xBC\xD0\xB5\xD1\x80"); /* Пример.рф -> пример */
    CHECK_EQ_STR(dom("http://example\xE3\x80\x82" "com/"), "example"); /* ideographic full stop */
    CHECK_EQ_STR(dom("http://a..com/"), "");
}

static void test_rules(void)
{
    CHECK_EQ_INT(chk("http://www.youtube.com/watch?v=1"), URL_DOMAIN);
    CHECK_EQ_INT(chk("https://i.imgur.com/abc"), URL_DOMAIN);
    CHECK_EQ_INT(chk("http://kym-cdn.com/x"), URL_DOMAIN);
    CHECK_EQ_INT(chk("http://example.com/photo.JPEG"), URL_EXTENSION);
    CHECK_EQ_INT(chk("http://example.com/a.tar.gz?dl=1"), URL_EXTENSION);
    CHECK_EQ_INT(chk("http://example.com/a.7z"), URL_EXTENSION);
    CHECK_EQ_INT(chk("http://example.com/a.7z.ai"), URL_KEPT); /* decision: the reference's typo is fixed */
    CHECK_EQ_INT(chk("http://example.com/a.m\xE2\x84\xAA" "v"), URL_EXTENSION); /* KELVIN SIGN lowers to k */
    CHECK_EQ_INT(chk("http://example.com/x.html?f=a.jpg"), URL_KEPT);
    CHECK_EQ_INT(chk("http://a.b"), URL_MALFORMED);
    CHECK_EQ_INT(chk("a.co/x"), URL_SHORT);
    CHECK_EQ_INT(chk("http://\xC3\xA9.fr/"), URL_MALFORMED);
    CHECK_EQ_INT(chk("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"), URL_SHORT); /* 5 characters, 10 bytes */
    CHECK_EQ_INT(chk(""), URL_SHORT);
    CHECK_EQ_INT(chk("ftp://example.com/file"), URL_MALFORMED);
    CHECK_EQ_INT(chk("http://example.com/a\x1f" "b"), URL_MALFORMED); /* Python's \S excludes U+001F */
    CHECK_EQ_INT(chk("http://example.com/\xFF\xFE"), URL_MALFORMED);  /* invalid UTF-8 */
    CHECK_EQ_INT(chk("http://10.0.0.1:8080/x"), URL_KEPT);
    CHECK_EQ_INT(chk("https://example.com"), URL_KEPT);
    CHECK_EQ_INT(chk("https://example.com/caf\xC3\xA9"), URL_KEPT);
    CHECK_EQ_INT(chk("https://example.com/\xD9\xA3"), URL_KEPT);
}

static void test_duplicate_and_blocklist(void)
{
    urlfilter *f;
    CHECK_EQ_INT(urlfilter_new(&f, NULL), 0);
    const char *u = "http://example.org/page";
    CHECK_EQ_INT(urlfilter_classify(f, u, strlen(u)), URL_KEPT);
    CHECK_EQ_INT(urlfilter_classify(f, u, strlen(u)), URL_DUPLICATE);
    CHECK_EQ_INT(urlfilter_add_block_domain(f, "Spam.Example.NET.", 17), 0);
    const char *a = "http://deep.spam.example.net/x", *b = "http://spam.example.net/x", *c = "http://notspam.example.net/x";
    CHECK_EQ_INT(urlfilter_classify(f, a, strlen(a)), URL_BLOCKLIST);
    CHECK_EQ_INT(urlfilter_classify(f, b, strlen(b)), URL_BLOCKLIST);
    CHECK_EQ_INT(urlfilter_classify(f, c, strlen(c)), URL_KEPT);
    CHECK_EQ_INT(urlfilter_add_blocklist(f, "/no/such/blocklist"), ERR_IO);
    char path[] = "/tmp/blocklist.XXXXXX";
    int fd = mkstemp(path);
    const char *body = "# comment\nok.example\n\nbad domain.com\n";
    CHECK(write(fd, body, strlen(body)) == (ssize_t)strlen(body));
    close(fd);
    CHECK_EQ_INT(urlfilter_add_blocklist(f, path), ERR_FORMAT);
    CHECK(strstr(err_msg(), ":4:") != NULL);
    unlink(path);
    urlfilter_free(f);
    CHECK_EQ_INT(urlfilter_new(&f, "/no/such/psl.dat"), ERR_IO);
    CHECK_EQ_STR(urlfilter_reason_name(URL_MALFORMED), "malformed");
}

int main(void)
{
    if (urlfilter_new(&F, NULL) < 0) {
        printf("FAIL urlfilter_new: %s\n", err_msg());
        return 1;
    }
    RUN(test_host);
    RUN(test_domain);
    RUN(test_rules);
    RUN(test_duplicate_and_blocklist);
    urlfilter_free(F);
    return check_total_failed ? 1 : 0;
}

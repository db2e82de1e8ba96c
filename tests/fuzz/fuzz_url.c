/* libFuzzer target: URL host parsing, registrable-domain lookup and every
 * OpenWebText rule on arbitrary bytes. */
#include "common/utf8.h"
#include "preprocess/filters/urlfilter.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static urlfilter *F;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!F) {
        if (urlfilter_new(&F, NULL) < 0) abort();
        urlfilter_add_block_domain(F, "example.net", 11);
    }
    const char *s = (const char *)data;
    size_t n = size;
    utf8_strip_pyspace(&s, &n);
    const char *h;
    size_t hn;
    urlfilter_host(s, n, &h, &hn);
    if (h < s || h + hn > s + n) abort();
    char dom[64];
    urlfilter_domain(F, s, n, dom, sizeof dom);
    int r = urlfilter_classify(F, s, n);
    if (r < 0 || r >= URL_NREASONS) abort();
    return 0;
}

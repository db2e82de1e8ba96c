/* libFuzzer target: robots.txt as download reads it from the network (robots.h): the
 * input's first line is a path to test and a product token, the rest the robots.txt.
 * Checks: no crash, no hang on patterns of many stars, /robots.txt always allowed,
 * an answer that does not depend on asking twice. */
#include "preprocess/web/robots.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    const char *nl = memchr(s, '\n', size);
    size_t hl = nl ? (size_t)(nl - s) : 0;
    char head[256];
    if (hl >= sizeof head) hl = sizeof head - 1;
    memcpy(head, s, hl);
    head[hl] = 0;
    char *agent = strchr(head, ' ');
    if (agent) *agent++ = 0;
    else agent = "webtext";
    const char *txt = nl ? nl + 1 : s;
    size_t n = size - (size_t)(txt - s);
    robots *r = robots_parse(txt, n, agent);
    if (!r) return 0;
    int a = robots_allowed(r, head);
    if (a != robots_allowed(r, head)) abort();
    if (!robots_allowed(r, "/robots.txt")) abort();
    if (robots_crawl_delay(r) < 0) abort();
    robots_free(r);
    return 0;
}

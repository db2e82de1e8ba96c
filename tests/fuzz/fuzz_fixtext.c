/* libFuzzer target: fixtext (ftfy.fix_text) and the JSON raw-string helpers
 * over arbitrary bytes. The output must be valid UTF-8, the windowed badness
 * search must agree with the full one, and fixing twice a text whose lines
 * are all fixed must change nothing (each segment is fixed until stable). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "common/utf8.h"
#include "preprocess/text/fixtext.h"

static fixtext_ctx *x;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!x) x = fixtext_new();
    if (!x) abort();
    fixtext_config c;
    fixtext_config_default(&c);
    c.max_decode_length = 64; /* exercise the segment split too */
    size_t n;
    const char *o = fixtext_fix(x, &c, (const char *)data, size, &n);
    if (!o || !utf8_valid(o, n)) abort();
    char *copy = malloc(n + 1);
    memcpy(copy, o, n);
    if (fixtext_is_bad(x, copy, n) != fixtext_is_bad_full(x, copy, n)) abort();
    size_t m;
    const char *g = fixtext_general_cleaning(x, copy, n, &m);
    if (!g || !utf8_valid(g, m)) abort();
    /* JSON string round trip */
    char *e = NULL, *u = NULL;
    size_t el, ec = 0, ul, uc = 0;
    if (jsonl_escape(copy, n, &e, &el, &ec) || jsonl_unescape(e, el, &u, &ul, &uc)) abort();
    if (ul != n || memcmp(u, copy, n)) abort();
    size_t vs, ve;
    (void)jsonl_value_span((const char *)data, size, "text", &vs, &ve);
    if (size >= 2 && data[0] == '"') (void)jsonl_unescape((const char *)data, size, &u, &ul, &uc);
    free(e);
    free(u);
    free(copy);
    return 0;
}

/* libFuzzer target: language identification (langid_detect: the project's CLD2, C++,
 * built under ASan) over arbitrary bytes made valid UTF-8 as cleanup makes them. The
 * answer must be a code CLD2 knows (or "un"), its percentage within 0..100, its
 * letter count within the text's size plus CLD2's padding, and the same whatever bytes
 * follow the text in the caller's memory (CLD2 looks one character past its end). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/utf8.h"
#include "preprocess/text/langid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 17)) return 0;
    char *t = malloc(3 * size + 8);
    if (!t) abort();
    size_t n = utf8_sanitize((const char *)data, size, t);
    langid_result a, b;
    memcpy(t + n, "\xd0\x96\xd0\x96", 4); /* Cyrillic letters after the text */
    langid_detect(t, n, &a);
    memcpy(t + n, "a\"\0\0", 4);         /* a Latin letter */
    langid_detect(t, n, &b);
    if (strcmp(a.code, b.code) || a.percent != b.percent || a.reliable != b.reliable || a.text_bytes != b.text_bytes)
        abort();
    if (strcmp(a.code, "un") && !langid_known(a.code)) abort();
    if (a.percent < 0 || a.percent > 100 || (a.reliable != 0 && a.reliable != 1)) abort();
    if (a.text_bytes < 0 || (size_t)a.text_bytes > n + 4 * (n / 4 + 1) + 64) abort();
    free(t);
    return 0;
}

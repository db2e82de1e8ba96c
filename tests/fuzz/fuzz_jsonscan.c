/* libFuzzer target: common/jsonscan (the JSON-lines fast path) against the
 * cJSON path on arbitrary bytes taken as one line. Must never crash, and must
 * never answer differently from cJSON where it answers at all (abort()). */
#include <stdio.h>
#include <stdlib.h>

#include "tests/unit/jsonscan_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const keys[] = {"text", "id", "a", "a.b"};
    if (size > (1 << 16)) return 0;
    const char *why = jsonscan_disagreement((const char *)data, size, keys, 3);
    if (!why) why = jsonscan_disagreement((const char *)data, size, keys + 1, 3);
    if (why) {
        fprintf(stderr, "fuzz_jsonscan: %s\n", why);
        abort();
    }
    return 0;
}

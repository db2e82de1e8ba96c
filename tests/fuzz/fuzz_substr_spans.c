/* libFuzzer target: substr_dedup's spans file reader (dedup/substr_spans.c) over
 * arbitrary bytes. Must never crash, hang or leak; errors are fine, and what it accepts
 * is in order and not overlapping. */
#include "common/io.h"
#include "common/jsonl.h"
#include "dedup/substr_spans.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 16))
        return 0;
    io_reader *r;
    if (io_reader_open_mem(&r, data, size, "fuzz") != 0)
        return 0;
    jsonl_reader *jr;
    if (jsonl_wrap(&jr, r) != 0)
        return 0;
    substr_spans s;
    if (substr_spans_read(&s, jr, "fuzz") == 0) {
        for (size_t i = 0; i < s.n; i++) {
            if (s.span[i].start >= s.span[i].end)
                abort();
            if (i && (s.doc[i] < s.doc[i - 1] || (s.doc[i] == s.doc[i - 1] && s.span[i].start < s.span[i - 1].end)))
                abort();
        }
        substr_spans_free(&s);
    }
    jsonl_close(jr);
    return 0;
}

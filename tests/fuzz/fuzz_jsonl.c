/* libFuzzer target: the JSON-lines reader over arbitrary bytes (plain, zstd or
 * gzip by magic), plus raw io_read. Must never crash, hang or leak; errors are
 * fine. Work per input is bounded: an input that decodes to more than 256 KB (a
 * few hundred bytes of zstd can hold megabytes of newlines) is read raw up to
 * that point only, not parsed line by line, which kept the campaign at a few
 * hundred executions a second; very long inputs are the pathological tests'
 * (tests/e2e/test_pathological.sh: a 1 GB line, 10 million documents).
 * Likewise a zstd input whose first frame declares a window over 8 MB is not
 * decoded: zstd allocates the window up front, and the mapping and unmapping
 * of those tens of megabytes under ASan cost 70% of the campaign's time. */
#include "common/io.h"
#include "common/jsonl.h"

#include <stddef.h>
#include <stdint.h>

#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_getFrameHeader */
#include <zstd.h>

enum { MAX_DECODED = 1 << 18, MAX_WINDOW = 8 << 20 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    io_reader *r;
    size_t decoded = 0;
    ZSTD_frameHeader zfh;
    /* 0: a whole zstd frame header (anything else is not zstd or is cut short) */
    if (ZSTD_getFrameHeader(&zfh, data, size) == 0 && zfh.windowSize > MAX_WINDOW)
        return 0;
    if (io_reader_open_mem(&r, data, size, "fuzz") == 0) {
        char buf[777];
        ssize_t k;
        while (decoded <= MAX_DECODED && (k = io_read(r, buf, sizeof buf)) > 0)
            decoded += (size_t)k;
        io_reader_close(r);
    }
    if (decoded > MAX_DECODED)
        return 0;
    if (io_reader_open_mem(&r, data, size, "fuzz") == 0) {
        jsonl_reader *jr;
        if (jsonl_wrap(&jr, r) == 0) {
            jsonl_record rec;
            int rc;
            while ((rc = jsonl_next(jr, &rec)) > 0)
                if (rc == JSONL_OK) (void)jsonl_get_string(rec.obj, "a.b");
            jsonl_close(jr);
        } else {
            io_reader_close(r);
        }
    }
    return 0;
}

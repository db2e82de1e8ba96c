/* libFuzzer target: the JSON-lines reader over arbitrary bytes (plain, zstd or
 * gzip by magic), plus raw io_read. Must never crash, hang or leak; errors are
 * fine. */
#include "common/io.h"
#include "common/jsonl.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    io_reader *r;
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
    if (io_reader_open_mem(&r, data, size, "fuzz") == 0) {
        char buf[777];
        while (io_read(r, buf, sizeof buf) > 0) {
        }
        io_reader_close(r);
    }
    return 0;
}

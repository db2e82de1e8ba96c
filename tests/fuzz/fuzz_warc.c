/* libFuzzer target: the WARC reader (records, fields, blocks, resynchronisation after
 * damage, compressed input by magic bytes) and the HTTP payload decoder (chunks, gzip,
 * deflate, br) on arbitrary bytes. */
#include "common/err.h"
#include "preprocess/web/warc.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    warc_reader *r;
    if (warc_open_mem(&r, data, size, "fuzz", 1 << 20) < 0)
        return 0;
    for (int i = 0; i < 10000; i++) {
        warc_record rec;
        int rc = warc_next(r, &rec);
        if (rc == 0)
            break;
        if (rc < 0) {
            if (warc_failed(r))
                break;
            continue;
        }
        if (!rec.too_large && !rec.block)
            abort();
        if (rec.block) {
            if (rec.block[rec.content_length] != 0)
                abort();
            warc_http h;
            if (warc_http_parse(&h, rec.block, (size_t)rec.content_length, 1 << 22) == 0) {
                if (h.body_len && !h.body)
                    abort();
                if (h.charset && !h.content_type)
                    abort();
            }
            warc_http_free(&h);
        }
    }
    warc_close(r);
    /* the payload decoder on the bytes alone */
    warc_http h;
    warc_http_parse(&h, data, size, 1 << 22);
    warc_http_free(&h);
    return 0;
}

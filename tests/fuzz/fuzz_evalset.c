/* libFuzzer target: decontaminate's evaluation-set reader (preprocess/decont/evalset.c: the
 * HellaSwag, ARC, PIQA, Winogrande and generic formats) over arbitrary bytes, then the items it
 * accepts registered as n-grams both ways and a document checked against them. Must never
 * crash, hang or leak; errors are fine. */
#include "common/io.h"
#include "common/jsonl.h"
#include "preprocess/decont/decont.h"
#include "preprocess/decont/evalset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    eval_set s = {0};
    s.text_field = "text";
    s.query_field = "context";
    if (eval_load_reader(&s, jr, "fuzz", "task") == 0) {
        for (int mode = 0; mode < 2; mode++) {
            decont_cfg cfg = {mode, 1 + (int)(size % 4), 5, 5, 3, (int)(size & 1)};
            decont *d;
            if (decont_new(&d, &cfg))
                continue;
            if (!decont_add_set(d, &s)) {
                decont_ctx *c = decont_ctx_new(d);
                decont_result res = {0};
                const char *doc = s.v[0].gold ? s.v[0].gold : s.v[0].query ? s.v[0].query : "";
                if (c && decont_check(d, c, doc, strlen(doc), &res) > 0 && mode == 0 && !res.too_dirty)
                    for (size_t i = 0; i < res.npieces; i++)
                        if (res.pieces[2 * i] > res.pieces[2 * i + 1] || res.pieces[2 * i + 1] > strlen(doc))
                            abort();
                decont_result_free(&res);
                decont_ctx_free(c);
            }
            decont_free(d);
        }
    }
    eval_free(&s);
    jsonl_close(jr);
    return 0;
}

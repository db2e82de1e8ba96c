/* tokfile_fuzz.h - the body the tokenizer-file fuzz targets share (fuzz_tiktoken,
 * fuzz_hftok, fuzz_spm): the input is written to a file, opened as the target's
 * tokenizer type (tokfile_spec() fills it in), then a text is encoded (every id
 * must be the vocabulary's), decoded, and every id (the first 4096) decoded
 * alone. No crash, no undefined behaviour, no read past the file. */
#ifndef TESTS_FUZZ_TOKFILE_FUZZ_H
#define TESTS_FUZZ_TOKFILE_FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tokenizer/bpe.h"
#include "tokenizer/tokcli.h"

/* Set s's type and options for this input (s->model is set). */
static void tokfile_spec(tokcli_spec *s, const uint8_t *data, size_t n);

static int tokfile_fuzz(const char *name, const uint8_t *data, size_t n)
{
    static char path[96];
    if (!path[0])
        snprintf(path, sizeof path, "%s/fuzz_%s.%d", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", name,
                 (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f))
        abort();
    tokcli_spec s = {.model = path};
    tokfile_spec(&s, data, n);
    bpe *b = NULL;
    if (tokcli_open(&b, &s) != 0)
        return 0;
    static const char text[] = "Hello world, 12345 don't \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x8e\x89  <|endoftext|> \xff end\n\n";
    bpe_ctx *c = bpe_ctx_new(b);
    bpe_ids ids = {0};
    if (c && bpe_encode(c, text, sizeof text - 1, &ids) == 0) {
        char *buf = NULL;
        size_t len = 0, cap = 0;
        for (size_t i = 0; i < ids.n; i++)
            if (ids.v[i] >= bpe_n_ids(b)) abort(); /* an id the vocabulary does not hold */
        (void)bpe_decode(b, ids.v, ids.n, &buf, &len, &cap);
        for (uint32_t id = 0; id < bpe_n_ids(b) && id < 4096; id++) {
            len = 0;
            (void)bpe_decode(b, &id, 1, &buf, &len, &cap);
        }
        free(buf);
    }
    bpe_ids_free(&ids);
    bpe_ctx_free(c);
    bpe_free(b);
    return 0;
}

#endif

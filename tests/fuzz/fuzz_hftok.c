/* fuzz_hftok - the Hugging Face tokenizer.json reader on a hostile download, then an
 * encode and a decode with whatever it accepted. No crash, no undefined
 * behaviour, no read past the file; a refused file names the file and the
 * entry. The seeds (scripts/make_tok_fuzz_seeds.py) are small real vocabularies
 * complete enough (all 256 bytes, merges, specials) to reach the encoder. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tokenizer/bpe.h"
#include "tokenizer/tokcli.h"

static char path[96];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "%s/fuzz_hftok.%d", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid());
    }
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f))
        abort();
    tokcli_spec s = {.model = path};
    s.type = "HuggingFaceTokenizer";
    bpe *b = NULL;
    if (tokcli_open(&b, &s) == 0) {
        static const char text[] = "Hello world, 12345 don't \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x8e\x89  <|endoftext|> \xff end\n\n";
        bpe_ctx *c = bpe_ctx_new(b);
        bpe_ids ids = {0};
        if (c && bpe_encode(c, text, sizeof text - 1, &ids) == 0) {
            char *buf = NULL;
            size_t len = 0, cap = 0;
            for (size_t i = 0; i < ids.n; i++)
                if (ids.v[i] >= bpe_n_ids(b)) abort(); /* an id the vocabulary does not hold */
            (void)bpe_decode(b, ids.v, ids.n, &buf, &len, &cap);
            /* and every id the vocabulary has (the first 4096), specials included */
            for (uint32_t id = 0; id < bpe_n_ids(b) && id < 4096; id++) {
                len = 0;
                (void)bpe_decode(b, &id, 1, &buf, &len, &cap);
            }
            free(buf);
        }
        bpe_ids_free(&ids);
        bpe_ctx_free(c);
        bpe_free(b);
    }
    return 0;
}

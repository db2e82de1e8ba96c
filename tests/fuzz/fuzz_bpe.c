/* fuzz_bpe - GPT-2 BPE on arbitrary bytes: no crash, the short and heap merge
 * paths agree, and decode(encode(x)) == x with invalid UTF-8 replaced by
 * U+FFFD. Run from the repository root (loads data/gpt2). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/utf8.h"
#include "tokenizer/bpe.h"

static bpe *b;
static bpe_ctx *c1, *c2;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (!b) {
        if (bpe_load(&b, "data/gpt2/encoder.json", "data/gpt2/vocab.bpe")) abort();
        c1 = bpe_ctx_new(b);
        c2 = bpe_ctx_new(b);
        bpe_ctx_force_heap(c2, 1);
    }
    bpe_ids v = {0}, w = {0};
    if (bpe_encode(c1, (const char *)data, n, &v) || bpe_encode(c2, (const char *)data, n, &w)) abort();
    if (v.n != w.n || (v.n && memcmp(v.v, w.v, v.n * sizeof *v.v))) abort();
    char *clean = malloc(3 * n + 1), *dec = NULL;
    size_t cl = utf8_sanitize((const char *)data, n, clean), dl = 0, dc = 0;
    if (bpe_decode(b, v.v, v.n, &dec, &dl, &dc)) abort();
    if (dl != cl || (cl && memcmp(dec, clean, cl))) abort();
    free(clean);
    free(dec);
    bpe_ids_free(&v);
    bpe_ids_free(&w);
    return 0;
}

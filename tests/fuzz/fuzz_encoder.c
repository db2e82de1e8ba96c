/* fuzz_encoder - GPT-2's encoder.json read by the one-pass flat reader and by
 * cJSON's (tokenizer/bpe.c): wherever the flat reader takes a file, cJSON's
 * reader takes it too and gives the same entries (ids, keys, order); where it
 * declines, the file goes to cJSON's (no crash either way). Then the file loaded
 * by bpe_load with a small merges file, its one-pass reader against the general
 * one (gpt2load_fuzz.h): the same answer, message or tables. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tokenizer/bpe_int.h"
#include "tests/fuzz/gpt2load_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    char *s = malloc(n + 1); /* bpe_slurp's buffers end in a NUL; neither reader needs it */
    if (!s) return 0;
    memcpy(s, data, n);
    s[n] = 0;
    enc_list a = {0}, b = {0};
    int ra = bpe_encoder_flat(s, n, &a);
    int rb = bpe_encoder_json("fuzz.json", s, n, &b);
    if (ra == 0) {
        if (rb != 0 || a.n != b.n) abort();
        for (size_t k = 0; k < a.n; k++)
            if (a.e[k].id != b.e[k].id || strcmp(a.keys + a.e[k].off, b.keys + b.e[k].off)) abort();
    } else if (ra != 1) {
        abort(); /* no out-of-memory here */
    }
    bpe_enc_list_free(&a);
    bpe_enc_list_free(&b);
    free(s);
    static char enc[96], merges[96];
    if (!enc[0]) {
        fuzz_tmp_path(enc, sizeof enc, "encoder.json");
        fuzz_tmp_path(merges, sizeof merges, "encoder_merges.txt");
        static const char m[] = "#version: 0.2\n\xc4\xa0 t\nh e\n";
        fuzz_write(merges, m, sizeof m - 1);
    }
    fuzz_write(enc, data, n);
    gpt2_load_compare(enc, merges);
    return 0;
}

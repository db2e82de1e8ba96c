/* fuzz_hftok - the Hugging Face tokenizer.json reader on a hostile download, then
 * an encode and decodes with whatever it accepted (tokfile_fuzz.h). Seeds: small
 * byte-level vocabularies cut from DeepSeek-V3's (tests/golden/make_tok_fuzz_seeds.py). */
#include "tests/fuzz/tokfile_fuzz.h"

static void tokfile_spec(tokcli_spec *s, const uint8_t *data, size_t n)
{
    (void)data;
    (void)n;
    s->type = "HuggingFaceTokenizer";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) { return tokfile_fuzz("hftok", data, n); }

/* fuzz_tiktoken - the .tiktoken reader (TikTokenizer) on a hostile download, then an
 * encode and decodes with whatever it accepted (tokfile_fuzz.h). The seeds
 * (tests/golden/make_tok_fuzz_seeds.py) are small real vocabularies complete enough
 * (all 256 bytes, merges, specials) to reach the encoder; the input's last bit
 * picks cl100k's pattern and layout or Megatron's v1. */
#include "tests/fuzz/tokfile_fuzz.h"

static void tokfile_spec(tokcli_spec *s, const uint8_t *data, size_t n)
{
    s->type = "TikTokenizer";
    s->tiktoken_pattern = n && (data[n - 1] & 1) ? "cl100k_base" : "v1";
    s->tiktoken_num_special = 3;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) { return tokfile_fuzz("tiktoken", data, n); }

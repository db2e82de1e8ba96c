/* fuzz_spm - the SentencePiece .model reader on a hostile download, then an encode
 * and decodes with whatever it accepted (tokfile_fuzz.h). Seeds: SentencePiece BPE
 * models trained by tests/golden/make_tok_fuzz_seeds.py (identity and nmt_nfkc
 * normalisers) and a Unigram one; the input's last bit picks Megatron's
 * SentencePieceTokenizer (added specials) or Llama2Tokenizer. */
#include "tests/fuzz/tokfile_fuzz.h"

static void tokfile_spec(tokcli_spec *s, const uint8_t *data, size_t n)
{
    s->type = n && (data[n - 1] & 1) ? "SentencePieceTokenizer" : "Llama2Tokenizer";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) { return tokfile_fuzz("spm", data, n); }

/* tokcli.h - what the tokenizer tools share: finding and loading the vocabulary. */
#ifndef TOKENIZER_TOKCLI_H
#define TOKENIZER_TOKCLI_H
#include "bpe.h"

/* The GPT-2 files shipped in the project's data/gpt2/, or installed in
 * PREFIX/share/webtext-gpt/gpt2/ (found from the executable's location), or
 * $WEBTEXT_DATA/gpt2 when that is set: used when --vocab-file / --merge-file
 * are not given. */
const char *tokcli_default_vocab(void);
/* The data directory itself (its gpt2/, eval/). */
const char *tokcli_data_dir(void);
const char *tokcli_default_merges(void);

/* What the command line says about the tokenizer (Megatron's flags). */
typedef struct {
    const char *type;             /* --tokenizer-type (NULL: GPT2BPETokenizer) */
    const char *model;            /* --tokenizer-model: .tiktoken, tokenizer.json (or its folder), .model */
    const char *vocab_file;       /* --vocab-file (GPT-2) */
    const char *merge_file;       /* --merge-file (GPT-2) */
    const char *tiktoken_pattern; /* --tiktoken-pattern: auto (default), cl100k_base, ..., v1, v2 */
    long long tiktoken_num_special; /* --tiktoken-num-special-tokens (Megatron's v1/v2 layout; default 1000) */
    long long vocab_size;         /* --vocab-size (NullTokenizer; 0: not given) */
    int sp_legacy;                /* --tokenizer-sentencepiece-legacy: SentencePieceTokenizer as
                                     Megatron's old wrapper (special tokens matched in the text) */
} tokcli_spec;

#define TOKCLI_TYPES "GPT2BPETokenizer, TikTokenizer, HuggingFaceTokenizer, SentencePieceTokenizer,\n" \
    "                                GPTSentencePieceTokenizer, Llama2Tokenizer, NullTokenizer"

/* The options every tokenizing tool takes (an arg_opt initialiser list). */
#define TOKCLI_OPTS(s)                                                                                          \
    { "tokenizer-type", 0, ARG_STR, &(s).type, "NAME", "tokenizer family (default GPT2BPETokenizer):\n"         \
      "                                " TOKCLI_TYPES },                                                         \
    { "tokenizer-model", 0, ARG_STR, &(s).model, "FILE", "the vocabulary of the non-GPT-2 types: .tiktoken,\n"  \
      "                                tokenizer.json (or its folder), SentencePiece .model" },                 \
    { "vocab-file", 0, ARG_STR, &(s).vocab_file, "FILE", "GPT-2 encoder.json (default: the project's data/gpt2/)" }, \
    { "merge-file", 0, ARG_STR, &(s).merge_file, "FILE", "GPT-2 vocab.bpe (default: the project's data/gpt2/)" }, \
    { "tiktoken-pattern", 0, ARG_STR, &(s).tiktoken_pattern, "NAME", "TikTokenizer split pattern: auto (by the\n" \
      "                                file's size), cl100k_base, o200k_base, p50k_base, r50k_base, llama3, qwen2,\n" \
      "                                or Megatron's v1/v2 (special ids first)" },                               \
    { "tiktoken-num-special-tokens", 0, ARG_INT, &(s).tiktoken_num_special, "N", "with v1/v2: special ids before\n" \
      "                                the ranks (default 1000)" },                                              \
    TOKCLI_SP_LEGACY_OPT(&(s).sp_legacy)

/* Megatron-LM's flag (megatron/core/tokenizers; default off). */
#define TOKCLI_SP_LEGACY_OPT(dest)                                                                              \
    { "tokenizer-sentencepiece-legacy", 0, ARG_FLAG, dest, NULL, "SentencePieceTokenizer as Megatron's old\n"  \
      "                                wrapper: <CLS> <SEP> <EOD> <MASK> <PAD> <BOS> <EOS> added, and special\n" \
      "                                tokens in the text become their ids (default: plain SentencePiece, a\n"   \
      "                                literal <s> is text, EOD is </s>, as Megatron-LM today)" }

/* Open the tokenizer the spec names. Errors (ERR_USAGE for a bad
 * combination of flags) are printed by the caller. */
int tokcli_open(bpe **out, const tokcli_spec *s);

/* Check --tokenizer-type (NULL ok), then load GPT-2 files. */
int tokcli_load(bpe **out, const char *tokenizer_type, const char *vocab_file, const char *merge_file);

/* NullTokenizer over ids < vocab_size; EOD = vocab_size (Megatron's). */
int tokcli_null(bpe **out, long long vocab_size);

/* Megatron's padded vocabulary: vocab_size rounded up to a multiple of
 * divisible_by * tp. */
size_t tokcli_padded_vocab(size_t vocab_size, long long divisible_by, long long tp);

#endif

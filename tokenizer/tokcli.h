/* tokcli.h - what the tokenizer tools share: finding and loading the vocabulary. */
#ifndef TOKENIZER_TOKCLI_H
#define TOKENIZER_TOKCLI_H
#include "bpe.h"

/* The GPT-2 files shipped in the project's data/gpt2/, or installed in
 * PREFIX/share/webtext-gpt/gpt2/ (found from the executable's location), or
 * $WEBTEXT_DATA/gpt2 when that is set: used when --vocab-file / --merge-file
 * are not given. */
const char *tokcli_default_vocab(void);
const char *tokcli_default_merges(void);

/* Check --tokenizer-type (NULL ok), then load. Errors are printed by the caller. */
int tokcli_load(bpe **out, const char *tokenizer_type, const char *vocab_file, const char *merge_file);

#endif

/* tokcli.c - see tokcli.h. */
#include "tokcli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"

#ifndef TOOLKIT_DATADIR
#define TOOLKIT_DATADIR "data"
#endif

static const char *data_file(char *buf, size_t n, const char *name)
{
    const char *env = getenv("WEBTEXT_DATA");
    snprintf(buf, n, "%s/gpt2/%s", env && *env ? env : TOOLKIT_DATADIR, name);
    return buf;
}

const char *tokcli_default_vocab(void)
{
    static char buf[4096];
    return data_file(buf, sizeof buf, "encoder.json");
}

const char *tokcli_default_merges(void)
{
    static char buf[4096];
    return data_file(buf, sizeof buf, "vocab.bpe");
}

int tokcli_load(bpe **out, const char *tokenizer_type, const char *vocab_file, const char *merge_file)
{
    if (tokenizer_type && strcmp(tokenizer_type, "GPT2BPETokenizer") != 0)
        return err_set(ERR_USAGE, "--tokenizer-type %s: only GPT2BPETokenizer (byte-level BPE from "
                       "encoder.json + vocab.bpe) is supported", tokenizer_type);
    return bpe_load(out, vocab_file ? vocab_file : tokcli_default_vocab(),
                    merge_file ? merge_file : tokcli_default_merges());
}

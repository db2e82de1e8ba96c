/* tokcli.c - see tokcli.h. */
#include "tokcli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/err.h"

/* The directory holding gpt2/: $WEBTEXT_DATA when set, else found from where
 * the executable itself lies (no path is compiled in, so an installed tree can
 * be moved): PREFIX/share/webtext-gpt for PREFIX/bin/TOOL (make install), or the
 * source tree's data/ for bin/TOOL, build/san/bin/TOOL, build/rel/tests/TEST.
 * Last resort: data/ under the working directory. */
static int has_vocab(const char *dir)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s/gpt2/encoder.json", dir) >= (int)sizeof p)
        return 0;
    return access(p, R_OK) == 0;
}

static const char *data_dir(void)
{
    static char dir[4096];
    if (dir[0])
        return dir;
    const char *env = getenv("WEBTEXT_DATA");
    if (env && *env) {
        snprintf(dir, sizeof dir, "%s", env);
        return dir;
    }
    char up[4096];
    ssize_t n = readlink("/proc/self/exe", up, sizeof up - 1);
    if (n > 0) {
        up[n] = 0;
        for (int level = 0; level < 4; level++) {
            char *slash = strrchr(up, '/');
            if (!slash || slash == up)
                break;
            *slash = 0; /* up: the executable's directory, then its parents */
            if (level == 0)
                continue;
            static const char *const sub[2] = {"share/webtext-gpt", "data"};
            for (int k = 0; k < 2; k++)
                if (snprintf(dir, sizeof dir, "%s/%s", up, sub[k]) < (int)sizeof dir && has_vocab(dir))
                    return dir;
            dir[0] = 0;
        }
    }
    snprintf(dir, sizeof dir, "data");
    return dir;
}

static const char *data_file(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/gpt2/%s", data_dir(), name);
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

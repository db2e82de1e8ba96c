/* tokcli.c - see tokcli.h. */
#include "tokcli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "tokenizer/bpe_int.h"

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

const char *tokcli_data_dir(void) { return data_dir(); }

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

int tokcli_null(bpe **out, long long vocab_size)
{
    if (vocab_size < 1 || vocab_size >= ((long long)1 << 31) - 1)
        return err_set(ERR_USAGE, "NullTokenizer: --vocab-size %lld: must be in 1..2^31-2", vocab_size);
    bpe *b = bpe_new(TOKF_NULL, "NullTokenizer", "");
    if (!b) return err_set(ERR_NOMEM, "out of memory");
    b->null_vocab = (uint32_t)vocab_size;
    b->eod = vocab_size;
    b->n_ids = (size_t)vocab_size + 1;
    b->vocab_size = (size_t)vocab_size + 1;
    *out = b;
    return 0;
}

int tokcli_load(bpe **out, const char *tokenizer_type, const char *vocab_file, const char *merge_file)
{
    tokcli_spec s = {.type = tokenizer_type, .vocab_file = vocab_file, .merge_file = merge_file};
    return tokcli_open(out, &s);
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int tokcli_open(bpe **out, const tokcli_spec *s)
{
    const char *t = s->type ? s->type : "GPT2BPETokenizer";
    if (s->sp_legacy && strcmp(t, "SentencePieceTokenizer"))
        return err_set(ERR_USAGE, "--tokenizer-sentencepiece-legacy is for --tokenizer-type SentencePieceTokenizer, not %s", t);
    if (!strcmp(t, "NullTokenizer")) {
        if (!s->vocab_size) return err_set(ERR_USAGE, "--tokenizer-type NullTokenizer needs --vocab-size");
        return tokcli_null(out, s->vocab_size);
    }
    if (!strcmp(t, "GPT2BPETokenizer")) {
        if (s->model) return err_set(ERR_USAGE, "--tokenizer-model is for the other types; GPT2BPETokenizer takes "
                                     "--vocab-file and --merge-file");
        return bpe_load(out, s->vocab_file ? s->vocab_file : tokcli_default_vocab(),
                        s->merge_file ? s->merge_file : tokcli_default_merges());
    }
    int tik = !strcmp(t, "TikTokenizer"), hf = !strcmp(t, "HuggingFaceTokenizer");
    int spm = !strcmp(t, "SentencePieceTokenizer") || !strcmp(t, "GPTSentencePieceTokenizer") ||
              !strcmp(t, "Llama2Tokenizer");
    if (!tik && !hf && !spm)
        return err_set(ERR_USAGE, "--tokenizer-type %s: not one of GPT2BPETokenizer, TikTokenizer, HuggingFaceTokenizer, "
                       "SentencePieceTokenizer, GPTSentencePieceTokenizer, Llama2Tokenizer, NullTokenizer", t);
    if (!s->model) return err_set(ERR_USAGE, "--tokenizer-type %s needs --tokenizer-model FILE", t);

    if (s->vocab_file || s->merge_file)
        return err_set(ERR_USAGE, "--vocab-file/--merge-file are GPT2BPETokenizer's; %s takes --tokenizer-model", t);
    if (tik) {
        long long ns = s->tiktoken_num_special ? s->tiktoken_num_special : 1000;
        if (ns < 0 || ns > 1 << 20) return err_set(ERR_USAGE, "--tiktoken-num-special-tokens %lld: out of range", ns);
        return tiktoken_load(out, s->model, s->tiktoken_pattern, (int)ns, t);
    }
    if (hf) {
        char p[4096];
        if (is_dir(s->model)) {
            snprintf(p, sizeof p, "%s/tokenizer.json", s->model);
            return hftok_load(out, p, t);
        }
        return hftok_load(out, s->model, t);
    }
    int rc = spm_load(out, s->model, t);
    if (rc) return rc;
    bpe *b = *out;
    if (!strcmp(t, "Llama2Tokenizer")) {
        b->prepend_bos = b->bos >= 0; /* Megatron's _Llama2Tokenizer.tokenize(bos=True) */
    } else if (!strcmp(t, "SentencePieceTokenizer") && s->sp_legacy) {
        /* --tokenizer-sentencepiece-legacy: Megatron's old _SentencePieceTokenizer
         * wrapper: <CLS> <SEP> <EOD> <MASK> and the pad/bos/eos pieces are
         * special, added after the vocabulary when absent, and matched in the
         * text. Without the flag, SentencePieceTokenizer is Megatron-LM's current
         * one (megatron/core/tokenizers, legacy=False): sentencepiece's own
         * encode_as_ids, the model's pieces as the vocabulary, EOD = </s>, the
         * path GPTSentencePieceTokenizer takes. */
        static const char *const extra[] = {"<CLS>", "<SEP>", "<EOD>", "<MASK>"};
        const char *more[3] = {"<PAD>", b->bos >= 0 ? NULL : "<BOS>", b->eod >= 0 ? NULL : "<EOS>"};
        size_t add = 0;
        for (int i = 0; i < 4; i++) if (bpe_lookup(b, extra[i], strlen(extra[i])) < 0) add++;
        add += 3;
        size_t old = b->n_ids, nn = old + add;
        uint64_t *o = realloc(b->tok_off, nn * sizeof *o);
        if (o) b->tok_off = o;
        uint32_t *l = realloc(b->tok_len, nn * sizeof *l);
        if (l) b->tok_len = l;
        uint8_t *f = realloc(b->tok_flags, nn);
        if (f) b->tok_flags = f;
        if (!o || !l || !f) return err_set(ERR_NOMEM, "out of memory");
        for (size_t i = old; i < nn; i++) { b->tok_off[i] = UINT64_MAX; b->tok_len[i] = 0; b->tok_flags[i] = 0; }
        b->n_ids = nn;
        size_t next = old;
        const char *names[7] = {extra[0], extra[1], extra[2], extra[3], more[0], more[1], more[2]};
        int64_t ids[7];
        for (int i = 0; i < 7; i++) {
            ids[i] = -1;
            if (!names[i]) continue;
            int64_t id = bpe_lookup(b, names[i], strlen(names[i]));
            if (id < 0) {
                id = (int64_t)next++;
                if ((rc = bpe_core_set(b, (uint32_t)id, names[i], strlen(names[i]), 0, names[i]))) return rc;
            }
            ids[i] = id;
            b->tok_flags[id] |= TOKFL_SPECIAL;
            if ((rc = bpe_add_special(b, names[i], strlen(names[i]), (uint32_t)id, 0, 0))) return rc;
        }
        if (b->bos >= 0) {
            bpe_add_special(b, "<s>", 3, (uint32_t)b->bos, 0, 0);
            b->tok_flags[b->bos] |= TOKFL_SPECIAL;
        }
        int64_t eos = b->eod;
        if (eos >= 0) {
            bpe_add_special(b, "</s>", 4, (uint32_t)eos, 0, 0);
            b->tok_flags[eos] |= TOKFL_SPECIAL;
        }
        b->sp_legacy = 1;
        b->n_ids = next;
        b->eod = ids[2];
        bpe_sort_specials(b);
    }
    b->vocab_size = b->n_ids;
    return 0;
}

size_t tokcli_padded_vocab(size_t v, long long divisible_by, long long tp)
{
    size_t m = (size_t)(divisible_by > 0 ? divisible_by : 1) * (size_t)(tp > 0 ? tp : 1);
    return (v + m - 1) / m * m;
}

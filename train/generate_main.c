/* generate_main.c - bin/generate: continue a prompt with a trained checkpoint. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/build_info.h"
#include "common/args.h"
#include "common/fault.h"
#include "common/err.h"
#include "tokenizer/tokcli.h"
#include "train/model/ckpt.h"
#include "train/generate.h"

typedef struct {
    const bpe *tok;
    char *buf;
    size_t len, cap;
    int started;
} emit_ctx;

static void emit(int32_t t, void *p)
{
    emit_ctx *e = p;
    uint32_t id = (uint32_t)t;
    e->len = 0;
    if (bpe_decode_more(e->tok, &id, 1, e->started++ > 0, &e->buf, &e->len, &e->cap) == 0) {
        fwrite(e->buf, 1, e->len, stdout);
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    const char *load = NULL, *prompt = NULL, *logits_out = NULL;
    tokcli_spec ts = {0};
    long long max_tokens = 64, top_k = 0, seed = 1234, nsamples = 1;
    double temperature = 1.0, top_p = 0.0;
    int ignore_eod = 0, no_kv_cache = 0;
    const arg_opt opts[] = {
        {"load", 0, ARG_STR, &load, "DIR", "checkpoint directory (its latest checkpoint), an iter_N\n"
                                            "                                directory or a model.ckpt file (required)"},
        {"prompt", 'p', ARG_STR, &prompt, "TEXT", "text to continue (default: start from <|endoftext|>)"},
        {"max-tokens", 'n', ARG_INT, &max_tokens, "N", "tokens to generate (default 64)"},
        {"tokens-to-generate", 0, ARG_INT, &max_tokens, "N", "Megatron's name for --max-tokens"},
        {"temperature", 't', ARG_DOUBLE, &temperature, "X", "sampling temperature (default 1.0; 0: greedy)"},
        {"top-k", 0, ARG_INT, &top_k, "K", "sample from the K most likely tokens (default 0: all)"},
        {"top-p", 0, ARG_DOUBLE, &top_p, "P", "nucleus sampling: smallest set with probability >= P\n"
                                              "                                (default 0: off)"},
        {"seed", 0, ARG_INT, &seed, "N", "sampling seed (default 1234)"},
        {"num-samples", 0, ARG_INT, &nsamples, "N", "continuations to print (default 1)"},
        {"ignore-eod", 0, ARG_FLAG, &ignore_eod, NULL, "keep going past <|endoftext|>"},
        {"no-kv-cache", 0, ARG_FLAG, &no_kv_cache, NULL, "recompute the whole window for every token (slow; the\n"
                                                          "reference the KV cache is tested against)"},
        {"logits-out", 0, ARG_STR, &logits_out, "FILE", "write the prompt's logits (float32, [tokens, vocab]) to FILE\n"
                                                     "and exit: for comparing with other implementations"},
        TOKCLI_OPTS(ts),
        {"vocab-size", 0, ARG_INT, &ts.vocab_size, "N", "NullTokenizer's vocabulary size (ids in, ids out)"},
        {NULL, 0, 0, NULL, NULL, NULL}};
    arg_spec spec = {"generate", "--load DIR [--prompt TEXT] [options]",
                     "Print the prompt and a sampled continuation from a checkpoint written by train.", opts,
                     "Example:\n  generate --load checkpoints/gpt2-small --prompt 'The history of' --top-k 40 "
                     "--temperature 0.8\nExit status: 0 ok, 1 damaged checkpoint, 2 usage, 3 I/O error."};
    char **pos = NULL;
    int npos = 0;
    args_set_version_extra(train_build_info);
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0)
        return rc;
    free(pos);
    if (!load || npos || max_tokens < 0 || top_k < 0 || temperature < 0 || top_p < 0 || top_p > 1 || nsamples < 1) {
        fprintf(stderr, "generate: %s\nTry 'generate --help'.\n",
                !load ? "--load is required" : npos ? "unexpected positional argument (use --prompt)"
                                                    : "bad value: need max-tokens, top-k >= 0, temperature >= 0, "
                                                      "0 <= top-p <= 1, num-samples >= 1");
        return EXIT_USAGE;
    }
    char *path = NULL;
    if ((rc = ckpt_resolve(load, &path)) != 0) {
        fprintf(stderr, "generate: %s\n", err_msg());
        return rc == 1 ? EXIT_USAGE : err_exit_code(rc);
    }
    gpt_config cfg;
    ckpt_state st;
    gpt_model m;
    bpe *tok = NULL;
    if ((rc = ckpt_read_header(path, &cfg, &st)) || (rc = gpt_alloc(&m, &cfg)) || (rc = ckpt_load(path, &m, &st))) {
        fprintf(stderr, "generate: %s\n", err_msg());
        free(path);
        return err_exit_code(rc);
    }
    free(path);
    if ((rc = tokcli_open(&tok, &ts))) {
        fprintf(stderr, "generate: %s\n", err_msg());
        gpt_free(&m);
        return err_exit_code(rc);
    }
    if ((int)bpe_vocab_size(tok) != cfg.vocab_size) {
        fprintf(stderr, "generate: the checkpoint has a vocabulary of %d, the tokenizer %zu (give the tokenizer it was\n"
                "  trained with: --tokenizer-type/--tokenizer-model, or --vocab-file)\n",
                cfg.vocab_size, bpe_vocab_size(tok));
        bpe_free(tok);
        gpt_free(&m);
        return EXIT_USAGE;
    }
    int eod = (int)bpe_eod(tok);
    bpe_ids ids = {0};
    bpe_ctx *ctx = bpe_ctx_new(tok);
    if (prompt && *prompt)
        rc = bpe_encode(ctx, prompt, strlen(prompt), &ids);
    else if (eod >= 0)
        rc = bpe_ids_push(&ids, (uint32_t)eod);
    bpe_ctx_free(ctx);
    int n = (int)ids.n;
    if (logits_out && !rc) {
        int32_t *in = malloc((size_t)(n ? n : 1) * sizeof *in);
        FILE *f = NULL;
        if (!in || n < 1 || n > cfg.max_seq_len)
            rc = err_set(ERR_USAGE, "--logits-out: the prompt has %d tokens; need 1..%d", n, cfg.max_seq_len);
        for (int i = 0; !rc && i < n; i++)
            in[i] = (int32_t)ids.v[i];
        if (!rc)
            rc = gpt_forward(&m, in, NULL, 1, n, NULL);
        if (!rc && !(f = fault_fopen(logits_out, "wb")))
            rc = err_set(ERR_IO, "%s: %s", logits_out, strerror(errno));
        for (int i = 0; !rc && i < n; i++)
            if (fault_fwrite((const float *)m.logits + (size_t)i * cfg.padded_vocab_size, sizeof(float), (size_t)cfg.vocab_size, f) !=
                (size_t)cfg.vocab_size)
                rc = err_set(ERR_IO, "%s: %s", logits_out, strerror(errno));
        if (f && fclose(f) != 0 && !rc)
            rc = err_set(ERR_IO, "%s: %s", logits_out, strerror(errno));
        free(in);
        if (rc)
            fprintf(stderr, "generate: %s\n", err_msg());
        bpe_ids_free(&ids);
        bpe_free(tok);
        gpt_free(&m);
        return rc ? err_exit_code(rc) : 0;
    }
    int32_t *buf = malloc(((size_t)n + (size_t)max_tokens + 1) * sizeof *buf);
    gen_opts o = {temperature, (int)top_k, top_p, no_kv_cache};
    emit_ctx e = {tok, NULL, 0, 0, 0};
    for (long long s = 0; s < nsamples && !rc && buf; s++) {
        for (int i = 0; i < n; i++)
            buf[i] = (int32_t)ids.v[i];
        if (nsamples > 1)
            printf("%s=== sample %lld ===\n", s ? "\n" : "", s + 1);
        if (prompt)
            fputs(prompt, stdout);
        e.started = prompt && *prompt; /* a continuation: no start-of-text rule */
        int got = gen_run(&m, buf, n, (int)max_tokens, ignore_eod ? -1 : eod, &o, (uint64_t)seed + (uint64_t)s,
                          emit, &e);
        if (got < 0)
            rc = got;
        printf("\n");
    }
    if (rc)
        fprintf(stderr, "generate: %s\n", err_msg());
    free(e.buf);
    free(buf);
    bpe_ids_free(&ids);
    bpe_free(tok);
    gpt_free(&m);
    return rc ? err_exit_code(rc) : 0;
}

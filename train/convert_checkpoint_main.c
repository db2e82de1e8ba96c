/* convert_checkpoint_main.c - bin/convert_checkpoint: our checkpoints <-> Hugging Face GPT-2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/build_info.h"
#include "common/args.h"
#include "common/err.h"
#include "tokenizer/tokcli.h"
#include "train/model/ckpt.h"
#include "train/model/gpt.h"
#include "train/model/hfconv.h"

int main(int argc, char **argv)
{
    const char *load = NULL, *to = NULL, *from = NULL, *save = NULL;
    tokcli_spec ts = {0};
    const arg_opt opts[] = {
        {"load", 0, ARG_STR, &load, "CKPT", "our checkpoint: a --save directory (its latest), iter_N/ or a model.ckpt"},
        {"to", 0, ARG_STR, &to, "hf", "export format: hf (Hugging Face GPT-2)"},
        {"from", 0, ARG_STR, &from, "hf", "import format: hf"},
        {"save", 0, ARG_STR, &save, "DIR", "with --from: the checkpoint directory to write (iteration 0)"},
        TOKCLI_OPTS(ts),
        {"vocab-size", 0, ARG_INT, &ts.vocab_size, "N", "NullTokenizer (no tokenizer files are written)"},
        {NULL, 0, 0, NULL, NULL, NULL},
    };
    const arg_spec spec = {
        "convert_checkpoint", "--load CKPT --to hf OUT_DIR | --from hf HF_DIR --save CKPT_DIR",
        "Export a checkpoint of ours (written by train in any parallel layout: it is one file) as a\n"
        "Hugging Face GPT-2 directory (config.json, model.safetensors, tokenizer files) that\n"
        "transformers' GPT2LMHeadModel.from_pretrained loads; or import such a directory (fp32, fp16,\n"
        "bf16) as a checkpoint of ours, to continue training from it (fine-tuning: iteration 0, fresh\n"
        "optimizer state). Outputs are built under a temporary name and renamed when complete.",
        opts,
        "Examples:\n"
        "  convert_checkpoint --load ckpt --to hf gpt2-hf\n"
        "  convert_checkpoint --from hf gpt2-hf --save ckpt-ft   # then: train ... --load ckpt-ft\n"};
    char **pos = NULL;
    int npos = 0;
    args_set_version_extra(train_build_info);
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0)
        return rc;
    const char *usage = NULL;
    if ((to != NULL) == (from != NULL))
        usage = "give --to hf or --from hf";
    else if ((to && strcmp(to, "hf")) || (from && strcmp(from, "hf")))
        usage = "the only format is hf";
    else if (to && (!load || npos != 1))
        usage = "--to hf needs --load CKPT and one OUT_DIR";
    else if (from && (!save || npos != 1))
        usage = "--from hf needs one HF_DIR and --save CKPT_DIR";
    if (usage) {
        fprintf(stderr, "convert_checkpoint: %s\nTry 'convert_checkpoint --help'.\n", usage);
        free(pos);
        return EXIT_USAGE;
    }
    gpt_model m;
    memset(&m, 0, sizeof m);
    if (to) {
        char *path = NULL;
        gpt_config cfg;
        ckpt_state st;
        if ((rc = ckpt_resolve(load, &path)) == 1)
            rc = ERR_USAGE;
        if (!rc && !(rc = ckpt_read_header(path, &cfg, &st)) && !(rc = gpt_alloc(&m, &cfg)))
            rc = ckpt_load(path, &m, &st);
        {
            bpe *tok = NULL;
            if (!rc && !(rc = tokcli_open(&tok, &ts)) && (int)bpe_vocab_size(tok) != cfg.vocab_size)
                rc = err_set(ERR_USAGE, "the checkpoint has a vocabulary of %d, the tokenizer %zu: give the one it was "
                             "trained with (--tokenizer-type/--tokenizer-model, or --vocab-file)", cfg.vocab_size,
                             bpe_vocab_size(tok));
            if (!rc)
                rc = hf_export(&m, pos[0], tok, ts.vocab_file ? ts.vocab_file : tokcli_default_vocab(),
                               ts.merge_file ? ts.merge_file : tokcli_default_merges());
            bpe_free(tok);
        }
        if (!rc)
            printf("convert_checkpoint: %s (iteration %llu, %zu parameters) -> %s (Hugging Face GPT-2)\n", path,
                   (unsigned long long)st.iteration, m.num_params, pos[0]);
        free(path);
    } else {
        rc = hf_import(&m, pos[0]);
        ckpt_state st;
        memset(&st, 0, sizeof st);
        st.seed = 1234;
        if (!rc)
            rc = ckpt_save(save, &m, &st);
        if (!rc)
            printf("convert_checkpoint: %s (Hugging Face GPT-2: %d layers, width %d, %d heads, vocab %d, %d "
                   "positions) -> %s/iter_0000000 (iteration 0)\n",
                   pos[0], m.cfg.num_layers, m.cfg.channels, m.cfg.num_heads, m.cfg.vocab_size, m.cfg.max_seq_len,
                   save);
    }
    if (rc)
        fprintf(stderr, "convert_checkpoint: %s\n", err_msg());
    gpt_free(&m);
    free(pos);
    return rc ? err_exit_code(rc) : 0;
}

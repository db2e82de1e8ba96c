/* evaluate_main.c - bin/evaluate: zero-shot multiple-choice scores of a checkpoint
 * (train/evaluate.c: HellaSwag, ARC, PIQA, Winogrande as lm-evaluation-harness scores them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/progress.h"
#include "tokenizer/tokcli.h"
#include "train/build_info.h"
#include "train/evaluate.h"
#include "train/model/ckpt.h"
#include "train/model/gpt.h"

static int cpu_forward(void *arg, const int32_t *in, const int32_t *tg, int B, int T, float *losses)
{
    gpt_model *m = arg;
    float loss;
    int rc = gpt_forward(m, in, tg, B, T, &loss);
    return rc ? rc : gpt_token_losses(m, losses);
}

/* lm-eval's stderr of a mean of 0/1 scores: the sample standard deviation over sqrt(n). */
static double stderr_of(double p, size_t n) { return n > 1 ? sqrt(p * (1 - p) * (double)n / (double)(n - 1) / (double)n) : 0; }

static int write_items(io_writer *w, const mc_task *t)
{
    int rc = 0;
    for (size_t i = 0; i < t->n && !rc; i++) {
        const mc_item *it = &t->v[i];
        cJSON *o = cJSON_CreateObject(), *ll = cJSON_CreateDoubleArray(it->ll, it->nc);
        if (!o || !ll || !cJSON_AddStringToObject(o, "task", t->name) || !cJSON_AddNumberToObject(o, "item", (double)i) ||
            !cJSON_AddItemToObject(o, "loglikelihoods", ll) || !cJSON_AddNumberToObject(o, "gold", it->gold) ||
            !cJSON_AddNumberToObject(o, "pred", it->pred) || !cJSON_AddNumberToObject(o, "pred_norm", it->pred_norm) ||
            !cJSON_AddNumberToObject(o, "truncated", it->truncated)) {
            if (o && ll && !cJSON_GetObjectItem(o, "loglikelihoods"))
                cJSON_Delete(ll);
            cJSON_Delete(o);
            return err_set(ERR_NOMEM, "out of memory");
        }
        rc = jsonl_write(w, o);
        cJSON_Delete(o);
    }
    return rc;
}

int main(int argc, char **argv)
{
    const char *load = NULL, *out = NULL;
    tokcli_spec ts = {0};
    args_list tasks = {0};
    long long batch = 16, limit = 0;
    const arg_opt opts[] = {
        {"load", 0, ARG_STR, &load, "DIR", "checkpoint directory (its latest checkpoint), an iter_N\n"
                                            "                                directory or a model.ckpt file (required)"},
        {"tasks", 0, ARG_LIST, &tasks, "SET", "a task as [NAME=]FILE (JSON lines of HellaSwag, ARC, PIQA or\n"
                                              "                                Winogrande records) or a directory of them; repeatable\n"
                                              "                                (default: the project's data/eval)"},
        {"limit", 0, ARG_INT, &limit, "N", "the first N items of each task (default all)"},
        {"batch-size", 0, ARG_INT, &batch, "N", "requests a forward (default 16)"},
        {"output", 'o', ARG_STR, &out, "FILE", "each item's log-likelihoods, gold and predictions (JSON lines)"},
        TOKCLI_OPTS(ts),
        {"vocab-size", 0, ARG_INT, &ts.vocab_size, "N", "NullTokenizer's vocabulary size"},
        {NULL, 0, 0, NULL, NULL, NULL}};
    arg_spec spec = {"evaluate", "--load DIR [--tasks SET]... [options]",
                     "Score a checkpoint written by train on multiple-choice tasks, zero-shot, as\n"
                     "lm-evaluation-harness does: each choice's log-likelihood as a continuation of its\n"
                     "context; acc (the most likely choice is the gold one) and acc_norm (the same per\n"
                     "character of the choice), with their standard errors and the chance level.",
                     opts,
                     "Example:\n  evaluate --load checkpoints/gpt2-small\n"
                     "  evaluate --load ckpt --tasks hellaswag=hs.jsonl --tasks data/eval/piqa_val.jsonl -o items.jsonl\n"
                     "Exit status: 0 ok, 1 bad input, 2 usage, 3 I/O error."};
    char **pos = NULL;
    int npos = 0;
    args_set_version_extra(train_build_info);
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0)
        return rc;
    free(pos);
    if (!load || npos || batch < 1 || limit < 0) {
        fprintf(stderr, "evaluate: %s\nTry 'evaluate --help'.\n",
                !load ? "--load is required" : npos ? "unexpected positional argument (use --tasks)"
                                                    : "bad value: --batch-size >= 1, --limit >= 0");
        args_list_free(&tasks);
        return EXIT_USAGE;
    }
    char *path = NULL, evdir[4096];
    gpt_config cfg;
    ckpt_state st;
    gpt_model m;
    memset(&m, 0, sizeof m);
    bpe *tok = NULL;
    fs_list files = {0};
    mc_task *tv = NULL;
    size_t nt = 0;
    rc = ckpt_resolve(load, &path);
    if (!rc && !(rc = ckpt_read_header(path, &cfg, &st)) && !(rc = gpt_alloc(&m, &cfg)))
        rc = ckpt_load(path, &m, &st);
    free(path);
    if (!rc)
        rc = tokcli_open(&tok, &ts);
    if (!rc && (int)bpe_vocab_size(tok) != cfg.vocab_size)
        rc = err_set(ERR_USAGE, "the checkpoint has a vocabulary of %d, the tokenizer %zu (give the tokenizer it was "
                                "trained with: --tokenizer-type/--tokenizer-model, or --vocab-file)",
                     cfg.vocab_size, bpe_vocab_size(tok));
    snprintf(evdir, sizeof evdir, "%s/eval", tokcli_data_dir());
    for (size_t i = 0; !rc && i < (tasks.n ? tasks.n : 1); i++) {
        const char *sp = tasks.n ? tasks.items[i] : evdir, *file;
        char *name;
        int named = fs_split_named(sp, &name, &file);
        free(name);
        if (named) { /* NAME=FILE: as it is */
            char **g = realloc(files.paths, (files.n + 1) * sizeof *g);
            if (!g || !(g[files.n] = strdup(sp)))
                rc = err_set(ERR_NOMEM, "out of memory");
            if (g)
                files.paths = g;
            if (!rc)
                files.n++;
        } else {
            rc = fs_expand(&files, sp, fs_jsonl_suffixes);
        }
    }
    if (!rc && !(tv = calloc(files.n ? files.n : 1, sizeof *tv)))
        rc = err_set(ERR_NOMEM, "out of memory");
    for (size_t i = 0; !rc && i < files.n; i++, nt++)
        rc = mc_load(&tv[i], files.paths[i], (size_t)limit);
    mc_scorer sc = {tok, cfg.max_seq_len, (int)batch, 0, cpu_forward, &m};
    progress *pg = progress_new("evaluate", "tasks", 0);
    double t0 = progress_now();
    for (size_t i = 0; !rc && i < nt; i++) {
        rc = mc_score(&sc, &tv[i]);
        progress_update(pg, i + 1, 0);
    }
    progress_done(pg);
    io_writer *w = NULL;
    if (!rc && out && !(rc = io_writer_open(&w, out, NULL))) {
        for (size_t i = 0; !rc && i < nt; i++)
            rc = write_items(w, &tv[i]);
        rc = rc ? (io_writer_abort(w), rc) : io_writer_commit(w);
    }
    if (rc) {
        fprintf(stderr, "evaluate: %s\n", err_msg());
    } else {
        printf("%-22s %6s %8s %8s %8s %8s %7s %s\n", "task", "items", "acc", "stderr", "acc_norm", "stderr", "chance",
               "truncated");
        int near_chance = 1;
        for (size_t i = 0; i < nt; i++) {
            const mc_task *t = &tv[i];
            double chance = 0;
            for (size_t j = 0; j < t->n; j++)
                chance += 1.0 / t->v[j].nc;
            chance /= (double)t->n;
            double se = stderr_of(t->acc, t->n);
            near_chance &= fabs(t->acc - chance) < 3 * se + 1e-9;
            if (t->norm)
                printf("%-22s %6zu %8.4f %8.4f %8.4f %8.4f %7.4f %zu of %zu requests\n", t->name, t->n, t->acc, se,
                       t->acc_norm, stderr_of(t->acc_norm, t->n), chance, t->truncated, t->requests);
            else
                printf("%-22s %6zu %8.4f %8.4f %8s %8s %7.4f %zu of %zu requests\n", t->name, t->n, t->acc, se, "-", "-",
                       chance, t->truncated, t->requests);
        }
        if (nt && near_chance)
            printf("(every acc is within three standard errors of chance: a model this small or this briefly "
                   "trained guesses)\n");
        if (!args_quiet_flag)
            fprintf(stderr, "evaluate: %zu tasks scored in %.1f s (CPU, batch %lld)\n", nt, progress_now() - t0, batch);
    }
    for (size_t i = 0; i < nt; i++)
        mc_free(&tv[i]);
    free(tv);
    fs_list_free(&files);
    args_list_free(&tasks);
    if (tok)
        bpe_free(tok);
    if (m.params)
        gpt_free(&m);
    return rc ? err_exit_code(rc) : 0;
}

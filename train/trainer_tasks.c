/* trainer_tasks.c - --eval-tasks: multiple-choice sets (train/evaluate.h) scored with the
 * model being trained, every --eval-interval and at the end, into the log. Every rank scores
 * every item in the same order (the forward's collectives of tensor parallelism and ZeRO-3
 * keep step), in the training shape [micro-batch, sequence length]; rank 0 logs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/fsutil.h"
#include "tokenizer/tokcli.h"
#include "train/evaluate.h"
#include "train/run.h"

int run_open_tasks(run *r)
{
    const train_args *a = r->a;
    if (!a->n_eval_tasks)
        return 0;
    if (r->d.pp > 1)
        return err_set(ERR_USAGE, "--eval-tasks: scoring runs on one pipeline stage (--pipeline-model-parallel-size 1)");
    tokcli_spec ts = {.type = a->tokenizer_type, .model = a->tokenizer_model, .vocab_file = a->vocab_file,
                      .merge_file = a->merge_file, .tiktoken_pattern = a->tiktoken_pattern,
                      .tiktoken_num_special = a->tiktoken_num_special, .vocab_size = a->vocab_size,
                      .sp_legacy = a->tokenizer_sp_legacy};
    int rc = tokcli_open(&r->etok, &ts);
    fs_list files = {0};
    for (int i = 0; !rc && i < a->n_eval_tasks; i++) {
        const char *sp = a->eval_tasks[i], *file;
        char *name;
        int named = fs_split_named(sp, &name, &file);
        free(name);
        if (named) { /* NAME=FILE: as it is */
            char **g = realloc(files.paths, (files.n + 1) * sizeof *g);
            if (g)
                files.paths = g;
            if (!g || !(g[files.n] = strdup(sp)))
                rc = err_set(ERR_NOMEM, "out of memory");
            else
                files.n++;
        } else {
            rc = fs_expand(&files, sp, fs_jsonl_suffixes);
        }
    }
    if (!rc && !(r->etask = calloc(files.n, sizeof *r->etask)))
        rc = err_set(ERR_NOMEM, "out of memory");
    for (size_t i = 0; !rc && i < files.n; i++, r->netask++)
        rc = mc_load(&r->etask[i], files.paths[i], (size_t)a->eval_tasks_limit);
    if (!rc && !(r->eloss = malloc((size_t)r->mbs * (size_t)r->L * sizeof *r->eloss)))
        rc = err_set(ERR_NOMEM, "out of memory");
    fs_list_free(&files);
    if (rc)
        err_set(rc, "--eval-tasks: %s", err_msg());
    return rc;
}

void run_close_tasks(run *r)
{
    for (size_t i = 0; i < r->netask; i++)
        mc_free(&r->etask[i]);
    free(r->etask);
    free(r->eloss);
    if (r->etok)
        bpe_free(r->etok);
    r->etask = NULL;
    r->netask = 0;
    r->etok = NULL;
    r->eloss = NULL;
}

static int task_forward(void *arg, const int32_t *in, const int32_t *tg, int B, int T, float *losses)
{
    run *r = arg;
    float l;
    int rc = r->be.ops->forward(&r->be, in, tg, B, T, &l);
    return rc ? rc : gpt_token_losses(&r->m, losses);
}

int run_score_tasks(run *r, int final)
{
    if (!r->netask)
        return 0;
    mc_scorer sc = {r->etok, r->L, r->mbs, 1, task_forward, r};
    int rc = 0;
    for (size_t i = 0; i < r->netask && !rc; i++)
        rc = mc_score(&sc, &r->etask[i]);
    if (rc || r->d.world_rank != 0)
        return rc;
    printf(" task scores%s at iteration %llu (zero-shot):", final ? " at the end of training" : "",
           (unsigned long long)r->st.iteration);
    for (size_t i = 0; i < r->netask; i++) {
        const mc_task *t = &r->etask[i];
        printf("%s %s acc %.4f", i ? " |" : "", t->name, t->acc);
        if (t->norm)
            printf(" acc_norm %.4f", t->acc_norm);
    }
    printf("\n");
    fflush(stdout);
    if (!r->json && r->json_path)
        r->json = fopen(r->json_path, "a");
    if (r->json) {
        fprintf(r->json, "{\"iteration\":%llu,\"tasks\":{", (unsigned long long)r->st.iteration);
        for (size_t i = 0; i < r->netask; i++) {
            const mc_task *t = &r->etask[i];
            fprintf(r->json, "%s\"%s\":{\"items\":%zu,\"acc\":%.6g", i ? "," : "", t->name, t->n, t->acc);
            if (t->norm)
                fprintf(r->json, ",\"acc_norm\":%.6g", t->acc_norm);
            fprintf(r->json, ",\"truncated\":%zu}", t->truncated);
        }
        fprintf(r->json, "}%s}\n", final ? ",\"final\":true" : "");
        fflush(r->json);
    }
    return 0;
}

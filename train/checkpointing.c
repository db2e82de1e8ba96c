/* checkpointing.c - the run's checkpoints (Megatron's checkpointing.py): one
 * file holding the whole model and its moments whatever the layout that saved
 * it (train/model/ckpt.h writes and reads it), gathered from the ranks' parts
 * on saving and sliced into them on loading. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/err.h"
#include "common/progress.h"
#include "train/run.h"

/* The whole model's parameters and moments (no gradients): what a checkpoint holds. */
static int whole_alloc(gpt_model *w, const gpt_config *cfg)
{
    memset(w, 0, sizeof *w);
    w->cfg = *cfg;
    w->num_params = gpt_num_params(cfg);
    w->params = malloc(w->num_params * sizeof(float));
    w->adam_m = calloc(w->num_params, sizeof(float));
    w->adam_v = calloc(w->num_params, sizeof(float));
    if (!w->params || !w->adam_m || !w->adam_v)
        return err_set(ERR_NOMEM, "out of memory for the whole model (%zu parameters)", w->num_params);
    return 0;
}

static void whole_free(gpt_model *w)
{
    free(w->params);
    free(w->adam_m);
    free(w->adam_v);
    memset(w, 0, sizeof *w);
}

/* A sharded optimizer's moments are gathered over the data group, tensor
 * slices over the tensor group; rank 0 writes the single-file checkpoint and
 * every rank learns whether it succeeded. */
int checkpoint_save(run *r)
{
    if (!r->a->save)
        return 0;
    double t0 = progress_now();
    r->be.ops->sync_host(&r->be);
    int rc = 0;
    float *fm = NULL, *fv = NULL, *fp = NULL;
    gpt_model w, view = r->m;
    memset(&w, 0, sizeof w);
    const gpt_model *out = &r->m;
    if (r->dp.zero) {
        fm = malloc(r->m.num_params * sizeof *fm);
        fv = malloc(r->m.num_params * sizeof *fv);
        rc = !fm || !fv ? err_set(ERR_NOMEM, "out of memory gathering the optimizer state") : ddp_gather_moments(&r->dp, fm, fv);
        view.adam_m = fm;
        view.adam_v = fv;
        out = &view;
    }
    if (!rc && r->dp.zero == 3) {
        /* ZeRO-3: the parameters too are in shards */
        fp = malloc(r->m.num_params * sizeof *fp);
        rc = !fp ? err_set(ERR_NOMEM, "out of memory gathering the parameters") : ddp_gather_params(&r->dp, fp);
        view.params = fp;
    }
    if (!rc && (r->m.tp > 1 || r->m.pp > 1)) {
        rc = whole_alloc(&w, &r->m.cfg);
        if (!rc)
            rc = gpt_part_gather(&r->m, view.params, w.params);
        if (!rc)
            rc = gpt_part_gather(&r->m, view.adam_m, w.adam_m);
        if (!rc)
            rc = gpt_part_gather(&r->m, view.adam_v, w.adam_v);
        out = &w;
    }
    if (!rc && r->d.world_rank == 0)
        rc = ckpt_save(r->a->save, out, &r->st);
    whole_free(&w);
    free(fm);
    free(fv);
    free(fp);
    int64_t failed = rc != 0;
    if (dist_allreduce_max_i64(&r->d, &r->d.world, &failed, 1) == 0 && failed && !rc)
        rc = err_set(ERR_IO, "rank 0 could not save the checkpoint");
    if (rc) {
        fprintf(stderr, "train: saving checkpoint: %s\n", err_msg());
        return rc;
    }
    printf("  successfully saved checkpoint at iteration %7llu to %s (%.2f s)\n", (unsigned long long)r->st.iteration,
           r->a->save, progress_now() - t0);
    fflush(stdout);
    return 0;
}

/* The line saying what was loaded, and from which layout into which. */
static void print_loaded(const run *r, const char *path)
{
    printf(" loaded checkpoint %s at iteration %llu (consumed samples %llu)", path,
           (unsigned long long)r->st.iteration, (unsigned long long)r->st.consumed_train);
    const uint32_t *lay = r->st.layout;
    if (lay[0]) {
        char chunks[48] = "";
        if (lay[3] > 1)
            snprintf(chunks, sizeof chunks, " (%u chunks per stage)", lay[3]);
        printf(", saved at tensor %u x pipeline %u%s x data %u, ZeRO stage %u%s; loaded into tensor %d x "
               "pipeline %d x data %d",
               lay[0], lay[1], chunks, lay[2], lay[4], lay[5] ? ", sequence parallel" : "", r->d.tp, r->d.pp, r->d.dp);
    }
    printf("\n");
}

int checkpoint_load(run *r, int *resumed)
{
    const train_args *a = r->a;
    *resumed = 0;
    char *path = NULL;
    struct stat lst;
    int rc;
    if (stat(a->load, &lst) != 0 && errno == ENOENT && a->save && !strcmp(a->load, a->save))
        rc = 1; /* --load X --save X on a first run (a requeued job's idiom): nothing yet */
    else
        rc = ckpt_find_latest(a->load, &path);
    if (rc < 0)
        return rc;
    if (rc == 1) {
        fprintf(stderr, "note: --load %s: no latest_checkpointed_iteration.txt there; starting from scratch\n", a->load);
        return 0;
    }
    if (r->m.tp > 1 || r->m.pp > 1) {
        /* Load the whole model, keep this rank's part. */
        gpt_model whole;
        rc = whole_alloc(&whole, &r->m.cfg);
        if (!rc)
            rc = ckpt_load(path, &whole, &r->st);
        if (!rc) {
            gpt_part_slice(&r->m, whole.params, r->m.params);
            gpt_part_slice(&r->m, whole.adam_m, r->m.adam_m);
            gpt_part_slice(&r->m, whole.adam_v, r->m.adam_v);
        }
        whole_free(&whole);
    } else {
        rc = ckpt_load(path, &r->m, &r->st);
    }
    if (rc) {
        free(path);
        return rc;
    }
    if (r->st.seq_length != (uint64_t)r->L || r->st.global_batch != (uint64_t)r->gbs ||
        r->st.seed != (uint64_t)a->seed)
        fprintf(stderr, "note: %s was trained with --seq-length %llu --global-batch-size %llu --seed %llu; "
                        "continuing with %d / %lld / %lld changes the sample order\n",
                path, (unsigned long long)r->st.seq_length, (unsigned long long)r->st.global_batch,
                (unsigned long long)r->st.seed, r->L, r->gbs, a->seed);
    print_loaded(r, path);
    free(path);
    *resumed = 1;
    return 0;
}

/* trainer.c - the training loop (see trainer.h): each iteration runs the
 * global batch's micro-batches (through the pipeline schedule with pipeline
 * stages), reduces the gradients, takes the optimizer step or skips it, then
 * logs, evaluates, saves and stops as asked. Setup is in trainer_setup.c,
 * logging in trainer_log.c, checkpoints in checkpointing.c (run.h). */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/progress.h"
#include "train/distributed/schedules.h"
#include "train/run.h"


double train_lr_at(const train_args *a, int64_t it)
{
    double warm = (double)a->lr_warmup_iters, decay = (double)(a->lr_decay_iters ? a->lr_decay_iters : a->train_iters);
    if (a->lr_warmup_fraction > 0)
        warm = a->lr_warmup_fraction * decay;
    double n = (double)it;
    if (warm > 0 && n <= warm)
        return a->lr * n / warm;
    if (!strcmp(a->lr_decay_style, "constant"))
        return a->lr;
    if (n > decay)
        return a->min_lr;
    if (decay <= warm)
        return a->min_lr;
    double ratio = (n - warm) / (decay - warm);
    double coeff = !strcmp(a->lr_decay_style, "cosine") ? 0.5 * (cos(M_PI * ratio) + 1.0) : 1.0 - ratio;
    return a->min_lr + coeff * (a->lr - a->min_lr);
}

/* Fill in/tg [mbs, L] with samples first.. of a split. 0 or ERR_FORMAT on a
 * token outside the vocabulary. */
int run_get_batch(run *r, int split, uint64_t first, int mbs)
{
    int L = (int)r->a->seq_length;
    for (int j = 0; j < mbs; j++) {
        uint64_t idx = (first + (uint64_t)j) % (uint64_t)r->data.size[split];
        gptdata_get(&r->data, split, (int64_t)idx, r->tok);
        for (int t = 0; t <= L; t++)
            if (r->tok[t] < 0 || r->tok[t] >= r->V)
                return err_set(ERR_FORMAT,
                               "%s split sample %llu holds token id %d, outside the vocabulary of %d (--vocab-file); "
                               "was the dataset made with another tokenizer?",
                               split == 0 ? "train" : split == 1 ? "valid" : "test", (unsigned long long)idx,
                               r->tok[t], r->V);
        memcpy(r->in + (size_t)j * L, r->tok, (size_t)L * 4);
        memcpy(r->tg + (size_t)j * L, r->tok + 1, (size_t)L * 4);
    }
    return 0;
}

/* ---- pipeline stages ------------------------------------------------------
 * Stage s of pp sends its output activations [mbs, L, C] to s+1 and the
 * gradient of its input back to s-1, inside the pipeline group; the schedules
 * are in train/distributed/schedules.c. */

/* Whether the model chunk in use is the first or the last of the whole (virtual) pipeline. */
static int first_virtual(const run *r) { return pp_first_virtual(&r->d, &r->m); }
static int last_virtual(const run *r) { return pp_last_virtual(&r->d, &r->m, r->vpp); }

/* Forward of micro-batch `slot` on this stage's chunk in use (input x_in unless
 * it is the first); adds the loss / div on the last. */
static int stage_forward(run *r, int split, uint64_t first, int slot, const floatX *x_in, double div, double *loss)
{
    int mbs = (int)r->a->micro_batch_size, L = (int)r->a->seq_length;
    int rc = run_get_batch(r, split, first, mbs);
    if (!rc)
        rc = gpt_use_slot(&r->m, slot);
    if (rc)
        return rc;
    float l;
    if ((rc = gpt_forward_stage(&r->m, r->in, r->tg, first_virtual(r) ? NULL : x_in, mbs, L, &l)))
        return rc;
    if (last_virtual(r))
        *loss += l / div; /* div: micro-batches of the global batch, as without a pipeline */
    return 0;
}

/* First sample of micro-batch k of this data-parallel rank (Megatron's sampler). */
static uint64_t micro_first(const run *r, uint64_t base, long long k)
{
    long long mbs = r->a->micro_batch_size;
    return base + (uint64_t)(k * mbs * r->d.dp + (long long)r->d.dp_rank * mbs);
}

/* The pipeline schedules (train/distributed/schedules.c) reach the data through
 * this: micro-batch b of the step starting at sample `base`. */
typedef struct {
    run *r;
    uint64_t base;
} step_fwd;

static int step_forward(void *ctx, long long b, int slot, const floatX *x_in, double div, double *loss)
{
    step_fwd *f = ctx;
    return stage_forward(f->r, GPTDATA_TRAIN, micro_first(f->r, f->base, b), slot, x_in, div, loss);
}

static pp_sched sched_of(run *r, step_fwd *f, double loss_scale)
{
    pp_sched p = {.d = &r->d, .m = &r->m, .pipe = &r->c_pipe, .emb = &r->c_emb, .vpp = r->vpp, .act_bytes = r->stage_bytes, .xrecv = r->xrecv,
                  .grecv = r->grecv, .forward = step_forward, .ctx = f, .loss_scale = loss_scale};
    return p;
}

/* Mean loss over eval_iters global batches of a split, from *pos on; the
 * micro-batches are shared among the data-parallel ranks as in training, and
 * flow through the pipeline stages. */
int run_evaluate(run *r, int split, uint64_t *pos, double *loss)
{
    const train_args *a = r->a;
    int mbs = (int)a->micro_batch_size, L = (int)a->seq_length, dp = r->d.dp;
    long long nmicro = a->eval_iters * (a->global_batch_size / mbs);
    double s = 0;
    int rc = 0;
    for (long long k = 0; k < nmicro / dp && !rc; k++) {
        uint64_t f = micro_first(r, *pos, k);
        if (r->d.pp == 1) {
            if ((rc = run_get_batch(r, split, f, mbs)))
                return rc;
            float l;
            if ((rc = r->be.ops->forward(&r->be, r->in, r->tg, mbs, L, &l)))
                return rc;
            s += l;
            continue;
        }
        /* through the stages, and with an interleaved pipeline through each stage's chunks in turn
         * (the last stage's output goes on to the first stage's next chunk) */
        int S = r->d.pp;
        for (int c = 0; c < r->vpp && !rc; c++) {
            if ((rc = gpt_use_chunk(&r->m, c)))
                break;
            if (!first_virtual(r))
                rc = comm_sendrecv(&r->c_pipe, NULL, 0, -1, r->xrecv, r->stage_bytes, (r->d.pp_rank + S - 1) % S,
                                   PP_TAG_PIPE);
            if (!rc)
                rc = stage_forward(r, split, f, 0, r->xrecv, 1.0, &s);
            if (!rc && !last_virtual(r))
                rc = comm_sendrecv(&r->c_pipe, gpt_stage_output(&r->m), r->stage_bytes, (r->d.pp_rank + 1) % S, NULL,
                                   0, -1, PP_TAG_PIPE);
        }
    }
    *pos += (uint64_t)(nmicro * mbs);
    if (!rc && r->d.pp > 1)
        rc = dist_allreduce_f64(&r->d, &r->d.pipeline, &s, 1);
    if (!rc)
        rc = dist_allreduce_f64(&r->d, &r->d.data, &s, 1);
    *loss = s / (double)nmicro;
    return rc;
}

/* One iteration's gradients: this rank's micro-batches, forward and backward
 * (through the pipeline schedule with several stages), then reduced over the
 * ranks that share them; *loss the global batch's mean, *norm the gradients'. */
static int forward_backward(run *r, uint64_t it, double *loss, double *norm)
{
    double lscale = r->scaler.scale;
    long long nmicro_rank = r->nmicro / r->d.dp;
    int rc;
    r->be.ops->zero_grad(&r->be);
    *loss = 0;
    if (r->d.pp > 1) {
        step_fwd sf = {r, r->st.consumed_train};
        pp_sched ps = sched_of(r, &sf, lscale);
        if ((rc = r->vpp > 1 ? pp_forward_backward_interleaved(&ps, nmicro_rank, loss)
                             : pp_forward_backward_1f1b(&ps, nmicro_rank, loss)))
            return rc;
    }
    for (long long k = 0; r->d.pp == 1 && k < nmicro_rank; k++) {
        float l;
        if ((rc = run_get_batch(r, GPTDATA_TRAIN, micro_first(r, r->st.consumed_train, k), r->mbs)) ||
            (rc = r->be.ops->forward(&r->be, r->in, r->tg, r->mbs, r->L, &l)))
            return rc;
        *loss += l / (double)r->nmicro;
        r->m.grad_last = k == nmicro_rank - 1; /* ZeRO-0's overlap reduces in the last backward */
        r->be.ops->backward(&r->be, (float)(lscale / (double)r->nmicro));
    }
    r->m.grad_last = 0;
    if (r->hooks.fail_rank == r->d.world_rank && r->hooks.fail_iter == (long long)it)
        return err_set(ERR_INTERNAL, "failure injected at iteration %llu (WEBTEXT_TRAIN_FAIL_AT)", (unsigned long long)it);
    char key[32];
    snprintf(key, sizeof key, ",%llu,", (unsigned long long)it);
    if (r->hooks.nan_iters[0] && strstr(r->hooks.nan_iters, key))
        train_backend_poison_grad(&r->be);
    if ((rc = r->be.ops->reduce(&r->be, loss, norm)))
        return rc;
    *norm /= lscale;
    return 0;
}

/* AdamW on the reduced gradients (the loss scale undone and clipping in one
 * factor), or the step skipped: an fp16 overflow moves the loss scale; a
 * non-finite loss or norm counts toward --max-consecutive-skips, which saves
 * and stops the run with status 1 (*stop). */
static int optimizer_step(run *r, uint64_t it, double lr, double loss, double norm, int *stop)
{
    const train_args *a = r->a;
    if (a->fp16 && isfinite(loss) && !isfinite(norm)) {
        if (!a->quiet)
            fprintf(stderr, "train: iteration %llu: fp16 gradients overflowed at loss scale %g; step skipped\n",
                    (unsigned long long)it, r->scaler.scale);
        grad_scaler_overflow(&r->scaler);
        r->st.skipped_iters++;
        r->log.skipped++;
        return 0;
    }
    if (!isfinite(loss) || !isfinite(norm)) {
        r->st.skipped_iters++;
        r->log.skipped++;
        r->log.nan++;
        fprintf(stderr, "train: iteration %llu: %s (loss %g, grad norm %g); step skipped, parameters unchanged\n",
                (unsigned long long)it, isfinite(loss) ? "non-finite gradient norm" : "non-finite loss", loss, norm);
        if (++r->consecutive_skips >= a->max_consecutive_skips) {
            fprintf(stderr, "train: %lld consecutive iterations were skipped (--max-consecutive-skips); stopping "
                            "at iteration %llu. Lower --lr or check the data.\n",
                    r->consecutive_skips, (unsigned long long)it);
            checkpoint_save(r);
            *stop = EXIT_DATA;
        }
        return 0;
    }
    r->consecutive_skips = 0;
    r->st.adam_step++;
    double gs = 1.0 / r->scaler.scale;
    if (a->clip_grad > 0 && norm > a->clip_grad)
        gs *= a->clip_grad / (norm + 1e-6);
    int rc = r->be.ops->step(&r->be, (float)gs, (float)lr, (float)a->adam_beta1, (float)a->adam_beta2,
                             (float)a->adam_eps, (float)a->weight_decay, (int64_t)r->st.adam_step);
    if (rc)
        return rc;
    grad_scaler_step(&r->scaler);
    log_add_step(&r->log, loss, norm);
    return 0;
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND; /* a second signal kills at once */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
}

/* Evaluate a split from *pos on and hand the loss to the log (Megatron's block, a JSON record). */
static int evaluate(run *r, int split, uint64_t *pos, const char *what, const char *key, int final)
{
    double loss;
    int rc = run_evaluate(r, split, pos, &loss);
    if (rc == 0)
        log_eval(r, loss, what, key, final);
    return rc;
}

/* After an iteration: evaluation every --eval-interval, a checkpoint every
 * --save-interval, then a stop on a signal (saved; status 0, or 3 if the save
 * failed) or at --exit-interval (saved). *stop: 0 to go on, else the exit
 * status plus one. */
static int after_step(run *r, uint64_t it, int *stop)
{
    const train_args *a = r->a;
    int rc;
    if (a->eval_iters > 0 && r->data.size[1] > 0 && it % (uint64_t)a->eval_interval == 0) {
        char what[64];
        snprintf(what, sizeof what, "validation loss at iteration %llu", (unsigned long long)it);
        if ((rc = evaluate(r, GPTDATA_VALID, &r->st.consumed_valid, what, "val", 0)))
            return rc;
    }
    if (r->netask && it % (uint64_t)a->eval_interval == 0 && it != (uint64_t)a->train_iters &&
        (rc = run_score_tasks(r, 0)))
        return rc;
    int last = it == (uint64_t)a->train_iters;
    int want_save = a->save_interval && it % (uint64_t)a->save_interval == 0;
    int exiting = a->exit_interval && it % (uint64_t)a->exit_interval == 0 && !last;
    /* A signal may reach some ranks only: they agree, so all save and stop together.
     * The decision is the agreed snapshot, never the flag itself: a signal that lands
     * while the ranks agree (after this rank's snapshot) stays pending for the next
     * iteration, where every rank sees it; writing the result back into the flag
     * would lose it (the 1-in-4 flake of sigterm_one_rank). */
    int64_t sig = stop_signal;
    if (r->d.world_size > 1 && (rc = dist_allreduce_max_i64(&r->d, &r->d.world, &sig, 1)))
        return rc;
    if (sig) {
        if (r->d.world_rank == 0)
            fprintf(stderr, "train: received %s at iteration %llu: saving a checkpoint and exiting\n",
                    sig == SIGTERM ? "SIGTERM" : "SIGINT", (unsigned long long)it);
        if (!a->save && r->d.world_rank == 0)
            fprintf(stderr, "train: no --save directory given; nothing saved\n");
        *stop = 1 + (checkpoint_save(r) ? EXIT_IO : 0);
        return 0;
    }
    if ((want_save || exiting) && checkpoint_save(r)) {
        *stop = 1 + EXIT_IO;
        return 0;
    }
    if (exiting) {
        printf(" exiting program at iteration %llu (--exit-interval %lld)\n", (unsigned long long)it, a->exit_interval);
        log_peak_memory(r);
        *stop = 1;
    }
    return 0;
}

/* The end of training: the last checkpoint (unless just saved), the final
 * validation and test losses, the peak memory. */
static int finish(run *r)
{
    const train_args *a = r->a;
    int status = 0, rc;
    if (a->save && !(a->save_interval && r->st.iteration % (uint64_t)a->save_interval == 0) && checkpoint_save(r))
        status = EXIT_IO;
    uint64_t test_pos = 0;
    if (a->eval_iters > 0 && r->data.size[1] > 0 &&
        (rc = evaluate(r, GPTDATA_VALID, &r->st.consumed_valid, "validation loss at the end of training for val data",
                       "val", 1)))
        return run_fail(r, rc);
    if (a->eval_iters > 0 && r->data.size[2] > 0 &&
        (rc = evaluate(r, GPTDATA_TEST, &test_pos, "validation loss at the end of training for test data", "test", 1)))
        return run_fail(r, rc);
    if ((rc = run_score_tasks(r, 1)))
        return run_fail(r, rc);
    log_peak_memory(r);
    return status;
}

int trainer_run(train_args *a)
{
    run R, *r = &R;
    int rc = run_open(r, a), stop = 0;
    if (rc)
        return run_close(r, run_fail(r, rc));
    catch_stop_signals();
    while (!rc && !stop && r->st.iteration < (uint64_t)a->train_iters) {
        uint64_t it = r->st.iteration + 1, bytes0 = r->d.bytes_sent;
        double lr = train_lr_at(a, (int64_t)r->st.iteration), t0 = progress_now(), scale = r->scaler.scale;
        double loss, norm;
        if ((rc = forward_backward(r, it, &loss, &norm)))
            break;
        r->st.consumed_train += (uint64_t)r->gbs;
        r->st.iteration = it;
        int diverged = 0;
        if ((rc = optimizer_step(r, it, lr, loss, norm, &diverged)))
            break;
        if (diverged) {
            log_peak_memory(r);
            return run_close(r, diverged);
        }
        r->log.time += progress_now() - t0;
        if (it % (uint64_t)a->log_interval == 0 || it == (uint64_t)a->train_iters)
            log_report(r, it, lr, scale, r->d.bytes_sent - bytes0);
        rc = after_step(r, it, &stop);
        if (r->profile && it == 1 && a->train_iters > 1) {
            /* the profile describes the steady step: the first iteration's set-up left out */
            gpt_ops_profile_reset();
            comm_profile_reset();
        }
    }
    if (rc)
        return run_close(r, run_fail(r, rc));
    return run_close(r, stop ? stop - 1 : finish(r));
}

/* trainer_log.c - what a run reports: Megatron's iteration line and evaluation
 * block on stdout, the same figures as JSON lines (--log-json), and the peak
 * memory at the end. One rank logs (its stdout is the only one kept). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "train/run.h"

void log_add_step(log_interval *l, double loss, double norm)
{
    l->loss += loss;
    l->n++;
    l->last_norm = norm;
}

static void timestamp(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm);
}

/* Open the JSON log on first use (append); the first record states the
 * unigram entropy and the model size. */
static void json_open(run *r)
{
    if (r->json || !r->json_path)
        return;
    r->json = fopen(r->json_path, "a");
    if (!r->json) {
        fprintf(stderr, "note: --log-json %s: %s; JSON log off\n", r->json_path, strerror(errno));
        r->json_path = NULL;
        return;
    }
    fprintf(r->json, "{\"iteration\":%llu,\"unigram_entropy\":%.9g,\"parameters\":%zu}\n",
            (unsigned long long)r->st.iteration, r->unigram, r->m.num_params);
}

void log_report(run *r, uint64_t it, double lr, double used_scale, uint64_t comm)
{
    const train_args *a = r->a;
    log_interval *l = &r->log;
    long long iters = l->n + l->skipped;
    double ms = iters ? l->time * 1000 / (double)iters : 0;
    double tok_s = ms > 0 ? (double)r->gbs * r->L / (ms / 1000) : 0;
    double tflops = tok_s * r->flops_tok / 1e12;
    double lm = l->n ? l->loss / (double)l->n : NAN;
    char ts_buf[32];
    timestamp(ts_buf, sizeof ts_buf);
    printf(" [%s] iteration %8llu/%8lld | consumed samples: %12llu | elapsed time per iteration (ms): %.1f | "
           "throughput per GPU (TFLOP/s/GPU): %.3f | tokens per second: %.0f | MFU: %.1f%% | "
           "learning rate: %.6E | global batch size: %5lld | lm loss: %.6E | loss scale: %.1f | "
           "grad norm: %.3f | number of skipped iterations: %3lld | number of nan iterations: %3lld |",
           ts_buf, (unsigned long long)it, a->train_iters, (unsigned long long)r->st.consumed_train, ms,
           tflops / r->d.world_size, tok_s, 100 * tflops / (r->peak * r->d.world_size), lr, r->gbs, lm, used_scale,
           l->last_norm, l->skipped, l->nan);
    if (r->d.world_size > 1)
        printf(" communication per rank (MB): %.3f |", (double)comm / 1e6);
    printf("\n");
    fflush(stdout);
    json_open(r);
    if (r->json) {
        /* JSON has no NaN: an interval whose steps were all skipped has no loss */
        char lms[32] = "null", mfus[32] = "null";
        double mfu = tflops / (r->peak * r->d.world_size);
        if (isfinite(lm))
            snprintf(lms, sizeof lms, "%.9g", lm);
        if (isfinite(mfu))
            snprintf(mfus, sizeof mfus, "%.6f", mfu);
        fprintf(r->json,
                "{\"iteration\":%llu,\"consumed_samples\":%llu,\"lm_loss\":%s,\"grad_norm\":%.9g,"
                "\"learning_rate\":%.9g,\"ms_per_iter\":%.3f,\"tokens_per_s\":%.1f,\"tflops\":%.6f,"
                "\"mfu\":%s,\"skipped\":%lld,\"comm_bytes\":%llu}\n",
                (unsigned long long)it, (unsigned long long)r->st.consumed_train, lms, l->last_norm, lr, ms, tok_s,
                tflops, mfus, l->skipped, (unsigned long long)comm);
        fflush(r->json);
    }
    l->loss = l->time = 0;
    l->n = l->skipped = l->nan = 0;
}

static void print_eval(const char *what, double loss)
{
    char line[512];
    int n = snprintf(line, sizeof line, " %s | lm loss value: %.6E | lm loss PPL: %.6E | ", what, loss,
                     exp(loss < 700 ? loss : 700));
    char dash[512];
    memset(dash, '-', (size_t)n);
    dash[n] = 0;
    printf("%s\n%s\n%s\n", dash, line, dash);
    fflush(stdout);
}

void log_eval(run *r, double loss, const char *what, const char *key, int final)
{
    print_eval(what, loss);
    json_open(r);
    if (r->json) {
        fprintf(r->json, "{\"iteration\":%llu,\"%s_loss\":%.9g,\"%s_ppl\":%.9g%s}\n",
                (unsigned long long)r->st.iteration, key, loss, key, exp(loss < 700 ? loss : 700),
                final ? ",\"final\":true" : "");
        fflush(r->json);
    }
}

/* Peak resident memory of this process (VmHWM), in bytes; 0 if unknown. */
static int64_t peak_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %lld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return (int64_t)kb * 1024;
}

/* WEBTEXT_PROFILE=1, rank 0: the time per operation, then the step's time split into
 * compute, communication (collectives; point to point, which holds a pipeline's waits
 * for its neighbour) and the rest, beside the schedule's own bubble, so that the cost
 * on nodes with a GPU per rank can be projected from ranks sharing one. */
static void log_profile_split(run *r)
{
    gpt_ops_profile_report(stdout);
    double ops, span, cs[2];
    long cc[2];
    gpt_ops_profile_totals(&ops, &span);
    comm_profile_get(cs, cc);
    double other = span - ops - cs[0] - cs[1], pct = span > 0 ? 100.0 / span : 0;
    printf("> profile split (rank 0): compute %.1f ms (%.1f %%), collectives %.1f ms in %ld calls (%.1f %%), point to "
           "point %.1f ms in %ld calls (%.1f %%: transfers and waits for the next or previous stage), other %.1f ms "
           "(%.1f %%: data, host, syncs)\n",
           ops * 1e3, ops * pct, cs[0] * 1e3, cc[0], cs[0] * pct, cs[1] * 1e3, cc[1], cs[1] * pct, other * 1e3,
           other * pct);
    if (r->d.pp > 1) {
        long long m = r->nmicro / r->d.dp;
        int p = r->d.pp, v = r->vpp > 1 ? r->vpp : 1;
        printf("> pipeline bubble of the schedule: (p - 1) / (v m + p - 1) = %.1f %% of a step (p %d stages, v %d "
               "chunks, m %lld micro-batches)\n",
               100.0 * (p - 1) / ((double)v * m + p - 1), p, v, m);
    }
}

/* Every rank: the peak host memory of rank 0 and of the largest rank, as
 * measured, beside the per-rank figures printed at start. */
void log_peak_memory(run *r)
{
    if (r->profile && r->d.world_rank == 0)
        log_profile_split(r);
    int64_t v[2] = {peak_rss(), 0};
    v[1] = v[0];
    int rc = dist_allreduce_max_i64(&r->d, &r->d.world, v + 1, 1);
    if (!rc && v[0] > 0)
        printf("> peak host memory (VmHWM): %.1f MB on rank 0, %.1f MB on the largest rank\n", (double)v[0] / 1e6,
               (double)v[1] / 1e6);
    fflush(stdout);
}

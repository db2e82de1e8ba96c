/* trainer.c - the training loop (see trainer.h): data, schedule, logging in
 * Megatron's layout plus JSON lines, evaluation, checkpoints, signals. */
#include "train/cpu/precision.h"
#include "train/trainer.h"
#include "train/cpu/blas.h"
#include "train/parallel/schedules.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/err.h"
#include "common/progress.h"
#include "tokenizer/tokcli.h"
#include "train/backend.h"
#include "train/model/ckpt.h"
#include "train/parallel/ddp.h"
#include "train/parallel/dist.h"
#include "train/model/gpt.h"
#include "train/data/gptdata.h"
#include "train/cuda/gpt_cuda.h" /* declarations only: the functions exist with WEBTEXT_CUDA */
#ifdef WEBTEXT_NCCL
#include "train/parallel/nccl.h"
#endif

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

void train_args_defaults(train_args *a)
{
    memset(a, 0, sizeof *a);
    a->make_vocab_size_divisible_by = 128;
    a->init_method_std = 0.02;
    a->micro_batch_size = 1;
    a->lr = 3e-4;
    a->lr_decay_style = "linear";
    a->weight_decay = 0.01;
    a->adam_beta1 = 0.9;
    a->adam_beta2 = 0.999;
    a->adam_eps = 1e-8;
    a->clip_grad = 1.0;
    a->seed = 1234;
    a->split = "969, 30, 1";
    a->eval_interval = 1000;
    a->eval_iters = 100;
    a->log_interval = 100;
    a->max_consecutive_skips = 10;
    a->device = NULL; /* cuda when built with it and a GPU is present, else cpu */
    a->initial_loss_scale = 4294967296.0;
    a->min_loss_scale = 1.0;
    a->loss_scale_window = 1000;
    a->hysteresis = 2;
    a->tensor_parallel = a->pipeline_parallel = 1;
    a->zero_stage = -1;
}

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

/* Peak fp32 FLOP/s of this CPU: threads x clock x FLOP/cycle (2 FMA units of
 * the widest vector: 64 with AVX-512, 32 with AVX2, 8 otherwise). */
static double cpu_peak_tflops(int threads, char *desc, size_t n)
{
    double mhz = 0;
    int flops = 8;
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        if (!mhz && !strncmp(line, "cpu MHz", 7)) {
            char *c = strchr(line, ':');
            if (c)
                mhz = atof(c + 1);
        }
        if (!strncmp(line, "flags", 5)) {
            if (strstr(line, " avx512f"))
                flops = 64;
            else if (strstr(line, " avx2") && strstr(line, " fma") && flops < 32)
                flops = 32;
        }
    }
    if (f)
        fclose(f);
    if (mhz <= 0)
        mhz = 2000;
    snprintf(desc, n, "%d threads x %.2f GHz x %d FLOP/cycle", threads, mhz / 1000, flops);
    return threads * mhz * 1e6 * flops / 1e12;
}

/* Parse --data-path: "a" or "w1 a w2 b ...". */
static int parse_data_path(const train_args *a, const char ***paths, double **weights, int *n)
{
    int k = a->n_data_path;
    if (k == 0)
        return err_set(ERR_USAGE, "--data-path is required (a prefix of PREFIX.bin/PREFIX.idx, e.g. data/build/corpus_text_document)");
    char *end;
    strtod(a->data_path[0], &end);
    int weighted = *end == 0 && end != a->data_path[0] && k > 1;
    if (weighted && k % 2)
        return err_set(ERR_USAGE, "--data-path: weighted form is 'W1 PREFIX1 W2 PREFIX2 ...', got %d items", k);
    *n = weighted ? k / 2 : k;
    *paths = calloc((size_t)*n, sizeof **paths);
    *weights = calloc((size_t)*n, sizeof **weights);
    if (!*paths || !*weights) /* (weights freed below when not given) */
        return err_set(ERR_NOMEM, "out of memory");
    if (!weighted) { /* no weights: Megatron blends by the datasets' sizes (or uses the one dataset) */
        free(*weights);
        *weights = NULL;
    }
    for (int i = 0; i < *n; i++) {
        if (weighted) {
            double w = strtod(a->data_path[2 * i], &end);
            if (*end || !(w > 0))
                return err_set(ERR_USAGE, "--data-path: '%s' is not a positive weight", a->data_path[2 * i]);
            (*weights)[i] = w;
            (*paths)[i] = a->data_path[2 * i + 1];
        } else {
            (*paths)[i] = a->data_path[i];
        }
    }
    return 0;
}

typedef struct {
    const train_args *a;
    dist_ctx d;
    ddp dp;      /* gradient reduction and the (sharded) optimizer */
    gpt_model m;
    gptdata data;
    ckpt_state st;
    int32_t *tok, *in, *tg;
    float *xrecv, *grecv;   /* pipeline: activations from the previous stage, gradients from the next */
    int vpp;                /* interleaved pipeline: model chunks per stage (1: none) */
    int V, Vp; /* vocabulary, padded (Megatron's padded_vocab_size) */
    FILE *json;
    const char *json_path;
    double unigram;
    int cuda;           /* the CUDA backend: the model lives on the GPU, r->m is its host copy */
    int cuda_table;     /* --device cuda through the parallel model on the CUDA operation table */
    int profile;        /* WEBTEXT_PROFILE=1: the table's operations timed (train/ops_profile.c) */
    const gpt_ops *ops; /* the parallel model's operation table (train/ops.h) */
    pcomm c_tensor, c_pipe, c_data, c_emb; /* the groups' communicators on its buffers */
    train_backend be;   /* the model's operations (backend.h): r->m on the CPU, or the GPU's buffers */
} run;

/* Fill in/tg [mbs, L] with samples first.. of a split. 0 or ERR_FORMAT on a
 * token outside the vocabulary. */
static int get_batch(run *r, int split, uint64_t first, int mbs)
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
 * are in train/parallel/schedules.c. */

static size_t stage_bytes(const run *r)
{
    size_t bt = (size_t)r->a->micro_batch_size * (size_t)r->a->seq_length;
    return gpt_stage_rows(&r->m, bt) * (size_t)r->a->hidden_size * sizeof(float);
}

/* Whether the model chunk in use is the first or the last of the whole (virtual) pipeline. */
static int first_virtual(const run *r) { return pp_first_virtual(&r->d, &r->m); }
static int last_virtual(const run *r) { return pp_last_virtual(&r->d, &r->m, r->vpp); }

/* Forward of micro-batch `slot` on this stage's chunk in use (input x_in unless
 * it is the first); adds the loss / div on the last. */
static int stage_forward(run *r, int split, uint64_t first, int slot, const float *x_in, double div, double *loss)
{
    int mbs = (int)r->a->micro_batch_size, L = (int)r->a->seq_length;
    int rc = get_batch(r, split, first, mbs);
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

/* The pipeline schedules (train/parallel/schedules.c) reach the data through
 * this: micro-batch b of the step starting at sample `base`. */
typedef struct {
    run *r;
    uint64_t base;
} step_fwd;

static int step_forward(void *ctx, long long b, int slot, const float *x_in, double div, double *loss)
{
    step_fwd *f = ctx;
    return stage_forward(f->r, GPTDATA_TRAIN, micro_first(f->r, f->base, b), slot, x_in, div, loss);
}

static pp_sched sched_of(run *r, step_fwd *f, double loss_scale)
{
    pp_sched p = {.d = &r->d, .m = &r->m, .pipe = &r->c_pipe, .emb = &r->c_emb, .vpp = r->vpp, .act_bytes = stage_bytes(r), .xrecv = r->xrecv,
                  .grecv = r->grecv, .forward = step_forward, .ctx = f, .loss_scale = loss_scale};
    return p;
}

/* Mean loss over eval_iters global batches of a split, from *pos on; the
 * micro-batches are shared among the data-parallel ranks as in training, and
 * flow through the pipeline stages. */
static int evaluate(run *r, int split, uint64_t *pos, double *loss)
{
    const train_args *a = r->a;
    int mbs = (int)a->micro_batch_size, L = (int)a->seq_length, dp = r->d.dp;
    long long nmicro = a->eval_iters * (a->global_batch_size / mbs);
    double s = 0;
    int rc = 0;
    for (long long k = 0; k < nmicro / dp && !rc; k++) {
        uint64_t f = micro_first(r, *pos, k);
        if (r->d.pp == 1) {
            if ((rc = get_batch(r, split, f, mbs)))
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
                rc = comm_sendrecv(&r->c_pipe, NULL, 0, -1, r->xrecv, stage_bytes(r), (r->d.pp_rank + S - 1) % S,
                                   PP_TAG_PIPE);
            if (!rc)
                rc = stage_forward(r, split, f, 0, r->xrecv, 1.0, &s);
            if (!rc && !last_virtual(r))
                rc = comm_sendrecv(&r->c_pipe, gpt_stage_output(&r->m), stage_bytes(r), (r->d.pp_rank + 1) % S, NULL,
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

static void print_eval(run *r, const char *what, double loss)
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

/* Evaluate a split, print Megatron's block and write a JSON record. */
static int eval_report(run *r, int split, uint64_t *pos, const char *what, const char *key, int final)
{
    double loss;
    int rc = evaluate(r, split, pos, &loss);
    if (rc)
        return rc;
    print_eval(r, what, loss);
    json_open(r);
    if (r->json) {
        fprintf(r->json, "{\"iteration\":%llu,\"%s_loss\":%.9g,\"%s_ppl\":%.9g%s}\n",
                (unsigned long long)r->st.iteration, key, loss, key, exp(loss < 700 ? loss : 700),
                final ? ",\"final\":true" : "");
        fflush(r->json);
    }
    return 0;
}

/* The whole model's parameters and moments (no gradients): what a checkpoint
 * holds, for a tensor-parallel run whose ranks hold slices. */
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

/* Every rank calls this at the same point: a sharded optimizer's moments are
 * gathered over the data group, tensor slices over the tensor group; rank 0
 * writes the single-file checkpoint (the same file whatever the layout) and
 * every rank learns whether it succeeded. */
static int save(run *r)
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

/* At the end of a run (every rank): the peak host memory of rank 0 and of the
 * largest rank, as measured, beside the per-rank figures printed at start. */
static void report_peak_memory(run *r)
{
    if (r->profile && r->d.world_rank == 0)
        gpt_ops_profile_report(stdout);
    int64_t v[2] = {peak_rss(), 0};
    v[1] = v[0];
    int rc = dist_allreduce_max_i64(&r->d, &r->d.world, v + 1, 1);
    if (!rc && v[0] > 0)
        printf("> peak host memory (VmHWM): %.1f MB on rank 0, %.1f MB on the largest rank\n", (double)v[0] / 1e6,
               (double)v[1] / 1e6);
    fflush(stdout);
}

static void timestamp(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm);
}

/* Report an error. With several ranks, one rank's error is not known to the
 * others, which would wait in their next collective for ever: end them all. */
static int fail(run *r, int rc, const char *what)
{
    char who[32] = "";
    if (r->d.world_size > 1)
        snprintf(who, sizeof who, "rank %d: ", r->d.world_rank);
    fprintf(stderr, "train: %s%s%s%s\n", who, what ? what : "", what ? ": " : "", err_msg());
    if (r->d.world_size > 1)
        dist_abort(&r->d, err_exit_code(rc));
    return err_exit_code(rc);
}

static int setup(run *r, train_args *a)
{
    if (!a->device) {
        a->device = "cpu";
#ifdef WEBTEXT_CUDA
        char name[256];
        size_t mem;
        double pk;
        if (r->d.world_size == 1 && gpt_cuda_device(name, sizeof name, &mem, &pk) == 0)
            a->device = "cuda";
#endif
    }
    /* "checked" (tests): the CPU kernels behind the device interface, faulting on host
     * access to device memory (train/cpu/ops_checked.c) */
    if (strcmp(a->device, "cpu") && strcmp(a->device, "cuda") && strcmp(a->device, "checked"))
        return err_set(ERR_USAGE, "--device %s: expected cpu, cuda or checked (a test)", a->device);
    r->cuda = !strcmp(a->device, "cuda");
    r->ops = !strcmp(a->device, "checked") ? &gpt_ops_checked : &gpt_ops_cpu;
    /* Tensor / pipeline parallelism and ZeRO on GPUs run the parallel model on the CUDA
     * operation table; the single-GPU model (gpt_cuda.cu) stays the default elsewhere
     * until the table has been proven on a GPU (scripts/gpu_suite.sh). */
    long long zero = a->zero_stage >= 0 ? a->zero_stage : a->use_distributed_optimizer ? 1 : 0;
    /* Ranks sharing a GPU (more ranks on this node than GPUs) cannot use NCCL, which the
     * single-GPU path's data parallelism needs: they take the table too, whose
     * communicators stage through the host. */
    int shared_gpu = 0;
#ifdef WEBTEXT_CUDA
    if (r->cuda && r->d.world_size > 1) {
        int lsize = 1, ngpu = 0;
        dist_local_rank(&lsize);
        if (gpt_ops_cuda_count(&ngpu) == 0 && ngpu > 0 && lsize > ngpu)
            shared_gpu = 1;
    }
#endif
    if (r->cuda && (r->d.tp > 1 || r->d.pp > 1 || zero > 0 || a->cuda_parallel_model || shared_gpu)) {
#ifdef WEBTEXT_CUDA
        if (a->cpu_offload)
            return err_set(ERR_USAGE, "--device cuda with tensor / pipeline parallelism, ZeRO, ranks sharing a GPU or "
                                      "--cuda-parallel-model runs the parallel model on the CUDA operation table, "
                                      "which keeps the optimizer on the GPU: drop --cpu-offload");
        if (shared_gpu && r->d.world_rank == 0 && !(r->d.tp > 1 || r->d.pp > 1 || zero > 0 || a->cuda_parallel_model))
            fprintf(stderr, "note: %d ranks share this node's GPUs: data parallelism runs the parallel model on the "
                            "CUDA operation table with staged communicators (NCCL takes one GPU per rank)\n",
                    r->d.world_size);
        if (gpt_ops_cuda_select(dist_local_rank(NULL)) < 0)
            return ERR_USAGE;
        r->cuda = 0;
        r->cuda_table = 1;
        r->ops = &gpt_ops_cuda;
#endif
    }
#ifndef WEBTEXT_CUDA
    if (r->cuda)
        return err_set(ERR_USAGE, "--device cuda: this build has no CUDA backend (nvcc was not found when it was "
                                  "built); use --device cpu");
#endif
    if (r->cuda && r->d.world_size > 1) {
#ifndef WEBTEXT_NCCL
        return err_set(ERR_USAGE, "--device cuda with %d ranks: this build has no NCCL (nccl.h was not found when it "
                                  "was built); use --device cpu with mpirun", r->d.world_size);
#endif
        if (a->cpu_offload)
            return err_set(ERR_USAGE, "--cpu-offload with several ranks: not in this build (one GPU per run)");
    }
    if (!r->cuda && getenv("WEBTEXT_PROFILE") && !strcmp(getenv("WEBTEXT_PROFILE"), "1")) {
        r->ops = gpt_ops_profiled(r->ops);
        r->profile = 1;
    }
    /* Megatron's --attention-backend names: fused is cuDNN's (Transformer Engine's
     * FusedAttention), flash our FlashAttention-2 kernels, unfused / local the
     * batched-GEMM path; --use-flash-attn is Megatron's older flag for flash. */
    {
        const char *ab = a->attention_backend ? a->attention_backend : a->use_flash_attn ? "flash" : "auto";
        static const struct { const char *name; int v; } names[] = {
            {"auto", GPT_ATTN_AUTO},       {"fused", GPT_ATTN_FUSED}, {"flash", GPT_ATTN_FLASH},
            {"unfused", GPT_ATTN_UNFUSED}, {"local", GPT_ATTN_UNFUSED}};
        a->attention = -1;
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            if (!strcmp(ab, names[i].name))
                a->attention = names[i].v;
        if (a->attention < 0)
            return err_set(ERR_USAGE, "--attention-backend %s: expected auto, fused, flash, unfused or local", ab);
    }
    if (a->distributed_backend && strcmp(a->distributed_backend, "nccl") && strcmp(a->distributed_backend, "mpi") &&
        strcmp(a->distributed_backend, "gloo"))
        return err_set(ERR_USAGE, "--distributed-backend %s: expected nccl (GPU) or mpi (CPU; gloo is taken as mpi)",
                       a->distributed_backend);
    /* --bf16 / --fp16 on the CPU and checked tables: the parallel model's mixed precision
     * (weights, activations and their gradients rounded to bf16 / fp16 as the GPU rounds
     * them, computed in fp32; master weights, AdamW and weight gradients in fp32). */
    if (r->cuda && a->grad_reduce_in_bf16 && r->d.world_rank == 0)
        fprintf(stderr, "note: --grad-reduce-in-bf16: for the parallel model; the single-GPU path reduces in fp32\n");
    if (!r->cuda && (a->cpu_offload || a->use_flash_attn) && r->d.world_rank == 0)
        fprintf(stderr, "note: --%s: for --device cuda; ignored on --device %s\n",
                a->cpu_offload ? "cpu-offload" : "use-flash-attn", a->device);
    if (a->num_layers < 1 || a->hidden_size < 1 || a->num_heads < 1 || a->seq_length < 1)
        return err_set(ERR_USAGE, "--num-layers, --hidden-size, --num-attention-heads and --seq-length are required "
                                  "and must be positive");
    if (!a->max_position_embeddings)
        a->max_position_embeddings = a->seq_length;
    if (a->seq_length > a->max_position_embeddings)
        return err_set(ERR_USAGE, "--seq-length %lld exceeds --max-position-embeddings %lld", a->seq_length,
                       a->max_position_embeddings);
    if (a->micro_batch_size < 1)
        return err_set(ERR_USAGE, "--micro-batch-size must be positive");
    if (!a->global_batch_size)
        a->global_batch_size = a->micro_batch_size * r->d.dp;
    if (a->global_batch_size % (a->micro_batch_size * r->d.dp))
        return err_set(ERR_USAGE,
                       "--global-batch-size %lld is not a multiple of --micro-batch-size %lld x data-parallel size %d",
                       a->global_batch_size, a->micro_batch_size, r->d.dp);
    if (a->zero_stage < 0)
        a->zero_stage = a->use_distributed_optimizer ? 1 : 0;
    if (a->sequence_parallel && r->d.tp == 1) {
        if (r->d.world_rank == 0)
            fprintf(stderr, "note: --sequence-parallel needs --tensor-model-parallel-size > 1; it is off\n");
        a->sequence_parallel = 0;
    }
    if (a->sequence_parallel && (a->micro_batch_size * a->seq_length) % r->d.tp)
        return err_set(ERR_USAGE, "--sequence-parallel: micro-batch x seq-length %lld is not divisible by "
                                  "--tensor-model-parallel-size %d",
                       a->micro_batch_size * a->seq_length, r->d.tp);
    if (a->zero_stage > 3)
        return err_set(ERR_USAGE, "--zero-stage %lld: expected 0 (replicated), 1 (sharded optimizer state, as "
                                  "--use-distributed-optimizer), 2 (and gradients) or 3 (and parameters)",
                       a->zero_stage);
    r->vpp = 1;
    if (a->layers_per_virtual_stage) {
        long long per_stage = a->num_layers / r->d.pp;
        if (r->d.pp < 2)
            return err_set(ERR_USAGE, "--num-layers-per-virtual-pipeline-stage needs --pipeline-model-parallel-size "
                                      "of 2 or more");
        if (a->layers_per_virtual_stage < 0 || a->num_layers % r->d.pp || per_stage % a->layers_per_virtual_stage)
            return err_set(ERR_USAGE, "--num-layers-per-virtual-pipeline-stage %lld does not divide the %lld layers "
                                      "of each of the %d pipeline stages",
                           a->layers_per_virtual_stage, per_stage, r->d.pp);
        r->vpp = (int)(per_stage / a->layers_per_virtual_stage);
        long long m = a->global_batch_size / (a->micro_batch_size * r->d.dp);
        if (r->vpp > 1 && m % r->d.pp)
            return err_set(ERR_USAGE, "interleaved pipeline: %lld micro-batches per data-parallel rank is not a "
                                      "multiple of --pipeline-model-parallel-size %d (as Megatron requires)",
                           m, r->d.pp);
    }
    if (a->zero_stage >= 2 && r->d.pp > 1)
        return err_set(ERR_USAGE, "--zero-stage %lld with --pipeline-model-parallel-size %d: ZeRO stages 2 and 3 do "
                                  "not combine with pipeline parallelism (as in DeepSpeed); use --zero-stage 1",
                       a->zero_stage, r->d.pp);
    if (a->train_iters < 1)
        return err_set(ERR_USAGE, "--train-iters is required and must be positive");
    if (strcmp(a->lr_decay_style, "constant") && strcmp(a->lr_decay_style, "linear") &&
        strcmp(a->lr_decay_style, "cosine"))
        return err_set(ERR_USAGE, "--lr-decay-style %s: expected constant, linear or cosine", a->lr_decay_style);
    if (a->lr < 0 || a->min_lr < 0 || a->min_lr > a->lr)
        return err_set(ERR_USAGE, "--lr %g / --min-lr %g: need 0 <= min-lr <= lr", a->lr, a->min_lr);
    if (a->eval_interval < 1 || a->log_interval < 1 || a->eval_iters < 0)
        return err_set(ERR_USAGE, "--eval-interval and --log-interval must be positive, --eval-iters >= 0");
    if (a->seed < 0 || a->seed > 0xffffffffLL)
        return err_set(ERR_USAGE, "--seed %lld: must be in [0, 2^32) (numpy RandomState)", a->seed);
    if (a->save_interval && !a->save)
        return err_set(ERR_USAGE, "--save-interval needs --save DIR");
    if (a->lr_warmup_iters && a->lr_warmup_fraction > 0)
        return err_set(ERR_USAGE, "give --lr-warmup-iters or --lr-warmup-fraction, not both");
    /* Vocabulary size from the tokenizer (as Megatron does), padded to a
     * multiple of --make-vocab-size-divisible-by x tensor-parallel size. */
    if (a->make_vocab_size_divisible_by < 1 || a->make_vocab_size_divisible_by > 1 << 20)
        return err_set(ERR_USAGE, "--make-vocab-size-divisible-by %lld: must be in 1..2^20", a->make_vocab_size_divisible_by);
    tokcli_spec ts = {.type = a->tokenizer_type, .model = a->tokenizer_model, .vocab_file = a->vocab_file,
                      .merge_file = a->merge_file, .tiktoken_pattern = a->tiktoken_pattern,
                      .tiktoken_num_special = a->tiktoken_num_special, .vocab_size = a->vocab_size,
                      .sp_legacy = a->tokenizer_sp_legacy};
    bpe *tok;
    int rc = tokcli_open(&tok, &ts);
    if (rc)
        return rc;
    size_t v = bpe_vocab_size(tok);
    bpe_free(tok);
    size_t vp = tokcli_padded_vocab(v, a->make_vocab_size_divisible_by, a->tensor_parallel > 0 ? a->tensor_parallel : 1);
    if (vp > (size_t)1 << 30)
        return err_set(ERR_USAGE, "a vocabulary of %zu (padded %zu) is too large for the model", v, vp);
    r->V = (int)v;
    r->Vp = (int)vp;
    return 0;
}

int trainer_run(train_args *a)
{
    run R, *r = &R;
    memset(r, 0, sizeof R);
    r->a = a;
    int rc = dist_init(&r->d, (int)(a->tensor_parallel > 0 ? a->tensor_parallel : 1),
                       (int)(a->pipeline_parallel > 0 ? a->pipeline_parallel : 1));
    if (rc) {
        rc = fail(r, rc, NULL);
        dist_finalize(&r->d);
        return rc;
    }
    if (r->d.world_rank != 0) {
        /* One rank logs (Megatron's last rank; here rank 0): the others print errors only. */
        if (!freopen("/dev/null", "w", stdout))
            fprintf(stderr, "note: rank %d: cannot silence stdout\n", r->d.world_rank);
        a->quiet = 1;
        a->log_json = NULL;
    }
    rc = setup(r, a);
    if (rc) {
        rc = fail(r, rc, NULL);
        dist_finalize(&r->d);
        return rc;
    }
    const char **paths = NULL;
    double *weights = NULL;
    int npaths = 0;
    rc = parse_data_path(a, &paths, &weights, &npaths);
    if (rc) {
        free(paths);
        free(weights);
        return fail(r, rc, NULL);
    }
    int L = (int)a->seq_length, mbs = (int)a->micro_batch_size;
    long long gbs = a->global_batch_size, nmicro = gbs / mbs;
    if (a->load) {
        /* As Megatron: a checkpoint's padded vocabulary wins over this run's
         * rule (it pads by 128 x tp, so a checkpoint saved at another tensor-
         * parallel size may hold more or fewer padding rows; our vocabulary
         * split takes any size). */
        char *lp = NULL;
        gpt_config lc;
        ckpt_state ls;
        if (ckpt_find_latest(a->load, &lp) == 0 && ckpt_read_header(lp, &lc, &ls) == 0 && lc.vocab_size == r->V &&
            lc.padded_vocab_size != r->Vp)
            r->Vp = lc.padded_vocab_size;
        free(lp);
    }
    gpt_config cfg = {.max_seq_len = (int)a->max_position_embeddings, .vocab_size = r->V,
                      .padded_vocab_size = r->Vp, .num_layers = (int)a->num_layers,
                      .num_heads = (int)a->num_heads, .channels = (int)a->hidden_size};
    /* This rank's part of the model (all of it without tensor parallelism). */
    int tp = r->d.tp, pp = r->d.pp, part = tp > 1 || pp > 1;
    /* A communicator per group on the table's buffers (comm.h chooses mpi, nccl or staged). */
    const char *fb = a->distributed_backend;
    if ((rc = comm_init(&r->c_tensor, "tensor", &r->d, &r->d.tensor, r->ops, fb)) ||
        (rc = comm_init(&r->c_pipe, "pipeline", &r->d, &r->d.pipeline, r->ops, fb)) ||
        (rc = comm_init(&r->c_data, "data", &r->d, &r->d.data, r->ops, fb)) ||
        (rc = comm_init(&r->c_emb, "embedding", &r->d, &r->d.embedding, r->ops, fb))) {
        free(paths);
        free(weights);
        return fail(r, rc, NULL);
    }
    gpt_par par = {.tp = tp, .tp_rank = r->d.tp_rank, .pp = pp, .pp_rank = r->d.pp_rank, .d = &r->d,
                   .tp_g = &r->d.tensor, .pp_g = &r->d.pipeline, .sp = a->sequence_parallel, .vpp = r->vpp,
                   .ops = r->ops, .tp_comm = &r->c_tensor, .recompute = a->recompute_activations,
                   .prec = r->cuda ? GPT_PREC_FP32 : a->bf16 ? GPT_PREC_BF16 : a->fp16 ? GPT_PREC_FP16 : GPT_PREC_FP32};
    rc = gpt_alloc_par(&r->m, &cfg, &par);
    if (rc) {
        free(paths);
        free(weights);
        return fail(r, rc, NULL);
    }
    gpt_model whole;
    memset(&whole, 0, sizeof whole);
    /* Resume? */
    r->st.seed = (uint64_t)a->seed;
    int resumed = 0;
    if (a->load) {
        char *path = NULL;
        struct stat lst;
        if (stat(a->load, &lst) != 0 && errno == ENOENT && a->save && !strcmp(a->load, a->save)) {
            /* --load X --save X on a first run (a requeued job's idiom): nothing yet */
            rc = 1;
        } else {
            rc = ckpt_find_latest(a->load, &path);
        }
        if (rc < 0)
            goto out_fail;
        if (rc == 1) {
            fprintf(stderr, "note: --load %s: no latest_checkpointed_iteration.txt there; starting from scratch\n",
                    a->load);
            rc = 0;
        } else {
            if (part) {
                /* Load the whole model, keep this rank's part. */
                rc = whole_alloc(&whole, &cfg);
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
                goto out_fail;
            }
            if (r->st.seq_length != (uint64_t)L || r->st.global_batch != (uint64_t)gbs || r->st.seed != (uint64_t)a->seed)
                fprintf(stderr, "note: %s was trained with --seq-length %llu --global-batch-size %llu --seed %llu; "
                                "continuing with %d / %lld / %lld changes the sample order\n",
                        path, (unsigned long long)r->st.seq_length, (unsigned long long)r->st.global_batch,
                        (unsigned long long)r->st.seed, L, gbs, a->seed);
            printf(" loaded checkpoint %s at iteration %llu (consumed samples %llu)", path,
                   (unsigned long long)r->st.iteration, (unsigned long long)r->st.consumed_train);
            const uint32_t *lay = r->st.layout;
            if (lay[0]) {
                char chunks[48] = "";
                if (lay[3] > 1)
                    snprintf(chunks, sizeof chunks, " (%u chunks per stage)", lay[3]);
                printf(", saved at tensor %u x pipeline %u%s x data %u, ZeRO stage %u%s; loaded into tensor %d x "
                       "pipeline %d x data %d",
                       lay[0], lay[1], chunks, lay[2], lay[4], lay[5] ? ", sequence parallel" : "", r->d.tp, r->d.pp,
                       r->d.dp);
            }
            printf("\n");
            free(path);
            resumed = 1;
        }
    }
    if (!resumed && !part)
        gpt_init_weights(&r->m, (uint64_t)a->seed, (float)a->init_method_std);
    if (!resumed && part) {
        /* The same initial model as one process: made whole, then sliced. */
        if ((rc = gpt_alloc(&whole, &cfg)))
            goto out_fail;
        gpt_init_weights(&whole, (uint64_t)a->seed, (float)a->init_method_std);
        gpt_part_slice(&r->m, whole.params, r->m.params);
        gpt_free(&whole);
    }
    /* Data parallelism: every rank holds the same initial (or loaded) model. */
    gpt_upload(&r->m); /* into the table's buffers (nothing to do on the CPU's) */
    rc = ddp_init(&r->dp, &r->d, &r->m, (int)a->zero_stage, (size_t)a->ddp_bucket_size, &r->c_data);
    r->be = (train_backend){.ops = &train_backend_cpu, .m = &r->m, .d = &r->d, .dp = &r->dp};
    if (rc)
        goto out_fail;
    r->dp.grad_reduce_prec = a->grad_reduce_in_bf16 ? GPT_PREC_BF16 : GPT_PREC_FP32;
    if (r->dp.zero) {
        /* Keep only this rank's part of the moments (loaded, or zero). */
        ddp_scatter_moments(&r->dp, r->m.adam_m, r->m.adam_v);
        gpt_drop(&r->m, GPT_DROP_MOMENTS);
    }
    r->st.seed = (uint64_t)a->seed;
    r->st.seq_length = (uint64_t)L;
    r->st.micro_batch = (uint64_t)mbs;
    r->st.global_batch = (uint64_t)gbs;
    /* The layout the checkpoints are saved from (they load into any other). */
    uint32_t saved_from[6] = {(uint32_t)r->d.tp, (uint32_t)r->d.pp, (uint32_t)r->d.dp, (uint32_t)r->vpp,
                              (uint32_t)a->zero_stage, (uint32_t)(r->m.sp != 0)};
    memcpy(r->st.layout, saved_from, sizeof saved_from);
    /* Data: Megatron's sample counts per split. */
    gptdata_config dc = {.paths = paths, .weights = weights, .n_paths = npaths, .split = a->split,
                         .seq_length = L, .seed = (uint32_t)a->seed, .cache_dir = a->data_cache_path,
                         .quiet = a->quiet};
    dc.num_samples[0] = a->train_iters * gbs;
    dc.num_samples[1] = (a->train_iters / a->eval_interval + 1) * a->eval_iters * gbs;
    dc.num_samples[2] = a->eval_iters * gbs;
    double t0 = progress_now();
    /* Rank 0 builds the index cache; the others then read it. */
    if (r->d.world_rank != 0 && (rc = dist_barrier(&r->d, &r->d.world)))
        goto out_fail;
    rc = gptdata_open(&r->data, &dc);
    if (rc)
        goto out_fail;
    if (r->d.world_rank == 0 && (rc = dist_barrier(&r->d, &r->d.world)))
        goto out_fail;
    r->tok = malloc((size_t)(L + 1) * 4);
    r->in = malloc((size_t)mbs * L * 4);
    r->tg = malloc((size_t)mbs * L * 4);
    if (pp > 1) {
        r->xrecv = r->ops->alloc(stage_bytes(r));
        r->grecv = r->ops->alloc(stage_bytes(r));
    }
    if (!r->tok || !r->in || !r->tg || (pp > 1 && (!r->xrecv || !r->grecv))) {
        rc = err_set(ERR_NOMEM, "out of memory");
        goto out_fail;
    }
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    char peak_desc[192] = "given by --peak-tflops";
    double peak = a->peak_tflops;
    char dev_desc[1024];
    snprintf(dev_desc, sizeof dev_desc, "%s, %d threads, %s", r->ops->device ? "checked (the CPU kernels behind the "
             "device interface: a test)" : "cpu", threads,
             r->m.prec == GPT_PREC_BF16   ? "bf16 mixed precision (rounded as the GPU rounds, computed in fp32)"
             : r->m.prec == GPT_PREC_FP16 ? "fp16 mixed precision with loss scaling (rounded as the GPU rounds, "
                                            "computed in fp32)"
                                          : "fp32");
#ifdef WEBTEXT_CUDA
    if (r->cuda_table) {
        char gpu_name[256] = "";
        size_t gpu_mem = 0;
        double gpu_peak = 0;
        if ((rc = gpt_cuda_device(gpu_name, sizeof gpu_name, &gpu_mem, &gpu_peak)))
            goto out_fail;
        size_t held = 0, fr = 0, tot = 0;
        gpt_ops_cuda_mem(&held, &fr, &tot);
        snprintf(dev_desc, sizeof dev_desc, "cuda: %s, the parallel model on the CUDA operation table, fp32, GPU "
                 "memory held %.3f GB by this rank before activations (%.2f GB of %.1f GB in use on the GPU)",
                 gpu_name, held / 1e9, (tot - fr) / 1e9, tot / 1e9);
        if (peak <= 0) {
            peak = gpu_peak > 0 ? gpu_peak : NAN;
            snprintf(peak_desc, sizeof peak_desc, "%s bf16 dense peak%s", gpu_name,
                     gpu_peak > 0 ? "" : " unknown: give --peak-tflops");
        }
    }
#endif
#ifdef WEBTEXT_CUDA
    if (r->cuda) {
        char gpu_name[256] = "";
        size_t gpu_mem = 0;
        double gpu_peak = 0;
#ifdef WEBTEXT_NCCL
        if (r->d.world_size > 1) {
            char why[160];
            int dev = dist_local_device(gpt_cuda_device_count(), why, sizeof why);
            if (dev < 0) {
                rc = err_set(ERR_USAGE, "--device cuda: %s", why);
                goto out_fail;
            }
            gpt_cuda_set_device(dev);
        }
#endif
        if ((rc = gpt_cuda_device(gpu_name, sizeof gpu_name, &gpu_mem, &gpu_peak)))
            goto out_fail;
        gpt_cuda_opts go = {.precision = a->bf16 ? GPT_CUDA_BF16 : a->fp16 ? GPT_CUDA_FP16 : GPT_CUDA_FP32,
                            .B = mbs, .T = L, .recompute = a->recompute_activations, .epilogues = !a->no_epilogues,
                            .attention = a->attention, .offload = a->cpu_offload};
        if ((rc = gpt_cuda_create((gpt_cuda **)&r->be.gpu, &r->m, &go)))
            goto out_fail;
        r->be.ops = &train_backend_cuda;
        size_t tot;
        size_t held = gpt_cuda_memory(r->be.gpu, &tot);
        snprintf(dev_desc, sizeof dev_desc, "cuda: %s, %s%s, GPU memory held %.2f GB of %.1f GB", gpu_name,
                 a->bf16 ? "bf16 mixed precision" : a->fp16 ? "fp16 mixed precision with loss scaling" : "fp32",
                 a->recompute_activations ? ", activations recomputed" : "", held / 1e9, tot / 1e9);
        if (a->cpu_offload)
            snprintf(dev_desc + strlen(dev_desc), sizeof dev_desc - strlen(dev_desc),
                     ", optimizer on the CPU (%d threads, %.2f GB of master weights and moments in host memory)", threads,
                     r->m.num_params * 12.0 / 1e9);
        snprintf(dev_desc + strlen(dev_desc), sizeof dev_desc - strlen(dev_desc), ", attention %s",
                 gpt_cuda_attention(r->be.gpu));
#ifdef WEBTEXT_NCCL
        /* Data parallelism on the GPU: gradients all-reduced by NCCL on the device. With one
         * rank, --distributed-backend nccl still runs the NCCL path (a group of one). */
        if (r->d.dp > 1 || (a->distributed_backend && !strcmp(a->distributed_backend, "nccl"))) {
            if ((rc = dist_nccl_init((dist_nccl **)&r->be.nccl, &r->d, &r->d.data)))
                goto out_fail;
            snprintf(dev_desc + strlen(dev_desc), sizeof dev_desc - strlen(dev_desc),
                     ", gradients all-reduced over NCCL %s (data-parallel group of %d)", dist_nccl_version(), r->d.dp);
        }
#endif
        if (peak <= 0) {
            peak = gpu_peak > 0 ? gpu_peak : NAN;
            snprintf(peak_desc, sizeof peak_desc, "%s bf16 dense peak%s", gpu_name,
                     gpu_peak > 0 ? "" : " unknown: give --peak-tflops");
        }
    }
#endif
    if (!(peak > 0) && !r->cuda && !r->cuda_table)
        peak = cpu_peak_tflops(threads, peak_desc, sizeof peak_desc);
    double flops_tok = gpt_flops_per_token(&r->m, L);
    printf("> model: GPT-2, %d layers, hidden %d, %d heads, positions %d, vocab %d (padded %d): %zu parameters\n",
           cfg.num_layers, cfg.channels, cfg.num_heads, cfg.max_seq_len, cfg.vocab_size, cfg.padded_vocab_size,
           r->m.num_params);
    printf("> data: %d dataset(s); samples train %lld, valid %lld, test %lld (seq %d); indices ready in %.2f s\n",
           npaths, (long long)r->data.size[0], (long long)r->data.size[1], (long long)r->data.size[2], L,
           progress_now() - t0);
    if (r->d.world_rank == 0) {
        r->unigram = gptdata_unigram_entropy(&r->data, GPTDATA_TRAIN, r->V);
        printf("> unigram entropy of the train split: %.4f nats/token (the loss of a model that ignores context)\n",
               r->unigram);
    }
    int dp = r->d.dp;
    long long nmicro_rank = nmicro / dp;
    printf("> device %s; micro-batch %d x %lld x data-parallel %d = global batch %lld; MFU against a peak "
           "of %.3f TFLOP/s (%s)\n",
           dev_desc, mbs, nmicro_rank, dp, gbs, peak, peak_desc);
    if (r->d.world_size > 1 && !r->cuda)
        printf("> communicators: tensor %s, pipeline %s, data %s, embedding %s\n", comm_name(&r->c_tensor),
               comm_name(&r->c_pipe), comm_name(&r->c_data), comm_name(&r->c_emb));
    if (!r->cuda) {
        /* the CPU backend's matrix products: a slow kernel set is explained, not hidden */
        char blas[320];
        int slow = 0;
        blas_describe(blas, sizeof blas, &slow);
        printf("> blas: %s\n", blas);
        if (slow && r->d.world_rank == 0)
            fprintf(stderr, "note: the BLAS runs kernels narrower than this CPU allows: %s\n", blas);
    }
    {
        char lay[128];
        dist_describe(&r->d, lay, sizeof lay);
        printf("> parallel layout: %s", lay);
        if (r->vpp > 1)
            printf(", interleaved pipeline: %d model chunks of %lld layers per stage", r->vpp,
                   a->layers_per_virtual_stage);
        printf("; ranks (tensor, data, pipeline):");
        for (int w = 0; w < r->d.world_size && w < 64; w++) {
            int tpr, dpr, ppr;
            dist_layout(w, r->d.tp, r->d.pp, dp, &tpr, &dpr, &ppr);
            printf(" %d=(%d,%d,%d)", w, tpr, dpr, ppr);
        }
        printf("\n");
        double bp, bg, bm;
        ddp_bytes_per_param(&r->dp, &bp, &bg, &bm);
        /* mixed precision: the compute copy of the weights beside the fp32 master weights
         * (held in fp32 storage, rounded to bf16 / fp16, on every table so far) */
        if (r->m.prec)
            bp += 4.0;
        double n = (double)r->m.num_params, act = (double)gpt_activation_bytes(&r->m, mbs, L);
        if (!r->cuda)
            printf("> memory per rank (ZeRO stage %d, data-parallel %d): parameters %.1f MB, gradients %.1f MB, optimizer "
                   "state %.1f MB, activations %.2f MB, working buffers %.1f MB; %.3f bytes per parameter (params %.3f + "
                   "grads %.3f + moments %.3f)\n",
                   r->dp.zero, dp, bp * n / 1e6, bg * n / 1e6, bm * n / 1e6, act / 1e6, (double)r->dp.work_bytes / 1e6,
                   bp + bg + bm, bp, bg, bm);
        /* Ring costs per rank and iteration (Megatron-LM and ZeRO papers): data parallel, an all-reduce of
         * the rank's N gradients, 2(d-1)/d x 4N (the sharded optimizer's reduce-scatter + all-gather cost
         * the same; ZeRO-2 reduce-scatters every micro-batch, (m+1)(d-1)/d x 4N; ZeRO-3 all-gathers the
         * parameters for the forward and the backward of every micro-batch too, 3m(d-1)/d x 4N); tensor
         * parallel, per micro-batch 4 all-reduces of the [b, s, h] activations per layer (2 forward, 2
         * backward) and 2 for the embedding and the output layer, 2(t-1)/t x 4bsh each. */
        int tpn = r->d.tp;
        double nz = r->dp.zero >= 2 ? (double)r->dp.shard_n * dp : n; /* stages 2, 3: the units padded */
        double ring = dp > 1 ? (double)(dp - 1) / dp * 4.0 * nz : 0;
        double expect_dp = r->dp.zero == 3 ? 3.0 * (double)nmicro_rank * ring
                           : r->dp.zero == 2 ? ((double)nmicro_rank + 1) * ring : 2.0 * ring;
        const char *how = r->dp.zero == 3   ? "reduce-scattered and parameters all-gathered twice per micro-batch, "
                                              "3m(d-1)/d"
                          : r->dp.zero == 2 ? "reduce-scattered per micro-batch + parameters all-gathered, (m+1)(d-1)/d"
                          : r->dp.zero == 1 ? "reduce-scattered + parameters all-gathered, 2(d-1)/d"
                                            : "all-reduced, 2(d-1)/d";
        double expect_tp = tpn > 1 ? (double)nmicro_rank * (4.0 * cfg.num_layers + 2) * 2.0 * (tpn - 1) / tpn * 4.0 *
                                         mbs * L * cfg.channels
                                   : 0;
        printf("> communication per iteration and rank: data-parallel gradients %s, %.3f MB (x 4 bytes x %.0f "
               "parameters); tensor-parallel activations %.3f MB (%lld micro-batches x (4 x %d layers + 2) "
               "all-reduces of %d x %d x %d floats, 2(t-1)/t each); plus per-token scalars\n",
               how, expect_dp / 1e6, nz, expect_tp / 1e6, nmicro_rank, cfg.num_layers, mbs, L, cfg.channels);
    }
    fflush(stdout);
    const char *json_path = a->log_json;
    char json_default[4096];
    if (!json_path && a->save) {
        snprintf(json_default, sizeof json_default, "%s/train_log.jsonl", a->save);
        if (mkdir(a->save, 0777) != 0 && errno != EEXIST)
            fprintf(stderr, "note: --save %s: %s\n", a->save, strerror(errno));
        json_path = json_default;
    }
    r->json_path = r->d.world_rank == 0 ? json_path : NULL; /* one rank logs */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND; /* a second signal kills at once */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    const char *inject = getenv("WEBTEXT_TRAIN_INJECT_NAN"); /* tests: comma list of iterations */
    long long fail_rank = -1, fail_iter = -1; /* tests: "RANK:ITERATION" fails that rank there */
    if (getenv("WEBTEXT_TRAIN_FAIL_AT") && sscanf(getenv("WEBTEXT_TRAIN_FAIL_AT"), "%lld:%lld", &fail_rank, &fail_iter) != 2)
        fail_rank = -1;
    /* fp16 on the GPU: Megatron's DynamicGradScaler (or a static --loss-scale). */
    int fp16 = a->fp16; /* the GPU path, and the parallel model's emulated fp16 */
    double lscale = fp16 ? (a->loss_scale > 0 ? a->loss_scale : a->initial_loss_scale) : 1.0;
    long long growth = 0, hyst = a->hysteresis;
    double interval_loss = 0, interval_time = 0, last_norm = 0;
    long long interval_n = 0, interval_skipped = 0, interval_nan = 0, consecutive = 0;
    int exit_status = 0;
    while (r->st.iteration < (uint64_t)a->train_iters) {
        uint64_t it = r->st.iteration + 1;
        double lr = train_lr_at(a, (int64_t)r->st.iteration);
        double ts = progress_now();
        uint64_t bytes0 = r->d.bytes_sent;
        r->be.ops->zero_grad(&r->be);
        double loss = 0;
        step_fwd sf = {r, r->st.consumed_train};
        pp_sched ps = sched_of(r, &sf, lscale);
        if (pp > 1 && (rc = r->vpp > 1 ? pp_forward_backward_interleaved(&ps, nmicro_rank, &loss)
                                        : pp_forward_backward_1f1b(&ps, nmicro_rank, &loss)))
            goto out_fail;
        for (long long k = 0; pp == 1 && k < nmicro_rank; k++) {
            /* Megatron's sampler: each group of mbs x dp samples, this rank's mbs of them. */
            uint64_t first = r->st.consumed_train + (uint64_t)(k * mbs * dp + (long long)r->d.dp_rank * mbs);
            rc = get_batch(r, GPTDATA_TRAIN, first, mbs);
            if (rc)
                goto out_fail;
            float l;
            if ((rc = r->be.ops->forward(&r->be, r->in, r->tg, mbs, L, &l)))
                goto out_fail;
            loss += l / (double)nmicro;
            r->be.ops->backward(&r->be, (float)(lscale / (double)nmicro));
        }
        if (fail_rank == r->d.world_rank && fail_iter == (long long)it) {
            rc = err_set(ERR_INTERNAL, "failure injected at iteration %llu (WEBTEXT_TRAIN_FAIL_AT)",
                         (unsigned long long)it);
            goto out_fail;
        }
        if (inject) {
            char key[32];
            snprintf(key, sizeof key, ",%llu,", (unsigned long long)it);
            char list[256];
            snprintf(list, sizeof list, ",%s,", inject);
            if (strstr(list, key))
                r->be.ops->poison_grad(&r->be);
        }
        double norm;
        if ((rc = r->be.ops->reduce(&r->be, &loss, &norm)))
            goto out_fail;
        norm /= lscale;
        r->st.consumed_train += (uint64_t)gbs;
        r->st.iteration = it;
        double used_scale = lscale;
        if (fp16 && isfinite(loss) && !isfinite(norm)) {
            /* An overflow in the fp16 backward: skip the step, and back the scale off
             * once `hysteresis` overflows have been seen (Megatron's DynamicGradScaler). */
            r->st.skipped_iters++;
            interval_skipped++;
            growth = 0;
            if (a->loss_scale <= 0 && --hyst <= 0)
                lscale = lscale * 0.5 > a->min_loss_scale ? lscale * 0.5 : a->min_loss_scale;
            if (!a->quiet)
                fprintf(stderr, "train: iteration %llu: fp16 gradients overflowed at loss scale %g; step skipped\n",
                        (unsigned long long)it, used_scale);
        } else if (!isfinite(loss) || !isfinite(norm)) {
            r->st.skipped_iters++;
            interval_skipped++;
            interval_nan++;
            consecutive++;
            fprintf(stderr, "train: iteration %llu: %s (loss %g, grad norm %g); step skipped, parameters unchanged\n",
                    (unsigned long long)it, isfinite(loss) ? "non-finite gradient norm" : "non-finite loss", loss,
                    norm);
            if (consecutive >= a->max_consecutive_skips) {
                fprintf(stderr, "train: %lld consecutive iterations were skipped (--max-consecutive-skips); stopping "
                                "at iteration %llu. Lower --lr or check the data.\n",
                        consecutive, (unsigned long long)it);
                save(r);
                exit_status = EXIT_DATA;
                break;
            }
        } else {
            consecutive = 0;
            r->st.adam_step++;
            /* one factor: the loss scale undone, then the clipping */
            double gs = 1.0 / lscale;
            if (a->clip_grad > 0 && norm > a->clip_grad)
                gs *= a->clip_grad / (norm + 1e-6);
            rc = r->be.ops->step(&r->be, (float)gs, (float)lr, (float)a->adam_beta1, (float)a->adam_beta2,
                                 (float)a->adam_eps, (float)a->weight_decay, (int64_t)r->st.adam_step);
            if (rc)
                goto out_fail;
            if (fp16 && a->loss_scale <= 0 && ++growth == a->loss_scale_window) {
                growth = 0;
                hyst = a->hysteresis;
                lscale *= 2;
            }
            interval_loss += loss;
            interval_n++;
            last_norm = norm;
        }
        interval_time += progress_now() - ts;
        uint64_t comm = r->d.bytes_sent - bytes0;
        if (it % (uint64_t)a->log_interval == 0 || it == (uint64_t)a->train_iters) {
            long long iters = interval_n + interval_skipped;
            double ms = iters ? interval_time * 1000 / (double)iters : 0;
            double tok_s = ms > 0 ? (double)gbs * L / (ms / 1000) : 0;
            double tflops = tok_s * flops_tok / 1e12;
            double lm = interval_n ? interval_loss / (double)interval_n : NAN;
            char ts_buf[32];
            timestamp(ts_buf, sizeof ts_buf);
            printf(" [%s] iteration %8llu/%8lld | consumed samples: %12llu | elapsed time per iteration (ms): %.1f | "
                   "throughput per GPU (TFLOP/s/GPU): %.3f | tokens per second: %.0f | MFU: %.1f%% | "
                   "learning rate: %.6E | global batch size: %5lld | lm loss: %.6E | loss scale: %.1f | "
                   "grad norm: %.3f | number of skipped iterations: %3lld | number of nan iterations: %3lld |",
                   ts_buf, (unsigned long long)it, a->train_iters, (unsigned long long)r->st.consumed_train, ms,
                   tflops / r->d.world_size, tok_s, 100 * tflops / (peak * r->d.world_size), lr, gbs, lm, used_scale, last_norm,
                   interval_skipped, interval_nan);
            if (r->d.world_size > 1)
                printf(" communication per rank (MB): %.3f |", (double)comm / 1e6);
            printf("\n");
            fflush(stdout);
            json_open(r);
            if (r->json) {
                /* JSON has no NaN: an interval whose steps were all skipped has no loss */
                char lms[32] = "null", mfus[32] = "null";
                double mfu = tflops / (peak * r->d.world_size);
                if (isfinite(lm))
                    snprintf(lms, sizeof lms, "%.9g", lm);
                if (isfinite(mfu))
                    snprintf(mfus, sizeof mfus, "%.6f", mfu);
                fprintf(r->json,
                        "{\"iteration\":%llu,\"consumed_samples\":%llu,\"lm_loss\":%s,\"grad_norm\":%.9g,"
                        "\"learning_rate\":%.9g,\"ms_per_iter\":%.3f,\"tokens_per_s\":%.1f,\"tflops\":%.6f,"
                        "\"mfu\":%s,\"skipped\":%lld,\"comm_bytes\":%llu}\n",
                        (unsigned long long)it, (unsigned long long)r->st.consumed_train, lms, last_norm, lr, ms, tok_s,
                        tflops, mfus, interval_skipped, (unsigned long long)comm);
                fflush(r->json);
            }
            interval_loss = interval_time = 0;
            interval_n = interval_skipped = interval_nan = 0;
        }
        if (a->eval_iters > 0 && r->data.size[1] > 0 && it % (uint64_t)a->eval_interval == 0) {
            char what[64];
            snprintf(what, sizeof what, "validation loss at iteration %llu", (unsigned long long)it);
            rc = eval_report(r, GPTDATA_VALID, &r->st.consumed_valid, what, "val", 0);
            if (rc)
                goto out_fail;
        }
        int want_save = a->save_interval && it % (uint64_t)a->save_interval == 0;
        int exiting = a->exit_interval && it % (uint64_t)a->exit_interval == 0;
        /* A signal may reach some ranks only: they agree, so all save and stop together.
         * The decision is the agreed snapshot, never the flag itself: a signal that lands
         * while the ranks agree (after this rank's snapshot) stays pending for the next
         * iteration, where every rank sees it; writing the result back into the flag
         * would lose it (the 1-in-4 flake of sigterm_one_rank). */
        int64_t sig = stop_signal;
        if (r->d.world_size > 1 && (rc = dist_allreduce_max_i64(&r->d, &r->d.world, &sig, 1)))
            goto out_fail;
        if (sig) {
            if (r->d.world_rank == 0)
                fprintf(stderr, "train: received %s at iteration %llu: saving a checkpoint and exiting\n",
                        sig == SIGTERM ? "SIGTERM" : "SIGINT", (unsigned long long)it);
            if (!a->save && r->d.world_rank == 0)
                fprintf(stderr, "train: no --save directory given; nothing saved\n");
            if (save(r))
                exit_status = EXIT_IO;
            goto out;
        }
        if (want_save || (exiting && it != (uint64_t)a->train_iters)) {
            if (save(r)) {
                exit_status = EXIT_IO;
                goto out;
            }
        }
        if (exiting && it != (uint64_t)a->train_iters) {
            printf(" exiting program at iteration %llu (--exit-interval %lld)\n", (unsigned long long)it,
                   a->exit_interval);
            report_peak_memory(r);
            goto out;
        }
    }
    if (exit_status == 0) {
        if (a->save && !(a->save_interval && r->st.iteration % (uint64_t)a->save_interval == 0))
            if (save(r))
                exit_status = EXIT_IO;
        uint64_t test_pos = 0;
        if (a->eval_iters > 0 && r->data.size[1] > 0 &&
            (rc = eval_report(r, GPTDATA_VALID, &r->st.consumed_valid,
                              "validation loss at the end of training for val data", "val", 1)))
            goto out_fail;
        if (a->eval_iters > 0 && r->data.size[2] > 0 &&
            (rc = eval_report(r, GPTDATA_TEST, &test_pos, "validation loss at the end of training for test data",
                              "test", 1)))
            goto out_fail;
    }
    report_peak_memory(r);
out:
    if (r->be.ops)
        r->be.ops->release(&r->be);
    ddp_free(&r->dp);
    if (r->json)
        fclose(r->json);
    free(r->tok);
    free(r->in);
    free(r->tg);
    if (r->ops) {
        r->ops->free(r->xrecv);
        r->ops->free(r->grecv);
    }
    comm_free(&r->c_tensor);
    comm_free(&r->c_pipe);
    comm_free(&r->c_data);
    comm_free(&r->c_emb);
    gptdata_close(&r->data);
    gpt_free(&r->m);
    free(paths);
    free(weights);
    dist_finalize(&r->d);
    return exit_status;
out_fail:
    exit_status = fail(r, rc, NULL);
    goto out;
}

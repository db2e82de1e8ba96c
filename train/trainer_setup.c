/* trainer_setup.c - everything a run does before its first iteration, on
 * every rank: the flags checked, the ranks and their communicators, the model
 * (initialised from the seed, or loaded from a checkpoint in any layout), the
 * data (Megatron's sample index), the device, the start-up banner; and the
 * teardown. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/err.h"
#include "common/progress.h"
#include "tokenizer/tokcli.h"
#include "train/cpu/blas.h"
#include "train/cpu/precision.h"
#include "train/run.h"
#ifdef WEBTEXT_NCCL
#include "train/parallel/nccl.h"
#endif

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

/* --device and what goes with it: the operation table (CPU, checked, CUDA), the
 * attention backend, the communicators' backend. */
static int choose_device(run *r, train_args *a)
{
    if (!a->device) {
        a->device = "cpu";
#ifdef WEBTEXT_CUDA
        int ngpu = 0;
        if (r->d.world_size == 1 && gpt_ops_cuda_count(&ngpu) == 0 && ngpu > 0)
            a->device = "cuda";
#endif
    }
    /* "checked" (tests): the CPU kernels behind the device interface, faulting on host
     * access to device memory (train/cpu/ops_checked.c) */
    if (strcmp(a->device, "cpu") && strcmp(a->device, "cuda") && strcmp(a->device, "checked"))
        return err_set(ERR_USAGE, "--device %s: expected cpu, cuda or checked (a test)", a->device);
    r->ops = !strcmp(a->device, "checked") ? &gpt_ops_checked : &gpt_ops_cpu;
    long long zero = a->zero_stage >= 0 ? a->zero_stage : a->use_distributed_optimizer ? 1 : 0;
    if (a->cpu_offload && zero > 0 && strcmp(a->device, "cpu"))
        return err_set(ERR_USAGE, "--cpu-offload with ZeRO stage %lld: the distributed optimizer's shards stay on the "
                                  "device; --cpu-offload runs with ZeRO-0 (each rank steps its own weights on its CPU)",
                       zero);
    /* --device cuda: the one model (train/model/gpt.c) on the CUDA operation table, in any
     * layout; ranks sharing a GPU (more ranks on a node than GPUs) have communicators that
     * stage through the host (NCCL takes one GPU per rank; train/parallel/comm.c). */
    if (!strcmp(a->device, "cuda")) {
#ifdef WEBTEXT_CUDA
        if (gpt_ops_cuda_select(dist_local_rank(NULL)) < 0)
            return ERR_USAGE;
        r->cuda_table = 1;
        r->ops = &gpt_ops_cuda;
#else
        return err_set(ERR_USAGE, "--device cuda: this build has no CUDA backend (nvcc was not found when it was "
                                  "built); use --device cpu");
#endif
    }
    /* WEBTEXT_PROFILE=1: each operation synchronised; =events: the table's events (CUDA), no syncs */
    const char *pe = getenv("WEBTEXT_PROFILE");
    if (pe && (!strcmp(pe, "1") || !strcmp(pe, "events"))) {
        r->ops = !strcmp(pe, "events") ? gpt_ops_profiled_events(r->ops) : gpt_ops_profiled(r->ops);
        r->profile = 1;
        comm_profile_enable(1);
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
    if (!r->ops->device && a->cpu_offload && r->d.world_rank == 0)
        fprintf(stderr, "note: --cpu-offload: for --device cuda; ignored on --device %s\n", a->device);
    if (!r->cuda_table && a->use_flash_attn && r->d.world_rank == 0)
        fprintf(stderr, "note: --use-flash-attn: for --device cuda; ignored on --device %s\n", a->device);
    return 0;
}

/* The vocabulary of the tokenizer the data was made with sizes the model. */
static int vocab_size(run *r, train_args *a)
{
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

/* The flags, checked (usage errors), with the defaults that depend on the layout filled in. */
static int check_args(run *r, train_args *a)
{
    int rc;
    if ((rc = choose_device(r, a)) || (rc = train_args_check(a, &r->d, &r->vpp)))
        return rc;
#ifdef WEBTEXT_CUDA
    /* the CUDA table's attention for this run's shape (this rank's heads), its epilogues */
    int tpn = r->d.tp > 0 ? r->d.tp : 1;
    if (r->cuda_table &&
        (rc = gpt_ops_cuda_configure(a->bf16 ? 1 : a->fp16 ? 2 : 0, a->attention, !a->no_epilogues,
                                     (int)a->micro_batch_size, (int)a->seq_length, (int)(a->num_heads / tpn),
                                     (int)(a->hidden_size / a->num_heads))))
        return rc;
#endif
    return vocab_size(r, a);
}

/* The table the device flags chose (the CPU's, the checked one, CUDA's), described
 * for the banner, and the peak the MFU is measured against. */
static int open_device(run *r, char *dev_desc, size_t dn, char *peak_desc, size_t pn)
{
    const train_args *a = r->a;
    int rc = 0;
    (void)rc;
    (void)a; /* used with the CUDA backend */
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    snprintf(dev_desc, dn, "%s, %d threads, %s", r->ops->device ? "checked (the CPU kernels behind the "
             "device interface: a test)" : "cpu", threads,
             r->m.prec == GPT_PREC_BF16   ? "bf16 mixed precision (rounded as the GPU rounds, computed in fp32)"
             : r->m.prec == GPT_PREC_FP16 ? "fp16 mixed precision with loss scaling (rounded as the GPU rounds, "
                                            "computed in fp32)"
                                          : "fp32");
    if (r->m.offload && !r->cuda_table)
        snprintf(dev_desc + strlen(dev_desc), dn - strlen(dev_desc),
                 ", optimizer on the CPU (--cpu-offload: master weights and moments in host memory)");
#ifdef WEBTEXT_CUDA
    if (r->cuda_table) {
        char gpu_name[256] = "";
        size_t gpu_mem = 0;
        double gpu_peak = 0;
        if ((rc = gpt_ops_cuda_device(gpu_name, sizeof gpu_name, &gpu_mem, &gpu_peak)))
            return rc;
        size_t held = 0, fr = 0, tot = 0;
        gpt_ops_cuda_mem(&held, &fr, &tot);
        snprintf(dev_desc, dn, "cuda: %s, the model on the CUDA operation table, %s%s, GPU "
                 "memory held %.3f GB by this rank before activations (%.2f GB of %.1f GB in use on the GPU)",
                 gpu_name,
                 r->m.prec == GPT_PREC_BF16   ? "bf16 storage (fp32 master weights and optimizer state)"
                 : r->m.prec == GPT_PREC_FP16 ? "fp16 storage with loss scaling (fp32 master weights and optimizer state)"
                                              : "fp32",
                 a->recompute_activations ? ", activations recomputed" : "", held / 1e9, (tot - fr) / 1e9, tot / 1e9);
        if (r->m.offload)
            snprintf(dev_desc + strlen(dev_desc), dn - strlen(dev_desc),
                     ", optimizer on the CPU (%d threads, %.2f GB of master weights and moments in host memory)", threads,
                     r->m.num_params * 12.0 / 1e9);
        snprintf(dev_desc + strlen(dev_desc), dn - strlen(dev_desc), ", attention %s", gpt_ops_cuda_attention());
        if (r->peak <= 0) {
            r->peak = gpu_peak > 0 ? gpu_peak : NAN;
            snprintf(peak_desc, pn, "%s bf16 dense peak%s", gpu_name,
                     gpu_peak > 0 ? "" : " unknown: give --peak-tflops");
        }
    }
#endif
    if (!(r->peak > 0) && !r->cuda_table)
        r->peak = cpu_peak_tflops(threads, peak_desc, pn);
    return 0;
}

/* What the run is: model, data, device, layout, memory and communication per rank. */
static void print_banner(run *r, const char *dev_desc, const char *peak_desc, double t_data)
{
    const train_args *a = r->a;
    printf("> model: GPT-2, %d layers, hidden %d, %d heads, positions %d, vocab %d (padded %d): %zu parameters\n",
           r->m.cfg.num_layers, r->m.cfg.channels, r->m.cfg.num_heads, r->m.cfg.max_seq_len, r->m.cfg.vocab_size, r->m.cfg.padded_vocab_size,
           r->m.num_params);
    printf("> data: %d dataset(s); samples train %lld, valid %lld, test %lld (seq %d); indices ready in %.2f s\n",
           r->npaths, (long long)r->data.size[0], (long long)r->data.size[1], (long long)r->data.size[2], r->L,
           t_data);
    if (r->d.world_rank == 0) {
        r->unigram = gptdata_unigram_entropy(&r->data, GPTDATA_TRAIN, r->V);
        printf("> unigram entropy of the train split: %.4f nats/token (the loss of a model that ignores context)\n",
               r->unigram);
    }
    int dp = r->d.dp;
    long long nmicro_rank = r->nmicro / dp, gbs = r->gbs;
    int mbs = r->mbs, L = r->L;
    printf("> device %s; micro-batch %d x %lld x data-parallel %d = global batch %lld; MFU against a peak "
           "of %.3f TFLOP/s (%s)\n",
           dev_desc, mbs, nmicro_rank, dp, gbs, r->peak, peak_desc);
    if (r->d.world_size > 1)
        printf("> communicators: tensor %s, pipeline %s, data %s, embedding %s\n", comm_name(&r->c_tensor),
               comm_name(&r->c_pipe), comm_name(&r->c_data), comm_name(&r->c_emb));
    if (!r->cuda_table) {
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
        /* mixed precision: the compute copy of the weights (bf16 / fp16, 2 bytes) beside
         * the fp32 master weights; under ZeRO-3 the gathered units' copies instead (the
         * embedding, a layer and the final LayerNorm at a time) */
        double work = (double)r->dp.work_bytes;
        if (r->m.prec && r->dp.zero == 3) {
            int units[3] = {0, 1, r->m.nlayers + 1};
            for (int k = 0; k < 3; k++)
                work += (double)gpt_unit_size(&r->m, units[k]) * (double)r->m.xb;
        } else if (r->m.offload) {
            /* --cpu-offload: the device holds the compute weights and the gradients; the master
             * weights and the moments (12 bytes a parameter) are in host memory */
            bp = (double)r->m.xb;
            bm = 0;
        } else if (r->m.prec) {
            bp += (double)r->m.xb;
        }
        double n = (double)r->m.num_params, act = (double)gpt_activation_bytes(&r->m, mbs, L);
        printf("> memory per rank (ZeRO stage %d, data-parallel %d): parameters %.1f MB, gradients %.1f MB, optimizer "
                   "state %.1f MB, activations %.2f MB, working buffers %.1f MB; %.3f bytes per parameter (params %.3f + "
                   "grads %.3f + moments %.3f)\n",
                   r->dp.zero, dp, bp * n / 1e6, bg * n / 1e6, bm * n / 1e6, act / 1e6, work / 1e6,
                   bp + bg + bm, bp, bg, bm);
        /* Ring costs per rank and iteration (Megatron-LM and ZeRO papers): data parallel, an all-reduce of
         * the rank's N gradients, 2(d-1)/d x 4N (the sharded optimizer's reduce-scatter + all-gather cost
         * the same; ZeRO-2 reduce-scatters every micro-batch, (m+1)(d-1)/d x 4N; ZeRO-3 all-gathers the
         * parameters for the forward and the backward of every micro-batch too, 3m(d-1)/d x 4N); tensor
         * parallel, per micro-batch 4 all-reduces of the [b, s, h] activations per layer (2 forward, 2
         * backward) and 2 for the embedding and the output layer, 2(t-1)/t x 4bsh each. */
        int tpn = r->d.tp;
        double nz = r->dp.unitwise ? (double)r->dp.shard_n * dp : n; /* the units padded (stages 2, 3; 1 with overlap) */
        double ring = dp > 1 ? (double)(dp - 1) / dp * 4.0 * nz : 0;
        double expect_dp = r->dp.zero == 3 ? 3.0 * (double)nmicro_rank * ring
                           : r->dp.zero == 2 ? ((double)nmicro_rank + 1) * ring : 2.0 * ring;
        const char *how = r->dp.zero == 3   ? "reduce-scattered and parameters all-gathered twice per micro-batch, "
                                              "3m(d-1)/d"
                          : r->dp.zero == 2 ? "reduce-scattered per micro-batch + parameters all-gathered, (m+1)(d-1)/d"
                          : r->dp.zero == 1 ? "reduce-scattered + parameters all-gathered, 2(d-1)/d"
                                            : "all-reduced, 2(d-1)/d";
        double expect_tp = tpn > 1 ? (double)nmicro_rank * (4.0 * r->m.cfg.num_layers + 2) * 2.0 * (tpn - 1) / tpn * 4.0 *
                                         mbs * L * r->m.cfg.channels
                                   : 0;
        printf("> communication per iteration and rank: data-parallel gradients %s, %.3f MB (x 4 bytes x %.0f "
               "parameters); tensor-parallel activations %.3f MB (%lld micro-batches x (4 x %d layers + 2) "
               "all-reduces of %d x %d x %d floats, 2(t-1)/t each); plus per-token scalars\n",
               how, expect_dp / 1e6, nz, expect_tp / 1e6, nmicro_rank, r->m.cfg.num_layers, mbs, L, r->m.cfg.channels);
    }
    fflush(stdout);
}

/* The model of this rank, initialised from the seed (the same whole model in
 * any layout, then sliced) or loaded; then the data-parallel optimizer. */
static int open_model(run *r)
{
    const train_args *a = r->a;
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
    int tp = r->d.tp, pp = r->d.pp, part = tp > 1 || pp > 1, rc;
    /* A communicator per group on the table's buffers (comm.h chooses mpi, nccl or staged). */
    const char *fb = a->distributed_backend;
    if (fb && !strcmp(fb, "nccl") && !strcmp(a->device, "checked"))
        fb = "nccl-emulated"; /* the test table has no NCCL: its semantics over MPI (comm.h) */
    if ((rc = comm_init(&r->c_tensor, "tensor", &r->d, &r->d.tensor, r->ops, fb)) ||
        (rc = comm_init(&r->c_pipe, "pipeline", &r->d, &r->d.pipeline, r->ops, fb)) ||
        (rc = comm_init(&r->c_data, "data", &r->d, &r->d.data, r->ops, fb)) ||
        (rc = comm_init(&r->c_emb, "embedding", &r->d, &r->d.embedding, r->ops, fb)))
        return rc;
    /* This rank's part of the model (all of it without tensor or pipeline parallelism). */
    gpt_par par = {.tp = tp, .tp_rank = r->d.tp_rank, .pp = pp, .pp_rank = r->d.pp_rank, .d = &r->d,
                   .tp_g = &r->d.tensor, .pp_g = &r->d.pipeline, .sp = a->sequence_parallel, .vpp = r->vpp,
                   .ops = r->ops, .tp_comm = &r->c_tensor, .recompute = a->recompute_activations,
                   .prec = a->bf16 ? GPT_PREC_BF16 : a->fp16 ? GPT_PREC_FP16 : GPT_PREC_FP32,
                   .offload = a->cpu_offload && r->ops->device};
    if ((rc = gpt_alloc_par(&r->m, &cfg, &par)))
        return rc;
    r->st.seed = (uint64_t)a->seed;
    int resumed = 0;
    if (a->load && (rc = checkpoint_load(r, &resumed)))
        return rc;
    if (!resumed && !part)
        gpt_init_weights(&r->m, (uint64_t)a->seed, (float)a->init_method_std);
    if (!resumed && part) {
        /* The same initial model as one process: made whole, then sliced. */
        gpt_model whole;
        if ((rc = gpt_alloc(&whole, &cfg)))
            return rc;
        gpt_init_weights(&whole, (uint64_t)a->seed, (float)a->init_method_std);
        gpt_part_slice(&r->m, whole.params, r->m.params);
        gpt_free(&whole);
    }
    /* Data parallelism: every rank holds the same initial (or loaded) model. */
    gpt_upload(&r->m); /* into the table's buffers (nothing to do on the CPU's) */
    rc = ddp_init(&r->dp, &r->d, &r->m, (int)a->zero_stage, (size_t)a->ddp_bucket_size, &r->c_data);
    r->be = (train_backend){.ops = &train_backend_model, .m = &r->m, .d = &r->d, .dp = &r->dp};
    if (rc)
        return rc;
    r->dp.grad_reduce_prec = a->grad_reduce_in_bf16 ? GPT_PREC_BF16 : GPT_PREC_FP32;
    if ((rc = ddp_set_overlap(&r->dp, &r->m, a->overlap_grad_reduce, a->overlap_param_gather)))
        return rc;
    if (r->dp.zero) {
        /* Keep only this rank's part of the moments (loaded, or zero). */
        ddp_scatter_moments(&r->dp, r->m.adam_m, r->m.adam_v);
        gpt_drop(&r->m, GPT_DROP_MOMENTS);
    }
    r->st.seed = (uint64_t)a->seed;
    r->st.seq_length = (uint64_t)r->L;
    r->st.micro_batch = (uint64_t)r->mbs;
    r->st.global_batch = (uint64_t)r->gbs;
    /* The layout the checkpoints are saved from (they load into any other). */
    uint32_t saved_from[6] = {(uint32_t)r->d.tp, (uint32_t)r->d.pp, (uint32_t)r->d.dp, (uint32_t)r->vpp,
                              (uint32_t)a->zero_stage, (uint32_t)(r->m.sp != 0)};
    memcpy(r->st.layout, saved_from, sizeof saved_from);
    return 0;
}

/* Megatron's sample counts per split; rank 0 builds the index cache, the others
 * then read it. The batch buffers. */
static int open_data(run *r)
{
    const train_args *a = r->a;
    int rc, L = r->L, mbs = r->mbs;
    gptdata_config dc = {.paths = r->paths, .weights = r->weights, .n_paths = r->npaths, .split = a->split,
                         .seq_length = L, .seed = (uint32_t)a->seed, .cache_dir = a->data_cache_path,
                         .quiet = a->quiet};
    dc.num_samples[0] = a->train_iters * r->gbs;
    dc.num_samples[1] = (a->train_iters / a->eval_interval + 1) * a->eval_iters * r->gbs;
    dc.num_samples[2] = a->eval_iters * r->gbs;
    if (r->d.world_rank != 0 && (rc = dist_barrier(&r->d, &r->d.world)))
        return rc;
    if ((rc = gptdata_open(&r->data, &dc)))
        return rc;
    if (r->d.world_rank == 0 && (rc = dist_barrier(&r->d, &r->d.world)))
        return rc;
    r->tok = malloc((size_t)(L + 1) * 4);
    r->in = malloc((size_t)mbs * L * 4);
    r->tg = malloc((size_t)mbs * L * 4);
    /* the activations a pipeline stage sends on per micro-batch: [rows here, C] */
    r->stage_bytes = gpt_stage_bytes(&r->m, (size_t)mbs * (size_t)L); /* in the storage precision */
    if (r->d.pp > 1) {
        r->xrecv = r->ops->mem.alloc(r->stage_bytes);
        r->grecv = r->ops->mem.alloc(r->stage_bytes);
    }
    if (!r->tok || !r->in || !r->tg || (r->d.pp > 1 && (!r->xrecv || !r->grecv)))
        return err_set(ERR_NOMEM, "out of memory");
    return 0;
}

/* The test hooks, read once (see run.h). */
static void read_test_hooks(train_test_hooks *h)
{
    h->fail_rank = h->fail_iter = -1;
    h->nan_iters[0] = 0;
    const char *f = getenv("WEBTEXT_TRAIN_FAIL_AT"), *nan = getenv("WEBTEXT_TRAIN_INJECT_NAN");
    if (f && sscanf(f, "%lld:%lld", &h->fail_rank, &h->fail_iter) != 2)
        h->fail_rank = -1;
    if (nan && *nan)
        snprintf(h->nan_iters, sizeof h->nan_iters, ",%s,", nan);
}

int run_open(run *r, train_args *a)
{
    memset(r, 0, sizeof *r);
    r->a = a;
    int rc = dist_init(&r->d, (int)(a->tensor_parallel > 0 ? a->tensor_parallel : 1),
                       (int)(a->pipeline_parallel > 0 ? a->pipeline_parallel : 1));
    if (rc)
        return rc;
    if (r->d.world_rank != 0) {
        /* One rank logs (Megatron's last rank; here rank 0): the others print errors only. */
        if (!freopen("/dev/null", "w", stdout))
            fprintf(stderr, "note: rank %d: cannot silence stdout\n", r->d.world_rank);
        a->quiet = 1;
        a->log_json = NULL;
    }
    if ((rc = check_args(r, a)) || (rc = parse_data_path(a, &r->paths, &r->weights, &r->npaths)))
        return rc;
    r->L = (int)a->seq_length;
    r->mbs = (int)a->micro_batch_size;
    r->gbs = a->global_batch_size;
    r->nmicro = r->gbs / r->mbs;
    if ((rc = open_model(r)))
        return rc;
    double t0 = progress_now();
    if ((rc = open_data(r)))
        return rc;
    double t_data = progress_now() - t0;
    char dev_desc[1024], peak_desc[192] = "given by --peak-tflops";
    r->peak = a->peak_tflops;
    if ((rc = open_device(r, dev_desc, sizeof dev_desc, peak_desc, sizeof peak_desc)))
        return rc;
    r->flops_tok = gpt_flops_per_token(&r->m, r->L);
    if ((rc = run_open_tasks(r)))
        return rc;
    print_banner(r, dev_desc, peak_desc, t_data);
    const char *json_path = a->log_json;
    if (!json_path && a->save) {
        snprintf(r->json_default, sizeof r->json_default, "%s/train_log.jsonl", a->save);
        if (mkdir(a->save, 0777) != 0 && errno != EEXIST)
            fprintf(stderr, "note: --save %s: %s\n", a->save, strerror(errno));
        json_path = r->json_default;
    }
    r->json_path = r->d.world_rank == 0 ? json_path : NULL; /* one rank logs */
    read_test_hooks(&r->hooks);
    grad_scaler_init(&r->scaler, a->fp16, a->loss_scale, a->initial_loss_scale, a->min_loss_scale,
                     a->loss_scale_window, a->hysteresis);
    return 0;
}

int run_fail(run *r, int rc)
{
    char who[32] = "";
    if (r->d.world_size > 1)
        snprintf(who, sizeof who, "rank %d: ", r->d.world_rank);
    fprintf(stderr, "train: %s%s\n", who, err_msg());
    if (r->d.world_size > 1)
        dist_abort(&r->d, err_exit_code(rc));
    return err_exit_code(rc);
}

int run_close(run *r, int status)
{
    run_close_tasks(r);
    if (r->be.ops)
        r->be.ops->release(&r->be);
    ddp_free(&r->dp);
    if (r->json)
        fclose(r->json);
    free(r->tok);
    free(r->in);
    free(r->tg);
    if (r->ops) {
        r->ops->mem.free(r->xrecv);
        r->ops->mem.free(r->grecv);
    }
    comm_free(&r->c_tensor);
    comm_free(&r->c_pipe);
    comm_free(&r->c_data);
    comm_free(&r->c_emb);
    gptdata_close(&r->data);
    gpt_free(&r->m);
    free(r->paths);
    free(r->weights);
    dist_finalize(&r->d);
    return status;
}

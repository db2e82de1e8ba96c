/* train_args.c - the trainer's arguments (train_args.h): Megatron's defaults, the option
 * table as data over one static train_args that a parse fills, and the checks of the flags
 * against each other and against the parallel layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "tokenizer/tokcli.h"
#include "train/build_info.h"
#include "train/train_args.h"

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

/* What a parse fills: the option table below points into these (constant addresses, so the
 * table is data); train_args_parse copies them out. Megatron's flags this trainer accepts
 * and ignores, or checks for the one value it supports, go to `ign`. */
static train_args parsed;
static args_list parsed_data, parsed_tasks;
static struct {
    const char *ffn, *adrop, *hdrop, *pos_emb, *norm, *ign_s;
    int ign_f;
} ign;

static const arg_opt train_opts[] = {
    {"num-layers", 0, ARG_INT, &parsed.num_layers, "N", "transformer layers (required)"},
    {"hidden-size", 0, ARG_INT, &parsed.hidden_size, "N", "model width C (required)"},
    {"num-attention-heads", 0, ARG_INT, &parsed.num_heads, "N", "attention heads; must divide --hidden-size (required)"},
    {"seq-length", 0, ARG_INT, &parsed.seq_length, "N", "tokens per sample (required)"},
    {"max-position-embeddings", 0, ARG_INT, &parsed.max_position_embeddings, "N", "position table size (default: --seq-length)"},
    {"init-method-std", 0, ARG_DOUBLE, &parsed.init_method_std, "X", "std of the normal init (default 0.02; residual\n"
                                                                 "                                projections get X/sqrt(2*layers))"},
    {"micro-batch-size", 0, ARG_INT, &parsed.micro_batch_size, "N", "samples per forward/backward (default 1)"},
    {"global-batch-size", 0, ARG_INT, &parsed.global_batch_size, "N", "samples per optimizer step, a multiple of the\n"
                                                                  "                                micro-batch (gradient accumulation; default: micro-batch)"},
    {"train-iters", 0, ARG_INT, &parsed.train_iters, "N", "iterations to train (required)"},
    {"exit-interval", 0, ARG_INT, &parsed.exit_interval, "N", "save (with --save) and exit when the iteration is a\n"
                                                          "                                multiple of N"},
    {"lr", 0, ARG_DOUBLE, &parsed.lr, "X", "peak learning rate (default 3e-4)"},
    {"min-lr", 0, ARG_DOUBLE, &parsed.min_lr, "X", "learning rate at the end of the decay (default 0)"},
    {"lr-decay-style", 0, ARG_STR, &parsed.lr_decay_style, "S", "constant, linear (default) or cosine"},
    {"lr-warmup-iters", 0, ARG_INT, &parsed.lr_warmup_iters, "N", "linear warmup from 0 over N iterations (default 0)"},
    {"lr-warmup-fraction", 0, ARG_DOUBLE, &parsed.lr_warmup_fraction, "X", "warmup as a fraction of --lr-decay-iters"},
    {"lr-decay-iters", 0, ARG_INT, &parsed.lr_decay_iters, "N", "iterations of decay (default: --train-iters)"},
    {"weight-decay", 0, ARG_DOUBLE, &parsed.weight_decay, "X", "AdamW decoupled weight decay on 2-D weights (default 0.01)"},
    {"adam-beta1", 0, ARG_DOUBLE, &parsed.adam_beta1, "X", "default 0.9"},
    {"adam-beta2", 0, ARG_DOUBLE, &parsed.adam_beta2, "X", "default 0.999"},
    {"adam-eps", 0, ARG_DOUBLE, &parsed.adam_eps, "X", "default 1e-8"},
    {"clip-grad", 0, ARG_DOUBLE, &parsed.clip_grad, "X", "clip the global gradient norm to X (default 1.0; 0: off)"},
    {"seed", 0, ARG_INT, &parsed.seed, "N", "initialisation and data-shuffle seed (default 1234)"},
    {"data-path", 0, ARG_NARGS, &parsed_data, "[W] PREFIX", "dataset prefix(es): PREFIX, or W1 PREFIX1 W2 PREFIX2 ... to\n"
                                                       "                                blend (PREFIX.bin/.idx from preprocess_data); several\n"
                                                       "                                prefixes without weights: equal weights"},
    {"split", 0, ARG_STR, &parsed.split, "S", "train,valid,test split of the sequences (default \"969, 30, 1\")"},
    {"data-cache-path", 0, ARG_STR, &parsed.data_cache_path, "DIR", "where the sample-index cache goes (default: next\n"
                                                              "                                to each dataset)"},
    {"tokenizer-type", 0, ARG_STR, &parsed.tokenizer_type, "NAME", "the tokenizer the data was made with (default\n"
                                                            "                                GPT2BPETokenizer): " TOKCLI_TYPES},
    {"tokenizer-model", 0, ARG_STR, &parsed.tokenizer_model, "FILE", "its vocabulary (.tiktoken, tokenizer.json, .model)"},
    {"vocab-file", 0, ARG_STR, &parsed.vocab_file, "FILE", "GPT-2 encoder.json (default: the project's data/gpt2)"},
    {"merge-file", 0, ARG_STR, &parsed.merge_file, "FILE", "GPT-2 vocab.bpe (default: the project's data/gpt2)"},
    {"tiktoken-pattern", 0, ARG_STR, &parsed.tiktoken_pattern, "NAME", "TikTokenizer: as preprocess_data's"},
    {"tiktoken-num-special-tokens", 0, ARG_INT, &parsed.tiktoken_num_special, "N", "TikTokenizer v1/v2: as preprocess_data's"},
    TOKCLI_SP_LEGACY_OPT(&parsed.tokenizer_sp_legacy),
    {"vocab-size", 0, ARG_INT, &parsed.vocab_size, "N", "NullTokenizer: ids below N (the vocabulary is N + 1 with EOD)"},
    {"make-vocab-size-divisible-by", 0, ARG_INT, &parsed.make_vocab_size_divisible_by, "N", "pad the vocabulary to a multiple\n"
                                                            "                                of N x tensor-parallel size (default 128)"},
    {"eval-interval", 0, ARG_INT, &parsed.eval_interval, "N", "validate every N iterations (default 1000)"},
    {"eval-iters", 0, ARG_INT, &parsed.eval_iters, "N", "global batches per validation (default 100; 0: none)"},
    {"eval-tasks", 0, ARG_LIST, &parsed_tasks, "SET", "multiple-choice tasks scored zero-shot every --eval-interval\n"
                                                    "                                and at the end, as lm-evaluation-harness (acc, acc_norm):\n"
                                                    "                                [NAME=]FILE of HellaSwag / ARC / PIQA / Winogrande JSON\n"
                                                    "                                lines, or a directory (data/eval); repeatable"},
    {"eval-tasks-limit", 0, ARG_INT, &parsed.eval_tasks_limit, "N", "the first N items of each --eval-tasks set (default all)"},
    {"log-interval", 0, ARG_INT, &parsed.log_interval, "N", "print a log line every N iterations (default 100)"},
    {"log-json", 0, ARG_STR, &parsed.log_json, "FILE", "append the logged figures as JSON lines (default:\n"
                                                   "                                SAVE/train_log.jsonl with --save)"},
    {"save", 0, ARG_STR, &parsed.save, "DIR", "checkpoint directory"},
    {"save-interval", 0, ARG_INT, &parsed.save_interval, "N", "checkpoint every N iterations (and at the end)"},
    {"load", 0, ARG_STR, &parsed.load, "DIR", "resume from DIR's latest checkpoint (model, optimizer, data\n"
                                          "                                position, schedule); none there: start from scratch"},
    {"device", 0, ARG_STR, &parsed.device, "D", "cpu or cuda (default: cuda when this build has the CUDA\n"
                                              "backend and a GPU is present, else cpu); checked: the\n"
                                              "CPU kernels behind the device interface (a test)"},
    {"peak-tflops", 0, ARG_DOUBLE, &parsed.peak_tflops, "X", "peak TFLOP/s for MFU (default: the GPU's bf16 dense\n"
                                              "peak, or estimated from the CPU)"},
    {"max-consecutive-skips", 0, ARG_INT, &parsed.max_consecutive_skips, "N", "stop after N consecutive iterations with\n"
                                                                          "                                a non-finite loss or gradient (default 10)"},
    {"tensor-model-parallel-size", 0, ARG_INT, &parsed.tensor_parallel, "N", "tensor-parallel ranks: heads, MLP and vocabulary split\n"
                                                                                         "                                over N ranks (default 1)"},
    {"pipeline-model-parallel-size", 0, ARG_INT, &parsed.pipeline_parallel, "N", "pipeline stages: layers split, 1F1B schedule (default 1)"},
    {"num-layers-per-virtual-pipeline-stage", 0, ARG_INT, &parsed.layers_per_virtual_stage, "N",
     "interleaved 1F1B: each stage holds (layers / pipeline\n"
     "                                size) / N model chunks of N layers (default: none)"},
    {"sequence-parallel", 0, ARG_FLAG, &parsed.sequence_parallel, NULL, "with tensor parallelism: LayerNorms and the residual\n"
                                                                   "                                stream on a tp-th of the tokens each"},
    {"use-distributed-optimizer", 0, ARG_FLAG, &parsed.use_distributed_optimizer, NULL, "shard the AdamW state across the\n"
                                                                                   "                                data-parallel ranks (ZeRO stage 1)"},
    {"zero-stage", 0, ARG_INT, &parsed.zero_stage, "N", "0: replicated optimizer (default), 1: sharded optimizer\n"
                                                   "                                state (= --use-distributed-optimizer), 2: and\n"
                                                   "                                gradients, 3: and parameters (gathered per layer)"},
    {"overlap-grad-reduce", 0, ARG_FLAG, &parsed.overlap_grad_reduce, NULL, "each layer's gradient all-reduce (ZeRO-0)\n"
     "                                or reduce-scatter (1-3) runs while the backward goes\n"
     "                                on (0 and 1: in the last micro-batch)"},
    {"overlap-param-gather", 0, ARG_FLAG, &parsed.overlap_param_gather, NULL, "ZeRO stage 3: the next layer's\n"
     "                                parameters all-gathered while this one computes"},
    {"ddp-bucket-size", 0, ARG_INT, &parsed.ddp_bucket_size, "N", "gradient elements per communication bucket\n"
                                                             "                                (default max(40M, 1M x data-parallel size))"},
    {"ffn-hidden-size", 0, ARG_STR, &ign.ffn, "N", "must be 4 x --hidden-size (GPT-2)"},
    {"attention-dropout", 0, ARG_STR, &ign.adrop, "P", "accepted; this trainer uses no dropout"},
    {"hidden-dropout", 0, ARG_STR, &ign.hdrop, "P", "accepted; this trainer uses no dropout"},
    {"position-embedding-type", 0, ARG_STR, &ign.pos_emb, "T", "learned_absolute (the only one)"},
    {"normalization", 0, ARG_STR, &ign.norm, "T", "LayerNorm (the only one)"},
    {"bf16", 0, ARG_FLAG, &parsed.bf16, NULL, "bf16 parameters and activations, fp32 master weights, gradients\n"
                                          "                                and AdamW state (the CPU rounds as the GPU and computes in fp32)"},
    {"fp16", 0, ARG_FLAG, &parsed.fp16, NULL, "fp16 likewise, with loss scaling"},
    {"grad-reduce-in-bf16", 0, ARG_FLAG, &parsed.grad_reduce_in_bf16, NULL, "the parallel model: reduce gradients\n"
                                          "                                over the data-parallel group in bf16 (default fp32)"},
    {"loss-scale", 0, ARG_DOUBLE, &parsed.loss_scale, "X", "fp16: a static loss scale (default: dynamic)"},
    {"initial-loss-scale", 0, ARG_DOUBLE, &parsed.initial_loss_scale, "X", "fp16: the dynamic scale's start (default 2^32)"},
    {"min-loss-scale", 0, ARG_DOUBLE, &parsed.min_loss_scale, "X", "fp16: the dynamic scale's floor (default 1)"},
    {"loss-scale-window", 0, ARG_INT, &parsed.loss_scale_window, "N", "fp16: double the scale after N clean iterations\n"
                                                                "(default 1000)"},
    {"hysteresis", 0, ARG_INT, &parsed.hysteresis, "N", "fp16: halve the scale after N overflows (default 2)"},
    {"cpu-offload", 0, ARG_FLAG, &parsed.cpu_offload, NULL, "--device cuda, ZeRO-0: fp32 master weights and AdamW\n"
                                          "state in host memory, updated by CPU threads chunk by\n"
                                          "chunk while the next gradients download (bf16: 6 bytes\n"
                                          "per parameter on the GPU, not 18)"},
    {"optimizer-cpu-offload", 0, ARG_FLAG, &parsed.cpu_offload, NULL, "the same (Megatron-Core's name)"},
    {"no-cublaslt-epilogues", 0, ARG_FLAG, &parsed.no_epilogues, NULL, "--device cuda: bias and GELU as separate kernels"},
    {"data-impl", 0, ARG_STR, &ign.ign_s, "IMPL", "accepted (mmap)"},
    {"distributed-backend", 0, ARG_STR, &parsed.distributed_backend, "B", "nccl or mpi: --device cuda runs its data\n"
                                          "parallelism over NCCL (nccl with one rank: the NCCL\n"
                                          "path all the same); --device cpu over MPI; on device\n"
                                          "buffers mpi stages through host memory (default: NCCL\n"
                                          "unless ranks share a GPU)"},
    {"num-workers", 0, ARG_STR, &ign.ign_s, "N", "accepted (data loading is in-process)"},
    {"DDP-impl", 0, ARG_STR, &ign.ign_s, "I", "accepted"},
    {"tensorboard-dir", 0, ARG_STR, &ign.ign_s, "DIR", "accepted; see --log-json"},
    {"transformer-impl", 0, ARG_STR, &ign.ign_s, "I", "accepted"},
    {"recompute-activations", 0, ARG_FLAG, &parsed.recompute_activations, NULL, "keep one layer's LayerNorm and GELU\n"
                                          "outputs, recompute them in backward (any device)"},
    {"checkpoint-activations", 0, ARG_FLAG, &parsed.recompute_activations, NULL, "the same (Megatron's older name)"},
    {"attention-backend", 0, ARG_STR, &parsed.attention_backend, "B", "--device cuda: auto (default: cuDNN's fused\n"
                                          "attention where it applies, else flash where it\n"
                                          "applies, else unfused), fused (cuDNN's), flash (our\n"
                                          "FlashAttention-2 kernels: head size 64, T a multiple\n"
                                          "of 64), unfused (batched GEMMs, T x T scratch)"},
    {"use-flash-attn", 0, ARG_FLAG, &parsed.use_flash_attn, NULL, "--attention-backend flash (Megatron's older flag)"},
    {"cuda-parallel-model", 0, ARG_FLAG, &ign.ign_f, NULL, "accepted (every run is the one model on the CUDA\n"
                                          "operation table now)"},
    {"no-masked-softmax-fusion", 0, ARG_FLAG, &ign.ign_f, NULL, "accepted"},
    {"no-bias-gelu-fusion", 0, ARG_FLAG, &ign.ign_f, NULL, "accepted"},
    {"no-bias-dropout-fusion", 0, ARG_FLAG, &ign.ign_f, NULL, "accepted"},
    {"use-mcore-models", 0, ARG_FLAG, &ign.ign_f, NULL, "accepted"},
    {"log-throughput", 0, ARG_FLAG, &ign.ign_f, NULL, "accepted (always logged)"},
    {NULL, 0, 0, NULL, NULL, NULL}};

static const arg_spec train_spec = {
    "train", "--num-layers N --hidden-size N --num-attention-heads N --seq-length N --train-iters N --data-path PREFIX [options]",
    "Train a GPT-2 model on Megatron .bin/.idx datasets with Megatron-LM's flags, sample order and\n"
    "log layout. Checkpoints (--save/--load) resume bit-identically; SIGTERM or SIGINT saves a\n"
    "checkpoint at the end of the current iteration and exits 0. Threads: OMP_NUM_THREADS.\n"
    "The learning rate printed is the one the iteration used.\n"
    "Data parallelism: start N processes with mpirun -np N (or srun); each takes its share of\n"
    "every global batch and the gradients are summed, so the result matches one process.",
    train_opts,
    "Examples:\n"
    "  train --num-layers 4 --hidden-size 256 --num-attention-heads 4 --seq-length 256 \\\n"
    "        --micro-batch-size 8 --global-batch-size 16 --lr 1e-3 --min-lr 1e-4 --lr-decay-style cosine \\\n"
    "        --lr-warmup-iters 50 --train-iters 1000 --data-path data/build/corpus_text_document \\\n"
    "        --split 98,2,0 --save ckpt --save-interval 200 --load ckpt\n"
    "  train ... --data-path 0.7 a_text_document 0.3 b_text_document\n"
    "  OMP_NUM_THREADS=4 mpirun -np 8 train ... --use-distributed-optimizer   # 8 data-parallel ranks\n"
    "Exit status: 0 done (or stopped by a signal after saving), 1 bad data or training diverged,\n"
    "2 usage or mismatched checkpoint (also a shape the model refuses), 3 I/O error, 4 out of memory,\n"
    "5 internal error (a failed collective, an invariant broken; the message says which)."};

/* The flags that name a value this trainer does not support, and a note for dropout. */
static const char *unsupported(const train_args *a)
{
    if (ign.ffn && atoll(ign.ffn) != 4 * a->hidden_size)
        return "--ffn-hidden-size must be 4 x --hidden-size (GPT-2)";
    if (ign.pos_emb && strcmp(ign.pos_emb, "learned_absolute"))
        return "--position-embedding-type: only learned_absolute (GPT-2)";
    if (ign.norm && strcmp(ign.norm, "LayerNorm"))
        return "--normalization: only LayerNorm (GPT-2)";
    if (a->fp16 && a->bf16)
        return "give --fp16 or --bf16, not both";
    return NULL;
}

int train_args_parse(int argc, char **argv, train_args *a)
{
    train_args_defaults(&parsed);
    memset(&ign, 0, sizeof ign);
    parsed_data = (args_list){0};
    parsed_tasks = (args_list){0};
    char **pos = NULL;
    int npos = 0;
    args_set_version_extra(train_build_info);
    args_allow_several_ranks(); /* the trainer runs as N ranks itself; without MPI dist_init refuses */
    int rc = args_parse_main(&train_spec, argc, argv, &pos, &npos);
    if (rc >= 0)
        return rc;
    free(pos);
    const char *usage = npos ? "unexpected positional argument (datasets go after --data-path)" : unsupported(&parsed);
    if (usage) {
        fprintf(stderr, "train: %s\nTry 'train --help'.\n", usage);
        args_list_free(&parsed_data);
        args_list_free(&parsed_tasks);
        return EXIT_USAGE;
    }
    if ((ign.adrop && atof(ign.adrop) != 0) || (ign.hdrop && atof(ign.hdrop) != 0))
        fprintf(stderr, "note: dropout is not implemented; training without it\n");
    *a = parsed;
    a->data_path = parsed_data.items;
    a->n_data_path = (int)parsed_data.n;
    a->eval_tasks = parsed_tasks.items;
    a->n_eval_tasks = (int)parsed_tasks.n;
    a->quiet = args_quiet_flag;
    return -1;
}

void train_args_free(train_args *a)
{
    args_list l = {.items = a->data_path, .n = (size_t)a->n_data_path};
    args_list_free(&l);
    a->data_path = NULL;
    a->n_data_path = 0;
    args_list t = {.items = a->eval_tasks, .n = (size_t)a->n_eval_tasks};
    args_list_free(&t);
    a->eval_tasks = NULL;
    a->n_eval_tasks = 0;
}

/* The model's shape, the batch and the parallel layout (usage errors). */
static int check_model_and_layout(train_args *a, const dist_ctx *d, int *vpp)
{
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
        a->global_batch_size = a->micro_batch_size * d->dp;
    if (a->global_batch_size % (a->micro_batch_size * d->dp))
        return err_set(ERR_USAGE,
                       "--global-batch-size %lld is not a multiple of --micro-batch-size %lld x data-parallel size %d",
                       a->global_batch_size, a->micro_batch_size, d->dp);
    if (a->zero_stage < 0)
        a->zero_stage = a->use_distributed_optimizer ? 1 : 0;
    if (a->sequence_parallel && d->tp == 1) {
        if (d->world_rank == 0)
            fprintf(stderr, "note: --sequence-parallel needs --tensor-model-parallel-size > 1; it is off\n");
        a->sequence_parallel = 0;
    }
    if (a->sequence_parallel && (a->micro_batch_size * a->seq_length) % d->tp)
        return err_set(ERR_USAGE, "--sequence-parallel: micro-batch x seq-length %lld is not divisible by "
                                  "--tensor-model-parallel-size %d",
                       a->micro_batch_size * a->seq_length, d->tp);
    if (a->zero_stage > 3)
        return err_set(ERR_USAGE, "--zero-stage %lld: expected 0 (replicated), 1 (sharded optimizer state, as "
                                  "--use-distributed-optimizer), 2 (and gradients) or 3 (and parameters)",
                       a->zero_stage);
    *vpp = 1;
    if (a->layers_per_virtual_stage) {
        long long per_stage = a->num_layers / d->pp;
        if (d->pp < 2)
            return err_set(ERR_USAGE, "--num-layers-per-virtual-pipeline-stage needs --pipeline-model-parallel-size "
                                      "of 2 or more");
        if (a->layers_per_virtual_stage < 0 || a->num_layers % d->pp || per_stage % a->layers_per_virtual_stage)
            return err_set(ERR_USAGE, "--num-layers-per-virtual-pipeline-stage %lld does not divide the %lld layers "
                                      "of each of the %d pipeline stages",
                           a->layers_per_virtual_stage, per_stage, d->pp);
        *vpp = (int)(per_stage / a->layers_per_virtual_stage);
        long long m = a->global_batch_size / (a->micro_batch_size * d->dp);
        if (*vpp > 1 && m % d->pp)
            return err_set(ERR_USAGE, "interleaved pipeline: %lld micro-batches per data-parallel rank is not a "
                                      "multiple of --pipeline-model-parallel-size %d (as Megatron requires)",
                           m, d->pp);
    }
    if (a->zero_stage >= 2 && d->pp > 1)
        return err_set(ERR_USAGE, "--zero-stage %lld with --pipeline-model-parallel-size %d: ZeRO stages 2 and 3 do "
                                  "not combine with pipeline parallelism (as in DeepSpeed); use --zero-stage 1",
                       a->zero_stage, d->pp);
    long long zs = a->zero_stage >= 0 ? a->zero_stage : a->use_distributed_optimizer ? 1 : 0;
    if (a->overlap_param_gather && zs != 3)
        return err_set(ERR_USAGE, "--overlap-param-gather: implemented for --zero-stage 3 (the next layer's "
                                  "parameters gathered while this one computes; stage %lld gathers after the step)",
                       zs);
    return 0;
}

/* The schedule, evaluation, seed and checkpoint flags (usage errors). */
static int check_schedule(const train_args *a)
{
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
    return 0;
}

int train_args_check(train_args *a, const dist_ctx *d, int *vpp)
{
    int rc = check_model_and_layout(a, d, vpp);
    return rc ? rc : check_schedule(a);
}

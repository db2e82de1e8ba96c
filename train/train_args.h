/* train_args.h - the trainer's arguments, as Megatron's arguments.py: the flags of
 * pretrain_gpt.py with their defaults, the option table (--help), and the checks that need
 * nothing but the flags and the parallel layout. */
#ifndef TRAIN_TRAIN_ARGS_H
#define TRAIN_TRAIN_ARGS_H

#include "train/parallel/dist.h"

typedef struct {
    /* model */
    long long num_layers, hidden_size, num_heads, seq_length, max_position_embeddings;
    double init_method_std;
    /* batch and schedule */
    long long micro_batch_size, global_batch_size, train_iters, exit_interval;
    double lr, min_lr, lr_warmup_fraction;
    long long lr_warmup_iters, lr_decay_iters;
    const char *lr_decay_style; /* constant, linear, cosine */
    double weight_decay, adam_beta1, adam_beta2, adam_eps, clip_grad;
    long long seed;
    /* data */
    const char **data_path; /* as given: "0.7 a 0.3 b" or "a" */
    int n_data_path;
    const char *split, *vocab_file, *merge_file, *data_cache_path;
    /* the tokenizer the data was made with (Megatron's flags): its vocabulary size sizes the model */
    const char *tokenizer_type, *tokenizer_model, *tiktoken_pattern;
    long long tiktoken_num_special, vocab_size, make_vocab_size_divisible_by;
    int tokenizer_sp_legacy; /* --tokenizer-sentencepiece-legacy */
    int grad_reduce_in_bf16; /* --grad-reduce-in-bf16 */
    /* evaluation, logging, checkpoints */
    long long eval_interval, eval_iters, log_interval, save_interval, max_consecutive_skips;
    /* --eval-tasks: multiple-choice sets scored every --eval-interval (train/evaluate.h) */
    const char **eval_tasks;
    int n_eval_tasks;
    long long eval_tasks_limit;
    const char *save, *load, *log_json, *device;
    double peak_tflops;
    int quiet;
    /* parallelism (launched with mpirun / srun; data parallel = world / (tp * pp)) */
    long long tensor_parallel, pipeline_parallel;
    long long layers_per_virtual_stage; /* interleaved 1F1B: layers per model chunk; 0: not interleaved */
    long long zero_stage;       /* -1: from --use-distributed-optimizer (1) or 0 */
    int use_distributed_optimizer;
    long long ddp_bucket_size;  /* elements; 0: max(40M, 1M x dp) */
    int overlap_grad_reduce;    /* ZeRO-2/3: a layer's reduce-scatter runs while the backward goes on */
    int overlap_param_gather;   /* ZeRO-3: the next layer's all-gather runs while this one computes */
    int sequence_parallel;      /* with tp > 1: LayerNorm and residual regions split by token */
    /* CUDA backend: precision (Megatron: fp32 unless --bf16 or --fp16) and memory */
    int bf16, fp16, recompute_activations, no_epilogues, use_flash_attn, cpu_offload;
    const char *distributed_backend; /* nccl: the CUDA backend uses NCCL even with one rank */
    const char *attention_backend; /* auto (default), fused, flash, unfused (local: unfused) */
    int attention;                 /* the GPT_ATTN_* it names (set by setup) */
    double loss_scale;          /* fp16: a static scale; 0: dynamic */
    double initial_loss_scale, min_loss_scale;
    long long loss_scale_window, hysteresis;
} train_args;

/* Fill a with Megatron's defaults (0 / NULL where Megatron has none). */
void train_args_defaults(train_args *a);
/* Parse bin/train's command line into *a (defaults first). -1: go on (free with
 * train_args_free); otherwise the exit status (--help, --version, or a usage error, printed). */
int train_args_parse(int argc, char **argv, train_args *a);
void train_args_free(train_args *a);
/* The model's shape, the batch and the parallel layout on d's ranks, and the schedule,
 * evaluation, seed and checkpoint flags: ERR_USAGE with the message set, or 0 with the
 * defaults that depend on the layout filled in (max position embeddings, global batch,
 * ZeRO stage, sequence parallelism off without tp) and *vpp, the model chunks per
 * pipeline stage (1: not interleaved). */
int train_args_check(train_args *a, const dist_ctx *d, int *vpp);

#endif

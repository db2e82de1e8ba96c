/* train_main.c - bin/train: parse Megatron-LM's pretrain_gpt.py flags and run
 * the trainer (train/trainer.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/build_info.h"
#include "common/args.h"
#include "common/err.h"
#include "tokenizer/tokcli.h"
#include "train/trainer.h"

int main(int argc, char **argv)
{
    train_args a;
    train_args_defaults(&a);
    args_list data = {0};
    const char *ffn = NULL, *adrop = NULL, *hdrop = NULL, *pos_emb = NULL,
               *norm = NULL, *ign_s = NULL;
    int ign_f = 0;
    const arg_opt opts[] = {
        {"num-layers", 0, ARG_INT, &a.num_layers, "N", "transformer layers (required)"},
        {"hidden-size", 0, ARG_INT, &a.hidden_size, "N", "model width C (required)"},
        {"num-attention-heads", 0, ARG_INT, &a.num_heads, "N", "attention heads; must divide --hidden-size (required)"},
        {"seq-length", 0, ARG_INT, &a.seq_length, "N", "tokens per sample (required)"},
        {"max-position-embeddings", 0, ARG_INT, &a.max_position_embeddings, "N", "position table size (default: --seq-length)"},
        {"init-method-std", 0, ARG_DOUBLE, &a.init_method_std, "X", "std of the normal init (default 0.02; residual\n"
                                                                     "                                projections get X/sqrt(2*layers))"},
        {"micro-batch-size", 0, ARG_INT, &a.micro_batch_size, "N", "samples per forward/backward (default 1)"},
        {"global-batch-size", 0, ARG_INT, &a.global_batch_size, "N", "samples per optimizer step, a multiple of the\n"
                                                                      "                                micro-batch (gradient accumulation; default: micro-batch)"},
        {"train-iters", 0, ARG_INT, &a.train_iters, "N", "iterations to train (required)"},
        {"exit-interval", 0, ARG_INT, &a.exit_interval, "N", "save (with --save) and exit when the iteration is a\n"
                                                              "                                multiple of N"},
        {"lr", 0, ARG_DOUBLE, &a.lr, "X", "peak learning rate (default 3e-4)"},
        {"min-lr", 0, ARG_DOUBLE, &a.min_lr, "X", "learning rate at the end of the decay (default 0)"},
        {"lr-decay-style", 0, ARG_STR, &a.lr_decay_style, "S", "constant, linear (default) or cosine"},
        {"lr-warmup-iters", 0, ARG_INT, &a.lr_warmup_iters, "N", "linear warmup from 0 over N iterations (default 0)"},
        {"lr-warmup-fraction", 0, ARG_DOUBLE, &a.lr_warmup_fraction, "X", "warmup as a fraction of --lr-decay-iters"},
        {"lr-decay-iters", 0, ARG_INT, &a.lr_decay_iters, "N", "iterations of decay (default: --train-iters)"},
        {"weight-decay", 0, ARG_DOUBLE, &a.weight_decay, "X", "AdamW decoupled weight decay on 2-D weights (default 0.01)"},
        {"adam-beta1", 0, ARG_DOUBLE, &a.adam_beta1, "X", "default 0.9"},
        {"adam-beta2", 0, ARG_DOUBLE, &a.adam_beta2, "X", "default 0.999"},
        {"adam-eps", 0, ARG_DOUBLE, &a.adam_eps, "X", "default 1e-8"},
        {"clip-grad", 0, ARG_DOUBLE, &a.clip_grad, "X", "clip the global gradient norm to X (default 1.0; 0: off)"},
        {"seed", 0, ARG_INT, &a.seed, "N", "initialisation and data-shuffle seed (default 1234)"},
        {"data-path", 0, ARG_NARGS, &data, "[W] PREFIX", "dataset prefix(es): PREFIX, or W1 PREFIX1 W2 PREFIX2 ... to\n"
                                                           "                                blend (PREFIX.bin/.idx from preprocess_data); several\n"
                                                           "                                prefixes without weights: equal weights"},
        {"split", 0, ARG_STR, &a.split, "S", "train,valid,test split of the sequences (default \"969, 30, 1\")"},
        {"data-cache-path", 0, ARG_STR, &a.data_cache_path, "DIR", "where the sample-index cache goes (default: next\n"
                                                                  "                                to each dataset)"},
        {"tokenizer-type", 0, ARG_STR, &a.tokenizer_type, "NAME", "the tokenizer the data was made with (default\n"
                                                                "                                GPT2BPETokenizer): " TOKCLI_TYPES},
        {"tokenizer-model", 0, ARG_STR, &a.tokenizer_model, "FILE", "its vocabulary (.tiktoken, tokenizer.json, .model)"},
        {"vocab-file", 0, ARG_STR, &a.vocab_file, "FILE", "GPT-2 encoder.json (default: the project's data/gpt2)"},
        {"merge-file", 0, ARG_STR, &a.merge_file, "FILE", "GPT-2 vocab.bpe (default: the project's data/gpt2)"},
        {"tiktoken-pattern", 0, ARG_STR, &a.tiktoken_pattern, "NAME", "TikTokenizer: as preprocess_data's"},
        {"tiktoken-num-special-tokens", 0, ARG_INT, &a.tiktoken_num_special, "N", "TikTokenizer v1/v2: as preprocess_data's"},
        TOKCLI_SP_LEGACY_OPT(&a.tokenizer_sp_legacy),
        {"vocab-size", 0, ARG_INT, &a.vocab_size, "N", "NullTokenizer: ids below N (the vocabulary is N + 1 with EOD)"},
        {"make-vocab-size-divisible-by", 0, ARG_INT, &a.make_vocab_size_divisible_by, "N", "pad the vocabulary to a multiple\n"
                                                                "                                of N x tensor-parallel size (default 128)"},
        {"eval-interval", 0, ARG_INT, &a.eval_interval, "N", "validate every N iterations (default 1000)"},
        {"eval-iters", 0, ARG_INT, &a.eval_iters, "N", "global batches per validation (default 100; 0: none)"},
        {"log-interval", 0, ARG_INT, &a.log_interval, "N", "print a log line every N iterations (default 100)"},
        {"log-json", 0, ARG_STR, &a.log_json, "FILE", "append the logged figures as JSON lines (default:\n"
                                                       "                                SAVE/train_log.jsonl with --save)"},
        {"save", 0, ARG_STR, &a.save, "DIR", "checkpoint directory"},
        {"save-interval", 0, ARG_INT, &a.save_interval, "N", "checkpoint every N iterations (and at the end)"},
        {"load", 0, ARG_STR, &a.load, "DIR", "resume from DIR's latest checkpoint (model, optimizer, data\n"
                                              "                                position, schedule); none there: start from scratch"},
        {"device", 0, ARG_STR, &a.device, "D", "cpu or cuda (default: cuda when this build has the CUDA\n"
                                                  "backend and a GPU is present, else cpu); checked: the\n"
                                                  "CPU kernels behind the device interface (a test)"},
        {"peak-tflops", 0, ARG_DOUBLE, &a.peak_tflops, "X", "peak TFLOP/s for MFU (default: the GPU's bf16 dense\n"
                                                  "peak, or estimated from the CPU)"},
        {"max-consecutive-skips", 0, ARG_INT, &a.max_consecutive_skips, "N", "stop after N consecutive iterations with\n"
                                                                              "                                a non-finite loss or gradient (default 10)"},
        {"tensor-model-parallel-size", 0, ARG_INT, &a.tensor_parallel, "N", "tensor-parallel ranks: heads, MLP and vocabulary split\n"
                                                                                             "                                over N ranks (default 1)"},
        {"pipeline-model-parallel-size", 0, ARG_INT, &a.pipeline_parallel, "N", "pipeline stages: layers split, 1F1B schedule (default 1)"},
        {"num-layers-per-virtual-pipeline-stage", 0, ARG_INT, &a.layers_per_virtual_stage, "N",
         "interleaved 1F1B: each stage holds (layers / pipeline\n"
         "                                size) / N model chunks of N layers (default: none)"},
        {"sequence-parallel", 0, ARG_FLAG, &a.sequence_parallel, NULL, "with tensor parallelism: LayerNorms and the residual\n"
                                                                       "                                stream on a tp-th of the tokens each"},
        {"use-distributed-optimizer", 0, ARG_FLAG, &a.use_distributed_optimizer, NULL, "shard the AdamW state across the\n"
                                                                                       "                                data-parallel ranks (ZeRO stage 1)"},
        {"zero-stage", 0, ARG_INT, &a.zero_stage, "N", "0: replicated optimizer (default), 1: sharded optimizer\n"
                                                       "                                state (= --use-distributed-optimizer), 2: and\n"
                                                       "                                gradients, 3: and parameters (gathered per layer)"},
        {"ddp-bucket-size", 0, ARG_INT, &a.ddp_bucket_size, "N", "gradient elements per communication bucket\n"
                                                                 "                                (default max(40M, 1M x data-parallel size))"},
        {"ffn-hidden-size", 0, ARG_STR, &ffn, "N", "must be 4 x --hidden-size (GPT-2)"},
        {"attention-dropout", 0, ARG_STR, &adrop, "P", "accepted; this trainer uses no dropout"},
        {"hidden-dropout", 0, ARG_STR, &hdrop, "P", "accepted; this trainer uses no dropout"},
        {"position-embedding-type", 0, ARG_STR, &pos_emb, "T", "learned_absolute (the only one)"},
        {"normalization", 0, ARG_STR, &norm, "T", "LayerNorm (the only one)"},
        {"bf16", 0, ARG_FLAG, &a.bf16, NULL, "bf16 parameters and activations, fp32 master weights, gradients\n"
                                              "                                and AdamW state (the CPU rounds as the GPU and computes in fp32)"},
        {"fp16", 0, ARG_FLAG, &a.fp16, NULL, "fp16 likewise, with loss scaling"},
        {"grad-reduce-in-bf16", 0, ARG_FLAG, &a.grad_reduce_in_bf16, NULL, "the parallel model: reduce gradients\n"
                                              "                                over the data-parallel group in bf16 (default fp32)"},
        {"loss-scale", 0, ARG_DOUBLE, &a.loss_scale, "X", "fp16: a static loss scale (default: dynamic)"},
        {"initial-loss-scale", 0, ARG_DOUBLE, &a.initial_loss_scale, "X", "fp16: the dynamic scale's start (default 2^32)"},
        {"min-loss-scale", 0, ARG_DOUBLE, &a.min_loss_scale, "X", "fp16: the dynamic scale's floor (default 1)"},
        {"loss-scale-window", 0, ARG_INT, &a.loss_scale_window, "N", "fp16: double the scale after N clean iterations\n"
                                                                    "(default 1000)"},
        {"hysteresis", 0, ARG_INT, &a.hysteresis, "N", "fp16: halve the scale after N overflows (default 2)"},
        {"cpu-offload", 0, ARG_FLAG, &a.cpu_offload, NULL, "--device cuda: fp32 master weights and AdamW state in\n"
                                              "pinned host memory, updated by CPU threads while the\n"
                                              "gradients stream in (6 bytes per parameter on the GPU, not 18)"},
        {"optimizer-cpu-offload", 0, ARG_FLAG, &a.cpu_offload, NULL, "the same (Megatron-Core's name)"},
        {"no-cublaslt-epilogues", 0, ARG_FLAG, &a.no_epilogues, NULL, "--device cuda: bias and GELU as separate kernels"},
        {"data-impl", 0, ARG_STR, &ign_s, "IMPL", "accepted (mmap)"},
        {"distributed-backend", 0, ARG_STR, &a.distributed_backend, "B", "nccl or mpi: --device cuda runs its data\n"
                                              "parallelism over NCCL (nccl with one rank: the NCCL\n"
                                              "path all the same); --device cpu over MPI; on device\n"
                                              "buffers mpi stages through host memory (default: NCCL\n"
                                              "unless ranks share a GPU)"},
        {"num-workers", 0, ARG_STR, &ign_s, "N", "accepted (data loading is in-process)"},
        {"DDP-impl", 0, ARG_STR, &ign_s, "I", "accepted"},
        {"tensorboard-dir", 0, ARG_STR, &ign_s, "DIR", "accepted; see --log-json"},
        {"transformer-impl", 0, ARG_STR, &ign_s, "I", "accepted"},
        {"recompute-activations", 0, ARG_FLAG, &a.recompute_activations, NULL, "keep one layer's LayerNorm and GELU\n"
                                              "outputs, recompute them in backward (any device)"},
        {"checkpoint-activations", 0, ARG_FLAG, &a.recompute_activations, NULL, "the same (Megatron's older name)"},
        {"attention-backend", 0, ARG_STR, &a.attention_backend, "B", "--device cuda: auto (default: fused where it\n"
                                              "applies, else unfused), fused (cuDNN's flash attention),\n"
                                              "flash (our FlashAttention-2 kernels: head size 64, T a\n"
                                              "multiple of 64), unfused (batched GEMMs, T x T scratch)"},
        {"use-flash-attn", 0, ARG_FLAG, &a.use_flash_attn, NULL, "--attention-backend flash (Megatron's older flag)"},
        {"cuda-parallel-model", 0, ARG_FLAG, &a.cuda_parallel_model, NULL, "--device cuda: run the parallel model on the\n"
                                              "CUDA operation table (what tensor / pipeline\n"
                                              "parallelism, ZeRO and ranks sharing a GPU use)"},
        {"no-masked-softmax-fusion", 0, ARG_FLAG, &ign_f, NULL, "accepted"},
        {"no-bias-gelu-fusion", 0, ARG_FLAG, &ign_f, NULL, "accepted"},
        {"no-bias-dropout-fusion", 0, ARG_FLAG, &ign_f, NULL, "accepted"},
        {"use-mcore-models", 0, ARG_FLAG, &ign_f, NULL, "accepted"},
        {"log-throughput", 0, ARG_FLAG, &ign_f, NULL, "accepted (always logged)"},
        {NULL, 0, 0, NULL, NULL, NULL}};
    arg_spec spec = {
        "train", "--num-layers N --hidden-size N --num-attention-heads N --seq-length N --train-iters N --data-path PREFIX [options]",
        "Train a GPT-2 model on Megatron .bin/.idx datasets with Megatron-LM's flags, sample order and\n"
        "log layout. Checkpoints (--save/--load) resume bit-identically; SIGTERM or SIGINT saves a\n"
        "checkpoint at the end of the current iteration and exits 0. Threads: OMP_NUM_THREADS.\n"
        "The learning rate printed is the one the iteration used.\n"
        "Data parallelism: start N processes with mpirun -np N (or srun); each takes its share of\n"
        "every global batch and the gradients are summed, so the result matches one process.",
        opts,
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
    char **pos = NULL;
    int npos = 0;
    args_set_version_extra(train_build_info);
    args_allow_several_ranks(); /* the trainer runs as N ranks itself; without MPI dist_init refuses */
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0)
        return rc;
    const char *usage = NULL;
    if (npos)
        usage = "unexpected positional argument (datasets go after --data-path)";
    else if (ffn && atoll(ffn) != 4 * a.hidden_size)
        usage = "--ffn-hidden-size must be 4 x --hidden-size (GPT-2)";
    else if (pos_emb && strcmp(pos_emb, "learned_absolute"))
        usage = "--position-embedding-type: only learned_absolute (GPT-2)";
    else if (norm && strcmp(norm, "LayerNorm"))
        usage = "--normalization: only LayerNorm (GPT-2)";
    if (usage) {
        fprintf(stderr, "train: %s\nTry 'train --help'.\n", usage);
        free(pos);
        args_list_free(&data);
        return EXIT_USAGE;
    }
    if ((adrop && atof(adrop) != 0) || (hdrop && atof(hdrop) != 0))
        fprintf(stderr, "note: dropout is not implemented; training without it\n");
    if (a.fp16 && a.bf16)
        usage = "give --fp16 or --bf16, not both";
    if (usage) {
        fprintf(stderr, "train: %s\nTry 'train --help'.\n", usage);
        free(pos);
        args_list_free(&data);
        return EXIT_USAGE;
    }
    a.data_path = data.items;
    a.n_data_path = (int)data.n;
    a.quiet = args_quiet_flag;
    rc = trainer_run(&a);
    free(pos);
    args_list_free(&data);
    return rc;
}

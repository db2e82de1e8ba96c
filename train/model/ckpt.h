/* ckpt.h - training checkpoints: model, AdamW moments and trainer state.
 *
 * Layout on disk (Megatron's directory convention):
 *   SAVE/latest_checkpointed_iteration.txt   the iteration number (or "release")
 *   SAVE/iter_0000100/model.ckpt             one file per checkpoint
 * model.ckpt (little-endian; a contract, version 1):
 *   char magic[8] "WTGPTCKP"; u32 version; u32 header_bytes (= 160);
 *   i32 max_seq_len, vocab_size, padded_vocab_size, num_layers, num_heads, channels;
 *   u64 num_params, iteration, consumed_train, consumed_valid, adam_step,
 *       skipped_iters, seed, seq_length, micro_batch, global_batch;
 *   u32 layout[6]: the parallel layout it was saved from - tensor, pipeline and
 *       data-parallel sizes, model chunks per stage, ZeRO stage, sequence
 *       parallel (all zero in files of trainers that did not record it; the
 *       file itself is the same whatever the layout);
 *   u8 reserved[16] (zero);
 *   f32 params[num_params]; f32 adam_m[num_params]; f32 adam_v[num_params];
 *   u64 XXH3-64 of every byte before it.
 * A checkpoint is written into iter_N.tmp-PID/ and renamed to iter_N/ once
 * complete and fsync'd; the latest file is replaced atomically afterwards, so a
 * crash at any point leaves the previous checkpoint as "latest".
 */
#ifndef TRAIN_CKPT_H
#define TRAIN_CKPT_H

#include <stdint.h>

#include "train/model/gpt.h"

typedef struct {
    uint64_t iteration;      /* iterations completed */
    uint64_t consumed_train; /* training samples consumed */
    uint64_t consumed_valid; /* validation samples consumed */
    uint64_t adam_step;      /* optimizer steps taken (skipped iterations excluded) */
    uint64_t skipped_iters;
    uint64_t seed;
    uint64_t seq_length, micro_batch, global_batch;
    uint32_t layout[6];      /* saved from: tp, pp, dp, vpp, zero stage, sp (0: not recorded) */
} ckpt_state;

/* Save into dir/iter_%07d/ and point dir/latest_checkpointed_iteration.txt at it. */
int ckpt_save(const char *dir, const gpt_model *m, const ckpt_state *st);
/* Find the checkpoint dir/latest points at: 0 with *path malloc'd (caller
 * frees), 1 when dir has no latest file (nothing to load), or ERR_*. */
int ckpt_find_latest(const char *dir, char **path);
/* The model.ckpt that --load names: a model.ckpt file, a directory holding
 * one (iter_N/), or a --save directory (its latest). 0 with *path malloc'd,
 * 1 when the directory has neither (message set), or ERR_*. */
int ckpt_resolve(const char *load, char **path);
/* Read the header of a model.ckpt: model config and state. */
int ckpt_read_header(const char *path, gpt_config *cfg, ckpt_state *st);
/* Load weights and moments into m (allocated for the same config) after
 * verifying the checksum. A different config is refused (ERR_FORMAT). */
int ckpt_load(const char *path, gpt_model *m, ckpt_state *st);

#endif

/* trainer.h - the training loop behind bin/train (Megatron-compatible flags).
 *
 * One iteration = global_batch samples in global_batch/micro_batch
 * micro-batches (gradient accumulation), then gradient clipping and one AdamW
 * step. Samples come from the Megatron sample index (gptdata.h) in order, so
 * iteration i always sees samples [(i-1)*gbs, i*gbs) of the shuffled stream.
 * With data parallelism (dp ranks) each rank runs gbs/(mbs*dp) micro-batches:
 * micro-step k of data-parallel rank r takes samples
 * [k*mbs*dp + r*mbs, k*mbs*dp + (r+1)*mbs) of the iteration's, as Megatron's
 * pretraining sampler hands them out, and the gradients are summed across the
 * ranks (dist/ddp.h), so the global batch and the data order are the same
 * whatever the layout.
 */
#ifndef TRAIN_TRAINER_H
#define TRAIN_TRAINER_H

#include <stdint.h>

#include "train/train_args.h"


/* Learning rate used by iteration it+1 (it iterations done), Megatron's
 * OptimizerParamScheduler: linear warmup from 0, then constant, linear or
 * cosine decay to min_lr at lr_decay_iters, min_lr after. */
double train_lr_at(const train_args *a, int64_t it);
/* Run training. Returns a process exit status (0 ok; see README). */
int trainer_run(train_args *a);

#endif

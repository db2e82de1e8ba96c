/* nccl.h - the communicator's NCCL backend: collectives on device buffers for
 * the CUDA backend (dist.h keeps MPI for host buffers).
 *
 * A communicator spans one process group of dist.h (for data parallelism, the
 * data-parallel group): the group's rank 0 makes NCCL's unique id and
 * broadcasts it over MPI (dist_broadcast), then every rank joins with
 * ncclCommInitRank. A group of one needs no MPI (a world started without a
 * launcher), so the NCCL path itself runs and is tested on a single GPU.
 * Byte counts follow dist.h's ring costs, so the trainer's communication
 * volume is the same figure whichever backend moved the bytes.
 *
 * Built with the CUDA backend when nccl.h is found (WEBTEXT_NCCL). */
#ifndef TRAIN_PARALLEL_NCCL_H
#define TRAIN_PARALLEL_NCCL_H

#include <stddef.h>

#include "train/parallel/dist.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dist_nccl dist_nccl;

/* Join group g's NCCL communicator on the current CUDA device. 0 or ERR_* with
 * a message (a failure on one rank is reported by that rank; the caller aborts
 * all ranks through dist_abort). */
int dist_nccl_init(dist_nccl **c, dist_ctx *d, dist_group *g);
void dist_nccl_free(dist_nccl *c);

#ifdef __cplusplus
}
#endif
#endif

/* dist.h - the trainer's communicator: ranks, Megatron's process groups and the
 * collectives the parallel layouts use, on host buffers.
 *
 * Backends: MPI (OpenMPI; built when mpicc is found, WEBTEXT_MPI) for host
 * buffers. A process started without an MPI launcher (no mpirun / srun
 * environment) is a world of one: every collective is then a copy or nothing,
 * and MPI is never initialised, so the trainer runs as a plain program. The
 * NCCL backend for device buffers (its unique id broadcast over this
 * communicator) belongs to the CUDA backend.
 *
 * Rank layout, as Megatron orders it (megatron/core/parallel_state.py): tensor-
 * parallel ranks adjacent, then data-parallel, then pipeline:
 *   rank = pp_rank * (dp * tp) + dp_rank * tp + tp_rank,   dp = world / (tp * pp).
 * Groups: tensor (same pp, dp), data (same pp, tp), pipeline (same tp, dp), and
 * embedding (the first and last stage of each pipeline group: the tied word
 * embedding's gradient is summed there).
 *
 * Every collective counts the bytes each rank sends under the ring algorithm's
 * cost (all-reduce 2(n-1)/n of the buffer, reduce-scatter and all-gather
 * (n-1)/n of the full buffer, broadcast the buffer, send the message), so the
 * trainer can print its communication volume per iteration and tests can check
 * it against the formulas of the Megatron-LM and ZeRO papers.
 *
 * Errors: a failed collective returns ERR_INTERNAL with a message. A failure on
 * one rank that the others cannot know about ends every rank through
 * dist_abort(), never a hang.
 */
#ifndef TRAIN_PARALLEL_DIST_H
#define TRAIN_PARALLEL_DIST_H

#include <stddef.h>
#include <stdint.h>

typedef struct dist_group {
    void *comm;  /* MPI_Comm (boxed), NULL for a group of one */
    int rank, size;
} dist_group;

typedef struct dist_ctx {
    int world_rank, world_size;
    int tp, pp, dp;                /* sizes */
    int tp_rank, pp_rank, dp_rank;
    dist_group world, tensor, pipeline, data, embedding;
    int in_embedding;              /* this rank is a first or last stage */
    int use_mpi;                   /* MPI initialised (launched by mpirun / srun) */
    uint64_t bytes_sent;           /* by this rank, ring-algorithm cost, since dist_init */
} dist_ctx;

/* Megatron's position of world rank r for sizes tp, pp, dp (see above). */
void dist_layout(int r, int tp, int pp, int dp, int *tp_rank, int *dp_rank, int *pp_rank);
/* 1 when this process was started by an MPI launcher (mpirun, srun). */
int dist_launched(void);
/* This process's rank on its node and the ranks on the node, from the launcher's
 * environment (OpenMPI, Slurm, MPICH, torchrun-style LOCAL_RANK); 0 and 1 without. */
int dist_local_rank(int *local_size);
/* Start the communicator and build the groups for tensor size tp and pipeline
 * size pp (world must be a multiple of tp*pp). 0 or ERR_USAGE / ERR_INTERNAL. */
int dist_init(dist_ctx *d, int tp, int pp);
/* End MPI (after a barrier). Safe on a world of one. */
void dist_finalize(dist_ctx *d);
/* End every rank now with exit status code (MPI_Abort); never returns. */
void dist_abort(dist_ctx *d, int code) __attribute__((noreturn));
/* "yes (Open MPI 4.1.4, MPI 3.1)" or "no (...)": what this build has, for --version. */
const char *dist_mpi_info(void);

/* A one-line description of the layout, e.g. "world 8 = tp 2 x pp 2 x dp 2". */
void dist_describe(const dist_ctx *d, char *buf, size_t n);

/* In place: buf[i] = sum over the group's ranks. */
int dist_allreduce_f32(dist_ctx *d, dist_group *g, float *buf, size_t n);
int dist_allreduce_f64(dist_ctx *d, dist_group *g, double *buf, size_t n);
/* In place: buf[i] = max over the group's ranks (exact: a max has no rounding). */
int dist_allreduce_max_i64(dist_ctx *d, dist_group *g, int64_t *buf, size_t n);
int dist_allreduce_max_f32(dist_ctx *d, dist_group *g, float *buf, size_t n);
/* send [size * n] -> recv [n]: recv = sum over ranks of send's block `rank`. */
int dist_reduce_scatter_f32(dist_ctx *d, dist_group *g, const float *send, float *recv, size_t n);
/* send [n] (may alias recv + rank * n) -> recv [size * n], blocks in rank order. */
int dist_allgather_f32(dist_ctx *d, dist_group *g, const float *send, float *recv, size_t n);
/* The same two started now and completed by dist_wait (MPI's nonblocking collectives;
 * every rank starts a group's in the same order, and leaves the buffers alone until
 * the wait). *req: NULL when nothing is left to wait for (a group of one). */
int dist_ireduce_scatter_f32(dist_ctx *d, dist_group *g, const float *send, float *recv, size_t n, void **req);
int dist_iallgather_f32(dist_ctx *d, dist_group *g, const float *send, float *recv, size_t n, void **req);
/* In place: buf [n] = the sum over the group (MPI_Iallreduce). */
int dist_iallreduce_f32(dist_ctx *d, dist_group *g, float *buf, size_t n, void **req);
int dist_wait(void **req);
int dist_broadcast(dist_ctx *d, dist_group *g, void *buf, size_t bytes, int root);
/* Point to point within a group (ranks of that group). */
int dist_send(dist_ctx *d, dist_group *g, const void *buf, size_t bytes, int peer, int tag);
int dist_recv(dist_ctx *d, dist_group *g, void *buf, size_t bytes, int peer, int tag);
/* Send to one peer and receive from one peer at once (Megatron's
 * send_forward_recv_backward and the like): no deadlock when two ranks exchange. */
int dist_sendrecv(dist_ctx *d, dist_group *g, const void *sbuf, size_t sbytes, int speer, void *rbuf, size_t rbytes,
                  int rpeer, int tag);
int dist_barrier(dist_ctx *d, dist_group *g);

/* Point to point posted together and completed together (NCCL's group of
 * ncclSend / ncclRecv, Megatron's batched p2p): sends (sbuf non-NULL) and
 * receives (rbuf) of one step. rendezvous: a send completes only once its
 * receive is posted (MPI_Issend), as NCCL's do, so a schedule that would
 * deadlock on NCCL deadlocks here too. */
typedef struct {
    const void *sbuf;
    void *rbuf;
    size_t bytes;
    int peer;
} dist_p2p_op;
int dist_p2p_batch(dist_ctx *d, dist_group *g, const dist_p2p_op *ops, int n, int tag, int rendezvous);

#endif

/* comm.h - a communicator per process group (tensor, pipeline, data,
 * embedding) on the buffers of an operation table (train/ops/ops.h).
 *
 * The parallel model (gpt.c, ddp.c, schedules.c) moves activations, gradients
 * and parameters only through these calls, so the same code runs on host and
 * on device memory. Implementations, one per group:
 *
 *   mpi     host buffers (the CPU backend): dist.h's MPI collectives.
 *   nccl    device buffers, every rank of the group on its own GPU: NCCL on
 *           the table's stream (train/parallel/nccl.cu).
 *   staged  device buffers when ranks share a GPU, which NCCL refuses
 *           ("Duplicate GPU detected"): each call copies through host memory
 *           (pinned on CUDA) and runs the MPI collective there.
 *
 * comm_init chooses: mpi for a host table; for a device table nccl when the
 * group's GPUs (their UUIDs, gathered over the group) are all different and
 * NCCL is built, staged otherwise. --distributed-backend forces one: "mpi"
 * (staged on a device table), "nccl" (an error naming the ranks when two of
 * them share a GPU). Every implementation counts the bytes each rank sends as
 * dist.h does (ring costs), so the trainer's communication figures do not
 * depend on which moved them.
 *
 * Point to point follows Megatron's batched p2p (p2p_communication.py's
 * _batched_p2p_ops): a rank posts its send and its receive of one step
 * together (comm_p2p, comm_sendrecv), so that NCCL, whose sends block until
 * the peer receives, cannot deadlock where MPI would not. On a device table
 * the forced backend "nccl-emulated" (what the trainer passes for the checked
 * test table with --distributed-backend nccl) emulates NCCL's semantics over MPI
 * (untagged: messages between two ranks match in order; a send completes only
 * once its receive is posted; each step's operations complete together), so
 * the schedules are tested against them without a GPU.
 *
 * Errors: ERR_INTERNAL with a message naming the collective and the group.
 */
#ifndef TRAIN_PARALLEL_COMM_H
#define TRAIN_PARALLEL_COMM_H

#include <stddef.h>

#include "train/ops/ops.h"
#include "train/parallel/dist.h"

typedef enum { COMM_MPI, COMM_NCCL, COMM_STAGED } comm_kind;
typedef enum { COMM_SUM, COMM_MAX } comm_op;

typedef struct pcomm {
    comm_kind kind;
    const char *group; /* "tensor", "pipeline", "data", "embedding" */
    dist_ctx *d;
    dist_group *g;
    const gpt_ops *ops; /* whose buffers the calls take */
    void *nccl;         /* COMM_NCCL: the dist_nccl */
    char *stage;        /* COMM_STAGED: host buffer */
    size_t stage_cap;
    int nccl_like; /* staged with NCCL's point-to-point semantics (a test: see above) */
} pcomm;

/* The choice, as a pure function (tested): the group's n UUIDs (16 bytes each)
 * and the forced backend (NULL, "mpi", "gloo", "nccl"); with NCCL built or not.
 * Returns the kind, or -1 with a message in why (nccl forced on a shared GPU). */
int comm_choose(int device, const unsigned char (*uuids)[16], int n, const char *forced, int have_nccl, char *why,
                size_t whylen);
/* Set up c for group g of d on ops' buffers. 0 or ERR_*. */
int comm_init(pcomm *c, const char *group, dist_ctx *d, dist_group *g, const gpt_ops *ops, const char *forced);
void comm_free(pcomm *c);
const char *comm_kind_name(comm_kind k);
/* The kind, and whether it has NCCL's semantics when emulated. */
const char *comm_name(const pcomm *c);

/* In place over the group: sum or max. */
int comm_allreduce(pcomm *c, float *buf, size_t n, comm_op op);
/* send [size * n] -> recv [n]: recv = sum over ranks of send's block `rank`. */
int comm_reduce_scatter(pcomm *c, const float *send, float *recv, size_t n);
/* send [n] (may be recv + rank * n) -> recv [size * n], blocks in rank order. */
int comm_allgather(pcomm *c, const float *send, float *recv, size_t n);
int comm_broadcast(pcomm *c, void *buf, size_t bytes, int root);
/* Nonblocking (Megatron's --overlap-grad-reduce and --overlap-param-gather): the
 * collective starts now and is complete at comm_wait; its buffers are left alone in
 * between, and every rank of the group starts the group's collectives in the same
 * order (MPI's and NCCL's rule; the tests run them under the NCCL emulation too).
 *   mpi     MPI's nonblocking collectives on the host buffers;
 *   nccl    on a side stream once the table's work so far is done (an event), and
 *           comm_wait makes the table's stream wait for it: the backward goes on
 *           while the reduction runs;
 *   staged  the send copied down now and the MPI call started on the request's own
 *           host buffer; comm_wait completes it and copies the result up.
 * A request is reused call after call (its host buffer kept); comm_req_free at the end. */
typedef struct comm_req {
    int active;
    void *mpi;         /* dist.h's request */
    void *ev;          /* nccl: cudaEvent_t recorded on the side stream */
    char *host;        /* staged: the request's host buffer */
    size_t cap;
    void *up;          /* staged: where the result goes (device), and its bytes */
    size_t up_bytes, up_off;
} comm_req;
int comm_ireduce_scatter(pcomm *c, const float *send, float *recv, size_t n, comm_req *r);
int comm_iallgather(pcomm *c, const float *send, float *recv, size_t n, comm_req *r);
/* In place: buf [n] summed over the group (ZeRO-0's --overlap-grad-reduce). */
int comm_iallreduce(pcomm *c, float *buf, size_t n, comm_req *r);
/* Complete r (nothing when it is not active). */
int comm_wait(pcomm *c, comm_req *r);
void comm_req_free(pcomm *c, comm_req *r);

/* One step of point to point, posted together and completed together (an NCCL
 * group; MPI's nonblocking calls then a wait): sends (sbuf) and receives (rbuf)
 * with peers given as ranks of the group. Two ranks must post the messages
 * between them in the same order (NCCL matches by order). */
int comm_p2p(pcomm *c, const dist_p2p_op *ops, int n, int tag);
/* The same for one send to speer and one receive from rpeer (a peer < 0 leaves
 * that side out). */
int comm_sendrecv(pcomm *c, const void *sbuf, size_t sbytes, int speer, void *rbuf, size_t rbytes, int rpeer, int tag);

/* The profile (WEBTEXT_PROFILE=1): time each call (NCCL's synchronised after it);
 * secs / calls: [0] collectives, [1] point to point (a pipeline's transfers, and its
 * waits for the neighbouring stage: the bubble). */
void comm_profile_enable(int on);
void comm_profile_get(double secs[2], long calls[2]);
void comm_profile_reset(void);

#ifdef WEBTEXT_NCCL
/* nccl.cu: the same calls on NCCL (the table's stream is the default one). */
int comm_nccl_allreduce(pcomm *c, float *buf, size_t n, comm_op op);
int comm_nccl_reduce_scatter(pcomm *c, const float *send, float *recv, size_t n);
int comm_nccl_allgather(pcomm *c, const float *send, float *recv, size_t n);
int comm_nccl_broadcast(pcomm *c, void *buf, size_t bytes, int root);
/* One NCCL group of sends (sbuf) and receives (rbuf). */
int comm_nccl_p2p(pcomm *c, const dist_p2p_op *ops, int n);
/* Nonblocking: on the communicator's side stream after an event of the default one;
 * *ev (a cudaEvent_t, made once and reused) is recorded after the collective, and
 * comm_nccl_wait makes the default stream wait for it. */
int comm_nccl_ireduce_scatter(pcomm *c, const float *send, float *recv, size_t n, void **ev);
int comm_nccl_iallreduce(pcomm *c, float *buf, size_t n, void **ev);
int comm_nccl_iallgather(pcomm *c, const float *send, float *recv, size_t n, void **ev);
int comm_nccl_wait(pcomm *c, void *ev);
void comm_nccl_event_free(void *ev);
#endif

#endif

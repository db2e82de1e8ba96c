/* nccl.cu - the NCCL backend of the communicator (see nccl.h). */
extern "C" {
#include "common/err.h"
#include "train/parallel/comm.h"
#include "train/parallel/nccl.h"
}
#include <cuda_runtime.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

struct dist_nccl {
    ncclComm_t comm;
    dist_ctx *d;
    int size;
    cudaStream_t side; /* the nonblocking collectives' stream (made on first use); once it
                        * exists every collective of the communicator goes there, in the
                        * order issued (two NCCL kernels of one communicator never run at
                        * once on two streams), the blocking ones joined back at once */
    cudaEvent_t ready; /* the default stream's work before one of them */
    cudaEvent_t joined;
};

extern "C" int dist_nccl_init(dist_nccl **out, dist_ctx *d, dist_group *g)
{
    *out = NULL;
    ncclUniqueId id;
    ncclResult_t r;
    if (g->rank == 0 && (r = ncclGetUniqueId(&id)) != ncclSuccess)
        return err_set(ERR_INTERNAL, "NCCL: ncclGetUniqueId: %s", ncclGetErrorString(r));
    uint64_t sent = d->bytes_sent;
    int rc = dist_broadcast(d, g, &id, sizeof id, 0);
    d->bytes_sent = sent; /* set-up, not training traffic */
    if (rc)
        return rc;
    dist_nccl *c = (dist_nccl *)calloc(1, sizeof *c);
    if (!c)
        return err_set(ERR_NOMEM, "out of memory");
    if ((r = ncclCommInitRank(&c->comm, g->size, id, g->rank)) != ncclSuccess) {
        free(c);
        return err_set(ERR_INTERNAL, "NCCL: ncclCommInitRank (rank %d of %d): %s%s", g->rank, g->size,
                       ncclGetErrorString(r),
                       r == ncclInvalidUsage ? " (two ranks on one GPU? each rank needs its own GPU)" : "");
    }
    c->d = d;
    c->size = g->size;
    *out = c;
    return 0;
}

extern "C" void dist_nccl_free(dist_nccl *c)
{
    if (!c)
        return;
    ncclCommDestroy(c->comm);
    if (c->side) {
        cudaStreamDestroy(c->side);
        cudaEventDestroy(c->ready);
        cudaEventDestroy(c->joined);
    }
    free(c);
}

/* ---- the communicator's NCCL implementation (comm.h), on the default stream,
 * which is the CUDA operation table's ---- */

static int nccl_fail(ncclResult_t r, const char *what, const pcomm *c, size_t n)
{
    return err_set(ERR_INTERNAL, "NCCL: %s of %zu elements (%s-parallel group, rank %d of %d): %s", what, n, c->group,
                   c->g->rank, c->g->size, ncclGetErrorString(r));
}

/* dist.c's ring costs, in the same integer arithmetic */
static uint64_t ring_share(uint64_t bytes, int n) { return n > 1 ? bytes * (uint64_t)(n - 1) / (uint64_t)n : 0; }

/* ---- nonblocking: NCCL on the side stream, after the default stream's work so far,
 * so that the table goes on computing while it runs (Megatron's overlap) ---- */
static int side_begin(pcomm *c, dist_nccl *k, void **ev)
{
    cudaError_t e = cudaSuccess;
    if (!k->side) {
        e = cudaStreamCreateWithFlags(&k->side, cudaStreamNonBlocking);
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&k->ready, cudaEventDisableTiming);
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&k->joined, cudaEventDisableTiming);
    }
    if (e == cudaSuccess && !*ev)
        e = cudaEventCreateWithFlags((cudaEvent_t *)ev, cudaEventDisableTiming);
    if (e == cudaSuccess)
        e = cudaEventRecord(k->ready, 0);
    if (e == cudaSuccess)
        e = cudaStreamWaitEvent(k->side, k->ready, 0);
    if (e != cudaSuccess)
        return err_set(ERR_INTERNAL, "CUDA: the %s-parallel group's side stream: %s", c->group, cudaGetErrorString(e));
    return 0;
}
static int side_end(pcomm *c, dist_nccl *k, void *ev)
{
    cudaError_t e = cudaEventRecord((cudaEvent_t)ev, k->side);
    if (e != cudaSuccess)
        return err_set(ERR_INTERNAL, "CUDA: the %s-parallel group's side stream: %s", c->group, cudaGetErrorString(e));
    return 0;
}

/* A blocking call's stream: the default one, or the side stream once there is one
 * (then joined back to the default stream after the call). */
static cudaStream_t blocking_begin(pcomm *c, dist_nccl *k, int *rc)
{
    *rc = 0;
    if (!k->side)
        return 0;
    cudaError_t e = cudaEventRecord(k->ready, 0);
    if (e == cudaSuccess)
        e = cudaStreamWaitEvent(k->side, k->ready, 0);
    if (e != cudaSuccess)
        *rc = err_set(ERR_INTERNAL, "CUDA: the %s-parallel group's side stream: %s", c->group, cudaGetErrorString(e));
    return k->side;
}
static int blocking_end(pcomm *c, dist_nccl *k)
{
    if (!k->side)
        return 0;
    cudaError_t e = cudaEventRecord(k->joined, k->side);
    if (e == cudaSuccess)
        e = cudaStreamWaitEvent(0, k->joined, 0);
    if (e != cudaSuccess)
        return err_set(ERR_INTERNAL, "CUDA: the %s-parallel group's side stream: %s", c->group, cudaGetErrorString(e));
    return 0;
}

extern "C" int comm_nccl_allreduce(pcomm *c, float *buf, size_t n, comm_op op)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    int rc;
    cudaStream_t s = blocking_begin(c, k, &rc);
    if (rc)
        return rc;
    ncclResult_t r = ncclAllReduce(buf, buf, n, ncclFloat32, op == COMM_MAX ? ncclMax : ncclSum, k->comm, s);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclAllReduce", c, n);
    c->d->bytes_sent += 2 * ring_share((uint64_t)n * 4, k->size);
    return blocking_end(c, k);
}

extern "C" int comm_nccl_reduce_scatter(pcomm *c, const float *send, float *recv, size_t n)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    int rc;
    cudaStream_t s = blocking_begin(c, k, &rc);
    if (rc)
        return rc;
    ncclResult_t r = ncclReduceScatter(send, recv, n, ncclFloat32, ncclSum, k->comm, s);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclReduceScatter", c, n);
    c->d->bytes_sent += ring_share((uint64_t)n * k->size * 4, k->size);
    return blocking_end(c, k);
}

extern "C" int comm_nccl_allgather(pcomm *c, const float *send, float *recv, size_t n)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    int rc;
    cudaStream_t s = blocking_begin(c, k, &rc);
    if (rc)
        return rc;
    ncclResult_t r = ncclAllGather(send, recv, n, ncclFloat32, k->comm, s);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclAllGather", c, n);
    c->d->bytes_sent += ring_share((uint64_t)n * k->size * 4, k->size);
    return blocking_end(c, k);
}

extern "C" int comm_nccl_broadcast(pcomm *c, void *buf, size_t bytes, int root)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    int rc;
    cudaStream_t s = blocking_begin(c, k, &rc);
    if (rc)
        return rc;
    ncclResult_t r = ncclBroadcast(buf, buf, bytes, ncclChar, root, k->comm, s);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclBroadcast", c, bytes);
    if (c->g->rank == root && k->size > 1)
        c->d->bytes_sent += bytes;
    return blocking_end(c, k);
}

extern "C" int comm_nccl_ireduce_scatter(pcomm *c, const float *send, float *recv, size_t n, void **ev)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    int rc = side_begin(c, k, ev);
    if (rc)
        return rc;
    ncclResult_t r = ncclReduceScatter(send, recv, n, ncclFloat32, ncclSum, k->comm, k->side);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclReduceScatter (overlapped)", c, n);
    c->d->bytes_sent += ring_share((uint64_t)n * k->size * 4, k->size);
    return side_end(c, k, *ev);
}

extern "C" int comm_nccl_iallreduce(pcomm *c, float *buf, size_t n, void **ev)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    int rc = side_begin(c, k, ev);
    if (rc)
        return rc;
    ncclResult_t r = ncclAllReduce(buf, buf, n, ncclFloat32, ncclSum, k->comm, k->side);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclAllReduce (overlapped)", c, n);
    c->d->bytes_sent += 2 * ring_share((uint64_t)n * 4, k->size);
    return side_end(c, k, *ev);
}

extern "C" int comm_nccl_iallgather(pcomm *c, const float *send, float *recv, size_t n, void **ev)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    int rc = side_begin(c, k, ev);
    if (rc)
        return rc;
    ncclResult_t r = ncclAllGather(send, recv, n, ncclFloat32, k->comm, k->side);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclAllGather (overlapped)", c, n);
    c->d->bytes_sent += ring_share((uint64_t)n * k->size * 4, k->size);
    return side_end(c, k, *ev);
}

extern "C" int comm_nccl_wait(pcomm *c, void *ev)
{
    cudaError_t e = cudaStreamWaitEvent(0, (cudaEvent_t)ev, 0);
    if (e != cudaSuccess)
        return err_set(ERR_INTERNAL, "CUDA: waiting for the %s-parallel group's collective: %s", c->group,
                       cudaGetErrorString(e));
    return 0;
}

extern "C" void comm_nccl_event_free(void *ev)
{
    if (ev)
        cudaEventDestroy((cudaEvent_t)ev);
}

/* Megatron's batched p2p: the sends and receives of one step in one NCCL group,
 * so that none waits for another. */
extern "C" int comm_nccl_p2p(pcomm *c, const dist_p2p_op *ops, int n)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    size_t bytes = 0;
    int rc;
    cudaStream_t s = blocking_begin(c, k, &rc);
    if (rc)
        return rc;
    ncclResult_t r = ncclGroupStart();
    for (int i = 0; i < n && r == ncclSuccess; i++) {
        r = ops[i].sbuf ? ncclSend(ops[i].sbuf, ops[i].bytes, ncclChar, ops[i].peer, k->comm, s)
                        : ncclRecv(ops[i].rbuf, ops[i].bytes, ncclChar, ops[i].peer, k->comm, s);
        bytes += ops[i].bytes;
    }
    ncclResult_t e = ncclGroupEnd();
    if (r == ncclSuccess)
        r = e;
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclSend/ncclRecv", c, bytes);
    for (int i = 0; i < n; i++)
        if (ops[i].sbuf)
            c->d->bytes_sent += ops[i].bytes;
    return blocking_end(c, k);
}

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
    free(c);
}

extern "C" int dist_nccl_allreduce_f32(dist_nccl *c, float *buf, size_t n, void *stream)
{
    ncclResult_t r = ncclAllReduce(buf, buf, n, ncclFloat32, ncclSum, c->comm, (cudaStream_t)stream);
    if (r != ncclSuccess)
        return err_set(ERR_INTERNAL, "NCCL: ncclAllReduce of %zu floats: %s", n, ncclGetErrorString(r));
    /* ring all-reduce: each rank sends 2 (n - 1) / n of the buffer */
    c->d->bytes_sent += (uint64_t)(2.0 * (c->size - 1) / c->size * (double)n * 4 + 0.5);
    return 0;
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

extern "C" int comm_nccl_allreduce(pcomm *c, float *buf, size_t n, comm_op op)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    ncclResult_t r = ncclAllReduce(buf, buf, n, ncclFloat32, op == COMM_MAX ? ncclMax : ncclSum, k->comm, 0);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclAllReduce", c, n);
    c->d->bytes_sent += 2 * ring_share((uint64_t)n * 4, k->size);
    return 0;
}

extern "C" int comm_nccl_reduce_scatter(pcomm *c, const float *send, float *recv, size_t n)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    ncclResult_t r = ncclReduceScatter(send, recv, n, ncclFloat32, ncclSum, k->comm, 0);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclReduceScatter", c, n);
    c->d->bytes_sent += ring_share((uint64_t)n * k->size * 4, k->size);
    return 0;
}

extern "C" int comm_nccl_allgather(pcomm *c, const float *send, float *recv, size_t n)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    ncclResult_t r = ncclAllGather(send, recv, n, ncclFloat32, k->comm, 0);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclAllGather", c, n);
    c->d->bytes_sent += ring_share((uint64_t)n * k->size * 4, k->size);
    return 0;
}

extern "C" int comm_nccl_broadcast(pcomm *c, void *buf, size_t bytes, int root)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    ncclResult_t r = ncclBroadcast(buf, buf, bytes, ncclChar, root, k->comm, 0);
    if (r != ncclSuccess)
        return nccl_fail(r, "ncclBroadcast", c, bytes);
    if (c->g->rank == root && k->size > 1)
        c->d->bytes_sent += bytes;
    return 0;
}

/* Megatron's batched p2p: the sends and receives of one step in one NCCL group,
 * so that none waits for another. */
extern "C" int comm_nccl_p2p(pcomm *c, const dist_p2p_op *ops, int n)
{
    dist_nccl *k = (dist_nccl *)c->nccl;
    size_t bytes = 0;
    ncclResult_t r = ncclGroupStart();
    for (int i = 0; i < n && r == ncclSuccess; i++) {
        r = ops[i].sbuf ? ncclSend(ops[i].sbuf, ops[i].bytes, ncclChar, ops[i].peer, k->comm, 0)
                        : ncclRecv(ops[i].rbuf, ops[i].bytes, ncclChar, ops[i].peer, k->comm, 0);
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
    return 0;
}

extern "C" const char *dist_nccl_version(void)
{
    static char buf[32];
    int v = 0;
    ncclGetVersion(&v);
    /* NCCL 2.9+: major * 10000 + minor * 100 + patch */
    snprintf(buf, sizeof buf, "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
    return buf;
}

extern "C" int dist_local_device(int gpus, char *why, size_t n)
{
    int lsize, local = dist_local_rank(&lsize);
    if (gpus < 1 || lsize > gpus) {
        snprintf(why, n, "%d ranks on this node but %d GPU%s: NCCL needs one GPU per rank", lsize, gpus,
                 gpus == 1 ? "" : "s");
        return -1;
    }
    return local % gpus;
}

/* comm.c - the communicators of the process groups (see comm.h). */
#include "train/parallel/comm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/err.h"
#ifdef WEBTEXT_NCCL
#include "train/parallel/nccl.h"
#endif

const char *comm_kind_name(comm_kind k)
{
    return k == COMM_NCCL ? "nccl" : k == COMM_STAGED ? "staged" : "mpi";
}

const char *comm_name(const pcomm *c)
{
    return c->kind == COMM_STAGED && c->nccl_like ? "staged with NCCL's semantics" : comm_kind_name(c->kind);
}

int comm_choose(int device, const unsigned char (*uuids)[16], int n, const char *forced, int have_nccl, char *why,
                size_t whylen)
{
    int want_mpi = forced && (!strcmp(forced, "mpi") || !strcmp(forced, "gloo"));
    int want_nccl = forced && !strcmp(forced, "nccl");
    if (!device)
        return COMM_MPI; /* host buffers: NCCL has nothing to do with them */
    int a = -1, b = -1;
    for (int i = 0; i < n && a < 0; i++)
        for (int j = i + 1; j < n; j++)
            if (!memcmp(uuids[i], uuids[j], 16)) {
                a = i;
                b = j;
                break;
            }
    if (want_nccl) {
        if (!have_nccl) {
            snprintf(why, whylen, "--distributed-backend nccl: this build has no NCCL (nccl.h was not found)");
            return -1;
        }
        if (a >= 0) {
            snprintf(why, whylen,
                     "--distributed-backend nccl: ranks %d and %d of the group share a GPU, which NCCL refuses "
                     "(\"Duplicate GPU detected\"); leave --distributed-backend out to stage through host memory "
                     "over MPI, or run one rank per GPU", a, b);
            return -1;
        }
        return COMM_NCCL;
    }
    if (want_mpi || a >= 0 || !have_nccl)
        return COMM_STAGED;
    return COMM_NCCL;
}

int comm_init(pcomm *c, const char *group, dist_ctx *d, dist_group *g, const gpt_ops *ops, const char *forced)
{
    memset(c, 0, sizeof *c);
    c->group = group;
    c->d = d;
    c->g = g;
    c->ops = ops;
    int n = g->size > 0 ? g->size : 1;
    unsigned char(*u)[16] = calloc((size_t)n, 16);
    if (!u)
        return err_set(ERR_NOMEM, "out of memory");
    if (ops->device) {
        /* Every rank's UUID, by a broadcast from each (set-up, not training traffic). */
        uint64_t sent = d->bytes_sent;
        ops->mem.device_uuid(u[g->rank]);
        for (int r = 0; r < n; r++) {
            int rc = dist_broadcast(d, g, u[r], 16, r);
            if (rc) {
                free(u);
                return rc;
            }
        }
        d->bytes_sent = sent;
    }
#ifdef WEBTEXT_NCCL
    int have_nccl = ops->nccl;
#else
    int have_nccl = 0;
#endif
    char why[300];
    if (forced && !strcmp(forced, "nccl-emulated") && ops->device) { /* tests: staged, NCCL's semantics */
        free(u);
        c->kind = COMM_STAGED;
        c->nccl_like = 1;
        return 0;
    }
    if (forced && !strcmp(forced, "nccl") && ops->device && !ops->nccl) {
        free(u);
        return err_set(ERR_USAGE, "--distributed-backend nccl: the %s table's buffers are not GPU memory, which NCCL "
                                  "needs", ops->name);
    }
    int k = comm_choose(ops->device, (const unsigned char(*)[16])u, n, forced, have_nccl, why, sizeof why);
    free(u);
    if (k < 0)
        return err_set(ERR_USAGE, "%s (the %s-parallel group)", why, group);
    c->kind = (comm_kind)k;
#ifdef WEBTEXT_NCCL
    if (c->kind == COMM_NCCL) {
        int rc = dist_nccl_init((dist_nccl **)&c->nccl, d, g);
        if (rc)
            return rc;
        c->nccl_like = 1;
    }
#endif
    return 0;
}

void comm_free(pcomm *c)
{
    if (!c)
        return;
#ifdef WEBTEXT_NCCL
    if (c->nccl)
        dist_nccl_free((dist_nccl *)c->nccl);
#endif
    if (c->stage)
        c->ops->mem.host_free(c->stage);
    c->nccl = NULL;
    c->stage = NULL;
    c->stage_cap = 0;
}

/* The staged communicator's host buffer of at least `bytes`. */
static char *stage(pcomm *c, size_t bytes)
{
    if (c->stage_cap < bytes) {
        if (c->stage)
            c->ops->mem.host_free(c->stage);
        c->stage = c->ops->mem.host_alloc(bytes);
        c->stage_cap = c->stage ? bytes : 0;
        if (!c->stage) {
            err_set(ERR_NOMEM, "out of memory for a %zu-byte staging buffer (%s-parallel group)", bytes, c->group);
            return NULL;
        }
    }
    return c->stage;
}

/* Host copies of device buffers around an MPI call. */
static void down(pcomm *c, void *host, const void *dev, size_t bytes)
{
    c->ops->mem.download(host, dev, bytes);
    c->ops->mem.sync();
}

static int raw_allreduce(pcomm *c, float *buf, size_t n, comm_op op)
{
#ifdef WEBTEXT_NCCL
    if (c->kind == COMM_NCCL)
        return comm_nccl_allreduce(c, buf, n, op);
#endif
    float *h = buf;
    if (c->kind == COMM_STAGED) {
        if (!(h = (float *)stage(c, n * sizeof(float))))
            return ERR_NOMEM;
        down(c, h, buf, n * sizeof(float));
    }
    int rc = op == COMM_MAX ? dist_allreduce_max_f32(c->d, c->g, h, n) : dist_allreduce_f32(c->d, c->g, h, n);
    if (!rc && h != buf)
        c->ops->mem.upload(buf, h, n * sizeof(float));
    return rc;
}

static int raw_reduce_scatter(pcomm *c, const float *send, float *recv, size_t n)
{
#ifdef WEBTEXT_NCCL
    if (c->kind == COMM_NCCL)
        return comm_nccl_reduce_scatter(c, send, recv, n);
#endif
    if (c->kind != COMM_STAGED)
        return dist_reduce_scatter_f32(c->d, c->g, send, recv, n);
    size_t all = n * (size_t)c->g->size;
    float *h = (float *)stage(c, (all + n) * sizeof(float));
    if (!h)
        return ERR_NOMEM;
    down(c, h, send, all * sizeof(float));
    int rc = dist_reduce_scatter_f32(c->d, c->g, h, h + all, n);
    if (!rc)
        c->ops->mem.upload(recv, h + all, n * sizeof(float));
    return rc;
}

static int raw_allgather(pcomm *c, const float *send, float *recv, size_t n)
{
#ifdef WEBTEXT_NCCL
    if (c->kind == COMM_NCCL)
        return comm_nccl_allgather(c, send, recv, n);
#endif
    if (c->kind != COMM_STAGED)
        return dist_allgather_f32(c->d, c->g, send, recv, n);
    size_t all = n * (size_t)c->g->size;
    float *h = (float *)stage(c, all * sizeof(float));
    if (!h)
        return ERR_NOMEM;
    float *mine = h + (size_t)c->g->rank * n;
    down(c, mine, send, n * sizeof(float));
    int rc = dist_allgather_f32(c->d, c->g, mine, h, n);
    if (!rc)
        c->ops->mem.upload(recv, h, all * sizeof(float));
    return rc;
}

static int raw_broadcast(pcomm *c, void *buf, size_t bytes, int root)
{
#ifdef WEBTEXT_NCCL
    if (c->kind == COMM_NCCL)
        return comm_nccl_broadcast(c, buf, bytes, root);
#endif
    if (c->kind != COMM_STAGED)
        return dist_broadcast(c->d, c->g, buf, bytes, root);
    char *h = stage(c, bytes);
    if (!h)
        return ERR_NOMEM;
    if (c->g->rank == root)
        down(c, h, buf, bytes);
    int rc = dist_broadcast(c->d, c->g, h, bytes, root);
    if (!rc && c->g->rank != root)
        c->ops->mem.upload(buf, h, bytes);
    return rc;
}

static int raw_p2p(pcomm *c, const dist_p2p_op *ops, int n, int tag)
{
    if (n <= 0)
        return 0;
    if (n > 8)
        return err_set(ERR_INTERNAL, "%d point-to-point operations in one step (at most 8)", n);
#ifdef WEBTEXT_NCCL
    if (c->kind == COMM_NCCL)
        return comm_nccl_p2p(c, ops, n); /* NCCL matches in order; no tags */
#endif
    if (c->kind != COMM_STAGED)
        return dist_p2p_batch(c->d, c->g, ops, n, tag, 0);
    /* staged: sends copied down first, receives copied up after */
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += ops[i].bytes;
    char *h = stage(c, total);
    if (!h)
        return ERR_NOMEM;
    dist_p2p_op hops[8];
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        hops[i] = ops[i];
        if (ops[i].sbuf) {
            c->ops->mem.download(h + off, ops[i].sbuf, ops[i].bytes);
            hops[i].sbuf = h + off;
        } else {
            hops[i].rbuf = h + off;
        }
        off += ops[i].bytes;
    }
    c->ops->mem.sync();
    /* NCCL's semantics when emulated: untagged, rendezvous sends */
    int rc = dist_p2p_batch(c->d, c->g, hops, n, c->nccl_like ? 0 : tag, c->nccl_like);
    for (int i = 0; i < n && !rc; i++)
        if (!ops[i].sbuf)
            c->ops->mem.upload(ops[i].rbuf, hops[i].rbuf, ops[i].bytes);
    return rc;
}

/* ---- nonblocking collectives (see comm.h) ---- */

static char *req_host(pcomm *c, comm_req *r, size_t bytes)
{
    if (r->cap < bytes) {
        if (r->host)
            c->ops->mem.host_free(r->host);
        r->host = c->ops->mem.host_alloc(bytes);
        r->cap = r->host ? bytes : 0;
        if (!r->host) {
            err_set(ERR_NOMEM, "out of memory for a %zu-byte staging buffer (%s-parallel group)", bytes, c->group);
            return NULL;
        }
    }
    return r->host;
}

static int raw_ireduce_scatter(pcomm *c, const float *send, float *recv, size_t n, comm_req *r)
{
    if (r->active)
        return err_set(ERR_INTERNAL, "a nonblocking collective restarted before its wait (%s-parallel group)", c->group);
    int rc;
#ifdef WEBTEXT_NCCL
    if (c->kind == COMM_NCCL) {
        rc = comm_nccl_ireduce_scatter(c, send, recv, n, &r->ev);
        r->active = !rc;
        return rc;
    }
#endif
    if (c->kind != COMM_STAGED) {
        rc = dist_ireduce_scatter_f32(c->d, c->g, send, recv, n, &r->mpi);
        r->active = !rc;
        return rc;
    }
    size_t all = n * (size_t)c->g->size;
    float *h = (float *)req_host(c, r, (all + n) * sizeof(float));
    if (!h)
        return ERR_NOMEM;
    down(c, h, send, all * sizeof(float));
    rc = dist_ireduce_scatter_f32(c->d, c->g, h, h + all, n, &r->mpi);
    r->up = recv;
    r->up_off = all * sizeof(float);
    r->up_bytes = n * sizeof(float);
    r->active = !rc;
    return rc;
}

static int raw_iallgather(pcomm *c, const float *send, float *recv, size_t n, comm_req *r)
{
    if (r->active)
        return err_set(ERR_INTERNAL, "a nonblocking collective restarted before its wait (%s-parallel group)", c->group);
    int rc;
#ifdef WEBTEXT_NCCL
    if (c->kind == COMM_NCCL) {
        rc = comm_nccl_iallgather(c, send, recv, n, &r->ev);
        r->active = !rc;
        return rc;
    }
#endif
    if (c->kind != COMM_STAGED) {
        rc = dist_iallgather_f32(c->d, c->g, send, recv, n, &r->mpi);
        r->active = !rc;
        return rc;
    }
    size_t all = n * (size_t)c->g->size;
    float *h = (float *)req_host(c, r, all * sizeof(float));
    if (!h)
        return ERR_NOMEM;
    float *mine = h + (size_t)c->g->rank * n;
    down(c, mine, send, n * sizeof(float));
    rc = dist_iallgather_f32(c->d, c->g, mine, h, n, &r->mpi);
    r->up = recv;
    r->up_off = 0;
    r->up_bytes = all * sizeof(float);
    r->active = !rc;
    return rc;
}

static int raw_iallreduce(pcomm *c, float *buf, size_t n, comm_req *r)
{
    if (r->active)
        return err_set(ERR_INTERNAL, "a nonblocking collective restarted before its wait (%s-parallel group)", c->group);
    int rc;
#ifdef WEBTEXT_NCCL
    if (c->kind == COMM_NCCL) {
        rc = comm_nccl_iallreduce(c, buf, n, &r->ev);
        r->active = !rc;
        return rc;
    }
#endif
    if (c->kind != COMM_STAGED) {
        rc = dist_iallreduce_f32(c->d, c->g, buf, n, &r->mpi);
        r->active = !rc;
        return rc;
    }
    float *h = (float *)req_host(c, r, n * sizeof(float));
    if (!h)
        return ERR_NOMEM;
    down(c, h, buf, n * sizeof(float));
    rc = dist_iallreduce_f32(c->d, c->g, h, n, &r->mpi);
    r->up = buf;
    r->up_off = 0;
    r->up_bytes = n * sizeof(float);
    r->active = !rc;
    return rc;
}

static int raw_wait(pcomm *c, comm_req *r)
{
    if (!r->active)
        return 0;
    r->active = 0;
#ifdef WEBTEXT_NCCL
    if (c->kind == COMM_NCCL)
        return comm_nccl_wait(c, r->ev);
#endif
    int rc = dist_wait(&r->mpi);
    if (!rc && c->kind == COMM_STAGED)
        c->ops->mem.upload(r->up, r->host + r->up_off, r->up_bytes);
    return rc;
}

void comm_req_free(pcomm *c, comm_req *r)
{
    if (!r)
        return;
    if (r->active)
        raw_wait(c, r);
    if (r->host)
        c->ops->mem.host_free(r->host);
#ifdef WEBTEXT_NCCL
    if (r->ev)
        comm_nccl_event_free(r->ev);
#endif
    memset(r, 0, sizeof *r);
}

int comm_sendrecv(pcomm *c, const void *sbuf, size_t sbytes, int speer, void *rbuf, size_t rbytes, int rpeer, int tag)
{
    dist_p2p_op ops[2];
    int n = 0;
    if (speer >= 0)
        ops[n++] = (dist_p2p_op){sbuf, NULL, sbytes, speer};
    if (rpeer >= 0)
        ops[n++] = (dist_p2p_op){NULL, rbuf, rbytes, rpeer};
    return comm_p2p(c, ops, n, tag);
}

/* ---- the profile's communication time (WEBTEXT_PROFILE=1): each call timed (the
 * profiled table has synchronised after the operation before it; NCCL's calls are
 * synchronised after, so that their device time counts) ---- */
static int g_prof;
static double g_secs[2];
static long g_calls[2];

void comm_profile_enable(int on) { g_prof = on; }

void comm_profile_reset(void)
{
    g_secs[0] = g_secs[1] = 0;
    g_calls[0] = g_calls[1] = 0;
}

void comm_profile_get(double secs[2], long calls[2])
{
    for (int k = 0; k < 2; k++) {
        secs[k] = g_secs[k];
        calls[k] = g_calls[k];
    }
}

static double now_(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
#define TIMED_COMM(k, call)                                                                                            \
    do {                                                                                                               \
        if (!g_prof)                                                                                                   \
            return call;                                                                                               \
        double t0_ = now_();                                                                                           \
        int rc_ = call;                                                                                                \
        if (c->kind == COMM_NCCL) /* on the stream: its device time */                                                 \
            c->ops->mem.sync();                                                                                        \
        g_secs[k] += now_() - t0_;                                                                                     \
        g_calls[k]++;                                                                                                  \
        return rc_;                                                                                                    \
    } while (0)

int comm_allreduce(pcomm *c, float *buf, size_t n, comm_op op) { TIMED_COMM(0, raw_allreduce(c, buf, n, op)); }
int comm_reduce_scatter(pcomm *c, const float *send, float *recv, size_t n)
{
    TIMED_COMM(0, raw_reduce_scatter(c, send, recv, n));
}
int comm_allgather(pcomm *c, const float *send, float *recv, size_t n) { TIMED_COMM(0, raw_allgather(c, send, recv, n)); }
int comm_broadcast(pcomm *c, void *buf, size_t bytes, int root) { TIMED_COMM(0, raw_broadcast(c, buf, bytes, root)); }
int comm_p2p(pcomm *c, const dist_p2p_op *ops, int n, int tag) { TIMED_COMM(1, raw_p2p(c, ops, n, tag)); }
int comm_ireduce_scatter(pcomm *c, const float *send, float *recv, size_t n, comm_req *r)
{
    TIMED_COMM(0, raw_ireduce_scatter(c, send, recv, n, r));
}
int comm_iallgather(pcomm *c, const float *send, float *recv, size_t n, comm_req *r)
{
    TIMED_COMM(0, raw_iallgather(c, send, recv, n, r));
}
int comm_iallreduce(pcomm *c, float *buf, size_t n, comm_req *r)
{
    TIMED_COMM(0, raw_iallreduce(c, buf, n, r));
}
/* the wait's time counts, its call not (the start counted it) */
int comm_wait(pcomm *c, comm_req *r)
{
    if (!g_prof || !r->active)
        return raw_wait(c, r);
    double t0 = now_();
    int rc = raw_wait(c, r);
    if (c->kind == COMM_NCCL)
        c->ops->mem.sync();
    g_secs[0] += now_() - t0;
    return rc;
}

/* dist.c - the communicator over MPI, or a world of one (see dist.h).
 *
 * Reductions are made so that every rank ends with bit-identical values, which
 * replicated parameters need (a rank whose copy drifts by one ulp would train a
 * different model): a float all-reduce is a reduce-scatter (each block summed
 * once, by its owner, in a fixed order) followed by an all-gather of the sums,
 * which is also the ring all-reduce's own structure and cost; a double
 * all-reduce is a reduce to rank 0 and a broadcast.
 */
#include "train/parallel/dist.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/launch.h"

#ifdef WEBTEXT_MPI
#include <mpi.h>
#endif

int dist_launched(void)
{
    /* OpenMPI's mpirun, PMIx (OpenMPI 4, srun --mpi=pmix), PMI (MPICH, srun --mpi=pmi2), Slurm. */
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        if (getenv(vars[i]))
            return 1;
    const char *nt = getenv("SLURM_NTASKS");
    return getenv("SLURM_PROCID") && nt && atoi(nt) > 1;
}

int dist_local_rank(int *local_size)
{
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID",
                                            "LOCAL_RANK"};
    static const char *const size_vars[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE", "MPI_LOCALNRANKS",
                                            "LOCAL_WORLD_SIZE"};
    int local = 0, lsize = 1;
    for (size_t i = 0; i < sizeof rank_vars / sizeof *rank_vars; i++)
        if (getenv(rank_vars[i])) {
            local = atoi(getenv(rank_vars[i]));
            break;
        }
    for (size_t i = 0; i < sizeof size_vars / sizeof *size_vars; i++)
        if (getenv(size_vars[i])) {
            lsize = atoi(getenv(size_vars[i]));
            break;
        }
    if (local_size)
        *local_size = lsize;
    return local;
}

void dist_layout(int r, int tp, int pp, int dp, int *tp_rank, int *dp_rank, int *pp_rank)
{
    (void)pp;
    *tp_rank = r % tp;
    *dp_rank = (r / tp) % dp;
    *pp_rank = r / (tp * dp);
}

static void group_self(dist_group *g)
{
    g->comm = NULL;
    g->rank = 0;
    g->size = 1;
}

#ifdef WEBTEXT_MPI
static MPI_Comm comm_of(const dist_group *g) { return g->comm ? *(MPI_Comm *)g->comm : MPI_COMM_SELF; }

static int mpi_fail(int rc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    return err_set(ERR_INTERNAL, "MPI %s failed: %.*s", what, len, msg);
}

/* A group from MPI_Comm_split(world, color, key). */
static int group_split(dist_group *g, int color, int key)
{
    MPI_Comm *c = malloc(sizeof *c);
    if (!c)
        return err_set(ERR_NOMEM, "out of memory");
    int rc = MPI_Comm_split(MPI_COMM_WORLD, color, key, c);
    if (rc != MPI_SUCCESS) {
        free(c);
        return mpi_fail(rc, "Comm_split");
    }
    if (*c == MPI_COMM_NULL) {
        free(c);
        group_self(g);
        return 0;
    }
    g->comm = c;
    MPI_Comm_rank(*c, &g->rank);
    MPI_Comm_size(*c, &g->size);
    return 0;
}

static void group_free(dist_group *g)
{
    if (g->comm) {
        MPI_Comm_free((MPI_Comm *)g->comm);
        free(g->comm);
    }
    group_self(g);
}
#endif

int dist_init(dist_ctx *d, int tp, int pp)
{
    memset(d, 0, sizeof *d);
    group_self(&d->world);
    d->world_size = 1;
    if (tp < 1 || pp < 1)
        return err_set(ERR_USAGE, "--tensor-model-parallel-size and --pipeline-model-parallel-size must be >= 1");
#ifdef WEBTEXT_MPI
    if (dist_launched()) {
        int provided, rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
        if (rc != MPI_SUCCESS)
            return mpi_fail(rc, "Init");
        d->use_mpi = 1;
        /* Errors come back as codes, so a rank can report them before aborting all. */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_rank(MPI_COMM_WORLD, &d->world_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &d->world_size);
        MPI_Comm *w = malloc(sizeof *w);
        if (!w)
            return err_set(ERR_NOMEM, "out of memory");
        *w = MPI_COMM_WORLD;
        d->world.comm = w;
        d->world.rank = d->world_rank;
        d->world.size = d->world_size;
    }
#else
    /* Several copies without MPI would each train alone on the whole data and
     * write the same checkpoints: refused (exit 2), naming the launcher. */
    launch_info li = launch_detect();
    if (li.size > 1)
        return err_set(ERR_USAGE,
                       "started as %d copies by %s (%s=%d), but this build has no MPI (mpicc was not found when it "
                       "was built; `train --version` says so): every copy would train alone on the whole data and "
                       "write the same checkpoints. Run `make tools`, which installs OpenMPI and rebuilds with it, "
                       "or start one process without the launcher.",
                       li.size, li.launcher, li.var, li.size);
#endif
    int world = d->world_size;
    if (world % (tp * pp))
        return err_set(ERR_USAGE,
                       "the world size %d is not a multiple of --tensor-model-parallel-size %d x "
                       "--pipeline-model-parallel-size %d",
                       world, tp, pp);
    d->tp = tp;
    d->pp = pp;
    d->dp = world / (tp * pp);
    dist_layout(d->world_rank, tp, pp, d->dp, &d->tp_rank, &d->dp_rank, &d->pp_rank);
    d->in_embedding = d->pp_rank == 0 || d->pp_rank == pp - 1;
    group_self(&d->tensor);
    group_self(&d->data);
    group_self(&d->pipeline);
    group_self(&d->embedding);
#ifdef WEBTEXT_MPI
    if (d->use_mpi) {
        int rc;
        /* Colour: what the group's members share; key: the position inside it. */
        if ((rc = group_split(&d->tensor, d->pp_rank * d->dp + d->dp_rank, d->tp_rank)) ||
            (rc = group_split(&d->data, d->pp_rank * tp + d->tp_rank, d->dp_rank)) ||
            (rc = group_split(&d->pipeline, d->dp_rank * tp + d->tp_rank, d->pp_rank)) ||
            (rc = group_split(&d->embedding, d->in_embedding ? d->dp_rank * tp + d->tp_rank : MPI_UNDEFINED,
                              d->pp_rank)))
            return rc;
    }
#endif
    return 0;
}

void dist_finalize(dist_ctx *d)
{
#ifdef WEBTEXT_MPI
    if (d->use_mpi) {
        group_free(&d->tensor);
        group_free(&d->data);
        group_free(&d->pipeline);
        group_free(&d->embedding);
        free(d->world.comm);
        d->world.comm = NULL;
        MPI_Finalize();
        d->use_mpi = 0;
    }
#endif
    (void)d;
}

void dist_abort(dist_ctx *d, int code)
{
    fflush(stdout);
    fflush(stderr);
#ifdef WEBTEXT_MPI
    if (d && d->use_mpi)
        MPI_Abort(MPI_COMM_WORLD, code);
#endif
    (void)d;
    exit(code);
}

const char *dist_mpi_info(void)
{
#if defined(WEBTEXT_MPI) && defined(OMPI_MAJOR_VERSION)
#define DIST_STR2(x) #x
#define DIST_STR(x) DIST_STR2(x)
    return "yes (Open MPI " DIST_STR(OMPI_MAJOR_VERSION) "." DIST_STR(OMPI_MINOR_VERSION) "." DIST_STR(
        OMPI_RELEASE_VERSION) ", MPI " DIST_STR(MPI_VERSION) "." DIST_STR(MPI_SUBVERSION) ")";
#elif defined(WEBTEXT_MPI)
    return "yes";
#else
    return "no (mpicc was not found when this was built: mpirun and srun launches of several ranks are refused)";
#endif
}

void dist_describe(const dist_ctx *d, char *buf, size_t n)
{
    snprintf(buf, n, "world %d = tensor %d x pipeline %d x data %d%s", d->world_size, d->tp, d->pp, d->dp,
             d->use_mpi ? " (MPI)" : "");
}

/* ---- collectives ----------------------------------------------------------- */

/* A group of several ranks in a build without MPI cannot exist (dist_init makes
 * every group of one then); reaching this is a bug. */
static __attribute__((unused)) int no_mpi(const dist_group *g)
{
    return err_set(ERR_INTERNAL, "a group of %d ranks without MPI", g->size);
}

static __attribute__((unused)) uint64_t ring_share(uint64_t bytes, int n) { return n > 1 ? bytes * (uint64_t)(n - 1) / (uint64_t)n : 0; }

#ifdef WEBTEXT_MPI
static int too_big(size_t n, const char *what)
{
    return err_set(ERR_LIMIT, "%s of %zu elements exceeds MPI's int count; use smaller buckets", what, n);
}
#endif

int dist_reduce_scatter_f32(dist_ctx *d, dist_group *g, const float *send, float *recv, size_t n)
{
    if (g->size == 1) {
        if (recv != send)
            memmove(recv, send, n * sizeof *recv);
        return 0;
    }
#ifdef WEBTEXT_MPI
    if (n > INT_MAX)
        return too_big(n, "reduce-scatter");
    int rc = MPI_Reduce_scatter_block(send, recv, (int)n, MPI_FLOAT, MPI_SUM, comm_of(g));
    if (rc != MPI_SUCCESS)
        return mpi_fail(rc, "Reduce_scatter_block");
    d->bytes_sent += ring_share((uint64_t)n * g->size * sizeof(float), g->size);
    return 0;
#else
    (void)d;
    return no_mpi(g);
#endif
}

int dist_allgather_f32(dist_ctx *d, dist_group *g, const float *send, float *recv, size_t n)
{
    if (g->size == 1) {
        if (recv != send)
            memmove(recv, send, n * sizeof *recv);
        return 0;
    }
#ifdef WEBTEXT_MPI
    if (n > INT_MAX)
        return too_big(n, "all-gather");
    const void *s = send == recv + (size_t)g->rank * n ? MPI_IN_PLACE : (const void *)send;
    int rc = MPI_Allgather(s, (int)n, MPI_FLOAT, recv, (int)n, MPI_FLOAT, comm_of(g));
    if (rc != MPI_SUCCESS)
        return mpi_fail(rc, "Allgather");
    d->bytes_sent += ring_share((uint64_t)n * g->size * sizeof(float), g->size);
    return 0;
#else
    (void)d;
    return no_mpi(g);
#endif
}

int dist_ireduce_scatter_f32(dist_ctx *d, dist_group *g, const float *send, float *recv, size_t n, void **req)
{
    *req = NULL;
    if (g->size == 1)
        return dist_reduce_scatter_f32(d, g, send, recv, n);
#ifdef WEBTEXT_MPI
    if (n > INT_MAX)
        return too_big(n, "reduce-scatter");
    MPI_Request *r = malloc(sizeof *r);
    if (!r)
        return err_set(ERR_NOMEM, "out of memory");
    int rc = MPI_Ireduce_scatter_block(send, recv, (int)n, MPI_FLOAT, MPI_SUM, comm_of(g), r);
    if (rc != MPI_SUCCESS) {
        free(r);
        return mpi_fail(rc, "Ireduce_scatter_block");
    }
    d->bytes_sent += ring_share((uint64_t)n * g->size * sizeof(float), g->size);
    *req = r;
    return 0;
#else
    return no_mpi(g);
#endif
}

int dist_iallgather_f32(dist_ctx *d, dist_group *g, const float *send, float *recv, size_t n, void **req)
{
    *req = NULL;
    if (g->size == 1)
        return dist_allgather_f32(d, g, send, recv, n);
#ifdef WEBTEXT_MPI
    if (n > INT_MAX)
        return too_big(n, "all-gather");
    MPI_Request *r = malloc(sizeof *r);
    if (!r)
        return err_set(ERR_NOMEM, "out of memory");
    const void *s = send == recv + (size_t)g->rank * n ? MPI_IN_PLACE : (const void *)send;
    int rc = MPI_Iallgather(s, (int)n, MPI_FLOAT, recv, (int)n, MPI_FLOAT, comm_of(g), r);
    if (rc != MPI_SUCCESS) {
        free(r);
        return mpi_fail(rc, "Iallgather");
    }
    d->bytes_sent += ring_share((uint64_t)n * g->size * sizeof(float), g->size);
    *req = r;
    return 0;
#else
    return no_mpi(g);
#endif
}

int dist_iallreduce_f32(dist_ctx *d, dist_group *g, float *buf, size_t n, void **req)
{
    *req = NULL;
    if (g->size == 1 || n == 0)
        return 0;
#ifdef WEBTEXT_MPI
    if (n > INT_MAX)
        return too_big(n, "all-reduce");
    MPI_Request *r = malloc(sizeof *r);
    if (!r)
        return err_set(ERR_NOMEM, "out of memory");
    int rc = MPI_Iallreduce(MPI_IN_PLACE, buf, (int)n, MPI_FLOAT, MPI_SUM, comm_of(g), r);
    if (rc != MPI_SUCCESS) {
        free(r);
        return mpi_fail(rc, "Iallreduce");
    }
    d->bytes_sent += 2 * ring_share((uint64_t)n * sizeof(float), g->size);
    *req = r;
    return 0;
#else
    (void)d;
    (void)buf;
    return no_mpi(g);
#endif
}

int dist_wait(void **req)
{
    if (!*req)
        return 0;
#ifdef WEBTEXT_MPI
    MPI_Request *r = *req;
    int rc = MPI_Wait(r, MPI_STATUS_IGNORE);
    free(r);
    *req = NULL;
    return rc == MPI_SUCCESS ? 0 : mpi_fail(rc, "Wait");
#else
    *req = NULL;
    return 0;
#endif
}

int dist_allreduce_f32(dist_ctx *d, dist_group *g, float *buf, size_t n)
{
    if (g->size == 1 || n == 0)
        return 0;
    /* Reduce-scatter + all-gather over a copy padded to a multiple of the size. */
    size_t per = (n + (size_t)g->size - 1) / (size_t)g->size;
    float *tmp = calloc(per * (size_t)g->size + per, sizeof *tmp);
    if (!tmp)
        return err_set(ERR_NOMEM, "out of memory for an all-reduce of %zu floats", n);
    memcpy(tmp, buf, n * sizeof *tmp);
    float *mine = tmp + per * (size_t)g->size;
    int rc = dist_reduce_scatter_f32(d, g, tmp, mine, per);
    if (!rc)
        rc = dist_allgather_f32(d, g, mine, tmp, per);
    if (!rc)
        memcpy(buf, tmp, n * sizeof *buf);
    free(tmp);
    return rc;
}

int dist_allreduce_f64(dist_ctx *d, dist_group *g, double *buf, size_t n)
{
    if (g->size == 1 || n == 0)
        return 0;
#ifdef WEBTEXT_MPI
    if (n > INT_MAX)
        return too_big(n, "all-reduce");
    MPI_Comm c = comm_of(g);
    int rc = MPI_Reduce(g->rank == 0 ? MPI_IN_PLACE : buf, buf, (int)n, MPI_DOUBLE, MPI_SUM, 0, c);
    if (rc == MPI_SUCCESS)
        rc = MPI_Bcast(buf, (int)n, MPI_DOUBLE, 0, c);
    if (rc != MPI_SUCCESS)
        return mpi_fail(rc, "Reduce/Bcast");
    d->bytes_sent += 2 * ring_share((uint64_t)n * sizeof(double), g->size); /* counted as an all-reduce */
    return 0;
#else
    (void)d;
    return no_mpi(g);
#endif
}

#ifdef WEBTEXT_MPI
/* In place: the element-wise maximum over the group. */
static int allreduce_max(dist_ctx *d, dist_group *g, void *buf, size_t n, MPI_Datatype type, size_t size)
{
    if (n > INT_MAX)
        return too_big(n, "all-reduce");
    int rc = MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, type, MPI_MAX, comm_of(g));
    if (rc != MPI_SUCCESS)
        return mpi_fail(rc, "Allreduce");
    d->bytes_sent += 2 * ring_share((uint64_t)n * size, g->size);
    return 0;
}
#endif

int dist_allreduce_max_i64(dist_ctx *d, dist_group *g, int64_t *buf, size_t n)
{
    if (g->size == 1 || n == 0)
        return 0;
#ifdef WEBTEXT_MPI
    return allreduce_max(d, g, buf, n, MPI_INT64_T, sizeof *buf);
#else
    (void)d;
    return no_mpi(g);
#endif
}

int dist_allreduce_max_f32(dist_ctx *d, dist_group *g, float *buf, size_t n)
{
    if (g->size == 1 || n == 0)
        return 0;
#ifdef WEBTEXT_MPI
    return allreduce_max(d, g, buf, n, MPI_FLOAT, sizeof *buf);
#else
    (void)d;
    return no_mpi(g);
#endif
}

int dist_broadcast(dist_ctx *d, dist_group *g, void *buf, size_t bytes, int root)
{
    if (g->size == 1 || bytes == 0)
        return 0;
#ifdef WEBTEXT_MPI
    for (size_t off = 0; off < bytes;) {
        size_t k = bytes - off > (size_t)INT_MAX ? (size_t)INT_MAX : bytes - off;
        int rc = MPI_Bcast((char *)buf + off, (int)k, MPI_BYTE, root, comm_of(g));
        if (rc != MPI_SUCCESS)
            return mpi_fail(rc, "Bcast");
        off += k;
    }
    if (g->rank == root)
        d->bytes_sent += bytes;
    return 0;
#else
    (void)d;
    (void)root;
    return err_set(ERR_INTERNAL, "a group of %d ranks without MPI", g->size);
#endif
}

int dist_send(dist_ctx *d, dist_group *g, const void *buf, size_t bytes, int peer, int tag)
{
#ifdef WEBTEXT_MPI
    if (g->size > 1) {
        if (bytes > INT_MAX)
            return too_big(bytes, "send");
        int rc = MPI_Send(buf, (int)bytes, MPI_BYTE, peer, tag, comm_of(g));
        if (rc != MPI_SUCCESS)
            return mpi_fail(rc, "Send");
        d->bytes_sent += bytes;
        return 0;
    }
#endif
    (void)d;
    (void)buf;
    (void)bytes;
    (void)tag;
    return err_set(ERR_INTERNAL, "send to rank %d of a group of %d", peer, g->size);
}

int dist_recv(dist_ctx *d, dist_group *g, void *buf, size_t bytes, int peer, int tag)
{
#ifdef WEBTEXT_MPI
    if (g->size > 1) {
        if (bytes > INT_MAX)
            return too_big(bytes, "receive");
        int rc = MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, tag, comm_of(g), MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return mpi_fail(rc, "Recv");
        return 0;
    }
#endif
    (void)d;
    (void)buf;
    (void)bytes;
    (void)tag;
    return err_set(ERR_INTERNAL, "receive from rank %d of a group of %d", peer, g->size);
}

int dist_sendrecv(dist_ctx *d, dist_group *g, const void *sbuf, size_t sbytes, int speer, void *rbuf, size_t rbytes,
                  int rpeer, int tag)
{
#ifdef WEBTEXT_MPI
    if (g->size > 1) {
        if (sbytes > INT_MAX || rbytes > INT_MAX)
            return too_big(sbytes > rbytes ? sbytes : rbytes, "send-receive");
        int rc = MPI_Sendrecv(sbuf, (int)sbytes, MPI_BYTE, speer, tag, rbuf, (int)rbytes, MPI_BYTE, rpeer, tag,
                              comm_of(g), MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return mpi_fail(rc, "Sendrecv");
        d->bytes_sent += sbytes;
        return 0;
    }
#endif
    (void)d;
    (void)sbuf;
    (void)sbytes;
    (void)rbuf;
    (void)rbytes;
    (void)rpeer;
    (void)tag;
    return err_set(ERR_INTERNAL, "send-receive with rank %d of a group of %d", speer, g->size);
}

int dist_p2p_batch(dist_ctx *d, dist_group *g, const dist_p2p_op *ops, int n, int tag, int rendezvous)
{
    if (n <= 0)
        return 0;
#ifdef WEBTEXT_MPI
    if (g->size > 1) {
        MPI_Request req[16];
        if (n > 16)
            return err_set(ERR_INTERNAL, "%d point-to-point operations in one batch (at most 16)", n);
        int k = 0, rc = MPI_SUCCESS;
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++) /* receives first, as NCCL posts them together */
            if (!ops[i].sbuf) {
                if (ops[i].bytes > INT_MAX)
                    return too_big(ops[i].bytes, "receive");
                rc = MPI_Irecv(ops[i].rbuf, (int)ops[i].bytes, MPI_BYTE, ops[i].peer, tag, comm_of(g), &req[k++]);
            }
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
            if (ops[i].sbuf) {
                if (ops[i].bytes > INT_MAX)
                    return too_big(ops[i].bytes, "send");
                rc = (rendezvous ? MPI_Issend : MPI_Isend)(ops[i].sbuf, (int)ops[i].bytes, MPI_BYTE, ops[i].peer, tag,
                                                           comm_of(g), &req[k++]);
                d->bytes_sent += ops[i].bytes;
            }
        if (rc == MPI_SUCCESS)
            rc = MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
        return rc == MPI_SUCCESS ? 0 : mpi_fail(rc, "batched send/receive");
    }
#endif
    (void)d;
    (void)ops;
    (void)tag;
    (void)rendezvous;
    return err_set(ERR_INTERNAL, "point to point in a group of %d", g->size);
}

int dist_barrier(dist_ctx *d, dist_group *g)
{
    (void)d;
#ifdef WEBTEXT_MPI
    if (g->size > 1) {
        int rc = MPI_Barrier(comm_of(g));
        if (rc != MPI_SUCCESS)
            return mpi_fail(rc, "Barrier");
    }
#endif
    (void)g;
    return 0;
}

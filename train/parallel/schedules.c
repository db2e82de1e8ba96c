/* schedules.c - Megatron's pipeline schedules (see schedules.h). */
#include "train/parallel/schedules.h"

#include <stdlib.h>

#include "common/err.h"

int pp_first_virtual(const dist_ctx *d, const gpt_model *m)
{
    return d->pp_rank == 0 && m->chunk == 0;
}

int pp_last_virtual(const dist_ctx *d, const gpt_model *m, int vpp)
{
    return d->pp_rank == d->pp - 1 && m->chunk == vpp - 1;
}

/* After a pipeline's micro-batches: the tied word embedding's gradients added
 * between the first and the last stage; the loss, which lives on the last
 * stage, made known to all. */
static int pipeline_end(pp_sched *p, double *loss)
{
    dist_ctx *d = p->d;
    int rc = 0;
    if (d->in_embedding)
        rc = comm_allreduce(p->emb, p->m->dev.grads + p->m->offsets[GPT_WTE], p->m->sizes[GPT_WTE], COMM_SUM);
    if (!rc)
        rc = dist_allreduce_f64(d, &d->pipeline, loss, 1);
    return rc;
}

/* Megatron's forward_backward_pipelining_without_interleaving (1F1B) over M
 * micro-batches: warm-up forwards, then one forward and one backward in turn,
 * then the remaining backwards. The paired transfers use one send-receive, so
 * two neighbouring stages never both wait in a send. Activations of the
 * micro-batches in flight (at most pp) live in slots k % pp. */
int pp_forward_backward_1f1b(pp_sched *p, long long M, double *loss)
{
    dist_ctx *d = p->d;
    int S = d->pp, s = d->pp_rank, first = s == 0, last = s == S - 1, rc = 0;
    size_t nb = p->act_bytes;
    float scale = 1.0f / (float)(M * d->dp); /* as gpt_backward is given without a pipeline */
    double lscale = (double)(M * d->dp);
    long long nw = S - s - 1 < M ? S - s - 1 : M, rem = M - nw;
    for (long long i = 0; i < nw && !rc; i++) {
        if (!first)
            rc = comm_sendrecv(p->pipe, NULL, 0, -1, p->xrecv, nb, s - 1, PP_TAG_PIPE);
        if (!rc)
            rc = p->forward(p->ctx, i, (int)(i % S), lscale, loss);
        if (!rc && !last)
            rc = comm_sendrecv(p->pipe, gpt_stage_output(p->m), nb, s + 1, NULL, 0, -1, PP_TAG_PIPE);
    }
    if (!rc && rem > 0 && !first)
        rc = comm_sendrecv(p->pipe, NULL, 0, -1, p->xrecv, nb, s - 1, PP_TAG_PIPE);
    for (long long i = 0; i < rem && !rc; i++) {
        long long k = nw + i;
        rc = p->forward(p->ctx, k, (int)(k % S), lscale, loss);
        if (!rc && !last)
            rc = comm_sendrecv(p->pipe, gpt_stage_output(p->m), nb, s + 1, p->grecv, nb, s + 1, PP_TAG_PIPE);
        if (!rc)
            rc = gpt_use_slot(p->m, (int)(i % S));
        if (rc)
            break;
        gpt_backward_stage(p->m, scale, last ? NULL : p->grecv);
        if (first)
            continue;
        if (i == rem - 1)
            rc = comm_sendrecv(p->pipe, gpt_stage_input_grad(p->m), nb, s - 1, NULL, 0, -1, PP_TAG_PIPE);
        else
            rc = comm_sendrecv(p->pipe, gpt_stage_input_grad(p->m), nb, s - 1, p->xrecv, nb, s - 1, PP_TAG_PIPE);
    }
    for (long long i = rem; i < M && !rc; i++) {
        if (!last)
            rc = comm_sendrecv(p->pipe, NULL, 0, -1, p->grecv, nb, s + 1, PP_TAG_PIPE);
        if (!rc)
            rc = gpt_use_slot(p->m, (int)(i % S));
        if (rc)
            break;
        gpt_backward_stage(p->m, scale, last ? NULL : p->grecv);
        if (!first)
            rc = comm_sendrecv(p->pipe, gpt_stage_input_grad(p->m), nb, s - 1, NULL, 0, -1, PP_TAG_PIPE);
    }
    return rc ? rc : pipeline_end(p, loss);
}

/* Megatron's forward_backward_pipelining_with_interleaving over M micro-batches
 * (a multiple of pp), each stage holding vpp model chunks: virtual micro-batch k
 * is micro-batch (k / (pp vpp)) pp + k % pp of chunk (k % (pp vpp)) / pp in the
 * forward, of chunk vpp - 1 - that in the backward. Warm-up forwards
 * ((pp - s - 1) 2 + (vpp - 1) pp; all of them when M = pp), then one forward and
 * one backward in turn, then the remaining backwards. Activations go to the next
 * stage (the last stage's to the first stage's next chunk), gradients to the
 * previous; sends never wait (dist_isend), so a stage waits only for what it
 * needs next, and the messages of one kind between two stages arrive in the
 * order they are used (forwards and backwards are tagged apart for pp = 2). */
enum { TAG_FWD = 8, TAG_BWD = 9 };
typedef struct {
    long long M;
    int *slot;        /* [vpp * M]: the activation slot of (chunk, micro-batch) */
    uint64_t busy;    /* slots in use */
    double lscale;
    float scale;
} ilv_state;

static int ilv_forward(pp_sched *p, ilv_state *q, long long k, double *loss)
{
    dist_ctx *d = p->d;
    int S = d->pp, v = p->vpp, c = (int)((k % ((long long)S * v)) / S), rc;
    long long b = (k / ((long long)S * v)) * S + k % S;
    size_t nb = p->act_bytes;
    if ((rc = gpt_use_chunk(p->m, c)))
        return rc;
    if (!pp_first_virtual(p->d, p->m) && (rc = comm_sendrecv(p->pipe, NULL, 0, -1, p->xrecv, nb, (d->pp_rank + S - 1) % S, TAG_FWD)))
        return rc;
    int slot = 0;
    while (slot < 64 && (q->busy >> slot & 1))
        slot++;
    if (slot == 64)
        return err_set(ERR_INTERNAL, "interleaved pipeline: more than 64 micro-batches in flight");
    q->busy |= 1ull << slot;
    q->slot[(long long)c * q->M + b] = slot;
    if ((rc = p->forward(p->ctx, b, slot, q->lscale, loss)))
        return rc;
    if (!pp_last_virtual(p->d, p->m, p->vpp))
        rc = comm_isend(p->pipe, p->sendq, gpt_stage_output(p->m), nb, (d->pp_rank + 1) % S, TAG_FWD);
    return rc;
}

static int ilv_backward(pp_sched *p, ilv_state *q, long long k)
{
    dist_ctx *d = p->d;
    int S = d->pp, v = p->vpp, c = v - 1 - (int)((k % ((long long)S * v)) / S), rc;
    long long b = (k / ((long long)S * v)) * S + k % S;
    size_t nb = p->act_bytes;
    if ((rc = gpt_use_chunk(p->m, c)))
        return rc;
    int last = pp_last_virtual(p->d, p->m, p->vpp);
    if (!last && (rc = comm_sendrecv(p->pipe, NULL, 0, -1, p->grecv, nb, (d->pp_rank + 1) % S, TAG_BWD)))
        return rc;
    int slot = q->slot[(long long)c * q->M + b];
    if ((rc = gpt_use_slot(p->m, slot)))
        return rc;
    gpt_backward_stage(p->m, q->scale, last ? NULL : p->grecv);
    q->busy &= ~(1ull << slot);
    if (!pp_first_virtual(p->d, p->m))
        rc = comm_isend(p->pipe, p->sendq, gpt_stage_input_grad(p->m), nb, (d->pp_rank + S - 1) % S,
                        TAG_BWD);
    return rc;
}

int pp_forward_backward_interleaved(pp_sched *p, long long M, double *loss)
{
    dist_ctx *d = p->d;
    int S = d->pp, s = d->pp_rank, v = p->vpp, rc = 0;
    long long total = M * v;
    long long warm = M == S ? total : (long long)(S - s - 1) * 2 + (long long)(v - 1) * S;
    warm = warm < total ? warm : total;
    ilv_state q = {.M = M, .slot = malloc((size_t)total * sizeof(int)), .lscale = (double)(M * d->dp),
                   .scale = 1.0f / (float)(M * d->dp)};
    if (!q.slot)
        return err_set(ERR_NOMEM, "out of memory");
    for (long long k = 0; k < warm && !rc; k++)
        rc = ilv_forward(p, &q, k, loss);
    for (long long i = 0; i < total - warm && !rc; i++) {
        rc = ilv_forward(p, &q, warm + i, loss);
        if (!rc)
            rc = ilv_backward(p, &q, i);
    }
    for (long long j = total - warm; j < total && !rc; j++)
        rc = ilv_backward(p, &q, j);
    free(q.slot);
    if (!rc)
        rc = dist_sendq_wait(p->sendq);
    return rc ? rc : pipeline_end(p, loss);
}


/* schedules.c - Megatron's pipeline schedules (see schedules.h). */
#include "train/distributed/schedules.h"

#include <stdlib.h>
#include <string.h>

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
/* What the last stage's backward starts from: 1/(M x dp) (fp32, bf16: the same float as
 * before loss scaling existed here), times fp16's loss scale. */
static float pp_backward_scale(const pp_sched *p, long long M)
{
    long long n = M * p->d->dp;
    if (p->loss_scale > 0 && p->loss_scale != 1.0)
        return (float)(p->loss_scale / (double)n);
    return 1.0f / (float)n;
}

int pp_forward_backward_1f1b(pp_sched *p, long long M, double *loss)
{
    dist_ctx *d = p->d;
    int S = d->pp, s = d->pp_rank, first = s == 0, last = s == S - 1, rc = 0;
    size_t nb = p->act_bytes;
    /* as gpt_backward is given without a pipeline: fp16's loss scale over the micro-batches */
    float scale = pp_backward_scale(p, M);
    double lscale = (double)(M * d->dp);
    long long nw = S - s - 1 < M ? S - s - 1 : M, rem = M - nw;
    for (long long i = 0; i < nw && !rc; i++) {
        if (!first)
            rc = comm_sendrecv(p->pipe, NULL, 0, -1, p->xrecv, nb, s - 1, PP_TAG_PIPE);
        if (!rc)
            rc = p->forward(p->ctx, i, (int)(i % S), first ? NULL : p->xrecv, lscale, loss);
        if (!rc && !last)
            rc = comm_sendrecv(p->pipe, gpt_stage_output(p->m), nb, s + 1, NULL, 0, -1, PP_TAG_PIPE);
    }
    if (!rc && rem > 0 && !first)
        rc = comm_sendrecv(p->pipe, NULL, 0, -1, p->xrecv, nb, s - 1, PP_TAG_PIPE);
    for (long long i = 0; i < rem && !rc; i++) {
        long long k = nw + i;
        rc = p->forward(p->ctx, k, (int)(k % S), first ? NULL : p->xrecv, lscale, loss);
        if (!rc && !last)
            rc = comm_sendrecv(p->pipe, gpt_stage_output(p->m), nb, s + 1, p->grecv, nb, s + 1, PP_TAG_PIPE);
        if (!rc)
            rc = gpt_use_slot(p->m, (int)(i % S));
        if (rc)
            break;
        p->m->grad_last = i == M - 1; /* the stage's last backward (ZeRO-0/1's overlap) */
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
        p->m->grad_last = i == M - 1;
        gpt_backward_stage(p->m, scale, last ? NULL : p->grecv);
        if (!first)
            rc = comm_sendrecv(p->pipe, gpt_stage_input_grad(p->m), nb, s - 1, NULL, 0, -1, PP_TAG_PIPE);
    }
    p->m->grad_last = 0;
    return rc ? rc : pipeline_end(p, loss);
}

/* Megatron's forward_backward_pipelining_with_interleaving over M micro-batches
 * (a multiple of pp), each stage holding vpp model chunks: virtual micro-batch k
 * is micro-batch (k / (pp vpp)) pp + k % pp of chunk (k % (pp vpp)) / pp in the
 * forward, of chunk vpp - 1 - that in the backward. Warm-up forwards
 * ((pp - s - 1) 2 + (vpp - 1) pp; all of them when M = pp), then one forward and
 * one backward in turn, then the remaining backwards. As Megatron does, every
 * step ends with one batch of transfers (its p2p_communication's
 * send_forward_recv_forward, send_forward_backward_recv_forward_backward,
 * send_backward_recv_backward): this step's output to the next stage and input
 * gradient to the previous, the next steps' input from the previous and output
 * gradient from the next, posted together. So a stage never waits in a send,
 * and NCCL, which matches the messages between two ranks by order and whose
 * sends wait for their receives, runs it as MPI does. The received tensors wait
 * in a queue per model chunk until their forward or backward. */
typedef struct {
    floatX **b;
    long long head, n, cap;
} ilv_fifo;

typedef struct {
    pp_sched *p;
    int S, s, v;
    long long M, total;
    int *slot;        /* [vpp * M]: the activation slot of (chunk, micro-batch) */
    uint64_t busy;    /* slots in use */
    double lscale;
    float scale;
    ilv_fifo *in, *grad; /* [vpp]: inputs and output gradients received, per chunk */
    floatX **pool;     /* free transfer buffers (the model's memory) */
    int npool, cappool;
} ilv_state;

/* Python's modulo (Megatron's indices go negative on the last stage). */
static long long pymod(long long a, long long b) { return ((a % b) + b) % b; }
static int chunk_fwd(const ilv_state *q, long long k) { return (int)(pymod(k, (long long)q->S * q->v) / q->S); }
static int chunk_bwd(const ilv_state *q, long long k) { return q->v - 1 - chunk_fwd(q, k); }

static floatX *buf_get(ilv_state *q)
{
    if (q->npool)
        return q->pool[--q->npool];
    const gpt_ops *o = q->p->m->ops;
    return o->mem.alloc(q->p->act_bytes);
}

static int buf_put(ilv_state *q, floatX *b)
{
    if (!b)
        return 0;
    if (q->npool == q->cappool) {
        int cap = q->cappool ? 2 * q->cappool : 16;
        floatX **np = realloc(q->pool, (size_t)cap * sizeof *np);
        if (!np)
            return err_set(ERR_NOMEM, "out of memory");
        q->pool = np;
        q->cappool = cap;
    }
    q->pool[q->npool++] = b;
    return 0;
}

static int fifo_push(ilv_fifo *f, floatX *b)
{
    if (f->head + f->n == f->cap) {
        if (f->head) {
            memmove(f->b, f->b + f->head, (size_t)f->n * sizeof *f->b);
            f->head = 0;
        }
        if (f->n == f->cap) {
            long long cap = f->cap ? 2 * f->cap : 8;
            floatX **nb = realloc(f->b, (size_t)cap * sizeof *nb);
            if (!nb)
                return err_set(ERR_NOMEM, "out of memory");
            f->b = nb;
            f->cap = cap;
        }
    }
    f->b[f->head + f->n++] = b;
    return 0;
}

static floatX *fifo_pop(ilv_fifo *f)
{
    if (!f->n)
        return NULL;
    f->n--;
    return f->b[f->head++];
}

/* The forward of virtual micro-batch k; *out: what goes to the next stage (NULL on
 * the last virtual stage). */
static int ilv_forward(ilv_state *q, long long k, double *loss, const floatX **out)
{
    pp_sched *p = q->p;
    int c = chunk_fwd(q, k), rc;
    long long b = (k / ((long long)q->S * q->v)) * q->S + k % q->S;
    if ((rc = gpt_use_chunk(p->m, c)))
        return rc;
    floatX *x = NULL;
    if (!pp_first_virtual(p->d, p->m) && !(x = fifo_pop(&q->in[c])))
        return err_set(ERR_INTERNAL, "interleaved pipeline: no input for chunk %d, micro-batch %lld", c, b);
    int slot = 0;
    while (slot < 64 && (q->busy >> slot & 1))
        slot++;
    if (slot == 64)
        return err_set(ERR_INTERNAL, "interleaved pipeline: more than 64 micro-batches in flight");
    q->busy |= 1ull << slot;
    q->slot[(long long)c * q->M + b] = slot;
    if ((rc = p->forward(p->ctx, b, slot, x, q->lscale, loss)))
        return rc;
    *out = pp_last_virtual(p->d, p->m, q->v) ? NULL : gpt_stage_output(p->m);
    return buf_put(q, x);
}

/* The backward of virtual micro-batch k; *out: the input gradient for the previous
 * stage (NULL on the first virtual stage). */
static int ilv_backward(ilv_state *q, long long k, const floatX **out)
{
    pp_sched *p = q->p;
    int c = chunk_bwd(q, k), rc;
    long long b = (k / ((long long)q->S * q->v)) * q->S + k % q->S;
    if ((rc = gpt_use_chunk(p->m, c)))
        return rc;
    floatX *g = NULL;
    if (!pp_last_virtual(p->d, p->m, q->v) && !(g = fifo_pop(&q->grad[c])))
        return err_set(ERR_INTERNAL, "interleaved pipeline: no gradient for chunk %d, micro-batch %lld", c, b);
    int slot = q->slot[(long long)c * q->M + b];
    if ((rc = gpt_use_slot(p->m, slot)))
        return rc;
    p->m->grad_last = b == q->M - 1; /* this chunk's last backward (ZeRO-0/1's overlap) */
    gpt_backward_stage(p->m, q->scale, g);
    p->m->grad_last = 0;
    q->busy &= ~(1ull << slot);
    *out = pp_first_virtual(p->d, p->m) ? NULL : gpt_stage_input_grad(p->m);
    return buf_put(q, g);
}

/* One step's transfers: send the forward's output to the next stage and the
 * backward's input gradient to the previous; receive (when asked) the input of a
 * later forward of chunk fc from the previous stage and the output gradient of a
 * later backward of chunk bc from the next. Activations first, then gradients,
 * on every rank, so two ranks post the messages between them in one order. */
static int ilv_exchange(ilv_state *q, const floatX *fwd_out, const floatX *bwd_out, int recv_prev, int fc, int recv_next,
                        int bc)
{
    pp_sched *p = q->p;
    int S = q->S, prev = (q->s + S - 1) % S, next = (q->s + 1) % S, n = 0;
    size_t nb = p->act_bytes;
    dist_p2p_op ops[4];
    floatX *xin = NULL, *gin = NULL;
    if (fwd_out)
        ops[n++] = (dist_p2p_op){fwd_out, NULL, nb, next};
    if (recv_prev) {
        if (!(xin = buf_get(q)))
            return err_set(ERR_NOMEM, "out of memory for a pipeline transfer buffer");
        ops[n++] = (dist_p2p_op){NULL, xin, nb, prev};
    }
    if (bwd_out)
        ops[n++] = (dist_p2p_op){bwd_out, NULL, nb, prev};
    if (recv_next) {
        if (!(gin = buf_get(q)))
            return err_set(ERR_NOMEM, "out of memory for a pipeline transfer buffer");
        ops[n++] = (dist_p2p_op){NULL, gin, nb, next};
    }
    int rc = comm_p2p(p->pipe, ops, n, PP_TAG_PIPE);
    if (!rc && xin)
        rc = fifo_push(&q->in[fc], xin);
    if (!rc && gin)
        rc = fifo_push(&q->grad[bc], gin);
    return rc;
}

static int ilv_run(ilv_state *q, double *loss)
{
    int S = q->S, v = q->v, first = q->s == 0, last = q->s == S - 1, rc = 0;
    long long total = q->total, M = q->M;
    int all_warm = M == S;
    long long warm = all_warm ? total : (long long)(S - q->s - 1) * 2 + (long long)(v - 1) * S;
    warm = warm < total ? warm : total;
    long long rem = total - warm;
    const floatX *fo = NULL, *bo = NULL;
    /* the first input */
    if (!first)
        rc = ilv_exchange(q, NULL, NULL, 1, 0, 0, 0);
    for (long long k = 0; k < warm && !rc; k++) {
        if ((rc = ilv_forward(q, k, loss, &fo)))
            break;
        int nfc = chunk_fwd(q, k + 1);
        int recv_prev = !(first && nfc == 0) && k != total - 1;
        if (k == warm - 1 && !all_warm)
            rc = ilv_exchange(q, fo, NULL, recv_prev, nfc, !last, v - 1);
        else
            rc = ilv_exchange(q, fo, NULL, recv_prev, nfc, 0, 0);
    }
    for (long long i = 0; i < rem && !rc; i++) {
        long long fk = warm + i, bk = i;
        if ((rc = ilv_forward(q, fk, loss, &fo)) || (rc = ilv_backward(q, bk, &bo)))
            break;
        int recv_prev = 1, nfc;
        if (first) { /* the first stage is ahead of the last by pp - 1 */
            nfc = chunk_fwd(q, fk - (S - 1));
            if (nfc == v - 1)
                recv_prev = 0;
            nfc++;
        } else {
            nfc = chunk_fwd(q, fk + 1);
        }
        int recv_next = 1, nbc;
        if (last) { /* the last stage is ahead of the first by pp - 1 */
            nbc = chunk_bwd(q, bk - (S - 1));
            if (nbc == 0)
                recv_next = 0;
            nbc--;
        } else {
            nbc = chunk_bwd(q, bk + 1);
        }
        if (i == rem - 1)
            recv_prev = 0;
        rc = ilv_exchange(q, fo, bo, recv_prev, nfc, recv_next, nbc);
    }
    if (!rc && all_warm && !last)
        rc = ilv_exchange(q, NULL, NULL, 0, 0, 1, v - 1);
    for (long long k = rem; k < total && !rc; k++) {
        if ((rc = ilv_backward(q, k, &bo)))
            break;
        int nbc = chunk_bwd(q, k + 1);
        int recv_next = !(last && nbc == v - 1) && k != total - 1;
        rc = ilv_exchange(q, NULL, bo, 0, 0, recv_next, nbc);
    }
    return rc;
}

int pp_forward_backward_interleaved(pp_sched *p, long long M, double *loss)
{
    dist_ctx *d = p->d;
    ilv_state q = {.p = p, .S = d->pp, .s = d->pp_rank, .v = p->vpp, .M = M, .total = M * p->vpp,
                   .lscale = (double)(M * d->dp),
                   .scale = pp_backward_scale(p, M)};
    q.slot = malloc((size_t)q.total * sizeof(int));
    q.in = calloc((size_t)q.v, sizeof *q.in);
    q.grad = calloc((size_t)q.v, sizeof *q.grad);
    int rc = !q.slot || !q.in || !q.grad ? err_set(ERR_NOMEM, "out of memory") : ilv_run(&q, loss);
    const gpt_ops *o = p->m->ops;
    for (int c = 0; q.in && q.grad && c < q.v; c++) {
        if (!rc && (q.in[c].n || q.grad[c].n))
            rc = err_set(ERR_INTERNAL, "interleaved pipeline: transfers left over for chunk %d", c);
        for (long long i = 0; i < q.in[c].n; i++)
            o->mem.free(q.in[c].b[q.in[c].head + i]);
        for (long long i = 0; i < q.grad[c].n; i++)
            o->mem.free(q.grad[c].b[q.grad[c].head + i]);
        free(q.in[c].b);
        free(q.grad[c].b);
    }
    for (int i = 0; i < q.npool; i++)
        o->mem.free(q.pool[i]);
    free(q.pool);
    free(q.in);
    free(q.grad);
    free(q.slot);
    return rc ? rc : pipeline_end(p, loss);
}

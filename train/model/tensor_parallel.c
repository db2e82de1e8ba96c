/* tensor_parallel.c - Megatron's tensor-parallel layers for the one GPT model
 * (megatron/core/tensor_parallel: mappings.py's collectives, layers.py's
 * RowParallelLinear and ColumnParallelLinear's input gradient, and sequence
 * parallelism's LayerNorm regions). The model (train/model/gpt.c) calls these
 * inside its forward and backward; every buffer is the operation table's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "train/model/gpt_int.h"
#include "train/parallel/comm.h"
#include "train/parallel/dist.h"

/* Collectives over the tensor group; a failure here (the communicator broke)
 * ends every rank. tp_sum: in place over n; tp_scatter: this rank's block of n
 * of the sums of send [tp * n]; tp_gather: every rank's n into out [tp * n]. */
void tp_check(gpt_model *m, int rc, const char *what)
{
    if (rc) {
        fprintf(stderr, "train: tensor-parallel %s: %s\n", what, err_msg());
        dist_abort(m->tp_d, EXIT_INTERNAL);
    }
}

/* The collectives on floatX buffers. In fp32 they run on the buffers; the sums in bf16 /
 * fp16 through the fp32 scratch tpf [2, bt, C]: widened, summed in fp32, rounded once (what
 * the fp32-storage model did; a sum in the narrow type itself, as Megatron's, would round
 * after every addition of the ring and move half the bytes). The all-gather moves the
 * storage type's bytes. */
void tp_sum(gpt_model *m, floatX *buf, size_t n)
{
    if (!m->prec) {
        tp_check(m, comm_allreduce(m->tp_comm, (float *)buf, n, COMM_SUM), "all-reduce");
        return;
    }
    float *f = m->acts->tpf;
    m->ops->from_prec(f, buf, n);
    tp_check(m, comm_allreduce(m->tp_comm, f, n, COMM_SUM), "all-reduce");
    m->ops->to_prec(buf, f, n);
}

void tp_scatter(gpt_model *m, const floatX *send, floatX *recv, size_t n)
{
    if (!m->prec) {
        tp_check(m, comm_reduce_scatter(m->tp_comm, (const float *)send, (float *)recv, n), "reduce-scatter");
        return;
    }
    float *f = m->acts->tpf, *fr = f + n * (size_t)m->tp;
    m->ops->from_prec(f, send, n * (size_t)m->tp);
    tp_check(m, comm_reduce_scatter(m->tp_comm, f, fr, n), "reduce-scatter");
    m->ops->to_prec(recv, fr, n);
}

void tp_gather(gpt_model *m, const floatX *send, floatX *out, size_t n)
{
    /* a gather adds nothing: the storage type's bytes move as they are (fp32 words of two
     * 16-bit values), half of fp32's */
    if (!m->prec || (n * m->xb) % sizeof(float) == 0) {
        size_t words = n * m->xb / sizeof(float);
        tp_check(m, comm_allgather(m->tp_comm, (const float *)send, (float *)out, words), "all-gather");
        return;
    }
    float *f = m->acts->tpf, *fs = f + n * (size_t)m->tp;
    m->ops->from_prec(fs, send, n);
    tp_check(m, comm_allgather(m->tp_comm, fs, f, n), "all-gather");
    m->ops->to_prec(out, f, n * (size_t)m->tp);
}

/* out[N, OC] = res + inp[N, K] @ w[OC, K]^T + bias, where inp and w are this
 * rank's K columns (RowParallelLinear): the product is summed over the tensor
 * group before the (replicated) bias and the residual are added. */
void row_parallel(gpt_model *m, floatX *out, const floatX *res, const floatX *inp, const floatX *w,
                  const floatX *bias, int N, int K, int OC, const ln_next *ln)
{
    size_t n = (size_t)N * OC;
    const gpt_ops *o = m->ops;
    if (m->tp <= 1 && !m->prec) { /* fp32 on one rank: the product added onto the residual */
        o->mem.copy(out, res, n * sizeof(float));
        o->matmul_forward(out, inp, w, bias, N, K, OC, 1);
        if (ln)
            layernorm_sp(m, ln->out, ln->mean, ln->rstd, out, ln->w, ln->b, N, OC);
        return;
    }
    /* Mixed precision rounds the product (the GEMM's bf16/fp16 output), the sum over the
     * tensor group and the residual sum, with one or with several ranks alike. */
    floatX *t = m->acts->tpbuf;
    o->matmul_forward(t, inp, w, NULL, N, K, OC, 0);
    int rows = N;
    if (m->sp) {
        /* Sequence parallel: each rank keeps the sums of its own rows only. */
        rows = N / m->tp;
        tp_scatter(m, t, m->acts->splocal, (size_t)rows * OC);
        t = m->acts->splocal;
    } else if (m->tp > 1) {
        tp_sum(m, t, n);
    }
    if (!ln) {
        o->residual_bias(out, res, t, bias, rows, OC);
        return;
    }
    /* the residual sum and the LayerNorm after it in one operation; with sequence parallelism
     * on this rank's rows (into tpbuf, free once scattered), then gathered */
    floatX *lo = m->sp ? m->acts->tpbuf : ln->out;
    o->residual_layernorm_forward(out, lo, ln->mean, ln->rstd, res, t, bias, ln->w, ln->b, rows, OC);
    if (m->sp)
        tp_gather(m, lo, ln->out, (size_t)rows * OC);
}

/* LayerNorm of this rank's rows; with sequence parallelism they are then
 * gathered so that out holds all n rows (for a column-parallel layer). */
void layernorm_sp(gpt_model *m, floatX *out, float *mean, float *rstd, const floatX *inp, const floatX *w,
                  const floatX *b, int n, int C)
{
    if (!m->sp) { /* statistics fp32, the output in the storage precision */
        m->ops->layernorm_forward(out, mean, rstd, inp, w, b, n, C);
        return;
    }
    size_t rows = (size_t)n / (size_t)m->tp;
    m->ops->layernorm_forward(m->acts->splocal, mean, rstd, inp, w, b, (int)rows, C);
    tp_gather(m, m->acts->splocal, out, rows * (size_t)C);
}

/* The input gradient of a column-parallel layer (partial [bt, C] on each rank)
 * is a sum over the tensor group: all of it, or with sequence parallelism this
 * rank's `rows`. Returns where the sum is. */
const floatX *column_input_grad(gpt_model *m, floatX *partial, size_t rows, size_t bt, int C)
{
    if (m->sp) {
        tp_scatter(m, partial, m->acts->splocal, rows * (size_t)C);
        return m->acts->splocal;
    }
    if (m->tp > 1)
        tp_sum(m, partial, bt * (size_t)C);
    return partial;
}

size_t gpt_stage_rows(const gpt_model *m, size_t bt)
{
    return m->sp ? bt / (size_t)m->tp : bt;
}

int gpt_sp_reduce_grads(gpt_model *m)
{
    if (!m->sp || m->hooks)
        return 0; /* under the unit hooks, done per unit and micro-batch */
    static const int ln[] = {GPT_LN1W, GPT_LN1B, GPT_LN2W, GPT_LN2B, GPT_LNFW, GPT_LNFB};
    for (size_t i = 0; i < sizeof ln / sizeof *ln; i++)
        if (m->sizes[ln[i]]) {
            int rc = comm_allreduce(m->tp_comm, m->dev.grads + m->offsets[ln[i]], m->sizes[ln[i]], COMM_SUM);
            if (rc)
                return rc;
        }
    return 0;
}

/* zero_units.c - ZeRO stages 2 and 3 inside the model (see gpt.h's units):
 * the model is cut into units (the embeddings, each layer, the final
 * LayerNorm); under the hooks the data-parallel optimizer (ddp.c) gathers a
 * unit's parameters just before its forward or backward and takes its
 * gradients as soon as they are complete. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "train/model/gpt_int.h"
#include "train/parallel/comm.h"
#include "train/parallel/dist.h"

int gpt_num_units(const gpt_model *m) { return m->nlayers + 2; }

int gpt_unit_segs(const gpt_model *m, int u, gpt_seg seg[GPT_UNIT_MAX_SEGS])
{
    int t0 = u == 0 ? GPT_WTE : u <= m->nlayers ? GPT_LN1W : GPT_LNFW;
    int t1 = u == 0 ? GPT_WPE : u <= m->nlayers ? GPT_FCPROJB : GPT_LNFB;
    int n = 0;
    for (int t = t0; t <= t1; t++) {
        size_t len = slice_len(m, t);
        if (!len)
            continue; /* a tensor this pipeline stage does not hold */
        seg[n].t = t;
        seg[n].off = m->offsets[t] + (per_layer(t) ? (size_t)(u - 1) * len : 0);
        seg[n].n = len;
        n++;
    }
    return n;
}

size_t gpt_unit_size(const gpt_model *m, int u)
{
    gpt_seg seg[GPT_UNIT_MAX_SEGS];
    size_t n = 0;
    for (int i = 0, ns = gpt_unit_segs(m, u, seg); i < ns; i++)
        n += seg[i].n;
    return n;
}

int gpt_set_unit_hooks(gpt_model *m, const gpt_unit_hooks *h)
{
    free(m->zp);
    free(m->zg);
    m->zp = m->zg = NULL;
    m->hooks = NULL;
    if (!h)
        return 0;
    int nu = gpt_num_units(m);
    m->zp = calloc((size_t)nu, sizeof *m->zp);
    m->zg = calloc((size_t)nu, sizeof *m->zg);
    if (!m->zp || !m->zg) {
        gpt_set_unit_hooks(m, NULL);
        return err_set(ERR_NOMEM, "out of memory");
    }
    for (int u = 0; u < nu; u++) {
        gpt_seg seg[GPT_UNIT_MAX_SEGS];
        int ns = gpt_unit_segs(m, u, seg);
        size_t pos = 0;
        for (int i = 0; i < ns; i++) {
            m->useg[seg[i].t] = pos;
            pos += seg[i].n;
        }
    }
    m->hooks = h;
    /* Mixed precision under ZeRO-3: the compute copies of the gathered units (the embedding,
     * a layer, the final LayerNorm), allocated now so that the memory held at start counts them */
    int su[3] = {0, 1, m->nlayers + 1};
    for (int k = 0; k < 3 && m->prec && h->gather; k++) {
        size_t n = gpt_unit_size(m, su[k]);
        if (n <= m->zx_n[k])
            continue;
        m->ops->mem.free(m->zx[k]);
        m->zx_n[k] = 0;
        if (!(m->zx[k] = m->ops->mem.alloc(n * m->xb))) {
            gpt_set_unit_hooks(m, NULL);
            return err_set(ERR_NOMEM, "out of %s memory for the compute copy of a gathered unit (%zu parameters)",
                           m->ops->name, n);
        }
        m->zx_n[k] = n;
    }
    return 0;
}

/* Mixed precision: the slot of m->zx that unit u's compute copy uses (the embedding
 * and the final LayerNorm stay gathered while the layers pass one at a time). */
static int zx_slot(const gpt_model *m, int u) { return u == 0 ? 0 : u > m->nlayers ? 2 : 1; }

void unit_gather(gpt_model *m, int u) { unit_gather_next(m, u, -1); }

void unit_gather_next(gpt_model *m, int u, int next)
{
    if (!m->hooks || !m->hooks->gather || m->zp[u])
        return;
    m->zp[u] = m->hooks->gather(m->hooks->ctx, u, next);
    if (!m->prec)
        return;
    /* ZeRO-3: the gathered master weights, converted to compute with, into the unit's
     * slot (allocated by gpt_set_unit_hooks) */
    size_t n = gpt_unit_size(m, u);
    int k = zx_slot(m, u);
    if (m->zx_unit[k] >= 0 || n > m->zx_n[k]) { /* the model's order of gathers is broken: a bug, not an input */
        fprintf(stderr, "train: ZeRO-3: unit %d (%zu parameters) gathered into a compute slot of %zu held by unit %d\n",
                u, n, m->zx_n[k], m->zx_unit[k]);
        abort();
    }
    m->ops->to_prec(m->zx[k], m->zp[u], n);
    m->zx_unit[k] = u;
}

void unit_release(gpt_model *m, int u)
{
    if (m->hooks && m->hooks->gather && m->zp[u]) {
        m->hooks->release(m->hooks->ctx, u);
        m->zp[u] = NULL;
        if (m->zx_unit[zx_slot(m, u)] == u)
            m->zx_unit[zx_slot(m, u)] = -1;
    }
}

void unit_grads(gpt_model *m, int u)
{
    if (m->hooks && m->hooks->grad_buf && !m->zg[u])
        m->zg[u] = m->hooks->grad_buf(m->hooks->ctx, u);
}

/* A unit's gradients of this micro-batch are complete: with sequence parallelism
 * its LayerNorms' partial sums are added over the tensor group first (what
 * gpt_sp_reduce_grads does once an iteration without the hooks). */
void unit_grads_done(gpt_model *m, int u)
{
    if (m->hooks && !m->hooks->grad_buf) {
        /* the gradients in place (ZeRO-0's overlap): the unit is handed over once its
         * gradients of the iteration are complete, in the last micro-batch's backward, with
         * sequence parallelism after its LayerNorms' sums over the tensor group */
        if (!m->grad_last)
            return;
        if (m->sp && u > 0) {
            int final = u > m->nlayers;
            const int ln[4] = {final ? GPT_LNFW : GPT_LN1W, final ? GPT_LNFB : GPT_LN1B, GPT_LN2W, GPT_LN2B};
            for (int i = 0; i < (final ? 2 : 4); i++)
                tp_check(m, comm_allreduce(m->tp_comm, G(m, ln[i], final ? 0 : u - 1), slice_len(m, ln[i]), COMM_SUM),
                         "all-reduce of LayerNorm gradients");
        }
        m->hooks->grad_done(m->hooks->ctx, u);
        return;
    }
    if (!m->hooks || !m->zg[u])
        return;
    if (m->sp && u > 0) {
        int final = u > m->nlayers;
        const int ln[2] = {final ? GPT_LNFW : GPT_LN1W, GPT_LN2W};
        for (int i = 0; i < (final ? 1 : 2); i++) /* w and b adjacent in the unit: one all-reduce */
            tp_check(m, comm_allreduce(m->tp_comm, G(m, ln[i], final ? 0 : u - 1), 2 * slice_len(m, ln[i]), COMM_SUM),
                     "all-reduce of LayerNorm gradients");
    }
    m->hooks->grad_done(m->hooks->ctx, u);
    m->zg[u] = NULL;
}

/* ddp.c - gradient reduction in buckets and the ZeRO-1 sharded optimizer
 * (see ddp.h). */
#include "train/distributed/ddp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"

/* Bucket b: parameters [lo, lo + len), padded to len_p = per * dp; this rank
 * owns [lo + r*per, lo + (r+1)*per) clipped to the bucket, stored at shard
 * offset soff. */
typedef struct {
    size_t lo, len, per, soff;
} bucket_t;

static bucket_t bucket_at(const ddp *o, size_t b)
{
    bucket_t k;
    size_t dp = (size_t)o->g->size;
    k.lo = b * o->bucket;
    k.len = o->n - k.lo < o->bucket ? o->n - k.lo : o->bucket;
    k.per = (k.len + dp - 1) / dp;
    k.soff = b * (o->bucket / dp); /* every earlier bucket is full: bucket/dp each */
    return k;
}

/* The owned, real (unpadded) parameters of bucket k: [a0, a1). */
static void owned(const ddp *o, const bucket_t *k, size_t *a0, size_t *a1)
{
    size_t r = (size_t)o->g->rank, end = k->lo + k->len;
    *a0 = k->lo + r * k->per;
    *a1 = *a0 + k->per;
    if (*a0 > end)
        *a0 = end;
    if (*a1 > end)
        *a1 = end;
}

/* ---- stages 2 and 3: the model in units (gpt.h), each split over the group ---- */

static int slot_of(const ddp *o, int u)
{
    return u == 0 ? 0 : u == o->nu - 1 ? 2 : o->overlap_grad || o->overlap_param ? 1 + 2 * (u % 2 == 0) : 1;
}

/* Copy unit u between the flat array (gpt.h's order) and its packed buffer,
 * both the backend's. */
static void pack(const ddp *o, int u, const float *flat, float *buf)
{
    gpt_seg seg[GPT_UNIT_MAX_SEGS];
    int ns = gpt_unit_segs(o->m, u, seg);
    size_t pos = 0;
    for (int i = 0; i < ns; pos += seg[i].n, i++)
        o->ops->mem.copy(buf + pos, flat + seg[i].off, seg[i].n * sizeof *buf);
    o->ops->mem.zero(buf + pos, (o->units[u].per * (size_t)o->g->size - pos) * sizeof *buf);
}

static void unpack(const ddp *o, int u, const float *buf, float *flat)
{
    gpt_seg seg[GPT_UNIT_MAX_SEGS];
    int ns = gpt_unit_segs(o->m, u, seg);
    size_t pos = 0;
    for (int i = 0; i < ns; pos += seg[i].n, i++)
        o->ops->mem.copy(flat + seg[i].off, buf + pos, seg[i].n * sizeof *buf);
}

/* Every rank's part of unit u of a sharded array, into buf [per * dp]. */
static int gather_unit(ddp *o, int u, const float *shard, float *buf)
{
    const ddp_unit *k = &o->units[u];
    float *mine = buf + (size_t)o->g->rank * k->per;
    o->ops->mem.copy(mine, shard + k->soff, k->per * sizeof *mine);
    return comm_allgather(o->c, mine, buf, k->per);
}

/* The reverse: this rank's part of unit u of a full host array [n] into its
 * shard (the padding past the unit's end zero). */
static int scatter_unit(ddp *o, int u, const float *full, float *shard)
{
    const ddp_unit *k = &o->units[u];
    gpt_seg seg[GPT_UNIT_MAX_SEGS];
    int ns = gpt_unit_segs(o->m, u, seg);
    size_t a0 = (size_t)o->g->rank * k->per, a1 = a0 + k->per, pos = 0;
    o->ops->mem.zero(shard + k->soff, k->per * sizeof *shard);
    for (int i = 0; i < ns; pos += seg[i].n, i++) {
        size_t x0 = pos > a0 ? pos : a0, x1 = pos + seg[i].n < a1 ? pos + seg[i].n : a1;
        if (x0 < x1)
            o->ops->mem.upload(shard + k->soff + (x0 - a0), full + seg[i].off + (x0 - pos), (x1 - x0) * sizeof *full);
    }
    return 0;
}

/* A collective inside the forward or backward that failed (the communicator
 * broke): as for the tensor-parallel ones, every rank ends here. */
static void hook_check(ddp *o, int rc, const char *what)
{
    if (rc) {
        fprintf(stderr, "train: ZeRO-%d %s: %s\n", o->zero, what, err_msg());
        dist_abort(o->d, EXIT_INTERNAL);
    }
}

/* --overlap-param-gather: unit u's all-gather into its slot, started now. */
static int gather_unit_start(ddp *o, int u)
{
    int s = slot_of(o, u);
    const ddp_unit *k = &o->units[u];
    float *mine = o->pbuf[s] + (size_t)o->g->rank * k->per;
    o->ops->mem.copy(mine, o->pshard + k->soff, k->per * sizeof *mine);
    o->punit[s] = u;
    return comm_iallgather(o->c, mine, o->pbuf[s], k->per, &o->preq[s]);
}

static float *hook_gather(void *ctx, int u, int next)
{
    ddp *o = ctx;
    int s = slot_of(o, u);
    float *buf = o->pbuf[s];
    if (o->preq[s].active && o->punit[s] == u) {
        hook_check(o, comm_wait(o->c, &o->preq[s]), "all-gather of parameters (overlapped)");
    } else {
        /* not started ahead (the first layer of a pass): now, and a gather started for
         * another unit in this slot is finished first (the model's order changed) */
        hook_check(o, comm_wait(o->c, &o->preq[s]), "all-gather of parameters (overlapped)");
        hook_check(o, gather_unit(o, u, o->pshard, buf), "all-gather of parameters");
    }
    o->punit[s] = u;
    if (o->overlap_param && next >= 0 && next < o->nu && slot_of(o, next) != s && o->punit[slot_of(o, next)] < 0 &&
        !o->preq[slot_of(o, next)].active)
        hook_check(o, gather_unit_start(o, next), "all-gather of parameters (overlapped)");
    return buf;
}

static void hook_release(void *ctx, int u)
{
    ddp *o = ctx; /* the slot's buffer is reused by the next unit that takes it */
    int s = slot_of(o, u);
    if (o->punit[s] == u && !o->preq[s].active)
        o->punit[s] = -1;
}

static void grad_round(const ddp *o, float *x, size_t n);

/* --overlap-grad-reduce: the reduce-scatter a slot holds, completed and added into the
 * owner's shard (what the blocking path adds at once). */
static int grad_finish(ddp *o, int s)
{
    if (!o->greq[s].active)
        return 0;
    int rc = comm_wait(o->c, &o->greq[s]);
    if (rc)
        return rc;
    const ddp_unit *k = &o->units[o->gunit[s]];
    if (o->zero == 0) { /* the unit's sums back into the flat gradients */
        grad_round(o, o->gbuf[s], k->n);
        unpack(o, o->gunit[s], o->gbuf[s], o->m->dev.grads);
        o->gunit[s] = -1;
        return 0;
    }
    grad_round(o, o->recv[s], k->per);
    o->ops->add(o->gshard + k->soff, o->recv[s], k->per);
    o->gunit[s] = -1;
    return 0;
}

static float *hook_grad_buf(void *ctx, int u)
{
    ddp *o = ctx;
    int s = slot_of(o, u);
    hook_check(o, grad_finish(o, s), "reduce-scatter of gradients (overlapped)");
    float *buf = o->gbuf[s];
    o->ops->mem.zero(buf, o->units[u].per * (size_t)o->g->size * sizeof *buf);
    return buf;
}

/* A unit's gradients of one micro-batch: summed over the group into the owners'
 * shards (added to what earlier micro-batches left there). */
static void grad_round(const ddp *o, float *x, size_t n)
{
    if (o->grad_reduce_prec)
        o->ops->round_prec(x, n, o->grad_reduce_prec);
}

static void hook_grad_done(void *ctx, int u)
{
    ddp *o = ctx;
    const ddp_unit *k = &o->units[u];
    int s = slot_of(o, u);
    grad_round(o, o->gbuf[s], k->per * (size_t)o->g->size);
    if (o->overlap_grad) { /* completed when the slot is taken again, or at ddp_reduce_grads */
        o->gunit[s] = u;
        hook_check(o, comm_ireduce_scatter(o->c, o->gbuf[s], o->recv[s], k->per, &o->greq[s]),
                   "reduce-scatter of gradients (overlapped)");
        return;
    }
    hook_check(o, comm_reduce_scatter(o->c, o->gbuf[s], o->recv[s], k->per), "reduce-scatter of gradients");
    grad_round(o, o->recv[s], k->per);
    o->ops->add(o->gshard + k->soff, o->recv[s], k->per);
}

/* Stages 0 and 1 with --overlap-grad-reduce (the gradients in place): unit u's gradients
 * of the iteration, complete in the last micro-batch's backward, are packed into its slot
 * and, while the backward goes on, all-reduced there (stage 0: each element's sum is the
 * one the buckets' all-reduce makes) or reduce-scattered into this rank's part (stage 1,
 * the units' shard layout); completed (stage 0 unpacked, stage 1 added into the zeroed
 * shard) when the slot is taken again or at ddp_reduce_grads. */
static void hook_grad_handover(void *ctx, int u)
{
    ddp *o = ctx;
    int s = slot_of(o, u), all = o->zero == 0;
    const char *what = all ? "all-reduce of gradients (overlapped)" : "reduce-scatter of gradients (overlapped)";
    const ddp_unit *k = &o->units[u];
    if (!k->n)
        return; /* a unit this pipeline stage does not hold */
    if (u == 0 && o->m->pp > 1 && !o->late0) {
        /* the tied embedding: its copies on the first and last stages are summed over the
         * embedding group after the pipeline's backwards (schedules.c), and over the data
         * group after that, as without overlap; ddp_reduce_grads hands it over */
        o->defer0 = 1;
        return;
    }
    hook_check(o, grad_finish(o, s), what);
    pack(o, u, o->m->dev.grads, o->gbuf[s]);
    grad_round(o, o->gbuf[s], all ? k->n : k->per * (size_t)o->g->size);
    o->gunit[s] = u;
    hook_check(o, all ? comm_iallreduce(o->c, o->gbuf[s], k->n, &o->greq[s])
                      : comm_ireduce_scatter(o->c, o->gbuf[s], o->recv[s], k->per, &o->greq[s]),
               what);
    o->handed++;
}

/* ZeRO-0's overlap: the units (per = n: pack pads nothing), a buffer per slot, the hooks. */
static int units0_init(ddp *o, gpt_model *m)
{
    o->m = m;
    o->nu = gpt_num_units(m);
    o->units = calloc((size_t)o->nu, sizeof *o->units);
    if (!o->units)
        return err_set(ERR_NOMEM, "out of memory");
    size_t most[4] = {0, 0, 0, 0};
    for (int u = 0; u < o->nu; u++) {
        ddp_unit *k = &o->units[u];
        k->n = gpt_unit_size(m, u);
        k->per = (k->n + (size_t)o->g->size - 1) / (size_t)o->g->size;
        int s = slot_of(o, u);
        if (k->per * (size_t)o->g->size > most[s])
            most[s] = k->per * (size_t)o->g->size;
    }
    most[3] = most[1] > most[3] ? most[1] : most[3];
    most[1] = most[3];
    for (int s = 0; s < 4; s++) {
        o->gunit[s] = o->punit[s] = -1;
        if (!most[s])
            continue;
        if (!(o->gbuf[s] = ops_alloc_floats(o->ops, most[s])))
            return err_set(ERR_NOMEM, "out of memory for the overlap's gradient buffers (%zu elements)", most[s]);
        o->work_bytes += most[s] * sizeof(float);
    }
    o->hooks = (gpt_unit_hooks){o, NULL, NULL, NULL, hook_grad_handover};
    return gpt_set_unit_hooks(m, &o->hooks);
}

static int units_init(ddp *o, gpt_model *m)
{
    size_t dp = (size_t)o->g->size;
    if (m->pp > 1 && o->zero >= 2)
        return err_set(ERR_USAGE, "ZeRO stage %d with pipeline parallelism: not supported (as in DeepSpeed); use "
                                  "--zero-stage 1 (--use-distributed-optimizer) with a pipeline", o->zero);
    o->m = m;
    o->nu = gpt_num_units(m);
    o->units = calloc((size_t)o->nu, sizeof *o->units);
    o->pieces = calloc((size_t)o->nu * GPT_UNIT_MAX_SEGS, sizeof *o->pieces);
    if (!o->units || !o->pieces)
        goto nomem;
    size_t most[3] = {0, 0, 0}, soff = 0, r = (size_t)o->g->rank;
    for (int u = 0; u < o->nu; u++) {
        gpt_seg seg[GPT_UNIT_MAX_SEGS];
        int ns = gpt_unit_segs(m, u, seg);
        ddp_unit *k = &o->units[u];
        for (int i = 0; i < ns; i++)
            k->n += seg[i].n;
        k->per = (k->n + dp - 1) / dp;
        k->soff = soff;
        soff += k->per;
        int s = slot_of(o, u);
        if (k->per * dp > most[s])
            most[s] = k->per * dp;
        /* This rank's part [a0, a1) of the packed unit, cut at the tensors' seams. */
        size_t a0 = r * k->per, a1 = a0 + k->per, pos = 0;
        for (int i = 0; i < ns; pos += seg[i].n, i++) {
            size_t x0 = pos > a0 ? pos : a0, x1 = pos + seg[i].n < a1 ? pos + seg[i].n : a1;
            if (x0 < x1)
                o->pieces[o->npieces++] = (ddp_piece){seg[i].off + (x0 - pos), x1 - x0, k->soff + (x0 - a0)};
        }
    }
    o->shard_n = soff;
    o->gshard = ops_alloc_floats(o->ops, o->shard_n);
    o->adam_m = ops_alloc_floats(o->ops, o->shard_n);
    o->adam_v = ops_alloc_floats(o->ops, o->shard_n);
    if (!o->gshard || !o->adam_m || !o->adam_v)
        goto nomem;
    for (int s = 0; s < 4; s++)
        o->gunit[s] = o->punit[s] = -1;
    for (int s = 0; s < 3; s++) {
        if (!most[s])
            continue; /* no layer on this rank */
        o->gbuf[s] = ops_alloc_floats(o->ops, most[s]);
        o->recv[s] = ops_alloc_floats(o->ops, most[s] / dp);
        if (!o->gbuf[s] || !o->recv[s])
            goto nomem;
        o->work_bytes += (most[s] + most[s] / dp) * sizeof(float);
        if (o->zero == 3) {
            o->pbuf[s] = ops_alloc_floats(o->ops, most[s]);
            if (!o->pbuf[s])
                goto nomem;
            o->work_bytes += most[s] * sizeof(float);
        }
    }
    if (o->zero == 3) {
        o->pshard = ops_alloc_floats(o->ops, o->shard_n);
        if (!o->pshard)
            goto nomem;
        for (int u = 0; u < o->nu; u++)
            scatter_unit(o, u, m->params, o->pshard);
        o->ops->mem.sync();
    }
    o->unitwise = 1;
    if (o->zero == 1) /* the gradients stay in m, reduced in the last micro-batch's backward */
        o->hooks = (gpt_unit_hooks){o, NULL, NULL, NULL, hook_grad_handover};
    else
        o->hooks = (gpt_unit_hooks){o, o->zero == 3 ? hook_gather : NULL, hook_release, hook_grad_buf, hook_grad_done};
    if (gpt_set_unit_hooks(m, &o->hooks))
        goto nomem;
    if (o->zero >= 2)
        gpt_drop(m, GPT_DROP_GRADS | (o->zero == 3 ? GPT_DROP_PARAMS : 0));
    return 0;
nomem:
    ddp_free(o);
    return err_set(ERR_NOMEM, "out of memory for the ZeRO-%d shards and working buffers", o->zero);
}

int ddp_init(ddp *o, dist_ctx *d, gpt_model *m, int zero, size_t bucket, pcomm *c)
{
    memset(o, 0, sizeof *o);
    o->d = d;
    o->g = &d->data;
    o->zero = zero;
    o->n = m->num_params;
    o->ops = m->ops;
    size_t dp = (size_t)o->g->size;
    if (zero < 0 || zero > 3)
        return err_set(ERR_USAGE, "ZeRO stage %d is not available (0 to 3)", zero);
    int rc;
    if (!c && (rc = comm_init(&o->own, "data", d, o->g, o->ops, NULL)))
        return rc;
    o->c = c ? c : &o->own;
    if (!(o->red = o->ops->mem.alloc(sizeof(double)))) {
        ddp_free(o);
        return err_set(ERR_NOMEM, "out of memory");
    }
    if (zero >= 2)
        return units_init(o, m);
    if (!bucket) {
        bucket = 40000000;
        if (bucket < 1000000 * dp)
            bucket = 1000000 * dp;
    }
    bucket = (bucket + dp - 1) / dp * dp;
    o->bucket = bucket;
    o->nb = (o->n + bucket - 1) / bucket;
    if (zero == 1) {
        /* Stage 1's scratch: one bucket, padded (the model's size when it is smaller). */
        size_t padn = (o->n + dp - 1) / dp * dp;
        padn = padn < bucket ? padn : bucket;
        o->pad = ops_alloc_floats(o->ops, padn);
        if (!o->pad) {
            ddp_free(o);
            return err_set(ERR_NOMEM, "out of memory for a gradient bucket of %zu elements", padn);
        }
        o->work_bytes += padn * sizeof(float);
        bucket_t last = bucket_at(o, o->nb - 1);
        o->shard_n = last.soff + last.per;
        o->gshard = ops_alloc_floats(o->ops, o->shard_n);
        o->adam_m = ops_alloc_floats(o->ops, o->shard_n);
        o->adam_v = ops_alloc_floats(o->ops, o->shard_n);
        if (!o->gshard || !o->adam_m || !o->adam_v) {
            ddp_free(o);
            return err_set(ERR_NOMEM, "out of memory for the optimizer shard (%zu elements)", o->shard_n);
        }
    }
    return 0;
}

void ddp_free(ddp *o)
{
    if (!o || !o->ops)
        return;
    const gpt_ops *ops = o->ops;
    ops->mem.free(o->gshard);
    ops->mem.free(o->adam_m);
    ops->mem.free(o->adam_v);
    ops->mem.free(o->pad);
    ops->mem.free(o->red);
    if (o->m)
        gpt_set_unit_hooks(o->m, NULL);
    free(o->units);
    free(o->pieces);
    ops->mem.free(o->pshard);
    for (int s = 0; s < 4; s++) {
        comm_req_free(o->c, &o->greq[s]);
        comm_req_free(o->c, &o->preq[s]);
        ops->mem.free(o->recv[s]);
        ops->mem.free(o->gbuf[s]);
        ops->mem.free(o->pbuf[s]);
    }
    comm_free(&o->own);
    memset(o, 0, sizeof *o);
}

int ddp_set_overlap(ddp *o, gpt_model *m, int grad, int param)
{
    if (param && o->zero != 3)
        return err_set(ERR_USAGE, "--overlap-param-gather: implemented for --zero-stage 3 (the next layer's "
                                  "parameters gathered while this one computes); stages 1 and 2 gather after the "
                                  "step");
    if (!grad && !param)
        return 0;
    o->overlap_grad = grad;
    o->overlap_param = param;
    if (o->zero == 0) /* nothing to overlap in a group of one */
        return o->g->size > 1 ? units0_init(o, m) : 0;
    if (o->zero == 1 && !o->unitwise) {
        /* the shards of the units (ZeRO-2's layout) instead of the flat buckets' */
        o->ops->mem.free(o->gshard);
        o->ops->mem.free(o->adam_m);
        o->ops->mem.free(o->adam_v);
        o->ops->mem.free(o->pad);
        o->gshard = o->adam_m = o->adam_v = o->pad = NULL;
        o->work_bytes = 0;
        o->overlap_grad = 0; /* the slots as ZeRO-2 starts them; the second layer slot below */
        int rc = units_init(o, m);
        if (rc)
            return rc;
        o->overlap_grad = grad;
    }
    /* the second layer slot, as large as the first */
    size_t most = 0, dp = (size_t)o->g->size;
    for (int u = 1; u < o->nu - 1; u++)
        if (o->units[u].per * dp > most)
            most = o->units[u].per * dp;
    if (!most)
        return 0;
    o->gbuf[3] = ops_alloc_floats(o->ops, most);
    o->recv[3] = ops_alloc_floats(o->ops, most / dp);
    if (o->zero == 3)
        o->pbuf[3] = ops_alloc_floats(o->ops, most);
    if (!o->gbuf[3] || !o->recv[3] || (o->zero == 3 && !o->pbuf[3]))
        return err_set(ERR_NOMEM, "out of memory for the overlap's second layer buffers (%zu elements)", most);
    o->work_bytes += (most + most / dp + (o->zero == 3 ? most : 0)) * sizeof(float);
    return 0;
}

int ddp_reduce_grads(ddp *o, gpt_model *m)
{
    if (o->unitwise || (o->zero == 0 && o->overlap_grad && o->g->size > 1)) {
        /* reduce-scattered (stage 0: all-reduced) unit by unit in the backward; with
         * overlap, the last ones complete here */
        if (o->defer0) { /* the tied embedding, after the embedding group's sum */
            o->defer0 = 0;
            o->late0 = 1;
            hook_grad_handover(o, 0);
            o->late0 = 0;
        }
        for (int s = 0; s < 4; s++) {
            int rc = grad_finish(o, s);
            if (rc)
                return rc;
        }
        if (o->zero < 2) { /* every unit this stage holds handed over by the last micro-batch's backward */
            int h = o->handed, want = 0;
            o->handed = 0;
            for (int u = 0; u < o->nu; u++)
                want += o->units[u].n > 0;
            if (h != want)
                return err_set(ERR_INTERNAL, "ZeRO-%d overlap: %d of %d units' gradients were reduced in the "
                                             "backward (the last micro-batch not marked)", o->zero, h, want);
        }
        return 0;
    }
    if (o->g->size == 1 && o->zero == 0)
        return 0;
    size_t dp = (size_t)o->g->size;
    for (size_t b = 0; b < o->nb; b++) {
        bucket_t k = bucket_at(o, b);
        float *g = m->dev.grads + k.lo;
        int rc;
        grad_round(o, g, k.len);
        if (o->zero == 0) {
            rc = comm_allreduce(o->c, g, k.len, COMM_SUM);
            if (!rc)
                grad_round(o, g, k.len);
        } else {
            const float *send = g;
            if (k.per * dp != k.len) {
                o->ops->mem.copy(o->pad, g, k.len * sizeof *g);
                o->ops->mem.zero(o->pad + k.len, (k.per * dp - k.len) * sizeof *g);
                send = o->pad;
            }
            rc = comm_reduce_scatter(o->c, send, o->gshard + k.soff, k.per);
            if (!rc)
                grad_round(o, o->gshard + k.soff, k.per);
        }
        if (rc)
            return rc;
    }
    return 0;
}

int ddp_grad_norm(ddp *o, const gpt_model *m, double *norm)
{
    if (o->zero == 0) {
        *norm = gpt_grad_norm(m);
        return 0;
    }
    double s = 0;
    if (o->unitwise) {
        for (size_t i = 0; i < o->npieces; i++) {
            const ddp_piece *p = &o->pieces[i];
            s += gpt_grad_sumsq_range(m, p->flat, p->flat + p->n, o->gshard + p->shard);
        }
    } else if (m->tp <= 1 && m->pp <= 1) {
        /* Padding holds zeros, so the whole shard can be summed (in order). */
        o->ops->sumsq_f64(o->red, o->gshard, o->shard_n, o->shard_n);
        o->ops->mem.download(&s, o->red, sizeof s);
        o->ops->mem.sync();
    } else {
        /* Tensor slices summed over the tensor group, replicated tensors once, stages added. */
        for (size_t b = 0; b < o->nb; b++) {
            bucket_t k = bucket_at(o, b);
            size_t a0, a1;
            owned(o, &k, &a0, &a1);
            s += gpt_grad_sumsq_range(m, a0, a1, o->gshard + k.soff);
        }
    }
    int rc = dist_allreduce_f64(o->d, o->g, &s, 1);
    if (!rc && m->tp > 1)
        rc = dist_allreduce_f64(o->d, &o->d->tensor, &s, 1);
    if (!rc && m->pp > 1)
        rc = dist_allreduce_f64(o->d, &o->d->pipeline, &s, 1);
    *norm = sqrt(s);
    return rc;
}

int ddp_adamw(ddp *o, gpt_model *m, float gscale, float lr, float beta1, float beta2, float eps, float wd, int64_t step)
{
    if (o->zero == 0) {
        gpt_adamw(m, gscale, lr, beta1, beta2, eps, wd, step);
        return 0;
    }
    if (o->unitwise) {
        /* The owned pieces; stage 3 updates its shard of the parameters, stages 1 and 2
         * the full copy, whose units are then all-gathered. */
        for (size_t i = 0; i < o->npieces; i++) {
            const ddp_piece *p = &o->pieces[i];
            gpt_adamw_range_at(m, p->flat, p->flat + p->n, o->zero == 3 ? o->pshard + p->shard : m->dev.params + p->flat,
                               o->gshard + p->shard, o->adam_m + p->shard, o->adam_v + p->shard, gscale, lr, beta1,
                               beta2, eps, wd, step);
        }
        for (int u = 0; o->zero != 3 && u < o->nu; u++) {
            float *buf = o->gbuf[slot_of(o, u)];
            pack(o, u, m->dev.params, buf);
            int rc = comm_allgather(o->c, buf + (size_t)o->g->rank * o->units[u].per, buf, o->units[u].per);
            if (rc)
                return rc;
            unpack(o, u, buf, m->dev.params);
        }
        return 0;
    }
    size_t dp = (size_t)o->g->size;
    for (size_t b = 0; b < o->nb; b++) {
        bucket_t k = bucket_at(o, b);
        size_t a0, a1;
        owned(o, &k, &a0, &a1);
        if (a1 > a0)
            gpt_adamw_range(m, a0, a1, o->gshard + k.soff, o->adam_m + k.soff, o->adam_v + k.soff, gscale, lr, beta1,
                            beta2, eps, wd, step);
        int rc;
        float *p = m->dev.params;
        if (k.per * dp == k.len) {
            rc = comm_allgather(o->c, p + a0, p + k.lo, k.per);
        } else {
            float *mine = o->pad + (size_t)o->g->rank * k.per;
            o->ops->mem.zero(mine, k.per * sizeof *mine);
            o->ops->mem.copy(mine, p + a0, (a1 - a0) * sizeof *mine);
            rc = comm_allgather(o->c, mine, o->pad, k.per);
            if (!rc)
                o->ops->mem.copy(p + k.lo, o->pad, k.len * sizeof *o->pad);
        }
        if (rc)
            return rc;
    }
    return 0;
}

/* Gather one sharded array into full [n] (host memory). */
static int gather_full(ddp *o, const float *shard, float *full)
{
    for (int u = 0; o->unitwise && u < o->nu; u++) {
        float *buf = o->gbuf[slot_of(o, u)];
        int rc = gather_unit(o, u, shard, buf);
        if (rc)
            return rc;
        gpt_seg seg[GPT_UNIT_MAX_SEGS];
        int ns = gpt_unit_segs(o->m, u, seg);
        size_t pos = 0;
        for (int i = 0; i < ns; pos += seg[i].n, i++)
            o->ops->mem.download(full + seg[i].off, buf + pos, seg[i].n * sizeof *full);
        o->ops->mem.sync(); /* before the buffer is reused */
    }
    if (o->unitwise)
        return 0;
    for (size_t b = 0; b < o->nb; b++) {
        bucket_t k = bucket_at(o, b);
        float *mine = o->pad + (size_t)o->g->rank * k.per;
        o->ops->mem.copy(mine, shard + k.soff, k.per * sizeof *mine);
        int rc = comm_allgather(o->c, mine, o->pad, k.per);
        if (rc)
            return rc;
        o->ops->mem.download(full + k.lo, o->pad, k.len * sizeof *full);
        o->ops->mem.sync();
    }
    return 0;
}

int ddp_gather_moments(ddp *o, float *full_m, float *full_v)
{
    int rc = gather_full(o, o->adam_m, full_m);
    return rc ? rc : gather_full(o, o->adam_v, full_v);
}

int ddp_gather_params(ddp *o, float *full)
{
    return gather_full(o, o->pshard, full);
}

void ddp_zero_grads(ddp *o, gpt_model *m)
{
    if (o->unitwise) /* the shard the units' parts are added into */
        o->ops->mem.zero(o->gshard, o->shard_n * sizeof *o->gshard);
    if (o->zero < 2)
        gpt_zero_grad(m);
}

void ddp_poison_grad(ddp *o, gpt_model *m)
{
    static const float nan = NAN;
    /* after the overlapped reductions still in flight, which would write over it */
    for (int s = 0; s < 4 && o->units && o->zero < 2; s++)
        hook_check(o, grad_finish(o, s), "reduction of gradients (overlapped)");
    o->ops->mem.upload(o->unitwise ? o->gshard : m->dev.grads, &nan, sizeof nan);
    o->ops->mem.sync();
}

void ddp_scatter_moments(ddp *o, const float *full_m, const float *full_v)
{
    for (int u = 0; o->unitwise && u < o->nu; u++) {
        scatter_unit(o, u, full_m, o->adam_m);
        scatter_unit(o, u, full_v, o->adam_v);
    }
    for (size_t b = 0; !o->unitwise && b < o->nb; b++) {
        bucket_t k = bucket_at(o, b);
        size_t a0, a1;
        owned(o, &k, &a0, &a1);
        o->ops->mem.zero(o->adam_m + k.soff, k.per * sizeof(float));
        o->ops->mem.zero(o->adam_v + k.soff, k.per * sizeof(float));
        o->ops->mem.upload(o->adam_m + k.soff, full_m + a0, (a1 - a0) * sizeof(float));
        o->ops->mem.upload(o->adam_v + k.soff, full_v + a0, (a1 - a0) * sizeof(float));
    }
    o->ops->mem.sync();
}

void ddp_bytes_per_param(const ddp *o, double *params, double *grads, double *moments)
{
    double n = (double)o->n;
    *params = o->zero == 3 ? 4.0 * (double)o->shard_n / n : 4;
    if (o->unitwise && o->zero == 1) { /* full gradients, the reduced shard, sharded moments */
        *grads = 4 + 4.0 * (double)o->shard_n / n;
        *moments = 8.0 * (double)o->shard_n / n;
        return;
    }
    if (o->zero >= 2) {
        *grads = 4.0 * (double)o->shard_n / n;
        *moments = 8.0 * (double)o->shard_n / n;
        return;
    }
    *grads = 4 + (o->zero ? 4.0 * (double)o->shard_n / n : 0);
    *moments = o->zero ? 8.0 * (double)o->shard_n / n : 8;
}

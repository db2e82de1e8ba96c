/* ddp.c - gradient reduction in buckets and the ZeRO-1 sharded optimizer
 * (see ddp.h). */
#include "train/dist/ddp.h"

#include <math.h>
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

int ddp_init(ddp *o, dist_ctx *d, gpt_model *m, int zero, size_t bucket)
{
    memset(o, 0, sizeof *o);
    o->d = d;
    o->g = &d->data;
    o->zero = zero;
    o->n = m->num_params;
    size_t dp = (size_t)o->g->size;
    if (zero < 0 || zero > 1)
        return err_set(ERR_USAGE, "ZeRO stage %d is not available (0 or 1)", zero);
    if (!bucket) {
        bucket = 40000000;
        if (bucket < 1000000 * dp)
            bucket = 1000000 * dp;
    }
    bucket = (bucket + dp - 1) / dp * dp;
    o->bucket = bucket;
    o->nb = (o->n + bucket - 1) / bucket;
    o->pad = malloc(bucket * sizeof *o->pad);
    if (!o->pad)
        return err_set(ERR_NOMEM, "out of memory for a gradient bucket of %zu elements", bucket);
    if (zero == 1) {
        bucket_t last = bucket_at(o, o->nb - 1);
        o->shard_n = last.soff + last.per;
        o->gshard = calloc(o->shard_n, sizeof *o->gshard);
        o->adam_m = calloc(o->shard_n, sizeof *o->adam_m);
        o->adam_v = calloc(o->shard_n, sizeof *o->adam_v);
        if (!o->gshard || !o->adam_m || !o->adam_v) {
            ddp_free(o);
            return err_set(ERR_NOMEM, "out of memory for the optimizer shard (%zu elements)", o->shard_n);
        }
    }
    return 0;
}

void ddp_free(ddp *o)
{
    if (!o)
        return;
    free(o->gshard);
    free(o->adam_m);
    free(o->adam_v);
    free(o->pad);
    memset(o, 0, sizeof *o);
}

int ddp_reduce_grads(ddp *o, gpt_model *m)
{
    if (o->g->size == 1 && o->zero == 0)
        return 0;
    size_t dp = (size_t)o->g->size;
    for (size_t b = 0; b < o->nb; b++) {
        bucket_t k = bucket_at(o, b);
        float *g = m->grads + k.lo;
        int rc;
        if (o->zero == 0) {
            rc = dist_allreduce_f32(o->d, o->g, g, k.len);
        } else {
            const float *send = g;
            if (k.per * dp != k.len) {
                memcpy(o->pad, g, k.len * sizeof *g);
                memset(o->pad + k.len, 0, (k.per * dp - k.len) * sizeof *g);
                send = o->pad;
            }
            rc = dist_reduce_scatter_f32(o->d, o->g, send, o->gshard + k.soff, k.per);
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
    if (m->tp <= 1 && m->pp <= 1) {
        /* Padding holds zeros, so the whole shard can be summed (in order). */
        for (size_t i = 0; i < o->shard_n; i++)
            s += (double)o->gshard[i] * o->gshard[i];
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

void ddp_scale_grads(ddp *o, gpt_model *m, float s)
{
    if (o->zero == 0) {
        gpt_scale_grads(m, s);
        return;
    }
    for (size_t i = 0; i < o->shard_n; i++)
        o->gshard[i] *= s;
}

int ddp_adamw(ddp *o, gpt_model *m, float lr, float beta1, float beta2, float eps, float wd, int64_t step)
{
    if (o->zero == 0) {
        gpt_adamw(m, lr, beta1, beta2, eps, wd, step);
        return 0;
    }
    size_t dp = (size_t)o->g->size;
    for (size_t b = 0; b < o->nb; b++) {
        bucket_t k = bucket_at(o, b);
        size_t a0, a1;
        owned(o, &k, &a0, &a1);
        if (a1 > a0)
            gpt_adamw_range(m, a0, a1, o->gshard + k.soff, o->adam_m + k.soff, o->adam_v + k.soff, lr, beta1, beta2,
                            eps, wd, step);
        int rc;
        if (k.per * dp == k.len) {
            rc = dist_allgather_f32(o->d, o->g, m->params + a0, m->params + k.lo, k.per);
        } else {
            float *mine = o->pad + (size_t)o->g->rank * k.per;
            memset(mine, 0, k.per * sizeof *mine);
            memcpy(mine, m->params + a0, (a1 - a0) * sizeof *mine);
            rc = dist_allgather_f32(o->d, o->g, mine, o->pad, k.per);
            if (!rc)
                memcpy(m->params + k.lo, o->pad, k.len * sizeof *o->pad);
        }
        if (rc)
            return rc;
    }
    return 0;
}

/* Gather one sharded array into full [n]. */
static int gather_full(ddp *o, const float *shard, float *full)
{
    size_t dp = (size_t)o->g->size;
    for (size_t b = 0; b < o->nb; b++) {
        bucket_t k = bucket_at(o, b);
        float *mine = o->pad + (size_t)o->g->rank * k.per;
        memcpy(mine, shard + k.soff, k.per * sizeof *mine);
        int rc = dist_allgather_f32(o->d, o->g, mine, o->pad, k.per);
        if (rc)
            return rc;
        (void)dp;
        memcpy(full + k.lo, o->pad, k.len * sizeof *full);
    }
    return 0;
}

int ddp_gather_moments(ddp *o, float *full_m, float *full_v)
{
    int rc = gather_full(o, o->adam_m, full_m);
    return rc ? rc : gather_full(o, o->adam_v, full_v);
}

void ddp_scatter_moments(ddp *o, const float *full_m, const float *full_v)
{
    for (size_t b = 0; b < o->nb; b++) {
        bucket_t k = bucket_at(o, b);
        size_t a0, a1;
        owned(o, &k, &a0, &a1);
        memset(o->adam_m + k.soff, 0, k.per * sizeof(float));
        memset(o->adam_v + k.soff, 0, k.per * sizeof(float));
        memcpy(o->adam_m + k.soff, full_m + a0, (a1 - a0) * sizeof(float));
        memcpy(o->adam_v + k.soff, full_v + a0, (a1 - a0) * sizeof(float));
    }
}

void ddp_bytes_per_param(const ddp *o, double *params, double *grads, double *moments)
{
    double n = (double)o->n;
    *params = 4;
    *grads = 4 + (o->zero ? 4.0 * (double)o->shard_n / n : 0);
    *moments = o->zero ? 8.0 * (double)o->shard_n / n : 8;
}

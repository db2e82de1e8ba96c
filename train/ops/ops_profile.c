/* ops_profile.c - the profile of the parallel model: a table that wraps another
 * (train/ops/ops.h) and times each operation. WEBTEXT_PROFILE=1 puts it around the
 * trainer's table (CPU, checked or CUDA alike); at the end of the run each rank's
 * 0 prints the time per operation, its calls and its share. Each timed operation
 * is followed by the table's sync, so on a GPU the times are the device's (and
 * the run is slower: a profile, not a benchmark). Collectives and transfers are
 * outside the table and show as the time between operations ("outside"). */
#define _GNU_SOURCE
#include "train/ops/ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const gpt_ops *in; /* the table profiled */

enum {
    P_ALLOC, P_COPY, P_ZERO, P_UPLOAD, P_DOWNLOAD, P_SYNC, P_ENC, P_ENC_VP, P_ENC_B, P_LN, P_LN_B, P_MM, P_MM_B,
    P_ATT, P_ATT_B, P_GELU, P_GELU_B, P_MMG, P_MMG_B, P_RESLN, P_RESB, P_POS, P_CE, P_CE_MAX, P_CE_SUM, P_CE_FIN, P_CE_B, P_SUM, P_SUMSQ,
    P_SCALE, P_ADD, P_ROUND, P_CONV, P_ADAMW, P_N
};
static const char *const names[P_N] = {
    "alloc/free", "copy", "zero", "upload", "download", "sync", "encoder forward", "encoder forward (vocab-parallel)",
    "encoder backward", "layernorm forward", "layernorm backward", "matmul forward", "matmul backward",
    "attention forward", "attention backward", "gelu forward", "gelu backward", "matmul + gelu forward (fused)",
    "matmul + gelu backward (fused)", "residual + layernorm forward (fused)", "residual + bias", "positions",
    "cross-entropy", "cross-entropy max (vp)", "cross-entropy sum (vp)", "cross-entropy finish (vp)",
    "cross-entropy backward", "sum", "sum of squares", "scale", "add", "round to bf16/fp16", "convert fp32 <-> storage", "adamw"};
static double secs[P_N];
static long calls[P_N];
static double t_first, t_last;
static int warm; /* reset after the first iteration: its set-up left out */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static double t0_(void)
{
    double t = now();
    if (!t_first)
        t_first = t;
    return t;
}
/* Event mode: each operation between two of the table's events; the pairs wait here
 * until a sync has completed them (the model's own syncs, or every PENDING_MAX). */
static int events;
enum { PENDING_MAX = 4096 };
static struct {
    int k, a, b;
} pending[PENDING_MAX];
static int npending;
static void flush_events(void)
{
    for (int i = 0; i < npending; i++)
        secs[pending[i].k] += in->mem.event_seconds(pending[i].a, pending[i].b);
    npending = 0;
    in->mem.events_clear();
    t_last = now(); /* the device has done every operation launched */
}
static void t1_(int k, double t0)
{
    in->mem.sync();
    t_last = now();
    secs[k] += t_last - t0;
    calls[k]++;
}
#define TIMED(k, call)                                                  \
    do {                                                                \
        if (events) {                                                   \
            if (npending == PENDING_MAX) {                              \
                in->mem.sync();                                         \
                flush_events();                                         \
            }                                                           \
            t0_();                                                      \
            int a_ = in->mem.event_record();                            \
            call;                                                       \
            pending[npending++] = (typeof(pending[0])){k, a_, in->mem.event_record()}; \
            calls[k]++;                                                 \
            break;                                                      \
        }                                                               \
        double t0 = t0_();                                              \
        call;                                                           \
        t1_(k, t0);                                                     \
    } while (0)

static void *pr_alloc(size_t b)
{
    void *p;
    TIMED(P_ALLOC, p = in->mem.alloc(b));
    return p;
}
static void pr_free(void *p) { TIMED(P_ALLOC, in->mem.free(p)); }
static void pr_copy(void *d, const void *s, size_t b) { TIMED(P_COPY, in->mem.copy(d, s, b)); }
static void pr_zero(void *d, size_t b) { TIMED(P_ZERO, in->mem.zero(d, b)); }
static void pr_upload(void *d, const void *h, size_t b) { TIMED(P_UPLOAD, in->mem.upload(d, h, b)); }
static void pr_download(void *h, const void *s, size_t b) { TIMED(P_DOWNLOAD, in->mem.download(h, s, b)); }
static void pr_sync(void)
{
    if (events) { /* the wait is the device's work, timed by its events */
        in->mem.sync();
        flush_events();
        calls[P_SYNC]++;
        return;
    }
    TIMED(P_SYNC, (void)0);
}
static void *pr_host_alloc(size_t b) { return in->mem.host_alloc(b); }
static void pr_host_free(void *p) { in->mem.host_free(p); }
static void pr_device_uuid(unsigned char u[16]) { in->mem.device_uuid(u); }
static void pr_enc(floatX *o, const int32_t *i, const floatX *wte, const floatX *wpe, int B, int T, int C)
{
    TIMED(P_ENC, in->encoder_forward(o, i, wte, wpe, B, T, C));
}
static void pr_enc_vp(floatX *o, const int32_t *i, const floatX *wte, size_t v0, size_t Vl, int BT, int C)
{
    TIMED(P_ENC_VP, in->encoder_forward_vp(o, i, wte, v0, Vl, BT, C));
}
static void pr_enc_b(float *dwte, float *dwpe, const floatX *dout, const int32_t *i, int B, int T, int C, size_t v0,
                     size_t Vl)
{
    TIMED(P_ENC_B, in->encoder_backward(dwte, dwpe, dout, i, B, T, C, v0, Vl));
}
static void pr_ln(floatX *o, float *mean, float *rstd, const floatX *x, const floatX *w, const floatX *b, int N,
                  int C)
{
    TIMED(P_LN, in->layernorm_forward(o, mean, rstd, x, w, b, N, C));
}
static void pr_ln_b(floatX *dx, float *dw, float *db, const floatX *dout, const floatX *x, const floatX *w,
                    const float *mean, const float *rstd, int N, int C, float *part)
{
    TIMED(P_LN_B, in->layernorm_backward(dx, dw, db, dout, x, w, mean, rstd, N, C, part));
}
static size_t pr_ln_part(int C) { return in->layernorm_part_floats(C); }
static void pr_mm(floatX *o, const floatX *x, const floatX *w, const floatX *b, int N, int C, int OC, int acc)
{
    TIMED(P_MM, in->matmul_forward(o, x, w, b, N, C, OC, acc));
}
static void pr_mm_b(floatX *dx, float *dw, float *db, const floatX *dout, const floatX *x, const floatX *w, int N, int C,
                    int OC, int acc)
{
    TIMED(P_MM_B, in->matmul_backward(dx, dw, db, dout, x, w, N, C, OC, acc));
}
static void pr_att(floatX *o, float *att, const floatX *qkv, int B, int T, int C, int NH)
{
    TIMED(P_ATT, in->attention_forward(o, att, qkv, B, T, C, NH));
}
static void pr_att_b(floatX *dqkv, float *sc, const floatX *dout, const floatX *qkv, const float *att, const floatX *o,
                     int B, int T, int C, int NH)
{
    TIMED(P_ATT_B, in->attention_backward(dqkv, sc, dout, qkv, att, o, B, T, C, NH));
}
static size_t pr_att_sc(int T) { return in->attention_scratch_floats(T); }
static size_t pr_att_st(int T) { return in->attention_state_floats(T); }
static void pr_gelu(floatX *o, const floatX *x, size_t n) { TIMED(P_GELU, in->gelu_forward(o, x, n)); }
static void pr_gelu_b(floatX *dx, const floatX *x, const floatX *dout, size_t n)
{
    TIMED(P_GELU_B, in->gelu_backward(dx, x, dout, n));
}
static void pr_mmg(floatX *o, floatX *pre, const floatX *x, const floatX *w, const floatX *b, int N, int C, int OC)
{
    TIMED(P_MMG, in->matmul_gelu_forward(o, pre, x, w, b, N, C, OC));
}
static void pr_mmg_b(floatX *dx, float *dw, float *db, const floatX *dout, const floatX *x, const floatX *w,
                     const floatX *pre, int N, int C, int OC)
{
    TIMED(P_MMG_B, in->matmul_dgelu_backward(dx, dw, db, dout, x, w, pre, N, C, OC));
}
static void pr_resln(floatX *ro, floatX *o, float *mean, float *rstd, const floatX *r, const floatX *t,
                     const floatX *tb, const floatX *w, const floatX *b, int N, int C)
{
    TIMED(P_RESLN, in->residual_layernorm_forward(ro, o, mean, rstd, r, t, tb, w, b, N, C));
}
static void pr_resb(floatX *o, const floatX *r, const floatX *t, const floatX *b, int rows, int OC)
{
    TIMED(P_RESB, in->residual_bias(o, r, t, b, rows, OC));
}
static void pr_pos(floatX *x, const floatX *wpe, size_t r0, size_t R, int T, int C)
{
    TIMED(P_POS, in->add_positions(x, wpe, r0, R, T, C));
}
static void pr_ce(float *lse, float *loss, const floatX *lg, const int32_t *tg, size_t BT, int nv, size_t Vs)
{
    TIMED(P_CE, in->crossentropy_forward(lse, loss, lg, tg, BT, nv, Vs));
}
static void pr_ce_max(float *mx, const floatX *lg, size_t BT, int nv, size_t Vs)
{
    TIMED(P_CE_MAX, in->crossentropy_vp_max(mx, lg, BT, nv, Vs));
}
static void pr_ce_sum(float *sum, float *tl, const floatX *lg, const float *mx, const int32_t *tg, size_t BT, int nv,
                      size_t Vs, size_t v0)
{
    TIMED(P_CE_SUM, in->crossentropy_vp_sum(sum, tl, lg, mx, tg, BT, nv, Vs, v0));
}
static void pr_ce_fin(float *lse, float *loss, const float *mx, const float *sum, const float *tl, size_t BT)
{
    TIMED(P_CE_FIN, in->crossentropy_vp_finish(lse, loss, mx, sum, tl, BT));
}
static void pr_ce_b(floatX *lg, const float *lse, const int32_t *tg, size_t BT, int nv, size_t Vs, size_t v0, float dl)
{
    TIMED(P_CE_B, in->crossentropy_backward(lg, lse, tg, BT, nv, Vs, v0, dl));
}
static void pr_sum(double *o, const float *x, size_t n) { TIMED(P_SUM, in->sum_f64(o, x, n)); }
static void pr_sumsq(double *o, const float *x, size_t n, size_t blk) { TIMED(P_SUMSQ, in->sumsq_f64(o, x, n, blk)); }
static void pr_scale(float *x, float s, size_t n) { TIMED(P_SCALE, in->scale(x, s, n)); }
static void pr_add(float *y, const float *x, size_t n) { TIMED(P_ADD, in->add(y, x, n)); }
static void pr_round(float *x, size_t n, int prec) { TIMED(P_ROUND, in->round_prec(x, n, prec)); }
static void pr_to(floatX *d, const float *s, size_t n) { TIMED(P_CONV, in->to_prec(d, s, n)); }
static void pr_from(float *d, const floatX *s, size_t n) { TIMED(P_CONV, in->from_prec(d, s, n)); }
static void pr_adamw(float *p, floatX *pl, const float *g, float *m, float *v, size_t n, float gs, float lr, float b1,
                     float b2, float eps, float decay, float bc1, float bc2)
{
    TIMED(P_ADAMW, in->adamw(p, pl, g, m, v, n, gs, lr, b1, b2, eps, decay, bc1, bc2));
}

static gpt_ops prof;

const gpt_ops *gpt_ops_profiled(const gpt_ops *inner)
{
    in = inner;
    prof = (gpt_ops){
        .name = inner->name, .device = inner->device, .nccl = inner->nccl, .mem = {.alloc = pr_alloc,
                 .free = pr_free,
                 .copy = pr_copy,
                 .zero = pr_zero,
                 .upload = pr_upload,
                 .download = pr_download,
                 .sync = pr_sync,
                 .host_alloc = pr_host_alloc,
                 .host_free = pr_host_free,
                 .device_uuid = pr_device_uuid},
        .encoder_forward = pr_enc, .encoder_forward_vp = pr_enc_vp,
        .encoder_backward = pr_enc_b, .layernorm_forward = pr_ln, .layernorm_backward = pr_ln_b,
        .layernorm_part_floats = pr_ln_part, .matmul_forward = pr_mm, .matmul_backward = pr_mm_b,
        .attention_forward = pr_att, .attention_backward = pr_att_b, .attention_scratch_floats = pr_att_sc,
        .attention_state_floats = pr_att_st,
        .gelu_forward = pr_gelu, .gelu_backward = pr_gelu_b, .matmul_gelu_forward = pr_mmg,
        .matmul_dgelu_backward = pr_mmg_b, .residual_layernorm_forward = pr_resln, .residual_bias = pr_resb, .add_positions = pr_pos,
        .crossentropy_forward = pr_ce, .crossentropy_vp_max = pr_ce_max, .crossentropy_vp_sum = pr_ce_sum,
        .crossentropy_vp_finish = pr_ce_fin, .crossentropy_backward = pr_ce_b, .sum_f64 = pr_sum,
        .sumsq_f64 = pr_sumsq, .scale = pr_scale, .add = pr_add, .round_prec = pr_round, .adamw = pr_adamw,
        .storage_prec = inner->storage_prec, .to_prec = pr_to, .from_prec = pr_from};
    return &prof;
}

const gpt_ops *gpt_ops_profiled_events(const gpt_ops *inner)
{
    const gpt_ops *t = gpt_ops_profiled(inner);
    events = inner->mem.event_record && inner->mem.event_seconds && inner->mem.events_clear;
    return t;
}

void gpt_ops_profile_reset(void)
{
    if (events) {
        in->mem.sync();
        npending = 0;
        in->mem.events_clear();
    }
    memset(secs, 0, sizeof secs);
    memset(calls, 0, sizeof calls);
    t_first = t_last = now();
    warm = 1;
}

void gpt_ops_profile_totals(double *ops_secs, double *span)
{
    if (events && npending) {
        in->mem.sync();
        flush_events();
    }
    double t = 0;
    for (int k = 0; k < P_N; k++)
        if (k != P_SYNC)
            t += secs[k];
    *ops_secs = t;
    *span = t_last - t_first;
}

void gpt_ops_profile_report(FILE *f)
{
    if (events && npending) {
        in->mem.sync();
        flush_events();
    }
    double total = 0, span = t_last - t_first;
    int order[P_N];
    for (int k = 0; k < P_N; k++) {
        total += secs[k];
        order[k] = k;
    }
    for (int i = 1; i < P_N; i++) /* by time, descending */
        for (int j = i; j > 0 && secs[order[j]] > secs[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    fprintf(f, "> profile (WEBTEXT_PROFILE=%s, %s table): %.3f s in operations of a %.3f s span%s\n",
            events ? "events: device time, no syncs" : "1", in ? in->name : "no", total, span, warm ? " (iterations 2 on: the first, with its set-up, left out)" : "");
    for (int i = 0; i < P_N; i++) {
        int k = order[i];
        if (!calls[k])
            continue;
        fprintf(f, ">   %-34s %10.3f ms %8ld calls %6.1f %%\n", names[k], secs[k] * 1e3, calls[k],
                span > 0 ? 100.0 * secs[k] / span : 0.0);
    }
    if (span > total)
        fprintf(f, ">   %-34s %10.3f ms %8s       %6.1f %%\n", "outside (communication, data, host)",
                (span - total) * 1e3, "", 100.0 * (span - total) / span);
}

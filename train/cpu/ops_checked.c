/* ops_checked.c - the device-discipline test table (train/ops/ops.h): the CPU
 * reference kernels behind a device interface that behaves like a GPU's where
 * the parallel model could get it wrong, so that mistakes show without a GPU.
 *
 *   Tagged pointers. A "device" buffer is host memory whose address carries a
 *   tag in bits 48-62, which makes it non-canonical on x86-64 (and outside any
 *   mapping elsewhere): a host load or store through it faults at once, as a
 *   host dereference of CUDA device memory would. Every operation strips the
 *   tag of its buffer arguments, and refuses (aborts, naming the operation) a
 *   pointer without it: host memory passed where device memory belongs.
 *   Live allocations are kept in a registry (untagged), so LeakSanitizer still
 *   sees them as reachable.
 *   Deferred downloads. download() takes a snapshot of the source at once (the
 *   copy is ordered after the kernels before it) but writes the host
 *   destination only at sync(); until then the destination holds a poison
 *   pattern (all bits set: NaN as float, -1 as an integer). A host read between
 *   download and sync gets the poison, which makes losses NaN and the layout
 *   tests fail; a host write there is caught at sync and counted as a violation.
 *   A fault prints what happened before the process dies.
 *   The device's UUID is the same in every process, so ranks "share one GPU"
 *   and the communicators choose the staged implementation: the checked runs
 *   test it too.
 */
#define _GNU_SOURCE
#include "train/ops/ops.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "train/cpu/kernels.h"

#define TAG ((uintptr_t)0x5a5a << 48)
#define TAG_MASK ((uintptr_t)0x7fff << 48)

static long violations;
static unsigned long syncs; /* ck_sync calls so far (the timing events' completion) */
long gpt_ops_checked_violations(void) { return violations; }

/* ---- the registry of live allocations (also keeps LSan's reachability) ---- */
static void **live;
static size_t nlive, caplive;

static void on_fault(int sig)
{
    static const char msg[] = "train: device-discipline check: the host dereferenced device memory (a tagged "
                              "pointer of --device checked); see train/cpu/ops_checked.c\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handler(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

static void die(const char *op, const void *p)
{
    fprintf(stderr, "train: device-discipline check: %s was given %p, which is not device memory\n", op, p);
    abort();
}

/* The host address of a device pointer (NULL stays NULL). */
static void *U(const char *op, const void *p)
{
    if (!p)
        return NULL;
    uintptr_t v = (uintptr_t)p;
    if ((v & TAG_MASK) != TAG)
        die(op, p);
    return (void *)(v & ~TAG_MASK);
}

static void *T(void *host) { return host ? (void *)((uintptr_t)host | TAG) : NULL; }

static void *ck_alloc(size_t bytes)
{
    install_handler();
    if (nlive == caplive) {
        size_t nc = caplive ? 2 * caplive : 256;
        void **nl = realloc(live, nc * sizeof *nl);
        if (!nl)
            return NULL;
        live = nl;
        caplive = nc;
    }
    void *h = calloc(1, bytes ? bytes : 1);
    if (!h)
        return NULL;
    live[nlive++] = h;
    return T(h);
}

static void ck_free(void *p)
{
    void *h = U("free", p);
    if (!h)
        return;
    for (size_t i = 0; i < nlive; i++)
        if (live[i] == h) {
            live[i] = live[--nlive];
            free(h);
            if (!nlive) {
                free(live);
                live = NULL;
                caplive = 0;
            }
            return;
        }
    die("free (not allocated here, or freed twice)", p);
}

static void ck_copy(void *dst, const void *src, size_t bytes)
{
    if (bytes)
        memmove(U("copy", dst), U("copy", src), bytes);
}

static void ck_zero(void *dst, size_t bytes)
{
    if (bytes)
        memset(U("zero", dst), 0, bytes);
}

static void ck_upload(void *dst, const void *host, size_t bytes)
{
    if ((uintptr_t)host & TAG_MASK)
        die("upload (as its host source)", host);
    if (bytes)
        memcpy(U("upload", dst), host, bytes);
}

/* Downloads waiting for sync: the snapshot and where it goes. */
typedef struct {
    void *host, *snap;
    size_t bytes;
} pending;
static pending *pend;
static size_t npend, cappend;

static void ck_download(void *host, const void *src, size_t bytes)
{
    if ((uintptr_t)host & TAG_MASK)
        die("download (as its host destination)", host);
    if (!bytes)
        return;
    void *snap = malloc(bytes);
    if (npend == cappend) {
        size_t nc = cappend ? 2 * cappend : 64;
        pending *np = realloc(pend, nc * sizeof *np);
        if (!np || !snap) {
            fprintf(stderr, "train: device-discipline check: out of memory\n");
            abort();
        }
        pend = np;
        cappend = nc;
    }
    if (!snap) {
        fprintf(stderr, "train: device-discipline check: out of memory\n");
        abort();
    }
    memcpy(snap, U("download", src), bytes);
    memset(host, 0xff, bytes); /* the poison the host reads if it does not sync */
    pend[npend++] = (pending){host, snap, bytes};
}

static void ck_sync(void)
{
    syncs++;
    for (size_t i = 0; i < npend; i++) {
        const unsigned char *h = pend[i].host;
        for (size_t j = 0; j < pend[i].bytes; j++)
            if (h[j] != 0xff) { /* the host wrote there before the copy completed */
                violations++;
                fprintf(stderr, "train: device-discipline check: host memory %p was written between a download "
                                "into it and the sync\n", pend[i].host);
                break;
            }
        memcpy(pend[i].host, pend[i].snap, pend[i].bytes);
        free(pend[i].snap);
    }
    npend = 0;
    free(pend);
    pend = NULL;
    cappend = 0;
}

/* Timing events (the profile's event mode): the host clock at the record; reading one
 * before a sync has completed it is a violation, as a GPU's not-ready event would be. */
static struct {
    double t;
    unsigned long gen;
} *evs;
static size_t nevs, capevs;
static int ck_event_record(void)
{
    if (nevs == capevs) {
        capevs = capevs ? 2 * capevs : 256;
        if (!(evs = realloc(evs, capevs * sizeof *evs))) {
            fprintf(stderr, "train: device-discipline check: out of memory\n");
            abort();
        }
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    evs[nevs].t = ts.tv_sec + ts.tv_nsec * 1e-9;
    evs[nevs].gen = syncs;
    return (int)nevs++;
}
static double ck_event_seconds(int a, int b)
{
    if ((size_t)a >= nevs || (size_t)b >= nevs || evs[a].gen >= syncs || evs[b].gen >= syncs) {
        violations++;
        fprintf(stderr, "train: device-discipline check: timing events %d, %d read before a sync completed them\n", a, b);
        return 0;
    }
    return evs[b].t - evs[a].t;
}
static void ck_events_clear(void) { nevs = 0; }

static void *ck_host_alloc(size_t bytes) { return malloc(bytes ? bytes : 1); }
static void ck_host_free(void *p) { free(p); }
static void ck_device_uuid(unsigned char uuid[16]) { memcpy(uuid, "webtext-checked", 16); }

/* ---- the kernels: the CPU table's, on untagged pointers ---- */
#define C gpt_ops_cpu
#define F(p) ((float *)U(__func__, (p)))
#define CF(p) ((const float *)U(__func__, (p)))
#define CI(p) ((const int32_t *)U(__func__, (p)))

#define X(p) ((floatX *)U(__func__, (p)))
#define CX(p) ((const floatX *)U(__func__, (p)))

static void ck_storage_prec(int prec) { C.storage_prec(prec); }
static void ck_to_prec(floatX *dst, const float *src, size_t n) { C.to_prec(X(dst), CF(src), n); }
static void ck_from_prec(float *dst, const floatX *src, size_t n) { C.from_prec(F(dst), CX(src), n); }
static void ck_encoder_forward(floatX *out, const int32_t *inp, const floatX *wte, const floatX *wpe, int B, int T_,
                               int Ch)
{
    C.encoder_forward(X(out), CI(inp), CX(wte), CX(wpe), B, T_, Ch);
}
static void ck_encoder_forward_vp(floatX *out, const int32_t *inp, const floatX *wte, size_t v0, size_t Vl, int BT,
                                  int Ch)
{
    C.encoder_forward_vp(X(out), CI(inp), CX(wte), v0, Vl, BT, Ch);
}
static void ck_encoder_backward(float *dwte, float *dwpe, const floatX *dout, const int32_t *inp, int B, int T_,
                                int Ch, size_t v0, size_t Vl)
{
    C.encoder_backward(F(dwte), F(dwpe), CX(dout), CI(inp), B, T_, Ch, v0, Vl);
}
static void ck_layernorm_forward(floatX *out, float *mean, float *rstd, const floatX *inp, const floatX *w,
                                 const floatX *b, int N, int Ch)
{
    C.layernorm_forward(X(out), F(mean), F(rstd), CX(inp), CX(w), CX(b), N, Ch);
}
static void ck_layernorm_backward(floatX *dinp, float *dw, float *db, const floatX *dout, const floatX *inp,
                                  const floatX *w, const float *mean, const float *rstd, int N, int Ch, float *part)
{
    C.layernorm_backward(X(dinp), F(dw), F(db), CX(dout), CX(inp), CX(w), CF(mean), CF(rstd), N, Ch, F(part));
}
static void ck_matmul_forward(floatX *out, const floatX *inp, const floatX *w, const floatX *bias, int N, int Ch,
                              int OC, int acc)
{
    C.matmul_forward(X(out), CX(inp), CX(w), CX(bias), N, Ch, OC, acc);
}
static void ck_matmul_backward(floatX *dinp, float *dw, float *dbias, const floatX *dout, const floatX *inp,
                               const floatX *w, int N, int Ch, int OC, int acc)
{
    C.matmul_backward(X(dinp), F(dw), F(dbias), CX(dout), CX(inp), CX(w), N, Ch, OC, acc);
}
static void ck_attention_forward(floatX *out, float *att, const floatX *qkv, int B, int T_, int Ch, int NH)
{
    C.attention_forward(X(out), F(att), CX(qkv), B, T_, Ch, NH);
}
static void ck_attention_backward(floatX *dqkv, float *scratch, const floatX *dout, const floatX *qkv,
                                  const float *att, const floatX *out, int B, int T_, int Ch, int NH)
{
    C.attention_backward(X(dqkv), F(scratch), CX(dout), CX(qkv), CF(att), CX(out), B, T_, Ch, NH);
}
static void ck_gelu_forward(floatX *out, const floatX *inp, size_t n) { C.gelu_forward(X(out), CX(inp), n); }
static void ck_gelu_backward(floatX *dinp, const floatX *inp, const floatX *dout, size_t n)
{
    C.gelu_backward(X(dinp), CX(inp), CX(dout), n);
}
static void ck_matmul_gelu_forward(floatX *out, floatX *pre, const floatX *inp, const floatX *w, const floatX *bias,
                                   int N, int Ch, int OC)
{
    C.matmul_gelu_forward(X(out), X(pre), CX(inp), CX(w), CX(bias), N, Ch, OC);
}
static void ck_matmul_dgelu_backward(floatX *dinp, float *dw, float *dbias, const floatX *dout, const floatX *inp,
                                     const floatX *w, const floatX *pre, int N, int Ch, int OC)
{
    C.matmul_dgelu_backward(X(dinp), F(dw), F(dbias), CX(dout), CX(inp), CX(w), CX(pre), N, Ch, OC);
}
static void ck_residual_layernorm_forward(floatX *res_out, floatX *out, float *mean, float *rstd, const floatX *res,
                                          const floatX *t, const floatX *tbias, const floatX *w, const floatX *b,
                                          int N, int Ch)
{
    C.residual_layernorm_forward(X(res_out), X(out), F(mean), F(rstd), CX(res), CX(t), CX(tbias), CX(w), CX(b), N, Ch);
}
static void ck_residual_bias(floatX *out, const floatX *res, const floatX *t, const floatX *bias, int rows, int OC)
{
    C.residual_bias(X(out), CX(res), CX(t), CX(bias), rows, OC);
}
static void ck_add_positions(floatX *x, const floatX *wpe, size_t r0, size_t R, int T_, int Ch)
{
    C.add_positions(X(x), CX(wpe), r0, R, T_, Ch);
}
static void ck_crossentropy_forward(float *lse, float *loss, const floatX *logits, const int32_t *targets, size_t BT,
                                    int nv, size_t Vs)
{
    C.crossentropy_forward(F(lse), F(loss), CX(logits), CI(targets), BT, nv, Vs);
}
static void ck_crossentropy_vp_max(float *max, const floatX *logits, size_t BT, int nv, size_t Vs)
{
    C.crossentropy_vp_max(F(max), CX(logits), BT, nv, Vs);
}
static void ck_crossentropy_vp_sum(float *sum, float *tl, const floatX *logits, const float *max,
                                   const int32_t *targets, size_t BT, int nv, size_t Vs, size_t v0)
{
    C.crossentropy_vp_sum(F(sum), F(tl), CX(logits), CF(max), CI(targets), BT, nv, Vs, v0);
}
static void ck_crossentropy_vp_finish(float *lse, float *loss, const float *max, const float *sum, const float *tl,
                                      size_t BT)
{
    C.crossentropy_vp_finish(F(lse), F(loss), CF(max), CF(sum), CF(tl), BT);
}
static void ck_crossentropy_backward(floatX *logits, const float *lse, const int32_t *targets, size_t BT, int nv,
                                     size_t Vs, size_t v0, float dl)
{
    C.crossentropy_backward(X(logits), CF(lse), CI(targets), BT, nv, Vs, v0, dl);
}
static void ck_sum_f64(double *out, const float *x, size_t n) { C.sum_f64((double *)U(__func__, out), CF(x), n); }
static void ck_sumsq_f64(double *out, const float *x, size_t n, size_t blk)
{
    C.sumsq_f64((double *)U(__func__, out), CF(x), n, blk);
}
static void ck_scale(float *x, float s, size_t n) { C.scale(F(x), s, n); }
static void ck_add(float *y, const float *x, size_t n) { C.add(F(y), CF(x), n); }
static void ck_round_prec(float *x, size_t n, int prec) { C.round_prec(F(x), n, prec); }
static void ck_adamw(float *p, floatX *plow, const float *g, float *m, float *v, size_t n, float gscale, float lr,
                     float beta1, float beta2, float eps, float decay, float bc1, float bc2)
{
    C.adamw(F(p), X(plow), CF(g), F(m), F(v), n, gscale, lr, beta1, beta2, eps, decay, bc1, bc2);
}
static size_t ck_layernorm_part_floats(int Ch) { return C.layernorm_part_floats(Ch); }
static size_t ck_attention_scratch_floats(int T_) { return C.attention_scratch_floats(T_); }
static size_t ck_attention_state_floats(int T_) { return C.attention_state_floats(T_); }

const gpt_ops gpt_ops_checked = {
    .name = "checked",
    .device = 1,
    .nccl = 0,
    .mem =
        {
            .alloc = ck_alloc,
            .free = ck_free,
            .copy = ck_copy,
            .zero = ck_zero,
            .upload = ck_upload,
            .download = ck_download,
            .sync = ck_sync,
            .host_alloc = ck_host_alloc,
            .host_free = ck_host_free,
            .device_uuid = ck_device_uuid,
            .event_record = ck_event_record,
            .event_seconds = ck_event_seconds,
            .events_clear = ck_events_clear,
        },
    .storage_prec = ck_storage_prec,
    .to_prec = ck_to_prec,
    .from_prec = ck_from_prec,
    .encoder_forward = ck_encoder_forward,
    .encoder_forward_vp = ck_encoder_forward_vp,
    .encoder_backward = ck_encoder_backward,
    .layernorm_forward = ck_layernorm_forward,
    .layernorm_backward = ck_layernorm_backward,
    .layernorm_part_floats = ck_layernorm_part_floats,
    .matmul_forward = ck_matmul_forward,
    .matmul_backward = ck_matmul_backward,
    .attention_forward = ck_attention_forward,
    .attention_backward = ck_attention_backward,
    .attention_scratch_floats = ck_attention_scratch_floats,
    .attention_state_floats = ck_attention_state_floats,
    .gelu_forward = ck_gelu_forward,
    .gelu_backward = ck_gelu_backward,
    .matmul_gelu_forward = ck_matmul_gelu_forward,
    .matmul_dgelu_backward = ck_matmul_dgelu_backward,
    .residual_layernorm_forward = ck_residual_layernorm_forward,
    .residual_bias = ck_residual_bias,
    .add_positions = ck_add_positions,
    .crossentropy_forward = ck_crossentropy_forward,
    .crossentropy_vp_max = ck_crossentropy_vp_max,
    .crossentropy_vp_sum = ck_crossentropy_vp_sum,
    .crossentropy_vp_finish = ck_crossentropy_vp_finish,
    .crossentropy_backward = ck_crossentropy_backward,
    .sum_f64 = ck_sum_f64,
    .sumsq_f64 = ck_sumsq_f64,
    .scale = ck_scale,
    .add = ck_add,
    .round_prec = ck_round_prec,
    .adamw = ck_adamw,
};

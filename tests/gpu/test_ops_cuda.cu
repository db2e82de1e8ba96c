/* test_ops_cuda.cu - the CUDA operation table (train/cuda/ops_cuda.cu) against
 * the CPU table (train/cpu/ops.c), operation by operation on random inputs
 * (relative error ||cuda - cpu|| / ||cpu||; outputs poisoned with NaN first, so
 * an element not written fails), then one step of the parallel model (gpt.c:
 * loss, gradient norm, parameters after AdamW) on each table. The layouts under
 * mpirun are scripts/gpu/gpu_suite.sh's. Without a GPU it prints a SKIP line. */
extern "C" {
#include "common/err.h"
#include "train/model/gpt.h"
#include "train/ops/ops.h"
}
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <vector>

typedef std::vector<float> vec;
static int failures, checks;
static const gpt_ops *H = &gpt_ops_cpu, *D = &gpt_ops_cuda;

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((rng >> 11) + 0.5) / 9007199254740992.0;
}
static vec randn(size_t n, float sd = 1.0f)
{
    vec v(n);
    for (size_t i = 0; i < n; i++)
        v[i] = sd * (float)(sqrt(-2 * log(urand())) * cos(6.283185307179586 * urand()));
    return v;
}

/* A buffer on both tables: host values h and their device copy d. */
struct twin {
    vec h;
    float *d;
    explicit twin(const vec &v) : h(v), d((float *)D->mem.alloc(v.size() * 4 + 4)) { D->mem.upload(d, v.data(), v.size() * 4); }
    explicit twin(size_t n) : twin(vec(n, NAN)) {}
    ~twin() { D->mem.free(d); }
    vec back() const
    {
        vec r(h.size());
        D->mem.download(r.data(), d, r.size() * 4);
        D->mem.sync();
        return r;
    }
};
struct itwin {
    std::vector<int32_t> h;
    int32_t *d;
    explicit itwin(const std::vector<int32_t> &v) : h(v), d((int32_t *)D->mem.alloc(v.size() * 4 + 4))
    {
        D->mem.upload(d, v.data(), v.size() * 4);
    }
    ~itwin() { D->mem.free(d); }
};

/* An fp32 buffer as an argument of either type: the tables' floatX is fp32 until told
 * otherwise (test_ops), so the same bytes serve float and floatX parameters. */
struct anyp {
    float *p;
    operator float *() const { return p; }
    operator floatX *() const { return (floatX *)p; }
};
static inline anyp X(float *p) { return anyp{p}; }
static inline anyp X(const float *p) { return anyp{(float *)p}; }
static inline int32_t *X(int32_t *p) { return p; }

static void check(const char *what, const twin &t, double tol)
{
    vec g = t.back();
    double num = 0, den = 0;
    int bad = 0;
    for (size_t i = 0; i < g.size(); i++) {
        if (!isfinite(g[i]) && isfinite(t.h[i]))
            bad = 1;
        num += (double)(g[i] - t.h[i]) * (g[i] - t.h[i]);
        den += (double)t.h[i] * t.h[i];
    }
    double rel = den > 0 ? sqrt(num / den) : sqrt(num);
    checks++;
    if (bad || !(rel <= tol)) {
        failures++;
        printf("FAIL ops_cuda %s: relative error %.3g (tolerance %.1g)%s\n", what, rel, tol, bad ? ", unwritten elements" : "");
    } else {
        printf("PASS ops_cuda %s (%.2g)\n", what, rel);
    }
}

static void test_ops(void)
{
    const int B = 2, T = 16, C = 64, NH = 4, V = 200, Vp = 256, BT = B * T;
    std::vector<int32_t> tok(BT);
    for (int i = 0; i < BT; i++)
        tok[i] = (int32_t)(urand() * V);
    itwin in(tok);
    twin wte(randn((size_t)Vp * C, 0.1f)), wpe(randn((size_t)T * C, 0.1f));
    {
        twin out((size_t)BT * C);
        H->encoder_forward(X(out.h.data()), X(in.h.data()), X(wte.h.data()), X(wpe.h.data()), B, T, C);
        D->encoder_forward(X(out.d), X(in.d), X(wte.d), X(wpe.d), B, T, C);
        check("encoder_forward", out, 1e-6);
        twin vp((size_t)BT * C);
        H->encoder_forward_vp(X(vp.h.data()), X(in.h.data()), X(wte.h.data() + 64 * C), 64, 100, BT, C);
        D->encoder_forward_vp(X(vp.d), X(in.d), X(wte.d + 64 * C), 64, 100, BT, C);
        check("encoder_forward_vp", vp, 1e-6);
        twin dout(randn((size_t)BT * C)), dwte(vec((size_t)100 * C, 0.5f)), dwpe(vec((size_t)T * C, 0.25f));
        H->encoder_backward(X(dwte.h.data()), X(dwpe.h.data()), X(dout.h.data()), X(in.h.data()), B, T, C, 64, 100);
        D->encoder_backward(X(dwte.d), X(dwpe.d), X(dout.d), X(in.d), B, T, C, 64, 100);
        check("encoder_backward dwte (rows 64..163)", dwte, 1e-5);
        check("encoder_backward dwpe", dwpe, 1e-5);
        /* deterministic (positions grouped by token, no atomics): the same bits twice, with
         * three tokens repeated over every position */
        std::vector<int32_t> rep(BT);
        for (int i = 0; i < BT; i++)
            rep[i] = 64 + i % 3;
        itwin rin(rep);
        D->encoder_forward_vp(X(vp.d), X(rin.d), X(wte.d + 64 * C), 64, 100, BT, C);
        twin d1(vec((size_t)100 * C, 0.0f)), d2(vec((size_t)100 * C, 0.0f));
        D->encoder_backward(X(d1.d), X((float *)NULL), X(dout.d), X(rin.d), B, T, C, 64, 100);
        D->encoder_backward(X(d2.d), X((float *)NULL), X(dout.d), X(rin.d), B, T, C, 64, 100);
        vec r1 = d1.back(), r2 = d2.back();
        checks++;
        if (memcmp(r1.data(), r2.data(), r1.size() * 4) || r1[0] == 0.0f) {
            failures++;
            printf("FAIL ops_cuda encoder_backward deterministic: two runs differ (or wrote nothing)\n");
        } else {
            printf("PASS ops_cuda encoder_backward deterministic (the same bits twice)\n");
        }
    }
    {
        twin x(randn((size_t)BT * C)), w(randn(C, 0.2f)), b(randn(C, 0.2f)), out((size_t)BT * C), mean(BT), rstd(BT);
        H->layernorm_forward(X(out.h.data()), X(mean.h.data()), X(rstd.h.data()), X(x.h.data()), X(w.h.data()), X(b.h.data()), BT, C);
        D->layernorm_forward(X(out.d), X(mean.d), X(rstd.d), X(x.d), X(w.d), X(b.d), BT, C);
        check("layernorm_forward", out, 1e-5);
        check("layernorm_forward rstd", rstd, 1e-5);
        twin dout(randn((size_t)BT * C)), dx(vec((size_t)BT * C, 0.5f)), dw(vec(C, 0.1f)), db(vec(C, 0.2f));
        vec hp(H->layernorm_part_floats(C));
        float *dp = (float *)D->mem.alloc(D->layernorm_part_floats(C) * 4);
        H->layernorm_backward(X(dx.h.data()), X(dw.h.data()), X(db.h.data()), X(dout.h.data()), X(x.h.data()), X(w.h.data()),
                              mean.h.data(), rstd.h.data(), BT, C, hp.data());
        D->layernorm_backward(X(dx.d), X(dw.d), X(db.d), X(dout.d), X(x.d), X(w.d), X(mean.d), X(rstd.d), BT, C, X(dp));
        check("layernorm_backward dinp (+=)", dx, 1e-5);
        check("layernorm_backward dw (+=)", dw, 1e-5);
        check("layernorm_backward db (+=)", db, 1e-5);
        D->mem.free(dp);
    }
    for (int acc = 0; acc < 2; acc++) {
        const int OC = 96;
        twin x(randn((size_t)BT * C)), w(randn((size_t)OC * C, 0.1f)), b(randn(OC, 0.1f));
        twin out(acc ? randn((size_t)BT * OC) : vec((size_t)BT * OC, NAN));
        H->matmul_forward(X(out.h.data()), X(x.h.data()), X(w.h.data()), X(b.h.data()), BT, C, OC, acc);
        D->matmul_forward(X(out.d), X(x.d), X(w.d), X(b.d), BT, C, OC, acc);
        check(acc ? "matmul_forward (accumulate)" : "matmul_forward", out, 1e-5);
        twin dout(randn((size_t)BT * OC)), dw(vec((size_t)OC * C, 0.5f)), db(vec(OC, 0.5f));
        twin dx(acc ? randn((size_t)BT * C) : vec((size_t)BT * C, NAN));
        H->matmul_backward(X(dx.h.data()), X(dw.h.data()), X(db.h.data()), X(dout.h.data()), X(x.h.data()), X(w.h.data()), BT, C, OC, acc);
        D->matmul_backward(X(dx.d), X(dw.d), X(db.d), X(dout.d), X(x.d), X(w.d), BT, C, OC, acc);
        check(acc ? "matmul_backward dinp (accumulate)" : "matmul_backward dinp", dx, 1e-5);
        check("matmul_backward dw (+=)", dw, 1e-5);
        check("matmul_backward dbias (+=)", db, 1e-5);
    }
    { /* the fused entries against the CPU's sequences */
        const int OC = 96;
        twin x(randn((size_t)BT * C)), w(randn((size_t)OC * C, 0.1f)), b(randn(OC, 0.1f));
        twin pre((size_t)BT * OC), g((size_t)BT * OC);
        H->matmul_gelu_forward(X(g.h.data()), X(pre.h.data()), X(x.h.data()), X(w.h.data()), X(b.h.data()), BT, C, OC);
        D->matmul_gelu_forward(X(g.d), X(pre.d), X(x.d), X(w.d), X(b.d), BT, C, OC);
        check("matmul_gelu_forward pre", pre, 1e-5);
        check("matmul_gelu_forward gelu", g, 1e-5);
        /* a layer [OC -> C] whose input was gelu(pre) */
        twin w2(randn((size_t)C * OC, 0.1f)), dout(randn((size_t)BT * C)), dw(vec((size_t)C * OC, 0.5f)), db(vec(C, 0.5f));
        twin dx((size_t)BT * OC);
        H->matmul_dgelu_backward(X(dx.h.data()), X(dw.h.data()), X(db.h.data()), X(dout.h.data()), X(g.h.data()),
                                 X(w2.h.data()), X(pre.h.data()), BT, OC, C);
        D->matmul_dgelu_backward(X(dx.d), X(dw.d), X(db.d), X(dout.d), X(g.d), X(w2.d), X(pre.d), BT, OC, C);
        check("matmul_dgelu_backward dinp", dx, 1e-5);
        check("matmul_dgelu_backward dw (+=)", dw, 1e-5);
        check("matmul_dgelu_backward dbias (+=)", db, 1e-5);
        twin res(randn((size_t)BT * C)), t(randn((size_t)BT * C)), tb(randn(C)), lw(randn(C, 0.2f)), lb(randn(C, 0.2f));
        twin ro((size_t)BT * C), lo((size_t)BT * C), mean(BT), rstd(BT);
        H->residual_layernorm_forward(X(ro.h.data()), X(lo.h.data()), X(mean.h.data()), X(rstd.h.data()), X(res.h.data()),
                                      X(t.h.data()), X(tb.h.data()), X(lw.h.data()), X(lb.h.data()), BT, C);
        D->residual_layernorm_forward(X(ro.d), X(lo.d), X(mean.d), X(rstd.d), X(res.d), X(t.d), X(tb.d), X(lw.d), X(lb.d),
                                      BT, C);
        check("residual_layernorm_forward residual", ro, 1e-7);
        check("residual_layernorm_forward out", lo, 1e-5);
        check("residual_layernorm_forward rstd", rstd, 1e-5);
    }
    {
        twin qkv(randn((size_t)BT * 3 * C)), out((size_t)BT * C);
        vec hatt((size_t)B * NH * T * T), hs(H->attention_scratch_floats(T));
        float *datt = (float *)D->mem.alloc((size_t)B * NH * T * T * 4), *ds = (float *)D->mem.alloc(D->attention_scratch_floats(T) * 4);
        H->attention_forward(X(out.h.data()), X(hatt.data()), X(qkv.h.data()), B, T, C, NH);
        D->attention_forward(X(out.d), X(datt), X(qkv.d), B, T, C, NH);
        check("attention_forward", out, 1e-5);
        twin dout(randn((size_t)BT * C)), dqkv((size_t)BT * 3 * C);
        H->attention_backward(X(dqkv.h.data()), X(hs.data()), X(dout.h.data()), X(qkv.h.data()), X(hatt.data()), X(out.h.data()), B, T, C, NH);
        D->attention_backward(X(dqkv.d), X(ds), X(dout.d), X(qkv.d), X(datt), X(out.d), B, T, C, NH);
        check("attention_backward", dqkv, 1e-5);
        D->mem.free(datt);
        D->mem.free(ds);
    }
    {
        const size_t n = 5000;
        twin x(randn(n)), y(n), dy(randn(n)), dx(n);
        H->gelu_forward(X(y.h.data()), X(x.h.data()), n);
        D->gelu_forward(X(y.d), X(x.d), n);
        check("gelu_forward", y, 1e-5);
        H->gelu_backward(X(dx.h.data()), X(x.h.data()), X(dy.h.data()), n);
        D->gelu_backward(X(dx.d), X(x.d), X(dy.d), n);
        check("gelu_backward", dx, 1e-5);
        twin res(randn((size_t)BT * C)), t(randn((size_t)BT * C)), b(randn(C)), o((size_t)BT * C);
        H->residual_bias(X(o.h.data()), X(res.h.data()), X(t.h.data()), X(b.h.data()), BT, C);
        D->residual_bias(X(o.d), X(res.d), X(t.d), X(b.d), BT, C);
        check("residual_bias", o, 1e-7);
        twin e(randn((size_t)BT / 2 * C));
        H->add_positions(X(e.h.data()), X(wpe.h.data()), BT / 2, BT / 2, T, C);
        D->add_positions(X(e.d), X(wpe.d), BT / 2, BT / 2, T, C);
        check("add_positions", e, 1e-7);
    }
    {
        std::vector<int32_t> tg(BT);
        for (int i = 0; i < BT; i++)
            tg[i] = (int32_t)(urand() * V);
        itwin tgt(tg);
        twin logits(randn((size_t)BT * Vp, 2.0f)), lse(BT), loss(BT);
        H->crossentropy_forward(X(lse.h.data()), X(loss.h.data()), X(logits.h.data()), X(tgt.h.data()), BT, V, Vp);
        D->crossentropy_forward(X(lse.d), X(loss.d), X(logits.d), X(tgt.d), BT, V, Vp);
        check("crossentropy_forward lse", lse, 1e-5);
        check("crossentropy_forward loss", loss, 1e-5);
        H->crossentropy_backward(X(logits.h.data()), X(lse.h.data()), X(tgt.h.data()), BT, V, Vp, 0, 0.01f);
        D->crossentropy_backward(X(logits.d), X(lse.d), X(tgt.d), BT, V, Vp, 0, 0.01f);
        check("crossentropy_backward (the whole vocabulary)", logits, 1e-5);
        /* this rank's rows [128, 256): 72 real */
        const size_t v0 = 128, Vs = 128;
        twin part(randn((size_t)BT * Vs, 2.0f)), mx(BT), sum(BT), tl(BT), l2(BT), lo2(BT);
        H->crossentropy_vp_max(X(mx.h.data()), X(part.h.data()), BT, V - (int)v0, Vs);
        D->crossentropy_vp_max(X(mx.d), X(part.d), BT, V - (int)v0, Vs);
        check("crossentropy_vp_max", mx, 0);
        H->crossentropy_vp_sum(X(sum.h.data()), X(tl.h.data()), X(part.h.data()), X(mx.h.data()), X(tgt.h.data()), BT, V - (int)v0, Vs, v0);
        D->crossentropy_vp_sum(X(sum.d), X(tl.d), X(part.d), X(mx.d), X(tgt.d), BT, V - (int)v0, Vs, v0);
        check("crossentropy_vp_sum", sum, 1e-5);
        check("crossentropy_vp_sum target logit", tl, 0);
        H->crossentropy_vp_finish(X(l2.h.data()), X(lo2.h.data()), X(mx.h.data()), X(sum.h.data()), X(tl.h.data()), BT);
        D->crossentropy_vp_finish(X(l2.d), X(lo2.d), X(mx.d), X(sum.d), X(tl.d), BT);
        check("crossentropy_vp_finish", lo2, 1e-5);
        H->crossentropy_backward(X(part.h.data()), X(l2.h.data()), X(tgt.h.data()), BT, V - (int)v0, Vs, v0, 0.01f);
        D->crossentropy_backward(X(part.d), X(l2.d), X(tgt.d), BT, V - (int)v0, Vs, v0, 0.01f);
        check("crossentropy_backward (vocab-parallel rows)", part, 1e-5);
    }
    {
        const size_t n = 300000;
        twin g(randn(n)), m2(randn(n, 0.01f)), v2(vec(n, 1e-4f)), p(randn(n)), x(randn(n));
        double hs, ds;
        double *dd = (double *)D->mem.alloc(sizeof(double));
        H->sumsq_f64(&hs, g.h.data(), n, 1 << 16);
        D->sumsq_f64(dd, g.d, n, 1 << 16);
        D->mem.download(&ds, dd, sizeof ds);
        D->mem.sync();
        checks++;
        if (fabs(ds - hs) > 1e-9 * hs) {
            failures++;
            printf("FAIL ops_cuda sumsq_f64: %.17g vs %.17g\n", ds, hs);
        } else {
            printf("PASS ops_cuda sumsq_f64\n");
        }
        H->sum_f64(&hs, g.h.data(), 4096);
        D->sum_f64(dd, g.d, 4096);
        D->mem.download(&ds, dd, sizeof ds);
        D->mem.sync();
        checks++;
        if (fabs(ds - hs) > 1e-9 * fabs(hs) + 1e-9) {
            failures++;
            printf("FAIL ops_cuda sum_f64: %.17g vs %.17g\n", ds, hs);
        } else {
            printf("PASS ops_cuda sum_f64\n");
        }
        D->mem.free(dd);
        H->scale(x.h.data(), 0.3f, n);
        D->scale(x.d, 0.3f, n);
        check("scale", x, 0);
        H->add(x.h.data(), g.h.data(), n);
        D->add(x.d, g.d, n);
        check("add", x, 0);
        H->adamw(p.h.data(), NULL, g.h.data(), m2.h.data(), v2.h.data(), n, 0.7f, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 0.1f, 0.05f);
        D->adamw(p.d, NULL, g.d, m2.d, v2.d, n, 0.7f, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 0.1f, 0.05f);
        check("adamw parameters (gradients scaled by 0.7, fused)", p, 1e-6);
        check("adamw second moment", v2, 1e-6);
    }
}

/* Typed storage (bf16 / fp16): both tables told the precision; the floatX operands are
 * the same bits on each (the CPU table's conversion on the host, uploaded), the fp32
 * ones as above. Outputs are compared widened. The products are exact sums in fp32 in
 * another order, rounded once to the storage type: an element whose sum lies at a
 * rounding boundary may round the other way, one step of the type (bf16 2^-8, fp16
 * 2^-11 relative), so the norm's tolerance is about a step (bf16 4e-3, fp16 5e-4); a
 * wrong product is off by far more. Attention keeps its probabilities in the narrow
 * type on the GPU (flash or batched GEMMs), so it is held to bf16 2e-2, fp16 4e-3. */
struct xtwin { /* a floatX buffer on both tables */
    size_t n;
    std::vector<uint16_t> h;
    void *d;
    explicit xtwin(const vec &v) : n(v.size()), h(v.size()), d(D->mem.alloc(v.size() * 2 + 4))
    {
        H->to_prec((floatX *)h.data(), v.data(), n);
        D->mem.upload(d, h.data(), n * 2);
    }
    explicit xtwin(size_t n_) : xtwin(vec(n_, NAN)) {}
    ~xtwin() { D->mem.free(d); }
    floatX *hx() { return (floatX *)h.data(); }
    floatX *dx() const { return (floatX *)d; }
    vec host() const
    {
        vec r(n);
        H->from_prec(r.data(), (const floatX *)h.data(), n);
        return r;
    }
    vec back() const
    {
        std::vector<uint16_t> b(n);
        D->mem.download(b.data(), d, n * 2);
        D->mem.sync();
        vec r(n);
        H->from_prec(r.data(), (const floatX *)b.data(), n);
        return r;
    }
};
static void check_x(const char *what, const xtwin &t, double tol)
{
    twin w(t.host());
    vec g = t.back();
    D->mem.upload(w.d, g.data(), g.size() * 4);
    check(what, w, tol);
}
static void test_typed(int prec)
{
    const char *pn = prec == 1 ? "bf16" : "fp16";
    char what[96];
    H->storage_prec(prec);
    D->storage_prec(prec);
    double mt = prec == 1 ? 4e-3 : 5e-4;
    for (int acc = 0; acc < 2; acc++) {
        const int BT = 32, C = 64, OC = 96;
        xtwin x(randn((size_t)BT * C)), w(randn((size_t)OC * C, 0.1f)), b(randn(OC, 0.1f));
        xtwin out(acc ? randn((size_t)BT * OC) : vec((size_t)BT * OC, NAN));
        H->matmul_forward(out.hx(), x.hx(), w.hx(), b.hx(), BT, C, OC, acc);
        D->matmul_forward(out.dx(), x.dx(), w.dx(), b.dx(), BT, C, OC, acc);
        snprintf(what, sizeof what, "%s matmul_forward%s", pn, acc ? " (accumulate)" : "");
        check_x(what, out, mt);
        xtwin dout(randn((size_t)BT * OC));
        twin dw(vec((size_t)OC * C, 0.5f)), db(vec(OC, 0.5f));
        xtwin dx(acc ? randn((size_t)BT * C) : vec((size_t)BT * C, NAN));
        H->matmul_backward(dx.hx(), dw.h.data(), db.h.data(), dout.hx(), x.hx(), w.hx(), BT, C, OC, acc);
        D->matmul_backward(dx.dx(), dw.d, db.d, dout.dx(), x.dx(), w.dx(), BT, C, OC, acc);
        snprintf(what, sizeof what, "%s matmul_backward dinp%s", pn, acc ? " (accumulate)" : "");
        check_x(what, dx, mt);
        snprintf(what, sizeof what, "%s matmul_backward dw (+=)", pn);
        check(what, dw, 1e-5);
        snprintf(what, sizeof what, "%s matmul_backward dbias (+=)", pn);
        check(what, db, 1e-5);
    }
    {
        const int BT = 32, C = 64;
        xtwin x(randn((size_t)BT * C)), w(randn(C, 0.2f)), b(randn(C, 0.2f)), out((size_t)BT * C);
        twin mean(BT), rstd(BT);
        H->layernorm_forward(out.hx(), mean.h.data(), rstd.h.data(), x.hx(), w.hx(), b.hx(), BT, C);
        D->layernorm_forward(out.dx(), mean.d, rstd.d, x.dx(), w.dx(), b.dx(), BT, C);
        snprintf(what, sizeof what, "%s layernorm_forward", pn);
        check_x(what, out, mt);
        xtwin dout(randn((size_t)BT * C)), dxx(randn((size_t)BT * C));
        twin dw(vec(C, 0.1f)), db(vec(C, 0.2f));
        vec hp(H->layernorm_part_floats(C));
        float *dp = (float *)D->mem.alloc(D->layernorm_part_floats(C) * 4);
        H->layernorm_backward(dxx.hx(), dw.h.data(), db.h.data(), dout.hx(), x.hx(), w.hx(), mean.h.data(),
                              rstd.h.data(), BT, C, hp.data());
        D->layernorm_backward(dxx.dx(), dw.d, db.d, dout.dx(), x.dx(), w.dx(), mean.d, rstd.d, BT, C, dp);
        snprintf(what, sizeof what, "%s layernorm_backward dinp (+=)", pn);
        check_x(what, dxx, mt);
        snprintf(what, sizeof what, "%s layernorm_backward dw (+=)", pn);
        check(what, dw, 1e-4);
        D->mem.free(dp);
        const size_t n = 5000;
        xtwin g(randn(n)), y(n), dy(randn(n));
        H->gelu_forward(y.hx(), g.hx(), n);
        D->gelu_forward(y.dx(), g.dx(), n);
        snprintf(what, sizeof what, "%s gelu_forward", pn);
        check_x(what, y, mt);
        H->gelu_backward(dy.hx(), g.hx(), dy.hx(), n); /* in place, as the model runs it */
        D->gelu_backward(dy.dx(), g.dx(), dy.dx(), n);
        snprintf(what, sizeof what, "%s gelu_backward (in place)", pn);
        check_x(what, dy, mt);
    }
    { /* the fused entries: the GPU applies GELU (and its derivative) to the fp32 product in the
       * epilogue, the CPU to the rounded one: a step of the type apart at most */
        const int BT = 32, C = 64, OC = 96;
        xtwin x(randn((size_t)BT * C)), w(randn((size_t)OC * C, 0.1f)), b(randn(OC, 0.1f));
        xtwin pre((size_t)BT * OC), g((size_t)BT * OC);
        H->matmul_gelu_forward(g.hx(), pre.hx(), x.hx(), w.hx(), b.hx(), BT, C, OC);
        D->matmul_gelu_forward(g.dx(), pre.dx(), x.dx(), w.dx(), b.dx(), BT, C, OC);
        snprintf(what, sizeof what, "%s matmul_gelu_forward pre", pn);
        check_x(what, pre, mt);
        snprintf(what, sizeof what, "%s matmul_gelu_forward gelu", pn);
        check_x(what, g, 2 * mt);
        xtwin w2(randn((size_t)C * OC, 0.1f)), dout(randn((size_t)BT * C)), dx((size_t)BT * OC);
        twin dw(vec((size_t)C * OC, 0.5f)), db(vec(C, 0.5f));
        H->matmul_dgelu_backward(dx.hx(), dw.h.data(), db.h.data(), dout.hx(), g.hx(), w2.hx(), pre.hx(), BT, OC, C);
        D->matmul_dgelu_backward(dx.dx(), dw.d, db.d, dout.dx(), g.dx(), w2.dx(), pre.dx(), BT, OC, C);
        snprintf(what, sizeof what, "%s matmul_dgelu_backward dinp", pn);
        check_x(what, dx, 2 * mt);
        snprintf(what, sizeof what, "%s matmul_dgelu_backward dw (+=)", pn);
        check(what, dw, mt);
        xtwin res(randn((size_t)BT * C)), t(randn((size_t)BT * C)), tb(randn(C)), lw(randn(C, 0.2f)), lb(randn(C, 0.2f));
        xtwin ro((size_t)BT * C), lo((size_t)BT * C);
        twin mean(BT), rstd(BT);
        H->residual_layernorm_forward(ro.hx(), lo.hx(), mean.h.data(), rstd.h.data(), res.hx(), t.hx(), tb.hx(), lw.hx(),
                                      lb.hx(), BT, C);
        D->residual_layernorm_forward(ro.dx(), lo.dx(), mean.d, rstd.d, res.dx(), t.dx(), tb.dx(), lw.dx(), lb.dx(), BT, C);
        snprintf(what, sizeof what, "%s residual_layernorm_forward residual", pn);
        check_x(what, ro, 1e-7);
        snprintf(what, sizeof what, "%s residual_layernorm_forward out", pn);
        check_x(what, lo, mt);
        /* AdamW writing the compute copy in the same pass */
        const size_t n = 3000;
        twin p(randn(n, 0.02f)), gr(randn(n)), m2(randn(n, 0.01f)), v2(vec(n, 1e-4f));
        xtwin pl(n);
        H->adamw(p.h.data(), pl.hx(), gr.h.data(), m2.h.data(), v2.h.data(), n, 1.0f, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 0.1f, 0.05f);
        D->adamw(p.d, pl.dx(), gr.d, m2.d, v2.d, n, 1.0f, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 0.1f, 0.05f);
        snprintf(what, sizeof what, "%s adamw parameters", pn);
        check(what, p, 1e-6);
        snprintf(what, sizeof what, "%s adamw compute copy", pn);
        check_x(what, pl, mt);
    }
    /* head size 16 (batched GEMMs) and 64 with T 64 (cuDNN or the flash kernels) */
    const int shapes[2][4] = {{2, 16, 64, 4}, {2, 64, 128, 2}};
    for (int si = 0; si < 2; si++) {
        const int B = shapes[si][0], T = shapes[si][1], C = shapes[si][2], NH = shapes[si][3], BT = B * T;
        double tol = prec == 1 ? 2e-2 : 4e-3;
        xtwin qkv(randn((size_t)BT * 3 * C)), out((size_t)BT * C);
        vec hatt((size_t)B * NH * T * T), hs(H->attention_scratch_floats(T));
        float *datt = (float *)D->mem.alloc((size_t)B * NH * T * T * 4), *ds = (float *)D->mem.alloc(D->attention_scratch_floats(T) * 4);
        H->attention_forward(out.hx(), hatt.data(), qkv.hx(), B, T, C, NH);
        D->attention_forward(out.dx(), datt, qkv.dx(), B, T, C, NH);
        snprintf(what, sizeof what, "%s attention_forward (head size %d)", pn, C / NH);
        check_x(what, out, tol);
        /* the backward is given each table's own forward output, as the model keeps it */
        xtwin dout(randn((size_t)BT * C)), dqkv((size_t)BT * 3 * C);
        H->attention_backward(dqkv.hx(), hs.data(), dout.hx(), qkv.hx(), hatt.data(), out.hx(), B, T, C, NH);
        D->attention_backward(dqkv.dx(), ds, dout.dx(), qkv.dx(), datt, out.dx(), B, T, C, NH);
        snprintf(what, sizeof what, "%s attention_backward (head size %d)", pn, C / NH);
        check_x(what, dqkv, 2 * tol);
        D->mem.free(datt);
        D->mem.free(ds);
    }
    H->storage_prec(0);
    D->storage_prec(0);
}

/* The model's shape in these checks: small (head size 16, T 32) or wide enough for every
 * attention backend in 16 bits (head size 64, T 64). */
struct shape {
    int B, T, C, NH, L, V, Vp;
};
static const shape SMALL = {2, 32, 64, 4, 2, 300, 384}, WIDE = {3, 64, 128, 2, 2, 301, 384};

/* steps of the model (gpt.c) on a table; with offload (--cpu-offload) the optimizer on the
 * CPU: loss, grad norm and the parameters after the last step */
static void step_on(const gpt_ops *ops, float *loss, double *norm, vec &params, int prec = 0, const shape &sh = SMALL,
                    int offload = 0, int steps = 1)
{
    gpt_config cfg;
    cfg.max_seq_len = sh.T;
    cfg.vocab_size = sh.V;
    cfg.padded_vocab_size = sh.Vp;
    cfg.num_layers = sh.L;
    cfg.num_heads = sh.NH;
    cfg.channels = sh.C;
    gpt_par par;
    memset(&par, 0, sizeof par);
    par.tp = par.pp = 1;
    par.ops = ops;
    par.prec = prec;
    par.offload = offload;
    gpt_model m;
    if (gpt_alloc_par(&m, &cfg, &par)) {
        printf("FAIL ops_cuda model: %s\n", err_msg());
        failures++;
        return;
    }
    gpt_init_weights(&m, 11, 0.02f);
    gpt_upload(&m);
    int N = sh.B * sh.T;
    std::vector<int32_t> in(N), tg(N);
    for (int i = 0; i < N; i++) {
        in[i] = (i * 37 + 5) % sh.V;
        tg[i] = (i * 53 + 7) % sh.V;
    }
    for (int k = 1; k <= steps; k++) {
        gpt_zero_grad(&m);
        if (gpt_forward(&m, in.data(), tg.data(), sh.B, sh.T, loss)) {
            printf("FAIL ops_cuda model forward: %s\n", err_msg());
            failures++;
        }
        gpt_backward(&m, 1.0f);
        *norm = gpt_grad_norm(&m);
        gpt_adamw(&m, 0.5f, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, k);
    }
    gpt_download(&m, 1);
    params.assign(m.params, m.params + m.num_params);
    gpt_free(&m);
}

static double rel(const vec &a, const vec &b)
{
    double d = 0, n = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); i++) {
        d += (double)(a[i] - b[i]) * (a[i] - b[i]);
        n += (double)b[i] * b[i];
    }
    return a.size() == b.size() && n > 0 ? sqrt(d / n) : INFINITY;
}

/* prec 0: fp32 (loss 1e-5, grad norm 1e-4, parameters 1e-5); bf16 / fp16: the rounded
 * model on each table (the CPU computing in fp32 on the rounded values, the GPU on the
 * tensor cores), loss and grad norm within 1e-2, parameters after AdamW within 5e-3.
 * AdamW's first step moves every weight by about lr = 1e-3 in the sign of its gradient,
 * so a gradient near zero that rounds to the other sign on one table moves its weight
 * 2e-3 the other way: with weights of std 0.02, a relative 1e-3 is such flips on
 * 0.01 % of the weights (measured on an H100: bf16 1.6e-3, fp16 8.4e-4). Each attention
 * backend the CUDA table has (gpt_ops_cuda_configure) against the CPU's. */
static void test_model(int prec, const shape &sh = SMALL, int attention = GPT_ATTN_AUTO, const char *an = "")
{
    if (gpt_ops_cuda_configure(prec, attention, 1, sh.B, sh.T, sh.NH, sh.C / sh.NH)) {
        printf("FAIL ops_cuda configure %s: %s\n", an, err_msg());
        failures++;
        checks++;
        return;
    }
    float lc = 0, lg = 0;
    double nc = 0, ng = 0;
    vec pc, pg;
    step_on(H, &lc, &nc, pc, prec, sh);
    step_on(D, &lg, &ng, pg, prec, sh);
    double el = fabs(lg - lc) / lc, en = fabs(ng - nc) / nc, ep = rel(pg, pc);
    checks++;
    const char *pn = prec == 1 ? " bf16" : prec == 2 ? " fp16" : "";
    double tl = prec ? 1e-2 : 1e-5, tn = prec ? 1e-2 : 1e-4, tp = prec ? 5e-3 : 1e-5;
    if (pc.size() != pg.size() || !(el < tl && en < tn && ep < tp)) {
        failures++;
        printf("FAIL ops_cuda model step%s%s (attention %s): loss %.7g vs %.7g, grad norm rel %.3g, params rel %.3g\n",
               pn, an, gpt_ops_cuda_attention(), lg, lc, en, ep);
    } else {
        printf("PASS ops_cuda model step%s%s (attention %s; loss rel %.2g, grad norm rel %.2g, params rel %.2g)\n", pn,
               an, gpt_ops_cuda_attention(), el, en, ep);
    }
    gpt_ops_cuda_configure(prec, GPT_ATTN_AUTO, 1, sh.B, sh.T, sh.NH, sh.C / sh.NH);
}

/* Determinism: two runs of three steps give the same bits (fixed grids and reduction
 * orders, the encoder's backward grouped by token, no atomics). */
static void test_deterministic(int prec)
{
    float l1 = 0, l2 = 0;
    double n1 = 0, n2 = 0;
    vec p1, p2;
    gpt_ops_cuda_configure(prec, GPT_ATTN_AUTO, 1, WIDE.B, WIDE.T, WIDE.NH, WIDE.C / WIDE.NH);
    step_on(D, &l1, &n1, p1, prec, WIDE, 0, 3);
    step_on(D, &l2, &n2, p2, prec, WIDE, 0, 3);
    checks++;
    if (l1 != l2 || n1 != n2 || p1.size() != p2.size() || memcmp(p1.data(), p2.data(), p1.size() * sizeof(float))) {
        failures++;
        printf("FAIL ops_cuda deterministic (prec %d): loss %.9g vs %.9g, norm %.12g vs %.12g\n", prec, l1, l2, n1, n2);
    } else {
        printf("PASS ops_cuda deterministic (prec %d, attention %s): two runs of three steps, the same bits\n", prec,
               gpt_ops_cuda_attention());
    }
}

/* --cpu-offload: three steps with the optimizer on the CPU (the host's master weights and
 * moments, the compute weights uploaded chunk by chunk) against the same steps with the
 * GPU's AdamW: the same losses; the parameters within 1e-5 (fp32; the two AdamW kernels
 * round their last bits apart) or, in bf16, within what one flipped rounding allows. */
static void test_offload(int prec)
{
    float l1 = 0, l2 = 0;
    double n1 = 0, n2 = 0;
    vec p1, p2;
    gpt_ops_cuda_configure(prec, GPT_ATTN_AUTO, 1, SMALL.B, SMALL.T, SMALL.NH, SMALL.C / SMALL.NH);
    step_on(D, &l1, &n1, p1, prec, SMALL, 1, 3);
    step_on(D, &l2, &n2, p2, prec, SMALL, 0, 3);
    double el = fabs(l1 - l2) / l2, ep = rel(p1, p2), tp = prec ? 1e-3 : 1e-5;
    checks++;
    const char *pn = prec == 1 ? " bf16" : "";
    if (!(el < (prec ? 1e-3 : 1e-5) && ep < tp)) {
        failures++;
        printf("FAIL ops_cuda offload%s: third loss %.7g vs %.7g, params rel %.3g\n", pn, l1, l2, ep);
    } else {
        printf("PASS ops_cuda offload%s (third loss rel %.2g, params rel %.2g after three steps)\n", pn, el, ep);
    }
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        printf("SKIP gpu: test_ops_cuda: no CUDA GPU on this machine (make test-gpu on one)\n");
        return 0;
    }
    if (gpt_ops_cuda_select(0) < 0) {
        printf("FAIL ops_cuda select: %s\n", err_msg());
        return 1;
    }
    test_ops();
    test_typed(1);
    test_typed(2);
    test_model(0);
    test_model(1);
    test_model(2);
    test_model(0, WIDE, GPT_ATTN_AUTO, ", head size 64");
    test_model(1, WIDE, GPT_ATTN_FLASH, ", head size 64");
    test_model(1, WIDE, GPT_ATTN_UNFUSED, ", head size 64");
#ifdef WEBTEXT_CUDNN
    test_model(1, WIDE, GPT_ATTN_FUSED, ", head size 64");
#endif
    test_deterministic(1);
    test_offload(0);
    test_offload(1);
    printf("%d of %d CUDA operation-table checks passed\n", checks - failures, checks);
    return failures != 0;
}

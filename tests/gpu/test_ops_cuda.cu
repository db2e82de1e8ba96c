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
        H->encoder_forward(out.h.data(), in.h.data(), wte.h.data(), wpe.h.data(), B, T, C);
        D->encoder_forward(out.d, in.d, wte.d, wpe.d, B, T, C);
        check("encoder_forward", out, 1e-6);
        twin vp((size_t)BT * C);
        H->encoder_forward_vp(vp.h.data(), in.h.data(), wte.h.data() + 64 * C, 64, 100, BT, C);
        D->encoder_forward_vp(vp.d, in.d, wte.d + 64 * C, 64, 100, BT, C);
        check("encoder_forward_vp", vp, 1e-6);
        twin dout(randn((size_t)BT * C)), dwte(vec((size_t)100 * C, 0.5f)), dwpe(vec((size_t)T * C, 0.25f));
        H->encoder_backward(dwte.h.data(), dwpe.h.data(), dout.h.data(), in.h.data(), B, T, C, 64, 100);
        D->encoder_backward(dwte.d, dwpe.d, dout.d, in.d, B, T, C, 64, 100);
        check("encoder_backward dwte (rows 64..163)", dwte, 1e-5);
        check("encoder_backward dwpe", dwpe, 1e-5);
    }
    {
        twin x(randn((size_t)BT * C)), w(randn(C, 0.2f)), b(randn(C, 0.2f)), out((size_t)BT * C), mean(BT), rstd(BT);
        H->layernorm_forward(out.h.data(), mean.h.data(), rstd.h.data(), x.h.data(), w.h.data(), b.h.data(), BT, C);
        D->layernorm_forward(out.d, mean.d, rstd.d, x.d, w.d, b.d, BT, C);
        check("layernorm_forward", out, 1e-5);
        check("layernorm_forward rstd", rstd, 1e-5);
        twin dout(randn((size_t)BT * C)), dx(vec((size_t)BT * C, 0.5f)), dw(vec(C, 0.1f)), db(vec(C, 0.2f));
        vec hp(H->layernorm_part_floats(C));
        float *dp = (float *)D->mem.alloc(D->layernorm_part_floats(C) * 4);
        H->layernorm_backward(dx.h.data(), dw.h.data(), db.h.data(), dout.h.data(), x.h.data(), w.h.data(),
                              mean.h.data(), rstd.h.data(), BT, C, hp.data());
        D->layernorm_backward(dx.d, dw.d, db.d, dout.d, x.d, w.d, mean.d, rstd.d, BT, C, dp);
        check("layernorm_backward dinp (+=)", dx, 1e-5);
        check("layernorm_backward dw (+=)", dw, 1e-5);
        check("layernorm_backward db (+=)", db, 1e-5);
        D->mem.free(dp);
    }
    for (int acc = 0; acc < 2; acc++) {
        const int OC = 96;
        twin x(randn((size_t)BT * C)), w(randn((size_t)OC * C, 0.1f)), b(randn(OC, 0.1f));
        twin out(acc ? randn((size_t)BT * OC) : vec((size_t)BT * OC, NAN));
        H->matmul_forward(out.h.data(), x.h.data(), w.h.data(), b.h.data(), BT, C, OC, acc);
        D->matmul_forward(out.d, x.d, w.d, b.d, BT, C, OC, acc);
        check(acc ? "matmul_forward (accumulate)" : "matmul_forward", out, 1e-5);
        twin dout(randn((size_t)BT * OC)), dw(vec((size_t)OC * C, 0.5f)), db(vec(OC, 0.5f));
        twin dx(acc ? randn((size_t)BT * C) : vec((size_t)BT * C, NAN));
        H->matmul_backward(dx.h.data(), dw.h.data(), db.h.data(), dout.h.data(), x.h.data(), w.h.data(), BT, C, OC, acc);
        D->matmul_backward(dx.d, dw.d, db.d, dout.d, x.d, w.d, BT, C, OC, acc);
        check(acc ? "matmul_backward dinp (accumulate)" : "matmul_backward dinp", dx, 1e-5);
        check("matmul_backward dw (+=)", dw, 1e-5);
        check("matmul_backward dbias (+=)", db, 1e-5);
    }
    {
        twin qkv(randn((size_t)BT * 3 * C)), out((size_t)BT * C);
        vec hatt((size_t)B * NH * T * T), hs(H->attention_scratch_floats(T));
        float *datt = (float *)D->mem.alloc((size_t)B * NH * T * T * 4), *ds = (float *)D->mem.alloc(D->attention_scratch_floats(T) * 4);
        H->attention_forward(out.h.data(), hatt.data(), qkv.h.data(), B, T, C, NH);
        D->attention_forward(out.d, datt, qkv.d, B, T, C, NH);
        check("attention_forward", out, 1e-5);
        twin dout(randn((size_t)BT * C)), dqkv((size_t)BT * 3 * C);
        H->attention_backward(dqkv.h.data(), hs.data(), dout.h.data(), qkv.h.data(), hatt.data(), out.h.data(), B, T, C, NH);
        D->attention_backward(dqkv.d, ds, dout.d, qkv.d, datt, out.d, B, T, C, NH);
        check("attention_backward", dqkv, 1e-5);
        D->mem.free(datt);
        D->mem.free(ds);
    }
    {
        const size_t n = 5000;
        twin x(randn(n)), y(n), dy(randn(n)), dx(n);
        H->gelu_forward(y.h.data(), x.h.data(), n);
        D->gelu_forward(y.d, x.d, n);
        check("gelu_forward", y, 1e-5);
        H->gelu_backward(dx.h.data(), x.h.data(), dy.h.data(), n);
        D->gelu_backward(dx.d, x.d, dy.d, n);
        check("gelu_backward", dx, 1e-5);
        twin res(randn((size_t)BT * C)), t(randn((size_t)BT * C)), b(randn(C)), o((size_t)BT * C);
        H->residual_bias(o.h.data(), res.h.data(), t.h.data(), b.h.data(), BT, C);
        D->residual_bias(o.d, res.d, t.d, b.d, BT, C);
        check("residual_bias", o, 1e-7);
        twin e(randn((size_t)BT / 2 * C));
        H->add_positions(e.h.data(), wpe.h.data(), BT / 2, BT / 2, T, C);
        D->add_positions(e.d, wpe.d, BT / 2, BT / 2, T, C);
        check("add_positions", e, 1e-7);
    }
    {
        std::vector<int32_t> tg(BT);
        for (int i = 0; i < BT; i++)
            tg[i] = (int32_t)(urand() * V);
        itwin tgt(tg);
        twin logits(randn((size_t)BT * Vp, 2.0f)), lse(BT), loss(BT);
        H->crossentropy_forward(lse.h.data(), loss.h.data(), logits.h.data(), tgt.h.data(), BT, V, Vp);
        D->crossentropy_forward(lse.d, loss.d, logits.d, tgt.d, BT, V, Vp);
        check("crossentropy_forward lse", lse, 1e-5);
        check("crossentropy_forward loss", loss, 1e-5);
        /* this rank's rows [128, 256): 72 real */
        const size_t v0 = 128, Vs = 128;
        twin part(randn((size_t)BT * Vs, 2.0f)), mx(BT), sum(BT), tl(BT), l2(BT), lo2(BT);
        H->crossentropy_vp_max(mx.h.data(), part.h.data(), BT, V - (int)v0, Vs);
        D->crossentropy_vp_max(mx.d, part.d, BT, V - (int)v0, Vs);
        check("crossentropy_vp_max", mx, 0);
        H->crossentropy_vp_sum(sum.h.data(), tl.h.data(), part.h.data(), mx.h.data(), tgt.h.data(), BT, V - (int)v0, Vs, v0);
        D->crossentropy_vp_sum(sum.d, tl.d, part.d, mx.d, tgt.d, BT, V - (int)v0, Vs, v0);
        check("crossentropy_vp_sum", sum, 1e-5);
        check("crossentropy_vp_sum target logit", tl, 0);
        H->crossentropy_vp_finish(l2.h.data(), lo2.h.data(), mx.h.data(), sum.h.data(), tl.h.data(), BT);
        D->crossentropy_vp_finish(l2.d, lo2.d, mx.d, sum.d, tl.d, BT);
        check("crossentropy_vp_finish", lo2, 1e-5);
        H->crossentropy_backward(part.h.data(), l2.h.data(), tgt.h.data(), BT, V - (int)v0, Vs, v0, 0.01f);
        D->crossentropy_backward(part.d, l2.d, tgt.d, BT, V - (int)v0, Vs, v0, 0.01f);
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
        H->adamw(p.h.data(), g.h.data(), m2.h.data(), v2.h.data(), n, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 0.1f, 0.05f);
        D->adamw(p.d, g.d, m2.d, v2.d, n, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 0.1f, 0.05f);
        check("adamw parameters", p, 1e-6);
        check("adamw second moment", v2, 1e-6);
    }
}

/* Mixed precision's compute on the CUDA table (compute_prec): operands rounded to
 * bf16 / fp16 as the model hands them, products on the tensor cores in fp32. The
 * matmuls are exact products summed in fp32 (the CPU's sum in another order: 1e-5);
 * attention keeps its probabilities in the narrow type on the GPU (flash or batched
 * GEMMs), so it is held to the precision's own step (bf16 2e-2, fp16 4e-3). */
static vec rounded(vec v, int prec)
{
    H->round_prec(v.data(), v.size(), prec);
    return v;
}
static void test_narrow(int prec)
{
    const char *pn = prec == 1 ? "bf16" : "fp16";
    char what[96];
    D->compute_prec(prec);
    for (int acc = 0; acc < 2; acc++) {
        const int BT = 32, C = 64, OC = 96;
        twin x(rounded(randn((size_t)BT * C), prec)), w(rounded(randn((size_t)OC * C, 0.1f), prec)), b(randn(OC, 0.1f));
        twin out(acc ? randn((size_t)BT * OC) : vec((size_t)BT * OC, NAN));
        H->matmul_forward(out.h.data(), x.h.data(), w.h.data(), b.h.data(), BT, C, OC, acc);
        D->matmul_forward(out.d, x.d, w.d, b.d, BT, C, OC, acc);
        snprintf(what, sizeof what, "%s matmul_forward%s", pn, acc ? " (accumulate)" : "");
        check(what, out, 1e-5);
        twin dout(rounded(randn((size_t)BT * OC), prec)), dw(vec((size_t)OC * C, 0.5f)), db(vec(OC, 0.5f));
        twin dx(acc ? randn((size_t)BT * C) : vec((size_t)BT * C, NAN));
        H->matmul_backward(dx.h.data(), dw.h.data(), db.h.data(), dout.h.data(), x.h.data(), w.h.data(), BT, C, OC, acc);
        D->matmul_backward(dx.d, dw.d, db.d, dout.d, x.d, w.d, BT, C, OC, acc);
        snprintf(what, sizeof what, "%s matmul_backward dinp%s", pn, acc ? " (accumulate)" : "");
        check(what, dx, 1e-5);
        snprintf(what, sizeof what, "%s matmul_backward dw (+=)", pn);
        check(what, dw, 1e-5);
        snprintf(what, sizeof what, "%s matmul_backward dbias (+=)", pn);
        check(what, db, 1e-5);
    }
    /* head size 16 (batched GEMMs) and 64 with T 64 (the flash kernels) */
    const int shapes[2][4] = {{2, 16, 64, 4}, {2, 64, 128, 2}};
    for (int si = 0; si < 2; si++) {
        const int B = shapes[si][0], T = shapes[si][1], C = shapes[si][2], NH = shapes[si][3], BT = B * T;
        double tol = prec == 1 ? 2e-2 : 4e-3;
        twin qkv(rounded(randn((size_t)BT * 3 * C), prec)), out((size_t)BT * C);
        vec hatt((size_t)B * NH * T * T), hs(H->attention_scratch_floats(T));
        float *datt = (float *)D->mem.alloc((size_t)B * NH * T * T * 4), *ds = (float *)D->mem.alloc(D->attention_scratch_floats(T) * 4);
        H->attention_forward(out.h.data(), hatt.data(), qkv.h.data(), B, T, C, NH);
        D->attention_forward(out.d, datt, qkv.d, B, T, C, NH);
        snprintf(what, sizeof what, "%s attention_forward (head size %d)", pn, C / NH);
        check(what, out, tol);
        /* the backward is given the forward's output as the model keeps it: rounded */
        vec o = out.back();
        H->round_prec(o.data(), o.size(), prec);
        out.h = rounded(out.h, prec);
        D->mem.upload(out.d, o.data(), o.size() * 4);
        twin dout(rounded(randn((size_t)BT * C), prec)), dqkv((size_t)BT * 3 * C);
        H->attention_backward(dqkv.h.data(), hs.data(), dout.h.data(), qkv.h.data(), hatt.data(), out.h.data(), B, T, C, NH);
        D->attention_backward(dqkv.d, ds, dout.d, qkv.d, datt, out.d, B, T, C, NH);
        snprintf(what, sizeof what, "%s attention_backward (head size %d)", pn, C / NH);
        check(what, dqkv, 2 * tol);
        D->mem.free(datt);
        D->mem.free(ds);
    }
    D->compute_prec(0);
}

/* One step of the model (gpt.c) on a table. */
static void step_on(const gpt_ops *ops, float *loss, double *norm, vec &params, int prec = 0)
{
    gpt_config cfg;
    cfg.max_seq_len = 32;
    cfg.vocab_size = 300;
    cfg.padded_vocab_size = 384;
    cfg.num_layers = 2;
    cfg.num_heads = 4;
    cfg.channels = 64;
    gpt_par par;
    memset(&par, 0, sizeof par);
    par.tp = par.pp = 1;
    par.ops = ops;
    par.prec = prec;
    gpt_model m;
    if (gpt_alloc_par(&m, &cfg, &par)) {
        printf("FAIL ops_cuda model: %s\n", err_msg());
        failures++;
        return;
    }
    gpt_init_weights(&m, 11, 0.02f);
    gpt_upload(&m);
    std::vector<int32_t> in(2 * 32), tg(2 * 32);
    for (int i = 0; i < 64; i++) {
        in[i] = (i * 37 + 5) % 300;
        tg[i] = (i * 53 + 7) % 300;
    }
    gpt_zero_grad(&m);
    if (gpt_forward(&m, in.data(), tg.data(), 2, 32, loss)) {
        printf("FAIL ops_cuda model forward: %s\n", err_msg());
        failures++;
    }
    gpt_backward(&m, 1.0f);
    *norm = gpt_grad_norm(&m);
    gpt_adamw(&m, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1);
    gpt_download(&m, 1);
    params.assign(m.params, m.params + m.num_params);
    gpt_free(&m);
}

/* prec 0: fp32 (loss 1e-5, grad norm 1e-4, parameters 1e-5); bf16 / fp16: the rounded
 * model on each table (the CPU computing in fp32 on the rounded values, the GPU on the
 * tensor cores), loss and grad norm within 1e-2, parameters after AdamW within 5e-3.
 * AdamW's first step moves every weight by about lr = 1e-3 in the sign of its gradient,
 * so a gradient near zero that rounds to the other sign on one table moves its weight
 * 2e-3 the other way: with weights of std 0.02, a relative 1e-3 is such flips on
 * 0.01 % of the weights (measured on an H100: bf16 1.6e-3, fp16 8.4e-4). */
static void test_model(int prec)
{
    float lc = 0, lg = 0;
    double nc = 0, ng = 0;
    vec pc, pg;
    step_on(H, &lc, &nc, pc, prec);
    step_on(D, &lg, &ng, pg, prec);
    double dp = 0, np = 0;
    for (size_t i = 0; i < pc.size() && i < pg.size(); i++) {
        dp += (double)(pg[i] - pc[i]) * (pg[i] - pc[i]);
        np += (double)pc[i] * pc[i];
    }
    double el = fabs(lg - lc) / lc, en = fabs(ng - nc) / nc, ep = sqrt(dp / np);
    checks++;
    const char *pn = prec == 1 ? " bf16" : prec == 2 ? " fp16" : "";
    double tl = prec ? 1e-2 : 1e-5, tn = prec ? 1e-2 : 1e-4, tp = prec ? 5e-3 : 1e-5;
    if (pc.size() != pg.size() || !(el < tl && en < tn && ep < tp)) {
        failures++;
        printf("FAIL ops_cuda model step%s: loss %.7g vs %.7g, grad norm rel %.3g, params rel %.3g\n", pn, lg, lc, en, ep);
    } else {
        printf("PASS ops_cuda model step%s (loss rel %.2g, grad norm rel %.2g, params rel %.2g)\n", pn, el, en, ep);
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
    test_narrow(1);
    test_narrow(2);
    test_model(0);
    test_model(1);
    test_model(2);
    printf("%d of %d CUDA operation-table checks passed\n", checks - failures, checks);
    return failures != 0;
}

/* test_cuda_kernels.cu - every CUDA kernel of train/cuda against its CPU
 * reference (train/cpu/kernels.c, train/model/gpt.c), on fresh random inputs,
 * in fp32 and bf16, by the relative error ||gpu - cpu|| / ||cpu||, with a
 * tolerance per operation and precision. Outputs are poisoned with NaN before
 * each kernel runs, so an element it fails to write fails the check. The whole
 * model on the CUDA table is tests/gpu/test_ops_cuda.cu's.
 * Without a GPU it prints a SKIP line (counted as skipped) and exits 0. */
extern "C" {
#include "common/err.h"
#include "train/cpu/kernels.h"
#include "train/model/gpt.h"
}
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <vector>

#include "train/cuda/adamw.cuh"
#include "train/cuda/attention.cuh"
#include "train/cuda/classifier.cuh"
#include "train/cuda/encoder.cuh"
#include "train/cuda/gelu.cuh"
#include "train/cuda/layernorm.cuh"
#include "train/cuda/matmul.cuh"

typedef std::vector<float> vec;
static int failures, checks;

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((rng >> 11) + 0.5) / 9007199254740992.0;
}
static vec randn(size_t n, float sd = 1.0f, float mean = 0.0f)
{
    vec v(n);
    for (size_t i = 0; i < n; i++)
        v[i] = mean + sd * (float)(sqrt(-2 * log(urand())) * cos(6.283185307179586 * urand()));
    return v;
}

/* Round host values to what T can hold, so the CPU sees the GPU's inputs. */
template <typename T> static vec q(vec v)
{
    for (auto &x : v)
        x = sizeof(T) == 4 ? x : __bfloat162float(__float2bfloat16(x));
    return v;
}
template <typename T> static T *up(const vec &h)
{
    T *d;
    CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(T) + 16));
    std::vector<T> t(h.size());
    for (size_t i = 0; i < h.size(); i++)
        t[i] = (T)h[i];
    CUDA_CHECK(cudaMemcpy(d, t.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
/* A device buffer full of NaN. */
template <typename T> static T *poisoned(size_t n)
{
    return up<T>(vec(n, NAN));
}
template <typename T> static vec down(const T *d, size_t n)
{
    std::vector<T> t(n);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(t.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    vec h(n);
    for (size_t i = 0; i < n; i++)
        h[i] = (float)t[i];
    return h;
}
static double relerr(const vec &a, const vec &ref)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < ref.size(); i++) {
        double d = (double)a[i] - ref[i];
        if (!isfinite(a[i]))
            return INFINITY;
        num += d * d;
        den += (double)ref[i] * ref[i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}
static void check(const char *prec, const char *name, double err, double tol)
{
    checks++;
    if (err <= tol) {
        printf("PASS cuda %s %s: relative error %.2e (tolerance %.0e)\n", prec, name, err, tol);
    } else {
        printf("FAIL cuda %s %s: relative error %.2e over tolerance %.0e\n", prec, name, err, tol);
        failures++;
    }
}

template <typename T> static void test_kernels(const char *P, double tol, mm_ctx *mm)
{
    cudaStream_t s = mm->s;
    int B = 3, Tn = 67, C = 96, NH = 4, V = 301, Vp = 384, N = B * Tn;
    bool lowp = sizeof(T) != 4;
    /* encoder */
    {
        std::vector<int> inp(N);
        for (int i = 0; i < N; i++)
            inp[i] = (int)(urand() * 40); /* repeats, so the grouping matters */
        vec wte = q<T>(randn((size_t)V * C)), wpe = q<T>(randn((size_t)Tn * C)), dout = q<T>(randn((size_t)N * C));
        vec ref((size_t)N * C);
        encoder_forward(ref.data(), inp.data(), wte.data(), wpe.data(), B, Tn, C);
        int *di;
        CUDA_CHECK(cudaMalloc(&di, N * 4));
        CUDA_CHECK(cudaMemcpy(di, inp.data(), N * 4, cudaMemcpyHostToDevice));
        T *dout_d = up<T>(dout), *wte_d = up<T>(wte), *wpe_d = up<T>(wpe), *o = poisoned<T>((size_t)N * C);
        encoder_forward(o, di, wte_d, wpe_d, B, Tn, C, s);
        check(P, "encoder_forward", relerr(down(o, (size_t)N * C), ref), lowp ? tol : 1e-7);
        vec dwte = randn((size_t)V * C), dwpe = randn((size_t)Tn * C), rdwte = dwte, rdwpe = dwpe;
        encoder_backward(rdwte.data(), rdwpe.data(), dout.data(), inp.data(), B, Tn, C, 0, (size_t)V);
        float *gwte = up<float>(dwte), *gwpe = up<float>(dwpe);
        std::vector<int> cnt(V, 0), grp(3 * N + 1);
        int nu = encoder_group(inp.data(), N, cnt.data(), grp.data(), grp.data() + N, grp.data() + 2 * N + 1);
        int *dg;
        CUDA_CHECK(cudaMalloc(&dg, grp.size() * 4));
        CUDA_CHECK(cudaMemcpy(dg, grp.data(), grp.size() * 4, cudaMemcpyHostToDevice));
        encoder_backward(gwte, gwpe, dout_d, dg, dg + N, dg + 2 * N + 1, nu, B, Tn, C, s);
        check(P, "encoder_backward dwte", relerr(down(gwte, dwte.size()), rdwte), 1e-6);
        check(P, "encoder_backward dwpe", relerr(down(gwpe, dwpe.size()), rdwpe), 1e-6);
    }
    /* layernorm, alone and fused with the residual add; backward; at a width that
     * takes the 16-byte path and one that does not */
    for (int C : {96, 100}) {
        vec a = q<T>(randn((size_t)N * C, 1.5f, 0.3f)), b = q<T>(randn((size_t)N * C)), w = q<T>(randn(C, 0.2f, 1.0f)),
            bi = q<T>(randn(C, 0.1f));
        vec res(a.size());
        for (size_t i = 0; i < a.size(); i++)
            res[i] = a[i] + b[i];
        res = q<T>(res);
        vec ref(res.size()), mean(N), rstd(N);
        layernorm_forward(ref.data(), mean.data(), rstd.data(), res.data(), w.data(), bi.data(), N, C);
        T *ad = up<T>(a), *bd = up<T>(b), *wd = up<T>(w), *bid = up<T>(bi), *rd = poisoned<T>(res.size()),
          *od = poisoned<T>(res.size());
        float *md = poisoned<float>(N), *sd = poisoned<float>(N);
        residual_layernorm_forward(rd, od, md, sd, ad, bd, wd, bid, N, C, s);
        check(P, "residual_forward", relerr(down(rd, res.size()), res), 1e-7);
        check(P, "layernorm_forward (fused residual)", relerr(down(od, res.size()), ref), lowp ? tol : 1e-6);
        check(P, "layernorm_forward mean", relerr(down(md, N), mean), 1e-5);
        check(P, "layernorm_forward rstd", relerr(down(sd, N), rstd), 1e-5);
        T *od2 = poisoned<T>(res.size());
        layernorm_forward(od2, md, sd, rd, wd, bid, N, C, s);
        check(P, "layernorm_forward", relerr(down(od2, res.size()), ref), lowp ? tol : 1e-6);
        vec dout = q<T>(randn(res.size())), dinp = q<T>(randn(res.size())), dw = randn(C), db = randn(C);
        vec rdinp = dinp, rdw = dw, rdb = db;
        layernorm_backward(rdinp.data(), rdw.data(), rdb.data(), dout.data(), res.data(), w.data(), mean.data(),
                           rstd.data(), N, C);
        T *doutd = up<T>(dout), *dinpd = up<T>(dinp);
        float *dwd = up<float>(dw), *dbd = up<float>(db), *part = poisoned<float>((size_t)COLSUM_CHUNKS * 2 * C);
        layernorm_backward(dinpd, dwd, dbd, doutd, rd, wd, md, sd, N, C, part, s);
        check(P, C % 8 ? "layernorm_backward dinp (scalar path)" : "layernorm_backward dinp", relerr(down(dinpd, dinp.size()), rdinp), lowp ? tol : 1e-5);
        check(P, "layernorm_backward dw", relerr(down(dwd, C), rdw), 1e-5);
        check(P, "layernorm_backward db", relerr(down(dbd, C), rdb), 1e-5);
    }
    /* gelu */
    {
        size_t n = 10007;
        vec x = q<T>(randn(n, 2.0f)), dy = q<T>(randn(n)), ref(n), rd(n);
        gelu_forward(ref.data(), x.data(), n);
        gelu_backward(rd.data(), x.data(), dy.data(), n);
        T *xd = up<T>(x), *dyd = up<T>(dy), *o = poisoned<T>(n), *dx = poisoned<T>(n);
        gelu_forward(o, xd, n, s);
        gelu_backward(dx, xd, dyd, n, s);
        check(P, "gelu_forward", relerr(down(o, n), ref), lowp ? tol : 1e-6);
        check(P, "gelu_backward", relerr(down(dx, n), rd), lowp ? tol : 1e-6);
    }
    /* matmul: bias epilogue, GELU epilogue, backward with and without DGELU */
    for (int epi = 0; epi < 2; epi++) {
        mm->epilogues = epi;
        char nm[96];
        int IC = C, OC = 4 * C;
        vec x = q<T>(randn((size_t)N * IC)), w = q<T>(randn((size_t)OC * IC, 0.1f)), bias = q<T>(randn(OC, 0.1f));
        vec ref((size_t)N * OC);
        matmul_forward(ref.data(), x.data(), w.data(), bias.data(), N, IC, OC, 0);
        T *xd = up<T>(x), *wd = up<T>(w), *bd = up<T>(bias), *o = poisoned<T>(ref.size()), *pre = poisoned<T>(ref.size());
        matmul_forward(mm, o, xd, wd, bd, N, IC, OC, (T *)NULL);
        snprintf(nm, sizeof nm, "matmul_forward +bias (epilogues %s)", epi ? "on" : "off");
        check(P, nm, relerr(down(o, ref.size()), ref), lowp ? tol : 1e-5);
        vec rg(ref.size());
        vec refq = q<T>(ref);
        gelu_forward(rg.data(), refq.data(), ref.size());
        matmul_forward(mm, o, xd, wd, bd, N, IC, OC, pre);
        snprintf(nm, sizeof nm, "matmul_forward +bias +gelu (epilogues %s)", epi ? "on" : "off");
        check(P, nm, relerr(down(o, ref.size()), rg), lowp ? tol : 1e-5);
        snprintf(nm, sizeof nm, "matmul_forward gelu input kept (epilogues %s)", epi ? "on" : "off");
        check(P, nm, relerr(down(pre, ref.size()), ref), lowp ? tol : 1e-5);
        /* backward of the fcproj-like layer: inputs gelu(pre) of width OC, output width IC */
        vec dout = q<T>(randn((size_t)N * IC)), wp = q<T>(randn((size_t)IC * OC, 0.1f));
        vec gin = q<T>(rg);
        vec rdin((size_t)N * OC), rdw = randn((size_t)IC * OC), rdb = randn(IC);
        vec dw0 = rdw, db0 = rdb;
        matmul_backward(rdin.data(), rdw.data(), rdb.data(), dout.data(), gin.data(), wp.data(), N, OC, IC, 0);
        vec rdpre(rdin.size());
        vec rdinq = q<T>(rdin);
        gelu_backward(rdpre.data(), refq.data(), lowp ? rdinq.data() : rdin.data(), rdin.size());
        T *doutd = up<T>(dout), *wpd = up<T>(wp), *gind = up<T>(gin), *preq = up<T>(refq), *dind = poisoned<T>(rdin.size());
        float *dwd = up<float>(dw0), *dbd = up<float>(db0);
        matmul_backward(mm, dind, dwd, dbd, doutd, gind, wpd, N, OC, IC, (const T *)preq);
        snprintf(nm, sizeof nm, "matmul_backward dinp with gelu backward (epilogues %s)", epi ? "on" : "off");
        check(P, nm, relerr(down(dind, rdin.size()), rdpre), lowp ? tol : 1e-5);
        snprintf(nm, sizeof nm, "matmul_backward dw, accumulated in fp32 (epilogues %s)", epi ? "on" : "off");
        check(P, nm, relerr(down(dwd, rdw.size()), rdw), lowp ? 1e-5 * 0 + tol / 10 : 1e-5);
        snprintf(nm, sizeof nm, "matmul_backward dbias (epilogues %s)", epi ? "on" : "off");
        check(P, nm, relerr(down(dbd, rdb.size()), rdb), 1e-5);
        matmul_backward(mm, dind, dwd, dbd, doutd, gind, wpd, N, OC, IC, (const T *)NULL);
        snprintf(nm, sizeof nm, "matmul_backward dinp (epilogues %s)", epi ? "on" : "off");
        check(P, nm, relerr(down(dind, rdin.size()), rdin), lowp ? tol : 1e-5);
    }
    mm->epilogues = 1;
    /* attention (T a multiple of 8: rows of 16 bytes) */
    {
        int Tn = 72, N = B * Tn;
        size_t n3 = (size_t)N * 3 * C, n1 = (size_t)N * C, att = (size_t)B * NH * Tn * Tn;
        vec qkv = q<T>(randn(n3)), ref(n1), ratt(att);
        attention_forward(ref.data(), ratt.data(), qkv.data(), B, Tn, C, NH);
        attn_scratch<T> w;
        w.s1 = poisoned<T>(att);
        w.s2 = poisoned<T>(att);
        T *qd = up<T>(qkv), *o = poisoned<T>(n1);
        float *lse = poisoned<float>((size_t)B * NH * Tn);
        attention_forward(mm, o, lse, qd, w, B, Tn, C, NH);
        check(P, "attention_forward", relerr(down(o, n1), ref), lowp ? tol : 1e-5);
        vec dout = q<T>(randn(n1)), rdq(n3), scr(att);
        attention_backward(rdq.data(), scr.data(), dout.data(), qkv.data(), ratt.data(), B, Tn, C, NH);
        T *dd = up<T>(dout), *dq = poisoned<T>(n3);
        w.dd = poisoned<float>((size_t)B * NH * Tn);
        attention_backward(mm, dq, dd, o, qd, lse, w, B, Tn, C, NH);
        check(P, "attention_backward", relerr(down(dq, n3), rdq), lowp ? 2 * tol : 1e-5);
    }
    /* the flash kernels (16-bit, head size 64, T a multiple of 64) */
    if (lowp) {
        int Tf = 192, Cf = 128, NHf = 2, Nf = B * Tf;
        size_t n3 = (size_t)Nf * 3 * Cf, n1 = (size_t)Nf * Cf, att = (size_t)B * NHf * Tf * Tf;
        vec qkv = q<T>(randn(n3)), ref(n1), ratt(att);
        attention_forward(ref.data(), ratt.data(), qkv.data(), B, Tf, Cf, NHf);
        attn_scratch<T> w = {NULL, NULL, poisoned<float>((size_t)B * NHf * Tf)};
        T *qd = up<T>(qkv), *o = poisoned<T>(n1);
        float *lse = poisoned<float>((size_t)B * NHf * Tf);
        mm->flash = 1;
        attention_forward(mm, o, lse, qd, w, B, Tf, Cf, NHf);
        check(P, "attention_forward (flash)", relerr(down(o, n1), ref), tol);
        vec dout = q<T>(randn(n1)), rdq(n3), scr(att);
        attention_backward(rdq.data(), scr.data(), dout.data(), qkv.data(), ratt.data(), B, Tf, Cf, NHf);
        T *dd = up<T>(dout), *dq = poisoned<T>(n3);
        attention_backward(mm, dq, dd, o, qd, lse, w, B, Tf, Cf, NHf);
        check(P, "attention_backward (flash)", relerr(down(dq, n3), rdq), 2 * tol);
        mm->flash = 0;
    }
#ifdef WEBTEXT_CUDNN
    /* cuDNN's fused attention (16-bit; any T: 200 is no multiple of 64; head sizes 64 and 32) */
    if (lowp)
        for (int variant = 0; variant < 2; variant++) {
            int Tf = 200, Cf = variant ? 128 : 192, NHf = variant ? 4 : 3, Nf = B * Tf;
            size_t n3 = (size_t)Nf * 3 * Cf, n1 = (size_t)Nf * Cf, att = (size_t)B * NHf * Tf * Tf;
            char nm[192], why[512];
            int dt = cudnn_dtype<T>();
            if (cudnn_attention_prepare(dt, B, Tf, NHf, Cf / NHf, why, sizeof why)) {
                snprintf(nm, sizeof nm, "attention (cuDNN fused) prepare, head size %d: %.60s", Cf / NHf, why);
                check(P, nm, INFINITY, 0);
                continue;
            }
            vec qkv = q<T>(randn(n3)), ref(n1), ratt(att);
            attention_forward(ref.data(), ratt.data(), qkv.data(), B, Tf, Cf, NHf);
            attn_scratch<T> w = {NULL, NULL, NULL};
            T *qd = up<T>(qkv), *o = poisoned<T>(n1);
            float *lse = poisoned<float>((size_t)B * NHf * Tf);
            mm->fused = 1;
            attention_forward(mm, o, lse, qd, w, B, Tf, Cf, NHf);
            snprintf(nm, sizeof nm, "attention_forward (cuDNN fused, head size %d, T %d)", Cf / NHf, Tf);
            check(P, nm, relerr(down(o, n1), ref), tol);
            vec dout = q<T>(randn(n1)), rdq(n3), scr(att);
            attention_backward(rdq.data(), scr.data(), dout.data(), qkv.data(), ratt.data(), B, Tf, Cf, NHf);
            T *dd = up<T>(dout), *dq = poisoned<T>(n3);
            attention_backward(mm, dq, dd, o, qd, lse, w, B, Tf, Cf, NHf);
            vec g1 = down(dq, n3);
            snprintf(nm, sizeof nm, "attention_backward (cuDNN fused, head size %d, T %d)", Cf / NHf, Tf);
            check(P, nm, relerr(g1, rdq), 2 * tol);
            attention_backward(mm, dq, dd, o, qd, lse, w, B, Tf, Cf, NHf);
            checks++;
            vec g2 = down(dq, n3);
            if (!memcmp(g1.data(), g2.data(), g1.size() * 4)) {
                printf("PASS cuda %s attention_backward (cuDNN fused, head size %d): deterministic\n", P, Cf / NHf);
            } else {
                printf("FAIL cuda %s attention_backward (cuDNN fused, head size %d): two runs differ\n", P, Cf / NHf);
                failures++;
            }
            mm->fused = 0;
        }
#endif
    /* cross-entropy over a padded vocabulary */
    {
        vec lg = q<T>(randn((size_t)N * Vp, 3.0f));
        std::vector<int> tg(N);
        for (int i = 0; i < N; i++)
            tg[i] = (int)(urand() * V);
        vec rl(N), rlse(N), rg((size_t)N * Vp);
        float dl = 0.37f / N;
        for (int i = 0; i < N; i++) {
            const float *x = lg.data() + (size_t)i * Vp;
            double mx = -INFINITY, sum = 0;
            for (int v = 0; v < V; v++)
                mx = x[v] > mx ? x[v] : mx;
            for (int v = 0; v < V; v++)
                sum += exp(x[v] - mx);
            rlse[i] = (float)(mx + log(sum));
            rl[i] = rlse[i] - x[tg[i]];
            for (int v = 0; v < Vp; v++)
                rg[(size_t)i * Vp + v] = v < V ? (float)((exp(x[v] - rlse[i]) - (v == tg[i])) * dl) : 0.0f;
        }
        T *ld = up<T>(lg);
        int *tgd;
        CUDA_CHECK(cudaMalloc(&tgd, N * 4));
        CUDA_CHECK(cudaMemcpy(tgd, tg.data(), N * 4, cudaMemcpyHostToDevice));
        float *loss = poisoned<float>(N), *lsed = poisoned<float>(N);
        crossentropy_forward(loss, lsed, ld, tgd, N, V, Vp, s);
        check(P, "crossentropy_forward loss", relerr(down(loss, N), rl), 1e-5);
        crossentropy_backward(ld, lsed, tgd, N, V, Vp, dl, s);
        check(P, "crossentropy_backward dlogits", relerr(down(ld, rg.size()), rg), lowp ? tol : 1e-5);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* The whole model against the CPU model: loss, gradients, AdamW. */
int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        printf("SKIP gpu: test_cuda_kernels: no CUDA GPU on this machine (make test-gpu on one)\n");
        return 0; /* counted as skipped by the SKIP line */
    }
    mm_ctx mm;
    memset(&mm, 0, sizeof mm);
    CUBLAS_CHECK(cublasLtCreate(&mm.lt));
    CUBLAS_CHECK(cublasCreate(&mm.blas));
    CUDA_CHECK(cudaStreamCreate(&mm.s));
    CUBLAS_CHECK(cublasSetStream(mm.blas, mm.s));
    mm.ws_size = 32u << 20;
    CUDA_CHECK(cudaMalloc(&mm.ws, mm.ws_size));
    CUDA_CHECK(cudaMalloc(&mm.part, (size_t)COLSUM_CHUNKS * 2 * 4096 * 4));
    mm.epilogues = 1;
    test_kernels<float>("fp32", 1e-5, &mm);
    test_kernels<__nv_bfloat16>("bf16", 1e-2, &mm);
    printf("%d of %d CUDA checks passed\n", checks - failures, checks);
    return failures ? 1 : 0;
}

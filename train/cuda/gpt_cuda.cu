/* gpt_cuda.cu - the GPT model on one GPU (see gpt_cuda.h): the layer sequence
 * of train/model/gpt.c, on the kernels of this folder. */
extern "C" {
#include "common/err.h"
#include "train/cuda/gpt_cuda.h"
}
#include <math.h>
#include <string.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "train/cuda/adamw.cuh"
#include "train/cuda/attention.cuh"
#include "train/cuda/classifier.cuh"
#include "train/cuda/common.cuh"
#include "train/cuda/encoder.cuh"
#include "train/cuda/flash.cuh"
#include "train/cuda/gelu.cuh"
#include "train/cuda/layernorm.cuh"
#include "train/cuda/matmul.cuh"

struct gpt_cuda {
    virtual ~gpt_cuda() {}
    virtual float forward(const int32_t *inp, const int32_t *tg) = 0;
    virtual void backward(float loss_scale) = 0;
    virtual void zero_grad() = 0;
    virtual double grad_norm() = 0;
    virtual void step(float gscale, float lr, float b1, float b2, float eps, float wd, int64_t t) = 0;
    virtual void download(gpt_model *m) = 0;
    virtual void poison() = 0;
    virtual void logits_out(float *out) = 0;
    virtual float *grad_buffer(size_t *n, void **stream) = 0;
    size_t held = 0;
    std::string attn_desc = "unfused (batched GEMMs)";
};

static int cuda_dev = 0; /* gpt_cuda_set_device */
extern "C" void gpt_cuda_set_device(int dev)
{
    cuda_dev = dev;
    cudaSetDevice(dev);
}

static int cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}
extern "C" int gpt_cuda_device_count(void) { return cuda_device_count(); }

extern "C" int gpt_cuda_device(char *name, size_t n, size_t *mem_total, double *peak)
{
    if (cuda_device_count() < 1)
        return err_set(ERR_USAGE, "--device cuda: no CUDA GPU found (%s)",
                       "is the NVIDIA driver loaded and a GPU visible? use --device cpu");
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, cuda_dev));
    snprintf(name, n, "%s", p.name);
    *mem_total = p.totalGlobalMem;
    /* bf16 dense tensor-core peaks of the parts we know (datasheet; SXM forms). */
    double pk = 0;
    if (strstr(p.name, "H100"))
        pk = strstr(p.name, "PCIe") ? 756 : 989;
    else if (strstr(p.name, "H200") || strstr(p.name, "GH200"))
        pk = 989;
    else if (strstr(p.name, "A100"))
        pk = 312;
    else if (strstr(p.name, "B200"))
        pk = 2250;
    else if (strstr(p.name, "L40S"))
        pk = 362;
    else if (strstr(p.name, "A10"))
        pk = 125;
    *peak = pk;
    return 0;
}

template <typename T> struct gpt_gpu : gpt_cuda {
    gpt_config cfg;
    size_t sizes[GPT_NUM_TENSORS], offs[GPT_NUM_TENSORS], np;
    int B, Tn, L, C, NH, V, Vp, rec;
    cudaStream_t s;
    mm_ctx mm;
    float *params, *grads, *adam_m, *adam_v;
    /* --cpu-offload: the host model is the master copy; lowp: its 16-bit image */
    bool off = false;
    gpt_model *host = NULL;
    void *lowp = NULL;
    cudaStream_t s2;
    std::vector<cudaEvent_t> chunk_ev;
    T *plow; /* the storage copy the kernels read (params itself in fp32) */
    T *encoded, *ln1, *qkv, *atty, *res2, *ln2, *fch, *fchg, *res3, *lnf, *logits, *tmp, *dres, *dsmall, *d4;
    float *ln1_mean, *ln1_rstd, *ln2_mean, *ln2_rstd, *lnf_mean, *lnf_rstd, *alse, *lse, *losses;
    attn_scratch<T> as;
    int *d_inp, *d_tg, *d_grp;
    std::vector<int32_t> h_inp;
    std::vector<int> h_count, h_grp;
    std::vector<float> h_losses;
    double *d_norm;
    bool have_targets = false;
    std::vector<void *> allocs;
    /* WEBTEXT_CUDA_PROFILE=1: device time per operation (events between marks),
     * summed over the run and printed to stderr at the end. */
    bool prof = false;
    std::vector<cudaEvent_t> evs;
    std::vector<const char *> evn;
    size_t nev = 0;
    std::map<std::string, double> ptime;
    static void mark_cb(void *self, const char *name) { ((gpt_gpu *)self)->mark(name); }
    void mark(const char *name)
    {
        if (!prof)
            return;
        if (nev == evs.size()) {
            cudaEvent_t e;
            CUDA_CHECK(cudaEventCreate(&e));
            evs.push_back(e);
            evn.push_back(name);
        }
        evn[nev] = name;
        CUDA_CHECK(cudaEventRecord(evs[nev++], s));
    }
    int steps = 0; /* optimizer steps taken: the first two (warm-up) are not profiled */
    void collect()
    {
        if (!prof || nev < 2 || steps < 2) {
            nev = 0;
            return;
        }
        CUDA_CHECK(cudaStreamSynchronize(s));
        for (size_t i = 1; i < nev; i++) {
            float ms;
            CUDA_CHECK(cudaEventElapsedTime(&ms, evs[i - 1], evs[i]));
            ptime[evn[i]] += ms;
        }
        nev = 0;
    }
    void report()
    {
        if (!prof || ptime.empty())
            return;
        std::vector<std::pair<double, std::string>> v;
        double tot = 0;
        for (auto &kv : ptime) {
            v.push_back({kv.second, kv.first});
            tot += kv.second;
        }
        std::sort(v.rbegin(), v.rend());
        fprintf(stderr, "CUDA profile (device time per operation, all iterations after the first two):\n");
        for (auto &x : v)
            fprintf(stderr, "  %10.2f ms %5.1f%%  %s\n", x.first, 100 * x.first / tot, x.second.c_str());
        fprintf(stderr, "  %10.2f ms total\n", tot);
    }

    T *W(int t) { return plow + offs[t]; }
    float *G(int t) { return grads + offs[t]; }
    size_t BT() const { return (size_t)B * Tn; }
    T *LN1(int l) { return rec ? ln1 : ln1 + (size_t)l * BT() * C; }
    T *LN2(int l) { return rec ? ln2 : ln2 + (size_t)l * BT() * C; }
    T *FCG(int l) { return rec ? fchg : fchg + (size_t)l * BT() * 4 * C; }

    template <typename X> int alloc(X **p, size_t n)
    {
        *p = NULL;
        if (!n)
            return 0;
        void *q;
        if (cudaMalloc(&q, n * sizeof(X)) != cudaSuccess) {
            cudaGetLastError();
            size_t fr = 0, tot = 0;
            cudaMemGetInfo(&fr, &tot);
            return err_set(ERR_NOMEM,
                           "--device cuda: out of GPU memory allocating %.1f MB (%.1f GB held, %.1f GB free of %.1f); "
                           "lower --micro-batch-size, add --recompute-activations, or use a smaller model",
                           n * sizeof(X) / 1e6, held / 1e9, fr / 1e9, tot / 1e9);
        }
        held += n * sizeof(X);
        allocs.push_back(q);
        *p = (X *)q;
        return 0;
    }

    /* Resolve the attention backend (gpt_cuda.h: GPT_ATTN_*) into mm.fused / mm.flash
     * and attn_desc. 0, or ERR_USAGE when fused attention is asked for and cannot run. */
    int pick_attention(int want)
    {
        std::string why;
        mm.flash = mm.fused = 0;
        if (sizeof(T) != 2) {
            if (want == GPT_ATTN_FUSED)
                return err_set(ERR_USAGE, "--attention-backend fused: needs --bf16 or --fp16 (cuDNN's fused attention "
                                          "has no fp32 form)");
            if (want == GPT_ATTN_FLASH)
                attn_desc = "unfused (batched GEMMs; flash attention needs bf16/fp16)";
            return 0;
        }
        if (want == GPT_ATTN_FLASH) {
            if (flash::usable<T>(Tn, C, NH)) {
                mm.flash = 1;
                attn_desc = "flash (WMMA FlashAttention-2 kernels)";
            } else
                attn_desc = "unfused (batched GEMMs; flash attention not applicable: needs head size 64 and "
                            "seq-length a multiple of 64)";
            return 0;
        }
        if (want == GPT_ATTN_UNFUSED)
            return 0;
#ifdef WEBTEXT_CUDNN
        char buf[512];
        if (cudnn_attention_prepare(cudnn_dtype<T>(), B, Tn, NH, C / NH,
                                    buf, sizeof buf) == 0) {
            long v = cudnn_attention_version();
            mm.fused = 1;
            attn_desc = "fused (cuDNN " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
                        std::to_string(v % 100) + ")";
            return 0;
        }
        why = buf;
#else
        why = "this build has no cuDNN attention (the cuDNN frontend headers were not found at build time)";
#endif
        if (want == GPT_ATTN_FUSED)
            return err_set(ERR_USAGE, "--attention-backend fused: %s", why.c_str());
        attn_desc = "unfused (batched GEMMs; fused: " + why + ")";
        return 0;
    }

    int init(const gpt_model *m, const gpt_cuda_opts *o)
    {
        cfg = m->cfg;
        memcpy(sizes, m->sizes, sizeof sizes);
        memcpy(offs, m->offsets, sizeof offs);
        np = m->num_params;
        B = o->B;
        Tn = o->T;
        L = cfg.num_layers;
        C = cfg.channels;
        NH = cfg.num_heads;
        V = cfg.vocab_size;
        Vp = cfg.padded_vocab_size;
        rec = o->recompute;
        CUDA_CHECK(cudaSetDevice(cuda_dev));
        CUDA_CHECK(cudaStreamCreate(&s));
        memset(&mm, 0, sizeof mm);
        CUBLAS_CHECK(cublasLtCreate(&mm.lt));
        CUBLAS_CHECK(cublasCreate(&mm.blas));
        CUBLAS_CHECK(cublasSetStream(mm.blas, s));
        mm.s = s;
        mm.epilogues = o->epilogues;
        int rc0 = pick_attention(o->attention);
        if (rc0)
            return rc0;
        bool use_flash = mm.flash || mm.fused; /* no T x T scratch */
        mm.ws_size = 32u << 20;
        prof = getenv("WEBTEXT_CUDA_PROFILE") && *getenv("WEBTEXT_CUDA_PROFILE") == '1';
        if (prof) {
            mm.mark = mark_cb;
            mm.mark_arg = this;
        }
        size_t bt = BT(), C4 = 4 * (size_t)C, lr = rec ? 1 : (size_t)L;
        size_t nn = bt * C, att = (size_t)B * NH * Tn * Tn;
        int rc = 0;
        char *ws = NULL;
        rc = rc ? rc : alloc(&ws, mm.ws_size);
        mm.ws = ws;
        off = o->offload;
        if (off) {
            /* GPU: the 16-bit (or fp32) weights the kernels read and fp32 gradients only. */
            host = (gpt_model *)m;
            params = adam_m = adam_v = NULL;
            rc = rc ? rc : alloc(&grads, np);
            rc = rc ? rc : alloc(&plow, np);
            if (rc)
                return rc;
            if (!m->grads || !m->adam_m || !m->adam_v)
                return err_set(ERR_USAGE, "--cpu-offload: the host model lacks gradients or moments");
            if (cudaMallocHost(&lowp, np * sizeof(T)) != cudaSuccess)
                return err_set(ERR_NOMEM, "--cpu-offload: cannot pin %.1f GB of host memory", np * sizeof(T) / 1e9);
            float *hp[4] = {m->params, m->grads, m->adam_m, m->adam_v};
            for (float *q : hp)
                if (cudaHostRegister(q, np * 4, cudaHostRegisterDefault) != cudaSuccess) {
                    cudaGetLastError(); /* unpinned still works, only slower */
                    fprintf(stderr, "note: --cpu-offload: could not pin %.1f GB of host memory; copies will be slower\n",
                            np * 4 / 1e9);
                }
            CUDA_CHECK(cudaStreamCreate(&s2));
        } else {
            rc = rc ? rc : alloc(&params, np);
            rc = rc ? rc : alloc(&grads, np);
            rc = rc ? rc : alloc(&adam_m, np);
            rc = rc ? rc : alloc(&adam_v, np);
            if (sizeof(T) == 4)
                plow = (T *)params;
            else
                rc = rc ? rc : alloc(&plow, np);
        }
        rc = rc ? rc : alloc(&encoded, nn);
        rc = rc ? rc : alloc(&ln1, lr * nn);
        rc = rc ? rc : alloc(&ln2, lr * nn);
        rc = rc ? rc : alloc(&qkv, (size_t)L * 3 * nn);
        rc = rc ? rc : alloc(&atty, (size_t)L * nn);
        rc = rc ? rc : alloc(&res2, (size_t)L * nn);
        rc = rc ? rc : alloc(&res3, (size_t)L * nn);
        rc = rc ? rc : alloc(&fch, (size_t)L * bt * C4);
        rc = rc ? rc : alloc(&fchg, lr * bt * C4);
        rc = rc ? rc : alloc(&lnf, nn);
        rc = rc ? rc : alloc(&logits, bt * Vp);
        rc = rc ? rc : alloc(&tmp, nn);
        rc = rc ? rc : alloc(&dres, nn);
        rc = rc ? rc : alloc(&dsmall, nn);
        rc = rc ? rc : alloc(&d4, bt * C4);
        rc = rc ? rc : alloc(&ln1_mean, (size_t)L * bt);
        rc = rc ? rc : alloc(&ln1_rstd, (size_t)L * bt);
        rc = rc ? rc : alloc(&ln2_mean, (size_t)L * bt);
        rc = rc ? rc : alloc(&ln2_rstd, (size_t)L * bt);
        rc = rc ? rc : alloc(&lnf_mean, bt);
        rc = rc ? rc : alloc(&lnf_rstd, bt);
        rc = rc ? rc : alloc(&alse, (size_t)L * B * NH * Tn);
        rc = rc ? rc : alloc(&lse, bt);
        rc = rc ? rc : alloc(&losses, bt);
        if (!use_flash) {
            rc = rc ? rc : alloc(&as.s1, att);
            rc = rc ? rc : alloc(&as.s2, att);
        } else {
            as.s1 = as.s2 = NULL;
        }
        rc = rc ? rc : alloc(&as.dd, (size_t)B * NH * Tn);
        size_t wmax = (size_t)(Vp > 4 * C ? Vp : 4 * C);
        rc = rc ? rc : alloc(&mm.part, (size_t)COLSUM_CHUNKS * 2 * wmax);
        rc = rc ? rc : alloc(&d_inp, bt);
        rc = rc ? rc : alloc(&d_tg, bt);
        rc = rc ? rc : alloc(&d_grp, 3 * bt + 1);
        rc = rc ? rc : alloc(&d_norm, NORM_BLOCKS + 1);
        if (rc)
            return rc;
        h_inp.resize(bt);
        h_count.assign((size_t)V, 0);
        h_grp.resize(3 * bt + 1);
        h_losses.resize(bt);
        CUDA_CHECK(cudaMemset(grads, 0, np * 4));
        if (off) {
            upload_low(0, np);
            CUDA_CHECK(cudaStreamSynchronize(s2));
            return 0;
        }
        CUDA_CHECK(cudaMemcpy(params, m->params, np * 4, cudaMemcpyHostToDevice));
        if (m->adam_m)
            CUDA_CHECK(cudaMemcpy(adam_m, m->adam_m, np * 4, cudaMemcpyHostToDevice));
        else
            CUDA_CHECK(cudaMemset(adam_m, 0, np * 4));
        if (m->adam_v)
            CUDA_CHECK(cudaMemcpy(adam_v, m->adam_v, np * 4, cudaMemcpyHostToDevice));
        else
            CUDA_CHECK(cudaMemset(adam_v, 0, np * 4));
        if (sizeof(T) != 4)
            convert(plow, params, np, s);
        CUDA_CHECK(cudaStreamSynchronize(s));
        return 0;
    }

    /* Offload: the host master weights [lo, hi) to their 16-bit image (CPU threads),
     * then on to the GPU on the second stream. */
    void upload_low(size_t lo, size_t hi)
    {
        T *lw = (T *)lowp;
        const float *p = host->params;
#pragma omp parallel for schedule(static)
        for (size_t i = lo; i < hi; i++)
            lw[i] = (T)p[i];
        CUDA_CHECK(cudaMemcpyAsync(plow + lo, lw + lo, (hi - lo) * sizeof(T), cudaMemcpyHostToDevice, s2));
    }

    ~gpt_gpu()
    {
        cudaStreamSynchronize(s);
        if (off) {
            cudaStreamSynchronize(s2);
            cudaStreamDestroy(s2);
            cudaFreeHost(lowp);
            for (cudaEvent_t e : chunk_ev)
                cudaEventDestroy(e);
            float *hp[4] = {host->params, host->grads, host->adam_m, host->adam_v};
            for (float *q : hp)
                cudaHostUnregister(q);
            cudaGetLastError();
        }
        report();
        for (cudaEvent_t e : evs)
            cudaEventDestroy(e);
        for (void *p : allocs)
            cudaFree(p);
        cublasLtDestroy(mm.lt);
        cublasDestroy(mm.blas);
        cudaStreamDestroy(s);
    }

    float forward(const int32_t *inp, const int32_t *tg) override
    {
        size_t bt = BT(), nn = bt * C;
        memcpy(h_inp.data(), inp, bt * 4);
        CUDA_CHECK(cudaMemcpyAsync(d_inp, inp, bt * 4, cudaMemcpyHostToDevice, s));
        have_targets = tg != NULL;
        if (tg)
            CUDA_CHECK(cudaMemcpyAsync(d_tg, tg, bt * 4, cudaMemcpyHostToDevice, s));
        int N = (int)bt;
        mark("start");
        encoder_forward(encoded, d_inp, W(GPT_WTE), W(GPT_WPE), B, Tn, C, s);
        mark("encoder forward");
        layernorm_forward(LN1(0), ln1_mean, ln1_rstd, encoded, W(GPT_LN1W), W(GPT_LN1B), N, C, s);
        mark("layernorm forward");
        for (int l = 0; l < L; l++) {
            T *res = l ? res3 + (size_t)(l - 1) * nn : encoded;
            T *q = qkv + (size_t)l * 3 * nn, *y = atty + (size_t)l * nn, *r2 = res2 + (size_t)l * nn;
            T *r3 = res3 + (size_t)l * nn, *f = fch + (size_t)l * 4 * nn;
            size_t lC = (size_t)l * C;
            matmul_forward(&mm, q, LN1(l), W(GPT_QKVW) + lC * 3 * C, W(GPT_QKVB) + 3 * lC, N, C, 3 * C, (T *)NULL);
            mark("matmul forward qkv");
            attention_forward(&mm, y, alse + (size_t)l * B * NH * Tn, q, as, B, Tn, C, NH);
            matmul_forward(&mm, tmp, y, W(GPT_ATTPROJW) + lC * C, W(GPT_ATTPROJB) + lC, N, C, C, (T *)NULL);
            mark("matmul forward attproj");
            residual_layernorm_forward(r2, LN2(l), ln2_mean + (size_t)l * bt, ln2_rstd + (size_t)l * bt, res, tmp,
                                       W(GPT_LN2W) + lC, W(GPT_LN2B) + lC, N, C, s);
            mark("residual + layernorm forward");
            matmul_forward(&mm, FCG(l), LN2(l), W(GPT_FCW) + lC * 4 * C, W(GPT_FCB) + 4 * lC, N, C, 4 * C, f);
            mark("matmul forward fc (+gelu)");
            matmul_forward(&mm, tmp, FCG(l), W(GPT_FCPROJW) + lC * 4 * C, W(GPT_FCPROJB) + lC, N, 4 * C, C,
                           (T *)NULL);
            mark("matmul forward fcproj");
            if (l + 1 < L)
                residual_layernorm_forward(r3, LN1(l + 1), ln1_mean + (size_t)(l + 1) * bt,
                                           ln1_rstd + (size_t)(l + 1) * bt, r2, tmp, W(GPT_LN1W) + lC + C,
                                           W(GPT_LN1B) + lC + C, N, C, s);
            else
                residual_layernorm_forward(r3, lnf, lnf_mean, lnf_rstd, r2, tmp, W(GPT_LNFW), W(GPT_LNFB), N, C, s);
            mark("residual + layernorm forward");
        }
        matmul_forward(&mm, logits, lnf, W(GPT_WTE), (const T *)NULL, N, C, Vp, (T *)NULL);
        mark("matmul forward logits");
        crossentropy_forward(losses, lse, logits, tg ? d_tg : (const int *)NULL, N, V, Vp, s);
        mark("cross-entropy forward");
        collect();
        if (!tg) {
            CUDA_CHECK(cudaStreamSynchronize(s));
            return -1.0f;
        }
        CUDA_CHECK(cudaMemcpyAsync(h_losses.data(), losses, bt * 4, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        double tot = 0;
        for (size_t i = 0; i < bt; i++)
            tot += h_losses[i];
        return (float)(tot / (double)bt);
    }

    void backward(float loss_scale) override
    {
        size_t bt = BT(), nn = bt * C;
        int N = (int)bt;
        float *part = mm.part;
        mark("start");
        crossentropy_backward(logits, lse, d_tg, N, V, Vp, loss_scale / (float)bt, s);
        mark("cross-entropy backward");
        matmul_backward(&mm, dsmall, G(GPT_WTE), (float *)NULL, logits, lnf, W(GPT_WTE), N, C, Vp, (const T *)NULL);
        CUDA_CHECK(cudaMemsetAsync(dres, 0, nn * sizeof(T), s));
        layernorm_backward(dres, G(GPT_LNFW), G(GPT_LNFB), dsmall, res3 + (size_t)(L - 1) * nn, W(GPT_LNFW), lnf_mean,
                           lnf_rstd, N, C, part, s);
        mark("layernorm backward");
        for (int l = L - 1; l >= 0; l--) {
            T *res = l ? res3 + (size_t)(l - 1) * nn : encoded;
            T *q = qkv + (size_t)l * 3 * nn, *y = atty + (size_t)l * nn, *r2 = res2 + (size_t)l * nn;
            T *f = fch + (size_t)l * 4 * nn;
            size_t lC = (size_t)l * C, lb = (size_t)l * bt;
            if (rec) {
                layernorm_forward(LN2(l), ln2_mean + lb, ln2_rstd + lb, r2, W(GPT_LN2W) + lC, W(GPT_LN2B) + lC, N, C, s);
                gelu_forward(FCG(l), f, 4 * nn, s);
                mark("recompute");
            }
            matmul_backward(&mm, d4, G(GPT_FCPROJW) + lC * 4 * C, G(GPT_FCPROJB) + lC, dres, FCG(l),
                            W(GPT_FCPROJW) + lC * 4 * C, N, 4 * C, C, (const T *)f);
            matmul_backward(&mm, dsmall, G(GPT_FCW) + lC * 4 * C, G(GPT_FCB) + 4 * lC, d4, LN2(l),
                            W(GPT_FCW) + lC * 4 * C, N, C, 4 * C, (const T *)NULL);
            layernorm_backward(dres, G(GPT_LN2W) + lC, G(GPT_LN2B) + lC, dsmall, r2, W(GPT_LN2W) + lC, ln2_mean + lb,
                               ln2_rstd + lb, N, C, part, s);
            mark("layernorm backward");
            matmul_backward(&mm, dsmall, G(GPT_ATTPROJW) + lC * C, G(GPT_ATTPROJB) + lC, dres, y,
                            W(GPT_ATTPROJW) + lC * C, N, C, C, (const T *)NULL);
            attention_backward(&mm, d4, dsmall, y, q, alse + (size_t)l * B * NH * Tn, as, B, Tn, C, NH);
            if (rec) {
                layernorm_forward(LN1(l), ln1_mean + lb, ln1_rstd + lb, res, W(GPT_LN1W) + lC, W(GPT_LN1B) + lC, N, C,
                                  s);
                mark("recompute");
            }
            matmul_backward(&mm, dsmall, G(GPT_QKVW) + lC * 3 * C, G(GPT_QKVB) + 3 * lC, d4, LN1(l),
                            W(GPT_QKVW) + lC * 3 * C, N, C, 3 * C, (const T *)NULL);
            layernorm_backward(dres, G(GPT_LN1W) + lC, G(GPT_LN1B) + lC, dsmall, res, W(GPT_LN1W) + lC, ln1_mean + lb,
                               ln1_rstd + lb, N, C, part, s);
            mark("layernorm backward");
        }
        int *tok = h_grp.data(), *off = tok + bt, *pos = off + bt + 1;
        int nu = encoder_group(h_inp.data(), N, h_count.data(), tok, off, pos);
        /* the host buffer is reused by the next backward only after this copy completes */
        CUDA_CHECK(cudaMemcpyAsync(d_grp, h_grp.data(), (3 * bt + 1) * 4, cudaMemcpyHostToDevice, s));
        encoder_backward(G(GPT_WTE), G(GPT_WPE), dres, d_grp, d_grp + bt, d_grp + 2 * bt + 1, nu, B, Tn, C, s);
        mark("encoder backward");
        collect();
        CUDA_CHECK(cudaStreamSynchronize(s));
    }

    void zero_grad() override { CUDA_CHECK(cudaMemsetAsync(grads, 0, np * 4, s)); }

    double grad_norm() override
    {
        double r;
        mark("start");
        grad_sumsq(d_norm, grads, np, s);
        mark("gradient norm");
        collect();
        CUDA_CHECK(cudaMemcpyAsync(&r, d_norm + NORM_BLOCKS, sizeof r, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        return sqrt(r);
    }

    /* Offload: gradients come to the host in chunks; the CPU updates each chunk as it
     * lands (gpt_adamw_range, the CPU backend's own update) while the next ones are
     * in flight, and sends its 16-bit weights back on the second stream. */
    void step_offload(float gscale, float lr, float b1, float b2, float eps, float wd, int64_t t)
    {
        const size_t CH = (size_t)1 << 24;
        size_t nch = (np + CH - 1) / CH;
        while (chunk_ev.size() < nch) {
            cudaEvent_t e;
            CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
            chunk_ev.push_back(e);
        }
        mark("start");
        if (gscale != 1.0f)
            adamw_scale(grads, np, gscale);
        for (size_t k = 0; k < nch; k++) {
            size_t lo = k * CH, n = lo + CH < np ? CH : np - lo;
            CUDA_CHECK(cudaMemcpyAsync(host->grads + lo, grads + lo, n * 4, cudaMemcpyDeviceToHost, s));
            CUDA_CHECK(cudaEventRecord(chunk_ev[k], s));
        }
        for (size_t k = 0; k < nch; k++) {
            size_t lo = k * CH, hi = lo + CH < np ? lo + CH : np;
            CUDA_CHECK(cudaEventSynchronize(chunk_ev[k]));
            gpt_adamw_range(host, lo, hi, host->grads + lo, host->adam_m + lo, host->adam_v + lo, 1.0f, lr, b1, b2, eps,
                            wd, t);
            upload_low(lo, hi);
        }
        /* the next forward waits for the new weights */
        cudaEvent_t done = chunk_ev[0];
        CUDA_CHECK(cudaEventRecord(done, s2));
        CUDA_CHECK(cudaStreamWaitEvent(s, done, 0));
        mark("adamw (cpu offload)");
        collect();
        steps++;
    }
    void adamw_scale(float *g, size_t n, float f);

    void step(float gscale, float lr, float b1, float b2, float eps, float wd, int64_t t) override
    {
        if (off) {
            step_offload(gscale, lr, b1, b2, eps, wd, t);
            return;
        }
        float bc1 = 1.0f - powf(b1, (float)t), bc2 = 1.0f - powf(b2, (float)t);
        mark("start");
        for (int k = 0; k < GPT_NUM_TENSORS; k++) {
            int two_d = k == GPT_WTE || k == GPT_WPE || k == GPT_QKVW || k == GPT_ATTPROJW || k == GPT_FCW ||
                        k == GPT_FCPROJW;
            size_t o = offs[k];
            adamw(params + o, sizeof(T) == 4 ? (T *)NULL : plow + o, grads + o, adam_m + o, adam_v + o, sizes[k],
                  gscale, lr, b1, b2, eps, two_d ? wd : 0.0f, bc1, bc2, s);
        }
        mark("adamw");
        collect();
        steps++;
    }

    void download(gpt_model *m) override
    {
        CUDA_CHECK(cudaStreamSynchronize(s));
        if (off) {
            /* the master copy is the host model already */
            CUDA_CHECK(cudaStreamSynchronize(s2));
            if (m->params != host->params)
                memcpy(m->params, host->params, np * 4);
            if (m->adam_m && m->adam_m != host->adam_m)
                memcpy(m->adam_m, host->adam_m, np * 4);
            if (m->adam_v && m->adam_v != host->adam_v)
                memcpy(m->adam_v, host->adam_v, np * 4);
            if (m->grads)
                CUDA_CHECK(cudaMemcpy(m->grads, grads, np * 4, cudaMemcpyDeviceToHost));
            return;
        }
        CUDA_CHECK(cudaMemcpy(m->params, params, np * 4, cudaMemcpyDeviceToHost));
        if (m->adam_m)
            CUDA_CHECK(cudaMemcpy(m->adam_m, adam_m, np * 4, cudaMemcpyDeviceToHost));
        if (m->adam_v)
            CUDA_CHECK(cudaMemcpy(m->adam_v, adam_v, np * 4, cudaMemcpyDeviceToHost));
        if (m->grads)
            CUDA_CHECK(cudaMemcpy(m->grads, grads, np * 4, cudaMemcpyDeviceToHost));
    }

    void poison() override
    {
        float nanv = NAN;
        CUDA_CHECK(cudaMemcpyAsync(grads, &nanv, 4, cudaMemcpyHostToDevice, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
    }

    float *grad_buffer(size_t *n, void **stream) override
    {
        *n = np;
        *stream = (void *)s;
        return grads;
    }
    void logits_out(float *out) override
    {
        float *tmpf;
        size_t n = BT() * Vp;
        CUDA_CHECK(cudaMalloc(&tmpf, n * 4));
        convert(tmpf, logits, n, s);
        CUDA_CHECK(cudaMemcpyAsync(out, tmpf, n * 4, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        CUDA_CHECK(cudaFree(tmpf));
    }
};

__global__ void scale_kernel(float *g, size_t n, float f)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        g[i] *= f;
}
template <typename T> void gpt_gpu<T>::adamw_scale(float *g, size_t n, float f)
{
    scale_kernel<<<cdiv(n, 512), 512, 0, s>>>(g, n, f);
    CUDA_LAUNCHED();
}

extern "C" int gpt_cuda_create(gpt_cuda **g, const gpt_model *m, const gpt_cuda_opts *o)
{
    *g = NULL;
    if (cuda_device_count() < 1)
        return err_set(ERR_USAGE, "--device cuda: no CUDA GPU found");
    if (o->T % 8)
        return err_set(ERR_USAGE, "--device cuda: --seq-length %d: the CUDA backend needs a multiple of 8", o->T);
    if (m->tp > 1 || m->pp > 1)
        return err_set(ERR_USAGE, "--device cuda: tensor and pipeline parallelism are not in the CUDA backend yet");
    gpt_cuda *p;
    int rc;
    if (o->precision == GPT_CUDA_FP32) {
        auto *x = new gpt_gpu<float>();
        rc = x->init(m, o);
        p = x;
    } else if (o->precision == GPT_CUDA_BF16) {
        auto *x = new gpt_gpu<__nv_bfloat16>();
        rc = x->init(m, o);
        p = x;
    } else {
        auto *x = new gpt_gpu<__half>();
        rc = x->init(m, o);
        p = x;
    }
    if (rc) {
        delete p;
        return rc;
    }
    *g = p;
    return 0;
}

extern "C" void gpt_cuda_free(gpt_cuda *g) { delete g; }
extern "C" float gpt_cuda_forward(gpt_cuda *g, const int32_t *in, const int32_t *tg) { return g->forward(in, tg); }
extern "C" void gpt_cuda_backward(gpt_cuda *g, float ls) { g->backward(ls); }
extern "C" void gpt_cuda_zero_grad(gpt_cuda *g) { g->zero_grad(); }
extern "C" double gpt_cuda_grad_norm(gpt_cuda *g) { return g->grad_norm(); }
extern "C" void gpt_cuda_adamw(gpt_cuda *g, float gs, float lr, float b1, float b2, float eps, float wd, int64_t t)
{
    g->step(gs, lr, b1, b2, eps, wd, t);
}
extern "C" void gpt_cuda_download(gpt_cuda *g, gpt_model *m) { g->download(m); }
extern "C" void gpt_cuda_poison_grad(gpt_cuda *g) { g->poison(); }
extern "C" const char *gpt_cuda_attention(gpt_cuda *g) { return g->attn_desc.c_str(); }
extern "C" void gpt_cuda_logits(gpt_cuda *g, float *out) { g->logits_out(out); }
extern "C" float *gpt_cuda_grad_buffer(gpt_cuda *g, size_t *n, void **stream) { return g->grad_buffer(n, stream); }
extern "C" size_t gpt_cuda_memory(gpt_cuda *g, size_t *total)
{
    size_t fr = 0, tot = 0;
    cudaMemGetInfo(&fr, &tot);
    *total = tot;
#ifdef WEBTEXT_CUDNN
    if (g)
        return g->held + cudnn_attention_workspace();
#endif
    return g ? g->held : tot - fr;
}

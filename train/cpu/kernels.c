/* kernels.c - the CPU reference kernels of the GPT model (llm.c's names and
 * shapes; see kernels.h): OpenMP loops with static schedules and fixed-order
 * reductions, OpenBLAS sgemm for the matrix products. A CUDA backend implements
 * the same operations under the same names in train/cuda/, tested against these. */
#include "train/cpu/kernels.h"
#include "train/cpu/blas.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* OpenBLAS as Debian bookworm ships it (0.3.21) reserves about 128 MB of
 * address space per thread as it loads, and when an address-space limit
 * (ulimit -v, Slurm's --mem on some sites) refuses that, it retries forever
 * before main() runs (OpenMathLib/OpenBLAS#5289). This probe runs earlier
 * still (.preinit_array: before the initialiser of any shared library) and
 * turns that hang into the documented out-of-memory exit. Linked into every
 * program that calls OpenBLAS, since it lives in the file that does. */
static const char *preinit_getenv(char **envp, const char *name)
{ /* libc's environ is not set up yet this early */
    size_t n = strlen(name);
    for (; envp && *envp; envp++)
        if (!strncmp(*envp, name, n) && (*envp)[n] == '=') return *envp + n + 1;
    return NULL;
}

static void blas_preinit(int argc, char **argv, char **envp)
{
    (void)argc;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return;
    const char *e = preinit_getenv(envp, "OPENBLAS_NUM_THREADS");
    if (!e || atoi(e) < 1) e = preinit_getenv(envp, "OMP_NUM_THREADS");
    long t = e && atoi(e) > 0 ? atoi(e) : sysconf(_SC_NPROCESSORS_ONLN);
    if (t < 1) t = 1;
    if (t > 64) t = 64;
    const size_t sz = (size_t)136 << 20; /* OpenBLAS's BUFFER_SIZE plus its alignment slack */
    void *m[64];
    long n = 0;
    while (n < t && (m[n] = mmap(NULL, sz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)) != MAP_FAILED) n++;
    for (long i = 0; i < n; i++) munmap(m[i], sz);
    if (n == t) return;
    const char *name = argv && argv[0] ? strrchr(argv[0], '/') : NULL;
    name = name ? name + 1 : argv && argv[0] ? argv[0] : "train";
    dprintf(2, "%s: out of memory: the address-space limit (ulimit -v %llu MB) leaves no room for the %ld x 128 MB "
               "that OpenBLAS reserves as it loads (one per thread): raise the limit or lower OMP_NUM_THREADS\n",
            name, (unsigned long long)(rl.rlim_cur >> 20), t);
    _exit(4);
}
__attribute__((section(".preinit_array"), used)) static void (*const blas_preinit_entry)(int, char **, char **) = blas_preinit;
/* Every program that calls these kernels links blas.c, whose constructor gives
 * OpenBLAS the kernels this CPU can run (see blas.h). */
__attribute__((used)) static int (*const blas_fix_core_entry)(void) = blas_fix_core;

int cpu_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

static int thread_id(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}


void encoder_forward(float *out, const int32_t *inp, const float *wte, const float *wpe, int B, int T, int C)
{
#pragma omp parallel for schedule(static)
    for (int bt = 0; bt < B * T; bt++) {
        const float *e = wte + (size_t)inp[bt] * C, *p = wpe + (size_t)(bt % T) * C;
        float *o = out + (size_t)bt * C;
        for (int i = 0; i < C; i++)
            o[i] = e[i] + p[i];
    }
}

/* dwte rows [v0, v0 + Vl) are this rank's (all of them without tensor parallelism). */
void encoder_backward(float *dwte, float *dwpe, const float *dout, const int32_t *inp, int B, int T, int C,
                             size_t v0, size_t Vl)
{
    /* Several positions may hold the same token: accumulate in a fixed order,
     * parallel over channel blocks only. */
#pragma omp parallel for schedule(static)
    for (int c0 = 0; c0 < C; c0 += 64) {
        int c1 = c0 + 64 < C ? c0 + 64 : C;
        for (int bt = 0; bt < B * T; bt++) {
            const float *d = dout + (size_t)bt * C;
            float *p = dwpe + (size_t)(bt % T) * C;
            size_t row = (size_t)inp[bt] - v0; /* wraps when inp < v0 */
            float *w = row < Vl ? dwte + row * C : NULL;
            for (int i = c0; i < c1; i++) {
                if (w)
                    w[i] += d[i];
                p[i] += d[i];
            }
        }
    }
}

/* VocabParallelEmbedding's local part: the rows of tokens in [v0, v0 + Vl),
 * zero for the others (their owners supply them through the all-reduce). */
void encoder_forward_vp(float *out, const int32_t *inp, const float *wte, size_t v0, size_t Vl, int BT, int C)
{
#pragma omp parallel for schedule(static)
    for (int bt = 0; bt < BT; bt++) {
        size_t row = (size_t)inp[bt] - v0;
        float *o = out + (size_t)bt * C;
        if (row < Vl)
            memcpy(o, wte + row * C, (size_t)C * sizeof(float));
        else
            memset(o, 0, (size_t)C * sizeof(float));
    }
}

void layernorm_forward(float *out, float *mean, float *rstd, const float *inp, const float *w, const float *b,
                       int N, int C)
{
#pragma omp parallel for schedule(static)
    for (int n = 0; n < N; n++) {
        const float *x = inp + (size_t)n * C;
        float s = 0;
        for (int i = 0; i < C; i++)
            s += x[i];
        float mu = s / C, v = 0;
        for (int i = 0; i < C; i++)
            v += (x[i] - mu) * (x[i] - mu);
        float rs = 1.0f / sqrtf(v / C + 1e-5f);
        float *o = out + (size_t)n * C;
        for (int i = 0; i < C; i++)
            o[i] = (x[i] - mu) * rs * w[i] + b[i];
        mean[n] = mu;
        rstd[n] = rs;
    }
}

/* dinp += ...; dw, db += ... . part: per-thread scratch [threads][2C]. */
void layernorm_backward_part(float *dinp, float *dw, float *db, const float *dout, const float *inp,
                                    const float *w, const float *mean, const float *rstd, int N, int C, float *part)
{
    int nt = cpu_threads();
    memset(part, 0, (size_t)nt * 2 * C * sizeof(float));
#pragma omp parallel
    {
        float *pw = part + (size_t)thread_id() * 2 * C, *pb = pw + C;
#pragma omp for schedule(static)
        for (int n = 0; n < N; n++) {
            const float *x = inp + (size_t)n * C, *dy = dout + (size_t)n * C;
            float *dx = dinp + (size_t)n * C;
            float mu = mean[n], rs = rstd[n], dnorm_mean = 0, dnorm_norm_mean = 0;
            for (int i = 0; i < C; i++) {
                float norm = (x[i] - mu) * rs, dn = w[i] * dy[i];
                dnorm_mean += dn;
                dnorm_norm_mean += dn * norm;
            }
            dnorm_mean /= C;
            dnorm_norm_mean /= C;
            for (int i = 0; i < C; i++) {
                float norm = (x[i] - mu) * rs, dn = w[i] * dy[i];
                pb[i] += dy[i];
                pw[i] += norm * dy[i];
                dx[i] += (dn - dnorm_mean - norm * dnorm_norm_mean) * rs;
            }
        }
    }
    for (int t = 0; t < nt; t++)
        for (int i = 0; i < C; i++) {
            dw[i] += part[(size_t)t * 2 * C + i];
            db[i] += part[(size_t)t * 2 * C + C + i];
        }
}

void layernorm_backward(float *dinp, float *dw, float *db, const float *dout, const float *inp, const float *w,
                        const float *mean, const float *rstd, int N, int C)
{
    float *part = malloc((size_t)cpu_threads() * 2 * C * sizeof(float));
    if (!part)
        abort();
    layernorm_backward_part(dinp, dw, db, dout, inp, w, mean, rstd, N, C, part);
    free(part);
}

#define GELU_K 0.7978845608028654f /* sqrt(2/pi) */

static inline float tanh_approx(float u)
{
    /* tanh(u) = 1 - 2 / (exp(2u) + 1); exact enough for fp32 training, vectorisable. */
    u = u > 9.0f ? 9.0f : (u < -9.0f ? -9.0f : u);
    return 1.0f - 2.0f / (exp_approx(2.0f * u) + 1.0f);
}

void gelu_forward(float *out, const float *inp, size_t n)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        float x = inp[i];
        out[i] = 0.5f * x * (1.0f + tanh_approx(GELU_K * (x + 0.044715f * x * x * x)));
    }
}

void gelu_backward(float *dinp, const float *inp, const float *dout, size_t n)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        float x = inp[i];
        float t = tanh_approx(GELU_K * (x + 0.044715f * x * x * x));
        float sech2 = 1.0f - t * t;
        float g = 0.5f * (1.0f + t) + 0.5f * x * sech2 * GELU_K * (1.0f + 3.0f * 0.044715f * x * x);
        dinp[i] = g * dout[i];
    }
}

/* out[N, OC] (+)= inp[N, C] @ w[OC, C]^T + bias */
void matmul_forward(float *out, const float *inp, const float *w, const float *bias, int N, int C, int OC,
                    int accumulate)
{
    float beta = accumulate ? 1.0f : 0.0f;
    if (bias) {
#pragma omp parallel for schedule(static)
        for (int n = 0; n < N; n++) {
            float *o = out + (size_t)n * OC;
            if (accumulate)
                for (int i = 0; i < OC; i++)
                    o[i] += bias[i];
            else
                memcpy(o, bias, (size_t)OC * sizeof(float));
        }
        beta = 1.0f;
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, N, OC, C, 1.0f, inp, C, w, C, beta, out, OC);
}

/* dinp[N, C] (+)= dout @ w; dw[OC, C] += dout^T @ inp; dbias[OC] += column sums of dout. */
void matmul_backward(float *dinp, float *dw, float *dbias, const float *dout, const float *inp, const float *w,
                     int N, int C, int OC, int accumulate_dinp)
{
    if (dinp)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, C, OC, 1.0f, dout, OC, w, C,
                    accumulate_dinp ? 1.0f : 0.0f, dinp, C);
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, OC, C, N, 1.0f, dout, OC, inp, C, 1.0f, dw, C);
    if (dbias) {
#pragma omp parallel for schedule(static)
        for (int o0 = 0; o0 < OC; o0 += 64) {
            int o1 = o0 + 64 < OC ? o0 + 64 : OC;
            for (int n = 0; n < N; n++) {
                const float *d = dout + (size_t)n * OC;
                for (int o = o0; o < o1; o++)
                    dbias[o] += d[o];
            }
        }
    }
}

/* Causal self-attention. qkv [B, T, 3C] (q, k, v, each NH heads of hs),
 * out [B, T, C], att [B, NH, T, T] the softmax probabilities (zero above the
 * diagonal). One (b, h) per task, single-threaded BLAS inside. */
void attention_forward(float *out, float *att, const float *qkv, int B, int T, int C, int NH)
{
    int hs = C / NH, C3 = 3 * C;
    float scale = 1.0f / sqrtf((float)hs);
#pragma omp parallel for schedule(static) collapse(2)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < NH; h++) {
            const float *q = qkv + (size_t)b * T * C3 + h * hs, *k = q + C, *v = q + 2 * C;
            float *a = att + ((size_t)b * NH + h) * T * T;
            float *o = out + (size_t)b * T * C + h * hs;
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, T, T, hs, scale, q, C3, k, C3, 0.0f, a, T);
            for (int t = 0; t < T; t++) {
                float *row = a + (size_t)t * T, mx = -INFINITY, sum = 0;
                for (int j = 0; j <= t; j++)
                    mx = row[j] > mx ? row[j] : mx;
                for (int j = 0; j <= t; j++) {
                    row[j] = exp_approx(row[j] - mx);
                    sum += row[j];
                }
                float inv = 1.0f / sum;
                for (int j = 0; j <= t; j++)
                    row[j] *= inv;
                for (int j = t + 1; j < T; j++)
                    row[j] = 0.0f;
            }
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, T, hs, T, 1.0f, a, T, v, C3, 0.0f, o, C);
        }
}

/* dqkv [B, T, 3C] is overwritten. scratch: [threads, T, T]. */
void attention_backward(float *dqkv, float *scratch, const float *dout, const float *qkv, const float *att, int B,
                        int T, int C, int NH)
{
    int hs = C / NH, C3 = 3 * C;
    float scale = 1.0f / sqrtf((float)hs);
#pragma omp parallel for schedule(static) collapse(2)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < NH; h++) {
            const float *q = qkv + (size_t)b * T * C3 + h * hs, *k = q + C, *v = q + 2 * C;
            float *dq = dqkv + (size_t)b * T * C3 + h * hs, *dk = dq + C, *dv = dq + 2 * C;
            const float *a = att + ((size_t)b * NH + h) * T * T;
            const float *dy = dout + (size_t)b * T * C + h * hs;
            float *da = scratch + (size_t)thread_id() * T * T;
            /* dv = a^T dy; da = dy v^T */
            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, T, hs, T, 1.0f, a, T, dy, C, 0.0f, dv, C3);
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, T, T, hs, 1.0f, dy, C, v, C3, 0.0f, da, T);
            /* softmax backward, then the 1/sqrt(hs) of the scores */
            for (int t = 0; t < T; t++) {
                float *drow = da + (size_t)t * T;
                const float *arow = a + (size_t)t * T;
                float dot = 0;
                for (int j = 0; j <= t; j++)
                    dot += arow[j] * drow[j];
                for (int j = 0; j <= t; j++)
                    drow[j] = arow[j] * (drow[j] - dot) * scale;
                for (int j = t + 1; j < T; j++)
                    drow[j] = 0.0f;
            }
            /* dq = ds k; dk = ds^T q */
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, T, hs, T, 1.0f, da, T, k, C3, 0.0f, dq, C3);
            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, T, hs, T, 1.0f, da, T, q, C3, 0.0f, dk, C3);
        }
}

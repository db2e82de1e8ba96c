/* mhsig.c - see mhsig.h. */
#include "mhsig.h"
#include "common/fault.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utf8proc.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
#endif
/* XXH3 inlined here: the signature kernel hashes every shingle (8 bytes) and a call per
 * shingle cost 7 % of minhash; the values are those of common/hash.c's hash64. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/io.h"
#include "common/utf8.h"

static const char MAGIC[8] = {'W', 'T', 'M', 'H', 'S', 'I', 'G', 0};
static const char TMAGIC[8] = {'W', 'T', 'M', 'H', 'E', 'N', 'D', 0};
#define HDR 64
#define TRAILER 24

int mh_hasher_init(mh_hasher *h, const mh_params *p)
{
    h->p = *p;
    h->a = malloc(p->num_perm * sizeof *h->a);
    h->b = malloc(p->num_perm * sizeof *h->b);
    if (!h->a || !h->b) { mh_hasher_free(h); return err_set(ERR_NOMEM, "out of memory"); }
    rng_state r;
    rng_seed(&r, p->seed ^ 0x6d696e68617368ull);
    for (uint32_t k = 0; k < p->num_perm; k++) {
        h->a[k] = rng_next(&r) | 1;
        h->b[k] = rng_next(&r);
    }
    return 0;
}

void mh_hasher_free(mh_hasher *h)
{
    free(h->a);
    free(h->b);
    h->a = h->b = NULL;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static int reserve(uint64_t **out, size_t *cap, size_t n)
{
    if (n <= *cap) return 0;
    size_t nc = *cap ? *cap : 1024;
    while (nc < n) nc *= 2;
    uint64_t *p = realloc(*out, nc * sizeof *p);
    if (!p) return err_set(ERR_NOMEM, "out of memory");
    *out = p;
    *cap = nc;
    return 0;
}

static inline int is_ws_at(const unsigned char *s, size_t n, size_t i, size_t *k)
{
    uint32_t cp;
    int l = utf8_decode(s + i, n - i, &cp);
    *k = l < 0 ? 1 : (size_t)l;
    return l > 0 && utf8_is_white_space(cp);
}

/* LSD radix sort of v (8-bit digits; a digit every value shares is skipped: the top three bytes
 * of a character 5-gram); tmp holds n values. About 8x qsort's speed on a document's shingles. */
static void radix_u64(uint64_t *v, uint64_t *tmp, size_t n)
{
    uint32_t cnt[8][256];
    memset(cnt, 0, sizeof cnt);
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 8; d++) cnt[d][(v[i] >> (8 * d)) & 255]++;
    uint64_t *src = v, *dst = tmp;
    for (int d = 0; d < 8; d++) {
        if (cnt[d][(v[0] >> (8 * d)) & 255] == n) continue; /* one bucket: nothing moves */
        uint32_t pos = 0;
        for (int k = 0; k < 256; k++) {
            uint32_t c = cnt[d][k];
            cnt[d][k] = pos;
            pos += c;
        }
        for (size_t i = 0; i < n; i++) dst[cnt[d][(src[i] >> (8 * d)) & 255]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v) memcpy(v, src, n * sizeof *v);
}

long mh_shingles(const mh_params *p, const char *text, size_t n, uint64_t **out, size_t *cap)
{
    long m = mh_shingles_raw(p, text, n, out, cap);
    if (m <= 1) return m;
    if (m < 64 || (size_t)m > UINT32_MAX) {
        qsort(*out, (size_t)m, sizeof **out, cmp_u64);
    } else { /* the buffer's second half as the radix sort's scratch */
        if (reserve(out, cap, 2 * (size_t)m)) return ERR_NOMEM;
        radix_u64(*out, *out + m, (size_t)m);
    }
    size_t u = 1;
    for (long i = 1; i < m; i++)
        if ((*out)[i] != (*out)[u - 1]) (*out)[u++] = (*out)[i];
    return (long)u;
}

long mh_shingles_raw(const mh_params *p, const char *text, size_t n, uint64_t **out, size_t *cap)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t m = 0, g = p->ngram;
    if (n == 0) return 0;
    if (p->kind == MH_CHAR) {
        size_t cnt = n >= g ? n - g + 1 : 1;
        if (reserve(out, cap, cnt)) return ERR_NOMEM;
        if (n < g) (*out)[m++] = hash64(s, n, 0x73686f7274ull) | 1ull << 63; /* the whole text */
        else if (g <= 7) { /* the g bytes as a big-endian integer, rolled one byte at a time */
            uint64_t v = 0, mask = (1ull << (8 * g)) - 1;
            for (size_t k = 0; k + 1 < g; k++) v = (v << 8) | s[k];
            uint64_t *o = *out;
            for (size_t i = g - 1; i < n; i++) {
                v = ((v << 8) | s[i]) & mask;
                o[m++] = v;
            }
        } else {
            for (size_t i = 0; i + g <= n; i++) (*out)[m++] = hash64(s + i, g, 0);
        }
    } else {
        /* word n-grams: words split on White_Space */
        size_t *ws = NULL, *we = NULL, nw = 0, capw = 0;
        size_t i = 0;
        while (i < n) {
            size_t k;
            while (i < n && is_ws_at(s, n, i, &k)) i += k;
            if (i >= n) break;
            size_t st = i;
            while (i < n && !is_ws_at(s, n, i, &k)) i += k;
            if (nw == capw) {
                capw = capw ? capw * 2 : 256;
                size_t *a = realloc(ws, capw * sizeof *a), *b = a ? realloc(we, capw * sizeof *b) : NULL;
                if (a) ws = a;
                if (b) we = b;
                if (!a || !b) { free(ws); free(we); return err_set(ERR_NOMEM, "out of memory"); }
            }
            ws[nw] = st;
            we[nw++] = i;
        }
        size_t cnt = nw >= g ? nw - g + 1 : (nw ? 1 : 0);
        if (reserve(out, cap, cnt ? cnt : 1)) { free(ws); free(we); return ERR_NOMEM; }
        for (size_t w = 0; w < cnt; w++) {
            size_t last = nw >= g ? w + g - 1 : nw - 1;
            /* hash the words joined by one space, whatever the spaces were */
            uint64_t h = 0x9e3779b97f4a7c15ull;
            for (size_t q = w; q <= last; q++) h = hash_mix64(h ^ hash64(s + ws[q], we[q] - ws[q], q - w));
            (*out)[m++] = h;
        }
        free(ws);
        free(we);
    }
    return (long)m;
}

/* The signature kernel: shingles hashed once, in blocks of MH_BLOCK; for each
 * block, the K functions in chunks of MH_CHUNK whose minima stay in vector
 * registers over the whole block (a, b of the chunk too). Three builds, picked at
 * run time by the CPU's features (not its model: AMD's AVX-512 parts count), or by
 * WEBTEXT_MINHASH_KERNEL (avx512, avx2, baseline: tests and benchmarks of the lower
 * ones on a machine that has more):
 *   avx512    x86-64-v4: the 64-bit products and minima as written (vpmullq, vpminuq);
 *   avx2      AVX2 has neither, and the compiler's emulation of both was the slow
 *             default of AVX2 machines (most EPYC nodes before Zen 4); the high half
 *             of a x + b (mod 2^64) is hi32(alo xlo + blo) + ahi xlo + alo xhi + bhi
 *             (mod 2^32), and the minimum of the high halves is the high half of the
 *             minimum, so 32-bit lanes: two vpmuludq, two vpmulld, a vpminud;
 *   baseline  the chunked C (SSE2).
 * The values are those of the plain definition (mhsig.h), every build tested equal in
 * test_mhsig. */
#define MH_BLOCK 256
#define MH_CHUNK 32
#define MH_MAX_CHUNKED 1024 /* more functions than this: the plain loop */

static inline __attribute__((always_inline)) void sig_chunked(const mh_hasher *h, const uint64_t *sh, size_t n,
                                                              uint32_t *sig)
{
    uint32_t K = h->p.num_perm;
    const uint64_t *restrict a = h->a, *restrict b = h->b;
    /* hi32 is monotonic: the minimum of hi32(a x + b) is hi32 of the minimum of a x + b, so the
     * minima are kept as 64-bit values (a min instruction, no shift or pack per shingle) */
    uint64_t mm[MH_MAX_CHUNKED];
    for (uint32_t k = 0; k < K; k++) mm[k] = UINT64_MAX;
    uint64_t xs[MH_BLOCK];
    for (size_t i0 = 0; i0 < n; i0 += MH_BLOCK) {
        size_t bn = n - i0 < MH_BLOCK ? n - i0 : MH_BLOCK;
        for (size_t i = 0; i < bn; i++) xs[i] = XXH3_64bits_withSeed(&sh[i0 + i], 8, h->p.seed);
        uint32_t k0 = 0;
        for (; k0 + MH_CHUNK <= K; k0 += MH_CHUNK) {
            uint64_t ca[MH_CHUNK], cb[MH_CHUNK], m[MH_CHUNK];
            for (int j = 0; j < MH_CHUNK; j++) { ca[j] = a[k0 + j]; cb[j] = b[k0 + j]; m[j] = mm[k0 + j]; }
            for (size_t i = 0; i < bn; i++) {
                uint64_t x = xs[i];
                for (int j = 0; j < MH_CHUNK; j++) {
                    uint64_t v = ca[j] * x + cb[j];
                    m[j] = v < m[j] ? v : m[j];
                }
            }
            for (int j = 0; j < MH_CHUNK; j++) mm[k0 + j] = m[j];
        }
        for (size_t i = 0; i < bn; i++) /* K not a multiple of the chunk: the rest */
            for (uint32_t k = k0; k < K; k++) {
                uint64_t v = a[k] * xs[i] + b[k];
                mm[k] = v < mm[k] ? v : mm[k];
            }
    }
    for (uint32_t k = 0; k < K; k++) sig[k] = (uint32_t)(mm[k] >> 32);
}

#if defined(__x86_64__)
#ifdef __clang__ /* no optimize attribute; the fuzz build is -O1 anyway */
__attribute__((target("arch=x86-64-v4")))
#else
__attribute__((target("arch=x86-64-v4"), optimize("O3")))
#endif
static void sig_avx512(const mh_hasher *h, const uint64_t *sh, size_t n, uint32_t *sig)
{
    sig_chunked(h, sh, n, sig);
}

/* 8 functions a vector, four vectors at once; the functions past a multiple of 32 by the
 * same arithmetic in scalars. */
__attribute__((target("avx2")))
static void sig_avx2(const mh_hasher *h, const uint64_t *sh, size_t n, uint32_t *sig)
{
    uint32_t K = h->p.num_perm;
    uint32_t alo[MH_MAX_CHUNKED], ahi[MH_MAX_CHUNKED], blo[MH_MAX_CHUNKED], bhi[MH_MAX_CHUNKED], mm[MH_MAX_CHUNKED];
    for (uint32_t k = 0; k < K; k++) {
        alo[k] = (uint32_t)h->a[k];
        ahi[k] = (uint32_t)(h->a[k] >> 32);
        blo[k] = (uint32_t)h->b[k];
        bhi[k] = (uint32_t)(h->b[k] >> 32);
        mm[k] = UINT32_MAX;
    }
    const __m256i lo32 = _mm256_set1_epi64x(0xffffffffll);
    uint64_t xs[MH_BLOCK];
    for (size_t i0 = 0; i0 < n; i0 += MH_BLOCK) {
        size_t bn = n - i0 < MH_BLOCK ? n - i0 : MH_BLOCK;
        for (size_t i = 0; i < bn; i++) xs[i] = XXH3_64bits_withSeed(&sh[i0 + i], 8, h->p.seed);
        uint32_t k0 = 0;
        for (; k0 + 32 <= K; k0 += 32) {
            __m256i Al[4], Alo[4], Ah[4], Be[4], Bo[4], Bh[4], M[4];
            for (int g = 0; g < 4; g++) {
                Al[g] = _mm256_loadu_si256((const __m256i *)(alo + k0 + 8 * g));
                Alo[g] = _mm256_srli_epi64(Al[g], 32); /* the odd functions' alo, in 64-bit lanes */
                Ah[g] = _mm256_loadu_si256((const __m256i *)(ahi + k0 + 8 * g));
                __m256i B = _mm256_loadu_si256((const __m256i *)(blo + k0 + 8 * g));
                Be[g] = _mm256_and_si256(B, lo32);
                Bo[g] = _mm256_srli_epi64(B, 32);
                Bh[g] = _mm256_loadu_si256((const __m256i *)(bhi + k0 + 8 * g));
                M[g] = _mm256_loadu_si256((const __m256i *)(mm + k0 + 8 * g));
            }
            for (size_t i = 0; i < bn; i++) {
                __m256i Xl = _mm256_set1_epi32((int)(uint32_t)xs[i]), Xh = _mm256_set1_epi32((int)(uint32_t)(xs[i] >> 32));
                for (int g = 0; g < 4; g++) {
                    __m256i Pe = _mm256_add_epi64(_mm256_mul_epu32(Al[g], Xl), Be[g]);  /* even functions */
                    __m256i Po = _mm256_add_epi64(_mm256_mul_epu32(Alo[g], Xl), Bo[g]); /* odd functions */
                    __m256i Hi = _mm256_blend_epi32(_mm256_srli_epi64(Pe, 32), Po, 0xAA);
                    __m256i Q = _mm256_add_epi32(_mm256_mullo_epi32(Ah[g], Xl), _mm256_mullo_epi32(Al[g], Xh));
                    M[g] = _mm256_min_epu32(M[g], _mm256_add_epi32(Hi, _mm256_add_epi32(Q, Bh[g])));
                }
            }
            for (int g = 0; g < 4; g++) _mm256_storeu_si256((__m256i *)(mm + k0 + 8 * g), M[g]);
        }
        for (size_t i = 0; i < bn; i++) { /* the rest */
            uint32_t xl = (uint32_t)xs[i], xh = (uint32_t)(xs[i] >> 32);
            for (uint32_t k = k0; k < K; k++) {
                uint32_t v = (uint32_t)(((uint64_t)alo[k] * xl + blo[k]) >> 32) + ahi[k] * xl + alo[k] * xh + bhi[k];
                mm[k] = v < mm[k] ? v : mm[k];
            }
        }
    }
    memcpy(sig, mm, K * sizeof *sig);
}
#endif

#ifndef __clang__
__attribute__((optimize("O3")))
#endif
static void sig_baseline(const mh_hasher *h, const uint64_t *sh, size_t n, uint32_t *sig)
{
    sig_chunked(h, sh, n, sig);
}

typedef void (*sig_kernel)(const mh_hasher *, const uint64_t *, size_t, uint32_t *);
static sig_kernel g_kernel;
static const char *g_kernel_name;

int mh_set_kernel(const char *name)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    /* x86-64-v4's features, by name (clang 14 knows no level names here) */
    int v4 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("avx512cd"),
        avx2 = __builtin_cpu_supports("avx2");
#else
    int v4 = 0, avx2 = 0;
#endif
    if (!name || !*name)
        name = v4 ? "avx512" : avx2 ? "avx2" : "baseline";
    sig_kernel k = NULL;
#if defined(__x86_64__)
    if (!strcmp(name, "avx512") && v4)
        k = sig_avx512;
    else if (!strcmp(name, "avx2") && avx2)
        k = sig_avx2;
#endif
    if (!strcmp(name, "baseline"))
        k = sig_baseline;
    if (!k)
        return err_set(ERR_USAGE, "MinHash kernel %s: not one this CPU runs (avx512, avx2 or baseline)", name);
    g_kernel = k;
    g_kernel_name = !strcmp(name, "avx512") ? "avx512" : !strcmp(name, "avx2") ? "avx2" : "baseline";
    return 0;
}

const char *mh_kernel_name(void)
{
    if (!g_kernel && mh_set_kernel(getenv("WEBTEXT_MINHASH_KERNEL")))
        mh_set_kernel(NULL); /* a kernel the CPU lacks named in the environment: the best one */
    return g_kernel_name;
}

void mh_signature(const mh_hasher *h, const uint64_t *sh, size_t n, uint32_t *sig)
{
    if (h->p.scheme == MH_OPH) {
        mh_signature_oph(h, sh, n, sig);
        return;
    }
    uint32_t K = h->p.num_perm;
    if (K > MH_MAX_CHUNKED) {
        for (uint32_t k = 0; k < K; k++) sig[k] = UINT32_MAX;
        for (size_t i = 0; i < n; i++) {
            uint64_t x = XXH3_64bits_withSeed(&sh[i], 8, h->p.seed);
            for (uint32_t k = 0; k < K; k++) {
                uint32_t v = (uint32_t)((h->a[k] * x + h->b[k]) >> 32);
                sig[k] = v < sig[k] ? v : sig[k];
            }
        }
        return;
    }
    if (!g_kernel)
        mh_kernel_name();
    g_kernel(h, sh, n, sig);
}

void mh_signature_oph(const mh_hasher *h, const uint64_t *sh, size_t n, uint32_t *sig)
{
    uint32_t K = h->p.num_perm;
    uint8_t filled[4096];
    for (uint32_t k = 0; k < K; k++) {
        sig[k] = UINT32_MAX;
        filled[k] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t x = XXH3_64bits_withSeed(&sh[i], 8, h->p.seed);
        uint32_t bin = (uint32_t)(((x >> 32) * (uint64_t)K) >> 32), v = (uint32_t)x;
        filled[bin] = 1;
        sig[bin] = v < sig[bin] ? v : sig[bin];
    }
    if (!n)
        return;
    /* optimal densification: an empty bin takes the value of the first filled bin of its own
     * probe sequence (the same for every document, so equal bins stay equal) */
    uint32_t out[4096];
    for (uint32_t k = 0; k < K; k++) {
        out[k] = sig[k];
        if (filled[k])
            continue;
        for (uint64_t attempt = 1;; attempt++) {
            uint64_t z = h->p.seed ^ ((uint64_t)k << 32) ^ attempt * 0x9e3779b97f4a7c15ull;
            z = hash_mix64(z);
            uint32_t j = (uint32_t)(((z >> 32) * (uint64_t)K) >> 32);
            if (filled[j]) {
                out[k] = sig[j];
                break;
            }
        }
    }
    memcpy(sig, out, K * sizeof *sig);
}

uint64_t mh_exact_hash(const char *text, size_t n)
{
    /* case-fold and collapse white space, hashing as we go */
    char buf[4096];
    size_t o = 0, i = 0;
    int space = 0, started = 0;
    uint64_t h = 0x6578616374ull;
    const unsigned char *u = (const unsigned char *)text;
    while (i < n) {
#if defined(__SSE2__)
        /* sixteen bytes at once where they are what the loop below would copy one by one: ASCII
         * without 9-13, single spaces inside (none first after a space or before the first word,
         * none last), and no flush of buf among them (the flushes fall where they fell) */
        while (i + 16 <= n && o + 57 <= sizeof buf) {
            __m128i x = _mm_loadu_si128((const __m128i *)(u + i));
            __m128i sp = _mm_cmpeq_epi8(x, _mm_set1_epi8(' '));
            __m128i v9 = _mm_sub_epi8(x, _mm_set1_epi8(9));
            __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(v9, _mm_set1_epi8(4)), v9); /* 9..13 */
            unsigned bad = (unsigned)_mm_movemask_epi8(_mm_or_si128(x, ctl)); /* >= 0x80 or 9..13 */
            unsigned spaces = (unsigned)_mm_movemask_epi8(sp);
            if (bad || (spaces & (spaces >> 1)) || (spaces & 0x8000u) || ((spaces & 1u) && (space || !started)))
                break;
            __m128i vA = _mm_sub_epi8(x, _mm_set1_epi8('A'));
            __m128i up = _mm_cmpeq_epi8(_mm_min_epu8(vA, _mm_set1_epi8(25)), vA); /* A..Z */
            x = _mm_or_si128(x, _mm_and_si128(up, _mm_set1_epi8(0x20)));
            if (space) buf[o++] = ' ';
            _mm_storeu_si128((__m128i *)(buf + o), x);
            o += 16;
            i += 16;
            space = 0;
            started = 1;
        }
        if (i >= n) break;
#endif
        if (o + 40 > sizeof buf) { h = hash64(buf, o, h); o = 0; }
        unsigned char c = u[i];
        if (c < 0x80) { /* ASCII: its case folding is A-Z -> a-z, its White_Space 9-13 and 32 */
            i++;
            if (c == ' ' || (c >= 9 && c <= 13)) { space = started; continue; }
            if (space) buf[o++] = ' ';
            space = 0;
            started = 1;
            buf[o++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
            /* the rest of an ASCII word, without the checks above */
            /* as the loop above would: bytes go in while o + 40 <= sizeof buf before each */
            size_t lim = o + 39 < sizeof buf ? sizeof buf - 39 - o : 0;
            if (lim > n - i) lim = n - i;
            const unsigned char *q = u + i;
            size_t k = 0;
            /* eight bytes at a time while all are printable ASCII (0x21-0x7f): A-Z lowered */
            for (; k + 8 <= lim; k += 8) {
                uint64_t x;
                memcpy(&x, q + k, 8);
                const uint64_t hi = 0x8080808080808080ull, ones = 0x0101010101010101ull;
                if ((x & hi) || ((x - 0x21 * ones) & ~x & hi)) break; /* a byte >= 0x80 or <= 0x20 */
                uint64_t upper = (x + 0x3f * ones) & ~(x + 0x25 * ones) & hi; /* 0x41 <= byte <= 0x5a */
                x |= upper >> 2;
                memcpy(buf + o + k, &x, 8);
            }
            for (; k < lim; k++) {
                unsigned char d = q[k];
                if (d <= ' ' || d >= 0x80) break;
                buf[o + k] = (char)(d >= 'A' && d <= 'Z' ? d + 32 : d);
            }
            o += k;
            i += k;
            continue;
        }
        uint32_t cp;
        int l = utf8_decode(u + i, n - i, &cp);
        i += l < 0 ? 1 : (size_t)l;
        if (utf8_is_white_space(cp)) { space = started; continue; }
        utf8proc_int32_t folded[8];
        utf8proc_ssize_t nf = utf8proc_decompose_char((utf8proc_int32_t)cp, folded, 8, UTF8PROC_CASEFOLD, NULL);
        if (nf < 1 || nf > 8) { folded[0] = (utf8proc_int32_t)cp; nf = 1; }
        if (space) buf[o++] = ' ';
        space = 0;
        started = 1;
        for (utf8proc_ssize_t k = 0; k < nf; k++) o += (size_t)utf8_encode((uint32_t)folded[k], buf + o);
    }
    return hash64(buf, o, h);
}

double mh_jaccard(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, int denom)
{
    if (!na && !nb) return 1.0;
    size_t i = 0, j = 0, inter = 0;
    while (i < na && j < nb) { /* branch-free: the comparisons of random values mispredict */
        uint64_t x = a[i], y = b[j];
        inter += x == y;
        i += x <= y;
        j += y <= x;
    }
    size_t d = denom == MH_DENOM_MIN ? (na < nb ? na : nb) : denom == MH_DENOM_MAX ? (na > nb ? na : nb)
                                                                                    : na + nb - inter;
    return d ? (double)inter / (double)d : 0.0;
}

static double integrate(double (*f)(double, uint32_t, uint32_t), double lo, double hi, uint32_t b, uint32_t r)
{
    /* datasketch's _integration: left Riemann sum with step 0.001 */
    const double p = 0.001;
    double area = 0, x = lo;
    while (x < hi) {
        area += f(x + 0.5 * p, b, r) * p;
        x += p;
    }
    return area;
}
static double f_fp(double s, uint32_t b, uint32_t r) { return 1 - pow(1 - pow(s, r), b); }
static double f_fn(double s, uint32_t b, uint32_t r) { return 1 - (1 - pow(1 - pow(s, r), b)); }

void mh_optimal_bands(double threshold, uint32_t num_perm, double fp_weight, double fn_weight, uint32_t *bands,
                      uint32_t *rows)
{
    double best = INFINITY;
    *bands = 1;
    *rows = num_perm;
    for (uint32_t b = 1; b <= num_perm; b++)
        for (uint32_t r = 1; r <= num_perm / b; r++) {
            double e = fp_weight * integrate(f_fp, 0, threshold, b, r) + fn_weight * integrate(f_fn, threshold, 1, b, r);
            if (e < best) { best = e; *bands = b; *rows = r; }
        }
}

/* ---- files --------------------------------------------------------------- */

struct mh_writer {
    io_writer *w;
    mh_params p;
    uint64_t n, bytes;
};

int mh_writer_open(mh_writer **out, const char *path, const mh_params *p)
{
    mh_writer *m = calloc(1, sizeof *m);
    if (!m) return err_set(ERR_NOMEM, "out of memory");
    m->p = *p;
    io_writer_opts o = {.compress = 0};
    int rc = io_writer_open(&m->w, path, &o);
    if (rc) { free(m); return rc; }
    uint8_t h[HDR] = {0};
    uint32_t v[4] = {p->scheme == MH_OPH ? MHSIG_VERSION_OPH : MHSIG_VERSION, p->num_perm, p->kind, p->ngram};
    memcpy(h, MAGIC, 8);
    memcpy(h + 8, v, 16);
    memcpy(h + 24, &p->seed, 8);
    if (p->scheme == MH_OPH) memcpy(h + 32, &p->scheme, 4);
    rc = io_write(m->w, h, HDR);
    if (rc) { mh_writer_abort(m); return rc; }
    *out = m;
    return 0;
}

int mh_writer_add(mh_writer *m, const char *id, size_t id_len, const char *text, size_t text_len, uint64_t exact,
                  const uint32_t *sig)
{
    if (id_len > UINT32_MAX || text_len > UINT32_MAX) return err_set(ERR_LIMIT, "a document or id over 4 GB");
    uint32_t il = (uint32_t)id_len, tl = (uint32_t)text_len;
    int rc = io_write(m->w, &il, 4);
    if (!rc) rc = io_write(m->w, id, id_len);
    if (!rc) rc = io_write(m->w, &tl, 4);
    if (!rc) rc = io_write(m->w, text, text_len);
    if (!rc) rc = io_write(m->w, &exact, 8);
    if (!rc) rc = io_write(m->w, sig, m->p.num_perm * 4);
    m->n++;
    m->bytes += 16 + id_len + text_len + m->p.num_perm * 4;
    return rc;
}

int mh_writer_commit(mh_writer *m)
{
    uint8_t t[TRAILER];
    memcpy(t, TMAGIC, 8);
    memcpy(t + 8, &m->n, 8);
    memcpy(t + 16, &m->bytes, 8);
    int rc = io_write(m->w, t, TRAILER);
    if (rc) { mh_writer_abort(m); return rc; }
    rc = io_writer_commit(m->w);
    free(m);
    return rc;
}

void mh_writer_abort(mh_writer *m)
{
    if (!m) return;
    io_writer_abort(m->w);
    free(m);
}

void mh_file_close(mh_file *f)
{
    if (f->map) munmap((void *)f->map, f->size);
    free(f->rec);
    free(f->path);
    memset(f, 0, sizeof *f);
}

#define BAD(...) do { rc = err_set(ERR_FORMAT, __VA_ARGS__); goto fail; } while (0)

int mh_file_open(mh_file *f, const char *path, const mh_params *want)
{
    memset(f, 0, sizeof *f);
    int rc = 0;
    f->path = strdup(path);
    if (!f->path) return err_set(ERR_NOMEM, "out of memory");
    int fd = fault_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) {
        rc = err_sys(ERR_IO, "%s", path);
        free(f->path);
        f->path = NULL;
        return rc;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || st.st_size < HDR + TRAILER) {
        close(fd);
        free(f->path);
        return err_set(ERR_FORMAT, "%s: too short to be a signature file", path);
    }
    f->size = (size_t)st.st_size;
    void *m = fault_mmap(NULL, f->size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) { free(f->path); return err_sys(ERR_IO, "%s: mmap", path); }
    f->map = m;
    if (memcmp(f->map, MAGIC, 8) != 0) BAD("%s: not a minhash signature file (bad magic)", path);
    uint32_t v[4];
    memcpy(v, f->map + 8, 16);
    if (v[0] != MHSIG_VERSION && v[0] != MHSIG_VERSION_OPH)
        BAD("%s: signature file version %u, this build reads versions %u, %u and 3", path, v[0], MHSIG_VERSION,
            MHSIG_VERSION_OPH);
    f->p.num_perm = v[1];
    f->p.kind = v[2];
    f->p.ngram = v[3];
    memcpy(&f->p.seed, f->map + 24, 8);
    f->p.scheme = MH_CLASSIC;
    if (v[0] == MHSIG_VERSION_OPH) memcpy(&f->p.scheme, f->map + 32, 4);
    if (!f->p.num_perm || f->p.num_perm > 4096 || f->p.kind > 1 || !f->p.ngram || f->p.scheme > MH_OPH)
        BAD("%s: corrupt header", path);
    if (want && (want->num_perm != f->p.num_perm || want->kind != f->p.kind || want->ngram != f->p.ngram ||
                 want->seed != f->p.seed || want->scheme != f->p.scheme))
        BAD("%s: made with other parameters (%s, num_perm %u, %s %u-grams, seed %llu) than %s (%s, num_perm %u, %s "
            "%u-grams, seed %llu): signatures are not comparable", path, f->p.scheme ? "oph" : "minhash", f->p.num_perm,
            f->p.kind ? "word" : "char", f->p.ngram, (unsigned long long)f->p.seed, "the first file",
            want->scheme ? "oph" : "minhash", want->num_perm, want->kind ? "word" : "char", want->ngram,
            (unsigned long long)want->seed);
    const uint8_t *t = f->map + f->size - TRAILER;
    if (memcmp(t, TMAGIC, 8) != 0) BAD("%s: no end marker: the file is truncated or still being written", path);
    memcpy(&f->n_docs, t + 8, 8);
    if (f->n_docs > f->size) BAD("%s: corrupt trailer", path);
    f->rec = malloc((f->n_docs ? f->n_docs : 1) * sizeof *f->rec);
    if (!f->rec) { rc = err_set(ERR_NOMEM, "out of memory"); goto fail; }
    size_t off = HDR, end = f->size - TRAILER;
    for (uint64_t i = 0; i < f->n_docs; i++) {
        f->rec[i] = off;
        uint32_t l;
        if (off + 4 > end) BAD("%s: record %llu runs past the end", path, (unsigned long long)i);
        memcpy(&l, f->map + off, 4);
        off += 4 + (size_t)l;
        if (off + 4 > end) BAD("%s: record %llu runs past the end", path, (unsigned long long)i);
        memcpy(&l, f->map + off, 4);
        off += 4 + (size_t)l + 8 + 4 * (size_t)f->p.num_perm;
        if (off > end) BAD("%s: record %llu runs past the end", path, (unsigned long long)i);
    }
    if (off != end) BAD("%s: %zu bytes after the last of %llu records", path, end - off, (unsigned long long)f->n_docs);
    return 0;
fail:
    mh_file_close(f);
    return rc;
}

void mh_file_doc(const mh_file *f, uint64_t i, const char **id, uint32_t *id_len, const char **text, uint32_t *text_len,
                 uint64_t *exact, uint32_t *sig)
{
    size_t off = f->rec[i];
    uint32_t l;
    memcpy(&l, f->map + off, 4);
    if (id) *id = (const char *)f->map + off + 4;
    if (id_len) *id_len = l;
    off += 4 + l;
    memcpy(&l, f->map + off, 4);
    if (text) *text = (const char *)f->map + off + 4;
    if (text_len) *text_len = l;
    off += 4 + l;
    if (exact) memcpy(exact, f->map + off, 8);
    if (sig) memcpy(sig, f->map + off + 8, 4 * (size_t)f->p.num_perm);
}

/* test_mhsig.c - unit tests of dedup/mhsig: exact Jaccard with each denominator
 * (on sets and on the character 5-gram shingles of real strings), and the choice
 * of LSH bands and rows against datasketch's _optimal_param; the vectorised signature
 * kernel, the exact-duplicate hash's ASCII path and the rolling shingles against their
 * definitions. */
#include "common/err.h"
#include "common/hash.h"
#include "common/utf8.h"
#include "dedup/mhsig.h"
#include "tests/unit/check.h"

#include <math.h>
#include <stdlib.h>
#include <utf8proc.h>

static int near(double a, double b) { return fabs(a - b) < 1e-12; }

static void test_jaccard_sets(void)
{
    /* A = {1,2,3,4}, B = {3,4,5}: |A n B| = 2, |A u B| = 5, min 3, max 4. */
    uint64_t a[] = {1, 2, 3, 4}, b[] = {3, 4, 5};
    CHECK(near(mh_jaccard(a, 4, b, 3, MH_DENOM_UNION), 2.0 / 5));
    CHECK(near(mh_jaccard(a, 4, b, 3, MH_DENOM_MIN), 2.0 / 3));
    CHECK(near(mh_jaccard(a, 4, b, 3, MH_DENOM_MAX), 2.0 / 4));
    /* symmetric */
    for (int d = 0; d < 3; d++)
        CHECK(near(mh_jaccard(a, 4, b, 3, d), mh_jaccard(b, 3, a, 4, d)));
    /* a subset: union and max give |B|/|A|, min gives 1 */
    uint64_t c[] = {2, 3};
    CHECK(near(mh_jaccard(a, 4, c, 2, MH_DENOM_UNION), 0.5));
    CHECK(near(mh_jaccard(a, 4, c, 2, MH_DENOM_MIN), 1.0));
    CHECK(near(mh_jaccard(a, 4, c, 2, MH_DENOM_MAX), 0.5));
    /* disjoint, identical, empty */
    uint64_t e[] = {7, 8};
    for (int d = 0; d < 3; d++) {
        CHECK(near(mh_jaccard(a, 4, e, 2, d), 0.0));
        CHECK(near(mh_jaccard(a, 4, a, 4, d), 1.0));
        CHECK(near(mh_jaccard(NULL, 0, NULL, 0, d), 1.0));
        CHECK(near(mh_jaccard(a, 4, NULL, 0, d), 0.0));
    }
}

static double text_jaccard(const char *x, const char *y, int denom)
{
    mh_params p = {.num_perm = 16, .kind = MH_CHAR, .ngram = 5, .seed = 1};
    uint64_t *sa = NULL, *sb = NULL;
    size_t ca = 0, cb = 0;
    long na = mh_shingles(&p, x, strlen(x), &sa, &ca), nb = mh_shingles(&p, y, strlen(y), &sb, &cb);
    double j = na < 0 || nb < 0 ? -1 : mh_jaccard(sa, (size_t)na, sb, (size_t)nb, denom);
    free(sa);
    free(sb);
    return j;
}

static void test_jaccard_shingles(void)
{
    /* "abcdefgh": abcde bcdef cdefg defgh (the last 5-gram included: FORMATS.md section 6);
     * "bcdefgx": bcdef cdefg defgx. Shared 2, union 5, sizes 4 and 3. */
    CHECK(near(text_jaccard("abcdefgh", "bcdefgx", MH_DENOM_UNION), 2.0 / 5));
    CHECK(near(text_jaccard("abcdefgh", "bcdefgx", MH_DENOM_MIN), 2.0 / 3));
    CHECK(near(text_jaccard("abcdefgh", "bcdefgx", MH_DENOM_MAX), 2.0 / 4));
    /* repeated shingles count once: "aaaaaaaa" is the set {aaaaa} */
    CHECK(near(text_jaccard("aaaaaaaa", "aaaaa", MH_DENOM_UNION), 1.0));
    /* a text shorter than n is one shingle, the whole text */
    CHECK(near(text_jaccard("abc", "abc", MH_DENOM_UNION), 1.0));
    CHECK(near(text_jaccard("abc", "abd", MH_DENOM_UNION), 0.0));
    /* bytes, not characters: "éabcd" is 6 bytes, two 5-grams, the first of which is the whole
     * of "éabc" (5 bytes); over characters they would share nothing */
    CHECK(near(text_jaccard("\xc3\xa9" "abcd", "\xc3\xa9" "abc", MH_DENOM_UNION), 0.5));
    CHECK(near(text_jaccard("\xc3\xa9" "abcd", "\xc3\xa9" "abc", MH_DENOM_MIN), 1.0));
}

/* (threshold, num_perm, fp weight, fn weight) -> (bands, rows), from datasketch 2.0.0:
 *   from datasketch.lsh import _optimal_param; _optimal_param(t, n, fpw, fnw)
 * datasketch integrates with scipy's quad; mhsig with a 0.001-step midpoint sum (datasketch's
 * earlier rule). The choices agree on every case here. */
static const struct { double t; int n; double fpw, fnw; int b, r; } bands_golden[] = {
    {0.5, 32, 0.5, 0.5, 8, 4},
    {0.5, 32, 0.05, 0.95, 13, 2},
    {0.7, 32, 0.5, 0.5, 5, 6},
    {0.7, 32, 0.05, 0.95, 8, 4},
    {0.8, 32, 0.5, 0.5, 3, 10},
    {0.8, 32, 0.05, 0.95, 6, 5},
    {0.9, 32, 0.5, 0.5, 2, 16},
    {0.9, 32, 0.05, 0.95, 4, 8},
    {0.95, 32, 0.5, 0.5, 1, 32},
    {0.95, 32, 0.05, 0.95, 3, 10},
    {0.5, 64, 0.5, 0.5, 14, 4},
    {0.5, 64, 0.05, 0.95, 21, 3},
    {0.7, 64, 0.5, 0.5, 8, 8},
    {0.7, 64, 0.05, 0.95, 12, 5},
    {0.8, 64, 0.5, 0.5, 5, 11},
    {0.8, 64, 0.05, 0.95, 10, 6},
    {0.9, 64, 0.5, 0.5, 3, 21},
    {0.9, 64, 0.05, 0.95, 6, 10},
    {0.95, 64, 0.5, 0.5, 2, 32},
    {0.95, 64, 0.05, 0.95, 4, 16},
    {0.5, 100, 0.5, 0.5, 20, 5},
    {0.5, 100, 0.05, 0.95, 26, 3},
    {0.7, 100, 0.5, 0.5, 11, 9},
    {0.7, 100, 0.05, 0.95, 18, 5},
    {0.8, 100, 0.5, 0.5, 8, 12},
    {0.8, 100, 0.05, 0.95, 13, 7},
    {0.9, 100, 0.5, 0.5, 4, 23},
    {0.9, 100, 0.05, 0.95, 8, 12},
    {0.95, 100, 0.5, 0.5, 3, 33},
    {0.95, 100, 0.05, 0.95, 5, 20},
    {0.5, 128, 0.5, 0.5, 25, 5},
    {0.5, 128, 0.05, 0.95, 26, 3},
    {0.7, 128, 0.5, 0.5, 14, 9},
    {0.7, 128, 0.05, 0.95, 21, 6},
    {0.8, 128, 0.5, 0.5, 9, 13},
    {0.8, 128, 0.05, 0.95, 16, 8},
    {0.9, 128, 0.5, 0.5, 5, 25},
    {0.9, 128, 0.05, 0.95, 9, 14},
    {0.95, 128, 0.5, 0.5, 3, 42},
    {0.95, 128, 0.05, 0.95, 6, 21},
    {0.5, 256, 0.5, 0.5, 42, 6},
    {0.5, 256, 0.05, 0.95, 53, 4},
    {0.7, 256, 0.5, 0.5, 25, 10},
    {0.7, 256, 0.05, 0.95, 36, 7},
    {0.8, 256, 0.5, 0.5, 17, 15},
    {0.8, 256, 0.05, 0.95, 25, 10},
    {0.9, 256, 0.5, 0.5, 9, 28},
    {0.9, 256, 0.05, 0.95, 15, 17},
    {0.95, 256, 0.5, 0.5, 5, 51},
    {0.95, 256, 0.05, 0.95, 9, 28},
};

static void test_optimal_bands(void)
{
    for (size_t i = 0; i < sizeof bands_golden / sizeof *bands_golden; i++) {
        uint32_t b, r;
        mh_optimal_bands(bands_golden[i].t, (uint32_t)bands_golden[i].n, bands_golden[i].fpw, bands_golden[i].fnw, &b, &r);
        if ((int)b != bands_golden[i].b || (int)r != bands_golden[i].r) {
            printf("  threshold %g, %d permutations, weights %g/%g: %u x %u, datasketch %d x %d\n", bands_golden[i].t,
                   bands_golden[i].n, bands_golden[i].fpw, bands_golden[i].fnw, b, r, bands_golden[i].b,
                   bands_golden[i].r);
            CHECK(0);
        }
        CHECK(b * r <= (uint32_t)bands_golden[i].n);
    }
}


/* The vectorised kernel (mhsig.c: blocks of shingles, chunks of functions, 64-bit minima;
 * the AVX-512, AVX2 or baseline clone this CPU picks) against the definition in mhsig.h,
 * for shingle counts around the block size and function counts around the chunk size,
 * including more than the chunked path takes. */
static void signature_reference(void);

/* Every kernel this CPU runs (avx512, avx2, baseline) gives the definition's values. */
static void test_signature_reference(void)
{
    static const char *const kernels[] = {"avx512", "avx2", "baseline"};
    int ran = 0;
    for (int i = 0; i < 3; i++) {
        if (mh_set_kernel(kernels[i]) != 0)
            continue; /* not on this CPU */
        CHECK_EQ_STR(mh_kernel_name(), kernels[i]);
        signature_reference();
        ran++;
    }
    CHECK(ran >= 1);
    CHECK_EQ_INT(mh_set_kernel("sse9"), ERR_USAGE);
    CHECK_EQ_INT(mh_set_kernel(NULL), 0);
}

static void signature_reference(void)
{
    static const size_t ns[] = {0, 1, 2, 255, 256, 257, 1000, 4099};
    static const uint32_t ks[] = {1, 7, 31, 32, 33, 128, 200, 1025};
    uint64_t *sh = malloc(4099 * sizeof *sh);
    uint32_t *sig = malloc(1025 * 4), *ref = malloc(1025 * 4);
    rng_state r;
    rng_seed(&r, 42);
    for (size_t i = 0; i < 4099; i++) sh[i] = rng_next(&r) >> (i % 3 ? 24 : 0);
    for (size_t a = 0; a < sizeof ks / sizeof *ks; a++) {
        mh_params p = {ks[a], MH_CHAR, 5, 1 + a, MH_CLASSIC};
        mh_hasher h;
        CHECK_EQ_INT(mh_hasher_init(&h, &p), 0);
        for (size_t b = 0; b < sizeof ns / sizeof *ns; b++) {
            size_t n = ns[b];
            for (uint32_t k = 0; k < p.num_perm; k++) ref[k] = UINT32_MAX;
            for (size_t i = 0; i < n; i++) {
                uint64_t x = hash64(&sh[i], 8, p.seed);
                for (uint32_t k = 0; k < p.num_perm; k++) {
                    uint32_t v = (uint32_t)((h.a[k] * x + h.b[k]) >> 32);
                    if (v < ref[k]) ref[k] = v;
                }
            }
            mh_signature(&h, sh, n, sig);
            if (memcmp(sig, ref, p.num_perm * 4)) {
                printf("  K %u, %zu shingles, kernel %s: signature differs from the definition\n", p.num_perm, n,
                       mh_kernel_name());
                CHECK(0);
            }
        }
        mh_hasher_free(&h);
    }
    free(sh);
    free(sig);
    free(ref);
}

/* The exact-duplicate hash's ASCII fast path against the code-point-at-a-time definition
 * (case folding by utf8proc, White_Space collapsed), on texts that cross its 4 KiB chunks. */
static uint64_t exact_reference(const char *text, size_t n)
{
    char buf[4096];
    size_t o = 0, i = 0;
    int space = 0, started = 0;
    uint64_t h = 0x6578616374ull;
    while (i < n) {
        uint32_t cp;
        int l = utf8_decode((const unsigned char *)text + i, n - i, &cp);
        i += l < 0 ? 1 : (size_t)l;
        if (utf8_is_white_space(cp)) { space = started; continue; }
        utf8proc_int32_t folded[8];
        utf8proc_ssize_t nf = utf8proc_decompose_char((utf8proc_int32_t)cp, folded, 8, UTF8PROC_CASEFOLD, NULL);
        if (nf < 1 || nf > 8) { folded[0] = (utf8proc_int32_t)cp; nf = 1; }
        if (o + 40 > sizeof buf) { h = hash64(buf, o, h); o = 0; }
        if (space) buf[o++] = ' ';
        space = 0;
        started = 1;
        for (utf8proc_ssize_t k = 0; k < nf; k++) o += (size_t)utf8_encode((uint32_t)folded[k], buf + o);
    }
    return hash64(buf, o, h);
}

static void test_exact_hash_reference(void)
{
    static const char *const pieces[] = {"The ", "QUICK", " brown\t\n", "fox ", "Stra\xc3\x9f" "e ", "\xce\xa3\xce\xbf\xcf\x86",
                                         "  ", "\xe2\x80\x83", "x", "\x01", "\xff", "Zebra-Crossing.", "\xc3\x89T\xc3\x89 "};
    size_t np = sizeof pieces / sizeof *pieces;
    rng_state r;
    rng_seed(&r, 7);
    char *t = malloc(20000);
    for (int round = 0; round < 200; round++) {
        size_t n = 0, want = rng_below(&r, 12000);
        while (n < want) {
            const char *p = pieces[rng_below(&r, np)];
            size_t l = strlen(p);
            if (n + l >= 20000) break;
            memcpy(t + n, p, l);
            n += l;
        }
        if (mh_exact_hash(t, n) != exact_reference(t, n)) {
            printf("  round %d (%zu bytes): exact hash differs from the definition\n", round, n);
            CHECK(0);
            break;
        }
    }
    /* mostly ASCII words and single spaces: the sixteen-byte path, its edges (a space first or last
     * in a block, two spaces, a tab, a byte past 0x7f) and the 4 KiB flushes */
    static const char *const ascii[] = {"word ", "Words ", "a ", "THE ", "end.", " ", "  ", "\t", "x", "longerword ",
                                        "Mixed-Case, ", "\xc3\xa9 ", "\n"};
    size_t na = sizeof ascii / sizeof *ascii;
    for (int round = 0; round < 400; round++) {
        size_t n = 0, want = rng_below(&r, 12000);
        while (n < want) {
            const char *p = ascii[rng_below(&r, 20) < 15 ? rng_below(&r, 5) : rng_below(&r, na)];
            size_t l = strlen(p);
            if (n + l >= 20000) break;
            memcpy(t + n, p, l);
            n += l;
        }
        if (mh_exact_hash(t, n) != exact_reference(t, n)) {
            printf("  ascii round %d (%zu bytes): exact hash differs from the definition\n", round, n);
            CHECK(0);
            break;
        }
    }
    CHECK(mh_exact_hash("Hello  World", 12) == mh_exact_hash(" hello world\n", 13));
    free(t);
}

/* Rolling character shingles against the n-gram definition. */
static void test_shingles_reference(void)
{
    const char *t = "abcdefghij klmnop";
    for (uint32_t g = 1; g <= 7; g++) {
        mh_params p = {8, MH_CHAR, g, 1, MH_CLASSIC};
        uint64_t *out = NULL;
        size_t cap = 0;
        long m = mh_shingles_raw(&p, t, strlen(t), &out, &cap);
        CHECK_EQ_INT(m, (long)(strlen(t) - g + 1));
        for (long i = 0; i < m; i++) {
            uint64_t v = 0;
            for (uint32_t k = 0; k < g; k++) v = v << 8 | (unsigned char)t[i + k];
            if (out[i] != v) { CHECK(0); break; }
        }
        free(out);
    }
}


/* One permutation hashing with optimal densification against the classic K functions: on
 * pairs of sets with a known Jaccard similarity (sizes below, near and above K = 128), the
 * mean estimate over 400 seeds is the true value within 0.01 (about four standard errors)
 * for both, and OPH's spread is no more than a quarter above the classic one's. */
static void test_oph_estimator(void)
{
    static const size_t sizes[] = {20, 100, 1000};
    static const double js[] = {0.5, 0.8};
    uint64_t *a = malloc(2000 * sizeof *a), *b = malloc(2000 * sizeof *b);
    uint32_t sa[128], sb[128];
    for (size_t si = 0; si < 3; si++)
        for (size_t ji = 0; ji < 2; ji++) {
            size_t n = sizes[si];
            /* |A| = |B| = n sharing c: J = c / (2n - c) */
            size_t c = (size_t)(2.0 * n * js[ji] / (1.0 + js[ji]) + 0.5);
            double J = (double)c / (double)(2 * n - c);
            double sum[2] = {0}, sq[2] = {0};
            const int trials = 400;
            for (int t = 0; t < trials; t++) {
                rng_state r;
                rng_seed(&r, 1000 + (uint64_t)t * 7919 + n);
                for (size_t i = 0; i < n; i++) a[i] = rng_next(&r);
                for (size_t i = 0; i < n; i++) b[i] = i < c ? a[i] : rng_next(&r);
                for (int scheme = 0; scheme < 2; scheme++) {
                    mh_params p = {128, MH_CHAR, 5, (uint64_t)t + 1, (uint32_t)scheme};
                    mh_hasher h;
                    mh_hasher_init(&h, &p);
                    mh_signature(&h, a, n, sa);
                    mh_signature(&h, b, n, sb);
                    mh_hasher_free(&h);
                    int eq = 0;
                    for (int k = 0; k < 128; k++) eq += sa[k] == sb[k];
                    double e = eq / 128.0 - J;
                    sum[scheme] += e;
                    sq[scheme] += e * e;
                }
            }
            double mean[2], sd[2];
            for (int q = 0; q < 2; q++) {
                mean[q] = sum[q] / trials;
                sd[q] = sqrt(sq[q] / trials - mean[q] * mean[q]);
            }
            printf("  n %4zu, J %.3f: bias minhash %+.4f oph %+.4f; spread minhash %.4f oph %.4f\n", n, J, mean[0],
                   mean[1], sd[0], sd[1]);
            CHECK(fabs(mean[0]) < 0.01);
            CHECK(fabs(mean[1]) < 0.01);
            CHECK(sd[1] <= 1.25 * sd[0] + 0.005);
        }
    free(a);
    free(b);
}

int main(void)
{
    RUN(test_jaccard_sets);
    RUN(test_jaccard_shingles);
    RUN(test_optimal_bands);
    RUN(test_signature_reference);
    RUN(test_exact_hash_reference);
    RUN(test_shingles_reference);
    RUN(test_oph_estimator);
    return check_total_failed ? 1 : 0;
}

/* test_mhsig.c - unit tests of dedup/mhsig: exact Jaccard with each denominator
 * (on sets and on the character 5-gram shingles of real strings), and the choice
 * of LSH bands and rows against datasketch's _optimal_param. */
#include "common/err.h"
#include "dedup/mhsig.h"
#include "tests/unit/check.h"

#include <math.h>
#include <stdlib.h>

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

int main(void)
{
    RUN(test_jaccard_sets);
    RUN(test_jaccard_shingles);
    RUN(test_optimal_bands);
    return check_total_failed ? 1 : 0;
}

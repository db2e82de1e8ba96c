/* test_blas.c - the BLAS kernel choice (train/cpu/blas.c): the decision table,
 * and the real re-initialisation of OpenBLAS after it fell back to Prescott. */
#include "tests/unit/check.h"
#include "train/cpu/blas.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>

extern char *openblas_get_corename(void) __attribute__((weak));
extern void gotoblas_dynamic_init(void) __attribute__((weak));
extern void gotoblas_dynamic_quit(void) __attribute__((weak));

static void test_levels(void)
{
    CHECK_EQ_INT(blas_core_level("Prescott"), BLAS_LEVEL_SSE);
    CHECK_EQ_INT(blas_core_level("prescott"), BLAS_LEVEL_SSE);
    CHECK_EQ_INT(blas_core_level("Nehalem"), BLAS_LEVEL_SSE);
    CHECK_EQ_INT(blas_core_level("Sandybridge"), BLAS_LEVEL_AVX);
    CHECK_EQ_INT(blas_core_level("Haswell"), BLAS_LEVEL_AVX2);
    CHECK_EQ_INT(blas_core_level("Zen"), BLAS_LEVEL_AVX2);
    CHECK_EQ_INT(blas_core_level("SkylakeX"), BLAS_LEVEL_AVX512);
    CHECK_EQ_INT(blas_core_level("Cooperlake"), BLAS_LEVEL_AVX512);
    CHECK_EQ_INT(blas_core_level("Armv8"), BLAS_LEVEL_UNKNOWN);
    CHECK_EQ_INT(blas_core_level(NULL), BLAS_LEVEL_UNKNOWN);
}

static void test_decision(void)
{
    /* the machine: an AVX-512 Xeon that OpenBLAS 0.3.21 took for a Prescott */
    CHECK_EQ_STR(blas_core_for("Prescott", BLAS_LEVEL_AVX512, 0), "SkylakeX");
    CHECK_EQ_STR(blas_core_for("Haswell", BLAS_LEVEL_AVX512, 0), "SkylakeX");
    CHECK_EQ_STR(blas_core_for("Zen", BLAS_LEVEL_AVX512, 1), "SkylakeX"); /* Zen 4 */
    CHECK_EQ_STR(blas_core_for("Prescott", BLAS_LEVEL_AVX2, 0), "Haswell");
    CHECK_EQ_STR(blas_core_for("Prescott", BLAS_LEVEL_AVX2, 1), "Zen");
    CHECK_EQ_STR(blas_core_for("Core2", BLAS_LEVEL_AVX, 0), "Sandybridge");
    /* already as wide as the CPU, or wider: left alone */
    CHECK(blas_core_for("Zen", BLAS_LEVEL_AVX2, 1) == NULL);
    CHECK(blas_core_for("Haswell", BLAS_LEVEL_AVX2, 1) == NULL);
    CHECK(blas_core_for("SkylakeX", BLAS_LEVEL_AVX512, 0) == NULL);
    CHECK(blas_core_for("SkylakeX", BLAS_LEVEL_AVX2, 0) == NULL);
    CHECK(blas_core_for("Prescott", BLAS_LEVEL_SSE, 0) == NULL);
    /* a core we do not know (another architecture, a newer library): left alone */
    CHECK(blas_core_for("NeoverseN1", BLAS_LEVEL_AVX512, 0) == NULL);
    CHECK(blas_core_for("Prescott", BLAS_LEVEL_UNKNOWN, 0) == NULL);
}

/* C = A B^T for a small case, checked against a plain loop. */
static int sgemm_ok(void)
{
    enum { M = 37, N = 29, K = 53 };
    static float a[M * K], b[N * K], c[M * N];
    for (int i = 0; i < M * K; i++)
        a[i] = (float)((i * 7919) % 97) / 97.0f - 0.5f;
    for (int i = 0; i < N * K; i++)
        b[i] = (float)((i * 104729) % 89) / 89.0f - 0.5f;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, K, 1.0f, a, K, b, K, 0.0f, c, N);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += (double)a[i * K + k] * b[j * K + k];
            if (fabs(s - c[i * N + j]) > 1e-4)
                return 0;
        }
    return 1;
}

/* What a CPU newer than the library sees: OpenBLAS running its Prescott
 * kernels. Put it there for real (as OPENBLAS_CORETYPE would at load), then let
 * blas_fix_core choose again, as its constructor does before main(). */
static void test_fix_after_fallback(void)
{
    if (!openblas_get_corename || !gotoblas_dynamic_init || !gotoblas_dynamic_quit) {
        printf("SKIP test_fix_after_fallback: not a DYNAMIC_ARCH OpenBLAS\n");
        return;
    }
    int amd = 0, cpu = blas_cpu_level(&amd);
    const char *at_start = openblas_get_corename();
    char desc[320];
    blas_describe(desc, sizeof desc, NULL);
    printf("  cpu level %d (%s), library at start: %s\n", cpu, amd ? "AMD" : "not AMD", desc);
    /* after the constructor, the kernels are at least as wide as the CPU's (when known),
     * unless OPENBLAS_CORETYPE in the environment asked for others (obeyed, with a note) */
    const char *forced = getenv("OPENBLAS_CORETYPE");
    if (forced && *forced)
        printf("  OPENBLAS_CORETYPE=%s is set: the kernels at start are the ones it asks for\n", forced);
    else if (cpu >= BLAS_LEVEL_AVX)
        CHECK(blas_core_level(at_start) >= cpu || blas_core_level(at_start) == BLAS_LEVEL_UNKNOWN);
    setenv("OPENBLAS_CORETYPE", "Prescott", 1);
    gotoblas_dynamic_quit();
    gotoblas_dynamic_init();
    unsetenv("OPENBLAS_CORETYPE");
    CHECK_EQ_STR(openblas_get_corename(), "Prescott");
    CHECK(sgemm_ok());
    int changed = blas_fix_core();
    const char *want = blas_core_for("Prescott", cpu, amd);
    if (want) {
        CHECK_EQ_INT(changed, 1);
        CHECK_EQ_STR(openblas_get_corename(), want);
        blas_describe(desc, sizeof desc, NULL);
        printf("  after the fallback: %s\n", desc);
        CHECK(strstr(desc, want) != NULL);
        CHECK(strstr(desc, "the library chose") != NULL);
    } else {
        CHECK_EQ_INT(changed, 0);
    }
    CHECK(sgemm_ok());
    /* a user's OPENBLAS_CORETYPE is respected, and the description says it is narrow */
    setenv("OPENBLAS_CORETYPE", "Prescott", 1);
    gotoblas_dynamic_quit();
    gotoblas_dynamic_init();
    CHECK_EQ_INT(blas_fix_core(), 0);
    CHECK_EQ_STR(openblas_get_corename(), "Prescott");
    int slow = 0;
    blas_describe(desc, sizeof desc, &slow);
    printf("  forced: %s\n", desc);
    CHECK(strstr(desc, "OPENBLAS_CORETYPE") != NULL);
    if (want)
        CHECK_EQ_INT(slow, 1);
    CHECK(sgemm_ok());
    unsetenv("OPENBLAS_CORETYPE");
}

int main(void)
{
    RUN(test_levels);
    RUN(test_decision);
    RUN(test_fix_after_fallback);
    return check_total_failed ? 1 : 0;
}

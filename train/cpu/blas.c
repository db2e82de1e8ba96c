/* blas.c - the BLAS behind the CPU kernels: name it, and make OpenBLAS run the
 * kernels this CPU can (see blas.h). */
#include "train/cpu/blas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* OpenBLAS's own entry points, weak so that a build against another BLAS links
 * (they are then NULL). gotoblas_dynamic_init/quit exist only in DYNAMIC_ARCH
 * builds; init reads OPENBLAS_CORETYPE, quit forgets the chosen kernel table. */
extern char *openblas_get_corename(void) __attribute__((weak));
extern char *openblas_get_config(void) __attribute__((weak));
extern void gotoblas_dynamic_init(void) __attribute__((weak));
extern void gotoblas_dynamic_quit(void) __attribute__((weak));

static const struct {
    const char *name;
    int level;
} cores[] = {
    {"Katmai", BLAS_LEVEL_SSE},       {"Coppermine", BLAS_LEVEL_SSE},    {"Northwood", BLAS_LEVEL_SSE},
    {"Prescott", BLAS_LEVEL_SSE},     {"Banias", BLAS_LEVEL_SSE},        {"Atom", BLAS_LEVEL_SSE},
    {"Core2", BLAS_LEVEL_SSE},        {"Penryn", BLAS_LEVEL_SSE},        {"Dunnington", BLAS_LEVEL_SSE},
    {"Nehalem", BLAS_LEVEL_SSE},      {"Athlon", BLAS_LEVEL_SSE},        {"Opteron", BLAS_LEVEL_SSE},
    {"Opteron(SSE3)", BLAS_LEVEL_SSE}, {"Opteron_SSE3", BLAS_LEVEL_SSE}, {"Barcelona", BLAS_LEVEL_SSE},
    {"Nano", BLAS_LEVEL_SSE},         {"Bobcat", BLAS_LEVEL_SSE},        {"Sandybridge", BLAS_LEVEL_AVX},
    {"Bulldozer", BLAS_LEVEL_AVX},    {"Piledriver", BLAS_LEVEL_AVX},    {"Steamroller", BLAS_LEVEL_AVX},
    /* Excavator has AVX2; OpenBLAS's choice for it is left alone */
    {"Excavator", BLAS_LEVEL_AVX2},   {"Haswell", BLAS_LEVEL_AVX2},      {"Zen", BLAS_LEVEL_AVX2},
    {"SkylakeX", BLAS_LEVEL_AVX512},  {"Cooperlake", BLAS_LEVEL_AVX512}, {"SapphireRapids", BLAS_LEVEL_AVX512},
};

static const char *level_names[] = {"unknown", "SSE", "AVX", "AVX2", "AVX-512"};

int blas_core_level(const char *core)
{
    if (!core)
        return BLAS_LEVEL_UNKNOWN;
    for (size_t i = 0; i < sizeof cores / sizeof cores[0]; i++)
        if (!strcasecmp(core, cores[i].name))
            return cores[i].level;
    return BLAS_LEVEL_UNKNOWN;
}

const char *blas_core_for(const char *lib_core, int cpu_level, int amd)
{
    int have = blas_core_level(lib_core);
    if (have == BLAS_LEVEL_UNKNOWN || have >= cpu_level)
        return NULL;
    switch (cpu_level) {
    case BLAS_LEVEL_AVX512:
        return "SkylakeX"; /* what newer OpenBLAS picks for AVX-512 CPUs of either vendor (Zen 4 included) */
    case BLAS_LEVEL_AVX2:
        return amd ? "Zen" : "Haswell";
    case BLAS_LEVEL_AVX:
        return "Sandybridge";
    default:
        return NULL;
    }
}

int blas_cpu_level(int *amd)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init(); /* needed before __builtin_cpu_supports in a constructor */
    if (amd)
        *amd = __builtin_cpu_is("amd");
    /* libgcc's tests include the OS's XGETBV state: AVX needs the YMM state saved, AVX-512 the ZMM one */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512cd"))
        return BLAS_LEVEL_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return BLAS_LEVEL_AVX2;
    if (__builtin_cpu_supports("avx"))
        return BLAS_LEVEL_AVX;
    if (__builtin_cpu_supports("sse3"))
        return BLAS_LEVEL_SSE;
    return BLAS_LEVEL_UNKNOWN;
#else
    if (amd)
        *amd = 0;
    return BLAS_LEVEL_UNKNOWN;
#endif
}

/* What happened at load time, for blas_describe. */
static char lib_choice[32]; /* the library's own pick, when we replaced it */
static int user_forced;     /* OPENBLAS_CORETYPE was set: left as the user asked */

int blas_fix_core(void)
{
    if (!openblas_get_corename || !gotoblas_dynamic_init || !gotoblas_dynamic_quit)
        return 0; /* not OpenBLAS, or built for one CPU (no kernel table to switch) */
    const char *env = getenv("OPENBLAS_CORETYPE");
    user_forced = env && *env;
    if (user_forced) {
        lib_choice[0] = 0;
        return 0;
    }
    int amd = 0, cpu = blas_cpu_level(&amd);
    const char *lib = openblas_get_corename();
    const char *want = blas_core_for(lib, cpu, amd);
    if (!want)
        return 0;
    char was[sizeof lib_choice];
    snprintf(was, sizeof was, "%s", lib);
    /* gotoblas_dynamic_init chooses again only when no table is set; it reads
     * OPENBLAS_CORETYPE, which is removed again so that child processes choose
     * for themselves. No BLAS call has run yet (constructors run before main). */
    setenv("OPENBLAS_CORETYPE", want, 1);
    gotoblas_dynamic_quit();
    gotoblas_dynamic_init();
    unsetenv("OPENBLAS_CORETYPE");
    if (blas_core_level(openblas_get_corename()) < blas_core_level(want)) {
        /* the library did not know the name: back to its own choice */
        setenv("OPENBLAS_CORETYPE", was, 1);
        gotoblas_dynamic_quit();
        gotoblas_dynamic_init();
        unsetenv("OPENBLAS_CORETYPE");
        return 0;
    }
    if (!lib_choice[0])
        snprintf(lib_choice, sizeof lib_choice, "%s", was);
    return 1;
}

__attribute__((constructor)) static void blas_fix_core_at_load(void)
{
    /* A shared library's initialiser runs before the program's constructors,
     * so OpenBLAS has chosen its kernels by now. */
    blas_fix_core();
}

void blas_describe(char *buf, size_t n, int *slow)
{
    if (slow)
        *slow = 0;
    if (!openblas_get_corename || !openblas_get_config) {
        snprintf(buf, n, "a CBLAS that is not OpenBLAS (kernels not known)");
        return;
    }
    const char *cfg = openblas_get_config(), *core = openblas_get_corename();
    char ver[32] = "?";
    if (!strncmp(cfg, "OpenBLAS ", 9))
        sscanf(cfg + 9, "%31s", ver);
    const char *thr = strstr(cfg, "USE_OPENMP") ? "openmp" : strstr(cfg, "SMP") ? "pthreads" : "serial";
    int amd = 0, cpu = blas_cpu_level(&amd), lev = blas_core_level(core);
    int len = snprintf(buf, n, "OpenBLAS %s (%s%s), kernels %s (%s)", ver, thr,
                       strstr(cfg, "DYNAMIC_ARCH") ? ", dynamic" : "", core, level_names[lev]);
    if (len < 0 || (size_t)len >= n)
        return;
    if (lib_choice[0])
        snprintf(buf + len, n - len, " for this CPU's %s; the library chose %s", level_names[cpu], lib_choice);
    else if (user_forced && lev && cpu > lev) {
        snprintf(buf + len, n - len, " as OPENBLAS_CORETYPE asks; this CPU has %s: unset it for %s kernels",
                 level_names[cpu], blas_core_for(core, cpu, amd));
        if (slow)
            *slow = 1;
    } else if (user_forced)
        snprintf(buf + len, n - len, " as OPENBLAS_CORETYPE asks");
    else if (cpu > lev && lev) {
        /* could not switch (a library built for one CPU): say so */
        snprintf(buf + len, n - len, "; this CPU has %s, which this OpenBLAS build cannot use", level_names[cpu]);
        if (slow)
            *slow = 1;
    }
}

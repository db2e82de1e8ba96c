/* check.h - minimal unit-test harness. Each TEST prints "PASS name" or
 * "FAIL name" (with the failing checks above it); tests/run_tests.sh counts them. */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_fails;
static int check_total_failed;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stdout, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            check_fails++;                                                           \
        }                                                                            \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                                  \
    do {                                                                                                    \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                               \
        if (va_ != vb_) {                                                                                   \
            fprintf(stdout, "  %s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, #b, va_, vb_); \
            check_fails++;                                                                                  \
        }                                                                                                   \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                                   \
    do {                                                                                                     \
        const char *sa_ = (a), *sb_ = (b);                                                                   \
        if (!sa_ || !sb_ || strcmp(sa_, sb_) != 0) {                                                         \
            fprintf(stdout, "  %s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, #a, #b,      \
                    sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)");                                             \
            check_fails++;                                                                                   \
        }                                                                                                    \
    } while (0)

static void check_run(const char *name, void (*fn)(void))
{
    check_fails = 0;
    fn();
    printf("%s %s\n", check_fails ? "FAIL" : "PASS", name);
    fflush(stdout);
    if (check_fails) check_total_failed++;
}

#define RUN(fn) check_run(#fn, fn)

#endif

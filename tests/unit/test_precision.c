/* test_precision.c - bf16 and fp16 rounding (train/cpu/precision.h), the CPU
 * reference of the GPU's __float2bfloat16_rn / __float2half_rn: fp16 against the
 * compiler's own _Float16 conversion (IEEE round to nearest even), bf16 against
 * an independent rule (the two neighbours that keep 7 mantissa bits, the nearer,
 * ties to the even one), on special values and on 2 million random bit patterns;
 * and the CPU table's round_prec op. */
#include "train/cpu/precision.h"
#include "train/ops/ops.h"
#include "tests/unit/check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static float bits_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* bf16 by the definition: the neighbours below and above with the low 16 bits clear */
static float bf16_ref(float x)
{
    if (isnan(x)) return x;
    if (isinf(x)) return x;
    uint32_t u = f_bits(x), lo = u & 0xffff0000u, hi = lo + 0x10000u;
    double d = fabs((double)x), a = fabs((double)bits_f(lo)), b = fabs((double)bits_f(hi));
    if ((hi & 0x7f800000u) == 0x7f800000u) b = ldexp(1.0, 128); /* past the largest bf16: 2^128, i.e. inf */
    double da = d - a, db = b - d;
    if (da < db) return bits_f(lo);
    if (db < da) return (hi & 0x7f800000u) == 0x7f800000u ? copysignf(INFINITY, x) : bits_f(hi);
    return ((lo >> 16) & 1u) ? ((hi & 0x7f800000u) == 0x7f800000u ? copysignf(INFINITY, x) : bits_f(hi)) : bits_f(lo);
}

static int same(float a, float b) { return (isnan(a) && isnan(b)) || f_bits(a) == f_bits(b); }

static void test_special(void)
{
    CHECK(same(prec_round_bf16(1.0f), 1.0f));
    CHECK(same(prec_round_bf16(-0.0f), -0.0f));
    CHECK(isinf(prec_round_bf16(INFINITY)) && isnan(prec_round_bf16(NAN)));
    CHECK(same(prec_round_bf16(1.00390625f), 1.0f));     /* 1 + 2^-8: a tie, to even */
    CHECK(same(prec_round_bf16(1.01171875f), 1.015625f)); /* 1 + 3*2^-8: a tie, to even (up) */
    CHECK(isinf(prec_round_bf16(3.4e38f)));               /* past bf16's largest */
    CHECK(same(prec_round_fp16(65504.0f), 65504.0f));
    CHECK(same(prec_round_fp16(65519.0f), 65504.0f));
    CHECK(isinf(prec_round_fp16(65520.0f)) && prec_round_fp16(-70000.0f) < 0);
    CHECK(same(prec_round_fp16(5.9604645e-8f), 5.9604645e-8f)); /* 2^-24, the smallest subnormal */
    CHECK(same(prec_round_fp16(2.9802322e-8f), 0.0f));          /* 2^-25: a tie, to even (0) */
    CHECK(same(prec_round_fp16(1.0f / 3.0f), 0.333251953125f));
    CHECK(same(prec_round(1.1f, GPT_PREC_FP32), 1.1f));
}

static void test_random(void)
{
    uint64_t s = 88172645463325252ull;
    long bad16 = 0, badb = 0;
    for (long i = 0; i < 2000000; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        float x = bits_f((uint32_t)s);
        if (i & 1) /* half of them in fp16's range, where the rounding matters */
            x = ldexpf((float)((s >> 32) & 0xffffff) / 16777216.0f, (int)((s >> 56) % 48) - 30) * ((s >> 40) & 1 ? -1 : 1);
        float h = (float)(_Float16)x;
        if (!same(prec_round_fp16(x), h) && bad16++ < 3)
            printf("  fp16 of %a: %a, the compiler's %a\n", x, prec_round_fp16(x), h);
        if (!same(prec_round_bf16(x), bf16_ref(x)) && badb++ < 3)
            printf("  bf16 of %a: %a, by the rule %a\n", x, prec_round_bf16(x), bf16_ref(x));
    }
    CHECK_EQ_INT(bad16, 0);
    CHECK_EQ_INT(badb, 0);
}

static void test_table_op(void)
{
    float x[5] = {1.00390625f, 3.14159265f, -2.71828f, 70000.0f, 1e-9f};
    float y[5];
    memcpy(y, x, sizeof x);
    gpt_ops_cpu.round_prec(y, 5, GPT_PREC_BF16);
    for (int i = 0; i < 5; i++) CHECK(same(y[i], prec_round_bf16(x[i])));
    memcpy(y, x, sizeof x);
    gpt_ops_cpu.round_prec(y, 5, GPT_PREC_FP16);
    for (int i = 0; i < 5; i++) CHECK(same(y[i], prec_round_fp16(x[i])));
    CHECK(isinf(y[3]));
    memcpy(y, x, sizeof x);
    gpt_ops_cpu.round_prec(y, 5, GPT_PREC_FP32);
    CHECK(memcmp(x, y, sizeof x) == 0);
}

int main(void)
{
    RUN(test_special);
    RUN(test_random);
    RUN(test_table_op);
    return check_total_failed ? 1 : 0;
}

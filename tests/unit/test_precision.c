/* test_precision.c - bf16 and fp16 rounding (train/cpu/precision.h), the CPU
 * reference of the GPU's __float2bfloat16_rn / __float2half_rn: fp16 against the
 * compiler's own _Float16 conversion (IEEE round to nearest even), bf16 against
 * an independent rule (the two neighbours that keep 7 mantissa bits, the nearer,
 * ties to the even one), on special values and on 2 million random bit patterns;
 * the CPU table's round_prec op; and typed storage: the 2-byte patterns (every one
 * of the 65,536 widens and narrows back to itself, NaNs aside), the table's
 * to_prec / from_prec against the rounding, and a kernel on floatX operands against
 * the fp32 kernel on the rounded values (the same bits). */
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

static void test_storage_bits(void)
{
    long bad = 0;
    for (uint32_t b = 0; b < 65536; b++) {
        float fb = prec_bf16_float((uint16_t)b), fh = prec_fp16_float((uint16_t)b);
        if (!isnan(fb) && prec_bf16_bits(fb) != b && bad++ < 3)
            printf("  bf16 %04x -> %a -> %04x\n", b, fb, prec_bf16_bits(fb));
        if (!isnan(fh) && prec_fp16_bits(fh) != b && bad++ < 3)
            printf("  fp16 %04x -> %a -> %04x\n", b, fh, prec_fp16_bits(fh));
        if (!isnan(fb) && !same(prec_round_bf16(fb), fb)) /* a bf16 value is its own rounding */
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_storage_table(void)
{
    enum { N = 4096 };
    static float x[N], back[N];
    static uint16_t s16[N];
    uint64_t r = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < N; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        x[i] = ldexpf((float)((r >> 40) & 0xffffff) / 16777216.0f - 0.5f, (int)((r >> 8) % 40) - 20);
    }
    x[0] = 70000.0f; /* past fp16's range */
    for (int prec = GPT_PREC_BF16; prec <= GPT_PREC_FP16; prec++) {
        gpt_ops_cpu.storage_prec(prec);
        gpt_ops_cpu.to_prec((floatX *)s16, x, N);
        gpt_ops_cpu.from_prec(back, (const floatX *)s16, N);
        long bad = 0;
        for (int i = 0; i < N; i++)
            bad += !same(back[i], prec_round(x[i], prec));
        CHECK_EQ_INT(bad, 0);
        /* gelu on floatX operands = the fp32 kernel on the rounded input, rounded */
        static uint16_t out16[N];
        static float xr[N], ref[N], got[N];
        for (int i = 0; i < N; i++)
            xr[i] = prec_round(x[i] * 1e-3f, prec), x[i] *= 1e-3f;
        gpt_ops_cpu.to_prec((floatX *)s16, x, N);
        gpt_ops_cpu.gelu_forward((floatX *)out16, (const floatX *)s16, N);
        gpt_ops_cpu.from_prec(got, (const floatX *)out16, N);
        gpt_ops_cpu.storage_prec(GPT_PREC_FP32);
        gpt_ops_cpu.gelu_forward((floatX *)ref, (const floatX *)xr, N);
        bad = 0;
        for (int i = 0; i < N; i++) {
            bad += !same(got[i], prec_round(ref[i], prec));
            x[i] *= 1e3f;
        }
        CHECK_EQ_INT(bad, 0);
    }
    gpt_ops_cpu.storage_prec(GPT_PREC_FP32);
}

int main(void)
{
    RUN(test_storage_bits);
    RUN(test_storage_table);
    RUN(test_special);
    RUN(test_random);
    RUN(test_table_op);
    return check_total_failed ? 1 : 0;
}

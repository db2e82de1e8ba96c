/* precision.h - bf16 and fp16 values rounded as the GPU rounds them (round to
 * nearest, ties to even; __float2bfloat16_rn and __float2half_rn), kept in fp32
 * (train/ops/ops.h's round_prec) or as their 2-byte patterns (the tables' typed
 * storage, floatX): the CPU reference of mixed precision. A rounded float is exactly the value the narrow type would hold,
 * so arithmetic on it in fp32 is what a GPU kernel that loads bf16/fp16 and
 * computes in fp32 does.
 *
 * bf16: 8 exponent bits (fp32's range), 7 stored mantissa bits. NaN stays NaN
 * (quieted), infinities stay.
 * fp16: 5 exponent bits, 10 mantissa bits: values past 65504 (after rounding)
 * become +-inf, as on the GPU, which is what fp16's loss scaling detects;
 * below 2^-14 the subnormals (steps of 2^-24), then 0. */
#ifndef TRAIN_CPU_PRECISION_H
#define TRAIN_CPU_PRECISION_H

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { GPT_PREC_FP32 = 0, GPT_PREC_BF16 = 1, GPT_PREC_FP16 = 2 };

static inline float prec_round_bf16(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) == 0x7f800000u) { /* inf stays; NaN quieted */
        if (u & 0x007fffffu)
            u |= 0x00400000u;
    } else {
        u += 0x7fffu + ((u >> 16) & 1u); /* ties to even; may carry into the exponent (to inf) */
    }
    u &= 0xffff0000u;
    memcpy(&x, &u, 4);
    return x;
}

static inline float prec_round_fp16(float x)
{
    if (isnan(x) || isinf(x))
        return x;
    float a = fabsf(x);
    if (a >= 65520.0f) /* 65504 + half a step rounds up to 2^16: out of range */
        return copysignf(INFINITY, x);
    /* the step (ulp) at a's binade, never below the subnormal step 2^-24 */
    int e;
    frexpf(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int ulp_exp = e - 11;
    if (ulp_exp < -24)
        ulp_exp = -24;
    float step = ldexpf(1.0f, ulp_exp);
    /* a / step is exact (a power of two); rintf rounds half to even in the default mode */
    float r = rintf(a / step) * step;
    return copysignf(r, x);
}

static inline float prec_round(float x, int prec)
{
    return prec == GPT_PREC_BF16 ? prec_round_bf16(x) : prec == GPT_PREC_FP16 ? prec_round_fp16(x) : x;
}

/* Typed storage (train/ops/ops.h's floatX): the 2-byte patterns themselves. bf16 is
 * the high half of the rounded fp32; fp16 is IEEE binary16, encoded from the value
 * prec_round_fp16 gives (written out: older compilers lack _Float16 on x86-64).
 * Widening is exact. */
static inline uint16_t prec_bf16_bits(float x)
{
    x = prec_round_bf16(x);
    uint32_t u;
    memcpy(&u, &x, 4);
    return (uint16_t)(u >> 16);
}

static inline float prec_bf16_float(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint16_t prec_fp16_bits(float x)
{
    float r = prec_round_fp16(x); /* exactly an fp16 value (or inf / NaN) */
    uint32_t u;
    memcpy(&u, &r, 4);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    int e32 = (int)((u >> 23) & 0xffu);
    if (e32 == 0xff) /* inf, or NaN (quiet) */
        return (uint16_t)(sign | 0x7c00u | ((u & 0x007fffffu) ? 0x0200u : 0u));
    if ((u & 0x7fffffffu) == 0)
        return sign;
    int e = e32 - 127;
    if (e >= -14) /* normal: 10 mantissa bits, all that the rounding left */
        return (uint16_t)(sign | (uint32_t)(e + 15) << 10 | ((u >> 13) & 0x3ffu));
    /* subnormal: the value in steps of 2^-24 */
    return (uint16_t)(sign | (((u & 0x007fffffu) | 0x00800000u) >> (-(e + 1))));
}

static inline float prec_fp16_float(uint16_t b)
{
    uint32_t sign = (uint32_t)(b & 0x8000u) << 16, e = (b >> 10) & 0x1fu, m = b & 0x3ffu, u;
    if (e == 0) { /* zero or subnormal: m steps of 2^-24 (exact) */
        float f = (float)m * 5.9604644775390625e-8f;
        return sign ? -f : f;
    }
    u = sign | (e == 31 ? 0x7f800000u : (e - 15 + 127) << 23) | m << 13;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

#endif

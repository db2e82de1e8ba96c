/* precision.h - bf16 and fp16 values kept in fp32 storage, rounded as the GPU
 * rounds them (round to nearest, ties to even; __float2bfloat16_rn and
 * __float2half_rn): the CPU reference of mixed precision (train/ops/ops.h's
 * round_prec). A rounded float is exactly the value the narrow type would hold,
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

#endif

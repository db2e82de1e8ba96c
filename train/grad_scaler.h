/* grad_scaler.h - fp16's loss scale, as Megatron's DynamicGradScaler
 * (megatron/core/optimizer/grad_scaler.py) or a constant one (--loss-scale).
 *
 * The loss is multiplied by `scale` before the backward so that small fp16
 * gradients do not flush to zero. An overflow (a finite loss, a non-finite
 * gradient norm) skips the step; after `hysteresis` overflows the scale halves
 * (not below min_scale) on each further one. After `window` good steps in a row
 * it doubles, and the hysteresis count starts again. Outside fp16 the scale
 * is 1 and never moves. */
#ifndef TRAIN_GRAD_SCALER_H
#define TRAIN_GRAD_SCALER_H

typedef struct {
    double scale, min_scale;
    int dynamic;              /* 0: constant (--loss-scale, or not fp16) */
    long long window, hysteresis;
    long long growth, hyst;   /* good steps in a row; overflows left before backing off */
} grad_scaler;

static inline void grad_scaler_init(grad_scaler *g, int fp16, double constant, double initial, double min_scale,
                                    long long window, long long hysteresis)
{
    g->dynamic = fp16 && constant <= 0;
    g->scale = !fp16 ? 1.0 : constant > 0 ? constant : initial;
    g->min_scale = min_scale;
    g->window = window;
    g->hysteresis = g->hyst = hysteresis;
    g->growth = 0;
}

/* An fp16 overflow: the step is skipped. */
static inline void grad_scaler_overflow(grad_scaler *g)
{
    g->growth = 0;
    if (g->dynamic && --g->hyst <= 0)
        g->scale = g->scale * 0.5 > g->min_scale ? g->scale * 0.5 : g->min_scale;
}

/* A step taken. */
static inline void grad_scaler_step(grad_scaler *g)
{
    if (g->dynamic && ++g->growth == g->window) {
        g->growth = 0;
        g->hyst = g->hysteresis;
        g->scale *= 2;
    }
}

#endif

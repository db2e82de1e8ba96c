/* gpt_parts.c - a rank's part of the whole model (its tensor-parallel slices
 * of its pipeline stage's layers, and with an interleaved pipeline its model
 * chunks): sliced from the whole model's flat arrays (a checkpoint, the
 * initial model) or gathered into them (for saving), whatever the layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "train/model/gpt_int.h"
#include "train/parallel/comm.h"
#include "train/parallel/dist.h"

/* Where this rank's part of tensor t lies in the whole model's flat array:
 * *foff, the offset of the stage's part (its layers; all of a whole-model
 * tensor), and its view sp as [outer, S, inner] (S 0: not split by tp). */
static void part_of(const gpt_model *lm, int t, size_t *foff, tp_split *sp)
{
    const gpt_config *c = &lm->cfg;
    size_t Vp = (size_t)c->padded_vocab_size, C = (size_t)c->channels, L = (size_t)c->num_layers;
    size_t full[GPT_NUM_TENSORS] = {Vp * C, (size_t)c->max_seq_len * C, L * C, L * C, L * 3 * C * C, L * 3 * C,
                                    L * C * C, L * C, L * C, L * C, L * 4 * C * C, L * 4 * C, L * C * 4 * C, L * C, C, C};
    size_t off = 0;
    for (int k = 0; k < t; k++)
        off += full[k];
    if (per_layer(t))
        off += (size_t)lm->layer0 * (full[t] / L);
    *foff = off;
    *sp = split_of(c, t, (size_t)lm->nlayers);
    if (!sp->S)
        *sp = (tp_split){1, 0, per_layer(t) ? full[t] / L * (size_t)lm->nlayers : full[t]};
}

static void part_slice(const gpt_model *lm, const float *full, float *local);
static int part_gather(const gpt_model *lm, const float *local, float *full);

/* The part of the stage that model chunk c is, as a stage of its own: its layers
 * [layer0, layer0 + L/(pp*vpp)) and, in chunk 0 only, the stage's other tensors
 * (so that each is visited once), its layer tensors' slices at their offsets in
 * the stage's arrays. Without interleaving: the stage itself. */
static gpt_model chunk_view(const gpt_model *lm, int c)
{
    gpt_model v = *lm;
    if (lm->vpp <= 1)
        return v;
    int Lc = chunk_layers(lm);
    v.layer0 = (c * lm->pp + lm->pp_rank) * Lc;
    v.nlayers = Lc;
    v.vpp = 1;
    for (int t = 0; t < GPT_NUM_TENSORS; t++) {
        if (per_layer(t)) {
            v.sizes[t] = lm->sizes[t] / (size_t)lm->vpp;
            v.offsets[t] = lm->offsets[t] + (size_t)c * v.sizes[t];
        } else if (c > 0) {
            v.sizes[t] = 0;
        }
    }
    return v;
}

void gpt_part_slice(const gpt_model *stage, const float *full, float *local)
{
    for (int c = 0; c < (stage->vpp > 1 ? stage->vpp : 1); c++) {
        gpt_model view = chunk_view(stage, c);
        part_slice(&view, full, local);
    }
}

int gpt_part_gather(const gpt_model *stage, const float *local, float *full)
{
    /* Each stage writes the tensors it owns (the tied wte: the first stage's); the
     * rest stays zero, and a sum over the pipeline group assembles the whole. */
    if (stage->pp > 1)
        memset(full, 0, gpt_num_params(&stage->cfg) * sizeof(float));
    int rc = 0;
    for (int c = 0; c < (stage->vpp > 1 ? stage->vpp : 1) && !rc; c++) {
        gpt_model view = chunk_view(stage, c);
        rc = part_gather(&view, local, full);
    }
    if (!rc && stage->pp > 1)
        rc = dist_allreduce_f32(stage->tp_d, stage->pp_g, full, gpt_num_params(&stage->cfg));
    return rc;
}

static void part_slice(const gpt_model *lm, const float *full, float *local)
{
    int tp = lm->tp > 1 ? lm->tp : 1;
    for (int t = 0; t < GPT_NUM_TENSORS; t++) {
        if (!lm->sizes[t])
            continue;
        size_t foff;
        tp_split sp;
        part_of(lm, t, &foff, &sp);
        const float *src = full + foff;
        float *dst = local + lm->offsets[t];
        if (!sp.S || tp == 1) {
            memcpy(dst, src, lm->sizes[t] * sizeof(float));
            continue;
        }
        size_t Sl = split_local(sp.S, tp);
        for (size_t o = 0; o < sp.outer; o++)
            for (size_t j = 0; j < Sl; j++) {
                size_t srow = (size_t)lm->tp_rank * Sl + j;
                float *dr = dst + (o * Sl + j) * sp.inner;
                if (srow < sp.S)
                    memcpy(dr, src + (o * sp.S + srow) * sp.inner, sp.inner * sizeof(float));
                else
                    memset(dr, 0, sp.inner * sizeof(float));
            }
    }
}

static int part_gather(const gpt_model *lm, const float *local, float *full)
{
    int tp = lm->tp > 1 ? lm->tp : 1;
    float *buf = NULL;
    int rc = 0;
    for (int t = 0; t < GPT_NUM_TENSORS && !rc; t++) {
        if (!lm->sizes[t] || (t == GPT_WTE && lm->pp > 1 && lm->pp_rank != 0))
            continue;
        size_t foff;
        tp_split sp;
        part_of(lm, t, &foff, &sp);
        const float *src = local + lm->offsets[t];
        float *dst = full + foff;
        if (!sp.S || tp == 1) {
            memcpy(dst, src, lm->sizes[t] * sizeof(float));
            continue;
        }
        size_t Sl = split_local(sp.S, tp), n = lm->sizes[t];
        float *nb = realloc(buf, n * (size_t)tp * sizeof *buf);
        if (!nb) {
            rc = err_set(ERR_NOMEM, "out of memory gathering tensor %s", gpt_tensor_names[t]);
            break;
        }
        buf = nb;
        rc = dist_allgather_f32(lm->tp_d, lm->tp_g, src, buf, n);
        for (int r = 0; r < tp && !rc; r++)
            for (size_t o = 0; o < sp.outer; o++)
                for (size_t j = 0; j < Sl; j++) {
                    size_t srow = (size_t)r * Sl + j;
                    if (srow < sp.S)
                        memcpy(dst + (o * sp.S + srow) * sp.inner, buf + (size_t)r * n + (o * Sl + j) * sp.inner,
                               sp.inner * sizeof(float));
                }
    }
    free(buf);
    return rc;
}

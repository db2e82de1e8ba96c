/* evaluate.h - zero-shot multiple-choice scoring of a model as lm-evaluation-harness (0.4)
 * does it: each choice is a (context, continuation) request whose log-likelihood is the sum
 * of the continuation tokens' log-probabilities given what precedes them; acc is the share of
 * items whose most likely choice is the gold one, acc_norm the same with each log-likelihood
 * divided by its choice's length in characters (lm-eval's "acc_norm").
 *
 * Tasks, by their records' keys (the formats of data/eval), with lm-eval's prompts:
 *   hellaswag   context "{query}", choices "{choices}" (lm-eval's preprocessed ones), gold "gold"
 *   ARC         "Question: {question}\nAnswer:", choices "{choices.text}", gold the answerKey's
 *               index (arc_easy and arc_challenge alike)
 *   PIQA        "Question: {goal}\nAnswer:", choices sol1 and sol2, gold "label"
 *   Winogrande  partial scoring: the contexts are the sentence up to the blank with each option,
 *               the continuation the rest of the sentence (stripped); acc only
 * A continuation is the target delimiter " " and the choice. Requests are encoded as
 * lm-eval's _encode_pair does (the context's trailing white space moved to the continuation;
 * the continuation's tokens are those of context + continuation after the context's own), an
 * empty context becomes the end-of-document token, and a request longer than the window
 * (max_len + 1 tokens) loses its start: the tokens before the last max_len + 1 (counted). */
#ifndef TRAIN_EVALUATE_H
#define TRAIN_EVALUATE_H

#include <stddef.h>
#include <stdint.h>

#include "tokenizer/bpe.h"

typedef struct {
    char **ctx, **cont; /* [nc]: each choice's context and continuation */
    double *chars;      /* [nc]: its choice's length in characters */
    double *ll;         /* [nc]: log-likelihoods, after mc_score */
    int nc, gold;
    int truncated;      /* requests of it cut on the left to fit the window */
    int pred, pred_norm;
} mc_item;

typedef struct mc_task {
    char *name;
    int norm; /* acc_norm defined (every format but Winogrande) */
    mc_item *v;
    size_t n, cap;
    double acc, acc_norm;
    size_t truncated, requests;
} mc_task;

/* Read a task from [NAME=]FILE (JSON lines, .zst / .gz): its name is NAME, else the file's
 * base name without extensions. limit > 0: its first limit items only. 0 or ERR_* naming the
 * file and line (a line that is not JSON, a record of no known format, a gold answer that is
 * not one of the choices, a set without items). */
int mc_load(mc_task *t, const char *spec, size_t limit);
void mc_free(mc_task *t);

/* The model, as the scorer sees it: a forward of in [B, T] with targets tg [B, T], each
 * position's loss (-log p(target)) into losses [B * T]. */
typedef int (*mc_forward_fn)(void *arg, const int32_t *in, const int32_t *tg, int B, int T, float *losses);

typedef struct {
    const bpe *tok;
    int max_len;  /* the model's window */
    int batch;    /* requests a forward */
    int fixed;    /* every forward [batch, max_len], rows padded (a trainer's model, sized for one shape) */
    mc_forward_fn fwd;
    void *arg;
} mc_scorer;

/* Score every request of t (longest first, batch rows a forward); sets each item's ll, pred,
 * pred_norm, and t's acc, acc_norm, truncated. 0 or ERR_*. */
int mc_score(const mc_scorer *s, mc_task *t);

#endif

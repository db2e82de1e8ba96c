/* test_dist.c - unit tests of train/parallel without a launcher: Megatron's rank
 * layout against the example of Megatron-LM's parallel_state.py (16 GPUs,
 * tensor 2, pipeline 4), a world of one (every collective a copy), and the
 * ddp bucket / shard arithmetic on one rank. The multi-rank paths run under
 * mpirun in tests/e2e/test_train_dist.sh. */
#include "common/err.h"
#include "tests/unit/check.h"
#include "train/distributed/ddp.h"
#include "train/parallel/dist.h"

#include <math.h>
#include <stdlib.h>

static void test_layout_megatron_example(void)
{
    /* parallel_state.initialize_model_parallel docstring: 16 GPUs, tp 2, pp 4 ->
     * tensor groups [g0, g1], [g2, g3], ...; pipeline groups [g0, g4, g8, g12],
     * [g1, g5, g9, g13], ...; data groups [g0, g2], [g1, g3], [g4, g6], ... */
    int tp = 2, pp = 4, dp = 16 / (tp * pp);
    CHECK_EQ_INT(dp, 2);
    int t, d, p;
    for (int r = 0; r < 16; r++) {
        dist_layout(r, tp, pp, dp, &t, &d, &p);
        CHECK_EQ_INT(r, p * dp * tp + d * tp + t);
    }
    dist_layout(1, tp, pp, dp, &t, &d, &p);
    CHECK(t == 1 && d == 0 && p == 0); /* tensor group [g0, g1] */
    dist_layout(2, tp, pp, dp, &t, &d, &p);
    CHECK(t == 0 && d == 1 && p == 0); /* data group [g0, g2] */
    dist_layout(4, tp, pp, dp, &t, &d, &p);
    CHECK(t == 0 && d == 0 && p == 1); /* pipeline group [g0, g4, ...] */
    dist_layout(13, tp, pp, dp, &t, &d, &p);
    CHECK(t == 1 && d == 0 && p == 3); /* pipeline group [g1, g5, g9, g13] */
    dist_layout(6, tp, pp, dp, &t, &d, &p);
    CHECK(t == 0 && d == 1 && p == 1); /* data group [g4, g6] */
}

static void test_world_of_one(void)
{
    dist_ctx d;
    CHECK_EQ_INT(dist_init(&d, 1, 1), 0);
    CHECK(d.world_size == 1 && d.dp == 1 && !d.use_mpi && d.in_embedding);
    float x[5] = {1, 2, 3, 4, 5}, y[5];
    CHECK_EQ_INT(dist_allreduce_f32(&d, &d.data, x, 5), 0);
    CHECK(x[0] == 1 && x[4] == 5);
    CHECK_EQ_INT(dist_reduce_scatter_f32(&d, &d.data, x, y, 5), 0);
    CHECK(y[0] == 1 && y[4] == 5);
    CHECK_EQ_INT(dist_allgather_f32(&d, &d.data, y, x, 5), 0);
    double s = 2.5;
    CHECK_EQ_INT(dist_allreduce_f64(&d, &d.world, &s, 1), 0);
    CHECK(s == 2.5);
    CHECK_EQ_INT(d.bytes_sent, 0);
    /* a layout the world cannot hold */
    dist_finalize(&d);
    CHECK_EQ_INT(dist_init(&d, 2, 1), ERR_USAGE);
    CHECK(strstr(err_msg(), "not a multiple") != NULL);
    dist_finalize(&d);
}

static void test_ddp_one_rank(void)
{
    /* A model of a few hundred parameters, buckets of 7: stage 1 on one rank must
     * step exactly like stage 0. */
    gpt_config c = {.max_seq_len = 4, .vocab_size = 5, .padded_vocab_size = 128, .num_layers = 1, .num_heads = 1,
                    .channels = 2};
    gpt_model m0, m1;
    CHECK_EQ_INT(gpt_alloc(&m0, &c), 0);
    CHECK_EQ_INT(gpt_alloc(&m1, &c), 0);
    gpt_init_weights(&m0, 7, 0.02f);
    gpt_init_weights(&m1, 7, 0.02f);
    for (size_t i = 0; i < m0.num_params; i++)
        m0.grads[i] = m1.grads[i] = (float)((int)(i % 13) - 6) * 1e-3f;
    dist_ctx d;
    CHECK_EQ_INT(dist_init(&d, 1, 1), 0);
    ddp o0, o1;
    CHECK_EQ_INT(ddp_init(&o0, &d, &m0, 0, 7, NULL), 0);
    CHECK_EQ_INT(ddp_init(&o1, &d, &m1, 1, 7, NULL), 0);
    CHECK_EQ_INT(o1.nb, (m1.num_params + 6) / 7);
    CHECK_EQ_INT(o1.shard_n, m1.num_params);
    ddp_scatter_moments(&o1, m1.adam_m, m1.adam_v);
    for (int step = 1; step <= 3; step++) {
        double n0, n1;
        CHECK_EQ_INT(ddp_reduce_grads(&o0, &m0), 0);
        CHECK_EQ_INT(ddp_reduce_grads(&o1, &m1), 0);
        CHECK_EQ_INT(ddp_grad_norm(&o0, &m0, &n0), 0);
        CHECK_EQ_INT(ddp_grad_norm(&o1, &m1, &n1), 0);
        CHECK(fabs(n0 - n1) <= 1e-12 * n0);
        CHECK_EQ_INT(ddp_adamw(&o0, &m0, 1.0f, 1e-2f, 0.9f, 0.95f, 1e-8f, 0.1f, step), 0);
        CHECK_EQ_INT(ddp_adamw(&o1, &m1, 1.0f, 1e-2f, 0.9f, 0.95f, 1e-8f, 0.1f, step), 0);
    }
    CHECK(memcmp(m0.params, m1.params, m0.num_params * sizeof(float)) == 0);
    float *fm = malloc(m1.num_params * sizeof *fm), *fv = malloc(m1.num_params * sizeof *fv);
    CHECK_EQ_INT(ddp_gather_moments(&o1, fm, fv), 0);
    CHECK(memcmp(fm, m0.adam_m, m0.num_params * sizeof(float)) == 0);
    CHECK(memcmp(fv, m0.adam_v, m0.num_params * sizeof(float)) == 0);
    double bp, bg, bm;
    ddp_bytes_per_param(&o1, &bp, &bg, &bm);
    CHECK(bp == 4 && bg == 8 && bm == 8); /* dp 1: the shard is everything */
    free(fm);
    free(fv);
    ddp_free(&o0);
    ddp_free(&o1);
    gpt_free(&m0);
    gpt_free(&m1);
    dist_finalize(&d);
}

int main(void)
{
    RUN(test_layout_megatron_example);
    RUN(test_world_of_one);
    RUN(test_ddp_one_rank);
    return check_total_failed ? 1 : 0;
}

/* test_ops.c - the operation tables and the communicators' choice (train/ops/ops.h,
 * train/parallel/comm.h): comm_choose's rules; the device-discipline table
 * faulting on a host dereference of device memory and on host memory given as
 * device memory, poisoning a download until the sync and counting a host write
 * there; and the model (forward, backward, AdamW, gradient norm) giving the same
 * bits on the checked table as on the CPU's. The layouts under mpirun are in
 * tests/e2e/test_train_dist.sh. */
#include "tests/unit/check.h"
#include "train/model/gpt.h"
#include "train/ops/ops.h"
#include "train/parallel/comm.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

static void test_comm_choose(void)
{
    unsigned char u[4][16];
    memset(u, 0, sizeof u);
    for (int i = 0; i < 4; i++)
        u[i][0] = (unsigned char)i; /* four GPUs */
    char why[300] = "";
    typedef const unsigned char(*U16)[16];
    CHECK_EQ_INT(comm_choose(0, (U16)u, 4, NULL, 1, why, sizeof why), COMM_MPI);
    CHECK_EQ_INT(comm_choose(0, (U16)u, 4, "nccl", 1, why, sizeof why), COMM_MPI); /* host buffers */
    CHECK_EQ_INT(comm_choose(1, (U16)u, 4, NULL, 1, why, sizeof why), COMM_NCCL);
    CHECK_EQ_INT(comm_choose(1, (U16)u, 4, "nccl", 1, why, sizeof why), COMM_NCCL);
    CHECK_EQ_INT(comm_choose(1, (U16)u, 4, "mpi", 1, why, sizeof why), COMM_STAGED);
    CHECK_EQ_INT(comm_choose(1, (U16)u, 4, "gloo", 1, why, sizeof why), COMM_STAGED);
    CHECK_EQ_INT(comm_choose(1, (U16)u, 4, NULL, 0, why, sizeof why), COMM_STAGED); /* no NCCL built */
    CHECK_EQ_INT(comm_choose(1, (U16)u, 4, "nccl", 0, why, sizeof why), -1);
    CHECK(strstr(why, "no NCCL") != NULL);
    u[3][0] = 1; /* ranks 1 and 3 on one GPU */
    CHECK_EQ_INT(comm_choose(1, (U16)u, 4, NULL, 1, why, sizeof why), COMM_STAGED);
    CHECK_EQ_INT(comm_choose(1, (U16)u, 4, "nccl", 1, why, sizeof why), -1);
    CHECK(strstr(why, "ranks 1 and 3") != NULL && strstr(why, "Duplicate GPU") != NULL);
    CHECK_EQ_INT(comm_choose(1, (U16)u, 1, NULL, 1, why, sizeof why), COMM_NCCL); /* a group of one */
    CHECK_EQ_STR(comm_kind_name(COMM_STAGED), "staged");
}

/* Run fn in a child; return the signal that ended it (0: exited normally). */
static int child_signal(void (*fn)(void))
{
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
        int fd = open("/dev/null", 1);
        if (fd >= 0)
            dup2(fd, 2); /* the expected message */
        fn();
        _exit(0);
    }
    int st = 0;
    waitpid(p, &st, 0);
    return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

static volatile float sink;
static void deref_device(void)
{
    float *d = gpt_ops_checked.mem.alloc(64);
    sink = d[3]; /* a host read of device memory */
}
static void host_as_device(void)
{
    float h[4] = {0};
    gpt_ops_checked.scale(h, 2.0f, 4); /* host memory where device memory belongs */
}
static void fine(void)
{
    float *d = gpt_ops_checked.mem.alloc(64);
    gpt_ops_checked.scale(d, 2.0f, 16);
    gpt_ops_checked.mem.free(d);
}

static void test_checked_faults(void)
{
    CHECK_EQ_INT(child_signal(fine), 0);
    int s = child_signal(deref_device);
    CHECK(s == SIGSEGV || s == SIGBUS);
    CHECK_EQ_INT(child_signal(host_as_device), SIGABRT);
}

static void test_checked_sync(void)
{
    const gpt_ops *o = &gpt_ops_checked;
    float h[4] = {1, 2, 3, 4}, back[4] = {0};
    float *d = o->mem.alloc(sizeof h);
    o->mem.upload(d, h, sizeof h);
    o->scale(d, 2.0f, 4);
    o->mem.download(back, d, sizeof back);
    o->scale(d, 10.0f, 4); /* after the download: the copy holds the earlier values */
    CHECK(isnan(back[0]) && isnan(back[3])); /* not synchronised yet: poison */
    o->mem.sync();
    CHECK(back[0] == 2.0f && back[3] == 8.0f);
    long v = gpt_ops_checked_violations();
    o->mem.download(back, d, sizeof back);
    back[1] = 7.0f; /* a host write before the sync */
    o->mem.sync();
    CHECK_EQ_INT(gpt_ops_checked_violations(), v + 1);
    CHECK(back[1] == 40.0f);
    o->mem.free(d);
}

/* One step of a small model on a table: loss, gradient norm, parameters after AdamW
 * (prec: the storage precision; with host_beside, an fp32 model on the CPU table runs a
 * forward between this one's forward and backward). */
static void step_on_prec(const gpt_ops *ops, float *loss, double *norm, float *params, int prec, int host_beside)
{
    gpt_config cfg = {.max_seq_len = 8, .vocab_size = 70, .padded_vocab_size = 128, .num_layers = 2, .num_heads = 2,
                      .channels = 16};
    gpt_par par = {.tp = 1, .pp = 1, .ops = ops, .prec = prec};
    gpt_model m, h;
    CHECK_EQ_INT(gpt_alloc_par(&m, &cfg, &par), 0);
    if (host_beside)
        CHECK_EQ_INT(gpt_alloc(&h, &cfg), 0);
    gpt_init_weights(&m, 7, 0.02f);
    gpt_upload(&m);
    int32_t in[2 * 8], tg[2 * 8];
    for (int i = 0; i < 16; i++) {
        in[i] = (i * 7 + 3) % 70;
        tg[i] = (i * 11 + 5) % 70;
    }
    gpt_zero_grad(&m);
    CHECK_EQ_INT(gpt_forward(&m, in, tg, 2, 8, loss), 0);
    if (host_beside) { /* an fp32 model's forward on the same table between this one's forward and backward */
        float lh;
        gpt_init_weights(&h, 7, 0.02f);
        CHECK_EQ_INT(gpt_forward(&h, in, tg, 2, 8, &lh), 0);
    }
    gpt_backward(&m, 1.0f);
    *norm = gpt_grad_norm(&m);
    gpt_adamw(&m, 1.0f, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1);
    gpt_download(&m, 1);
    memcpy(params, m.params, m.num_params * sizeof(float));
    gpt_free(&m);
    if (host_beside)
        gpt_free(&h);
}

static void step_on(const gpt_ops *ops, float *loss, double *norm, float *params)
{
    step_on_prec(ops, loss, norm, params, 0, 0);
}

/* AdamW with the gradient's scale fused (gscale) gives the bits of gpt_scale_grads and
 * then a step of 1, on the CPU and checked tables, in fp32 and bf16 storage. */
static void adamw_scaled(const gpt_ops *ops, int prec, int fused, float *params)
{
    gpt_config cfg = {.max_seq_len = 8, .vocab_size = 70, .padded_vocab_size = 128, .num_layers = 2, .num_heads = 2,
                      .channels = 16};
    gpt_par par = {.tp = 1, .pp = 1, .ops = ops, .prec = prec};
    gpt_model m;
    CHECK_EQ_INT(gpt_alloc_par(&m, &cfg, &par), 0);
    gpt_init_weights(&m, 7, 0.02f);
    gpt_upload(&m);
    int32_t in[16], tg[16];
    for (int i = 0; i < 16; i++) {
        in[i] = (i * 7 + 3) % 70;
        tg[i] = (i * 11 + 5) % 70;
    }
    float loss;
    gpt_zero_grad(&m);
    CHECK_EQ_INT(gpt_forward(&m, in, tg, 2, 8, &loss), 0);
    gpt_backward(&m, 1.0f);
    const float s = 0.3711f;
    if (fused) {
        gpt_adamw(&m, s, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1);
    } else {
        gpt_scale_grads(&m, s);
        gpt_adamw(&m, 1.0f, 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1);
    }
    gpt_download(&m, 1);
    memcpy(params, m.params, m.num_params * sizeof(float));
    gpt_free(&m);
}

static void test_adamw_fused_scale(void)
{
    gpt_config cfg = {.max_seq_len = 8, .vocab_size = 70, .padded_vocab_size = 128, .num_layers = 2, .num_heads = 2,
                      .channels = 16};
    size_t n = gpt_num_params(&cfg);
    float *pa = malloc(n * sizeof(float)), *pb = malloc(n * sizeof(float));
    const gpt_ops *tables[2] = {&gpt_ops_cpu, &gpt_ops_checked};
    for (int k = 0; k < 2; k++)
        for (int prec = 0; prec <= 1; prec++) {
            adamw_scaled(tables[k], prec, 0, pa);
            adamw_scaled(tables[k], prec, 1, pb);
            CHECK(memcmp(pa, pb, n * sizeof(float)) == 0);
            int moved = 0; /* the step did something */
            gpt_model ref;
            CHECK_EQ_INT(gpt_alloc(&ref, &cfg), 0);
            gpt_init_weights(&ref, 7, 0.02f);
            for (size_t i = 0; i < n; i++)
                moved += pa[i] != ref.params[i];
            CHECK((size_t)moved > n / 2);
            gpt_free(&ref);
        }
    free(pa);
    free(pb);
}

static void test_model_same_bits(void)
{
    gpt_config cfg = {.max_seq_len = 8, .vocab_size = 70, .padded_vocab_size = 128, .num_layers = 2, .num_heads = 2,
                      .channels = 16};
    size_t n = gpt_num_params(&cfg);
    float *pa = malloc(n * sizeof(float)), *pb = malloc(n * sizeof(float));
    float la, lb;
    double na, nb;
    step_on(&gpt_ops_cpu, &la, &na, pa);
    step_on(&gpt_ops_checked, &lb, &nb, pb);
    CHECK(la > 3.0f && la < 6.0f);
    CHECK(memcmp(&la, &lb, sizeof la) == 0);
    CHECK(memcmp(&na, &nb, sizeof na) == 0);
    CHECK(memcmp(pa, pb, n * sizeof(float)) == 0);
    free(pa);
    free(pb);
}

/* Typed storage: bf16 and fp16 on the CPU and the checked table, bit for bit; an fp32 host
 * model allocated beside changes nothing (the table is told the precision at each forward,
 * backward and step); and the mixed-precision loss near the fp32 one. */
static void test_model_typed_same_bits(void)
{
    gpt_config cfg = {.max_seq_len = 8, .vocab_size = 70, .padded_vocab_size = 128, .num_layers = 2, .num_heads = 2,
                      .channels = 16};
    size_t n = gpt_num_params(&cfg);
    float *pa = malloc(n * sizeof(float)), *pb = malloc(n * sizeof(float)), *pc = malloc(n * sizeof(float));
    float l32, la, lb, lc;
    double n32, na, nb, nc;
    step_on(&gpt_ops_cpu, &l32, &n32, pa);
    for (int prec = 1; prec <= 2; prec++) {
        step_on_prec(&gpt_ops_cpu, &la, &na, pa, prec, 0);
        step_on_prec(&gpt_ops_checked, &lb, &nb, pb, prec, 0);
        step_on_prec(&gpt_ops_cpu, &lc, &nc, pc, prec, 1);
        CHECK(memcmp(&la, &lb, sizeof la) == 0 && memcmp(&la, &lc, sizeof la) == 0);
        CHECK(memcmp(&na, &nb, sizeof na) == 0 && memcmp(&na, &nc, sizeof na) == 0);
        CHECK(memcmp(pa, pb, n * sizeof(float)) == 0 && memcmp(pa, pc, n * sizeof(float)) == 0);
        CHECK(fabsf(la - l32) < 0.02f * l32 && la != l32); /* rounded, not ignored */
    }
    free(pa);
    free(pb);
    free(pc);
}

int main(void)
{
    RUN(test_comm_choose);
    RUN(test_checked_faults);
    RUN(test_checked_sync);
    RUN(test_model_same_bits);
    RUN(test_adamw_fused_scale);
    RUN(test_model_typed_same_bits);
    return check_total_failed != 0;
}

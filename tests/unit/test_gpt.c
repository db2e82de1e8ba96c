/* test_gpt.c - the CPU model against PyTorch (tests/fixtures/gpt/golden.safetensors,
 * made by tests/golden/make_gpt_golden.py): logits, loss, every gradient, and 10
 * AdamW steps with clipping; also gradient accumulation, initialisation
 * statistics and run-to-run reproducibility.
 *
 * Tolerances (fp32 C vs float64 PyTorch): logits 2e-5 absolute; loss 1e-5
 * relative; each gradient tensor 1e-4 of its largest magnitude; gradient norms
 * 1e-5 relative; parameters after 10 steps 5e-5 absolute. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/err.h"
#include "train/model/ckpt.h"
#include "train/model/gpt.h"
#include "train/model/safetensors.h"
#include "train/trainer.h"

static st_file gold;
static gpt_config cfg;
static int B, T, STEPS;

static int meta_int(const char *k)
{
    const char *v = st_meta(&gold, k);
    return v ? atoi(v) : -1;
}

static double meta_f(const char *k)
{
    const char *v = st_meta(&gold, k);
    return v ? atof(v) : NAN;
}

static void load_params(gpt_model *m, const char *prefix)
{
    char name[64];
    for (int t = 0; t < GPT_NUM_TENSORS; t++) {
        snprintf(name, sizeof name, "%s.%s", prefix, gpt_tensor_names[t]);
        const st_tensor *s = st_find(&gold, name);
        CHECK(s != NULL && (size_t)st_numel(s) == m->sizes[t]);
        if (s)
            memcpy(gpt_tensor(m, t), s->data, m->sizes[t] * sizeof(float));
    }
}

/* max |a - b| over n floats of a and the golden tensor, relative to max |b| if rel. */
static double max_err(const float *a, const st_tensor *b, int64_t n, int rel)
{
    double e = 0, mx = 0;
    for (int64_t i = 0; i < n; i++) {
        double g = st_get(b, i), d = fabs((double)a[i] - g);
        e = d > e ? d : e;
        mx = fabs(g) > mx ? fabs(g) : mx;
    }
    return rel ? e / (mx > 0 ? mx : 1) : e;
}

/* gpt_forward that must succeed: its loss (-1 without targets). */
static float fwd(gpt_model *m, const int32_t *in, const int32_t *tg, int b, int t)
{
    float loss = NAN;
    CHECK_EQ_INT(gpt_forward(m, in, tg, b, t, &loss), 0);
    return loss;
}

static void get_batch(int s, int32_t *in, int32_t *tg)
{
    const st_tensor *i = st_find(&gold, "inputs"), *t = st_find(&gold, "targets");
    memcpy(in, i->data + (size_t)s * B * T * 4, (size_t)B * T * 4);
    memcpy(tg, t->data + (size_t)s * B * T * 4, (size_t)B * T * 4);
}

static void test_forward_backward(void)
{
    gpt_model m;
    CHECK_EQ_INT(gpt_alloc(&m, &cfg), 0);
    load_params(&m, "param");
    int32_t in[4096], tg[4096];
    get_batch(0, in, tg);
    float loss = fwd(&m, in, tg, B, T);
    double el = max_err((const float *)m.logits, st_find(&gold, "logits0"), (int64_t)B * T * cfg.padded_vocab_size, 0);
    double want = st_get(st_find(&gold, "losses"), 0);
    printf("  logits max abs err %.2e, loss %.7f vs torch %.7f\n", el, loss, want);
    CHECK(el < 2e-5);
    CHECK(fabs(loss - want) / want < 1e-5);
    gpt_zero_grad(&m);
    gpt_backward(&m, 1.0f);
    double worst = 0;
    for (int t = 0; t < GPT_NUM_TENSORS; t++) {
        char name[64];
        snprintf(name, sizeof name, "grad.%s", gpt_tensor_names[t]);
        double e = max_err(gpt_grad(&m, t), st_find(&gold, name), (int64_t)m.sizes[t], 1);
        if (e >= 1e-4)
            printf("  gradient of %s: relative error %.2e\n", gpt_tensor_names[t], e);
        CHECK(e < 1e-4);
        worst = e > worst ? e : worst;
    }
    printf("  gradients: worst relative error %.2e\n", worst);
    /* Same forward again: bit-identical loss. */
    float loss2 = fwd(&m, in, tg, B, T);
    CHECK(memcmp(&loss, &loss2, sizeof loss) == 0);
    gpt_free(&m);
}

/* 10 steps; micro > 1 splits each batch into micro micro-batches (gradient accumulation). */
static void run_steps(int micro)
{
    gpt_model m;
    CHECK_EQ_INT(gpt_alloc(&m, &cfg), 0);
    load_params(&m, "param");
    const st_tensor *lrs = st_find(&gold, "lrs"), *losses = st_find(&gold, "losses"),
                    *norms = st_find(&gold, "grad_norms");
    double clip = meta_f("clip"), worst_loss = 0, worst_norm = 0;
    int32_t in[4096], tg[4096];
    int mb = B / micro;
    for (int s = 0; s < STEPS; s++) {
        get_batch(s, in, tg);
        gpt_zero_grad(&m);
        double loss = 0;
        for (int k = 0; k < micro; k++) {
            loss += fwd(&m, in + k * mb * T, tg + k * mb * T, mb, T) / micro;
            gpt_backward(&m, 1.0f / micro);
        }
        double norm = gpt_grad_norm(&m);
        if (norm > clip)
            gpt_scale_grads(&m, (float)(clip / (norm + 1e-6)));
        gpt_adamw(&m, 1.0f, (float)st_get(lrs, s), (float)meta_f("beta1"), (float)meta_f("beta2"), (float)meta_f("eps"),
                  (float)meta_f("wd"), s + 1);
        double el = fabs(loss - st_get(losses, s)) / st_get(losses, s);
        double en = fabs(norm - st_get(norms, s)) / st_get(norms, s);
        worst_loss = el > worst_loss ? el : worst_loss;
        worst_norm = en > worst_norm ? en : worst_norm;
    }
    double worst_p = 0;
    for (int t = 0; t < GPT_NUM_TENSORS; t++) {
        char name[64];
        snprintf(name, sizeof name, "final.%s", gpt_tensor_names[t]);
        double e = max_err(gpt_tensor(&m, t), st_find(&gold, name), (int64_t)m.sizes[t], 0);
        worst_p = e > worst_p ? e : worst_p;
    }
    printf("  %d steps, %d micro-batch(es): loss rel err %.2e, grad norm rel err %.2e, params abs err %.2e\n", STEPS,
           micro, worst_loss, worst_norm, worst_p);
    CHECK(worst_loss < 1e-5);
    CHECK(worst_norm < 1e-5);
    CHECK(worst_p < 5e-5);
    gpt_free(&m);
}

static void test_adamw_steps(void) { run_steps(1); }
static void test_grad_accumulation(void) { run_steps(2); }

static void test_init(void)
{
    gpt_config c = {.max_seq_len = 64, .vocab_size = 1000, .padded_vocab_size = gpt_padded_vocab(1000),
                    .num_layers = 4, .num_heads = 4, .channels = 64};
    CHECK_EQ_INT(c.padded_vocab_size, 1024);
    gpt_model a, b;
    CHECK_EQ_INT(gpt_alloc(&a, &c), 0);
    CHECK_EQ_INT(gpt_alloc(&b, &c), 0);
    gpt_init_weights(&a, 42, 0.02f);
    gpt_init_weights(&b, 42, 0.02f);
    CHECK(memcmp(a.params, b.params, a.num_params * sizeof(float)) == 0);
    gpt_init_weights(&b, 43, 0.02f);
    CHECK(memcmp(a.params, b.params, a.num_params * sizeof(float)) != 0);
    struct { int t; double std; } want[] = {{GPT_WTE, 0.02}, {GPT_QKVW, 0.02}, {GPT_FCW, 0.02},
                                            {GPT_ATTPROJW, 0.02 / sqrt(8.0)}, {GPT_FCPROJW, 0.02 / sqrt(8.0)}};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        const float *p = gpt_tensor(&a, want[k].t);
        size_t n = want[k].t == GPT_WTE ? (size_t)1000 * 64 : a.sizes[want[k].t];
        double s = 0, s2 = 0;
        for (size_t i = 0; i < n; i++) {
            s += p[i];
            s2 += (double)p[i] * p[i];
        }
        double mean = s / n, std = sqrt(s2 / n - mean * mean);
        CHECK(fabs(mean) < 3 * want[k].std / sqrt((double)n) + 1e-6);
        CHECK(fabs(std / want[k].std - 1) < 0.02);
    }
    const float *wte = gpt_tensor(&a, GPT_WTE);
    int pad_zero = 1;
    for (size_t i = (size_t)1000 * 64; i < (size_t)1024 * 64; i++)
        pad_zero &= wte[i] == 0.0f;
    CHECK(pad_zero);
    CHECK(gpt_tensor(&a, GPT_LN1W)[5] == 1.0f && gpt_tensor(&a, GPT_QKVB)[7] == 0.0f);
    c.channels = 66;
    CHECK_EQ_INT(gpt_config_check(&c), ERR_USAGE);
    gpt_free(&a);
    gpt_free(&b);
}

/* Save, load, and refuse damaged or mismatched checkpoints. */
static void test_ckpt(void)
{
    gpt_config c = {.max_seq_len = 4, .vocab_size = 10, .padded_vocab_size = 128, .num_layers = 1, .num_heads = 1,
                    .channels = 4};
    gpt_model a, b;
    CHECK_EQ_INT(gpt_alloc(&a, &c), 0);
    CHECK_EQ_INT(gpt_num_params(&c), a.num_params);
    gpt_init_weights(&a, 7, 0.02f);
    for (size_t i = 0; i < a.num_params; i++) {
        a.adam_m[i] = (float)i;
        a.adam_v[i] = (float)(2 * i);
    }
    char dir[] = "/tmp/test_ckpt.XXXXXX", *path = NULL;
    CHECK(mkdtemp(dir) != NULL);
    ckpt_state st = {.iteration = 42, .consumed_train = 420, .consumed_valid = 7, .adam_step = 41,
                     .skipped_iters = 1, .seed = 1234, .seq_length = 4, .micro_batch = 2, .global_batch = 10};
    CHECK_EQ_INT(ckpt_save(dir, &a, &st), 0);
    CHECK_EQ_INT(ckpt_find_latest(dir, &path), 0);
    CHECK(path && strstr(path, "iter_0000042/model.ckpt"));
    gpt_config c2;
    ckpt_state s2;
    CHECK_EQ_INT(ckpt_read_header(path, &c2, &s2), 0);
    CHECK(memcmp(&c, &c2, sizeof c) == 0 && memcmp(&st, &s2, sizeof st) == 0);
    CHECK_EQ_INT(gpt_alloc(&b, &c), 0);
    CHECK_EQ_INT(ckpt_load(path, &b, &s2), 0);
    CHECK(memcmp(a.params, b.params, a.num_params * 4) == 0 && memcmp(a.adam_v, b.adam_v, a.num_params * 4) == 0);
    /* a copy for the fuzz seed corpus, when asked */
    if (getenv("SAVE_CKPT_SEED")) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "cp %s %s", path, getenv("SAVE_CKPT_SEED"));
        CHECK_EQ_INT(system(cmd), 0);
    }
    /* one flipped bit in the moments: checksum */
    FILE *f = fopen(path, "r+b");
    fseek(f, 160 + 4 * (long)a.num_params * 2 + 12, SEEK_SET);
    fputc(0x40, f);
    fclose(f);
    CHECK_EQ_INT(ckpt_load(path, &b, &s2), ERR_CORRUPT);
    CHECK(strstr(err_msg(), "checksum mismatch") != NULL);
    /* another model shape */
    gpt_model w;
    gpt_config c3 = c;
    c3.channels = 8;
    CHECK_EQ_INT(gpt_alloc(&w, &c3), 0);
    CHECK_EQ_INT(ckpt_load(path, &w, &s2), ERR_FORMAT);
    gpt_free(&w);
    /* truncated */
    CHECK_EQ_INT(truncate(path, 1000), 0);
    CHECK_EQ_INT(ckpt_read_header(path, &c2, &s2), ERR_CORRUPT);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ_INT(system(cmd), 0);
    free(path);
    gpt_free(&a);
    gpt_free(&b);
}

/* Megatron's OptimizerParamScheduler, values worked out by hand. */
static void test_lr_schedule(void)
{
    train_args a;
    train_args_defaults(&a);
    a.lr = 1e-3;
    a.min_lr = 1e-4;
    a.train_iters = 100;
    a.lr_warmup_iters = 10;
    a.lr_decay_style = "linear";
    CHECK(train_lr_at(&a, 0) == 0.0);
    CHECK(fabs(train_lr_at(&a, 5) - 5e-4) < 1e-15);
    CHECK(fabs(train_lr_at(&a, 10) - 1e-3) < 1e-15);
    CHECK(fabs(train_lr_at(&a, 55) - (1e-4 + 0.5 * 9e-4)) < 1e-15); /* halfway through the decay */
    CHECK(fabs(train_lr_at(&a, 100) - 1e-4) < 1e-15);
    CHECK(train_lr_at(&a, 101) == 1e-4);
    a.lr_decay_style = "cosine";
    CHECK(fabs(train_lr_at(&a, 55) - (1e-4 + 0.5 * 9e-4)) < 1e-15);
    CHECK(fabs(train_lr_at(&a, 32.5 + 0.5) - (1e-4 + 0.5 * (cos(M_PI * 23.0 / 90) + 1) * 9e-4)) < 1e-15);
    a.lr_decay_style = "constant";
    CHECK(train_lr_at(&a, 60) == 1e-3 && fabs(train_lr_at(&a, 5) - 5e-4) < 1e-15);
    a.lr_decay_style = "linear";
    a.lr_warmup_iters = 0;
    a.lr_warmup_fraction = 0.1;
    a.lr_decay_iters = 50; /* warmup = 5 iterations, decay to iteration 50 */
    CHECK(fabs(train_lr_at(&a, 5) - 1e-3) < 1e-15);
    CHECK(fabs(train_lr_at(&a, 50) - 1e-4) < 1e-15);
    CHECK(train_lr_at(&a, 70) == 1e-4);
}

/* ZeRO-3's view of the model: units that cover every parameter once, and a forward and
 * backward through the unit hooks (parameters gathered from, gradients handed to, a flat
 * copy; the model's own arrays gone) that compute the flat path's loss and gradients bit
 * for bit, asking for each unit once per pass and releasing all of them. */
typedef struct {
    const gpt_model *shape;
    float *flat_p, *flat_g, *pbuf[64], *gbuf[64];
    int gathers, releases, done;
    int next, named, missed; /* the unit named as the next (--overlap-param-gather's prefetch) */
} unit_ctx;

/* Unit u's packed buffer <-> a flat array: to_buf copies into the buffer, else
 * the buffer is added into the flat array. */
static void t_unit_copy(const gpt_model *m, int u, float *buf, float *flat, int to_buf)
{
    gpt_seg seg[GPT_UNIT_MAX_SEGS];
    int ns = gpt_unit_segs(m, u, seg);
    size_t pos = 0;
    for (int i = 0; i < ns; pos += seg[i].n, i++)
        for (size_t j = 0; j < seg[i].n; j++) {
            if (to_buf)
                buf[pos + j] = flat[seg[i].off + j];
            else
                flat[seg[i].off + j] += buf[pos + j];
        }
}

static float *t_gather(void *c, int u, int next)
{
    unit_ctx *x = c;
    /* a layer named as the next one is the unit gathered next */
    if (x->next >= 0 && u != x->next)
        x->missed++;
    x->named += next >= 0;
    x->next = next;
    t_unit_copy(x->shape, u, x->pbuf[u], x->flat_p, 1);
    x->gathers++;
    return x->pbuf[u];
}
static void t_release(void *c, int u)
{
    unit_ctx *x = c;
    gpt_seg seg[GPT_UNIT_MAX_SEGS];
    int ns = gpt_unit_segs(x->shape, u, seg);
    size_t n = 0;
    for (int i = 0; i < ns; i++)
        n += seg[i].n;
    for (size_t i = 0; i < n; i++)
        x->pbuf[u][i] = NAN; /* a use after release would show */
    x->releases++;
}
static float *t_grad_buf(void *c, int u)
{
    unit_ctx *x = c;
    memset(x->gbuf[u], 0, 4 * 4096 * 64);
    return x->gbuf[u];
}
static void t_grad_done(void *c, int u)
{
    unit_ctx *x = c;
    t_unit_copy(x->shape, u, x->gbuf[u], x->flat_g, 0);
    x->done++;
}

static void test_units(void)
{
    gpt_model a, b;
    CHECK_EQ_INT(gpt_alloc(&a, &cfg), 0);
    CHECK_EQ_INT(gpt_alloc(&b, &cfg), 0);
    load_params(&a, "param");
    int nu = gpt_num_units(&a);
    CHECK_EQ_INT(nu, cfg.num_layers + 2);
    unsigned char *seen = calloc(a.num_params, 1);
    size_t biggest = 0;
    for (int u = 0; u < nu; u++) {
        gpt_seg seg[GPT_UNIT_MAX_SEGS];
        int ns = gpt_unit_segs(&a, u, seg);
        CHECK_EQ_INT(ns, u == 0 || u == nu - 1 ? 2 : 12);
        size_t n = 0;
        for (int i = 0; i < ns; i++) {
            n += seg[i].n;
            for (size_t j = 0; j < seg[i].n; j++)
                seen[seg[i].off + j]++;
        }
        biggest = n > biggest ? n : biggest;
    }
    int once = 1;
    for (size_t i = 0; i < a.num_params; i++)
        once &= seen[i] == 1;
    CHECK(once);
    free(seen);
    CHECK(biggest <= 4096 * 64 && nu <= 64);
    unit_ctx x = {.shape = &b, .flat_p = malloc(a.num_params * 4), .flat_g = calloc(a.num_params, 4), .next = -1};
    memcpy(x.flat_p, a.params, a.num_params * 4);
    for (int u = 0; u < nu; u++) {
        x.pbuf[u] = malloc(4 * 4096 * 64);
        x.gbuf[u] = malloc(4 * 4096 * 64);
    }
    gpt_unit_hooks h = {&x, t_gather, t_release, t_grad_buf, t_grad_done};
    CHECK_EQ_INT(gpt_set_unit_hooks(&b, &h), 0);
    free(b.params);
    free(b.grads);
    b.params = b.grads = NULL; /* ZeRO-3: the model holds no parameters or gradients of its own */
    int32_t in[4096], tg[4096];
    get_batch(0, in, tg);
    float la = fwd(&a, in, tg, B, T);
    gpt_zero_grad(&a);
    gpt_backward(&a, 1.0f);
    float lb = fwd(&b, in, tg, B, T);
    CHECK_EQ_INT(x.gathers, nu); /* each unit once; the embedding kept for the logits */
    gpt_backward(&b, 1.0f);
    CHECK_EQ_INT(x.gathers, 2 * nu);
    CHECK_EQ_INT(x.releases, 2 * nu);
    CHECK_EQ_INT(x.done, nu);
    /* each pass names every layer but its last as the next one, and names it right */
    CHECK_EQ_INT(x.named, 2 * (nu - 3));
    CHECK_EQ_INT(x.missed, 0);
    CHECK(memcmp(&la, &lb, sizeof la) == 0);
    CHECK(memcmp(a.grads, x.flat_g, a.num_params * 4) == 0);
    /* and a forward alone (evaluation) releases what it gathered */
    CHECK(fwd(&b, in, NULL, B, T) == -1.0f);
    CHECK_EQ_INT(x.gathers, x.releases);
    for (int u = 0; u < nu; u++) {
        free(x.pbuf[u]);
        free(x.gbuf[u]);
    }
    free(x.flat_p);
    free(x.flat_g);
    gpt_free(&a);
    gpt_free(&b);
}

/* The forward's failures come back as codes, each its own: a shape outside the
 * model's is a usage error, activations that cannot be had are out of memory. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static void test_forward_errors(void)
{
    gpt_config c = {.max_seq_len = 1024, .vocab_size = 100, .padded_vocab_size = 128, .num_layers = 1,
                    .num_heads = 2, .channels = 32};
    gpt_model m;
    CHECK_EQ_INT(gpt_alloc(&m, &c), 0);
    gpt_init_weights(&m, 1, 0.02f);
    int32_t in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float loss = 123;
    CHECK_EQ_INT(gpt_forward(&m, in, in, 1, 1025, &loss), ERR_USAGE);
    CHECK(strstr(err_msg(), "sequence length 1025") != NULL);
    CHECK_EQ_INT(gpt_forward(&m, in, in, 0, 8, &loss), ERR_USAGE);
    /* 2^30 x 1024 tokens: 2^47 bytes for the first activation alone, more than any
     * address space (nothing is read from in: the allocation comes first) */
    CHECK_EQ_INT(gpt_forward(&m, in, in, 1 << 30, 1024, &loss), ERR_NOMEM);
    CHECK(strstr(err_msg(), "memory for activations") != NULL);
    CHECK(loss == 0.0f); /* nothing half-computed comes back */
    /* and the model still works after the failures */
    CHECK_EQ_INT(gpt_forward(&m, in, in, 1, 8, &loss), 0);
    CHECK(loss > 4.0f && loss < 5.2f); /* ~ln(100) at initialisation */
    CHECK_EQ_INT(gpt_forward(&m, in, NULL, 1, 8, &loss), 0);
    CHECK(loss == -1.0f);
    gpt_free(&m);
}

int main(void)
{
    if (st_open(&gold, "tests/fixtures/gpt/golden.safetensors") != 0) {
        printf("  %s\nFAIL load_golden\n", err_msg());
        return 1;
    }
    B = meta_int("B");
    T = meta_int("T");
    STEPS = meta_int("steps");
    cfg = (gpt_config){.max_seq_len = meta_int("maxT"), .vocab_size = meta_int("V"),
                       .padded_vocab_size = meta_int("Vp"), .num_layers = meta_int("L"),
                       .num_heads = meta_int("NH"), .channels = meta_int("C")};
    RUN(test_forward_backward);
    RUN(test_forward_errors);
    RUN(test_adamw_steps);
    RUN(test_grad_accumulation);
    RUN(test_units);
    RUN(test_init);
    RUN(test_ckpt);
    RUN(test_lr_schedule);
    st_close(&gold);
    return check_total_failed ? 1 : 0;
}

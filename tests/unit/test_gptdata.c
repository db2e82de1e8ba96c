/* test_gptdata.c - Megatron's GPT sample index and blends against Megatron-LM's
 * own code (tests/fixtures/gptdata/golden_megatron.json, made by
 * tests/golden/megatron_fixtures.py with megatron-core), the numpy-compatible
 * MT19937, split bounds, blending and the index cache. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/err.h"
#include "train/data/gptdata.h"
#include "train/data/mt19937.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    } else {
        s[n] = 0;
    }
    fclose(f);
    return s;
}

static void test_mt19937_numpy(void)
{
    /* numpy: r = RandomState(1234); a = arange(10); r.shuffle(a) */
    mt19937 r;
    mt19937_seed(&r, 1234);
    int32_t a[10];
    for (int i = 0; i < 10; i++)
        a[i] = i;
    mt19937_shuffle_i32(&r, a, 10);
    int32_t want[10] = {7, 2, 9, 1, 0, 8, 4, 5, 6, 3};
    CHECK(memcmp(a, want, sizeof a) == 0);
    /* RandomState(5489) gives the reference MT19937 stream: 10000th output 4123659995. */
    mt19937_seed(&r, 5489);
    uint32_t v = 0;
    for (int i = 0; i < 10000; i++)
        v = mt19937_next32(&r);
    CHECK_EQ_INT(v, 4123659995u);
}

static void test_split_bounds(void)
{
    double f[3];
    int64_t b[4];
    CHECK_EQ_INT(gptdata_parse_split("969,30,1", f), 0);
    gptdata_split_bounds(f, 12345, b);
    CHECK_EQ_INT(b[1], 11962);
    CHECK_EQ_INT(b[2], 12333);
    CHECK_EQ_INT(b[3], 12345);
    CHECK_EQ_INT(gptdata_parse_split("1", f), 0);
    gptdata_split_bounds(f, 10, b);
    CHECK(b[1] == 10 && b[2] == 10 && b[3] == 10);
    CHECK_EQ_INT(gptdata_parse_split("0,0,0", f), ERR_USAGE);
    CHECK_EQ_INT(gptdata_parse_split("9,x", f), ERR_USAGE);
    CHECK_EQ_INT(gptdata_parse_split("-1,2", f), ERR_USAGE);
    CHECK_EQ_INT(gptdata_parse_split("8/1,1", f), ERR_USAGE);
}

static int cmp_i64_json(const int64_t *a, int64_t n, const cJSON *arr)
{
    if (cJSON_GetArraySize(arr) != n)
        return 0;
    int64_t i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, arr)
    {
        if ((int64_t)x->valuedouble != a[i++])
            return 0;
    }
    return 1;
}

static int cmp_i32_json(const int32_t *a, int64_t n, const cJSON *arr)
{
    if (cJSON_GetArraySize(arr) != n)
        return 0;
    int64_t i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, arr)
    {
        if ((int32_t)x->valuedouble != a[i++])
            return 0;
    }
    return 1;
}

/* The hash tests/golden/megatron_fixtures.py writes: sum over every token t_j of
 * all samples, in order, of (t_j + 1) * P^j mod 2^64. */
static uint64_t token_hash_add(uint64_t h, uint64_t *pw, const int32_t *t, int n)
{
    for (int i = 0; i < n; i++) {
        h += ((uint64_t)(int64_t)t[i] + 1) * *pw;
        *pw *= 0x100000001B3ull;
    }
    return h;
}

static int megatron_compared, megatron_identical, megatron_configs;

static void check_config(const cJSON *c, const char *cache_dir, int expect_cached, int count)
{
    const char *paths[4];
    double weights[4];
    char buf[4][256];
    int n = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(c, "datasets"))
    {
        snprintf(buf[n], sizeof buf[n], "tests/fixtures/gptdata/%s", x->valuestring);
        paths[n] = buf[n];
        n++;
    }
    int k = 0;
    const cJSON *wj = cJSON_GetObjectItem(c, "weights");
    cJSON_ArrayForEach(x, wj) weights[k++] = x->valuedouble;
    gptdata_config cfg = {0};
    cfg.paths = paths;
    cfg.weights = cJSON_IsNull(wj) ? NULL : weights; /* null: no weights, as Megatron's blend says */
    cfg.n_paths = n;
    cfg.split = cJSON_GetObjectItem(c, "split")->valuestring;
    cfg.seq_length = cJSON_GetObjectItem(c, "seq_length")->valueint;
    cfg.seed = (uint32_t)cJSON_GetObjectItem(c, "seed")->valuedouble;
    cfg.cache_dir = cache_dir;
    cfg.quiet = 1;
    k = 0;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(c, "num_samples")) cfg.num_samples[k++] = (int64_t)x->valuedouble;
    gptdata d;
    int rc = gptdata_open(&d, &cfg);
    CHECK_EQ_INT(rc, 0);
    if (rc) {
        printf("  %s\n", err_msg());
        return;
    }
    int L = cfg.seq_length;
    int32_t *tok = malloc((size_t)(L + 1) * sizeof *tok);
    const cJSON *splits = cJSON_GetObjectItem(c, "splits");
    for (int s = 0; s < 3; s++) {
        const cJSON *e = cJSON_GetArrayItem(splits, s);
        if (cJSON_IsNull(e)) {
            CHECK_EQ_INT(d.size[s], 0);
            continue;
        }
        CHECK_EQ_INT(d.size[s], (int64_t)cJSON_GetObjectItem(e, "size")->valuedouble);
        int i = 0;
        cJSON_ArrayForEach(x, cJSON_GetObjectItem(e, "per_dataset"))
        {
            const gptidx *g = &d.idx[i][s];
            if (expect_cached >= 0) /* -1: either (configurations share some indices) */
                CHECK_EQ_INT(g->from_cache, expect_cached);
            CHECK_EQ_INT(g->seq_lo, cJSON_GetObjectItem(x, "seq_lo")->valueint);
            CHECK_EQ_INT(g->seq_hi, cJSON_GetObjectItem(x, "seq_hi")->valueint);
            if (cJSON_GetObjectItem(x, "epochs")) {
                CHECK_EQ_INT(g->num_epochs, cJSON_GetObjectItem(x, "epochs")->valueint);
                CHECK_EQ_INT(g->separate_final_epoch, cJSON_GetObjectItem(x, "separate_final_epoch")->valueint);
            }
            CHECK(cmp_i32_json(g->doc_index, g->n_doc_index, cJSON_GetObjectItem(x, "doc_index")));
            CHECK(cmp_i64_json(g->sample_index, 2 * (g->n_samples + 1), cJSON_GetObjectItem(x, "sample_index")));
            CHECK(cmp_i64_json(g->shuffle_index, g->n_samples, cJSON_GetObjectItem(x, "shuffle_index")));
            i++;
        }
        CHECK_EQ_INT(i, n);
        const cJSON *bd = cJSON_GetObjectItem(e, "blend_dataset");
        if (bd) {
            CHECK(d.blended);
            if (d.blended) {
                int64_t *tmp = malloc((size_t)d.size[s] * sizeof *tmp);
                for (int64_t q = 0; q < d.size[s]; q++)
                    tmp[q] = d.blend_ds[s][q];
                CHECK(cmp_i64_json(tmp, d.size[s], bd));
                CHECK(cmp_i64_json(d.blend_sample[s], d.size[s], cJSON_GetObjectItem(e, "blend_sample")));
                free(tmp);
            }
        }
        const cJSON *th = cJSON_GetObjectItem(e, "tokens_hash");
        if (cJSON_IsString(th)) {
            /* every sample of the split, through the same gptdata_get the trainer uses */
            uint64_t h = 0, pw = 1;
            for (int64_t q = 0; q < d.size[s]; q++) {
                gptdata_get(&d, s, q, tok);
                h = token_hash_add(h, &pw, tok, L + 1);
            }
            char hex[17];
            snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
            CHECK_EQ_STR(hex, th->valuestring);
            if (count) {
                megatron_compared += (int)d.size[s];
                megatron_identical += strcmp(hex, th->valuestring) ? 0 : (int)d.size[s];
            }
        }
        int64_t j = 0;
        cJSON_ArrayForEach(x, cJSON_GetObjectItem(e, "first_samples"))
        {
            gptdata_get(&d, s, j++, tok);
            int32_t want[4096];
            int m = 0;
            const cJSON *t;
            cJSON_ArrayForEach(t, x) want[m++] = t->valueint;
            CHECK_EQ_INT(m, L + 1);
            if (memcmp(want, tok, (size_t)m * 4) != 0) {
                int p = 0;
                while (want[p] == tok[p])
                    p++;
                printf("  split %d sample %lld (L %d, cached %d): token %d is %d, Megatron says %d\n", s,
                       (long long)j - 1, L, expect_cached, p, tok[p], want[p]);
                CHECK(0);
            }
        }
    }
    free(tok);
    gptdata_close(&d);
}

/* Megatron-LM's own code (megatron-core, tests/golden/megatron_fixtures.py): every
 * sample of every split of single datasets over the epoch regimes (empty and
 * multi-sequence documents, splits of no samples), weighted blends of 2-3
 * datasets at several sizes, unweighted multi-prefix blends and one weighted
 * prefix; then the same from the cache, and after every cache file is damaged. */
static void test_megatron_golden(void)
{
    char *s = slurp("tests/fixtures/gptdata/golden_megatron.json");
    CHECK(s != NULL);
    if (!s)
        return;
    cJSON *g = cJSON_Parse(s);
    free(s);
    char dir[] = "/tmp/test_gptdata.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(g, "configs"))
    {
        check_config(c, dir, -1, 1);
        megatron_configs++;
    }
    printf("  megatron-core %s: %d configurations, %d of %d samples identical\n",
           cJSON_GetObjectItem(g, "megatron_core")->valuestring, megatron_configs, megatron_identical,
           megatron_compared);
    CHECK(megatron_compared > 40000 && megatron_identical == megatron_compared);
    /* Second pass reads every index from the cache. */
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(g, "configs")) check_config(c, dir, 1, 0);
    /* Damage every cache file (one byte in the middle, then a truncation):
     * each is rebuilt, and the results are still Megatron's. */
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "for f in %s/*.gptidx; do printf '\\377' | dd of=$f bs=1 seek=100 conv=notrunc status=none; done", dir);
    CHECK_EQ_INT(system(cmd), 0);
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(g, "configs")) check_config(c, dir, -1, 0);
    snprintf(cmd, sizeof cmd, "for f in %s/*.gptidx; do truncate -s 60 $f; done", dir);
    CHECK_EQ_INT(system(cmd), 0);
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(g, "configs")) check_config(c, dir, -1, 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ_INT(system(cmd), 0);
    cJSON_Delete(g);
}

static void test_blend_proportions(void)
{
    double w[3] = {0.5, 0.3, 0.2};
    uint8_t ds[1000];
    int64_t smp[1000];
    gptdata_blend(w, 3, 1000, ds, smp);
    int cnt[3] = {0, 0, 0};
    for (int i = 0; i < 1000; i++) {
        CHECK_EQ_INT(smp[i], cnt[ds[i]]);
        cnt[ds[i]]++;
    }
    CHECK(cnt[0] == 500 && cnt[1] == 300 && cnt[2] == 200);
}

static void test_bad_data(void)
{
    gptdata d;
    const char *p[1] = {"tests/fixtures/gptdata/nonexistent"};
    gptdata_config cfg = {.paths = p, .n_paths = 1, .split = "1,0,0", .seq_length = 8, .seed = 1, .quiet = 1};
    cfg.num_samples[0] = 10;
    CHECK(gptdata_open(&d, &cfg) < 0);
    CHECK(strstr(err_msg(), "nonexistent") != NULL);
    p[0] = "tests/fixtures/gptdata/b";
    cfg.split = "0,1,0";
    CHECK_EQ_INT(gptdata_open(&d, &cfg), ERR_USAGE);
    CHECK(strstr(err_msg(), "train split") != NULL);
    double w[1] = {-1};
    cfg.split = "1";
    cfg.weights = w;
    CHECK_EQ_INT(gptdata_open(&d, &cfg), ERR_USAGE);
}

int main(void)
{
    RUN(test_mt19937_numpy);
    RUN(test_split_bounds);
    RUN(test_megatron_golden);
    RUN(test_blend_proportions);
    RUN(test_bad_data);
    return check_total_failed ? 1 : 0;
}

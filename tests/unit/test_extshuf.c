/* Unit tests of preprocess/extshuf: permutation, determinism across memory
 * bounds, uniformity, edge cases. */
#include "common/err.h"
#include "common/io.h"
#include "preprocess/shuffle/extshuf.h"
#include "tests/unit/check.h"

#include <stdlib.h>
#include <unistd.h>

static char dir[64];

static void write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, n, f);
    fclose(f);
}

/* Shuffle `in` to a file and return its contents (malloc'd). */
static char *shuffle_to_string(const char *in, uint64_t seed, uint64_t memory, extshuf_stats *st, int *rc)
{
    char out[128];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    io_writer *w;
    io_writer_open(&w, out, NULL);
    const char *inputs[] = { in };
    extshuf_opts o = { seed, memory, dir };
    *rc = extshuf_run(inputs, 1, w, &o, st);
    if (*rc < 0) {
        io_writer_abort(w);
        return NULL;
    }
    io_writer_commit(w);
    FILE *f = fopen(out, "rb");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) n = 0;
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int cmp_line(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void test_permutation_and_memory_independence(void)
{
    char in[128];
    snprintf(in, sizeof in, "%s/in.txt", dir);
    size_t n = 50000;
    char *data = malloc(n * 16);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) len += (size_t)sprintf(data + len, "doc-%zu%s\n", i, i % 7 ? "" : "-longer-line");
    write_file(in, data, len);
    extshuf_stats st;
    int rc;
    char *a = shuffle_to_string(in, 99, 1ull << 30, &st, &rc);
    CHECK_EQ_INT(rc, 0);
    CHECK_EQ_INT(st.buckets, 0);
    CHECK_EQ_INT(st.lines, n);
    char *b = shuffle_to_string(in, 99, 64 << 10, &st, &rc); /* forces buckets and a second level */
    CHECK_EQ_INT(rc, 0);
    CHECK(st.buckets > 0 && st.levels >= 2);
    char *c = shuffle_to_string(in, 99, 256 << 10, &st, &rc);
    CHECK(a && b && c && strcmp(a, b) == 0 && strcmp(a, c) == 0);
    char *d = shuffle_to_string(in, 100, 1ull << 30, &st, &rc);
    CHECK(d && strcmp(a, d) != 0);
    CHECK(strcmp(a, data) != 0);
    /* same multiset of lines */
    char **la = malloc(n * sizeof *la), **lb = malloc(n * sizeof *lb);
    size_t k = 0;
    for (char *t = strtok(a, "\n"); t; t = strtok(NULL, "\n")) la[k++] = t;
    CHECK_EQ_INT(k, n);
    k = 0;
    for (char *t = strtok(data, "\n"); t && k < n; t = strtok(NULL, "\n")) lb[k++] = t;
    qsort(la, n, sizeof *la, cmp_line);
    qsort(lb, n, sizeof *lb, cmp_line);
    int same = 1;
    for (size_t i = 0; i < n; i++) same &= strcmp(la[i], lb[i]) == 0;
    CHECK(same);
    free(la), free(lb), free(a), free(b), free(c), free(d), free(data);
}

static void test_uniformity(void)
{
    /* 3 lines, 6000 seeds: each of the 6 orders about 1000 times. Seeds are
     * fixed, so this cannot flake; bounds are 5 standard deviations. */
    int count[8] = { 0 };
    for (uint64_t seed = 0; seed < 6000; seed++) {
        uint64_t k[3];
        for (int i = 0; i < 3; i++) k[i] = extshuf_key(seed, (uint64_t)i);
        count[(k[0] < k[1]) + 2 * (k[1] < k[2]) + 4 * (k[0] < k[2])]++; /* 6 reachable codes */
    }
    int seen = 0;
    for (int i = 0; i < 8; i++)
        if (count[i]) {
            seen++;
            CHECK(count[i] > 1000 - 5 * 29 && count[i] < 1000 + 5 * 29);
        }
    CHECK_EQ_INT(seen, 6);
    /* first position of 10 lines over 10000 seeds */
    int first[10] = { 0 };
    for (uint64_t seed = 0; seed < 10000; seed++) {
        int best = 0;
        for (int i = 1; i < 10; i++)
            if (extshuf_key(seed, (uint64_t)i) < extshuf_key(seed, (uint64_t)best)) best = i;
        first[best]++;
    }
    for (int i = 0; i < 10; i++) CHECK(first[i] > 1000 - 5 * 30 && first[i] < 1000 + 5 * 30);
}

static void test_edges(void)
{
    char in[128];
    snprintf(in, sizeof in, "%s/edge.txt", dir);
    extshuf_stats st;
    int rc;
    write_file(in, "", 0);
    char *s = shuffle_to_string(in, 1, 1 << 20, &st, &rc);
    CHECK(rc == 0 && s && s[0] == '\0');
    free(s);
    write_file(in, "only", 4);
    s = shuffle_to_string(in, 1, 1 << 20, &st, &rc);
    CHECK_EQ_STR(s, "only\n");
    free(s);
    write_file(in, "a\n\nb\n", 5); /* empty lines are lines */
    s = shuffle_to_string(in, 1, 1 << 20, &st, &rc);
    CHECK(s && strlen(s) == 5);
    free(s);
    s = shuffle_to_string("/no/such/input", 1, 1 << 20, &st, &rc);
    CHECK_EQ_INT(rc, ERR_IO);
    s = shuffle_to_string(in, 1, 1000, &st, &rc);
    CHECK_EQ_INT(rc, ERR_USAGE);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_extshuf.XXXXXX");
    if (!mkdtemp(dir)) return 1;
    RUN(test_permutation_and_memory_independence);
    RUN(test_uniformity);
    RUN(test_edges);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    return check_total_failed ? 1 : 0;
}

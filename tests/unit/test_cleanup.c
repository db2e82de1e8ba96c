/* Unit tests of the cleanup stage as a library (preprocess/filters/cleanup.c): a batch split
 * into the workers' chunks is processed whole, on a pool or on this thread alone (the
 * case of a pool whose threads could not be started, as under a memory limit). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pool.h"
#include "preprocess/filters/cleanup.h"
#include "tests/unit/check.h"

enum { NREC = 37 };

/* NREC records whose texts fix_text changes (a curly quote to a straight one) */
static void make_batch(cleanup_batch *b, char **lines)
{
    memset(b, 0, sizeof *b);
    b->r = calloc(NREC, sizeof *b->r);
    CHECK(b->r != NULL);
    if (!b->r) return;
    b->cap = b->n = NREC;
    for (int i = 0; i < NREC; i++) {
        char buf[128];
        snprintf(buf, sizeof buf, "{\"id\": %d, \"text\": \"record %d\xe2\x80\x99s text\"}", i, i);
        lines[i] = strdup(buf);
        b->r[i].line = lines[i];
        b->r[i].len = strlen(lines[i]);
        b->r[i].lineno = (uint64_t)i + 1;
    }
}

static void check_all_fixed(const cleanup_batch *b)
{
    int fixed = 0;
    for (size_t i = 0; i < b->n; i++) {
        size_t len;
        const char *o = cleanup_output(&b->r[i], &len);
        char want[64];
        snprintf(want, sizeof want, "record %zu's text", i);
        if (b->r[i].reason == R_KEPT && b->r[i].fixed && memmem(o, len, want, strlen(want))) fixed++;
        else fprintf(stdout, "  record %zu: reason %d fixed %d: %.*s\n", i, b->r[i].reason, b->r[i].fixed, (int)len, o);
    }
    CHECK_EQ_INT(fixed, NREC);
}

static void run(int nw, int with_pool)
{
    cleanup_config c;
    memset(&c, 0, sizeof c);
    c.fix = 1;
    c.key = "text";
    c.keep_lang = "en";
    fixtext_config_default(&c.ftfy);
    cleanup_worker *W = cleanup_workers_new(&c, nw);
    CHECK(W != NULL);
    if (!W) return;
    pool *pl = with_pool ? pool_new(nw - 1) : NULL;
    CHECK(!with_pool || pl != NULL);
    cleanup_batch b;
    char *lines[NREC];
    make_batch(&b, lines);
    if (b.r) {
        CHECK_EQ_INT(cleanup_process_batch(&c, W, nw, pl, &b), 0);
        check_all_fixed(&b);
        for (int i = 0; i < NREC; i++) free(lines[i]);
        cleanup_batch_free(&b);
    }
    pool_free(pl);
    cleanup_workers_free(W, nw);
}

static void test_one_worker(void) { run(1, 0); }
static void test_workers_on_pool(void) { run(3, 1); }
static void test_workers_without_pool(void) { run(3, 0); }

int main(void)
{
    check_run("cleanup_batch_one_worker", test_one_worker);
    check_run("cleanup_batch_workers_on_pool", test_workers_on_pool);
    check_run("cleanup_batch_workers_without_pool", test_workers_without_pool);
    return check_total_failed ? 1 : 0;
}

/* bench_fixtext - time fixtext_fix (our ftfy.fix_text) on the texts of a
 * JSON-lines corpus held in memory, one thread: the figure compared with
 * ftfy.fix_text by bench/bench_cleanup.sh. Prints "MB/s docs changed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/jsonl.h"
#include "preprocess/text/fixtext.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_fixtext CORPUS.jsonl[.zst] [REPEAT]\n");
        return 2;
    }
    int repeat = argc > 2 ? atoi(argv[2]) : 3;
    jsonl_reader *jr;
    if (jsonl_open(&jr, argv[1])) return 1;
    char **txt = NULL;
    size_t *len = NULL, n = 0, cap = 0, bytes = 0;
    jsonl_record r;
    while (jsonl_next(jr, &r) == JSONL_OK) {
        size_t vs, ve;
        if (!jsonl_value_span(r.line, r.len, "text", &vs, &ve)) continue;
        char *buf = NULL;
        size_t l = 0, c = 0;
        if (jsonl_unescape(r.line + vs, ve - vs, &buf, &l, &c)) continue;
        if (!l) { free(buf); continue; }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            txt = realloc(txt, cap * sizeof *txt);
            len = realloc(len, cap * sizeof *len);
        }
        txt[n] = buf;
        len[n++] = l;
        bytes += l;
    }
    jsonl_close(jr);
    fixtext_ctx *x = fixtext_new();
    fixtext_config cfg;
    fixtext_config_default(&cfg);
    double best = 1e30;
    size_t changed = 0;
    for (int k = 0; k < repeat; k++) {
        double t0 = now();
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            size_t on;
            const char *o = fixtext_fix(x, &cfg, txt[i], len[i], &on);
            changed += on != len[i] || memcmp(o, txt[i], on) != 0;
        }
        double dt = now() - t0;
        if (dt < best) best = dt;
    }
    printf("%.1f %zu %zu\n", bytes / 1e6 / best, n, changed);
    fixtext_free(x);
    for (size_t i = 0; i < n; i++) free(txt[i]);
    free(txt);
    free(len);
    return 0;
}

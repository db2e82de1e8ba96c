/* train_bpe - train a GPT-2 style byte-level BPE vocabulary from JSON lines. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/pool.h"
#include "common/progress.h"
#include "tokenizer/bpetrain.h"

typedef struct {
    char **line;
    size_t *len;
    size_t n;
    const char *const *keys;
    size_t n_keys;
    bpetrain **tr;
    size_t parts;
    uint64_t *bad;      /* per part */
    int *rc;            /* per part */
} count_job;

static void count_part(size_t p, void *ctx)
{
    count_job *j = ctx;
    size_t lo = j->n * p / j->parts, hi = j->n * (p + 1) / j->parts;
    for (size_t i = lo; i < hi && !j->rc[p]; i++) {
        size_t col;
        int trailing;
        cJSON *obj = jsonl_parse_line(j->line[i], j->len[i], &col, &trailing);
        if (!obj && trailing == JSONL_NOMEM) { j->rc[p] = err_set(ERR_NOMEM, "out of memory parsing JSON"); break; }
        if (!obj) { j->bad[p]++; continue; }
        for (size_t k = 0; k < j->n_keys; k++) {
            const char *s = jsonl_get_string(obj, j->keys[k]);
            if (!s) { j->bad[p]++; break; }
            int rc = bpetrain_add_text(j->tr[p], s, strlen(s));
            if (rc) { j->rc[p] = rc; break; }
        }
        cJSON_Delete(obj);
    }
}

int main(int argc, char **argv)
{
    args_list inputs = {0}, keys = {0};
    const char *outdir = NULL, *vocab_out = NULL, *merges_out = NULL;
    long long vocab_size = 32768, min_freq = 2, workers = 0;
    const arg_opt opts[] = {
        { "input", 'i', ARG_NARGS, &inputs, "PATH", "JSON-lines input: file, directory or glob (.zst/.gz ok)" },
        { "json-keys", 0, ARG_NARGS, &keys, "KEY", "keys holding the text (default: text)" },
        { "vocab-size", 'V', ARG_INT, &vocab_size, "N", "tokens in the result: 256 bytes + merges + <|endoftext|>\n"
          "                                (default 32768)" },
        { "min-frequency", 0, ARG_INT, &min_freq, "N", "stop when the best pair occurs fewer than N times (default 2)" },
        { "output-dir", 'o', ARG_STR, &outdir, "DIR", "write DIR/encoder.json and DIR/vocab.bpe" },
        { "vocab-file", 0, ARG_STR, &vocab_out, "FILE", "where to write encoder.json (instead of --output-dir)" },
        { "merge-file", 0, ARG_STR, &merges_out, "FILE", "where to write vocab.bpe (instead of --output-dir)" },
        { "workers", 'j', ARG_INT, &workers, "N", "threads for counting (default: all CPUs)" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "train_bpe", "--input PATH... --output-dir DIR [OPTION]...",
        "Train a byte-level BPE vocabulary with GPT-2's pre-tokenisation. The result (encoder.json +\n"
        "vocab.bpe) loads in preprocess_data/tokenize (--vocab-file/--merge-file) and in Hugging Face's\n"
        "GPT2Tokenizer. Deterministic: the same input and options give the same files.",
        opts,
        "Example:\n"
        "  train_bpe --input data/corpus --vocab-size 32768 --output-dir data/build/bpe32k\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    rc = 0;
    const char *usage = NULL;
    if (!inputs.n && !npos) usage = "--input is required";
    else if (!outdir && (!vocab_out || !merges_out)) usage = "--output-dir (or both --vocab-file and --merge-file) is required";
    else if (vocab_size < 257 || vocab_size > (1ll << 24)) usage = "--vocab-size must be in 257..16777216";
    else if (min_freq < 1) usage = "--min-frequency must be >= 1";
    else if (workers < 0 || workers > 1024) usage = "--workers must be in 0..1024";
    if (usage) {
        fprintf(stderr, "train_bpe: %s\n", usage);
        free(pos);
        args_list_free(&inputs);
        args_list_free(&keys);
        return 2;
    }
    char vpath[4096], mpath[4096];
    if (!vocab_out) {
        mkdir(outdir, 0777);
        snprintf(vpath, sizeof vpath, "%s/encoder.json", outdir);
        vocab_out = vpath;
    }
    if (!merges_out) {
        snprintf(mpath, sizeof mpath, "%s/vocab.bpe", outdir);
        merges_out = mpath;
    }
    static const char *const default_keys[] = {"text"};
    static const char *const sfx[] = {".jsonl", ".jsonl.zst", ".jsonl.gz", ".json", ".json.zst", ".json.gz", NULL};
    fs_list files = {0};
    for (size_t i = 0; i < inputs.n && !rc; i++) rc = fs_expand(&files, inputs.items[i], sfx);
    for (int i = 0; i < npos && !rc; i++) rc = fs_expand(&files, pos[i], sfx);
    size_t parts = workers ? (size_t)workers : (size_t)pool_cpu_count();
    pool *pl = pool_new((int)parts);
    bpetrain **tr = calloc(parts, sizeof *tr);
    uint64_t *bad = calloc(parts, sizeof *bad);
    int *prc = calloc(parts, sizeof *prc);
    if (!rc && (!pl || !tr || !bad || !prc)) rc = err_set(ERR_NOMEM, "out of memory");
    for (size_t p = 0; p < parts && !rc; p++)
        if (!(tr[p] = bpetrain_new())) rc = err_set(ERR_NOMEM, "out of memory");
    double t0 = progress_now();
    uint64_t records = 0, bytes = 0, total_raw = 0;
    for (size_t f = 0; f < files.n; f++) {
        struct stat sb;
        if (stat(files.paths[f], &sb) == 0) total_raw += (uint64_t)sb.st_size;
    }
    progress *pg = progress_new("train_bpe: counting", "docs", total_raw);
    char **lines = NULL;
    size_t *lens = NULL, nl = 0, capl = 0;
    uint64_t raw_done = 0;
    for (size_t f = 0; f < files.n && !rc; f++) {
        io_reader *r;
        if ((rc = io_reader_open(&r, files.paths[f]))) break;
        int eof = 0;
        while (!eof && !rc) {
            size_t batch_bytes = 0;
            nl = 0;
            for (;;) {
                char *line;
                size_t len;
                int g = io_getline(r, &line, &len);
                if (g < 0) { rc = g; break; }
                if (g == 0) { eof = 1; break; }
                if (nl == capl) {
                    capl = capl ? capl * 2 : 4096;
                    char **nlines = realloc(lines, capl * sizeof *lines);
                    size_t *nlens = realloc(lens, capl * sizeof *lens);
                    if (nlines) lines = nlines;
                    if (nlens) lens = nlens;
                    if (!nlines || !nlens) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
                }
                if (!(lines[nl] = malloc(len + 1))) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
                memcpy(lines[nl], line, len + 1);
                lens[nl++] = len;
                batch_bytes += len;
                bytes += len + 1;
                if (batch_bytes > (16u << 20)) break;
            }
            count_job j = {lines, lens, nl, keys.n ? keys.items : default_keys, keys.n ? keys.n : 1, tr, parts, bad, prc};
            if (!rc) pool_parallel_for(pl, parts, count_part, &j);
            for (size_t p = 0; p < parts && !rc; p++) rc = prc[p];
            for (size_t i = 0; i < nl; i++) free(lines[i]);
            records += nl;
            progress_update(pg, records, raw_done + io_reader_raw_pos(r));
        }
        raw_done += io_reader_raw_pos(r);
        io_reader_close(r);
    }
    progress_done(pg);
    free(lines);
    free(lens);
    uint64_t nbad = 0;
    for (size_t p = 0; p < parts; p++) nbad += bad[p];
    for (size_t p = 1; p < parts && !rc; p++) rc = bpetrain_absorb(tr[0], tr[p]);
    double t1 = progress_now();
    if (!rc && !args_quiet_flag)
        fprintf(stderr, "train_bpe: %" PRIu64 " records (%.1f MB; %" PRIu64 " dropped: not JSON or no string key) -> %" PRIu64
                " pieces, %" PRIu64 " distinct, counted in %.1f s\n", records, bytes / 1e6, nbad,
                bpetrain_pieces(tr[0]), bpetrain_unique_pieces(tr[0]), t1 - t0);
    size_t want = (size_t)vocab_size - 257;
    if (!rc) rc = bpetrain_run(tr[0], want, (uint64_t)min_freq, !args_quiet_flag);
    if (!rc) rc = bpetrain_write(tr[0], vocab_out, merges_out);
    if (!rc && !args_quiet_flag) {
        size_t got = bpetrain_n_merges(tr[0]);
        fprintf(stderr, "train_bpe: %zu merges in %.1f s -> vocabulary of %zu tokens%s: %s, %s\n", got,
                progress_now() - t1, got + 257,
                got < want ? " (fewer than asked: no pair left above --min-frequency)" : "", vocab_out, merges_out);
    }
    for (size_t p = 0; p < parts && tr; p++) bpetrain_free(tr[p]);
    free(tr);
    free(bad);
    free(prc);
    pool_free(pl);
    fs_list_free(&files);
    args_list_free(&inputs);
    args_list_free(&keys);
    free(pos);
    if (rc < 0) {
        fprintf(stderr, "train_bpe: %s\n", err_msg());
        return err_exit_code(rc);
    }
    return 0;
}

/* train_bpe_main.c - the train_bpe tool (the training: bpetrain.c).
 *
 * train_bpe - train a GPT-2 style byte-level BPE vocabulary from JSON lines. */
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
#include "common/tally.h"
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

typedef struct {
    args_list inputs, keys;
    const char *outdir, *vocab_out, *merges_out;
    long long vocab_size, min_freq, workers;
    char vpath[4096], mpath[4096];
    char **pos;
    int npos;
} options;

/* Returns -1 to go on, else the exit status (--help, --version, usage: printed). */
static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->vocab_size = 32768;
    o->min_freq = 2;
    const arg_opt opts[] = {
        { "input", 'i', ARG_NARGS, &o->inputs, "PATH", "JSON-lines input: file, directory or glob (.zst/.gz ok)" },
        { "json-keys", 0, ARG_NARGS, &o->keys, "KEY", "keys holding the text (default: text)" },
        { "vocab-size", 'V', ARG_INT, &o->vocab_size, "N", "tokens in the result: 256 bytes + merges + <|endoftext|>\n"
          "                                (default 32768)" },
        { "min-frequency", 0, ARG_INT, &o->min_freq, "N", "stop when the best pair occurs fewer than N times (default 2)" },
        { "output-dir", 'o', ARG_STR, &o->outdir, "DIR", "write DIR/encoder.json and DIR/vocab.bpe" },
        { "vocab-file", 0, ARG_STR, &o->vocab_out, "FILE", "where to write encoder.json (instead of --output-dir)" },
        { "merge-file", 0, ARG_STR, &o->merges_out, "FILE", "where to write vocab.bpe (instead of --output-dir)" },
        { "workers", 'j', ARG_INT, &o->workers, "N", "threads for counting (default: all CPUs)" },
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
    int rc = args_parse_main(&spec, argc, argv, &o->pos, &o->npos);
    if (rc >= 0)
        return rc;
    const char *usage = NULL;
    if (!o->inputs.n && !o->npos) usage = "--input is required";
    else if (!o->outdir && (!o->vocab_out || !o->merges_out)) usage = "--output-dir (or both --vocab-file and --merge-file) is required";
    else if (o->vocab_size < 257 || o->vocab_size > (1ll << 24)) usage = "--vocab-size must be in 257..16777216";
    else if (o->min_freq < 1) usage = "--min-frequency must be >= 1";
    else if (o->workers < 0 || o->workers > 1024) usage = "--workers must be in 0..1024";
    if (usage) {
        fprintf(stderr, "train_bpe: %s\n", usage);
        free(o->pos);
        args_list_free(&o->inputs);
        args_list_free(&o->keys);
        return EXIT_USAGE;
    }
    if (!o->vocab_out) {
        mkdir(o->outdir, 0777);
        snprintf(o->vpath, sizeof o->vpath, "%s/encoder.json", o->outdir);
        o->vocab_out = o->vpath;
    }
    if (!o->merges_out) {
        snprintf(o->mpath, sizeof o->mpath, "%s/vocab.bpe", o->outdir);
        o->merges_out = o->mpath;
    }
    return -1;
}

static const char *const default_keys[] = {"text"};

/* The pieces of every input counted, in parallel batches of about 16 MB, into tr[]. */
static int count_files(const fs_list *files, const options *o, pool *pl, size_t parts, bpetrain **tr, uint64_t *bad,
                       int *prc, uint64_t total_raw, uint64_t *records, uint64_t *bytes)
{
    int rc = 0;
    progress *pg = progress_new("train_bpe: counting", "docs", total_raw);
    char **lines = NULL;
    size_t *lens = NULL, nl = 0, capl = 0;
    uint64_t raw_done = 0;
    for (size_t f = 0; f < files->n && !rc; f++) {
        io_reader *r;
        if ((rc = io_reader_open(&r, files->paths[f]))) break;
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
                *bytes += len + 1;
                if (batch_bytes > (16u << 20)) break;
            }
            count_job j = {lines, lens, nl, o->keys.n ? o->keys.items : default_keys, o->keys.n ? o->keys.n : 1, tr, parts, bad, prc};
            if (!rc) pool_parallel_for(pl, parts, count_part, &j);
            for (size_t p = 0; p < parts && !rc; p++) rc = prc[p];
            for (size_t i = 0; i < nl; i++) free(lines[i]);
            *records += nl;
            progress_update(pg, *records, raw_done + io_reader_raw_pos(r));
        }
        raw_done += io_reader_raw_pos(r);
        io_reader_close(r);
    }
    progress_done(pg);
    free(lines);
    free(lens);
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    rc = 0;
    fs_list files = {0};
    for (size_t i = 0; i < o.inputs.n && !rc; i++) rc = fs_expand(&files, o.inputs.items[i], fs_jsonl_suffixes);
    for (int i = 0; i < o.npos && !rc; i++) rc = fs_expand(&files, o.pos[i], fs_jsonl_suffixes);
    size_t parts = o.workers ? (size_t)o.workers : (size_t)pool_cpu_count();
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
    rc = rc ? rc : count_files(&files, &o, pl, parts, tr, bad, prc, total_raw, &records, &bytes);
    uint64_t nbad = 0;
    for (size_t p = 0; p < parts; p++) nbad += bad[p];
    for (size_t p = 1; p < parts && !rc; p++) rc = bpetrain_absorb(tr[0], tr[p]);
    double t1 = progress_now();
    if (!rc && !args_quiet_flag) {
        tally t;
        tally_init(&t);
        tally_add_kept(&t, records - nbad);
        tally_add(&t, tally_reason_id(&t, "bad-record"), nbad, 0);
        tally_describe(&t, 0, "not JSON, or no string under the key");
        char note[64];
        snprintf(note, sizeof note, "%.1f MB counted in %.1f s", bytes / 1e6, t1 - t0);
        tally_summary(&t, stderr, "train_bpe", "records", NULL, note);
        fprintf(stderr, "  %" PRIu64 " pieces, %" PRIu64 " distinct\n", bpetrain_pieces(tr[0]),
                bpetrain_unique_pieces(tr[0]));
    }
    size_t want = (size_t)o.vocab_size - 257;
    if (!rc) rc = bpetrain_run(tr[0], want, (uint64_t)o.min_freq, !args_quiet_flag);
    if (!rc) rc = bpetrain_write(tr[0], o.vocab_out, o.merges_out);
    if (!rc && !args_quiet_flag) {
        size_t got = bpetrain_n_merges(tr[0]);
        fprintf(stderr, "train_bpe: %zu merges in %.1f s -> vocabulary of %zu tokens%s: %s, %s\n", got,
                progress_now() - t1, got + 257,
                got < want ? " (fewer than asked: no pair left above --min-frequency)" : "", o.vocab_out, o.merges_out);
    }
    for (size_t p = 0; p < parts && tr; p++) bpetrain_free(tr[p]);
    free(tr);
    free(bad);
    free(prc);
    pool_free(pl);
    fs_list_free(&files);
    args_list_free(&o.inputs);
    args_list_free(&o.keys);
    free(o.pos);
    if (rc < 0) {
        fprintf(stderr, "train_bpe: %s\n", err_msg());
        return err_exit_code(rc);
    }
    return 0;
}

/* minhash - MinHash signatures of JSON-lines documents into a signature file
 * (dedup/mhsig.h), the first stage of near-duplicate detection. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/pool.h"
#include "common/progress.h"
#include "common/strset.h"
#include "dedup/mhsig.h"

enum { ST_OK, ST_BAD_JSON, ST_NO_ID, ST_NO_TEXT, ST_EMPTY, ST_DUP_ID, ST_N };
static const char *const st_name[ST_N] = {"signed", "bad-json", "missing-id", "missing-text", "empty", "duplicate-id"};

typedef struct {
    char **line;
    size_t *len;
    uint64_t *lineno;
    size_t n, cap;
    cJSON **obj;
    uint8_t *st;
    uint32_t *sig;
    uint64_t *exact;
    const char *id_field, *text_field;
    const mh_hasher *h;
    uint64_t **sh;   /* per worker shingle buffer */
    size_t *shcap;
    size_t parts;
    int rc;
} batch;

static void work(size_t p, void *ctx)
{
    batch *b = ctx;
    size_t lo = b->n * p / b->parts, hi = b->n * (p + 1) / b->parts;
    uint32_t K = b->h->p.num_perm;
    for (size_t i = lo; i < hi; i++) {
        size_t col;
        int trailing;
        b->obj[i] = jsonl_parse_line(b->line[i], b->len[i], &col, &trailing);
        if (!b->obj[i] && trailing == JSONL_NOMEM) { b->rc = ERR_NOMEM; b->st[i] = ST_BAD_JSON; continue; }
        if (!b->obj[i]) { b->st[i] = ST_BAD_JSON; continue; }
        const char *id = jsonl_get_string(b->obj[i], b->id_field);
        const char *text = jsonl_get_string(b->obj[i], b->text_field);
        if (!id) { b->st[i] = ST_NO_ID; continue; }
        if (!text) { b->st[i] = ST_NO_TEXT; continue; }
        size_t tl = strlen(text);
        if (!tl) { b->st[i] = ST_EMPTY; continue; }
        long ns = mh_shingles_raw(&b->h->p, text, tl, &b->sh[p], &b->shcap[p]);
        if (ns < 0) { b->rc = (int)ns; continue; }
        mh_signature(b->h, b->sh[p], (size_t)ns, b->sig + i * K);
        b->exact[i] = mh_exact_hash(text, tl);
        b->st[i] = ST_OK;
    }
}

static int grow_batch(batch *b, size_t need, uint32_t K)
{
    if (need <= b->cap) return 0;
    size_t nc = b->cap ? b->cap * 2 : 4096;
#define RE(f, n) do { void *q = realloc(b->f, (n) * sizeof *b->f); if (!q) return err_set(ERR_NOMEM, "out of memory"); b->f = q; } while (0)
    RE(line, nc); RE(len, nc); RE(lineno, nc); RE(obj, nc); RE(st, nc); RE(exact, nc); RE(sig, nc * K);
#undef RE
    b->cap = nc;
    return 0;
}

int main(int argc, char **argv)
{
    const char *out = NULL, *id_field = "url", *text_field = "text", *scheme = "minhash";
    long long num_perm = 128, ngram = 5, seed = 1, workers = 0;
    int word = 0;
    const arg_opt opts[] = {
        { "output", 'o', ARG_STR, &out, "FILE", "signature file to write (required)" },
        { "id-field", 0, ARG_STR, &id_field, "KEY", "JSON key of the document id (default url; a.b for nested)" },
        { "text-field", 0, ARG_STR, &text_field, "KEY", "JSON key of the text (default text)" },
        { "num-perm", 'k', ARG_INT, &num_perm, "K", "hash functions per signature (default 128)" },
        { "ngram", 'n', ARG_INT, &ngram, "N", "shingle size: N bytes, or N words with --word-ngrams (default 5)" },
        { "word-ngrams", 0, ARG_FLAG, &word, NULL, "shingles are word N-grams instead of character N-grams" },
        { "seed", 's', ARG_INT, &seed, "N", "hash seed (default 1); files to compare need the same" },
        { "scheme", 0, ARG_STR, &scheme, "S", "minhash (default): K hash functions per shingle; oph: one\n"
          "                                permutation hashing with optimal densification, one hash per\n"
          "                                shingle, the same Jaccard estimate (signature file version 2)" },
        { "workers", 'j', ARG_INT, &workers, "N", "threads (default: all CPUs); the file is the same for any N" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "minhash", "-o SIGFILE [OPTION]... [INPUT]...",
        "Compute MinHash signatures of JSON-lines documents (plain, .zst or .gz; none or '-' for stdin)\n"
        "into a versioned signature file, which also keeps each id and text for exact verification and\n"
        "an exact-duplicate hash of the normalised text (case-folded, white space collapsed).\n"
        "Shard a corpus by running one minhash per part; find_duplicates reads several files.",
        opts,
        "Example:\n"
        "  minhash --id-field url part-00.jsonl.zst -o part-00.mh\n"
        "  find_duplicates part-*.mh -o pairs.jsonl && group_duplicates pairs.jsonl -o groups.jsonl\n"
        "  remove_duplicates --groups groups.jsonl corpus.jsonl.zst -o deduped.jsonl.zst\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    rc = 0;
    if (!out || num_perm < 1 || num_perm > 4096 || ngram < 1 || ngram > 64 || workers < 0 ||
        (strcmp(scheme, "minhash") && strcmp(scheme, "oph"))) {
        fprintf(stderr, "minhash: %s\n", !out ? "-o SIGFILE is required"
                                             : "bad --num-perm (1..4096), --ngram (1..64), --workers or --scheme (minhash, oph)");
        free(pos);
        return 2;
    }
    static const char *const sfx[] = {".jsonl", ".jsonl.zst", ".jsonl.gz", ".json", ".json.zst", ".json.gz", NULL};
    fs_list files = {0};
    if (!npos) rc = fs_expand(&files, "-", sfx);
    for (int i = 0; i < npos && !rc; i++) rc = fs_expand(&files, pos[i], sfx);
    free(pos);
    mh_params prm = {(uint32_t)num_perm, word ? MH_WORD : MH_CHAR, (uint32_t)ngram, (uint64_t)seed,
                     strcmp(scheme, "oph") ? MH_CLASSIC : MH_OPH};
    mh_hasher h = {0};
    mh_writer *w = NULL;
    size_t parts = workers ? (size_t)workers : (size_t)pool_cpu_count();
    pool *pl = pool_new((int)parts);
    batch b = {.id_field = id_field, .text_field = text_field, .h = &h, .parts = parts};
    b.sh = calloc(parts, sizeof *b.sh);
    b.shcap = calloc(parts, sizeof *b.shcap);
    strset *ids = strset_new();
    uint64_t count[ST_N] = {0}, bytes = 0, warned = 0;
    if (!rc && (!pl || !b.sh || !b.shcap || !ids)) rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc) rc = mh_hasher_init(&h, &prm);
    if (!rc) rc = mh_writer_open(&w, out, &prm);
    double t0 = progress_now();
    progress *pg = progress_new("minhash", "docs", 0);
    for (size_t f = 0; f < files.n && !rc; f++) {
        io_reader *r;
        if ((rc = io_reader_open(&r, files.paths[f]))) break;
        int eof = 0;
        while (!eof && !rc) {
            size_t bb = 0;
            b.n = 0;
            while (bb < (8u << 20)) {
                char *line;
                size_t len;
                int g = io_getline(r, &line, &len);
                if (g < 0) { rc = g; break; }
                if (g == 0) { eof = 1; break; }
                size_t k = 0;
                while (k < len && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r')) k++;
                if (k == len) continue; /* blank */
                if ((rc = grow_batch(&b, b.n + 1, prm.num_perm))) break;
                if (!(b.line[b.n] = malloc(len + 1))) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
                memcpy(b.line[b.n], line, len + 1);
                b.obj[b.n] = NULL; /* parsed by the workers; a read error before then frees nothing else */
                b.len[b.n] = len;
                b.lineno[b.n] = io_reader_lineno(r);
                b.n++;
                bb += len;
                bytes += len + 1;
            }
            if (!rc && b.n) pool_parallel_for(pl, parts, work, &b);
            if (!rc && b.rc) /* the worker's message stayed on its thread */
                rc = err_set(b.rc, "%s:%llu..: %s computing signatures", io_reader_name(r), (unsigned long long)b.lineno[0],
                             b.rc == ERR_NOMEM ? "out of memory" : err_name(b.rc));
            for (size_t i = 0; i < b.n; i++) {
                if (!rc && b.st[i] == ST_OK) {
                    const char *id = jsonl_get_string(b.obj[i], id_field);
                    const char *text = jsonl_get_string(b.obj[i], text_field);
                    int added = strset_add(ids, id, strlen(id));
                    if (added < 0) rc = added;
                    else if (added == 0) b.st[i] = ST_DUP_ID;
                    else rc = mh_writer_add(w, id, strlen(id), text, strlen(text), b.exact[i], b.sig + i * prm.num_perm);
                }
                if (!rc) {
                    count[b.st[i]]++;
                    if (b.st[i] != ST_OK && b.st[i] != ST_EMPTY && warned++ < 10)
                        fprintf(stderr, "minhash: warning: %s:%llu: %s: document skipped\n", io_reader_name(r),
                                (unsigned long long)b.lineno[i], st_name[b.st[i]]);
                }
                cJSON_Delete(b.obj[i]);
                free(b.line[i]);
            }
            uint64_t total = 0;
            for (int s = 0; s < ST_N; s++) total += count[s];
            progress_update(pg, total, bytes);
        }
        io_reader_close(r);
    }
    progress_done(pg);
    if (!rc) rc = mh_writer_commit(w);
    else mh_writer_abort(w);
    if (rc < 0) fprintf(stderr, "minhash: %s\n", err_msg());
    else if (!args_quiet_flag) {
        uint64_t total = 0;
        for (int s = 0; s < ST_N; s++) total += count[s];
        double dt = progress_now() - t0;
        fprintf(stderr, "minhash: %" PRIu64 " documents (%.1f MB) in %.2f s (%.0f docs/s, %.1f MB/s): %" PRIu64
                " signed into %s (%s, %u perms, %s %u-grams)\n", total, bytes / 1e6, dt, dt > 0 ? total / dt : 0,
                dt > 0 ? bytes / 1e6 / dt : 0, count[ST_OK], out, scheme, prm.num_perm, word ? "word" : "char", prm.ngram);
        fprintf(stderr, "  skipped: %" PRIu64 " empty, %" PRIu64 " bad-json, %" PRIu64 " missing-id (\"%s\"), %" PRIu64
                " missing-text (\"%s\"), %" PRIu64 " duplicate-id\n", count[ST_EMPTY], count[ST_BAD_JSON],
                count[ST_NO_ID], id_field, count[ST_NO_TEXT], text_field, count[ST_DUP_ID]);
    }
    for (size_t p = 0; p < parts && b.sh; p++) free(b.sh[p]);
    free(b.sh); free(b.shcap); free(b.line); free(b.len); free(b.lineno); free(b.obj); free(b.st); free(b.sig); free(b.exact);
    strset_free(ids);
    mh_hasher_free(&h);
    pool_free(pl);
    fs_list_free(&files);
    return rc < 0 ? err_exit_code(rc) : 0;
}

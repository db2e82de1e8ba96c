/* minhash_main.c - the minhash tool (signatures: dedup/mhsig.c).
 *
 * minhash - MinHash signatures of JSON-lines documents into a signature file
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
#include "common/tally.h"
#include "common/hash.h"
#include "dedup/mhcol.h"
#include "dedup/mhdoc.h"
#include "dedup/mhsig.h"

enum { ST_OK, ST_BAD_JSON, ST_NO_ID, ST_NO_TEXT, ST_EMPTY, ST_DUP_ID, ST_N };
static const char *const st_name[ST_N] = {"signed", "bad-json", "missing-id", "missing-text", "empty", "duplicate-id"};

typedef struct {
    char **line;
    size_t *len;
    uint64_t *lineno;
    size_t n, cap;
    mh_doc *doc;     /* the id and the text (dedup/mhdoc.h), freed with the batch */
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
        b->st[i] = ST_OK;
        if (mh_doc_read(b->line[i], b->len[i], b->id_field, b->text_field, &b->doc[i])) {
            b->rc = ERR_NOMEM;
            b->st[i] = ST_BAD_JSON;
            continue;
        }
        b->st[i] = (uint8_t)b->doc[i].status; /* MHDOC_* are ST_OK .. ST_NO_TEXT */
        if (b->st[i] != ST_OK) continue;
        const char *text = b->doc[i].text;
        size_t tl = b->doc[i].text_len;
        if (!tl) { b->st[i] = ST_EMPTY; continue; }
        long ns = mh_shingles_raw(&b->h->p, text, tl, &b->sh[p], &b->shcap[p]);
        if (ns < 0) { b->rc = (int)ns; continue; }
        mh_signature(b->h, b->sh[p], (size_t)ns, b->sig + i * K);
        b->exact[i] = mh_exact_hash(text, tl);
    }
}

static int grow_batch(batch *b, size_t need, uint32_t K)
{
    if (need <= b->cap) return 0;
    size_t nc = b->cap ? b->cap * 2 : 4096;
#define RE(f, n) do { void *q = realloc(b->f, (n) * sizeof *b->f); if (!q) return err_set(ERR_NOMEM, "out of memory"); b->f = q; } while (0)
    RE(line, nc); RE(len, nc); RE(lineno, nc); RE(doc, nc); RE(st, nc); RE(exact, nc); RE(sig, nc * K);
#undef RE
    b->cap = nc;
    return 0;
}

typedef struct {
    const char *out, *id_field, *text_field, *scheme;
    long long num_perm, ngram, seed, workers;
    int word, store_text;
    char **inputs;
    int ninputs;
} options;

/* Returns -1 to go on, else the exit status (--help, --version, usage: printed). */
static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->id_field = "url";
    o->text_field = "text";
    o->scheme = "minhash";
    o->num_perm = 128;
    o->ngram = 5;
    o->seed = 1;
    const arg_opt opts[] = {
        { "output", 'o', ARG_STR, &o->out, "FILE", "signature file to write (required)" },
        { "id-field", 0, ARG_STR, &o->id_field, "KEY", "JSON key of the document id (default url; a.b for nested)" },
        { "text-field", 0, ARG_STR, &o->text_field, "KEY", "JSON key of the text (default text)" },
        { "num-perm", 'k', ARG_INT, &o->num_perm, "K", "hash functions per signature (default 128)" },
        { "ngram", 'n', ARG_INT, &o->ngram, "N", "shingle size: N bytes, or N words with --word-ngrams (default 5)" },
        { "word-ngrams", 0, ARG_FLAG, &o->word, NULL, "shingles are word N-grams instead of character N-grams" },
        { "seed", 's', ARG_INT, &o->seed, "N", "hash seed (default 1); files to compare need the same" },
        { "scheme", 0, ARG_STR, &o->scheme, "S", "minhash (default): K hash functions per shingle; oph: one\n"
          "                                permutation hashing with optimal densification, one hash per\n"
          "                                shingle, the same Jaccard estimate (signature file version 2)" },
        { "store-text", 0, ARG_FLAG, &o->store_text, NULL, "keep each id and text in the file (version 1/2, the old format:\n"
          "                                bigger than the text, but needs no sources at verification);\n"
          "                                the default when reading standard input or a pipe" },
        { "workers", 'j', ARG_INT, &o->workers, "N", "threads (default: all CPUs); the file is the same for any N" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "minhash", "-o SIGFILE [OPTION]... [INPUT]...",
        "Compute MinHash signatures of JSON-lines documents (plain, .zst or .gz; none or '-' for stdin)\n"
        "into a versioned signature file: per document its signature, an exact-duplicate hash of the\n"
        "normalised text (case-folded, white space collapsed) and where it is in its input (file and\n"
        "line; 32 bytes), in column blocks so that a band job reads only its bands (version 3).\n"
        "find_duplicates reads the candidates' texts back from the inputs to verify them, so they must\n"
        "stay where they are, unchanged (checked). --store-text keeps the texts in the file instead.\n"
        "Shard a corpus by running one minhash per part; find_duplicates reads several files.",
        opts,
        "Example:\n"
        "  minhash --id-field url part-00.jsonl.zst -o part-00.mh\n"
        "  find_duplicates part-*.mh -o pairs.jsonl && group_duplicates pairs.jsonl -o groups.jsonl\n"
        "  remove_duplicates --groups groups.jsonl corpus.jsonl.zst -o deduped.jsonl.zst\n",
    };
    int rc = args_parse_main(&spec, argc, argv, &o->inputs, &o->ninputs);
    if (rc >= 0)
        return rc;
    if (o->out && o->num_perm >= 1 && o->num_perm <= 4096 && o->ngram >= 1 && o->ngram <= 64 && o->workers >= 0 &&
        (!strcmp(o->scheme, "minhash") || !strcmp(o->scheme, "oph")))
        return -1;
    fprintf(stderr, "minhash: %s\n", !o->out ? "-o SIGFILE is required"
                                             : "bad --num-perm (1..4096), --ngram (1..64), --workers or --scheme (minhash, oph)");
    free(o->inputs);
    return EXIT_USAGE;
}

/* A run: its batch, threads, the ids seen, the output, the counts (ST_*). */
typedef struct {
    const options *o;
    mh_params prm;
    batch b;
    pool *pl;
    size_t parts;
    strset *ids;
    mh_writer *w;    /* version 1/2: texts kept (--store-text, or stdin) */
    mc_writer *cw;   /* version 3: no texts; src is the input file being read */
    uint32_t src;
    tally t;
    uint64_t bytes, warned;
    progress *pg;
} signer;

/* The next batch of about 8 MB of non-blank lines. */
static int read_batch(signer *s, io_reader *r, int *eof)
{
    batch *b = &s->b;
    size_t bb = 0;
    b->n = 0;
    while (bb < (8u << 20)) {
        char *line;
        size_t len;
        int g = io_getline(r, &line, &len);
        if (g < 0)
            return g;
        if (g == 0) {
            *eof = 1;
            return 0;
        }
        if (jsonl_is_blank(line, len))
            continue;
        int rc = grow_batch(b, b->n + 1, s->prm.num_perm);
        if (rc)
            return rc;
        if (!(b->line[b->n] = malloc(len + 1)))
            return err_set(ERR_NOMEM, "out of memory");
        memcpy(b->line[b->n], line, len + 1);
        memset(&b->doc[b->n], 0, sizeof b->doc[b->n]); /* read by the workers; freed with the batch */
        b->len[b->n] = len;
        b->lineno[b->n] = io_reader_lineno(r);
        b->n++;
        bb += len;
        s->bytes += len + 1;
    }
    return 0;
}

/* The batch's signatures into the file, in input order (a repeated id skipped), counted. */
static int write_batch(signer *s, io_reader *r, int rc)
{
    batch *b = &s->b;
    for (size_t i = 0; i < b->n; i++) {
        if (!rc && b->st[i] == ST_OK) {
            const mh_doc *d = &b->doc[i];
            int added = strset_add(s->ids, d->id, d->id_len);
            if (added < 0)
                rc = added;
            else if (added == 0)
                b->st[i] = ST_DUP_ID;
            else if (s->cw) /* version 3: the text stays in the source, found again by its line */
                rc = mc_writer_add(s->cw, s->src, b->lineno[i], (uint32_t)d->text_len, b->exact[i],
                                   hash64(d->id, d->id_len, 0), b->sig + i * s->prm.num_perm);
            else
                rc = mh_writer_add(s->w, d->id, d->id_len, d->text, d->text_len, b->exact[i],
                                   b->sig + i * s->prm.num_perm);
        }
        if (!rc) {
            if (b->st[i] == ST_OK)
                tally_keep(&s->t);
            else
                tally_drop(&s->t, b->st[i] - 1, 0);
            if (b->st[i] != ST_OK && b->st[i] != ST_EMPTY && s->warned++ < 10)
                fprintf(stderr, "minhash: warning: %s:%llu: %s: document skipped\n", io_reader_name(r),
                        (unsigned long long)b->lineno[i], st_name[b->st[i]]);
        }
        mh_doc_free(&b->doc[i]);
        free(b->line[i]);
    }
    return rc;
}

static int sign_file(signer *s, const char *path)
{
    io_reader *r;
    int rc = io_reader_open(&r, path), eof = 0;
    while (!rc && !eof) {
        rc = read_batch(s, r, &eof);
        if (!rc && s->b.n)
            pool_parallel_for(s->pl, s->parts, work, &s->b);
        if (!rc && s->b.rc) /* the worker's message stayed on its thread */
            rc = err_set(s->b.rc, "%s:%llu..: %s computing signatures", io_reader_name(r),
                         (unsigned long long)s->b.lineno[0], s->b.rc == ERR_NOMEM ? "out of memory" : err_name(s->b.rc));
        rc = write_batch(s, r, rc);
        progress_update(s->pg, s->t.in, s->bytes);
    }
    if (r)
        io_reader_close(r);
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
    if (!o.ninputs)
        rc = fs_expand(&files, "-", fs_jsonl_suffixes);
    for (int i = 0; i < o.ninputs && !rc; i++)
        rc = fs_expand(&files, o.inputs[i], fs_jsonl_suffixes);
    free(o.inputs);
    signer s = {.o = &o};
    s.prm = (mh_params){(uint32_t)o.num_perm, o.word ? MH_WORD : MH_CHAR, (uint32_t)o.ngram, (uint64_t)o.seed,
                        strcmp(o.scheme, "oph") ? MH_CLASSIC : MH_OPH};
    mh_hasher h = {0};
    s.parts = o.workers ? (size_t)o.workers : (size_t)pool_cpu_count();
    s.pl = pool_new((int)s.parts);
    s.b = (batch){.id_field = o.id_field, .text_field = o.text_field, .h = &h, .parts = s.parts};
    s.b.sh = calloc(s.parts, sizeof *s.b.sh);
    s.b.shcap = calloc(s.parts, sizeof *s.b.shcap);
    s.ids = strset_new();
    tally_init(&s.t);
    for (int k = 1; k < ST_N; k++) /* tally ids are ST_* - 1 */
        tally_reason_id(&s.t, st_name[k]);
    if (!rc && (!s.pl || !s.b.sh || !s.b.shcap || !s.ids))
        rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc)
        rc = mh_hasher_init(&h, &s.prm);
    /* version 3 needs inputs it can read again: regular files */
    int col = !o.store_text;
    for (size_t f = 0; f < files.n && col; f++)
        col = strcmp(files.paths[f], "-") && io_is_regular_file(files.paths[f]);
    if (!rc && col)
        rc = mc_writer_open(&s.cw, o.out, &s.prm, o.id_field, o.text_field, files.paths, files.n);
    else if (!rc)
        rc = mh_writer_open(&s.w, o.out, &s.prm);
    double t0 = progress_now();
    s.pg = progress_new("minhash", "docs", 0);
    for (size_t f = 0; f < files.n && !rc; f++) {
        s.src = (uint32_t)f;
        rc = sign_file(&s, files.paths[f]);
    }
    progress_done(s.pg);
    if (!rc)
        rc = s.cw ? mc_writer_commit(s.cw) : mh_writer_commit(s.w);
    else if (s.cw)
        mc_writer_abort(s.cw);
    else
        mh_writer_abort(s.w);
    if (rc < 0)
        fprintf(stderr, "minhash: %s\n", err_msg());
    else if (!args_quiet_flag) {
        double dt = progress_now() - t0;
        char note[96], no_id[80], no_text[80];
        snprintf(note, sizeof note, "%.1f MB in %.2f s: %.0f docs/s, %.1f MB/s", s.bytes / 1e6, dt,
                 dt > 0 ? s.t.in / dt : 0, dt > 0 ? s.bytes / 1e6 / dt : 0);
        snprintf(no_id, sizeof no_id, "no string \"%s\"", o.id_field);
        snprintf(no_text, sizeof no_text, "no string \"%s\"", o.text_field);
        tally_describe(&s.t, ST_NO_ID - 1, no_id);
        tally_describe(&s.t, ST_NO_TEXT - 1, no_text);
        tally_summary(&s.t, stderr, "minhash", "documents", NULL, note);
        fprintf(stderr, "  signed into %s (%s%s%s, %u perms, %s %u-grams; %s)\n", o.out, o.scheme,
                strcmp(o.scheme, "oph") ? ", kernel " : "", strcmp(o.scheme, "oph") ? mh_kernel_name() : "",
                s.prm.num_perm, o.word ? "word" : "char", s.prm.ngram,
                s.cw ? "version 3: the texts stay in the inputs" : "texts stored in the file");
    }
    batch *b = &s.b;
    for (size_t p = 0; p < s.parts && b->sh; p++)
        free(b->sh[p]);
    free(b->sh), free(b->shcap), free(b->line), free(b->len), free(b->lineno);
    free(b->doc), free(b->st), free(b->sig), free(b->exact);
    strset_free(s.ids);
    mh_hasher_free(&h);
    pool_free(s.pl);
    fs_list_free(&files);
    return rc < 0 ? err_exit_code(rc) : 0;
}

/* substr_dedup_main.c - the substr_dedup tool: exact-substring deduplication (Lee et
 * al. 2022; RefinedWeb after MinHash). Reads JSON-lines documents, finds every span of
 * at least --length-threshold tokens (or bytes) that occurs more than once in the
 * input (dedup/substr.c: a generalized suffix array by libsais and its LCP array), and
 * writes the documents with the later copies struck (or every copy: --remove all), a
 * spans file of what was struck, and drops documents left too short. Two passes over
 * the input: the first builds the symbols, the second writes (standard input is
 * spooled to an unlinked temporary file in $TMPDIR or /tmp between them). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/progress.h"
#include "common/tally.h"
#include "dedup/substr.h"
#include "dedup/substr_corpus.h"
#include "dedup/substr_shard.h"
#include "dedup/substr_spans.h"
#include "tokenizer/tokcli.h"
#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct {
    const char *out, *spans_path, *unit, *remove, *text_field, *id_field, *builder, *apply, *work_dir, *stage;
    long long threshold, min_length, threads, shards, ranges, index;
    tokcli_spec tok;
    char **inputs;
    int ninputs;
} options;

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->unit = "tokens";
    o->remove = "later";
    o->text_field = "text";
    o->id_field = "id";
    o->builder = "libsais";
    o->threshold = 50;
    o->min_length = 1;
    o->threads = 0;
    o->shards = 1;
    o->ranges = 0;
    o->index = -1;
    const arg_opt opts[] = {
        {"output", 'o', ARG_STR, &o->out, "FILE", "documents with the repeated spans struck (default stdout;\n"
                                                  "                                .zst / .gz compress)"},
        {"spans", 0, ARG_STR, &o->spans_path, "FILE", "write {\"id\", \"doc\", \"start\", \"end\"} for every span struck\n"
                                                      "                                (byte offsets in the document's text)"},
        {"length-threshold", 'k', ARG_INT, &o->threshold, "N", "the shortest repeat struck, in units (default 50, as\n"
                                                              "                                Lee et al.)"},
        {"unit", 0, ARG_STR, &o->unit, "U", "tokens (default: the tokenizer below, GPT-2 unless told)\n"
                                            "                                or bytes"},
        {"remove", 0, ARG_STR, &o->remove, "WHICH", "later: every copy after the first in input order (default);\n"
                                                    "                                all: every copy (the reference tool's collect)"},
        {"apply-spans", 0, ARG_STR, &o->apply, "FILE", "strike the spans of this spans file (from an earlier run,\n"
                                                       "                                perhaps edited) instead of finding them: one pass"},
        {"min-length", 0, ARG_INT, &o->min_length, "N", "drop a document left with fewer bytes of text (default 1:\n"
                                                        "                                one left empty)"},
        {"text-field", 0, ARG_STR, &o->text_field, "KEY", "JSON key of the text (default text; a top-level key)"},
        {"id-field", 0, ARG_STR, &o->id_field, "KEY", "JSON key of the id written to the spans file and hashed\n"
                                                      "                                to a shard (default id)"},
        {"threads", 'j', ARG_INT, &o->threads, "N", "suffix array threads (default: every core)"},
        {"sa-builder", 0, ARG_STR, &o->builder, "NAME", "libsais (default) or divsufsort (libdivsufsort, one\n"
                                                       "                                thread, --unit bytes: the benchmark's comparison)"},
        {"shards", 0, ARG_INT, &o->shards, "N", "one suffix array per shard of documents (by a hash of\n"
                                                "                                the id) and a cross-shard pass: the same spans as one\n"
                                                "                                suffix array, in a shard's memory (default 1)"},
        {"hash-ranges", 0, ARG_INT, &o->ranges, "R", "the cross-shard pass in R parts by fingerprint hash\n"
                                                     "                                (default: as many as shards)"},
        {"work-dir", 0, ARG_STR, &o->work_dir, "DIR", "the shards' work files (default: a temporary directory in\n"
                                                      "                                $TMPDIR, removed at the end)"},
        {"stage", 0, ARG_STR, &o->stage, "STAGE", "one stage of a sharded run, for cluster jobs (--work-dir\n"
                                                  "                                shared; the same inputs in each): find (--index: the\n"
                                                  "                                shard), cross (--index: the hash range), write"},
        {"index", 0, ARG_INT, &o->index, "I", "the shard (find) or hash range (cross) of --stage"},
        TOKCLI_OPTS(o->tok),
        {NULL, 0, 0, NULL, NULL, NULL},
    };
    const arg_spec spec = {
        "substr_dedup", "[OPTION]... [INPUT]...",
        "Remove repeated spans from JSON-lines documents: every span of at least --length-threshold\n"
        "tokens (or bytes) that occurs more than once in the input is struck from its later copies\n"
        "(or from all of them), as Lee et al.'s exact-substring deduplication, which RefinedWeb runs\n"
        "after MinHash. Spans never cross a document's end. One suffix array holds up to 2^31 units\n"
        "(about 8 GB of text as GPT-2 tokens): --shards splits larger inputs, with the same result.\n"
        "Lines that are not JSON or have no text are passed through and counted.",
        opts,
        "Example:\n"
        "  substr_dedup corpus.jsonl.zst -o dedup.jsonl.zst --spans spans.jsonl\n"
        "  substr_dedup --unit bytes --length-threshold 100 --remove all docs.jsonl > out.jsonl\n"
        "  substr_dedup --shards 8 big/*.jsonl.zst -o out.jsonl.zst     (8 suffix arrays, the same result)\n"
        "  substr_dedup --shards 8 --work-dir W --stage find --index 3 big/*.jsonl.zst   (one job of a cluster run;\n"
        "    then --stage cross --index 0..7, then --stage write -o out.jsonl.zst)\n",
    };
    int rc = args_parse_main(&spec, argc, argv, &o->inputs, &o->ninputs);
    if (rc >= 0)
        return rc;
    const char *bad = NULL;
    if (strcmp(o->unit, "tokens") && strcmp(o->unit, "bytes"))
        bad = "--unit: expected tokens or bytes";
    else if (strcmp(o->remove, "later") && strcmp(o->remove, "all"))
        bad = "--remove: expected later or all";
    else if (o->threshold < 1 || o->threshold > 1000000000)
        bad = "--length-threshold: expected 1 or more";
    else if (o->min_length < 0)
        bad = "--min-length: expected 0 or more";
    else if (strcmp(o->builder, "libsais") && strcmp(o->builder, "divsufsort"))
        bad = "--sa-builder: expected libsais or divsufsort";
    else if (!strcmp(o->builder, "divsufsort") && strcmp(o->unit, "bytes"))
        bad = "--sa-builder divsufsort: libdivsufsort sorts bytes only (--unit bytes)";
    else if (o->apply && o->spans_path)
        bad = "--apply-spans and --spans: the spans applied are the file given";
    else if (strchr(o->text_field, '.'))
        bad = "--text-field: a top-level key (the text is rewritten in place)";
    else if (o->shards < 1 || o->shards > 9999 || o->ranges < 0 || o->ranges > 9999)
        bad = "--shards and --hash-ranges: 1 to 9999";
    else if (o->stage && strcmp(o->stage, "find") && strcmp(o->stage, "cross") && strcmp(o->stage, "write"))
        bad = "--stage: expected find, cross or write";
    else if (o->stage && !o->work_dir)
        bad = "--stage: needs --work-dir (the directory the stages share)";
    else if (o->stage && strcmp(o->stage, "write") && o->index < 0)
        bad = "--stage find / cross: needs --index";
    else if (o->stage && !strcmp(o->stage, "find") && o->index >= o->shards)
        bad = "--stage find --index: a shard from 0 to --shards - 1";
    else if (o->stage && !strcmp(o->stage, "cross") && o->index >= (o->ranges ? o->ranges : o->shards))
        bad = "--stage cross --index: a hash range from 0 to --hash-ranges - 1";
    else if (o->apply && (o->shards > 1 || o->stage || o->work_dir))
        bad = "--apply-spans: one pass, without shards";
    if (!o->ranges)
        o->ranges = o->shards;
    if (!bad)
        return -1;
    fprintf(stderr, "substr_dedup: %s\n", bad);
    free(o->inputs);
    return EXIT_USAGE;
}

/* Pass 1: one file's documents into the corpus; standard input also copied to spool. */
static int read_file(const char *path, const options *o, sc_corpus *c, int spool, progress *pg, uint64_t *bytes)
{
    jsonl_reader *jr = NULL;
    int rc = jsonl_open(&jr, path), k = 0;
    if (rc)
        return rc;
    jsonl_record r;
    while (!rc && (k = jsonl_next(jr, &r)) > 0) {
        const char *text = k == JSONL_OK ? jsonl_get_string(r.obj, o->text_field) : NULL;
        rc = sc_add(c, text, text ? strlen(text) : 0);
        if (!rc && spool >= 0 && (write(spool, r.line, r.len) != (ssize_t)r.len || write(spool, "\n", 1) != 1))
            rc = err_set(ERR_IO, "spooling standard input: %s", strerror(errno));
        *bytes += r.len + 1;
        progress_update(pg, c->ndocs, *bytes);
    }
    if (!rc && k < 0)
        rc = k;
    if (rc && rc != ERR_NOMEM && rc != ERR_USAGE)
        err_set(rc, "%s: %s", path, err_msg());
    jsonl_close(jr);
    return rc;
}

typedef struct {
    tally t;
    int too_short;
    uint64_t passed, changed, struck, in_bytes, spans;
} counts;

/* {"id", "doc", "start", "end"} */
static int write_span(io_writer *sw, const char *id, size_t doc, size_t a, size_t b)
{
    cJSON *s = cJSON_CreateObject();
    int rc = 0;
    if (!s || (id && !cJSON_AddStringToObject(s, "id", id)) || !cJSON_AddNumberToObject(s, "doc", (double)doc) ||
        !cJSON_AddNumberToObject(s, "start", (double)a) || !cJSON_AddNumberToObject(s, "end", (double)b))
        rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc)
        rc = jsonl_write(sw, s);
    cJSON_Delete(s);
    return rc;
}

/* The spans of record i: found by this run (c's), read from --apply-spans (ap's, in
 * record order: cur moves on), or merged from the shards' work files (mg). */
typedef struct {
    const sc_corpus *c;
    const substr_spans *ap;
    size_t cur;
    ss_merge *mg;
} span_source;

static int spans_of(span_source *src, size_t i, sc_span **sp, size_t *n)
{
    if (src->mg)
        return ss_merge_doc(src->mg, i, sp, n);
    if (!src->ap) {
        const sc_doc *d = &src->c->docs[i];
        *sp = src->c->spans + d->span0;
        *n = d->nspans;
        return 0;
    }
    const substr_spans *a = src->ap;
    size_t j = src->cur;
    while (j < a->n && a->doc[j] == i)
        j++;
    *sp = a->span + src->cur;
    *n = j - src->cur;
    src->cur = j;
    return 0;
}

/* Pass 2: one file again, each document written with its spans struck, or dropped. */
static int write_file(const char *path, const options *o, span_source *src, size_t *doc, io_writer *w,
                      io_writer *sw, counts *n, progress *pg)
{
    jsonl_reader *jr = NULL;
    int rc = jsonl_open(&jr, path), k = 0;
    if (rc)
        return rc;
    jsonl_record r;
    char *buf = NULL;
    size_t cap = 0;
    while (!rc && (k = jsonl_next(jr, &r)) > 0) {
        size_t i = (*doc)++;
        n->in_bytes += r.len + 1;
        const char *text = k == JSONL_OK ? jsonl_get_string(r.obj, o->text_field) : NULL;
        const sc_corpus *c = src->c;
        if (!src->ap && !src->mg && (i >= c->ndocs || (text != NULL) != (c->docs[i].nsym >= 0) ||
                         (text && strlen(text) != c->docs[i].tlen))) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": the input changed between the two passes", path, r.lineno);
            break;
        }
        sc_span *sp;
        size_t nsp, len = text ? strlen(text) : 0;
        if ((rc = spans_of(src, i, &sp, &nsp)))
            break;
        if (src->ap && nsp && (!text || sp[nsp - 1].end > len)) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": a span past the text of record %zu (%s: line %" PRIu64
                                     ", %zu bytes of text)", src->ap->name, src->ap->line[src->cur - 1], i, path,
                         r.lineno, len);
            break;
        }
        if (src->mg && nsp && (!text || sp[nsp - 1].end > len)) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": the work files strike record %zu past its %zu bytes of "
                                     "text: the input changed since the find stage", path, r.lineno, i, len);
            break;
        }
        if (!text || !nsp) {
            n->passed += !text;
            tally_keep(&n->t);
            rc = io_write(w, r.line, r.len);
            if (!rc)
                rc = io_write(w, "\n", 1);
            continue;
        }
        size_t kept = sc_kept_text(sp, nsp, text, len, &buf, &cap);
        if (kept == (size_t)-1) {
            rc = err_set(ERR_NOMEM, "out of memory");
            break;
        }
        const char *id = sw ? jsonl_get_string(r.obj, o->id_field) : NULL;
        for (size_t j = 0; sw && j < nsp && !rc; j++) {
            size_t a, b;
            if (sc_snap(text, len, sp[j], &a, &b))
                rc = write_span(sw, id, i, a, b);
        }
        n->changed++;
        n->spans += nsp;
        n->struck += len - kept;
        if ((long long)kept < o->min_length) {
            tally_drop(&n->t, n->too_short, len);
        } else if (!rc) {
            cJSON *s = cJSON_CreateString(buf);
            if (!s || !cJSON_ReplaceItemInObjectCaseSensitive(r.obj, o->text_field, s)) {
                cJSON_Delete(s);
                rc = err_set(ERR_NOMEM, "out of memory");
            } else {
                tally_keep(&n->t);
                rc = jsonl_write(w, r.obj);
            }
        }
        progress_update(pg, *doc, 0);
    }
    if (!rc && k < 0)
        rc = k;
    free(buf);
    jsonl_close(jr);
    return rc;
}

/* Pass 1: every file's documents into the corpus (standard input spooled), the suffix
 * array's spans assigned to them. */
static int find_spans(const options *o, const fs_list *files, int unit, int mode, int threads, sc_corpus *c,
                      int *spool, char *spool_path, progress *pg, substr_stats *st, double *t_read)
{
    uint64_t in_bytes = 0;
    double t0 = progress_now();
    int rc = 0;
    for (size_t f = 0; f < files->n && !rc; f++) {
        int stdin_ = !strcmp(files->paths[f], "-");
        if (stdin_ && *spool < 0) {
            const char *td = getenv("TMPDIR");
            *spool = io_anon_tmpfile(td && *td ? td : "/tmp");
            if (*spool < 0)
                return *spool;
            snprintf(spool_path, 64, "/proc/self/fd/%d", *spool);
        }
        rc = read_file(files->paths[f], o, c, stdin_ ? *spool : -1, pg, &in_bytes);
    }
    if (!rc)
        rc = sc_flush(c);
    *t_read = progress_now() - t0;
    substr_range *r = NULL;
    size_t nr = 0;
    if (!rc && c->n > 0) {
        progress_phase(pg, "substr_dedup: suffix array", 0);
        rc = substr_find(c->T, unit, c->n, o->threshold, mode,
                         strcmp(o->builder, "divsufsort") ? SUBSTR_LIBSAIS : SUBSTR_DIVSUFSORT, threads, &r, &nr, st);
    }
    if (!rc)
        rc = sc_assign(c, r, nr);
    free(r);
    free(c->T); /* the symbols are done with */
    c->T = NULL;
    return rc;
}

/* Standard input copied to an unnamed temporary file, read in its place: a sharded run
 * reads its input once a stage. */
static int spool_stdin(fs_list *files, int *spool, char *spool_path)
{
    const char *td = getenv("TMPDIR");
    for (size_t f = 0; f < files->n; f++) {
        if (strcmp(files->paths[f], "-"))
            continue;
        if (*spool >= 0)
            return err_set(ERR_USAGE, "standard input given twice");
        if ((*spool = io_anon_tmpfile(td && *td ? td : "/tmp")) < 0)
            return *spool;
        char buf[1 << 16];
        ssize_t k;
        while ((k = read(0, buf, sizeof buf)) > 0)
            if (write(*spool, buf, (size_t)k) != k)
                return err_sys(ERR_IO, "spooling standard input");
        if (k < 0)
            return err_sys(ERR_IO, "reading standard input");
        snprintf(spool_path, 64, "/proc/self/fd/%d", *spool);
        char *p = strdup(spool_path);
        if (!p)
            return err_set(ERR_NOMEM, "out of memory");
        free(files->paths[f]);
        files->paths[f] = p;
    }
    return 0;
}

/* The work files of a run that made its own work directory, and the directory. */
static void remove_work(const ss_config *cfg)
{
    char path[4096];
    for (int i = 0; i < cfg->nshards; i++) {
        ss_path(path, sizeof path, cfg->work_dir, SS_SPANS, i, 0);
        unlink(path);
        for (int r = 0; r < cfg->nranges; r++) {
            ss_path(path, sizeof path, cfg->work_dir, SS_FPRINTS, i, r);
            unlink(path);
        }
    }
    for (int r = 0; r < cfg->nranges; r++) {
        ss_path(path, sizeof path, cfg->work_dir, SS_CROSS, 0, r);
        unlink(path);
    }
    rmdir(cfg->work_dir);
}

/* The find and cross stages of a sharded run (all, or the one --stage names). */
static int run_stages(const options *o, const ss_config *cfg, const fs_list *files, progress *pg, ss_stats *tot)
{
    int rc = 0;
    int all = !o->stage, find = all || !strcmp(o->stage, "find"), cross = all || !strcmp(o->stage, "cross");
    for (int i = 0; find && i < cfg->nshards && !rc; i++) {
        if (!all && i != o->index)
            continue;
        ss_stats st = {0};
        char label[64];
        snprintf(label, sizeof label, "substr_dedup: shard %d/%d", i + 1, cfg->nshards);
        progress_phase(pg, label, 0);
        rc = ss_find(cfg, files, i, pg, &st);
        if (!rc && !cfg->quiet)
            fprintf(stderr, "substr_dedup: shard %d of %d: %" PRIu64 " documents of %" PRIu64 " records, %" PRIu64
                            " %s; %" PRIu64 " spans, %" PRIu64 " fingerprints; read %.2f s, suffix array and scan %.2f s\n",
                    i, cfg->nshards, st.docs, st.records, st.units, o->unit, st.spans, st.fprints, st.read_s, st.find_s);
        tot->docs += st.docs, tot->units += st.units, tot->spans += st.spans, tot->fprints += st.fprints;
        tot->records = st.records;
    }
    for (int r = 0; cross && r < cfg->nranges && !rc; r++) {
        if (!all && r != o->index)
            continue;
        ss_stats st = {0};
        char label[64];
        snprintf(label, sizeof label, "substr_dedup: cross-shard %d/%d", r + 1, cfg->nranges);
        progress_phase(pg, label, 0);
        rc = ss_cross(cfg, files, r, pg, &st);
        if (!rc && !cfg->quiet)
            fprintf(stderr, "substr_dedup: cross-shard range %d of %d: %" PRIu64 " fingerprints, %" PRIu64
                            " in two or more shards; %" PRIu64 " %s of windows around them searched, %" PRIu64
                            " spans; read %.2f s, suffix array and scan %.2f s\n",
                    r, cfg->nranges, st.fprints, st.candidates, st.region_units, o->unit, st.spans, st.read_s, st.find_s);
        tot->candidates += st.candidates, tot->region_units += st.region_units, tot->spans += st.spans;
    }
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    rc = 0;
    int unit = strcmp(o.unit, "bytes") ? 2 : 1, mode = strcmp(o.remove, "all") ? SUBSTR_KEEP_FIRST : SUBSTR_REMOVE_ALL;
    int threads = (int)o.threads;
#ifdef _OPENMP
    if (threads <= 0)
        threads = omp_get_num_procs();
#endif
    if (threads <= 0)
        threads = 1;
    bpe *tok = NULL;
    sc_corpus c;
    memset(&c, 0, sizeof c);
    counts n = {0};
    tally_init(&n.t);
    n.too_short = tally_reason_id(&n.t, "too short after removal");
    fs_list files = {0};
    if (!o.ninputs)
        rc = fs_expand(&files, "-", fs_jsonl_suffixes);
    for (int i = 0; i < o.ninputs && !rc; i++)
        rc = fs_expand(&files, o.inputs[i], fs_jsonl_suffixes);
    if (!rc && unit == 2 && !o.apply)
        rc = tokcli_open(&tok, &o.tok);
    int sharded = o.shards > 1 || o.stage || o.work_dir, do_write = !o.stage || !strcmp(o.stage, "write");
    if (!rc && !o.apply && !sharded)
        rc = sc_init(&c, unit, tok, threads);
    ss_config cfg = {unit, mode, strcmp(o.builder, "divsufsort") ? SUBSTR_LIBSAIS : SUBSTR_DIVSUFSORT, threads,
                     (int)o.threshold, (int)o.shards, (int)o.ranges, o.text_field, o.id_field, o.work_dir, tok,
                     args_quiet_flag};
    char tmp_work[4096] = "";
    ss_merge mg = {0};
    ss_stats sst = {0};
    for (size_t f = 0; !rc && o.stage && f < files.n; f++)
        if (!strcmp(files.paths[f], "-"))
            rc = err_set(ERR_USAGE, "--stage: the input must be files (each stage reads it again), not standard input");
    /* pass 1: the spans (or --apply-spans: read) */
    int spool = -1;
    char spool_path[64] = "";
    progress *pg = progress_new("substr_dedup: reading", "documents", 0);
    substr_stats st = {0};
    substr_spans ap = {0};
    double t0 = progress_now(), t_read = 0;
    if (!rc && sharded && !o.stage)
        rc = spool_stdin(&files, &spool, spool_path);
    if (!rc && sharded && !o.work_dir) {
        const char *td = getenv("TMPDIR");
        snprintf(tmp_work, sizeof tmp_work, "%s/substr_dedup.XXXXXX", td && *td ? td : "/tmp");
        if (!mkdtemp(tmp_work))
            rc = err_sys(ERR_IO, "%s", tmp_work);
        cfg.work_dir = tmp_work;
    } else if (!rc && sharded && mkdir(o.work_dir, 0777) && errno != EEXIST) {
        rc = err_sys(ERR_IO, "--work-dir %s", o.work_dir);
    }
    if (!rc && o.apply)
        rc = substr_spans_load(&ap, o.apply);
    else if (!rc && sharded)
        rc = run_stages(&o, &cfg, &files, pg, &sst);
    else if (!rc)
        rc = find_spans(&o, &files, unit, mode, threads, &c, &spool, spool_path, pg, &st, &t_read);
    if (!rc && sharded && do_write)
        rc = ss_merge_open(&mg, &cfg);
    /* pass 2 */
    io_writer *w = NULL, *sw = NULL;
    if (!rc && do_write)
        rc = io_writer_open(&w, o.out, NULL);
    if (!rc && do_write && o.spans_path)
        rc = io_writer_open(&sw, o.spans_path, NULL);
    progress_phase(pg, "substr_dedup: writing", 0);
    size_t doc = 0;
    span_source src = {&c, o.apply ? &ap : NULL, 0, sharded ? &mg : NULL};
    for (size_t f = 0; f < files.n && !rc && do_write; f++)
        rc = write_file(strcmp(files.paths[f], "-") || o.apply ? files.paths[f] : spool_path, &o, &src, &doc, w, sw,
                        &n, pg);
    if (!rc && sharded && do_write)
        rc = ss_merge_finish(&mg, doc);
    ss_merge_close(&mg);
    if (!rc && !o.apply && !sharded && doc != c.ndocs)
        rc = err_set(ERR_FORMAT, "the input changed between the two passes (%zu documents, then %zu)", c.ndocs, doc);
    if (!rc && o.apply && src.cur < ap.n)
        rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": a span of record %" PRIu64 ", past the input's %zu records",
                     ap.name, ap.line[src.cur], ap.doc[src.cur], doc);
    progress_done(pg);
    io_writer *wg[2] = {w, sw};
    if (!rc)
        rc = io_writer_commit_group(wg, 2);
    else
        io_writer_abort(w), io_writer_abort(sw);
    if (spool >= 0)
        close(spool);
    if (tmp_work[0])
        remove_work(&cfg);
    double total = progress_now() - t0;
    if (rc < 0) {
        fprintf(stderr, "substr_dedup: %s\n", err_msg());
    } else if (!args_quiet_flag && do_write) {
        tally_summary(&n.t, stderr, "substr_dedup", "documents", "bytes", NULL);
        fprintf(stderr, "  struck: %" PRIu64 " spans of %lld+ %s (%s), %" PRIu64 " bytes of %" PRIu64 " (%.2f %%) in %" PRIu64
                        " documents; %" PRIu64 " records without text passed through\n",
                n.spans, o.threshold, o.unit,
                o.apply ? "read from the spans file" : mode == SUBSTR_KEEP_FIRST ? "the copies after the first" : "every copy",
                n.struck, n.in_bytes, n.in_bytes ? 100.0 * (double)n.struck / (double)n.in_bytes : 0.0, n.changed, n.passed);
        if (sharded && !o.stage)
            fprintf(stderr, "  %d shards (%" PRIu64 " %s, %" PRIu64 " spans in them and across; %" PRIu64
                            " fingerprints, %" PRIu64 " in two or more shards, %" PRIu64 " %s of windows searched "
                            "across); %.1f MB/s of input in all\n",
                    cfg.nshards, sst.units, o.unit, sst.spans, sst.fprints, sst.candidates, sst.region_units, o.unit,
                    total > 0 ? (double)n.in_bytes / 1e6 / total : 0.0);
        else if (!o.apply && !sharded)
            fprintf(stderr, "  %lld %s in one suffix array: read %.2f s%s, suffix array %.2f s (%s, %d threads), "
                            "scan %.2f s; %.1f MB/s of input in all\n",
                    (long long)c.n, o.unit, t_read, unit == 2 ? " (tokenizing in it)" : "", st.sa_seconds, o.builder,
                    strcmp(o.builder, "libsais") ? 1 : threads, st.scan_seconds,
                    total > 0 ? (double)n.in_bytes / 1e6 / total : 0.0);
    }
    sc_free(&c);
    substr_spans_free(&ap);
    if (tok)
        bpe_free(tok);
    fs_list_free(&files);
    free(o.inputs);
    return rc < 0 ? err_exit_code(rc) : 0;
}

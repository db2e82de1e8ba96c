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
#include "dedup/substr_spans.h"
#include "tokenizer/tokcli.h"
#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct {
    const char *out, *spans_path, *unit, *remove, *text_field, *id_field, *builder, *apply;
    long long threshold, min_length, threads;
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
        {"id-field", 0, ARG_STR, &o->id_field, "KEY", "JSON key of the id written to the spans file (default id)"},
        {"threads", 'j', ARG_INT, &o->threads, "N", "suffix array threads (default: every core)"},
        {"sa-builder", 0, ARG_STR, &o->builder, "NAME", "libsais (default) or divsufsort (libdivsufsort, one\n"
                                                       "                                thread, --unit bytes: the benchmark's comparison)"},
        TOKCLI_OPTS(o->tok),
        {NULL, 0, 0, NULL, NULL, NULL},
    };
    const arg_spec spec = {
        "substr_dedup", "[OPTION]... [INPUT]...",
        "Remove repeated spans from JSON-lines documents: every span of at least --length-threshold\n"
        "tokens (or bytes) that occurs more than once in the input is struck from its later copies\n"
        "(or from all of them), as Lee et al.'s exact-substring deduplication, which RefinedWeb runs\n"
        "after MinHash. Spans never cross a document's end. One suffix array holds up to 2^31 units\n"
        "(about 8 GB of text as GPT-2 tokens): run larger inputs in parts. Lines that are not JSON\n"
        "or have no text are passed through and counted.",
        opts,
        "Example:\n"
        "  substr_dedup corpus.jsonl.zst -o dedup.jsonl.zst --spans spans.jsonl\n"
        "  substr_dedup --unit bytes --length-threshold 100 --remove all docs.jsonl > out.jsonl\n",
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
    uint64_t passed, changed, struck, in_bytes;
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

/* The spans of record i: found by this run (c's), or read from --apply-spans (ap's, in
 * record order: cur moves on). */
typedef struct {
    const sc_corpus *c;
    const substr_spans *ap;
    size_t cur;
} span_source;

static void spans_of(span_source *src, size_t i, sc_span **sp, size_t *n)
{
    if (!src->ap) {
        const sc_doc *d = &src->c->docs[i];
        *sp = src->c->spans + d->span0;
        *n = d->nspans;
        return;
    }
    const substr_spans *a = src->ap;
    size_t j = src->cur;
    while (j < a->n && a->doc[j] == i)
        j++;
    *sp = a->span + src->cur;
    *n = j - src->cur;
    src->cur = j;
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
        if (!src->ap && (i >= c->ndocs || (text != NULL) != (c->docs[i].nsym >= 0) ||
                         (text && strlen(text) != c->docs[i].tlen))) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": the input changed between the two passes", path, r.lineno);
            break;
        }
        sc_span *sp;
        size_t nsp, len = text ? strlen(text) : 0;
        spans_of(src, i, &sp, &nsp);
        if (src->ap && nsp && (!text || sp[nsp - 1].end > len)) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": a span past the text of record %zu (%s: line %" PRIu64
                                     ", %zu bytes of text)", src->ap->name, src->ap->line[src->cur - 1], i, path,
                         r.lineno, len);
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
    if (!rc && !o.apply)
        rc = sc_init(&c, unit, tok, threads);
    /* pass 1: the spans (or --apply-spans: read) */
    int spool = -1;
    char spool_path[64] = "";
    progress *pg = progress_new("substr_dedup: reading", "documents", 0);
    substr_stats st = {0};
    substr_spans ap = {0};
    double t0 = progress_now(), t_read = 0;
    if (!rc && o.apply)
        rc = substr_spans_load(&ap, o.apply);
    else if (!rc)
        rc = find_spans(&o, &files, unit, mode, threads, &c, &spool, spool_path, pg, &st, &t_read);
    /* pass 2 */
    io_writer *w = NULL, *sw = NULL;
    if (!rc)
        rc = io_writer_open(&w, o.out, NULL);
    if (!rc && o.spans_path)
        rc = io_writer_open(&sw, o.spans_path, NULL);
    progress_phase(pg, "substr_dedup: writing", 0);
    size_t doc = 0;
    span_source src = {&c, o.apply ? &ap : NULL, 0};
    for (size_t f = 0; f < files.n && !rc; f++)
        rc = write_file(strcmp(files.paths[f], "-") || o.apply ? files.paths[f] : spool_path, &o, &src, &doc, w, sw,
                        &n, pg);
    if (!rc && !o.apply && doc != c.ndocs)
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
    double total = progress_now() - t0;
    if (rc < 0) {
        fprintf(stderr, "substr_dedup: %s\n", err_msg());
    } else if (!args_quiet_flag) {
        tally_summary(&n.t, stderr, "substr_dedup", "documents", "bytes", NULL);
        fprintf(stderr, "  struck: %zu spans of %lld+ %s (%s), %" PRIu64 " bytes of %" PRIu64 " (%.2f %%) in %" PRIu64
                        " documents; %" PRIu64 " records without text passed through\n",
                o.apply ? ap.n : c.nspans, o.threshold, o.unit,
                o.apply ? "read from the spans file" : mode == SUBSTR_KEEP_FIRST ? "the copies after the first" : "every copy",
                n.struck, n.in_bytes, n.in_bytes ? 100.0 * (double)n.struck / (double)n.in_bytes : 0.0, n.changed, n.passed);
        if (!o.apply)
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

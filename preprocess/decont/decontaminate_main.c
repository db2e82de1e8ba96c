/* decontaminate_main.c - the decontaminate tool: training documents checked against the
 * word n-grams of evaluation sets (preprocess/decont/decont.c), what overlaps them cut out
 * (GPT-3's method, lm-evaluation-harness's Janitor) or the document dropped (datatrove's
 * NGramsDecontFilter); every removal counted by task and written to a report. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/jsonscan.h"
#include "common/utf8.h"
#include "common/progress.h"
#include "common/tally.h"
#include "preprocess/decont/decont.h"
#include "preprocess/decont/evalset.h"

typedef struct {
    const char *out, *report, *removed, *mode, *text_field, *id_field, *eval_text, *eval_query, *sep;
    long long n, window, min_piece, max_matches;
    int query_ngrams;
    args_list evals;
    char **inputs;
    int ninputs;
} options;

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = "cut";
    o->text_field = "text";
    o->id_field = "id";
    o->eval_text = "text";
    o->sep = "\n\n";
    o->n = 13;
    o->window = 200;
    o->min_piece = 200;
    o->max_matches = 10;
    const arg_opt opts[] = {
        {"eval", 'e', ARG_LIST, &o->evals, "FILE", "an evaluation set (JSON lines: HellaSwag, ARC, PIQA, Winogrande\n"
                                                   "                                or --eval-text-field), as [TASK=]FILE or a directory of\n"
                                                   "                                them; repeatable (at least one)"},
        {"mode", 0, ARG_STR, &o->mode, "MODE", "cut: the matches cut out with --window characters around\n"
                                               "                                them (GPT-3, lm-evaluation-harness's Janitor; default);\n"
                                               "                                drop: the document dropped at its first match (datatrove)"},
        {"ngram", 'n', ARG_INT, &o->n, "N", "words an n-gram (default 13, as GPT-3)"},
        {"window", 0, ARG_INT, &o->window, "C", "cut: characters removed on each side of a match (default 200)"},
        {"min-piece", 0, ARG_INT, &o->min_piece, "C", "cut: a piece left shorter than this goes too (default 200)"},
        {"max-matches", 0, ARG_INT, &o->max_matches, "K", "cut: a document with more matching n-grams is dropped\n"
                                                        "                                whole (default 10)"},
        {"piece-separator", 0, ARG_STR, &o->sep, "S", "cut: what joins the pieces left (default a blank line)"},
        {"query-ngrams", 0, ARG_FLAG, &o->query_ngrams, NULL, "drop: the contexts' own n-grams too (datatrove's\n"
                                                              "                                find_query_ngrams; default: answers, and context-answer\n"
                                                              "                                overlaps)"},
        {"eval-text-field", 0, ARG_STR, &o->eval_text, "KEY", "the answer's key in sets of no known format (default text)"},
        {"eval-query-field", 0, ARG_STR, &o->eval_query, "KEY", "the context's key there (default: none)"},
        {"output", 'o', ARG_STR, &o->out, "FILE", "the documents kept, cut where they matched (default stdout;\n"
                                                  "                                .zst / .gz compress)"},
        {"report", 0, ARG_STR, &o->report, "FILE", "every match: {\"doc\", \"id\", \"action\", \"task\", \"item\",\n"
                                                   "                                \"ngram\"} (cut: \"start\", \"end\" bytes too)"},
        {"removed", 0, ARG_STR, &o->removed, "FILE", "the documents dropped, with \"contaminated_task\" and\n"
                                                     "                                \"contaminated_ngram\" added"},
        {"text-field", 0, ARG_STR, &o->text_field, "KEY", "JSON key of the documents' text (default text)"},
        {"id-field", 0, ARG_STR, &o->id_field, "KEY", "JSON key of their id, for the report (default id)"},
        {NULL, 0, 0, NULL, NULL, NULL},
    };
    const arg_spec spec = {
        "decontaminate", "[OPTION]... --eval SET... [INPUT]...",
        "Remove from JSON-lines documents what overlaps evaluation sets: every run of --ngram words\n"
        "that occurs in an item (its context and answer). --mode cut does what GPT-3 did and\n"
        "lm-evaluation-harness's Janitor does (lowercased, ASCII punctuation deleted; each match cut\n"
        "out with 200 characters around it, pieces under 200 characters dropped, a document with more\n"
        "than 10 matches dropped); --mode drop what datatrove's NGramsDecontFilter does (its\n"
        "simplify_text and spaCy's words; the document dropped at its first match). Documents in =\n"
        "kept + dropped; every removal counted by task.",
        opts,
        "Example:\n"
        "  decontaminate --eval data/eval corpus.jsonl.zst -o clean.jsonl.zst --report contamination.jsonl\n"
        "  decontaminate --mode drop -n 12 --eval hellaswag=hs.jsonl --eval arc.jsonl docs.jsonl > kept.jsonl\n",
    };
    int rc = args_parse_main(&spec, argc, argv, &o->inputs, &o->ninputs);
    if (rc >= 0)
        return rc;
    const char *bad = NULL;
    if (strcmp(o->mode, "cut") && strcmp(o->mode, "drop"))
        bad = "--mode: expected cut or drop";
    else if (!o->evals.n)
        bad = "--eval: at least one evaluation set";
    else if (o->n < 1 || o->n > 1000)
        bad = "--ngram: 1 to 1000";
    else if (o->window < 0 || o->min_piece < 0 || o->max_matches < 0 || o->max_matches > 100000)
        bad = "--window, --min-piece, --max-matches: 0 or more (--max-matches at most 100000)";
    if (!bad)
        return -1;
    fprintf(stderr, "decontaminate: %s\n", bad);
    free(o->inputs);
    args_list_free(&o->evals);
    return EXIT_USAGE;
}

typedef struct {
    tally t;
    int too_dirty, nothing_left, contaminated;
    uint64_t cut, passed, hits, cut_bytes;
    uint64_t *task_docs; /* documents touched, by the task of their first match */
} counts;

static int report_hit(io_writer *rw, size_t doc, const char *id, const char *action, const eval_set *es,
                      const decont_hit *h, const char *ngram, size_t nlen, int with_pos)
{
    const eval_item *it = &es->v[h->item];
    cJSON *o = cJSON_CreateObject();
    char *ng = malloc(nlen + 1);
    int ok = o && ng;
    if (ok) {
        memcpy(ng, ngram, nlen);
        ng[nlen] = 0;
        ok = cJSON_AddNumberToObject(o, "doc", (double)doc) && (!id || cJSON_AddStringToObject(o, "id", id)) &&
             cJSON_AddStringToObject(o, "action", action) && cJSON_AddStringToObject(o, "task", es->tasks[it->task]) &&
             cJSON_AddNumberToObject(o, "item", it->index) && cJSON_AddStringToObject(o, "ngram", ng) &&
             (!with_pos || (cJSON_AddNumberToObject(o, "start", h->start) && cJSON_AddNumberToObject(o, "end", h->end)));
    }
    int rc = ok ? jsonl_write(rw, o) : err_set(ERR_NOMEM, "out of memory");
    free(ng);
    cJSON_Delete(o);
    return rc;
}

/* One file's documents checked and written. The text is found by one pass over the line
 * (common/jsonscan.h; cJSON where that pass declines), and a document cut gets its text value
 * replaced in place: every other byte of its line stays as it was. */
static int run_file(const char *path, const options *o, const decont *d, decont_ctx *dc, const eval_set *es,
                    io_writer *w, io_writer *rw, io_writer *xw, size_t *doc, counts *n, progress *pg, uint64_t *bytes)
{
    io_reader *rd = NULL;
    int rc = io_reader_open(&rd, path), k = 0, cut = !strcmp(o->mode, "cut");
    if (rc)
        return rc;
    decont_result res = {0};
    char *buf = NULL, *txt = NULL, *esc = NULL, *line;
    size_t cap = 0, tcap = 0, ecap = 0, seplen = strlen(o->sep), ll;
    const char *key = o->text_field;
    while (!rc && (k = io_getline(rd, &line, &ll)) > 0) {
        if (jsonl_is_blank(line, ll))
            continue; /* not a record (as the JSON-lines reader of every tool) */
        size_t i = (*doc)++, vs = 0, ve = 0;
        *bytes += ll + 1;
        progress_update(pg, *doc, *bytes);
        int found = 0, plain = 0;
        jsonscan_span sp;
        if (jsonscan_fields(line, ll, &key, 1, &sp)) {
            found = sp.type == JSONSCAN_STRING;
            vs = sp.start;
            ve = sp.end;
            plain = found && !sp.escaped;
        } else {
            size_t col;
            int trailing;
            cJSON *obj = jsonl_parse_line(line, ll, &col, &trailing);
            if (!obj && trailing == JSONL_NOMEM) {
                rc = err_set(ERR_NOMEM, "out of memory");
                break;
            }
            found = obj && cJSON_IsObject(obj) && jsonl_value_span(line, ll, key, &vs, &ve) && line[vs] == '"';
            cJSON_Delete(obj);
        }
        const char *text = NULL;
        size_t len = 0;
        if (plain && utf8_valid(line + vs + 1, ve - vs - 2)) {
            text = line + vs + 1;
            len = ve - vs - 2;
        } else if (found && !jsonl_unescape(line + vs, ve - vs, &txt, &len, &tcap)) {
            text = txt;
        }
        int h = text ? decont_check(d, dc, text, len, &res) : 0;
        if (h < 0) {
            rc = h;
            break;
        }
        if (!h) {
            n->passed += !text;
            tally_keep(&n->t);
            if (!(rc = io_write(w, line, ll)))
                rc = io_write(w, "\n", 1);
            continue;
        }
        /* a match: the record as a tree, for its id (and the removed documents' fields) */
        size_t col;
        int trailing;
        cJSON *obj = jsonl_parse_line(line, ll, &col, &trailing);
        if (!obj) {
            rc = err_set(ERR_NOMEM, "out of memory");
            break;
        }
        const char *id = jsonl_get_string(obj, o->id_field);
        int dropped = !cut || res.too_dirty || !res.npieces;
        n->hits += res.nhits;
        n->task_docs[es->v[res.hits[0].item].task]++;
        for (size_t j = 0; rw && j < res.nhits && !rc; j++)
            rc = cut ? report_hit(rw, i, id, dropped ? "dropped" : "cut", es, &res.hits[j], text + res.hits[j].start,
                                  res.hits[j].end - res.hits[j].start, 1)
                     : report_hit(rw, i, id, "dropped", es, &res.hits[j], res.ngram, strlen(res.ngram), 0);
        if (!rc && dropped) {
            tally_drop(&n->t, !cut ? n->contaminated : res.too_dirty ? n->too_dirty : n->nothing_left, len);
            if (xw) {
                const decont_hit *h0 = &res.hits[0];
                char *ng = cut ? malloc(h0->end - h0->start + 1) : NULL;
                if (ng) {
                    memcpy(ng, text + h0->start, h0->end - h0->start);
                    ng[h0->end - h0->start] = 0;
                }
                if ((cut && !ng) || !cJSON_AddStringToObject(obj, "contaminated_task", es->tasks[es->v[h0->item].task]) ||
                    !cJSON_AddStringToObject(obj, "contaminated_ngram", cut ? ng : res.ngram))
                    rc = err_set(ERR_NOMEM, "out of memory");
                free(ng);
                if (!rc)
                    rc = jsonl_write(xw, obj);
            }
        } else if (!rc) { /* cut: the pieces joined, in place of the text's value */
            size_t need = len + res.npieces * seplen + 1, m = 0, el;
            if (need > cap) {
                char *g = realloc(buf, need);
                if (!g)
                    rc = err_set(ERR_NOMEM, "out of memory");
                else
                    buf = g, cap = need;
            }
            for (size_t j = 0; !rc && j < res.npieces; j++) {
                if (j) {
                    memcpy(buf + m, o->sep, seplen);
                    m += seplen;
                }
                memcpy(buf + m, text + res.pieces[2 * j], res.pieces[2 * j + 1] - res.pieces[2 * j]);
                m += res.pieces[2 * j + 1] - res.pieces[2 * j];
            }
            if (!rc && !(rc = jsonl_escape(buf, m, &esc, &el, &ecap))) {
                n->cut++;
                n->cut_bytes += len > m ? len - m : 0;
                tally_keep(&n->t);
                if (!(rc = io_write(w, line, vs)) && !(rc = io_write(w, esc, el)) &&
                    !(rc = io_write(w, line + ve, ll - ve)))
                    rc = io_write(w, "\n", 1);
            }
        }
        cJSON_Delete(obj);
    }
    if (!rc && k < 0)
        rc = k;
    if (rc && rc != ERR_NOMEM)
        err_set(rc, "%s: %s", path, err_msg());
    free(buf);
    free(txt);
    free(esc);
    decont_result_free(&res);
    io_reader_close(rd);
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    rc = 0;
    eval_set es = {0};
    es.text_field = o.eval_text;
    es.query_field = o.eval_query;
    double t0 = progress_now();
    /* the sets: files, NAME=FILE, or directories of JSON lines */
    for (size_t i = 0; i < o.evals.n && !rc; i++) {
        const char *spec = o.evals.items[i];
        const char *file;
        char *name;
        int named = fs_split_named(spec, &name, &file);
        free(name);
        if (!named) {
            fs_list l = {0};
            rc = fs_expand(&l, spec, fs_jsonl_suffixes);
            for (size_t j = 0; j < l.n && !rc; j++)
                rc = eval_load(&es, l.paths[j]);
            fs_list_free(&l);
        } else {
            rc = eval_load(&es, spec);
        }
    }
    decont_cfg cfg = {!strcmp(o.mode, "drop") ? DECONT_DROP : DECONT_CUT, (int)o.n, (int)o.window, (int)o.min_piece,
                      (int)o.max_matches, o.query_ngrams};
    decont *d = NULL;
    decont_ctx *dc = NULL;
    if (!rc)
        rc = decont_new(&d, &cfg);
    if (!rc)
        rc = decont_add_set(d, &es);
    if (!rc && !(dc = decont_ctx_new(d)))
        rc = err_set(ERR_NOMEM, "out of memory");
    double t_index = progress_now() - t0;
    counts n = {0};
    tally_init(&n.t);
    n.too_dirty = tally_reason_id(&n.t, "contaminated: too many matches");
    n.nothing_left = tally_reason_id(&n.t, "contaminated: nothing left");
    n.contaminated = tally_reason_id(&n.t, "contaminated");
    n.task_docs = calloc(es.ntasks ? es.ntasks : 1, sizeof *n.task_docs);
    if (!rc && !n.task_docs)
        rc = err_set(ERR_NOMEM, "out of memory");
    fs_list files = {0};
    if (!rc && !o.ninputs)
        rc = fs_expand(&files, "-", fs_jsonl_suffixes);
    for (int i = 0; i < o.ninputs && !rc; i++)
        rc = fs_expand(&files, o.inputs[i], fs_jsonl_suffixes);
    io_writer *w = NULL, *rw = NULL, *xw = NULL;
    if (!rc)
        rc = io_writer_open(&w, o.out, NULL);
    if (!rc && o.report)
        rc = io_writer_open(&rw, o.report, NULL);
    if (!rc && o.removed)
        rc = io_writer_open(&xw, o.removed, NULL);
    progress *pg = progress_new("decontaminate", "documents", 0);
    size_t doc = 0;
    uint64_t bytes = 0;
    double t1 = progress_now();
    for (size_t f = 0; f < files.n && !rc; f++)
        rc = run_file(files.paths[f], &o, d, dc, &es, w, rw, xw, &doc, &n, pg, &bytes);
    progress_done(pg);
    io_writer *wg[3] = {w, rw, xw};
    if (!rc)
        rc = io_writer_commit_group(wg, 3);
    else
        io_writer_abort(w), io_writer_abort(rw), io_writer_abort(xw);
    double t_run = progress_now() - t1;
    if (rc < 0) {
        fprintf(stderr, "decontaminate: %s\n", err_msg());
    } else if (!args_quiet_flag) {
        tally_summary(&n.t, stderr, "decontaminate", "documents", "bytes", NULL);
        fprintf(stderr, "  %s: %" PRIu64 " documents cut (%" PRIu64 " bytes), %" PRIu64 " matching %lld-grams; %" PRIu64
                        " records without text passed through\n",
                o.mode, n.cut, n.cut_bytes, n.hits, o.n, n.passed);
        for (size_t t = 0; t < es.ntasks; t++)
            fprintf(stderr, "  %-28s %" PRIu64 " documents matched\n", es.tasks[t], n.task_docs[t]);
        fprintf(stderr, "  index: %zu items of %zu sets, %zu %lld-grams (%.1f MB: %.1f MB a million) in %.2f s; "
                        "%.1f MB/s of input\n",
                es.n, es.ntasks, decont_count(d), o.n, (double)decont_bytes(d) / 1e6,
                decont_count(d) ? (double)decont_bytes(d) / (double)decont_count(d) : 0.0, t_index,
                t_run > 0 ? (double)bytes / 1e6 / t_run : 0.0);
    }
    decont_ctx_free(dc);
    decont_free(d);
    eval_free(&es);
    free(n.task_docs);
    fs_list_free(&files);
    free(o.inputs);
    args_list_free(&o.evals);
    return rc < 0 ? err_exit_code(rc) : 0;
}

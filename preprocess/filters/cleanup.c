/* cleanup.c - the cleanup stage's chain on batches of records (see cleanup.h). */
#include "preprocess/filters/cleanup.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/bigmem.h"
#include "common/err.h"
#include "common/jsonl.h"
#include "common/jsonscan.h"
#include "common/utf8.h"
#include "preprocess/text/langid.h"

const char *const cleanup_reason_name[R_N] = {"kept", "bad_json", "no_text", "empty", "non_english", "too_short",
                                              "remove_512", "remove_256_javascript", "remove_512_non_english",
                                              "quality", "quality_error"};
const char *const cleanup_filter_name[Q_N] = {"gopher_repetition", "gopher_quality", "c4_quality", "fineweb_quality"};

static int starts_lower_javascript(const char *s, size_t n)
{
    static const char js[] = "javascript";
    for (size_t i = 0; i + 10 <= n; i++) {
        size_t k = 0;
        while (k < 10) {
            char c = s[i + k];
            if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
            if (c != js[k]) break;
            k++;
        }
        if (k == 10) return 1;
    }
    return 0;
}

/* The line with the key's value replaced by the JSON string for t[0..tn). */
static int splice(cleanup_rec *r, size_t vs, size_t ve, cleanup_worker *w, const char *t, size_t tn)
{
    if (jsonl_escape(t, tn, &w->esc, &w->esc_len, &w->esc_cap)) return ERR_NOMEM;
    r->out_len = vs + w->esc_len + (r->len - ve);
    r->out = malloc(r->out_len + 1);
    if (!r->out) return ERR_NOMEM;
    memcpy(r->out, r->line, vs);
    memcpy(r->out + vs, w->esc, w->esc_len);
    memcpy(r->out + vs + w->esc_len, r->line + ve, r->len - ve);
    r->out[r->out_len] = 0;
    return 0;
}

/* *yes: the text is in the kept language; ERR_NOMEM when the identifier ran out of memory */
static int is_english(const cleanup_config *c, const char *t, size_t n, int *yes)
{
    langid_result lr;
    int rc = langid_detect(t, n, &lr);
    *yes = !rc && strcmp(lr.code, c->keep_lang) == 0;
    return rc;
}

/* The quality filters in order on the (fixed) text; c4_quality may replace it. */
static int run_quality(const cleanup_config *c, cleanup_worker *w, cleanup_rec *r, const char **t, size_t *tn, int *changed)
{
    if (!c->nqf) return 0;
    quality_begin(w->qc);
    for (int i = 0; i < c->nqf; i++) {
        const char *reason = NULL, *o = NULL;
        size_t on = 0;
        int k;
        switch (c->qf[i]) {
        case Q_GOPHER_REP: k = quality_gopher_repetition(w->qc, &c->qp, *t, *tn, &reason); break;
        case Q_GOPHER_QUALITY: k = quality_gopher_quality(w->qc, &c->qp, *t, *tn, &reason); break;
        case Q_C4:
            k = quality_c4(w->qc, &c->qp, *t, *tn, &o, &on, &reason);
            if (k == 1 && (on != *tn || memcmp(o, *t, on))) {
                *t = o;
                *tn = on;
                *changed = 1;
                r->qedited = 1;
            }
            break;
        default: k = quality_fineweb(w->qc, &c->qp, *t, *tn, &reason); break;
        }
        if (k == ERR_NOMEM) return k;
        if (k < 0) { /* a regular expression gave up on this text: dropped, and said so */
            r->reason = R_QUALITY_ERROR;
            r->qfilter = i;
            r->qreason = "quality_error";
            return 0;
        }
        if (k == 0) {
            r->reason = R_QUALITY;
            r->qfilter = i;
            r->qreason = reason;
            return 0;
        }
    }
    r->chars = fixtext_cp_len(*t, *tn);
    return 0;
}

static int process(const cleanup_config *c, cleanup_worker *w, cleanup_rec *r)
{
    size_t vs = 0, ve = 0;
    int found, plain = 0;
    jsonscan_span sp;
    const char *key = c->key;
    if (jsonscan_fields(r->line, r->len, &key, 1, &sp)) { /* the common record, in one pass */
        found = sp.type == JSONSCAN_STRING;
        vs = sp.start;
        ve = sp.end;
        plain = found && !sp.escaped;
    } else { /* the rest as cJSON reads it (its messages) */
        size_t err_col;
        int trailing;
        cJSON *obj = jsonl_parse_line(r->line, r->len, &err_col, &trailing);
        if (!obj && trailing == JSONL_NOMEM) return ERR_NOMEM;
        if (!obj) {
            r->reason = R_BAD_JSON;
            r->err_col = err_col;
            return 0;
        }
        found = cJSON_IsObject(obj) && jsonl_value_span(r->line, r->len, c->key, &vs, &ve) && r->line[vs] == '"';
        cJSON_Delete(obj);
    }
    /* raw bytes that are not UTF-8 are replaced by U+FFFD: the line must be rewritten */
    int rewrite = found && !utf8_valid(r->line + vs, ve - vs);
    const char *t;
    size_t tn;
    if (plain && !rewrite) { /* no escape, valid UTF-8: the text is the line's own bytes */
        t = r->line + vs + 1;
        tn = ve - vs - 2;
    } else {
        if (!found || jsonl_unescape(r->line + vs, ve - vs, &w->txt, &w->txt_len, &w->txt_cap)) {
            r->reason = R_NO_TEXT;
            return 0;
        }
        t = w->txt;
        tn = w->txt_len;
    }
    int rc;

    if (c->tasks_mode) { /* cleanup_fix_dataset: the first task that fires wins */
        size_t chars = fixtext_cp_len(t, tn);
        r->chars = chars;
        if ((c->tasks & T_REMOVE_512) && chars < 512) {
            r->reason = R_REMOVE_512;
            r->task = T_REMOVE_512;
            return 0;
        }
        if ((c->tasks & T_REMOVE_256_JS) && chars < 256 && starts_lower_javascript(t, tn)) {
            r->reason = R_REMOVE_256_JS;
            r->task = T_REMOVE_256_JS;
            return 0;
        }
        if ((c->tasks & T_REMOVE_512_NON_EN) && chars < 512) {
            int en;
            if ((rc = is_english(c, t, tn, &en))) return rc;
            if (!en) {
                r->reason = R_REMOVE_512_NON_EN;
                r->task = T_REMOVE_512_NON_EN;
                return 0;
            }
        }
        const char *o = NULL;
        size_t on = 0;
        if (c->tasks & T_FTFY) {
            r->task = T_FTFY;
            o = fixtext_fix(w->fx, &c->ftfy, t, tn, &on);
        } else if (c->tasks & T_GENERAL) {
            r->task = T_GENERAL;
            o = fixtext_general_cleaning(w->fx, t, tn, &on);
        }
        if (r->task && !o) return ERR_NOMEM;
        if (o && (on != tn || memcmp(o, t, tn))) {
            r->fixed = 1;
            r->chars = fixtext_cp_len(o, on);
            t = o;
            tn = on;
        }
    } else {
        if (c->fix) {
            size_t on;
            const char *o = fixtext_fix(w->fx, &c->ftfy, t, tn, &on);
            if (!o) return ERR_NOMEM;
            if (on != tn || memcmp(o, t, tn)) {
                r->fixed = 1;
                t = o;
                tn = on;
            }
        }
        r->chars = fixtext_cp_len(t, tn);
        if (!c->fix_only) {
            if (tn == 0 && (c->lang || c->length)) {
                r->reason = R_EMPTY;
                return 0;
            }
            if (c->lang) {
                int en;
                if ((rc = is_english(c, t, tn, &en))) return rc;
                if (!en) {
                    r->reason = R_NON_ENGLISH;
                    return 0;
                }
            }
            if (c->length && r->chars < (uint64_t)c->max_chars) {
                /* fewer than min_tokens with the EOD? (the pieces decide when they are enough) */
                int enough;
                size_t need = c->min_tokens > 1 ? (size_t)(c->min_tokens - 1) : 0;
                if (bpe_count_at_least(w->bc, t, tn, need, &enough)) return ERR_NOMEM;
                if (!enough) {
                    r->reason = R_TOO_SHORT;
                    return 0;
                }
            }
        }
    }
    int changed = r->fixed;
    if ((rc = run_quality(c, w, r, &t, &tn, &changed))) return rc;
    if (r->reason != R_KEPT) return 0;
    if (changed || rewrite) return splice(r, vs, ve, w, t, tn);
    return 0;
}

/* ---------- batches ---------- */


typedef struct {
    const cleanup_config *c;
    cleanup_worker *w;
    cleanup_batch *b;
    int nw;
    int err;
} job;

static void run_chunk(size_t k, void *ctx)
{
    job *j = ctx;
    size_t lo = j->b->n * k / (size_t)j->nw, hi = j->b->n * (k + 1) / (size_t)j->nw;
    for (size_t i = lo; i < hi; i++) {
        int e = process(j->c, &j->w[k], &j->b->r[i]);
        if (e) j->err = e;
    }
}

/* a quality filter's name appended to c->qf (the order is the order of the runs) */
static int add_quality(cleanup_config *c, const char *t, const char *flag)
{
    int q;
    for (q = 0; q < Q_N; q++)
        if (!strcmp(t, cleanup_filter_name[q])) break;
    if (q == Q_N) return 0;
    for (int i = 0; i < c->nqf; i++)
        if (c->qf[i] == q) return err_set(ERR_USAGE, "%s: %s is listed twice", flag, t);
    c->qf[c->nqf++] = q;
    return 1;
}

int cleanup_parse_filters(const char *s, cleanup_config *c)
{
    char *dup = strdup(s), *save = NULL;
    int rc = 0;
    if (!dup) return ERR_NOMEM;
    for (char *t = strtok_r(dup, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
        rc = add_quality(c, t, "--filters");
        if (rc == 0) rc = err_set(ERR_USAGE, "--filters: unknown filter \"%s\" (gopher_repetition, gopher_quality, "
                                             "c4_quality, fineweb_quality)", t);
        else if (rc == 1) rc = 0;
    }
    free(dup);
    return rc;
}

int cleanup_parse_tasks(const char *s, unsigned *out, cleanup_config *c)
{
    *out = 0;
    char *dup = strdup(s), *save = NULL;
    if (!dup) return ERR_NOMEM;
    int any = 0;
    for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int q = add_quality(c, t, "--tasks");
        if (q < 0) {
            free(dup);
            return q;
        }
        if (q == 1) {
            any = 1;
            continue;
        }
        unsigned f = !strcmp(t, "remove_512") ? T_REMOVE_512
                     : !strcmp(t, "remove_256_javascript") ? T_REMOVE_256_JS
                     : !strcmp(t, "remove_512_non_english") ? T_REMOVE_512_NON_EN
                     : !strcmp(t, "ftfy_fix_text") ? T_FTFY
                     : !strcmp(t, "general_cleaning") ? T_GENERAL : 0;
        if (!f) {
            err_set(ERR_USAGE, "unknown task \"%s\" (remove_512, remove_256_javascript, remove_512_non_english, "
                               "ftfy_fix_text, general_cleaning, gopher_repetition, gopher_quality, c4_quality, "
                               "fineweb_quality)", t);
            free(dup);
            return ERR_USAGE;
        }
        *out |= f;
    }
    free(dup);
    return *out || any ? 0 : err_set(ERR_USAGE, "--tasks is empty");
}

int cleanup_parse_ftfy_off(const char *s, fixtext_config *f)
{
    char *dup = strdup(s), *save = NULL;
    if (!dup) return ERR_NOMEM;
    int rc = 0;
    for (char *t = strtok_r(dup, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
        struct { const char *name; int *flag; } m[] = {
            {"unescape_html", &f->unescape_html},        {"remove_terminal_escapes", &f->remove_terminal_escapes},
            {"fix_encoding", &f->fix_encoding},          {"fix_c1_controls", &f->fix_c1_controls},
            {"fix_latin_ligatures", &f->fix_latin_ligatures}, {"fix_character_width", &f->fix_character_width},
            {"uncurl_quotes", &f->uncurl_quotes},        {"fix_line_breaks", &f->fix_line_breaks},
            {"remove_control_chars", &f->remove_control_chars}, {"normalization", &f->normalization},
        };
        size_t k;
        for (k = 0; k < sizeof m / sizeof *m; k++)
            if (!strcmp(t, m[k].name)) break;
        if (k == sizeof m / sizeof *m) rc = err_set(ERR_USAGE, "--ftfy-off: unknown fixer \"%s\"", t);
        else *m[k].flag = 0;
    }
    free(dup);
    return rc;
}

int cleanup_process_batch(const cleanup_config *c, cleanup_worker *W, int nw, pool *pl, cleanup_batch *b)
{
    job j = {c, W, b, nw, 0};
    /* every one of the nw chunks, on this thread too when there is no pool (pl NULL: its
     * threads could not be started); chunk 0 alone would leave the rest of the batch
     * unprocessed, written out as it came */
    pool_parallel_for(pl, (size_t)nw, run_chunk, &j);
    return j.err ? err_set(j.err, "out of memory") : 0;
}

cleanup_worker *cleanup_workers_new(const cleanup_config *c, int nw)
{
    cleanup_worker *W = calloc((size_t)nw, sizeof *W);
    if (!W) {
        err_set(ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (int k = 0; k < nw; k++) {
        W[k].fx = fixtext_new();
        W[k].bc = c->bpe ? bpe_ctx_new(c->bpe) : NULL;
        if (!W[k].fx || (c->bpe && !W[k].bc) || (c->nqf && !(W[k].qc = quality_ctx_new()))) {
            err_set(ERR_NOMEM, "out of memory (or the ftfy patterns did not compile)");
            cleanup_workers_free(W, nw);
            return NULL;
        }
    }
    return W;
}

void cleanup_workers_free(cleanup_worker *W, int nw)
{
    for (int k = 0; W && k < nw; k++) {
        fixtext_free(W[k].fx);
        quality_ctx_free(W[k].qc);
        bpe_ctx_free(W[k].bc);
        bpe_ids_free(&W[k].ids);
        free(W[k].txt);
        free(W[k].esc);
    }
    free(W);
}

int cleanup_read_batch(io_reader *in, cleanup_batch *b, uint64_t *blank, int *eof)
{
    for (size_t i = 0; i < b->n; i++) { /* the previous batch's outputs */
        free(b->r[i].out);
        b->r[i].out = NULL;
    }
    b->n = 0;
    b->used = 0;
    while (b->n < 8192 && b->used < (8u << 20)) {
        char *line;
        size_t len;
        int g = io_getline(in, &line, &len);
        if (g < 0)
            return g;
        if (g == 0) {
            *eof = 1;
            return 0;
        }
        if (jsonl_is_blank(line, len)) {
            (*blank)++;
            continue;
        }
        if (b->used + len + 1 > b->arena_cap) {
            /* a new arena; the batch's lines so far move into it. 9 MB: a batch stops once
             * past 8 MB, so a line under 1 MB always fits after it and the arena is made
             * once (sized to the first line, a longer line crossing the mark had moved the
             * batch's 8 MB into a new arena); more would raise the memory cleanup needs */
            size_t want = b->used + len + 1;
            size_t cap = (9u << 20) >= want ? (9u << 20) : want + len + 1;
            char *na = big_alloc(cap, 0); /* its pages faulted in 2 MB at a time where the kernel allows */
            if (!na)
                return err_set(ERR_NOMEM, "out of memory");
            size_t off = 0;
            for (size_t i = 0; i < b->n; i++) {
                memcpy(na + off, b->r[i].line, b->r[i].len + 1);
                b->r[i].line = na + off;
                off += b->r[i].len + 1;
            }
            b->used = off;
            free(b->arena);
            b->arena = na;
            b->arena_cap = cap;
        }
        if (b->n == b->cap) {
            size_t cap = b->cap ? 2 * b->cap : 1024;
            cleanup_rec *nr = realloc(b->r, cap * sizeof *nr);
            if (!nr)
                return err_set(ERR_NOMEM, "out of memory");
            b->r = nr;
            b->cap = cap;
        }
        cleanup_rec *r = &b->r[b->n++];
        memset(r, 0, sizeof *r);
        r->line = b->arena + b->used;
        memcpy(r->line, line, len);
        r->line[len] = 0;
        r->len = len;
        r->lineno = io_reader_lineno(in);
        b->used += len + 1;
    }
    return 0;
}

void cleanup_batch_free(cleanup_batch *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->r[i].out);
    free(b->r);
    free(b->arena);
    memset(b, 0, sizeof *b);
}

int cleanup_write_removed(io_writer *rw, const cleanup_config *c, const cleanup_rec *r, const char *file)
{
    int rc = 0;
    if (r->reason == R_BAD_JSON || r->reason == R_NO_TEXT) {
        /* the raw line as valid UTF-8, escaped, with where it came from */
        char *esc = NULL, *fesc = NULL, *san = malloc(3 * r->len + 1);
        size_t el, ec = 0, fl, fc = 0;
        size_t sl = san ? utf8_sanitize(r->line, r->len, san) : 0;
        if (!san || jsonl_escape(san, sl, &esc, &el, &ec) || jsonl_escape(file, strlen(file), &fesc, &fl, &fc))
            rc = err_set(ERR_NOMEM, "out of memory");
        char head[128];
        snprintf(head, sizeof head, "{\"cleanup_reason\": \"%s\", \"line\": %" PRIu64 ", \"file\": ",
                 cleanup_reason_name[r->reason], r->lineno);
        if (!rc) rc = io_write(rw, head, strlen(head));
        if (!rc) rc = io_write(rw, fesc, fl);
        if (!rc) rc = io_write(rw, ", \"raw\": ", 9);
        if (!rc) rc = io_write(rw, esc, el);
        if (!rc) rc = io_write(rw, "}\n", 2);
        free(esc);
        free(fesc);
        free(san);
        return rc;
    }
    /* the object with "cleanup_reason" appended */
    size_t len;
    const char *line = cleanup_output(r, &len);
    size_t e = len;
    while (e > 0 && line[e - 1] != '}')
        e--;
    if (e == 0)
        e = len + 1; /* cannot happen: an object */
    size_t body = e - 1, k = body;
    while (k > 0 && (line[k - 1] == ' ' || line[k - 1] == '\t'))
        k--;
    int empty_obj = k > 0 && line[k - 1] == '{';
    char tail[256];
    if (r->reason == R_QUALITY || r->reason == R_QUALITY_ERROR)
        snprintf(tail, sizeof tail, "%s\"cleanup_reason\": \"%s\", \"cleanup_filter\": \"%s\"}",
                 empty_obj ? "" : ", ", r->qreason, cleanup_filter_name[c->qf[r->qfilter]]);
    else
        snprintf(tail, sizeof tail, "%s\"cleanup_reason\": \"%s\"}", empty_obj ? "" : ", ",
                 cleanup_reason_name[r->reason]);
    rc = io_write(rw, line, body);
    if (!rc) rc = io_write(rw, tail, strlen(tail));
    if (!rc) rc = io_write(rw, "\n", 1);
    return rc;
}

void cleanup_stats_init(cleanup_stats *st)
{
    memset(st, 0, sizeof *st);
    tally_init(&st->all);
    for (int k = 1; k < R_N; k++) /* ids are the R_* codes (kept is not a drop: its slot stays empty) */
        (k == R_QUALITY || k == R_QUALITY_ERROR ? tally_hidden : tally_reason_id)(&st->all, cleanup_reason_name[k]);
    for (int f = 0; f < MAX_QF; f++)
        tally_init(&st->filter[f]);
}

void cleanup_count(cleanup_stats *st, const cleanup_config *c, const cleanup_rec *r, const char *file)
{
    st->fixed += (uint64_t)r->fixed;
    if (c->tasks && r->task >= T_FTFY)
        st->by_task[r->task == T_FTFY ? 3 : 4]++;
    if (r->reason == R_KEPT) {
        tally_keep(&st->all);
        st->qedited += (uint64_t)r->qedited;
        return;
    }
    tally_drop(&st->all, r->reason - 1, r->chars);
    if (r->reason == R_QUALITY || r->reason == R_QUALITY_ERROR) {
        char name[96];
        snprintf(name, sizeof name, "%s/%s", cleanup_filter_name[c->qf[r->qfilter]], r->qreason);
        tally *q = &st->filter[r->qfilter];
        tally_drop(q, tally_reason_id(q, name), r->chars);
    }
    if (r->reason == R_QUALITY_ERROR && tally_count(&st->all, R_QUALITY_ERROR - 1) <= 5)
        fprintf(stderr, "cleanup: %s:%" PRIu64 ": %s could not finish on this text (a regular expression "
                        "of the word splitter gave up); dropped (reason quality_error)\n",
                file, r->lineno, cleanup_filter_name[c->qf[r->qfilter]]);
    if (r->reason == R_BAD_JSON && st->bad_shown++ < 5)
        fprintf(stderr, "cleanup: %s:%" PRIu64 ":%zu: not valid JSON; dropped (reason bad_json)\n", file, r->lineno,
                r->err_col);
    if (r->reason == R_NO_TEXT && tally_count(&st->all, R_NO_TEXT - 1) <= 5)
        fprintf(stderr, "cleanup: %s:%" PRIu64 ": no string \"%s\" key; dropped (reason no_text)\n", file, r->lineno,
                c->key);
}

void cleanup_print_summary(const cleanup_stats *st, const cleanup_config *c, uint64_t blank, FILE *f)
{
    const tally *t = &st->all;
    char note[64] = "";
    if (blank)
        snprintf(note, sizeof note, "%" PRIu64 " blank lines skipped", blank);
    tally_summary(t, f, "cleanup", "documents", "characters", note);
    if (c->tasks) {
        fprintf(f, "  tasks: remove_512 %" PRIu64 ", remove_256_javascript %" PRIu64 ", remove_512_non_english %" PRIu64
                   ", ftfy_fix_text %" PRIu64 " (%" PRIu64 " changed), general_cleaning %" PRIu64 "\n",
                tally_count(t, R_REMOVE_512 - 1), tally_count(t, R_REMOVE_256_JS - 1),
                tally_count(t, R_REMOVE_512_NON_EN - 1), st->by_task[3], (c->tasks & T_FTFY) ? st->fixed : 0,
                st->by_task[4]);
    } else if (c->fix && !c->tasks_mode) {
        fprintf(f, "  fixed by fix_text: %" PRIu64 " documents\n", st->fixed);
    }
    for (int i = 0; i < c->nqf; i++)
        if (c->qf[i] == Q_C4)
            fprintf(f, "  kept documents edited by c4_quality: %" PRIu64 "\n", st->qedited);
    for (int i = 0; i < c->nqf; i++) /* by filter, in the order they ran */
        tally_print_dropped(&st->filter[i], f, 0, "documents", "characters");
}

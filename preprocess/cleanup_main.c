/* cleanup - the OpenWebText cleanup stage (Megatron tools/openwebtext/
 * cleanup_dataset.py and cleanup_fix_dataset.py) as one multi-threaded tool.
 *
 * Default mode (cleanup_dataset): per JSON line, fix the text as
 * ftfy.fix_text does, drop it unless English, drop it when it is under
 * --max-chars-for-length characters and has fewer than --min-tokens GPT-2
 * tokens counting the appended EOD. --tasks LIST: cleanup_fix_dataset's tasks
 * instead. Only the text value is rewritten: every other byte of the line is
 * copied as it was. Output order is input order whatever --workers is. */
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
#include "common/utf8.h"
#include "preprocess/fixtext.h"
#include "preprocess/langid.h"
#include "preprocess/quality.h"
#include "tokenizer/bpe.h"
#include "tokenizer/tokcli.h"

/* Why a document was dropped (or, in --tasks mode, which task fired). */
enum {
    R_KEPT = 0,
    R_BAD_JSON,
    R_NO_TEXT,
    R_EMPTY,
    R_NON_ENGLISH,
    R_TOO_SHORT,
    /* --tasks */
    R_REMOVE_512,
    R_REMOVE_256_JS,
    R_REMOVE_512_NON_EN,
    R_QUALITY, /* a quality filter: its name and datatrove's reason are in the record */
    R_QUALITY_ERROR,
    R_N
};
static const char *const reason_name[R_N] = {"kept", "bad_json", "no_text", "empty", "non_english", "too_short",
                                             "remove_512", "remove_256_javascript", "remove_512_non_english",
                                             "quality", "quality_error"};

enum { T_REMOVE_512 = 1, T_REMOVE_256_JS = 2, T_REMOVE_512_NON_EN = 4, T_FTFY = 8, T_GENERAL = 16 };

/* the quality filters (datatrove's), run in the order given */
enum { Q_GOPHER_REP, Q_GOPHER_QUALITY, Q_C4, Q_FINEWEB, Q_N };
static const char *const qf_name[Q_N] = {"gopher_repetition", "gopher_quality", "c4_quality", "fineweb_quality"};
#define MAX_QF 8

typedef struct {
    int fix, lang, length, fix_only;
    unsigned tasks; /* Megatron's cleanup_fix_dataset tasks (T_*) */
    int tasks_mode; /* --tasks given: no cleanup_dataset steps */
    int qf[MAX_QF], nqf;
    quality_params qp;
    const char *key;
    const char *keep_lang;
    long long min_tokens, max_chars;
    fixtext_config ftfy;
    const bpe *bpe;
    int64_t eod;
} config;

/* One input record and what became of it. */
typedef struct {
    char *line;       /* raw line (owned by the batch arena) */
    size_t len;
    uint64_t lineno;
    int file;
    int reason;
    int fixed;        /* fix_text (or a --tasks edit) changed the text */
    int task;         /* --tasks: the task that fired (T_*) or 0 */
    uint64_t chars;   /* characters of the (fixed) text */
    size_t err_col;
    int qfilter;      /* R_QUALITY: index into config.qf; its reason: */
    const char *qreason;
    int qedited;      /* c4_quality changed the text */
    char *out;        /* the line to write (malloc'd), NULL: write `line` unchanged */
    size_t out_len;
} rec;

typedef struct {
    fixtext_ctx *fx;
    quality_ctx *qc;
    bpe_ctx *bc;
    bpe_ids ids;
    char *txt, *esc;
    size_t txt_len, txt_cap, esc_len, esc_cap;
} worker;

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
static int splice(rec *r, size_t vs, size_t ve, worker *w, const char *t, size_t tn)
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

static int is_english(const config *c, const char *t, size_t n)
{
    langid_result lr;
    langid_detect(t, n, &lr);
    return strcmp(lr.code, c->keep_lang) == 0;
}

/* The quality filters in order on the (fixed) text; c4_quality may replace it. */
static int run_quality(const config *c, worker *w, rec *r, const char **t, size_t *tn, int *changed)
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

static int process(const config *c, worker *w, rec *r)
{
    size_t err_col;
    int trailing;
    cJSON *obj = jsonl_parse_line(r->line, r->len, &err_col, &trailing);
    if (!obj && trailing == JSONL_NOMEM) return ERR_NOMEM;
    if (!obj) {
        r->reason = R_BAD_JSON;
        r->err_col = err_col;
        return 0;
    }
    size_t vs, ve;
    int found = cJSON_IsObject(obj) && jsonl_value_span(r->line, r->len, c->key, &vs, &ve) && r->line[vs] == '"';
    cJSON_Delete(obj);
    if (!found || jsonl_unescape(r->line + vs, ve - vs, &w->txt, &w->txt_len, &w->txt_cap)) {
        r->reason = R_NO_TEXT;
        return 0;
    }
    const char *t = w->txt;
    size_t tn = w->txt_len;
    /* raw bytes that are not UTF-8 were replaced by U+FFFD: the line must be rewritten */
    int rewrite = !utf8_valid(r->line + vs, ve - vs);
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
        if ((c->tasks & T_REMOVE_512_NON_EN) && chars < 512 && !is_english(c, t, tn)) {
            r->reason = R_REMOVE_512_NON_EN;
            r->task = T_REMOVE_512_NON_EN;
            return 0;
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
            if (c->lang && !is_english(c, t, tn)) {
                r->reason = R_NON_ENGLISH;
                return 0;
            }
            if (c->length && r->chars < (uint64_t)c->max_chars) {
                w->ids.n = 0;
                if (bpe_encode(w->bc, t, tn, &w->ids)) return ERR_NOMEM;
                if ((long long)w->ids.n + 1 < c->min_tokens) {
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
    rec *r;
    size_t n, cap;
    char *arena;
    size_t used, arena_cap;
} batch;

typedef struct {
    const config *c;
    worker *w;
    batch *b;
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
static int add_quality(config *c, const char *t, const char *flag)
{
    int q;
    for (q = 0; q < Q_N; q++)
        if (!strcmp(t, qf_name[q])) break;
    if (q == Q_N) return 0;
    for (int i = 0; i < c->nqf; i++)
        if (c->qf[i] == q) return err_set(ERR_USAGE, "%s: %s is listed twice", flag, t);
    c->qf[c->nqf++] = q;
    return 1;
}

static int parse_filters(const char *s, config *c)
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

static int parse_tasks(const char *s, unsigned *out, config *c)
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

static int parse_ftfy_off(const char *s, fixtext_config *f)
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

int main(int argc, char **argv)
{
    const char *out_path = NULL, *removed_path = NULL, *tasks_s = NULL, *ftfy_off = NULL, *key = "text";
    const char *filters_s = NULL;
    quality_params qp;
    quality_params_default(&qp);
    quality_cli qs = {0};
    const char *lang = "en";
    tokcli_spec ts = {0};
    int no_fix = 0, no_lang = 0, no_length = 0, fix_only = 0;
    long long workers = 0, min_tokens = 128, max_chars = 1024;
    const arg_opt opts[] = {
        {"output", 'o', ARG_STR, &out_path, "FILE", "output (default: the second argument, or stdout; .zst compresses)"},
        {"removed", 0, ARG_STR, &removed_path, "FILE",
         "write every dropped document here, with a \"cleanup_reason\" key added (bad JSON lines as "
         "{\"cleanup_reason\": \"bad_json\", \"file\", \"line\", \"raw\"})"},
        {"json-key", 0, ARG_STR, &key, "KEY", "the key holding the text (default text)"},
        {"no-fix", 0, ARG_FLAG, &no_fix, NULL, "do not run fix_text"},
        {"no-lang-filter", 0, ARG_FLAG, &no_lang, NULL, "keep documents in every language"},
        {"no-length-filter", 0, ARG_FLAG, &no_length, NULL, "keep short documents"},
        {"fix-only", 0, ARG_FLAG, &fix_only, NULL, "only fix_text: --no-lang-filter --no-length-filter, empty texts kept"},
        {"lang", 0, ARG_STR, &lang, "CODE", "the language to keep (CLD2 code, default en)"},
        {"min-tokens", 0, ARG_INT, &min_tokens, "N", "drop documents under N tokens incl. the EOD (default 128;\n"
         "                                GPT-2's unless --tokenizer-type says otherwise)"},
        {"max-chars-for-length", 0, ARG_INT, &max_chars, "N",
         "check the token count only for texts under N characters (default 1024 = 8 x 128)"},
        {"ftfy-off", 0, ARG_STR, &ftfy_off, "LIST",
         "switch off fix_text steps: unescape_html, remove_terminal_escapes, fix_encoding, fix_c1_controls, "
         "fix_latin_ligatures, fix_character_width, uncurl_quotes, fix_line_breaks, remove_control_chars, "
         "normalization"},
        {"tasks", 0, ARG_STR, &tasks_s, "LIST",
         "cleanup_fix_dataset mode: comma list of remove_512, remove_256_javascript, remove_512_non_english, "
         "ftfy_fix_text, general_cleaning (the first that fires wins), then any of the quality filters below,\n"
         "                                in the order listed"},
        {"filters", 0, ARG_STR, &filters_s, "LIST",
         "after the steps above, datatrove's quality filters in this order: gopher_repetition, gopher_quality,\n"
         "                                c4_quality, fineweb_quality (their parameters follow)"},
        QUALITY_OPTS(qp, qs),
        {"workers", 'j', ARG_INT, &workers, "N", "threads (default: all cores)"},
        TOKCLI_OPTS(ts),
        {NULL, 0, 0, NULL, NULL, NULL},
    };
    const arg_spec spec = {
        "cleanup", "[OPTION]... [INPUT [OUTPUT]]",
        "Clean JSON-lines documents as Megatron's OpenWebText cleanup_dataset.py does: fix the text as\n"
        "ftfy.fix_text (ftfy 6 defaults), drop non-English documents (CLD2), drop documents under 1024\n"
        "characters that have fewer than 128 GPT-2 tokens counting the EOD. Only the text value changes;\n"
        "the other keys are copied byte for byte. INPUT defaults to stdin, OUTPUT to stdout; .zst and .gz\n"
        "are read, .zst written, transparently. A summary of what was kept and dropped, and why, goes\n"
        "to stderr.",
        opts,
        "With --tasks, Megatron's cleanup_fix_dataset.py instead: the tasks are tried in the order\n"
        "remove_512 (under 512 characters), remove_256_javascript (under 256 and containing\n"
        "\"javascript\"), remove_512_non_english, ftfy_fix_text, general_cleaning\n"
        "(re.sub(r\"  +|\\b\\n+ |\\b\\n+\", \" \", text)), and the first that fires decides; as in Megatron,\n"
        "ftfy_fix_text always fires, so general_cleaning only runs when ftfy_fix_text is not listed.\n"
        "Removed documents keep their original text and go to --removed.\n"
        "\n"
        "The quality filters are datatrove's (0.10.1) GopherRepetitionFilter, GopherQualityFilter,\n"
        "C4QualityFilter and FineWebQualityFilter, decision for decision, with English words and\n"
        "sentences split as datatrove splits them (spaCy 3.8's rules); a drop is counted, and written to\n"
        "--removed as \"cleanup_reason\", under datatrove's reason with \"cleanup_filter\" naming the filter.\n"
        "c4_quality edits the text (drops lines). A zero threshold switches its check off, as in datatrove.\n"
        "In a pipeline each runs alone with --tasks NAME; after the OpenWebText steps with --filters.\n"
        "\n"
        "Examples:\n"
        "  cleanup corpus.jsonl.zst clean.jsonl.zst --removed dropped.jsonl.zst\n"
        "  zstdcat corpus.jsonl.zst | cleanup --no-lang-filter > clean.jsonl\n"
        "  cleanup --tasks remove_512,remove_256_javascript,ftfy_fix_text in.jsonl out.jsonl --removed rm.jsonl\n"
        "  cleanup --filters gopher_repetition,gopher_quality,c4_quality,fineweb_quality \\\n"
        "          --c4-filter-no-terminal-punct false in.jsonl.zst out.jsonl.zst    # FineWeb's chain\n"
        "  zstdcat in.jsonl.zst | cleanup --tasks gopher_quality --min-doc-words 100 > out.jsonl\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    rc = 0;
    config c = {0};
    c.fix = !no_fix;
    c.lang = !no_lang && !fix_only;
    c.length = !no_length && !fix_only;
    c.fix_only = fix_only;
    c.key = key;
    c.keep_lang = lang;
    c.min_tokens = min_tokens;
    c.max_chars = max_chars;
    fixtext_config_default(&c.ftfy);
    const char *in_path = npos > 0 ? pos[0] : "-";
    if (npos > 1) {
        if (out_path) rc = err_set(ERR_USAGE, "give the output either as an argument or with --output");
        out_path = pos[1];
    }
    if (!rc && npos > 2) rc = err_set(ERR_USAGE, "too many arguments (INPUT [OUTPUT])");
    c.tasks_mode = tasks_s != NULL;
    if (!rc && tasks_s) rc = parse_tasks(tasks_s, &c.tasks, &c);
    if (!rc && filters_s) rc = parse_filters(filters_s, &c);
    if (!rc) rc = quality_cli_finish(&qp, &qs);
    c.qp = qp;
    if (!rc && ftfy_off) rc = parse_ftfy_off(ftfy_off, &c.ftfy);
    if (!rc && !langid_known(lang)) rc = err_set(ERR_USAGE, "--lang: \"%s\" is not a language CLD2 knows", lang);
    if (!rc && (min_tokens < 0 || max_chars < 0)) rc = err_set(ERR_USAGE, "--min-tokens and --max-chars-for-length must be >= 0");
    if (!rc && workers < 0) rc = err_set(ERR_USAGE, "--workers must be >= 1");
    if (rc) {
        fprintf(stderr, "cleanup: %s\nTry 'cleanup --help'.\n", err_msg());
        free(pos);
        quality_cli_free(&qs);
        return 2;
    }
    bpe *bp = NULL;
    if (c.length && !c.tasks_mode) {
        rc = tokcli_open(&bp, &ts);
        if (rc) {
            fprintf(stderr, "cleanup: %s\n", err_msg());
            free(pos);
            quality_cli_free(&qs);
            return err_exit_code(rc);
        }
        c.bpe = bp;
        c.eod = bpe_eod(bp);
    }
    int nw = workers > 0 ? (int)workers : pool_cpu_count();
    pool *pl = nw > 1 ? pool_new(nw - 1) : NULL;
    worker *W = calloc((size_t)nw, sizeof *W);
    for (int k = 0; W && k < nw; k++) {
        W[k].fx = fixtext_new();
        W[k].bc = bp ? bpe_ctx_new(bp) : NULL;
        if (!W[k].fx || (bp && !W[k].bc)) rc = err_set(ERR_NOMEM, "out of memory (or the ftfy patterns did not compile)");
        if (!rc && c.nqf && !(W[k].qc = quality_ctx_new())) rc = ERR_NOMEM;
    }
    if (!W) rc = err_set(ERR_NOMEM, "out of memory");

    io_reader *in = NULL;
    io_writer *w = NULL, *rw = NULL;
    if (!rc) rc = io_reader_open(&in, in_path);
    if (!rc) rc = io_writer_open(&w, out_path, NULL);
    if (!rc && removed_path) rc = io_writer_open(&rw, removed_path, NULL);
    progress *pr = rc ? NULL : progress_new("cleanup", "docs", io_reader_size_hint(in));

    uint64_t docs = 0, blank = 0, bytes_in = 0, fixed = 0, kept = 0;
    uint64_t by_reason[R_N] = {0}, chars_by_reason[R_N] = {0}, by_task[5] = {0};
    uint64_t bad_shown = 0, qedited = 0;
    struct { int filter; const char *reason; uint64_t docs, chars; } qstat[128];
    size_t nqstat = 0;
    batch b = {0};
    int eof = 0;
    while (!rc && !eof) {
        /* read a batch: ~8 MB or 8192 records */
        b.n = 0;
        b.used = 0;
        while (b.n < 8192 && b.used < (8u << 20)) {
            char *line;
            size_t len;
            int g = io_getline(in, &line, &len);
            if (g < 0) {
                rc = g;
                break;
            }
            if (g == 0) {
                eof = 1;
                break;
            }
            bytes_in += len + 1;
            size_t k = 0;
            while (k < len && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r')) k++;
            if (k == len) {
                blank++;
                continue;
            }
            if (b.used + len + 1 > b.arena_cap) {
                /* a new arena; earlier records of this batch keep pointing into the old one */
                size_t cap = (8u << 20) > len + 1 ? (8u << 20) + len + 1 : 2 * (len + 1);
                char *na = malloc(cap);
                if (!na) {
                    rc = err_set(ERR_NOMEM, "out of memory");
                    break;
                }
                if (b.n) { /* move the batch's lines into the new arena */
                    size_t off = 0;
                    for (size_t i = 0; i < b.n; i++) {
                        memcpy(na + off, b.r[i].line, b.r[i].len + 1);
                        b.r[i].line = na + off;
                        off += b.r[i].len + 1;
                    }
                    b.used = off;
                } else b.used = 0;
                free(b.arena);
                b.arena = na;
                b.arena_cap = cap;
            }
            if (b.n == b.cap) {
                size_t cap = b.cap ? 2 * b.cap : 1024;
                rec *nr = realloc(b.r, cap * sizeof *nr);
                if (!nr) {
                    rc = err_set(ERR_NOMEM, "out of memory");
                    break;
                }
                b.r = nr;
                b.cap = cap;
            }
            rec *r = &b.r[b.n++];
            memset(r, 0, sizeof *r);
            r->line = b.arena + b.used;
            memcpy(r->line, line, len);
            r->line[len] = 0;
            r->len = len;
            r->lineno = io_reader_lineno(in);
            b.used += len + 1;
        }
        if (rc || !b.n) break;
        job j = {&c, W, &b, nw, 0};
        if (pl) pool_parallel_for(pl, (size_t)nw, run_chunk, &j);
        else run_chunk(0, &j);
        if (j.err) rc = err_set(j.err, "out of memory");
        for (size_t i = 0; i < b.n && !rc; i++) {
            rec *r = &b.r[i];
            docs++;
            fixed += r->fixed;
            if (c.tasks && r->task >= T_FTFY) by_task[r->task == T_FTFY ? 3 : 4]++;
            const char *line = r->out ? r->out : r->line;
            size_t len = r->out ? r->out_len : r->len;
            if (r->reason == R_KEPT) {
                kept++;
                qedited += r->qedited;
                rc = io_write(w, line, len);
                if (!rc) rc = io_write(w, "\n", 1);
            } else {
                by_reason[r->reason]++;
                chars_by_reason[r->reason] += r->chars;
                if (r->reason == R_QUALITY || r->reason == R_QUALITY_ERROR) {
                    size_t k;
                    for (k = 0; k < nqstat; k++)
                        if (qstat[k].filter == r->qfilter && !strcmp(qstat[k].reason, r->qreason)) break;
                    if (k == nqstat && nqstat < sizeof qstat / sizeof *qstat) {
                        qstat[nqstat].filter = r->qfilter;
                        qstat[nqstat].reason = r->qreason;
                        qstat[nqstat].docs = qstat[nqstat].chars = 0;
                        nqstat++;
                    }
                    if (k < nqstat) {
                        qstat[k].docs++;
                        qstat[k].chars += r->chars;
                    }
                }
                if (r->reason == R_QUALITY_ERROR && by_reason[R_QUALITY_ERROR] <= 5)
                    fprintf(stderr, "cleanup: %s:%" PRIu64 ": %s could not finish on this text (a regular expression "
                                    "of the word splitter gave up); dropped (reason quality_error)\n",
                            io_reader_name(in), r->lineno, qf_name[c.qf[r->qfilter]]);
                if (r->reason == R_BAD_JSON && bad_shown++ < 5)
                    fprintf(stderr, "cleanup: %s:%" PRIu64 ":%zu: not valid JSON; dropped (reason bad_json)\n",
                            io_reader_name(in), r->lineno, r->err_col);
                if (r->reason == R_NO_TEXT && by_reason[R_NO_TEXT] <= 5)
                    fprintf(stderr, "cleanup: %s:%" PRIu64 ": no string \"%s\" key; dropped (reason no_text)\n",
                            io_reader_name(in), r->lineno, key);
                if (rw) {
                    /* the original line with "cleanup_reason" appended to the object */
                    if (r->reason == R_BAD_JSON || r->reason == R_NO_TEXT) {
                        char *esc = NULL, *fesc = NULL, *san = malloc(3 * r->len + 1);
                        size_t el, ec = 0, fl, fc = 0;
                        const char *fname = io_reader_name(in);
                        size_t sl = san ? utf8_sanitize(r->line, r->len, san) : 0; /* the raw line as valid UTF-8 */
                        if (!san || jsonl_escape(san, sl, &esc, &el, &ec) ||
                            jsonl_escape(fname, strlen(fname), &fesc, &fl, &fc))
                            rc = err_set(ERR_NOMEM, "out of memory");
                        char head[128];
                        snprintf(head, sizeof head, "{\"cleanup_reason\": \"%s\", \"line\": %" PRIu64 ", \"file\": ",
                                 reason_name[r->reason], r->lineno);
                        if (!rc) rc = io_write(rw, head, strlen(head));
                        if (!rc) rc = io_write(rw, fesc, fl);
                        if (!rc) rc = io_write(rw, ", \"raw\": ", 9);
                        if (!rc) rc = io_write(rw, esc, el);
                        if (!rc) rc = io_write(rw, "}\n", 2);
                        free(esc);
                        free(fesc);
                        free(san);
                    } else {
                        size_t e = len;
                        while (e > 0 && line[e - 1] != '}') e--;
                        if (e == 0) e = len + 1; /* cannot happen: an object */
                        size_t body = e - 1, k = body;
                        while (k > 0 && (line[k - 1] == ' ' || line[k - 1] == '\t')) k--;
                        int empty_obj = k > 0 && line[k - 1] == '{';
                        char tail[256];
                        if (r->reason == R_QUALITY || r->reason == R_QUALITY_ERROR)
                            snprintf(tail, sizeof tail, "%s\"cleanup_reason\": \"%s\", \"cleanup_filter\": \"%s\"}",
                                     empty_obj ? "" : ", ", r->qreason, qf_name[c.qf[r->qfilter]]);
                        else
                            snprintf(tail, sizeof tail, "%s\"cleanup_reason\": \"%s\"}", empty_obj ? "" : ", ",
                                     reason_name[r->reason]);
                        rc = io_write(rw, line, body);
                        if (!rc) rc = io_write(rw, tail, strlen(tail));
                        if (!rc) rc = io_write(rw, "\n", 1);
                    }
                }
            }
            free(r->out);
            r->out = NULL;
        }
        progress_update(pr, docs, io_reader_raw_pos(in));
    }
    for (size_t i = 0; i < b.n; i++) free(b.r[i].out);
    progress_done(pr);
    if (!rc) { /* kept documents, then the removed ones */
        io_writer *g[2] = {w, rw};
        rc = io_writer_commit_group(g, 2);
    } else {
        io_writer_abort(w);
        io_writer_abort(rw);
    }
    if (rc < 0) fprintf(stderr, "cleanup: %s\n", err_msg());
    else if (!args_quiet_flag) {
        uint64_t dropped = docs - kept;
        fprintf(stderr, "cleanup: %" PRIu64 " documents in: %" PRIu64 " kept, %" PRIu64 " dropped", docs, kept,
                dropped);
        if (blank) fprintf(stderr, " (%" PRIu64 " blank lines skipped)", blank);
        fprintf(stderr, "\n");
        if (c.tasks) {
            fprintf(stderr, "  tasks: remove_512 %" PRIu64 ", remove_256_javascript %" PRIu64
                            ", remove_512_non_english %" PRIu64 ", ftfy_fix_text %" PRIu64 " (%" PRIu64
                            " changed), general_cleaning %" PRIu64 "\n",
                    by_reason[R_REMOVE_512], by_reason[R_REMOVE_256_JS], by_reason[R_REMOVE_512_NON_EN], by_task[3],
                    (c.tasks & T_FTFY) ? fixed : 0, by_task[4]);
        } else if (c.fix && !c.tasks_mode) {
            fprintf(stderr, "  fixed by fix_text: %" PRIu64 " documents\n", fixed);
        }
        for (int i = 0; i < c.nqf; i++)
            if (c.qf[i] == Q_C4) fprintf(stderr, "  kept documents edited by c4_quality: %" PRIu64 "\n", qedited);
        for (int k = 1; k < R_N; k++)
            if (by_reason[k] && k != R_QUALITY && k != R_QUALITY_ERROR)
                fprintf(stderr, "  dropped %-22s %10" PRIu64 " documents %14" PRIu64 " characters\n", reason_name[k],
                        by_reason[k], chars_by_reason[k]);
        for (int f = 0; f < c.nqf; f++) /* by filter, in the order they ran */
            for (size_t k = 0; k < nqstat; k++)
                if (qstat[k].filter == f) {
                    char name[96];
                    snprintf(name, sizeof name, "%s/%s", qf_name[c.qf[f]], qstat[k].reason);
                    fprintf(stderr, "  dropped %-40s %10" PRIu64 " documents %14" PRIu64 " characters\n", name,
                            qstat[k].docs, qstat[k].chars);
                }
    }
    io_reader_close(in);
    for (int k = 0; W && k < nw; k++) {
        fixtext_free(W[k].fx);
        quality_ctx_free(W[k].qc);
        bpe_ctx_free(W[k].bc);
        bpe_ids_free(&W[k].ids);
        free(W[k].txt);
        free(W[k].esc);
    }
    free(W);
    pool_free(pl);
    bpe_free(bp);
    free(b.r);
    free(b.arena);
    free(pos);
    quality_cli_free(&qs);
    (void)bytes_in;
    return rc < 0 ? err_exit_code(rc) : 0;
}

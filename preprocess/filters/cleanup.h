/* cleanup.h - the cleanup stage as a library (the tool, cleanup_main.c, is its
 * options and summary): Megatron's OpenWebText cleanup_dataset.py chain
 * (fix_text, CLD2's language, the GPT-2 length rule) or cleanup_fix_dataset.py's
 * tasks, then datatrove's quality filters, on batches of JSON lines in
 * parallel; each record ends kept or dropped for one reason, and only its
 * text value is rewritten. */
#ifndef PREPROCESS_CLEANUP_H
#define PREPROCESS_CLEANUP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/io.h"
#include "common/pool.h"
#include "common/tally.h"
#include "preprocess/text/fixtext.h"
#include "preprocess/filters/quality.h"
#include "tokenizer/bpe.h"

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
extern const char *const cleanup_reason_name[R_N];

enum { T_REMOVE_512 = 1, T_REMOVE_256_JS = 2, T_REMOVE_512_NON_EN = 4, T_FTFY = 8, T_GENERAL = 16 };

/* the quality filters (datatrove's), run in the order given */
enum { Q_GOPHER_REP, Q_GOPHER_QUALITY, Q_C4, Q_FINEWEB, Q_N };
extern const char *const cleanup_filter_name[Q_N];
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
} cleanup_config;

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
    int qfilter;      /* R_QUALITY: index into cleanup_config.qf; its reason: */
    const char *qreason;
    int qedited;      /* c4_quality changed the text */
    char *out;        /* the line to write (malloc'd), NULL: write `line` unchanged */
    size_t out_len;
} cleanup_rec;

typedef struct {
    fixtext_ctx *fx;
    quality_ctx *qc;
    bpe_ctx *bc;
    bpe_ids ids;
    char *txt, *esc;
    size_t txt_len, txt_cap, esc_len, esc_cap;
} cleanup_worker;

typedef struct {
    cleanup_rec *r;
    size_t n, cap;
    char *arena;
    size_t used, arena_cap;
} cleanup_batch;

/* What became of the records so far (one thread counts, in input order). */
typedef struct {
    tally all;                 /* by reason (R_*); the quality filters' drops hidden: */
    tally filter[MAX_QF];      /* per filter (in the order they run), by datatrove's reason */
    uint64_t fixed, qedited, by_task[5], bad_shown;
} cleanup_stats;

/* The comma lists of --filters and --tasks into c (usage errors named), and
 * --ftfy-off's fixers switched off in f. */
int cleanup_parse_filters(const char *s, cleanup_config *c);
int cleanup_parse_tasks(const char *s, unsigned *out, cleanup_config *c);
int cleanup_parse_ftfy_off(const char *s, fixtext_config *f);

/* nw workers' state (fix_text, the tokenizer's, the filters'); NULL out of memory. */
cleanup_worker *cleanup_workers_new(const cleanup_config *c, int nw);
void cleanup_workers_free(cleanup_worker *W, int nw);
/* The next batch (about 8 MB or 8192 records; blank lines skipped and counted);
 * *eof at the end. 0 or an error code. */
int cleanup_read_batch(io_reader *in, cleanup_batch *b, uint64_t *blank, int *eof);
/* Every record of b through the chain, in nw chunks (chunk k with worker W[k]) on pool pl
 * and this thread (pl NULL: all of them on this thread). */
int cleanup_process_batch(const cleanup_config *c, cleanup_worker *W, int nw, pool *pl, cleanup_batch *b);
void cleanup_batch_free(cleanup_batch *b);
/* The line to write for a kept record. */
static inline const char *cleanup_output(const cleanup_rec *r, size_t *len)
{
    *len = r->out ? r->out_len : r->len;
    return r->out ? r->out : r->line;
}
/* A dropped record for --removed: the line with "cleanup_reason" (and
 * "cleanup_filter") added; a line that is not a JSON object as
 * {"cleanup_reason", "line", "file", "raw"}. */
int cleanup_write_removed(io_writer *rw, const cleanup_config *c, const cleanup_rec *r, const char *file);

void cleanup_stats_init(cleanup_stats *st);
/* Count one record (and warn on stderr of the first few bad ones, naming file:line). */
void cleanup_count(cleanup_stats *st, const cleanup_config *c, const cleanup_rec *r, const char *file);
/* The summary: documents in, kept, dropped by reason. */
void cleanup_print_summary(const cleanup_stats *st, const cleanup_config *c, uint64_t blank, FILE *f);

#endif

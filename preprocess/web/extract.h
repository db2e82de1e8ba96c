/* extract.h - web pages to documents, the library behind extract_main.c: WARC / WET /
 * HTML inputs read record by record (preprocess/web/warc.h), pages decoded, parsed and
 * their text extracted (preprocess/web/html/htmltext.h) a batch at a time on a thread
 * pool, and written as JSON lines in input order.
 *
 * Every record read is counted once in s->t: a document out, or dropped for one reason
 * (EXTRACT_R_*: record type, HTTP status, not HTML, truncated, too large, damaged, empty,
 * too deeply nested). */
#ifndef PREPROCESS_WEB_EXTRACT_H
#define PREPROCESS_WEB_EXTRACT_H

#include <stddef.h>
#include <stdint.h>

#include "common/io.h"
#include "common/pool.h"
#include "common/progress.h"
#include "common/tally.h"

enum {
    EXTRACT_R_KEPT, EXTRACT_R_TYPE, EXTRACT_R_STATUS, EXTRACT_R_NOT_HTML, EXTRACT_R_TRUNCATED, EXTRACT_R_TOO_LARGE,
    EXTRACT_R_DAMAGED, EXTRACT_R_EMPTY, EXTRACT_R_TOO_DEEP, EXTRACT_R_NO_MAIN, EXTRACT_R_N
};

struct extract_item;
/* One run: the options (set by the caller after extract_init), the outputs it writes
 * to (opened by the caller), the counts, and the batch being extracted. */
typedef struct {
    /* options */
    const char *output, *mode_s, *rejected;
    int precision, recall, strict, keep_truncated, list, language;
    uint64_t max_size;
    int mode, favor;   /* HTMLTEXT_MAIN / _ALL; HTMLTEXT_BALANCED / _PRECISION / _RECALL */
    long long jobs;
    /* outputs, counts, progress */
    io_writer *out, *rej;
    tally t; /* documents kept, records dropped by reason (ids EXTRACT_R_* - 1; common/tally.h) */
    uint64_t records, listed, bytes_done, bytes_total;
    progress *pg;
    pool *pl;          /* NULL: extract on the calling thread */
    /* internal */
    char *jbuf;
    size_t jlen, jcap;
    struct extract_item *batch;
    size_t nbatch, capbatch, batch_bytes;
} extract_state;

/* The input names a directory is read for (fs_expand's suffixes). */
extern const char *const extract_suffixes[];

/* Zero s, its defaults (64 MB records) and the reasons described in its tally. */
void extract_init(extract_state *s);
/* Read one input (a WARC / WET file, an HTML file, or "-": a WARC on stdin), queueing its
 * records; full batches are extracted and written. 0 or ERR_*. */
int extract_input(extract_state *s, const char *path);
/* Extract and write the last batch (freed whatever happened). 0 or ERR_*. */
int extract_finish(extract_state *s);
/* Free what the run holds (not the writers or the pool, which the caller made). */
void extract_free(extract_state *s);

#endif

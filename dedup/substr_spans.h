/* substr_spans.h - the spans file of substr_dedup read back, for its separate removal
 * step (--apply-spans): JSON lines {"doc", "start", "end"} (and "id", ignored), in
 * document order, then start order, not overlapping within a document; doc is the
 * record's number in the input (from 0), start and end byte offsets of its text. Every
 * malformed line is an error that names the file and the line. */
#ifndef DEDUP_SUBSTR_SPANS_H
#define DEDUP_SUBSTR_SPANS_H

#include <stddef.h>
#include <stdint.h>

#include "common/jsonl.h"
#include "dedup/substr_corpus.h"

typedef struct {
    uint64_t *doc;   /* [n] the record each span strikes */
    sc_span *span;   /* [n] its bytes */
    uint64_t *line;  /* [n] the line it was read from, for later errors */
    size_t n, cap;
    char *name;      /* the file's name */
} substr_spans;

/* Read every span of jr (named name in messages) into s (zeroed first). 0, ERR_FORMAT
 * naming name:line, or ERR_NOMEM / ERR_IO. s is freed on failure. */
int substr_spans_read(substr_spans *s, jsonl_reader *jr, const char *name);
int substr_spans_load(substr_spans *s, const char *path);
void substr_spans_free(substr_spans *s);

#endif

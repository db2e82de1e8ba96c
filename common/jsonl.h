/* jsonl.h - JSON-lines records over io_reader, parsed with cJSON.
 *
 * One JSON value per line. Blank lines (only whitespace) are skipped and
 * counted, not treated as records. A line that is not valid JSON, or is valid
 * JSON followed by garbage, is reported as JSONL_MALFORMED with "FILE:LINE:
 * reason" in err_msg() and counted; the caller decides to skip it or stop.
 */
#ifndef COMMON_JSONL_H
#define COMMON_JSONL_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "io.h"

typedef struct jsonl_reader jsonl_reader;

enum { JSONL_EOF = 0, JSONL_OK = 1, JSONL_MALFORMED = 2 };

typedef struct {
    cJSON *obj;         /* parsed value; owned by the reader until the next call */
    char *line;         /* raw line (NUL-terminated), valid until the next call */
    size_t len;
    uint64_t lineno;    /* 1-based line number in the current file */
} jsonl_record;

/* Open a reader over `path` ("-" for stdin); zstd/gzip detected by magic. */
int jsonl_open(jsonl_reader **out, const char *path);
/* Wrap an existing io_reader; the jsonl_reader takes ownership of it. */
int jsonl_wrap(jsonl_reader **out, io_reader *r);
void jsonl_close(jsonl_reader *jr);

/* JSONL_OK, JSONL_MALFORMED (rec->line/lineno set, obj NULL), JSONL_EOF or
 * a negative ERR_* (I/O or truncated input). */
int jsonl_next(jsonl_reader *jr, jsonl_record *rec);

uint64_t jsonl_malformed(const jsonl_reader *jr);
uint64_t jsonl_blank(const jsonl_reader *jr);
/* A line of JSON white space only (jsonl_next skips and counts those). */
int jsonl_is_blank(const char *line, size_t len);
io_reader *jsonl_io(jsonl_reader *jr);

/* The string value of `key` in object `obj`, or NULL if obj is not an object,
 * the key is missing, or its value is not a string. A key that is not present
 * as such but contains dots is a path into nested objects ("metadata.url"). */
const char *jsonl_get_string(const cJSON *obj, const char *key);
/* A whole number under a top-level key: a JSON number without a fraction, or a string of
 * digits ("1", as some datasets write labels). 1 with *out set, else 0. */
int jsonl_get_int(const cJSON *obj, const char *key, long *out);

/* Parse one line (mutable: a lone UTF-16 surrogate escape such as \ud800,
 * which cJSON rejects but Python's json accepts, is rewritten in place to
 * \ufffd and the line parsed again). Trailing whitespace is allowed, other
 * trailing data is an error. Returns the value or NULL with *err_col set to
 * the 1-based column of the problem. Thread-safe apart from cJSON's own
 * global error pointer, which is not used. */
cJSON *jsonl_parse_line(char *line, size_t len, size_t *err_col, int *trailing);
/* *trailing after a NULL return: 0 invalid JSON, 1 trailing data, and
 * JSONL_NOMEM when an allocation failed (the line may be fine: the caller
 * must stop with ERR_NOMEM, not count the record as malformed). */
#define JSONL_NOMEM (-1)
/* cJSON_ParseWithLengthOpts (require_null_terminated 0) that tells a failed
 * allocation from bad JSON: NULL with *nomem = 1. Every cJSON parse of the
 * project goes through it (cJSON itself returns NULL for both). */
cJSON *json_parse(const char *s, size_t len, const char **end, int *nomem);
/* Raw string values, for tools that rewrite one key and must keep the rest
 * of the line byte for byte (and keep NUL characters, which cJSON's C strings
 * cannot hold).
 *
 * jsonl_value_span: in a line that cJSON has accepted as an object, find the
 * top-level `key` (plain, no dotted paths; of repeated keys the last one, as
 * Python's json.loads) and set [*vstart, *vend) to the span of its raw JSON
 * value. Returns 1 if found, 0 if not.
 * jsonl_unescape: decode the JSON string literal s[0..n) (with its quotes)
 * into *buf (grown as needed; *cap its size) as UTF-8 of length *len, NULs
 * kept, surrogate pairs joined, lone surrogates and invalid UTF-8 replaced by
 * U+FFFD (Python's json + errors="replace"). 0 or ERR_INVALID / ERR_NOMEM.
 * jsonl_escape: the JSON string literal for UTF-8 s[0..n), as Python's
 * json.dumps(ensure_ascii=False) writes it. 0 or ERR_NOMEM. */
int jsonl_value_span(const char *s, size_t n, const char *key, size_t *vstart, size_t *vend);
int jsonl_unescape(const char *s, size_t n, char **buf, size_t *len, size_t *cap);
int jsonl_escape(const char *s, size_t n, char **buf, size_t *len, size_t *cap);

/* Write `obj` unformatted plus '\n'. */
int jsonl_write(io_writer *w, const cJSON *obj);

#endif

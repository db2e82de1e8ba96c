/* warc.h - a streaming WARC reader (WARC/1.0 and 1.1, ISO 28500) and the HTTP
 * payload of its response records.
 *
 * Input: a WARC file, plain, gzip (Common Crawl's one member per record, or one
 * member for the whole file) or zstd; the codec is found by magic bytes
 * (common/io.h). Records are read in order: the version line, the named fields
 * (continuation lines joined), an empty line, Content-Length bytes of block,
 * then the two CRLFs that end a record. Nothing is kept between records but
 * one record's block, so memory is O(largest record kept).
 *
 * A record whose block is larger than max_block is read past and returned with
 * `too_large` set and no block. A damaged record (no version line where one
 * must start, a field without a colon, a missing or bad Content-Length, a block
 * cut short by the end of the input) is reported (warc_next returns
 * ERR_CORRUPT, the message naming the file, the record's number and the byte
 * where it starts); the reader then looks for the next line that starts a
 * record ("WARC/1.") and goes on from there, so one bad record loses that record
 * only. A compressed stream that is itself damaged cannot be resynchronised:
 * that is reported once and ends the file.
 *
 * warc_http parses an HTTP/1.x response held in a block: the status, the header
 * fields, and the body with Transfer-Encoding chunked and Content-Encoding gzip,
 * x-gzip, deflate or br undone (Common Crawl has already undone them and says so
 * in X-Crawler-* fields, which are not acted on; wget --warc-file keeps them).
 * A body that fails to decode is kept as it came, with `decode_error` set. */
#ifndef PREPROCESS_WARC_H
#define PREPROCESS_WARC_H

#include <stddef.h>
#include <stdint.h>

typedef struct warc_reader warc_reader;

typedef struct {
    uint64_t number;  /* 1-based, in the file */
    uint64_t offset;  /* decoded byte where the record starts */
    char version[16]; /* "WARC/1.0", "WARC/1.1" */
    /* The fields a document needs (NULL when absent), NUL-terminated, owned by
     * the reader until the next warc_next. */
    const char *type, *record_id, *target_uri, *date, *content_type, *truncated, *identified_payload_type;
    uint64_t content_length;
    int too_large;               /* block skipped: larger than max_block */
    const unsigned char *block;  /* content_length bytes (NULL when too_large) */
} warc_record;

/* Open path ("-": stdin). max_block: the largest block kept (0: 64 MiB). */
int warc_open(warc_reader **out, const char *path, uint64_t max_block);
/* Read from a caller-owned buffer (tests, fuzzing). */
int warc_open_mem(warc_reader **out, const void *data, size_t n, const char *name, uint64_t max_block);
/* 1: *rec holds the next record; 0: end of input; ERR_*: a damaged record (the
 * message says which; call again to go on) or, when warc_failed() is true, an
 * input that cannot be read further. */
int warc_next(warc_reader *r, warc_record *rec);
int warc_failed(const warc_reader *r);
const char *warc_name(const warc_reader *r);
uint64_t warc_raw_pos(const warc_reader *r);  /* source bytes consumed */
uint64_t warc_raw_size(const warc_reader *r); /* source size, 0 if unknown */
void warc_close(warc_reader *r);

/* The value of field `name` (case-insensitive) in a record just read, or NULL. */
const char *warc_field(const warc_reader *r, const char *name);

typedef struct {
    int status;                /* 200, ... (0 when the status line is not HTTP/1.x) */
    const char *content_type;  /* the Content-Type field's value (NUL-terminated) or NULL */
    const char *charset;       /* its charset parameter, unquoted, or NULL */
    const unsigned char *body; /* decoded body */
    size_t body_len;
    int decode_error;          /* the body was kept as sent: chunks or compression were broken */
    /* owned storage */
    char *hdr;
    unsigned char *own;
} warc_http;

/* Parse an HTTP response from block[0..n): 0, or ERR_CORRUPT when it has no
 * header end. max_body bounds a decompressed body (a zip bomb): past it the
 * body is cut there and decode_error set. h is reset first; free with warc_http_free. */
int warc_http_parse(warc_http *h, const unsigned char *block, size_t n, size_t max_body);
void warc_http_free(warc_http *h);

#endif

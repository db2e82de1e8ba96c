/* warcwrite.h - writing fetched pages as WARC/1.1 (ISO 28500), as Common Crawl
 * writes them, and finding what a directory of such files already holds.
 *
 * Files: DIR/PREFIX-NNNNN.warc.gz, each record one gzip member (readers can seek
 * to any record), a warcinfo record first. A file is written as
 * PREFIX-NNNNN.warc.gz.part and renamed into place when it is complete (past
 * max_size, or at the end of the run), after an fsync; a record pair (request,
 * response) is written with one write(2), so a process killed at any moment
 * leaves whole records and at most one cut tail in a .part file.
 *
 * The response record holds the HTTP status line and header fields as received
 * and the payload as libcurl hands it over: chunked transfer coding and the
 * content codings undone. As Common Crawl does, the fields that no longer
 * describe the payload are kept under another name (Content-Encoding ->
 * X-Crawler-Content-Encoding, Transfer-Encoding -> X-Crawler-Transfer-Encoding,
 * Content-Length -> X-Crawler-Content-Length) and a Content-Length of the stored
 * payload is added. WARC-Payload-Digest and WARC-Block-Digest are sha1 in
 * base32. When the page was reached through redirects, WARC-Target-URI is the
 * final URL and the URL asked for is kept in WebText-Source-URI (an extension
 * field, as ISO 28500 allows). */
#ifndef PREPROCESS_WARCWRITE_H
#define PREPROCESS_WARCWRITE_H

#include <stddef.h>
#include <stdint.h>

typedef struct warcw warcw;

typedef struct {
    const char *url;       /* asked for */
    const char *final_url; /* after redirects (NULL or equal: none) */
    const char *ip;        /* WARC-IP-Address, or NULL */
    const char *request;   /* the request header block as sent (may be NULL) */
    size_t request_len;
    const char *header;    /* the final response's status line and fields, CRLF-ended lines */
    size_t header_len;
    const unsigned char *payload;
    size_t payload_len;
    int64_t fetch_time;    /* seconds since the epoch (WARC-Date) */
} warcw_page;

/* Start writing into dir (which must exist): files PREFIX-NNNNN.warc.gz from
 * number first on, rotated past max_size bytes (compressed; 0: never).
 * software and agent go into each warcinfo record. */
int warcw_open(warcw **out, const char *dir, const char *prefix, unsigned first, uint64_t max_size,
               const char *software, const char *agent, int robots);
/* Append a request + response pair. *file receives the name (no directory) of
 * the file it went to (owned by the writer, valid until the next call). */
int warcw_write(warcw *w, const warcw_page *p, const char **file);
/* Finish the open file (fsync, rename into place). Frees w (accepts NULL). */
int warcw_close(warcw *w);
/* Drop the open file (on an error path): it stays as .part for the next run. */
void warcw_abandon(warcw *w);

/* Reading back what earlier runs wrote. For each complete response record of
 * path, fn(ctx, source_url, final_url, http_status, payload_len) is called.
 * With salvage set (a .part file), the file is cut after its last complete
 * response record (a half-written member or a request without its response is
 * dropped). Returns the number of response records, or ERR_*. A record that is
 * damaged in a finished file is ERR_CORRUPT naming the file and the byte. */
typedef void (*warcw_scan_fn)(void *ctx, const char *url, const char *final_url, int status, uint64_t payload_len);
long warcw_scan(const char *path, int salvage, warcw_scan_fn fn, void *ctx);
/* The same over bytes in memory (name for messages); *good_end: where the last
 * complete response (or warcinfo) record ends, the length a salvage keeps. */
long warcw_scan_mem(const unsigned char *data, size_t size, const char *name, int salvage, size_t *good_end,
                    warcw_scan_fn fn, void *ctx);

/* Helpers shared with the tests. */
void warcw_sha1_base32(const void *data, size_t n, char out[33]);
/* The response header block rewritten as stored (see above) into out (cap at
 * least header_len + 64 bytes): returns its length. */
size_t warcw_rewrite_header(const char *hdr, size_t n, size_t payload_len, char *out, size_t cap);

#endif

/* fetch.h - fetching many URLs politely with libcurl's multi interface.
 *
 * One thread, one event loop: at most `jobs` transfers at once, at most
 * `per_host` to a host (scheme://host:port) and `wait` seconds between the
 * starts of two requests to it (or its robots.txt Crawl-delay, up to
 * max_crawl_delay, when larger). URLs of one host are fetched in input order,
 * hosts in turn. Before a host's first URL its /robots.txt is fetched (unless
 * robots is 0) and every URL it disallows is skipped: RFC 9309's rules for a
 * robots.txt that cannot be had (4xx: everything allowed; 5xx after the
 * retries: nothing allowed; the host unreachable: its URLs fail as the
 * robots.txt request did, without a request each).
 *
 * HTTP/1.1; redirects followed up to max_redirects, each as a new request queued at the
 * front of its target's host: that host's robots.txt (fetched first when the host is new),
 * wait and per-host limit apply to it as to the host's own URLs; connect, total and stall
 * (no byte for `stall` seconds) timeouts; bodies past max_size abandoned;
 * Accept-Encoding: every coding libcurl has (gzip, deflate, br, zstd), decoded
 * before the body is handed over. 5xx, 429 and connections reset or cut short
 * are retried up to `retries` times after retry_wait * 2^(attempt-1) seconds,
 * or after the Retry-After the server asked for (up to max_retry_after; past
 * it the URL fails); the host gets no other request in the meantime.
 *
 * Each URL ends exactly once, in the done callback: fetched (a 2xx response),
 * failed (with a reason) or skipped (with a reason). */
#ifndef PREPROCESS_FETCH_H
#define PREPROCESS_FETCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    long jobs, per_host, max_redirects, retries;
    double wait, connect_timeout, timeout, stall, retry_wait, max_retry_after, max_crawl_delay;
    uint64_t max_size;
    const char *agent;        /* User-Agent */
    const char *robots_token; /* product token matched against robots.txt groups */
    int robots, insecure;
} fetch_opts;

enum { FETCH_OK, FETCH_FAILED, FETCH_SKIPPED };

typedef struct {
    size_t idx;             /* the URL's index in the caller's array */
    const char *url;
    int outcome;            /* FETCH_* */
    const char *reason;     /* why it failed or was skipped (NULL when fetched) */
    const char *error;      /* libcurl's message, when there is one */
    long http;              /* the final HTTP status (0: none) */
    const char *final_url;  /* after redirects */
    const char *ip;
    const char *request;    /* the last request's header block as sent */
    size_t request_len;
    const char *header;     /* the final response's status line and fields */
    size_t header_len;
    const unsigned char *body;
    size_t body_len;
    double seconds;         /* from the first attempt's start to the end */
    int attempts;
    int64_t fetch_time;     /* when the final response began (epoch seconds) */
} fetch_result;

/* Return 0 to go on, an ERR_* to stop the run (the error is returned). */
typedef int (*fetch_done_fn)(void *ctx, const fetch_result *r);
/* Called about four times a second with the transfers in flight. */
typedef void (*fetch_tick_fn)(void *ctx, size_t active);

/* Fetch urls[0..n); want[i] == 0 leaves url i alone (done in an earlier run).
 * Returns 0 when every wanted URL has ended, 1 when *stop was set (transfers in
 * flight are abandoned, not reported), or an ERR_*. */
int fetch_run(const fetch_opts *o, char *const *urls, const unsigned char *want, size_t n, fetch_done_fn done,
              fetch_tick_fn tick, void *ctx, volatile sig_atomic_t *stop);

/* Retry-After of a response header block: seconds from now (delta-seconds or an
 * HTTP-date), or -1 when absent or unreadable. */
double fetch_retry_after(const char *hdr, size_t n, int64_t now);

#endif

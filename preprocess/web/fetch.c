/* fetch.c - a polite fetcher over libcurl's multi interface (fetch.h). */
#include "preprocess/web/fetch.h"

#include "common/err.h"
#include "common/hash.h"
#include "common/progress.h"
#include "preprocess/web/robots.h"

#include <ctype.h>
#include <limits.h>
#include <curl/curl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define NONE UINT32_MAX

enum { RB_UNKNOWN, RB_FETCHING, RB_READY };

typedef struct {
    char *key;            /* scheme://host:port */
    uint32_t q_head, q_tail;
    int active;
    double next;          /* no request starts before this (monotonic seconds) */
    double delay;
    unsigned gen;         /* the heap entry with this gen is the live one */
    int rstate;
    robots *rb;
    const char *dead;     /* robots.txt could not be reached: every URL fails with this reason */
    char *dead_error;
    int rb_attempts;
} host;

typedef struct {
    double t;
    uint32_t h;
    unsigned gen;
} hentry;

typedef struct xfer {
    CURL *e;
    uint32_t url;         /* NONE: the host's robots.txt */
    uint32_t host;
    char *hdr, *req;
    unsigned char *body;
    size_t hlen, hcap, rlen, rcap, blen, bcap;
    uint64_t max;
    int too_large, stalled;
    double start, last_rx; /* last_rx: when a byte last came (the stall clock) */
    int64_t start_epoch;
    char errbuf[CURL_ERROR_SIZE];
    int busy;
    struct xfer *next_free;
} xfer;

typedef struct {
    const fetch_opts *o;
    char *const *urls;
    size_t n;
    uint32_t *host_of, *qnext;
    unsigned char *attempts;
    unsigned char *hops;  /* redirects followed so far */
    char **cur;           /* the URL a redirect led to (NULL: the URL itself) */
    double *first_start;
    host *hosts;
    size_t nhosts, hcap;
    uint32_t *htab; /* open addressing: host index + 1, 0 empty */
    size_t htab_cap;
    hentry *heap;
    size_t heap_n, heap_cap;
    CURLM *m;
    xfer *free_x;
    xfer **allx; /* every transfer made, busy or not */
    size_t nallx, allx_cap;
    size_t active;
    fetch_done_fn done;
    void *ctx;
    CURLU *cu;
} engine;

static double now_s(void) { return progress_now(); }

/* ---- the heap of hosts by the time they may start a request ---------------------------- */

static int heap_push(engine *g, uint32_t h)
{
    if (g->heap_n == g->heap_cap) {
        size_t c = g->heap_cap ? g->heap_cap * 2 : 256;
        hentry *nh = realloc(g->heap, c * sizeof *nh);
        if (!nh) return err_set(ERR_NOMEM, "out of memory");
        g->heap = nh;
        g->heap_cap = c;
    }
    host *ho = &g->hosts[h];
    hentry e = {ho->next, h, ++ho->gen};
    size_t i = g->heap_n++;
    while (i) {
        size_t p = (i - 1) / 2;
        if (g->heap[p].t <= e.t) break;
        g->heap[i] = g->heap[p];
        i = p;
    }
    g->heap[i] = e;
    return 0;
}

static hentry heap_pop(engine *g)
{
    hentry top = g->heap[0], last = g->heap[--g->heap_n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= g->heap_n) break;
        if (c + 1 < g->heap_n && g->heap[c + 1].t < g->heap[c].t) c++;
        if (g->heap[c].t >= last.t) break;
        g->heap[i] = g->heap[c];
        i = c;
    }
    if (g->heap_n) g->heap[i] = last;
    return top;
}

static int live(const engine *g, const hentry *e) { return g->hosts[e->h].gen == e->gen; }

/* Put the host back on the heap when it has work it may start. */
static int reschedule(engine *g, uint32_t h)
{
    host *ho = &g->hosts[h];
    if (ho->q_head == NONE || ho->rstate == RB_FETCHING || ho->active >= g->o->per_host) {
        ho->gen++; /* any entry left is stale */
        return 0;
    }
    return heap_push(g, h);
}

/* ---- hosts ---------------------------------------------------------------------------------- */

static int host_index(engine *g, const char *key, uint32_t *out)
{
    if (g->nhosts * 2 >= g->htab_cap) {
        size_t c = g->htab_cap ? g->htab_cap * 2 : 1024;
        uint32_t *t = calloc(c, sizeof *t);
        if (!t) return err_set(ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < g->nhosts; i++) {
            size_t j = hash64(g->hosts[i].key, strlen(g->hosts[i].key), 7) & (c - 1);
            while (t[j]) j = (j + 1) & (c - 1);
            t[j] = (uint32_t)i + 1;
        }
        free(g->htab);
        g->htab = t;
        g->htab_cap = c;
    }
    size_t j = hash64(key, strlen(key), 7) & (g->htab_cap - 1);
    while (g->htab[j]) {
        if (!strcmp(g->hosts[g->htab[j] - 1].key, key)) { *out = g->htab[j] - 1; return 0; }
        j = (j + 1) & (g->htab_cap - 1);
    }
    if (g->nhosts == g->hcap) {
        size_t c = g->hcap ? g->hcap * 2 : 256;
        host *nh = realloc(g->hosts, c * sizeof *nh);
        if (!nh) return err_set(ERR_NOMEM, "out of memory");
        g->hosts = nh;
        g->hcap = c;
    }
    host *ho = &g->hosts[g->nhosts];
    memset(ho, 0, sizeof *ho);
    if (!(ho->key = strdup(key))) return err_set(ERR_NOMEM, "out of memory");
    ho->q_head = ho->q_tail = NONE;
    ho->delay = g->o->wait;
    ho->rstate = g->o->robots ? RB_UNKNOWN : RB_READY;
    g->htab[j] = (uint32_t)g->nhosts + 1;
    *out = (uint32_t)g->nhosts++;
    return 0;
}

/* Host key and path of a URL; 0, or the reason to skip it. */
static const char *parse_url(engine *g, const char *url, char *key, size_t kcap, char **path)
{
    *path = NULL;
    /* a handle that holds a URL would resolve a relative one against it: start clean */
    curl_url_set(g->cu, CURLUPART_URL, NULL, 0);
    if (curl_url_set(g->cu, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK) return "invalid_url";
    char *scheme = NULL, *h = NULL, *port = NULL, *p = NULL, *q = NULL;
    const char *why = NULL;
    if (curl_url_get(g->cu, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK) why = "invalid_url";
    else if (strcasecmp(scheme, "http") && strcasecmp(scheme, "https")) why = "scheme";
    else if (curl_url_get(g->cu, CURLUPART_HOST, &h, 0) != CURLUE_OK || !*h) why = "invalid_url";
    else if (curl_url_get(g->cu, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) != CURLUE_OK) why = "invalid_url";
    if (!why) {
        for (char *c = scheme; *c; c++) *c = (char)tolower((unsigned char)*c);
        for (char *c = h; *c; c++) *c = (char)tolower((unsigned char)*c);
        snprintf(key, kcap, "%s://%s:%s", scheme, h, port);
        curl_url_get(g->cu, CURLUPART_PATH, &p, 0);
        curl_url_get(g->cu, CURLUPART_QUERY, &q, 0);
        size_t pl = p ? strlen(p) : 0, ql = q ? strlen(q) : 0;
        *path = malloc(pl + ql + 3);
        if (*path) snprintf(*path, pl + ql + 3, "%s%s%s", pl ? p : "/", q ? "?" : "", q ? q : "");
    }
    curl_free(scheme);
    curl_free(h);
    curl_free(port);
    curl_free(p);
    curl_free(q);
    return why;
}

/* ---- transfers --------------------------------------------------------------------------- */

static int append(char **buf, size_t *len, size_t *cap, const void *data, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < *len + n + 1) c *= 2;
        char *b = realloc(*buf, c);
        if (!b) return -1;
        *buf = b;
        *cap = c;
    }
    memcpy(*buf + *len, data, n);
    *len += n;
    (*buf)[*len] = 0;
    return 0;
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *ud)
{
    xfer *x = ud;
    size_t n = size * nmemb;
    x->last_rx = now_s();
    if (n >= 5 && !memcmp(data, "HTTP/", 5)) x->hlen = 0; /* a new response (after a redirect or a 100) */
    return append(&x->hdr, &x->hlen, &x->hcap, data, n) ? 0 : n;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *ud)
{
    xfer *x = ud;
    size_t n = size * nmemb;
    x->last_rx = now_s();
    if (x->blen + n > x->max) { x->too_large = 1; return 0; }
    return append((char **)&x->body, &x->blen, &x->bcap, data, n) ? 0 : n;
}

static int on_debug(CURL *e, curl_infotype type, char *data, size_t n, void *ud)
{
    (void)e;
    xfer *x = ud;
    if (type == CURLINFO_HEADER_OUT) {
        x->last_rx = now_s(); /* the stall clock starts when the request is out */
        x->rlen = 0;
        append(&x->req, &x->rlen, &x->rcap, data, n);
    }
    return 0;
}

static int start(engine *g, uint32_t h, uint32_t url, const char *robots_url)
{
    const fetch_opts *o = g->o;
    xfer *x = g->free_x;
    if (x) {
        g->free_x = x->next_free;
        curl_easy_reset(x->e);
    } else {
        if (g->nallx == g->allx_cap) {
            size_t c = g->allx_cap ? g->allx_cap * 2 : 64;
            xfer **na = realloc(g->allx, c * sizeof *na);
            if (!na) return err_set(ERR_NOMEM, "out of memory");
            g->allx = na;
            g->allx_cap = c;
        }
        x = calloc(1, sizeof *x);
        if (!x || !(x->e = curl_easy_init())) { free(x); return err_set(ERR_NOMEM, "out of memory (curl_easy_init)"); }
        g->allx[g->nallx++] = x;
    }
    x->busy = 1;
    x->url = url;
    x->host = h;
    x->hlen = x->rlen = x->blen = 0;
    x->too_large = x->stalled = 0;
    x->errbuf[0] = 0;
    x->max = url == NONE ? 512 * 1024 : o->max_size;
    x->start = x->last_rx = now_s();
    x->start_epoch = (int64_t)time(NULL);
    CURL *e = x->e;
    curl_easy_setopt(e, CURLOPT_URL, url == NONE ? robots_url : g->cur[url] ? g->cur[url] : g->urls[url]);
    curl_easy_setopt(e, CURLOPT_PRIVATE, x);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, x);
    curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, on_debug);
    curl_easy_setopt(e, CURLOPT_DEBUGDATA, x);
    curl_easy_setopt(e, CURLOPT_VERBOSE, 1L); /* for the request headers as sent (CURLINFO_HEADER_OUT) */
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, x->errbuf);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    /* a page's redirects are followed by finish_page, through the target host's queue: its
     * robots.txt, wait and per-host limit apply to the request, as to any other of that host.
     * robots.txt's own are followed here, five at most (RFC 9309 2.3.1.2) */
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, url == NONE ? 1L : 0L);
    curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    curl_easy_setopt(e, CURLOPT_USERAGENT, o->agent);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)(o->connect_timeout * 1000));
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)(o->timeout * 1000));
    /* the stall timeout is ours (check_stalled): libcurl's low-speed check averages over
     * seconds, so a drip of a byte now and then would pass it */
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)x->max);
    if (o->insecure) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (curl_multi_add_handle(g->m, e) != CURLM_OK) return err_set(ERR_INTERNAL, "curl_multi_add_handle failed");
    g->hosts[h].active++;
    g->active++;
    if (url != NONE && g->attempts[url]++ == 0 && !g->hops[url]) g->first_start[url] = x->start;
    return 0;
}

static void recycle(engine *g, xfer *x)
{
    curl_multi_remove_handle(g->m, x->e);
    x->busy = 0;
    if (x->bcap > (8u << 20)) { free(x->body); x->body = NULL; x->bcap = 0; }
    x->next_free = g->free_x;
    g->free_x = x;
}

double fetch_retry_after(const char *hdr, size_t n, int64_t now)
{
    const char *p = hdr, *end = hdr + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if (le - p > 12 && !strncasecmp(p, "Retry-After:", 12)) {
            char v[128];
            const char *s = p + 12;
            while (s < le && (*s == ' ' || *s == '\t')) s++;
            size_t k = (size_t)(le - s);
            while (k && (s[k - 1] == '\r' || s[k - 1] == ' ' || s[k - 1] == '\t')) k--;
            if (k == 0 || k >= sizeof v) return -1;
            memcpy(v, s, k);
            v[k] = 0;
            int digits = 1;
            for (size_t i = 0; i < k; i++) digits &= isdigit((unsigned char)v[i]) != 0;
            if (digits) return k > 9 ? 1e9 : (double)atol(v);
            time_t t = curl_getdate(v, NULL);
            if (t == (time_t)-1) return -1;
            return t > now ? (double)(t - now) : 0;
        }
        p = le + 1;
    }
    return -1;
}

/* ---- ending a URL --------------------------------------------------------------------------- */

static int report(engine *g, uint32_t u, int outcome, const char *reason, const char *error, xfer *x, long http)
{
    fetch_result r;
    memset(&r, 0, sizeof r);
    r.idx = u;
    r.url = g->urls[u];
    r.outcome = outcome;
    r.reason = reason;
    r.error = error && *error ? error : NULL;
    r.http = http;
    r.attempts = g->attempts[u];
    r.seconds = g->attempts[u] ? now_s() - g->first_start[u] : 0;
    if (x) {
        char *eff = NULL, *ip = NULL;
        curl_easy_getinfo(x->e, CURLINFO_EFFECTIVE_URL, &eff);
        curl_easy_getinfo(x->e, CURLINFO_PRIMARY_IP, &ip);
        r.final_url = eff;
        r.ip = ip;
        r.request = x->req;
        r.request_len = x->rlen;
        r.header = x->hdr;
        r.header_len = x->hlen;
        r.body = x->body;
        r.body_len = x->blen;
        r.fetch_time = x->start_epoch;
    }
    return g->done(g->ctx, &r);
}

/* The reason for a failed transfer, and whether to try again. */
static const char *classify(CURLcode res, xfer *x, const fetch_opts *o, int *retry)
{
    *retry = 0;
    if (x->stalled) return "stalled";
    switch (res) {
    case CURLE_COULDNT_RESOLVE_HOST: return "dns";
    case CURLE_COULDNT_CONNECT: return "connect";
    case CURLE_OPERATION_TIMEDOUT: {
        if (x->rlen == 0) return "connect_timeout"; /* no request was sent */
        return "timeout";
    }
    case CURLE_FILESIZE_EXCEEDED: return "too_large";
    case CURLE_WRITE_ERROR: return x->too_large ? "too_large" : "write_error";
    case CURLE_TOO_MANY_REDIRECTS: return "too_many_redirects";
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING: *retry = 1; return "reset";
    case CURLE_PARTIAL_FILE: *retry = 1; return "cut_short";
    case CURLE_BAD_CONTENT_ENCODING: return "bad_encoding";
    case CURLE_WEIRD_SERVER_REPLY: return "bad_response";
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE: return "tls";
    case CURLE_UNSUPPORTED_PROTOCOL: return "scheme";
    case CURLE_URL_MALFORMAT: return "invalid_url";
    default: return "error";
    }
}

static double backoff(const fetch_opts *o, int attempt)
{
    double d = o->retry_wait * pow(2.0, attempt > 1 ? attempt - 1 : 0);
    return d > 600 ? 600 : d;
}

static int finish_robots(engine *g, xfer *x, CURLcode res)
{
    host *ho = &g->hosts[x->host];
    long code = 0;
    curl_easy_getinfo(x->e, CURLINFO_RESPONSE_CODE, &code);
    int retry = 0;
    const char *why = NULL;
    if (res == CURLE_OK) {
        if (code >= 200 && code < 300) ho->rb = robots_parse((const char *)x->body, x->blen, g->o->robots_token);
        else if (code >= 400 && code < 500 && code != 429) ho->rb = robots_all(1);
        else if (code == 429 || code >= 500) retry = 1;
        else ho->rb = robots_all(1); /* a 3xx without Location: no rules */
        if (!ho->rb && !retry) return err_set(ERR_NOMEM, "out of memory (robots.txt)");
    } else if (res == CURLE_FILESIZE_EXCEEDED || (res == CURLE_WRITE_ERROR && x->too_large)) {
        ho->rb = robots_parse((const char *)x->body, x->blen, g->o->robots_token); /* its first 512 KiB */
        if (!ho->rb) return err_set(ERR_NOMEM, "out of memory (robots.txt)");
    } else {
        why = classify(res, x, g->o, &retry);
    }
    if (retry && ho->rb_attempts++ < g->o->retries) {
        double ra = code ? fetch_retry_after(x->hdr, x->hlen, (int64_t)time(NULL)) : -1;
        double d = ra >= 0 && ra <= g->o->max_retry_after ? fmax(ra, backoff(g->o, ho->rb_attempts)) : backoff(g->o, ho->rb_attempts);
        ho->next = fmax(ho->next, now_s() + d);
        ho->rstate = RB_UNKNOWN;
        return reschedule(g, x->host);
    }
    if (!ho->rb) {
        if (res == CURLE_OK) { /* 5xx to the end: RFC 9309 2.3.1.4, assume complete disallow */
            if (!(ho->rb = robots_all(0))) return err_set(ERR_NOMEM, "out of memory");
        } else { /* unreachable: its URLs fail as this request did */
            ho->dead = why ? why : "error";
            ho->dead_error = strdup(x->errbuf[0] ? x->errbuf : curl_easy_strerror(res));
        }
    }
    if (ho->rb) {
        double cd = robots_crawl_delay(ho->rb);
        if (cd > ho->delay) ho->delay = cd < g->o->max_crawl_delay ? cd : g->o->max_crawl_delay;
    }
    ho->rstate = RB_READY;
    return reschedule(g, x->host);
}

static int enqueue_front(engine *g, uint32_t h, uint32_t u)
{
    host *ho = &g->hosts[h];
    g->qnext[u] = ho->q_head;
    ho->q_head = u;
    if (ho->q_tail == NONE) ho->q_tail = u;
    g->host_of[u] = h;
    return 0;
}

/* A redirect: the URL goes on, as a new request, to the front of its target host's queue
 * (that host's robots.txt fetched first when it is new, its wait and per-host limit kept);
 * the hop counts against max_redirects, not against the retries. 0, or the reason it ends. */
static const char *follow(engine *g, uint32_t u, const char *location, int *rc)
{
    *rc = 0;
    if (g->hops[u] >= g->o->max_redirects || g->hops[u] == UCHAR_MAX) return "too_many_redirects";
    char key[1100], *path = NULL;
    const char *why = parse_url(g, location, key, sizeof key, &path);
    free(path);
    if (why) return why;
    char *next = strdup(location);
    uint32_t h = 0;
    if (!next || (*rc = host_index(g, key, &h))) {
        free(next);
        if (!*rc) *rc = err_set(ERR_NOMEM, "out of memory");
        return NULL;
    }
    free(g->cur[u]);
    g->cur[u] = next;
    g->hops[u]++;
    g->attempts[u] = 0;
    enqueue_front(g, h, u);
    *rc = reschedule(g, h);
    return NULL;
}

static int finish_page(engine *g, xfer *x, CURLcode res)
{
    uint32_t u = x->url;
    host *ho = &g->hosts[x->host];
    long code = 0;
    curl_easy_getinfo(x->e, CURLINFO_RESPONSE_CODE, &code);
    int retry = 0;
    const char *why = NULL;
    double ra = -1;
    char reason[32];
    if (res == CURLE_OK) {
        if (code >= 200 && code < 300) return report(g, u, FETCH_OK, NULL, NULL, x, code);
        char *location = NULL;
        if (code >= 300 && code < 400 && curl_easy_getinfo(x->e, CURLINFO_REDIRECT_URL, &location) == CURLE_OK &&
            location) {
            int rc;
            const char *end = follow(g, u, location, &rc);
            if (rc || !end) return rc;
            return report(g, u, FETCH_FAILED, end, NULL, x, code);
        }
        snprintf(reason, sizeof reason, "http_%ld", code);
        why = reason;
        if (code == 429 || code >= 500) {
            retry = 1;
            ra = fetch_retry_after(x->hdr, x->hlen, (int64_t)time(NULL));
            if (ra > g->o->max_retry_after) retry = 0;
        }
    } else {
        why = classify(res, x, g->o, &retry);
    }
    if (retry && g->attempts[u] <= g->o->retries) {
        double d = backoff(g->o, g->attempts[u]);
        if (ra > d) d = ra;
        ho->next = fmax(ho->next, now_s() + d);
        /* back to the front of the host's queue */
        return enqueue_front(g, x->host, u);
    }
    return report(g, u, FETCH_FAILED, why, res == CURLE_OK ? NULL : (x->errbuf[0] ? x->errbuf : curl_easy_strerror(res)),
                  x, code);
}

/* ---- the loop ------------------------------------------------------------------------------- */

static void free_engine(engine *g)
{
    for (size_t i = 0; i < g->nhosts; i++) {
        free(g->hosts[i].key);
        robots_free(g->hosts[i].rb);
        free(g->hosts[i].dead_error);
    }
    for (size_t i = 0; i < g->nallx; i++) {
        xfer *x = g->allx[i];
        curl_easy_cleanup(x->e);
        free(x->hdr);
        free(x->req);
        free(x->body);
        free(x);
    }
    if (g->m) curl_multi_cleanup(g->m);
    if (g->cu) curl_url_cleanup(g->cu);
    free(g->allx);
    free(g->hosts);
    free(g->htab);
    free(g->heap);
    free(g->host_of);
    free(g->qnext);
    free(g->attempts);
    free(g->first_start);
    for (size_t i = 0; g->cur && i < g->n; i++) free(g->cur[i]);
    free(g->cur);
    free(g->hops);
}

/* Start what may start now: returns 0 or ERR_*. */
static int start_ready(engine *g, double now)
{
    const fetch_opts *o = g->o;
    while (g->heap_n && (long)g->active < o->jobs) {
        if (!live(g, &g->heap[0])) { heap_pop(g); continue; }
        if (g->heap[0].t > now) break;
        hentry e = heap_pop(g);
        uint32_t h = e.h;
        host *ho = &g->hosts[h];
        ho->gen++;
        int rc;
        if (ho->rstate == RB_UNKNOWN) {
            char url[1200];
            snprintf(url, sizeof url, "%s/robots.txt", ho->key);
            ho->rstate = RB_FETCHING;
            if ((rc = start(g, h, NONE, url))) return rc;
            ho->next = now + ho->delay;
            continue;
        }
        uint32_t u = ho->q_head;
        ho->q_head = g->qnext[u];
        if (ho->q_head == NONE) ho->q_tail = NONE;
        if (ho->dead) {
            rc = report(g, u, FETCH_FAILED, ho->dead, ho->dead_error, NULL, 0);
        } else if (ho->rb && !robots_allowed(ho->rb, NULL)) {
            rc = report(g, u, FETCH_SKIPPED, "robots_unavailable", NULL, NULL, 0);
        } else {
            int allowed = 1;
            if (ho->rb) {
                char key[1100], *path = NULL;
                parse_url(g, g->cur[u] ? g->cur[u] : g->urls[u], key, sizeof key, &path);
                allowed = robots_allowed(ho->rb, path);
                free(path);
            }
            if (!allowed) rc = report(g, u, FETCH_SKIPPED, "robots", NULL, NULL, 0);
            else {
                rc = start(g, h, u, NULL);
                ho->next = now + ho->delay;
            }
        }
        if (rc) return rc;
        if ((rc = reschedule(g, h))) return rc;
    }
    return 0;
}

/* End the transfers that have received nothing for o->stall seconds. */
static int check_stalled(engine *g, double now)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < g->nallx; i++) {
        xfer *x = g->allx[i];
        if (!x->busy || now - x->last_rx < g->o->stall) continue;
        if (x->rlen == 0) continue; /* no request sent yet: the connect timeout's business */
        x->stalled = 1;
        snprintf(x->errbuf, sizeof x->errbuf, "nothing received for %.1f s", now - x->last_rx);
        g->active--;
        g->hosts[x->host].active--;
        rc = x->url == NONE ? finish_robots(g, x, CURLE_OPERATION_TIMEDOUT) : finish_page(g, x, CURLE_OPERATION_TIMEDOUT);
        if (rc == 0) rc = reschedule(g, x->host);
        recycle(g, x);
    }
    return rc;
}

int fetch_run(const fetch_opts *o, char *const *urls, const unsigned char *want, size_t n, fetch_done_fn done,
              fetch_tick_fn tick, void *ctx, volatile sig_atomic_t *stop)
{
    if (n >= NONE) return err_set(ERR_LIMIT, "%zu URLs: at most %u in one run", n, NONE - 1);
    static int global_init;
    if (!global_init) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT)) return err_set(ERR_INTERNAL, "curl_global_init failed");
        global_init = 1;
    }
    engine g;
    memset(&g, 0, sizeof g);
    g.o = o;
    g.urls = urls;
    g.n = n;
    g.done = done;
    g.ctx = ctx;
    int rc = 0;
    g.host_of = malloc((n + 1) * sizeof *g.host_of);
    g.qnext = malloc((n + 1) * sizeof *g.qnext);
    g.attempts = calloc(n + 1, 1);
    g.first_start = calloc(n + 1, sizeof *g.first_start);
    g.hops = calloc(n + 1, 1);
    g.cur = calloc(n + 1, sizeof *g.cur);
    g.m = curl_multi_init();
    g.cu = curl_url();
    if (!g.host_of || !g.qnext || !g.attempts || !g.first_start || !g.hops || !g.cur || !g.m || !g.cu) rc = err_set(ERR_NOMEM, "out of memory");
    if (rc == 0) {
        curl_multi_setopt(g.m, CURLMOPT_MAX_TOTAL_CONNECTIONS, o->jobs);
        curl_multi_setopt(g.m, CURLMOPT_MAXCONNECTS, o->jobs * 2);
    }
    /* hosts and their queues, in input order; what cannot be fetched ends here */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (want && !want[i]) continue;
        char key[1100], *path = NULL;
        const char *why = parse_url(&g, urls[i], key, sizeof key, &path);
        free(path);
        if (why) { rc = report(&g, (uint32_t)i, FETCH_SKIPPED, why, NULL, NULL, 0); continue; }
        uint32_t h = 0;
        if ((rc = host_index(&g, key, &h))) break;
        g.host_of[i] = h;
        g.qnext[i] = NONE;
        host *ho = &g.hosts[h];
        if (ho->q_tail == NONE) ho->q_head = (uint32_t)i;
        else g.qnext[ho->q_tail] = (uint32_t)i;
        ho->q_tail = (uint32_t)i;
    }
    for (size_t h = 0; rc == 0 && h < g.nhosts; h++) rc = reschedule(&g, (uint32_t)h);
    double last_tick = 0;
    while (rc == 0) {
        if (stop && *stop) { rc = 1; break; }
        double now = now_s();
        if ((rc = start_ready(&g, now))) break;
        if (g.active == 0) {
            while (g.heap_n && !live(&g, &g.heap[0])) heap_pop(&g);
            if (!g.heap_n) break; /* every URL has ended */
        }
        int running = 0;
        if (curl_multi_perform(g.m, &running) != CURLM_OK) { rc = err_set(ERR_INTERNAL, "curl_multi_perform failed"); break; }
        CURLMsg *msg;
        int left;
        while (rc == 0 && (msg = curl_multi_info_read(g.m, &left))) {
            if (msg->msg != CURLMSG_DONE) continue;
            xfer *x = NULL;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
            CURLcode res = msg->data.result;
            g.active--;
            g.hosts[x->host].active--;
            rc = x->url == NONE ? finish_robots(&g, x, res) : finish_page(&g, x, res);
            if (rc == 0) rc = reschedule(&g, x->host);
            recycle(&g, x);
        }
        if (rc) break;
        now = now_s();
        if (now - last_tick >= 0.25) {
            if ((rc = check_stalled(&g, now))) break;
            if (tick) tick(ctx, g.active);
            last_tick = now;
        }
        long cto = -1;
        curl_multi_timeout(g.m, &cto);
        double wait_ms = cto < 0 ? 250 : (double)cto;
        if (wait_ms > 250) wait_ms = 250;
        while (g.heap_n && !live(&g, &g.heap[0])) heap_pop(&g);
        if (g.heap_n && (long)g.active < o->jobs) {
            double until = (g.heap[0].t - now) * 1000;
            if (until < wait_ms) wait_ms = until < 0 ? 0 : until;
        }
        if (wait_ms > 0 && g.active) curl_multi_poll(g.m, NULL, 0, (int)ceil(wait_ms), NULL);
        else if (wait_ms > 0) {
            struct timespec ts = {(time_t)(wait_ms / 1000), (long)(fmod(wait_ms, 1000) * 1e6)};
            nanosleep(&ts, NULL);
        }
    }
    /* abandoned transfers (an error or a stop): not reported, fetched again next run */
    for (size_t i = 0; i < g.nallx; i++)
        if (g.allx[i]->busy) recycle(&g, g.allx[i]);
    free_engine(&g);
    return rc;
}

/* download - fetch a URL list into WARC files, politely, resumably (fetch.h, warcwrite.h).
 *
 * The run's state is its output directory: the finished WARC files, at most one
 * .part file per interrupted run, and the log of every URL's outcome. Started
 * again with the same arguments it salvages the .part files (cut after their
 * last whole record, then renamed into place), takes as done every URL that has
 * a response record or a failed / skipped line in the log, rewrites the log to
 * agree with the WARC files, and fetches the rest. */
#include "common/args.h"
#include "common/err.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/progress.h"
#include "common/strset.h"
#include "common/tally.h"
#include "common/utf8.h"
#include "common/version.h"
#include "preprocess/fetch.h"
#include "preprocess/warcwrite.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    /* options */
    const char *dir, *prefix, *key, *agent, *robots_token, *log_path;
    long long jobs, per_host, max_redirect, tries;
    double wait, connect_timeout, timeout, read_timeout, retry_wait, max_retry_after;
    uint64_t max_size, warc_max_size;
    int no_robots, insecure;
    /* input */
    char **urls;
    size_t n, cap;
    uint64_t lines, malformed;
    /* state */
    strset *done, *seen;
    unsigned char *want;
    warcw *w;
    FILE *log;
    char *line;
    size_t line_len, line_cap;
    char *esc;
    size_t esc_cap;
    /* counts of this run */
    uint64_t fetched, failed, skipped, before, bytes, to_fetch; /* to_fetch: URLs this run fetches */
    tally t; /* URLs: kept (fetched now or by an earlier run), dropped as failed/REASON or skipped/REASON */
    double t0;
    int show;
    char token[64];   /* the robots.txt token taken from the agent */
    char logbuf[4096];
} dl_state;

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig) { (void)sig; stop_flag = 1; }

/* ---- the log ------------------------------------------------------------------------------ */

static int line_add(dl_state *s, const char *txt, size_t n)
{
    if (s->line_len + n + 1 > s->line_cap) {
        size_t c = s->line_cap ? s->line_cap : 1024;
        while (c < s->line_len + n + 1) c *= 2;
        char *b = realloc(s->line, c);
        if (!b) return err_set(ERR_NOMEM, "out of memory");
        s->line = b;
        s->line_cap = c;
    }
    memcpy(s->line + s->line_len, txt, n);
    s->line_len += n;
    return 0;
}

/* ,"key":"value" (the value made valid UTF-8 first) */
static int line_str(dl_state *s, const char *key, const char *v)
{
    if (!v) return 0;
    size_t n = strlen(v), el = 0;
    char *tmp = NULL;
    if (!utf8_valid(v, n)) {
        if (!(tmp = malloc(3 * n + 1))) return err_set(ERR_NOMEM, "out of memory");
        n = utf8_sanitize(v, n, tmp);
        v = tmp;
    }
    char head[64];
    int hn = snprintf(head, sizeof head, "%s\"%s\":", s->line_len > 1 ? "," : "", key);
    int rc = jsonl_escape(v, n, &s->esc, &el, &s->esc_cap) ? err_set(ERR_NOMEM, "out of memory") : 0;
    if (rc == 0) rc = line_add(s, head, (size_t)hn);
    if (rc == 0) rc = line_add(s, s->esc, el);
    free(tmp);
    return rc;
}

static int line_num(dl_state *s, const char *key, const char *fmt, double v)
{
    char b[96];
    int k = snprintf(b, sizeof b, "%s\"%s\":", s->line_len > 1 ? "," : "", key);
    k += snprintf(b + k, sizeof b - (size_t)k, fmt, v);
    return line_add(s, b, (size_t)k);
}

static int log_line(dl_state *s)
{
    int rc = line_add(s, "}\n", 2);
    if (rc == 0 && (fwrite(s->line, 1, s->line_len, s->log) != s->line_len || fflush(s->log)))
        rc = err_sys(ERR_IO, "%s: write", s->log_path);
    s->line_len = 0;
    return rc;
}

/* One URL dropped as HOW/NAME (failed or skipped); name may not outlive the call (http_404 is
 * made on the fly): the tally keeps a copy. */
static void count_reason(tally *t, const char *how, const char *name)
{
    char r[64];
    snprintf(r, sizeof r, "%s/%s", how, name);
    tally_drop(t, tally_reason_id(t, r), 0);
}

/* fetch_run's callback: one URL has ended. */
static int on_done(void *ctx, const fetch_result *r)
{
    dl_state *s = ctx;
    const char *file = NULL;
    int rc = 0;
    if (r->outcome == FETCH_OK) {
        warcw_page p = {r->url, r->final_url, r->ip, r->request, r->request_len, r->header, r->header_len,
                        r->body, r->body_len, r->fetch_time};
        if ((rc = warcw_write(s->w, &p, &file))) return rc;
        s->fetched++;
        tally_keep(&s->t);
        s->bytes += r->body_len;
    } else if (r->outcome == FETCH_FAILED) {
        s->failed++;
        count_reason(&s->t, "failed", r->reason);
    } else {
        s->skipped++;
        count_reason(&s->t, "skipped", r->reason);
    }
    static const char *const status[] = {"fetched", "failed", "skipped"};
    s->line_len = 0;
    rc = line_add(s, "{", 1);
    if (rc == 0) rc = line_str(s, "url", r->url);
    if (rc == 0) rc = line_str(s, "status", status[r->outcome]);
    if (rc == 0 && r->reason) rc = line_str(s, "reason", r->reason);
    if (rc == 0 && r->http) rc = line_num(s, "http", "%.0f", (double)r->http);
    if (rc == 0 && r->outcome == FETCH_OK) rc = line_num(s, "bytes", "%.0f", (double)r->body_len);
    if (rc == 0 && r->attempts) rc = line_num(s, "seconds", "%.3f", r->seconds);
    if (rc == 0 && r->attempts) rc = line_num(s, "attempts", "%.0f", (double)r->attempts);
    if (rc == 0 && file) rc = line_str(s, "warc", file);
    if (rc == 0 && r->final_url && r->outcome != FETCH_SKIPPED && strcmp(r->final_url, r->url))
        rc = line_str(s, "final_url", r->final_url);
    if (rc == 0 && r->ip && *r->ip && r->outcome == FETCH_OK) rc = line_str(s, "ip", r->ip);
    if (rc == 0 && r->error) rc = line_str(s, "error", r->error);
    if (rc == 0) rc = log_line(s);
    return rc;
}

static void on_tick(void *ctx, size_t active)
{
    dl_state *s = ctx;
    if (!s->show) return;
    double el = progress_now() - s->t0;
    uint64_t ended = s->fetched + s->failed + s->skipped;
    double rate = el > 0 ? (double)ended / el : 0;
    char bb[32], eta[32] = "?";
    args_fmt_bytes(el > 0 ? (double)s->bytes / el : 0, bb, sizeof bb);
    if (rate > 0 && s->to_fetch >= ended) {
        double left = (double)(s->to_fetch - ended) / rate;
        snprintf(eta, sizeof eta, "%dh%02dm%02ds", (int)(left / 3600), (int)(left / 60) % 60, (int)left % 60);
    }
    fprintf(stderr, "\rdownload: %" PRIu64 "/%" PRIu64 " URLs, %.1f pages/s, %s/s, %" PRIu64 " failed, %zu in flight, ETA %s\x1b[K",
            ended, s->to_fetch, (double)s->fetched / (el > 0 ? el : 1), bb, s->failed, active, eta);
}

/* ---- reading the URL lists ---------------------------------------------------------------- */

static int add_url(dl_state *s, const char *u, size_t n)
{
    if (s->n == s->cap) {
        size_t c = s->cap ? s->cap * 2 : 4096;
        char **nu = realloc(s->urls, c * sizeof *nu);
        if (!nu) return err_set(ERR_NOMEM, "out of memory (%zu URLs)", s->n);
        s->urls = nu;
        s->cap = c;
    }
    char *d = malloc(n + 1);
    if (!d) return err_set(ERR_NOMEM, "out of memory");
    memcpy(d, u, n);
    d[n] = 0;
    s->urls[s->n++] = d;
    return 0;
}

static int read_list(dl_state *s, const char *path)
{
    io_reader *r;
    int rc = io_reader_open(&r, path);
    if (rc) return rc;
    char *line;
    size_t len;
    char *buf = NULL;
    size_t bl = 0, bc = 0;
    while (rc == 0 && (rc = io_getline(r, &line, &len)) == 1) {
        rc = 0;
        const char *u = line;
        size_t n = len;
        utf8_strip_pyspace(&u, &n);
        if (n == 0 || u[0] == '#') continue;
        s->lines++;
        if (u[0] == '{') {
            size_t vs, ve;
            if (jsonl_value_span(u, n, s->key, &vs, &ve) != 1 || u[vs] != '"' ||
                jsonl_unescape(u + vs, ve - vs, &buf, &bl, &bc)) {
                count_reason(&s->t, "skipped", "malformed");
                if (s->malformed++ < 10)
                    fprintf(stderr, "download: warning: %s:%" PRIu64 ": no \"%s\" string in this JSON line: skipped\n",
                            io_reader_name(r), io_reader_lineno(r), s->key);
                continue;
            }
            u = buf;
            n = bl;
            utf8_strip_pyspace(&u, &n);
        }
        if (memchr(u, '\n', n) || memchr(u, '\0', n) || memchr(u, '\t', n) || n > 8192) {
            count_reason(&s->t, "skipped", "malformed");
            if (s->malformed++ < 10)
                fprintf(stderr, "download: warning: %s:%" PRIu64 ": not a URL (a control character, or over 8 KiB): skipped\n",
                        io_reader_name(r), io_reader_lineno(r));
            continue;
        }
        rc = add_url(s, u, n);
    }
    free(buf);
    io_reader_close(r);
    return rc;
}

/* ---- resuming ------------------------------------------------------------------------------- */

typedef struct {
    char *url, *file;
    int status;
    uint64_t bytes;
} prior_rec; /* a response record an earlier run wrote */

typedef struct {
    prior_rec *v;
    size_t n, cap;
    const char *file;
    int rc;
} scan_ctx;

static void on_record(void *ctx, const char *url, const char *final_url, int status, uint64_t payload_len)
{
    (void)final_url;
    scan_ctx *c = ctx;
    if (c->rc) return;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 1024;
        prior_rec *nv = realloc(c->v, cap * sizeof *nv);
        if (!nv) { c->rc = err_set(ERR_NOMEM, "out of memory"); return; }
        c->v = nv;
        c->cap = cap;
    }
    prior_rec *r = &c->v[c->n];
    r->url = strdup(url);
    r->file = strdup(c->file);
    r->status = status;
    r->bytes = payload_len;
    if (!r->url || !r->file) {
        free(r->url);
        free(r->file);
        c->rc = err_set(ERR_NOMEM, "out of memory");
        return;
    }
    c->n++;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The WARC files of earlier runs (.part ones salvaged, each file read once), the done set, the
 * log made to agree with them. *next: the number for the next file. */
static int resume(dl_state *s, unsigned *next)
{
    DIR *d = opendir(s->dir);
    if (!d) return err_sys(ERR_IO, "%s: cannot open directory", s->dir);
    char **names = NULL;
    size_t nn = 0;
    size_t pl = strlen(s->prefix);
    struct dirent *de;
    int rc = 0;
    *next = 0;
    while (rc == 0 && (de = readdir(d))) {
        const char *nm = de->d_name;
        unsigned num;
        char tail[16] = "";
        if (strncmp(nm, s->prefix, pl) || nm[pl] != '-' || sscanf(nm + pl + 1, "%5u.warc.gz%15s", &num, tail) < 1) continue;
        if (strlen(nm) != pl + 1 + 5 + 8 + strlen(tail) || (tail[0] && strcmp(tail, ".part"))) continue;
        if (num + 1 > *next) *next = num + 1;
        char **nn2 = realloc(names, (nn + 1) * sizeof *nn2);
        if (!nn2 || !(nn2[nn] = strdup(nm))) { free(nn2 ? nn2 : names); names = NULL; rc = err_set(ERR_NOMEM, "out of memory"); break; }
        names = nn2;
        nn++;
    }
    closedir(d);
    if (rc) return rc;
    if (nn) qsort(names, nn, sizeof *names, cmp_str);
    /* the response records of every file: a .part file cut after its last whole record and
     * renamed into place (or removed when nothing is left) */
    scan_ctx sc = {0};
    strset *inwarc = strset_new(), *logged = strset_new();
    if (!inwarc || !logged) rc = err_set(ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < nn; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", s->dir, names[i]);
        size_t ln = strlen(names[i]);
        int part = ln > 5 && !strcmp(names[i] + ln - 5, ".part");
        if (part) names[i][ln - 5] = 0; /* the name the records will have */
        sc.file = names[i];
        size_t before = sc.n;
        long k = warcw_scan(path, part, on_record, &sc);
        if (k < 0) { rc = (int)k; break; }
        if ((rc = sc.rc)) break;
        if (part) {
            char to[4096];
            snprintf(to, sizeof to, "%s/%s", s->dir, names[i]);
            if (k == 0 ? unlink(path) : rename(path, to)) rc = err_sys(ERR_IO, "%s: cannot finish", path);
            else if (k)
                fprintf(stderr, "download: %s: an interrupted run's file: %ld whole records kept, renamed into place\n",
                        to, k);
        }
        for (size_t j = before; rc == 0 && j < sc.n; j++)
            if (strset_add(inwarc, sc.v[j].url, strlen(sc.v[j].url)) < 0) rc = err_set(ERR_NOMEM, "out of memory");
    }
    /* the log of earlier runs, its whole lines: failed and skipped URLs are done; a fetched
     * line whose record was lost is dropped */
    char **keep = NULL;
    size_t nkeep = 0;
    char *lbuf = NULL;
    size_t lcap = 0;
    FILE *f = rc == 0 ? fopen(s->log_path, "r") : NULL;
    while (rc == 0 && f) {
        ssize_t k = getline(&lbuf, &lcap, f);
        if (k <= 0) break;
        if (lbuf[k - 1] != '\n') break; /* a line cut by the interruption */
        size_t vs, ve;
        char *u = NULL;
        size_t ul = 0, uc = 0;
        if (jsonl_value_span(lbuf, (size_t)k, "url", &vs, &ve) != 1 || lbuf[vs] != '"' ||
            jsonl_unescape(lbuf + vs, ve - vs, &u, &ul, &uc)) {
            free(u);
            continue;
        }
        int fetched_line = strstr(lbuf, "\"status\":\"fetched\"") != NULL;
        if (fetched_line && !strset_has(inwarc, u, ul)) { free(u); continue; }
        if ((!fetched_line && strset_add(s->done, u, ul) < 0) || strset_add(logged, u, ul) < 0)
            rc = err_set(ERR_NOMEM, "out of memory");
        free(u);
        char **nk = rc ? NULL : realloc(keep, (nkeep + 1) * sizeof *nk);
        if (!nk || !(nk[nkeep] = strdup(lbuf))) {
            if (nk) keep = nk;
            if (!rc) rc = err_set(ERR_NOMEM, "out of memory");
            break;
        }
        keep = nk;
        nkeep++;
    }
    if (f) fclose(f);
    free(lbuf);
    /* every URL of the WARC files is done; one without a log line (the run ended between its
     * record and its line) gets one */
    for (size_t j = 0; rc == 0 && j < sc.n; j++) {
        prior_rec *r = &sc.v[j];
        int added = strset_add(s->done, r->url, strlen(r->url));
        if (added < 0) { rc = added; break; }
        if (!added || strset_has(logged, r->url, strlen(r->url))) continue;
        s->line_len = 0;
        rc = line_add(s, "{", 1);
        if (rc == 0) rc = line_str(s, "url", r->url);
        if (rc == 0) rc = line_str(s, "status", "fetched");
        if (rc == 0) rc = line_num(s, "http", "%.0f", r->status);
        if (rc == 0) rc = line_num(s, "bytes", "%.0f", (double)r->bytes);
        if (rc == 0) rc = line_str(s, "warc", r->file);
        if (rc == 0) rc = line_str(s, "note", "recovered from the WARC file after an interrupted run");
        if (rc == 0) rc = line_add(s, "}\n", 2);
        char **nk = rc ? NULL : realloc(keep, (nkeep + 1) * sizeof *nk);
        char *l = nk ? malloc(s->line_len + 1) : NULL;
        if (nk) keep = nk;
        if (!l) { if (!rc) rc = err_set(ERR_NOMEM, "out of memory"); break; }
        memcpy(l, s->line, s->line_len);
        l[s->line_len] = 0;
        keep[nkeep++] = l;
        s->line_len = 0;
    }
    /* the log, rewritten to agree (atomically) */
    if (rc == 0 && nkeep) {
        char tmp[4200];
        snprintf(tmp, sizeof tmp, "%s.tmp", s->log_path);
        FILE *o = fopen(tmp, "w");
        if (!o) rc = err_sys(ERR_IO, "%s: cannot create", tmp);
        for (size_t i = 0; rc == 0 && i < nkeep; i++)
            if (fputs(keep[i], o) < 0) rc = err_sys(ERR_IO, "%s: write", tmp);
        if (o && (fflush(o) || fsync(fileno(o))) && rc == 0) rc = err_sys(ERR_IO, "%s: write", tmp);
        if (o && fclose(o) && rc == 0) rc = err_sys(ERR_IO, "%s: close", tmp);
        if (rc == 0 && rename(tmp, s->log_path)) rc = err_sys(ERR_IO, "rename %s -> %s", tmp, s->log_path);
    }
    for (size_t i = 0; i < nkeep; i++) free(keep[i]);
    free(keep);
    for (size_t j = 0; j < sc.n; j++) {
        free(sc.v[j].url);
        free(sc.v[j].file);
    }
    free(sc.v);
    for (size_t i = 0; i < nn; i++) free(names[i]);
    free(names);
    strset_free(logged);
    strset_free(inwarc);
    return rc;
}

/* ---- main ----------------------------------------------------------------------------------- */

static void summary(const dl_state *s, size_t nlists, unsigned files)
{
    char bb[32], note[300];
    args_fmt_bytes((double)s->bytes, bb, sizeof bb);
    snprintf(note, sizeof note,
             "%" PRIu64 " fetched now: %s into %s/, %u WARC file%s; %" PRIu64 " done by an earlier run; %zu list%s in "
             "%.1f s", s->fetched, bb, s->dir, files, files == 1 ? "" : "s", s->before, nlists, nlists == 1 ? "" : "s",
             progress_now() - s->t0);
    tally_summary(&s->t, stderr, "download", "URLs", NULL, note);
}

/* The flags into s (its defaults first). Returns -1 to go on, else the exit
 * status (--help, --version, a usage error: printed); *lists: the URL lists. */
static int parse_options(int argc, char **argv, dl_state *s, char ***lists, int *nlists)
{
    s->prefix = "download";
    s->key = "url";
    s->jobs = 64;
    s->per_host = 2;
    s->wait = 1;
    s->max_redirect = 10;
    s->tries = 3;
    s->connect_timeout = 10;
    s->timeout = 60;
    s->read_timeout = 20;
    s->retry_wait = 1;
    s->max_retry_after = 120;
    s->max_size = (uint64_t)16 << 20;
    s->warc_max_size = (uint64_t)1 << 30;
    const char *agent_default = "webtext-download/" TOOLKIT_VERSION;
    s->agent = agent_default;
    const arg_opt opts[] = {
        {"output", 'o', ARG_STR, &s->dir, "DIR", "write the WARC files and the log here (made if missing; required)"},
        {"prefix", 0, ARG_STR, &s->prefix, "NAME", "WARC files are NAME-00000.warc.gz, ... (default download)"},
        {"warc-max-size", 0, ARG_SIZE, &s->warc_max_size, "BYTES", "start a new WARC file past this size (default 1G; 0: one file)"},
        {"key", 0, ARG_STR, &s->key, "FIELD", "in JSON-lines lists, the URL's field (default url)"},
        {"connections", 'j', ARG_INT, &s->jobs, "N", "transfers at once (default 64)"},
        {"per-host", 0, ARG_INT, &s->per_host, "K", "transfers at once to one host (default 2)"},
        {"wait", 'w', ARG_DOUBLE, &s->wait, "SECONDS", "between two requests to one host (default 1; wget's --wait)"},
        {"max-redirect", 0, ARG_INT, &s->max_redirect, "N", "redirects followed (default 10)"},
        {"connect-timeout", 0, ARG_DOUBLE, &s->connect_timeout, "SECONDS", "to connect (default 10)"},
        {"timeout", 'T', ARG_DOUBLE, &s->timeout, "SECONDS", "for a whole transfer (default 60)"},
        {"read-timeout", 0, ARG_DOUBLE, &s->read_timeout, "SECONDS", "without a byte received: stalled (default 20)"},
        {"max-size", 0, ARG_SIZE, &s->max_size, "BYTES", "bodies larger than this are abandoned (default 16M)"},
        {"tries", 't', ARG_INT, &s->tries, "N", "attempts on 5xx, 429 and reset connections (default 3)"},
        {"retry-wait", 0, ARG_DOUBLE, &s->retry_wait, "SECONDS", "first back-off, doubled each try (default 1)"},
        {"max-retry-after", 0, ARG_DOUBLE, &s->max_retry_after, "SECONDS", "a longer Retry-After fails the URL (default 120)"},
        {"user-agent", 'U', ARG_STR, &s->agent, "AGENT", "the User-Agent (default webtext-download/VERSION)"},
        {"robots-agent", 0, ARG_STR, &s->robots_token, "TOKEN", "the robots.txt group to obey (default: the agent's first word)"},
        {"no-robots", 0, ARG_FLAG, &s->no_robots, NULL, "do not fetch or obey robots.txt"},
        {"no-check-certificate", 0, ARG_FLAG, &s->insecure, NULL, "do not verify TLS certificates"},
        {"log", 0, ARG_STR, &s->log_path, "FILE", "the outcome log (default DIR/NAME.log.jsonl)"},
        {NULL, 0, 0, NULL, NULL, NULL},
    };
    const arg_spec spec = {
        "download", "[OPTION]... -o DIR [URLLIST]...",
        "Fetch the URLs of the lists (one per line, plain, .gz or .zst; or JSON lines with a url field, as\n"
        "blacklist_urls writes them; none or '-' reads stdin) into WARC/1.1 files DIR/NAME-NNNNN.warc.gz,\n"
        "one gzip member per record as Common Crawl writes them: a request and a response record per page\n"
        "(2xx responses), payloads with their transfer and content codings undone (the original fields\n"
        "kept as X-Crawler-*), sha1 payload digests. Each host's robots.txt is obeyed; N transfers at once,\n"
        "K per host, WAIT seconds apart; 5xx, 429 (with Retry-After) and reset connections are retried.\n"
        "Every URL's outcome goes to the log (JSON lines: url, status fetched/failed/skipped, reason, http,\n"
        "bytes, seconds, warc). Interrupted (Ctrl-C, kill -9, a crash), the same command goes on where it\n"
        "stopped: WARC files are written as .part and renamed when complete; the next run keeps their\n"
        "whole records and fetches only what is missing.",
        opts,
        "Examples:\n"
        "  blacklist_urls urls.txt | download -o warc/\n"
        "  download -j 128 --per-host 4 --wait 0.5 urls.jsonl.zst -o warc/ && extract warc/ -o docs.jsonl.zst\n"
        "Exit status: 0 every URL ended (fetched, failed or skipped: see the log), 130 interrupted\n"
        "(run again to go on), 1 bad input, 2 usage, 3 I/O error, 4 out of memory.\n",
    };
    int rc = args_parse_main(&spec, argc, argv, lists, nlists);
    if (rc >= 0)
        return rc;
    rc = 0;
    if (!s->dir) rc = err_set(ERR_USAGE, "-o DIR is required (where the WARC files go)");
    else if (s->jobs < 1 || s->per_host < 1) rc = err_set(ERR_USAGE, "--connections and --per-host must be 1 or more");
    else if (s->tries < 1 || s->tries > 100) rc = err_set(ERR_USAGE, "--tries %lld: expected 1 to 100", s->tries);
    else if (s->max_redirect < 0) rc = err_set(ERR_USAGE, "--max-redirect %lld: expected 0 or more", s->max_redirect);
    else if (!(s->wait >= 0) || !(s->timeout > 0) || !(s->connect_timeout > 0) || !(s->read_timeout > 0) || !(s->retry_wait >= 0) ||
             !(s->max_retry_after >= 0))
        rc = err_set(ERR_USAGE, "times must be positive numbers of seconds");
    else if (!*s->prefix || strchr(s->prefix, '/')) rc = err_set(ERR_USAGE, "--prefix %s: expected a file name", s->prefix);
    if (rc) {
        fprintf(stderr, "download: %s\n", err_msg());
        free(*lists);
        return err_exit_code(rc);
    }
    if (!s->robots_token) { /* the agent's first word */
        size_t k = 0;
        while (k < sizeof s->token - 1 && ((s->agent[k] >= 'a' && s->agent[k] <= 'z') ||
                                           (s->agent[k] >= 'A' && s->agent[k] <= 'Z') || s->agent[k] == '_' ||
                                           s->agent[k] == '-'))
            k++;
        memcpy(s->token, s->agent, k);
        s->token[k] = 0;
        s->robots_token = s->token;
    }
    if (!s->log_path) {
        snprintf(s->logbuf, sizeof s->logbuf, "%s/%s.log.jsonl", s->dir, s->prefix);
        s->log_path = s->logbuf;
    }
    return -1;
}

/* The output directory, made if missing, and its lock: one run at a time per
 * output (a second one would interleave its records with ours). */
static int lock_output(const dl_state *s, int *lock_fd)
{
    if (mkdir(s->dir, 0755) && errno != EEXIST)
        return err_sys(ERR_IO, "%s: cannot make the directory", s->dir);
    char lp[4200];
    snprintf(lp, sizeof lp, "%s/.%s.lock", s->dir, s->prefix);
    *lock_fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (*lock_fd < 0)
        return err_sys(ERR_IO, "%s: cannot create", lp);
    if (flock(*lock_fd, LOCK_EX | LOCK_NB))
        return err_set(ERR_USAGE, "%s: another download is writing into %s (its lock %s is held)", s->dir, s->dir, lp);
    return 0;
}

/* What this run does: the URLs not done by an earlier run; duplicates skipped (and logged). */
static int plan(dl_state *s)
{
    int rc = 0;
    if (!(s->want = calloc(s->n + 1, 1)))
        return err_set(ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < s->n; i++) {
        size_t ul = strlen(s->urls[i]);
        if (strset_has(s->done, s->urls[i], ul)) { s->before++; tally_keep(&s->t); continue; }
        int fresh = strset_add(s->seen, s->urls[i], ul);
        if (fresh < 0) { rc = fresh; break; }
        if (fresh) { s->want[i] = 1; s->to_fetch++; continue; }
        fetch_result r = {0};
        r.idx = i;
        r.url = s->urls[i];
        r.outcome = FETCH_SKIPPED;
        r.reason = "duplicate";
        rc = on_done(s, &r);
    }
    return rc;
}

/* Every wanted URL through libcurl (fetch.c), until done or a signal: 1 when stopped. */
static int fetch_all(dl_state *s)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    s->show = !args_quiet_flag && !getenv("NO_PROGRESS") && isatty(2);
    fetch_opts o = {0};
    o.jobs = (long)s->jobs;
    o.per_host = (long)s->per_host;
    o.max_redirects = (long)s->max_redirect;
    o.retries = (long)s->tries - 1;
    o.wait = s->wait;
    o.connect_timeout = s->connect_timeout;
    o.timeout = s->timeout;
    o.stall = s->read_timeout;
    o.retry_wait = s->retry_wait;
    o.max_retry_after = s->max_retry_after;
    o.max_crawl_delay = 30;
    o.max_size = s->max_size;
    o.agent = s->agent;
    o.robots_token = s->robots_token;
    o.robots = !s->no_robots;
    o.insecure = s->insecure;
    int rc = fetch_run(&o, s->urls, s->want, s->n, on_done, on_tick, s, &stop_flag);
    if (s->show)
        fprintf(stderr, "\r\x1b[K");
    return rc;
}

/* The finished WARC files of the prefix in the directory. */
static unsigned count_warc_files(const dl_state *s)
{
    unsigned files = 0;
    DIR *d = opendir(s->dir);
    struct dirent *de;
    size_t pl = strlen(s->prefix);
    while (d && (de = readdir(d)))
        if (!strncmp(de->d_name, s->prefix, pl) && strstr(de->d_name, ".warc.gz") &&
            !strcmp(de->d_name + strlen(de->d_name) - 8, ".warc.gz"))
            files++;
    if (d) closedir(d);
    return files;
}

static void dl_state_free(dl_state *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->urls[i]);
    free(s->urls);
    free(s->want);
    free(s->line);
    free(s->esc);
    strset_free(s->done);
    strset_free(s->seen);
}

int main(int argc, char **argv)
{
    static dl_state s;
    char **lists;
    int nl;
    int rc = parse_options(argc, argv, &s, &lists, &nl);
    if (rc >= 0)
        return rc;
    int lock_fd = -1, stopped = 0;
    rc = lock_output(&s, &lock_fd);
    size_t nlists = nl ? (size_t)nl : 1;
    for (int i = 0; rc == 0 && i < (nl ? nl : 1); i++)
        rc = read_list(&s, nl ? lists[i] : "-");
    free(lists);
    s.t0 = progress_now();
    s.done = strset_new();
    s.seen = strset_new();
    if (rc == 0 && (!s.done || !s.seen))
        rc = err_set(ERR_NOMEM, "out of memory");
    unsigned first = 0;
    if (rc == 0)
        rc = resume(&s, &first); /* what earlier runs wrote */
    if (rc == 0 && !(s.log = fopen(s.log_path, "a")))
        rc = err_sys(ERR_IO, "%s: cannot open", s.log_path);
    if (rc == 0)
        rc = plan(&s);
    char software[64];
    snprintf(software, sizeof software, "webtext download %s (libcurl %s)", TOOLKIT_VERSION,
             curl_version_info(CURLVERSION_NOW)->version);
    if (rc == 0)
        rc = warcw_open(&s.w, s.dir, s.prefix, first, s.warc_max_size, software, s.agent, !s.no_robots);
    if (rc == 0 && (rc = fetch_all(&s)) == 1)
        stopped = 1, rc = 0;
    if (s.w) {
        int crc = rc == 0 ? warcw_close(s.w) : (warcw_abandon(s.w), 0);
        if (rc == 0)
            rc = crc;
    }
    if (s.log && fclose(s.log) && rc == 0)
        rc = err_sys(ERR_IO, "%s: close", s.log_path);
    if (rc == 0 && !args_quiet_flag) {
        summary(&s, nlists, count_warc_files(&s));
        if (stopped)
            fprintf(stderr, "download: interrupted: run the same command again to fetch the rest\n");
    }
    if (rc < 0)
        fprintf(stderr, "download: %s\n", err_msg());
    if (lock_fd >= 0)
        close(lock_fd);
    dl_state_free(&s);
    if (rc < 0)
        return err_exit_code(rc);
    return stopped ? 130 : 0;
}

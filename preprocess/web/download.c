/* download.c - a URL list fetched into WARC files (download.h): the outcome log, the lists,
 * resuming after an interrupted run, the plan, and the fetch through fetch.c. */
#include "common/args.h"
#include "common/err.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/progress.h"
#include "common/utf8.h"
#include "preprocess/web/download.h"
#include "preprocess/web/fetch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the log ------------------------------------------------------------------------------ */

static int line_add(download_state *s, const char *txt, size_t n)
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
static int line_str(download_state *s, const char *key, const char *v)
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

static int line_num(download_state *s, const char *key, const char *fmt, double v)
{
    char b[96];
    int k = snprintf(b, sizeof b, "%s\"%s\":", s->line_len > 1 ? "," : "", key);
    k += snprintf(b + k, sizeof b - (size_t)k, fmt, v);
    return line_add(s, b, (size_t)k);
}

static int log_line(download_state *s)
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
    download_state *s = ctx;
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
    download_state *s = ctx;
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

static int add_url(download_state *s, const char *u, size_t n)
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

int download_read_list(download_state *s, const char *path)
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

/* What resuming gathers: the WARC files of earlier runs, their response records, the URLs
 * in them and in the log, and the log's lines to keep. */
typedef struct {
    char **names;        /* NAME-NNNNN.warc.gz[.part], sorted */
    size_t nn;
    scan_ctx sc;         /* their response records */
    strset *inwarc, *logged;
    char **keep;         /* the log's lines, rewritten to agree with the files */
    size_t nkeep;
} resume_ctx;

static void resume_free(resume_ctx *c)
{
    for (size_t i = 0; i < c->nkeep; i++) free(c->keep[i]);
    free(c->keep);
    for (size_t j = 0; j < c->sc.n; j++) {
        free(c->sc.v[j].url);
        free(c->sc.v[j].file);
    }
    free(c->sc.v);
    for (size_t i = 0; i < c->nn; i++) free(c->names[i]);
    free(c->names);
    strset_free(c->logged);
    strset_free(c->inwarc);
}

/* The prefix's WARC files in the output directory, sorted; *next: the number after the last. */
static int list_warc_files(const download_state *s, resume_ctx *c, unsigned *next)
{
    DIR *d = opendir(s->dir);
    if (!d) return err_sys(ERR_IO, "%s: cannot open directory", s->dir);
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
        char **nn2 = realloc(c->names, (c->nn + 1) * sizeof *nn2);
        if (nn2) c->names = nn2;
        if (!nn2 || !(nn2[c->nn] = strdup(nm))) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
        c->nn++;
    }
    closedir(d);
    if (rc == 0 && c->nn) qsort(c->names, c->nn, sizeof *c->names, cmp_str);
    return rc;
}

/* The response records of every file: a .part file cut after its last whole record and
 * renamed into place (or removed when nothing is left). */
static int scan_warc_files(const download_state *s, resume_ctx *c)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < c->nn; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", s->dir, c->names[i]);
        size_t ln = strlen(c->names[i]);
        int part = ln > 5 && !strcmp(c->names[i] + ln - 5, ".part");
        if (part) c->names[i][ln - 5] = 0; /* the name the records will have */
        c->sc.file = c->names[i];
        size_t before = c->sc.n;
        long k = warcw_scan(path, part, on_record, &c->sc);
        if (k < 0) return (int)k;
        if ((rc = c->sc.rc)) break;
        if (part) {
            char to[4096];
            snprintf(to, sizeof to, "%s/%s", s->dir, c->names[i]);
            if (k == 0 ? unlink(path) : rename(path, to)) rc = err_sys(ERR_IO, "%s: cannot finish", path);
            else if (k)
                fprintf(stderr, "download: %s: an interrupted run's file: %ld whole records kept, renamed into place\n",
                        to, k);
        }
        for (size_t j = before; rc == 0 && j < c->sc.n; j++)
            if (strset_add(c->inwarc, c->sc.v[j].url, strlen(c->sc.v[j].url)) < 0) rc = err_set(ERR_NOMEM, "out of memory");
    }
    return rc;
}

static int keep_line(resume_ctx *c, char *line)
{
    char **nk = line ? realloc(c->keep, (c->nkeep + 1) * sizeof *nk) : NULL;
    if (!nk) { free(line); return err_set(ERR_NOMEM, "out of memory"); }
    c->keep = nk;
    c->keep[c->nkeep++] = line;
    return 0;
}

/* The log of earlier runs, its whole lines: failed and skipped URLs are done; a fetched line
 * whose record was lost is dropped. */
static int read_log(download_state *s, resume_ctx *c)
{
    int rc = 0;
    char *lbuf = NULL;
    size_t lcap = 0;
    FILE *f = fopen(s->log_path, "r");
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
        if (fetched_line && !strset_has(c->inwarc, u, ul)) { free(u); continue; }
        if ((!fetched_line && strset_add(s->done, u, ul) < 0) || strset_add(c->logged, u, ul) < 0)
            rc = err_set(ERR_NOMEM, "out of memory");
        free(u);
        if (rc == 0) rc = keep_line(c, strdup(lbuf));
    }
    if (f) fclose(f);
    free(lbuf);
    return rc;
}

/* Every URL of the WARC files is done; one without a log line (the run ended between its
 * record and its line) gets one. */
static int recover_lines(download_state *s, resume_ctx *c)
{
    int rc = 0;
    for (size_t j = 0; rc == 0 && j < c->sc.n; j++) {
        prior_rec *r = &c->sc.v[j];
        int added = strset_add(s->done, r->url, strlen(r->url));
        if (added < 0) return added;
        if (!added || strset_has(c->logged, r->url, strlen(r->url))) continue;
        s->line_len = 0;
        rc = line_add(s, "{", 1);
        if (rc == 0) rc = line_str(s, "url", r->url);
        if (rc == 0) rc = line_str(s, "status", "fetched");
        if (rc == 0) rc = line_num(s, "http", "%.0f", r->status);
        if (rc == 0) rc = line_num(s, "bytes", "%.0f", (double)r->bytes);
        if (rc == 0) rc = line_str(s, "warc", r->file);
        if (rc == 0) rc = line_str(s, "note", "recovered from the WARC file after an interrupted run");
        if (rc == 0) rc = line_add(s, "}\n", 2);
        if (rc == 0) rc = keep_line(c, strndup(s->line, s->line_len));
        s->line_len = 0;
    }
    return rc;
}

/* The log, rewritten to agree (atomically). */
static int rewrite_log(const download_state *s, const resume_ctx *c)
{
    if (!c->nkeep) return 0;
    int rc = 0;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", s->log_path);
    FILE *o = fopen(tmp, "w");
    if (!o) return err_sys(ERR_IO, "%s: cannot create", tmp);
    for (size_t i = 0; rc == 0 && i < c->nkeep; i++)
        if (fputs(c->keep[i], o) < 0) rc = err_sys(ERR_IO, "%s: write", tmp);
    if ((fflush(o) || fsync(fileno(o))) && rc == 0) rc = err_sys(ERR_IO, "%s: write", tmp);
    if (fclose(o) && rc == 0) rc = err_sys(ERR_IO, "%s: close", tmp);
    if (rc == 0 && rename(tmp, s->log_path)) rc = err_sys(ERR_IO, "rename %s -> %s", tmp, s->log_path);
    return rc;
}

int download_resume(download_state *s, unsigned *next)
{
    resume_ctx c = {0};
    int rc = list_warc_files(s, &c, next);
    if (rc == 0 && (!(c.inwarc = strset_new()) || !(c.logged = strset_new()))) rc = err_set(ERR_NOMEM, "out of memory");
    if (rc == 0) rc = scan_warc_files(s, &c);
    if (rc == 0) rc = read_log(s, &c);
    if (rc == 0) rc = recover_lines(s, &c);
    if (rc == 0) rc = rewrite_log(s, &c);
    resume_free(&c);
    return rc;
}

/* The output directory, made if missing, and its lock: one run at a time per
 * output (a second one would interleave its records with ours). */
int download_lock_output(const download_state *s, int *lock_fd)
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
int download_plan(download_state *s)
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
int download_fetch(download_state *s, volatile sig_atomic_t *stop)
{
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
    int rc = fetch_run(&o, s->urls, s->want, s->n, on_done, on_tick, s, stop);
    if (s->show)
        fprintf(stderr, "\r\x1b[K");
    return rc;
}

/* The finished WARC files of the prefix in the directory. */
unsigned download_count_warc_files(const download_state *s)
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

void download_state_free(download_state *s)
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


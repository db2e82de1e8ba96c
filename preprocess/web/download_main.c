/* download_main.c - fetch a URL list into WARC files, politely, resumably: the options, the
 * steps of a run (lock, read the lists, resume, plan, fetch) and the summary; the work is
 * preprocess/web/download.c over fetch.c and warcwrite.c. */
#include "common/args.h"
#include "common/err.h"
#include "common/progress.h"
#include "common/tally.h"
#include "common/version.h"
#include "preprocess/web/download.h"

#include <curl/curl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig) { (void)sig; stop_flag = 1; }

static void summary(const download_state *s, size_t nlists, unsigned files)
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
static int parse_options(int argc, char **argv, download_state *s, char ***lists, int *nlists)
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

/* The fetch, Ctrl-C and SIGTERM ending it cleanly (1: stopped). */
static int fetch_signals(download_state *s)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    s->show = !args_quiet_flag && !getenv("NO_PROGRESS") && isatty(2);
    return download_fetch(s, &stop_flag);
}

int main(int argc, char **argv)
{
    static download_state s;
    char **lists;
    int nl;
    int rc = parse_options(argc, argv, &s, &lists, &nl);
    if (rc >= 0)
        return rc;
    int lock_fd = -1, stopped = 0;
    rc = download_lock_output(&s, &lock_fd);
    size_t nlists = nl ? (size_t)nl : 1;
    for (int i = 0; rc == 0 && i < (nl ? nl : 1); i++)
        rc = download_read_list(&s, nl ? lists[i] : "-");
    free(lists);
    s.t0 = progress_now();
    s.done = strset_new();
    s.seen = strset_new();
    if (rc == 0 && (!s.done || !s.seen))
        rc = err_set(ERR_NOMEM, "out of memory");
    unsigned first = 0;
    if (rc == 0)
        rc = download_resume(&s, &first); /* what earlier runs wrote */
    if (rc == 0 && !(s.log = fopen(s.log_path, "a")))
        rc = err_sys(ERR_IO, "%s: cannot open", s.log_path);
    if (rc == 0)
        rc = download_plan(&s);
    char software[64];
    snprintf(software, sizeof software, "webtext download %s (libcurl %s)", TOOLKIT_VERSION,
             curl_version_info(CURLVERSION_NOW)->version);
    if (rc == 0)
        rc = warcw_open(&s.w, s.dir, s.prefix, first, s.warc_max_size, software, s.agent, !s.no_robots);
    if (rc == 0 && (rc = fetch_signals(&s)) == 1)
        stopped = 1, rc = 0;
    if (s.w) {
        int crc = rc == 0 ? warcw_close(s.w) : (warcw_abandon(s.w), 0);
        if (rc == 0)
            rc = crc;
    }
    if (s.log && fclose(s.log) && rc == 0)
        rc = err_sys(ERR_IO, "%s: close", s.log_path);
    if (rc == 0 && !args_quiet_flag) {
        summary(&s, nlists, download_count_warc_files(&s));
        if (stopped)
            fprintf(stderr, "download: interrupted: run the same command again to fetch the rest\n");
    }
    if (rc < 0)
        fprintf(stderr, "download: %s\n", err_msg());
    if (lock_fd >= 0)
        close(lock_fd);
    download_state_free(&s);
    if (rc < 0)
        return err_exit_code(rc);
    return stopped ? 130 : 0;
}

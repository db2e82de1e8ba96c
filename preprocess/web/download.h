/* download.h - a URL list fetched into WARC files, politely and resumably: the library
 * behind download_main.c, over fetch.h (libcurl: connections, hosts, robots.txt, retries)
 * and warcwrite.h (WARC/1.1 files written as .part, renamed when complete).
 *
 * The run's state is its output directory: the finished WARC files, at most one .part file
 * per interrupted run, and the log of every URL's outcome (JSON lines). Started again with
 * the same arguments, download_resume salvages the .part files (cut after their last whole
 * record, then renamed into place), takes as done every URL that has a response record or a
 * failed / skipped line in the log, rewrites the log to agree with the WARC files, and
 * download_plan leaves the rest to fetch. */
#ifndef PREPROCESS_WEB_DOWNLOAD_H
#define PREPROCESS_WEB_DOWNLOAD_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "common/strset.h"
#include "common/tally.h"
#include "preprocess/web/warcwrite.h"

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
} download_state;

/* Read one URL list (plain, .gz, .zst; "-": stdin): a URL a line, or JSON lines with the URL
 * in s->key; malformed lines are counted as skipped/malformed. */
int download_read_list(download_state *s, const char *path);
/* Make the output directory if missing and take its lock (one run at a time per output):
 * *lock_fd to close at the end. */
int download_lock_output(const download_state *s, int *lock_fd);
/* What earlier runs wrote: the WARC files (.part ones salvaged), the done set, the log made
 * to agree with them. *next: the number for the next WARC file. */
int download_resume(download_state *s, unsigned *next);
/* What this run does: the URLs not done by an earlier run; duplicates skipped (and logged). */
int download_plan(download_state *s);
/* Every wanted URL through libcurl until done or *stop is set: 0, 1 when stopped, or ERR_*. */
int download_fetch(download_state *s, volatile sig_atomic_t *stop);
/* The finished WARC files of the prefix in the output directory. */
unsigned download_count_warc_files(const download_state *s);
void download_state_free(download_state *s);

#endif

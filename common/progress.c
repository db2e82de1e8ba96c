/* progress.c - see progress.h. */
#include "progress.h"
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>



struct progress {
    char label[64];
    char unit[24];
    uint64_t total;
    double start, last;
    unsigned calls;
};

double progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

progress *progress_new(const char *label, const char *unit, uint64_t total_bytes)
{
    if (args_quiet_flag || getenv("NO_PROGRESS") || !isatty(2)) return NULL;
    progress *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    snprintf(p->label, sizeof p->label, "%s", label);
    snprintf(p->unit, sizeof p->unit, "%s", unit);
    p->total = total_bytes;
    p->start = p->last = progress_now();
    return p;
}

void progress_phase(progress *p, const char *label, uint64_t total_bytes)
{
    if (!p) return;
    snprintf(p->label, sizeof p->label, "%s", label);
    p->total = total_bytes;
    p->start = p->last = progress_now();
}

static void fmt_count(double v, char *b, size_t n)
{
    if (v >= 1e9) snprintf(b, n, "%.2fG", v / 1e9);
    else if (v >= 1e6) snprintf(b, n, "%.2fM", v / 1e6);
    else if (v >= 1e4) snprintf(b, n, "%.1fk", v / 1e3);
    else snprintf(b, n, "%.0f", v);
}

void progress_update(progress *p, uint64_t items, uint64_t bytes)
{
    if (!p) return;
    if ((p->calls++ & 4095) != 0 && items > 4096) return;
    double now = progress_now();
    if (now - p->last < 0.25) return;
    p->last = now;
    double el = now - p->start;
    char ib[32], eta[48] = "";
    fmt_count((double)items, ib, sizeof ib);
    double mbs = el > 0 ? (double)bytes / 1e6 / el : 0;
    if (p->total && bytes && bytes <= p->total) {
        double rest = el * (double)(p->total - bytes) / (double)bytes;
        snprintf(eta, sizeof eta, " %3.0f%% ETA %d:%02d", 100.0 * (double)bytes / (double)p->total, (int)rest / 60,
                 (int)rest % 60);
    }
    fprintf(stderr, "\r\033[K%s: %s %s, %.1f MB, %.1f MB/s%s", p->label, ib, p->unit, (double)bytes / 1e6, mbs, eta);
    fflush(stderr);
}

void progress_done(progress *p)
{
    if (!p) return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
    free(p);
}

/* extsort.c - see extsort.h. */
#define _GNU_SOURCE
#include "common/extsort.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/err.h"
#include "common/fault.h"
#include "common/io.h"

static inline int rec_lt(const xs_rec *x, const xs_rec *y)
{
    return x->a < y->a || (x->a == y->a && x->b < y->b);
}

static void insertion(xs_rec *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        xs_rec t = v[i];
        size_t j = i;
        while (j > 0 && rec_lt(&t, &v[j - 1])) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = t;
    }
}

static void sift(xs_rec *v, size_t n, size_t i)
{
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && rec_lt(&v[c], &v[c + 1])) c++;
        if (!rec_lt(&v[i], &v[c])) return;
        xs_rec t = v[i];
        v[i] = v[c];
        v[c] = t;
        i = c;
    }
}

static void heapsort_recs(xs_rec *v, size_t n)
{
    for (size_t i = n / 2; i-- > 0;) sift(v, n, i);
    for (size_t e = n; e-- > 1;) {
        xs_rec t = v[0];
        v[0] = v[e];
        v[e] = t;
        sift(v, e, 0);
    }
}

static void introsort(xs_rec *v, size_t n, int depth)
{
    while (n > 24) {
        if (depth-- == 0) {
            heapsort_recs(v, n);
            return;
        }
        /* median of three as the pivot */
        xs_rec *a = v, *b = v + n / 2, *c = v + n - 1, *m;
        if (rec_lt(a, b)) m = rec_lt(b, c) ? b : rec_lt(a, c) ? c : a;
        else m = rec_lt(a, c) ? a : rec_lt(b, c) ? c : b;
        xs_rec p = *m;
        size_t i = 0, j = n - 1;
        for (;;) {
            while (rec_lt(&v[i], &p)) i++;
            while (rec_lt(&p, &v[j])) j--;
            if (i >= j) break;
            xs_rec t = v[i];
            v[i] = v[j];
            v[j] = t;
            i++;
            j--;
        }
        /* [0, j] <= p <= [j+1, n): recurse on the smaller side */
        size_t left = j + 1;
        if (left < n - left) {
            introsort(v, left, depth);
            v += left;
            n -= left;
        } else {
            introsort(v + left, n - left, depth);
            n = left;
        }
    }
    insertion(v, n);
}

void xs_sort(xs_rec *v, size_t n)
{
    int depth = 0;
    for (size_t k = n; k > 1; k >>= 1) depth += 2;
    introsort(v, n, depth + 2);
}

/* ---- merge ---------------------------------------------------------------- */

typedef struct {
    int fd;            /* -1: the records are all in buf (memory) */
    uint64_t off, left; /* file position and records not yet read */
    xs_rec *buf;
    size_t pos, n, cap;
} source;

struct xs_merge {
    source *src;
    size_t nsrc;
    size_t *heap, nheap;
    int unique, have_last;
    xs_rec last;
};

static int refill(source *s)
{
    if (s->fd < 0 || !s->left) {
        s->n = s->pos = 0;
        return 0;
    }
    size_t want = s->left < s->cap ? (size_t)s->left : s->cap;
    size_t bytes = want * sizeof(xs_rec), got = 0;
    while (got < bytes) {
        ssize_t r = fault_pread(s->fd, (char *)s->buf + got, bytes - got, (off_t)(s->off + got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return err_sys(ERR_IO, "reading a sorted run");
        if (r == 0) return err_set(ERR_IO, "a sorted run ends early");
        got += (size_t)r;
    }
    s->off += bytes;
    s->left -= want;
    s->n = want;
    s->pos = 0;
    return 0;
}

static inline int src_lt(const xs_merge *m, size_t x, size_t y)
{
    const source *a = &m->src[x], *b = &m->src[y];
    return rec_lt(&a->buf[a->pos], &b->buf[b->pos]) ||
           (!rec_lt(&b->buf[b->pos], &a->buf[a->pos]) && x < y);
}

static void heap_down(xs_merge *m, size_t i)
{
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= m->nheap) return;
        if (c + 1 < m->nheap && src_lt(m, m->heap[c + 1], m->heap[c])) c++;
        if (!src_lt(m, m->heap[c], m->heap[i])) return;
        size_t t = m->heap[i];
        m->heap[i] = m->heap[c];
        m->heap[c] = t;
        i = c;
    }
}

static int merge_init(xs_merge *m)
{
    m->heap = malloc((m->nsrc ? m->nsrc : 1) * sizeof *m->heap);
    if (!m->heap) return err_set(ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < m->nsrc; i++) {
        source *s = &m->src[i];
        if (s->fd >= 0) {
            int rc = refill(s);
            if (rc) return rc;
        }
        if (s->n) m->heap[m->nheap++] = i;
    }
    for (size_t i = m->nheap / 2; i-- > 0;) heap_down(m, i);
    return 0;
}

static int merge_next(xs_merge *m, xs_rec *r)
{
    for (;;) {
        if (!m->nheap) return 0;
        source *s = &m->src[m->heap[0]];
        *r = s->buf[s->pos++];
        if (s->pos == s->n) {
            int rc = refill(s);
            if (rc) return rc;
            if (!s->n) m->heap[0] = m->heap[--m->nheap];
        }
        heap_down(m, 0);
        if (m->unique && m->have_last && r->a == m->last.a && r->b == m->last.b) continue;
        m->last = *r;
        m->have_last = 1;
        return 1;
    }
}

static void merge_release(xs_merge *m)
{
    for (size_t i = 0; i < m->nsrc; i++)
        if (m->src[i].fd >= 0) free(m->src[i].buf);
    free(m->src);
    free(m->heap);
}

int xs_merge_new(xs_merge **out, const xs_run *runs, size_t n, size_t buf_bytes, int unique)
{
    xs_merge *m = calloc(1, sizeof *m);
    if (!m) return err_set(ERR_NOMEM, "out of memory");
    m->unique = unique;
    m->src = calloc(n ? n : 1, sizeof *m->src);
    if (!m->src) {
        free(m);
        return err_set(ERR_NOMEM, "out of memory");
    }
    size_t cap = buf_bytes / sizeof(xs_rec);
    if (cap < 256) cap = 256;
    m->nsrc = n;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        m->src[i] = (source){.fd = runs[i].fd, .off = runs[i].off, .left = runs[i].n, .cap = cap};
        if (!(m->src[i].buf = malloc(cap * sizeof(xs_rec)))) {
            for (size_t k = i + 1; k < n; k++) m->src[k].fd = -1;
            rc = err_set(ERR_NOMEM, "out of memory");
            break;
        }
    }
    if (!rc) rc = merge_init(m);
    if (rc) {
        merge_release(m);
        free(m);
        return rc;
    }
    *out = m;
    return 0;
}

int xs_merge_next(xs_merge *m, xs_rec *r) { return merge_next(m, r); }

void xs_merge_free(xs_merge *m)
{
    if (!m) return;
    merge_release(m);
    free(m);
}

/* ---- sorter --------------------------------------------------------------- */

struct xs_sorter {
    size_t mem, cap, n;
    xs_rec *buf;
    char *tmpdir;
    int fd, unique, finished;
    uint64_t *run_off, *run_n, file_end;
    size_t nruns, runs_cap;
    uint64_t added;
    xs_merge m;
};

int xs_new(xs_sorter **out, size_t mem, const char *tmpdir, int unique)
{
    if (mem < 1024) mem = 1024;
    xs_sorter *s = calloc(1, sizeof *s);
    if (!s) return err_set(ERR_NOMEM, "out of memory");
    if (!tmpdir) tmpdir = getenv("TMPDIR");
    if (!tmpdir || !*tmpdir) tmpdir = "/tmp";
    s->tmpdir = strdup(tmpdir);
    s->mem = mem;
    s->cap = mem / 4 * 3 / sizeof(xs_rec);
    s->fd = -1;
    s->unique = unique;
    s->buf = malloc(s->cap * sizeof(xs_rec));
    if (!s->tmpdir || !s->buf) {
        xs_free(s);
        return err_set(ERR_NOMEM, "out of memory (a sort buffer of %zu MB)", mem >> 20);
    }
    *out = s;
    return 0;
}

/* n sorted records without repeats (when unique) */
static size_t sort_buf(xs_sorter *s)
{
    xs_sort(s->buf, s->n);
    if (!s->unique || s->n < 2) return s->n;
    size_t u = 1;
    for (size_t i = 1; i < s->n; i++)
        if (s->buf[i].a != s->buf[u - 1].a || s->buf[i].b != s->buf[u - 1].b) s->buf[u++] = s->buf[i];
    return u;
}

static int spill(xs_sorter *s)
{
    s->n = sort_buf(s);
    if (s->fd < 0) {
        s->fd = io_anon_tmpfile(s->tmpdir);
        if (s->fd < 0) return s->fd;
    }
    if (s->nruns == s->runs_cap) {
        size_t nc = s->runs_cap ? s->runs_cap * 2 : 16;
        uint64_t *o = realloc(s->run_off, nc * sizeof *o);
        if (!o) return err_set(ERR_NOMEM, "out of memory");
        s->run_off = o;
        uint64_t *c = realloc(s->run_n, nc * sizeof *c);
        if (!c) return err_set(ERR_NOMEM, "out of memory");
        s->run_n = c;
        s->runs_cap = nc;
    }
    size_t bytes = s->n * sizeof(xs_rec), done = 0;
    while (done < bytes) {
        ssize_t w = fault_pwrite(s->fd, (char *)s->buf + done, bytes - done, (off_t)(s->file_end + done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return err_sys(ERR_IO, "%s: writing a sorted run", s->tmpdir);
        done += (size_t)w;
    }
    s->run_off[s->nruns] = s->file_end;
    s->run_n[s->nruns++] = s->n;
    s->file_end += bytes;
    s->n = 0;
    return 0;
}

int xs_add(xs_sorter *s, uint64_t a, uint64_t b)
{
    if (s->n == s->cap) {
        int rc = spill(s);
        if (rc) return rc;
    }
    s->buf[s->n++] = (xs_rec){a, b};
    s->added++;
    return 0;
}

int xs_finish(xs_sorter *s)
{
    s->n = sort_buf(s);
    s->finished = 1;
    size_t n = s->nruns + 1;
    s->m.unique = s->unique;
    s->m.src = calloc(n, sizeof *s->m.src);
    if (!s->m.src) return err_set(ERR_NOMEM, "out of memory");
    s->m.nsrc = n;
    /* the runs share the last quarter of the memory */
    size_t cap = s->nruns ? s->mem / 4 / sizeof(xs_rec) / s->nruns : 0;
    if (cap < 256) cap = 256;
    for (size_t i = 0; i < s->nruns; i++) {
        s->m.src[i] = (source){.fd = s->fd, .off = s->run_off[i], .left = s->run_n[i], .cap = cap};
        if (!(s->m.src[i].buf = malloc(cap * sizeof(xs_rec)))) {
            for (size_t k = i + 1; k < n; k++) s->m.src[k].fd = -1;
            return err_set(ERR_NOMEM, "out of memory");
        }
    }
    s->m.src[s->nruns] = (source){.fd = -1, .buf = s->buf, .n = s->n};
    return merge_init(&s->m);
}

int xs_next(xs_sorter *s, xs_rec *r) { return merge_next(&s->m, r); }

void xs_get_stats(const xs_sorter *s, xs_stats *st)
{
    st->added = s->added;
    st->runs = s->nruns;
    st->spilled_bytes = s->file_end;
}

void xs_free(xs_sorter *s)
{
    if (!s) return;
    if (s->finished) merge_release(&s->m);
    if (s->fd >= 0) close(s->fd);
    free(s->buf);
    free(s->tmpdir);
    free(s->run_off);
    free(s->run_n);
    free(s);
}

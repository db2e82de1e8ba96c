/* extshuf.c - see extshuf.h.
 *
 * Bucket file record: uint64 key, uint64 length, then the line's bytes
 * (native byte order: these files never outlive the process).
 * In-memory cost per line: its bytes plus ENTRY_COST. The bound is approximate
 * (within a few percent): the in-memory set fills at most 3/4 of it, so that
 * when it spills, the bucket write buffers (1/4 of it, but at least 4 KiB
 * each, at most 4096 of them: below 64M they may exceed it) fit beside it.
 * tests/e2e/test_memory.sh measures the peak resident size against it.
 */
#include "preprocess/shuffle/extshuf.h"
#include "common/fault.h"

#include "common/err.h"
#include "common/hash.h"
#include "common/progress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define ENTRY_COST 64u /* entry + sort scratch + on-disk header, per line */
#define MAX_BUCKETS 4096u

typedef struct {
    uint64_t key;
    const char *p;
    uint64_t len;
} entry;

typedef struct chunk {
    struct chunk *next;
    size_t cap, used;
    char data[];
} chunk;

typedef struct {
    int fd;
    char *buf;
    size_t cap, len;
    uint64_t bytes, count; /* record bytes on disk, records */
} bucket;

typedef struct {
    const extshuf_opts *o;
    io_writer *out;
    extshuf_stats *st;
    progress *pg;
    uint64_t written;
    /* in-memory set */
    chunk *chunks;
    entry *ents;
    size_t n_ents, cap_ents;
    uint64_t mem_used;
    unsigned max_buckets;
} shuf;

uint64_t extshuf_key(uint64_t seed, uint64_t i) { return hash_mix64(i + hash_mix64(seed)); }

static unsigned fd_budget(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        if (rl.rlim_cur < rl.rlim_max) {
            rl.rlim_cur = rl.rlim_max;
            setrlimit(RLIMIT_NOFILE, &rl);
            getrlimit(RLIMIT_NOFILE, &rl);
        }
        uint64_t n = rl.rlim_cur > 128 ? rl.rlim_cur - 64 : 64;
        unsigned b = 2;
        while ((uint64_t)b * 2 <= n && b * 2 <= MAX_BUCKETS) b *= 2;
        return b;
    }
    return 256;
}

static void free_mem(shuf *s)
{
    while (s->chunks) {
        chunk *c = s->chunks;
        s->chunks = c->next;
        free(c);
    }
    free(s->ents);
    s->ents = NULL;
    s->n_ents = s->cap_ents = 0;
    s->mem_used = 0;
}

/* Copy a line into the arena and index it. */
static int mem_add(shuf *s, uint64_t key, const char *p, size_t len)
{
    if (!s->chunks || s->chunks->cap - s->chunks->used < len) {
        size_t cap = s->o->memory / 16;
        if (cap < (1u << 16)) cap = 1u << 16;
        if (cap > (64u << 20)) cap = 64u << 20;
        if (cap < len) cap = len;
        chunk *c = malloc(sizeof *c + cap);
        if (!c) return err_set(ERR_NOMEM, "out of memory (lower --memory)");
        c->cap = cap;
        c->used = 0;
        c->next = s->chunks;
        s->chunks = c;
        s->mem_used += cap;
    }
    if (s->n_ents == s->cap_ents) {
        size_t nc = s->cap_ents ? s->cap_ents * 2 : 4096;
        entry *ne = realloc(s->ents, nc * sizeof *ne);
        if (!ne) return err_set(ERR_NOMEM, "out of memory (lower --memory)");
        s->ents = ne;
        s->cap_ents = nc;
    }
    char *dst = s->chunks->data + s->chunks->used;
    memcpy(dst, p, len);
    s->chunks->used += len;
    s->ents[s->n_ents++] = (entry){ key, dst, len };
    s->mem_used += ENTRY_COST;
    return 0;
}

static int cmp_entry(const void *a, const void *b)
{
    uint64_t x = ((const entry *)a)->key, y = ((const entry *)b)->key;
    return x < y ? -1 : x > y;
}

/* Sort by key: one counting pass on 16 key bits below `shift` bits already
 * shared by every key here, then a small sort of each (tiny) group. */
static int sort_entries(entry *e, size_t n, int shift)
{
    if (n < 2) return 0;
    if (n < 1024) {
        qsort(e, n, sizeof *e, cmp_entry);
        return 0;
    }
    entry *tmp = malloc(n * sizeof *tmp);
    size_t *cnt = calloc(65537, sizeof *cnt);
    if (!tmp || !cnt) {
        free(tmp);
        free(cnt);
        qsort(e, n, sizeof *e, cmp_entry);
        return 0;
    }
    for (size_t i = 0; i < n; i++) cnt[((e[i].key << shift) >> 48) + 1]++;
    for (size_t d = 1; d <= 65536; d++) cnt[d] += cnt[d - 1];
    for (size_t i = 0; i < n; i++) tmp[cnt[(e[i].key << shift) >> 48]++] = e[i];
    size_t lo = 0;
    for (size_t d = 0; d < 65536; d++) {
        size_t hi = cnt[d];
        if (hi - lo > 1) qsort(tmp + lo, hi - lo, sizeof *tmp, cmp_entry);
        lo = hi;
    }
    memcpy(e, tmp, n * sizeof *e);
    free(tmp);
    free(cnt);
    return 0;
}

static int emit_sorted(shuf *s, entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int rc = io_write(s->out, e[i].p, e[i].len);
        if (rc == 0) rc = io_write(s->out, "\n", 1);
        if (rc < 0) return rc;
        s->written += e[i].len + 1;
        if ((i & 8191) == 0) progress_update(s->pg, i, s->written);
    }
    return 0;
}

/* ------------------------------------------------------------ buckets */

static int bucket_flush(bucket *b, const char *tmpdir)
{
    size_t off = 0;
    while (off < b->len) {
        ssize_t k = fault_write(b->fd, b->buf + off, b->len - off);
        if (k < 0) {
            if (errno == EINTR) continue;
            return err_sys(ERR_IO, "%s: cannot write a temporary bucket file (is the disk full? see --temporary-directory)", tmpdir);
        }
        off += (size_t)k;
    }
    b->len = 0;
    return 0;
}

static int bucket_put(bucket *b, const char *tmpdir, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        int rc = bucket_flush(b, tmpdir);
        if (rc < 0) return rc;
        if (n > b->cap) {
            bucket big = { .fd = b->fd, .buf = (char *)p, .len = n };
            rc = bucket_flush(&big, tmpdir);
            b->bytes += n;
            return rc;
        }
    }
    memcpy(b->buf + b->len, p, n);
    b->len += n;
    b->bytes += n;
    return 0;
}

static int bucket_add(bucket *b, const char *tmpdir, uint64_t key, const char *p, uint64_t len)
{
    uint64_t hdr[2] = { key, len };
    int rc = bucket_put(b, tmpdir, hdr, sizeof hdr);
    if (rc == 0) rc = bucket_put(b, tmpdir, p, len);
    b->count++;
    return rc;
}

static void buckets_free(bucket *b, unsigned n)
{
    if (!b) return;
    for (unsigned i = 0; i < n; i++) {
        if (b[i].fd >= 0) close(b[i].fd);
        free(b[i].buf);
    }
    free(b);
}

static int buckets_new(shuf *s, unsigned n, bucket **out)
{
    bucket *b = calloc(n, sizeof *b);
    if (!b) return err_set(ERR_NOMEM, "out of memory");
    for (unsigned i = 0; i < n; i++) b[i].fd = -1;
    size_t bufsz = (size_t)(s->o->memory / 4 / n);
    if (bufsz < 4096) bufsz = 4096;
    if (bufsz > (1u << 20)) bufsz = 1u << 20;
    for (unsigned i = 0; i < n; i++) {
        b[i].fd = io_anon_tmpfile(s->o->tmpdir);
        if (b[i].fd < 0) {
            int rc = b[i].fd;
            buckets_free(b, n);
            return rc;
        }
        b[i].cap = bufsz;
        b[i].buf = malloc(bufsz);
        if (!b[i].buf) {
            buckets_free(b, n);
            return err_set(ERR_NOMEM, "out of memory");
        }
    }
    s->st->buckets += n;
    *out = b;
    return 0;
}

/* Number of buckets (a power of two) so that each holds about memory/2. */
static unsigned choose_buckets(const shuf *s, uint64_t est_bytes)
{
    uint64_t target = s->o->memory / 2;
    if (target < 1) target = 1;
    uint64_t want = (est_bytes + est_bytes / 4) / target + 1;
    unsigned b = 2;
    while (b < want && b < s->max_buckets) b *= 2;
    return b;
}

static int log2u(unsigned v)
{
    int k = 0;
    while ((1u << k) < v) k++;
    return k;
}

static int read_full(int fd, void *dst, size_t n, uint64_t off)
{
    char *p = dst;
    while (n) {
        ssize_t k = fault_pread(fd, p, n, (off_t)off);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return err_sys(ERR_IO, "cannot read back a temporary bucket file");
        p += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return 0;
}

static int process_bucket(shuf *s, bucket *b, int shift, int depth);

/* Stream one bucket's records into 2^bits sub-buckets keyed by the bits below
 * `shift`, then process those in order. */
static int split_bucket(shuf *s, bucket *b, int shift, int depth)
{
    unsigned nb = choose_buckets(s, b->bytes);
    int bits = log2u(nb);
    if (shift + bits > 48) bits = 48 - shift, nb = 1u << bits;
    bucket *sub;
    int rc = buckets_new(s, nb, &sub);
    if (rc < 0) return rc;
    if (depth + 1 > s->st->levels) s->st->levels = depth + 1;
    size_t cap = 1u << 20;
    char *buf = malloc(cap);
    if (!buf) rc = err_set(ERR_NOMEM, "out of memory");
    uint64_t off = 0;
    while (rc == 0 && off < b->bytes) {
        uint64_t hdr[2];
        if ((rc = read_full(b->fd, hdr, sizeof hdr, off)) < 0) break;
        off += sizeof hdr;
        bucket *t = &sub[(hdr[0] << shift) >> (64 - bits)];
        uint64_t h2[2] = { hdr[0], hdr[1] };
        if ((rc = bucket_put(t, s->o->tmpdir, h2, sizeof h2)) < 0) break;
        t->count++;
        uint64_t left = hdr[1];
        while (left && rc == 0) {
            size_t k = left < cap ? (size_t)left : cap;
            if ((rc = read_full(b->fd, buf, k, off)) < 0) break;
            rc = bucket_put(t, s->o->tmpdir, buf, k);
            off += k;
            left -= k;
        }
    }
    free(buf);
    for (unsigned i = 0; rc == 0 && i < nb; i++) rc = bucket_flush(&sub[i], s->o->tmpdir);
    s->st->spilled += b->bytes;
    close(b->fd); /* the parent's data now lives in the sub-buckets */
    b->fd = -1;
    for (unsigned i = 0; rc == 0 && i < nb; i++) {
        free(sub[i].buf);
        sub[i].buf = NULL;
        rc = process_bucket(s, &sub[i], shift + bits, depth + 1);
    }
    buckets_free(sub, nb);
    return rc;
}

/* Write one bucket's lines in key order. */
static int process_bucket(shuf *s, bucket *b, int shift, int depth)
{
    if (b->count == 0) return 0;
    uint64_t data = b->bytes - b->count * 16;
    if (b->count == 1) { /* one line, possibly larger than memory: stream it */
        uint64_t hdr[2];
        int rc = read_full(b->fd, hdr, sizeof hdr, 0);
        size_t cap = 1u << 20;
        char *buf = rc == 0 ? malloc(cap) : NULL;
        if (rc == 0 && !buf) rc = err_set(ERR_NOMEM, "out of memory");
        uint64_t off = sizeof hdr, left = hdr[1];
        while (rc == 0 && left) {
            size_t k = left < cap ? (size_t)left : cap;
            if ((rc = read_full(b->fd, buf, k, off)) == 0) rc = io_write(s->out, buf, k);
            off += k;
            left -= k;
        }
        free(buf);
        if (rc == 0) rc = io_write(s->out, "\n", 1);
        s->written += data + 1;
        return rc;
    }
    if (data + b->count * ENTRY_COST > s->o->memory && shift < 40) return split_bucket(s, b, shift, depth);
    char *raw = malloc(b->bytes ? b->bytes : 1);
    entry *e = malloc(b->count * sizeof *e);
    int rc = (!raw || !e) ? err_set(ERR_NOMEM, "out of memory reading a bucket of %llu bytes (lower --memory)",
                                    (unsigned long long)b->bytes)
                          : read_full(b->fd, raw, b->bytes, 0);
    size_t n = 0;
    for (uint64_t off = 0; rc == 0 && off < b->bytes; n++) {
        uint64_t hdr[2];
        memcpy(hdr, raw + off, sizeof hdr);
        off += sizeof hdr;
        e[n] = (entry){ hdr[0], raw + off, hdr[1] };
        off += hdr[1];
    }
    if (rc == 0) rc = sort_entries(e, n, shift);
    if (rc == 0) rc = emit_sorted(s, e, n);
    free(raw);
    free(e);
    return rc;
}

/* ------------------------------------------------------------ driver */

int extshuf_run(const char *const *inputs, size_t n_inputs, io_writer *out, const extshuf_opts *o, extshuf_stats *st)
{
    memset(st, 0, sizeof *st);
    shuf s = { .o = o, .out = out, .st = st };
    s.max_buckets = fd_budget();
    if (o->memory < (1u << 16)) return err_set(ERR_USAGE, "--memory must be at least 64K");
    uint64_t key_seed = hash_mix64(o->seed);
    uint64_t est = 0, raw_total = 0, raw_done = 0;
    bucket *bk = NULL;
    unsigned nb = 0;
    int bits = 0, rc = 0;
    s.pg = progress_new("shuffle: reading", "lines", 0);
    for (size_t f = 0; f < n_inputs && rc == 0; f++) {
        io_reader *r;
        if ((rc = io_reader_open(&r, inputs[f])) < 0) break;
        if (f == 0) { /* size estimates of all inputs, for buckets and ETA */
            for (size_t g = 0; g < n_inputs; g++) {
                io_reader *q = NULL;
                if (strcmp(inputs[g], "-") && io_reader_open(&q, inputs[g]) == 0) {
                    est += io_reader_size_hint(q);
                    raw_total += io_reader_raw_size(q);
                }
                io_reader_close(q);
            }
            progress_phase(s.pg, "shuffle: reading", raw_total);
        }
        char *line;
        size_t len;
        while ((rc = io_getline(r, &line, &len)) == 1) {
            uint64_t key = hash_mix64(st->lines + key_seed);
            st->lines++;
            st->bytes += len;
            if (bk) {
                rc = bucket_add(&bk[key >> (64 - bits)], o->tmpdir, key, line, len);
            } else if (s.mem_used + len + ENTRY_COST + (1u << 16) <= o->memory - o->memory / 4 || s.n_ents == 0) {
                rc = mem_add(&s, key, line, len);
            } else {
                /* Spill: everything so far and everything after goes to buckets. */
                uint64_t guess = est > st->bytes ? est : st->bytes * 8;
                nb = choose_buckets(&s, guess);
                bits = log2u(nb);
                if ((rc = buckets_new(&s, nb, &bk)) < 0) break;
                st->levels = 1;
                for (size_t i = 0; i < s.n_ents && rc == 0; i++)
                    rc = bucket_add(&bk[s.ents[i].key >> (64 - bits)], o->tmpdir, s.ents[i].key, s.ents[i].p, s.ents[i].len);
                free_mem(&s);
                if (rc == 0) rc = bucket_add(&bk[key >> (64 - bits)], o->tmpdir, key, line, len);
            }
            if (rc < 0) break;
            progress_update(s.pg, st->lines, raw_done + io_reader_raw_pos(r));
        }
        raw_done += io_reader_raw_pos(r);
        io_reader_close(r);
    }
    if (rc == 0) {
        progress_phase(s.pg, "shuffle: writing", st->bytes + st->lines);
        if (!bk) {
            sort_entries(s.ents, s.n_ents, 0);
            rc = emit_sorted(&s, s.ents, s.n_ents);
        } else {
            for (unsigned i = 0; i < nb && rc == 0; i++) rc = bucket_flush(&bk[i], o->tmpdir);
            for (unsigned i = 0; i < nb && rc == 0; i++) st->spilled += bk[i].bytes;
            for (unsigned i = 0; i < nb && rc == 0; i++) {
                free(bk[i].buf); /* write buffers are not needed while reading back */
                bk[i].buf = NULL;
                rc = process_bucket(&s, &bk[i], bits, 1);
            }
        }
    }
    progress_done(s.pg);
    buckets_free(bk, nb);
    free_mem(&s);
    return rc;
}

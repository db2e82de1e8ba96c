/* io.c - see io.h. Plain, zstd and gzip decoding; atomic, optionally zstd
 * encoded output; cleanup of temporary files on exit and on fatal signals. */
#define _GNU_SOURCE
#include "io.h"
#include "fsutil.h"
#include "fault.h"
#include "err.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#define IO_RAW_CHUNK (1u << 20)
#define IO_MIN_BUF (1u << 16)

struct io_reader {
    char *name;
    int fd, own_fd;
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    uint64_t raw_pos, raw_size;
    int codec;
    ZSTD_DStream *zd;
    size_t zret; /* last ZSTD_decompressStream result: 0 = at frame boundary */
    z_stream gz;
    int gz_live, gz_at_end;
    /* gzip members decoded whole by libdeflate (2-3x zlib's speed): Common Crawl's
     * WARCs are one member per record. dec: the decompressor (NULL: zlib only);
     * gz_zlib: this member goes through zlib (too large for memory, or damaged: zlib
     * then names the damage); out: a decoded member, out[out_pos..out_len) unread. */
    struct libdeflate_decompressor *dec;
    int gz_zlib;
    unsigned char *out;
    size_t out_cap, out_pos, out_len;
    unsigned char *in; /* compressed input */
    size_t in_cap, in_pos, in_len;
    int raw_eof;
    char *buf; /* decoded data: buf[pos..len) unread */
    size_t cap, pos, len, scan;
    int eof;
    uint64_t lineno;
    uint64_t hint;
};

static ssize_t raw_read(io_reader *r, void *dst, size_t n)
{
    if (r->mem) {
        size_t k = r->mem_len - r->mem_pos;
        if (k > n) k = n;
        memcpy(dst, r->mem + r->mem_pos, k);
        r->mem_pos += k;
        r->raw_pos += k;
        return (ssize_t)k;
    }
    for (;;) {
        ssize_t k = fault_read(r->fd, dst, n);
        if (k >= 0) {
            r->raw_pos += (uint64_t)k;
            return k;
        }
        if (errno != EINTR) return err_sys(ERR_IO, "%s: read failed", r->name);
    }
}

/* Fill r->in with raw bytes if it is empty. Returns 0 or ERR_*. */
static int refill_in(io_reader *r)
{
    if (r->in_pos < r->in_len || r->raw_eof) return 0;
    ssize_t k = raw_read(r, r->in, r->in_cap);
    if (k < 0) return (int)k;
    r->in_pos = 0;
    r->in_len = (size_t)k;
    if (k == 0) r->raw_eof = 1;
    return 0;
}

static int reader_init(io_reader *r)
{
    /* Raw input is read in chunks of 1 MB, or of 64 KB .. its size when the
     * input is known to be smaller (a memory reader, a small regular file):
     * no megabyte allocated and paged in to read a few bytes. */
    r->in_cap = IO_RAW_CHUNK;
    if (r->raw_size > 0 && r->raw_size < IO_RAW_CHUNK)
        r->in_cap = r->raw_size > IO_MIN_BUF ? (size_t)r->raw_size : IO_MIN_BUF;
    r->in = malloc(r->in_cap);
    r->cap = IO_MIN_BUF;
    r->buf = malloc(r->cap);
    if (!r->in || !r->buf) return err_set(ERR_NOMEM, "%s: out of memory", r->name);
    /* Sniff the codec from the first bytes (a short read is fine: a file of
     * fewer than 4 bytes cannot be compressed anyway). */
    while (r->in_len < 4 && !r->raw_eof) {
        ssize_t k = raw_read(r, r->in + r->in_len, r->in_cap - r->in_len);
        if (k < 0) return (int)k;
        if (k == 0) r->raw_eof = 1;
        r->in_len += (size_t)k;
    }
    const unsigned char *p = r->in;
    if (r->in_len >= 4 && p[0] == 0x28 && p[1] == 0xB5 && p[2] == 0x2F && p[3] == 0xFD) {
        r->codec = IO_CODEC_ZSTD;
        r->zd = ZSTD_createDStream();
        if (!r->zd) return err_set(ERR_NOMEM, "%s: out of memory", r->name);
        ZSTD_initDStream(r->zd);
        unsigned long long cs = ZSTD_getFrameContentSize(r->in, r->in_len);
        if (cs != ZSTD_CONTENTSIZE_UNKNOWN && cs != ZSTD_CONTENTSIZE_ERROR) r->hint = cs;
        else r->hint = r->raw_size * 4;
    } else if (r->in_len >= 2 && p[0] == 0x1F && p[1] == 0x8B) {
        r->codec = IO_CODEC_GZIP;
        r->dec = libdeflate_alloc_decompressor(); /* NULL: zlib alone, slower */
        memset(&r->gz, 0, sizeof r->gz);
        if (inflateInit2(&r->gz, 16 + MAX_WBITS) != Z_OK)
            return err_set(ERR_NOMEM, "%s: cannot initialise gzip", r->name);
        r->gz_live = 1;
        r->hint = r->raw_size * 4;
    } else {
        r->codec = IO_CODEC_NONE;
        r->hint = r->raw_size;
    }
    return 0;
}

int io_reader_open(io_reader **out, const char *path)
{
    *out = NULL;
    io_reader *r = calloc(1, sizeof *r);
    if (!r) return err_set(ERR_NOMEM, "out of memory");
    int is_stdin = !path || strcmp(path, "-") == 0;
    r->name = strdup(is_stdin ? "<stdin>" : path);
    if (!r->name) { free(r); return err_set(ERR_NOMEM, "out of memory"); }
    if (is_stdin) {
        r->fd = 0;
    } else {
        r->fd = fault_open(path, O_RDONLY | O_CLOEXEC, 0);
        if (r->fd < 0) {
            int rc = err_sys(ERR_IO, "%s: cannot open", path);
            io_reader_close(r);
            return rc;
        }
        r->own_fd = 1;
        struct stat st;
        if (fstat(r->fd, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                int rc = err_set(ERR_IO, "%s: is a directory", path);
                io_reader_close(r);
                return rc;
            }
            if (S_ISREG(st.st_mode)) r->raw_size = (uint64_t)st.st_size;
        }
        posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    }
    int rc = reader_init(r);
    if (rc < 0) { io_reader_close(r); return rc; }
    *out = r;
    return 0;
}

int io_reader_open_mem(io_reader **out, const void *data, size_t n, const char *name)
{
    *out = NULL;
    io_reader *r = calloc(1, sizeof *r);
    if (!r) return err_set(ERR_NOMEM, "out of memory");
    r->name = strdup(name ? name : "<memory>");
    r->mem = data ? data : (const unsigned char *)"";
    r->mem_len = n;
    r->raw_size = n;
    r->fd = -1;
    int rc = r->name ? reader_init(r) : err_set(ERR_NOMEM, "out of memory");
    if (rc < 0) { io_reader_close(r); return rc; }
    *out = r;
    return 0;
}

void io_reader_close(io_reader *r)
{
    if (!r) return;
    if (r->own_fd && r->fd >= 0) close(r->fd);
    if (r->zd) ZSTD_freeDStream(r->zd);
    if (r->gz_live) inflateEnd(&r->gz);
    if (r->dec) libdeflate_free_decompressor(r->dec);
    free(r->out);
    free(r->in);
    free(r->buf);
    free(r->name);
    free(r);
}

/* Make room in r->in for more raw bytes after the unread ones (moved to the front;
 * the buffer doubled when they fill it, up to `limit`) and read once. 0, or 1 when
 * the buffer is at its limit and full, or ERR_*. */
static int more_in(io_reader *r, size_t limit)
{
    if (r->in_pos > 0) {
        memmove(r->in, r->in + r->in_pos, r->in_len - r->in_pos);
        r->in_len -= r->in_pos;
        r->in_pos = 0;
    }
    if (r->in_len == r->in_cap) {
        if (r->in_cap >= limit) return 1;
        unsigned char *ni = realloc(r->in, r->in_cap * 2);
        if (!ni) return 1;
        r->in = ni;
        r->in_cap *= 2;
    }
    ssize_t k = raw_read(r, r->in + r->in_len, r->in_cap - r->in_len);
    if (k < 0) return (int)k;
    if (k == 0) r->raw_eof = 1;
    r->in_len += (size_t)k;
    return 0;
}

#define GZ_FAST_DECLINED (-1000)
#define GZ_MAX_MEMBER_IN ((size_t)16 << 20)  /* compressed bytes of a member decoded whole */
#define GZ_MAX_MEMBER_OUT ((size_t)64 << 20) /* and decoded bytes */

/* The gzip fast path: a whole member decoded at once by libdeflate into r->out and
 * handed out from there. GZ_FAST_DECLINED: this member goes through zlib (it is
 * larger than the limits above, or damaged: zlib then reports the damage as it
 * always has). Else bytes given, 0 at the end, or ERR_*. */
static ssize_t gz_member_fast(io_reader *r, char *dst, size_t room)
{
    if (r->out_pos < r->out_len) {
        size_t k = r->out_len - r->out_pos;
        if (k > room) k = room;
        memcpy(dst, r->out + r->out_pos, k);
        r->out_pos += k;
        return (ssize_t)k;
    }
    if (r->gz_zlib || (!r->gz_at_end && r->gz.total_in)) return GZ_FAST_DECLINED; /* inside a zlib member */
    for (;;) {
        if (r->in_pos == r->in_len) {
            if (r->raw_eof) return 0;
            int rc = more_in(r, GZ_MAX_MEMBER_IN);
            if (rc < 0) return rc;
            continue;
        }
        size_t ain = 0, aout = 0;
        enum libdeflate_result res = LIBDEFLATE_INSUFFICIENT_SPACE;
        if (r->out_cap)
            res = libdeflate_gzip_decompress_ex(r->dec, r->in + r->in_pos, r->in_len - r->in_pos, r->out, r->out_cap,
                                                &ain, &aout);
        if (res == LIBDEFLATE_SUCCESS) {
            r->in_pos += ain;
            r->out_pos = 0;
            r->out_len = aout;
            if (!aout) continue; /* an empty member */
            return gz_member_fast(r, dst, room);
        }
        if (res == LIBDEFLATE_INSUFFICIENT_SPACE && r->out_cap < GZ_MAX_MEMBER_OUT) {
            size_t nc = r->out_cap ? r->out_cap * 2 : (size_t)1 << 20;
            unsigned char *no = realloc(r->out, nc);
            if (!no) break;
            r->out = no;
            r->out_cap = nc;
            continue;
        }
        /* bad data: the member may not be all in the buffer yet */
        if (res == LIBDEFLATE_BAD_DATA && !r->raw_eof) {
            int rc = more_in(r, GZ_MAX_MEMBER_IN);
            if (rc < 0) return rc;
            if (rc == 0) continue;
        }
        break;
    }
    /* this member through zlib, from its first byte */
    r->gz_zlib = 1;
    r->gz_at_end = 1; /* fill() resets the inflater before the member */
    return GZ_FAST_DECLINED;
}

/* Decode more bytes into buf[len..cap-1) (one byte is kept spare for the NUL
 * that io_getline writes). Returns bytes added, 0 at end, or ERR_*. */
static ssize_t fill(io_reader *r)
{
    size_t room = r->cap - 1 - r->len;
    char *dst = r->buf + r->len;
    if (r->codec == IO_CODEC_NONE) {
        if (r->in_pos < r->in_len) { /* bytes read while sniffing */
            size_t k = r->in_len - r->in_pos;
            if (k > room) k = room;
            memcpy(dst, r->in + r->in_pos, k);
            r->in_pos += k;
            return (ssize_t)k;
        }
        if (r->raw_eof) return 0;
        ssize_t k = raw_read(r, dst, room);
        if (k == 0) r->raw_eof = 1;
        return k;
    }
    if (r->codec == IO_CODEC_GZIP && r->dec) {
        ssize_t k = gz_member_fast(r, dst, room);
        if (k != GZ_FAST_DECLINED) return k;
    }
    for (;;) {
        int rc = refill_in(r);
        if (rc < 0) return rc;
        if (r->in_pos == r->in_len && r->raw_eof) {
            if (r->codec == IO_CODEC_ZSTD && r->zret != 0)
                return err_set(ERR_CORRUPT, "%s: truncated zstd stream (input ends inside a frame)", r->name);
            if (r->codec == IO_CODEC_GZIP && !r->gz_at_end)
                return err_set(ERR_CORRUPT, "%s: truncated gzip stream (input ends inside a member)", r->name);
            return 0;
        }
        size_t produced;
        if (r->codec == IO_CODEC_ZSTD) {
            ZSTD_inBuffer in = { r->in, r->in_len, r->in_pos };
            ZSTD_outBuffer ob = { dst, room, 0 };
            size_t z = ZSTD_decompressStream(r->zd, &ob, &in);
            if (ZSTD_isError(z) && ZSTD_getErrorCode(z) == ZSTD_error_memory_allocation)
                return err_set(ERR_NOMEM, "%s: out of memory decompressing zstd data", r->name);
            if (ZSTD_isError(z))
                return err_set(ERR_CORRUPT, "%s: corrupt zstd data near byte %llu: %s", r->name,
                               (unsigned long long)(r->raw_pos - (r->in_len - r->in_pos)), ZSTD_getErrorName(z));
            r->in_pos = in.pos;
            r->zret = z;
            produced = ob.pos;
        } else {
            if (r->gz_at_end) { /* another gzip member follows */
                inflateReset(&r->gz);
                r->gz_at_end = 0;
            }
            r->gz.next_in = r->in + r->in_pos;
            r->gz.avail_in = (uInt)(r->in_len - r->in_pos);
            r->gz.next_out = (Bytef *)dst;
            r->gz.avail_out = (uInt)(room > UINT32_MAX ? UINT32_MAX : room);
            uInt before = r->gz.avail_out;
            int z = inflate(&r->gz, Z_NO_FLUSH);
            r->in_pos = r->in_len - r->gz.avail_in;
            produced = before - r->gz.avail_out;
            if (z == Z_STREAM_END) {
                r->gz_at_end = 1;
                r->gz_zlib = 0; /* the next member may be decoded whole again */
            }
            else if (z != Z_OK && z != Z_BUF_ERROR)
                return err_set(ERR_CORRUPT, "%s: corrupt gzip data: %s", r->name, r->gz.msg ? r->gz.msg : "error");
        }
        if (produced) return (ssize_t)produced;
    }
}

/* Make room for more data: drop consumed bytes, grow when full. */
static int make_room(io_reader *r)
{
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->cap - 1 - r->len < IO_MIN_BUF / 2) {
        size_t ncap = r->cap * 2;
        char *nb = realloc(r->buf, ncap);
        if (!nb) return err_set(ERR_NOMEM, "%s: out of memory for a line of %zu bytes", r->name, r->len);
        r->buf = nb;
        r->cap = ncap;
    }
    return 0;
}

int io_getline(io_reader *r, char **line, size_t *len)
{
    for (;;) {
        char *start = r->buf + r->pos;
        char *nl = memchr(start + r->scan, '\n', r->len - r->pos - r->scan);
        if (nl) {
            *nl = '\0';
            *line = start;
            *len = (size_t)(nl - start);
            r->pos = (size_t)(nl - r->buf) + 1;
            r->scan = 0;
            r->lineno++;
            return 1;
        }
        if (r->eof) {
            if (r->pos == r->len) return 0;
            *line = start;
            *len = r->len - r->pos;
            start[*len] = '\0';
            r->pos = r->len;
            r->scan = 0;
            r->lineno++;
            return 1;
        }
        r->scan = r->len - r->pos;
        int rc = make_room(r);
        if (rc < 0) return rc;
        ssize_t k = fill(r);
        if (k < 0) return (int)k;
        if (k == 0) r->eof = 1;
        r->len += (size_t)k;
    }
}

ssize_t io_read(io_reader *r, void *buf, size_t n)
{
    if (r->pos == r->len && !r->eof) {
        r->pos = r->len = r->scan = 0;
        ssize_t k = fill(r);
        if (k < 0) return k;
        if (k == 0) r->eof = 1;
        r->len = (size_t)k;
    }
    size_t k = r->len - r->pos;
    if (k > n) k = n;
    memcpy(buf, r->buf + r->pos, k);
    r->pos += k;
    r->scan = 0;
    return (ssize_t)k;
}

const char *io_reader_name(const io_reader *r) { return r->name; }
uint64_t io_reader_lineno(const io_reader *r) { return r->lineno; }
int io_reader_codec(const io_reader *r) { return r->codec; }
uint64_t io_reader_raw_pos(const io_reader *r) { return r->raw_pos; }
uint64_t io_reader_raw_size(const io_reader *r) { return r->raw_size; }
uint64_t io_reader_size_hint(const io_reader *r) { return r->hint; }

/* ---------------------------------------------------------------- writer */

#define IO_MAX_TMP 256
static _Atomic(char *) tmp_registry[IO_MAX_TMP];
static atomic_int cleanup_installed;

static void cleanup_tmp_files(void)
{
    for (int i = 0; i < IO_MAX_TMP; i++) {
        char *p = atomic_exchange(&tmp_registry[i], NULL);
        if (p) unlink(p); /* async-signal-safe; the string is leaked on purpose */
    }
}

static void on_fatal_signal(int sig)
{
    cleanup_tmp_files();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_cleanup(void)
{
    if (atomic_exchange(&cleanup_installed, 1)) return;
    atexit(cleanup_tmp_files);
    int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

static int register_tmp(char *path)
{
    for (int i = 0; i < IO_MAX_TMP; i++) {
        char *expected = NULL;
        if (atomic_compare_exchange_strong(&tmp_registry[i], &expected, path)) return 0;
    }
    return -1; /* registry full: the file is still removed by abort/commit */
}

static void unregister_tmp(const char *path)
{
    for (int i = 0; i < IO_MAX_TMP; i++) {
        char *expected = (char *)path;
        if (atomic_compare_exchange_strong(&tmp_registry[i], &expected, NULL)) return;
    }
}

static long long fault_budget = -1; /* -1 disabled; read at each io_writer_open */
static atomic_llong fault_written;

static ssize_t checked_write(int fd, const void *p, size_t n)
{
    if (fault_budget >= 0) {
        long long total = atomic_fetch_add(&fault_written, (long long)n) + (long long)n;
        if (total > fault_budget) {
            errno = ENOSPC;
            return -1;
        }
    }
    return fault_write(fd, p, n);
}

struct io_writer {
    char *path, *tmp; /* tmp: the temporary name (NULL while the file is unnamed) */
    int fd, own_fd;
    int anon;         /* an O_TMPFILE file: named only at commit */
    ZSTD_CStream *zc;
    unsigned char *buf, *zbuf;
    size_t cap, len, zcap;
    uint64_t bytes;
    int err;
};

static int write_all(io_writer *w, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t k = checked_write(w->fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            return w->err = err_sys(ERR_IO, "%s: write failed", w->path);
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Push the staging buffer out, through zstd if enabled. */
static int flush_buf(io_writer *w, ZSTD_EndDirective mode)
{
    if (!w->zc) {
        int rc = w->len ? write_all(w, w->buf, w->len) : 0;
        w->len = 0;
        return rc;
    }
    ZSTD_inBuffer in = { w->buf, w->len, 0 };
    for (;;) {
        ZSTD_outBuffer out = { w->zbuf, w->zcap, 0 };
        size_t left = ZSTD_compressStream2(w->zc, &out, &in, mode);
        if (ZSTD_isError(left) && ZSTD_getErrorCode(left) == ZSTD_error_memory_allocation)
            return w->err = err_set(ERR_NOMEM, "%s: out of memory compressing zstd data", w->path);
        if (ZSTD_isError(left))
            return w->err = err_set(ERR_INTERNAL, "%s: zstd compression failed: %s", w->path, ZSTD_getErrorName(left));
        if (out.pos) {
            int rc = write_all(w, w->zbuf, out.pos);
            if (rc < 0) return rc;
        }
        if (mode == ZSTD_e_continue ? in.pos == in.size : left == 0) break;
    }
    w->len = 0;
    return 0;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}


/* The directory part of path ("." when none), into a malloc'd string. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* Name a temporary for path: ".BASE.tmp-PID-N@HOST" beside it. */
static char *tmp_name(const char *path)
{
    static atomic_uint counter;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    char suf[128];
    fs_tmp_suffix(suf, sizeof suf, atomic_fetch_add(&counter, 1));
    size_t n = strlen(path) + strlen(suf) + 4;
    char *t = malloc(n);
    if (t) snprintf(t, n, "%.*s.%s.%s", (int)dirlen, path, path + dirlen, suf);
    return t;
}

/* Open the writer's temporary file. Where the file system has O_TMPFILE the
 * file has no name until io_writer_commit links it in, so a process killed
 * with SIGKILL leaves nothing behind; elsewhere it is ".BASE.tmp-PID-N@HOST",
 * and stale ones of dead processes on this host are removed first. */
static int writer_create_tmp(io_writer *w, const char *path)
{
    char *dir = dir_of(path);
    if (!dir) return err_set(ERR_NOMEM, "out of memory");
    /* Litter of killed processes (where O_TMPFILE is missing, or killed between
     * link and rename): once per directory and process, so that many outputs
     * in one directory do not rescan it. */
    static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;
    static char scanned[4096];
    pthread_mutex_lock(&scan_lock);
    if (strcmp(scanned, dir) != 0) {
        fs_remove_stale_tmp(dir, ".");
        snprintf(scanned, sizeof scanned, "%s", dir);
    }
    pthread_mutex_unlock(&scan_lock);
#ifdef O_TMPFILE
    if (!getenv("WEBTEXT_NO_TMPFILE")) {
        w->fd = fault_open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
        if (w->fd >= 0) {
            free(dir);
            w->own_fd = 1;
            w->anon = 1;
            return 0;
        }
        if (errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == EROFS || errno == ENOSPC ||
            errno == EIO || errno == EDQUOT) {
            int rc = err_sys(ERR_IO, "%s: cannot create the output file", path);
            free(dir);
            return rc;
        }
        /* EOPNOTSUPP, EISDIR (old kernels), EINVAL: a named temporary instead */
    }
#endif
    free(dir);
    if (!(w->tmp = tmp_name(path))) return err_set(ERR_NOMEM, "out of memory");
    w->fd = fault_open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (w->fd < 0) {
        int rc = err_sys(ERR_IO, "%s: cannot create temporary output file %s", path, w->tmp);
        free(w->tmp);
        w->tmp = NULL;
        return rc;
    }
    w->own_fd = 1;
    register_tmp(w->tmp);
    return 0;
}

static int link_fd(int fd, const char *to)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    if (fault_linkat(AT_FDCWD, proc, AT_FDCWD, to, AT_SYMLINK_FOLLOW) == 0) return 0;
    int e = errno;
    if (e == ENOENT && access("/proc/self/fd", F_OK) != 0 && linkat(fd, "", AT_FDCWD, to, AT_EMPTY_PATH) == 0)
        return 0; /* no /proc mounted */
    errno = e;
    return -1;
}

/* Give an O_TMPFILE file its name. A new output is linked under its final name
 * directly (one atomic step: nothing to clean up whenever a kill lands). An
 * output that exists is replaced atomically: linked under a temporary name,
 * then renamed over it, like the named temporaries. Returns 0 with w->tmp set
 * when a rename is still to come, or with w->anon cleared when done. */
static int writer_link_tmp(io_writer *w)
{
    if (link_fd(w->fd, w->path) == 0) {
        w->anon = 0;
        return 0;
    }
    if (errno != EEXIST) return err_sys(ERR_IO, "%s: cannot link the finished output into its directory", w->path);
    if (!(w->tmp = tmp_name(w->path))) return err_set(ERR_NOMEM, "out of memory");
    register_tmp(w->tmp);
    if (link_fd(w->fd, w->tmp) == 0) return 0;
    int rc = err_sys(ERR_IO, "%s: cannot link the finished output into its directory", w->path);
    unregister_tmp(w->tmp);
    free(w->tmp);
    w->tmp = NULL;
    return rc;
}

int io_writer_open(io_writer **out, const char *path, const io_writer_opts *opts)
{
    *out = NULL;
    const char *fault = getenv("IO_FAULT_ENOSPC_AFTER");
    fault_budget = fault ? atoll(fault) : -1;
    io_writer_opts o = { -1, 0, 0 };
    if (opts) o = *opts;
    io_writer *w = calloc(1, sizeof *w);
    if (!w) return err_set(ERR_NOMEM, "out of memory");
    int is_stdout = !path || strcmp(path, "-") == 0;
    w->path = strdup(is_stdout ? "<stdout>" : path);
    w->cap = 1u << 20;
    w->buf = malloc(w->cap);
    if (!w->path || !w->buf) { io_writer_abort(w); return err_set(ERR_NOMEM, "out of memory"); }
    int rc = 0;
    struct stat st;
    if (is_stdout) {
        w->fd = 1;
    } else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) rc = err_set(ERR_IO, "%s: is a directory", path);
        else if ((w->fd = fault_open(path, O_WRONLY | O_CLOEXEC, 0)) < 0) rc = err_sys(ERR_IO, "%s: cannot open", path);
        else w->own_fd = 1;
    } else {
        install_cleanup();
        rc = writer_create_tmp(w, path);
    }
    if (rc == 0 && (o.compress == 1 || (o.compress == -1 && !is_stdout && ends_with(path, ".zst")))) {
        w->zc = ZSTD_createCStream();
        w->zcap = ZSTD_CStreamOutSize();
        w->zbuf = malloc(w->zcap);
        if (!w->zc || !w->zbuf) rc = err_set(ERR_NOMEM, "out of memory");
        else {
            ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, o.level ? o.level : 3);
            /* Compress on worker threads when libzstd has them (Debian's
             * does); the decoded bytes are the same either way. */
            long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
            if (ncpu > 8) ncpu = 8;
            if (o.threads > 0 && ncpu > o.threads) ncpu = o.threads;
            if (ncpu > 1) ZSTD_CCtx_setParameter(w->zc, ZSTD_c_nbWorkers, (int)ncpu);
        }
    }
    if (rc < 0) { io_writer_abort(w); return rc; }
    *out = w;
    return 0;
}

int io_write(io_writer *w, const void *data, size_t n)
{
    if (w->err) return w->err;
    w->bytes += n;
    if (w->len + n > w->cap) {
        int rc = flush_buf(w, ZSTD_e_continue);
        if (rc < 0) return rc;
        if (n >= w->cap) { /* large block: pass it straight through */
            if (!w->zc) return write_all(w, data, n);
            const unsigned char *p = data;
            while (n) {
                size_t k = n < w->cap ? n : w->cap;
                memcpy(w->buf, p, k);
                w->len = k;
                if ((rc = flush_buf(w, ZSTD_e_continue)) < 0) return rc;
                p += k;
                n -= k;
            }
            return 0;
        }
    }
    memcpy(w->buf + w->len, data, n);
    w->len += n;
    return 0;
}

static void writer_free(io_writer *w)
{
    if (w->own_fd && w->fd >= 0) close(w->fd);
    if (w->zc) ZSTD_freeCStream(w->zc);
    free(w->buf);
    free(w->zbuf);
    free(w->path);
    free(w->tmp);
    free(w);
}

void io_writer_abort(io_writer *w)
{
    if (!w) return;
    if (w->tmp) {
        unregister_tmp(w->tmp);
        unlink(w->tmp);
    }
    writer_free(w);
}

/* Flush, finish the frame, fsync: everything but giving the file its name. */
static int writer_prepare(io_writer *w)
{
    int rc = w->err;
    if (rc == 0) rc = flush_buf(w, w->zc ? ZSTD_e_end : ZSTD_e_continue);
    if (rc == 0 && (w->tmp || w->anon) && fault_fsync(w->fd) != 0) rc = err_sys(ERR_IO, "%s: fsync failed", w->path);
    return rc;
}

/* Put a prepared output under its final name and close it. *placed is set
 * once the final name holds the new file (even if closing then fails). */
static int writer_place(io_writer *w, int *placed)
{
    int rc = 0;
    *placed = 0;
    if (w->anon) {
        rc = writer_link_tmp(w);
        if (rc == 0 && !w->anon) *placed = 1;
    }
    if (rc == 0 && w->own_fd) {
        int fd = w->fd;
        w->fd = -1;
        if (close(fd) != 0) rc = err_sys(ERR_IO, "%s: close failed", w->path);
    }
    if (rc == 0 && w->tmp) {
        if (fault_rename(w->tmp, w->path) != 0) rc = err_sys(ERR_IO, "%s: cannot rename %s into place", w->path, w->tmp);
        else {
            unregister_tmp(w->tmp);
            free(w->tmp);
            w->tmp = NULL;
            *placed = 1;
        }
    }
    return rc;
}

int io_writer_commit(io_writer *w)
{
    int placed;
    int rc = writer_prepare(w);
    if (rc == 0) rc = writer_place(w, &placed);
    if (rc < 0) { io_writer_abort(w); return rc; }
    writer_free(w);
    return 0;
}

int io_writer_commit_group(io_writer **ws, size_t n)
{
    int rc = n > 64 ? err_set(ERR_INTERNAL, "io_writer_commit_group: %zu outputs, at most 64", n) : 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        if (ws[i]) rc = writer_prepare(ws[i]);
    unsigned char placed[64] = {0}; /* by link or rename: only those are ours to take back */
    /* Two processes committing the same group at once would interleave their
     * files: the placing is serialised by a lock on the first output's directory. */
    int lockfd = -1;
    for (size_t i = 0; i < n && rc == 0 && lockfd < 0; i++) {
        if (!ws[i] || !(ws[i]->tmp || ws[i]->anon)) continue;
        char *dir = dir_of(ws[i]->path);
        if (dir) lockfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        free(dir);
        if (lockfd >= 0) while (flock(lockfd, LOCK_EX) != 0 && errno == EINTR) {}
        break;
    }
    /* Older versions of all but the first go before the first new one is placed. */
    int first = 1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!ws[i]) continue;
        if (!first && ws[i]->own_fd && (ws[i]->tmp || ws[i]->anon) && unlink(ws[i]->path) != 0 && errno != ENOENT)
            rc = err_sys(ERR_IO, "%s: cannot remove the older version", ws[i]->path);
        first = 0;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!ws[i]) continue;
        int pl;
        rc = writer_place(ws[i], &pl);
        placed[i] = (unsigned char)pl;
    }
    if (rc < 0) /* take back what was placed: no part of the group stays */
        for (size_t i = 0; i < n; i++)
            if (ws[i] && placed[i]) unlink(ws[i]->path);
    if (lockfd >= 0) close(lockfd); /* and the lock with it */
    for (size_t i = 0; i < n; i++) {
        if (!ws[i]) continue;
        if (rc < 0) io_writer_abort(ws[i]);
        else writer_free(ws[i]);
        ws[i] = NULL;
    }
    return rc;
}

const char *io_writer_name(const io_writer *w) { return w->path; }
uint64_t io_writer_bytes(const io_writer *w) { return w->bytes; }

int io_is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int io_anon_tmpfile(const char *dir)
{
#ifdef O_TMPFILE
    /* An unnamed file: nothing to clean up, not even for a signal that lands
     * between creation and unlink. Falls back when the file system lacks it. */
    int tfd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (tfd >= 0) return tfd;
    if (errno == ENOENT || errno == ENOTDIR || errno == EACCES)
        return err_sys(ERR_IO, "%s: cannot create a temporary file", dir);
#endif
    size_t n = strlen(dir) + 32;
    char *p = malloc(n);
    if (!p) return err_set(ERR_NOMEM, "out of memory");
    snprintf(p, n, "%s/.tmp-XXXXXX", dir);
    int fd = mkstemp(p);
    if (fd < 0) {
        int rc = err_sys(ERR_IO, "%s: cannot create a temporary file", dir);
        free(p);
        return rc;
    }
    unlink(p);
    free(p);
    return fd;
}

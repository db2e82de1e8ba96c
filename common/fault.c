/* fault.c - see fault.h. */
#define _GNU_SOURCE
#include "fault.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { KIND_ERRNO = 0, KIND_SHORT = 1, KIND_KILL = 2 };

static atomic_int state;          /* 0 not read, 1 off, 2 on */
static long long fault_at;        /* the call to fail (1-based) */
static int fault_kind, fault_errno;
static atomic_llong calls;
static atomic_int fired;
static const char *count_file;

static _Thread_local FILE *faulted_file; /* the FILE of the last injected fread/fwrite fault */

static const char *const op_names[FAULT_NOPS] = {"open", "read", "write", "fsync", "rename", "link", "mmap"};

static void write_count(void)
{
    if (!count_file) return;
    int fd = open(count_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return;
    char b[32];
    int n = snprintf(b, sizeof b, "%lld\n", (long long)atomic_load(&calls));
    if (write(fd, b, (size_t)n) < 0) { /* nothing to do */ }
    close(fd);
}

static void init(void)
{
    const char *e = getenv("WEBTEXT_FAULT");
    count_file = getenv("WEBTEXT_FAULT_COUNT");
    int on = 0;
    if (e && *e) {
        char *end;
        fault_at = strtoll(e, &end, 10);
        const char *k = *end == ':' ? end + 1 : "eio";
        fault_kind = KIND_ERRNO;
        fault_errno = EIO;
        if (!strcmp(k, "enospc")) fault_errno = ENOSPC;
        else if (!strcmp(k, "short")) fault_kind = KIND_SHORT;
        else if (!strcmp(k, "kill")) fault_kind = KIND_KILL;
        on = fault_at > 0;
    }
    if (count_file) {
        on = 1;
        atexit(write_count);
    }
    int expected = 0;
    atomic_compare_exchange_strong(&state, &expected, on ? 2 : 1);
}

int fault_point(int op, size_t *n)
{
    int s = atomic_load_explicit(&state, memory_order_relaxed);
    if (s == 0) { init(); s = atomic_load(&state); }
    if (s != 2) return 0;
    if (fault_kind == KIND_SHORT && op != FAULT_READ && op != FAULT_WRITE) return 0;
    long long c = atomic_fetch_add(&calls, 1) + 1;
    if (c != fault_at || atomic_exchange(&fired, 1)) return 0;
    char msg[160];
    int len;
    if (fault_kind == KIND_KILL) { /* the crash tests: SIGKILL, so no handler, atexit or flush runs */
        len = snprintf(msg, sizeof msg, "fault injection: call %lld (%s): SIGKILL\n", c, op_names[op]);
        if (write(2, msg, (size_t)len) < 0) { /* nothing */ }
        kill(getpid(), SIGKILL);
    }
    if (fault_kind == KIND_SHORT) {
        if (!n || *n < 2) { atomic_store(&fired, 0); fault_at++; return 0; } /* cannot shorten: the next one */
        *n /= 2;
        len = snprintf(msg, sizeof msg, "fault injection: call %lld (%s) transfers %zu bytes only\n", c, op_names[op], *n);
    } else {
        len = snprintf(msg, sizeof msg, "fault injection: call %lld (%s) fails with %s\n", c, op_names[op],
                       fault_errno == ENOSPC && op != FAULT_READ && op != FAULT_MMAP ? "ENOSPC" : "EIO");
    }
    if (write(2, msg, (size_t)len) < 0) { /* stderr gone: the fault still happens */ }
    if (fault_kind == KIND_SHORT) return 1;
    errno = fault_errno == ENOSPC && op != FAULT_READ && op != FAULT_MMAP ? ENOSPC : EIO;
    return -1;
}

ssize_t fault_read(int fd, void *buf, size_t n)
{
    if (fault_point(FAULT_READ, &n) < 0) return -1;
    return read(fd, buf, n);
}

ssize_t fault_pread(int fd, void *buf, size_t n, off_t off)
{
    if (fault_point(FAULT_READ, &n) < 0) return -1;
    return pread(fd, buf, n, off);
}

ssize_t fault_write(int fd, const void *buf, size_t n)
{
    if (fault_point(FAULT_WRITE, &n) < 0) return -1;
    return write(fd, buf, n);
}

ssize_t fault_pwrite(int fd, const void *buf, size_t n, off_t off)
{
    if (fault_point(FAULT_WRITE, &n) < 0) return -1;
    return pwrite(fd, buf, n, off);
}

int fault_open(const char *path, int flags, mode_t mode)
{
    if (fault_point(FAULT_OPEN, NULL) < 0) return -1;
    return open(path, flags, mode);
}

int fault_fsync(int fd)
{
    if (fault_point(FAULT_FSYNC, NULL) < 0) return -1;
    return fsync(fd);
}

int fault_rename(const char *from, const char *to)
{
    if (fault_point(FAULT_RENAME, NULL) < 0) return -1;
    return rename(from, to);
}

int fault_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
    if (fault_point(FAULT_LINK, NULL) < 0) return -1;
    return linkat(olddirfd, oldpath, newdirfd, newpath, flags);
}

void *fault_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (fault_point(FAULT_MMAP, NULL) < 0) return MAP_FAILED;
    return mmap(addr, len, prot, flags, fd, off);
}

FILE *fault_fopen(const char *path, const char *mode)
{
    if (fault_point(FAULT_OPEN, NULL) < 0) return NULL;
    return fopen(path, mode);
}

size_t fault_fread(void *buf, size_t size, size_t nmemb, FILE *f)
{
    /* stdio loops over short read(2)s itself, so "short" changes nothing here */
    size_t bytes = size * nmemb;
    if (fault_point(FAULT_READ, &bytes) < 0) { faulted_file = f; return 0; }
    return fread(buf, size, nmemb, f);
}

size_t fault_fwrite(const void *buf, size_t size, size_t nmemb, FILE *f)
{
    size_t bytes = size * nmemb;
    if (fault_point(FAULT_WRITE, &bytes) < 0) { faulted_file = f; return 0; }
    return fwrite(buf, size, nmemb, f);
}

int fault_ferror(FILE *f)
{
    if (f && f == faulted_file) {
        errno = EIO;
        return 1;
    }
    return ferror(f);
}

/* fault.h - fault injection at every I/O call site, for the reliability tests.
 *
 * Every read, write, open, fsync, rename, link and mmap of the tools goes
 * through these wrappers. Without WEBTEXT_FAULT in the environment they are
 * the system calls themselves (one branch on a flag read once).
 *
 *   WEBTEXT_FAULT=N:KIND    the N-th I/O call of the process (1, 2, ...) fails
 *     KIND enospc           with ENOSPC (reads and maps: EIO, which is what a
 *                           full disk cannot cause there)
 *     KIND eio              with EIO
 *     KIND short            a short transfer: the N-th read or write (only
 *                           those are counted) moves half its bytes, at least
 *                           one; a correct caller loops and the result is the
 *                           same as without the fault
 *     KIND kill             the process sends itself SIGKILL just before the
 *                           N-th call (the crash tests: kill -9 at every I/O
 *                           boundary of a run, deterministically)
 *
 * When the fault fires, one line "fault injection: call N (OP) fails with ..."
 * goes to stderr, so that a test driver can loop N = 1, 2, ... until a run
 * finishes with no fault hit. WEBTEXT_FAULT_COUNT=FILE writes the number of
 * I/O calls made to FILE at exit (the size of the loop).
 *
 * The older IO_FAULT_ENOSPC_AFTER=BYTES (io.h) is kept: writes fail with
 * ENOSPC once the process has written more than BYTES.
 */
#ifndef COMMON_FAULT_H
#define COMMON_FAULT_H

#include <stdio.h>
#include <sys/types.h>

enum { FAULT_OPEN, FAULT_READ, FAULT_WRITE, FAULT_FSYNC, FAULT_RENAME, FAULT_LINK, FAULT_MMAP, FAULT_NOPS };

/* 0 to go on; -1 with errno set when this call is the one to fail; 1 when
 * this read/write is the one to be shortened (*n halved). */
int fault_point(int op, size_t *n);

ssize_t fault_read(int fd, void *buf, size_t n);
ssize_t fault_pread(int fd, void *buf, size_t n, off_t off);
ssize_t fault_write(int fd, const void *buf, size_t n);
ssize_t fault_pwrite(int fd, const void *buf, size_t n, off_t off);
int fault_open(const char *path, int flags, mode_t mode);
int fault_fsync(int fd);
int fault_rename(const char *from, const char *to);
int fault_linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags);
void *fault_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
FILE *fault_fopen(const char *path, const char *mode);
/* fread/fwrite: a fault gives a count of 0 with errno set; "short" changes
 * nothing (stdio loops over short transfers itself). */
size_t fault_fread(void *buf, size_t size, size_t nmemb, FILE *f);
size_t fault_fwrite(const void *buf, size_t size, size_t nmemb, FILE *f);

/* ferror(f), or a fault injected into a read or write of f on this thread:
 * how callers of fault_fread tell an I/O error from the end of the file. */
int fault_ferror(FILE *f);

#endif

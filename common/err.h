/* err.h - error convention shared by every module.
 *
 * Library code never exits: a function that can fail returns 0 (or a count)
 * on success and a negative ERR_* code on failure, after recording a
 * human-readable message with err_set(). The message lives in a thread-local
 * buffer and stays valid until the next err_set() on the same thread. Only a
 * tool's main() turns a code into an exit status (err_exit_code()).
 *
 * Exit statuses of every tool (documented in README.md):
 *   0 success, 1 bad input data, 2 usage error, 3 I/O error,
 *   4 out of memory, 5 internal error.
 */
#ifndef COMMON_ERR_H
#define COMMON_ERR_H

enum {
    ERR_OK = 0,
    ERR_IO = -1,       /* open/read/write/rename failed (errno text in message) */
    ERR_NOMEM = -2,    /* allocation failed */
    ERR_FORMAT = -3,   /* input is not in the expected format (bad JSON, bad magic) */
    ERR_USAGE = -4,    /* bad command-line argument or API misuse by the caller */
    ERR_CORRUPT = -5,  /* input is truncated or internally inconsistent */
    ERR_LIMIT = -6,    /* a configured limit was exceeded */
    ERR_INTERNAL = -7  /* a bug: an invariant of ours does not hold */
};

enum {
    EXIT_OK = 0,
    EXIT_DATA = 1,
    EXIT_USAGE = 2,
    EXIT_IO = 3,
    EXIT_NOMEM = 4,
    EXIT_INTERNAL = 5
};

/* Symbolic name of a code, e.g. "ERR_IO". Never NULL. */
const char *err_name(int code);

/* Record a message for the current thread and return `code` (so callers can
 * write `return err_set(ERR_IO, "...")`). printf-style. */
int err_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Like err_set, but appends ": <strerror(errno)>" using the errno at call time. */
int err_sys(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The last message recorded on this thread ("" if none). */
const char *err_msg(void);

/* Exit status for a (negative) error code. */
int err_exit_code(int code);

#endif

/* err.c - thread-local error messages and the code -> exit status map. */
#include "err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char err_buf[1024];

const char *err_name(int code)
{
    switch (code) {
    case ERR_OK: return "ERR_OK";
    case ERR_IO: return "ERR_IO";
    case ERR_NOMEM: return "ERR_NOMEM";
    case ERR_FORMAT: return "ERR_FORMAT";
    case ERR_USAGE: return "ERR_USAGE";
    case ERR_CORRUPT: return "ERR_CORRUPT";
    case ERR_LIMIT: return "ERR_LIMIT";
    case ERR_INTERNAL: return "ERR_INTERNAL";
    default: return "ERR_UNKNOWN";
    }
}

int err_set(int code, const char *fmt, ...)
{
    /* format into a scratch buffer first: the arguments may include err_msg()
     * itself, to prefix a context to the current message */
    char tmp[sizeof err_buf];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    memcpy(err_buf, tmp, sizeof err_buf);
    return code;
}

int err_sys(int code, const char *fmt, ...)
{
    int e = errno;
    char tmp[sizeof err_buf];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    memcpy(err_buf, tmp, sizeof err_buf);
    if (n >= 0 && (size_t)n < sizeof err_buf)
        snprintf(err_buf + n, sizeof err_buf - (size_t)n, ": %s", strerror(e));
    return code;
}

const char *err_msg(void) { return err_buf; }

int err_exit_code(int code)
{
    switch (code) {
    case ERR_OK: return EXIT_OK;
    case ERR_IO: return EXIT_IO;
    case ERR_NOMEM: return EXIT_NOMEM;
    case ERR_USAGE: return EXIT_USAGE;
    case ERR_FORMAT:
    case ERR_CORRUPT:
    case ERR_LIMIT: return EXIT_DATA;
    default: return EXIT_INTERNAL;
    }
}

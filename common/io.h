/* io.h - streaming byte/line reader and atomic writer, zstd/gzip transparent.
 *
 * Reader: a file path, "-" / NULL for stdin, or a memory buffer. The codec is
 * chosen by magic bytes (zstd 28 B5 2F FD, gzip 1F 8B), never by file name, so
 * `cat x.zst | tool` works. Lines may be arbitrarily long (the buffer grows to
 * fit the longest line, and only that: memory is O(longest line), not O(file)).
 * A truncated compressed stream is an error (ERR_CORRUPT), never a silent EOF.
 *
 * Writer: output is written to a file with no name (O_TMPFILE) in the
 * destination's directory, and io_writer_commit() fsyncs it and links it in:
 * straight under the final name when that does not exist yet (one atomic step),
 * else under a temporary name that is then renamed over the old output. So a
 * crash, even SIGKILL, never leaves a file that looks complete, nor (but for a
 * kill between that link and rename) any litter. Where the file system lacks
 * O_TMPFILE (or WEBTEXT_NO_TMPFILE is set) the temporary is named
 * ".NAME.tmp-PID-N@HOST" from the start; temporaries are removed by
 * io_writer_abort(), at exit, and on SIGINT/SIGTERM/SIGHUP/SIGPIPE, and those
 * of killed processes (this host, PID gone) by the next writer that opens an
 * output in the same directory. Paths ending in ".zst" are zstd-compressed.
 * "-"/NULL is stdout (not atomic), and so is any existing path that is not a
 * regular file (/dev/null, a FIFO).
 *
 * Fault injection for tests: if the environment variable IO_FAULT_ENOSPC_AFTER
 * is set to N, every writer's write(2) fails with ENOSPC once the process has
 * written more than N bytes in total; fault.h injects faults at any I/O call.
 */
#ifndef COMMON_IO_H
#define COMMON_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct io_reader io_reader;
typedef struct io_writer io_writer;

enum { IO_CODEC_NONE = 0, IO_CODEC_ZSTD = 1, IO_CODEC_GZIP = 2 };

/* Open `path` ("-" or NULL: stdin). On success *out owns the reader. */
int io_reader_open(io_reader **out, const char *path);
/* Read from a caller-owned buffer that must outlive the reader. */
int io_reader_open_mem(io_reader **out, const void *data, size_t n, const char *name);
/* Close and free; accepts NULL. */
void io_reader_close(io_reader *r);

/* Next line, without its newline byte. Returns 1 with *line and *len set, 0 at
 * the end of input, or a negative ERR_* code. *line points into the reader's buffer, is
 * NUL-terminated at line[len], may be modified in place by the caller, and
 * stays valid until the next call. A final line without '\n' is returned too. */
int io_getline(io_reader *r, char **line, size_t *len);

/* Read up to n decoded bytes. Returns bytes read (0 at end) or ERR_*. */
ssize_t io_read(io_reader *r, void *buf, size_t n);

const char *io_reader_name(const io_reader *r); /* path, or "<stdin>" */
uint64_t io_reader_lineno(const io_reader *r);  /* lines returned so far */
int io_reader_codec(const io_reader *r);
uint64_t io_reader_raw_pos(const io_reader *r);  /* source bytes consumed */
uint64_t io_reader_raw_size(const io_reader *r); /* source size, 0 if unknown */
/* Best estimate of the decoded size (0 if unknown): exact for plain files,
 * the frame header's content size for zstd when present, else 4x raw size. */
uint64_t io_reader_size_hint(const io_reader *r);

typedef struct {
    int compress; /* -1: by ".zst" suffix (default), 0: never, 1: always */
    int level;    /* zstd level, 0 = default (3) */
    int threads;  /* zstd worker threads: 0 = one per CPU (at most 8; each
                   * holds about 20 MB of job buffers), 1 = compress in the
                   * calling thread (about 1.5 MB at level 3), N = at most N */
} io_writer_opts;

/* Open a writer (see above). opts may be NULL. */
int io_writer_open(io_writer **out, const char *path, const io_writer_opts *opts);
int io_write(io_writer *w, const void *data, size_t n);
/* Flush, finish the zstd frame, fsync, rename into place, free. Returns 0 or
 * ERR_*; on error the temporary file is removed and the writer freed. */
int io_writer_commit(io_writer *w);
/* Commit outputs that belong together (a .bin and its .idx; kept and removed
 * documents), in order. All are flushed and fsynced first; then the older
 * versions of all but the first are removed, and each is put in place. A crash
 * in between leaves the old outputs, or a prefix of the new ones, never a new
 * file beside an old one it belongs with; an error takes back what was placed.
 * NULL entries are skipped; every writer is freed. Returns 0 or ERR_*. */
int io_writer_commit_group(io_writer **ws, size_t n);
/* Discard: remove the temporary file and free. Accepts NULL. */
void io_writer_abort(io_writer *w);
const char *io_writer_name(const io_writer *w);
uint64_t io_writer_bytes(const io_writer *w); /* uncompressed bytes written */

/* True if `path` names a regular file that exists. */
int io_is_regular_file(const char *path);
/* Create an unnamed temporary file in `dir` (O_TMPFILE, or a unique name
 * unlinked at once), so it vanishes with the process whatever happens.
 * Returns an fd or ERR_IO. */
int io_anon_tmpfile(const char *dir);

#endif

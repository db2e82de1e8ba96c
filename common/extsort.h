/* extsort.h - bounded-memory external sort of 16-byte records (two u64, ordered by the first,
 * then the second), optionally dropping repeats.
 *
 * Records are added to a buffer of about 3/4 of the memory given; a full buffer is sorted and
 * written as a run to an unnamed temporary file (it vanishes with the process, even after
 * kill -9). xs_finish sorts what is left in memory and xs_next merges it with the runs (a heap
 * over the runs, each read through its own buffer from the last 1/4 of the memory): every
 * spilled byte is written once and read once (at least 1 KB is used). Used by find_duplicates
 * for band keys (key, document) and candidate pairs (a, b). */
#ifndef COMMON_EXTSORT_H
#define COMMON_EXTSORT_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t a, b;
} xs_rec;

typedef struct xs_sorter xs_sorter;

/* mem: bytes the sorter may hold; tmpdir: where runs go (NULL:
 * $TMPDIR or /tmp); unique: drop records equal to the one before in the output. */
int xs_new(xs_sorter **out, size_t mem, const char *tmpdir, int unique);
int xs_add(xs_sorter *s, uint64_t a, uint64_t b);
/* No more adds: the sorted output starts. */
int xs_finish(xs_sorter *s);
/* The next record: 1, or 0 at the end, or ERR_*. */
int xs_next(xs_sorter *s, xs_rec *r);
void xs_free(xs_sorter *s);

typedef struct {
    uint64_t added, runs, spilled_bytes;
} xs_stats;
void xs_get_stats(const xs_sorter *s, xs_stats *st);

/* Sort n records in place (an introsort with the comparison inlined). */
void xs_sort(xs_rec *v, size_t n);

/* k-way merge of sorted runs that lie in files (fd, byte offset, record count), each read
 * sequentially through a buffer of buf_bytes: the same heap as the sorter's. */
typedef struct xs_merge xs_merge;
typedef struct {
    int fd;
    uint64_t off, n;
} xs_run;
int xs_merge_new(xs_merge **out, const xs_run *runs, size_t n, size_t buf_bytes, int unique);
int xs_merge_next(xs_merge *m, xs_rec *r);
void xs_merge_free(xs_merge *m);

#endif

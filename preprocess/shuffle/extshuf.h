/* extshuf.h - seeded shuffle of lines, in memory or out of core.
 *
 * Line i (0-based, over all inputs in order) gets the key
 * k(i) = splitmix64(i + splitmix64(seed)), a bijection of i, so keys never tie;
 * the output is the lines sorted by key. That order does not depend on how the
 * work is split: when the input does not fit in `memory`, lines are scattered
 * by the top bits of their key into temporary bucket files (key ranges, in
 * order), each bucket is sorted in memory (or split again by the next bits if
 * it is still too big), and buckets are written in order. Same seed and input
 * give the same output whatever the memory bound.
 *
 * Every output line ends with '\n' (a last line without one gets one).
 * Temporary files are unlinked as soon as they are created.
 */
#ifndef PREPROCESS_EXTSHUF_H
#define PREPROCESS_EXTSHUF_H

#include <stddef.h>
#include <stdint.h>

#include "common/io.h"

typedef struct {
    uint64_t seed;
    uint64_t memory;    /* bound on the working set in bytes (lines + index) */
    const char *tmpdir; /* where bucket files go */
} extshuf_opts;

typedef struct {
    uint64_t lines, bytes; /* lines and bytes read (bytes without newlines) */
    uint64_t buckets;      /* bucket files used (0: done in memory) */
    uint64_t spilled;      /* bytes written to bucket files */
    int levels;            /* scatter passes (0: in memory) */
} extshuf_stats;

/* Shuffle the lines of inputs[0..n) (paths, "-" for stdin) to `out`.
 * The caller commits or aborts `out`. */
int extshuf_run(const char *const *inputs, size_t n, io_writer *out, const extshuf_opts *o, extshuf_stats *st);

/* The key of line i for a seed (exposed for tests). */
uint64_t extshuf_key(uint64_t seed, uint64_t i);

#endif

/* lshjob.h - near-duplicate pairs from version 3 signature files (dedup/mhcol.h) in two kinds
 * of job, each in bounded memory:
 *
 *   band job   bands LO..HI-1: reads only those bands' value columns (and, with LO = 0, the
 *              exact-duplicate hashes, a band of its own), each band's keys (key, document)
 *              sorted by an external sort (common/extsort.h) in the memory given, the runs of
 *              equal keys turned into candidate pairs (all pairs, or the first member's when a
 *              run is longer than max_bucket: the rule of dedup/lsh.c), the pairs sorted and
 *              made unique by another external sort, written as a candidate file.
 *   verify     the candidate files of every band job merged (a heap over the sorted files,
 *              nothing held), the documents they name marked; their texts read from the
 *              source shards in file order (sequential reads; each checked against its exact
 *              hash) into a scratch store; the merge again, pairs verified with the exact
 *              Jaccard of the shingle sets in parallel batches, written as dedup/lsh.c writes
 *              them: the same pairs, in the same order, as one process over texts-in-file
 *              signatures.
 *
 * Candidate file: 64-byte header "WTMHCAND" u32 version(1) u32 flags(1: brute force) u64 corpus
 * ident u64 n_docs u32 bands u32 rows u32 lo u32 hi u64 max_bucket u64 reserved, then records
 * (u64 a, u64 b), a < b, sorted, unique, then "WTMHCEND" u64 count. */
#ifndef DEDUP_LSHJOB_H
#define DEDUP_LSHJOB_H
#include <stddef.h>
#include <stdint.h>

#include "common/io.h"
#include "common/pool.h"
#include "dedup/lsh.h"
#include "dedup/mhcol.h"

typedef struct {
    long long bands, rows, lo, hi;
    size_t max_bucket;
    int brute;
    size_t mem;          /* bytes this job may use for its sorts */
    const char *tmpdir;  /* where sorted runs spill (NULL: $TMPDIR) */
} lsh_band_opts;

typedef struct {
    uint64_t keys, candidates, spilled_bytes, sig_bytes_read;
} lsh_band_stats;

/* The candidate pairs of bands [lo, hi) into the candidate file out (written atomically). */
int lsh_band_job(mc_corpus *c, const lsh_band_opts *o, const char *out, lsh_band_stats *st);

typedef struct {
    int denom;
    double min_sim, threshold;
    size_t mem, threads;
    pool *pl;
    const char *tmpdir;
    long long lo, hi;    /* the bands the candidate files must cover together, each once */
} lsh_verify_opts;

typedef struct {
    uint64_t candidates, docs, text_bytes, source_bytes_read, sig_bytes_read, dup_ids, cand_bytes_read;
    uint64_t shingled; /* shingle sets computed (a document again when the cache had let it go) */
    lsh_written w;
} lsh_verify_stats;

/* Merge the candidate files, verify, write the pairs to w. */
int lsh_verify_job(mc_corpus *c, char *const *cands, size_t nc, const lsh_verify_opts *o, io_writer *w,
                   lsh_verify_stats *st);

#endif

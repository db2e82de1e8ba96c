/* substr_shard.h - substr_dedup in shards: one suffix array per shard of documents
 * (assigned by a hash of their id, RefinedWeb's way, so each shard samples every source),
 * and a cross-shard pass that finds, exactly, the repeats whose copies lie in different
 * shards, so that the spans struck are the ones one suffix array of the whole input gives.
 *
 * Why it is exact. A span is struck from position p when the k units from p occur
 * elsewhere (earlier, for keep-first) inside one document; the struck ranges are the
 * union of [p, p + k) over such p (substr.h). Copies inside one shard are found by the
 * shard's suffix array. For copies in different shards: every document's g-grams
 * (g = ceil(k / 2)) are hashed and winnowed (Schleimer et al. 2003: the least hash of
 * every w = k - g + 1 consecutive g-grams, the rightmost on ties), so every k units hold
 * a whole winnowing window and two equal k-unit windows select the same g-gram at the
 * same offset. A hash selected in two or more shards is a candidate; the windows that
 * could contain it, [x + g - k, x + k) around each occurrence x, are cut from their
 * documents (overlapping or touching ones merged), laid out in input order, and searched
 * by one more suffix array with the same k and rule: every match there is a real one, and
 * every cross-shard match is there. Splitting the candidates by hash range (--hash-ranges)
 * bounds that pass's memory and keeps it exact (a match is found in the range of the
 * g-gram it shares).
 *
 * Work files (in the work directory; native byte order, written atomically):
 *   spans.SSSS       a shard's spans: {doc, start, end} (the record's number in the input
 *                    and byte offsets in its text, before narrowing to whole characters),
 *                    by document then start
 *   fp.SSSS.RRRR     shard S's fingerprints of hash range R: {hash, doc, pos, shard}
 *   cross.RRRR       the spans the cross-shard pass found in range R
 * Each: a 48-byte header ("WTSUBST1", kind, unit, mode, k, shards, ranges, shard, range, g,
 * 0), the entries, a 24-byte trailer ("WTSUBEND", entries, records of the input read). */
#ifndef DEDUP_SUBSTR_SHARD_H
#define DEDUP_SUBSTR_SHARD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/fsutil.h"
#include "common/io.h"
#include "common/progress.h"
#include "dedup/substr_corpus.h"

typedef struct {
    uint64_t doc;
    uint32_t start, end;
} ss_span;

typedef struct {
    uint64_t hash, doc;
    uint32_t pos, shard;
} ss_fp;

enum { SS_SPANS = 1, SS_FPRINTS = 2, SS_CROSS = 3 };

typedef struct {
    uint32_t kind, unit, mode, k, nshards, nranges, shard, range, g, reserved;
} ss_header; /* shard / range: UINT32_MAX where the file is not of one */

/* The run's settings, shared by every stage. */
typedef struct {
    int unit, mode, builder, threads;
    int k, nshards, nranges;
    const char *text_field, *id_field, *work_dir;
    const bpe *tok;  /* unit 2 */
    int quiet;
} ss_config;

/* The shard of a record: a hash of its id (the record's number when it has none). */
int ss_shard_of(const char *id, uint64_t record, int nshards);
/* The hash range of a fingerprint. */
int ss_range_of(uint64_t hash, int nranges);
/* The winnowing parameters for threshold k: g-grams, windows of w (w + g - 1 == k). */
void ss_winnow_params(int k, int *g, int *w);
/* One document's symbols (nsym of them; unit 1 bytes, 2 16-bit): every selected g-gram,
 * emit(arg, hash, position) in position order, each once. 0 or the first nonzero emit. */
typedef int (*ss_emit_fn)(void *arg, uint64_t hash, uint32_t pos);
int ss_winnow(const void *sym, int unit, int64_t nsym, int g, int w, ss_emit_fn emit, void *arg);

/* A work file read back: the header must equal want, each entry is checked as it comes: spans
 * in order, apart, not empty; fingerprints in document order, of the header's range and
 * shard; the trailer's count matches. Errors name the file and the entry. */
typedef struct {
    FILE *f;
    char *name;
    ss_header h;
    size_t recsize;
    uint64_t count, nrecords, seen;
    ss_span last;
    uint64_t last_doc;
} ss_reader;

int ss_reader_open(ss_reader *r, const char *path, const ss_header *want);
/* Over an open stream of size bytes (the fuzz target: fmemopen); r owns f. */
int ss_reader_open_stream(ss_reader *r, FILE *f, uint64_t size, const char *name, const ss_header *want);
/* 1 with *rec (an ss_span or ss_fp) filled, 0 at the end, or ERR_*. */
int ss_reader_next(ss_reader *r, void *rec);
void ss_reader_close(ss_reader *r);

/* The work file's name: DIR/spans.SSSS, DIR/fp.SSSS.RRRR, DIR/cross.RRRR. */
void ss_path(char *buf, size_t n, const char *dir, int kind, int shard, int range);

typedef struct {
    uint64_t records, docs, units, spans, fprints, candidates, region_units;
    double read_s, find_s;
} ss_stats;

/* Stage find: shard's documents, their suffix array's spans into spans.SSSS and their
 * fingerprints into fp.SSSS.* (every range). Reads every input record. */
int ss_find(const ss_config *cfg, const fs_list *files, int shard, progress *pg, ss_stats *st);
/* Stage cross: range's fingerprints of every shard, the windows of those in two or more
 * shards cut from the input and searched: cross.RRRR. */
int ss_cross(const ss_config *cfg, const fs_list *files, int range, progress *pg, ss_stats *st);

/* Stage write's source: every shard's and range's spans, merged by document as the input
 * is read again (one entry of each file in memory at a time). */
typedef struct {
    ss_reader *r;
    ss_span *cur;
    int *has;
    size_t n;
    sc_span *buf;
    size_t cap;
} ss_merge;

int ss_merge_open(ss_merge *m, const ss_config *cfg);
/* Record doc's spans (docs asked for in increasing order), sorted and merged where they
 * overlap or touch: *sp valid until the next call. */
int ss_merge_doc(ss_merge *m, uint64_t doc, sc_span **sp, size_t *n);
/* Every file read to its end, each made from nrecords records; then closed. */
int ss_merge_finish(ss_merge *m, uint64_t nrecords);
void ss_merge_close(ss_merge *m);

#endif

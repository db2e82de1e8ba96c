/* mhcol.h - signature files version 3: no texts, fixed-size records in column blocks, and a
 * reference to where each document is in its source shard.
 *
 * A version 1/2 file (mhsig.h) keeps every id and text beside the signature, so it is bigger
 * than the text (1.35 bytes per byte on data/corpus), and a band job that wants the values of
 * some bands reads it all. Version 3 keeps, per document, 32 bytes of facts and the K values,
 * laid out by column in blocks of B documents (B = 16384 unless the file says otherwise):
 *
 *   header (64 bytes): "WTMHSIG\0" u32 version(3) u32 num_perm u32 kind u32 ngram u64 seed
 *                      u32 scheme u32 block_docs u32 meta_len u32 n_sources u64 reserved[2]
 *   meta (meta_len bytes, a multiple of 8): u32 len + the id field name, u32 len + the text
 *                      field name; per source: u64 size, u64 fingerprint (XXH3 of its size
 *                      and of its first and last 64 KB), u32 len + its absolute path
 *   blocks: block j holds n documents (B, the last fewer): exact u64[n], id_hash u64[n],
 *           line u64[n] (the line number in the source, from 1), source u32[n], text_len
 *           u32[n], then value column 0 u32[n], column 1, ... column K-1
 *   trailer (24 bytes): "WTMHEND\0" u64 n_docs u64 n_blocks
 *
 * So the values of bands LO..HI-1 (rows r) of a block are one contiguous read of
 * (HI-LO) * r * 4 * n bytes: a band job reads only its bands. Verification reads the
 * candidates' texts from the sources themselves (dedup/lshjob.h), which must be where they
 * were, unchanged (size and fingerprint are checked; each text's exact hash too). */
#ifndef DEDUP_MHCOL_H
#define DEDUP_MHCOL_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "dedup/mhsig.h"

#define MHSIG_VERSION_COL 3
#define MC_BLOCK_DOCS 16384

enum { MC_EXACT, MC_IDHASH, MC_LINE, MC_SRC, MC_LEN, MC_NCOLS };

typedef struct {
    char *path;
    uint64_t size, fingerprint;
} mc_source;

/* pread until n bytes or the end of the file: the bytes read, or -1 with errno. */
ssize_t mc_pread_upto(int fd, void *buf, size_t n, uint64_t off);
/* The size and fingerprint of a file (as the header keeps them). */
int mc_fingerprint(const char *path, uint64_t *size, uint64_t *fp);

typedef struct mc_writer mc_writer;
/* The sources are the input files, in the order their documents come (index i in mc_writer_add);
 * their sizes and fingerprints are taken now. */
int mc_writer_open(mc_writer **out, const char *path, const mh_params *p, const char *id_field,
                   const char *text_field, char *const *sources, size_t nsrc);
int mc_writer_add(mc_writer *w, uint32_t src, uint64_t line, uint32_t text_len, uint64_t exact, uint64_t id_hash,
                  const uint32_t *sig);
int mc_writer_commit(mc_writer *w);
void mc_writer_abort(mc_writer *w);

typedef struct {
    char *path;
    int fd;
    mh_params p;
    uint32_t block_docs;
    uint64_t n_docs, n_blocks, data_off, size;
    char *id_field, *text_field;
    mc_source *src;
    size_t nsrc;
    uint64_t bytes_read; /* by mc_read_* */
} mc_file;

/* The version of the signature file at path (1, 2 or 3), or ERR_*. */
int mh_file_version(const char *path);
/* Open a version 3 file; want (may be NULL) must match its parameters. */
int mc_open(mc_file *f, const char *path, const mh_params *want);
void mc_close(mc_file *f);
/* Documents in block j. */
uint32_t mc_block_n(const mc_file *f, uint64_t j);
/* Value columns [lo, hi) of block j into out (column-major: out[(c - lo) * n + i]). */
int mc_read_values(mc_file *f, uint64_t j, uint32_t lo, uint32_t hi, uint32_t *out);
/* Fact column c (MC_*) of block j: u64 for EXACT, IDHASH, LINE; u32 for SRC, LEN. */
int mc_read_facts(mc_file *f, uint64_t j, int c, void *out);

/* Several version 3 files as one corpus, documents numbered across them (u64). */
typedef struct {
    mc_file *files;
    size_t nf;
    uint64_t *base; /* base[nf] = n_docs */
    uint64_t n_docs;
    uint64_t ident;  /* a hash of the files' parameters, sizes and document counts */
} mc_corpus;
int mc_corpus_open(mc_corpus *c, char *const *paths, int n);
void mc_corpus_close(mc_corpus *c);
uint64_t mc_corpus_bytes_read(const mc_corpus *c);

#endif

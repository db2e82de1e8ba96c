/* mhsig.h - MinHash signatures, the signature file, LSH banding, Jaccard.
 *
 * Shingles: character n-grams of the UTF-8 bytes (default n = 5; every
 * n-gram including the last one; a text shorter than n bytes is one shingle,
 * the whole text) or word n-grams (--word-ngrams: words split on Unicode
 * White_Space). A character 5-gram is kept exactly as a 40-bit integer; word
 * n-grams and character n-grams with n > 8 are hashed with XXH3-64.
 *
 * Signature: K values; value k of a document is the minimum over its
 * shingles of h_k(x) = high 32 bits of (a_k * XXH3_64(x, seed) + b_k) mod 2^64,
 * with (a_k odd, b_k) drawn from splitmix64(seed): K hash functions derived
 * from one xxHash per shingle with fixed seeds.
 *
 * Signature file (versioned, little-endian): a 64-byte header
 *   "WTMHSIG\0" u32 version(1) u32 num_perm u32 kind(0 char, 1 word) u32 ngram
 *   u64 seed u64 reserved[5]
 * then one record per document
 *   u32 id_len, id bytes, u32 text_len, text bytes, u64 exact_hash, num_perm x u32
 * then a 24-byte trailer "WTMHEND\0" u64 n_docs u64 record_bytes. A file whose
 * trailer is missing was cut short and is refused. The text is kept so that
 * candidates can be verified with exact Jaccard by whoever reads the file.
 */
#ifndef DEDUP_MHSIG_H
#define DEDUP_MHSIG_H
#include <stddef.h>
#include <stdint.h>

#define MHSIG_VERSION 1     /* files of the classic scheme (as before version 2 existed) */
#define MHSIG_VERSION_OPH 2 /* files of one-permutation hashing: u32 scheme (1) at byte 32 */
enum { MH_CHAR = 0, MH_WORD = 1 };
/* MH_CLASSIC: K hash functions, the minimum of each over the shingles (above).
 * MH_OPH: one permutation hashing with optimal densification (Shrivastava, ICML 2017): each
 * shingle's one hash x picks bin (hi32(x) * K) >> 32 and competes there with lo32(x); a bin no
 * shingle fell in copies the bin that a probe sequence shared by every document finds first
 * filled (h(bin, attempt) mod K). Pr[sig_A[k] == sig_B[k]] is still the Jaccard similarity,
 * at one hash per shingle instead of K. */
enum { MH_CLASSIC = 0, MH_OPH = 1 };

typedef struct {
    uint32_t num_perm;
    uint32_t kind;
    uint32_t ngram;
    uint64_t seed;
    uint32_t scheme; /* MH_CLASSIC (0, the default) or MH_OPH */
} mh_params;

typedef struct {
    mh_params p;
    uint64_t *a, *b; /* num_perm each */
} mh_hasher;

int mh_hasher_init(mh_hasher *h, const mh_params *p);
void mh_hasher_free(mh_hasher *h);

/* Shingles of text as 64-bit values, sorted and distinct, into *out (realloc'd).
 * Returns the count (0 only for empty text) or ERR_NOMEM. */
long mh_shingles(const mh_params *p, const char *text, size_t n, uint64_t **out, size_t *cap);
/* The same shingles in text order, with repeats (enough for a signature). */
long mh_shingles_raw(const mh_params *p, const char *text, size_t n, uint64_t **out, size_t *cap);
/* Signature from a shingle set (repeats allowed), by h->p.scheme. */
void mh_signature(const mh_hasher *h, const uint64_t *sh, size_t n, uint32_t *sig);
void mh_signature_oph(const mh_hasher *h, const uint64_t *sh, size_t n, uint32_t *sig);
/* The classic signature's kernel: avx512, avx2 or baseline (NULL: the best this CPU runs; at
 * first use, WEBTEXT_MINHASH_KERNEL names one). ERR_USAGE for one the CPU lacks. */
int mh_set_kernel(const char *name);
const char *mh_kernel_name(void);
/* Hash of the normalised text for exact duplicates: case-folded (utf8proc),
 * runs of white space collapsed to one space, trimmed. */
uint64_t mh_exact_hash(const char *text, size_t n);

enum { MH_DENOM_UNION = 0, MH_DENOM_MIN = 1, MH_DENOM_MAX = 2 };
/* |A n B| / (|A u B|, min or max of |A|,|B|) of two sorted distinct sets. */
double mh_jaccard(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, int denom);

/* datasketch's choice of (bands, rows) with bands*rows <= num_perm: minimise
 * fp_weight * (area under P(candidate) below the threshold) + fn_weight *
 * (area above it not covered). */
void mh_optimal_bands(double threshold, uint32_t num_perm, double fp_weight, double fn_weight, uint32_t *bands,
                      uint32_t *rows);

/* ---- signature files ----------------------------------------------------- */

typedef struct mh_writer mh_writer;
int mh_writer_open(mh_writer **out, const char *path, const mh_params *p);
int mh_writer_add(mh_writer *w, const char *id, size_t id_len, const char *text, size_t text_len, uint64_t exact,
                  const uint32_t *sig);
int mh_writer_commit(mh_writer *w); /* writes the trailer, renames into place */
void mh_writer_abort(mh_writer *w);

typedef struct {
    char *path;
    mh_params p;
    const uint8_t *map;
    size_t size;
    uint64_t n_docs;
    uint64_t *rec;   /* offset of each record */
} mh_file;

/* Map and index a signature file. want (may be NULL) must match its
 * parameters, or the file is refused naming the difference. */
int mh_file_open(mh_file *f, const char *path, const mh_params *want);
void mh_file_close(mh_file *f);
/* Fields of record i. */
void mh_file_doc(const mh_file *f, uint64_t i, const char **id, uint32_t *id_len, const char **text,
                 uint32_t *text_len, uint64_t *exact, uint32_t *sig /* num_perm values copied, or NULL */);

#endif

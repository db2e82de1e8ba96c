/* lsh.h - near-duplicate pairs from MinHash signature files (the library under
 * find_duplicates): the files opened as one corpus, candidate pairs from the
 * LSH band buckets (and equal exact-duplicate hashes), each verified with the
 * exact Jaccard similarity of the two shingle sets, and the pairs written as
 * JSON lines. Every result is the same whatever the number of threads or files. */
#ifndef DEDUP_LSH_H
#define DEDUP_LSH_H

#include <stddef.h>
#include <stdint.h>

#include "common/io.h"
#include "common/pool.h"
#include "dedup/mhsig.h"

/* Signature files read as one list of documents, numbered across the files. */
typedef struct {
    mh_file *files;
    size_t nf;
    uint64_t *base; /* first global index of each file; base[nf] = n_docs */
    uint64_t n_docs;
} mh_corpus;

/* Open the files (the same parameters in all, else an error naming the file). */
int mh_corpus_open(mh_corpus *c, char *const *paths, int n);
void mh_corpus_close(mh_corpus *c);
/* Document g: id, text (any NULL), and its exact-duplicate hash. */
uint64_t mh_corpus_doc(const mh_corpus *c, uint32_t g, const char **id, uint32_t *il, const char **text,
                       uint32_t *tl);
/* Ids that appear more than once across the files (the first five named on stderr). */
int mh_corpus_dup_ids(const mh_corpus *c, uint64_t *dups);

/* Candidate pairs (a << 32 | b, a < b), sorted and unique: documents sharing a
 * bucket of bands [blo, bhi) of `rows` rows (a bucket of more than max_bucket
 * documents gives the pairs of its first member only; 0: no limit), and, with
 * blo 0, equal exact-duplicate hashes; brute: every pair. *pairs is malloc'd. */
int lsh_candidates(const mh_corpus *c, long long blo, long long bhi, long long rows, size_t max_bucket, int brute,
                   uint64_t **pairs, size_t *n);
/* sim[i]: the Jaccard similarity (MH_DENOM_*) of pair i's shingle sets, on pool pl. */
int lsh_verify(const mh_corpus *c, const uint64_t *pairs, size_t n, int denom, pool *pl, size_t threads, double *sim);

typedef struct {
    uint64_t written, above, exact; /* pairs written; of them >= threshold or exact; exact */
} lsh_written;
/* {"a": ID, "b": ID, "jaccard": S[, "exact": true]} for each pair with sim >=
 * min_sim or equal normalised texts. */
int lsh_write_pairs(io_writer *w, const mh_corpus *c, const uint64_t *pairs, const double *sim, size_t n,
                    double min_sim, double threshold, lsh_written *out);

/* One line {"a": ID, "b": ID, "jaccard": S[, "exact": true]}. */
int lsh_put_pair(io_writer *w, const char *ia, size_t la, const char *ib, size_t lb, double sim, int exact);

#endif

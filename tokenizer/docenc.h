/* docenc.h - the multi-threaded JSON-lines -> token ids pipeline shared by
 * preprocess_data and tokenize.
 *
 * The calling thread reads lines into batches (about 4 MB each) and keeps a
 * window of batches in flight; pool threads parse the JSON and encode every
 * requested key; the calling thread hands finished batches to the callback
 * strictly in input order. So the output never depends on the number of
 * workers, and memory is bounded by the window (plus the longest line).
 *
 * A value may be a string (one sequence) or, as in Megatron, a list of
 * strings (one sequence per non-empty string). Megatron's semantics: empty
 * pieces give no sequence; with append_eod the EOD id goes at the end of the
 * last sequence of a non-empty document.
 */
#ifndef TOKENIZER_DOCENC_H
#define TOKENIZER_DOCENC_H
#include <stddef.h>
#include <stdint.h>

#include "bpe.h"

enum {
    DOC_OK = 0,
    DOC_BAD_JSON = 1,    /* not valid JSON */
    DOC_MISSING_KEY = 2, /* a key is absent */
    DOC_NOT_STRING = 3,  /* a key holds neither a string nor a list of strings */
    DOC_N_STATUS = 4
};
extern const char *const docenc_status_name[DOC_N_STATUS];

/* What the callback sees for one record. */
typedef struct {
    int status;
    const char *file;  /* input name */
    uint64_t lineno;
    size_t err_col;    /* for DOC_BAD_JSON */
    const char *bad_key;
    uint64_t text_bytes; /* bytes of text encoded (all keys) */
    /* per key k: n_seq[k] sequences; their lengths seq_len[k][0..n_seq-1];
     * their ids concatenated in ids[k] */
    const uint32_t *const *ids;
    const uint32_t *const *seq_len;
    const size_t *n_seq;
} docenc_doc;

typedef int (*docenc_fn)(void *ctx, const docenc_doc *d);

typedef struct {
    const bpe *bpe;
    const char *const *keys;
    size_t n_keys;
    int append_eod;
    int workers;           /* encoding threads (>= 1) */
    size_t batch_bytes;    /* 0: 4 MiB */
    const char *progress_label; /* NULL: no progress line */
} docenc_opts;

typedef struct {
    uint64_t records, blank_lines, bytes_in, text_bytes, tokens;
    uint64_t by_status[DOC_N_STATUS];
} docenc_stats;

/* Run over the input files in order ("-" is stdin). The callback gets every
 * record (including bad ones, with their status) in input order; a nonzero
 * return from it stops the run with that code. */
int docenc_run(const docenc_opts *o, const char *const *files, size_t n_files, docenc_fn fn, void *ctx,
               docenc_stats *st);

#endif

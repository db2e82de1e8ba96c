/* mmidx.h - Megatron-LM's mmap indexed dataset (PREFIX.bin + PREFIX.idx),
 * FORMATS.md section 1: writer, validating reader, merge.
 *
 * Writer: tokens stream into PREFIX.bin through the atomic writer; only the
 * per-sequence lengths (4 bytes each) and the document index (8 bytes per
 * document) are held in memory. Pointers are computed in int64 when the .idx
 * is written. Both files are written under temporary names; .bin is renamed
 * into place first and .idx last, so a PREFIX.idx that exists always
 * describes a complete PREFIX.bin.
 *
 * Reader: both files are mmap'd; mmidx_open() checks every invariant (magic,
 * version, dtype, sizes, lengths >= 0, pointers = running sum of
 * length*itemsize, document index from 0 non-decreasing to N) and names the
 * first one that fails.
 */
#ifndef TOKENIZER_MMIDX_H
#define TOKENIZER_MMIDX_H
#include <stddef.h>
#include <stdint.h>

enum {
    MMIDX_UINT8 = 1, MMIDX_INT8 = 2, MMIDX_INT16 = 3, MMIDX_INT32 = 4,
    MMIDX_INT64 = 5, MMIDX_FLOAT64 = 6, MMIDX_FLOAT32 = 7, MMIDX_UINT16 = 8
};
#define MMIDX_HEADER_SIZE 34

/* Item size of a dtype code, 0 if not a valid code. */
size_t mmidx_itemsize(int dtype);
const char *mmidx_dtype_name(int dtype);
/* preprocess_data's rule: uint16 when vocab_size < 65500, else int32. */
int mmidx_dtype_for_vocab(size_t vocab_size);

typedef struct mmidx_builder mmidx_builder;

/* Start PREFIX.bin / PREFIX.idx with the given dtype code. */
int mmidx_builder_open(mmidx_builder **out, const char *prefix, int dtype);
/* Append one sequence of token ids (converted to the dtype; an id that does
 * not fit is ERR_FORMAT). */
int mmidx_add_sequence(mmidx_builder *b, const uint32_t *ids, size_t n);
/* Close the current document: entry = number of sequences so far. */
int mmidx_end_document(mmidx_builder *b);
uint64_t mmidx_builder_sequences(const mmidx_builder *b);
uint64_t mmidx_builder_documents(const mmidx_builder *b);
uint64_t mmidx_builder_tokens(const mmidx_builder *b);
/* Write the .idx and rename both files into place; frees b. */
int mmidx_builder_commit(mmidx_builder *b);
/* Remove the temporary files; frees b. Accepts NULL. */
void mmidx_builder_abort(mmidx_builder *b);

/* Write an .idx file from its arrays (pointers computed in int64), atomically. */
int mmidx_write_index(const char *path, int dtype, const int32_t *len, uint64_t n, const int64_t *doc, uint64_t d);

typedef struct {
    char *prefix;
    int dtype;
    size_t itemsize;
    uint64_t n_seq;      /* N */
    uint64_t n_doc_idx;  /* D = documents + 1 */
    const uint8_t *idx;  /* mapped .idx */
    size_t idx_size;
    const uint8_t *bin;  /* mapped .bin (NULL when empty) */
    size_t bin_size;
} mmidx;

/* Map PREFIX.bin/.idx and validate. Errors name the file and the invariant. */
int mmidx_open(mmidx *d, const char *prefix);
void mmidx_close(mmidx *d);

static inline int32_t mmidx_length(const mmidx *d, uint64_t i)
{
    int32_t v;
    __builtin_memcpy(&v, d->idx + MMIDX_HEADER_SIZE + 4 * i, 4);
    return v;
}
static inline int64_t mmidx_pointer(const mmidx *d, uint64_t i)
{
    int64_t v;
    __builtin_memcpy(&v, d->idx + MMIDX_HEADER_SIZE + 4 * d->n_seq + 8 * i, 8);
    return v;
}
static inline int64_t mmidx_doc_index(const mmidx *d, uint64_t k)
{
    int64_t v;
    __builtin_memcpy(&v, d->idx + MMIDX_HEADER_SIZE + 12 * d->n_seq + 8 * k, 8);
    return v;
}
/* Token j of sequence i, as an integer (float dtypes are truncated). */
int64_t mmidx_token(const mmidx *d, uint64_t i, uint64_t j);

/* Append every sequence and document of src (same dtype) to b, Megatron's
 * add_index(): document index shifted by the sequences before it. */
int mmidx_builder_append(mmidx_builder *b, const mmidx *src);

#endif

/* safetensors.h - read and write the safetensors format (FORMATS.md section 7):
 * u64 little-endian header length, a JSON header {name: {dtype, shape,
 * data_offsets}} with an optional "__metadata__" object of strings, then the
 * raw little-endian data. Used for golden fixtures and Hugging Face export.
 *
 * The reader validates the header (JSON, dtypes, shapes against offsets,
 * offsets inside the file) and names the file and tensor that fail.
 */
#ifndef TRAIN_SAFETENSORS_H
#define TRAIN_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *name;
    char dtype[8];  /* "F32", "I32", "F64", "BF16", ... */
    int ndim;
    int64_t shape[8];
    size_t nbytes;
    const uint8_t *data; /* into the mapped file */
} st_tensor;

typedef struct {
    char *path;
    uint8_t *map;
    size_t size;
    st_tensor *t;
    int n;
    st_tensor **by_name; /* t sorted by name: st_find's binary search */
    void *meta;          /* cJSON object or NULL */
} st_file;

int st_open(st_file *f, const char *path);
void st_close(st_file *f);
/* Tensor by name or NULL (O(log n)). */
const st_tensor *st_find(const st_file *f, const char *name);
/* Metadata string or NULL. */
const char *st_meta(const st_file *f, const char *key);
/* Number of elements of t. */
int64_t st_numel(const st_tensor *t);
/* Element i of t as double (F32, F64, I32, I64, BF16, F16 supported). */
double st_get(const st_tensor *t, int64_t i);

/* Writer: add tensors (pointers must stay valid until st_write), then write
 * atomically. */
typedef struct st_writer st_writer;
st_writer *st_writer_new(void);
int st_writer_add(st_writer *w, const char *name, const char *dtype, const int64_t *shape, int ndim,
                  const void *data, size_t nbytes);
int st_writer_meta(st_writer *w, const char *key, const char *value);
int st_write(st_writer *w, const char *path);
void st_writer_free(st_writer *w);

#endif

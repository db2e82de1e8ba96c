/* mmidx.c - see mmidx.h. */
#include "mmidx.h"
#include "common/fault.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "common/io.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mmidx assumes a little-endian host (the format is little-endian)"
#endif

static const char MAGIC[9] = {'M', 'M', 'I', 'D', 'I', 'D', 'X', 0, 0};

size_t mmidx_itemsize(int dtype)
{
    static const size_t sz[9] = {0, 1, 1, 2, 4, 8, 8, 4, 2};
    return dtype >= 1 && dtype <= 8 ? sz[dtype] : 0;
}

const char *mmidx_dtype_name(int dtype)
{
    static const char *nm[9] = {"?", "uint8", "int8", "int16", "int32", "int64", "float64", "float32", "uint16"};
    return dtype >= 1 && dtype <= 8 ? nm[dtype] : "invalid";
}

int mmidx_dtype_for_vocab(size_t vocab_size) { return vocab_size < 65500 ? MMIDX_UINT16 : MMIDX_INT32; }

struct mmidx_builder {
    char *prefix;
    int dtype;
    size_t itemsize;
    io_writer *bin;
    int32_t *len;
    size_t n_len, cap_len;
    int64_t *doc;
    size_t n_doc, cap_doc;
    uint64_t tokens;
    void *conv;
    size_t conv_cap;
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 1024;
    while (nc < need) nc *= 2;
    void *np = realloc(*p, nc * elem);
    if (!np) return err_set(ERR_NOMEM, "out of memory (index of %zu entries)", need);
    *p = np;
    *cap = nc;
    return 0;
}

static char *path_with(const char *prefix, const char *ext)
{
    size_t n = strlen(prefix);
    char *p = malloc(n + strlen(ext) + 1);
    if (p) {
        memcpy(p, prefix, n);
        strcpy(p + n, ext);
    }
    return p;
}

int mmidx_builder_open(mmidx_builder **out, const char *prefix, int dtype)
{
    if (!mmidx_itemsize(dtype)) return err_set(ERR_USAGE, "invalid dtype code %d", dtype);
    mmidx_builder *b = calloc(1, sizeof *b);
    if (!b || !(b->prefix = strdup(prefix))) { free(b); return err_set(ERR_NOMEM, "out of memory"); }
    b->dtype = dtype;
    b->itemsize = mmidx_itemsize(dtype);
    char *bin = path_with(prefix, ".bin");
    if (!bin) { mmidx_builder_abort(b); return err_set(ERR_NOMEM, "out of memory"); }
    io_writer_opts o = {.compress = 0, .level = 0};
    int rc = io_writer_open(&b->bin, bin, &o);
    free(bin);
    if (rc) { mmidx_builder_abort(b); return rc; }
    rc = grow((void **)&b->doc, &b->cap_doc, 1, sizeof *b->doc);
    if (rc) { mmidx_builder_abort(b); return rc; }
    b->doc[b->n_doc++] = 0;
    *out = b;
    return 0;
}

int mmidx_add_sequence(mmidx_builder *b, const uint32_t *ids, size_t n)
{
    if (n > INT32_MAX)
        return err_set(ERR_LIMIT, "%s: a sequence of %zu tokens does not fit the int32 length field", b->prefix, n);
    int rc = grow((void **)&b->len, &b->cap_len, b->n_len + 1, sizeof *b->len);
    if (rc) return rc;
    rc = grow(&b->conv, &b->conv_cap, n ? n : 1, b->itemsize);
    if (rc) return rc;
    switch (b->dtype) {
    case MMIDX_UINT16: {
        uint16_t *o = b->conv;
        for (size_t i = 0; i < n; i++) {
            if (ids[i] > UINT16_MAX) return err_set(ERR_FORMAT, "%s: token id %u does not fit uint16", b->prefix, ids[i]);
            o[i] = (uint16_t)ids[i];
        }
        break;
    }
    case MMIDX_INT32: {
        int32_t *o = b->conv;
        for (size_t i = 0; i < n; i++) {
            if (ids[i] > INT32_MAX) return err_set(ERR_FORMAT, "%s: token id %u does not fit int32", b->prefix, ids[i]);
            o[i] = (int32_t)ids[i];
        }
        break;
    }
    case MMIDX_INT64: {
        int64_t *o = b->conv;
        for (size_t i = 0; i < n; i++) o[i] = ids[i];
        break;
    }
    default:
        return err_set(ERR_USAGE, "%s: writing token ids as %s is not supported", b->prefix, mmidx_dtype_name(b->dtype));
    }
    rc = io_write(b->bin, b->conv, n * b->itemsize);
    if (rc) return rc;
    b->len[b->n_len++] = (int32_t)n;
    b->tokens += n;
    return 0;
}

int mmidx_end_document(mmidx_builder *b)
{
    int rc = grow((void **)&b->doc, &b->cap_doc, b->n_doc + 1, sizeof *b->doc);
    if (rc) return rc;
    b->doc[b->n_doc++] = (int64_t)b->n_len;
    return 0;
}

uint64_t mmidx_builder_sequences(const mmidx_builder *b) { return b->n_len; }
uint64_t mmidx_builder_documents(const mmidx_builder *b) { return b->n_doc - 1; }
uint64_t mmidx_builder_tokens(const mmidx_builder *b) { return b->tokens; }

static void builder_free(mmidx_builder *b)
{
    free(b->prefix);
    free(b->len);
    free(b->doc);
    free(b->conv);
    free(b);
}

void mmidx_builder_abort(mmidx_builder *b)
{
    if (!b) return;
    io_writer_abort(b->bin);
    builder_free(b);
}

static int write_index(io_writer *w, int dtype, const int32_t *len, uint64_t n, const int64_t *doc, uint64_t d)
{
    uint8_t hdr[MMIDX_HEADER_SIZE];
    uint64_t version = 1;
    memcpy(hdr, MAGIC, 9);
    memcpy(hdr + 9, &version, 8);
    hdr[17] = (uint8_t)dtype;
    memcpy(hdr + 18, &n, 8);
    memcpy(hdr + 26, &d, 8);
    int rc = io_write(w, hdr, sizeof hdr);
    if (!rc) rc = io_write(w, len, n * sizeof *len);
    int64_t chunk[4096], ptr = 0, item = (int64_t)mmidx_itemsize(dtype);
    for (uint64_t i = 0; !rc && i < n;) {
        size_t k = 0;
        for (; k < 4096 && i < n; k++, i++) {
            chunk[k] = ptr;
            ptr += (int64_t)len[i] * item; /* int64: Megatron issue #1672 */
        }
        rc = io_write(w, chunk, k * sizeof *chunk);
    }
    if (!rc) rc = io_write(w, doc, d * sizeof *doc);
    return rc;
}

int mmidx_write_index(const char *path, int dtype, const int32_t *len, uint64_t n, const int64_t *doc, uint64_t d)
{
    io_writer *w = NULL;
    io_writer_opts o = {.compress = 0, .level = 0};
    int rc = io_writer_open(&w, path, &o);
    if (rc) return rc;
    rc = write_index(w, dtype, len, n, doc, d);
    if (rc) { io_writer_abort(w); return rc; }
    return io_writer_commit(w);
}

int mmidx_builder_commit(mmidx_builder *b)
{
    char *idx = path_with(b->prefix, ".idx");
    if (!idx) { mmidx_builder_abort(b); return err_set(ERR_NOMEM, "out of memory"); }
    io_writer *w = NULL;
    io_writer_opts o = {.compress = 0, .level = 0};
    int rc = io_writer_open(&w, idx, &o);
    free(idx);
    if (rc) { mmidx_builder_abort(b); return rc; }
    rc = write_index(w, b->dtype, b->len, b->n_len, b->doc, b->n_doc);
    if (rc) { io_writer_abort(w); mmidx_builder_abort(b); return rc; }
    /* .bin first, and an older .idx goes before it: an .idx on disk means a
     * complete .bin of the same run */
    io_writer *g[2] = {b->bin, w};
    b->bin = NULL;
    rc = io_writer_commit_group(g, 2);
    builder_free(b);
    return rc;
}

int mmidx_builder_append(mmidx_builder *b, const mmidx *src)
{
    if (src->dtype != b->dtype)
        return err_set(ERR_FORMAT, "%s: dtype %s differs from the output's %s", src->prefix,
                       mmidx_dtype_name(src->dtype), mmidx_dtype_name(b->dtype));
    uint64_t offset = b->n_len;
    int rc = grow((void **)&b->len, &b->cap_len, b->n_len + src->n_seq, sizeof *b->len);
    if (!rc) rc = grow((void **)&b->doc, &b->cap_doc, b->n_doc + src->n_doc_idx, sizeof *b->doc);
    if (rc) return rc;
    for (uint64_t i = 0; i < src->n_seq; i++) {
        b->len[b->n_len++] = mmidx_length(src, i);
        b->tokens += (uint64_t)mmidx_length(src, i);
    }
    for (uint64_t k = 1; k < src->n_doc_idx; k++) b->doc[b->n_doc++] = (int64_t)offset + mmidx_doc_index(src, k);
    if (src->bin_size) {
        /* copy in slices so a huge .bin is not one giant write */
        for (size_t off = 0; off < src->bin_size;) {
            size_t k = src->bin_size - off < (64u << 20) ? src->bin_size - off : (64u << 20);
            rc = io_write(b->bin, src->bin + off, k);
            if (rc) return rc;
            off += k;
        }
    }
    return 0;
}

/* ---- reader -------------------------------------------------------------- */

static int map_file(const char *path, const uint8_t **data, size_t *size)
{
    int fd = fault_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) return err_sys(ERR_IO, "%s", path);
    struct stat st;
    if (fstat(fd, &st) < 0) { int e = err_sys(ERR_IO, "%s", path); close(fd); return e; }
    if (!S_ISREG(st.st_mode)) { close(fd); return err_set(ERR_IO, "%s: not a regular file", path); }
    *size = (size_t)st.st_size;
    *data = NULL;
    if (st.st_size > 0) {
        void *m = fault_mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED) { int e = err_sys(ERR_IO, "%s: mmap", path); close(fd); return e; }
        *data = m;
    }
    close(fd);
    return 0;
}

void mmidx_close(mmidx *d)
{
    if (d->idx) munmap((void *)d->idx, d->idx_size);
    if (d->bin) munmap((void *)d->bin, d->bin_size);
    free(d->prefix);
    memset(d, 0, sizeof *d);
}

#define CORRUPT(...) do { rc = err_set(ERR_CORRUPT, __VA_ARGS__); goto fail; } while (0)

int mmidx_open(mmidx *d, const char *prefix)
{
    memset(d, 0, sizeof *d);
    int rc;
    char *ip = path_with(prefix, ".idx"), *bp = path_with(prefix, ".bin");
    d->prefix = strdup(prefix);
    if (!ip || !bp || !d->prefix) { rc = err_set(ERR_NOMEM, "out of memory"); goto fail; }
    if ((rc = map_file(ip, &d->idx, &d->idx_size))) goto fail;
    if ((rc = map_file(bp, &d->bin, &d->bin_size))) goto fail;
    if (d->idx_size < MMIDX_HEADER_SIZE) CORRUPT("%s: %zu bytes, shorter than the 34-byte header", ip, d->idx_size);
    if (memcmp(d->idx, MAGIC, 9) != 0) CORRUPT("%s: bad magic (not a Megatron MMIDIDX index)", ip);
    uint64_t version;
    memcpy(&version, d->idx + 9, 8);
    if (version != 1) CORRUPT("%s: version %llu, expected 1", ip, (unsigned long long)version);
    d->dtype = d->idx[17];
    d->itemsize = mmidx_itemsize(d->dtype);
    if (!d->itemsize) CORRUPT("%s: invalid dtype code %d", ip, d->dtype);
    memcpy(&d->n_seq, d->idx + 18, 8);
    memcpy(&d->n_doc_idx, d->idx + 26, 8);
    uint64_t n = d->n_seq, dd = d->n_doc_idx;
    if (n > (uint64_t)1 << 40 || dd > (uint64_t)1 << 40)
        CORRUPT("%s: implausible counts (%llu sequences, %llu document index entries)", ip, (unsigned long long)n,
                (unsigned long long)dd);
    uint64_t want = MMIDX_HEADER_SIZE + 12 * n + 8 * dd;
    if (d->idx_size != want && d->idx_size != want + n)
        CORRUPT("%s: %zu bytes, but %llu sequences and %llu document index entries need %llu", ip, d->idx_size,
                (unsigned long long)n, (unsigned long long)dd, (unsigned long long)want);
    if (dd < 1) CORRUPT("%s: empty document index (it must start with 0)", ip);
    int64_t ptr = 0;
    for (uint64_t i = 0; i < n; i++) {
        int32_t l = mmidx_length(d, i);
        if (l < 0) CORRUPT("%s: sequence %llu has negative length %d", ip, (unsigned long long)i, l);
        if (mmidx_pointer(d, i) != ptr)
            CORRUPT("%s: sequence %llu: pointer %lld, expected %lld (running sum of length x %zu)", ip,
                    (unsigned long long)i, (long long)mmidx_pointer(d, i), (long long)ptr, d->itemsize);
        ptr += (int64_t)l * (int64_t)d->itemsize;
    }
    if ((uint64_t)ptr != d->bin_size)
        CORRUPT("%s: %zu bytes, but the index describes %lld bytes (%llu sequences of %s)", bp, d->bin_size,
                (long long)ptr, (unsigned long long)n, mmidx_dtype_name(d->dtype));
    if (mmidx_doc_index(d, 0) != 0) CORRUPT("%s: document index starts at %lld, not 0", ip, (long long)mmidx_doc_index(d, 0));
    for (uint64_t k = 1; k < dd; k++)
        if (mmidx_doc_index(d, k) < mmidx_doc_index(d, k - 1) || (uint64_t)mmidx_doc_index(d, k) > n)
            CORRUPT("%s: document index entry %llu = %lld is out of order or past %llu sequences", ip,
                    (unsigned long long)k, (long long)mmidx_doc_index(d, k), (unsigned long long)n);
    if ((uint64_t)mmidx_doc_index(d, dd - 1) != n)
        CORRUPT("%s: last document index entry is %lld, not the number of sequences %llu", ip,
                (long long)mmidx_doc_index(d, dd - 1), (unsigned long long)n);
    free(ip);
    free(bp);
    return 0;
fail:
    free(ip);
    free(bp);
    mmidx_close(d);
    return rc;
}

int64_t mmidx_token(const mmidx *d, uint64_t i, uint64_t j)
{
    const uint8_t *p = d->bin + mmidx_pointer(d, i) + j * d->itemsize;
    switch (d->dtype) {
    case MMIDX_UINT8: return *p;
    case MMIDX_INT8: return (int8_t)*p;
    case MMIDX_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
    case MMIDX_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case MMIDX_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
    case MMIDX_INT64: { int64_t v; memcpy(&v, p, 8); return v; }
    case MMIDX_FLOAT32: { float v; memcpy(&v, p, 4); return (int64_t)v; }
    default: { double v; memcpy(&v, p, 8); return (int64_t)v; }
    }
}

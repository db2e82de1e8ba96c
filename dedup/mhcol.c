/* mhcol.c - see mhcol.h. */
#define _GNU_SOURCE
#include "dedup/mhcol.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "common/fault.h"
#include "common/hash.h"
#include "common/io.h"

static const char MAGIC[8] = {'W', 'T', 'M', 'H', 'S', 'I', 'G', 0};
static const char TMAGIC[8] = {'W', 'T', 'M', 'H', 'E', 'N', 'D', 0};
#define HDR 64
#define TRAILER 24
#define FP_EDGE (64u << 10)

ssize_t mc_pread_upto(int fd, void *buf, size_t n, uint64_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = fault_pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

static int pread_all(int fd, void *buf, size_t n, uint64_t off, const char *path)
{
    ssize_t r = mc_pread_upto(fd, buf, n, off);
    if (r < 0) return err_sys(ERR_IO, "%s", path);
    if ((size_t)r < n) return err_set(ERR_FORMAT, "%s: ends early (truncated?)", path);
    return 0;
}

int mc_fingerprint(const char *path, uint64_t *size, uint64_t *fp)
{
    int fd = fault_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) return err_sys(ERR_IO, "%s", path);
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int rc = err_sys(ERR_IO, "%s", path);
        close(fd);
        return rc;
    }
    *size = (uint64_t)st.st_size;
    size_t head = *size < FP_EDGE ? (size_t)*size : FP_EDGE;
    size_t tail = *size < 2 * (uint64_t)FP_EDGE ? (size_t)(*size - head) : FP_EDGE;
    char *buf = malloc(head + tail + 8);
    if (!buf) {
        close(fd);
        return err_set(ERR_NOMEM, "out of memory");
    }
    memcpy(buf, size, 8);
    int rc = pread_all(fd, buf + 8, head, 0, path);
    if (!rc) rc = pread_all(fd, buf + 8 + head, tail, *size - tail, path);
    if (!rc) *fp = hash64(buf, head + tail + 8, 0x6d68636f6cULL);
    free(buf);
    close(fd);
    return rc;
}

/* ---- writer ---------------------------------------------------------------- */

struct mc_writer {
    io_writer *w;
    mh_params p;
    uint32_t B, n;
    uint64_t *exact, *idh, *line;
    uint32_t *src, *len, *vals; /* vals: K columns of B */
    uint32_t nsrc;
    uint64_t n_docs, n_blocks;
};

static int put_str(char *meta, size_t *o, const char *s)
{
    uint32_t l = (uint32_t)strlen(s);
    if (meta) {
        memcpy(meta + *o, &l, 4);
        memcpy(meta + *o + 4, s, l);
    }
    *o += 4 + l;
    return 0;
}

int mc_writer_open(mc_writer **out, const char *path, const mh_params *p, const char *id_field,
                   const char *text_field, char *const *sources, size_t nsrc)
{
    mc_writer *m = calloc(1, sizeof *m);
    if (!m) return err_set(ERR_NOMEM, "out of memory");
    m->p = *p;
    m->B = MC_BLOCK_DOCS;
    m->nsrc = (uint32_t)nsrc;
    m->exact = malloc(m->B * 8ul);
    m->idh = malloc(m->B * 8ul);
    m->line = malloc(m->B * 8ul);
    m->src = malloc(m->B * 4ul);
    m->len = malloc(m->B * 4ul);
    m->vals = malloc((size_t)m->B * p->num_perm * 4);
    char **abs = calloc(nsrc ? nsrc : 1, sizeof *abs);
    uint64_t *sz = calloc(nsrc ? nsrc : 1, 8), *fp = calloc(nsrc ? nsrc : 1, 8);
    int rc = 0;
    if (!m->exact || !m->idh || !m->line || !m->src || !m->len || !m->vals || !abs || !sz || !fp)
        rc = err_set(ERR_NOMEM, "out of memory");
    size_t meta_len = 0;
    put_str(NULL, &meta_len, id_field);
    put_str(NULL, &meta_len, text_field);
    for (size_t i = 0; i < nsrc && !rc; i++) {
        if (!(abs[i] = realpath(sources[i], NULL))) {
            rc = err_sys(ERR_IO, "%s", sources[i]);
            break;
        }
        rc = mc_fingerprint(abs[i], &sz[i], &fp[i]);
        meta_len += 16;
        put_str(NULL, &meta_len, abs[i]);
    }
    meta_len = (meta_len + 7) & ~(size_t)7;
    char *meta = rc ? NULL : calloc(1, meta_len ? meta_len : 1);
    if (!rc && !meta) rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc) {
        size_t o = 0;
        put_str(meta, &o, id_field);
        put_str(meta, &o, text_field);
        for (size_t i = 0; i < nsrc; i++) {
            memcpy(meta + o, &sz[i], 8);
            memcpy(meta + o + 8, &fp[i], 8);
            o += 16;
            put_str(meta, &o, abs[i]);
        }
        io_writer_opts wo = {.compress = 0};
        rc = io_writer_open(&m->w, path, &wo);
    }
    if (!rc) {
        uint8_t h[HDR] = {0};
        uint32_t v[4] = {MHSIG_VERSION_COL, p->num_perm, p->kind, p->ngram};
        uint32_t v2[4] = {p->scheme, m->B, (uint32_t)meta_len, (uint32_t)nsrc};
        memcpy(h, MAGIC, 8);
        memcpy(h + 8, v, 16);
        memcpy(h + 24, &p->seed, 8);
        memcpy(h + 32, v2, 16);
        rc = io_write(m->w, h, HDR);
        if (!rc) rc = io_write(m->w, meta, meta_len);
    }
    for (size_t i = 0; i < nsrc; i++) free(abs[i]);
    free(abs), free(sz), free(fp), free(meta);
    if (rc) {
        mc_writer_abort(m);
        return rc;
    }
    *out = m;
    return 0;
}

static int flush_block(mc_writer *m)
{
    if (!m->n) return 0;
    uint32_t n = m->n, K = m->p.num_perm;
    int rc = io_write(m->w, m->exact, n * 8ul);
    if (!rc) rc = io_write(m->w, m->idh, n * 8ul);
    if (!rc) rc = io_write(m->w, m->line, n * 8ul);
    if (!rc) rc = io_write(m->w, m->src, n * 4ul);
    if (!rc) rc = io_write(m->w, m->len, n * 4ul);
    for (uint32_t k = 0; k < K && !rc; k++) rc = io_write(m->w, m->vals + (size_t)k * m->B, n * 4ul);
    m->n = 0;
    m->n_blocks++;
    return rc;
}

int mc_writer_add(mc_writer *m, uint32_t src, uint64_t line, uint32_t text_len, uint64_t exact, uint64_t id_hash,
                  const uint32_t *sig)
{
    if (src >= m->nsrc) return err_set(ERR_USAGE, "source %u of %u", src, m->nsrc);
    uint32_t i = m->n;
    m->exact[i] = exact;
    m->idh[i] = id_hash;
    m->line[i] = line;
    m->src[i] = src;
    m->len[i] = text_len;
    for (uint32_t k = 0; k < m->p.num_perm; k++) m->vals[(size_t)k * m->B + i] = sig[k];
    m->n_docs++;
    return ++m->n == m->B ? flush_block(m) : 0;
}

int mc_writer_commit(mc_writer *m)
{
    int rc = flush_block(m);
    uint8_t t[TRAILER];
    memcpy(t, TMAGIC, 8);
    memcpy(t + 8, &m->n_docs, 8);
    memcpy(t + 16, &m->n_blocks, 8);
    if (!rc) rc = io_write(m->w, t, TRAILER);
    if (rc) {
        mc_writer_abort(m);
        return rc;
    }
    rc = io_writer_commit(m->w);
    m->w = NULL;
    mc_writer_abort(m);
    return rc;
}

void mc_writer_abort(mc_writer *m)
{
    if (!m) return;
    io_writer_abort(m->w);
    free(m->exact), free(m->idh), free(m->line), free(m->src), free(m->len), free(m->vals);
    free(m);
}

/* ---- reader ---------------------------------------------------------------- */

int mh_file_version(const char *path)
{
    int fd = fault_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) return err_sys(ERR_IO, "%s", path);
    uint8_t h[12];
    ssize_t r = mc_pread_upto(fd, h, sizeof h, 0);
    int e = errno;
    close(fd);
    if (r < 0) {
        errno = e;
        return err_sys(ERR_IO, "%s", path);
    }
    if (r != (ssize_t)sizeof h || memcmp(h, MAGIC, 8) != 0)
        return err_set(ERR_FORMAT, "%s: not a minhash signature file (bad magic)", path);
    uint32_t v;
    memcpy(&v, h + 8, 4);
    return (int)(v & 0xffff);
}

void mc_close(mc_file *f)
{
    if (f->fd >= 0) close(f->fd);
    for (size_t i = 0; f->src && i < f->nsrc; i++) free(f->src[i].path);
    free(f->src);
    free(f->path);
    free(f->id_field);
    free(f->text_field);
    memset(f, 0, sizeof *f);
    f->fd = -1;
}

#define BAD(...) do { rc = err_set(ERR_FORMAT, __VA_ARGS__); goto fail; } while (0)

/* A u32-prefixed string of meta at *o (below end), malloc'd into *out. */
static int get_str(const char *meta, size_t end, size_t *o, char **out)
{
    uint32_t l;
    if (*o + 4 > end) return -1;
    memcpy(&l, meta + *o, 4);
    if (l > end - *o - 4) return -1;
    if (!(*out = malloc((size_t)l + 1))) return ERR_NOMEM;
    memcpy(*out, meta + *o + 4, l);
    (*out)[l] = 0;
    if (memchr(*out, 0, l)) return -1;
    *o += 4 + (size_t)l;
    return 0;
}

static uint64_t block_bytes(const mc_file *f, uint64_t n) { return n * (32 + 4 * (uint64_t)f->p.num_perm); }

int mc_open(mc_file *f, const char *path, const mh_params *want)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    int rc = 0;
    char *meta = NULL;
    if (!(f->path = strdup(path))) return err_set(ERR_NOMEM, "out of memory");
    f->fd = fault_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (f->fd < 0) {
        rc = err_sys(ERR_IO, "%s", path);
        goto fail;
    }
    struct stat st;
    if (fstat(f->fd, &st) < 0 || st.st_size < HDR + TRAILER) BAD("%s: too short to be a signature file", path);
    /* every read is an explicit block of columns: no readahead, which would bring in the other
     * bands' columns (a band job of 4 of 16 bands read 0.33 bytes a byte of text with it, 0.1 without) */
    posix_fadvise(f->fd, 0, 0, POSIX_FADV_RANDOM);
    f->size = (uint64_t)st.st_size;
    uint8_t h[HDR], t[TRAILER];
    if ((rc = pread_all(f->fd, h, HDR, 0, path)) || (rc = pread_all(f->fd, t, TRAILER, f->size - TRAILER, path)))
        goto fail;
    f->bytes_read += HDR + TRAILER;
    if (memcmp(h, MAGIC, 8) != 0) BAD("%s: not a minhash signature file (bad magic)", path);
    uint32_t v[4], v2[4];
    memcpy(v, h + 8, 16);
    memcpy(v2, h + 32, 16);
    if (v[0] != MHSIG_VERSION_COL) BAD("%s: signature file version %u, not %u", path, v[0], MHSIG_VERSION_COL);
    f->p = (mh_params){v[1], v[2], v[3], 0, v2[0]};
    memcpy(&f->p.seed, h + 24, 8);
    f->block_docs = v2[1];
    uint32_t meta_len = v2[2];
    f->nsrc = v2[3];
    if (!f->p.num_perm || f->p.num_perm > 4096 || f->p.kind > 1 || !f->p.ngram || f->p.scheme > MH_OPH ||
        !f->block_docs || f->block_docs > (1u << 24) || meta_len % 8 || meta_len > f->size - HDR - TRAILER ||
        f->nsrc > meta_len / 20)
        BAD("%s: corrupt header", path);
    if (want && (want->num_perm != f->p.num_perm || want->kind != f->p.kind || want->ngram != f->p.ngram ||
                 want->seed != f->p.seed || want->scheme != f->p.scheme))
        BAD("%s: made with other parameters (%s, num_perm %u, %s %u-grams, seed %llu) than the first file (%s, "
            "num_perm %u, %s %u-grams, seed %llu): signatures are not comparable", path,
            f->p.scheme ? "oph" : "minhash", f->p.num_perm, f->p.kind ? "word" : "char", f->p.ngram,
            (unsigned long long)f->p.seed, want->scheme ? "oph" : "minhash", want->num_perm,
            want->kind ? "word" : "char", want->ngram, (unsigned long long)want->seed);
    if (memcmp(t, TMAGIC, 8) != 0) BAD("%s: no end marker: the file is truncated or still being written", path);
    memcpy(&f->n_docs, t + 8, 8);
    memcpy(&f->n_blocks, t + 16, 8);
    f->data_off = HDR + (uint64_t)meta_len;
    uint64_t full = f->n_docs / f->block_docs, rest = f->n_docs % f->block_docs;
    if (f->n_docs > f->size || f->n_blocks != full + (rest != 0) ||
        f->data_off + full * block_bytes(f, f->block_docs) + block_bytes(f, rest) + TRAILER != f->size)
        BAD("%s: %llu documents in %llu blocks do not fill its %llu bytes: corrupt or cut short", path,
            (unsigned long long)f->n_docs, (unsigned long long)f->n_blocks, (unsigned long long)f->size);
    if (!(meta = malloc(meta_len ? meta_len : 1)) || !(f->src = calloc(f->nsrc ? f->nsrc : 1, sizeof *f->src))) {
        rc = err_set(ERR_NOMEM, "out of memory");
        goto fail;
    }
    if ((rc = pread_all(f->fd, meta, meta_len, HDR, path))) goto fail;
    f->bytes_read += meta_len;
    size_t o = 0;
    int g = get_str(meta, meta_len, &o, &f->id_field);
    if (!g) g = get_str(meta, meta_len, &o, &f->text_field);
    for (size_t i = 0; i < f->nsrc && !g; i++) {
        if (o + 16 > meta_len) { g = -1; break; }
        memcpy(&f->src[i].size, meta + o, 8);
        memcpy(&f->src[i].fingerprint, meta + o + 8, 8);
        o += 16;
        g = get_str(meta, meta_len, &o, &f->src[i].path);
    }
    if (g == ERR_NOMEM) {
        rc = err_set(ERR_NOMEM, "out of memory");
        goto fail;
    }
    if (g) BAD("%s: corrupt source table", path);
    free(meta);
    return 0;
fail:
    free(meta);
    mc_close(f);
    return rc;
}

uint32_t mc_block_n(const mc_file *f, uint64_t j)
{
    uint64_t lo = j * f->block_docs;
    return (uint32_t)(f->n_docs - lo < f->block_docs ? f->n_docs - lo : f->block_docs);
}

static uint64_t block_off(const mc_file *f, uint64_t j) { return f->data_off + j * block_bytes(f, f->block_docs); }

int mc_read_values(mc_file *f, uint64_t j, uint32_t lo, uint32_t hi, uint32_t *out)
{
    uint64_t n = mc_block_n(f, j);
    size_t bytes = (size_t)(hi - lo) * n * 4;
    f->bytes_read += bytes;
    return pread_all(f->fd, out, bytes, block_off(f, j) + 32 * n + 4 * n * lo, f->path);
}

int mc_read_facts(mc_file *f, uint64_t j, int c, void *out)
{
    uint64_t n = mc_block_n(f, j);
    static const uint8_t at[MC_NCOLS] = {0, 8, 16, 24, 28}; /* bytes per document before column c */
    size_t w = c < MC_SRC ? 8 : 4;
    f->bytes_read += w * n;
    return pread_all(f->fd, out, w * n, block_off(f, j) + at[c] * n, f->path);
}

int mc_corpus_open(mc_corpus *c, char *const *paths, int n)
{
    memset(c, 0, sizeof *c);
    c->files = calloc((size_t)n ? (size_t)n : 1, sizeof(mc_file));
    c->base = calloc((size_t)n + 1, sizeof(uint64_t));
    if (!c->files || !c->base) return err_set(ERR_NOMEM, "out of memory");
    int rc = 0;
    c->ident = 0x6d68636f72707573ULL;
    for (int i = 0; i < n && !rc; i++) {
        rc = mc_open(&c->files[i], paths[i], i ? &c->files[0].p : NULL);
        if (rc) break;
        mc_file *f = &c->files[i];
        if (i && (strcmp(f->id_field, c->files[0].id_field) || strcmp(f->text_field, c->files[0].text_field))) {
            rc = err_set(ERR_FORMAT, "%s: its documents' fields (%s, %s) differ from %s's (%s, %s)", f->path,
                         f->id_field, f->text_field, c->files[0].path, c->files[0].id_field, c->files[0].text_field);
            mc_close(f);
            break;
        }
        c->nf = (size_t)i + 1;
        c->base[i] = c->n_docs;
        c->n_docs += f->n_docs;
        uint64_t x[4] = {f->size, f->n_docs, f->p.num_perm, f->p.seed};
        c->ident = hash64(x, sizeof x, c->ident);
    }
    c->base[c->nf] = c->n_docs;
    return rc;
}

void mc_corpus_close(mc_corpus *c)
{
    for (size_t i = 0; i < c->nf; i++) mc_close(&c->files[i]);
    free(c->files);
    free(c->base);
    memset(c, 0, sizeof *c);
}

uint64_t mc_corpus_bytes_read(const mc_corpus *c)
{
    uint64_t b = 0;
    for (size_t i = 0; i < c->nf; i++) b += c->files[i].bytes_read;
    return b;
}

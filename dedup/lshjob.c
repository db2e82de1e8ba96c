/* lshjob.c - band jobs and verification over version 3 signature files (see lshjob.h). */
#define _GNU_SOURCE
#include "dedup/lshjob.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "common/extsort.h"
#include "common/fault.h"
#include "common/hash.h"
#include "dedup/mhdoc.h"

static const char CMAGIC[8] = {'W', 'T', 'M', 'H', 'C', 'A', 'N', 'D'};
static const char CEND[8] = {'W', 'T', 'M', 'H', 'C', 'E', 'N', 'D'};
#define CHDR 64
#define CTRL 16

typedef struct {
    uint32_t version, flags;
    uint64_t ident, n_docs;
    uint32_t bands, rows, lo, hi;
    uint64_t max_bucket, reserved;
} cand_header;

/* ---- band job -------------------------------------------------------------- */

/* Runs of equal keys into pairs: every pair of a run, or, once a run has more than max_bucket
 * members, the pairs of its first member (dedup/lsh.c's emit_run, streamed). */
typedef struct {
    xs_sorter *pairs;
    size_t max_bucket;
    uint64_t key, *mem;
    size_t n, cap, count;
    int star, have;
} runner;

static int run_end(runner *r)
{
    int rc = 0;
    if (!r->star)
        for (size_t i = 0; i < r->n && !rc; i++)
            for (size_t j = i + 1; j < r->n && !rc; j++) rc = xs_add(r->pairs, r->mem[i], r->mem[j]);
    r->n = r->count = 0;
    r->star = 0;
    return rc;
}

static int run_add(runner *r, uint64_t key, uint64_t doc)
{
    int rc = 0;
    if (r->have && key != r->key) rc = run_end(r);
    if (rc) return rc;
    r->have = 1;
    r->key = key;
    r->count++;
    if (r->star) return xs_add(r->pairs, r->mem[0], doc);
    if (r->max_bucket && r->count > r->max_bucket) { /* the run is too long: its first member's pairs */
        r->star = 1;
        for (size_t j = 1; j < r->n && !rc; j++) rc = xs_add(r->pairs, r->mem[0], r->mem[j]);
        if (!rc) rc = xs_add(r->pairs, r->mem[0], doc);
        r->n = 1;
        return rc;
    }
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 64;
        uint64_t *m = realloc(r->mem, nc * sizeof *m);
        if (!m) return err_set(ERR_NOMEM, "out of memory (a bucket of %zu documents)", r->n);
        r->mem = m;
        r->cap = nc;
    }
    r->mem[r->n++] = doc;
    return 0;
}

/* The keys of band b (-1: the exact hashes) of every document into ks. */
static int band_keys(mc_corpus *c, long long b, long long rows, xs_sorter *ks, uint32_t *vals, uint64_t *ex)
{
    for (size_t f = 0; f < c->nf; f++) {
        mc_file *mf = &c->files[f];
        for (uint64_t j = 0; j < mf->n_blocks; j++) {
            uint32_t n = mc_block_n(mf, j);
            uint64_t g0 = c->base[f] + j * mf->block_docs;
            int rc;
            if (b < 0) {
                if ((rc = mc_read_facts(mf, j, MC_EXACT, ex))) return rc;
                for (uint32_t i = 0; i < n; i++)
                    if ((rc = xs_add(ks, ex[i], g0 + i))) return rc;
                continue;
            }
            if ((rc = mc_read_values(mf, j, (uint32_t)(b * rows), (uint32_t)((b + 1) * rows), vals))) return rc;
            uint32_t row[4096];
            for (uint32_t i = 0; i < n; i++) {
                for (long long r = 0; r < rows; r++) row[r] = vals[(size_t)r * n + i];
                if ((rc = xs_add(ks, hash64(row, (size_t)rows * 4, (uint64_t)b), g0 + i))) return rc;
            }
        }
    }
    return 0;
}

static int write_cands(xs_sorter *ps, const cand_header *h, const char *out, uint64_t *count)
{
    io_writer *w;
    io_writer_opts wo = {.compress = 0};
    int rc = io_writer_open(&w, out, &wo);
    if (rc) return rc;
    uint8_t hb[CHDR] = {0};
    memcpy(hb, CMAGIC, 8);
    memcpy(hb + 8, h, sizeof *h);
    rc = io_write(w, hb, CHDR);
    xs_rec r[1024];
    size_t k = 0;
    *count = 0;
    for (;;) {
        int g = rc ? 0 : xs_next(ps, &r[k]);
        if (g < 0) rc = g;
        if (g == 1 && ++k < 1024) continue;
        if (!rc && k) rc = io_write(w, r, k * sizeof *r);
        *count += k;
        k = 0;
        if (g != 1) break;
    }
    uint8_t t[CTRL];
    memcpy(t, CEND, 8);
    memcpy(t + 8, count, 8);
    if (!rc) rc = io_write(w, t, CTRL);
    if (rc) {
        io_writer_abort(w);
        return rc;
    }
    return io_writer_commit(w);
}

int lsh_band_job(mc_corpus *c, const lsh_band_opts *o, const char *out, lsh_band_stats *st)
{
    memset(st, 0, sizeof *st);
    uint64_t before = mc_corpus_bytes_read(c);
    uint32_t B = 1;
    for (size_t f = 0; f < c->nf; f++)
        if (c->files[f].block_docs > B) B = c->files[f].block_docs;
    xs_sorter *ps = NULL;
    runner run = {0};
    uint32_t *vals = malloc((size_t)B * (size_t)(o->rows > 0 ? o->rows : 1) * 4);
    uint64_t *ex = malloc((size_t)B * 8);
    int rc = vals && ex ? 0 : err_set(ERR_NOMEM, "out of memory");
    if (!rc) rc = xs_new(&ps, o->mem / 2, o->tmpdir, 1);
    run.pairs = ps;
    run.max_bucket = o->max_bucket;
    if (!rc && o->brute) {
        for (uint64_t a = 0; a < c->n_docs && !rc; a++)
            for (uint64_t b = a + 1; b < c->n_docs && !rc; b++) rc = xs_add(ps, a, b);
    } else if (!rc) {
        /* each band, then (with the first band range) the exact duplicates of the normalised text */
        for (long long band = o->lo; !rc && band <= o->hi; band++) {
            if (band == o->hi && o->lo != 0) break;
            xs_sorter *ks = NULL;
            rc = xs_new(&ks, o->mem / 2, o->tmpdir, 0);
            if (!rc) rc = band_keys(c, band == o->hi ? -1 : band, o->rows, ks, vals, ex);
            if (!rc) rc = xs_finish(ks);
            xs_rec r;
            int g = 0;
            run.have = 0;
            while (!rc && (g = xs_next(ks, &r)) == 1) rc = run_add(&run, r.a, r.b);
            if (!rc && g < 0) rc = g;
            if (!rc) rc = run_end(&run);
            if (ks) {
                xs_stats s;
                xs_get_stats(ks, &s);
                st->keys += s.added;
                st->spilled_bytes += s.spilled_bytes;
            }
            xs_free(ks);
        }
    }
    if (!rc) rc = xs_finish(ps);
    cand_header h = {1, (uint32_t)(o->brute != 0), c->ident, c->n_docs, (uint32_t)o->bands, (uint32_t)o->rows,
                     (uint32_t)o->lo, (uint32_t)o->hi, o->max_bucket, 0};
    if (!rc) rc = write_cands(ps, &h, out, &st->candidates);
    if (ps) {
        xs_stats s;
        xs_get_stats(ps, &s);
        st->spilled_bytes += s.spilled_bytes;
    }
    xs_free(ps);
    free(run.mem);
    free(vals);
    free(ex);
    st->sig_bytes_read = mc_corpus_bytes_read(c) - before;
    return rc;
}

/* ---- verification ---------------------------------------------------------- */

typedef struct {
    int fd;
    char *path;
    cand_header h;
    uint64_t count;
} cand_file;

static int open_cand(cand_file *cf, const char *path, const mc_corpus *c)
{
    memset(cf, 0, sizeof *cf);
    cf->fd = fault_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (cf->fd < 0) return err_sys(ERR_IO, "%s", path);
    struct stat st;
    uint8_t hb[CHDR], t[CTRL];
    if (fstat(cf->fd, &st) < 0) return err_sys(ERR_IO, "%s", path);
    uint64_t size = (uint64_t)st.st_size;
    ssize_t r = size < CHDR + CTRL ? 0 : mc_pread_upto(cf->fd, hb, CHDR, 0);
    if (r < 0) return err_sys(ERR_IO, "%s", path);
    if (r != CHDR || memcmp(hb, CMAGIC, 8))
        return err_set(ERR_FORMAT, "%s: not a candidate file of find_duplicates --stage bands", path);
    r = mc_pread_upto(cf->fd, t, CTRL, size - CTRL);
    if (r < 0) return err_sys(ERR_IO, "%s", path);
    if (r != CTRL || memcmp(t, CEND, 8))
        return err_set(ERR_FORMAT, "%s: no end marker: the band job did not finish (run it again)", path);
    memcpy(&cf->h, hb + 8, sizeof cf->h);
    memcpy(&cf->count, t + 8, 8);
    if (cf->h.version != 1 || cf->count != (size - CHDR - CTRL) / 16 || (size - CHDR - CTRL) % 16)
        return err_set(ERR_FORMAT, "%s: corrupt candidate file (%" PRIu64 " pairs in %" PRIu64 " bytes)", path,
                       cf->count, size);
    if (cf->h.ident != c->ident || cf->h.n_docs != c->n_docs)
        return err_set(ERR_FORMAT, "%s: made from other signature files (%" PRIu64 " documents; these have %" PRIu64
                       "): run the band jobs again", path, cf->h.n_docs, c->n_docs);
    if (cf->h.lo >= cf->h.hi || cf->h.hi > cf->h.bands)
        return err_set(ERR_FORMAT, "%s: corrupt band range %u:%u of %u", path, cf->h.lo, cf->h.hi, cf->h.bands);
    return 0;
}

/* The candidate files' band ranges tile [lo, hi) of the same banding, each band once. */
static int check_cover(cand_file *cf, size_t n, const lsh_verify_opts *o)
{
    if (!n) return err_set(ERR_USAGE, "no candidate files");
    for (size_t i = 1; i < n; i++)
        if (cf[i].h.bands != cf[0].h.bands || cf[i].h.rows != cf[0].h.rows || cf[i].h.flags != cf[0].h.flags ||
            cf[i].h.max_bucket != cf[0].h.max_bucket)
            return err_set(ERR_FORMAT, "%s: %u bands x %u rows (max bucket %" PRIu64 "), %s: %u x %u (%" PRIu64
                           "): band jobs of other settings", cf[0].path, cf[0].h.bands, cf[0].h.rows,
                           cf[0].h.max_bucket, cf[i].path, cf[i].h.bands, cf[i].h.rows, cf[i].h.max_bucket);
    long long lo = o->lo, hi = o->hi < 0 ? cf[0].h.bands : o->hi;
    if (cf[0].h.flags & 1) return n == 1 ? 0 : err_set(ERR_FORMAT, "brute force takes one candidate file");
    for (long long b = lo; b < hi;) { /* each band once */
        size_t k = n;
        for (size_t i = 0; i < n; i++)
            if (cf[i].h.lo == b) {
                if (k != n) return err_set(ERR_FORMAT, "bands from %lld in both %s and %s", b, cf[k].path, cf[i].path);
                k = i;
            }
        if (k == n)
            return err_set(ERR_FORMAT, "no candidate file starts at band %lld (of %lld..%lld): run its band job", b,
                           lo, hi - 1);
        b = cf[k].h.hi;
    }
    for (size_t i = 0; i < n; i++)
        if (cf[i].h.lo < lo || cf[i].h.hi > hi)
            return err_set(ERR_FORMAT, "%s: bands %u:%u outside %lld:%lld", cf[i].path, cf[i].h.lo, cf[i].h.hi, lo, hi);
    return 0;
}

static int open_merge(cand_file *cf, size_t n, size_t mem, xs_merge **m)
{
    xs_run *runs = calloc(n ? n : 1, sizeof *runs);
    if (!runs) return err_set(ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) runs[i] = (xs_run){cf[i].fd, CHDR, cf[i].count};
    size_t buf = mem / 4 / (n ? n : 1);
    if (buf > (4u << 20)) buf = 4u << 20;
    int rc = xs_merge_new(m, runs, n, buf, 1);
    free(runs);
    return rc;
}

/* The documents the candidates name: a bitmap, and ranks (set bits before each word). */
typedef struct {
    uint64_t *bits, *rank, n;
} docset;

static uint64_t ds_rank(const docset *d, uint64_t g)
{
    uint64_t w = g >> 6, m = (g & 63) ? d->bits[w] & ((1ULL << (g & 63)) - 1) : 0;
    return d->rank[w] + (uint64_t)__builtin_popcountll(m);
}
static int ds_has(const docset *d, uint64_t g) { return (d->bits[g >> 6] >> (g & 63)) & 1; }

/* The scratch store of the needed documents: a file of u64 exact, u32 id_len, u32 text_len, id,
 * text each, read back with pread (nothing mapped: the resident memory is what the job holds),
 * and in memory, per needed document (by rank), its offset and lengths. */
typedef struct {
    uint64_t exact;
    uint32_t il, tl;
} doc_meta;

typedef struct {
    int fd;
    uint64_t *off, n, size, max_text;
    doc_meta *meta;
    char *buf;
    size_t nbuf;
} store;

static int store_flush(store *s)
{
    size_t done = 0;
    while (done < s->nbuf) {
        ssize_t w = fault_write(s->fd, s->buf + done, s->nbuf - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return err_sys(ERR_IO, "writing the candidates' texts to the scratch store");
        done += (size_t)w;
    }
    s->nbuf = 0;
    return 0;
}

static int store_put(store *s, const void *p, size_t n)
{
    while (n) {
        size_t k = (1u << 20) - s->nbuf < n ? (1u << 20) - s->nbuf : n;
        memcpy(s->buf + s->nbuf, p, k);
        s->nbuf += k;
        p = (const char *)p + k;
        n -= k;
        s->size += k;
        if (s->nbuf == (1u << 20)) {
            int rc = store_flush(s);
            if (rc) return rc;
        }
    }
    return 0;
}

/* Read every needed document of file f from its sources, in order, into the store. */
static int gather_file(mc_corpus *c, size_t f, const docset *ds, store *s, lsh_verify_stats *st)
{
    mc_file *mf = &c->files[f];
    uint32_t B = mf->block_docs;
    uint64_t *line = malloc(B * 8ul), *ex = malloc(B * 8ul);
    uint32_t *src = malloc(B * 4ul), *len = malloc(B * 4ul);
    io_reader *r = NULL;
    uint32_t cur = UINT32_MAX;
    int rc = line && ex && src && len ? 0 : err_set(ERR_NOMEM, "out of memory");
    for (uint64_t j = 0; j < mf->n_blocks && !rc; j++) {
        uint32_t n = mc_block_n(mf, j);
        uint64_t g0 = c->base[f] + j * B;
        if (ds_rank(ds, g0 + n) == ds_rank(ds, g0)) continue; /* no candidate in this block */
        if ((rc = mc_read_facts(mf, j, MC_LINE, line)) || (rc = mc_read_facts(mf, j, MC_SRC, src)) ||
            (rc = mc_read_facts(mf, j, MC_LEN, len)) || (rc = mc_read_facts(mf, j, MC_EXACT, ex)))
            break;
        for (uint32_t i = 0; i < n && !rc; i++) {
            if (!ds_has(ds, g0 + i)) continue;
            if (src[i] >= mf->nsrc) {
                rc = err_set(ERR_FORMAT, "%s: document %" PRIu64 " names source %u of %zu", mf->path, j * B + i,
                             src[i], mf->nsrc);
                break;
            }
            const mc_source *so = &mf->src[src[i]];
            if (src[i] != cur) { /* the next source: checked, then read from its start */
                if (r) st->source_bytes_read += io_reader_raw_pos(r), io_reader_close(r), r = NULL;
                uint64_t size, fp;
                rc = mc_fingerprint(so->path, &size, &fp);
                if (!rc && (size != so->size || fp != so->fingerprint))
                    rc = err_set(ERR_FORMAT, "%s: changed since %s was made (%" PRIu64 " bytes, then %" PRIu64
                                 "): the texts to verify must be those signed; run minhash again", so->path, mf->path,
                                 size, so->size);
                if (rc == ERR_IO) {
                    char msg[600];
                    snprintf(msg, sizeof msg, "%s", err_msg());
                    rc = err_set(ERR_IO, "%s (a source of %s: the texts are read back from where minhash read them)",
                                 msg, mf->path);
                }
                if (rc) break;
                if ((rc = io_reader_open(&r, so->path))) break;
                cur = src[i];
            }
            char *ln = NULL;
            size_t ll = 0;
            while (io_reader_lineno(r) < line[i]) {
                int g = io_getline(r, &ln, &ll);
                if (g < 0) { rc = g; break; }
                if (!g) {
                    rc = err_set(ERR_FORMAT, "%s: ends before line %" PRIu64 " (named by %s)", so->path, line[i],
                                 mf->path);
                    break;
                }
            }
            if (rc) break;
            mh_doc d;
            if (!ln || io_reader_lineno(r) != line[i]) {
                rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 " named twice by %s", so->path, line[i], mf->path);
                break;
            }
            if ((rc = mh_doc_read(ln, ll, mf->id_field, mf->text_field, &d))) {
                mh_doc_free(&d);
                rc = err_set(ERR_NOMEM, "out of memory");
                break;
            }
            if (d.status != MHDOC_OK || d.text_len != len[i] || mh_exact_hash(d.text, d.text_len) != ex[i])
                rc = err_set(ERR_FORMAT, "%s:%" PRIu64 ": not the document %s signed there (the file changed?)",
                             so->path, line[i], mf->path);
            if (!rc) {
                if (d.id_len > UINT32_MAX) d.id_len = UINT32_MAX;
                uint32_t l2[2] = {(uint32_t)d.id_len, (uint32_t)d.text_len};
                uint64_t rk = ds_rank(ds, g0 + i);
                s->off[rk] = s->size;
                s->meta[rk] = (doc_meta){ex[i], l2[0], l2[1]};
                rc = store_put(s, &ex[i], 8);
                if (!rc) rc = store_put(s, l2, 8);
                if (!rc) rc = store_put(s, d.id, d.id_len);
                if (!rc) rc = store_put(s, d.text, d.text_len);
                st->text_bytes += d.text_len;
                if (d.text_len + d.id_len / 8 + 2 > s->max_text) s->max_text = d.text_len + d.id_len / 8 + 2; /* u64s */
            }
            mh_doc_free(&d);
        }
    }
    if (r) st->source_bytes_read += io_reader_raw_pos(r), io_reader_close(r);
    free(line), free(ex), free(src), free(len);
    return rc;
}

/* A verification batch: pairs, and the distinct documents they name, each shingled once (a
 * near-duplicate cluster of k documents gives k(k-1)/2 pairs but k shingle sets). The sets
 * live in one arena of half the memory given, 8 bytes a byte of text reserved for each (no
 * document has more shingles than bytes), and stay there for the next batches while they fit
 * (then the arena starts again); a batch ends when the arena or its pair array is full. */
typedef struct {
    const store *s;
    const docset *ds;
    const mh_params *p;
    xs_rec *pairs;
    uint32_t *pa, *pb; /* the pairs' documents as slots */
    double *sim;
    size_t n, cap;
    uint64_t *doc;     /* slot -> document */
    uint64_t *at;      /* slot -> its shingles' offset in the arena */
    long *nsh;         /* slot -> how many */
    size_t nslot, slotcap, first_new; /* slots [first_new, nslot) are this batch's new ones */
    uint32_t *table;   /* open addressing: document -> slot + 1 */
    size_t tmask;
    uint64_t *arena, arena_used, arena_cap; /* in u64: a slot's shingles, then its id */
    uint64_t **scratch; /* per shingling part: mh_shingles' buffer */
    size_t *scratchcap, sparts;
    char **tbuf;        /* per shingling part: the entry read from the store */
    size_t *tbufcap;
    size_t parts;
    int denom;
    int *rc;
} vbatch;

/* Slot of document g, added if new: 0, or 1 when the batch is full. */
static int slot_of(vbatch *v, uint64_t g, uint32_t *slot)
{
    size_t h = (size_t)hash_mix64(g) & v->tmask;
    while (v->table[h]) {
        if (v->doc[v->table[h] - 1] == g) {
            *slot = v->table[h] - 1;
            return 0;
        }
        h = (h + 1) & v->tmask;
    }
    const doc_meta *md = &v->s->meta[g];
    uint64_t need = (md->tl ? md->tl : 1) + (md->il + 7) / 8;
    if (v->nslot == v->slotcap || v->arena_used + need > v->arena_cap) return 1;
    v->doc[v->nslot] = g;
    v->at[v->nslot] = v->arena_used;
    v->arena_used += need;
    v->table[h] = (uint32_t)++v->nslot;
    *slot = (uint32_t)(v->nslot - 1);
    return 0;
}

/* Forget the slots from `from` on (the newest: nothing probed past them). */
static void slots_back(vbatch *v, size_t from)
{
    for (size_t k = from; k < v->nslot; k++) {
        size_t h = (size_t)hash_mix64(v->doc[k]) & v->tmask;
        while (v->table[h] != k + 1) h = (h + 1) & v->tmask;
        v->table[h] = 0;
    }
    if (from < v->nslot) v->arena_used = v->at[from];
    v->nslot = from;
}

static void cache_reset(vbatch *v)
{
    memset(v->table, 0, (v->tmask + 1) * sizeof *v->table);
    v->nslot = v->first_new = 0;
    v->arena_used = 0;
}

static void shingle_part(size_t part, void *ctx)
{
    vbatch *v = ctx;
    size_t nn = v->nslot - v->first_new;
    size_t lo = v->first_new + nn * part / v->sparts, hi = v->first_new + nn * (part + 1) / v->sparts;
    for (size_t k = lo; k < hi; k++) {
        uint64_t rk = v->doc[k];
        const doc_meta *md = &v->s->meta[rk];
        size_t len = 16 + (size_t)md->il + md->tl;
        if (len > v->tbufcap[part]) {
            char *q = realloc(v->tbuf[part], len);
            if (!q) { v->rc[part] = ERR_NOMEM; break; }
            v->tbuf[part] = q;
            v->tbufcap[part] = len;
        }
        if (mc_pread_upto(v->s->fd, v->tbuf[part], len, v->s->off[rk]) != (ssize_t)len) {
            v->rc[part] = ERR_IO;
            break;
        }
        const char *id = v->tbuf[part] + 16, *t = id + md->il;
        long m = mh_shingles(v->p, t, md->tl, &v->scratch[part], &v->scratchcap[part]);
        if (m < 0) {
            v->rc[part] = ERR_NOMEM;
            break;
        }
        memcpy(v->arena + v->at[k], v->scratch[part], (size_t)m * 8);
        memcpy(v->arena + v->at[k] + (md->tl ? md->tl : 1), id, md->il);
        v->nsh[k] = m;
    }
}

static void jaccard_part(size_t part, void *ctx)
{
    vbatch *v = ctx;
    size_t lo = v->n * part / v->parts, hi = v->n * (part + 1) / v->parts;
    for (size_t i = lo; i < hi; i++) {
        uint32_t a = v->pa[i], b = v->pb[i];
        v->sim[i] = mh_jaccard(v->arena + v->at[a], (size_t)v->nsh[a], v->arena + v->at[b], (size_t)v->nsh[b],
                               v->denom);
    }
}

/* Verify the batch (shingles, then similarities, on the pool); the pairs to write go to the
 * output sort as (a << 32 | b, similarity) by rank. */
static int verify_batch(vbatch *v, pool *pl, const lsh_verify_opts *o, xs_sorter *out, lsh_verify_stats *st)
{
    memset(v->rc, 0, v->parts * sizeof *v->rc);
    pool_parallel_for(pl, v->sparts, shingle_part, v);
    st->shingled += v->nslot - v->first_new;
    for (size_t k = 0; k < v->sparts; k++)
        if (v->rc[k] == ERR_IO) return err_sys(ERR_IO, "reading the scratch store of the candidates' texts");
        else if (v->rc[k]) return err_set(ERR_NOMEM, "out of memory verifying candidates");
    pool_parallel_for(pl, v->parts, jaccard_part, v);
    int rc = 0;
    for (size_t i = 0; i < v->n && !rc; i++) {
        const doc_meta *ma = &v->s->meta[v->pairs[i].a], *mb = &v->s->meta[v->pairs[i].b];
        if (v->sim[i] < o->min_sim && ma->exact != mb->exact) continue;
        uint64_t bits;
        memcpy(&bits, &v->sim[i], 8);
        rc = xs_add(out, v->pairs[i].a << 32 | v->pairs[i].b, bits);
    }
    v->n = 0;
    v->first_new = v->nslot;
    if (v->arena_used > v->arena_cap / 4 * 3 || v->nslot > v->slotcap / 4 * 3) cache_reset(v);
    return rc;
}

static void vbatch_free(vbatch *v)
{
    for (size_t k = 0; v->scratch && k < v->sparts; k++) free(v->scratch[k]);
    for (size_t k = 0; v->tbuf && k < v->sparts; k++) free(v->tbuf[k]);
    free(v->tbuf), free(v->tbufcap);
    free(v->pairs), free(v->pa), free(v->pb), free(v->sim), free(v->doc), free(v->at), free(v->nsh);
    free(v->table), free(v->rc), free(v->arena), free(v->scratch), free(v->scratchcap);
}

/* Ids seen twice across the files, by a 64-bit hash of the id (the first five named by place). */
static int dup_ids(mc_corpus *c, const lsh_verify_opts *o, uint64_t *dups)
{
    xs_sorter *xs;
    int rc = xs_new(&xs, o->mem / 2, o->tmpdir, 0);
    if (rc) return rc;
    uint64_t *idh = NULL;
    for (size_t f = 0; f < c->nf && !rc; f++) {
        mc_file *mf = &c->files[f];
        uint64_t *p = realloc(idh, mf->block_docs * 8ul);
        if (!p) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
        idh = p;
        for (uint64_t j = 0; j < mf->n_blocks && !rc; j++) {
            rc = mc_read_facts(mf, j, MC_IDHASH, idh);
            for (uint32_t i = 0, n = mc_block_n(mf, j); i < n && !rc; i++)
                rc = xs_add(xs, idh[i], c->base[f] + j * mf->block_docs + i);
        }
    }
    free(idh);
    if (!rc) rc = xs_finish(xs);
    xs_rec r, prev = {0, 0};
    int g, have = 0;
    *dups = 0;
    while (!rc && (g = xs_next(xs, &r)) == 1) {
        if (have && r.a == prev.a && (*dups)++ < 5) {
            size_t f = 0;
            while (f + 1 < c->nf && c->base[f + 1] <= r.b) f++;
            fprintf(stderr, "find_duplicates: warning: document %" PRIu64 " of %s has the id of document %" PRIu64
                    " (numbered across the files)\n", r.b - c->base[f], c->files[f].path, prev.b);
        }
        prev = r;
        have = 1;
    }
    if (!rc && g < 0) rc = g;
    xs_free(xs);
    return rc;
}

/* The id of the document of rank k, from the scratch store, into *buf. */
static int read_id(const store *s, uint64_t k, char **buf, size_t *cap)
{
    size_t n = s->meta[k].il;
    if (n + 1 > *cap) {
        char *q = realloc(*buf, n + 1);
        if (!q) return err_set(ERR_NOMEM, "out of memory");
        *buf = q;
        *cap = n + 1;
    }
    if (mc_pread_upto(s->fd, *buf, n, s->off[k] + 16) != (ssize_t)n)
        return err_sys(ERR_IO, "reading the scratch store of the candidates' texts");
    return 0;
}

int lsh_verify_job(mc_corpus *c, char *const *cands, size_t nc, const lsh_verify_opts *o, io_writer *w,
                   lsh_verify_stats *st)
{
    memset(st, 0, sizeof *st);
    uint64_t sig_before = mc_corpus_bytes_read(c);
    cand_file *cf = calloc(nc ? nc : 1, sizeof *cf);
    docset ds = {0};
    store s = {.fd = -1};
    xs_merge *m = NULL;
    int rc = cf ? 0 : err_set(ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < nc && !rc; i++) {
        rc = open_cand(&cf[i], cands[i], c);
        cf[i].path = cands[i];
        st->cand_bytes_read += CHDR + CTRL;
    }
    if (!rc) rc = check_cover(cf, nc, o);
    if (!rc) rc = dup_ids(c, o, &st->dup_ids);
    /* pass 1: the documents the candidates name */
    uint64_t words = c->n_docs / 64 + 1;
    ds.bits = rc ? NULL : calloc(words, 8);
    ds.rank = rc ? NULL : malloc((words + 1) * 8);
    if (!rc && (!ds.bits || !ds.rank)) rc = err_set(ERR_NOMEM, "out of memory (%" PRIu64 " documents)", c->n_docs);
    if (!rc) rc = open_merge(cf, nc, o->mem, &m);
    xs_rec r;
    int g = 0;
    while (!rc && (g = xs_merge_next(m, &r)) == 1) {
        if (r.a >= r.b || r.b >= c->n_docs) {
            rc = err_set(ERR_FORMAT, "a candidate file holds pair (%" PRIu64 ", %" PRIu64 ") of %" PRIu64 " documents",
                         r.a, r.b, c->n_docs);
            break;
        }
        ds.bits[r.a >> 6] |= 1ULL << (r.a & 63);
        ds.bits[r.b >> 6] |= 1ULL << (r.b & 63);
        st->candidates++;
    }
    if (!rc && g < 0) rc = g;
    xs_merge_free(m);
    m = NULL;
    if (!rc) {
        uint64_t acc = 0;
        for (uint64_t k = 0; k < words; k++) {
            ds.rank[k] = acc;
            acc += (uint64_t)__builtin_popcountll(ds.bits[k]);
        }
        ds.rank[words] = acc;
        st->docs = acc;
        if (acc >= UINT32_MAX)
            rc = err_set(ERR_LIMIT, "%" PRIu64 " candidate documents in one verification: at most 2^32 - 1", acc);
        s.off = malloc((acc ? acc : 1) * 8);
        s.meta = malloc((acc ? acc : 1) * sizeof *s.meta);
        s.buf = malloc(1u << 20);
        if (!s.off || !s.meta || !s.buf) rc = err_set(ERR_NOMEM, "out of memory");
    }
    /* their texts, from the sources, in order */
    if (!rc) {
        s.fd = io_anon_tmpfile(o->tmpdir ? o->tmpdir : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (s.fd < 0) rc = s.fd;
    }
    for (size_t f = 0; f < c->nf && !rc; f++) rc = gather_file(c, f, &ds, &s, st);
    if (!rc) rc = store_flush(&s);
    /* the candidate graph's components (union-find over the documents' ranks), so that the pairs
     * can be verified component by component: each document shingled once while its component
     * fits the arena, whatever the corpus's size */
    uint32_t *comp = rc ? NULL : malloc((st->docs ? st->docs : 1) * sizeof *comp);
    if (!rc && !comp) rc = err_set(ERR_NOMEM, "out of memory (%" PRIu64 " candidate documents)", st->docs);
    for (uint64_t k = 0; !rc && k < st->docs; k++) comp[k] = (uint32_t)k;
    if (!rc) rc = open_merge(cf, nc, o->mem, &m);
    while (!rc && (g = xs_merge_next(m, &r)) == 1) {
        uint32_t x = (uint32_t)ds_rank(&ds, r.a), y = (uint32_t)ds_rank(&ds, r.b);
        while (comp[x] != x) x = comp[x] = comp[comp[x]];
        while (comp[y] != y) y = comp[y] = comp[comp[y]];
        if (x != y) comp[x > y ? x : y] = x < y ? x : y; /* the smaller rank is the root */
    }
    if (!rc && g < 0) rc = g;
    xs_merge_free(m);
    m = NULL;
    for (uint64_t k = 0; !rc && k < st->docs; k++) comp[k] = comp[comp[k]]; /* roots are below: one step */
    /* the pairs by component (then by rank) */
    xs_sorter *bycomp = NULL, *out = NULL;
    if (!rc) rc = xs_new(&bycomp, o->mem / 4, o->tmpdir, 0);
    if (!rc) rc = xs_new(&out, o->mem / 4, o->tmpdir, 0);
    if (!rc) rc = open_merge(cf, nc, o->mem / 4, &m);
    while (!rc && (g = xs_merge_next(m, &r)) == 1) {
        uint64_t x = ds_rank(&ds, r.a), y = ds_rank(&ds, r.b);
        rc = xs_add(bycomp, comp[x], x << 32 | y);
    }
    if (!rc && g < 0) rc = g;
    xs_merge_free(m);
    m = NULL;
    if (!rc) rc = xs_finish(bycomp);
    /* verify in batches */
    vbatch v = {.s = &s, .ds = &ds, .p = &c->files[0].p, .cap = 1u << 18, .slotcap = 1u << 17,
                .parts = o->threads * 8, .sparts = o->threads, .denom = o->denom};
    v.tmask = (1u << 18) - 1;
    /* half the memory for the arena (at least 16 MB, and room for the two longest documents) */
    v.arena_cap = (o->mem / 2 > (16u << 20) ? o->mem / 2 : (16u << 20)) / 8;
    if (v.arena_cap < 2 * s.max_text) v.arena_cap = 2 * s.max_text;
    if (!rc) {
        v.pairs = malloc(v.cap * sizeof *v.pairs);
        v.pa = malloc(v.cap * 4);
        v.pb = malloc(v.cap * 4);
        v.sim = malloc(v.cap * sizeof *v.sim);
        v.doc = malloc(v.slotcap * 8);
        v.at = malloc(v.slotcap * 8);
        v.nsh = calloc(v.slotcap, sizeof *v.nsh);
        v.table = calloc(v.tmask + 1, sizeof *v.table);
        v.rc = calloc(v.parts, sizeof *v.rc);
        v.arena = malloc(v.arena_cap * 8);
        v.scratch = calloc(v.sparts, sizeof *v.scratch);
        v.scratchcap = calloc(v.sparts, sizeof *v.scratchcap);
        v.tbuf = calloc(v.sparts, sizeof *v.tbuf);
        v.tbufcap = calloc(v.sparts, sizeof *v.tbufcap);
        if (!v.pairs || !v.pa || !v.pb || !v.sim || !v.doc || !v.at || !v.nsh || !v.table || !v.rc || !v.arena ||
            !v.scratch || !v.scratchcap || !v.tbuf || !v.tbufcap)
            rc = err_set(ERR_NOMEM, "out of memory (verification buffers of %" PRIu64 " MB)", v.arena_cap * 8 >> 20);
    }
    int have = 0;
    while (!rc) {
        if (!have) {
            xs_rec q;
            g = xs_next(bycomp, &q);
            if (g < 0) { rc = g; break; }
            if (g == 0) break;
            r = (xs_rec){q.b >> 32, q.b & 0xffffffffu}; /* ranks */
            have = 1;
        }
        uint32_t sa, sb;
        size_t before = v.nslot;
        if (v.n == v.cap || slot_of(&v, r.a, &sa) || slot_of(&v, r.b, &sb)) { /* the pair waits */
            slots_back(&v, before);
            if (v.n) rc = verify_batch(&v, o->pl, o, out, st);
            else cache_reset(&v); /* the cache alone fills the arena */
            continue;
        }
        v.pairs[v.n] = r;
        v.pa[v.n] = sa;
        v.pb[v.n++] = sb;
        have = 0;
    }
    if (!rc && v.n) rc = verify_batch(&v, o->pl, o, out, st);
    xs_free(bycomp);
    /* the pairs in order (ranks follow the documents' order), their ids read from the store */
    if (!rc) rc = xs_finish(out);
    char *ida = NULL, *idb = NULL;
    size_t capa = 0, capb = 0;
    uint64_t cur = UINT64_MAX;
    while (!rc && (g = xs_next(out, &r)) == 1) {
        uint64_t a = r.a >> 32, b = r.a & 0xffffffffu;
        double sim;
        memcpy(&sim, &r.b, 8);
        const doc_meta *ma = &s.meta[a], *mb = &s.meta[b];
        if (a != cur) {
            if ((rc = read_id(&s, a, &ida, &capa))) break;
            cur = a;
        }
        if ((rc = read_id(&s, b, &idb, &capb))) break;
        int exact = ma->exact == mb->exact;
        rc = lsh_put_pair(w, ida, ma->il, idb, mb->il, sim, exact);
        st->w.written++;
        if (sim >= o->threshold || exact) st->w.above++;
        st->w.exact += (uint64_t)exact;
    }
    if (!rc && g < 0) rc = g;
    free(ida), free(idb), free(comp);
    xs_free(out);
    vbatch_free(&v);
    xs_merge_free(m);
    for (size_t i = 0; i < nc && cf; i++) st->cand_bytes_read += 3 * cf[i].count * 16; /* three merges */
    if (s.fd >= 0) close(s.fd);
    for (size_t i = 0; i < nc && cf; i++)
        if (cf[i].fd > 0) close(cf[i].fd);
    free(cf), free(ds.bits), free(ds.rank), free(s.off), free(s.meta), free(s.buf);
    st->sig_bytes_read = mc_corpus_bytes_read(c) - sig_before;
    return rc;
}

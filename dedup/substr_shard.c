/* substr_shard.c - substr_dedup's shards and cross-shard pass (see substr_shard.h). */
#include "dedup/substr_shard.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/jsonl.h"
#include "common/jsonscan.h"

static const char MAGIC[8] = {'W', 'T', 'S', 'U', 'B', 'S', 'T', '1'}, TRAILER[8] = {'W', 'T', 'S', 'U', 'B', 'E', 'N', 'D'};
enum { HEADER_BYTES = 48, TRAILER_BYTES = 24, MAX_UNITS = INT32_MAX - 1 };

int ss_shard_of(const char *id, uint64_t record, int nshards)
{
    uint64_t h = id ? hash64(id, strlen(id), 0x5b57a2d1u) : hash64(&record, sizeof record, 0x5b57a2d2u);
    return (int)(((unsigned __int128)h * (unsigned)nshards) >> 64);
}

void ss_winnow_params(int k, int *g, int *w)
{
    *g = (k + 1) / 2;
    *w = k - *g + 1;
}

static inline uint64_t mix64(uint64_t x) /* splitmix64's finalizer */
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Winnowing keeps the least hashes, so the ranges split a second mix of them. */
int ss_range_of(uint64_t hash, int nranges)
{
    return (int)(((unsigned __int128)mix64(hash ^ 0x2545f4914f6cdd1dull) * (unsigned)nranges) >> 64);
}

int ss_winnow(const void *sym, int unit, int64_t nsym, int g, int w, ss_emit_fn emit, void *arg)
{
    int64_t m = nsym - g + 1; /* g-grams */
    if (g < 1 || w < 1 || m < w)
        return 0; /* shorter than k: no window to strike */
    const uint8_t *b = sym;
    const uint16_t *t = sym;
#define SYM(i) ((uint64_t)(unit == 1 ? b[i] : t[i]))
    /* a polynomial hash of each g-gram, rolled (mod 2^64), then mixed */
    const uint64_t B = 0x9e3779b97f4a7c15ull;
    uint64_t top = 1, h = 0;
    for (int i = 1; i < g; i++)
        top *= B;
    for (int i = 0; i < g; i++)
        h = h * B + SYM(i);
    /* the least hash of each w consecutive g-grams (the rightmost on ties): a deque of
     * increasing hashes, as a ring of w + 1 */
    size_t cap = (size_t)w + 1, head = 0, n = 0;
    uint64_t *dh = malloc(cap * sizeof *dh);
    int64_t *dp = malloc(cap * sizeof *dp);
    if (!dh || !dp) {
        free(dh);
        free(dp);
        return err_set(ERR_NOMEM, "out of memory");
    }
    int rc = 0;
    int64_t last = -1;
    for (int64_t i = 0; i < m && !rc; i++) {
        if (i)
            h = (h - SYM(i - 1) * top) * B + SYM(i + g - 1);
        uint64_t v = mix64(h);
        while (n && dh[(head + n - 1) % cap] >= v)
            n--;
        dh[(head + n) % cap] = v;
        dp[(head + n) % cap] = i;
        n++;
        if (dp[head] <= i - w)
            head = (head + 1) % cap, n--;
        if (i >= w - 1 && dp[head] != last) {
            last = dp[head];
            rc = emit(arg, dh[head], (uint32_t)last);
        }
    }
#undef SYM
    free(dh);
    free(dp);
    return rc;
}

void ss_path(char *buf, size_t n, const char *dir, int kind, int shard, int range)
{
    if (kind == SS_SPANS)
        snprintf(buf, n, "%s/spans.%04d", dir, shard);
    else if (kind == SS_FPRINTS)
        snprintf(buf, n, "%s/fp.%04d.%04d", dir, shard, range);
    else
        snprintf(buf, n, "%s/cross.%04d", dir, range);
}

static ss_header header_of(const ss_config *cfg, int kind, int shard, int range)
{
    int g, w;
    ss_winnow_params(cfg->k, &g, &w);
    return (ss_header){(uint32_t)kind, (uint32_t)cfg->unit, (uint32_t)cfg->mode, (uint32_t)cfg->k,
                       (uint32_t)cfg->nshards, (uint32_t)cfg->nranges, (uint32_t)shard, (uint32_t)range, (uint32_t)g, 0};
}

/* ---- writing ---- */

typedef struct {
    io_writer *w;
    uint64_t count;
    size_t n;
    char buf[1 << 16];
} ss_writer;

static int sw_open(ss_writer **out, const char *path, const ss_header *h)
{
    ss_writer *w = calloc(1, sizeof *w);
    if (!w)
        return err_set(ERR_NOMEM, "out of memory");
    io_writer_opts o = {0, 0, 1};
    int rc = io_writer_open(&w->w, path, &o);
    if (!rc) {
        memcpy(w->buf, MAGIC, 8);
        memcpy(w->buf + 8, h, sizeof *h);
        w->n = HEADER_BYTES;
        *out = w;
        return 0;
    }
    free(w);
    return rc;
}

static int sw_add(ss_writer *w, const void *rec, size_t size)
{
    if (w->n + size > sizeof w->buf) {
        int rc = io_write(w->w, w->buf, w->n);
        if (rc)
            return rc;
        w->n = 0;
    }
    memcpy(w->buf + w->n, rec, size);
    w->n += size;
    w->count++;
    return 0;
}

/* The trailer written; the file is committed with the others (io_writer_commit_group). */
static int sw_finish(ss_writer *w, uint64_t nrecords)
{
    uint64_t t[2] = {w->count, nrecords};
    if (w->n + TRAILER_BYTES > sizeof w->buf) {
        int rc = io_write(w->w, w->buf, w->n);
        if (rc)
            return rc;
        w->n = 0;
    }
    memcpy(w->buf + w->n, TRAILER, 8);
    memcpy(w->buf + w->n + 8, t, 16);
    w->n += TRAILER_BYTES;
    return io_write(w->w, w->buf, w->n);
}

/* Commit (rc 0) or abort every writer, and free them. */
static int sw_close_all(ss_writer **ws, size_t n, int rc)
{
    io_writer **iw = calloc(n ? n : 1, sizeof *iw);
    if (!iw && !rc)
        rc = err_set(ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (!ws[i])
            continue;
        if (rc)
            io_writer_abort(ws[i]->w);
        else
            iw[i] = ws[i]->w;
        free(ws[i]);
        ws[i] = NULL;
    }
    if (!rc)
        rc = io_writer_commit_group(iw, n);
    free(iw);
    return rc;
}

/* ---- reading ---- */

int ss_reader_open_stream(ss_reader *r, FILE *f, uint64_t size, const char *name, const ss_header *want)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->name = strdup(name);
    if (!r->name) {
        fclose(f);
        r->f = NULL;
        return err_set(ERR_NOMEM, "out of memory");
    }
    char m[8], t[8];
    uint64_t tr[2];
    r->recsize = want->kind == SS_FPRINTS ? sizeof(ss_fp) : sizeof(ss_span);
    if (size < HEADER_BYTES + TRAILER_BYTES || fread(m, 1, 8, f) != 8 || memcmp(m, MAGIC, 8) ||
        fread(&r->h, sizeof r->h, 1, f) != 1)
        return err_set(ERR_FORMAT, "%s: not a substr_dedup work file", name);
    if (memcmp(&r->h, want, sizeof r->h))
        return err_set(ERR_FORMAT, "%s: made by a run with other settings (kind %u unit %u mode %u k %u shards %u "
                                   "ranges %u shard %d range %d; this run: kind %u unit %u mode %u k %u shards %u "
                                   "ranges %u shard %d range %d)",
                       name, r->h.kind, r->h.unit, r->h.mode, r->h.k, r->h.nshards, r->h.nranges, (int)r->h.shard,
                       (int)r->h.range, want->kind, want->unit, want->mode, want->k, want->nshards, want->nranges,
                       (int)want->shard, (int)want->range);
    if ((size - HEADER_BYTES - TRAILER_BYTES) % r->recsize || fseeko(f, (off_t)(size - TRAILER_BYTES), SEEK_SET) ||
        fread(t, 1, 8, f) != 8 || memcmp(t, TRAILER, 8) || fread(tr, sizeof tr, 1, f) != 1 ||
        tr[0] != (size - HEADER_BYTES - TRAILER_BYTES) / r->recsize)
        return err_set(ERR_CORRUPT, "%s: truncated or damaged (no trailer that matches its %" PRIu64 " bytes)", name,
                       size);
    r->count = tr[0];
    r->nrecords = tr[1];
    if (fseeko(f, HEADER_BYTES, SEEK_SET))
        return err_sys(ERR_IO, "%s", name);
    return 0;
}

int ss_reader_open(ss_reader *r, const char *path, const ss_header *want)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "rb");
    struct stat sb;
    if (!f || fstat(fileno(f), &sb)) {
        int e = errno;
        if (f)
            fclose(f);
        errno = e;
        return err_sys(ERR_IO, "%s", path);
    }
    setvbuf(f, NULL, _IOFBF, 1 << 16);
    return ss_reader_open_stream(r, f, (uint64_t)sb.st_size, path, want);
}

int ss_reader_next(ss_reader *r, void *rec)
{
    if (r->seen == r->count)
        return 0;
    if (fread(rec, r->recsize, 1, r->f) != 1)
        return err_set(ERR_IO, "%s: entry %" PRIu64 ": a short read", r->name, r->seen);
    uint64_t i = r->seen++;
    if (r->h.kind == SS_FPRINTS) {
        const ss_fp *p = rec;
        if (p->doc >= r->nrecords || p->shard != r->h.shard || ss_range_of(p->hash, (int)r->h.nranges) != (int)r->h.range ||
            (i && p->doc < r->last_doc))
            return err_set(ERR_CORRUPT, "%s: entry %" PRIu64 ": a fingerprint out of place (record %" PRIu64
                                        " of %" PRIu64 ", shard %u)", r->name, i, p->doc, r->nrecords, p->shard);
        r->last_doc = p->doc;
        return 1;
    }
    const ss_span *s = rec;
    if (s->doc >= r->nrecords || s->start >= s->end ||
        (i && (s->doc < r->last.doc || (s->doc == r->last.doc && s->start < r->last.end))))
        return err_set(ERR_CORRUPT, "%s: entry %" PRIu64 ": a span out of place (record %" PRIu64 " of %" PRIu64
                                    ", bytes %u-%u)", r->name, i, s->doc, r->nrecords, s->start, s->end);
    r->last = *s;
    return 1;
}

void ss_reader_close(ss_reader *r)
{
    if (r->f)
        fclose(r->f);
    free(r->name);
    memset(r, 0, sizeof *r);
}

/* ---- the input's records ---- */

typedef int (*record_fn)(void *arg, uint64_t rec, const char *id, const char *text, size_t len);

/* Every record's text and id, by one pass over the line (common/jsonscan.h), or cJSON's
 * where that pass declines: the same texts as the JSON-lines reader gives (a text is cut at a
 * NUL, as its C strings are), so the stages agree with the write pass and with one suffix
 * array's run. Blank lines are no records; a line that is not JSON is one without text. */
static int each_record(const ss_config *cfg, const fs_list *files, progress *pg, record_fn fn, void *arg,
                       uint64_t *nrec)
{
    uint64_t rec = 0, bytes = 0;
    int rc = 0;
    const char *keys[2] = {cfg->text_field, cfg->id_field};
    char *tbuf = NULL, *ibuf = NULL, *idc = NULL;
    size_t tcap = 0, icap = 0, idcap = 0;
    for (size_t f = 0; f < files->n && !rc; f++) {
        io_reader *rd = NULL;
        int k = 0;
        if ((rc = io_reader_open(&rd, files->paths[f])))
            break;
        char *line;
        size_t ll;
        while (!rc && (k = io_getline(rd, &line, &ll)) > 0) {
            if (jsonl_is_blank(line, ll))
                continue;
            bytes += ll + 1;
            const char *text = NULL, *id = NULL;
            size_t tl = 0, il = 0;
            jsonscan_span sp[2];
            cJSON *obj = NULL;
            if (jsonscan_fields(line, ll, keys, 2, sp)) {
                if (sp[0].type == JSONSCAN_STRING && !(rc = jsonscan_string(line, &sp[0], &text, &tl, &tbuf, &tcap))) {
                    tl = strnlen(text, tl);
                    if (sp[1].type == JSONSCAN_STRING && !(rc = jsonscan_string(line, &sp[1], &id, &il, &ibuf, &icap)))
                        il = strnlen(id, il);
                }
            } else {
                size_t col;
                int trailing;
                obj = jsonl_parse_line(line, ll, &col, &trailing);
                if (!obj && trailing == JSONL_NOMEM)
                    rc = err_set(ERR_NOMEM, "out of memory");
                text = obj ? jsonl_get_string(obj, cfg->text_field) : NULL;
                id = text ? jsonl_get_string(obj, cfg->id_field) : NULL;
                tl = text ? strlen(text) : 0;
                il = id ? strlen(id) : 0;
            }
            if (!rc && text && id) { /* the id, NUL-terminated */
                if (il + 1 > idcap) {
                    char *g = realloc(idc, il + 1);
                    if (!g)
                        rc = err_set(ERR_NOMEM, "out of memory");
                    else
                        idc = g, idcap = il + 1;
                }
                if (!rc) {
                    memcpy(idc, id, il);
                    idc[il] = 0;
                }
            }
            if (!rc)
                rc = fn(arg, rec++, text && id ? idc : NULL, text, tl);
            cJSON_Delete(obj);
            progress_update(pg, rec, bytes);
        }
        if (!rc && k < 0)
            rc = k;
        if (rc && rc != ERR_NOMEM && rc != ERR_USAGE)
            err_set(rc, "%s: %s", files->paths[f], err_msg());
        io_reader_close(rd);
    }
    free(tbuf);
    free(ibuf);
    free(idc);
    *nrec = rec;
    return rc;
}

/* ---- stage find ---- */

typedef struct {
    const ss_config *cfg;
    int shard;
    sc_corpus *c;
    uint64_t *gdoc; /* each local document's record number */
    size_t n, cap;
    ss_writer **fw;  /* a fingerprint file a range */
    uint64_t doc;    /* the record being winnowed */
} find_ctx;

static int find_record(void *arg, uint64_t rec, const char *id, const char *text, size_t len)
{
    find_ctx *x = arg;
    if (!text || ss_shard_of(id, rec, x->cfg->nshards) != x->shard)
        return 0;
    if (x->n == x->cap) {
        size_t nc = x->cap ? 2 * x->cap : 4096;
        uint64_t *g = realloc(x->gdoc, nc * sizeof *g);
        if (!g)
            return err_set(ERR_NOMEM, "out of memory");
        x->gdoc = g;
        x->cap = nc;
    }
    x->gdoc[x->n++] = rec;
    return sc_add(x->c, text, len);
}

static int emit_fp(void *arg, uint64_t hash, uint32_t pos)
{
    find_ctx *x = arg;
    ss_fp fp = {hash, x->doc, pos, (uint32_t)x->shard};
    return sw_add(x->fw[ss_range_of(hash, x->cfg->nranges)], &fp, sizeof fp);
}

int ss_find(const ss_config *cfg, const fs_list *files, int shard, progress *pg, ss_stats *st)
{
    sc_corpus c;
    find_ctx x = {cfg, shard, &c, NULL, 0, 0, NULL, 0};
    int rc = sc_init(&c, cfg->unit, cfg->tok, cfg->threads);
    if (rc)
        return rc;
    double t0 = progress_now();
    uint64_t nrec = 0;
    rc = each_record(cfg, files, pg, find_record, &x, &nrec);
    if (!rc)
        rc = sc_flush(&c);
    st->records = nrec;
    st->docs += x.n;
    st->units += (uint64_t)c.n;
    st->read_s += progress_now() - t0;
    size_t nw = (size_t)cfg->nranges + 1;
    ss_writer **ws = calloc(nw, sizeof *ws); /* the fingerprints' ranges, then the spans */
    if (!rc && !ws)
        rc = err_set(ERR_NOMEM, "out of memory");
    char path[4096];
    for (int r = 0; r < cfg->nranges && !rc; r++) {
        ss_path(path, sizeof path, cfg->work_dir, SS_FPRINTS, shard, r);
        ss_header h = header_of(cfg, SS_FPRINTS, shard, r);
        rc = sw_open(&ws[r], path, &h);
    }
    if (!rc) {
        ss_path(path, sizeof path, cfg->work_dir, SS_SPANS, shard, 0);
        ss_header h = header_of(cfg, SS_SPANS, shard, -1);
        rc = sw_open(&ws[cfg->nranges], path, &h);
    }
    int g, w;
    ss_winnow_params(cfg->k, &g, &w);
    x.fw = ws;
    uint64_t nfp = 0;
    for (size_t d = 0; d < c.ndocs && !rc; d++) {
        x.doc = x.gdoc[d];
        rc = ss_winnow((const uint8_t *)c.T + (size_t)c.docs[d].sym0 * (size_t)c.unit, c.unit, c.docs[d].nsym, g, w,
                       emit_fp, &x);
    }
    for (int r = 0; ws && r < cfg->nranges; r++)
        nfp += ws[r] ? ws[r]->count : 0;
    substr_range *ranges = NULL;
    size_t nr = 0;
    substr_stats ss = {0};
    double t1 = progress_now();
    if (!rc && c.n > 0) {
        progress_phase(pg, "substr_dedup: suffix array", 0);
        rc = substr_find(c.T, c.unit, c.n, cfg->k, cfg->mode, cfg->builder, cfg->threads, &ranges, &nr, &ss);
    }
    if (!rc)
        rc = sc_assign(&c, ranges, nr);
    free(ranges);
    st->find_s += progress_now() - t1;
    for (size_t d = 0; d < c.ndocs && !rc; d++)
        for (uint32_t j = 0; j < c.docs[d].nspans && !rc; j++) {
            sc_span s = c.spans[c.docs[d].span0 + j];
            ss_span o = {x.gdoc[d], s.start, s.end};
            rc = sw_add(ws[cfg->nranges], &o, sizeof o);
        }
    st->spans += c.nspans;
    st->fprints += nfp;
    for (size_t i = 0; i < nw && !rc && ws; i++)
        rc = sw_finish(ws[i], nrec);
    if (ws)
        rc = sw_close_all(ws, nw, rc);
    free(ws);
    free(x.gdoc);
    sc_free(&c);
    return rc;
}

/* ---- stage cross ---- */

static int cmp_fp(const void *a, const void *b)
{
    const ss_fp *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    if (x->doc != y->doc)
        return x->doc < y->doc ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

typedef struct {
    uint64_t doc;
    uint32_t pos;
} cand;

static int cmp_cand(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->doc != y->doc)
        return x->doc < y->doc ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* The windows around a candidate, cut from its document: a region of the cross corpus. */
typedef struct {
    uint64_t doc;
    int64_t sym0;  /* in the cross corpus */
    int64_t nsym;
    uint64_t byte0; /* the byte of its document's text it starts at */
} region;

typedef struct {
    const ss_config *cfg;
    const cand *cd;
    size_t ncd, at;
    sc_corpus *c;      /* the candidates' documents, a batch at a time */
    size_t *first;     /* each document of the batch: its candidates from first[j] */
    uint64_t *gdoc;
    size_t nb, bcap;
    void *T;           /* the cross corpus */
    int64_t n, cap;
    region *rg;
    size_t nrg, rcap;
} cross_ctx;

static int cross_grow(cross_ctx *x, int64_t need)
{
    if (need > MAX_UNITS)
        return err_set(ERR_LIMIT, "the cross-shard pass passes 2^31 %s (the windows around fingerprints found in "
                                  "more than one shard): give more --hash-ranges",
                       x->cfg->unit == 1 ? "bytes" : "tokens");
    if (need <= x->cap)
        return 0;
    int64_t nc = x->cap ? x->cap : 1 << 20;
    while (nc < need)
        nc = nc > MAX_UNITS / 2 ? MAX_UNITS : 2 * nc;
    void *g = realloc(x->T, (size_t)nc * (size_t)x->cfg->unit);
    if (!g)
        return err_set(ERR_NOMEM, "out of memory for the cross-shard pass's %lld symbols", (long long)nc);
    x->T = g;
    x->cap = nc;
    return 0;
}

/* The batch's documents (encoded) cut into regions, appended to the cross corpus. */
static int cross_cut(cross_ctx *x)
{
    sc_corpus *c = x->c;
    int unit = c->unit, g, w, k = x->cfg->k;
    ss_winnow_params(k, &g, &w);
    int rc = 0;
    for (size_t j = 0; j < x->nb && !rc; j++) {
        const sc_doc *d = &c->docs[j];
        size_t a = x->first[j], b = j + 1 < x->nb ? x->first[j + 1] : x->at;
        int64_t lo = -1, hi = -1, tok = 0;
        uint64_t byte = 0;
        for (size_t i = a; i <= b && !rc; i++) {
            int64_t l = 0, h = 0;
            if (i < b) {
                int64_t p = x->cd[i].pos;
                if (p + g > d->nsym)
                    return err_set(ERR_FORMAT, "record %" PRIu64 ": a fingerprint past its text: the input changed "
                                               "since the find stage", x->gdoc[j]);
                l = p + g - k > 0 ? p + g - k : 0;
                h = p + k < d->nsym ? p + k : d->nsym;
                if (lo >= 0 && l <= hi) { /* overlaps or touches the region being cut */
                    if (h > hi)
                        hi = h;
                    continue;
                }
            }
            if (lo >= 0) { /* the region [lo, hi) out */
                if (unit == 2)
                    for (const uint16_t *t = (const uint16_t *)c->T + d->sym0; tok < lo; tok++)
                        byte += c->tlen[t[tok] - 1];
                else
                    byte = (uint64_t)lo;
                if ((rc = cross_grow(x, x->n + (hi - lo) + 1)))
                    break;
                if (x->nrg == x->rcap) {
                    size_t nc = x->rcap ? 2 * x->rcap : 1024;
                    region *ng = realloc(x->rg, nc * sizeof *ng);
                    if (!ng)
                        return err_set(ERR_NOMEM, "out of memory");
                    x->rg = ng;
                    x->rcap = nc;
                }
                x->rg[x->nrg++] = (region){x->gdoc[j], x->n, hi - lo, byte};
                memcpy((uint8_t *)x->T + (size_t)x->n * (size_t)unit,
                       (const uint8_t *)c->T + (size_t)(d->sym0 + lo) * (size_t)unit, (size_t)(hi - lo) * (size_t)unit);
                x->n += hi - lo;
                if (unit == 1)
                    ((uint8_t *)x->T)[x->n++] = 0;
                else
                    ((uint16_t *)x->T)[x->n++] = 0;
            }
            lo = l;
            hi = h;
        }
    }
    /* the batch is done with: its symbols are reused */
    c->n = 0;
    c->ndocs = 0;
    x->nb = 0;
    return rc;
}

static int cross_record(void *arg, uint64_t rec, const char *id, const char *text, size_t len)
{
    (void)id;
    cross_ctx *x = arg;
    if (x->at >= x->ncd || x->cd[x->at].doc != rec)
        return 0;
    if (!text)
        return err_set(ERR_FORMAT, "record %" PRIu64 " has no text now: the input changed since the find stage", rec);
    if (x->nb == x->bcap) {
        size_t nc = x->bcap ? 2 * x->bcap : 1024;
        size_t *f = realloc(x->first, nc * sizeof *f);
        if (f)
            x->first = f;
        uint64_t *gd = f ? realloc(x->gdoc, nc * sizeof *gd) : NULL;
        if (!gd)
            return err_set(ERR_NOMEM, "out of memory");
        x->gdoc = gd;
        x->bcap = nc;
    }
    x->first[x->nb] = x->at;
    x->gdoc[x->nb++] = rec;
    while (x->at < x->ncd && x->cd[x->at].doc == rec)
        x->at++;
    int rc = sc_add(x->c, text, len);
    if (!rc && !x->c->npend) /* encoded: cut */
        rc = cross_cut(x);
    return rc;
}

/* Every shard's fingerprints of range r: those whose hash is in two or more shards, by
 * document and position. */
static int load_candidates(const ss_config *cfg, int range, cand **out, size_t *nout, uint64_t *nfp, uint64_t *nrecords)
{
    *out = NULL;
    *nout = 0;
    ss_reader *rd = calloc((size_t)cfg->nshards, sizeof *rd);
    if (!rd)
        return err_set(ERR_NOMEM, "out of memory");
    uint64_t total = 0, nrec = 0;
    int rc = 0;
    char path[4096];
    for (int s = 0; s < cfg->nshards && !rc; s++) {
        ss_path(path, sizeof path, cfg->work_dir, SS_FPRINTS, s, range);
        ss_header h = header_of(cfg, SS_FPRINTS, s, range);
        rc = ss_reader_open(&rd[s], path, &h);
        if (!rc && s && rd[s].nrecords != nrec)
            rc = err_set(ERR_FORMAT, "%s: made from %" PRIu64 " input records, shard 0's from %" PRIu64
                                     ": every stage must read the same input", path, rd[s].nrecords, nrec);
        nrec = rd[s].nrecords;
        total += rd[s].count;
    }
    ss_fp *a = rc ? NULL : malloc((total ? total : 1) * sizeof *a);
    if (!rc && !a)
        rc = err_set(ERR_NOMEM, "out of memory for %" PRIu64 " fingerprints (24 bytes each): give more --hash-ranges",
                     total);
    size_t n = 0;
    for (int s = 0; s < cfg->nshards && !rc; s++) {
        int k;
        while ((k = ss_reader_next(&rd[s], &a[n])) == 1)
            n++;
        rc = k;
    }
    for (int s = 0; s < cfg->nshards; s++)
        ss_reader_close(&rd[s]);
    free(rd);
    *nfp = n;
    *nrecords = nrec;
    if (rc) {
        free(a);
        return rc;
    }
    qsort(a, n, sizeof *a, cmp_fp);
    cand *cd = (cand *)a; /* written behind the reading: 16 bytes a fingerprint for 24 */
    size_t m = 0;
    for (size_t i = 0, j; i < n; i = j) {
        int mixed = 0;
        for (j = i + 1; j < n && a[j].hash == a[i].hash; j++)
            mixed |= a[j].shard != a[i].shard;
        for (size_t q = i; mixed && q < j; q++) {
            cand e = {a[q].doc, a[q].pos};
            cd[m++] = e;
        }
    }
    qsort(cd, m, sizeof *cd, cmp_cand);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (!u || cmp_cand(&cd[u - 1], &cd[i]))
            cd[u++] = cd[i];
    *out = cd;
    *nout = u;
    return 0;
}

int ss_cross(const ss_config *cfg, const fs_list *files, int range, progress *pg, ss_stats *st)
{
    cand *cd = NULL;
    size_t ncd = 0;
    uint64_t nfp = 0, fp_nrec = 0;
    double t0 = progress_now();
    int rc = load_candidates(cfg, range, &cd, &ncd, &nfp, &fp_nrec);
    if (rc)
        return rc;
    st->fprints += nfp;
    st->candidates += ncd;
    sc_corpus c;
    cross_ctx x = {.cfg = cfg, .cd = cd, .ncd = ncd, .c = &c};
    rc = sc_init(&c, cfg->unit, cfg->tok, cfg->threads);
    if (rc) {
        free(cd);
        return rc;
    }
    uint64_t nrec = fp_nrec; /* nothing to cut: the input is not read again */
    if (ncd)
        rc = each_record(cfg, files, pg, cross_record, &x, &nrec);
    if (!rc)
        rc = sc_flush(&c);
    if (!rc && x.nb)
        rc = cross_cut(&x);
    if (!rc && x.at < ncd)
        rc = err_set(ERR_FORMAT, "record %" PRIu64 " has a fingerprint but the input has %" PRIu64
                                 " records: the input changed since the find stage", cd[x.at].doc, nrec);
    st->records = nrec;
    st->region_units += (uint64_t)x.n;
    st->read_s += progress_now() - t0;
    double t1 = progress_now();
    substr_range *rr = NULL;
    size_t nr = 0;
    if (!rc && x.n > 0) {
        progress_phase(pg, "substr_dedup: cross-shard suffix array", 0);
        substr_stats ss = {0};
        rc = substr_find(x.T, cfg->unit, x.n, cfg->k, cfg->mode, cfg->builder, cfg->threads, &rr, &nr, &ss);
    }
    st->find_s += progress_now() - t1;
    ss_writer *w = NULL;
    char path[4096];
    ss_path(path, sizeof path, cfg->work_dir, SS_CROSS, 0, range);
    ss_header h = header_of(cfg, SS_CROSS, -1, range);
    if (!rc)
        rc = sw_open(&w, path, &h);
    /* each range in its region: bytes from the region's first */
    size_t j = 0;
    for (size_t q = 0; q < nr && !rc; q++) {
        while (j < x.nrg && x.rg[j].sym0 + x.rg[j].nsym <= rr[q].start)
            j++;
        const region *g = &x.rg[j];
        uint64_t b0 = g->byte0, b1;
        if (cfg->unit == 1) {
            b0 += (uint64_t)(rr[q].start - g->sym0);
            b1 = g->byte0 + (uint64_t)(rr[q].end - g->sym0);
        } else {
            const uint16_t *t = x.T;
            for (int64_t p = g->sym0; p < rr[q].start; p++)
                b0 += c.tlen[t[p] - 1];
            b1 = b0;
            for (int64_t p = rr[q].start; p < rr[q].end; p++)
                b1 += c.tlen[t[p] - 1];
        }
        ss_span o = {g->doc, (uint32_t)b0, (uint32_t)b1};
        rc = sw_add(w, &o, sizeof o);
    }
    st->spans += nr;
    if (!rc)
        rc = sw_finish(w, nrec);
    if (w)
        rc = sw_close_all(&w, 1, rc);
    free(rr);
    free(x.T);
    free(x.rg);
    free(x.first);
    free(x.gdoc);
    free(cd);
    sc_free(&c);
    return rc;
}

/* ---- stage write's merge ---- */

int ss_merge_open(ss_merge *m, const ss_config *cfg)
{
    memset(m, 0, sizeof *m);
    m->n = (size_t)cfg->nshards + (size_t)cfg->nranges;
    m->r = calloc(m->n, sizeof *m->r);
    m->cur = calloc(m->n, sizeof *m->cur);
    m->has = calloc(m->n, sizeof *m->has);
    if (!m->r || !m->cur || !m->has) {
        ss_merge_close(m);
        return err_set(ERR_NOMEM, "out of memory");
    }
    char path[4096];
    int rc = 0;
    for (size_t i = 0; i < m->n && !rc; i++) {
        int shard = i < (size_t)cfg->nshards ? (int)i : -1, range = shard < 0 ? (int)(i - (size_t)cfg->nshards) : -1;
        int kind = shard >= 0 ? SS_SPANS : SS_CROSS;
        ss_path(path, sizeof path, cfg->work_dir, kind, shard, range);
        ss_header h = header_of(cfg, kind, shard, range);
        rc = ss_reader_open(&m->r[i], path, &h);
        if (!rc) {
            int k = ss_reader_next(&m->r[i], &m->cur[i]);
            rc = k < 0 ? k : 0;
            m->has[i] = k == 1;
        }
    }
    if (rc)
        ss_merge_close(m);
    return rc;
}

int ss_merge_doc(ss_merge *m, uint64_t doc, sc_span **sp, size_t *n)
{
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++) {
        while (m->has[i] && m->cur[i].doc <= doc) {
            if (m->cur[i].doc < doc)
                return err_set(ERR_CORRUPT, "%s: entry %" PRIu64 ": record %" PRIu64 " out of order", m->r[i].name,
                               m->r[i].seen - 1, m->cur[i].doc);
            if (k == m->cap) {
                size_t nc = m->cap ? 2 * m->cap : 64;
                sc_span *g = realloc(m->buf, nc * sizeof *g);
                if (!g)
                    return err_set(ERR_NOMEM, "out of memory");
                m->buf = g;
                m->cap = nc;
            }
            m->buf[k++] = (sc_span){m->cur[i].start, m->cur[i].end};
            int rc = ss_reader_next(&m->r[i], &m->cur[i]);
            if (rc < 0)
                return rc;
            m->has[i] = rc == 1;
        }
    }
    /* by start (few: insertion), then merged where they overlap or touch */
    for (size_t i = 1; i < k; i++) {
        sc_span v = m->buf[i];
        size_t j = i;
        for (; j && m->buf[j - 1].start > v.start; j--)
            m->buf[j] = m->buf[j - 1];
        m->buf[j] = v;
    }
    size_t o = 0;
    for (size_t i = 0; i < k; i++) {
        if (o && m->buf[i].start <= m->buf[o - 1].end) {
            if (m->buf[i].end > m->buf[o - 1].end)
                m->buf[o - 1].end = m->buf[i].end;
        } else {
            m->buf[o++] = m->buf[i];
        }
    }
    *sp = m->buf;
    *n = o;
    return 0;
}

int ss_merge_finish(ss_merge *m, uint64_t nrecords)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->r[i].nrecords != nrecords)
            return err_set(ERR_FORMAT, "%s: made from %" PRIu64 " input records, this input has %" PRIu64
                                       ": every stage must read the same input, in the same order",
                           m->r[i].name, m->r[i].nrecords, nrecords);
        if (m->has[i])
            return err_set(ERR_CORRUPT, "%s: entry %" PRIu64 ": record %" PRIu64 " past the input's %" PRIu64,
                           m->r[i].name, m->r[i].seen - 1, m->cur[i].doc, nrecords);
    }
    return 0;
}

void ss_merge_close(ss_merge *m)
{
    for (size_t i = 0; m->r && i < m->n; i++)
        ss_reader_close(&m->r[i]);
    free(m->r);
    free(m->cur);
    free(m->has);
    free(m->buf);
    memset(m, 0, sizeof *m);
}

/* docenc.c - see docenc.h. */
#define _GNU_SOURCE /* memmem */
#include "docenc.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/err.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/jsonscan.h"
#include "common/pool.h"
#include "common/progress.h"

const char *const docenc_status_name[DOC_N_STATUS] = {"ok", "bad-json", "missing-key", "not-string"};

typedef struct {
    bpe_ids ids;
    uint32_t *seq_len;
    size_t n_len, cap_len;
    size_t *doc_seq;  /* [n+1] start of each doc's lengths */
    size_t *doc_ids;  /* [n+1] start of each doc's ids */
} key_res;

typedef struct pipe_s pipe_s;

typedef struct {
    pipe_s *p;
    char *buf;
    size_t len, cap;
    size_t *off, *llen;
    uint64_t *lineno;
    size_t n, cap_n;
    const char *file;
    uint8_t *status;
    size_t *err_col;
    const char **bad_key;
    uint64_t *text_bytes;
    key_res *kr;
    bpe_ctx *ctx;    /* the encoding context lent to the batch while it runs (pipe_s.ctxs) */
    char *ubuf;      /* a string value decoded from the raw line (NULs kept) */
    size_t ubuf_cap;
    int rc;
    char errmsg[512];
    int done;
} batch;

/* One encoding context per worker, lent to each batch while it runs (under mu): a
 * context's piece cache then sees every batch its worker runs, not one batch in
 * 2 x workers + 2 (the ring), and the caches take a worker's share of memory. */
struct pipe_s {
    const docenc_opts *o;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bpe_ctx **ctxs; /* the contexts not lent now: n_ctx of them */
    int n_ctx;
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need) nc *= 2;
    void *np = realloc(*p, nc * elem);
    if (!np) return err_set(ERR_NOMEM, "out of memory");
    *p = np;
    *cap = nc;
    return 0;
}

static void batch_free(batch *b, size_t n_keys)
{
    free(b->buf);
    free(b->ubuf);
    free(b->off);
    free(b->llen);
    free(b->lineno);
    free(b->status);
    free(b->err_col);
    free(b->bad_key);
    free(b->text_bytes);
    if (b->kr)
        for (size_t k = 0; k < n_keys; k++) {
            bpe_ids_free(&b->kr[k].ids);
            free(b->kr[k].seq_len);
            free(b->kr[k].doc_seq);
            free(b->kr[k].doc_ids);
        }
    free(b->kr);
}

/* Per-line result arrays sized to cap_n. */
static int batch_reserve_lines(batch *b, size_t need, size_t n_keys)
{
    if (need <= b->cap_n) return 0;
    size_t nc = b->cap_n ? b->cap_n : 1024;
    while (nc < need) nc *= 2;
#define RE(ptr, n) do { void *q = realloc(ptr, (n) * sizeof *(ptr)); if (!q) return err_set(ERR_NOMEM, "out of memory"); ptr = q; } while (0)
    RE(b->off, nc);
    RE(b->llen, nc);
    RE(b->lineno, nc);
    RE(b->status, nc);
    RE(b->err_col, nc);
    RE(b->bad_key, nc);
    RE(b->text_bytes, nc);
    for (size_t k = 0; k < n_keys; k++) {
        RE(b->kr[k].doc_seq, nc + 1);
        RE(b->kr[k].doc_ids, nc + 1);
    }
#undef RE
    b->cap_n = nc;
    return 0;
}

/* Encode one string value into key result r; pushes a length if non-empty. */
static int encode_piece(batch *b, key_res *r, const char *s, size_t n, size_t *text_bytes)
{
    size_t before = r->ids.n;
    *text_bytes += n;
    int rc = bpe_encode(b->ctx, s, n, &r->ids);
    if (rc) return rc;
    if (r->ids.n > before) {
        rc = grow((void **)&r->seq_len, &r->cap_len, r->n_len + 1, sizeof *r->seq_len);
        if (rc) return rc;
        if (r->ids.n - before > UINT32_MAX) return err_set(ERR_LIMIT, "a document of more than 2^32 tokens");
        r->seq_len[r->n_len++] = (uint32_t)(r->ids.n - before);
    }
    return 0;
}

/* The keys read through common/jsonscan: one pass, no tree. 1 when it has
 * the answer (status and ids set, or *rc an error), 0 when the line must go
 * the cJSON way (jsonscan's own rule, or a key holding a list of strings). */
static int encode_keys_fast(batch *b, size_t i, int *rc)
{
    const docenc_opts *o = b->p->o;
    const char *line = b->buf + b->off[i];
    jsonscan_span sp[JSONSCAN_MAX_KEYS];
    if (!jsonscan_fields(line, b->llen[i], o->keys, o->n_keys, sp)) return 0;
    for (size_t k = 0; k < o->n_keys; k++)
        if (sp[k].type == JSONSCAN_ARRAY) return 0;
    *rc = 0;
    for (size_t k = 0; k < o->n_keys && b->status[i] == DOC_OK; k++) {
        if (sp[k].type != JSONSCAN_STRING) {
            b->status[i] = sp[k].type == JSONSCAN_ABSENT ? DOC_MISSING_KEY : DOC_NOT_STRING;
            b->bad_key[i] = o->keys[k];
            break;
        }
        const char *t;
        size_t tl;
        if ((*rc = jsonscan_string(line, &sp[k], &t, &tl, &b->ubuf, &b->ubuf_cap)) ||
            (*rc = encode_piece(b, &b->kr[k], t, tl, &b->text_bytes[i])))
            break;
    }
    return 1;
}

/* The keys read from cJSON's tree of the line. */
static int encode_keys_cjson(batch *b, size_t i)
{
    const docenc_opts *o = b->p->o;
    size_t nk = o->n_keys;
    int trailing, rc = 0;
    cJSON *obj = jsonl_parse_line(b->buf + b->off[i], b->llen[i], &b->err_col[i], &trailing);
    if (!obj && trailing == JSONL_NOMEM) {
        b->status[i] = DOC_BAD_JSON;
        return err_set(ERR_NOMEM, "out of memory parsing JSON");
    }
    if (!obj) {
        b->status[i] = DOC_BAD_JSON;
        return 0;
    }
    for (size_t k = 0; k < nk && b->status[i] == DOC_OK && !rc; k++) {
        const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, o->keys[k]) : NULL;
        if (!v && cJSON_IsObject(obj) && strchr(o->keys[k], '.')) {
            /* dotted path: resolve through jsonl_get_string for strings only */
            const char *s = jsonl_get_string(obj, o->keys[k]);
            if (s) {
                if ((rc = encode_piece(b, &b->kr[k], s, strlen(s), &b->text_bytes[i]))) break;
                continue;
            }
        }
        if (!v) {
            b->status[i] = DOC_MISSING_KEY;
            b->bad_key[i] = o->keys[k];
        } else if (cJSON_IsString(v)) {
            /* cJSON's C string ends at an escaped NUL (\u0000); Python's json
             * keeps it and what follows, so then decode the raw value */
            const char *line = b->buf + b->off[i];
            size_t vs, ve, ul;
            if (jsonl_value_span(line, b->llen[i], o->keys[k], &vs, &ve) && memmem(line + vs, ve - vs, "\\u0000", 6) &&
                jsonl_unescape(line + vs, ve - vs, &b->ubuf, &ul, &b->ubuf_cap) == 0) {
                if ((rc = encode_piece(b, &b->kr[k], b->ubuf, ul, &b->text_bytes[i]))) break;
            } else if ((rc = encode_piece(b, &b->kr[k], v->valuestring, strlen(v->valuestring), &b->text_bytes[i]))) {
                break;
            }
        } else if (cJSON_IsArray(v)) {
            for (const cJSON *e = v->child; e; e = e->next)
                if (!cJSON_IsString(e)) {
                    b->status[i] = DOC_NOT_STRING;
                    b->bad_key[i] = o->keys[k];
                    break;
                }
            for (const cJSON *e = v->child; e && b->status[i] == DOC_OK && !rc; e = e->next)
                rc = encode_piece(b, &b->kr[k], e->valuestring, strlen(e->valuestring), &b->text_bytes[i]);
        } else {
            b->status[i] = DOC_NOT_STRING;
            b->bad_key[i] = o->keys[k];
        }
    }
    cJSON_Delete(obj);
    return rc;
}

static int encode_line(batch *b, size_t i)
{
    const docenc_opts *o = b->p->o;
    size_t nk = o->n_keys;
    for (size_t k = 0; k < nk; k++) {
        b->kr[k].doc_seq[i] = b->kr[k].n_len;
        b->kr[k].doc_ids[i] = b->kr[k].ids.n;
    }
    b->status[i] = DOC_OK;
    b->text_bytes[i] = 0;
    int rc = 0;
    if (!encode_keys_fast(b, i, &rc)) rc = encode_keys_cjson(b, i);
    if (rc) goto end;
    if (b->status[i] != DOC_OK) {
        /* roll back what the good keys produced */
        for (size_t k = 0; k < nk; k++) {
            b->kr[k].n_len = b->kr[k].doc_seq[i];
            b->kr[k].ids.n = b->kr[k].doc_ids[i];
        }
    } else if (o->append_eod) {
        for (size_t k = 0; k < nk; k++) {
            key_res *r = &b->kr[k];
            if (r->ids.n == r->doc_ids[i]) continue; /* empty document: no EOD */
            if ((rc = bpe_ids_push(&r->ids, (uint32_t)bpe_eod(o->bpe)))) goto end;
            r->seq_len[r->n_len - 1]++;
        }
    }
end:
    for (size_t k = 0; k < nk; k++) {
        b->kr[k].doc_seq[i + 1] = b->kr[k].n_len;
        b->kr[k].doc_ids[i + 1] = b->kr[k].ids.n;
    }
    return rc;
}

static void batch_work(void *arg)
{
    batch *b = arg;
    size_t nk = b->p->o->n_keys;
    pthread_mutex_lock(&b->p->mu); /* at most `workers` batches run at once: one is free */
    b->ctx = b->p->ctxs[--b->p->n_ctx];
    pthread_mutex_unlock(&b->p->mu);
    for (size_t k = 0; k < nk; k++) {
        b->kr[k].ids.n = 0;
        b->kr[k].n_len = 0;
    }
    b->rc = 0;
    for (size_t i = 0; i < b->n; i++) {
        int rc = encode_line(b, i);
        if (rc) {
            b->rc = rc;
            snprintf(b->errmsg, sizeof b->errmsg, "%s:%llu: %s", b->file, (unsigned long long)b->lineno[i], err_msg());
            break;
        }
    }
    pthread_mutex_lock(&b->p->mu);
    b->p->ctxs[b->p->n_ctx++] = b->ctx;
    b->ctx = NULL;
    b->done = 1;
    pthread_cond_broadcast(&b->p->cv);
    pthread_mutex_unlock(&b->p->mu);
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') return 0;
    return 1;
}

typedef struct {
    const char *const *files;
    size_t n_files, cur;
    io_reader *r;
    uint64_t raw_done; /* raw bytes of finished files */
} source;

/* Fill b with lines from the current file. Returns number of lines (0 at the
 * end of all input) or ERR_*. */
static int fill(source *src, batch *b, size_t limit, size_t n_keys, docenc_stats *st)
{
    b->len = 0;
    b->n = 0;
    while (src->cur < src->n_files) {
        if (!src->r) {
            int rc = io_reader_open(&src->r, src->files[src->cur]);
            if (rc) return rc;
        }
        b->file = io_reader_name(src->r);
        for (;;) {
            char *line;
            size_t len;
            int rc = io_getline(src->r, &line, &len);
            if (rc < 0) return rc;
            if (rc == 0) break;
            st->bytes_in += len + 1;
            if (is_blank(line, len)) {
                st->blank_lines++;
                continue;
            }
            if ((rc = grow((void **)&b->buf, &b->cap, b->len + len + 1, 1))) return rc;
            if ((rc = batch_reserve_lines(b, b->n + 1, n_keys))) return rc;
            memcpy(b->buf + b->len, line, len + 1);
            b->off[b->n] = b->len;
            b->llen[b->n] = len;
            b->lineno[b->n] = io_reader_lineno(src->r);
            b->n++;
            b->len += len + 1;
            if (b->len >= limit || b->n >= 65536) return (int)b->n;
        }
        if (b->n) return (int)b->n; /* a batch never spans two files */
        src->raw_done += io_reader_raw_size(src->r) ? io_reader_raw_size(src->r) : io_reader_raw_pos(src->r);
        /* keep the reader open until the batch naming it is written: the name
         * is owned by the reader. Closed when the next file opens. */
        src->cur++;
        io_reader_close(src->r);
        src->r = NULL;
    }
    return 0;
}

int docenc_run(const docenc_opts *o, const char *const *files, size_t n_files, docenc_fn fn, void *ctx,
               docenc_stats *st)
{
    memset(st, 0, sizeof *st);
    if (o->append_eod && bpe_eod(o->bpe) < 0)
        return err_set(ERR_USAGE, "--append-eod: the vocabulary has no <|endoftext|> token");
    int workers = o->workers > 0 ? o->workers : 1;
    size_t limit = o->batch_bytes ? o->batch_bytes : (4u << 20);
    size_t R = (size_t)workers * 2 + 2;
    pipe_s p = {.o = o};
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    batch *ring = calloc(R, sizeof *ring);
    /* file names must outlive the readers: copy them per batch */
    char **names = calloc(R, sizeof *names);
    pool *pl = pool_new(workers);
    p.ctxs = calloc((size_t)workers, sizeof *p.ctxs);
    int rc = 0;
    if (!ring || !names || !pl || !p.ctxs) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
    for (; p.n_ctx < workers; p.n_ctx++)
        if (!(p.ctxs[p.n_ctx] = bpe_ctx_new(o->bpe))) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
    for (size_t i = 0; i < R; i++) {
        ring[i].p = &p;
        ring[i].kr = calloc(o->n_keys, sizeof *ring[i].kr);
        if (!ring[i].kr) { rc = err_set(ERR_NOMEM, "out of memory"); goto out; }
    }
    uint64_t total_raw = 0;
    for (size_t i = 0; i < n_files; i++) {
        struct stat sb;
        if (strcmp(files[i], "-") != 0 && stat(files[i], &sb) == 0) total_raw += (uint64_t)sb.st_size;
    }
    progress *pg = o->progress_label ? progress_new(o->progress_label, "docs", total_raw) : NULL;
    source src = {.files = files, .n_files = n_files};
    size_t submitted = 0, written = 0;
    int eof = 0;
    const uint32_t **ids = calloc(o->n_keys, sizeof *ids);
    const uint32_t **lens = calloc(o->n_keys, sizeof *lens);
    size_t *nseq = calloc(o->n_keys, sizeof *nseq);
    if (!ids || !lens || !nseq) { rc = err_set(ERR_NOMEM, "out of memory"); goto drain; }
    while (!eof || written < submitted) {
        while (!eof && submitted - written < R) {
            batch *b = &ring[submitted % R];
            int got = fill(&src, b, limit, o->n_keys, st);
            if (got < 0) { rc = got; goto drain; }
            if (got == 0) { eof = 1; break; }
            free(names[submitted % R]);
            names[submitted % R] = strdup(b->file);
            if (!names[submitted % R]) { rc = err_set(ERR_NOMEM, "out of memory"); goto drain; }
            b->file = names[submitted % R];
            b->done = 0;
            if ((rc = pool_submit(pl, batch_work, b))) goto drain;
            submitted++;
        }
        if (written == submitted) break;
        batch *b = &ring[written % R];
        pthread_mutex_lock(&p.mu);
        while (!b->done) pthread_cond_wait(&p.cv, &p.mu);
        pthread_mutex_unlock(&p.mu);
        if (b->rc) { rc = err_set(b->rc, "%s", b->errmsg); goto drain; }
        for (size_t i = 0; i < b->n; i++) {
            docenc_doc d = {.status = b->status[i], .file = b->file, .lineno = b->lineno[i],
                            .err_col = b->err_col[i], .bad_key = b->bad_key[i], .text_bytes = b->text_bytes[i],
                            .ids = ids, .seq_len = lens, .n_seq = nseq};
            for (size_t k = 0; k < o->n_keys; k++) {
                key_res *r = &b->kr[k];
                ids[k] = r->ids.v ? r->ids.v + r->doc_ids[i] : NULL;
                lens[k] = r->seq_len ? r->seq_len + r->doc_seq[i] : NULL;
                nseq[k] = r->doc_seq[i + 1] - r->doc_seq[i];
                st->tokens += r->doc_ids[i + 1] - r->doc_ids[i];
            }
            st->records++;
            st->by_status[d.status]++;
            if (d.status == DOC_OK) st->text_bytes += d.text_bytes;
            if ((rc = fn(ctx, &d))) goto drain;
        }
        written++;
        progress_update(pg, st->records, src.raw_done + (src.r ? io_reader_raw_pos(src.r) : 0));
    }
drain:
    pool_wait(pl); /* let in-flight batches finish before freeing them */
    progress_done(pg);
    io_reader_close(src.r);
    free(ids);
    free(lens);
    free(nseq);
out:
    pool_free(pl);
    for (int i = 0; i < p.n_ctx; i++) bpe_ctx_free(p.ctxs[i]); /* every batch has given its back */
    free(p.ctxs);
    if (ring)
        for (size_t i = 0; i < R; i++) batch_free(&ring[i], o->n_keys);
    if (names)
        for (size_t i = 0; i < R; i++) free(names[i]);
    free(ring);
    free(names);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.cv);
    return rc;
}

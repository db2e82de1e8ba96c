/* extract.c - web pages to documents (extract.h): records in, decided one by one, pages
 * extracted a batch at a time (in parallel on the pool) and written in input order. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/err.h"
#include "common/jsonl.h"
#include "common/utf8.h"
#include "preprocess/text/langid.h"
#include "preprocess/web/extract.h"
#include "preprocess/web/html/htmltext.h"
#include "preprocess/web/warc.h"

static const char *const reason_name[EXTRACT_R_N] = {"kept",      "record_type", "http_status", "not_html", "truncated",
                                             "too_large", "damaged",     "empty",       "too_deep", "no_main_content"};
static const char *const reason_help[EXTRACT_R_N] = {
    "",
    "warcinfo, request, metadata, revisit records (no page)",
    "HTTP status other than 200",
    "a payload that is not HTML (Content-Type, no markup, or binary bytes)",
    "WARC-Truncated: the crawler cut the payload",
    "a record larger than --max-size",
    "a record the reader could not parse (see the warnings)",
    "no text left after extraction",
    "markup nested deeper than 10,000 elements (HTMLTEXT_MAX_DEPTH: the HTML parser's time grows with the square of "
    "the depth)",
    "a page with visible text but none that is main content (menus, links, boilerplate: every extractor declined)"};

const char *const extract_suffixes[] = {".warc", ".warc.gz", ".warc.zst", ".wet", ".wet.gz", ".wet.zst",
                                          ".html", ".htm", ".html.gz", ".htm.gz", NULL};

/* ,"key":"value" (the first without the comma) to the output. */
static int j_str(extract_state *s, int first, const char *key, const char *v, size_t n)
{
    char k[64];
    int kl = snprintf(k, sizeof k, "%s\"%s\":", first ? "" : ",", key);
    int rc = io_write(s->out, k, (size_t)kl);
    if (rc < 0)
        return rc;
    /* invalid UTF-8 in a header value becomes U+FFFD (the JSON must be UTF-8) */
    char *clean = NULL;
    if (!utf8_valid(v, n)) {
        clean = malloc(n * 3 + 1);
        if (!clean)
            return err_set(ERR_NOMEM, "out of memory");
        n = utf8_sanitize(v, n, clean);
        v = clean;
    }
    rc = jsonl_escape(v, n, &s->jbuf, &s->jlen, &s->jcap);
    free(clean);
    return rc < 0 ? rc : io_write(s->out, s->jbuf, s->jlen);
}

/* One document out. */
static int emit_now(extract_state *s, const char *text, size_t tlen, const char *id, const char *url, const char *date,
                const char *ctype, const char *charset, const char *title, const char *lang)
{
    int rc;
    if ((rc = io_write(s->out, "{", 1)) < 0 || (rc = j_str(s, 1, "text", text, tlen)) < 0 ||
        (rc = j_str(s, 0, "id", id ? id : "", id ? strlen(id) : 0)) < 0)
        return rc;
    if (url && (rc = j_str(s, 0, "url", url, strlen(url))) < 0)
        return rc;
    if (date && (rc = j_str(s, 0, "date", date, strlen(date))) < 0)
        return rc;
    if (ctype && (rc = j_str(s, 0, "content_type", ctype, strlen(ctype))) < 0)
        return rc;
    if (charset && (rc = j_str(s, 0, "charset", charset, strlen(charset))) < 0)
        return rc;
    if (title && *title && (rc = j_str(s, 0, "title", title, strlen(title))) < 0)
        return rc;
    if (lang && (rc = j_str(s, 0, "language", lang, strlen(lang))) < 0)
        return rc;
    if ((rc = io_write(s->out, "}\n", 2)) < 0)
        return rc;
    tally_keep(&s->t);
    return 0;
}

static int drop_now(extract_state *s, int reason, const char *file, uint64_t rec, const char *id, const char *url)
{
    tally_drop(&s->t, reason - 1, 0);
    if (!s->rej)
        return 0;
    char line[512];
    int n = snprintf(line, sizeof line, "%s\t%s:%" PRIu64 "\t", reason_name[reason], file, rec);
    int rc = io_write(s->rej, line, (size_t)n);
    if (rc == 0 && id)
        rc = io_write(s->rej, id, strlen(id));
    if (rc == 0)
        rc = io_write(s->rej, "\t", 1);
    if (rc == 0 && url)
        rc = io_write(s->rej, url, strlen(url));
    if (rc == 0)
        rc = io_write(s->rej, "\n", 1);
    return rc;
}

static int looks_html(const unsigned char *b, size_t n)
{
    size_t k = n < 2048 ? n : 2048;
    for (size_t i = 0; i + 5 < k; i++)
        if (b[i] == '<' && (!strncasecmp((const char *)b + i + 1, "html", 4) ||
                            !strncasecmp((const char *)b + i + 1, "!doctype", 8) ||
                            !strncasecmp((const char *)b + i + 1, "head", 4) ||
                            !strncasecmp((const char *)b + i + 1, "body", 4) ||
                            !strncasecmp((const char *)b + i + 1, "p>", 2) || !strncasecmp((const char *)b + i + 1, "div", 3)))
            return 1;
    return 0;
}

/* Bytes that are not text: a NUL, or over 1 % of control characters other than white space
 * (random or compressed data has about 12 %; text in any 8-bit encoding or UTF-8 none), in
 * the first 8 KiB. UTF-16 (its byte-order mark: NULs between ASCII letters) is text. */
static int looks_binary(const unsigned char *b, size_t n)
{
    if (n >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)))
        return 0;
    size_t k = n < 8192 ? n : 8192, ctl = 0;
    for (size_t i = 0; i < k; i++) {
        if (!b[i])
            return 1;
        ctl += (b[i] < 0x20 && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' && b[i] != '\f') || b[i] == 0x7F;
    }
    return ctl * 100 > k;
}

static int is_html_type(const char *ct)
{
    return ct && (strcasestr(ct, "text/html") || strcasestr(ct, "application/xhtml"));
}

/* Records become items, extracted a batch at a time (in parallel with -j) and
 * written in their input order. */
enum { IT_EMIT, IT_DROP, IT_PAGE };
typedef struct extract_item {
    int kind, reason, rc;
    uint64_t rec;
    char *file, *id, *url, *date, *ctype, *charset;
    unsigned char *data;
    size_t n;
    htmltext_doc doc;
    langid_result lang; /* --language: CLD2's answer on the text */
    char err[512];
} item;
#define BATCH_ITEMS 512
#define BATCH_BYTES ((size_t)64 << 20)

static char *dup_or_null(const char *v) { return v ? strdup(v) : NULL; }

static int queue(extract_state *s, int kind, int reason, const char *file, uint64_t rec, const char *id, const char *url,
                 const char *date, const char *ctype, const char *charset, const void *data, size_t n);
static int flush_batch(extract_state *s);

static int emit(extract_state *s, const char *text, size_t tlen, const char *id, const char *url, const char *date,
                const char *ctype, const char *file, uint64_t rec)
{
    return queue(s, IT_EMIT, 0, file, rec, id, url, date, ctype, NULL, text, tlen);
}

static int drop(extract_state *s, int reason, const char *file, uint64_t rec, const char *id, const char *url)
{
    return queue(s, IT_DROP, reason, file, rec, id, url, NULL, NULL, NULL, NULL, 0);
}

/* Extract page bytes and write the document (or count it empty), in turn. */
static int page(extract_state *s, const unsigned char *b, size_t n, const char *charset, const char *file, uint64_t rec,
                const char *id, const char *url, const char *date, const char *ctype)
{
    if (looks_binary(b, n)) /* an image or an archive served or saved as HTML */
        return drop(s, EXTRACT_R_NOT_HTML, file, rec, id, url);
    return queue(s, IT_PAGE, 0, file, rec, id, url, date, ctype, charset, b, n);
}

static int queue(extract_state *s, int kind, int reason, const char *file, uint64_t rec, const char *id, const char *url,
                 const char *date, const char *ctype, const char *charset, const void *data, size_t n)
{
    if (s->nbatch == s->capbatch) {
        size_t nc = s->capbatch ? s->capbatch * 2 : 64;
        item *nb = realloc(s->batch, nc * sizeof *nb);
        if (!nb)
            return err_set(ERR_NOMEM, "out of memory");
        s->batch = nb;
        s->capbatch = nc;
    }
    item *it = &s->batch[s->nbatch];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->reason = reason;
    it->rec = rec;
    it->file = dup_or_null(file);
    it->id = dup_or_null(id);
    it->url = dup_or_null(url);
    it->date = dup_or_null(date);
    it->ctype = dup_or_null(ctype);
    it->charset = dup_or_null(charset);
    if (data) {
        it->data = malloc(n + 1);
        if (it->data) {
            memcpy(it->data, data, n);
            it->data[n] = 0;
        }
        it->n = n;
    }
    s->nbatch++;
    if ((file && !it->file) || (id && !it->id) || (url && !it->url) || (date && !it->date) || (ctype && !it->ctype) ||
        (charset && !it->charset) || (data && !it->data))
        return err_set(ERR_NOMEM, "out of memory");
    s->batch_bytes += n;
    if (s->nbatch >= BATCH_ITEMS || s->batch_bytes >= BATCH_BYTES)
        return flush_batch(s);
    return 0;
}

/* A parser per thread, made on first use and freed at the end. */
static _Thread_local htmltext *tl_ht;
static htmltext **all_ht;
static size_t n_all_ht;
static pthread_mutex_t ht_lock = PTHREAD_MUTEX_INITIALIZER;

static htmltext *thread_parser(void)
{
    if (tl_ht)
        return tl_ht;
    htmltext *h;
    if (htmltext_new(&h) < 0)
        return NULL;
    pthread_mutex_lock(&ht_lock);
    htmltext **na = realloc(all_ht, (n_all_ht + 1) * sizeof *na);
    if (na) {
        all_ht = na;
        all_ht[n_all_ht++] = h;
    }
    pthread_mutex_unlock(&ht_lock);
    if (!na) {
        htmltext_free(h);
        return NULL;
    }
    return tl_ht = h;
}

static void free_parsers(void)
{
    for (size_t i = 0; i < n_all_ht; i++)
        htmltext_free(all_ht[i]);
    free(all_ht);
    all_ht = NULL;
    n_all_ht = 0;
}

typedef struct {
    extract_state *s;
    size_t *pages; /* the batch items the workers take: pages, and with --language WET texts */
} run_ctx;

static void extract_one(size_t i, void *ctx)
{
    run_ctx *c = ctx;
    item *it = &c->s->batch[c->pages[i]];
    if (it->kind == IT_EMIT) { /* a WET text (queued here for --language only) */
        it->rc = langid_detect((const char *)it->data, it->n, &it->lang);
        if (it->rc < 0)
            snprintf(it->err, sizeof it->err, "%s", err_msg());
        return;
    }
    htmltext *h = thread_parser();
    if (!h) {
        it->rc = ERR_NOMEM;
        snprintf(it->err, sizeof it->err, "out of memory for a parser");
        return;
    }
    it->rc = htmltext_extract(h, it->data, it->n, it->charset, c->s->mode, c->s->favor, &it->doc);
    if (it->rc == 0 && c->s->language && it->doc.len) {
        it->rc = langid_detect(it->doc.text, it->doc.len, &it->lang);
        if (it->rc < 0)
            htmltext_doc_free(&it->doc); /* (item_free frees a page's doc only when rc is 0) */
    }
    if (it->rc < 0)
        snprintf(it->err, sizeof it->err, "%s", err_msg());
}

static void item_free(item *it)
{
    free(it->file);
    free(it->id);
    free(it->url);
    free(it->date);
    free(it->ctype);
    free(it->charset);
    free(it->data);
    if (it->kind == IT_PAGE && !it->rc)
        htmltext_doc_free(&it->doc);
}

static int flush_batch(extract_state *s)
{
    int rc = 0;
    size_t np = 0, *pages = malloc((s->nbatch ? s->nbatch : 1) * sizeof *pages);
    if (!pages)
        rc = err_set(ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < s->nbatch; i++)
        if (s->batch[i].kind == IT_PAGE || (s->batch[i].kind == IT_EMIT && s->language))
            pages[np++] = i;
    run_ctx c = {s, pages};
    if (rc == 0 && np) {
        if (s->pl && np > 1)
            pool_parallel_for(s->pl, np, extract_one, &c);
        else
            for (size_t i = 0; i < np; i++)
                extract_one(i, &c);
    }
    for (size_t i = 0; i < s->nbatch; i++) {
        item *it = &s->batch[i];
        if (rc == 0) {
            if (it->kind == IT_DROP) {
                rc = drop_now(s, it->reason, it->file, it->rec, it->id, it->url);
            } else if (it->rc < 0) {
                rc = err_set(it->rc, "%s: record %llu: %s", it->file ? it->file : "", (unsigned long long)it->rec,
                             it->err);
            } else if (it->kind == IT_EMIT) {
                rc = emit_now(s, (const char *)it->data, it->n, it->id, it->url, it->date, it->ctype, NULL, NULL,
                              s->language ? it->lang.code : NULL);
            } else if (it->rc == HTMLTEXT_TOO_DEEP) {
                fprintf(stderr, "extract: warning: %s: record %llu: markup nested deeper than %d elements: dropped\n",
                        it->file ? it->file : "", (unsigned long long)it->rec, HTMLTEXT_MAX_DEPTH);
                rc = drop_now(s, EXTRACT_R_TOO_DEEP, it->file, it->rec, it->id, it->url);
            } else if (it->doc.len == 0) {
                rc = drop_now(s, it->doc.visible ? EXTRACT_R_NO_MAIN : EXTRACT_R_EMPTY, it->file, it->rec, it->id,
                              it->url);
            } else {
                rc = emit_now(s, it->doc.text, it->doc.len, it->id, it->url, it->date, it->ctype, it->doc.charset,
                              it->doc.title, s->language ? it->lang.code : NULL);
            }
        }
        item_free(it);
    }
    s->nbatch = 0;
    s->batch_bytes = 0;
    free(pages);
    return rc;
}

static void warn(const char *msg) { fprintf(stderr, "extract: warning: %s\n", msg); }

static int do_warc(extract_state *s, const char *path)
{
    warc_reader *r;
    int rc = warc_open(&r, path, s->max_size);
    if (rc < 0)
        return rc;
    const char *file = warc_name(r);
    for (;;) {
        warc_record rec;
        rc = warc_next(r, &rec);
        if (rc == 0)
            break;
        if (rc < 0) {
            if (rc == ERR_NOMEM || rc == ERR_IO)
                break;
            s->records++;
            if (s->strict) {
                rc = err_set(rc, "%s (--strict)", err_msg());
                break;
            }
            warn(err_msg());
            if ((rc = drop(s, EXTRACT_R_DAMAGED, file, s->records, NULL, NULL)) < 0)
                break;
            if (warc_failed(r))
                break;
            continue;
        }
        s->records++;
        if (s->list) { /* the index of the records, like `warcio index` */
            char line[128];
            int k = snprintf(line, sizeof line, "%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t", rec.number, rec.offset,
                             rec.content_length);
            if ((rc = io_write(s->out, line, (size_t)k)) < 0)
                break;
            const char *f3[3] = {rec.type, rec.record_id, rec.target_uri};
            for (int i = 0; i < 3 && rc == 0; i++) {
                const char *v = f3[i] ? f3[i] : "";
                size_t vn = strcspn(v, "\t\n");
                rc = io_write(s->out, v, vn);
                if (rc == 0)
                    rc = io_write(s->out, i < 2 ? "\t" : "\n", 1);
            }
            if (rc < 0)
                break;
            s->listed++;
            progress_update(s->pg, s->records, s->bytes_done + warc_raw_pos(r));
            continue;
        }
        const char *type = rec.type ? rec.type : "";
        const char *id = rec.record_id, *url = rec.target_uri, *date = rec.date;
        int is_resp = !strcasecmp(type, "response"), is_res = !strcasecmp(type, "resource"),
            is_conv = !strcasecmp(type, "conversion");
        if (!is_resp && !is_res && !is_conv) {
            rc = drop(s, EXTRACT_R_TYPE, file, rec.number, id, url);
        } else if (rec.too_large) {
            rc = drop(s, EXTRACT_R_TOO_LARGE, file, rec.number, id, url);
        } else if (rec.truncated && !s->keep_truncated) {
            rc = drop(s, EXTRACT_R_TRUNCATED, file, rec.number, id, url);
        } else if (is_conv) {
            /* WET: the text is extracted already; kept as it is (valid UTF-8) */
            const char *t = (const char *)rec.block;
            size_t n = rec.content_length;
            utf8_strip_pyspace(&t, &n);
            rc = n ? emit(s, t, n, id, url, date, rec.content_type, file, rec.number) : drop(s, EXTRACT_R_EMPTY, file, rec.number, id, url);
        } else if (is_resp) {
            warc_http h;
            if (warc_http_parse(&h, rec.block, (size_t)rec.content_length, (size_t)s->max_size * 4) < 0) {
                char m[600];
                snprintf(m, sizeof m, "%s: record %" PRIu64 " (%s): %s", file, rec.number, url ? url : "", err_msg());
                warn(m);
                rc = drop(s, EXTRACT_R_DAMAGED, file, rec.number, id, url);
            } else if (h.status != 200) {
                rc = drop(s, EXTRACT_R_STATUS, file, rec.number, id, url);
            } else if (h.content_type ? !is_html_type(h.content_type) : !looks_html(h.body, h.body_len)) {
                rc = drop(s, EXTRACT_R_NOT_HTML, file, rec.number, id, url);
            } else {
                rc = page(s, h.body, h.body_len, h.charset, file, rec.number, id, url, date, h.content_type);
            }
            warc_http_free(&h);
        } else { /* resource: the block is the payload */
            if (rec.content_type ? !is_html_type(rec.content_type) : !looks_html(rec.block, rec.content_length))
                rc = drop(s, EXTRACT_R_NOT_HTML, file, rec.number, id, url);
            else {
                const char *cs = rec.content_type ? strcasestr(rec.content_type, "charset=") : NULL;
                char csb[64] = "";
                if (cs)
                    snprintf(csb, sizeof csb, "%.*s", (int)strcspn(cs + 8, "\"'; \t"), cs + 8 + (cs[8] == '"'));
                rc = page(s, rec.block, rec.content_length, cs ? csb : NULL, file, rec.number, id, url, date,
                          rec.content_type);
            }
        }
        if (rc < 0)
            break;
        progress_update(s->pg, s->records, s->bytes_done + warc_raw_pos(r));
    }
    s->bytes_done += warc_raw_pos(r);
    warc_close(r);
    return rc < 0 ? rc : 0;
}

/* A plain HTML file (or stdin): one document, its path as id. */
static int do_html(extract_state *s, const char *path)
{
    io_reader *io;
    int rc = io_reader_open(&io, path);
    if (rc < 0)
        return rc;
    size_t cap = 1 << 16, n = 0;
    unsigned char *b = malloc(cap);
    int big = 0;
    for (; b;) {
        if (n == cap) {
            if (cap >= s->max_size) {
                big = 1;
                break;
            }
            unsigned char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
        ssize_t k = io_read(io, b + n, cap - n);
        if (k < 0) {
            rc = (int)k;
            break;
        }
        if (k == 0)
            break;
        n += (size_t)k;
    }
    s->records++;
    const char *name = io_reader_name(io);
    if (!b)
        rc = err_set(ERR_NOMEM, "%s: out of memory", name);
    else if (rc == 0 && big)
        rc = drop(s, EXTRACT_R_TOO_LARGE, name, 1, name, NULL);
    else if (rc == 0)
        rc = page(s, b, n, NULL, name, 1, name, NULL, NULL, "text/html");
    s->bytes_done += io_reader_raw_pos(io);
    progress_update(s->pg, s->records, s->bytes_done);
    free(b);
    io_reader_close(io);
    return rc;
}

static int ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcasecmp(s + n - k, suffix);
}

int extract_input(extract_state *s, const char *path)
{
    /* WARC or HTML, by the first decoded bytes; stdin is read as WARC (it cannot be read twice) */
    if (!strcmp(path, "-"))
        return do_warc(s, path);
    io_reader *io;
    int rc = io_reader_open(&io, path);
    if (rc < 0)
        return rc;
    char head[8] = {0};
    ssize_t k = io_read(io, head, 7);
    int codec = io_reader_codec(io);
    io_reader_close(io);
    if (k < 0) {
        warn(err_msg());
        s->records++;
        return drop(s, EXTRACT_R_DAMAGED, path, 1, NULL, NULL);
    }
    if (k == 7 && !memcmp(head, "WARC/1.", 7))
        return do_warc(s, path);
    /* A name that promises a WARC or a compressed file the bytes do not keep: refused, not read
     * as a page (1 MB of random bytes named x.warc.gz had come out as a document of mojibake) */
    static const char *const warc_names[] = {".warc", ".warc.gz", ".warc.zst", ".wet", ".wet.gz", ".wet.zst", NULL};
    for (int i = 0; warc_names[i]; i++)
        if (ends_with_ci(path, warc_names[i]))
            return err_set(ERR_FORMAT, "%s: not a WARC file: it is named as one, but %s", path,
                           k == 0 ? "it is empty"
                           : (ends_with_ci(path, ".gz") && codec != IO_CODEC_GZIP) ||
                                   (ends_with_ci(path, ".zst") && codec != IO_CODEC_ZSTD)
                               ? "its bytes are not the compressed stream its name says"
                               : "its records do not start with WARC/1.0 or WARC/1.1");
    if ((ends_with_ci(path, ".gz") && codec != IO_CODEC_GZIP) || (ends_with_ci(path, ".zst") && codec != IO_CODEC_ZSTD))
        return err_set(ERR_FORMAT, "%s: not %s data, as its name says", path,
                       ends_with_ci(path, ".gz") ? "gzip" : "zstd");
    return do_html(s, path);
}

void extract_init(extract_state *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 1; i < EXTRACT_R_N; i++)
        tally_describe(&s->t, tally_reason_id(&s->t, reason_name[i]), reason_help[i]);
    s->max_size = (uint64_t)64 << 20;
}

int extract_finish(extract_state *s) { return flush_batch(s); }

void extract_free(extract_state *s)
{
    free_parsers();
    free(s->batch);
    s->batch = NULL;
    free(s->jbuf);
    s->jbuf = NULL;
}

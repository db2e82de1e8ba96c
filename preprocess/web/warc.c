/* warc.c - the WARC reader and HTTP payload decoding of warc.h. */
#define _GNU_SOURCE
#include "preprocess/web/warc.h"

#include <brotli/decode.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "common/err.h"
#include "common/io.h"

#define WARC_MAX_LINE (1u << 20)   /* a header line longer than this is damage */
#define WARC_MAX_FIELDS 4096

typedef struct {
    size_t name, value; /* offsets into fbuf */
} field_t;

struct warc_reader {
    io_reader *io;
    uint64_t max_block;
    uint64_t number, pos; /* records started; decoded bytes consumed */
    int failed, resync;
    char *fbuf; /* the current record's fields: name\0value\0... */
    size_t flen, fcap;
    field_t *fields;
    size_t nfields, capfields;
    unsigned char *block;
    size_t block_cap;
};

static int open_common(warc_reader **out, io_reader *io, uint64_t max_block)
{
    warc_reader *r = calloc(1, sizeof *r);
    if (!r) {
        io_reader_close(io);
        return err_set(ERR_NOMEM, "out of memory");
    }
    r->io = io;
    r->max_block = max_block ? max_block : (uint64_t)64 << 20;
    *out = r;
    return 0;
}

int warc_open(warc_reader **out, const char *path, uint64_t max_block)
{
    io_reader *io;
    int rc = io_reader_open(&io, path);
    if (rc < 0)
        return rc;
    return open_common(out, io, max_block);
}

int warc_open_mem(warc_reader **out, const void *data, size_t n, const char *name, uint64_t max_block)
{
    io_reader *io;
    int rc = io_reader_open_mem(&io, data, n, name);
    if (rc < 0)
        return rc;
    return open_common(out, io, max_block);
}

void warc_close(warc_reader *r)
{
    if (!r)
        return;
    io_reader_close(r->io);
    free(r->fbuf);
    free(r->fields);
    free(r->block);
    free(r);
}

int warc_failed(const warc_reader *r) { return r->failed; }
const char *warc_name(const warc_reader *r) { return io_reader_name(r->io); }
uint64_t warc_raw_pos(const warc_reader *r) { return io_reader_raw_pos(r->io); }
uint64_t warc_raw_size(const warc_reader *r) { return io_reader_raw_size(r->io); }

/* Next line without its line end (\n, and a \r before it). 1, 0 at the end, or ERR_*
 * (the reader then has failed: a damaged compressed stream). */
static int getline_(warc_reader *r, char **line, size_t *len)
{
    int rc = io_getline(r->io, line, len);
    if (rc < 0) {
        r->failed = 1;
        return rc;
    }
    if (rc == 0)
        return 0;
    r->pos += *len + 1;
    if (*len && (*line)[*len - 1] == '\r')
        (*line)[--*len] = '\0';
    return 1;
}

static int fbuf_add(warc_reader *r, const char *s, size_t n)
{
    if (r->flen + n + 1 > r->fcap) {
        size_t nc = r->fcap ? r->fcap : 4096;
        while (nc < r->flen + n + 1)
            nc *= 2;
        char *nb = realloc(r->fbuf, nc);
        if (!nb)
            return err_set(ERR_NOMEM, "out of memory");
        r->fbuf = nb;
        r->fcap = nc;
    }
    memcpy(r->fbuf + r->flen, s, n);
    r->fbuf[r->flen + n] = '\0';
    r->flen += n + 1;
    return 0;
}

static void trim(const char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*n)--;
    }
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
        (*n)--;
}

const char *warc_field(const warc_reader *r, const char *name)
{
    for (size_t i = 0; i < r->nfields; i++)
        if (!strcasecmp(r->fbuf + r->fields[i].name, name))
            return r->fbuf + r->fields[i].value;
    return NULL;
}

static int damaged(warc_reader *r, uint64_t start, const char *fmt, const char *what)
{
    r->resync = 1;
    return err_set(ERR_CORRUPT, "%s: record %llu (at byte %llu of the decoded input): %s%s; skipped to the next record",
                   io_reader_name(r->io), (unsigned long long)r->number, (unsigned long long)start, fmt,
                   what ? what : "");
}

/* Read n block bytes into dst (NULL: discard). 0, or the bytes missing at the end. */
static int read_block(warc_reader *r, unsigned char *dst, uint64_t n, uint64_t *missing)
{
    unsigned char tmp[65536];
    *missing = 0;
    while (n) {
        size_t want = n > sizeof tmp ? sizeof tmp : (size_t)n;
        ssize_t k = io_read(r->io, dst ? dst : tmp, want);
        if (k < 0) {
            r->failed = 1;
            return (int)k;
        }
        if (k == 0) {
            *missing = n;
            return 0;
        }
        if (dst)
            dst += k;
        n -= (uint64_t)k;
        r->pos += (uint64_t)k;
    }
    return 0;
}

int warc_next(warc_reader *r, warc_record *rec)
{
    char *line;
    size_t len;
    int rc;
    memset(rec, 0, sizeof *rec);
    if (r->failed)
        return 0;
    /* The version line, past the empty lines that end the record before (and,
     * after damage, past anything up to a line that starts a record). */
    uint64_t start;
    for (;;) {
        start = r->pos;
        rc = getline_(r, &line, &len);
        if (rc <= 0)
            return rc;
        if (len > WARC_MAX_LINE && !r->resync) {
            r->number++;
            return damaged(r, start, "a line of megabytes where a record should start", NULL);
        }
        if (len >= 7 && !memcmp(line, "WARC/1.", 7))
            break;
        if (len == 0 || r->resync)
            continue;
        r->number++;
        return damaged(r, start, "no WARC version line where a record starts", NULL);
    }
    r->resync = 0;
    r->number++;
    rec->number = r->number;
    rec->offset = start;
    snprintf(rec->version, sizeof rec->version, "%.*s", (int)(len < 15 ? len : 15), line);
    /* The named fields, up to the empty line. */
    r->flen = r->nfields = 0;
    for (;;) {
        rc = getline_(r, &line, &len);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return damaged(r, start, "the input ends inside the header", NULL);
        if (len == 0)
            break;
        if (len > WARC_MAX_LINE)
            return damaged(r, start, "a header line of megabytes", NULL);
        if ((line[0] == ' ' || line[0] == '\t') && r->nfields) { /* continuation: joined with a space */
            const char *s = line;
            size_t n = len;
            trim(&s, &n);
            if (r->fields[r->nfields - 1].value == r->flen - 1) { /* an empty value: s is the value */
                r->flen--;
            } else {
                r->fbuf[r->flen - 1] = ' '; /* the value's NUL: joined with a space */
            }
            if ((rc = fbuf_add(r, s, n)) < 0)
                return rc;
            continue;
        }
        char *colon = memchr(line, ':', len);
        if (!colon)
            return damaged(r, start, "a header line without a colon: ", NULL);
        if (r->nfields == WARC_MAX_FIELDS)
            return damaged(r, start, "more than 4096 header fields", NULL);
        if (r->nfields == r->capfields) {
            size_t nc = r->capfields ? r->capfields * 2 : 32;
            field_t *nf = realloc(r->fields, nc * sizeof *nf);
            if (!nf)
                return err_set(ERR_NOMEM, "out of memory");
            r->fields = nf;
            r->capfields = nc;
        }
        const char *nm = line, *val = colon + 1;
        size_t nn = (size_t)(colon - line), vn = len - nn - 1;
        trim(&nm, &nn);
        trim(&val, &vn);
        field_t f = {r->flen, 0};
        if ((rc = fbuf_add(r, nm, nn)) < 0)
            return rc;
        f.value = r->flen;
        if ((rc = fbuf_add(r, val, vn)) < 0)
            return rc;
        r->fields[r->nfields++] = f;
    }
    const char *cl = warc_field(r, "Content-Length");
    if (!cl)
        return damaged(r, start, "no Content-Length", NULL);
    char *end;
    errno = 0;
    unsigned long long n = strtoull(cl, &end, 10);
    if (!isdigit((unsigned char)cl[0]) || *end || errno)
        return damaged(r, start, "a bad Content-Length: ", cl);
    rec->content_length = n;
    rec->type = warc_field(r, "WARC-Type");
    rec->record_id = warc_field(r, "WARC-Record-ID");
    rec->target_uri = warc_field(r, "WARC-Target-URI");
    rec->date = warc_field(r, "WARC-Date");
    rec->content_type = warc_field(r, "Content-Type");
    rec->truncated = warc_field(r, "WARC-Truncated");
    rec->identified_payload_type = warc_field(r, "WARC-Identified-Payload-Type");
    uint64_t missing;
    if (n > r->max_block) {
        rec->too_large = 1;
        if ((rc = read_block(r, NULL, n, &missing)) < 0)
            return rc;
    } else {
        if (n + 1 > r->block_cap) {
            unsigned char *nb = realloc(r->block, (size_t)n + 1);
            if (!nb)
                return err_set(ERR_NOMEM, "%s: record %llu: out of memory for a block of %llu bytes",
                               io_reader_name(r->io), (unsigned long long)r->number, n);
            r->block = nb;
            r->block_cap = (size_t)n + 1;
        }
        if ((rc = read_block(r, r->block, n, &missing)) < 0)
            return rc;
        r->block[n - missing] = 0;
        rec->block = r->block;
    }
    if (missing) {
        char m[96];
        snprintf(m, sizeof m, "%llu of its %llu bytes", (unsigned long long)missing, n);
        r->failed = 1; /* nothing follows */
        return err_set(ERR_CORRUPT, "%s: record %llu (at byte %llu of the decoded input): the input ends %s short "
                                    "(Content-Length overruns the file)",
                       io_reader_name(r->io), (unsigned long long)r->number, (unsigned long long)start, m);
    }
    return 1;
}

/* ------------------------------------------------------------------ HTTP */

void warc_http_free(warc_http *h)
{
    free(h->hdr);
    free(h->own);
    memset(h, 0, sizeof *h);
}

/* A growable output for the decoders. */
typedef struct {
    unsigned char *p;
    size_t n, cap, max;
    int cut;
} obuf;

static int ob_reserve(obuf *o, size_t more)
{
    if (o->n + more <= o->cap)
        return 0;
    size_t nc = o->cap ? o->cap : 65536;
    while (nc < o->n + more)
        nc *= 2;
    unsigned char *np = realloc(o->p, nc);
    if (!np)
        return -1;
    o->p = np;
    o->cap = nc;
    return 0;
}

static int dechunk(const unsigned char *s, size_t n, obuf *o)
{
    size_t i = 0;
    for (;;) {
        size_t j = i;
        while (j < n && s[j] != '\n')
            j++;
        if (j >= n)
            return -1;
        char *e;
        unsigned long long sz = strtoull((const char *)s + i, &e, 16);
        if (e == (const char *)s + i)
            return -1;
        i = j + 1;
        if (sz == 0)
            return 0;
        if (sz > n - i)
            return -1;
        if (ob_reserve(o, (size_t)sz) < 0)
            return -1;
        memcpy(o->p + o->n, s + i, (size_t)sz);
        o->n += (size_t)sz;
        i += (size_t)sz;
        if (i < n && s[i] == '\r')
            i++;
        if (i < n && s[i] == '\n')
            i++;
    }
}

static int inflate_(const unsigned char *s, size_t n, obuf *o, int wbits)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, wbits) != Z_OK)
        return -1;
    z.next_in = (Bytef *)s;
    z.avail_in = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
    int zr = Z_OK;
    while (zr != Z_STREAM_END) {
        if (o->n >= o->max) {
            o->cut = 1;
            break;
        }
        if (ob_reserve(o, 65536) < 0) {
            inflateEnd(&z);
            return -1;
        }
        z.next_out = o->p + o->n;
        size_t room = o->cap - o->n;
        if (room > o->max - o->n)
            room = o->max - o->n;
        z.avail_out = (uInt)room;
        zr = inflate(&z, Z_NO_FLUSH);
        o->n += room - z.avail_out;
        if (zr == Z_STREAM_END && z.avail_in >= 10 && (wbits & 16) && z.next_in[0] == 0x1f && z.next_in[1] == 0x8b)
            zr = inflateReset(&z); /* another gzip member */
        else if (zr != Z_OK && zr != Z_STREAM_END) {
            inflateEnd(&z);
            return -1;
        } else if (zr == Z_OK && z.avail_in == 0 && z.avail_out != 0) {
            inflateEnd(&z);
            return -1; /* the stream ends early */
        }
    }
    inflateEnd(&z);
    return 0;
}

static int unbrotli(const unsigned char *s, size_t n, obuf *o)
{
    BrotliDecoderState *st = BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (!st)
        return -1;
    size_t avail_in = n;
    const uint8_t *next_in = s;
    BrotliDecoderResult res = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT;
    while (res == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
        if (o->n >= o->max) {
            o->cut = 1;
            break;
        }
        if (ob_reserve(o, 65536) < 0)
            break;
        size_t room = o->cap - o->n;
        if (room > o->max - o->n)
            room = o->max - o->n;
        size_t avail_out = room;
        uint8_t *next_out = o->p + o->n;
        res = BrotliDecoderDecompressStream(st, &avail_in, &next_in, &avail_out, &next_out, NULL);
        o->n += room - avail_out;
    }
    BrotliDecoderDestroyInstance(st);
    return res == BROTLI_DECODER_RESULT_SUCCESS || o->cut ? 0 : -1;
}

/* The value of header `name` in hdr ("Name: value\0" lines), or NULL. */
static const char *hfield(const char *hdr, size_t n, const char *name)
{
    size_t nl = strlen(name);
    for (const char *p = hdr; p < hdr + n; p += strlen(p) + 1)
        if (!strncasecmp(p, name, nl) && p[nl] == ':') {
            const char *v = p + nl + 1;
            while (*v == ' ' || *v == '\t')
                v++;
            return v;
        }
    return NULL;
}

int warc_http_parse(warc_http *h, const unsigned char *b, size_t n, size_t max_body)
{
    memset(h, 0, sizeof *h);
    /* the header ends at the first empty line (CRLF CRLF, or LF LF) */
    size_t e = 0, body = 0;
    for (size_t i = 0; i < n; i++)
        if (b[i] == '\n' && ((i + 1 < n && b[i + 1] == '\n') || (i + 2 < n && b[i + 1] == '\r' && b[i + 2] == '\n'))) {
            e = i;
            body = i + (b[i + 1] == '\n' ? 2 : 3);
            break;
        }
    if (!body)
        return err_set(ERR_CORRUPT, "no end of the HTTP header");
    /* header lines, each stored "line\0" with CRs dropped */
    h->hdr = malloc(e + 2);
    if (!h->hdr)
        return err_set(ERR_NOMEM, "out of memory");
    size_t hn = 0;
    for (size_t i = 0; i < e; i++) {
        if (b[i] == '\r')
            continue;
        h->hdr[hn++] = b[i] == '\n' ? '\0' : (b[i] ? (char)b[i] : ' ');
    }
    h->hdr[hn++] = '\0';
    if (!strncmp(h->hdr, "HTTP/1.", 7) || !strncmp(h->hdr, "HTTP/2", 6)) {
        const char *sp = strchr(h->hdr, ' ');
        if (sp)
            h->status = atoi(sp + 1);
    }
    const char *first_end = h->hdr + strlen(h->hdr) + 1; /* past the status line */
    size_t rest = hn - (size_t)(first_end - h->hdr);
    h->content_type = hfield(first_end, rest, "Content-Type");
    if (h->content_type) {
        const char *c = strcasestr(h->content_type, "charset=");
        if (c) {
            char *cs = (char *)c + 8;
            if (*cs == '"' || *cs == '\'')
                cs++;
            size_t k = strcspn(cs, "\"'; \t,");
            /* the value ends the string: it is the last parameter we need */
            h->charset = cs;
            cs[k] = '\0';
        }
    }
    const unsigned char *p = b + body;
    size_t pn = n - body;
    const char *te = hfield(first_end, rest, "Transfer-Encoding");
    const char *ce = hfield(first_end, rest, "Content-Encoding");
    obuf o = {NULL, 0, 0, max_body ? max_body : (size_t)256 << 20, 0};
    if (te && strcasestr(te, "chunked")) {
        if (dechunk(p, pn, &o) == 0) {
            p = o.p;
            pn = o.n;
            h->own = o.p;
            o = (obuf){NULL, 0, 0, o.max, 0};
        } else {
            h->decode_error = 1;
            o.n = 0;
        }
    }
    if (ce && !h->decode_error) {
        int r = 0, done = 0;
        if (!strncasecmp(ce, "gzip", 4) || !strncasecmp(ce, "x-gzip", 6)) {
            r = inflate_(p, pn, &o, 16 + MAX_WBITS);
            done = 1;
        } else if (!strncasecmp(ce, "deflate", 7)) {
            r = inflate_(p, pn, &o, MAX_WBITS);
            if (r < 0) { /* raw deflate, as some servers send */
                o.n = 0;
                r = inflate_(p, pn, &o, -MAX_WBITS);
            }
            done = 1;
        } else if (!strncasecmp(ce, "br", 2)) {
            r = unbrotli(p, pn, &o);
            done = 1;
        }
        if (done && r == 0) {
            free(h->own);
            h->own = o.p;
            p = o.p;
            pn = o.n;
            h->decode_error = o.cut;
            o.p = NULL;
        } else if (done) {
            h->decode_error = 1;
        }
    }
    free(o.p);
    h->body = p;
    h->body_len = pn;
    return 0;
}

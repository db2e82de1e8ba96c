/* warcwrite.c - WARC/1.1 records of fetched pages, one gzip member each (warcwrite.h). */
#define _GNU_SOURCE /* memmem */
#include "preprocess/web/warcwrite.h"

#include "common/err.h"
#include "common/fault.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libdeflate.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

struct warcw {
    char *dir, *prefix, *software, *agent;
    int robots;
    unsigned number;      /* the open file's number */
    uint64_t max_size, size;
    int fd;               /* -1: no file open */
    char name[512];       /* PREFIX-NNNNN.warc.gz */
    struct libdeflate_compressor *cz;
    unsigned char *rec, *gz; /* one record, its gzip member(s) */
    size_t rec_cap, gz_cap, gz_len;
};

/* ---- small pieces ------------------------------------------------------------------ */

/* 20 bytes (160 bits) as 32 base32 digits (RFC 4648, no padding), as WARC digests are written */
static void base32_20(const unsigned char md[20], char out[33])
{
    static const char b32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    int o = 0;
    for (int i = 0; i < 20; i += 5) {
        uint64_t v = 0;
        for (int k = 0; k < 5; k++) v = v << 8 | md[i + k];
        for (int k = 7; k >= 0; k--) out[o++] = b32[(v >> (5 * k)) & 31];
    }
    out[32] = 0;
}

void warcw_sha1_base32(const void *data, size_t n, char out[33])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    EVP_Digest(data, n, md, &mdlen, EVP_sha1(), NULL);
    base32_20(md, out);
}

static void uuid_urn(char out[48])
{
    unsigned char b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) { /* never short for 16 bytes; a fallback anyway */
        static uint64_t c;
        uint64_t t = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ ++c;
        for (int i = 0; i < 16; i++) b[i] = (unsigned char)(t >> (8 * (i % 8)) ^ (uint64_t)i * 0x9e);
    }
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    snprintf(out, 48, "<urn:uuid:%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x>", b[0], b[1], b[2],
             b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static void warc_date(int64_t t, char out[32])
{
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Does line [s, s+n) start with field `name` followed by ':'? */
static int field_is(const char *s, size_t n, const char *name)
{
    size_t k = strlen(name);
    return n > k && s[k] == ':' && !strncasecmp(s, name, k);
}

size_t warcw_rewrite_header(const char *hdr, size_t n, size_t payload_len, char *out, size_t cap)
{
    size_t o = 0;
    const char *p = hdr, *end = hdr + n;
#define PUT(s, k) do { size_t k_ = (k); if (o + k_ <= cap) memcpy(out + o, (s), k_); o += k_; } while (0)
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl + 1 : end;
        size_t ln = (size_t)(le - p), body = ln;
        while (body && (p[body - 1] == '\n' || p[body - 1] == '\r')) body--;
        if (body == 0) { p = le; continue; } /* the blank line ending the block is added below */
        if (field_is(p, body, "Content-Encoding") || field_is(p, body, "Transfer-Encoding") ||
            field_is(p, body, "Content-Length"))
            PUT("X-Crawler-", 10);
        PUT(p, body);
        PUT("\r\n", 2);
        p = le;
    }
    char cl[48];
    int k = snprintf(cl, sizeof cl, "Content-Length: %zu\r\n\r\n", payload_len);
    PUT(cl, (size_t)k);
#undef PUT
    return o <= cap ? o : 0;
}

static int grow(unsigned char **buf, size_t *cap, size_t need)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 1 << 16;
    while (c < need) c *= 2;
    unsigned char *b = realloc(*buf, c);
    if (!b) return err_set(ERR_NOMEM, "out of memory (a WARC record of %zu bytes)", need);
    *buf = b;
    *cap = c;
    return 0;
}

/* Append one record (header fields, block parts) as a gzip member to w->gz. */
static int add_record(warcw *w, const char *fields, size_t flen, const void *b1, size_t n1, const void *b2, size_t n2)
{
    size_t total = flen + n1 + n2 + 4;
    int rc = grow(&w->rec, &w->rec_cap, total);
    if (rc) return rc;
    memcpy(w->rec, fields, flen);
    if (n1) memcpy(w->rec + flen, b1, n1);
    if (n2) memcpy(w->rec + flen + n1, b2, n2);
    memcpy(w->rec + total - 4, "\r\n\r\n", 4);
    size_t bound = libdeflate_gzip_compress_bound(w->cz, total);
    if ((rc = grow(&w->gz, &w->gz_cap, w->gz_len + bound))) return rc;
    size_t z = libdeflate_gzip_compress(w->cz, w->rec, total, w->gz + w->gz_len, bound);
    if (!z) return err_set(ERR_INTERNAL, "gzip of a WARC record failed");
    w->gz_len += z;
    return 0;
}

static int write_all(warcw *w, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (n) {
        ssize_t k = fault_write(w->fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return err_sys(ERR_IO, "%s/%s.part: write", w->dir, w->name);
        p += k;
        n -= (size_t)k;
        w->size += (uint64_t)k;
    }
    return 0;
}

/* ---- files ---------------------------------------------------------------------------- */

static int start_file(warcw *w)
{
    snprintf(w->name, sizeof w->name, "%s-%05u.warc.gz", w->prefix, w->number);
    char path[1100];
    snprintf(path, sizeof path, "%s/%s.part", w->dir, w->name);
    w->fd = fault_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (w->fd < 0) return err_sys(ERR_IO, "%s: cannot create", path);
    w->size = 0;
    char body[2048], fields[1024], id[48], date[32];
    int bn = snprintf(body, sizeof body,
                      "software: %s\r\nformat: WARC File Format 1.1\r\n"
                      "conformsTo: https://iso-commons.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n"
                      "robots: %s\r\nhttp-header-user-agent: %s\r\n",
                      w->software, w->robots ? "obey" : "ignore", w->agent);
    if (bn < 0 || bn >= (int)sizeof body) bn = (int)sizeof body - 1;
    uuid_urn(id);
    warc_date(time(NULL), date);
    int fn = snprintf(fields, sizeof fields,
                      "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Date: %s\r\nWARC-Filename: %s\r\nWARC-Record-ID: %s\r\n"
                      "Content-Type: application/warc-fields\r\nContent-Length: %d\r\n\r\n",
                      date, w->name, id, bn);
    w->gz_len = 0;
    int rc = add_record(w, fields, (size_t)fn, body, (size_t)bn, NULL, 0);
    if (rc == 0) rc = write_all(w, w->gz, w->gz_len);
    return rc;
}

static int finish_file(warcw *w)
{
    if (w->fd < 0) return 0;
    char from[1100], to[1100];
    snprintf(from, sizeof from, "%s/%s.part", w->dir, w->name);
    snprintf(to, sizeof to, "%s/%s", w->dir, w->name);
    int rc = 0;
    if (fault_fsync(w->fd)) rc = err_sys(ERR_IO, "%s: fsync", from);
    if (close(w->fd) && rc == 0) rc = err_sys(ERR_IO, "%s: close", from);
    w->fd = -1;
    if (rc == 0 && fault_rename(from, to)) rc = err_sys(ERR_IO, "rename %s -> %s", from, to);
    if (rc == 0) {
        int dfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) { (void)fsync(dfd); close(dfd); }
        w->number++;
    }
    return rc;
}

int warcw_open(warcw **out, const char *dir, const char *prefix, unsigned first, uint64_t max_size,
               const char *software, const char *agent, int robots)
{
    warcw *w = calloc(1, sizeof *w);
    if (!w) return err_set(ERR_NOMEM, "out of memory");
    w->fd = -1;
    w->number = first;
    w->max_size = max_size;
    w->robots = robots;
    w->dir = strdup(dir);
    w->prefix = strdup(prefix);
    w->software = strdup(software);
    w->agent = strdup(agent);
    w->cz = libdeflate_alloc_compressor(6);
    if (!w->dir || !w->prefix || !w->software || !w->agent || !w->cz) {
        warcw_abandon(w);
        return err_set(ERR_NOMEM, "out of memory");
    }
    *out = w;
    return 0;
}

int warcw_write(warcw *w, const warcw_page *p, const char **file)
{
    int rc = 0;
    if (w->fd < 0 && (rc = start_file(w))) return rc;
    const char *target = p->final_url && *p->final_url ? p->final_url : p->url;
    int redirected = strcmp(target, p->url) != 0;
    char date[32], req_id[48], resp_id[48], pd[33], bd[33];
    warc_date(p->fetch_time, date);
    uuid_urn(req_id);
    uuid_urn(resp_id);

    /* the response block: rewritten header, then the payload */
    size_t hcap = p->header_len + 128;
    char *hdr = malloc(hcap);
    if (!hdr) return err_set(ERR_NOMEM, "out of memory");
    size_t hn = warcw_rewrite_header(p->header, p->header_len, p->payload_len, hdr, hcap);
    warcw_sha1_base32(p->payload, p->payload_len, pd);
    /* block digest over header + payload */
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    unsigned char dg[EVP_MAX_MD_SIZE];
    unsigned dl = 0;
    if (!md) { free(hdr); return err_set(ERR_NOMEM, "out of memory"); }
    EVP_DigestInit_ex(md, EVP_sha1(), NULL);
    EVP_DigestUpdate(md, hdr, hn);
    EVP_DigestUpdate(md, p->payload, p->payload_len);
    EVP_DigestFinal_ex(md, dg, &dl);
    EVP_MD_CTX_free(md);
    base32_20(dg, bd);
    size_t ucap = strlen(p->url) + strlen(target) + 1024;
    char *f = malloc(ucap);
    if (!f) { free(hdr); return err_set(ERR_NOMEM, "out of memory"); }
    w->gz_len = 0;
    const char *ip = p->ip && *p->ip ? p->ip : NULL;
    /* request record */
    int fn = snprintf(f, ucap,
                      "WARC/1.1\r\nWARC-Type: request\r\nWARC-Target-URI: %s\r\nWARC-Date: %s\r\nWARC-Record-ID: %s\r\n"
                      "WARC-Concurrent-To: %s\r\n%s%s%sContent-Type: application/http; msgtype=request\r\n"
                      "Content-Length: %zu\r\n\r\n",
                      target, date, req_id, resp_id, ip ? "WARC-IP-Address: " : "", ip ? ip : "", ip ? "\r\n" : "",
                      p->request_len);
    rc = add_record(w, f, (size_t)fn, p->request, p->request_len, NULL, 0);
    /* response record */
    if (rc == 0) {
        fn = snprintf(f, ucap,
                      "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n%s%s%sWARC-Date: %s\r\n"
                      "WARC-Record-ID: %s\r\n%s%s%sWARC-Block-Digest: sha1:%s\r\nWARC-Payload-Digest: sha1:%s\r\n"
                      "Content-Type: application/http; msgtype=response\r\nContent-Length: %zu\r\n\r\n",
                      target, redirected ? "WebText-Source-URI: " : "", redirected ? p->url : "", redirected ? "\r\n" : "",
                      date, resp_id, ip ? "WARC-IP-Address: " : "", ip ? ip : "", ip ? "\r\n" : "", bd, pd,
                      hn + p->payload_len);
        rc = add_record(w, f, (size_t)fn, hdr, hn, p->payload, p->payload_len);
    }
    free(f);
    free(hdr);
    if (rc == 0) rc = write_all(w, w->gz, w->gz_len);
    if (rc == 0 && file) *file = w->name;
    if (rc == 0 && w->max_size && w->size >= w->max_size) rc = finish_file(w);
    return rc;
}

static void free_w(warcw *w)
{
    if (w->cz) libdeflate_free_compressor(w->cz);
    free(w->dir);
    free(w->prefix);
    free(w->software);
    free(w->agent);
    free(w->rec);
    free(w->gz);
    free(w);
}

int warcw_close(warcw *w)
{
    if (!w) return 0;
    int rc = finish_file(w);
    if (w->fd >= 0) close(w->fd);
    free_w(w);
    return rc;
}

void warcw_abandon(warcw *w)
{
    if (!w) return;
    if (w->fd >= 0) close(w->fd);
    free_w(w);
}

/* ---- reading back ----------------------------------------------------------------------- */

/* The value of field name in a WARC or HTTP header block [h, h+n), copied into out. */
static int get_field(const char *h, size_t n, const char *name, char *out, size_t cap)
{
    const char *p = h, *end = h + n;
    size_t k = strlen(name);
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if ((size_t)(le - p) > k && p[k] == ':' && !strncasecmp(p, name, k)) {
            const char *v = p + k + 1, *ve = le;
            while (v < ve && (*v == ' ' || *v == '\t')) v++;
            while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t')) ve--;
            size_t m = (size_t)(ve - v);
            if (m >= cap) m = cap - 1;
            memcpy(out, v, m);
            out[m] = 0;
            return 1;
        }
        p = le + 1;
    }
    return 0;
}

long warcw_scan_mem(const unsigned char *data, size_t size, const char *name, int salvage, size_t *good_end,
                    warcw_scan_fn fn, void *ctx)
{
    long count = 0;
    int rc = 0;
    size_t pos = 0, good = 0, ocap = 1 << 16;
    unsigned char *ob = malloc(ocap);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (!ob || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        free(ob);
        return err_set(ERR_NOMEM, "out of memory");
    }
    char *url = NULL, *final = NULL;
    while (rc == 0 && pos < size) {
        /* one member */
        inflateReset(&z);
        z.next_in = (unsigned char *)data + pos;
        z.avail_in = (uInt)((size - pos) > UINT32_MAX ? UINT32_MAX : size - pos);
        size_t olen = 0;
        int zr;
        for (;;) {
            if (olen == ocap) {
                unsigned char *nb = ocap < ((size_t)1 << 32) ? realloc(ob, ocap * 2) : NULL;
                if (!nb) { rc = err_set(ERR_NOMEM, "out of memory reading %s", name); break; }
                ob = nb;
                ocap *= 2;
            }
            z.next_out = ob + olen;
            z.avail_out = (uInt)(ocap - olen);
            zr = inflate(&z, Z_NO_FLUSH);
            olen = ocap - z.avail_out;
            if (zr == Z_STREAM_END || (zr != Z_OK && zr != Z_BUF_ERROR)) break;
            if (zr == Z_BUF_ERROR && z.avail_in == 0) break; /* cut short */
        }
        if (rc) break;
        size_t member_end = (size_t)(z.next_in - data);
        const char *what = NULL;
        if (zr != Z_STREAM_END) what = "a gzip member cut short or damaged";
        /* the record inside: version line, fields, blank line, block, CRLF CRLF */
        const char *rec = (const char *)ob, *he = NULL;
        if (!what) {
            he = olen >= 4 ? memmem(rec, olen, "\r\n\r\n", 4) : NULL;
            if (olen < 9 || memcmp(rec, "WARC/1.", 7) || !he) what = "not a WARC record";
        }
        char type[32] = "", cl[32] = "";
        size_t hl = 0;
        if (!what) {
            hl = (size_t)(he - rec) + 4;
            get_field(rec, hl, "WARC-Type", type, sizeof type);
            char *endp;
            if (!get_field(rec, hl, "Content-Length", cl, sizeof cl)) what = "a record without Content-Length";
            else {
                unsigned long long L = strtoull(cl, &endp, 10);
                if (*endp || cl[0] < '0' || cl[0] > '9' || L > olen || hl + L + 4 != olen ||
                    memcmp(rec + olen - 4, "\r\n\r\n", 4))
                    what = "a record whose Content-Length does not match its block";
            }
        }
        if (what) {
            if (!salvage) rc = err_set(ERR_CORRUPT, "%s: byte %zu: %s", name, pos, what);
            break;
        }
        if (!strcmp(type, "response")) {
            size_t ul = hl;
            free(url);
            free(final);
            url = malloc(ul);
            final = malloc(ul);
            if (!url || !final) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
            final[0] = 0;
            get_field(rec, hl, "WARC-Target-URI", final, ul);
            if (!get_field(rec, hl, "WebText-Source-URI", url, ul)) strcpy(url, final);
            /* HTTP status and payload length */
            const char *blk = rec + hl;
            size_t bl = olen - hl - 4;
            int status = 0;
            uint64_t plen = 0;
            if (bl > 12 && !memcmp(blk, "HTTP/", 5)) {
                const char *sp = memchr(blk, ' ', bl < 32 ? bl : 32);
                if (sp) status = atoi(sp + 1);
                const char *pe = memmem(blk, bl, "\r\n\r\n", 4);
                if (pe) plen = (uint64_t)(bl - (size_t)(pe + 4 - blk));
            }
            if (fn) fn(ctx, url, final, status, plen);
            count++;
            good = member_end;
        } else if (strcmp(type, "request")) {
            good = member_end; /* warcinfo, metadata, ... */
        }
        pos = member_end;
    }
    inflateEnd(&z);
    free(url);
    free(final);
    free(ob);
    if (good_end) *good_end = good;
    return rc ? rc : count;
}

long warcw_scan(const char *path, int salvage, warcw_scan_fn fn, void *ctx)
{
    int fd = open(path, (salvage ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (fd < 0) return err_sys(ERR_IO, "%s: cannot open", path);
    struct stat st;
    if (fstat(fd, &st)) { close(fd); return err_sys(ERR_IO, "%s: stat", path); }
    size_t size = (size_t)st.st_size;
    unsigned char *data = size ? malloc(size) : NULL;
    if (size && !data) { close(fd); return err_set(ERR_NOMEM, "out of memory reading %s", path); }
    size_t got = 0;
    while (got < size) {
        ssize_t k = pread(fd, data + got, size - got, (off_t)got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) { free(data); close(fd); return err_sys(ERR_IO, "%s: read", path); }
        got += (size_t)k;
    }
    size_t good = 0;
    long rc = warcw_scan_mem(data, size, path, salvage, &good, fn, ctx);
    if (rc >= 0 && salvage && good < size) {
        if (ftruncate(fd, (off_t)good)) rc = err_sys(ERR_IO, "%s: truncate", path);
        else if (fsync(fd)) rc = err_sys(ERR_IO, "%s: fsync", path);
    }
    free(data);
    close(fd);
    return rc;
}

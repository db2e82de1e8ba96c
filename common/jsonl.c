/* jsonl.c - see jsonl.h. */
#include "jsonl.h"
#include "err.h"
#include "utf8.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

struct jsonl_reader {
    io_reader *io;
    cJSON *cur;
    uint64_t malformed, blank;
};

int jsonl_wrap(jsonl_reader **out, io_reader *r)
{
    *out = NULL;
    jsonl_reader *jr = calloc(1, sizeof *jr);
    if (!jr) return err_set(ERR_NOMEM, "out of memory");
    jr->io = r;
    *out = jr;
    return 0;
}

int jsonl_open(jsonl_reader **out, const char *path)
{
    io_reader *r;
    int rc = io_reader_open(&r, path);
    if (rc < 0) return rc;
    rc = jsonl_wrap(out, r);
    if (rc < 0) io_reader_close(r);
    return rc;
}

void jsonl_close(jsonl_reader *jr)
{
    if (!jr) return;
    cJSON_Delete(jr->cur);
    io_reader_close(jr->io);
    free(jr);
}

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The code unit of the \uXXXX escape at s[i] (s[i] == '\\'), or -1. */
static long uescape(const char *s, size_t len, size_t i)
{
    if (i + 6 > len || s[i] != '\\' || s[i + 1] != 'u') return -1;
    long v = 0;
    for (int k = 2; k < 6; k++) {
        int h = hexval((unsigned char)s[i + k]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Rewrite lone surrogate escapes to \ufffd in place; returns how many. */
static size_t fix_lone_surrogates(char *s, size_t len)
{
    size_t fixed = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (s[i] != '\\') continue;
        long u = uescape(s, len, i);
        if (u < 0) { i++; continue; } /* another escape: skip its second char */
        if (u >= 0xD800 && u <= 0xDBFF) {
            long lo = uescape(s, len, i + 6);
            if (lo >= 0xDC00 && lo <= 0xDFFF) { i += 11; continue; } /* a proper pair */
        } else if (!(u >= 0xDC00 && u <= 0xDFFF)) {
            i += 5;
            continue;
        }
        memcpy(s + i, "\\ufffd", 6);
        fixed++;
        i += 5;
    }
    return fixed;
}

/* cJSON reports a failed allocation like a syntax error; its allocation hook
 * (installed when this file is linked in, before main) records it per thread. */
static __thread int json_alloc_failed;
static void *json_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p) json_alloc_failed = 1;
    return p;
}
__attribute__((constructor)) static void json_hooks(void)
{
    cJSON_Hooks h = { json_malloc, free };
    cJSON_InitHooks(&h);
}

/* cJSON takes raw control characters where JSON (RFC 8259) and Python's
 * json.loads do not: inside a string (where they must be escaped), and
 * outside one anything but space, tab, CR and LF (cJSON skips every byte up
 * to 0x20, NUL included, as whitespace). The first such byte of s[0..n) (the
 * parsed value, without the line's trailing whitespace), or NULL. Only values
 * that hold a byte below 0x20 at all pay for the scan. */
static const char *bad_control(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (unsigned char)s[i] >= 0x20) i++;
    if (i == n) return NULL;
    int in_str = 0;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (in_str) {
            if (c == '\\') i++;
            else if (c == '"') in_str = 0;
            else if (c < 0x20) return s + i;
        } else if (c == '"') {
            in_str = 1;
        } else if (c < 0x20 && c != '\t' && c != '\r' && c != '\n') {
            return s + i;
        }
    }
    return NULL;
}

cJSON *json_parse(const char *s, size_t len, const char **end, int *nomem)
{
    const char *e = NULL;
    json_alloc_failed = 0;
    cJSON *obj = cJSON_ParseWithLengthOpts(s, len, &e, 0);
    *nomem = !obj && json_alloc_failed;
    if (obj) {
        const char *bad = bad_control(s, (size_t)(e - s));
        if (bad) {
            cJSON_Delete(obj);
            obj = NULL;
            e = bad;
        }
    }
    if (end) *end = e;
    return obj;
}

cJSON *jsonl_parse_line(char *line, size_t len, size_t *err_col, int *trailing)
{
    *trailing = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        const char *end = NULL;
        int nomem;
        cJSON *obj = json_parse(line, len, &end, &nomem);
        if (nomem) {
            *trailing = JSONL_NOMEM;
            *err_col = 0;
            return NULL;
        }
        if (!obj) {
            if (attempt == 0 && fix_lone_surrogates(line, len)) continue;
            *err_col = (end && end >= line && end <= line + len ? (size_t)(end - line) : 0) + 1;
            return NULL;
        }
        size_t k = (size_t)(end - line);
        while (k < len && is_ws(line[k])) k++;
        if (k < len) {
            cJSON_Delete(obj);
            *trailing = 1;
            *err_col = k + 1;
            return NULL;
        }
        return obj;
    }
    return NULL;
}

int jsonl_next(jsonl_reader *jr, jsonl_record *rec)
{
    cJSON_Delete(jr->cur);
    jr->cur = NULL;
    memset(rec, 0, sizeof *rec);
    for (;;) {
        char *line;
        size_t len;
        int rc = io_getline(jr->io, &line, &len);
        if (rc <= 0) return rc;
        if (jsonl_is_blank(line, len)) {
            jr->blank++;
            continue;
        }
        rec->line = line;
        rec->len = len;
        rec->lineno = io_reader_lineno(jr->io);
        size_t col;
        int trailing;
        cJSON *obj = jsonl_parse_line(line, len, &col, &trailing);
        if (!obj && trailing == JSONL_NOMEM)
            return err_set(ERR_NOMEM, "%s:%llu: out of memory parsing a JSON line of %zu bytes",
                           io_reader_name(jr->io), (unsigned long long)rec->lineno, len);
        if (!obj) {
            jr->malformed++;
            err_set(ERR_FORMAT, trailing ? "%s:%llu: unexpected data after the JSON value at column %zu"
                                         : "%s:%llu: invalid JSON near column %zu",
                    io_reader_name(jr->io), (unsigned long long)rec->lineno, col);
            return JSONL_MALFORMED;
        }
        jr->cur = obj;
        rec->obj = obj;
        return JSONL_OK;
    }
}

uint64_t jsonl_malformed(const jsonl_reader *jr) { return jr->malformed; }
uint64_t jsonl_blank(const jsonl_reader *jr) { return jr->blank; }

int jsonl_is_blank(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && is_ws(line[i]))
        i++;
    return i == len;
}
io_reader *jsonl_io(jsonl_reader *jr) { return jr->io; }

int jsonl_get_int(const cJSON *obj, const char *key, long *out)
{
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (cJSON_IsNumber(v) && v->valuedouble >= -9e15 && v->valuedouble <= 9e15 &&
        v->valuedouble == (double)(long)v->valuedouble) {
        *out = (long)v->valuedouble;
        return 1;
    }
    if (cJSON_IsString(v) && v->valuestring[0]) {
        char *end;
        long x = strtol(v->valuestring, &end, 10);
        if (!*end) {
            *out = x;
            return 1;
        }
    }
    return 0;
}

const char *jsonl_get_string(const cJSON *obj, const char *key)
{
    if (!cJSON_IsObject(obj)) return NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v && strchr(key, '.')) { /* dotted path into nested objects */
        char part[256];
        const char *k = key;
        v = obj;
        while (v && *k) {
            const char *dot = strchr(k, '.');
            size_t n = dot ? (size_t)(dot - k) : strlen(k);
            if (n >= sizeof part || !cJSON_IsObject(v)) return NULL;
            memcpy(part, k, n);
            part[n] = '\0';
            v = cJSON_GetObjectItemCaseSensitive(v, part);
            k += n + (dot != NULL);
        }
    }
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int jsonl_write(io_writer *w, const cJSON *obj)
{
    char *s = cJSON_PrintUnformatted(obj);
    if (!s) return err_set(ERR_NOMEM, "out of memory while serialising JSON");
    int rc = io_write(w, s, strlen(s));
    if (rc == 0) rc = io_write(w, "\n", 1);
    cJSON_free(s);
    return rc;
}

/* ---------- raw JSON string values (length-preserving) ---------- */

/* End of the JSON value starting at s[i] (already validated by cJSON), or 0. */
static size_t skip_value(const char *s, size_t n, size_t i)
{
    if (i >= n) return 0;
    if (s[i] == '"') {
        for (i++; i < n; i++) {
            if (s[i] == '\\') i++;
            else if (s[i] == '"') return i + 1;
        }
        return 0;
    }
    if (s[i] == '{' || s[i] == '[') {
        int depth = 0;
        for (; i < n; i++) {
            char c = s[i];
            if (c == '"') {
                size_t e = skip_value(s, n, i);
                if (!e) return 0;
                i = e - 1;
            } else if (c == '{' || c == '[') depth++;
            else if (c == '}' || c == ']') {
                if (--depth == 0) return i + 1;
            }
        }
        return 0;
    }
    while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && !is_ws(s[i])) i++;
    return i;
}

int jsonl_value_span(const char *s, size_t n, const char *key, size_t *vstart, size_t *vend)
{
    size_t i = 0, klen = strlen(key);
    int found = 0;
    while (i < n && is_ws(s[i])) i++;
    if (i >= n || s[i] != '{') return 0;
    i++;
    for (;;) {
        while (i < n && (is_ws(s[i]) || s[i] == ',')) i++;
        if (i >= n || s[i] != '"') return found;
        size_t ks = i, ke = skip_value(s, n, i);
        if (!ke) return found;
        i = ke;
        while (i < n && (is_ws(s[i]) || s[i] == ':')) i++;
        size_t ve = skip_value(s, n, i);
        if (!ve) return found;
        /* keys with escapes are compared decoded; plain ones directly */
        int match = 0;
        if (ke - ks - 2 == klen && !memchr(s + ks, '\\', ke - ks)) match = memcmp(s + ks + 1, key, klen) == 0;
        else if (memchr(s + ks, '\\', ke - ks)) {
            char *tmp = NULL;
            size_t tl = 0, tc = 0;
            if (jsonl_unescape(s + ks, ke - ks, &tmp, &tl, &tc) == 0) match = tl == klen && !memcmp(tmp, key, klen);
            free(tmp);
        }
        if (match) {
            *vstart = i;
            *vend = ve;
            found = 1;
        }
        i = ve;
    }
}

static int grow(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    char *p = realloc(*buf, c);
    if (!p) return ERR_NOMEM;
    *buf = p;
    *cap = c;
    return 0;
}

int jsonl_unescape(const char *s, size_t n, char **buf, size_t *len, size_t *cap)
{
    if (n < 2 || s[0] != '"' || s[n - 1] != '"') return ERR_FORMAT;
    s++;
    n -= 2;
    if (grow(buf, cap, n + 1)) return ERR_NOMEM; /* decoding never lengthens */
    char *o = *buf;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] != '\\') { /* the run up to the next escape, at once */
            const char *e = memchr(s + i, '\\', n - i);
            size_t run = e ? (size_t)(e - (s + i)) : n - i;
            memcpy(o + k, s + i, run);
            k += run;
            i += run;
            continue;
        }
        if (i + 1 >= n) return ERR_FORMAT;
        char e = s[i + 1];
        const char *m = "\"\"\\\\//b\bf\fn\nr\rt\t";
        const char *f = NULL;
        for (const char *p = m; *p; p += 2)
            if (*p == e) f = p;
        if (f) {
            o[k++] = f[1];
            i += 2;
            continue;
        }
        long u = uescape(s, n, i);
        if (u < 0) return ERR_FORMAT;
        i += 6;
        uint32_t cp = (uint32_t)u;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            long lo = uescape(s, n, i);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                i += 6;
            } else cp = 0xFFFD;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) cp = 0xFFFD;
        k += (size_t)utf8_encode(cp, o + k);
    }
    /* raw bytes that are not UTF-8: Python's errors="replace" */
    if (!utf8_valid(o, k)) {
        char *t = malloc(3 * k + 1);
        if (!t) return ERR_NOMEM;
        size_t m = utf8_sanitize(o, k, t);
        if (grow(buf, cap, m + 1)) {
            free(t);
            return ERR_NOMEM;
        }
        memcpy(*buf, t, m);
        free(t);
        k = m;
    }
    (*buf)[k] = 0;
    *len = k;
    return 0;
}

/* The length of the prefix of s[0..n) that JSON writes as it is (no '"', '\\'
 * or control byte). */
static size_t plain_run(const char *s, size_t n)
{
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), c1f = _mm_set1_epi8(0x1F);
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
                                   _mm_cmpeq_epi8(_mm_max_epu8(x, c1f), c1f));
        unsigned m = (unsigned)_mm_movemask_epi8(hit);
        if (m) return i + (size_t)__builtin_ctz(m);
    }
#endif
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\' || c < 0x20) break;
    }
    return i;
}

int jsonl_escape(const char *s, size_t n, char **buf, size_t *len, size_t *cap)
{
    if (grow(buf, cap, 6 * n + 3)) return ERR_NOMEM;
    char *o = *buf;
    size_t k = 0;
    o[k++] = '"';
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        size_t run = plain_run(s + i, n - i); /* bytes that need no escape, copied at once */
        if (run) {
            memcpy(o + k, s + i, run);
            k += run;
            i += run;
            if (i == n) break;
        }
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            o[k++] = '\\';
            o[k++] = (char)c;
        } else if (c < 0x20) {
            o[k++] = '\\';
            switch (c) {
            case '\n': o[k++] = 'n'; break;
            case '\r': o[k++] = 'r'; break;
            case '\t': o[k++] = 't'; break;
            case '\b': o[k++] = 'b'; break;
            case '\f': o[k++] = 'f'; break;
            default:
                o[k++] = 'u';
                o[k++] = '0';
                o[k++] = '0';
                o[k++] = hex[c >> 4];
                o[k++] = hex[c & 15];
            }
        } else o[k++] = (char)c;
    }
    o[k++] = '"';
    o[k] = 0;
    *len = k;
    return 0;
}

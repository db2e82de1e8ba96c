/* jsonl.c - see jsonl.h. */
#include "jsonl.h"
#include "err.h"

#include <stdlib.h>
#include <string.h>

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
        size_t i = 0;
        while (i < len && is_ws(line[i])) i++;
        if (i == len) {
            jr->blank++;
            continue;
        }
        rec->line = line;
        rec->len = len;
        rec->lineno = io_reader_lineno(jr->io);
        const char *end = NULL;
        cJSON *obj = cJSON_ParseWithLengthOpts(line, len, &end, 0);
        if (!obj) {
            size_t at = end ? (size_t)(end - line) : 0;
            const char *ep = cJSON_GetErrorPtr();
            if (ep >= line && ep <= line + len) at = (size_t)(ep - line);
            jr->malformed++;
            err_set(ERR_FORMAT, "%s:%llu: invalid JSON near column %zu", io_reader_name(jr->io),
                    (unsigned long long)rec->lineno, at + 1);
            return JSONL_MALFORMED;
        }
        size_t k = (size_t)(end - line);
        while (k < len && is_ws(line[k])) k++;
        if (k < len) {
            cJSON_Delete(obj);
            jr->malformed++;
            err_set(ERR_FORMAT, "%s:%llu: unexpected data after the JSON value at column %zu",
                    io_reader_name(jr->io), (unsigned long long)rec->lineno, k + 1);
            return JSONL_MALFORMED;
        }
        jr->cur = obj;
        rec->obj = obj;
        return JSONL_OK;
    }
}

uint64_t jsonl_malformed(const jsonl_reader *jr) { return jr->malformed; }
uint64_t jsonl_blank(const jsonl_reader *jr) { return jr->blank; }
io_reader *jsonl_io(jsonl_reader *jr) { return jr->io; }

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

/* substr_spans.c - the spans file read back (see substr_spans.h). */
#include "dedup/substr_spans.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"

void substr_spans_free(substr_spans *s)
{
    free(s->doc);
    free(s->span);
    free(s->line);
    free(s->name);
    memset(s, 0, sizeof *s);
}

/* A whole number in [0, max] under key; -1 when it is missing or not one. */
static int64_t whole(const cJSON *o, const char *key, double max)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > max || floor(v->valuedouble) != v->valuedouble)
        return -1;
    return (int64_t)v->valuedouble;
}

int substr_spans_read(substr_spans *s, jsonl_reader *jr, const char *name)
{
    memset(s, 0, sizeof *s);
    if (!(s->name = strdup(name ? name : "spans")))
        return err_set(ERR_NOMEM, "out of memory");
    jsonl_record r;
    int k, rc = 0;
    while (!rc && (k = jsonl_next(jr, &r)) > 0) {
        if (k != JSONL_OK || !cJSON_IsObject(r.obj)) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": not a JSON object", s->name, r.lineno);
            break;
        }
        int64_t d = whole(r.obj, "doc", 9007199254740991.0), a = whole(r.obj, "start", 4294967295.0),
                b = whole(r.obj, "end", 4294967295.0);
        if (d < 0 || a < 0 || b < 0) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": \"doc\", \"start\" and \"end\" must be whole numbers "
                                     "(end below 2^32)", s->name, r.lineno);
            break;
        }
        if (a >= b) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": an empty span (start %" PRId64 ", end %" PRId64 ")", s->name,
                         r.lineno, a, b);
            break;
        }
        if (s->n && ((uint64_t)d < s->doc[s->n - 1] ||
                     ((uint64_t)d == s->doc[s->n - 1] && (uint32_t)a < s->span[s->n - 1].end))) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": out of order or overlapping the span before (spans "
                                     "come by document, then by start, apart)", s->name, r.lineno);
            break;
        }
        if (s->n == s->cap) {
            size_t nc = s->cap ? 2 * s->cap : 1024;
            uint64_t *nd = realloc(s->doc, nc * sizeof *nd);
            if (nd)
                s->doc = nd;
            sc_span *ns = nd ? realloc(s->span, nc * sizeof *ns) : NULL;
            if (ns)
                s->span = ns;
            uint64_t *nl = ns ? realloc(s->line, nc * sizeof *nl) : NULL;
            if (!nl) {
                rc = err_set(ERR_NOMEM, "out of memory for %zu spans", nc);
                break;
            }
            s->line = nl;
            s->cap = nc;
        }
        s->doc[s->n] = (uint64_t)d;
        s->span[s->n] = (sc_span){(uint32_t)a, (uint32_t)b};
        s->line[s->n] = r.lineno;
        s->n++;
    }
    if (!rc && k < 0)
        rc = k;
    if (rc)
        substr_spans_free(s);
    return rc;
}

int substr_spans_load(substr_spans *s, const char *path)
{
    jsonl_reader *jr = NULL;
    memset(s, 0, sizeof *s);
    int rc = jsonl_open(&jr, path);
    if (rc)
        return rc;
    rc = substr_spans_read(s, jr, path);
    jsonl_close(jr);
    return rc;
}

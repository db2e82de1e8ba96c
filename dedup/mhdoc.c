/* mhdoc.c - see mhdoc.h. */
#include "dedup/mhdoc.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/jsonl.h"
#include "common/jsonscan.h"

/* The string of span sp as cJSON gives it (up to a NUL), decoded into *own if it has escapes. */
static int span_string(const char *line, const jsonscan_span *sp, const char **out, size_t *len, char **own)
{
    size_t cap = 0;
    if (sp->escaped) {
        cap = sp->end - sp->start;
        if (!(*own = malloc(cap ? cap : 1))) return ERR_NOMEM;
    }
    int rc = jsonscan_string(line, sp, out, len, own, &cap);
    if (rc) return rc;
    const char *nul = memchr(*out, 0, *len);
    if (nul) *len = (size_t)(nul - *out);
    return 0;
}

int mh_doc_read(char *line, size_t len, const char *id_field, const char *text_field, mh_doc *d)
{
    memset(d, 0, sizeof *d);
    const char *keys[2] = {id_field, text_field};
    jsonscan_span sp[2];
    if (jsonscan_fields(line, len, keys, 2, sp)) { /* one pass, no tree */
        if (sp[0].type != JSONSCAN_STRING) d->status = MHDOC_NO_ID;
        else if (sp[1].type != JSONSCAN_STRING) d->status = MHDOC_NO_TEXT;
        else if (span_string(line, &sp[0], &d->id, &d->id_len, &d->own_id) ||
                 span_string(line, &sp[1], &d->text, &d->text_len, &d->own_text))
            return ERR_NOMEM;
        return 0;
    }
    size_t col;
    int trailing;
    cJSON *obj = jsonl_parse_line(line, len, &col, &trailing);
    d->obj = obj;
    if (!obj) {
        d->status = MHDOC_BAD_JSON;
        return trailing == JSONL_NOMEM ? ERR_NOMEM : 0;
    }
    const char *id = jsonl_get_string(obj, id_field);
    const char *text = jsonl_get_string(obj, text_field);
    if (!id) d->status = MHDOC_NO_ID;
    else if (!text) d->status = MHDOC_NO_TEXT;
    else {
        d->id = id;
        d->id_len = strlen(id);
        d->text = text;
        d->text_len = strlen(text);
    }
    return 0;
}

void mh_doc_free(mh_doc *d)
{
    cJSON_Delete(d->obj);
    free(d->own_id);
    free(d->own_text);
    memset(d, 0, sizeof *d);
}

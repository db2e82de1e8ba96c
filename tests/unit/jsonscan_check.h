/* jsonscan_check.h - does common/jsonscan agree with the cJSON path on a line?
 * Shared by the unit test (tests/unit/test_common.c) and the differential
 * fuzz target (tests/fuzz/fuzz_jsonscan.c). */
#ifndef TESTS_JSONSCAN_CHECK_H
#define TESTS_JSONSCAN_CHECK_H

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonl.h"
#include "common/jsonscan.h"

/* NULL when they agree (or jsonscan left the line to cJSON), else what differs.
 * Agreement: where jsonscan answers, cJSON accepts the line as an object, each
 * key is absent in both or present in both with the same type, and a string's
 * bytes up to its first NUL are cJSON's valuestring. */
static const char *jsonscan_disagreement(const char *line, size_t len, const char *const *keys, size_t nk)
{
    jsonscan_span sp[JSONSCAN_MAX_KEYS];
    if (!jsonscan_fields(line, len, keys, nk, sp)) return NULL;
    char *copy = malloc(len + 1);
    if (!copy) return NULL;
    memcpy(copy, line, len);
    copy[len] = 0;
    size_t col;
    int trailing;
    cJSON *obj = jsonl_parse_line(copy, len, &col, &trailing);
    const char *why = NULL;
    if (!obj || !cJSON_IsObject(obj)) why = "jsonscan accepted a line the cJSON path refuses";
    char *buf = NULL;
    size_t cap = 0;
    for (size_t k = 0; k < nk && !why; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, keys[k]);
        int t = sp[k].type;
        if (!v != (t == JSONSCAN_ABSENT)) why = "a key present in one and absent in the other";
        else if (!v) continue;
        else if ((t == JSONSCAN_STRING) != !!cJSON_IsString(v) || (t == JSONSCAN_NUMBER) != !!cJSON_IsNumber(v) ||
                 (t == JSONSCAN_OBJECT) != !!cJSON_IsObject(v) || (t == JSONSCAN_ARRAY) != !!cJSON_IsArray(v))
            why = "a value of another type";
        else if (t == JSONSCAN_STRING) {
            const char *s;
            size_t sl;
            if (jsonscan_string(line, &sp[k], &s, &sl, &buf, &cap)) break;
            const char *nul = memchr(s, 0, sl);
            size_t cut = nul ? (size_t)(nul - s) : sl;
            if (strlen(v->valuestring) != cut || memcmp(v->valuestring, s, cut)) why = "a string decoded differently";
        }
    }
    free(buf);
    cJSON_Delete(obj);
    free(copy);
    return why;
}

#endif

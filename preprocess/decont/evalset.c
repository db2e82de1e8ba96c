/* evalset.c - evaluation sets as (context, answer) items (see evalset.h). */
#include "preprocess/decont/evalset.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/fsutil.h"
#include "common/jsonl.h"

static const char *parse_item(const cJSON *o, const eval_set *s, char **query, char **gold)
{
    *query = *gold = NULL;
    const char *q = NULL, *g = NULL;
    long idx;
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(o, "choices");
    if (!ch)
        ch = cJSON_GetObjectItemCaseSensitive(o, "endings");
    if (jsonl_get_string(o, "sentence") && jsonl_get_string(o, "option1") && jsonl_get_string(o, "option2")) { /* Winogrande */
        const char *sent = jsonl_get_string(o, "sentence"), *blank = strchr(sent, '_');
        if (!blank || !jsonl_get_int(o, "answer", &idx) || (idx != 1 && idx != 2))
            return "a Winogrande record needs a \"_\" in \"sentence\" and \"answer\" 1 or 2";
        const char *opt = jsonl_get_string(o, idx == 1 ? "option1" : "option2");
        size_t a = (size_t)(blank - sent), b = strlen(opt);
        char *c = malloc(a + b + 1);
        const char *rest = blank + 1;
        while (*rest == ' ')
            rest++;
        *gold = strdup(rest);
        if (!c || !*gold) {
            free(c);
            return "out of memory";
        }
        memcpy(c, sent, a);
        memcpy(c + a, opt, b + 1);
        *query = c;
        return NULL;
    }
    if (jsonl_get_string(o, "goal") && jsonl_get_string(o, "sol1") && jsonl_get_string(o, "sol2")) { /* PIQA */
        if (!jsonl_get_int(o, "label", &idx) || (idx != 0 && idx != 1))
            return "a PIQA record needs \"label\" 0 or 1";
        q = jsonl_get_string(o, "goal");
        g = jsonl_get_string(o, idx ? "sol2" : "sol1");
    } else if (jsonl_get_string(o, "question") && cJSON_IsObject(ch)) { /* ARC */
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(ch, "text"), *l = cJSON_GetObjectItemCaseSensitive(ch, "label");
        const char *key = jsonl_get_string(o, "answerKey");
        if (!cJSON_IsArray(t) || !cJSON_IsArray(l) || !key)
            return "an ARC record needs \"choices\" {\"text\", \"label\"} and \"answerKey\"";
        int n = cJSON_GetArraySize(l);
        for (int i = 0; i < n && !g; i++) {
            const cJSON *li = cJSON_GetArrayItem(l, i), *ti = cJSON_GetArrayItem(t, i);
            if (cJSON_IsString(li) && !strcmp(li->valuestring, key) && cJSON_IsString(ti))
                g = ti->valuestring;
        }
        if (!g)
            return "an ARC record whose \"answerKey\" is not among its choices' labels";
        q = jsonl_get_string(o, "question");
    } else if ((jsonl_get_string(o, "query") || jsonl_get_string(o, "ctx")) && cJSON_IsArray(ch)) { /* hellaswag */
        if (!jsonl_get_int(o, "gold", &idx) && !jsonl_get_int(o, "label", &idx))
            return "a HellaSwag record needs \"gold\" (or \"label\"): the right ending's index";
        const cJSON *e = idx >= 0 ? cJSON_GetArrayItem(ch, (int)idx) : NULL;
        if (!cJSON_IsString(e))
            return "a HellaSwag record whose \"gold\" is not the index of one of its choices";
        q = jsonl_get_string(o, "query") ? jsonl_get_string(o, "query") : jsonl_get_string(o, "ctx");
        g = e->valuestring;
    } else {
        g = jsonl_get_string(o, s->text_field);
        q = s->query_field ? jsonl_get_string(o, s->query_field) : NULL;
        if (!g && !q)
            return "a record of no known evaluation format, without the text field given (--eval-text-field)";
    }
    if (q && !(*query = strdup(q)))
        return "out of memory";
    if (g && !(*gold = strdup(g)))
        return "out of memory";
    return NULL;
}

static int add_task(eval_set *s, char *task, uint32_t *t)
{
    if (!task)
        return err_set(ERR_NOMEM, "out of memory");
    char **nt = realloc(s->tasks, (s->ntasks + 1) * sizeof *nt);
    if (!nt) {
        free(task);
        return err_set(ERR_NOMEM, "out of memory");
    }
    s->tasks = nt;
    s->tasks[s->ntasks] = task;
    *t = (uint32_t)s->ntasks++;
    return 0;
}

int eval_load_reader(eval_set *s, jsonl_reader *jr, const char *file, const char *task)
{
    uint32_t t = 0;
    int rc = add_task(s, strdup(task), &t), k = 0;
    if (rc)
        return rc;
    jsonl_record r;
    uint32_t idx = 0;
    size_t n0 = s->n;
    while ((k = jsonl_next(jr, &r)) > 0) {
        if (k != JSONL_OK) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": not JSON (an evaluation set must be JSON lines)", file,
                         r.lineno);
            break;
        }
        char *q, *g;
        const char *why = cJSON_IsObject(r.obj) ? parse_item(r.obj, s, &q, &g) : "not a JSON object";
        if (why) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": %s", file, r.lineno, why);
            break;
        }
        if (s->n == s->cap) {
            size_t nc = s->cap ? 2 * s->cap : 1024;
            eval_item *v = realloc(s->v, nc * sizeof *v);
            if (!v) {
                free(q);
                free(g);
                rc = err_set(ERR_NOMEM, "out of memory");
                break;
            }
            s->v = v;
            s->cap = nc;
        }
        s->v[s->n++] = (eval_item){t, idx++, q, g};
    }
    if (!rc && k < 0)
        rc = err_set(k, "%s: %s", file, err_msg());
    if (!rc && s->n == n0)
        rc = err_set(ERR_FORMAT, "%s: no evaluation items in it", file);
    return rc;
}

int eval_load(eval_set *s, const char *spec)
{
    const char *file;
    char *task;
    if (!fs_split_named(spec, &task, &file))
        task = fs_stem(spec);
    if (!task)
        return err_set(ERR_NOMEM, "out of memory");
    jsonl_reader *jr = NULL;
    int rc = jsonl_open(&jr, file);
    if (!rc)
        rc = eval_load_reader(s, jr, file, task);
    jsonl_close(jr);
    free(task);
    return rc;
}

void eval_free(eval_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].query);
        free(s->v[i].gold);
    }
    free(s->v);
    for (size_t i = 0; i < s->ntasks; i++)
        free(s->tasks[i]);
    free(s->tasks);
    memset(s, 0, sizeof *s);
}

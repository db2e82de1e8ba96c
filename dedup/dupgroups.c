/* dupgroups.c - see dupgroups.h. */
#include "dedup/dupgroups.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/jsonl.h"

static int add_id(dup_groups *g, const char *path, uint64_t lineno, const char *id)
{
    int added;
    long x = idmap_put(&g->ids, id, strlen(id), &added);
    if (x < 0)
        return (int)x;
    if (!added)
        return err_set(ERR_FORMAT, "%s:%llu: id \"%s\" is in two groups", path, (unsigned long long)lineno, id);
    if ((size_t)x >= g->gcap) {
        size_t cap = g->gcap ? g->gcap * 2 : 4096;
        uint32_t *ng = realloc(g->group_of, cap * sizeof *ng);
        if (!ng)
            return err_set(ERR_NOMEM, "out of memory");
        g->group_of = ng;
        g->gcap = cap;
    }
    g->group_of[x] = (uint32_t)g->ngroups;
    return 0;
}

int dup_groups_load(dup_groups *g, const char *path)
{
    memset(g, 0, sizeof *g);
    jsonl_reader *jr;
    int rc = jsonl_open(&jr, path);
    if (rc)
        return rc;
    jsonl_record r;
    int k;
    while (!rc && (k = jsonl_next(jr, &r)) > 0) {
        const cJSON *arr = k == JSONL_OK ? cJSON_GetObjectItemCaseSensitive(r.obj, "ids") : NULL;
        if (!cJSON_IsArray(arr)) {
            rc = err_set(ERR_FORMAT, "%s:%llu: not a group {\"group\": N, \"ids\": [...]}", path,
                         (unsigned long long)r.lineno);
            break;
        }
        for (const cJSON *e = arr->child; e && !rc; e = e->next)
            rc = cJSON_IsString(e) ? add_id(g, path, r.lineno, e->valuestring)
                                   : err_set(ERR_FORMAT, "%s:%llu: an id is not a string", path,
                                             (unsigned long long)r.lineno);
        g->ngroups++;
    }
    if (!rc && k < 0)
        rc = k;
    jsonl_close(jr);
    if (!rc && !(g->kept_by = calloc(g->ngroups ? g->ngroups : 1, sizeof *g->kept_by)))
        rc = err_set(ERR_NOMEM, "out of memory");
    return rc;
}

int dup_groups_earlier(dup_groups *g, const char *path, const char *id_field, uint64_t *reps)
{
    jsonl_reader *jr;
    int rc = jsonl_open(&jr, path);
    if (rc)
        return rc;
    jsonl_record r;
    int k;
    while ((k = jsonl_next(jr, &r)) > 0) {
        const char *id = k == JSONL_OK ? jsonl_get_string(r.obj, id_field) : NULL;
        long x = id ? idmap_get(&g->ids, id, strlen(id)) : -1;
        if (x >= 0 && !g->kept_by[g->group_of[x]]) {
            g->kept_by[g->group_of[x]] = x + 1;
            (*reps)++;
        }
    }
    jsonl_close(jr);
    return k < 0 ? k : 0;
}

int dup_groups_decide(dup_groups *g, const char *id, uint32_t *group, const char **kept, size_t *kl)
{
    long x = idmap_get(&g->ids, id, strlen(id));
    if (x < 0)
        return DUP_UNGROUPED;
    uint32_t gr = g->group_of[x];
    if (!g->kept_by[gr]) {
        g->kept_by[gr] = x + 1;
        return DUP_REPRESENTATIVE;
    }
    *group = gr;
    *kept = idmap_str(&g->ids, (size_t)(g->kept_by[gr] - 1), kl);
    return DUP_REMOVE;
}

uint64_t dup_groups_absent(const dup_groups *g)
{
    uint64_t absent = 0;
    for (uint64_t k = 0; g->kept_by && k < g->ngroups; k++)
        absent += !g->kept_by[k];
    return absent;
}

void dup_groups_free(dup_groups *g)
{
    idmap_free(&g->ids);
    free(g->group_of);
    free(g->kept_by);
    memset(g, 0, sizeof *g);
}

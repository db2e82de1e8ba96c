/* dupgroups.c - see dupgroups.h. */
#include "dedup/dupgroups.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/jsonl.h"
#include <inttypes.h>
#include <stdio.h>

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

/* ---- making the groups ---- */

int dup_pairs_read(dup_pairs *p, const char *path, double threshold)
{
    jsonl_reader *jr;
    int rc = jsonl_open(&jr, path), k = 0;
    if (rc)
        return rc;
    jsonl_record r;
    while (!rc && (k = jsonl_next(jr, &r)) > 0) {
        const char *a = k == JSONL_OK ? jsonl_get_string(r.obj, "a") : NULL;
        const char *b = k == JSONL_OK ? jsonl_get_string(r.obj, "b") : NULL;
        const cJSON *s = k == JSONL_OK ? cJSON_GetObjectItemCaseSensitive(r.obj, "jaccard") : NULL;
        if (!a || !b || !cJSON_IsNumber(s)) {
            rc = err_set(ERR_FORMAT, "%s:%llu: not a pair {\"a\": ID, \"b\": ID, \"jaccard\": S}",
                         io_reader_name(jsonl_io(jr)), (unsigned long long)r.lineno);
            break;
        }
        p->npairs++;
        const cJSON *ex = cJSON_GetObjectItemCaseSensitive(r.obj, "exact");
        if (s->valuedouble < threshold && !cJSON_IsTrue(ex))
            continue;
        int added;
        long x = idmap_put(&p->ids, a, strlen(a), &added), y = x < 0 ? x : idmap_put(&p->ids, b, strlen(b), &added);
        if (y < 0) {
            rc = (int)y;
            break;
        }
        if (p->used + 2 > p->cap) {
            size_t cap = p->cap ? p->cap * 2 : 1 << 16;
            uint32_t *np = realloc(p->pa, cap * sizeof *np);
            if (!np) {
                rc = err_set(ERR_NOMEM, "out of memory");
                break;
            }
            p->pa = np;
            p->cap = cap;
        }
        p->pa[p->used++] = (uint32_t)x;
        p->pa[p->used++] = (uint32_t)y;
    }
    if (!rc && k < 0)
        rc = k;
    jsonl_close(jr);
    return rc;
}

static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

typedef struct {
    uint32_t root, member;
} gm;

static const idmap *sort_ids; /* the ids the comparisons below read (one sort at a time) */

static int cmp_id(uint32_t a, uint32_t b)
{
    size_t la, lb;
    const char *sa = idmap_str(sort_ids, a, &la), *sb = idmap_str(sort_ids, b, &lb);
    int c = memcmp(sa, sb, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
}

/* by root, then by id */
static int cmp_gm(const void *x, const void *y)
{
    const gm *a = x, *b = y;
    if (a->root != b->root)
        return a->root < b->root ? -1 : 1;
    return cmp_id(a->member, b->member);
}

/* by id */
static int cmp_member(const void *x, const void *y) { return cmp_id(*(const uint32_t *)x, *(const uint32_t *)y); }

/* One group: members m[lo, hi) in id order. */
static int write_group(io_writer *w, const idmap *ids, const gm *m, size_t lo, size_t hi, uint64_t group)
{
    char buf[96];
    int l = snprintf(buf, sizeof buf, "{\"group\": %" PRIu64 ", \"size\": %zu, \"ids\": [", group, hi - lo);
    int rc = io_write(w, buf, (size_t)l);
    for (size_t q = lo; q < hi && !rc; q++) {
        size_t il;
        const char *s = idmap_str(ids, m[q].member, &il);
        char *tmp = strndup(s, il);
        cJSON *str = tmp ? cJSON_CreateString(tmp) : NULL; /* escaped as cJSON escapes */
        char *js = str ? cJSON_PrintUnformatted(str) : NULL;
        if (!js)
            rc = err_set(ERR_NOMEM, "out of memory");
        if (!rc && q > lo)
            rc = io_write(w, ", ", 2);
        if (!rc)
            rc = io_write(w, js, strlen(js));
        free(js);
        free(tmp);
        cJSON_Delete(str);
    }
    return rc ? rc : io_write(w, "]}\n", 3);
}

int dup_pairs_write_groups(dup_pairs *p, io_writer *w, uint64_t *groups)
{
    size_t n = p->ids.n, ng = 0;
    uint32_t *parent = malloc((n ? n : 1) * sizeof *parent), *firsts = malloc((n ? n : 1) * sizeof *firsts);
    gm *m = malloc((n ? n : 1) * sizeof *m);
    int rc = 0;
    *groups = 0;
    if (!parent || !m || !firsts)
        rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc) {
        for (size_t i = 0; i < n; i++)
            parent[i] = (uint32_t)i;
        for (size_t i = 0; i < p->used; i += 2) { /* the smaller index becomes the root */
            uint32_t x = uf_find(parent, p->pa[i]), y = uf_find(parent, p->pa[i + 1]);
            if (x != y)
                parent[x > y ? x : y] = x < y ? x : y;
        }
        for (size_t i = 0; i < n; i++)
            m[i] = (gm){uf_find(parent, (uint32_t)i), (uint32_t)i};
        sort_ids = &p->ids;
        qsort(m, n, sizeof *m, cmp_gm);
        /* each group's first member is its smallest id: the groups go in that order */
        for (size_t i = 0; i < n; i++)
            if (i == 0 || m[i].root != m[i - 1].root)
                firsts[ng++] = m[i].member;
        qsort(firsts, ng, sizeof *firsts, cmp_member);
    }
    for (size_t k = 0; k < ng && !rc; k++) {
        uint32_t root = uf_find(parent, firsts[k]);
        size_t lo = 0, hi = n; /* the group's run in m */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (m[mid].root < root)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t e = lo;
        while (e < n && m[e].root == root)
            e++;
        rc = write_group(w, &p->ids, m, lo, e, (*groups)++);
    }
    free(parent);
    free(firsts);
    free(m);
    return rc;
}

void dup_pairs_free(dup_pairs *p)
{
    idmap_free(&p->ids);
    free(p->pa);
    memset(p, 0, sizeof *p);
}

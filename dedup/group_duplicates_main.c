/* group_duplicates - join similar pairs (find_duplicates output) into groups
 * with union-find; every group keeps one document. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "dedup/idmap.h"

static uint32_t *parent;

static uint32_t find(uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static idmap ids;

static int cmp_id(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    size_t la, lb;
    const char *sa = idmap_str(&ids, a, &la), *sb = idmap_str(&ids, b, &lb);
    int c = memcmp(sa, sb, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
}

typedef struct { uint32_t root, member; } gm;
static int cmp_gm(const void *x, const void *y)
{
    const gm *a = x, *b = y;
    if (a->root != b->root) return a->root < b->root ? -1 : 1;
    return cmp_id(&a->member, &b->member);
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    double threshold = 0.9;
    const arg_opt opts[] = {
        { "output", 'o', ARG_STR, &out, "FILE", "groups as JSON lines (default stdout)" },
        { "threshold", 't', ARG_DOUBLE, &threshold, "T", "join pairs with jaccard >= T (default 0.9)" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "group_duplicates", "[OPTION]... PAIRS...",
        "Join the pairs written by find_duplicates (JSON lines {\"a\", \"b\", \"jaccard\"}; several files\n"
        "and repeated pairs are fine) whose similarity is at least --threshold (or marked exact) into groups (union-find).\n"
        "Writes {\"group\": N, \"size\": S, \"ids\": [...]} per group, ids sorted, groups in the order of\n"
        "their smallest id, and prints how many documents are in groups and how many to remove.",
        opts,
        "Example:\n"
        "  group_duplicates --threshold 0.9 pairs.jsonl -o groups.jsonl\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    rc = 0;
    if (threshold < 0 || threshold > 1) { fprintf(stderr, "group_duplicates: --threshold is in [0, 1]\n"); free(pos); return 2; }
    uint32_t *pa = NULL;
    size_t npairs = 0, cap = 0, used = 0, bad = 0;
    for (int f = 0; f < (npos ? npos : 1) && !rc; f++) {
        jsonl_reader *jr;
        if ((rc = jsonl_open(&jr, npos ? pos[f] : "-"))) break;
        jsonl_record r;
        int g;
        while ((g = jsonl_next(jr, &r)) > 0) {
            const char *a = g == JSONL_OK ? jsonl_get_string(r.obj, "a") : NULL;
            const char *b = g == JSONL_OK ? jsonl_get_string(r.obj, "b") : NULL;
            const cJSON *s = g == JSONL_OK ? cJSON_GetObjectItemCaseSensitive(r.obj, "jaccard") : NULL;
            if (!a || !b || !cJSON_IsNumber(s)) {
                rc = err_set(ERR_FORMAT, "%s:%llu: not a pair {\"a\": ID, \"b\": ID, \"jaccard\": S}",
                             io_reader_name(jsonl_io(jr)), (unsigned long long)r.lineno);
                bad++;
                break;
            }
            npairs++;
            const cJSON *ex = cJSON_GetObjectItemCaseSensitive(r.obj, "exact");
            if (s->valuedouble < threshold && !cJSON_IsTrue(ex)) continue;
            int added;
            long x = idmap_put(&ids, a, strlen(a), &added), y = x < 0 ? x : idmap_put(&ids, b, strlen(b), &added);
            if (y < 0) { rc = (int)y; break; }
            if (used + 2 > cap) {
                cap = cap ? cap * 2 : 1 << 16;
                uint32_t *np = realloc(pa, cap * sizeof *np);
                if (!np) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
                pa = np;
            }
            pa[used++] = (uint32_t)x;
            pa[used++] = (uint32_t)y;
        }
        if (g < 0 && !rc) rc = g;
        jsonl_close(jr);
    }
    size_t n = ids.n;
    parent = malloc((n ? n : 1) * sizeof *parent);
    gm *m = malloc((n ? n : 1) * sizeof *m);
    if (!rc && (!parent || !m)) rc = err_set(ERR_NOMEM, "out of memory");
    io_writer *w = NULL;
    uint64_t groups = 0;
    if (!rc) {
        for (size_t i = 0; i < n; i++) parent[i] = (uint32_t)i;
        for (size_t i = 0; i < used; i += 2) {
            uint32_t x = find(pa[i]), y = find(pa[i + 1]);
            if (x != y) parent[x > y ? x : y] = x < y ? x : y;
        }
        for (size_t i = 0; i < n; i++) m[i] = (gm){find((uint32_t)i), (uint32_t)i};
        qsort(m, n, sizeof *m, cmp_gm);
        /* order groups by their smallest id: sort group starts */
        size_t ng = 0;
        uint32_t *starts = malloc((n + 1) * sizeof *starts);
        if (!starts) rc = err_set(ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < n && !rc; i++)
            if (i == 0 || m[i].root != m[i - 1].root) starts[ng++] = (uint32_t)i;
        if (!rc) {
            /* a group's first member (sorted) is its smallest id; sort starts by it */
            uint32_t *firsts = malloc((ng ? ng : 1) * sizeof *firsts);
            size_t *order = malloc((ng ? ng : 1) * sizeof *order);
            if (!firsts || !order) rc = err_set(ERR_NOMEM, "out of memory");
            for (size_t k = 0; k < ng && !rc; k++) firsts[k] = m[starts[k]].member;
            /* simple index sort */
            for (size_t k = 0; k < ng && !rc; k++) order[k] = k;
            if (!rc) {
                /* sort order[] by firsts via an array of (first, k) */
                gm *tmp = malloc((ng ? ng : 1) * sizeof *tmp);
                if (!tmp) rc = err_set(ERR_NOMEM, "out of memory");
                for (size_t k = 0; k < ng && !rc; k++) tmp[k] = (gm){0, firsts[k]};
                if (!rc) qsort(tmp, ng, sizeof *tmp, cmp_gm); /* all roots 0: sorted by id */
                /* map back: firsts are distinct members; find k for each */
                for (size_t k = 0; k < ng && !rc; k++) order[k] = tmp[k].member;
                free(tmp);
            }
            if (!rc) rc = io_writer_open(&w, out, NULL);
            for (size_t k = 0; k < ng && !rc; k++) {
                uint32_t root = find(order[k]);
                /* members of root: binary search in m by root */
                size_t lo = 0, hi = n;
                while (lo < hi) { size_t mid = (lo + hi) / 2; if (m[mid].root < root) lo = mid + 1; else hi = mid; }
                size_t e = lo;
                while (e < n && m[e].root == root) e++;
                char buf[96];
                int l = snprintf(buf, sizeof buf, "{\"group\": %" PRIu64 ", \"size\": %zu, \"ids\": [", groups, e - lo);
                rc = io_write(w, buf, (size_t)l);
                for (size_t q = lo; q < e && !rc; q++) {
                    size_t il;
                    const char *s = idmap_str(&ids, m[q].member, &il);
                    cJSON *str = cJSON_CreateString("");
                    /* escape via cJSON: build a string node with the raw bytes */
                    char *tmp = malloc(il + 1);
                    if (!str || !tmp) { rc = err_set(ERR_NOMEM, "out of memory"); cJSON_Delete(str); free(tmp); break; }
                    memcpy(tmp, s, il);
                    tmp[il] = 0;
                    cJSON_Delete(str);
                    str = cJSON_CreateString(tmp);
                    char *js = str ? cJSON_PrintUnformatted(str) : NULL;
                    if (!js) rc = err_set(ERR_NOMEM, "out of memory");
                    if (!rc && q > lo) rc = io_write(w, ", ", 2);
                    if (!rc) rc = io_write(w, js, strlen(js));
                    free(js);
                    free(tmp);
                    cJSON_Delete(str);
                }
                if (!rc) rc = io_write(w, "]}\n", 3);
                groups++;
            }
            free(firsts);
            free(order);
        }
        free(starts);
    }
    if (!rc) rc = io_writer_commit(w);
    else io_writer_abort(w);
    if (rc < 0) fprintf(stderr, "group_duplicates: %s\n", err_msg());
    else if (!args_quiet_flag)
        fprintf(stderr, "group_duplicates: %zu pairs read, %zu at or above %.2f: %zu documents in %" PRIu64
                " groups; %" PRIu64 " to keep (one per group), %" PRIu64 " to remove\n", npairs, used / 2, threshold, n,
                groups, groups, (uint64_t)n - groups);
    (void)bad;
    free(pa);
    free(parent);
    free(m);
    idmap_free(&ids);
    free(pos);
    return rc < 0 ? err_exit_code(rc) : 0;
}

/* remove_duplicates - stream a corpus and drop all but the first document (in
 * input order) of each duplicate group written by group_duplicates. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/progress.h"
#include "dedup/idmap.h"

int main(int argc, char **argv)
{
    const char *out = NULL, *groups_path = NULL, *removed_path = NULL, *id_field = "url";
    args_list earlier = {0};
    const arg_opt opts[] = {
        { "groups", 'g', ARG_STR, &groups_path, "FILE", "groups from group_duplicates (required)" },
        { "output", 'o', ARG_STR, &out, "FILE", "kept documents (default stdout; .zst compresses)" },
        { "removed", 0, ARG_STR, &removed_path, "FILE", "write {\"id\", \"group\", \"kept\"} for every removed document" },
        { "id-field", 0, ARG_STR, &id_field, "KEY", "JSON key of the document id (default url)" },
        { "earlier", 0, ARG_LIST, &earlier, "FILE", "a file that comes before the inputs in corpus order (an\n"
                                                     "earlier shard; repeat, in order): not copied, but a group\n"
                                                     "member met there is its group's representative, so shards\n"
                                                     "deduplicated apart keep what one run would" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "remove_duplicates", "--groups FILE [OPTION]... [INPUT]...",
        "Copy JSON-lines documents, dropping every member of a duplicate group except the first one\n"
        "met in input order (the representative). Documents in no group, and lines that are not JSON\n"
        "or have no id, are kept unchanged and counted.",
        opts,
        "Example:\n"
        "  remove_duplicates --groups groups.jsonl corpus.jsonl.zst -o dedup.jsonl.zst --removed removed.jsonl\n"
        "  remove_duplicates --groups groups.jsonl shard2.jsonl.zst -o dedup2.jsonl.zst \\\n"
        "      --earlier shard0.jsonl.zst --earlier shard1.jsonl.zst      # one shard of a sharded run\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    rc = 0;
    if (!groups_path) { fprintf(stderr, "remove_duplicates: --groups is required\n"); free(pos); return 2; }
    idmap ids = {0};
    uint32_t *group_of = NULL;
    size_t gcap = 0;
    uint64_t ngroups = 0;
    jsonl_reader *jr;
    if (!(rc = jsonl_open(&jr, groups_path))) {
        jsonl_record r;
        int g;
        while ((g = jsonl_next(jr, &r)) > 0) {
            const cJSON *arr = g == JSONL_OK ? cJSON_GetObjectItemCaseSensitive(r.obj, "ids") : NULL;
            if (!cJSON_IsArray(arr)) {
                rc = err_set(ERR_FORMAT, "%s:%llu: not a group {\"group\": N, \"ids\": [...]}", groups_path,
                             (unsigned long long)r.lineno);
                break;
            }
            for (const cJSON *e = arr->child; e && !rc; e = e->next) {
                if (!cJSON_IsString(e)) { rc = err_set(ERR_FORMAT, "%s:%llu: an id is not a string", groups_path, (unsigned long long)r.lineno); break; }
                int added;
                long x = idmap_put(&ids, e->valuestring, strlen(e->valuestring), &added);
                if (x < 0) { rc = (int)x; break; }
                if (!added) { rc = err_set(ERR_FORMAT, "%s:%llu: id \"%s\" is in two groups", groups_path, (unsigned long long)r.lineno, e->valuestring); break; }
                if ((size_t)x >= gcap) {
                    gcap = gcap ? gcap * 2 : 4096;
                    uint32_t *ng = realloc(group_of, gcap * sizeof *ng);
                    if (!ng) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
                    group_of = ng;
                }
                group_of[x] = (uint32_t)ngroups;
            }
            ngroups++;
            if (rc) break;
        }
        if (g < 0 && !rc) rc = g;
        jsonl_close(jr);
    }
    int64_t *kept_by = calloc(ngroups ? ngroups : 1, sizeof *kept_by); /* id index + 1 of the representative */
    if (!rc && !kept_by) rc = err_set(ERR_NOMEM, "out of memory");
    static const char *const sfx[] = {".jsonl", ".jsonl.zst", ".jsonl.gz", ".json", ".json.zst", ".json.gz", NULL};
    /* Earlier shards: only their group members count, as the first met. */
    uint64_t earlier_reps = 0;
    for (size_t f = 0; f < earlier.n && !rc; f++) {
        if ((rc = jsonl_open(&jr, earlier.items[f]))) break;
        jsonl_record r;
        int g;
        while ((g = jsonl_next(jr, &r)) > 0) {
            const char *id = g == JSONL_OK ? jsonl_get_string(r.obj, id_field) : NULL;
            long x = id ? idmap_get(&ids, id, strlen(id)) : -1;
            if (x >= 0 && !kept_by[group_of[x]]) {
                kept_by[group_of[x]] = x + 1;
                earlier_reps++;
            }
        }
        if (g < 0) rc = g;
        jsonl_close(jr);
    }
    fs_list files = {0};
    if (!rc && !npos) rc = fs_expand(&files, "-", sfx);
    for (int i = 0; i < npos && !rc; i++) rc = fs_expand(&files, pos[i], sfx);
    io_writer *w = NULL, *rw = NULL;
    if (!rc) rc = io_writer_open(&w, out, NULL);
    if (!rc && removed_path) rc = io_writer_open(&rw, removed_path, NULL);
    uint64_t in = 0, kept_unique = 0, kept_rep = 0, removed = 0, no_id = 0, bad = 0;
    for (size_t f = 0; f < files.n && !rc; f++) {
        if ((rc = jsonl_open(&jr, files.paths[f]))) break;
        jsonl_record r;
        int g;
        while (!rc && (g = jsonl_next(jr, &r)) > 0) {
            in++;
            const char *id = g == JSONL_OK ? jsonl_get_string(r.obj, id_field) : NULL;
            long x = id ? idmap_get(&ids, id, strlen(id)) : -1;
            int keep = 1;
            if (g != JSONL_OK) bad++;
            else if (!id) no_id++;
            else if (x < 0) kept_unique++;
            else if (!kept_by[group_of[x]]) { kept_by[group_of[x]] = x + 1; kept_rep++; }
            else keep = 0;
            if (keep) {
                rc = io_write(w, r.line, r.len);
                if (!rc) rc = io_write(w, "\n", 1);
            } else {
                removed++;
                if (rw) {
                    size_t kl;
                    const char *ks = idmap_str(&ids, (size_t)(kept_by[group_of[x]] - 1), &kl);
                    cJSON *o = cJSON_CreateObject();
                    char *kcopy = strndup(ks, kl);
                    if (!o || !kcopy || !cJSON_AddStringToObject(o, "id", id) ||
                        !cJSON_AddNumberToObject(o, "group", group_of[x]) || !cJSON_AddStringToObject(o, "kept", kcopy))
                        rc = err_set(ERR_NOMEM, "out of memory");
                    if (!rc) rc = jsonl_write(rw, o);
                    cJSON_Delete(o);
                    free(kcopy);
                }
            }
        }
        if (g < 0 && !rc) rc = g;
        jsonl_close(jr);
    }
    if (!rc) { /* kept documents, then the removed ones */
        io_writer *g[2] = {w, rw};
        rc = io_writer_commit_group(g, 2);
    } else {
        io_writer_abort(w);
        io_writer_abort(rw);
    }
    if (rc < 0) fprintf(stderr, "remove_duplicates: %s\n", err_msg());
    else if (!args_quiet_flag) {
        uint64_t absent = 0;
        for (uint64_t k = 0; k < ngroups; k++) absent += !kept_by[k];
        fprintf(stderr, "remove_duplicates: %" PRIu64 " documents in: %" PRIu64 " kept, %" PRIu64 " removed (duplicates)\n"
                "  kept: %" PRIu64 " in no group, %" PRIu64 " group representatives (the first met), %" PRIu64
                " without the id \"%s\", %" PRIu64 " not JSON (passed through)\n", in, in - removed, removed,
                kept_unique, kept_rep, no_id, id_field, bad);
        if (earlier.n)
            fprintf(stderr, "  %" PRIu64 " groups had their representative in the %zu earlier file(s)\n", earlier_reps,
                    earlier.n);
        if (absent) fprintf(stderr, "  note: %" PRIu64 " of %" PRIu64 " groups had no document in this input\n", absent, ngroups);
    }
    free(kept_by);
    args_list_free(&earlier);
    free(group_of);
    idmap_free(&ids);
    fs_list_free(&files);
    free(pos);
    return rc < 0 ? err_exit_code(rc) : 0;
}

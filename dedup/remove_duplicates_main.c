/* remove_duplicates_main.c - the remove_duplicates tool: stream a corpus and
 * drop all but the first document (in input order) of each duplicate group
 * written by group_duplicates (the groups: dedup/dupgroups.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/tally.h"
#include "dedup/dupgroups.h"

typedef struct {
    const char *out, *groups_path, *removed_path, *id_field;
    args_list earlier;
    char **inputs;
    int ninputs;
} options;

typedef struct {
    tally t; /* documents in = kept + dropped (the one reason: duplicate) */
    int dup;
    uint64_t kept_unique, kept_rep, no_id, bad, earlier_reps;
} counts;

/* Returns -1 to go on, else the exit status (--help, --version, usage: printed). */
static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->id_field = "url";
    const arg_opt opts[] = {
        { "groups", 'g', ARG_STR, &o->groups_path, "FILE", "groups from group_duplicates (required)" },
        { "output", 'o', ARG_STR, &o->out, "FILE", "kept documents (default stdout; .zst compresses)" },
        { "removed", 0, ARG_STR, &o->removed_path, "FILE", "write {\"id\", \"group\", \"kept\"} for every removed document" },
        { "id-field", 0, ARG_STR, &o->id_field, "KEY", "JSON key of the document id (default url)" },
        { "earlier", 0, ARG_LIST, &o->earlier, "FILE", "a file that comes before the inputs in corpus order (an\n"
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
    int rc = args_parse_main(&spec, argc, argv, &o->inputs, &o->ninputs);
    if (rc >= 0)
        return rc;
    if (o->groups_path)
        return -1;
    fprintf(stderr, "remove_duplicates: --groups is required\n");
    free(o->inputs);
    args_list_free(&o->earlier);
    return EXIT_USAGE;
}

/* {"id", "group", "kept"} of a removed document. */
static int write_removed(io_writer *rw, const char *id, uint32_t group, const char *kept, size_t kl)
{
    cJSON *o = cJSON_CreateObject();
    char *kcopy = strndup(kept, kl);
    int rc = 0;
    if (!o || !kcopy || !cJSON_AddStringToObject(o, "id", id) || !cJSON_AddNumberToObject(o, "group", group) ||
        !cJSON_AddStringToObject(o, "kept", kcopy))
        rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc)
        rc = jsonl_write(rw, o);
    cJSON_Delete(o);
    free(kcopy);
    return rc;
}

/* One input file: each document kept (written to w) or removed (to rw). */
static int filter_file(const char *path, const options *o, dup_groups *g, io_writer *w, io_writer *rw, counts *n)
{
    jsonl_reader *jr = NULL;
    int rc = jsonl_open(&jr, path), k = 0;
    if (rc)
        return rc;
    jsonl_record r;
    while (!rc && (k = jsonl_next(jr, &r)) > 0) {
        const char *id = k == JSONL_OK ? jsonl_get_string(r.obj, o->id_field) : NULL;
        uint32_t group = 0;
        const char *kept = NULL;
        size_t kl = 0;
        int what = id ? dup_groups_decide(g, id, &group, &kept, &kl) : DUP_UNGROUPED;
        if (k != JSONL_OK)
            n->bad++;
        else if (!id)
            n->no_id++;
        else if (what == DUP_UNGROUPED)
            n->kept_unique++;
        else if (what == DUP_REPRESENTATIVE)
            n->kept_rep++;
        if (what != DUP_REMOVE) {
            tally_keep(&n->t);
            rc = io_write(w, r.line, r.len);
            if (!rc)
                rc = io_write(w, "\n", 1);
            continue;
        }
        tally_drop(&n->t, n->dup, 0);
        if (rw)
            rc = write_removed(rw, id, group, kept, kl);
    }
    if (!rc && k < 0)
        rc = k;
    jsonl_close(jr);
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    dup_groups g;
    counts n = {0};
    tally_init(&n.t);
    n.dup = tally_reason_id(&n.t, "duplicate");
    rc = dup_groups_load(&g, o.groups_path);
    /* earlier shards: only their group members count, as the first met */
    for (size_t f = 0; f < o.earlier.n && !rc; f++)
        rc = dup_groups_earlier(&g, o.earlier.items[f], o.id_field, &n.earlier_reps);
    fs_list files = {0};
    if (!rc && !o.ninputs)
        rc = fs_expand(&files, "-", fs_jsonl_suffixes);
    for (int i = 0; i < o.ninputs && !rc; i++)
        rc = fs_expand(&files, o.inputs[i], fs_jsonl_suffixes);
    io_writer *w = NULL, *rw = NULL;
    if (!rc)
        rc = io_writer_open(&w, o.out, NULL);
    if (!rc && o.removed_path)
        rc = io_writer_open(&rw, o.removed_path, NULL);
    for (size_t f = 0; f < files.n && !rc; f++)
        rc = filter_file(files.paths[f], &o, &g, w, rw, &n);
    io_writer *wg[2] = {w, rw};
    if (!rc) /* kept documents, then the removed ones */
        rc = io_writer_commit_group(wg, 2);
    else
        io_writer_abort(w), io_writer_abort(rw);
    if (rc < 0)
        fprintf(stderr, "remove_duplicates: %s\n", err_msg());
    else if (!args_quiet_flag) {
        uint64_t absent = dup_groups_absent(&g);
        tally_summary(&n.t, stderr, "remove_duplicates", "documents", NULL, NULL);
        fprintf(stderr, "  kept: %" PRIu64 " in no group, %" PRIu64 " group representatives (the first met), %" PRIu64
                " without the id \"%s\", %" PRIu64 " not JSON (passed through)\n", n.kept_unique, n.kept_rep, n.no_id,
                o.id_field, n.bad);
        if (o.earlier.n)
            fprintf(stderr, "  %" PRIu64 " groups had their representative in the %zu earlier file(s)\n", n.earlier_reps,
                    o.earlier.n);
        if (absent)
            fprintf(stderr, "  note: %" PRIu64 " of %" PRIu64 " groups had no document in this input\n", absent,
                    g.ngroups);
    }
    dup_groups_free(&g);
    args_list_free(&o.earlier);
    fs_list_free(&files);
    free(o.inputs);
    return rc < 0 ? err_exit_code(rc) : 0;
}

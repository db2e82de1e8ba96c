/* group_duplicates_main.c - the group_duplicates tool: join similar pairs
 * (find_duplicates output) into groups with union-find; every group keeps one
 * document (the groups: dedup/dupgroups.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/io.h"
#include "dedup/dupgroups.h"

typedef struct {
    const char *out;
    double threshold;
    char **inputs;
    int ninputs;
} options;

/* Returns -1 to go on, else the exit status (--help, --version, usage: printed). */
static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->threshold = 0.9;
    const arg_opt opts[] = {
        { "output", 'o', ARG_STR, &o->out, "FILE", "groups as JSON lines (default stdout)" },
        { "threshold", 't', ARG_DOUBLE, &o->threshold, "T", "join pairs with jaccard >= T (default 0.9)" },
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
    int rc = args_parse_main(&spec, argc, argv, &o->inputs, &o->ninputs);
    if (rc >= 0)
        return rc;
    if (o->threshold >= 0 && o->threshold <= 1)
        return -1;
    fprintf(stderr, "group_duplicates: --threshold is in [0, 1]\n");
    free(o->inputs);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    rc = 0;
    dup_pairs p = {0};
    for (int f = 0; f < (o.ninputs ? o.ninputs : 1) && !rc; f++)
        rc = dup_pairs_read(&p, o.ninputs ? o.inputs[f] : "-", o.threshold);
    io_writer *w = NULL;
    uint64_t groups = 0;
    if (!rc)
        rc = io_writer_open(&w, o.out, NULL);
    if (!rc)
        rc = dup_pairs_write_groups(&p, w, &groups);
    if (!rc)
        rc = io_writer_commit(w);
    else
        io_writer_abort(w);
    if (rc < 0)
        fprintf(stderr, "group_duplicates: %s\n", err_msg());
    else if (!args_quiet_flag)
        fprintf(stderr, "group_duplicates: %zu pairs read, %zu at or above %.2f: %zu documents in %" PRIu64
                " groups; %" PRIu64 " to keep (one per group), %" PRIu64 " to remove\n", p.npairs, p.used / 2,
                o.threshold, p.ids.n, groups, groups, (uint64_t)p.ids.n - groups);
    dup_pairs_free(&p);
    free(o.inputs);
    return rc < 0 ? err_exit_code(rc) : 0;
}

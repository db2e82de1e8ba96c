/* merge_datasets - merge every PREFIX.bin/.idx pair of a directory into one
 * dataset, in sorted prefix order (Megatron's tools/merge_datasets.py). */
#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/args.h"
#include "common/err.h"
#include "common/progress.h"
#include "tokenizer/mmidx.h"

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int exists(const char *dir, const char *name, const char *ext)
{
    char p[PATH_MAX];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s%s", dir, name, ext);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Sorted list of prefixes (without directory) having both .bin and .idx. */
static int list_prefixes(const char *dir, char ***out, size_t *n_out)
{
    DIR *d = opendir(dir);
    if (!d) return err_sys(ERR_IO, "%s: cannot read directory", dir);
    char **v = NULL;
    size_t n = 0;
    int rc = 0;
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || e->d_name[0] == '.') continue;
        const char *ext = e->d_name + l - 4;
        if (strcmp(ext, ".bin") != 0 && strcmp(ext, ".idx") != 0) continue;
        char *p = strndup(e->d_name, l - 4);
        if (!p) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
        int dup = 0;
        for (size_t i = 0; i < n && !dup; i++) dup = strcmp(v[i], p) == 0;
        if (dup) { free(p); continue; }
        const char *other = ext[1] == 'b' ? ".idx" : ".bin";
        if (!exists(dir, p, other)) {
            rc = err_set(ERR_IO, "%s/%s%s has no matching %s%s", dir, p, ext, p, other);
            free(p);
            break;
        }
        char **nv = realloc(v, (n + 1) * sizeof *nv);
        if (!nv) { free(p); rc = err_set(ERR_NOMEM, "out of memory"); break; }
        v = nv;
        v[n++] = p;
    }
    closedir(d);
    if (!rc && n == 0) rc = err_set(ERR_USAGE, "%s: no .bin/.idx pairs to merge", dir);
    if (rc) {
        for (size_t i = 0; i < n; i++) free(v[i]);
        free(v);
        return rc;
    }
    qsort(v, n, sizeof *v, cmp);
    *out = v;
    *n_out = n;
    return 0;
}

int main(int argc, char **argv)
{
    const char *input = NULL, *out = NULL;
    int multimodal = 0;
    const arg_opt opts[] = {
        { "input", 'i', ARG_STR, &input, "DIR", "directory holding the PREFIX.bin/.idx pairs to merge (required)" },
        { "output-prefix", 'o', ARG_STR, &out, "PREFIX", "write PREFIX.bin/.idx (required)" },
        { "multimodal", 0, ARG_FLAG, &multimodal, NULL, "not supported (accepted to say so)" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "merge_datasets", "--input DIR --output-prefix PREFIX",
        "Merge every PREFIX.bin/.idx pair in DIR, in sorted prefix order, into one Megatron dataset, as\n"
        "Megatron-LM's tools/merge_datasets.py does: sequence lengths concatenated, each part's document\n"
        "index shifted by the sequences before it, pointers recomputed in int64 (so > 4 GB works).\n"
        "Every part is validated first; all must have the same dtype.",
        opts,
        "Example:\n"
        "  merge_datasets --input shards/ --output-prefix data/web_text_document\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    free(pos);
    if (!input || !out || npos || multimodal) {
        fprintf(stderr, "merge_datasets: %s\n", multimodal ? "--multimodal is not supported"
                                              : npos ? "unexpected argument (use --input DIR)"
                                                     : "--input and --output-prefix are required");
        return 2;
    }
    char **prefixes = NULL;
    size_t n = 0;
    rc = list_prefixes(input, &prefixes, &n);
    mmidx_builder *b = NULL;
    uint64_t docs = 0;
    char outreal[PATH_MAX] = "";
    {
        /* skip our own output if it already sits in DIR (a rerun) */
        char tmp[PATH_MAX + 8];
        snprintf(tmp, sizeof tmp, "%s.idx", out);
        if (!realpath(tmp, outreal)) outreal[0] = 0;
    }
    double t0 = progress_now();
    size_t used = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        char p[PATH_MAX], pr[PATH_MAX + 8];
        snprintf(p, sizeof p, "%s/%s", input, prefixes[i]);
        snprintf(pr, sizeof pr, "%s.idx", p);
        char real[PATH_MAX];
        if (outreal[0] && realpath(pr, real) && strcmp(real, outreal) == 0) {
            fprintf(stderr, "merge_datasets: skipping %s: it is the output\n", p);
            continue;
        }
        mmidx d;
        if ((rc = mmidx_open(&d, p))) break;
        if (!b) rc = mmidx_builder_open(&b, out, d.dtype);
        if (!rc) rc = mmidx_builder_append(b, &d);
        docs += d.n_doc_idx - 1;
        used++;
        mmidx_close(&d);
    }
    uint64_t seqs = b ? mmidx_builder_sequences(b) : 0, toks = b ? mmidx_builder_tokens(b) : 0;
    if (!rc && b) rc = mmidx_builder_commit(b);
    else mmidx_builder_abort(b);
    for (size_t i = 0; i < n; i++) free(prefixes[i]);
    free(prefixes);
    if (rc < 0) {
        fprintf(stderr, "merge_datasets: %s\n", err_msg());
        return err_exit_code(rc);
    }
    if (!args_quiet_flag)
        fprintf(stderr, "merge_datasets: %zu datasets -> %s.bin/.idx: %" PRIu64 " documents, %" PRIu64
                " sequences, %" PRIu64 " tokens in %.2f s\n", used, out, docs, seqs, toks, progress_now() - t0);
    return 0;
}

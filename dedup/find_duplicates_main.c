/* find_duplicates_main.c - the find_duplicates tool: LSH candidates from
 * MinHash signature files, verified with exact Jaccard of the shingle sets,
 * written as JSON lines of similar pairs (the work is dedup/lsh.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/io.h"
#include "common/pool.h"
#include "common/progress.h"
#include "dedup/lsh.h"
#include "dedup/mhsig.h"

typedef struct {
    const char *out, *denom_s, *range;
    double threshold, min_sim, fpw, fnw;
    long long bands, rows, workers, max_bucket;
    int brute, denom;
    char **files;
    int nfiles;
} options;

/* Returns -1 to go on, else the exit status (--help, --version, usage: printed). */
static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->denom_s = "union";
    o->threshold = 0.8;
    o->min_sim = 0.5;
    o->fpw = 0.05;
    o->fnw = 0.95;
    o->max_bucket = 2000;
    const arg_opt opts[] = {
        { "output", 'o', ARG_STR, &o->out, "FILE", "similar pairs as JSON lines (default stdout; .zst ok)" },
        { "threshold", 't', ARG_DOUBLE, &o->threshold, "T", "Jaccard threshold the bands are tuned for (default 0.8)" },
        { "bands", 'b', ARG_INT, &o->bands, "B", "LSH bands (with --rows; default: chosen from --threshold)" },
        { "rows", 'r', ARG_INT, &o->rows, "R", "rows per band" },
        { "fp-weight", 0, ARG_DOUBLE, &o->fpw, "W", "weight of false positives when choosing bands (default 0.05)" },
        { "fn-weight", 0, ARG_DOUBLE, &o->fnw, "W", "weight of false negatives (default 0.95: candidates are verified,\n"
          "                                so missing a pair costs more than checking one)" },
        { "min-similarity", 'm', ARG_DOUBLE, &o->min_sim, "S", "write verified pairs with Jaccard >= S (default 0.5)" },
        { "denominator", 0, ARG_STR, &o->denom_s, "D", "union (Jaccard, default), min or max of the two set sizes" },
        { "band-range", 0, ARG_STR, &o->range, "LO:HI", "only bands LO..HI-1 (split the work across jobs; concatenate\n"
          "                                their outputs: group_duplicates ignores repeated pairs)" },
        { "max-bucket", 0, ARG_INT, &o->max_bucket, "N", "a bucket of more than N documents gives only the pairs of its\n"
          "                                first member (default 2000; 0 = no limit)" },
        { "brute-force", 0, ARG_FLAG, &o->brute, NULL, "verify every pair of documents (quadratic: for tests)" },
        { "workers", 'j', ARG_INT, &o->workers, "N", "threads (default: all CPUs); output is the same for any N" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "find_duplicates", "[OPTION]... SIGFILE...",
        "Find near-duplicate documents in MinHash signature files (made by minhash with the same\n"
        "parameters): band the signatures (LSH), take every pair sharing a band bucket or the same\n"
        "exact-duplicate hash as a candidate, compute the exact Jaccard similarity of the two shingle\n"
        "sets, and write {\"a\": ID, \"b\": ID, \"jaccard\": S} for each pair at or above --min-similarity\n"
        "(plus \"exact\": true, written whatever S, when the normalised texts are equal), sorted, the same\n"
        "whatever the number of threads or files.",
        opts,
        "Example:\n"
        "  find_duplicates part-*.mh --threshold 0.8 -o pairs.jsonl\n"
        "  find_duplicates all.mh --band-range 0:8 -o p0.jsonl   # job 1 of 2\n",
    };
    int rc = args_parse_main(&spec, argc, argv, &o->files, &o->nfiles);
    if (rc >= 0)
        return rc;
    o->denom = !strcmp(o->denom_s, "union") ? MH_DENOM_UNION : !strcmp(o->denom_s, "min") ? MH_DENOM_MIN
               : !strcmp(o->denom_s, "max") ? MH_DENOM_MAX : -1;
    const char *usage = NULL;
    if (!o->nfiles)
        usage = "give at least one signature file";
    else if (o->denom < 0)
        usage = "--denominator must be union, min or max";
    else if ((o->bands > 0) != (o->rows > 0))
        usage = "--bands and --rows go together";
    else if (o->threshold <= 0 || o->threshold > 1 || o->min_sim < 0 || o->min_sim > 1)
        usage = "--threshold and --min-similarity are in (0, 1]";
    if (!usage)
        return -1;
    fprintf(stderr, "find_duplicates: %s\n", usage);
    free(o->files);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    mh_corpus c;
    rc = mh_corpus_open(&c, o.files, o.nfiles);
    uint32_t K = c.nf ? c.files[0].p.num_perm : 0;
    if (!rc && !o.bands) { /* the bands and rows that suit the threshold */
        uint32_t b, r;
        mh_optimal_bands(o.threshold, K, o.fpw, o.fnw, &b, &r);
        o.bands = b;
        o.rows = r;
    }
    if (!rc && o.bands * o.rows > (long long)K)
        rc = err_set(ERR_USAGE, "--bands x --rows = %lld exceeds num_perm %u", o.bands * o.rows, K);
    long long blo = 0, bhi = o.bands;
    if (!rc && o.range && (sscanf(o.range, "%lld:%lld", &blo, &bhi) != 2 || blo < 0 || bhi > o.bands || blo >= bhi))
        rc = err_set(ERR_USAGE, "--band-range %s: need LO:HI with 0 <= LO < HI <= %lld bands", o.range, o.bands);
    double t0 = progress_now();
    uint64_t dup_ids = 0, *pairs = NULL;
    size_t cand = 0, threads = o.workers > 0 ? (size_t)o.workers : (size_t)pool_cpu_count();
    pool *pl = rc ? NULL : pool_new((int)threads);
    if (!rc && !pl)
        rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc)
        rc = mh_corpus_dup_ids(&c, &dup_ids);
    if (!rc)
        rc = lsh_candidates(&c, blo, bhi, o.rows, (size_t)o.max_bucket, o.brute, &pairs, &cand);
    double *sim = rc ? NULL : malloc((cand ? cand : 1) * sizeof *sim);
    if (!rc && !sim)
        rc = err_set(ERR_NOMEM, "out of memory");
    double t1 = progress_now();
    if (!rc)
        rc = lsh_verify(&c, pairs, cand, o.denom, pl, threads, sim);
    io_writer *w = NULL;
    lsh_written wr = {0};
    if (!rc)
        rc = io_writer_open(&w, o.out, NULL);
    if (!rc)
        rc = lsh_write_pairs(w, &c, pairs, sim, cand, o.min_sim, o.threshold, &wr);
    if (!rc)
        rc = io_writer_commit(w);
    else
        io_writer_abort(w);
    if (rc < 0)
        fprintf(stderr, "find_duplicates: %s\n", err_msg());
    else if (!args_quiet_flag) {
        fprintf(stderr, "find_duplicates: %" PRIu64 " documents in %zu file%s, %lld bands x %lld rows%s%s: %zu candidate "
                "pairs (%.2f s), verified in %.2f s: %" PRIu64 " pairs written (>= %.2f, or exact), %" PRIu64 " of them >= %.2f or exact "
                "(%" PRIu64 " exact duplicates of the normalised text)%s\n",
                c.n_docs, c.nf, c.nf == 1 ? "" : "s", o.bands, o.rows, o.range ? ", bands " : "", o.range ? o.range : "",
                cand, t1 - t0, progress_now() - t1, wr.written, o.min_sim, wr.above, o.threshold, wr.exact,
                o.brute ? " (brute force)" : "");
        if (dup_ids)
            fprintf(stderr, "  warning: %" PRIu64 " ids appear more than once across the files\n", dup_ids);
    }
    mh_corpus_close(&c);
    free(pairs);
    free(sim);
    pool_free(pl);
    free(o.files);
    return rc < 0 ? err_exit_code(rc) : 0;
}

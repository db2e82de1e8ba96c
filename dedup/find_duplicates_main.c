/* find_duplicates_main.c - the find_duplicates tool: LSH candidates from
 * MinHash signature files, verified with exact Jaccard of the shingle sets,
 * written as JSON lines of similar pairs (the work is dedup/lsh.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/io.h"
#include "common/pool.h"
#include "common/progress.h"
#include "dedup/lsh.h"
#include "dedup/lshjob.h"
#include "dedup/mhcol.h"
#include "dedup/mhsig.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    const char *out, *denom_s, *range, *stage, *work_dir;
    double threshold, min_sim, fpw, fnw;
    long long bands, rows, workers, max_bucket;
    uint64_t memory;
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
    o->memory = 1ull << 30;
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
        { "stage", 0, ARG_STR, &o->stage, "S", "version 3 files, one stage of a cluster run (with --work-dir):\n"
          "                                bands: the candidate pairs of --band-range into DIR/cand.LO-HI;\n"
          "                                verify: every DIR/cand.* merged, verified from the sources, -o.\n"
          "                                Without --stage: both, in one process" },
        { "work-dir", 0, ARG_STR, &o->work_dir, "DIR", "where the band jobs' candidate files go (shared by the stages)" },
        { "memory", 0, ARG_SIZE, &o->memory, "SIZE", "memory for the sorts of a job (default 1G; k/M/G suffixes);\n"
          "                                beyond it they spill sorted runs to --work-dir (or $TMPDIR)" },
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
        "whatever the number of threads or files.\n"
        "Version 3 files (minhash's default) hold no texts: a band job reads only its bands' values and\n"
        "sorts their keys in --memory (spilling sorted runs beyond it); verification merges the band\n"
        "jobs' candidates and reads the candidates' texts from the source shards, in order.",
        opts,
        "Example:\n"
        "  find_duplicates part-*.mh --threshold 0.8 -o pairs.jsonl\n"
        "  find_duplicates all.mh --band-range 0:8 -o p0.jsonl   # job 1 of 2\n"
        "  find_duplicates s*.mh --stage bands --band-range 0:4 --work-dir lsh   # band jobs, then\n"
        "  find_duplicates s*.mh --stage verify --work-dir lsh -o pairs.jsonl\n",
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
    else if (o->stage && strcmp(o->stage, "bands") && strcmp(o->stage, "verify"))
        usage = "--stage is bands or verify";
    else if (o->stage && !o->work_dir)
        usage = "--stage needs --work-dir (where the candidate files are shared)";
    else if (o->stage && !strcmp(o->stage, "bands") && o->out)
        usage = "--stage bands writes DIR/cand.LO-HI, not -o";
    if (!usage)
        return -1;
    fprintf(stderr, "find_duplicates: %s\n", usage);
    free(o->files);
    return EXIT_USAGE;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* DIR/cand.* (not the temporaries of unfinished jobs), sorted. */
static int list_cands(const char *dir, char ***out, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d) return err_sys(ERR_IO, "%s", dir);
    char **v = NULL;
    size_t k = 0, cap = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d)) && !rc;) {
        if (strncmp(e->d_name, "cand.", 5)) continue;
        if (k == cap) {
            cap = cap ? cap * 2 : 16;
            char **p = realloc(v, cap * sizeof *p);
            if (!p) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
            v = p;
        }
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        if (!(v[k] = malloc(l))) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
        snprintf(v[k++], l, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (!rc && !k) rc = err_set(ERR_USAGE, "%s: no candidate files (cand.*): run the band jobs first", dir);
    if (rc) {
        for (size_t i = 0; i < k; i++) free(v[i]);
        free(v);
        return rc;
    }
    qsort(v, k, sizeof *v, cmp_str);
    *out = v;
    *n = k;
    return 0;
}

/* Version 3 files: band jobs and verification (dedup/lshjob.h). */
static int run_col(options *o)
{
    mc_corpus c;
    int rc = mc_corpus_open(&c, o->files, o->nfiles);
    uint32_t K = c.nf ? c.files[0].p.num_perm : 0;
    if (!rc && !o->bands) {
        uint32_t b, r;
        mh_optimal_bands(o->threshold, K, o->fpw, o->fnw, &b, &r);
        o->bands = b;
        o->rows = r;
    }
    if (!rc && o->bands * o->rows > (long long)K)
        rc = err_set(ERR_USAGE, "--bands x --rows = %lld exceeds num_perm %u", o->bands * o->rows, K);
    long long blo = 0, bhi = o->bands;
    if (!rc && o->range &&
        (sscanf(o->range, "%lld:%lld", &blo, &bhi) != 2 || blo < 0 || bhi > o->bands || blo >= bhi))
        rc = err_set(ERR_USAGE, "--band-range %s: need LO:HI with 0 <= LO < HI <= %lld bands", o->range, o->bands);
    if (!rc && o->stage && !strcmp(o->stage, "bands") && !o->range && o->bands > 1 && !args_quiet_flag)
        fprintf(stderr, "find_duplicates: note: --stage bands without --band-range does all %lld bands in one job\n",
                o->bands);
    if (!rc && o->work_dir && mkdir(o->work_dir, 0777) < 0 && errno != EEXIST)
        rc = err_sys(ERR_IO, "%s", o->work_dir);
    size_t threads = o->workers > 0 ? (size_t)o->workers : (size_t)pool_cpu_count();
    const char *tmpdir = o->work_dir;
    char *tmp_cand = NULL, **cands = NULL;
    size_t ncands = 0;
    double t0 = progress_now(), t1 = t0;
    lsh_band_stats bs = {0};
    int do_bands = !o->stage || !strcmp(o->stage, "bands"), do_verify = !o->stage || !strcmp(o->stage, "verify");
    if (!rc && do_bands) {
        char name[64];
        if (o->stage) {
            snprintf(name, sizeof name, "cand.%04lld-%04lld", blo, bhi);
        } else { /* one process: a private candidate file, removed at the end */
            char suf[96];
            fs_tmp_suffix(suf, sizeof suf, 0);
            snprintf(name, sizeof name, ".find_duplicates.cand.%.40s", suf);
            if (!tmpdir) tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
            fs_remove_stale_tmp(tmpdir, ".find_duplicates.cand."); /* of runs killed before they removed theirs */
        }
        size_t l = strlen(o->work_dir ? o->work_dir : tmpdir) + strlen(name) + 2;
        if (!(tmp_cand = malloc(l))) rc = err_set(ERR_NOMEM, "out of memory");
        else snprintf(tmp_cand, l, "%s/%s", o->work_dir ? o->work_dir : tmpdir, name);
        lsh_band_opts bo = {o->bands, o->rows, blo, bhi, (size_t)o->max_bucket, o->brute, (size_t)o->memory, tmpdir};
        if (!rc) rc = lsh_band_job(&c, &bo, tmp_cand, &bs);
        t1 = progress_now();
        if (!rc && !args_quiet_flag)
            fprintf(stderr, "find_duplicates: bands %lld..%lld of %lld x %lld rows over %" PRIu64 " documents in %zu "
                    "file%s: %" PRIu64 " keys, %" PRIu64 " candidate pairs in %.2f s; read %.1f MB of signatures, "
                    "spilled %.1f MB%s%s\n", blo, bhi - 1, o->bands, o->rows, c.n_docs, c.nf, c.nf == 1 ? "" : "s",
                    bs.keys, bs.candidates, t1 - t0, bs.sig_bytes_read / 1e6, bs.spilled_bytes / 1e6,
                    o->stage ? " -> " : "", o->stage ? tmp_cand : "");
        if (!rc && !o->stage) {
            cands = &tmp_cand;
            ncands = 1;
        }
    }
    if (!rc && o->stage && do_verify) rc = list_cands(o->work_dir, &cands, &ncands);
    io_writer *w = NULL;
    lsh_verify_stats vs = {0};
    pool *pl = NULL;
    if (!rc && do_verify) {
        pl = pool_new((int)threads);
        if (!pl) rc = err_set(ERR_NOMEM, "out of memory");
        if (!rc) rc = io_writer_open(&w, o->out, NULL);
        lsh_verify_opts vo = {o->denom, o->min_sim, o->threshold, (size_t)o->memory, threads, pl, tmpdir,
                              o->range || !o->stage ? blo : 0, o->range || !o->stage ? bhi : -1};
        if (!rc) rc = lsh_verify_job(&c, cands, ncands, &vo, w, &vs);
        if (!rc) rc = io_writer_commit(w);
        else io_writer_abort(w);
        if (!rc && !args_quiet_flag) {
            fprintf(stderr, "find_duplicates: %" PRIu64 " candidate pairs of %zu candidate file%s naming %" PRIu64
                    " documents, their texts read from the sources (%.1f MB of text, %.1f MB read; %" PRIu64 " shingle sets) and verified in "
                    "%.2f s: %" PRIu64 " pairs written (>= %.2f, or exact), %" PRIu64 " of them >= %.2f or exact "
                    "(%" PRIu64 " exact duplicates of the normalised text)%s\n", vs.candidates, ncands,
                    ncands == 1 ? "" : "s", vs.docs, vs.text_bytes / 1e6, vs.source_bytes_read / 1e6, vs.shingled,
                    progress_now() - t1, vs.w.written, o->min_sim, vs.w.above, o->threshold, vs.w.exact,
                    o->brute ? " (brute force)" : "");
            if (vs.dup_ids)
                fprintf(stderr, "  warning: %" PRIu64 " ids appear more than once across the files\n", vs.dup_ids);
        }
    }
    if (rc < 0) fprintf(stderr, "find_duplicates: %s\n", err_msg());
    if (!o->stage && tmp_cand) unlink(tmp_cand);
    if (o->stage && cands) {
        for (size_t i = 0; i < ncands; i++) free(cands[i]);
        free(cands);
    }
    free(tmp_cand);
    pool_free(pl);
    mc_corpus_close(&c);
    free(o->files);
    return rc < 0 ? err_exit_code(rc) : 0;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    int v3 = 0;
    rc = 0;
    for (int i = 0; i < o.nfiles && !rc; i++) {
        int v = mh_file_version(o.files[i]);
        if (v < 0) rc = v;
        else if (i && (v == MHSIG_VERSION_COL) != v3)
            rc = err_set(ERR_USAGE, "%s is a signature file of version %d, %s of version %d: make them all the same "
                         "way (version 3, or all with minhash --store-text)", o.files[i], v, o.files[0],
                         v3 ? MHSIG_VERSION_COL : 1);
        else v3 = v == MHSIG_VERSION_COL;
    }
    if (!rc && !v3 && o.stage)
        rc = err_set(ERR_USAGE, "--stage needs version 3 signature files; %s keeps its texts (minhash --store-text)",
                     o.files[0]);
    if (rc < 0) {
        fprintf(stderr, "find_duplicates: %s\n", err_msg());
        free(o.files);
        return err_exit_code(rc);
    }
    if (v3)
        return run_col(&o);
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

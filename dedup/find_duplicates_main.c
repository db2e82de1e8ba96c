/* find_duplicates - LSH candidates from MinHash signature files, verified with
 * exact Jaccard of the shingle sets; writes similar pairs as JSON lines. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/hash.h"
#include "common/io.h"
#include "common/pool.h"
#include "common/progress.h"
#include "dedup/idmap.h"
#include "dedup/mhsig.h"

typedef struct {
    uint64_t key;
    uint32_t doc;
} bent;

static int cmp_bent(const void *x, const void *y)
{
    const bent *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->doc > b->doc) - (a->doc < b->doc);
}
static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

typedef struct {
    uint64_t *v;
    size_t n, cap;
} u64vec;

static int push(u64vec *v, uint64_t x)
{
    if (v->n == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 1 << 16;
        uint64_t *p = realloc(v->v, nc * sizeof *p);
        if (!p) return err_set(ERR_NOMEM, "out of memory (candidate pairs)");
        v->v = p;
        v->cap = nc;
    }
    v->v[v->n++] = x;
    return 0;
}

/* pairs of a run of equal keys: all of them, or a star from the first when
 * the run is longer than max_bucket */
static int emit_run(u64vec *pairs, const bent *e, size_t n, size_t max_bucket)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (max_bucket && n > max_bucket && i > 0) return 0;
            int rc = push(pairs, ((uint64_t)e[i].doc << 32) | e[j].doc);
            if (rc) return rc;
        }
    return 0;
}

typedef struct {
    mh_file *files;
    size_t nf;
    uint64_t *base; /* first global index of each file */
} corpus;

static uint64_t doc_at(const corpus *c, uint32_t g, const char **id, uint32_t *il, const char **text, uint32_t *tl)
{
    size_t f = 0;
    uint64_t ex;
    while (f + 1 < c->nf && c->base[f + 1] <= g) f++;
    mh_file_doc(&c->files[f], g - c->base[f], id, il, text, tl, &ex, NULL);
    return ex;
}

typedef struct {
    const corpus *c;
    const mh_params *p;
    const uint64_t *pairs;
    size_t n, parts;
    double *sim;
    int denom;
    int *rc;
} vjob;

static void verify(size_t part, void *ctx)
{
    vjob *j = ctx;
    size_t lo = j->n * part / j->parts, hi = j->n * (part + 1) / j->parts;
    uint64_t *sa = NULL, *sb = NULL;
    size_t ca = 0, cb = 0;
    long na = 0;
    uint32_t cur = UINT32_MAX;
    for (size_t i = lo; i < hi; i++) {
        uint32_t a = (uint32_t)(j->pairs[i] >> 32), b = (uint32_t)j->pairs[i];
        const char *t;
        uint32_t tl;
        if (a != cur) {
            doc_at(j->c, a, NULL, NULL, &t, &tl);
            na = mh_shingles(j->p, t, tl, &sa, &ca);
            cur = a;
        }
        doc_at(j->c, b, NULL, NULL, &t, &tl);
        long nb = mh_shingles(j->p, t, tl, &sb, &cb);
        if (na < 0 || nb < 0) { j->rc[part] = ERR_NOMEM; break; }
        j->sim[i] = mh_jaccard(sa, (size_t)na, sb, (size_t)nb, j->denom);
    }
    free(sa);
    free(sb);
}

static int put_json_str(io_writer *w, const char *s, size_t n)
{
    char buf[512];
    size_t o = 0;
    buf[o++] = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (o > sizeof buf - 8) {
            int rc = io_write(w, buf, o);
            if (rc) return rc;
            o = 0;
        }
        if (c == '"' || c == '\\') { buf[o++] = '\\'; buf[o++] = (char)c; }
        else if (c < 0x20) o += (size_t)snprintf(buf + o, 8, "\\u%04x", c);
        else buf[o++] = (char)c;
    }
    buf[o++] = '"';
    return io_write(w, buf, o);
}

int main(int argc, char **argv)
{
    const char *out = NULL, *denom_s = "union", *range = NULL;
    double threshold = 0.8, min_sim = 0.5, fpw = 0.05, fnw = 0.95;
    long long bands = 0, rows = 0, workers = 0, max_bucket = 2000;
    int brute = 0;
    const arg_opt opts[] = {
        { "output", 'o', ARG_STR, &out, "FILE", "similar pairs as JSON lines (default stdout; .zst ok)" },
        { "threshold", 't', ARG_DOUBLE, &threshold, "T", "Jaccard threshold the bands are tuned for (default 0.8)" },
        { "bands", 'b', ARG_INT, &bands, "B", "LSH bands (with --rows; default: chosen from --threshold)" },
        { "rows", 'r', ARG_INT, &rows, "R", "rows per band" },
        { "fp-weight", 0, ARG_DOUBLE, &fpw, "W", "weight of false positives when choosing bands (default 0.05)" },
        { "fn-weight", 0, ARG_DOUBLE, &fnw, "W", "weight of false negatives (default 0.95: candidates are verified,\n"
          "                                so missing a pair costs more than checking one)" },
        { "min-similarity", 'm', ARG_DOUBLE, &min_sim, "S", "write verified pairs with Jaccard >= S (default 0.5)" },
        { "denominator", 0, ARG_STR, &denom_s, "D", "union (Jaccard, default), min or max of the two set sizes" },
        { "band-range", 0, ARG_STR, &range, "LO:HI", "only bands LO..HI-1 (split the work across jobs; concatenate\n"
          "                                their outputs: group_duplicates ignores repeated pairs)" },
        { "max-bucket", 0, ARG_INT, &max_bucket, "N", "a bucket of more than N documents gives only the pairs of its\n"
          "                                first member (default 2000; 0 = no limit)" },
        { "brute-force", 0, ARG_FLAG, &brute, NULL, "verify every pair of documents (quadratic: for tests)" },
        { "workers", 'j', ARG_INT, &workers, "N", "threads (default: all CPUs); output is the same for any N" },
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
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    rc = 0;
    int denom = strcmp(denom_s, "union") == 0 ? MH_DENOM_UNION : strcmp(denom_s, "min") == 0 ? MH_DENOM_MIN
              : strcmp(denom_s, "max") == 0 ? MH_DENOM_MAX : -1;
    const char *usage = NULL;
    if (!npos) usage = "give at least one signature file";
    else if (denom < 0) usage = "--denominator must be union, min or max";
    else if ((bands > 0) != (rows > 0)) usage = "--bands and --rows go together";
    else if (threshold <= 0 || threshold > 1 || min_sim < 0 || min_sim > 1) usage = "--threshold and --min-similarity are in (0, 1]";
    if (usage) { fprintf(stderr, "find_duplicates: %s\n", usage); free(pos); return 2; }
    corpus c = {calloc((size_t)npos, sizeof(mh_file)), (size_t)npos, calloc((size_t)npos + 1, sizeof(uint64_t))};
    if (!c.files || !c.base) { fprintf(stderr, "find_duplicates: out of memory\n"); return 4; }
    uint64_t N = 0;
    for (int i = 0; i < npos && !rc; i++) {
        rc = mh_file_open(&c.files[i], pos[i], i ? &c.files[0].p : NULL);
        if (!rc) { c.base[i] = N; N += c.files[i].n_docs; }
        else c.nf = (size_t)i;
    }
    c.base[npos] = N;
    mh_params prm = rc ? (mh_params){0} : c.files[0].p;
    uint32_t K = prm.num_perm;
    if (!rc && N >= UINT32_MAX) rc = err_set(ERR_LIMIT, "more than 2^32 documents: shard by band range and id range");
    if (!rc && !bands) {
        uint32_t b, r;
        mh_optimal_bands(threshold, K, fpw, fnw, &b, &r);
        bands = b;
        rows = r;
    }
    if (!rc && bands * rows > (long long)K) rc = err_set(ERR_USAGE, "--bands x --rows = %lld exceeds num_perm %u", bands * rows, K);
    long long blo = 0, bhi = bands;
    if (!rc && range && (sscanf(range, "%lld:%lld", &blo, &bhi) != 2 || blo < 0 || bhi > bands || blo >= bhi))
        rc = err_set(ERR_USAGE, "--band-range %s: need LO:HI with 0 <= LO < HI <= %lld bands", range, bands);
    double t0 = progress_now();
    /* duplicate ids across files */
    idmap ids = {0};
    uint64_t dup_ids = 0;
    for (uint64_t g = 0; g < N && !rc; g++) {
        const char *id;
        uint32_t il;
        doc_at(&c, (uint32_t)g, &id, &il, NULL, NULL);
        int added;
        long x = idmap_put(&ids, id, il, &added);
        if (x < 0) rc = (int)x;
        else if (!added && dup_ids++ < 5)
            fprintf(stderr, "find_duplicates: warning: id \"%.*s\" appears twice across the signature files\n", (int)il, id);
    }
    u64vec pairs = {0};
    size_t parts = workers > 0 ? (size_t)workers : (size_t)pool_cpu_count();
    pool *pl = pool_new((int)parts);
    bent *be = malloc((N ? N : 1) * sizeof *be);
    uint32_t *sig = malloc((size_t)K * 4);
    if (!rc && (!be || !sig || !pl)) rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc && brute) {
        for (uint64_t a = 0; a < N && !rc; a++)
            for (uint64_t b = a + 1; b < N && !rc; b++) rc = push(&pairs, (a << 32) | b);
    } else if (!rc) {
        for (long long band = blo; band < bhi && !rc; band++) {
            for (uint64_t g = 0; g < N; g++) {
                size_t f = 0;
                while (f + 1 < c.nf && c.base[f + 1] <= g) f++;
                mh_file_doc(&c.files[f], g - c.base[f], NULL, NULL, NULL, NULL, NULL, sig);
                be[g] = (bent){hash64(sig + band * rows, (size_t)rows * 4, (uint64_t)band), (uint32_t)g};
            }
            qsort(be, N, sizeof *be, cmp_bent);
            for (size_t i = 0; i < N && !rc;) {
                size_t j = i + 1;
                while (j < N && be[j].key == be[i].key) j++;
                if (j - i > 1) rc = emit_run(&pairs, be + i, j - i, (size_t)max_bucket);
                i = j;
            }
        }
        if (!rc && blo == 0) { /* exact duplicates of the normalised text */
            for (uint64_t g = 0; g < N; g++) {
                size_t f = 0;
                while (f + 1 < c.nf && c.base[f + 1] <= g) f++;
                uint64_t ex;
                mh_file_doc(&c.files[f], g - c.base[f], NULL, NULL, NULL, NULL, &ex, NULL);
                be[g] = (bent){ex, (uint32_t)g};
            }
            qsort(be, N, sizeof *be, cmp_bent);
            for (size_t i = 0; i < N && !rc;) {
                size_t j = i + 1;
                while (j < N && be[j].key == be[i].key) j++;
                if (j - i > 1) rc = emit_run(&pairs, be + i, j - i, (size_t)max_bucket);
                i = j;
            }
        }
    }
    size_t cand = 0;
    if (!rc && pairs.n) {
        qsort(pairs.v, pairs.n, sizeof *pairs.v, cmp_u64);
        size_t u = 1;
        for (size_t i = 1; i < pairs.n; i++)
            if (pairs.v[i] != pairs.v[u - 1]) pairs.v[u++] = pairs.v[i];
        pairs.n = u;
    }
    cand = pairs.n;
    double *sim = malloc((cand ? cand : 1) * sizeof *sim);
    int *prc = calloc(parts, sizeof *prc);
    if (!rc && (!sim || !prc)) rc = err_set(ERR_NOMEM, "out of memory");
    double t1 = progress_now();
    if (!rc && cand) {
        vjob j = {&c, &prm, pairs.v, cand, parts * 8, sim, denom, NULL};
        int *rcs = calloc(j.parts, sizeof *rcs);
        j.rc = rcs;
        if (!rcs) rc = err_set(ERR_NOMEM, "out of memory");
        else {
            pool_parallel_for(pl, j.parts, verify, &j);
            for (size_t p = 0; p < j.parts && !rc; p++)
                if (rcs[p]) rc = err_set(rcs[p], "out of memory verifying candidates");
            free(rcs);
        }
    }
    io_writer *w = NULL;
    uint64_t written = 0, above = 0, n_exact = 0;
    if (!rc) rc = io_writer_open(&w, out, NULL);
    for (size_t i = 0; i < cand && !rc; i++) {
        const char *ia, *ib;
        uint32_t la, lb;
        uint64_t ea = doc_at(&c, (uint32_t)(pairs.v[i] >> 32), &ia, &la, NULL, NULL);
        uint64_t eb = doc_at(&c, (uint32_t)pairs.v[i], &ib, &lb, NULL, NULL);
        int exact = ea == eb;
        if (sim[i] < min_sim && !exact) continue;
        char num[64];
        rc = io_write(w, "{\"a\": ", 6);
        if (!rc) rc = put_json_str(w, ia, la);
        if (!rc) rc = io_write(w, ", \"b\": ", 7);
        if (!rc) rc = put_json_str(w, ib, lb);
        int nl = snprintf(num, sizeof num, ", \"jaccard\": %.6f%s}\n", sim[i], exact ? ", \"exact\": true" : "");
        if (!rc) rc = io_write(w, num, (size_t)nl);
        written++;
        if (sim[i] >= threshold || exact) above++;
        n_exact += exact;
    }
    if (!rc) rc = io_writer_commit(w);
    else io_writer_abort(w);
    if (rc < 0) fprintf(stderr, "find_duplicates: %s\n", err_msg());
    else if (!args_quiet_flag) {
        double t2 = progress_now();
        fprintf(stderr, "find_duplicates: %" PRIu64 " documents in %zu file%s, %lld bands x %lld rows%s%s: %zu candidate "
                "pairs (%.2f s), verified in %.2f s: %" PRIu64 " pairs written (>= %.2f, or exact), %" PRIu64 " of them >= %.2f or exact "
                "(%" PRIu64 " exact duplicates of the normalised text)%s\n",
                N, c.nf, c.nf == 1 ? "" : "s", bands, rows, range ? ", bands " : "", range ? range : "", cand, t1 - t0,
                t2 - t1, written, min_sim, above, threshold, n_exact, brute ? " (brute force)" : "");
        if (dup_ids) fprintf(stderr, "  warning: %" PRIu64 " ids appear more than once across the files\n", dup_ids);
    }
    for (size_t i = 0; i < c.nf; i++) mh_file_close(&c.files[i]);
    free(c.files);
    free(c.base);
    free(pairs.v);
    free(sim);
    free(prc);
    free(be);
    free(sig);
    idmap_free(&ids);
    pool_free(pl);
    free(pos);
    return rc < 0 ? err_exit_code(rc) : 0;
}

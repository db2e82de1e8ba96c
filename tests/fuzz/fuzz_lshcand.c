/* fuzz_lshcand - find_duplicates' candidate files (dedup/lshjob.h) on arbitrary bytes, given to
 * a verification job over a small valid corpus (its version 3 signature file and its source,
 * written once): the header checks (corpus, banding, band cover), then pairs out of order, out
 * of range or repeated. No crash; every refusal an error, never an output. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io.h"
#include "common/pool.h"
#include "dedup/lshjob.h"
#include "dedup/mhcol.h"

static char dir[64], src[96], sig[96], cand[96], out[96];
static mc_corpus corpus;
static pool *pl;

static void cleanup(void)
{
    mc_corpus_close(&corpus);
    pool_free(pl);
    unlink(src), unlink(sig), unlink(cand), unlink(out);
    rmdir(dir);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "%s/fuzz_lshcand.%d", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid());
    if (mkdir(dir, 0700)) abort();
    snprintf(src, sizeof src, "%s/docs.jsonl", dir);
    snprintf(sig, sizeof sig, "%s/sig.mh", dir);
    snprintf(cand, sizeof cand, "%s/cand.0000-0002", dir);
    snprintf(out, sizeof out, "%s/pairs.jsonl", dir);
    FILE *f = fopen(src, "w");
    for (int i = 0; i < 6; i++) fprintf(f, "{\"url\": \"u%d\", \"text\": \"text number %d of six, much alike\"}\n", i, i % 3);
    if (fclose(f)) abort();
    mh_params p = {4, MH_CHAR, 5, 1, MH_CLASSIC};
    mh_hasher h;
    mc_writer *w;
    char *srcs[1] = {src};
    if (mh_hasher_init(&h, &p) || mc_writer_open(&w, sig, &p, "url", "text", srcs, 1)) abort();
    uint64_t *sh = NULL;
    size_t cap = 0;
    for (int i = 0; i < 6; i++) {
        char t[64];
        int tl = snprintf(t, sizeof t, "text number %d of six, much alike", i % 3);
        long ns = mh_shingles_raw(&p, t, (size_t)tl, &sh, &cap);
        uint32_t s[4];
        mh_signature(&h, sh, (size_t)ns, s);
        char id[8];
        int il = snprintf(id, sizeof id, "u%d", i);
        if (mc_writer_add(w, 0, (uint64_t)i + 1, (uint32_t)tl, mh_exact_hash(t, (size_t)tl), 0 * il, s)) abort();
    }
    free(sh);
    mh_hasher_free(&h);
    if (mc_writer_commit(w)) abort();
    char *sigs[1] = {sig};
    if (mc_corpus_open(&corpus, sigs, 1)) abort();
    pl = pool_new(1);
    atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (!dir[0]) setup();
    FILE *f = fopen(cand, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f)) abort();
    /* the corpus ident and size where the fuzzer's header leaves them, so the pairs get read */
    if (n >= 32) {
        f = fopen(cand, "r+b");
        fseek(f, 16, SEEK_SET);
        fwrite(&corpus.ident, 8, 1, f);
        fwrite(&corpus.n_docs, 8, 1, f);
        fclose(f);
    }
    io_writer *w;
    if (io_writer_open(&w, out, NULL)) abort();
    lsh_verify_opts o = {MH_DENOM_UNION, 0.0, 0.8, 1 << 16, 1, pl, dir, 0, -1};
    lsh_verify_stats st;
    char *cands[1] = {cand};
    if (lsh_verify_job(&corpus, cands, 1, &o, w, &st) == 0) io_writer_commit(w);
    else io_writer_abort(w);
    return 0;
}

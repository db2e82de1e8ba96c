/* fuzz_mhcol - version 3 signature files (dedup/mhcol.h) on arbitrary bytes: the header, the
 * source table, the block layout checked by mc_open; then every column of every block read
 * and a band job over the file (sorts in 4 KB: every run spilled). No crash, no read past a
 * block. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dedup/lshjob.h"
#include "dedup/mhcol.h"

static char dir[64], path[96], cand[96];
static void cleanup(void)
{
    unlink(path);
    unlink(cand);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/fuzz_mhcol.%d", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid());
        if (mkdir(dir, 0700)) abort();
        snprintf(path, sizeof path, "%s/sig.mh", dir);
        snprintf(cand, sizeof cand, "%s/cand", dir);
        atexit(cleanup);
    }
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f)) abort();
    char *paths[1] = {path};
    mc_corpus c;
    if (mc_corpus_open(&c, paths, 1) == 0) {
        mc_file *mf = &c.files[0];
        if (mf->n_docs <= 4096 && mf->p.num_perm <= 64) {
            static uint32_t vals[64 * 4096 * 2];
            static uint64_t facts[4096 * 2];
            for (uint64_t j = 0; j < mf->n_blocks && mf->block_docs <= 4096; j++) {
                mc_read_values(mf, j, 0, mf->p.num_perm, vals);
                for (int k = 0; k < MC_NCOLS; k++) mc_read_facts(mf, j, k, facts);
            }
            lsh_band_opts o = {2, mf->p.num_perm / 2 ? mf->p.num_perm / 2 : 1, 0, 2, 3, 0, 4096, dir};
            if (o.rows * 2 > (long long)mf->p.num_perm) o.bands = 1, o.hi = 1, o.rows = mf->p.num_perm;
            lsh_band_stats st;
            if (mf->block_docs <= 4096) lsh_band_job(&c, &o, cand, &st);
            unlink(cand);
        }
    }
    mc_corpus_close(&c);
    return 0;
}

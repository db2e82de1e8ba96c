/* fuzz_gptidx - the trainer's sample-index cache (gptidx_cache_load) on
 * arbitrary bytes, with the header's config hash and the trailing checksum
 * set right by the harness (otherwise nearly every input stops at the
 * checksum), so that the consistency checks after it are what is fuzzed; then
 * every sample read through the loaded index (gptidx_sample) from a small
 * real dataset. A consistent-looking cache may be refused, never trusted into
 * a read outside the dataset.
 * FUZZ_GPTIDX_SEED=FILE writes a real cache of this dataset there and exits. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#include "common/hash.h"
#include "train/data/gptdata.h"

enum { NSEQ = 7, L = 8, NS = 12 };
static char dir[64], prefix[80], cache[96];
static mmidx ds;
static uint64_t H;

static void cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) {}
}

static void make_dataset(void)
{
    snprintf(dir, sizeof dir, "%s/fuzz_gptidx.XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(dir)) abort();
    atexit(cleanup);
    snprintf(prefix, sizeof prefix, "%s/d", dir);
    snprintf(cache, sizeof cache, "%s/c.gptidx", dir);
    static const int32_t len[NSEQ] = { 5, 1, 17, 3, 0, 9, 11 };
    int64_t doc[NSEQ + 1];
    char p[96];
    snprintf(p, sizeof p, "%s.bin", prefix);
    FILE *f = fopen(p, "wb");
    if (!f) abort();
    uint16_t t = 0;
    for (int i = 0; i < NSEQ; i++)
        for (int j = 0; j < len[i]; j++, t++)
            if (fwrite(&t, 2, 1, f) != 1) abort();
    if (fclose(f)) abort();
    for (int i = 0; i <= NSEQ; i++) doc[i] = i;
    snprintf(p, sizeof p, "%s.idx", prefix);
    if (mmidx_write_index(p, MMIDX_UINT16, len, NSEQ, doc, NSEQ + 1)) abort();
    if (mmidx_open(&ds, prefix)) abort();
    H = gptidx_config_hash(&ds, GPTDATA_TRAIN, 0, NSEQ, NS, L, 1234);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    make_dataset();
    const char *seed = getenv("FUZZ_GPTIDX_SEED");
    if (seed) { /* the trainer's own cache of this dataset, for the corpus */
        gptdata d;
        const char *paths[1] = { prefix };
        gptdata_config c = { paths, NULL, 1, "100,0,0", { NS, 0, 0 }, L, 1234, NULL, 1 };
        if (gptdata_open(&d, &c)) abort();
        gptdata_close(&d);
        DIR *dp = opendir(dir);
        struct dirent *e;
        char p[512];
        while (dp && (e = readdir(dp)))
            if (strstr(e->d_name, ".gptidx")) {
                snprintf(p, sizeof p, "cp '%s/%s' '%s'", dir, e->d_name, seed);
                exit(system(p) ? 1 : 0);
            }
        exit(1);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (n < 56) return 0;
    uint8_t *b = malloc(n);
    if (!b) return 0;
    memcpy(b, data, n);
    memcpy(b + 16, &H, 8);
    uint64_t sum = hash64(b, n - 8, 0);
    memcpy(b + n - 8, &sum, 8);
    FILE *f = fopen(cache, "wb");
    if (!f || fwrite(b, 1, n, f) != n || fclose(f)) abort();
    free(b);
    gptidx g;
    int c = gptidx_cache_load(&g, &ds, 0, NSEQ, NS, L, cache, H);
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_GPTIDX_VERBOSE") != NULL;
    if (verbose) fprintf(stderr, "fuzz_gptidx: %zu bytes: %s\n", n, c == 0 ? "loaded" : "refused");
    if (c == 0) {
        int32_t out[L + 1];
        for (int64_t i = 0; i < g.n_samples && i < 256; i++) gptidx_sample(&g, &ds, L, i, out);
        gptidx_free(&g);
    }
    return 0;
}

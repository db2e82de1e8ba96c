/* fuzz_idx - the Megatron .idx reader (mmidx_open) on arbitrary bytes beside a
 * .bin whose size the input chooses, then every read the tools make through
 * it: sequence lengths, pointers, document index, tokens. No crash, no read
 * outside either mapping: mmidx_open must refuse an index that does not fit.
 * Input: 2 bytes (little-endian .bin size in bytes), then the .idx. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tokenizer/mmidx.h"

static char dir[64], prefix[80], binp[96], idxp[96];

static void cleanup(void)
{
    unlink(binp);
    unlink(idxp);
    rmdir(dir);
}

static void put(const char *path, const uint8_t *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(d, 1, n, f) != n) || fclose(f)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (!prefix[0]) { /* in memory when /dev/shm is there: the target writes two files per input */
        snprintf(dir, sizeof dir, "%s/fuzz_idx.XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(dir)) abort();
        atexit(cleanup);
        snprintf(prefix, sizeof prefix, "%s/d", dir);
        snprintf(binp, sizeof binp, "%s.bin", prefix);
        snprintf(idxp, sizeof idxp, "%s.idx", prefix);
    }
    if (n < 2) return 0;
    size_t bn = (size_t)data[0] | (size_t)data[1] << 8;
    static uint8_t bin[65536];
    for (size_t i = 0; i < bn; i++) bin[i] = (uint8_t)(i * 131 + 7);
    put(binp, bin, bn);
    put(idxp, data + 2, n - 2);
    mmidx d;
    if (mmidx_open(&d, prefix) == 0) {
        int64_t s = 0;
        for (uint64_t i = 0; i < d.n_seq && i < 4096; i++) {
            int32_t len = mmidx_length(&d, i);
            s += mmidx_pointer(&d, i);
            for (int32_t j = 0; j < len && j < 64; j++) s += mmidx_token(&d, i, (uint64_t)j);
        }
        for (uint64_t k = 0; k < d.n_doc_idx && k < 4096; k++) s += mmidx_doc_index(&d, k);
        (void)s;
        mmidx_close(&d);
    }
    return 0;
}

/* fuzz_mhsig - the MinHash signature file reader (mh_file_open: header,
 * trailer, record walk) on arbitrary bytes, then every record read the way
 * find_duplicates reads it. No crash, no read outside the mapping. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dedup/mhsig.h"

static char path[64];
static void cleanup(void) { unlink(path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "%s/fuzz_mhsig.%d", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid());
        atexit(cleanup);
    }
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f)) abort();
    mh_file m;
    if (mh_file_open(&m, path, NULL) == 0) {
        static uint32_t sig[4096];
        uint64_t s = 0;
        for (uint64_t i = 0; i < m.n_docs; i++) {
            const char *id, *text;
            uint32_t il, tl;
            uint64_t ex;
            mh_file_doc(&m, i, &id, &il, &text, &tl, &ex, sig);
            if (il) s += (uint8_t)id[il - 1];
            if (tl) s += (uint8_t)text[tl - 1];
            s += ex + sig[m.p.num_perm - 1];
        }
        (void)s;
        mh_file_close(&m);
    }
    return 0;
}

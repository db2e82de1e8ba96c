/* fuzz_ckpt - the two binary formats the trainer reads from users' disks: a
 * safetensors file (st_open + every tensor read) and a checkpoint (header,
 * size and checksum checks, then loading when the header is consistent). No
 * crash, no read outside the file, no allocation the file size does not back. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "train/model/ckpt.h"
#include "train/model/safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    char path[] = "/tmp/fuzz_ckpt.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        abort();
    if (write(fd, data, n) != (ssize_t)n)
        abort();
    close(fd);
    st_file f;
    if (st_open(&f, path) == 0) {
        double s = 0;
        for (int i = 0; i < f.n; i++)
            for (int64_t k = 0; k < st_numel(&f.t[i]) && k < 64; k++)
                s += st_get(&f.t[i], k);
        (void)s;
        st_close(&f);
    }
    gpt_config cfg;
    ckpt_state st;
    if (ckpt_read_header(path, &cfg, &st) == 0 && gpt_num_params(&cfg) < (1u << 20)) {
        gpt_model m;
        if (gpt_alloc(&m, &cfg) == 0) {
            ckpt_load(path, &m, &st);
            gpt_free(&m);
        }
    }
    unlink(path);
    return 0;
}

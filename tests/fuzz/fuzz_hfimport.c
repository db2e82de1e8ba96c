/* fuzz_hfimport - `convert_checkpoint --from hf` on a hostile download: the
 * config.json reader and the model.safetensors reader together, through
 * hf_import. The input is config.json, then the separator "\0SAFETENSORS\0",
 * then model.safetensors (the seeds are real exports of small GPT-2 models, in
 * transformers' naming and GPT2Model's). No crash, no undefined behaviour, no
 * allocation that the file does not back (the config's sizes are checked
 * against the tensors before the model is allocated). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "train/model/gpt.h"
#include "train/model/hfconv.h"

static const char SEP[] = "\0SAFETENSORS\0";
enum { SEP_LEN = sizeof SEP - 1 };

static char dir[64], cfg_path[96], st_path[96];

static void put(const char *path, const uint8_t *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(d, 1, n, f) != n) || fclose(f))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/dev/shm/fuzz_hfimport.%d", (int)getpid());
        if (access("/dev/shm", W_OK) != 0)
            snprintf(dir, sizeof dir, "/tmp/fuzz_hfimport.%d", (int)getpid());
        mkdir(dir, 0700);
        snprintf(cfg_path, sizeof cfg_path, "%s/config.json", dir);
        snprintf(st_path, sizeof st_path, "%s/model.safetensors", dir);
    }
    size_t cut = n;
    for (size_t i = 0; i + SEP_LEN <= n; i++)
        if (data[i] == 0 && !memcmp(data + i, SEP, SEP_LEN)) {
            cut = i;
            break;
        }
    put(cfg_path, data, cut);
    if (cut < n)
        put(st_path, data + cut + SEP_LEN, n - cut - SEP_LEN);
    else
        put(st_path, data, 0);
    gpt_model m;
    if (hf_import(&m, dir) == 0) {
        volatile float s = 0;
        for (size_t i = 0; i < m.num_params; i += 97)
            s += m.params[i];
        gpt_free(&m);
    }
    return 0;
}

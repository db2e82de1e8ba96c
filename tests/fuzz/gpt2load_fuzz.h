/* gpt2load_fuzz.h - bpe_load's one-pass readers (encoder.json straight into token bytes,
 * the common merge line) against its general ones (bpe_encoder_direct_off): for
 * fuzz_encoder and fuzz_gpt2merges, the two loads of the same files must give the same
 * message or the same tables (bpe_load_compare); abort() otherwise. */
#ifndef TESTS_FUZZ_GPT2LOAD_FUZZ_H
#define TESTS_FUZZ_GPT2LOAD_FUZZ_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tokenizer/bpe_int.h"

/* path in /dev/shm (or /tmp) for this process: name, then the pid */
static void fuzz_tmp_path(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/fuzz_%s.%d", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", name, (int)getpid());
}

static void fuzz_write(const char *path, const void *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(d, 1, n, f) != n) || fclose(f)) abort();
}

static void gpt2_load_compare(const char *enc, const char *merges)
{
    char why[2400];
    if (!bpe_load_compare(enc, merges, why, sizeof why)) {
        fprintf(stderr, "%s\n", why);
        abort();
    }
}

#endif

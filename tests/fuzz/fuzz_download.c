/* libFuzzer target: what download reads back and from the network besides robots.txt:
 * WARC files of earlier runs (warcw_scan_mem: gzip members, record fields, the HTTP
 * status and payload length; plain and salvage modes), a response header's
 * Retry-After, and the rewriting of a response header into the stored one. */
#include "preprocess/web/fetch.h"
#include "preprocess/web/warcwrite.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void on_rec(void *ctx, const char *url, const char *final_url, int status, uint64_t len)
{
    (void)status;
    (void)len;
    if (!url || !final_url) abort();
    (*(long *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long seen = 0;
    size_t good = 0;
    long k = warcw_scan_mem(data, size, "fuzz", 1, &good, on_rec, &seen);
    if (k < 0 || k != seen || good > size) abort();
    long k2 = warcw_scan_mem(data, size, "fuzz", 0, NULL, NULL, NULL);
    if (k2 >= 0 && k2 != k) abort();
    /* the bytes as a response header */
    double ra = fetch_retry_after((const char *)data, size, 1700000000);
    if (!(ra == -1 || ra >= 0)) abort();
    size_t cap = size + 64;
    char *out = malloc(cap);
    if (out) {
        size_t n = warcw_rewrite_header((const char *)data, size, size, out, cap);
        if (n > cap) abort();
        free(out);
    }
    return 0;
}

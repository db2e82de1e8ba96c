/* libFuzzer target: substr_dedup's work-file reader (dedup/substr_shard.c: the shards'
 * spans and fingerprints, the cross-shard spans) over arbitrary bytes, read as each kind.
 * Must never crash, hang or leak; errors are fine, and what it accepts keeps its promises:
 * spans in order, apart and not empty, within the records counted; fingerprints of the
 * header's shard and hash range, in document order. */
#include "dedup/substr_shard.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1 << 16) || size < 1)
        return 0;
    /* the settings a run would want: those of the file's own header when it has one, so
     * the entries are reached (a kind out of range read as one of the three) */
    ss_header want = {SS_SPANS, 2, 0, 50, 4, 4, 1, UINT32_MAX, 25, 0};
    if (size >= 48)
        memcpy(&want, data + 8, sizeof want);
    want.kind = 1 + (want.kind + 2) % 3;
    if (want.nranges == 0 || want.nranges > 1000)
        want.nranges = 4;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    ss_reader r;
    if (ss_reader_open_stream(&r, f, size, "fuzz", &want) == 0) {
        union {
            ss_span s;
            ss_fp p;
        } e, last;
        uint64_t n = 0;
        int k;
        while ((k = ss_reader_next(&r, &e)) == 1) {
            if (want.kind == SS_FPRINTS) {
                if (e.p.doc >= r.nrecords || e.p.shard != want.shard || (n && e.p.doc < last.p.doc))
                    abort();
            } else if (e.s.start >= e.s.end || e.s.doc >= r.nrecords ||
                       (n && (e.s.doc < last.s.doc || (e.s.doc == last.s.doc && e.s.start < last.s.end)))) {
                abort();
            }
            last = e;
            n++;
        }
        if (k == 0 && n != r.count)
            abort();
    }
    ss_reader_close(&r);
    return 0;
}

/* shuffle - seeded, deterministic shuffle of lines (JSON-lines documents),
 * in memory or out of core under a memory bound (extshuf.h). */
#include "common/args.h"
#include "common/err.h"
#include "common/io.h"
#include "preprocess/shuffle/extshuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *output = NULL, *tmpdir = NULL;
    long long seed = 1234;
    uint64_t memory = 1ull << 30;
    const arg_opt opts[] = {
        { "output", 'o', ARG_STR, &output, "FILE", "write here instead of stdout (.zst compresses; written atomically)" },
        { "seed", 's', ARG_INT, &seed, "N", "random seed (default 1234); same seed + same input = same output" },
        { "memory", 'm', ARG_SIZE, &memory, "SIZE", "bound on the working set, e.g. 512M, 4G (default 1G; below 256M a .zst\n                                output is compressed in one thread)" },
        { "temporary-directory", 'T', ARG_STR, &tmpdir, "DIR", "bucket files go here (default $TMPDIR or /tmp)" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "shuffle", "[OPTION]... [INPUT]...",
        "Shuffle the lines of INPUTs (concatenated; plain, .zst or .gz by content; none or '-' for stdin)\n"
        "into a seeded random order. Inputs larger than --memory are shuffled out of core through\n"
        "temporary bucket files; the order depends only on the seed and the input, never on --memory.",
        opts,
        "Examples:\n"
        "  shuffle --seed 7 docs.jsonl.zst -o shuffled.jsonl.zst\n"
        "  shuffle --memory 2G -T /scratch big.jsonl > shuffled.jsonl   # Megatron: shuf big.jsonl -o ...\n"
        "Exit status: 0 done, 1 bad input, 2 usage, 3 I/O error, 4 out of memory.\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    static const char *const stdin_only[] = { "-" };
    const char *const *inputs = npos ? (const char *const *)pos : stdin_only;
    size_t n_inputs = npos ? (size_t)npos : 1;
    if (!tmpdir) tmpdir = getenv("TMPDIR");
    if (!tmpdir || !*tmpdir) tmpdir = "/tmp";
    extshuf_opts o = { .seed = (uint64_t)seed, .memory = memory, .tmpdir = tmpdir };
    extshuf_stats st;
    io_writer *w = NULL;
    /* zstd's worker threads hold about 20 MB each: under a small bound, a
     * .zst output is compressed in this thread. */
    io_writer_opts wo = { .compress = -1, .threads = memory < (256ull << 20) ? 1 : 0 };
    rc = io_writer_open(&w, output, &wo);
    if (rc == 0) rc = extshuf_run(inputs, n_inputs, w, &o, &st);
    if (rc == 0) rc = io_writer_commit(w);
    else io_writer_abort(w);
    free(pos);
    if (rc < 0) {
        fprintf(stderr, "shuffle: %s\n", err_msg());
        return err_exit_code(rc);
    }
    if (!args_quiet_flag) {
        char b1[32], b2[32];
        if (st.buckets)
            fprintf(stderr, "shuffle: %" PRIu64 " lines (%s) shuffled with seed %lld out of core: %" PRIu64
                    " bucket files in %s, %d level%s, %s spilled\n",
                    st.lines, args_fmt_bytes((double)st.bytes, b1, sizeof b1), seed, st.buckets, tmpdir, st.levels,
                    st.levels == 1 ? "" : "s", args_fmt_bytes((double)st.spilled, b2, sizeof b2));
        else
            fprintf(stderr, "shuffle: %" PRIu64 " lines (%s) shuffled with seed %lld in memory\n", st.lines,
                    args_fmt_bytes((double)st.bytes, b1, sizeof b1), seed);
    }
    return 0;
}

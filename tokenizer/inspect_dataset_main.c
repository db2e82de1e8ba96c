/* inspect_dataset - validate a Megatron .bin/.idx pair, print its counts and
 * length statistics, and decode documents back to text. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "tokenizer/bpe.h"
#include "tokenizer/mmidx.h"
#include "tokenizer/tokcli.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int print_doc(const mmidx *d, const bpe *b, uint64_t k, int ids_only)
{
    int64_t lo = mmidx_doc_index(d, k), hi = mmidx_doc_index(d, k + 1);
    uint32_t *ids = NULL;
    size_t n = 0, cap = 0;
    for (int64_t s = lo; s < hi; s++) {
        int32_t len = mmidx_length(d, (uint64_t)s);
        for (int32_t j = 0; j < len; j++) {
            if (n == cap) {
                cap = cap ? cap * 2 : 1024;
                uint32_t *ni = realloc(ids, cap * sizeof *ids);
                if (!ni) { free(ids); return err_set(ERR_NOMEM, "out of memory"); }
                ids = ni;
            }
            int64_t t = mmidx_token(d, (uint64_t)s, (uint64_t)j);
            if (t < 0 || t > UINT32_MAX) { free(ids); return err_set(ERR_CORRUPT, "%s.bin: document %" PRIu64 ": token %lld is not a token id", d->prefix, k, (long long)t); }
            ids[n++] = (uint32_t)t;
        }
    }
    int rc = 0;
    if (ids_only) {
        for (size_t i = 0; i < n; i++) printf(i ? " %u" : "%u", ids[i]);
        printf("\n");
    } else {
        char *text = NULL;
        size_t tl = 0, tc = 0;
        rc = bpe_decode(b, ids, n, &text, &tl, &tc);
        if (rc) rc = err_set(rc, "%s: document %" PRIu64 ": %s", d->prefix, k, err_msg());
        else {
            fwrite(text ? text : "", 1, tl, stdout);
            printf("\n");
        }
        free(text);
    }
    free(ids);
    return rc;
}

int main(int argc, char **argv)
{
    args_list docs = {0};
    tokcli_spec ts = {0};
    int ids_only = 0;
    const arg_opt opts[] = {
        { "doc", 'd', ARG_LIST, &docs, "N", "decode document N (0-based; negative counts from the end) to stdout;\n"
          "                                repeatable; the statistics then go to stderr" },
        { "ids", 0, ARG_FLAG, &ids_only, NULL, "with --doc: print the token ids instead of text" },
        TOKCLI_OPTS(ts),
        { "vocab-size", 0, ARG_INT, &ts.vocab_size, "N", "NullTokenizer's vocabulary size" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "inspect_dataset", "[OPTION]... PREFIX",
        "Validate the Megatron dataset PREFIX.bin + PREFIX.idx against every invariant of the format\n"
        "(FORMATS.md section 1), then print its counts and length statistics. PREFIX may also be given\n"
        "with its .bin or .idx suffix. Exit status 1 names the first broken invariant.",
        opts,
        "Examples:\n"
        "  inspect_dataset data/build/corpus_text_document\n"
        "  inspect_dataset -d 0 -d -1 data/build/corpus_text_document   # first and last documents\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    if (npos != 1) {
        fprintf(stderr, "inspect_dataset: give one PREFIX (see --help)\n");
        free(pos);
        args_list_free(&docs);
        return 2;
    }
    char *prefix = strdup(pos[0]);
    free(pos);
    size_t pl = strlen(prefix);
    if (pl > 4 && (strcmp(prefix + pl - 4, ".bin") == 0 || strcmp(prefix + pl - 4, ".idx") == 0)) prefix[pl - 4] = 0;
    mmidx d;
    rc = mmidx_open(&d, prefix);
    bpe *b = NULL;
    if (!rc && docs.n && !ids_only) rc = tokcli_open(&b, &ts);
    FILE *sf = docs.n ? stderr : stdout;
    if (!rc) {
        uint64_t nd = d.n_doc_idx - 1, empty = 0, tokens = 0;
        uint64_t *dl = malloc((nd ? nd : 1) * sizeof *dl);
        if (!dl) rc = err_set(ERR_NOMEM, "out of memory");
        for (uint64_t k = 0; !rc && k < nd; k++) {
            uint64_t t = 0;
            for (int64_t s = mmidx_doc_index(&d, k); s < mmidx_doc_index(&d, k + 1); s++) t += (uint64_t)mmidx_length(&d, (uint64_t)s);
            dl[k] = t;
            tokens += t;
            if (mmidx_doc_index(&d, k) == mmidx_doc_index(&d, k + 1)) empty++;
        }
        int64_t max_id = -1, min_id = INT64_MAX;
        size_t item = d.itemsize;
        uint64_t nt = d.bin_size / item;
        for (uint64_t i = 0; !rc && i < nt; i++) {
            int64_t t;
            switch (d.dtype) {
            case MMIDX_UINT16: { uint16_t v; memcpy(&v, d.bin + i * 2, 2); t = v; break; }
            case MMIDX_INT32: { int32_t v; memcpy(&v, d.bin + i * 4, 4); t = v; break; }
            default: t = mmidx_token(&d, 0, 0); i = nt; break; /* other dtypes: not scanned */
            }
            if (t > max_id) max_id = t;
            if (t < min_id) min_id = t;
        }
        if (!rc) {
            fprintf(sf, "%s.bin/.idx: valid Megatron MMIDIDX v1 dataset\n", prefix);
            fprintf(sf, "  dtype       %s (%zu bytes/token)\n", mmidx_dtype_name(d.dtype), d.itemsize);
            fprintf(sf, "  documents   %" PRIu64 " (%" PRIu64 " empty)\n", nd, empty);
            fprintf(sf, "  sequences   %" PRIu64 "\n", d.n_seq); /* the unit GPT training splits and samples */
            fprintf(sf, "  tokens      %" PRIu64 " (%.1f MB .bin, %.1f MB .idx)\n", tokens, d.bin_size / 1e6, d.idx_size / 1e6);
            if (nt && (d.dtype == MMIDX_UINT16 || d.dtype == MMIDX_INT32))
                fprintf(sf, "  token ids   %lld .. %lld\n", (long long)min_id, (long long)max_id);
            if (nd) {
                qsort(dl, nd, sizeof *dl, cmp_u64);
                fprintf(sf, "  doc length  min %" PRIu64 ", median %" PRIu64 ", mean %.1f, p90 %" PRIu64 ", p99 %" PRIu64
                        ", max %" PRIu64 " tokens\n", dl[0], dl[nd / 2], (double)tokens / nd, dl[(nd * 9) / 10],
                        dl[(nd * 99) / 100], dl[nd - 1]);
            }
            if (b && max_id >= (int64_t)bpe_vocab_size(b) && bpe_token_bytes(b, (uint32_t)max_id, &(size_t){0}) == NULL)
                fprintf(sf, "  warning: token id %lld is outside the vocabulary\n", (long long)max_id);
        }
        free(dl);
        for (size_t i = 0; !rc && i < docs.n; i++) {
            char *end;
            long long k = strtoll(docs.items[i], &end, 10);
            if (end == docs.items[i] || *end) { rc = err_set(ERR_USAGE, "--doc %s: not a number", docs.items[i]); break; }
            if (k < 0) k += (long long)nd;
            if (k < 0 || (uint64_t)k >= nd) { rc = err_set(ERR_USAGE, "--doc %s: the dataset has %" PRIu64 " documents", docs.items[i], nd); break; }
            rc = print_doc(&d, b, (uint64_t)k, ids_only);
        }
        mmidx_close(&d);
    }
    bpe_free(b);
    free(prefix);
    args_list_free(&docs);
    if (rc < 0) {
        fprintf(stderr, "inspect_dataset: %s\n", err_msg());
        return err_exit_code(rc);
    }
    return 0;
}

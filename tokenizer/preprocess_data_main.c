/* preprocess_data_main.c - the preprocess_data tool (the encoding: docenc.c,
 * the dataset files: mmidx.c).
 *
 * preprocess_data - JSON lines to Megatron-LM mmap datasets
 * ({prefix}_{key}_document.bin/.idx), like Megatron's tools/preprocess_data.py
 * with GPT2BPETokenizer, multi-threaded, output independent of --workers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/progress.h"
#include "common/tally.h"
#include "tokenizer/bpe.h"
#include "tokenizer/docenc.h"
#include "tokenizer/mmidx.h"
#include "tokenizer/tokcli.h"

typedef struct {
    size_t n_keys, n_parts;
    mmidx_builder **b;   /* [part * n_keys + key] */
    char **prefix;       /* same layout */
    int strict, keep_seq;
    uint64_t records, warned, empty_docs, log_interval;
    double t0;
    uint64_t text_bytes;
} pp_state;

static int on_doc(void *ctx, const docenc_doc *d)
{
    pp_state *s = ctx;
    uint64_t rec = s->records++;
    if (d->status != DOC_OK) {
        char msg[600];
        if (d->status == DOC_BAD_JSON)
            snprintf(msg, sizeof msg, "%s:%llu: invalid JSON near column %zu", d->file, (unsigned long long)d->lineno,
                     d->err_col);
        else
            snprintf(msg, sizeof msg, "%s:%llu: key \"%s\" %s", d->file, (unsigned long long)d->lineno, d->bad_key,
                     d->status == DOC_MISSING_KEY ? "is missing" : "is not a string or a list of strings");
        if (s->strict) return err_set(ERR_FORMAT, "%s (--strict)", msg);
        if (s->warned++ < 10) fprintf(stderr, "preprocess_data: warning: %s: record dropped\n", msg);
        else if (s->warned == 11) fprintf(stderr, "preprocess_data: warning: further warnings not shown (see the summary)\n");
        return 0;
    }
    s->text_bytes += d->text_bytes;
    size_t part = s->n_parts == 1 ? 0 : s->keep_seq ? (size_t)((rec / 1000000) % s->n_parts) : (size_t)(rec % s->n_parts);
    for (size_t k = 0; k < s->n_keys; k++) {
        mmidx_builder *b = s->b[part * s->n_keys + k];
        const uint32_t *ids = d->ids[k];
        for (size_t q = 0; q < d->n_seq[k]; q++) {
            int rc = mmidx_add_sequence(b, ids, d->seq_len[k][q]);
            if (rc) return rc;
            ids += d->seq_len[k][q];
        }
        if (k == 0 && d->n_seq[k] == 0) s->empty_docs++;
        int rc = mmidx_end_document(b);
        if (rc) return rc;
    }
    if (s->log_interval && s->records % s->log_interval == 0) {
        double dt = progress_now() - s->t0;
        fprintf(stderr, "Processed %" PRIu64 " documents (%.1f docs/s, %.2f MB/s).\n", s->records,
                dt > 0 ? s->records / dt : 0, dt > 0 ? s->text_bytes / 1e6 / dt : 0);
    }
    return 0;
}

static char *fmt_prefix(const char *out, const char *part, const char *key)
{
    size_t n = strlen(out) + strlen(part) + strlen(key) + 16;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s%s_%s_document", out, part, key);
    return p;
}

static void remove_pair(const char *prefix)
{
    size_t n = strlen(prefix) + 5;
    char *p = malloc(n);
    if (!p) return;
    snprintf(p, n, "%s.bin", prefix);
    unlink(p);
    snprintf(p, n, "%s.idx", prefix);
    unlink(p);
    free(p);
}

typedef struct {
    args_list inputs, keys;
    const char *out, *impl;
    tokcli_spec ts;
    long long workers, partitions, log_interval;
    int eod, strict, split, keep_nl, keep_seq;
    char **pos;
    int npos;
} options;

/* Returns -1 to go on, else the exit status (--help, --version, usage: printed). */
static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->workers = o->partitions = 1;
    const arg_opt opts[] = {
        { "input", 'i', ARG_NARGS, &o->inputs, "PATH", "JSON-lines input: file, directory or glob (.zst/.gz ok); repeatable" },
        { "output-prefix", 'o', ARG_STR, &o->out, "PREFIX", "write PREFIX_KEY_document.bin/.idx (required)" },
        { "json-keys", 0, ARG_NARGS, &o->keys, "KEY", "keys to extract, one dataset each (default: text)" },
        { "append-eod", 0, ARG_FLAG, &o->eod, NULL, "append the tokenizer's EOD id to every non-empty document" },
        { "workers", 'j', ARG_INT, &o->workers, "N", "encoding threads (default 1); output is identical for any N" },
        { "partitions", 0, ARG_INT, &o->partitions, "N", "Megatron's partitions: documents are dealt round-robin to N\n"
          "                                parts, merged in part order (default 1: input order)" },
        { "keep-sequential-samples", 0, ARG_FLAG, &o->keep_seq, NULL, "with --partitions: deal blocks of 1,000,000 documents" },
        { "log-interval", 0, ARG_INT, &o->log_interval, "N", "print a progress line every N documents (default: a live\n"
          "                                line on a terminal only)" },
        TOKCLI_OPTS(o->ts),
        { "vocab-size", 0, ARG_INT, &o->ts.vocab_size, "N", "NullTokenizer: the input is space-separated ids below N;\n"
          "                                EOD is N" },
        { "dataset-impl", 0, ARG_STR, &o->impl, "IMPL", "mmap (the only one; accepted for compatibility)" },
        { "split-sentences", 0, ARG_FLAG, &o->split, NULL, "not supported (Megatron uses NLTK punkt)" },
        { "keep-newlines", 0, ARG_FLAG, &o->keep_nl, NULL, "accepted for compatibility (only matters with sentence splitting)" },
        { "strict", 0, ARG_FLAG, &o->strict, NULL, "stop at the first bad record (default: drop it, warn and count it)" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "preprocess_data", "--input PATH... --output-prefix PREFIX [OPTION]...",
        "Tokenize JSON-lines documents into Megatron-LM's mmap indexed dataset (FORMATS.md section 1)\n"
        "with GPT-2's byte-level BPE or another tokenizer (--tokenizer-type: tiktoken files, Hugging Face\n"
        "tokenizer.json, SentencePiece .model, NullTokenizer), ids equal to the tokenizer's own library.\n"
        "One document per line, one sequence per document (a list of strings gives one sequence per\n"
        "non-empty string); tokens are uint16 when the vocabulary has fewer than 65,500 entries, else\n"
        "int32 (Megatron's rule).\n"
        "Records that are not JSON, lack a key, or hold a non-string are dropped, counted and reported.",
        opts,
        "Examples:\n"
        "  preprocess_data --input corpus.jsonl.zst --output-prefix data/gpt2 --append-eod --workers 2\n"
        "  preprocess_data --input 'shards/*.jsonl.zst' --output-prefix out/web --json-keys text title\n"
        "  preprocess_data --input c.jsonl --output-prefix data/llama3 --append-eod \\\n"
        "    --tokenizer-type TikTokenizer --tokenizer-model build/tokenizers/llama3.tiktoken\n"
        "  preprocess_data --input c.jsonl --output-prefix data/ds --tokenizer-type HuggingFaceTokenizer \\\n"
        "    --tokenizer-model build/tokenizers/deepseek_v3      # a folder holding tokenizer.json\n"
        "Positional arguments are inputs too. Megatron's form, which works unchanged:\n"
        "  python tools/preprocess_data.py --input X --output-prefix P --vocab-file gpt2-vocab.json \\\n"
        "    --merge-file gpt2-merges.txt --tokenizer-type GPT2BPETokenizer --append-eod --workers 2\n"
        "Exit status: 0 done, 1 bad input (with --strict), 2 usage, 3 I/O error, 4 out of memory.\n",
    };
    int rc = args_parse_main(&spec, argc, argv, &o->pos, &o->npos);
    if (rc >= 0)
        return rc;
    const char *usage = NULL;
    if (!o->out) usage = "--output-prefix is required";
    else if (!o->inputs.n && !o->npos) usage = "--input is required (a file, directory or glob; '-' for stdin)";
    else if (o->workers < 1 || o->workers > 1024) usage = "--workers must be in 1..1024";
    else if (o->partitions < 1 || o->partitions > 4096) usage = "--partitions must be in 1..4096";
    else if (o->log_interval < 0) usage = "--log-interval must be >= 0";
    else if (o->split) usage = "--split-sentences is not supported (one sequence per document; give a list of strings\n"
                            "  under the key to make several sequences)";
    else if (o->impl && strcmp(o->impl, "mmap") != 0) usage = "--dataset-impl: only mmap is supported";
    for (size_t i = 0; i < o->keys.n && !usage; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(o->keys.items[i], o->keys.items[j]) == 0) usage = "--json-keys: a key is given twice";
    if (usage) {
        fprintf(stderr, "preprocess_data: %s\n", usage);
        free(o->pos);
        args_list_free(&o->inputs);
        args_list_free(&o->keys);
        return EXIT_USAGE;
    }
    return -1;
}

/* Megatron's merge step: each key's partitions, in order, into its final
 * prefix; the partitions' files removed. */
static int merge_partitions(pp_state *s, const char *const *final_prefix, int dtype, int rc)
{
    size_t nk = s->n_keys, nb = s->n_parts * nk;
    for (size_t k = 0; k < nk && !rc; k++) {
        mmidx_builder *m = NULL;
        rc = mmidx_builder_open(&m, final_prefix[k], dtype);
        for (size_t p = 0; p < s->n_parts && !rc; p++) {
            mmidx d;
            rc = mmidx_open(&d, s->prefix[p * nk + k]);
            if (!rc)
                rc = mmidx_builder_append(m, &d);
            if (!rc)
                mmidx_close(&d);
        }
        if (!rc)
            rc = mmidx_builder_commit(m);
        else
            mmidx_builder_abort(m);
    }
    for (size_t i = 0; i < nb; i++)
        if (s->prefix[i])
            remove_pair(s->prefix[i]);
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    rc = 0;
    static const char *const default_keys[] = {"text"};
    const char *const *key_v = o.keys.n ? o.keys.items : default_keys;
    size_t nk = o.keys.n ? o.keys.n : 1;
    fs_list files = {0};
    for (size_t i = 0; i < o.inputs.n && !rc; i++) rc = fs_expand(&files, o.inputs.items[i], fs_jsonl_suffixes);
    for (int i = 0; i < o.npos && !rc; i++) rc = fs_expand(&files, o.pos[i], fs_jsonl_suffixes);
    bpe *b = NULL;
    pp_state s = {.n_keys = nk, .n_parts = (size_t)o.partitions, .strict = o.strict, .keep_seq = o.keep_seq,
                  .log_interval = (uint64_t)o.log_interval, .t0 = progress_now()};
    docenc_stats st = {0};
    size_t nb = s.n_parts * nk;
    char **final_prefix = calloc(nk, sizeof *final_prefix);
    s.b = calloc(nb, sizeof *s.b);
    s.prefix = calloc(nb, sizeof *s.prefix);
    int dtype = 0;
    if (!rc && (!s.b || !s.prefix || !final_prefix)) rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc) rc = tokcli_open(&b, &o.ts);
    if (!rc && o.eod && bpe_eod(b) < 0)
        rc = err_set(ERR_USAGE, "--append-eod: the tokenizer %s has no end-of-document token", o.ts.model ? o.ts.model : "");
    if (!rc) dtype = mmidx_dtype_for_vocab(bpe_vocab_size(b));
    for (size_t k = 0; k < nk && !rc; k++)
        if (!(final_prefix[k] = fmt_prefix(o.out, "", key_v[k]))) rc = err_set(ERR_NOMEM, "out of memory");
    for (size_t p = 0; p < s.n_parts && !rc; p++)
        for (size_t k = 0; k < nk && !rc; k++) {
            char part[32] = "";
            if (s.n_parts > 1) snprintf(part, sizeof part, "_partition%zu", p);
            s.prefix[p * nk + k] = fmt_prefix(o.out, part, key_v[k]);
            if (!s.prefix[p * nk + k]) rc = err_set(ERR_NOMEM, "out of memory");
            else rc = mmidx_builder_open(&s.b[p * nk + k], s.prefix[p * nk + k], dtype);
        }
    if (!rc) {
        docenc_opts dopt = {.bpe = b, .keys = key_v, .n_keys = nk, .append_eod = o.eod, .workers = (int)o.workers,
                         .progress_label = "preprocess_data"};
        rc = docenc_run(&dopt, (const char *const *)files.paths, files.n, on_doc, &s, &st);
    }
    uint64_t *kseq = calloc(nk, sizeof *kseq), *ktok = calloc(nk, sizeof *ktok);
    if (!rc && (!kseq || !ktok)) rc = err_set(ERR_NOMEM, "out of memory");
    for (size_t p = 0; p < s.n_parts && !rc; p++)
        for (size_t k = 0; k < nk; k++) {
            kseq[k] += mmidx_builder_sequences(s.b[p * nk + k]);
            ktok[k] += mmidx_builder_tokens(s.b[p * nk + k]);
        }
    for (size_t i = 0; i < nb; i++) {
        if (!rc) rc = mmidx_builder_commit(s.b[i]);
        else mmidx_builder_abort(s.b[i]);
        s.b[i] = NULL;
    }
    if (s.n_parts > 1)
        rc = merge_partitions(&s, (const char *const *)final_prefix, dtype, rc);
    double dt = progress_now() - s.t0;
    if (rc < 0) fprintf(stderr, "preprocess_data: %s\n", err_msg());
    else if (!args_quiet_flag) {
        tally t;
        tally_init(&t);
        tally_add_kept(&t, st.by_status[DOC_OK]);
        tally_add(&t, tally_reason_id(&t, "bad-json"), st.by_status[DOC_BAD_JSON], 0);
        tally_add(&t, tally_reason_id(&t, "missing-key"), st.by_status[DOC_MISSING_KEY], 0);
        tally_add(&t, tally_reason_id(&t, "not-string"), st.by_status[DOC_NOT_STRING], 0);
        char note[96];
        snprintf(note, sizeof note, "from %zu input%s; %" PRIu64 " blank lines skipped", files.n,
                 files.n == 1 ? "" : "s", st.blank_lines);
        tally_summary(&t, stderr, "preprocess_data", "documents", NULL, note);
        fprintf(stderr, "  %.1f MB of text -> %" PRIu64 " tokens in %.2f s: %.1f MB/s, %.2f M tokens/s, %lld worker%s\n",
                st.text_bytes / 1e6, st.tokens, dt, dt > 0 ? st.text_bytes / 1e6 / dt : 0,
                dt > 0 ? st.tokens / 1e6 / dt : 0, o.workers, o.workers == 1 ? "" : "s");
        fprintf(stderr, "  kept documents: %" PRIu64 " of them empty (a document boundary, no sequence)\n", s.empty_docs);
        for (size_t k = 0; k < nk; k++)
            fprintf(stderr, "  wrote    %s.bin/.idx (%s): %" PRIu64 " documents, %" PRIu64 " sequences, %" PRIu64
                    " tokens\n", final_prefix[k], mmidx_dtype_name(dtype), st.by_status[DOC_OK], kseq[k], ktok[k]);
    }
    free(kseq);
    free(ktok);
    for (size_t i = 0; i < nb; i++) free(s.prefix[i]);
    for (size_t k = 0; k < nk; k++) free(final_prefix[k]);
    free(final_prefix);
    free(s.prefix);
    free(s.b);
    bpe_free(b);
    fs_list_free(&files);
    args_list_free(&o.inputs);
    args_list_free(&o.keys);
    free(o.pos);
    return rc < 0 ? err_exit_code(rc) : 0;
}

/* tokenize - GPT-2 BPE on the command line: JSON lines or raw text to token
 * ids, and ids back to text. For pipelines, checks and benchmarks; datasets
 * for training are made by preprocess_data. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/io.h"
#include "common/progress.h"
#include "tokenizer/bpe.h"
#include "tokenizer/docenc.h"
#include "tokenizer/tokcli.h"

typedef struct {
    io_writer *w;
    char *line;
    size_t cap;
    int strict;
    uint64_t warned;
} tk_state;

/* "000".."999", three characters in each 32-bit word: the table (4 KB) stays
 * in the first-level cache. */
static uint32_t dig3[1000];

static void digits_table(void)
{
    for (uint32_t v = 0; v < 1000; v++)
        dig3[v] = (uint32_t)('0' + v / 100) | (uint32_t)('0' + v / 10 % 10) << 8 | (uint32_t)('0' + v % 10) << 16;
}

/* The digits of v < 10^6 and a space at out (8 bytes of room), with no branch
 * on v: two three-digit groups and the space in one word, the leading zeros
 * shifted out. Returns the bytes written. (Writing the ids was an eighth of
 * tokenize's time with printf-like code; a table of every id's digits missed
 * the cache.) */
static inline size_t put_u6digits_sp(char *out, uint32_t v)
{
    uint64_t w = (uint64_t)dig3[v / 1000] | (uint64_t)dig3[v % 1000] << 24 | (uint64_t)' ' << 48;
    /* the leading '0' digits: the low bytes of w that equal '0' (at most five: the sixth
     * digit always stays) */
    uint64_t z = (w ^ 0x303030303030ull) | (1ull << 40);
    uint32_t lz = (uint32_t)__builtin_ctzll(z) >> 3;
    w >>= 8 * lz;
    memcpy(out, &w, 8);
    return 7 - lz;
}

static int put_ids(tk_state *s, const uint32_t *ids, size_t n)
{
    if (s->cap < n * 11 + 9) {
        free(s->line);
        s->cap = n * 11 + 9;
        s->line = malloc(s->cap);
        if (!s->line) return err_set(ERR_NOMEM, "out of memory");
    }
    char *line = s->line;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = ids[i];
        if (v < 1000000) {
            o += put_u6digits_sp(line + o, v); /* the line has 8 bytes to spare */
            continue;
        }
        char tmp[12];
        int k = 0;
        do { tmp[k++] = (char)('0' + v % 10); v /= 10; } while (v);
        while (k) line[o++] = tmp[--k];
        line[o++] = ' ';
    }
    if (o) o--; /* the last id's space */
    line[o++] = '\n';
    return io_write(s->w, line, o);
}

static int on_doc(void *ctx, const docenc_doc *d)
{
    tk_state *s = ctx;
    if (d->status != DOC_OK) {
        char msg[600];
        if (d->status == DOC_BAD_JSON)
            snprintf(msg, sizeof msg, "%s:%llu: invalid JSON near column %zu", d->file, (unsigned long long)d->lineno, d->err_col);
        else
            snprintf(msg, sizeof msg, "%s:%llu: key \"%s\" %s", d->file, (unsigned long long)d->lineno, d->bad_key,
                     d->status == DOC_MISSING_KEY ? "is missing" : "is not a string or a list of strings");
        if (s->strict) return err_set(ERR_FORMAT, "%s", msg);
        if (s->warned++ < 10) fprintf(stderr, "tokenize: warning: %s (empty line written)\n", msg);
        return io_write(s->w, "\n", 1);
    }
    size_t total = 0;
    for (size_t q = 0; q < d->n_seq[0]; q++) total += d->seq_len[0][q];
    return put_ids(s, d->ids[0], total);
}

static int decode_lines(const bpe *b, const char *const *inputs, size_t n, io_writer *w)
{
    uint32_t *ids = NULL;
    size_t cap = 0;
    char *text = NULL;
    size_t tcap = 0;
    int rc = 0;
    for (size_t f = 0; f < n && !rc; f++) {
        io_reader *r;
        if ((rc = io_reader_open(&r, inputs[f]))) break;
        char *line;
        size_t len;
        while (!rc && (rc = io_getline(r, &line, &len)) == 1) {
            size_t k = 0;
            char *p = line, *end;
            rc = 0;
            for (;;) {
                while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r') p++;
                if (!*p) break;
                unsigned long long v = strtoull(p, &end, 10);
                if (end == p || v > UINT32_MAX) {
                    rc = err_set(ERR_FORMAT, "%s:%llu: not a token id: \"%.20s\"", io_reader_name(r),
                                 (unsigned long long)io_reader_lineno(r), p);
                    break;
                }
                if (k == cap) {
                    cap = cap ? cap * 2 : 1024;
                    uint32_t *ni = realloc(ids, cap * sizeof *ids);
                    if (!ni) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
                    ids = ni;
                }
                ids[k++] = (uint32_t)v;
                p = end;
            }
            if (rc) break;
            size_t tl = 0;
            if ((rc = bpe_decode(b, ids, k, &text, &tl, &tcap))) {
                rc = err_set(rc, "%s:%llu: %s", io_reader_name(r), (unsigned long long)io_reader_lineno(r), err_msg());
                break;
            }
            if ((rc = io_write(w, text ? text : "", tl))) break;
            rc = io_write(w, "\n", 1);
        }
        io_reader_close(r);
    }
    free(ids);
    free(text);
    return rc < 0 ? rc : 0;
}

static int encode_whole(const bpe *b, const char *const *inputs, size_t n, io_writer *w, tk_state *s)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int rc = 0;
    for (size_t f = 0; f < n && !rc; f++) {
        io_reader *r;
        if ((rc = io_reader_open(&r, inputs[f]))) break;
        for (;;) {
            if (cap - len < (1 << 16)) {
                cap = cap ? cap * 2 : (1 << 20);
                char *nb = realloc(buf, cap);
                if (!nb) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
                buf = nb;
            }
            ssize_t got = io_read(r, buf + len, cap - len);
            if (got < 0) { rc = (int)got; break; }
            if (got == 0) break;
            len += (size_t)got;
        }
        io_reader_close(r);
    }
    bpe_ctx *c = bpe_ctx_new(b);
    bpe_ids ids = {0};
    if (!rc && !c) rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc) rc = bpe_encode(c, buf ? buf : "", len, &ids);
    if (!rc) rc = put_ids(s, ids.v, ids.n);
    bpe_ids_free(&ids);
    bpe_ctx_free(c);
    free(buf);
    (void)w;
    return rc;
}

int main(int argc, char **argv)
{
    const char *output = NULL, *key = "text";
    tokcli_spec ts = {0};
    long long workers = 1;
    int decode = 0, text = 0, eod = 0, strict = 0;
    const arg_opt opts[] = {
        { "output", 'o', ARG_STR, &output, "FILE", "write here instead of stdout (.zst compresses)" },
        { "json-key", 'k', ARG_STR, &key, "KEY", "JSON key holding the text (default text; a.b reaches into objects)" },
        { "text", 't', ARG_FLAG, &text, NULL, "the whole input is one raw text (not JSON lines)" },
        { "decode", 'd', ARG_FLAG, &decode, NULL, "input lines are ids separated by spaces; print their text" },
        { "append-eod", 0, ARG_FLAG, &eod, NULL, "append the tokenizer's EOD id to every non-empty document" },
        { "workers", 'j', ARG_INT, &workers, "N", "encoding threads (default 1); output is the same for any N" },
        { "strict", 0, ARG_FLAG, &strict, NULL, "stop at the first bad record instead of writing an empty line" },
        TOKCLI_OPTS(ts),
        { "vocab-size", 0, ARG_INT, &ts.vocab_size, "N", "NullTokenizer: ids are below N (EOD is N)" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "tokenize", "[OPTION]... [INPUT]...",
        "Encode JSON-lines documents (plain, .zst or .gz; none or '-' for stdin) with GPT-2's byte-level\n"
        "BPE or another tokenizer (--tokenizer-type), one output line of space-separated token ids per\n"
        "input record, in input order. Gives the same ids as the tokenizer's own library (tiktoken's\n"
        "encode_ordinary, tokenizers' encode, sentencepiece's encode). Invalid UTF-8 becomes U+FFFD first.",
        opts,
        "Examples:\n"
        "  echo -n 'hello world' | tokenize --text          # 31373 995\n"
        "  tokenize -j 2 docs.jsonl.zst -o ids.txt\n"
        "  echo 31373 995 | tokenize --decode               # hello world\n"
        "  tokenize --tokenizer-type TikTokenizer --tokenizer-model cl100k_base.tiktoken --text < a.txt\n"
        "  tokenize --tokenizer-type HuggingFaceTokenizer --tokenizer-model path/to/tokenizer.json docs.jsonl\n"
        "  tokenize --tokenizer-type GPTSentencePieceTokenizer --tokenizer-model tokenizer.model docs.jsonl\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    static const char *const stdin_only[] = { "-" };
    const char *const *inputs = npos ? (const char *const *)pos : stdin_only;
    size_t n_inputs = npos ? (size_t)npos : 1;
    if (workers < 1 || workers > 1024) {
        fprintf(stderr, "tokenize: --workers must be in 1..1024\n");
        free(pos);
        return 2;
    }
    bpe *b = NULL;
    io_writer *w = NULL;
    tk_state s = {.strict = strict};
    docenc_stats st = {0};
    double t0 = progress_now();
    rc = tokcli_open(&b, &ts);
    if (!rc) rc = io_writer_open(&w, output, NULL);
    digits_table();
    s.w = w;
    if (!rc) {
        if (decode) rc = decode_lines(b, inputs, n_inputs, w);
        else if (text) rc = encode_whole(b, inputs, n_inputs, w, &s);
        else {
            const char *keys[1] = {key};
            docenc_opts o = {.bpe = b, .keys = keys, .n_keys = 1, .append_eod = eod, .workers = (int)workers,
                             .progress_label = "tokenize"};
            rc = docenc_run(&o, inputs, n_inputs, on_doc, &s, &st);
        }
    }
    if (!rc) rc = io_writer_commit(w);
    else io_writer_abort(w);
    free(s.line);
    bpe_free(b);
    free(pos);
    if (rc < 0) {
        fprintf(stderr, "tokenize: %s\n", err_msg());
        return err_exit_code(rc);
    }
    if (!decode && !text && !args_quiet_flag) {
        double dt = progress_now() - t0;
        fprintf(stderr, "tokenize: %" PRIu64 " records, %" PRIu64 " tokens from %.1f MB of text in %.2f s "
                "(%.1f MB/s, %.2f M tokens/s); dropped: %" PRIu64 " bad-json, %" PRIu64 " missing-key, %" PRIu64
                " not-string; %" PRIu64 " blank lines skipped\n",
                st.records, st.tokens, st.text_bytes / 1e6, dt, dt > 0 ? st.text_bytes / 1e6 / dt : 0,
                dt > 0 ? st.tokens / 1e6 / dt : 0, st.by_status[DOC_BAD_JSON], st.by_status[DOC_MISSING_KEY],
                st.by_status[DOC_NOT_STRING], st.blank_lines);
    }
    return 0;
}

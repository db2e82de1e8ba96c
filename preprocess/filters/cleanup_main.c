/* cleanup_main.c - the cleanup tool: its options, the loop over batches and
 * the summary; the stage itself is preprocess/filters/cleanup.c.
 *
 * cleanup - the OpenWebText cleanup stage (Megatron tools/openwebtext/
 * cleanup_dataset.py and cleanup_fix_dataset.py) as one multi-threaded tool.
 *
 * Default mode (cleanup_dataset): per JSON line, fix the text as
 * ftfy.fix_text does, drop it unless English, drop it when it is under
 * --max-chars-for-length characters and has fewer than --min-tokens GPT-2
 * tokens counting the appended EOD. --tasks LIST: cleanup_fix_dataset's tasks
 * instead. Only the text value is rewritten: every other byte of the line is
 * copied as it was. Output order is input order whatever --workers is. */
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/bigmem.h"
#include "common/err.h"
#include "common/io.h"
#include "common/pool.h"
#include "common/progress.h"
#include "preprocess/filters/cleanup.h"
#include "preprocess/text/langid.h"
#include "tokenizer/tokcli.h"

typedef struct {
    const char *out_path, *removed_path, *tasks_s, *ftfy_off, *key, *filters_s, *lang, *in_path;
    quality_params qp;
    quality_cli qs;
    tokcli_spec ts;
    int no_fix, no_lang, no_length, fix_only;
    long long workers, min_tokens, max_chars;
} options;

/* The flags into o and the stage's configuration c. Returns -1 to go on, else
 * the exit status (--help, --version, a usage error: printed). */
static int parse_options(int argc, char **argv, options *o, cleanup_config *c)
{
    memset(o, 0, sizeof *o);
    o->key = "text";
    o->lang = "en";
    o->min_tokens = 128;
    o->max_chars = 1024;
    quality_params_default(&o->qp);
    const arg_opt opts[] = {
        {"output", 'o', ARG_STR, &o->out_path, "FILE", "output (default: the second argument, or stdout; .zst compresses)"},
        {"removed", 0, ARG_STR, &o->removed_path, "FILE",
         "write every dropped document here, with a \"cleanup_reason\" key added (bad JSON lines as "
         "{\"cleanup_reason\": \"bad_json\", \"file\", \"line\", \"raw\"})"},
        {"json-key", 0, ARG_STR, &o->key, "KEY", "the key holding the text (default text)"},
        {"no-fix", 0, ARG_FLAG, &o->no_fix, NULL, "do not run fix_text"},
        {"no-lang-filter", 0, ARG_FLAG, &o->no_lang, NULL, "keep documents in every language"},
        {"no-length-filter", 0, ARG_FLAG, &o->no_length, NULL, "keep short documents"},
        {"fix-only", 0, ARG_FLAG, &o->fix_only, NULL, "only fix_text: --no-lang-filter --no-length-filter, empty texts kept"},
        {"lang", 0, ARG_STR, &o->lang, "CODE", "the language to keep (CLD2 code, default en)"},
        {"min-tokens", 0, ARG_INT, &o->min_tokens, "N", "drop documents under N tokens incl. the EOD (default 128;\n"
         "                                GPT-2's unless --tokenizer-type says otherwise)"},
        {"max-chars-for-length", 0, ARG_INT, &o->max_chars, "N",
         "check the token count only for texts under N characters (default 1024 = 8 x 128)"},
        {"ftfy-off", 0, ARG_STR, &o->ftfy_off, "LIST",
         "switch off fix_text steps: unescape_html, remove_terminal_escapes, fix_encoding, fix_c1_controls, "
         "fix_latin_ligatures, fix_character_width, uncurl_quotes, fix_line_breaks, remove_control_chars, "
         "normalization"},
        {"tasks", 0, ARG_STR, &o->tasks_s, "LIST",
         "cleanup_fix_dataset mode: comma list of remove_512, remove_256_javascript, remove_512_non_english, "
         "ftfy_fix_text, general_cleaning (the first that fires wins), then any of the quality filters below,\n"
         "                                in the order listed"},
        {"filters", 0, ARG_STR, &o->filters_s, "LIST",
         "after the steps above, datatrove's quality filters in this order: gopher_repetition, gopher_quality,\n"
         "                                c4_quality, fineweb_quality (their parameters follow)"},
        QUALITY_OPTS(o->qp, o->qs),
        {"workers", 'j', ARG_INT, &o->workers, "N", "threads (default: all cores)"},
        TOKCLI_OPTS(o->ts),
        {NULL, 0, 0, NULL, NULL, NULL},
    };
    const arg_spec spec = {
        "cleanup", "[OPTION]... [INPUT [OUTPUT]]",
        "Clean JSON-lines documents as Megatron's OpenWebText cleanup_dataset.py does: fix the text as\n"
        "ftfy.fix_text (ftfy 6 defaults), drop non-English documents (CLD2), drop documents under 1024\n"
        "characters that have fewer than 128 GPT-2 tokens counting the EOD. Only the text value changes;\n"
        "the other keys are copied byte for byte. INPUT defaults to stdin, OUTPUT to stdout; .zst and .gz\n"
        "are read, .zst written, transparently. A summary of what was kept and dropped, and why, goes\n"
        "to stderr.",
        opts,
        "With --tasks, Megatron's cleanup_fix_dataset.py instead: the tasks are tried in the order\n"
        "remove_512 (under 512 characters), remove_256_javascript (under 256 and containing\n"
        "\"javascript\"), remove_512_non_english, ftfy_fix_text, general_cleaning\n"
        "(re.sub(r\"  +|\\b\\n+ |\\b\\n+\", \" \", text)), and the first that fires decides; as in Megatron,\n"
        "ftfy_fix_text always fires, so general_cleaning only runs when ftfy_fix_text is not listed.\n"
        "Removed documents keep their original text and go to --removed.\n"
        "\n"
        "The quality filters are datatrove's (0.10.1) GopherRepetitionFilter, GopherQualityFilter,\n"
        "C4QualityFilter and FineWebQualityFilter, decision for decision, with English words and\n"
        "sentences split as datatrove splits them (spaCy 3.8's rules); a drop is counted, and written to\n"
        "--removed as \"cleanup_reason\", under datatrove's reason with \"cleanup_filter\" naming the filter.\n"
        "c4_quality edits the text (drops lines). A zero threshold switches its check off, as in datatrove.\n"
        "In a pipeline each runs alone with --tasks NAME; after the OpenWebText steps with --filters.\n"
        "\n"
        "Examples:\n"
        "  cleanup corpus.jsonl.zst clean.jsonl.zst --removed dropped.jsonl.zst\n"
        "  zstdcat corpus.jsonl.zst | cleanup --no-lang-filter > clean.jsonl\n"
        "  cleanup --tasks remove_512,remove_256_javascript,ftfy_fix_text in.jsonl out.jsonl --removed rm.jsonl\n"
        "  cleanup --filters gopher_repetition,gopher_quality,c4_quality,fineweb_quality \\\n"
        "          --c4-filter-no-terminal-punct false in.jsonl.zst out.jsonl.zst    # FineWeb's chain\n"
        "  zstdcat in.jsonl.zst | cleanup --tasks gopher_quality --min-doc-words 100 > out.jsonl\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0)
        return rc;
    rc = 0;
    memset(c, 0, sizeof *c);
    c->fix = !o->no_fix;
    c->lang = !o->no_lang && !o->fix_only;
    c->length = !o->no_length && !o->fix_only;
    c->fix_only = o->fix_only;
    c->key = o->key;
    c->keep_lang = o->lang;
    c->min_tokens = o->min_tokens;
    c->max_chars = o->max_chars;
    fixtext_config_default(&c->ftfy);
    o->in_path = npos > 0 ? pos[0] : "-";
    if (npos > 1) {
        if (o->out_path)
            rc = err_set(ERR_USAGE, "give the output either as an argument or with --output");
        o->out_path = pos[1];
    }
    if (!rc && npos > 2)
        rc = err_set(ERR_USAGE, "too many arguments (INPUT [OUTPUT])");
    free(pos);
    c->tasks_mode = o->tasks_s != NULL;
    if (!rc && o->tasks_s)
        rc = cleanup_parse_tasks(o->tasks_s, &c->tasks, c);
    if (!rc && o->filters_s)
        rc = cleanup_parse_filters(o->filters_s, c);
    if (!rc)
        rc = quality_cli_finish(&o->qp, &o->qs);
    c->qp = o->qp;
    if (!rc && o->ftfy_off)
        rc = cleanup_parse_ftfy_off(o->ftfy_off, &c->ftfy);
    if (!rc && !langid_known(o->lang))
        rc = err_set(ERR_USAGE, "--lang: \"%s\" is not a language CLD2 knows", o->lang);
    if (!rc && (o->min_tokens < 0 || o->max_chars < 0))
        rc = err_set(ERR_USAGE, "--min-tokens and --max-chars-for-length must be >= 0");
    if (!rc && o->workers < 0)
        rc = err_set(ERR_USAGE, "--workers must be >= 1");
    if (!rc)
        return -1;
    fprintf(stderr, "cleanup: %s\nTry 'cleanup --help'.\n", err_msg());
    quality_cli_free(&o->qs);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    options o;
    cleanup_config c;
    int rc = parse_options(argc, argv, &o, &c);
    if (rc >= 0)
        return rc;
    rc = 0;
#ifdef M_TRIM_THRESHOLD
    /* Every document allocates and frees CLD2's buffers (100-200 KB); with glibc's default
     * policy the heap's top is given back and faulted in again and again (a fifth of the
     * page faults of a run). Kept instead: a batch tool's memory is its peak anyway. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
    /* and the heap's first 64 MB (the vocabulary's piece cache, CLD2's and the filters'
     * buffers, the input batch: about 20 MB touched on one thread) in 2 MB pages: the
     * 5,000 page faults of a run on 8 MB become 1,400, its system time 32 -> 20 ms; the
     * peak memory 2 MB more. The pool's threads allocate from arenas of their own. */
    big_heap_huge(64 << 20);
#endif
    bpe *bp = NULL;
    if (c.length && !c.tasks_mode && !(rc = tokcli_open(&bp, &o.ts))) { /* the length rule's tokenizer */
        c.bpe = bp;
        c.eod = bpe_eod(bp);
    }
    int nw = o.workers > 0 ? (int)o.workers : pool_cpu_count();
    pool *pl = nw > 1 && !rc ? pool_new(nw - 1) : NULL;
    cleanup_worker *W = rc ? NULL : cleanup_workers_new(&c, nw);
    if (!rc && !W)
        rc = ERR_NOMEM;
    io_reader *in = NULL;
    io_writer *w = NULL, *rw = NULL;
    if (!rc) rc = io_reader_open(&in, o.in_path);
    if (!rc) rc = io_writer_open(&w, o.out_path, NULL);
    if (!rc && o.removed_path) rc = io_writer_open(&rw, o.removed_path, NULL);
    progress *pr = rc ? NULL : progress_new("cleanup", "docs", io_reader_size_hint(in));
    cleanup_stats st;
    cleanup_stats_init(&st);
    cleanup_batch b = {0};
    uint64_t blank = 0;
    int eof = 0;
    while (!rc && !eof) {
        if ((rc = cleanup_read_batch(in, &b, &blank, &eof)) || !b.n)
            break;
        if ((rc = cleanup_process_batch(&c, W, nw, pl, &b)))
            break;
        for (size_t i = 0; i < b.n && !rc; i++) { /* in input order */
            const cleanup_rec *r = &b.r[i];
            cleanup_count(&st, &c, r, io_reader_name(in));
            size_t len;
            const char *line = cleanup_output(r, &len);
            if (r->reason == R_KEPT && !(rc = io_write(w, line, len)))
                rc = io_write(w, "\n", 1);
            else if (r->reason != R_KEPT && rw)
                rc = cleanup_write_removed(rw, &c, r, io_reader_name(in));
        }
        progress_update(pr, st.all.in, io_reader_raw_pos(in));
    }
    progress_done(pr);
    io_writer *g[2] = {w, rw};
    if (!rc) /* kept documents, then the removed ones */
        rc = io_writer_commit_group(g, 2);
    else
        io_writer_abort(w), io_writer_abort(rw);
    if (rc < 0)
        fprintf(stderr, "cleanup: %s\n", err_msg());
    else if (!args_quiet_flag)
        cleanup_print_summary(&st, &c, blank, stderr);
    io_reader_close(in);
    cleanup_batch_free(&b);
    cleanup_workers_free(W, nw);
    pool_free(pl);
    bpe_free(bp);
    quality_cli_free(&o.qs);
    return rc < 0 ? err_exit_code(rc) : 0;
}

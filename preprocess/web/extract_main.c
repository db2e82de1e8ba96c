/* extract_main.c - web pages to documents: WARC / WET / HTML in, JSON lines out
 * (`text`, `id`, `url`, `date`, `content_type`, `charset`, `title`; `language` with --language), the first
 * stage before blacklist_urls and cleanup. The work is preprocess/web/extract.c (records,
 * batches, output) over warc.c and html/htmltext.c; this file is the options, the loop over the
 * inputs and the summary. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/io.h"
#include "common/pool.h"
#include "common/progress.h"
#include "common/tally.h"
#include "preprocess/web/extract.h"
#include "preprocess/web/html/htmltext.h"

static void summary(const extract_state *s, size_t nfiles)
{
    if (s->list) {
        fprintf(stderr, "extract: %" PRIu64 " records from %zu input%s: %" PRIu64 " listed, %" PRIu64 " damaged\n",
                s->records, nfiles, nfiles == 1 ? "" : "s", s->listed, tally_count(&s->t, EXTRACT_R_DAMAGED - 1));
        return;
    }
    char note[48];
    snprintf(note, sizeof note, "from %zu input%s", nfiles, nfiles == 1 ? "" : "s");
    tally_summary(&s->t, stderr, "extract", "records", NULL, note);
}

int main(int argc, char **argv)
{
    extract_state s;
    extract_init(&s);
    const arg_opt opts[] = {
        {"output", 'o', ARG_STR, &s.output, "FILE", "write documents here (default stdout; .zst compresses)"},
        {"mode", 0, ARG_STR, &s.mode_s, "MODE",
         "main (default): the main content, boilerplate removed (with a second\n"
         "                                opinion, jusText's classifier, where it comes out short);\n"
         "                                all: every visible text of the page"},
        {"favor-precision", 0, ARG_FLAG, &s.precision, NULL, "main: drop more boilerplate (trafilatura's flag)"},
        {"favor-recall", 0, ARG_FLAG, &s.recall, NULL, "main: keep more text (trafilatura's flag)"},
        {"language", 0, ARG_FLAG, &s.language, NULL,
         "add \"language\": the text's language by CLD2 (as cleanup's filter: ISO 639-1 code, \"un\" unknown)"},
        {"max-size", 0, ARG_SIZE, &s.max_size, "BYTES", "records and pages larger than this are dropped (default 64M)"},
        {"keep-truncated", 0, ARG_FLAG, &s.keep_truncated, NULL, "extract records the crawler truncated (dropped by default)"},
        {"rejected", 0, ARG_STR, &s.rejected, "FILE", "write each dropped record as REASON<TAB>FILE:RECORD<TAB>ID<TAB>URL"},
        {"strict", 0, ARG_FLAG, &s.strict, NULL, "stop at the first damaged record instead of skipping it"},
        {"workers", 'j', ARG_INT, &s.jobs, "N", "threads extracting pages (default: all cores; output in input order)"},
        {"list", 0, ARG_FLAG, &s.list, NULL, "write the records' index instead of documents:\n"
                                             "                                NUMBER OFFSET LENGTH TYPE ID URI, tab-separated"},
        {NULL, 0, 0, NULL, NULL, NULL},
    };
    const arg_spec spec = {
        "extract", "[OPTION]... [INPUT]...",
        "Turn web pages into documents: WARC files (WARC/1.0, 1.1; plain, .gz with one member per record\n"
        "as Common Crawl writes them, or .zst), WET files (their text passed through) and HTML files.\n"
        "Response and resource records that are HTML and HTTP 200 are decoded as a browser decodes them\n"
        "(chunked, gzip, deflate, br; charset from HTTP, BOM, <meta>), parsed as HTML5 (lexbor), and\n"
        "their main content (or, with --mode all, all visible text) written one paragraph per line as\n"
        "{\"text\", \"id\", \"url\", \"date\", \"content_type\", \"charset\", \"title\"} JSON lines, the\n"
        "names datatrove's WarcReader uses. Directories are read for *.warc[.gz|.zst], *.wet[...],\n"
        "*.html and *.htm; none or '-' reads a WARC from stdin. Every record is counted: a document, or\n"
        "dropped with its reason.",
        opts,
        "Examples:\n"
        "  extract CC-MAIN-*.warc.gz -o docs.jsonl.zst\n"
        "  extract --mode all pages/ | blacklist_urls --key url | cleanup -o clean.jsonl\n"
        "Exit status: 0 done (damaged records are skipped with a warning), 1 bad input (with --strict, or\n"
        "a file named as a WARC, .gz or .zst that is not one), 2 usage, 3 I/O error, 4 out of memory.\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0)
        return rc;
    rc = 0;
    if (s.precision && s.recall)
        rc = err_set(ERR_USAGE, "--favor-precision and --favor-recall exclude each other");
    s.mode = HTMLTEXT_MAIN;
    if (rc == 0 && s.mode_s) {
        if (!strcmp(s.mode_s, "all"))
            s.mode = HTMLTEXT_ALL;
        else if (strcmp(s.mode_s, "main"))
            rc = err_set(ERR_USAGE, "--mode %s: expected main or all", s.mode_s);
    }
    s.favor = s.precision ? HTMLTEXT_PRECISION : s.recall ? HTMLTEXT_RECALL : HTMLTEXT_BALANCED;
    fs_list inputs = {0};
    if (rc == 0 && npos == 0)
        rc = fs_expand(&inputs, "-", NULL);
    for (int i = 0; i < npos && rc == 0; i++)
        rc = fs_expand(&inputs, pos[i], extract_suffixes);
    free(pos);
    if (rc == 0 && s.jobs < 0)
        rc = err_set(ERR_USAGE, "--workers %lld: expected 0 (all cores) or more", s.jobs);
    if (rc == 0) {
        int nt = s.jobs > 0 ? (int)s.jobs : pool_cpu_count();
        if (nt > 1 && !(s.pl = pool_new(nt)))
            rc = err_set(ERR_NOMEM, "cannot start %d threads", nt);
    }
    if (rc == 0)
        rc = io_writer_open(&s.out, s.output, NULL);
    if (rc == 0 && s.rejected)
        rc = io_writer_open(&s.rej, s.rejected, NULL);
    if (rc == 0) {
        struct stat st;
        for (size_t i = 0; i < inputs.n; i++)
            if (strcmp(inputs.paths[i], "-") && stat(inputs.paths[i], &st) == 0 && S_ISREG(st.st_mode))
                s.bytes_total += (uint64_t)st.st_size;
        s.pg = progress_new("extract", "records", s.bytes_total);
        for (size_t i = 0; rc == 0 && i < inputs.n; i++)
            rc = extract_input(&s, inputs.paths[i]);
        int frc = extract_finish(&s); /* the last batch (freed whatever happened) */
        if (rc == 0)
            rc = frc;
        progress_done(s.pg);
    }
    if (rc == 0) {
        io_writer *g[2] = {s.out, s.rej};
        rc = io_writer_commit_group(g, 2);
        s.out = s.rej = NULL;
    }
    io_writer_abort(s.rej);
    io_writer_abort(s.out);
    if (rc == 0 && !args_quiet_flag)
        summary(&s, inputs.n);
    if (rc < 0)
        fprintf(stderr, "extract: %s\n", err_msg());
    pool_free(s.pl);
    extract_free(&s);
    fs_list_free(&inputs);
    return rc < 0 ? err_exit_code(rc) : 0;
}

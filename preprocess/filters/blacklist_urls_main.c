/* blacklist_urls - filter URLs by the OpenWebText rules (urlfilter.h).
 *
 * URL mode: one URL per line in; kept URLs (stripped) out, in input order.
 * JSON-lines mode (--key FIELD): documents in; documents whose FIELD passes
 * out, unchanged. A summary of counts per reason goes to stderr.
 */
#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/progress.h"
#include "common/utf8.h"
#include "common/tally.h"
#include "preprocess/filters/urlfilter.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    const char *output, *rejected, *key, *psl;
    args_list blocklists;
    int strict;
    tally t; /* kept, dropped by reason (ids URL_* - 1; common/tally.h) */
    uint64_t total, warnings, blank;
    urlfilter *f;
    io_writer *out, *rej;
    progress *pg;
    uint64_t bytes_done, bytes_total;
} bl_state;

static const char *const url_suffixes[] = { ".txt", ".txt.zst", ".txt.gz", NULL };
static const char *const json_suffixes[] = { ".jsonl", ".json", ".jsonl.zst", ".json.zst", ".jsonl.gz", ".json.gz", NULL };

static int reject(bl_state *s, int reason, const char *file, uint64_t line, const char *url, size_t len)
{
    tally_drop(&s->t, reason - 1, 0);
    if (!s->rej) return 0;
    char head[64];
    int n = snprintf(head, sizeof head, "%s\t", urlfilter_reason_name(reason));
    int rc = io_write(s->rej, head, (size_t)n);
    if (rc == 0) rc = io_write(s->rej, file, strlen(file));
    n = snprintf(head, sizeof head, ":%" PRIu64 "\t", line);
    if (rc == 0) rc = io_write(s->rej, head, (size_t)n);
    /* a URL with a tab or newline would break the TSV: replace them */
    for (size_t i = 0; rc == 0 && i < len; i++) {
        char c = url[i] == '\t' || url[i] == '\n' || url[i] == '\r' ? ' ' : url[i];
        rc = io_write(s->rej, &c, 1);
    }
    if (rc == 0) rc = io_write(s->rej, "\n", 1);
    return rc;
}

static void warn(bl_state *s, const char *msg)
{
    if (s->warnings++ < 10) fprintf(stderr, "blacklist_urls: warning: %s\n", msg);
    else if (s->warnings == 11) fprintf(stderr, "blacklist_urls: warning: further warnings not shown (see the summary)\n");
}

static int process_file(bl_state *s, const char *path)
{
    io_reader *r;
    int rc = io_reader_open(&r, path);
    if (rc < 0) return rc;
    const char *name = io_reader_name(r);
    char *line;
    size_t len;
    while ((rc = io_getline(r, &line, &len)) == 1) {
        if (s->key) { /* JSON lines: a blank line is no record (as every JSON-lines tool here reads them) */
            size_t i = 0;
            while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
            if (i == len) {
                s->blank++;
                continue;
            }
        }
        s->total++;
        uint64_t lineno = io_reader_lineno(r);
        const char *url = line;
        size_t ulen = len;
        cJSON *obj = NULL;
        if (s->key) {
            const char *end = NULL;
            int nomem;
            obj = json_parse(line, len, &end, &nomem);
            if (nomem) {
                rc = err_set(ERR_NOMEM, "%s:%" PRIu64 ": out of memory parsing JSON", name, lineno);
                break;
            }
            size_t k = end ? (size_t)(end - line) : 0;
            while (obj && k < len && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r')) k++;
            if (!obj || k < len) {
                char msg[512];
                snprintf(msg, sizeof msg, "%s:%" PRIu64 ": not valid JSON; document dropped", name, lineno);
                if (s->strict) {
                    cJSON_Delete(obj);
                    rc = err_set(ERR_FORMAT, "%s (--strict)", msg);
                    break;
                }
                warn(s, msg);
                cJSON_Delete(obj);
                if ((rc = reject(s, URL_BAD_JSON, name, lineno, "", 0)) < 0) break;
                continue;
            }
            url = jsonl_get_string(obj, s->key);
            if (!url) {
                char msg[512];
                snprintf(msg, sizeof msg, "%s:%" PRIu64 ": no string field \"%s\"; document dropped", name, lineno, s->key);
                cJSON_Delete(obj);
                if (s->strict) { rc = err_set(ERR_FORMAT, "%s (--strict)", msg); break; }
                warn(s, msg);
                if ((rc = reject(s, URL_MISSING_KEY, name, lineno, "", 0)) < 0) break;
                continue;
            }
            ulen = strlen(url);
        }
        utf8_strip_pyspace(&url, &ulen);
        int reason = urlfilter_classify(s->f, url, ulen);
        if (reason < 0) { cJSON_Delete(obj); rc = reason; break; }
        if (reason == URL_KEPT) {
            tally_keep(&s->t);
            if (s->key) rc = io_write(s->out, line, len);
            else rc = io_write(s->out, url, ulen);
            if (rc == 0) rc = io_write(s->out, "\n", 1);
        } else {
            rc = reject(s, reason, name, lineno, url, ulen);
        }
        cJSON_Delete(obj);
        if (rc < 0) break;
        progress_update(s->pg, s->total, s->bytes_done + io_reader_raw_pos(r));
    }
    s->bytes_done += io_reader_raw_pos(r);
    io_reader_close(r);
    return rc < 0 ? rc : 0;
}

static void summary(const bl_state *s, size_t nfiles)
{
    char note[96];
    int k = snprintf(note, sizeof note, "from %zu input%s", nfiles, nfiles == 1 ? "" : "s");
    if (s->key)
        snprintf(note + k, sizeof note - (size_t)k, "; %" PRIu64 " blank lines skipped", s->blank);
    tally_summary(&s->t, stderr, "blacklist_urls", s->key ? "documents" : "URLs", NULL, note);
}

int main(int argc, char **argv)
{
    bl_state s;
    memset(&s, 0, sizeof s);
    for (int i = 1; i < URL_NREASONS; i++)
        tally_reason_id(&s.t, urlfilter_reason_name(i));
    const arg_opt opts[] = {
        { "output", 'o', ARG_STR, &s.output, "FILE", "write kept URLs/documents here (default stdout; .zst compresses)" },
        { "key", 0, ARG_STR, &s.key, "FIELD", "JSON-lines mode: filter documents by this URL field (e.g. url)" },
        { "blocklist", 0, ARG_LIST, &s.blocklists, "FILE", "extra domains to block, one per line, subdomains included (repeatable)" },
        { "rejected", 0, ARG_STR, &s.rejected, "FILE", "write each dropped item as REASON<TAB>FILE:LINE<TAB>URL" },
        { "psl", 0, ARG_STR, &s.psl, "FILE", "public suffix list (default: Debian's, else libpsl's built-in)" },
        { "strict", 0, ARG_FLAG, &s.strict, NULL, "JSON-lines mode: stop at the first invalid line instead of dropping it" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {
        "blacklist_urls", "[OPTION]... [INPUT]...",
        "Drop URLs by the OpenWebText rules of Megatron-LM's blacklist_urls.py, in order, first match\n"
        "counted: domain stem, --blocklist, file extension, short (<= 8 chars), malformed, duplicate.\n"
        "INPUTs are files (plain, .zst or .gz, detected by content) or directories (their *.txt files;\n"
        "*.jsonl/*.json with --key); none or '-' reads stdin. Kept items keep their input order.",
        opts,
        "Examples:\n"
        "  blacklist_urls urls/ -o clean_urls.txt          # Megatron: blacklist_urls.py urls/ clean_urls.txt\n"
        "  blacklist_urls --key url docs.jsonl.zst -o kept.jsonl.zst --rejected dropped.tsv\n"
        "Exit status: 0 done, 1 bad input (with --strict), 2 usage, 3 I/O error, 4 out of memory.\n",
    };
    char **pos;
    int npos;
    int rc = args_parse_main(&spec, argc, argv, &pos, &npos);
    if (rc >= 0) return rc;
    rc = 0;
    fs_list inputs = { 0 };
    if (npos == 0) rc = fs_expand(&inputs, "-", NULL);
    for (int i = 0; i < npos && rc == 0; i++)
        rc = fs_expand(&inputs, pos[i], s.key ? json_suffixes : url_suffixes);
    free(pos);
    if (rc == 0) rc = urlfilter_new(&s.f, s.psl);
    for (size_t i = 0; rc == 0 && i < s.blocklists.n; i++) rc = urlfilter_add_blocklist(s.f, s.blocklists.items[i]);
    if (rc == 0) rc = io_writer_open(&s.out, s.output, NULL);
    if (rc == 0 && s.rejected) rc = io_writer_open(&s.rej, s.rejected, NULL);
    if (rc == 0) {
        struct stat st;
        for (size_t i = 0; i < inputs.n; i++)
            if (strcmp(inputs.paths[i], "-") && stat(inputs.paths[i], &st) == 0 && S_ISREG(st.st_mode))
                s.bytes_total += (uint64_t)st.st_size;
        s.pg = progress_new("blacklist_urls", s.key ? "docs" : "URLs", s.bytes_total);
        for (size_t i = 0; rc == 0 && i < inputs.n; i++) rc = process_file(&s, inputs.paths[i]);
        progress_done(s.pg);
    }
    if (rc == 0) { /* kept URLs, then the rejected list */
        io_writer *g[2] = {s.out, s.rej};
        rc = io_writer_commit_group(g, 2);
        s.out = s.rej = NULL;
    }
    io_writer_abort(s.rej);
    io_writer_abort(s.out);
    if (rc == 0 && !args_quiet_flag) summary(&s, inputs.n);
    if (rc < 0) fprintf(stderr, "blacklist_urls: %s\n", err_msg());
    urlfilter_free(s.f);
    fs_list_free(&inputs);
    args_list_free(&s.blocklists);
    return rc < 0 ? err_exit_code(rc) : 0;
}

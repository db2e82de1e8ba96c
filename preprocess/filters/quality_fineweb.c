/* quality_fineweb.c - datatrove's FineWebQualityFilter (fineweb_quality_filter.py), line by line
 * as quality.c says; one of the four quality filters of cleanup --filters. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/utf8.h"
#include "preprocess/filters/quality_int.h"

static int is_stop_char(const quality_params *p, uint32_t cp)
{
    if (!p->stop_chars) return dt_terminal_cp(cp);
    for (size_t i = 0; i < p->n_stop_chars; i++)
        if (p->stop_chars[i] == cp) return 1;
    return 0;
}

int quality_fineweb(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **reason)
{
    int rc;
    /* lines = [line for line in text.split("\n") if line.strip() != ""] */
    q->lines.n = 0;
    size_t start = 0, newlines = 0;
    for (size_t i = 0; i <= n; i++) {
        const char *nl = memchr(t + i, '\n', n - i);
        i = nl ? (size_t)(nl - t) : n;
        newlines += nl != NULL;
        const char *s = t + start;
        size_t l = i - start;
        utf8_strip_pyspace(&s, &l);
        if (l && (rc = q_spans_push(&q->lines, start, i - start))) return rc;
        start = i + 1;
    }
    size_t nl = q->lines.n;
    if (nl == 0) {
        *reason = "empty";
        return 0;
    }
    size_t punct = 0, shorts = 0;
    for (size_t i = 0; i < nl; i++) {
        const char *s = t + q->lines.v[i].off;
        size_t l = q->lines.v[i].len;
        punct += is_stop_char(p, q_last_cp(s, l));
        shorts += (long long)q_cplen(s, l) <= p->short_line_length;
    }
    double ratio = (double)punct / (double)nl;
    if (ratio < p->line_punct_thr && !(ratio == 0 && p->line_punct_exclude_zero)) {
        *reason = "line_punct_ratio";
        return 0;
    }
    if ((double)shorts / (double)nl > p->short_line_thr) {
        *reason = "short_line_ratio";
        return 0;
    }
    size_t dup, dupc;
    if ((rc = q_find_duplicates(q, t, &q->lines, &dup, &dupc))) return rc;
    /* / len(text.replace("\n", "")): not zero, a line is not blank */
    if ((double)dupc / (double)(q_cplen(t, n) - newlines) > p->char_duplicates_ratio) {
        *reason = "char_dup_ratio";
        return 0;
    }
    size_t nwords;
    if (q->c4_valid && t == q->c4_out && n == q->c4_on) nwords = q->c4_words;
    else {
        if ((rc = q_get_words(q, t, n))) return rc;
        nwords = q->words.n;
    }
    if (nwords && (double)newlines / (double)nwords > p->new_line_ratio) {
        *reason = "list_ratio";
        return 0;
    }
    return 1;
}

/* libFuzzer target: datatrove's word splitter (spacy_tok.c) and the four quality
 * filters (quality.c) over arbitrary bytes, made valid UTF-8 first as cleanup does.
 * Tokens must be in order, inside the text, non-empty, never overlapping; the
 * words must be the tokens that are not whitespace; the sentence count at most
 * the token count; c4_quality's output valid UTF-8 and no longer than its input (twice, when sentences are
 * joined by spaces);
 * every drop must carry a reason; fineweb_quality must decide c4_quality's output alike
 * with and without the word count c4_quality hands it. The first byte picks the C4 and FineWeb options. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/utf8.h"
#include "preprocess/filters/quality.h"
#include "preprocess/text/spacy_tok.h"

static spacy_ctx *sp;
static quality_ctx *q;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sp) sp = spacy_ctx_new();
    if (!q) q = quality_ctx_new();
    if (!sp || !q) abort();
    if (size == 0 || size > (1 << 16)) return 0;
    uint8_t opt = data[0];
    char *t = malloc(3 * size);
    size_t n = utf8_sanitize((const char *)data + 1, size - 1, t);
    sp_tokens toks = {0}, words = {0};
    if (spacy_tokenize(sp, t, n, &toks) || spacy_words(sp, t, n, &words)) abort();
    size_t prev_end = 0, w = 0;
    for (size_t i = 0; i < toks.n; i++) {
        const sp_token *k = &toks.t[i];
        if (k->len == 0 || k->off < prev_end || k->off + k->len > n) abort();
        prev_end = k->off + k->len;
        uint32_t cp;
        int l = utf8_decode((const unsigned char *)t + k->off, n - k->off, &cp);
        if (l < 0) abort();
        if (!py_isspace_cp(cp)) {
            if (w >= words.n || words.t[w].off != k->off || words.t[w].len != k->len) abort();
            w++;
        }
    }
    if (w != words.n) abort();
    if (spacy_sentences(t, &toks, NULL) > toks.n) abort();
    quality_params p;
    quality_params_default(&p);
    p.c4_split_paragraph = !(opt & 1);
    p.c4_filter_no_terminal_punct = !(opt & 2);
    p.c4_min_num_sentences = opt & 4 ? -1 : 1;
    p.line_punct_exclude_zero = !!(opt & 8);
    p.min_doc_words = opt & 16 ? 0 : 50;
    const char *reason = NULL, *out = NULL;
    size_t on = 0;
    int r;
    quality_begin(q);
    if ((r = quality_gopher_repetition(q, &p, t, n, &reason)) < 0 || (r == 0 && !reason)) abort();
    if ((r = quality_gopher_quality(q, &p, t, n, &reason)) < 0 || (r == 0 && !reason)) abort();
    if ((r = quality_fineweb(q, &p, t, n, &reason)) < 0 || (r == 0 && !reason)) abort();
    if ((r = quality_c4(q, &p, t, n, &out, &on, &reason)) < 0 || (r == 0 && !reason)) abort();
    /* lines joined by \n are at most the text; sentences joined by " " may add one byte each */
    if (r == 1 && (on > (p.c4_split_paragraph ? n : 2 * n) || !utf8_valid(out, on))) abort();
    if (r == 1) { /* fineweb_quality on c4_quality's output takes c4's word count: the same decision */
        const char *ra = NULL, *rb = NULL;
        int a = quality_fineweb(q, &p, out, on, &ra);
        char *copy = malloc(on + 1);
        memcpy(copy, out, on);
        quality_begin(q);
        int b = quality_fineweb(q, &p, copy, on, &rb);
        if (a != b || (a == 0 && strcmp(ra, rb))) abort();
        free(copy);
    }
    sp_tokens_free(&toks);
    sp_tokens_free(&words);
    free(t);
    return 0;
}

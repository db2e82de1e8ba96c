/* quality_gopher_quality.c - datatrove's GopherQualityFilter (gopher_quality_filter.py), line by line
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

/* any character of s[0..n) for which pred says want (ASCII ones from sp_ascii_class & cls) */
static inline __attribute__((always_inline)) int any_char(const char *s, size_t n, int (*pred)(uint32_t), uint8_t cls, int want)
{
    size_t i = 0;
    while (i < n) {
        unsigned char b = (unsigned char)s[i];
        if (b < 0x80) {
            if (!!(sp_ascii_class[b] & cls) == want) return 1;
            i++;
            continue;
        }
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k < 0) k = 1, cp = 0xFFFD;
        if (!!pred(cp) == want) return 1;
        i += (size_t)k;
    }
    return 0;
}

int quality_gopher_quality(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **reason)
{
    int rc = q_get_words(q, t, n);
    if (rc) return rc;
    size_t nw = q->words.n;
    const sp_token *w = q->words.t;
    /* non_symbol_words = [w for w in words if any(ch not in PUNCTUATION_SET for ch in w)] */
    size_t n_ns = 0, ns_chars = 0, n_alpha = 0;
    for (size_t i = 0; i < nw; i++) {
        const char *s = t + w[i].off;
        if (any_char(s, w[i].len, dt_punctuation_cp, A_DTPUNCT, 0)) {
            n_ns++;
            ns_chars += q->wcp[i];
        }
        if (any_char(s, w[i].len, py_isalpha_cp, A_ALPHA, 1)) n_alpha++;
    }
    if (p->min_doc_words && (long long)n_ns < p->min_doc_words) {
        *reason = "gopher_short_doc";
        return 0;
    }
    if (p->max_doc_words && (long long)n_ns > p->max_doc_words) {
        *reason = "gopher_long_doc";
        return 0;
    }
    double avg = n_ns ? (double)ns_chars / (double)n_ns : NAN; /* np.mean([]) is nan: no comparison holds */
    if (p->min_avg_word_length && avg < p->min_avg_word_length) {
        *reason = "gopher_below_avg_threshold";
        return 0;
    }
    if (p->max_avg_word_length && avg > p->max_avg_word_length) {
        *reason = "gopher_above_avg_threshold";
        return 0;
    }
    /* datatrove divides by len(words) here and raises on a text without words; we let the ratio be 0 */
    double dn = (double)nw;
    if (p->max_symbol_word_ratio && nw && (double)q_count_sub(t, n, "#") / dn > p->max_symbol_word_ratio) {
        *reason = "gopher_too_many_hashes";
        return 0;
    }
    if (p->max_symbol_word_ratio && nw &&
        (double)(q_count_sub(t, n, "...") + q_count_sub(t, n, "\xe2\x80\xa6")) / dn > p->max_symbol_word_ratio) {
        *reason = "gopher_too_many_ellipsis";
        return 0;
    }
    if ((rc = q_splitlines(t, n, &q->lines))) return rc;
    size_t nl = q->lines.n, bullets = 0, ell = 0;
    for (size_t i = 0; i < nl; i++) {
        const char *s = t + q->lines.v[i].off;
        size_t l = q->lines.v[i].len;
        const char *a = s;
        size_t al = l;
        utf8_lstrip_pyspace(&a, &al);
        bullets += q_starts_with(a, al, "\xe2\x80\xa2") || q_starts_with(a, al, "-");
        utf8_rstrip_pyspace(s, &l);
        ell += q_ends_with(s, l, "...") || q_ends_with(s, l, "\xe2\x80\xa6");
    }
    if (p->max_bullet_lines_ratio && nl && (double)bullets / (double)nl > p->max_bullet_lines_ratio) {
        *reason = "gopher_too_many_bullets";
        return 0;
    }
    if (p->max_ellipsis_lines_ratio && nl && (double)ell / (double)nl > p->max_ellipsis_lines_ratio) {
        *reason = "gopher_too_many_end_ellipsis";
        return 0;
    }
    if (p->max_non_alpha_words_ratio && nw && (double)n_alpha / dn < p->max_non_alpha_words_ratio) {
        *reason = "gopher_below_alpha_threshold";
        return 0;
    }
    if (p->min_stop_words) {
        /* len(stop_words & set(words)): the words in one pass per 64 stop words (the first
         * of each kind in the list), each word against those not found yet, until
         * min_stop_words are */
        long long found = 0;
        for (size_t c0 = 0; c0 < p->n_stop_words && found < p->min_stop_words; c0 += 64) {
            size_t nc = p->n_stop_words - c0 < 64 ? p->n_stop_words - c0 : 64, sl[64];
            const char *const *sw = p->stop_words + c0;
            uint64_t want = 0;
            for (size_t k = 0; k < nc; k++) {
                sl[k] = strlen(sw[k]);
                int dupe = 0;
                for (size_t j = 0; j < c0 + k && !dupe; j++) dupe = !strcmp(p->stop_words[j], sw[k]);
                if (!dupe) want |= 1ull << k;
            }
            for (size_t i = 0; i < nw && want && found < p->min_stop_words; i++)
                for (uint64_t m = want; m; m &= m - 1) {
                    int k = __builtin_ctzll(m);
                    if (w[i].len == sl[k] && !memcmp(t + w[i].off, sw[k], sl[k])) {
                        found++;
                        want &= ~(1ull << k);
                        break;
                    }
                }
        }
        if (found < p->min_stop_words) {
            *reason = "gopher_enough_stop_words";
            return 0;
        }
    }
    return 1;
}

/* quality.h - the heuristic quality filters of web corpora since Gopher, as
 * datatrove 0.10.1 implements them, decision for decision:
 *
 *   gopher_repetition  GopherRepetitionFilter (duplicate paragraphs and lines by
 *                      count and characters, top 2/3/4-gram and duplicate 5..10-gram
 *                      character fractions)
 *   gopher_quality     GopherQualityFilter (word counts, mean word length, # and
 *                      ellipsis ratios, bullet / ellipsis lines, alphabetic words,
 *                      stop words)
 *   c4_quality         C4QualityFilter (edits the text: drops lines; drops the
 *                      document for "lorem ipsum", "{" or too few sentences)
 *   fineweb_quality    FineWebQualityFilter
 *
 * Words and sentences are datatrove's English ones, spaCy's rule-based tokenizer
 * (preprocess/text/spacy_tok.h); every length is in code points, every line split and
 * strip is Python's. A drop returns datatrove's own reason string. */
#ifndef PREPROCESS_QUALITY_H
#define PREPROCESS_QUALITY_H

#include <stddef.h>
#include <stdint.h>

#define QUALITY_MAX_NGRAMS 16

/* datatrove's parameters; a zero threshold switches its check off as datatrove's
 * `if self.x and ...` does (C4's integers: -1, as datatrove). */
typedef struct {
    /* GopherRepetitionFilter */
    double dup_line_frac, dup_para_frac, dup_line_char_frac, dup_para_char_frac;
    int n_top, top_n[QUALITY_MAX_NGRAMS];
    double top_frac[QUALITY_MAX_NGRAMS];
    int n_dup, dup_n[QUALITY_MAX_NGRAMS];
    double dup_frac[QUALITY_MAX_NGRAMS];
    char top_reason[QUALITY_MAX_NGRAMS][32], dup_reason[QUALITY_MAX_NGRAMS][40];
    /* GopherQualityFilter */
    long long min_doc_words, max_doc_words;
    double min_avg_word_length, max_avg_word_length;
    double max_symbol_word_ratio, max_bullet_lines_ratio, max_ellipsis_lines_ratio, max_non_alpha_words_ratio;
    long long min_stop_words;
    const char *const *stop_words;
    size_t n_stop_words;
    /* C4QualityFilter */
    int c4_split_paragraph, c4_remove_citations, c4_filter_no_terminal_punct;
    long long c4_min_num_sentences, c4_min_words_per_line, c4_max_word_length;
    int c4_filter_lorem_ipsum, c4_filter_javascript, c4_filter_curly_bracket, c4_filter_policy;
    /* FineWebQualityFilter */
    double line_punct_thr;
    int line_punct_exclude_zero;
    const uint32_t *stop_chars; /* NULL: datatrove's TERMINAL_PUNCTUATION */
    size_t n_stop_chars;
    double short_line_thr;
    long long short_line_length;
    double char_duplicates_ratio, new_line_ratio;
} quality_params;

/* datatrove's defaults (GopherRepetitionFilter(), GopherQualityFilter(),
 * C4QualityFilter(), FineWebQualityFilter()). */
void quality_params_default(quality_params *p);
/* Fill the "top_N_gram" / "duplicated_N_n_grams" reason strings after changing
 * top_n / dup_n. */
void quality_params_reasons(quality_params *p);

typedef struct quality_ctx quality_ctx;
quality_ctx *quality_ctx_new(void); /* per thread; NULL: out of memory (err_msg) */
void quality_ctx_free(quality_ctx *q);
/* A new document: forget the words of the previous one. */
void quality_begin(quality_ctx *q);

/* Each returns 1 to keep, 0 to drop (with *reason: datatrove's string), or a
 * negative ERR_*. The text must be valid UTF-8 and stay unchanged between the
 * filters of one document (the words are computed once). c4_quality: when kept,
 * *out / *out_len are the edited text (owned by q, valid until its next call). */
int quality_gopher_repetition(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **reason);
int quality_gopher_quality(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **reason);
int quality_c4(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **out, size_t *out_len,
               const char **reason);
int quality_fineweb(quality_ctx *q, const quality_params *p, const char *t, size_t n, const char **reason);


/* ---------- command-line glue (cleanup's flags, datatrove's parameter names) ---------- */

typedef struct {
    const char *top_n_grams, *dup_n_grams, *stop_words, *stop_chars;
    const char *c4_split_paragraph, *c4_remove_citations, *c4_filter_no_terminal_punct, *c4_filter_lorem_ipsum,
        *c4_filter_javascript, *c4_filter_curly_bracket, *c4_filter_policy, *line_punct_exclude_zero;
    /* what --stop-words / --stop-chars made */
    char *stop_buf;
    const char **stop_vec;
    uint32_t *stop_chars_vec;
} quality_cli;

/* The options of the four filters, for an arg_opt table (p: quality_params, s: quality_cli). */
#define QUALITY_OPTS(p, s)                                                                                             \
    {"dup-line-frac", 0, ARG_DOUBLE, &(p).dup_line_frac, "F", "gopher_repetition: duplicate lines (default 0.3)"},     \
    {"dup-para-frac", 0, ARG_DOUBLE, &(p).dup_para_frac, "F", "gopher_repetition: duplicate paragraphs (default 0.3)"}, \
    {"dup-line-char-frac", 0, ARG_DOUBLE, &(p).dup_line_char_frac, "F",                                                \
     "gopher_repetition: characters in duplicate lines (default 0.2)"},                                                \
    {"dup-para-char-frac", 0, ARG_DOUBLE, &(p).dup_para_char_frac, "F",                                                \
     "gopher_repetition: characters in duplicate paragraphs (default 0.2)"},                                           \
    {"top-n-grams", 0, ARG_STR, &(s).top_n_grams, "N:F,...",                                                           \
     "gopher_repetition: most frequent n-gram's characters (default 2:0.2,3:0.18,4:0.16; \"\" none)"},                 \
    {"dup-n-grams", 0, ARG_STR, &(s).dup_n_grams, "N:F,...",                                                           \
     "gopher_repetition: duplicate n-grams' characters (default 5:0.15,6:0.14,7:0.13,8:0.12,9:0.11,10:0.1)"},          \
    {"min-doc-words", 0, ARG_INT, &(p).min_doc_words, "N", "gopher_quality: fewest words, symbols not counted (50)"},  \
    {"max-doc-words", 0, ARG_INT, &(p).max_doc_words, "N", "gopher_quality: most words (100000)"},                     \
    {"min-avg-word-length", 0, ARG_DOUBLE, &(p).min_avg_word_length, "F", "gopher_quality: (default 3)"},              \
    {"max-avg-word-length", 0, ARG_DOUBLE, &(p).max_avg_word_length, "F", "gopher_quality: (default 10)"},             \
    {"max-symbol-word-ratio", 0, ARG_DOUBLE, &(p).max_symbol_word_ratio, "F",                                          \
     "gopher_quality: # or ellipses per word (default 0.1)"},                                                          \
    {"max-bullet-lines-ratio", 0, ARG_DOUBLE, &(p).max_bullet_lines_ratio, "F",                                        \
     "gopher_quality: lines starting with a bullet (default 0.9)"},                                                    \
    {"max-ellipsis-lines-ratio", 0, ARG_DOUBLE, &(p).max_ellipsis_lines_ratio, "F",                                    \
     "gopher_quality: lines ending with an ellipsis (default 0.3)"},                                                   \
    {"max-non-alpha-words-ratio", 0, ARG_DOUBLE, &(p).max_non_alpha_words_ratio, "F",                                  \
     "gopher_quality: least fraction of words with a letter (default 0.8)"},                                           \
    {"min-stop-words", 0, ARG_INT, &(p).min_stop_words, "N", "gopher_quality: fewest distinct stop words (default 2)"}, \
    {"stop-words", 0, ARG_STR, &(s).stop_words, "W,...",                                                               \
     "gopher_quality: the stop words (default the,be,to,of,and,that,have,with)"},                                      \
    {"c4-split-paragraph", 0, ARG_STR, &(s).c4_split_paragraph, "BOOL",                                                \
     "c4_quality: lines are lines (true) or spaCy sentences (false)"},                                                 \
    {"c4-remove-citations", 0, ARG_STR, &(s).c4_remove_citations, "BOOL", "c4_quality: remove [1], [edit]... (true)"}, \
    {"c4-filter-no-terminal-punct", 0, ARG_STR, &(s).c4_filter_no_terminal_punct, "BOOL",                              \
     "c4_quality: drop lines not ending in . ? ! \" ' (true)"},                                                        \
    {"c4-min-num-sentences", 0, ARG_INT, &(p).c4_min_num_sentences, "N", "c4_quality: fewest sentences (5; -1 off)"}, \
    {"c4-min-words-per-line", 0, ARG_INT, &(p).c4_min_words_per_line, "N", "c4_quality: (3; -1 off)"},               \
    {"c4-max-word-length", 0, ARG_INT, &(p).c4_max_word_length, "N", "c4_quality: drop lines with a longer word (1000; -1 off)"}, \
    {"c4-filter-lorem-ipsum", 0, ARG_STR, &(s).c4_filter_lorem_ipsum, "BOOL", "c4_quality: (true)"},                   \
    {"c4-filter-javascript", 0, ARG_STR, &(s).c4_filter_javascript, "BOOL", "c4_quality: (true)"},                     \
    {"c4-filter-curly-bracket", 0, ARG_STR, &(s).c4_filter_curly_bracket, "BOOL", "c4_quality: (true)"},               \
    {"c4-filter-policy", 0, ARG_STR, &(s).c4_filter_policy, "BOOL", "c4_quality: cookie / terms-of-use lines (true)"}, \
    {"line-punct-thr", 0, ARG_DOUBLE, &(p).line_punct_thr, "F",                                                        \
     "fineweb_quality: least fraction of lines ending in punctuation (0.12)"},                                         \
    {"line-punct-exclude-zero", 0, ARG_STR, &(s).line_punct_exclude_zero, "BOOL", "fineweb_quality: (false)"},         \
    {"stop-chars", 0, ARG_STR, &(s).stop_chars, "CHARS",                                                               \
     "fineweb_quality: the line-ending characters (default datatrove's TERMINAL_PUNCTUATION)"},                        \
    {"short-line-thr", 0, ARG_DOUBLE, &(p).short_line_thr, "F", "fineweb_quality: most short lines (0.67)"},           \
    {"short-line-length", 0, ARG_INT, &(p).short_line_length, "N", "fineweb_quality: a short line's length (30)"},     \
    {"char-duplicates-ratio", 0, ARG_DOUBLE, &(p).char_duplicates_ratio, "F",                                          \
     "fineweb_quality: characters in duplicate lines (0.01)"},                                                         \
    {"new-line-ratio", 0, ARG_DOUBLE, &(p).new_line_ratio, "F", "fineweb_quality: newlines per word (0.3)"}

/* Parse the string-valued options into p and check every value's range:
 * 0 or ERR_USAGE (message names the flag). */
int quality_cli_finish(quality_params *p, quality_cli *s);
void quality_cli_free(quality_cli *s);

#endif

/* spacy_tok.h - the English word and sentence splitter of datatrove's quality
 * filters, in C: spaCy's rule-based tokenizer as `spacy.blank("en")` builds it
 * (special cases, prefix / suffix / infix rules, URL match, the special-case
 * pass after affix splitting) and its "sentencizer".
 *
 * The rules are data taken from spaCy by preprocess/text/generated/gen_spacy_tables.py
 * (preprocess/text/generated/spacy_en_data.h); the regular expressions run in PCRE2
 * with JIT. The algorithm is spaCy's tokenizer.pyx (3.8): split on whitespace,
 * then per non-space span: special case? else strip prefixes and suffixes one at
 * a time (stopping where what remains is a special case), then the URL match or
 * the infix splits of what remains. Each span's split is cached (per context),
 * as spaCy caches it, which is what makes it fast on real text.
 *
 * Token offsets are bytes into the caller's text, which must be valid UTF-8
 * (under 4 GiB). Contexts are per thread; the compiled rules are shared. */
#ifndef PREPROCESS_SPACY_TOK_H
#define PREPROCESS_SPACY_TOK_H

#include <stddef.h>
#include <stdint.h>

typedef struct { uint32_t off, len; } sp_token;
typedef struct {
    sp_token *t;
    size_t n, cap;
} sp_tokens;

typedef struct spacy_ctx spacy_ctx;

/* A context (compiles the shared rules on first use). NULL: out of memory or the
 * rules did not compile (err_msg() says which). */
spacy_ctx *spacy_ctx_new(void);
void spacy_ctx_free(spacy_ctx *c);
void sp_tokens_free(sp_tokens *v);

/* Every token of spaCy's Doc for text[0..n), whitespace tokens included. 0 or ERR_*. */
int spacy_tokenize(spacy_ctx *c, const char *text, size_t n, sp_tokens *out);
/* What spaCy's prefix_search and suffix_search find on s[0..n): the lengths in bytes of
 * the prefix and the suffix (0: none); for the tests of the tokenizer's fast paths. */
int spacy_affixes(spacy_ctx *c, const char *s, size_t n, size_t *prefix, size_t *suffix);
/* For those tests too: the tokens of one span s[0..n) (no whitespace in it), their
 * lengths in lens[0..*nout) (at most cap); slow 1 takes the patterns' way, no fast path. */
int spacy_split(spacy_ctx *c, const char *s, size_t n, int slow, uint32_t *lens, size_t cap, size_t *nout);
/* datatrove's split_into_words: the tokens that are not whitespace. */
int spacy_words(spacy_ctx *c, const char *text, size_t n, sp_tokens *out);
/* The sentencizer over tokens from spacy_tokenize: the number of sentences; when
 * ends is not NULL, each sentence's end (byte offset of its last token's end) is
 * appended to it (as sp_token {end, 0}). */
size_t spacy_sentences(const char *text, const sp_tokens *toks, sp_tokens *ends);
/* The same over tk[0..nt): a stretch of a document's tokens that spaCy would make of
 * that stretch alone (a line: lines are cut at whitespace, and no special case
 * spans a whitespace token). */
size_t spacy_sentences_range(const char *text, const sp_token *tk, size_t nt, sp_tokens *ends);
/* The token is whitespace (a run of it: spaCy keeps such runs as tokens). Inline for
 * a token that starts with ASCII (called for every token of every document). */
int spacy_is_space_token_wide(const char *text, const sp_token *t);
extern const uint8_t utf8_ascii_pyspace[128];
static inline int spacy_is_space_token(const char *text, const sp_token *t)
{
    if (t->len && (unsigned char)text[t->off] < 0x80) return utf8_ascii_pyspace[(unsigned char)text[t->off]];
    return spacy_is_space_token_wide(text, t);
}

/* Character classes of the Python that datatrove runs under (generated). */
/* Their answers for the ASCII characters, one bit per class (filled before main). */
enum { A_SPACE = 1, A_PUNCT = 2, A_DTPUNCT = 4, A_TERMINAL = 8, A_ALPHA = 16 };
extern uint8_t sp_ascii_class[128];
int py_isalpha_cp(uint32_t cp);
int py_isspace_cp(uint32_t cp);
int uc_ispunct_cp(uint32_t cp);      /* unicodedata.category(c).startswith("P") */
int dt_punctuation_cp(uint32_t cp);  /* datatrove PUNCTUATION_SET */
int dt_terminal_cp(uint32_t cp);     /* datatrove TERMINAL_PUNCTUATION */
int py_isdecimal_cp(uint32_t cp);    /* \d of Python's re (category Nd) */
/* For the non-ASCII characters whose str.lower() holds an ASCII letter (U+0130,
 * U+212A): that lower case in UTF-8; NULL for every other character. */
const char *py_lower_special(uint32_t cp);
/* The Gopher stop words of datatrove (count n). */
const char *const *gopher_default_stop_words(size_t *n);
const char *spacy_en_version(void);

#endif

/* fixtext.h - ftfy.fix_text (ftfy 6.x defaults) in C.
 *
 * The same passes in the same order, repeated until nothing changes, on each
 * line segment as ftfy does (FORMATS.md §5):
 *   unescape_html ("auto": off from the first segment holding '<' on),
 *   fix_encoding (mojibake: re-encode as latin-1, sloppy windows-1252/1251/
 *     1250/1253/1254/1257, iso-8859-2, macroman, cp437 and decode as UTF-8 or
 *     CESU-8 / Java's C0 80, when ftfy's "badness" heuristic says the text
 *     looks wrong; restore_byte_a0, replace_lossy_sequences,
 *     decode_inconsistent_utf8, latin-1 -> windows-1252, C1 controls),
 *   fix_c1_controls, fix_latin_ligatures, fix_character_width, uncurl_quotes,
 *   fix_line_breaks, fix_surrogates, remove_terminal_escapes,
 *   remove_control_chars, NFC (utf8proc).
 * The tables and the two regular expressions (BADNESS_RE, UTF8_DETECTOR_RE,
 * run by PCRE2 with JIT) are generated from ftfy by preprocess/text/generated/gen_ftfy_tables.py.
 *
 * Text is UTF-8 with explicit length (NUL bytes allowed). Invalid UTF-8 in the
 * input is first replaced as Python's errors="replace" does. Surrogate code
 * points cannot occur in UTF-8, so fix_surrogates has nothing to do here: the
 * JSON reader already turns lone surrogate escapes into U+FFFD, which is what
 * ftfy's fix_surrogates does with them.
 */
#ifndef PREPROCESS_FIXTEXT_H
#define PREPROCESS_FIXTEXT_H
#include <stddef.h>

typedef struct {
    int unescape_html;        /* 1: ftfy's "auto"; 0: off */
    int remove_terminal_escapes;
    int fix_encoding;
    int fix_c1_controls;
    int fix_latin_ligatures;
    int fix_character_width;
    int uncurl_quotes;
    int fix_line_breaks;
    int remove_control_chars;
    int normalization;        /* 1: NFC, 0: none */
    size_t max_decode_length; /* code points per segment (ftfy: 1,000,000) */
} fixtext_config;

void fixtext_config_default(fixtext_config *c);

typedef struct fixtext_ctx fixtext_ctx;

/* One context per thread (scratch buffers and PCRE2 match data). The shared
 * tables and compiled patterns are set up once, thread-safely. NULL on
 * failure (out of memory, or the patterns failed to compile: a bug). */
fixtext_ctx *fixtext_new(void);
void fixtext_free(fixtext_ctx *x);

/* Fix s[0..n). Returns the result (owned by x, valid until the next call on
 * x) with its length in *out_n. Never fails except out of memory (NULL). */
const char *fixtext_fix(fixtext_ctx *x, const fixtext_config *c, const char *s, size_t n, size_t *out_n);

/* ftfy.badness.is_bad on UTF-8 text: 1 if it looks like mojibake. */
int fixtext_is_bad(fixtext_ctx *x, const char *s, size_t n);
/* The same, always by a full PCRE2 search (the fast path skips ASCII runs);
 * for tests. */
int fixtext_is_bad_full(fixtext_ctx *x, const char *s, size_t n);
/* ftfy.fix_encoding alone. Result owned by x as for fixtext_fix. */
const char *fixtext_fix_encoding(fixtext_ctx *x, const char *s, size_t n, size_t *out_n);

/* The Megatron cleanup_fix_dataset "general_cleaning" substitution:
 * re.sub(r"  +|\b\n+ |\b\n+", " ", text) with Python's Unicode \b. */
const char *fixtext_general_cleaning(fixtext_ctx *x, const char *s, size_t n, size_t *out_n);

/* 1 when s[0..n) is surely in Unicode NFC: none of its code points has a nonzero
 * canonical combining class, is changed by NFC or is the second of a canonical
 * composition (ftfy's table of them); 0 when NFC may change it. */
int fixtext_is_nfc(const char *s, size_t n);

/* Number of code points (Python len()) of valid UTF-8. */
size_t fixtext_cp_len(const char *s, size_t n);

#endif

/* pretok.h - GPT-2 pre-tokenisation, hand-written.
 *
 * Splits text exactly as the GPT-2 pattern (FORMATS.md section 3)
 *   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 * does under leftmost-first alternation, in one forward pass without
 * backtracking (linear in the input whatever it holds). \p{L} and \p{N} are
 * the Unicode general categories L* and N* (utf8proc's tables), \s is the
 * Unicode White_Space property. Equivalence with the regex (run by PCRE2) is
 * checked by the unit tests on random and adversarial strings.
 *
 * The input must be valid UTF-8 (see utf8_sanitize()).
 */
#ifndef TOKENIZER_PRETOK_H
#define TOKENIZER_PRETOK_H
#include <stddef.h>
#include <stdint.h>

enum { PRETOK_OTHER = 0, PRETOK_LETTER = 1, PRETOK_NUMBER = 2, PRETOK_SPACE = 3 };

/* The GPT-2 pattern, for PCRE2 (tests and the --regex cross-check). */
#define PRETOK_GPT2_PATTERN \
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+"

/* Class of a code point (thread-safe; tables are built on first use). */
int pretok_class(uint32_t cp);

/* End of the piece that starts at s[i] (i < n). */
size_t pretok_next(const unsigned char *s, size_t n, size_t i);

/* End of the piece at s[i] under the Llama 3 pattern (max_digits 3), Qwen2's
 * (max_digits 1) or cl100k_base's (max_digits 3, cl100k 1): the same pieces
 * as PCRE2 running those patterns (tests/unit/test_tokfamilies.c checks it on
 * random and adversarial strings). */
size_t pretok_tiktoken_next(const unsigned char *s, size_t n, size_t i, int max_digits, int cl100k);
/* The same for o200k_base's pattern (upper/lower-case letter runs). */
size_t pretok_o200k_next(const unsigned char *s, size_t n, size_t i);
/* DeepSeek-V3's three Split patterns (which = 1, 2, 3): the next match at or
 * after pos, as PCRE2 would find it; 0 when there is none. */
int pretok_deepseek_search(int which, const unsigned char *s, size_t n, size_t pos, size_t *ms, size_t *me);
#define PRETOK_DS_PAT1 "\\p{N}{1,3}"
#define PRETOK_DS_PAT2 "[\xe4\xb8\x80-\xe9\xbe\xa5\xe3\x81\x80-\xe3\x82\x9f\xe3\x82\xa0-\xe3\x83\xbf]+"
#define PRETOK_DS_PAT3 "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"

#endif

/* utf8.h - UTF-8 decoding/validation and the Unicode whitespace predicates
 * that our references use.
 *
 * Validation is strict, as Python's "utf-8" codec: no overlong forms, no
 * surrogates (U+D800..DFFF), nothing above U+10FFFF.
 */
#ifndef COMMON_UTF8_H
#define COMMON_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decode one code point from s[0..n). Returns its length (1..4) with *cp set,
 * or -1 for an invalid or truncated sequence (then *cp = 0xFFFD and the caller
 * should skip one byte). n must be > 0. */
int utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);
/* Encode cp (<= 0x10FFFF) into out; returns 1..4. */
int utf8_encode(uint32_t cp, char out[4]);
/* Length of the longest valid prefix of s[0..n) (== n when all valid). */
size_t utf8_valid_prefix(const char *s, size_t n);
static inline int utf8_valid(const char *s, size_t n) { return utf8_valid_prefix(s, n) == n; }
/* Length of the maximal invalid subpart at s[0..n) (s[0] starts an invalid
 * sequence): what Python's decoder with errors="replace" turns into one
 * U+FFFD (1..3 bytes). */
size_t utf8_invalid_len(const unsigned char *s, size_t n);
/* Copy s[0..n) to out replacing every maximal invalid subpart with U+FFFD
 * (EF BF BD), exactly as bytes.decode("utf-8", "replace") does. out needs
 * room for 3*n bytes. Returns the output length. */
size_t utf8_sanitize(const char *s, size_t n, char *out);
/* Python's str.isspace(): bidi class WS/B/S or category Zs. Includes
 * U+001C..U+001F and U+0085, unlike C isspace and Unicode White_Space. */
int utf8_is_pyspace(uint32_t cp);
/* utf8_is_pyspace of the ASCII code points, as a table (1: space) */
extern const uint8_t utf8_ascii_pyspace[128];
/* Unicode White_Space property (what \s means in the GPT-2 regex). */
int utf8_is_white_space(uint32_t cp);
/* Python's str.strip() on UTF-8 bytes: trims utf8_is_pyspace code points at
 * both ends, in place on the (pointer, length) pair. Invalid bytes stop it. */
void utf8_strip_pyspace(const char **s, size_t *n);
/* str.lstrip() / str.rstrip(): one end only (rstrip shortens *n). */
void utf8_lstrip_pyspace(const char **s, size_t *n);
void utf8_rstrip_pyspace(const char *s, size_t *n);

#endif

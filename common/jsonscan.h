/* jsonscan.h - the fast path for a JSON-lines record: one pass over a flat
 * object for the few keys a tool reads, no tree built.
 *
 * jsonscan_fields checks the line as strict JSON (RFC 8259) and finds the
 * top-level keys asked for. It answers only where it is sure to agree with
 * the cJSON path (jsonl_parse_line + jsonl_get_string / jsonl_value_span):
 * on anything else it returns 0 and the caller parses the line with cJSON as
 * before, so every error message and every odd case stays that path's. It
 * returns 0 for: invalid JSON, a top level that is not an object, a byte
 * order mark, nesting deeper than JSONSCAN_MAX_DEPTH, a number of more than
 * 40 characters, a UTF-16 surrogate escape (\uD800-\uDFFF: cJSON's repair
 * path), a key asked for that appears twice or is written with escapes.
 * A key containing a dot that is absent also returns 0 (cJSON's path
 * resolves it as a path into nested objects).
 */
#ifndef COMMON_JSONSCAN_H
#define COMMON_JSONSCAN_H

#include <stddef.h>
#include <stdint.h>

/* Four hex digits at p (either case) into *v; 0 if one is not a hex digit. */
static inline int jsonscan_hex4(const unsigned char *p, unsigned *v)
{
    unsigned x = 0;
    for (int k = 0; k < 4; k++) {
        unsigned c = p[k], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') d = (c | 0x20) - 'a' + 10;
        else return 0;
        x = x << 4 | d;
    }
    *v = x;
    return 1;
}

#define JSONSCAN_MAX_DEPTH 64
#define JSONSCAN_MAX_KEYS 8

typedef struct {
    size_t start, end; /* the raw value s[start..end), quotes included; end == 0: key absent */
    uint8_t type;      /* JSONSCAN_STRING, ... */
    uint8_t escaped;   /* a string holding a backslash escape (else its bytes are the value) */
} jsonscan_span;

enum { JSONSCAN_ABSENT = 0, JSONSCAN_STRING, JSONSCAN_NUMBER, JSONSCAN_LITERAL, JSONSCAN_OBJECT, JSONSCAN_ARRAY };

/* 1: s[0..n) is a JSON object (white space around it allowed) and spans[k]
 * describes keys[k] for k < nk (nk <= JSONSCAN_MAX_KEYS); 0: take the cJSON
 * path (see above). */
int jsonscan_fields(const char *s, size_t n, const char *const *keys, size_t nk, jsonscan_span *spans);

/* The bytes of the string value sp (a JSONSCAN_STRING span of s) as cJSON's
 * parse gives them, but NULs (\u0000) kept: escapes decoded, raw bytes
 * copied as they are (no UTF-8 check). Unescaped strings are not copied:
 * *out points into s. Otherwise decoded into *buf (grown; *cap its size).
 * 0 or ERR_NOMEM. */
int jsonscan_string(const char *s, const jsonscan_span *sp, const char **out, size_t *len, char **buf, size_t *cap);

/* The JSON string at s[*i] == '"' as jsonscan_fields takes one (the escapes it knows, no
 * control byte, no surrogate escape): *i moves past its closing quote and *sp describes it
 * for jsonscan_string. 0: not such a string (the caller's slow path decides). */
int jsonscan_string_at(const char *s, size_t n, size_t *i, jsonscan_span *sp);

#endif

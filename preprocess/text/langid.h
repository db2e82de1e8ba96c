/* langid.h - language identification with CLD2 (Google's Compact Language
 * Detector 2; Debian's source, built from third_party/cld2): a naive-Bayes model
 * over quadgrams of letters, deterministic, 80+ languages, about 35 MB/s per thread.
 *
 * Megatron's cleanup uses Python's langdetect, which is randomised unless
 * seeded and reads only the first 10,000 characters. We read at most the first
 * LANGID_MAX_BYTES of the text (cut at a character boundary), so the cost per
 * document is bounded; a longer prefix does not change the verdict in
 * practice (scripts/check/langid_eval.py measures accuracy).
 */
#ifndef PREPROCESS_LANGID_H
#define PREPROCESS_LANGID_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LANGID_MAX_BYTES 65536

typedef struct {
    char code[16];   /* ISO 639-1 where there is one ("en", "de", "zh"), "un" if unknown */
    int percent;     /* share of the text's letters in that language */
    int reliable;    /* CLD2's own reliability flag */
    int text_bytes;  /* letters scored */
} langid_result;

/* Detect the main language of UTF-8 text s[0..n). Thread-safe. Returns 0, or
 * ERR_NOMEM (message set) when memory runs out.
 * CLD2 looks one character past the end of its text (the script of the letter after
 * a letter of another script); the text is copied into a buffer with NULs after it,
 * so that the answer never depends on the bytes that follow s[n-1] in memory. */
int langid_detect(const char *s, size_t n, langid_result *r);

/* Is `code` a language code CLD2 knows (for checking --lang)? */
int langid_known(const char *code);

#ifdef __cplusplus
}
#endif
#endif

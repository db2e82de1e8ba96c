/* strset.h - a set of byte strings (exact match), open addressing on XXH3.
 * Strings are copied into an internal arena; memory is about len + 24 bytes
 * per distinct string. */
#ifndef COMMON_STRSET_H
#define COMMON_STRSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct strset strset;

strset *strset_new(void);
void strset_free(strset *s); /* accepts NULL */
/* Insert: 1 if it was new, 0 if already present, ERR_NOMEM. */
int strset_add(strset *s, const char *str, size_t len);
/* 1 if present, else 0. */
int strset_has(const strset *s, const char *str, size_t len);
size_t strset_count(const strset *s);

#endif

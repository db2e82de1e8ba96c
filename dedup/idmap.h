/* idmap.h - string id -> dense index (0, 1, 2, ... in insertion order). */
#ifndef DEDUP_IDMAP_H
#define DEDUP_IDMAP_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t *slots; /* index + 1 */
    size_t mask;
    uint64_t *off;   /* per index: offset into arena */
    uint32_t *len;
    size_t n, cap;
    char *arena;
    size_t alen, acap;
} idmap;

/* Index of s, adding it if new (*added set). Returns index or ERR_NOMEM. */
long idmap_put(idmap *m, const char *s, size_t n, int *added);
/* Index of s or -1. */
long idmap_get(const idmap *m, const char *s, size_t n);
static inline const char *idmap_str(const idmap *m, size_t i, size_t *len)
{
    *len = m->len[i];
    return m->arena + m->off[i];
}
void idmap_free(idmap *m);
#endif

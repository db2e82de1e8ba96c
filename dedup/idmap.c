/* idmap.c - see idmap.h. */
#include "idmap.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/hash.h"

static size_t slot_of(const idmap *m, const char *s, size_t n, int *found)
{
    size_t i = (size_t)hash64(s, n, 17) & m->mask;
    for (;;) {
        uint32_t v = m->slots[i];
        if (!v) { *found = 0; return i; }
        if (m->len[v - 1] == n && memcmp(m->arena + m->off[v - 1], s, n) == 0) { *found = 1; return i; }
        i = (i + 1) & m->mask;
    }
}

long idmap_get(const idmap *m, const char *s, size_t n)
{
    if (!m->slots) return -1;
    int found;
    size_t i = slot_of(m, s, n, &found);
    return found ? (long)m->slots[i] - 1 : -1;
}

long idmap_put(idmap *m, const char *s, size_t n, int *added)
{
    if (!m->slots) {
        m->mask = 1023;
        if (!(m->slots = calloc(m->mask + 1, sizeof *m->slots))) return err_set(ERR_NOMEM, "out of memory");
    }
    int found;
    size_t i = slot_of(m, s, n, &found);
    *added = !found;
    if (found) return (long)m->slots[i] - 1;
    if (m->n == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 1024;
        uint64_t *o = realloc(m->off, nc * sizeof *o);
        if (o) m->off = o;
        uint32_t *l = o ? realloc(m->len, nc * sizeof *l) : NULL;
        if (l) m->len = l;
        if (!o || !l) return err_set(ERR_NOMEM, "out of memory");
        m->cap = nc;
    }
    if (m->alen + n > m->acap) {
        size_t nc = m->acap ? m->acap * 2 : 1 << 16;
        while (nc < m->alen + n) nc *= 2;
        char *a = realloc(m->arena, nc);
        if (!a) return err_set(ERR_NOMEM, "out of memory");
        m->arena = a;
        m->acap = nc;
    }
    memcpy(m->arena + m->alen, s, n);
    m->off[m->n] = m->alen;
    m->len[m->n] = (uint32_t)n;
    m->alen += n;
    m->slots[i] = (uint32_t)(++m->n);
    if (m->n * 2 > m->mask) {
        size_t nm = m->mask * 2 + 1;
        uint32_t *ns = calloc(nm + 1, sizeof *ns);
        if (!ns) return err_set(ERR_NOMEM, "out of memory");
        for (size_t k = 0; k < m->n; k++) {
            size_t h = (size_t)hash64(m->arena + m->off[k], m->len[k], 17) & nm;
            while (ns[h]) h = (h + 1) & nm;
            ns[h] = (uint32_t)(k + 1);
        }
        free(m->slots);
        m->slots = ns;
        m->mask = nm;
    }
    return (long)m->n - 1;
}

void idmap_free(idmap *m)
{
    free(m->slots);
    free(m->off);
    free(m->len);
    free(m->arena);
    memset(m, 0, sizeof *m);
}

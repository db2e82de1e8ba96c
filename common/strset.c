/* strset.c - see strset.h. Table of (hash, arena offset); load factor <= 1/2. */
#include "strset.h"
#include "err.h"
#include "hash.h"

#include <stdlib.h>
#include <string.h>

typedef struct { uint64_t hash; uint64_t off; } slot; /* off = 0: empty; else arena offset + 1 */

struct strset {
    slot *tab;
    size_t mask, count;
    char *arena; /* records: uint32 length, then bytes */
    size_t alen, acap;
};

strset *strset_new(void)
{
    strset *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->mask = 1023;
    s->tab = calloc(s->mask + 1, sizeof *s->tab);
    if (!s->tab) { free(s); return NULL; }
    return s;
}

void strset_free(strset *s)
{
    if (!s) return;
    free(s->tab);
    free(s->arena);
    free(s);
}

static int eq(const strset *s, uint64_t off, const char *str, size_t len)
{
    const char *p = s->arena + off - 1;
    uint64_t n;
    memcpy(&n, p, sizeof n);
    return n == len && memcmp(p + sizeof n, str, len) == 0;
}

static size_t find(const strset *s, uint64_t h, const char *str, size_t len)
{
    size_t i = (size_t)h & s->mask;
    while (s->tab[i].off && !(s->tab[i].hash == h && eq(s, s->tab[i].off, str, len))) i = (i + 1) & s->mask;
    return i;
}

static int grow(strset *s)
{
    size_t nmask = s->mask * 2 + 1;
    slot *nt = calloc(nmask + 1, sizeof *nt);
    if (!nt) return ERR_NOMEM;
    for (size_t i = 0; i <= s->mask; i++) {
        if (!s->tab[i].off) continue;
        size_t j = (size_t)s->tab[i].hash & nmask;
        while (nt[j].off) j = (j + 1) & nmask;
        nt[j] = s->tab[i];
    }
    free(s->tab);
    s->tab = nt;
    s->mask = nmask;
    return 0;
}

int strset_add(strset *s, const char *str, size_t len)
{
    uint64_t h = hash64(str, len, 0);
    size_t i = find(s, h, str, len);
    if (s->tab[i].off) return 0;
    size_t need = s->alen + sizeof(uint64_t) + len;
    if (need > s->acap) {
        size_t ncap = s->acap ? s->acap : 1 << 16;
        while (ncap < need) ncap *= 2;
        char *na = realloc(s->arena, ncap);
        if (!na) return err_set(ERR_NOMEM, "out of memory (string set of %zu entries)", s->count);
        s->arena = na;
        s->acap = ncap;
    }
    uint64_t n = len;
    memcpy(s->arena + s->alen, &n, sizeof n);
    memcpy(s->arena + s->alen + sizeof n, str, len);
    s->tab[i].hash = h;
    s->tab[i].off = s->alen + 1;
    s->alen = need;
    s->count++;
    if (s->count * 2 > s->mask && grow(s) < 0) return err_set(ERR_NOMEM, "out of memory (string set)");
    return 1;
}

int strset_has(const strset *s, const char *str, size_t len)
{
    uint64_t h = hash64(str, len, 0);
    return s->tab[find(s, h, str, len)].off != 0;
}

size_t strset_count(const strset *s) { return s->count; }

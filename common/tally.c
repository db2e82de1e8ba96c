/* tally.c - see tally.h. */
#include "common/tally.h"

#include <inttypes.h>
#include <string.h>

void tally_init(tally *t) { memset(t, 0, sizeof *t); }

int tally_reason_id(tally *t, const char *name)
{
    for (int i = 0; i < t->nr; i++)
        if (!strcmp(t->r[i].name, name))
            return i;
    if (t->nr == TALLY_MAX)
        return -1;
    tally_reason *r = &t->r[t->nr];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    return t->nr++;
}

int tally_hidden(tally *t, const char *name)
{
    int id = tally_reason_id(t, name);
    if (id >= 0)
        t->r[id].hidden = 1;
    return id;
}

void tally_print_dropped(const tally *t, FILE *f, int width, const char *what, const char *unit)
{
    for (int i = 0; i < t->nr; i++)
        if (t->r[i].n && !t->r[i].hidden)
            fprintf(f, "  dropped %-*s %10" PRIu64 " %s %14" PRIu64 " %s\n", width, t->r[i].name, t->r[i].n, what,
                    t->r[i].amount, unit);
}

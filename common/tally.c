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

void tally_describe(tally *t, int id, const char *help)
{
    if (id >= 0 && id < t->nr)
        t->r[id].help = help;
}

void tally_print_dropped(const tally *t, FILE *f, int width, const char *what, const char *unit)
{
    if (width <= 0) {
        width = 12;
        for (int i = 0; i < t->nr; i++)
            if (t->r[i].n && !t->r[i].hidden && (int)strlen(t->r[i].name) > width)
                width = (int)strlen(t->r[i].name);
    }
    for (int i = 0; i < t->nr; i++) {
        const tally_reason *r = &t->r[i];
        if (!r->n || r->hidden)
            continue;
        fprintf(f, "  dropped %-*s %10" PRIu64 " %s", width, r->name, r->n, what);
        if (unit)
            fprintf(f, " %14" PRIu64 " %s", r->amount, unit);
        fprintf(f, "%s%s\n", r->help ? "  " : "", r->help ? r->help : "");
    }
}

void tally_summary(const tally *t, FILE *f, const char *tool, const char *what, const char *unit, const char *note)
{
    fprintf(f, "%s: %" PRIu64 " %s in: %" PRIu64 " kept, %" PRIu64 " dropped", tool, t->in, what, t->kept,
            tally_dropped(t));
    if (note && *note)
        fprintf(f, " (%s)", note);
    fprintf(f, "\n");
    tally_print_dropped(t, f, 0, what, unit);
}

/* tally.h - the count a data tool keeps of what it did (datatrove's
 * stat_update): records in = kept + dropped, the drops by reason, each with its
 * records and an amount (characters, bytes), in the order the reasons were
 * registered or first seen, and the summary every data tool ends with, in one
 * format (tally_summary):
 *
 *     cleanup: 56000 documents in: 43000 kept, 13000 dropped (from 2 inputs)
 *       dropped non_english        12345 documents      987654321 characters
 *       dropped too_short            655 documents          98765 characters
 *
 * then the tool's own lines (rates, files written), indented.
 *
 * Reasons are registered by name; the id that comes back indexes them. A
 * hidden reason is counted but not printed (a tool that prints it its own way).
 * Not thread-safe: one thread counts (the tools count in input order). */
#ifndef COMMON_TALLY_H
#define COMMON_TALLY_H

#include <stdint.h>
#include <stdio.h>

#define TALLY_MAX 64

typedef struct {
    char name[64];
    uint64_t n, amount;
    int hidden;
    const char *help; /* a static string printed after the counts, or NULL */
} tally_reason;

typedef struct {
    uint64_t in, kept;
    int nr;
    tally_reason r[TALLY_MAX];
} tally;

void tally_init(tally *t);
/* The id of reason name, registered when new; -1 (and nothing counted under it)
 * when TALLY_MAX reasons are taken. */
int tally_reason_id(tally *t, const char *name);
/* Register a reason that is counted but not printed; its id. */
int tally_hidden(tally *t, const char *name);
static inline void tally_keep(tally *t) { t->in++, t->kept++; }
/* One record dropped for reason id (a -1 id counts the record only). */
static inline void tally_drop(tally *t, int id, uint64_t amount)
{
    t->in++;
    if (id >= 0 && id < t->nr)
        t->r[id].n++, t->r[id].amount += amount;
}
/* Counts made elsewhere (a worker's, a part's) added in: n records kept, or n
 * dropped for reason id with their amount. */
static inline void tally_add_kept(tally *t, uint64_t n) { t->in += n, t->kept += n; }
static inline void tally_add(tally *t, int id, uint64_t n, uint64_t amount)
{
    t->in += n;
    if (id >= 0 && id < t->nr)
        t->r[id].n += n, t->r[id].amount += amount;
}
static inline uint64_t tally_count(const tally *t, int id) { return id >= 0 && id < t->nr ? t->r[id].n : 0; }
static inline uint64_t tally_dropped(const tally *t) { return t->in - t->kept; }
/* What reason id means, printed after its counts (a static string). */
void tally_describe(tally *t, int id, const char *help);
/* "  dropped NAME  N WHAT  AMOUNT UNIT  HELP" for each reason with drops, names
 * padded to width (0: the longest name's, at least 12); no amount column when
 * unit is NULL. */
void tally_print_dropped(const tally *t, FILE *f, int width, const char *what, const char *unit);
/* The summary: "TOOL: IN WHAT in: KEPT kept, DROPPED dropped (NOTE)" (no
 * parenthesis when note is NULL or empty), then tally_print_dropped. */
void tally_summary(const tally *t, FILE *f, const char *tool, const char *what, const char *unit, const char *note);

#endif

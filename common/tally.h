/* tally.h - the count a data tool keeps of what it did (datatrove's
 * stat_update): records in = kept + dropped, the drops by reason, each with its
 * records and an amount (characters, bytes), in the order the reasons were
 * registered or first seen, and printed in one format:
 *
 *     dropped non_english              12345 documents      987654321 characters
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
static inline uint64_t tally_count(const tally *t, int id) { return id >= 0 && id < t->nr ? t->r[id].n : 0; }
static inline uint64_t tally_dropped(const tally *t) { return t->in - t->kept; }
/* "  dropped NAME  N WHAT  AMOUNT UNIT" for each reason with drops, names padded
 * to width. */
void tally_print_dropped(const tally *t, FILE *f, int width, const char *what, const char *unit);

#endif

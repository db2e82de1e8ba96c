/* dupgroups.h - the duplicate groups of group_duplicates, and which member of
 * each is kept (the library under remove_duplicates): a group's representative
 * is the first member met in corpus order, earlier shards included, and every
 * other member is removed. */
#ifndef DEDUP_DUPGROUPS_H
#define DEDUP_DUPGROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "common/io.h"
#include "dedup/idmap.h"

/* Making the groups (group_duplicates): the pairs of find_duplicates at or
 * above a threshold (or marked exact), joined by union-find. */
typedef struct {
    idmap ids;
    uint32_t *pa;        /* the joined pairs' id indexes, two by two */
    size_t used, cap;
    size_t npairs;       /* pairs read */
} dup_pairs;

/* Read one pairs file ("-": stdin); a line that is not a pair is an error naming it. */
int dup_pairs_read(dup_pairs *p, const char *path, double threshold);
/* {"group": N, "size": S, "ids": [...]} per group: ids sorted, groups in the order of
 * their smallest id. *groups: how many. */
int dup_pairs_write_groups(dup_pairs *p, io_writer *w, uint64_t *groups);
void dup_pairs_free(dup_pairs *p);

typedef struct {
    idmap ids;          /* every grouped id */
    uint32_t *group_of; /* per id index: its group */
    size_t gcap;
    uint64_t ngroups;
    int64_t *kept_by;   /* per group: id index + 1 of its representative, 0 none met yet */
} dup_groups;

/* The groups file ({"group": N, "ids": [...]} per line); an id in two groups,
 * or a line that is not a group, is an error naming the file and line. */
int dup_groups_load(dup_groups *g, const char *path);
/* An earlier shard: its group members become representatives (*reps counted);
 * nothing of it is copied. */
int dup_groups_earlier(dup_groups *g, const char *path, const char *id_field, uint64_t *reps);

enum { DUP_UNGROUPED, DUP_REPRESENTATIVE, DUP_REMOVE };
/* What becomes of the document with this id (in corpus order): with
 * DUP_REMOVE, *group and the representative's id (*kept, *kl) say why. */
int dup_groups_decide(dup_groups *g, const char *id, uint32_t *group, const char **kept, size_t *kl);
/* Groups none of whose members was met. */
uint64_t dup_groups_absent(const dup_groups *g);
void dup_groups_free(dup_groups *g);

#endif

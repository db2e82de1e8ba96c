/* fsutil.h - expanding command-line inputs (files, directories) into lists. */
#ifndef COMMON_FSUTIL_H
#define COMMON_FSUTIL_H

#include <stddef.h>

typedef struct {
    char **paths;
    size_t n;
} fs_list;

/* Append `arg` to the list: a file as is ("-" for stdin), a directory as its
 * regular files whose names end with one of `suffixes` (NULL-terminated),
 * sorted by name, not recursive. A directory with no such file is an error
 * (ERR_USAGE naming it and the suffixes); a missing path is ERR_IO. A
 * path that does not exist but holds * ? or [ is a glob(3) pattern: its
 * matches in sorted order (none is ERR_IO). */
int fs_expand(fs_list *l, const char *arg, const char *const *suffixes);
/* The JSON-lines names the data tools take from a directory: .jsonl and .json, plain, .zst, .gz. */
extern const char *const fs_jsonl_suffixes[];
void fs_list_free(fs_list *l);
/* A file's name without its directory and its .zst / .gz / .jsonl / .json extensions
 * (hellaswag_val1000 of data/eval/hellaswag_val1000.jsonl.zst); malloc'd, NULL: out of memory. */
char *fs_stem(const char *path);
/* "NAME=FILE", NAME without a '/': 1 with *name (malloc'd; NULL when out of memory) and *file
 * set; else 0 with *name NULL and *file = spec. */
int fs_split_named(const char *spec, char **name, const char **file);

/* Temporary names. fs_tmp_suffix writes "tmp-PID-N@HOST" (this process,
 * counter n, this host). fs_remove_stale_tmp removes, from dir, the entries
 * named PREFIX + [ANYTHING "."] "tmp-PID..." (files, or directories one level deep) whose
 * process is gone: made on this host (or with no host in the name) by a PID
 * that no longer runs. Returns how many it removed. */
void fs_tmp_suffix(char *buf, size_t n, unsigned counter);
int fs_remove_stale_tmp(const char *dir, const char *prefix);

#endif

/* fsutil.c - see fsutil.h. */
#define _GNU_SOURCE
#include "fsutil.h"
#include "err.h"

#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>

static int push(fs_list *l, const char *p)
{
    char **np = realloc(l->paths, (l->n + 1) * sizeof *np);
    if (!np) return err_set(ERR_NOMEM, "out of memory");
    l->paths = np;
    if (!(np[l->n] = strdup(p))) return err_set(ERR_NOMEM, "out of memory");
    l->n++;
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int fs_expand(fs_list *l, const char *arg, const char *const *suffixes)
{
    struct stat st;
    if (strcmp(arg, "-") == 0) return push(l, arg);
    if (stat(arg, &st) != 0 && strpbrk(arg, "*?[")) {
        glob_t g;
        int grc = glob(arg, 0, NULL, &g);
        if (grc == GLOB_NOMATCH) return err_set(ERR_IO, "%s: no file matches the pattern", arg);
        if (grc != 0) return err_set(ERR_IO, "%s: cannot expand the pattern", arg);
        int rc = 0;
        for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) rc = fs_expand(l, g.gl_pathv[i], suffixes);
        globfree(&g);
        return rc;
    }
    if (stat(arg, &st) != 0) return err_sys(ERR_IO, "%s: cannot open", arg);
    if (!S_ISDIR(st.st_mode)) return push(l, arg);
    DIR *d = opendir(arg);
    if (!d) return err_sys(ERR_IO, "%s: cannot read directory", arg);
    size_t first = l->n;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        int match = 0;
        for (const char *const *s = suffixes; *s && !match; s++) {
            size_t k = strlen(*s);
            match = n > k && strcmp(e->d_name + n - k, *s) == 0;
        }
        if (!match || e->d_name[0] == '.') continue;
        size_t plen = strlen(arg) + n + 2;
        char *p = malloc(plen);
        if (!p) { rc = err_set(ERR_NOMEM, "out of memory"); break; }
        snprintf(p, plen, "%s/%s", arg, e->d_name);
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) rc = push(l, p);
        free(p);
    }
    closedir(d);
    if (rc < 0) return rc;
    if (l->n == first) {
        char want[256] = "";
        for (const char *const *s = suffixes; *s; s++) {
            size_t k = strlen(want);
            snprintf(want + k, sizeof want - k, "%s*%s", k ? ", " : "", *s);
        }
        return err_set(ERR_USAGE, "%s: directory has no input files (looked for %s)", arg, want);
    }
    qsort(l->paths + first, l->n - first, sizeof *l->paths, cmp);
    return 0;
}

void fs_list_free(fs_list *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->paths[i]);
    free(l->paths);
    l->paths = NULL;
    l->n = 0;
}

static void host_name(char *h, size_t n)
{
    if (gethostname(h, n) != 0) snprintf(h, n, "localhost");
    h[n - 1] = 0;
    for (char *p = h; *p; p++)
        if (*p == '/' || *p == '@') *p = '_';
}

void fs_tmp_suffix(char *buf, size_t n, unsigned counter)
{
    char h[64];
    host_name(h, sizeof h);
    snprintf(buf, n, "tmp-%d-%u@%s", (int)getpid(), counter, h);
}

static void rm_dir_tree(const char *p)
{
    DIR *d = opendir(p);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        size_t n = strlen(p) + strlen(e->d_name) + 2;
        char *q = malloc(n);
        if (!q) break;
        snprintf(q, n, "%s/%s", p, e->d_name);
        unlink(q);
        free(q);
    }
    closedir(d);
    rmdir(p);
}

int fs_remove_stale_tmp(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    char h[64];
    host_name(h, sizeof h);
    size_t pl = strlen(prefix);
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, prefix, pl) != 0) continue;
        const char *t = strstr(e->d_name + pl, "tmp-");
        if (!t || (t != e->d_name + pl && t[-1] != '.')) continue;
        char *end;
        const char *num = t + 4;
        long pid = strtol(num, &end, 10);
        if (end == num || pid <= 0) continue;
        const char *at = strchr(end, '@');
        if (at && strcmp(at + 1, h) != 0) continue;        /* another host's: not ours to judge */
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* still running (or not ours to signal) */
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = malloc(n);
        if (!p) break;
        snprintf(p, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0) {
            if (S_ISDIR(st.st_mode)) rm_dir_tree(p);
            else unlink(p);
            removed++;
        }
        free(p);
    }
    closedir(d);
    return removed;
}

const char *const fs_jsonl_suffixes[] = {".jsonl", ".jsonl.zst", ".jsonl.gz", ".json", ".json.zst", ".json.gz", NULL};

char *fs_stem(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    static const char *const ext[] = {".zst", ".gz", ".jsonl", ".json", NULL};
    for (int i = 0; ext[i];) { /* each extension as often as it ends the name */
        size_t e = strlen(ext[i]);
        if (n > e && !memcmp(b + n - e, ext[i], e))
            n -= e, i = 0;
        else
            i++;
    }
    return strndup(b, n);
}

int fs_split_named(const char *spec, char **name, const char **file)
{
    const char *eq = strchr(spec, '='), *slash = strchr(spec, '/');
    *name = NULL;
    *file = spec;
    if (!eq || eq == spec || (slash && slash < eq))
        return 0;
    *name = strndup(spec, (size_t)(eq - spec));
    *file = eq + 1;
    return 1;
}

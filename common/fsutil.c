/* fsutil.c - see fsutil.h. */
#include "fsutil.h"
#include "err.h"

#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

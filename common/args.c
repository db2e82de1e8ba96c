/* args.c - see args.h. */
#include "args.h"
#include "err.h"
#include "version.h"
#include "common/launch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*version_extra)(void);
static int several_ranks;

void args_set_version_extra(void (*fn)(void)) { version_extra = fn; }
void args_allow_several_ranks(void) { several_ranks = 1; }

static int name_eq(const char *a, const char *b, size_t blen)
{
    size_t i = 0;
    for (; a[i] && i < blen; i++) {
        char x = a[i] == '_' ? '-' : a[i], y = b[i] == '_' ? '-' : b[i];
        if (x != y) return 0;
    }
    return a[i] == '\0' && i == blen;
}

int args_parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || v < 0) return ERR_USAGE;
    double mul = 1;
    switch (*end) {
    case 'k': case 'K': mul = 1024.0; end++; break;
    case 'm': case 'M': mul = 1024.0 * 1024; end++; break;
    case 'g': case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end == 'i' || *end == 'I') end++;
    if (*end == 'b' || *end == 'B') end++;
    if (*end) return ERR_USAGE;
    v *= mul;
    if (!(v <= 1.8e19)) return ERR_USAGE; /* also NaN ("nan" parses as a double) */
    *out = (uint64_t)v;
    return 0;
}

const char *args_fmt_bytes(double b, char *buf, size_t n)
{
    const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int i = 0;
    while (b >= 1024 && i < 4) { b /= 1024; i++; }
    snprintf(buf, n, i ? "%.1f %s" : "%.0f %s", b, u[i]);
    return buf;
}

static int set_value(const arg_spec *spec, const arg_opt *o, const char *shown, const char *val)
{
    char *end;
    switch (o->type) {
    case ARG_STR:
        *(const char **)o->dest = val;
        return 0;
    case ARG_LIST:
    case ARG_NARGS: {
        args_list *l = o->dest;
        const char **ni = realloc(l->items, (l->n + 1) * sizeof *ni);
        if (!ni) return err_set(ERR_NOMEM, "out of memory");
        ni[l->n++] = val;
        l->items = ni;
        return 0;
    }
    case ARG_INT: {
        errno = 0;
        long long v = strtoll(val, &end, 10);
        if (end == val || *end || errno)
            return err_set(ERR_USAGE, "%s: option '%s' needs an integer, got '%s'", spec->prog, shown, val);
        *(long long *)o->dest = v;
        return 0;
    }
    case ARG_DOUBLE: {
        errno = 0;
        double v = strtod(val, &end);
        if (end == val || *end || errno)
            return err_set(ERR_USAGE, "%s: option '%s' needs a number, got '%s'", spec->prog, shown, val);
        *(double *)o->dest = v;
        return 0;
    }
    case ARG_SIZE:
        if (args_parse_size(val, o->dest) < 0)
            return err_set(ERR_USAGE, "%s: option '%s' needs a size like 512M or 2G, got '%s'", spec->prog, shown, val);
        return 0;
    case ARG_FLAG:
        break;
    }
    return err_set(ERR_INTERNAL, "bad option table");
}

void args_print_help(const arg_spec *spec)
{
    printf("Usage: %s %s\n", spec->prog, spec->usage);
    if (spec->description) printf("%s\n", spec->description);
    printf("\nOptions:\n");
    for (const arg_opt *o = spec->opts; o && o->name; o++) {
        char left[96];
        int n = 0;
        if (o->short_name) n = snprintf(left, sizeof left, "  -%c, --%s", o->short_name, o->name);
        else n = snprintf(left, sizeof left, "      --%s", o->name);
        if (o->type != ARG_FLAG && n < (int)sizeof left)
            n += snprintf(left + n, sizeof left - (size_t)n, " %s", o->metavar ? o->metavar : "VALUE");
        if (o->type == ARG_NARGS && n > 0 && n < (int)sizeof left)
            snprintf(left + n, sizeof left - (size_t)n, " [%s...]", o->metavar ? o->metavar : "VALUE");
        if (strlen(left) > 30) printf("%s\n%32s", left, "");
        else printf("%-32s", left);
        /* a help text of several lines: each further line under the first (the
         * text's own indentation of those lines, if any, dropped) */
        for (const char *h = o->help ? o->help : "", *nl; ; ) {
            nl = strchr(h, '\n');
            printf("%.*s\n", nl ? (int)(nl - h) : (int)strlen(h), h);
            if (!nl) break;
            for (h = nl + 1; *h == ' '; h++) {
            }
            printf("%32s", "");
        }
    }
    printf("%-32s%s\n", "  -q, --quiet", "no progress display on stderr");
    printf("%-32s%s\n", "  -h, --help", "show this help and exit");
    printf("%-32s%s\n", "      --version", "show the version and exit");
    if (spec->epilog) printf("\n%s", spec->epilog);
}

int args_quiet_flag; /* set by --quiet / -q, read by progress_new() */

int args_parse(const arg_spec *spec, int argc, char **argv, char ***pos, int *npos)
{
    *pos = calloc((size_t)argc + 1, sizeof(char *));
    *npos = 0;
    if (!*pos) return err_set(ERR_NOMEM, "out of memory");
    int only_pos = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_pos || a[0] != '-' || a[1] == '\0') {
            (*pos)[(*npos)++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) { only_pos = 1; continue; }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            args_print_help(spec);
            return ARGS_EXIT_OK;
        }
        if (strcmp(a, "--version") == 0) {
            printf("%s (webtext-gpt toolkit) %s\n", spec->prog, TOOLKIT_VERSION);
            if (version_extra)
                version_extra();
            return ARGS_EXIT_OK;
        }
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            args_quiet_flag = 1;
            continue;
        }
        const arg_opt *o = NULL;
        const char *val = NULL;
        char shown[128];
        if (a[1] == '-') {
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            for (const arg_opt *p = spec->opts; p && p->name; p++)
                if (name_eq(p->name, name, len)) { o = p; break; }
            snprintf(shown, sizeof shown, "--%.*s", (int)len, name);
            if (!o) return err_set(ERR_USAGE, "%s: unknown option '%s' (see --help)", spec->prog, shown);
            if (eq) {
                if (o->type == ARG_FLAG)
                    return err_set(ERR_USAGE, "%s: option '%s' takes no value", spec->prog, shown);
                val = eq + 1;
            }
        } else {
            for (const arg_opt *p = spec->opts; p && p->name; p++)
                if (p->short_name && p->short_name == a[1]) { o = p; break; }
            snprintf(shown, sizeof shown, "-%c", a[1]);
            if (!o) return err_set(ERR_USAGE, "%s: unknown option '%s' (see --help)", spec->prog, shown);
            if (a[2]) {
                if (o->type == ARG_FLAG)
                    return err_set(ERR_USAGE, "%s: option '%s' takes no value", spec->prog, shown);
                val = a + 2;
            }
        }
        if (o->type == ARG_FLAG) {
            *(int *)o->dest = 1;
            continue;
        }
        if (!val) {
            if (i + 1 >= argc) return err_set(ERR_USAGE, "%s: option '%s' needs a value", spec->prog, shown);
            val = argv[++i];
        }
        int rc = set_value(spec, o, shown, val);
        if (rc < 0) return rc;
        if (o->type == ARG_NARGS)
            while (i + 1 < argc && argv[i + 1][0] != '-' && (rc = set_value(spec, o, shown, argv[i + 1])) == 0) i++;
        if (rc < 0) return rc;
    }
    return 0;
}

void args_list_free(args_list *l)
{
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

int args_parse_main(const arg_spec *spec, int argc, char **argv, char ***pos, int *npos)
{
    int rc = args_parse(spec, argc, argv, pos, npos);
    if (rc == 0 && !several_ranks)
        rc = launch_refuse_several(spec->prog, "Run it once, without the launcher (-j/--workers N uses several cores).");
    if (rc == 0) return -1;
    free(*pos);
    *pos = NULL;
    if (rc == ARGS_EXIT_OK) return 0;
    fprintf(stderr, "%s\n", err_msg());
    return err_exit_code(rc);
}

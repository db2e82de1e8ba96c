/* fuzz_args - the command-line parser every tool uses (args_parse) on an
 * argv made of the input's NUL-separated pieces, against a table with every
 * option type (flags, strings, lists, integers, sizes, doubles, nargs), short
 * and long names, '=' forms and "--". No crash, no leak, positional
 * arguments all taken from argv. Also args_parse_size on the raw bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout)) abort(); /* --help and --version print */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    char *buf = malloc(n + 1);
    if (!buf) return 0;
    memcpy(buf, data, n);
    buf[n] = '\0';
    uint64_t sz;
    args_parse_size(buf, &sz);
    char *argv[66];
    int argc = 0;
    argv[argc++] = "prog";
    for (char *p = buf; p <= buf + n && argc < 65; p += strlen(p) + 1) argv[argc++] = p;
    argv[argc] = NULL;
    int flag = 0;
    const char *str = NULL;
    args_list list = {0}, nargs = {0};
    long long i = 0;
    uint64_t size = 0;
    double d = 0;
    const arg_opt opts[] = {
        { "flag", 'f', ARG_FLAG, &flag, NULL, "a flag" },
        { "output-prefix", 'o', ARG_STR, &str, "S", "a string" },
        { "input", 'i', ARG_LIST, &list, "F", "a list" },
        { "workers", 'j', ARG_INT, &i, "N", "an integer" },
        { "memory", 'm', ARG_SIZE, &size, "SIZE", "a size" },
        { "lr", 0, ARG_DOUBLE, &d, "X", "a double" },
        { "json-keys", 0, ARG_NARGS, &nargs, "K", "nargs" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = { "prog", "[OPTION]... [FILE]...", "Fuzzed.", opts, NULL };
    char **pos = NULL;
    int npos = 0;
    int rc = args_parse(&spec, argc, argv, &pos, &npos);
    if (rc == 0) {
        if (npos < 0 || npos >= argc) abort();
        for (int k = 0; k < npos; k++) {
            int found = 0;
            for (int a = 1; a < argc && !found; a++) found = pos[k] == argv[a] || (pos[k] >= argv[a] && pos[k] <= argv[a] + strlen(argv[a]));
            if (!found) abort();
        }
        for (size_t k = 0; k < list.n; k++) (void)strlen(list.items[k]);
        for (size_t k = 0; k < nargs.n; k++) (void)strlen(nargs.items[k]);
        if (str) (void)strlen(str);
    }
    free(pos);
    args_list_free(&list);
    args_list_free(&nargs);
    free(buf);
    return 0;
}

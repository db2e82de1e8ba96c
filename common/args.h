/* args.h - one command-line parser for every tool.
 *
 * Options are described by a table; --help output is generated from it.
 * Accepted forms: --name VALUE, --name=VALUE, -x VALUE, -xVALUE, and "--" to
 * end options. '-' and '_' are interchangeable in long names, so Megatron's
 * --output-prefix and --output_prefix both work. --help/-h and --version are
 * built in. Sizes take k/M/G/T suffixes (powers of 1024).
 */
#ifndef COMMON_ARGS_H
#define COMMON_ARGS_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    ARG_FLAG,   /* int*: set to 1 */
    ARG_STR,    /* const char**: last one wins */
    ARG_LIST,   /* args_list*: every occurrence appended */
    ARG_INT,    /* long long* */
    ARG_SIZE,   /* uint64_t*: bytes, with k/M/G/T suffix */
    ARG_DOUBLE, /* double* */
    ARG_NARGS   /* args_list*: like argparse nargs='+', every following
                   argument up to the next one starting with '-' (and every
                   occurrence), e.g. Megatron's --json-keys text title */
} arg_type;

typedef struct {
    const char **items;
    size_t n;
} args_list;

typedef struct {
    const char *name;  /* long name without "--" */
    char short_name;   /* 0 if none */
    arg_type type;
    void *dest;
    const char *metavar;
    const char *help;
} arg_opt;

typedef struct {
    const char *prog;
    const char *usage;       /* after "Usage: prog " */
    const char *description; /* paragraph under the usage line */
    const arg_opt *opts;     /* terminated by an entry with name == NULL */
    const char *epilog;      /* examples, notes; may be NULL */
} arg_spec;

/* --version prints what fn prints after the version line (what the build has). */
void args_set_version_extra(void (*fn)(void));
/* The tool runs as several processes itself (the trainer). Without this call
 * args_parse_main refuses a launch of several copies (mpirun -np N, srun), which
 * would each write the same output (common/launch.h). */
void args_allow_several_ranks(void);

enum { ARGS_EXIT_OK = 1 }; /* --help or --version was printed: exit 0 */

/* Set by -q/--quiet; progress_new() stays silent when it is set. */
extern int args_quiet_flag;

/* Parse argv. Positional arguments are collected into *pos (argv pointers,
 * caller frees the array with free()). Returns 0, ARGS_EXIT_OK, or ERR_USAGE
 * with a message naming the bad option. */
int args_parse(const arg_spec *spec, int argc, char **argv, char ***pos, int *npos);
/* For a tool's main(): args_parse(), then on --help/--version returns 0, on a
 * usage error (or a launch of several copies the tool cannot serve) prints the
 * message and returns the exit status; returns -1 (with *pos to free) when main
 * should go on. */
int args_parse_main(const arg_spec *spec, int argc, char **argv, char ***pos, int *npos);
void args_print_help(const arg_spec *spec);
void args_list_free(args_list *l);
/* Parse "1G", "512M", "100k", "123": 0 or ERR_USAGE. */
int args_parse_size(const char *s, uint64_t *out);
/* Format bytes as "1.5 GiB" into buf. */
const char *args_fmt_bytes(double bytes, char *buf, size_t n);

#endif

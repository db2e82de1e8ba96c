/* evalset.h - evaluation sets read as JSON lines, each item as a context (the query, the
 * question, the goal) and its gold answer, the two texts decontamination looks for.
 *
 * The formats are recognized by their keys, one record at a time:
 *   hellaswag   "query" (or "ctx"), "choices" (or "endings") and "gold" (or "label"): the
 *               index of the right ending
 *   ARC         "question", "choices": {"text": [...], "label": [...]}, "answerKey"
 *   PIQA        "goal", "sol1", "sol2", "label" (0 or 1)
 *   Winogrande  "sentence" with one "_", "option1", "option2", "answer" ("1" or "2"): the
 *               context is the sentence up to the blank with the right option put in, the
 *               answer the rest (lm-evaluation-harness's partial scoring)
 *   any other   the fields named by --eval-text-field (the answer, default "text") and,
 *               when given, --eval-query-field (the context)
 * The task is the file's name without its directory and extensions (hellaswag_val1000),
 * or the name given as NAME=FILE. A line that is not JSON, or a record without the texts
 * of its format, is an error naming the file and the line; a set without items too. */
#ifndef PREPROCESS_DECONT_EVALSET_H
#define PREPROCESS_DECONT_EVALSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t task;  /* index into the set's tasks */
    uint32_t index; /* the record's number in its file (from 0) */
    char *query;    /* the context, or NULL */
    char *gold;     /* the answer, or NULL (a set of texts without answers: the text) */
} eval_item;

typedef struct {
    eval_item *v;
    size_t n, cap;
    char **tasks;
    size_t ntasks;
    const char *text_field, *query_field; /* the generic format's keys */
} eval_set;

/* Add every item of spec ("FILE" or "NAME=FILE"; FILE may be .zst / .gz) to s (zeroed
 * first, text_field set). 0 or ERR_* naming the file and line. */
int eval_load(eval_set *s, const char *spec);
/* The same over an open reader, the items under task (copied); file names it in messages. */
typedef struct jsonl_reader jsonl_reader;
int eval_load_reader(eval_set *s, jsonl_reader *jr, const char *file, const char *task);
void eval_free(eval_set *s);

#endif

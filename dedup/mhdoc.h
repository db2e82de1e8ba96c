/* mhdoc.h - a document's id and text from its JSON line, as minhash reads them: one jsonscan
 * pass over the line, cJSON where jsonscan declines, a string cut at a NUL as cJSON cuts it.
 * find_duplicates reads the candidates' texts from the source shards with the same function,
 * so the text it verifies is byte for byte the one minhash signed. */
#ifndef DEDUP_MHDOC_H
#define DEDUP_MHDOC_H
#include <stddef.h>

enum { MHDOC_OK = 0, MHDOC_BAD_JSON, MHDOC_NO_ID, MHDOC_NO_TEXT };

typedef struct {
    const char *id, *text; /* into the line, the tree or own_* */
    size_t id_len, text_len;
    char *own_id, *own_text;
    void *obj;             /* the line's cJSON tree, where jsonscan declined */
    int status;            /* MHDOC_* */
} mh_doc;

/* Fields of line (len bytes; cJSON may write into it). Returns 0 (d->status says what was
 * found) or ERR_NOMEM. Release with mh_doc_free, whatever it returned. */
int mh_doc_read(char *line, size_t len, const char *id_field, const char *text_field, mh_doc *d);
void mh_doc_free(mh_doc *d);

#endif

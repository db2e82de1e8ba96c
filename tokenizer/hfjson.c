/* hfjson.c - tokenizer.json pieces shared by the writers (hfwrite.c for the
 * byte-level families, spm.c for SentencePiece): a TemplateProcessing
 * post-processor putting a BOS token before the text, and the document written
 * atomically. Part of the core: it depends on no family. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "bpe_int.h"
#include "common/err.h"
#include "common/io.h"

void hfjson_bos_template(cJSON *pp, const char *bos, int64_t id)
{
    cJSON_AddStringToObject(pp, "type", "TemplateProcessing");
    cJSON *single = cJSON_AddArrayToObject(pp, "single");
    cJSON *e1 = cJSON_CreateObject(), *st = cJSON_AddObjectToObject(e1, "SpecialToken");
    cJSON_AddStringToObject(st, "id", bos);
    cJSON_AddNumberToObject(st, "type_id", 0);
    cJSON_AddItemToArray(single, e1);
    cJSON *e2 = cJSON_CreateObject(), *sq = cJSON_AddObjectToObject(e2, "Sequence");
    cJSON_AddStringToObject(sq, "id", "A");
    cJSON_AddNumberToObject(sq, "type_id", 0);
    cJSON_AddItemToArray(single, e2);
    cJSON_AddArrayToObject(pp, "pair");
    cJSON *one = cJSON_AddObjectToObject(cJSON_AddObjectToObject(pp, "special_tokens"), bos);
    cJSON_AddStringToObject(one, "id", bos);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(one, "ids"), cJSON_CreateNumber((double)id));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(one, "tokens"), cJSON_CreateString(bos));
}

int hfjson_write(cJSON *root, const char *path)
{
    char *text = cJSON_PrintUnformatted(root);
    if (!text) return err_set(ERR_NOMEM, "out of memory");
    io_writer *w;
    int rc = io_writer_open(&w, path, NULL);
    if (!rc) {
        rc = io_write(w, text, strlen(text));
        if (!rc) rc = io_writer_commit(w);
        else io_writer_abort(w);
    }
    free(text);
    return rc;
}

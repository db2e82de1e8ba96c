/* safetensors.c - safetensors reader and writer (see safetensors.h). */
#include "train/model/safetensors.h"
#include "common/fault.h"
#include "common/jsonl.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "common/io.h"

static size_t dtype_size(const char *d)
{
    if (!strcmp(d, "F32") || !strcmp(d, "I32") || !strcmp(d, "U32"))
        return 4;
    if (!strcmp(d, "F64") || !strcmp(d, "I64") || !strcmp(d, "U64"))
        return 8;
    if (!strcmp(d, "BF16") || !strcmp(d, "F16") || !strcmp(d, "I16") || !strcmp(d, "U16"))
        return 2;
    if (!strcmp(d, "U8") || !strcmp(d, "I8") || !strcmp(d, "BOOL"))
        return 1;
    return 0;
}

void st_close(st_file *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->n; i++)
        free(f->t[i].name);
    free(f->t);
    if (f->map)
        munmap(f->map, f->size);
    cJSON_Delete(f->meta);
    free(f->path);
    memset(f, 0, sizeof *f);
}

int st_open(st_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    int fd = fault_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return err_sys(ERR_IO, "%s: cannot open", path);
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < 8) {
        close(fd);
        return err_set(ERR_FORMAT, "%s: not a safetensors file (%lld bytes)", path, (long long)st.st_size);
    }
    f->size = (size_t)st.st_size;
    f->map = fault_mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f->map == MAP_FAILED) {
        f->map = NULL;
        return err_sys(ERR_IO, "%s: mmap", path);
    }
    f->path = strdup(path);
    uint64_t hl;
    memcpy(&hl, f->map, 8);
    if (hl > f->size - 8) {
        st_close(f);
        return err_set(ERR_FORMAT, "%s: header length %llu exceeds the file", path, (unsigned long long)hl);
    }
    int nomem;
    cJSON *h = json_parse((const char *)f->map + 8, (size_t)hl, NULL, &nomem);
    if (nomem) {
        st_close(f);
        return err_set(ERR_NOMEM, "%s: out of memory parsing the header", path);
    }
    if (!h || !cJSON_IsObject(h)) {
        cJSON_Delete(h);
        st_close(f);
        return err_set(ERR_FORMAT, "%s: header is not a JSON object", path);
    }
    int n = cJSON_GetArraySize(h);
    f->t = calloc((size_t)n + 1, sizeof *f->t);
    size_t base = 8 + (size_t)hl, dsize = f->size - base;
    int rc = 0;
    cJSON *e;
    cJSON_ArrayForEach(e, h)
    {
        if (!strcmp(e->string, "__metadata__")) {
            continue;
        }
        st_tensor *t = &f->t[f->n];
        cJSON *dt = cJSON_GetObjectItem(e, "dtype"), *sh = cJSON_GetObjectItem(e, "shape"),
              *of = cJSON_GetObjectItem(e, "data_offsets");
        if (!cJSON_IsString(dt) || !dtype_size(dt->valuestring) || !cJSON_IsArray(sh) ||
            cJSON_GetArraySize(sh) > 8 || !cJSON_IsArray(of) || cJSON_GetArraySize(of) != 2) {
            rc = err_set(ERR_FORMAT, "%s: tensor '%s': bad dtype, shape or data_offsets", path, e->string);
            break;
        }
        t->name = strdup(e->string);
        f->n++;
        snprintf(t->dtype, sizeof t->dtype, "%s", dt->valuestring);
        int64_t numel = 1;
        cJSON *d;
        cJSON_ArrayForEach(d, sh)
        {
            if (!cJSON_IsNumber(d) || d->valuedouble < 0 || d->valuedouble > 1e15) {
                rc = err_set(ERR_FORMAT, "%s: tensor '%s': bad shape", path, t->name);
                break;
            }
            t->shape[t->ndim++] = (int64_t)d->valuedouble;
            numel *= (int64_t)d->valuedouble;
        }
        if (rc)
            break;
        double a = cJSON_GetArrayItem(of, 0)->valuedouble, b = cJSON_GetArrayItem(of, 1)->valuedouble;
        if (!(a >= 0 && b >= a && b <= (double)dsize) ||
            (size_t)(b - a) != (size_t)numel * dtype_size(t->dtype)) {
            rc = err_set(ERR_FORMAT, "%s: tensor '%s': data_offsets [%.0f, %.0f] do not match its shape or the file",
                         path, t->name, a, b);
            break;
        }
        t->nbytes = (size_t)(b - a);
        t->data = f->map + base + (size_t)a;
    }
    cJSON *meta = cJSON_DetachItemFromObject(h, "__metadata__");
    cJSON_Delete(h);
    f->meta = meta;
    if (rc) {
        st_close(f);
        return rc;
    }
    return 0;
}

const st_tensor *st_find(const st_file *f, const char *name)
{
    for (int i = 0; i < f->n; i++)
        if (!strcmp(f->t[i].name, name))
            return &f->t[i];
    return NULL;
}

const char *st_meta(const st_file *f, const char *key)
{
    cJSON *v = f->meta ? cJSON_GetObjectItem((cJSON *)f->meta, key) : NULL;
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int64_t st_numel(const st_tensor *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->ndim; i++)
        n *= t->shape[i];
    return n;
}

double st_get(const st_tensor *t, int64_t i)
{
    const uint8_t *p = t->data;
    if (!strcmp(t->dtype, "F32")) {
        float v;
        memcpy(&v, p + 4 * i, 4);
        return v;
    }
    if (!strcmp(t->dtype, "F64")) {
        double v;
        memcpy(&v, p + 8 * i, 8);
        return v;
    }
    if (!strcmp(t->dtype, "I32")) {
        int32_t v;
        memcpy(&v, p + 4 * i, 4);
        return v;
    }
    if (!strcmp(t->dtype, "I64")) {
        int64_t v;
        memcpy(&v, p + 8 * i, 8);
        return (double)v;
    }
    if (!strcmp(t->dtype, "BF16")) {
        uint16_t h;
        memcpy(&h, p + 2 * i, 2);
        uint32_t u = (uint32_t)h << 16;
        float v;
        memcpy(&v, &u, 4);
        return v;
    }
    if (!strcmp(t->dtype, "F16")) {
        uint16_t h;
        memcpy(&h, p + 2 * i, 2);
        int e = (h >> 10) & 31, m = h & 1023;
        double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
        return (h & 0x8000) ? -v : v;
    }
    return NAN;
}

typedef struct {
    char *name;
    char dtype[8];
    int64_t shape[8];
    int ndim;
    const void *data;
    size_t nbytes;
} st_item;

struct st_writer {
    st_item *items;
    int n, cap;
    cJSON *meta;
};

st_writer *st_writer_new(void)
{
    return calloc(1, sizeof(st_writer));
}

void st_writer_free(st_writer *w)
{
    if (!w)
        return;
    for (int i = 0; i < w->n; i++)
        free(w->items[i].name);
    free(w->items);
    cJSON_Delete(w->meta);
    free(w);
}

int st_writer_add(st_writer *w, const char *name, const char *dtype, const int64_t *shape, int ndim,
                  const void *data, size_t nbytes)
{
    if (ndim > 8 || !dtype_size(dtype))
        return err_set(ERR_USAGE, "safetensors: bad dtype or rank for %s", name);
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 64;
        st_item *it = realloc(w->items, (size_t)cap * sizeof *it);
        if (!it)
            return err_set(ERR_NOMEM, "out of memory");
        w->items = it;
        w->cap = cap;
    }
    st_item *it = &w->items[w->n];
    memset(it, 0, sizeof *it);
    it->name = strdup(name);
    snprintf(it->dtype, sizeof it->dtype, "%s", dtype);
    memcpy(it->shape, shape, (size_t)ndim * sizeof *shape);
    it->ndim = ndim;
    it->data = data;
    it->nbytes = nbytes;
    w->n++;
    return 0;
}

int st_writer_meta(st_writer *w, const char *key, const char *value)
{
    if (!w->meta)
        w->meta = cJSON_CreateObject();
    cJSON_DeleteItemFromObject(w->meta, key);
    cJSON_AddStringToObject(w->meta, key, value);
    return 0;
}

int st_write(st_writer *w, const char *path)
{
    cJSON *h = cJSON_CreateObject();
    if (w->meta)
        cJSON_AddItemReferenceToObject(h, "__metadata__", w->meta);
    size_t off = 0;
    for (int i = 0; i < w->n; i++) {
        st_item *it = &w->items[i];
        cJSON *e = cJSON_AddObjectToObject(h, it->name);
        cJSON_AddStringToObject(e, "dtype", it->dtype);
        cJSON *sh = cJSON_AddArrayToObject(e, "shape");
        for (int d = 0; d < it->ndim; d++)
            cJSON_AddItemToArray(sh, cJSON_CreateNumber((double)it->shape[d]));
        cJSON *of = cJSON_AddArrayToObject(e, "data_offsets");
        cJSON_AddItemToArray(of, cJSON_CreateNumber((double)off));
        cJSON_AddItemToArray(of, cJSON_CreateNumber((double)(off + it->nbytes)));
        off += it->nbytes;
    }
    char *js = cJSON_PrintUnformatted(h);
    cJSON_Delete(h);
    if (!js)
        return err_set(ERR_NOMEM, "out of memory");
    size_t hl = strlen(js), pad = (8 - hl % 8) % 8;
    io_writer_opts o = {0, 0, 0};
    io_writer *wr;
    int rc = io_writer_open(&wr, path, &o);
    if (rc == 0) {
        uint64_t n = hl + pad;
        rc = io_write(wr, &n, 8);
        if (!rc)
            rc = io_write(wr, js, hl);
        if (!rc && pad)
            rc = io_write(wr, "       ", pad);
        for (int i = 0; i < w->n && !rc; i++)
            rc = io_write(wr, w->items[i].data, w->items[i].nbytes);
        rc = rc ? (io_writer_abort(wr), rc) : io_writer_commit(wr);
    }
    free(js);
    return rc;
}

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

/* The reference implementation refuses larger headers. */
#define ST_MAX_HEADER 100000000

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

static int cmp_name(const void *a, const void *b)
{
    return strcmp((*(st_tensor *const *)a)->name, (*(st_tensor *const *)b)->name);
}

static int cmp_offset(const void *a, const void *b)
{
    const st_tensor *x = *(st_tensor *const *)a, *y = *(st_tensor *const *)b;
    if (x->data != y->data)
        return x->data < y->data ? -1 : 1;
    return x->nbytes < y->nbytes ? -1 : x->nbytes > y->nbytes; /* empty tensors first at one offset */
}

void st_close(st_file *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->n; i++)
        free(f->t[i].name);
    free(f->t);
    free(f->by_name);
    if (f->map)
        munmap(f->map, f->size);
    cJSON_Delete(f->meta);
    free(f->path);
    memset(f, 0, sizeof *f);
}

/* One tensor's header entry e (dtype, shape, data_offsets) into f->t[f->n], checked against
 * the dsize bytes of data after the header (at base). */
static int read_tensor(st_file *f, const cJSON *e, size_t base, size_t dsize, const char *path)
{
    st_tensor *t = &f->t[f->n];
    cJSON *dt = cJSON_GetObjectItemCaseSensitive(e, "dtype"), *sh = cJSON_GetObjectItemCaseSensitive(e, "shape"),
          *of = cJSON_GetObjectItemCaseSensitive(e, "data_offsets");
    if (!cJSON_IsString(dt) || !dtype_size(dt->valuestring) || !cJSON_IsArray(sh) ||
        cJSON_GetArraySize(sh) > 8 || !cJSON_IsArray(of) || cJSON_GetArraySize(of) != 2)
        return err_set(ERR_FORMAT, "%s: tensor '%s': bad dtype, shape or data_offsets", path, e->string);
    t->name = strdup(e->string);
    if (!t->name)
        return err_set(ERR_NOMEM, "%s: out of memory", path);
    f->n++;
    snprintf(t->dtype, sizeof t->dtype, "%s", dt->valuestring);
    /* The product of the dimensions, with overflow detected (a zero
     * dimension makes an empty tensor whatever the others), must fit in
     * the file's data. */
    uint64_t numel = 1, esz = dtype_size(t->dtype);
    int zero = 0, over = 0;
    cJSON *d;
    cJSON_ArrayForEach(d, sh)
    {
        double v = cJSON_IsNumber(d) ? d->valuedouble : -1;
        if (!(v >= 0 && v <= 9007199254740992.0 && v == floor(v)))
            return err_set(ERR_FORMAT, "%s: tensor '%s': bad shape (dimension %d is not a whole number >= 0)", path,
                           t->name, t->ndim);
        uint64_t dim = (uint64_t)v;
        t->shape[t->ndim++] = (int64_t)dim;
        zero |= dim == 0;
        over |= __builtin_mul_overflow(numel, dim, &numel);
    }
    if (zero)
        numel = 0;
    else if (over || numel > dsize / esz)
        return err_set(ERR_FORMAT, "%s: tensor '%s': its shape needs more bytes than the file's %zu bytes of data",
                       path, t->name, dsize);
    cJSON *oa = cJSON_GetArrayItem(of, 0), *ob = cJSON_GetArrayItem(of, 1);
    double a = cJSON_IsNumber(oa) ? oa->valuedouble : -1, b = cJSON_IsNumber(ob) ? ob->valuedouble : -1;
    if (!(a >= 0 && b >= a && b <= (double)dsize && a == floor(a) && b == floor(b)) ||
        (uint64_t)(b - a) != numel * esz)
        return err_set(ERR_FORMAT, "%s: tensor '%s': data_offsets [%.0f, %.0f] do not match its shape or the file",
                       path, t->name, a, b);
    t->nbytes = (size_t)(b - a);
    t->data = f->map + base + (size_t)a;
    return 0;
}

/* The format forbids two tensors of one name and holes or overlaps in the data (the
 * reference reader refuses both): sorted by name (kept as f->by_name) and by offset. */
static int check_layout(st_file *f, size_t base, const char *path)
{
    int rc = 0;
    st_tensor **by = malloc((size_t)f->n * sizeof *by);
    if (!by)
        return err_set(ERR_NOMEM, "%s: out of memory", path);
    for (int i = 0; i < f->n; i++)
        by[i] = &f->t[i];
    qsort(by, (size_t)f->n, sizeof *by, cmp_name);
    for (int i = 1; i < f->n && !rc; i++)
        if (!strcmp(by[i - 1]->name, by[i]->name))
            rc = err_set(ERR_FORMAT, "%s: tensor '%s' appears twice in the header", path, by[i]->name);
    if (!rc && !(f->by_name = malloc((size_t)f->n * sizeof *by)))
        rc = err_set(ERR_NOMEM, "%s: out of memory", path);
    if (!rc)
        memcpy(f->by_name, by, (size_t)f->n * sizeof *by);
    if (!rc) {
        qsort(by, (size_t)f->n, sizeof *by, cmp_offset);
        const uint8_t *at = f->map + base;
        for (int i = 0; i < f->n && !rc; i++) {
            if (by[i]->data != at)
                rc = err_set(ERR_FORMAT, "%s: tensor '%s': its data at byte %zu %s the previous tensor's end (%zu)",
                             path, by[i]->name, (size_t)(by[i]->data - f->map - base),
                             by[i]->data > at ? "leaves a hole after" : "overlaps", (size_t)(at - f->map - base));
            at = by[i]->data + by[i]->nbytes;
        }
        if (!rc && at != f->map + f->size)
            rc = err_set(ERR_FORMAT, "%s: %zu bytes after the last tensor's data", path, (size_t)(f->map + f->size - at));
    }
    free(by);
    return rc;
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
    if (hl > ST_MAX_HEADER) { /* the reference reader's limit (safetensors' MAX_HEADER_SIZE) */
        st_close(f);
        return err_set(ERR_FORMAT, "%s: header length %llu is over the format's limit of %d bytes", path,
                       (unsigned long long)hl, ST_MAX_HEADER);
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
    if (!f->t) {
        cJSON_Delete(h);
        st_close(f);
        return err_set(ERR_NOMEM, "%s: out of memory", path);
    }
    size_t base = 8 + (size_t)hl, dsize = f->size - base;
    int rc = 0;
    cJSON *e;
    cJSON_ArrayForEach(e, h)
    {
        if (!strcmp(e->string, "__metadata__")) {
            if (!cJSON_IsObject(e)) {
                rc = err_set(ERR_FORMAT, "%s: __metadata__ is not an object", path);
                break;
            }
            continue;
        }
        if ((rc = read_tensor(f, e, base, dsize, path)))
            break;
    }
    cJSON *meta = cJSON_DetachItemFromObject(h, "__metadata__");
    cJSON_Delete(h);
    f->meta = meta;
    if (!rc && f->n > 0)
        rc = check_layout(f, base, path);
    if (rc) {
        st_close(f);
        return rc;
    }
    return 0;
}

const st_tensor *st_find(const st_file *f, const char *name)
{
    int lo = 0, hi = f->n - 1;
    while (f->by_name && lo <= hi) {
        int mid = lo + (hi - lo) / 2, c = strcmp(f->by_name[mid]->name, name);
        if (!c)
            return f->by_name[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

const char *st_meta(const st_file *f, const char *key)
{
    cJSON *v = f->meta ? cJSON_GetObjectItem((cJSON *)f->meta, key) : NULL;
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int64_t st_numel(const st_tensor *t)
{
    return (int64_t)(t->nbytes / dtype_size(t->dtype)); /* shapes were checked against the data at open */
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

/* evaluate.c - multiple-choice tasks scored as lm-evaluation-harness does (see evaluate.h). */
#include "train/evaluate.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/fsutil.h"
#include "common/jsonl.h"
#include "common/utf8.h"

static char *cat3(const char *a, const char *b, size_t bn, const char *c)
{
    size_t an = strlen(a), cn = strlen(c);
    char *s = malloc(an + bn + cn + 1);
    if (s) {
        memcpy(s, a, an);
        memcpy(s + an, b, bn);
        memcpy(s + an + bn, c, cn + 1);
    }
    return s;
}

static double chars_of(const char *s)
{
    double n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += (*p & 0xC0) != 0x80;
    return n;
}

static int item_alloc(mc_item *it, int nc)
{
    it->nc = nc;
    it->ctx = calloc((size_t)nc, sizeof *it->ctx);
    it->cont = calloc((size_t)nc, sizeof *it->cont);
    it->chars = calloc((size_t)nc, sizeof *it->chars);
    it->ll = calloc((size_t)nc, sizeof *it->ll);
    return it->ctx && it->cont && it->chars && it->ll;
}

static void item_free(mc_item *it)
{
    for (int j = 0; j < it->nc; j++) {
        if (it->ctx)
            free(it->ctx[j]);
        if (it->cont)
            free(it->cont[j]);
    }
    free(it->ctx);
    free(it->cont);
    free(it->chars);
    free(it->ll);
    memset(it, 0, sizeof *it);
}

/* A choice scored after one context: continuation " " + choice. */
static int set_choice(mc_item *it, int j, const char *ctx, const char *choice)
{
    it->ctx[j] = strdup(ctx);
    it->cont[j] = cat3(" ", choice, strlen(choice), "");
    it->chars[j] = chars_of(choice);
    return it->ctx[j] && it->cont[j];
}

/* One record as an item; NULL, or why it is not one. *norm: acc_norm is defined for it. */
static const char *parse(const cJSON *o, mc_item *it, int *norm)
{
    long g;
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(o, "choices");
    if (!ch)
        ch = cJSON_GetObjectItemCaseSensitive(o, "endings");
    *norm = 1;
    if (jsonl_get_string(o, "sentence") && jsonl_get_string(o, "option1") && jsonl_get_string(o, "option2")) { /* Winogrande */
        const char *s = jsonl_get_string(o, "sentence"), *blank = strchr(s, '_');
        if (!blank || !jsonl_get_int(o, "answer", &g) || (g != 1 && g != 2))
            return "a Winogrande record needs a \"_\" in \"sentence\" and \"answer\" 1 or 2";
        *norm = 0;
        const char *rest = blank + 1;
        size_t rn = strlen(rest);
        utf8_strip_pyspace(&rest, &rn);
        if (!item_alloc(it, 2))
            return "out of memory";
        it->gold = (int)g - 1;
        for (int j = 0; j < 2; j++) {
            it->ctx[j] = cat3("", s, (size_t)(blank - s), jsonl_get_string(o, j ? "option2" : "option1"));
            it->cont[j] = cat3(" ", rest, rn, "");
            it->chars[j] = it->ctx[j] ? chars_of(it->ctx[j]) : 0;
            if (!it->ctx[j] || !it->cont[j])
                return "out of memory";
        }
        return NULL;
    }
    if (jsonl_get_string(o, "goal") && jsonl_get_string(o, "sol1") && jsonl_get_string(o, "sol2")) { /* PIQA */
        if (!jsonl_get_int(o, "label", &g) || (g != 0 && g != 1))
            return "a PIQA record needs \"label\" 0 or 1";
        char *ctx = cat3("Question: ", jsonl_get_string(o, "goal"), strlen(jsonl_get_string(o, "goal")), "\nAnswer:");
        int ok = ctx && item_alloc(it, 2) && set_choice(it, 0, ctx, jsonl_get_string(o, "sol1")) &&
                 set_choice(it, 1, ctx, jsonl_get_string(o, "sol2"));
        free(ctx);
        it->gold = (int)g;
        return ok ? NULL : "out of memory";
    }
    if (jsonl_get_string(o, "question") && cJSON_IsObject(ch)) { /* ARC */
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(ch, "text"), *l = cJSON_GetObjectItemCaseSensitive(ch, "label");
        const char *key = jsonl_get_string(o, "answerKey");
        int n = cJSON_IsArray(t) ? cJSON_GetArraySize(t) : 0;
        if (!n || !cJSON_IsArray(l) || cJSON_GetArraySize(l) != n || !key)
            return "an ARC record needs \"choices\" {\"text\", \"label\"} of one length and \"answerKey\"";
        it->gold = -1;
        for (int i = 0; i < n; i++) {
            const cJSON *li = cJSON_GetArrayItem(l, i);
            if (!cJSON_IsString(cJSON_GetArrayItem(t, i)))
                return "an ARC record with a choice that is not a string";
            if (it->gold < 0 && cJSON_IsString(li) && !strcmp(li->valuestring, key))
                it->gold = i;
        }
        if (it->gold < 0)
            return "an ARC record whose \"answerKey\" is not among its choices' labels";
        int gold = it->gold;
        char *ctx = cat3("Question: ", jsonl_get_string(o, "question"), strlen(jsonl_get_string(o, "question")), "\nAnswer:");
        int ok = ctx && item_alloc(it, n);
        for (int i = 0; ok && i < n; i++)
            ok = set_choice(it, i, ctx, cJSON_GetArrayItem(t, i)->valuestring);
        free(ctx);
        it->gold = gold;
        return ok ? NULL : "out of memory";
    }
    if ((jsonl_get_string(o, "query") || jsonl_get_string(o, "ctx")) && cJSON_IsArray(ch)) { /* hellaswag */
        int n = cJSON_GetArraySize(ch);
        if (!jsonl_get_int(o, "gold", &g) && !jsonl_get_int(o, "label", &g))
            return "a HellaSwag record needs \"gold\" (or \"label\")";
        if (g < 0 || g >= n)
            return "a HellaSwag record whose \"gold\" is not the index of one of its choices";
        for (int i = 0; i < n; i++)
            if (!cJSON_IsString(cJSON_GetArrayItem(ch, i)))
                return "a HellaSwag record with a choice that is not a string";
        const char *ctx = jsonl_get_string(o, "query") ? jsonl_get_string(o, "query") : jsonl_get_string(o, "ctx");
        int ok = item_alloc(it, n);
        for (int i = 0; ok && i < n; i++)
            ok = set_choice(it, i, ctx, cJSON_GetArrayItem(ch, i)->valuestring);
        it->gold = (int)g;
        return ok ? NULL : "out of memory";
    }
    return "a record of no known multiple-choice format (HellaSwag, ARC, PIQA, Winogrande)";
}

int mc_load(mc_task *t, const char *spec, size_t limit)
{
    memset(t, 0, sizeof *t);
    const char *file;
    if (!fs_split_named(spec, &t->name, &file))
        t->name = fs_stem(spec);
    if (!t->name)
        return err_set(ERR_NOMEM, "out of memory");
    t->norm = 1;
    jsonl_reader *jr = NULL;
    int rc = jsonl_open(&jr, file), k = 0;
    if (rc) {
        mc_free(t);
        return rc;
    }
    jsonl_record r;
    while (!rc && (!limit || t->n < limit) && (k = jsonl_next(jr, &r)) > 0) {
        if (k != JSONL_OK) {
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": not JSON", file, r.lineno);
            break;
        }
        if (t->n == t->cap) {
            size_t nc = t->cap ? 2 * t->cap : 256;
            mc_item *v = realloc(t->v, nc * sizeof *v);
            if (!v) {
                rc = err_set(ERR_NOMEM, "out of memory");
                break;
            }
            t->v = v;
            t->cap = nc;
        }
        mc_item *it = &t->v[t->n];
        memset(it, 0, sizeof *it);
        int norm;
        const char *why = cJSON_IsObject(r.obj) ? parse(r.obj, it, &norm) : "not a JSON object";
        if (why) {
            item_free(it);
            rc = err_set(ERR_FORMAT, "%s: line %" PRIu64 ": %s", file, r.lineno, why);
            break;
        }
        t->norm &= norm;
        t->n++;
    }
    if (!rc && k < 0)
        rc = err_set(k, "%s: %s", file, err_msg());
    if (!rc && !t->n)
        rc = err_set(ERR_FORMAT, "%s: no items in it", file);
    jsonl_close(jr);
    if (rc)
        mc_free(t);
    return rc;
}

void mc_free(mc_task *t)
{
    for (size_t i = 0; i < t->n; i++)
        item_free(&t->v[i]);
    free(t->v);
    free(t->name);
    memset(t, 0, sizeof *t);
}

/* ---- scoring ---- */

typedef struct {
    int32_t *seq; /* the tokens fed and predicted: [len], after the left cut */
    int len;      /* tokens (the window's inputs are seq[0 .. len - 1)) */
    int cont;     /* the continuation's tokens scored: the last cont predictions */
    size_t item;
    int choice;
} request;

static int cmp_len(const void *a, const void *b)
{
    const request *x = a, *y = b;
    if (x->len != y->len)
        return y->len - x->len; /* longest first */
    return x->item != y->item ? (x->item < y->item ? -1 : 1) : x->choice - y->choice;
}

/* lm-eval's _encode_pair, then the window: *r. */
static int encode_pair(const mc_scorer *s, bpe_ctx *bc, const char *ctx, const char *cont, request *r, int *cut)
{
    size_t cn = strlen(ctx), kn = strlen(cont), keep = cn;
    const char *p = ctx;
    utf8_rstrip_pyspace(p, &keep); /* the context's trailing white space moves to the continuation */
    char *whole = malloc(cn + kn + 1);
    bpe_ids w = {0}, c = {0};
    int rc = whole ? 0 : err_set(ERR_NOMEM, "out of memory");
    if (!rc) {
        memcpy(whole, ctx, cn);
        memcpy(whole + cn, cont, kn + 1);
    }
    size_t nctx = 0, nall = 0;
    int64_t eod = bpe_eod(s->tok);
    if (!rc && keep == 0) { /* an empty context: the end-of-document token, then the continuation alone */
        if (eod < 0)
            rc = err_set(ERR_USAGE, "an empty context and a tokenizer without an end-of-document token");
        if (!rc)
            rc = bpe_encode(bc, whole, cn + kn, &w);
        nctx = 1;
    } else if (!rc) {
        rc = bpe_encode(bc, whole, cn + kn, &w);
        if (!rc)
            rc = bpe_encode(bc, ctx, keep, &c);
        nctx = c.n;
    }
    size_t ncont = keep == 0 ? w.n : (w.n > nctx ? w.n - nctx : 0);
    nall = nctx + ncont;
    int32_t *seq = rc ? NULL : malloc((nall ? nall : 1) * sizeof *seq);
    if (!rc && !seq)
        rc = err_set(ERR_NOMEM, "out of memory");
    if (!rc) {
        for (size_t i = 0; i < nctx; i++)
            seq[i] = keep == 0 ? (int32_t)eod : (int32_t)c.v[i];
        for (size_t i = 0; i < ncont; i++)
            seq[nctx + i] = (int32_t)w.v[(keep == 0 ? 0 : nctx) + i];
        size_t win = (size_t)s->max_len + 1, off = nall > win ? nall - win : 0;
        *cut = off > 0;
        memmove(seq, seq + off, (nall - off) * sizeof *seq);
        r->seq = seq;
        r->len = (int)(nall - off);
        /* the predictions are of seq[1 .. len): a continuation longer than that is scored on them */
        r->cont = (int)(ncont < (size_t)r->len - 1 ? ncont : (size_t)r->len - 1);
        if (!ncont)
            rc = err_set(ERR_FORMAT, "a choice that encodes to no tokens after its context");
    }
    if (rc)
        free(seq);
    free(whole);
    bpe_ids_free(&w);
    bpe_ids_free(&c);
    return rc;
}

int mc_score(const mc_scorer *s, mc_task *t)
{
    size_t nreq = 0;
    for (size_t i = 0; i < t->n; i++)
        nreq += (size_t)t->v[i].nc;
    request *rq = calloc(nreq ? nreq : 1, sizeof *rq);
    bpe_ctx *bc = bpe_ctx_new(s->tok);
    int rc = rq && bc ? 0 : err_set(ERR_NOMEM, "out of memory");
    size_t k = 0;
    t->truncated = 0;
    for (size_t i = 0; i < t->n && !rc; i++) {
        mc_item *it = &t->v[i];
        it->truncated = 0;
        for (int j = 0; j < it->nc && !rc; j++, k++) {
            int cut = 0;
            rq[k].item = i;
            rq[k].choice = j;
            if ((rc = encode_pair(s, bc, it->ctx[j], it->cont[j], &rq[k], &cut)))
                err_set(rc, "%s: item %zu, choice %d: %s", t->name, i, j, err_msg());
            it->truncated += cut;
            t->truncated += (size_t)cut;
        }
    }
    bpe_ctx_free(bc);
    t->requests = nreq;
    if (!rc)
        qsort(rq, nreq, sizeof *rq, cmp_len);
    int B = s->batch > 0 ? s->batch : 1;
    int32_t *in = NULL, *tg = NULL;
    float *loss = NULL;
    for (size_t b0 = 0; b0 < nreq && !rc; b0 += (size_t)B) {
        int nb = (int)(nreq - b0 < (size_t)B ? nreq - b0 : (size_t)B), T = rq[b0].len - 1; /* longest first */
        if (T < 1)
            T = 1;
        int rows = nb;
        if (s->fixed)
            T = s->max_len, rows = B;
        if (!in) {
            size_t cap = (size_t)B * (size_t)s->max_len;
            in = malloc(cap * sizeof *in);
            tg = malloc(cap * sizeof *tg);
            loss = malloc(cap * sizeof *loss);
            if (!in || !tg || !loss) {
                rc = err_set(ERR_NOMEM, "out of memory");
                break;
            }
        }
        for (int r = 0; r < rows; r++) {
            const request *q = &rq[b0 + (size_t)(r < nb ? r : 0)];
            for (int x = 0; x < T; x++) {
                int ok = r < nb && x < q->len - 1;
                in[(size_t)r * T + x] = ok ? q->seq[x] : 0;
                tg[(size_t)r * T + x] = ok ? q->seq[x + 1] : 0;
            }
        }
        if ((rc = s->fwd(s->arg, in, tg, rows, T, loss)))
            break;
        for (int r = 0; r < nb; r++) {
            const request *q = &rq[b0 + (size_t)r];
            double ll = 0;
            for (int x = q->len - 1 - q->cont; x < q->len - 1; x++)
                ll -= (double)loss[(size_t)r * T + x];
            t->v[q->item].ll[q->choice] = ll;
        }
    }
    free(in);
    free(tg);
    free(loss);
    for (size_t i = 0; i < nreq && rq; i++)
        free(rq[i].seq);
    free(rq);
    if (rc)
        return rc;
    /* np.argmax: the first of the largest */
    size_t hit = 0, hitn = 0;
    for (size_t i = 0; i < t->n; i++) {
        mc_item *it = &t->v[i];
        int p = 0, pn = 0;
        for (int j = 1; j < it->nc; j++) {
            if (it->ll[j] > it->ll[p])
                p = j;
            if (it->ll[j] / it->chars[j] > it->ll[pn] / it->chars[pn])
                pn = j;
        }
        it->pred = p;
        it->pred_norm = pn;
        hit += p == it->gold;
        hitn += pn == it->gold;
    }
    t->acc = (double)hit / (double)t->n;
    t->acc_norm = t->norm ? (double)hitn / (double)t->n : NAN;
    return 0;
}

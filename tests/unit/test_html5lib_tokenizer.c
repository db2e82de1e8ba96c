/* test_html5lib_tokenizer.c - html5lib-tests' tokenizer suite through the HTML5 tokenizer
 * extract parses with (lexbor 3.1.0, third_party/lexbor).
 *
 * Every test of tests/fixtures/html5lib/tokenizer/ (its .test files) is run once per initial state it
 * names (Data, PLAINTEXT, RCDATA, RAWTEXT, Script data, CDATA section; with its
 * lastStartTag), its input (with doubleEscaped's \uHHHH undone) fed whole to lexbor's
 * tokenizer, and the tokens it emits compared with the expected ones: DOCTYPE (name,
 * public and system identifiers, null or not, force-quirks), StartTag (name, attributes as
 * a set, the first of duplicates kept, self-closing), EndTag, Comment, Character (adjacent
 * ones joined). Parse errors are not compared: extract never reports them.
 *
 * Known failures are listed, with the reason, in tests/fixtures/html5lib/tokenizer_skips.txt
 * ("FILE<TAB>DESCRIPTION<TAB>STATE<TAB>why"); the check fails when a test not listed fails,
 * or when a listed one passes (the list must not outlive the reason). A summary per file
 * is printed. */
#include "common/err.h"
#include "common/jsonl.h"
#include "tests/unit/check.h"

#include <lexbor/dom/interfaces/attr_const.h>
#include <lexbor/html/html.h>
#include <lexbor/html/tokenizer/state.h>
#include <lexbor/html/tokenizer/state_rawtext.h>
#include <lexbor/html/tokenizer/state_rcdata.h>
#include <lexbor/html/tokenizer/state_script.h>
#include <lexbor/tag/tag.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIR_DEFAULT "tests/fixtures/html5lib/tokenizer"
#define SKIPS_DEFAULT "tests/fixtures/html5lib/tokenizer_skips.txt"

/* ---- a growing string and the normalised token list ------------------------------------- */

typedef struct {
    char *s;
    size_t n, cap;
} buf;

static void put(buf *b, const void *d, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap * 2 : 256;
        while (c < b->n + n + 1) c *= 2;
        b->s = realloc(b->s, c);
        if (!b->s) abort();
        b->cap = c;
    }
    memcpy(b->s + b->n, d, n);
    b->n += n;
    b->s[b->n] = 0;
}
static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

/* A token in one canonical line of text, so that lists compare with strcmp:
 *   C:<data> | M:<data> | S:<name>|<attrs sorted, name=value\x01 ...>|<self-closing 0/1>
 *   E:<name> | D:<name or \x02>|<public or \x02>|<system or \x02>|<correct 0/1>
 * joined by \x03. Data is kept as bytes (NUL included: hence explicit lengths). */
typedef struct {
    buf out;   /* the tokens so far */
    buf chars; /* Character data not yet flushed (adjacent tokens join) */
    lxb_html_tokenizer_t *tkz;
} run;

static void flush_chars(run *r)
{
    if (!r->chars.n) return;
    puts_(&r->out, "C:");
    put(&r->out, r->chars.s, r->chars.n);
    put(&r->out, "\x03", 1);
    r->chars.n = 0;
}

typedef struct {
    char *name, *value;
    size_t nl, vl;
} kv;

static int cmp_kv(const void *a, const void *b)
{
    const kv *x = a, *y = b;
    size_t m = x->nl < y->nl ? x->nl : y->nl;
    int c = memcmp(x->name, y->name, m);
    return c ? c : (x->nl > y->nl) - (x->nl < y->nl);
}

/* attributes as a sorted list, the first of each name kept */
static void put_attrs(buf *b, kv *a, size_t n)
{
    qsort(a, n, sizeof *a, cmp_kv);
    for (size_t i = 0; i < n; i++) {
        if (i && a[i].nl == a[i - 1].nl && !memcmp(a[i].name, a[i - 1].name, a[i].nl)) continue;
        put(b, a[i].name, a[i].nl);
        put(b, "=", 1);
        put(b, a[i].value, a[i].vl);
        put(b, "\x01", 1);
    }
}

static lxb_html_token_t *on_token(lxb_html_tokenizer_t *tkz, lxb_html_token_t *t, void *ctx)
{
    run *r = ctx;
    const char *ts = (const char *)t->text_start;
    size_t tl = t->text_start ? (size_t)(t->text_end - t->text_start) : 0;
    if (t->tag_id == LXB_TAG__END_OF_FILE) return t;
    if (t->tag_id == LXB_TAG__TEXT) {
        put(&r->chars, ts ? ts : "", tl);
        return t;
    }
    flush_chars(r);
    if (t->tag_id == LXB_TAG__EM_COMMENT) {
        puts_(&r->out, "M:");
        put(&r->out, ts ? ts : "", tl);
    } else if (t->tag_id == LXB_TAG__EM_DOCTYPE) {
        lxb_html_token_attr_t *a = t->attr_first;
        const char *pub = NULL, *sys = NULL;
        size_t pl = 0, sl = 0;
        puts_(&r->out, "D:");
        size_t nl = 0;
        const lxb_char_t *nm = a ? lxb_html_token_attr_name(a, &nl) : NULL;
        if (a && a->name_begin) put(&r->out, nm ? (const char *)nm : "", nl);
        else put(&r->out, "\x02", 1);
        /* then PUBLIC (its identifier) and the system identifier after it, or SYSTEM alone,
         * as lxb_html_token_doctype_parse reads them */
        lxb_html_token_attr_t *x = a ? a->next : NULL;
        if (x && x->name && x->name->attr_id == LXB_DOM_ATTR_PUBLIC) {
            pub = x->value_begin ? (x->value ? (const char *)x->value : "") : NULL;
            pl = x->value_size;
            x = x->next;
            if (x) { sys = x->value ? (const char *)x->value : ""; sl = x->value_size; }
        } else if (x && x->name && x->name->attr_id == LXB_DOM_ATTR_SYSTEM) {
            sys = x->value_begin ? (x->value ? (const char *)x->value : "") : NULL;
            sl = x->value_size;
        }
        put(&r->out, "|", 1);
        if (pub) put(&r->out, pub, pl); else put(&r->out, "\x02", 1);
        put(&r->out, "|", 1);
        if (sys) put(&r->out, sys, sl); else put(&r->out, "\x02", 1);
        puts_(&r->out, t->type & LXB_HTML_TOKEN_TYPE_FORCE_QUIRKS ? "|0" : "|1");
    } else {
        size_t nl = 0;
        const lxb_char_t *name = lxb_tag_name_by_id(t->tag_id, &nl);
        if (t->type & LXB_HTML_TOKEN_TYPE_CLOSE) {
            puts_(&r->out, "E:");
            put(&r->out, name ? (const char *)name : "?", nl);
        } else {
            puts_(&r->out, "S:");
            put(&r->out, name ? (const char *)name : "?", nl);
            put(&r->out, "|", 1);
            size_t na = 0;
            for (lxb_html_token_attr_t *x = t->attr_first; x; x = x->next) na++;
            kv *as = calloc(na + 1, sizeof *as);
            size_t i = 0;
            for (lxb_html_token_attr_t *x = t->attr_first; x; x = x->next, i++) {
                as[i].name = (char *)lxb_html_token_attr_name(x, &as[i].nl);
                if (!as[i].name) as[i].name = "";
                as[i].value = x->value ? (char *)x->value : "";
                as[i].vl = x->value ? x->value_size : 0;
            }
            put_attrs(&r->out, as, na);
            free(as);
            puts_(&r->out, t->type & LXB_HTML_TOKEN_TYPE_CLOSE_SELF ? "|1" : "|0");
        }
    }
    put(&r->out, "\x03", 1);
    return t;
}

/* ---- doubleEscaped: \uHHHH to UTF-8 (surrogates as their three bytes) ------------------- */

static void unescape(const char *s, size_t n, buf *o)
{
    for (size_t i = 0; i < n;) {
        unsigned cp;
        if (s[i] == '\\' && i + 6 <= n && s[i + 1] == 'u' && sscanf(s + i + 2, "%4x", &cp) == 1) {
            char u[4];
            size_t k;
            if (cp < 0x80) { u[0] = (char)cp; k = 1; }
            else if (cp < 0x800) { u[0] = (char)(0xC0 | cp >> 6); u[1] = (char)(0x80 | (cp & 63)); k = 2; }
            else { u[0] = (char)(0xE0 | cp >> 12); u[1] = (char)(0x80 | (cp >> 6 & 63)); u[2] = (char)(0x80 | (cp & 63)); k = 3; }
            put(o, u, k);
            i += 6;
        } else {
            put(o, s + i, 1);
            i++;
        }
    }
}

/* A JSON string's bytes. cJSON's strings end at a NUL, so the files' \u0000 escapes are
 * turned into U+F8FF (a private-use character no test holds) before parsing, and back here. */
static void jstr(const cJSON *v, int dbl, buf *o)
{
    o->n = 0;
    const char *s = cJSON_GetStringValue(v);
    if (!s) return;
    if (dbl) unescape(s, strlen(s), o);
    else put(o, s, strlen(s));
    size_t w = 0;
    for (size_t i = 0; i < o->n; i++) {
        if (i + 3 <= o->n && !memcmp(o->s + i, "\xef\xa3\xbf", 3)) { o->s[w++] = 0; i += 2; continue; }
        o->s[w++] = o->s[i];
    }
    o->n = w;
}

static void nul_escapes(buf *t)
{
    for (size_t i = 0; i + 6 <= t->n; i++)
        if (!memcmp(t->s + i, "\\u0000", 6)) memcpy(t->s + i, "\\uf8ff", 6);
}

/* the expected tokens, in the same canonical form */
static void expected(const cJSON *out, int dbl, buf *e)
{
    buf chars = {0}, t = {0};
    e->n = 0;
    const cJSON *tok;
    cJSON_ArrayForEach(tok, out) {
        const char *type = cJSON_GetStringValue(cJSON_GetArrayItem(tok, 0));
        if (!type) continue;
        if (!strcmp(type, "Character")) {
            jstr(cJSON_GetArrayItem(tok, 1), dbl, &t);
            put(&chars, t.s ? t.s : "", t.n);
            continue;
        }
        if (chars.n) {
            puts_(e, "C:");
            put(e, chars.s, chars.n);
            put(e, "\x03", 1);
            chars.n = 0;
        }
        if (!strcmp(type, "Comment")) {
            jstr(cJSON_GetArrayItem(tok, 1), dbl, &t);
            puts_(e, "M:");
            put(e, t.s ? t.s : "", t.n);
        } else if (!strcmp(type, "EndTag")) {
            jstr(cJSON_GetArrayItem(tok, 1), dbl, &t);
            puts_(e, "E:");
            put(e, t.s ? t.s : "", t.n);
        } else if (!strcmp(type, "StartTag")) {
            jstr(cJSON_GetArrayItem(tok, 1), dbl, &t);
            puts_(e, "S:");
            put(e, t.s ? t.s : "", t.n);
            put(e, "|", 1);
            const cJSON *attrs = cJSON_GetArrayItem(tok, 2);
            size_t na = (size_t)cJSON_GetArraySize(attrs), i = 0;
            kv *as = calloc(na + 1, sizeof *as);
            buf *vals = calloc(2 * na + 1, sizeof *vals);
            const cJSON *a;
            cJSON_ArrayForEach(a, attrs) {
                put(&vals[2 * i], a->string, strlen(a->string));
                if (dbl) { buf u = {0}; unescape(a->string, strlen(a->string), &u); free(vals[2 * i].s); vals[2 * i] = u; }
                jstr(a, dbl, &vals[2 * i + 1]);
                as[i].name = vals[2 * i].s;
                as[i].nl = vals[2 * i].n;
                as[i].value = vals[2 * i + 1].s ? vals[2 * i + 1].s : "";
                as[i].vl = vals[2 * i + 1].n;
                i++;
            }
            put_attrs(e, as, i);
            for (size_t k = 0; k < 2 * na; k++) free(vals[k].s);
            free(vals);
            free(as);
            puts_(e, cJSON_IsTrue(cJSON_GetArrayItem(tok, 3)) ? "|1" : "|0");
        } else if (!strcmp(type, "DOCTYPE")) {
            puts_(e, "D:");
            for (int k = 1; k <= 3; k++) {
                const cJSON *v = cJSON_GetArrayItem(tok, k);
                if (k > 1) put(e, "|", 1);
                if (cJSON_IsString(v)) {
                    jstr(v, dbl, &t);
                    put(e, t.s ? t.s : "", t.n);
                } else put(e, "\x02", 1);
            }
            puts_(e, cJSON_IsTrue(cJSON_GetArrayItem(tok, 4)) ? "|1" : "|0");
        }
        put(e, "\x03", 1);
    }
    if (chars.n) {
        puts_(e, "C:");
        put(e, chars.s, chars.n);
        put(e, "\x03", 1);
    }
    free(chars.s);
    free(t.s);
}

static int tokenize(const char *in, size_t n, const char *state, const char *last, buf *out)
{
    run r = {0};
    lxb_html_tokenizer_t *tkz = lxb_html_tokenizer_create();
    if (lxb_html_tokenizer_init(tkz) != LXB_STATUS_OK || lxb_html_tokenizer_tags_make(tkz, 128) != LXB_STATUS_OK ||
        lxb_html_tokenizer_attrs_make(tkz, 128) != LXB_STATUS_OK)
        return -1;
    r.tkz = tkz;
    lxb_html_tokenizer_callback_token_done_set(tkz, on_token, &r);
    lxb_tag_id_t tag = LXB_TAG__UNDEF;
    if (last && *last) tag = lxb_tag_id_by_name(tkz->tags, (const lxb_char_t *)last, strlen(last));
    if (!strcmp(state, "PLAINTEXT state")) tkz->state = lxb_html_tokenizer_state_plaintext_before;
    else if (!strcmp(state, "RCDATA state")) tkz->state = lxb_html_tokenizer_state_rcdata_before;
    else if (!strcmp(state, "RAWTEXT state")) tkz->state = lxb_html_tokenizer_state_rawtext_before;
    else if (!strcmp(state, "Script data state")) tkz->state = lxb_html_tokenizer_state_script_data_before;
    else if (!strcmp(state, "CDATA section state")) tkz->state = lxb_html_tokenizer_state_cdata_section_before;
    else if (strcmp(state, "Data state")) return -2;
    if (tag != LXB_TAG__UNDEF) tkz->tmp_tag_id = tag;
    int rc = 0;
    if (lxb_html_tokenizer_begin(tkz) != LXB_STATUS_OK || lxb_html_tokenizer_chunk(tkz, (const lxb_char_t *)in, n) != LXB_STATUS_OK ||
        lxb_html_tokenizer_end(tkz) != LXB_STATUS_OK)
        rc = -1;
    flush_chars(&r);
    out->n = 0;
    put(out, r.out.s ? r.out.s : "", r.out.n);
    free(r.out.s);
    free(r.chars.s);
    lxb_html_tokenizer_tags_destroy(tkz); /* what tags_make and attrs_make made is not the tokenizer's to free */
    lxb_html_tokenizer_attrs_destroy(tkz);
    lxb_html_tokenizer_destroy(tkz);
    return rc;
}

/* ---- the known failures ------------------------------------------------------------------- */

typedef struct {
    char *file, *desc, *state;
    int seen_fail;
} skip;

static skip *skips;
static size_t nskips;

static void load_skips(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *a = strtok(line, "\t"), *b = strtok(NULL, "\t"), *c = strtok(NULL, "\t\n");
        if (!a || !b || !c) continue;
        skips = realloc(skips, (nskips + 1) * sizeof *skips);
        skips[nskips++] = (skip){strdup(a), strdup(b), strdup(c), 0};
    }
    fclose(f);
}

static skip *find_skip(const char *file, const char *desc, const char *state)
{
    for (size_t i = 0; i < nskips; i++)
        if (!strcmp(skips[i].file, file) && !strcmp(skips[i].desc, desc) && !strcmp(skips[i].state, state)) return &skips[i];
    return NULL;
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void show(const char *what, const buf *b)
{
    printf("      %s: ", what);
    for (size_t i = 0; i < b->n && i < 300; i++) {
        unsigned char c = (unsigned char)b->s[i];
        if (c == 3) printf(" ; ");
        else if (c < 32 || c == 127) printf("\\x%02x", c);
        else putchar(c);
    }
    printf("\n");
}

static void test_tokenizer_suite(void)
{
    const char *dir = getenv("HTML5LIB_TOKENIZER_DIR") ? getenv("HTML5LIB_TOKENIZER_DIR") : DIR_DEFAULT;
    load_skips(SKIPS_DEFAULT);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) return;
    char **names = NULL;
    size_t nn = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l > 5 && !strcmp(de->d_name + l - 5, ".test")) {
            names = realloc(names, (nn + 1) * sizeof *names);
            names[nn++] = strdup(de->d_name);
        }
    }
    closedir(d);
    qsort(names, nn, sizeof *names, cmp_name);
    size_t all_runs = 0, all_pass = 0, all_known = 0, unexpected = 0;
    buf got = {0}, want = {0}, in = {0};
    for (size_t fi = 0; fi < nn; fi++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[fi]);
        FILE *f = fopen(path, "rb");
        if (!f) { CHECK(0); continue; }
        buf text = {0};
        char chunk[65536];
        size_t k;
        while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) put(&text, chunk, k);
        fclose(f);
        nul_escapes(&text);
        cJSON *root = cJSON_ParseWithLength(text.s, text.n);
        free(text.s);
        CHECK(root != NULL);
        if (!root) continue;
        const cJSON *tests = cJSON_GetObjectItem(root, "tests");
        size_t runs = 0, pass = 0, known = 0, xml = 0;
        if (!tests) { /* xmlViolation.test: expects the infoset coercion of the spec, not plain tokens */
            xml = (size_t)cJSON_GetArraySize(cJSON_GetObjectItem(root, "xmlViolationTests"));
        }
        const cJSON *t;
        cJSON_ArrayForEach(t, tests) {
            const char *desc = cJSON_GetStringValue(cJSON_GetObjectItem(t, "description"));
            int dbl = cJSON_IsTrue(cJSON_GetObjectItem(t, "doubleEscaped"));
            jstr(cJSON_GetObjectItem(t, "input"), dbl, &in);
            expected(cJSON_GetObjectItem(t, "output"), dbl, &want);
            const cJSON *states = cJSON_GetObjectItem(t, "initialStates");
            const char *last = cJSON_GetStringValue(cJSON_GetObjectItem(t, "lastStartTag"));
            int ns = states ? cJSON_GetArraySize(states) : 1;
            for (int si = 0; si < ns; si++) {
                const char *state = states ? cJSON_GetStringValue(cJSON_GetArrayItem(states, si)) : "Data state";
                runs++;
                int rc = tokenize(in.s ? in.s : "", in.n, state, last, &got);
                int ok = rc == 0 && got.n == want.n && !memcmp(got.s, want.s, got.n);
                skip *sk = find_skip(names[fi], desc ? desc : "", state);
                if (ok && !sk) { pass++; continue; }
                if (!ok && sk) { known++; sk->seen_fail = 1; continue; }
                unexpected++;
                printf("  %s: \"%s\" (%s): %s\n", names[fi], desc ? desc : "", state,
                       ok ? "passes but is listed as a known failure" : "tokens differ");
                if (!ok) { show("want", &want); show("got ", &got); }
            }
        }
        printf("  %-28s %5zu runs: %5zu pass, %3zu known failures%s\n", names[fi], runs, pass, known,
               xml ? " (xmlViolationTests: not run, they expect the DOM-to-infoset coercion)" : "");
        all_runs += runs;
        all_pass += pass;
        all_known += known;
        cJSON_Delete(root);
    }
    printf("  html5lib tokenizer: %zu runs, %zu pass, %zu known failures (tokenizer_skips.txt), %zu unexpected\n", all_runs,
           all_pass, all_known, unexpected);
    CHECK(unexpected == 0);
    CHECK(all_runs > 6000);
    for (size_t i = 0; i < nn; i++) free(names[i]);
    free(names);
    free(got.s);
    free(want.s);
    free(in.s);
}

int main(void)
{
    RUN(test_tokenizer_suite);
    for (size_t i = 0; i < nskips; i++) {
        free(skips[i].file);
        free(skips[i].desc);
        free(skips[i].state);
    }
    free(skips);
    return check_total_failed != 0;
}

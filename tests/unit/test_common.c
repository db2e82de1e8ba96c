/* Unit tests of common/: err, args, utf8, hash, strset, io, jsonl, jsonscan, pool, fsutil. */
#include "common/args.h"
#include "common/err.h"
#include "common/fsutil.h"
#include "common/hash.h"
#include "common/io.h"
#include "common/jsonl.h"
#include "common/pool.h"
#include "common/progress.h"
#include "common/strset.h"
#include "common/tally.h"
#include "common/utf8.h"
#include "tests/unit/check.h"
#include "tests/unit/jsonscan_check.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

static char tmpdir[256];

static void path_in_tmp(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", tmpdir, name); }

static void test_err(void)
{
    CHECK_EQ_INT(err_set(ERR_IO, "file %s", "x"), ERR_IO);
    CHECK_EQ_STR(err_msg(), "file x");
    CHECK_EQ_STR(err_name(ERR_CORRUPT), "ERR_CORRUPT");
    CHECK_EQ_INT(err_exit_code(ERR_USAGE), EXIT_USAGE);
    CHECK_EQ_INT(err_exit_code(ERR_IO), EXIT_IO);
    CHECK_EQ_INT(err_exit_code(ERR_FORMAT), EXIT_DATA);
}

static void test_args(void)
{
    uint64_t v = 0;
    CHECK(args_parse_size("1G", &v) == 0 && v == 1ull << 30);
    CHECK(args_parse_size("512M", &v) == 0 && v == 512ull << 20);
    CHECK(args_parse_size("1.5k", &v) == 0 && v == 1536);
    CHECK(args_parse_size("100", &v) == 0 && v == 100);
    CHECK(args_parse_size("2GiB", &v) == 0 && v == 2ull << 30);
    CHECK(args_parse_size("x1", &v) == ERR_USAGE);
    CHECK(args_parse_size("-5M", &v) == ERR_USAGE);
    CHECK(args_parse_size("5Q", &v) == ERR_USAGE);
    CHECK(args_parse_size("nan", &v) == ERR_USAGE); /* found by fuzz_args: (uint64_t)NaN is undefined */
    CHECK(args_parse_size("nanM", &v) == ERR_USAGE);
    CHECK(args_parse_size("inf", &v) == ERR_USAGE);
    CHECK(args_parse_size("16E", &v) == ERR_USAGE);

    const char *out = NULL;
    long long n = 0;
    int flag = 0;
    args_list l = { 0 };
    double d = 0;
    const arg_opt opts[] = {
        { "output-prefix", 'o', ARG_STR, &out, "P", "prefix" },
        { "workers", 'w', ARG_INT, &n, "N", "workers" },
        { "append-eod", 0, ARG_FLAG, &flag, NULL, "eod" },
        { "json-keys", 0, ARG_LIST, &l, "K", "keys" },
        { "lr", 0, ARG_DOUBLE, &d, "X", "lr" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    arg_spec spec = { "t", "[X]", NULL, opts, NULL };
    char *argv[] = { "t", "in1", "--output_prefix=pre", "-w", "4", "--append-eod", "--json-keys", "a",
                     "--json-keys=b", "--lr", "6e-4", "--", "--not-an-option", NULL };
    char **pos;
    int npos;
    CHECK_EQ_INT(args_parse(&spec, 13, argv, &pos, &npos), 0);
    CHECK_EQ_STR(out, "pre");
    CHECK_EQ_INT(n, 4);
    CHECK_EQ_INT(flag, 1);
    CHECK_EQ_INT(l.n, 2);
    CHECK(l.n == 2 && strcmp(l.items[1], "b") == 0);
    CHECK(d > 5.9e-4 && d < 6.1e-4);
    CHECK_EQ_INT(npos, 2);
    CHECK(npos == 2 && strcmp(pos[1], "--not-an-option") == 0);
    free(pos);
    args_list_free(&l);

    char *bad1[] = { "t", "--nope", NULL };
    CHECK_EQ_INT(args_parse(&spec, 2, bad1, &pos, &npos), ERR_USAGE);
    CHECK(strstr(err_msg(), "--nope") != NULL);
    free(pos);
    char *bad2[] = { "t", "--workers", "four", NULL };
    CHECK_EQ_INT(args_parse(&spec, 3, bad2, &pos, &npos), ERR_USAGE);
    CHECK(strstr(err_msg(), "four") != NULL);
    free(pos);
    char *bad3[] = { "t", "--workers", NULL };
    CHECK_EQ_INT(args_parse(&spec, 2, bad3, &pos, &npos), ERR_USAGE);
    free(pos);
    char *bad4[] = { "t", "--append-eod=1", NULL };
    CHECK_EQ_INT(args_parse(&spec, 2, bad4, &pos, &npos), ERR_USAGE);
    free(pos);
}

static void test_utf8(void)
{
    uint32_t cp;
    CHECK_EQ_INT(utf8_decode((const unsigned char *)"\xE2\x82\xAC", 3, &cp), 3);
    CHECK_EQ_INT(cp, 0x20AC);
    CHECK_EQ_INT(utf8_decode((const unsigned char *)"\xC0\x80", 2, &cp), -1);         /* overlong */
    CHECK_EQ_INT(utf8_decode((const unsigned char *)"\xED\xA0\x80", 3, &cp), -1);     /* surrogate */
    CHECK_EQ_INT(utf8_decode((const unsigned char *)"\xF4\x90\x80\x80", 4, &cp), -1); /* > U+10FFFF */
    CHECK_EQ_INT(utf8_decode((const unsigned char *)"\xE2\x82", 2, &cp), -1);         /* truncated */
    CHECK(utf8_valid("hello, \xE4\xB8\x96\xE7\x95\x8C and more ascii text", 30));
    CHECK_EQ_INT(utf8_valid_prefix("abcdefghij\xFFxyz", 14), 10);
    char enc[4];
    CHECK_EQ_INT(utf8_encode(0x1F600, enc), 4);
    CHECK(utf8_decode((unsigned char *)enc, 4, &cp) == 4 && cp == 0x1F600);
    CHECK(utf8_is_pyspace(0x1C) && utf8_is_pyspace(0x85) && utf8_is_pyspace(0x3000) && !utf8_is_pyspace(0x200B));
    CHECK(!utf8_is_white_space(0x1C) && utf8_is_white_space(0x85) && utf8_is_white_space(0xA0));
    const char *s = "\xE3\x80\x80 \t url \x1F\n";
    size_t n = strlen(s);
    utf8_strip_pyspace(&s, &n);
    CHECK(n == 3 && memcmp(s, "url", 3) == 0);
    const char *e = "   ";
    size_t en = 3;
    utf8_strip_pyspace(&e, &en);
    CHECK_EQ_INT(en, 0);
}

static void test_hash(void)
{
    /* XXH3-64 of the empty input with seed 0: a published constant, so the
     * hashes we store on disk stay stable across library versions. */
    CHECK(hash64("", 0, 0) == 0x2D06800538D394C2ull);
    CHECK(hash64("abc", 3, 1) != hash64("abc", 3, 2));
    rng_state r;
    rng_seed(&r, 42);
    int counts[6] = { 0 };
    for (int i = 0; i < 60000; i++) counts[rng_below(&r, 6)]++;
    for (int i = 0; i < 6; i++) CHECK(counts[i] > 9500 && counts[i] < 10500);
    rng_state a, b;
    rng_seed(&a, 7);
    rng_seed(&b, 7);
    CHECK(rng_next(&a) == rng_next(&b));
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* hash64_mem: the same bytes the same hash wherever they lie; each key read in a buffer
 * of exactly its size (ASan: no byte past it); 300,000 different keys of 0..40 bytes
 * (many differing in one byte only, or in their length only) without two equal hashes,
 * and their low 10 bits (a table's slot) spread evenly */
/* mem_same against memcmp: every length to 70, each byte position changed, and
 * keys in buffers of exactly their size (ASan sees a read past either end) */
static void test_mem_same(void)
{
    rng_state r;
    rng_seed(&r, 7);
    size_t checked = 0, bad = 0;
    for (size_t len = 0; len <= 70; len++) {
        unsigned char *a = malloc(len ? len : 1), *b = malloc(len ? len : 1);
        CHECK(a && b);
        if (!a || !b) { free(a); free(b); return; }
        for (size_t i = 0; i < len; i++) a[i] = (unsigned char)rng_next(&r);
        memcpy(b, a, len);
        bad += !mem_same(a, b, len);
        checked++;
        for (size_t at = 0; at < len; at++)
            for (int bit = 0; bit < 8; bit++) {
                b[at] ^= (unsigned char)(1u << bit);
                bad += mem_same(a, b, len) != !memcmp(a, b, len) || mem_same(a, b, len);
                b[at] ^= (unsigned char)(1u << bit);
                checked++;
            }
        free(a);
        free(b);
    }
    CHECK(bad == 0);
    CHECK(checked > 19000);
}

static void test_hash_mem(void)
{
    rng_state r;
    rng_seed(&r, 99);
    enum { N = 300000, SLOTS = 1024 };
    uint64_t *h = malloc(N * sizeof *h);
    int *slot = calloc(SLOTS, sizeof *slot);
    CHECK(h && slot);
    if (!h || !slot) return;
    unsigned char base[40];
    for (int i = 0; i < 40; i++) base[i] = (unsigned char)('a' + rng_below(&r, 26));
    size_t k = 0;
    for (size_t len = 0; len <= 40 && k < N; len++) /* the base's prefixes, and each with one byte changed */
        for (size_t at = 0; at <= len && k < N; at++)
            for (int v = 0; v < 256 && k < N; v++) {
                if (at == len && v) break;
                if (at < len && v == base[at]) continue;
                unsigned char *key = malloc(len ? len : 1);
                if (!key) break;
                memcpy(key, base, len);
                if (at < len) key[at] = (unsigned char)v;
                h[k++] = hash64_mem(key, len, 5);
                unsigned char copy[48] = {0};
                memcpy(copy + 3, key, len);
                CHECK(hash64_mem(copy + 3, len, 5) == h[k - 1]);
                free(key);
            }
    while (k < N) { /* random keys of 8..16 bytes */
        unsigned char key[16];
        size_t len = 8 + (size_t)rng_below(&r, 9);
        for (size_t i = 0; i < len; i++) key[i] = (unsigned char)rng_next(&r);
        h[k++] = hash64_mem(key, len, 5);
    }
    for (size_t i = 0; i < N; i++) slot[h[i] & (SLOTS - 1)]++;
    int lo = N, hi = 0;
    for (int i = 0; i < SLOTS; i++) {
        lo = slot[i] < lo ? slot[i] : lo;
        hi = slot[i] > hi ? slot[i] : hi;
    }
    CHECK(lo > N / SLOTS * 3 / 4 && hi < N / SLOTS * 5 / 4); /* mean 293 */
    qsort(h, N, sizeof *h, cmp_u64);
    size_t same = 0;
    for (size_t i = 1; i < N; i++) same += h[i] == h[i - 1];
    CHECK_EQ_INT(same, 0);
    CHECK(hash64_mem("abc", 3, 1) != hash64_mem("abc", 3, 2));
    free(h);
    free(slot);
}

static void test_strset(void)
{
    strset *s = strset_new();
    CHECK_EQ_INT(strset_add(s, "a", 1), 1);
    CHECK_EQ_INT(strset_add(s, "a", 1), 0);
    CHECK_EQ_INT(strset_add(s, "a\0b", 3), 1); /* embedded NUL: length counts */
    char buf[32];
    for (int i = 0; i < 100000; i++) {
        int k = snprintf(buf, sizeof buf, "key-%d", i);
        CHECK(strset_add(s, buf, (size_t)k) == 1 || (fprintf(stdout, "  at %d\n", i), 0));
        if (check_fails) break;
    }
    CHECK_EQ_INT(strset_count(s), 100002);
    CHECK(strset_has(s, "key-99999", 9));
    CHECK(!strset_has(s, "key-100000", 10));
    strset_free(s);
    strset_free(NULL);
}

static int read_all_lines(io_reader *r, char *out, size_t cap, int *nlines)
{
    char *line;
    size_t len, o = 0;
    int rc;
    *nlines = 0;
    while ((rc = io_getline(r, &line, &len)) == 1) {
        if (o + len + 1 < cap) {
            memcpy(out + o, line, len);
            o += len;
            out[o++] = '|';
        }
        (*nlines)++;
    }
    out[o] = '\0';
    return rc;
}

static void test_io_reader_plain(void)
{
    const char data[] = "one\ntwo\r\n\nlast-without-newline";
    io_reader *r;
    CHECK_EQ_INT(io_reader_open_mem(&r, data, sizeof data - 1, "mem"), 0);
    char out[256];
    int n;
    CHECK_EQ_INT(read_all_lines(r, out, sizeof out, &n), 0);
    CHECK_EQ_INT(n, 4);
    CHECK_EQ_STR(out, "one|two\r||last-without-newline|");
    CHECK_EQ_INT(io_reader_codec(r), IO_CODEC_NONE);
    io_reader_close(r);

    /* A line far longer than the initial buffer. */
    size_t big = 10u << 20;
    char *b = malloc(big + 3);
    memset(b, 'x', big);
    memcpy(b + big, "\ny", 3);
    CHECK_EQ_INT(io_reader_open_mem(&r, b, big + 2, "big"), 0);
    char *line;
    size_t len;
    CHECK_EQ_INT(io_getline(r, &line, &len), 1);
    CHECK_EQ_INT(len, big);
    CHECK(line[0] == 'x' && line[big - 1] == 'x' && line[big] == '\0');
    CHECK_EQ_INT(io_getline(r, &line, &len), 1);
    CHECK(len == 1 && line[0] == 'y');
    CHECK_EQ_INT(io_getline(r, &line, &len), 0);
    io_reader_close(r);
    free(b);

    /* A file read in chunks sized to its length at open (10 bytes: 64 KB
     * chunks) that grows before it is read is still read to its end. */
    char path[512];
    path_in_tmp(path, sizeof path, "grows.txt");
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs("123456789\n", f);
    fflush(f);
    CHECK_EQ_INT(io_reader_open(&r, path), 0);
    size_t more = 3u << 20;
    for (size_t i = 0; i < more; i++) fputc('a' + (int)(i % 26), f);
    fclose(f);
    char chunk[4096];
    size_t total = 0;
    ssize_t k;
    while ((k = io_read(r, chunk, sizeof chunk)) > 0) total += (size_t)k;
    CHECK_EQ_INT(k, 0);
    CHECK_EQ_INT(total, 10 + more);
    io_reader_close(r);
    unlink(path);

    CHECK_EQ_INT(io_reader_open(&r, "/nonexistent/file.txt"), ERR_IO);
    CHECK(strstr(err_msg(), "/nonexistent/file.txt") != NULL);
    CHECK_EQ_INT(io_reader_open(&r, "/"), ERR_IO);
    CHECK(strstr(err_msg(), "directory") != NULL);
}

static void test_io_reader_zstd(void)
{
    const char text[] = "alpha\nbeta\ngamma\n";
    size_t cap = ZSTD_compressBound(sizeof text) * 2;
    char *z = malloc(cap);
    size_t n1 = ZSTD_compress(z, cap, text, 11, 3);                    /* "alpha\nbeta\n" */
    size_t n2 = ZSTD_compress(z + n1, cap - n1, text + 11, 6, 3);      /* second frame */
    io_reader *r;
    CHECK_EQ_INT(io_reader_open_mem(&r, z, n1 + n2, "z.zst"), 0);
    CHECK_EQ_INT(io_reader_codec(r), IO_CODEC_ZSTD);
    char out[128];
    int n;
    CHECK_EQ_INT(read_all_lines(r, out, sizeof out, &n), 0);
    CHECK_EQ_STR(out, "alpha|beta|gamma|");
    io_reader_close(r);
    /* Truncated: cut the last frame short. */
    CHECK_EQ_INT(io_reader_open_mem(&r, z, n1 + n2 - 3, "cut.zst"), 0);
    CHECK_EQ_INT(read_all_lines(r, out, sizeof out, &n), ERR_CORRUPT);
    CHECK(strstr(err_msg(), "cut.zst") && strstr(err_msg(), "truncated"));
    io_reader_close(r);
    /* Garbage after a valid frame. */
    memcpy(z + n1, "\x28\xB5\x2F\xFD garbage", 12);
    CHECK_EQ_INT(io_reader_open_mem(&r, z, n1 + 12, "bad.zst"), 0);
    CHECK(read_all_lines(r, out, sizeof out, &n) == ERR_CORRUPT);
    io_reader_close(r);
    free(z);
}

static void test_io_reader_gzip(void)
{
    const char text[] = "gz line 1\ngz line 2\n";
    unsigned char z[256];
    z_stream s;
    memset(&s, 0, sizeof s);
    deflateInit2(&s, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    s.next_in = (Bytef *)text;
    s.avail_in = sizeof text - 1;
    s.next_out = z;
    s.avail_out = sizeof z;
    deflate(&s, Z_FINISH);
    size_t zn = sizeof z - s.avail_out;
    deflateEnd(&s);
    io_reader *r;
    CHECK_EQ_INT(io_reader_open_mem(&r, z, zn, "x.gz"), 0);
    CHECK_EQ_INT(io_reader_codec(r), IO_CODEC_GZIP);
    char out[128];
    int n;
    CHECK_EQ_INT(read_all_lines(r, out, sizeof out, &n), 0);
    CHECK_EQ_STR(out, "gz line 1|gz line 2|");
    io_reader_close(r);
    CHECK_EQ_INT(io_reader_open_mem(&r, z, zn - 6, "cut.gz"), 0);
    CHECK_EQ_INT(read_all_lines(r, out, sizeof out, &n), ERR_CORRUPT);
    io_reader_close(r);
}

static void test_io_writer(void)
{
    char path[512], tmpl[600];
    path_in_tmp(path, sizeof path, "out.txt");
    io_writer *w;
    CHECK_EQ_INT(io_writer_open(&w, path, NULL), 0);
    CHECK_EQ_INT(io_write(w, "hello\n", 6), 0);
    CHECK(!io_is_regular_file(path)); /* not visible before commit */
    CHECK_EQ_INT(io_writer_commit(w), 0);
    CHECK(io_is_regular_file(path));
    /* abort leaves nothing */
    path_in_tmp(tmpl, sizeof tmpl, "aborted.txt");
    CHECK_EQ_INT(io_writer_open(&w, tmpl, NULL), 0);
    io_write(w, "x", 1);
    io_writer_abort(w);
    CHECK(!io_is_regular_file(tmpl));
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A %s | grep tmp-)\"", tmpdir);
    CHECK(system(cmd) == 0);

    /* .zst round trip, larger than one buffer */
    path_in_tmp(path, sizeof path, "round.zst");
    CHECK_EQ_INT(io_writer_open(&w, path, NULL), 0);
    char line[100];
    for (int i = 0; i < 200000; i++) {
        int k = snprintf(line, sizeof line, "line %d\n", i);
        io_write(w, line, (size_t)k);
    }
    CHECK_EQ_INT(io_writer_commit(w), 0);
    io_reader *r;
    CHECK_EQ_INT(io_reader_open(&r, path), 0);
    CHECK_EQ_INT(io_reader_codec(r), IO_CODEC_ZSTD);
    char *l;
    size_t len;
    int count = 0, ok = 1;
    while (io_getline(r, &l, &len) == 1) {
        snprintf(line, sizeof line, "line %d", count++);
        if (strcmp(l, line) != 0) ok = 0;
    }
    CHECK(ok && count == 200000);
    io_reader_close(r);

    CHECK_EQ_INT(io_writer_open(&w, "/nonexistent-dir/x.txt", NULL), ERR_IO);
    CHECK(strstr(err_msg(), "/nonexistent-dir/x.txt") != NULL);
}

static void test_io_writer_full_disk(void)
{
    /* /dev/full: a real ENOSPC on a non-regular file (written directly). */
    io_writer *w;
    CHECK_EQ_INT(io_writer_open(&w, "/dev/full", NULL), 0);
    io_write(w, "data\n", 5);
    CHECK_EQ_INT(io_writer_commit(w), ERR_IO);
    CHECK(strstr(err_msg(), "/dev/full") && strstr(err_msg(), "No space"));
    /* Simulated: the atomic path must leave no final file and no temp file. */
    char path[512];
    path_in_tmp(path, sizeof path, "full.txt");
    setenv("IO_FAULT_ENOSPC_AFTER", "0", 1);
    CHECK_EQ_INT(io_writer_open(&w, path, NULL), 0);
    char block[4096] = { 0 };
    int rc = 0;
    for (int i = 0; i < 1000 && rc == 0; i++) rc = io_write(w, block, sizeof block);
    CHECK_EQ_INT(rc, ERR_IO);
    io_writer_abort(w);
    CHECK(!io_is_regular_file(path));
    unsetenv("IO_FAULT_ENOSPC_AFTER");
}

static void test_jsonl(void)
{
    char path[512];
    path_in_tmp(path, sizeof path, "docs.jsonl");
    FILE *f = fopen(path, "w");
    fputs("{\"text\": \"a\", \"url\": \"u1\"}\n\n   \n{\"text\": broken\n{\"text\": \"b\"} trailing\n[1,2]\n{\"text\": \"c\\u00e9\", \"n\": 3}\n", f);
    fclose(f);
    jsonl_reader *jr;
    CHECK_EQ_INT(jsonl_open(&jr, path), 0);
    jsonl_record rec;
    CHECK_EQ_INT(jsonl_next(jr, &rec), JSONL_OK);
    CHECK_EQ_STR(jsonl_get_string(rec.obj, "url"), "u1");
    CHECK_EQ_INT(rec.lineno, 1);
    CHECK_EQ_INT(jsonl_next(jr, &rec), JSONL_MALFORMED);
    CHECK_EQ_INT(rec.lineno, 4);
    CHECK(strstr(err_msg(), "docs.jsonl:4:") != NULL);
    CHECK_EQ_INT(jsonl_next(jr, &rec), JSONL_MALFORMED);
    CHECK(strstr(err_msg(), ":5: unexpected data") != NULL);
    CHECK_EQ_INT(jsonl_next(jr, &rec), JSONL_OK);
    CHECK(cJSON_IsArray(rec.obj));
    CHECK(jsonl_get_string(rec.obj, "text") == NULL);
    CHECK_EQ_INT(jsonl_next(jr, &rec), JSONL_OK);
    CHECK_EQ_STR(jsonl_get_string(rec.obj, "text"), "c\xC3\xA9");
    CHECK(jsonl_get_string(rec.obj, "n") == NULL); /* not a string */
    CHECK_EQ_INT(jsonl_next(jr, &rec), JSONL_EOF);
    CHECK_EQ_INT(jsonl_malformed(jr), 2);
    CHECK_EQ_INT(jsonl_blank(jr), 2);
    jsonl_close(jr);
}

static atomic_int pool_sum;
static void add_i(size_t i, void *ctx) { atomic_fetch_add(&pool_sum, (int)i); (void)ctx; }
static void add_one(void *arg) { atomic_fetch_add(&pool_sum, *(int *)arg); }

static void test_pool(void)
{
    pool *p = pool_new(3);
    CHECK(p != NULL);
    CHECK_EQ_INT(pool_size(p), 3);
    atomic_store(&pool_sum, 0);
    pool_parallel_for(p, 10000, add_i, NULL);
    CHECK_EQ_INT(atomic_load(&pool_sum), 10000 * 9999 / 2);
    atomic_store(&pool_sum, 0);
    int one = 1;
    for (int i = 0; i < 500; i++) pool_submit(p, add_one, &one);
    pool_wait(p);
    CHECK_EQ_INT(atomic_load(&pool_sum), 500);
    pool_free(p);
    pool_free(NULL);
    atomic_store(&pool_sum, 0);
    pool_parallel_for(NULL, 100, add_i, NULL); /* no pool: runs inline */
    CHECK_EQ_INT(atomic_load(&pool_sum), 4950);
}

static void test_fsutil(void)
{
    char d[512], p[600];
    path_in_tmp(d, sizeof d, "dir");
    mkdir(d, 0755);
    const char *names[] = { "b.txt", "a.txt", "c.json", ".hidden.txt" };
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s", d, names[i]);
        FILE *f = fopen(p, "w");
        fclose(f);
    }
    static const char *const suf[] = { ".txt", NULL };
    fs_list l = { 0 };
    CHECK_EQ_INT(fs_expand(&l, d, suf), 0);
    CHECK_EQ_INT(l.n, 2);
    CHECK(l.n == 2 && strstr(l.paths[0], "/a.txt") && strstr(l.paths[1], "/b.txt"));
    static const char *const none[] = { ".zzz", NULL };
    CHECK_EQ_INT(fs_expand(&l, d, none), ERR_USAGE);
    CHECK(strstr(err_msg(), "*.zzz") != NULL);
    CHECK_EQ_INT(fs_expand(&l, "/no/such/path", suf), ERR_IO);
    fs_list_free(&l);
}

/* --help: a help text of several lines puts each further line under the first,
 * whether the text indents them itself or not. */
static void test_args_help(void)
{
    int dummy = 0;
    const arg_opt opts[] = {
        {"alpha", 0, ARG_FLAG, &dummy, NULL, "first line\nsecond line"},
        {"beta", 0, ARG_FLAG, &dummy, NULL, "one\n                                two"},
        {0},
    };
    const arg_spec spec_ = {"prog", "[options]", "A test.", opts, NULL}, *spec = &spec_;
    char path[] = "/tmp/test_help_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    args_print_help(spec);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char buf[4096] = "";
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    close(fd);
    unlink(path);
    CHECK(n > 0);
    char want1[64], want2[64];
    snprintf(want1, sizeof want1, "\n%32ssecond line\n", "");
    snprintf(want2, sizeof want2, "\n%32stwo\n", "");
    CHECK(strstr(buf, want1) != NULL);
    CHECK(strstr(buf, want2) != NULL);
}

static void test_progress_quiet(void)
{
    /* stdout/stderr of the test runner are not terminals: the reporter is off */
    progress *p = progress_new("x", "items", 10);
    if (!isatty(2)) CHECK(p == NULL);
    progress_update(p, 1, 1);
    progress_done(p);
}

/* tally: reasons by name, in order; in = kept + dropped; hidden ones counted, not printed */
static void test_tally(void)
{
    tally t;
    tally_init(&t);
    int a = tally_reason_id(&t, "non_english"), h = tally_hidden(&t, "quality");
    CHECK_EQ_INT(a, 0);
    CHECK_EQ_INT(h, 1);
    CHECK_EQ_INT(tally_reason_id(&t, "non_english"), 0);
    tally_keep(&t);
    tally_drop(&t, a, 10);
    tally_drop(&t, a, 5);
    tally_drop(&t, h, 7);
    tally_drop(&t, tally_reason_id(&t, "too_short"), 3);
    tally_drop(&t, -1, 99); /* no reason left: counted as a record only */
    CHECK(t.in == 6 && t.kept == 1 && tally_dropped(&t) == 5);
    CHECK(tally_count(&t, a) == 2 && t.r[a].amount == 15 && tally_count(&t, h) == 1);
    char buf[512] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    tally_print_dropped(&t, f, 12, "documents", "characters");
    fclose(f);
    CHECK_EQ_STR(buf, "  dropped non_english           2 documents             15 characters\n"
                      "  dropped too_short             1 documents              3 characters\n");
    f = fmemopen(buf, sizeof buf, "w");
    tally_describe(&t, a, "not English (CLD2)");
    tally_summary(&t, f, "cleanup", "documents", NULL, "from 1 input");
    fclose(f);
    CHECK_EQ_STR(buf, "cleanup: 6 documents in: 1 kept, 5 dropped (from 1 input)\n"
                      "  dropped non_english           2 documents  not English (CLD2)\n"
                      "  dropped too_short             1 documents\n");
    tally u;
    tally_init(&u);
    tally_add_kept(&u, 4);
    tally_add(&u, tally_reason_id(&u, "bad-json"), 3, 0);
    CHECK(u.in == 7 && u.kept == 4 && tally_dropped(&u) == 3 && tally_count(&u, 0) == 3);
    for (int i = 0; i < TALLY_MAX + 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "r%d", i);
        tally_reason_id(&t, name);
    }
    CHECK_EQ_INT(t.nr, TALLY_MAX);
    CHECK_EQ_INT(tally_reason_id(&t, "one_too_many"), -1);
}

/* common/jsonscan: answers where it should, and never otherwise than cJSON. */
static void test_jsonscan(void)
{
    static const char *const keys[] = {"text", "id"};
    jsonscan_span sp[2];
    const char *s;
    size_t sl, cap = 0;
    char *buf = NULL;
    /* answered: plain and escaped strings, other types, absent keys, nesting, white space */
    const char *l1 = " {\"id\": 7, \"meta\": {\"a\": [1, 2.5e-3, true, null, \"]\"]}, \"text\": \"caf\xc3\xa9 \\\"q\\\"\\n\\u00e9\\/\"}\r\n";
    CHECK_EQ_INT(jsonscan_fields(l1, strlen(l1), keys, 2, sp), 1);
    CHECK_EQ_INT(sp[0].type, JSONSCAN_STRING);
    CHECK_EQ_INT(sp[0].escaped, 1);
    CHECK_EQ_INT(sp[1].type, JSONSCAN_NUMBER);
    CHECK_EQ_INT(jsonscan_string(l1, &sp[0], &s, &sl, &buf, &cap), 0);
    CHECK(sl == strlen("caf\xc3\xa9 \"q\"\n\xc3\xa9/") && !memcmp(s, "caf\xc3\xa9 \"q\"\n\xc3\xa9/", sl));
    const char *l2 = "{\"text\":\"plain\"}";
    CHECK_EQ_INT(jsonscan_fields(l2, strlen(l2), keys, 2, sp), 1);
    CHECK_EQ_INT(sp[1].type, JSONSCAN_ABSENT);
    CHECK_EQ_INT(jsonscan_string(l2, &sp[0], &s, &sl, &buf, &cap), 0);
    CHECK(s == l2 + 9 && sl == 5); /* no copy */
    const char *l3 = "{\"text\":\"a\\u0000b\"}"; /* NUL kept (Python's json does) */
    CHECK_EQ_INT(jsonscan_fields(l3, strlen(l3), keys, 1, sp), 1);
    CHECK_EQ_INT(jsonscan_string(l3, &sp[0], &s, &sl, &buf, &cap), 0);
    CHECK(sl == 3 && !memcmp(s, "a\0b", 3));
    /* left to cJSON */
    static const char *const fallback[] = {
        "", "[1]", "\"x\"", "{\"text\":\"a\",}", "{\"text\":\"a\" \"id\":1}", "{\"text\":'a'}",
        "{\"text\":\"a\"} x", "{\"text\":\"\\ud800\"}", "{\"text\":\"\\ud83d\\ude00\"}", "{\"text\":\"\\x\"}",
        "{\"text\":\"a\tb\"}", "{\"text\":1,\"text\":2}", "{\"te\\u0078t\":\"a\"}", "{\"text\":01}", "{\"text\":1.}",
        "{\"text\":+1}", "{\"text\":tru}", "\xef\xbb\xbf{\"text\":\"a\"}", "{\"text\":\"a\"}\x0b", "{\"text\":\"a\"",
        "{\"text\":1234567890123456789012345678901234567890123}",
    };
    for (size_t i = 0; i < sizeof fallback / sizeof *fallback; i++) {
        int got = jsonscan_fields(fallback[i], strlen(fallback[i]), keys, 2, sp);
        if (got) printf("  jsonscan answered: %s\n", fallback[i]);
        CHECK_EQ_INT(got, 0);
    }
    const char *deep = "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}";
    CHECK_EQ_INT(jsonscan_fields(deep, strlen(deep), keys, 2, sp), 0);
    static const char *const dotted[] = {"a.b"};
    const char *l4 = "{\"a\":{\"b\":\"c\"}}";
    CHECK_EQ_INT(jsonscan_fields(l4, strlen(l4), dotted, 1, sp), 0); /* a path: cJSON's */
    /* agreement on mutated lines: every byte of a few records replaced, inserted or dropped */
    static const char *const seeds[] = {
        "{\"id\": \"doc-1\", \"text\": \"Caf\xc3\xa9 \\u00e9t\xc3\xa9\\n\\\"quoted\\\" \\\\ end\", \"n\": -12.5e3}",
        "{\"text\": \"a\\u0000b\", \"id\": [1, {\"x\": null}], \"ok\": true}",
        "{\"meta\": {\"url\": \"http://x/\"}, \"text\": \"\\ud83d\\ude00 \\t\", \"id\": false}",
    };
    const char alphabet[] = "{}[]\":,\\ u0123456789abcdefntrl-+.eE\x01\t\r\n\x7f\xc3\xa9\xff";
    char line[256];
    uint64_t state = 0x9E3779B97F4A7C15ull, disagree = 0, answered = 0;
    for (int it = 0; it < 60000; it++) {
        const char *seed = seeds[it % 3];
        size_t n = strlen(seed);
        memcpy(line, seed, n);
        for (int m = 0; m < 1 + it % 3; m++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = (size_t)(state >> 33) % n;
            char ch = alphabet[(state >> 20) % (sizeof alphabet - 1)];
            int op = (int)((state >> 12) % 3);
            if (op == 0) line[at] = ch;
            else if (op == 1 && n + 1 < sizeof line) { memmove(line + at + 1, line + at, n - at); line[at] = ch; n++; }
            else if (n > 1) { memmove(line + at, line + at + 1, n - at - 1); n--; }
        }
        answered += jsonscan_fields(line, n, keys, 2, sp);
        const char *why = jsonscan_disagreement(line, n, keys, 2);
        if (why && disagree++ < 5) printf("  %s: %.*s\n", why, (int)n, line);
    }
    CHECK_EQ_INT(disagree, 0);
    CHECK(answered > 10000); /* the mutations leave many lines valid */
    free(buf);
}

/* fs_stem, fs_split_named, jsonl_get_int: the evaluation sets' names and labels */
static void test_names_and_ints(void)
{
    char *s = fs_stem("data/eval/hellaswag_val1000.jsonl.zst");
    CHECK(s && !strcmp(s, "hellaswag_val1000"));
    free(s);
    s = fs_stem("x.json.gz.zst");
    CHECK(s && !strcmp(s, "x"));
    free(s);
    s = fs_stem(".jsonl"); /* nothing would be left: kept */
    CHECK(s && !strcmp(s, ".jsonl"));
    free(s);
    char *name;
    const char *file;
    CHECK_EQ_INT(fs_split_named("hs=data/a.jsonl", &name, &file), 1);
    CHECK(name && !strcmp(name, "hs") && !strcmp(file, "data/a.jsonl"));
    free(name);
    CHECK_EQ_INT(fs_split_named("dir/a=b.jsonl", &name, &file), 0); /* a path with a '=' in it */
    CHECK(!name && !strcmp(file, "dir/a=b.jsonl"));
    CHECK_EQ_INT(fs_split_named("=x", &name, &file), 0);
    cJSON *o = cJSON_Parse("{\"a\": 3, \"b\": \"2\", \"c\": 1.5, \"d\": \"x\", \"e\": true}");
    long v = -1;
    CHECK(o && jsonl_get_int(o, "a", &v) && v == 3);
    CHECK(jsonl_get_int(o, "b", &v) && v == 2);
    CHECK(!jsonl_get_int(o, "c", &v) && !jsonl_get_int(o, "d", &v) && !jsonl_get_int(o, "e", &v) &&
          !jsonl_get_int(o, "z", &v));
    cJSON_Delete(o);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_common.XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    RUN(test_err);
    RUN(test_names_and_ints);
    RUN(test_args);
    RUN(test_args_help);
    RUN(test_utf8);
    RUN(test_hash);
    RUN(test_hash_mem);
    RUN(test_mem_same);
    RUN(test_strset);
    RUN(test_io_reader_plain);
    RUN(test_io_reader_zstd);
    RUN(test_io_reader_gzip);
    RUN(test_io_writer);
    RUN(test_io_writer_full_disk);
    RUN(test_jsonl);
    RUN(test_jsonscan);
    RUN(test_pool);
    RUN(test_fsutil);
    RUN(test_progress_quiet);
    RUN(test_tally);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0) return 1;
    return check_total_failed ? 1 : 0;
}

/* gen_dupcorpus.c - a synthetic corpus with planted near-duplicate clusters, for the MinHash
 * scaling simulation (bench/bench_minhash_scale.sh) and the tests of bounded memory.
 *
 *   gen_dupcorpus --bytes 1G --shards 8 --out DIR/part [--seed N] [--dup-fraction F]
 *                 [--max-cluster N] [--truth FILE]
 *
 * Documents are words drawn from a Zipf-like vocabulary of 50,000 made-up words (100 to 900
 * words a document, about 3 KB). A fraction F (default 0.1) of the documents are members of
 * planted clusters whose sizes follow P(s) ~ 1/s^2 on [2, max-cluster] (default 1,000: most
 * clusters small, a long tail; a cluster of k gives k(k-1)/2 candidate pairs); member 0
 * is the cluster's base, each other member the base with a fraction q of its words replaced,
 * q uniform in [0, 0.15] (a tenth of them exact copies): Jaccard similarities of 5-byte
 * shingles from 1 down to about 0.6, around the usual 0.8 threshold. Members are scattered
 * over the whole corpus (so over every shard). Every text is a function of the seed and its
 * place, so nothing is held: the corpus can be far bigger than memory.
 * Output: DIR/part.NNNN.jsonl.zst ({"url": "doc-N", "text": ...}, contiguous ranges of the
 * corpus) and, with --truth, a TSV line "id cluster member jaccard_to_base" per cluster member
 * (exact Jaccard of the 5-byte shingle sets, dedup/mhsig.h's). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/err.h"
#include "common/hash.h"
#include "common/io.h"
#include "dedup/mhsig.h"

#define VOCAB 50000

static char *vocab[VOCAB];
static uint8_t vlen[VOCAB];

static double unif(rng_state *r) { return (double)(rng_next(r) >> 11) / 9007199254740992.0; }

static uint32_t zipf_word(rng_state *r)
{
    /* log-uniform rank: P(rank) ~ 1/rank */
    double x = exp(unif(r) * log((double)VOCAB));
    uint32_t k = (uint32_t)x - 1;
    return k < VOCAB ? k : VOCAB - 1;
}

typedef struct {
    char *s;
    size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s) { fprintf(stderr, "gen_dupcorpus: out of memory\n"); exit(1); }
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
}

/* The words of a document from seed (its length too). */
static uint32_t doc_words(uint64_t seed, uint32_t *w, uint32_t cap)
{
    rng_state r;
    rng_seed(&r, seed);
    uint32_t n = 100 + (uint32_t)rng_below(&r, 801);
    if (n > cap) n = cap;
    for (uint32_t i = 0; i < n; i++) w[i] = zipf_word(&r);
    return n;
}

static void render(buf *t, const uint32_t *w, uint32_t n)
{
    t->n = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i) put(t, (i % 17 == 16) ? ". " : " ", (i % 17 == 16) ? 2 : 1);
        put(t, vocab[w[i]], vlen[w[i]]);
    }
    put(t, ".", 1);
}

int main(int argc, char **argv)
{
    uint64_t bytes = 64ull << 20;
    long long shards = 4, seed = 1, max_cluster = 1000;
    double dupf = 0.1;
    const char *out = NULL, *truth = NULL;
    const arg_opt opts[] = {
        { "bytes", 0, ARG_SIZE, &bytes, "SIZE", "text to write, about (default 64M; k/M/G suffixes)" },
        { "shards", 0, ARG_INT, &shards, "N", "output files (default 4)" },
        { "out", 'o', ARG_STR, &out, "PREFIX", "PREFIX.NNNN.jsonl.zst (required)" },
        { "seed", 0, ARG_INT, &seed, "N", "seed (default 1)" },
        { "dup-fraction", 0, ARG_DOUBLE, &dupf, "F", "fraction of documents in planted clusters (default 0.1)" },
        { "max-cluster", 0, ARG_INT, &max_cluster, "N", "largest cluster (default 1000)" },
        { "truth", 0, ARG_STR, &truth, "FILE", "id, cluster, member, Jaccard to the base of every cluster member" },
        { NULL, 0, 0, NULL, NULL, NULL },
    };
    const arg_spec spec = {"gen_dupcorpus", "--out PREFIX [OPTION]...",
                           "Write a synthetic corpus with planted near-duplicate clusters (see the source).", opts, NULL};
    char **rest;
    int nrest, rc = args_parse_main(&spec, argc, argv, &rest, &nrest);
    if (rc >= 0) return rc;
    rc = 0;
    free(rest);
    if (!out || shards < 1 || max_cluster < 2 || dupf < 0 || dupf > 0.9) {
        fprintf(stderr, "gen_dupcorpus: need --out; --shards >= 1, --max-cluster >= 2, --dup-fraction in [0, 0.9]\n");
        return 2;
    }
    rng_state r;
    rng_seed(&r, (uint64_t)seed * 0x9e3779b97f4a7c15ULL);
    for (int i = 0; i < VOCAB; i++) { /* made-up words, 2 to 10 letters */
        uint32_t l = 2 + (uint32_t)rng_below(&r, 9);
        vocab[i] = malloc(l + 1);
        for (uint32_t k = 0; k < l; k++) vocab[i][k] = (char)('a' + rng_below(&r, 26));
        vocab[i][l] = 0;
        vlen[i] = (uint8_t)l;
    }
    /* about 3.5 KB a document (500 words of 6 letters and a space on average, and the full stops) */
    uint64_t n_docs = bytes / 3490 + 1;
    uint64_t want = (uint64_t)(dupf * (double)n_docs), placed = 0;
    uint32_t *slot = malloc(n_docs * sizeof *slot); /* cluster + 1 of each document, 0: unique */
    uint32_t *size = NULL, *seen = NULL;
    size_t nc = 0, cc = 0;
    if (!slot) { fprintf(stderr, "gen_dupcorpus: out of memory\n"); return 1; }
    memset(slot, 0, n_docs * sizeof *slot);
    while (placed + 2 <= want) {
        /* P(size) ~ 1/size^2 on [2, max_cluster]: most clusters small, a long tail */
        double u = unif(&r);
        uint32_t s = (uint32_t)(1.0 / (0.5 - u * (0.5 - 1.0 / (double)(max_cluster + 1))));
        if (s > max_cluster) s = (uint32_t)max_cluster;
        if (s < 2) s = 2;
        if (s > want - placed) s = (uint32_t)(want - placed);
        if (nc == cc) {
            cc = cc ? cc * 2 : 1024;
            size = realloc(size, cc * sizeof *size);
        }
        size[nc++] = s;
        for (uint32_t k = 0; k < s; k++) slot[placed + k] = (uint32_t)nc;
        placed += s;
    }
    for (uint64_t i = n_docs; i-- > 1;) { /* scatter: Fisher-Yates */
        uint64_t j = rng_below(&r, i + 1);
        uint32_t t = slot[i];
        slot[i] = slot[j];
        slot[j] = t;
    }
    seen = calloc(nc ? nc : 1, sizeof *seen);
    uint64_t **bsh = calloc(nc ? nc : 1, sizeof *bsh);
    long *bn = calloc(nc ? nc : 1, sizeof *bn);
    FILE *tf = truth ? fopen(truth, "w") : NULL;
    if (truth && !tf) { perror(truth); return 1; }
    uint32_t *w = malloc(1024 * 4);
    buf t = {0}, line = {0}, bt = {0};
    mh_params mp = {128, MH_CHAR, 5, 1, MH_CLASSIC};
    uint64_t *sa = NULL, *sb = NULL, total = 0;
    size_t ca = 0, cb = 0;
    uint64_t base_seed = (uint64_t)seed << 40;
    for (long long s = 0; s < shards && !rc; s++) {
        char path[4096];
        snprintf(path, sizeof path, "%s.%04lld.jsonl.zst", out, s);
        io_writer *iw;
        io_writer_opts wo = {.compress = 1, .level = 1};
        if ((rc = io_writer_open(&iw, path, &wo))) break;
        uint64_t lo = n_docs * (uint64_t)s / (uint64_t)shards, hi = n_docs * (uint64_t)(s + 1) / (uint64_t)shards;
        for (uint64_t i = lo; i < hi && !rc; i++) {
            uint32_t n;
            double jac = 1;
            if (!slot[i]) {
                n = doc_words(base_seed + 0x100000000ULL + i, w, 1024);
                render(&t, w, n);
            } else {
                uint32_t c = slot[i] - 1, m = seen[c]++;
                n = doc_words(base_seed + c, w, 1024);
                if (m) { /* a member: the base with a fraction q of its words replaced */
                    rng_state mr;
                    rng_seed(&mr, hash_mix64(base_seed ^ ((uint64_t)c << 20) ^ m));
                    double q = rng_below(&mr, 10) == 0 ? 0 : unif(&mr) * 0.15;
                    if (tf && !bsh[c]) render(&bt, w, n);
                    for (uint32_t k = 0; k < n; k++)
                        if (unif(&mr) < q) w[k] = zipf_word(&mr);
                }
                render(&t, w, n);
                if (m && tf) { /* the base's shingles are kept per cluster: members are scattered */
                    if (!bsh[c]) {
                        sa = NULL;
                        ca = 0;
                        bn[c] = mh_shingles(&mp, bt.s, bt.n, &sa, &ca);
                        bsh[c] = sa;
                    }
                    long nb = mh_shingles(&mp, t.s, t.n, &sb, &cb);
                    jac = mh_jaccard(bsh[c], (size_t)bn[c], sb, (size_t)nb, MH_DENOM_UNION);
                }
                if (tf) fprintf(tf, "doc-%" PRIu64 "\t%u\t%u\t%.6f\n", i, c, m, jac);
            }
            line.n = 0;
            char head[64];
            int hl = snprintf(head, sizeof head, "{\"url\": \"doc-%" PRIu64 "\", \"text\": \"", i);
            put(&line, head, (size_t)hl);
            put(&line, t.s, t.n);
            put(&line, "\"}\n", 3);
            total += t.n;
            rc = io_write(iw, line.s, line.n);
        }
        if (!rc) rc = io_writer_commit(iw);
        else io_writer_abort(iw);
    }
    if (tf && fclose(tf)) rc = err_set(ERR_IO, "%s: write failed", truth);
    if (rc) {
        fprintf(stderr, "gen_dupcorpus: %s\n", err_msg());
        return 1;
    }
    fprintf(stderr, "gen_dupcorpus: %" PRIu64 " documents, %.1f MB of text in %lld shards; %zu clusters holding %"
            PRIu64 " documents\n", n_docs, total / 1e6, shards, nc, placed);
    for (int i = 0; i < VOCAB; i++) free(vocab[i]);
    for (size_t c = 0; c < nc; c++) free(bsh[c]);
    free(bsh), free(bn);
    free(slot), free(size), free(seen), free(w), free(t.s), free(line.s), free(bt.s), free(sb);
    return 0;
}

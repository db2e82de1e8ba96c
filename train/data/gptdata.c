/* gptdata.c - Megatron's GPT dataset indices and blending (see gptdata.h). */
#include "train/data/gptdata.h"
#include "common/fault.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "common/hash.h"
#include "common/io.h"
#include "train/data/mt19937.h"

static const char *const split_names[3] = {"train", "valid", "test"};

int gptdata_parse_split(const char *s, double out[3])
{
    double raw[3] = {0, 0, 0};
    char sep = strchr(s, ',') ? ',' : strchr(s, '/') ? '/' : 0;
    const char *p = s;
    int k = 0;
    for (;;) {
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || errno || !(v >= 0) || isinf(v))
            return err_set(ERR_USAGE, "--split '%s': '%s' is not a non-negative number", s, p);
        while (*end == ' ')
            end++;
        if (k < 3)
            raw[k] = v;
        k++;
        if (*end == 0)
            break;
        if (*end != sep || !sep)
            return err_set(ERR_USAGE, "--split '%s': expected numbers separated by ',' or '/'", s);
        p = end + 1;
    }
    double sum = raw[0] + raw[1] + raw[2];
    if (!(sum > 0))
        return err_set(ERR_USAGE, "--split '%s': the parts must not all be zero", s);
    /* Cumulative fractions are taken from the raw sums (see split_bounds). */
    for (int i = 0; i < 3; i++)
        out[i] = raw[i] / sum;
    return 0;
}

void gptdata_split_bounds(const double frac[3], int64_t n, int64_t b[4])
{
    /* FORMATS.md section 2: split k is [round(lo*N), round(hi*N)), with lo, hi
     * the cumulative fractions; Python's round() is half-to-even, which is
     * nearbyint() in the default rounding mode. */
    double cum = 0;
    b[0] = 0;
    for (int k = 0; k < 3; k++) {
        cum += frac[k];
        b[k + 1] = k == 2 ? n : (int64_t)nearbyint(cum * (double)n);
        if (b[k + 1] > n)
            b[k + 1] = n;
        if (b[k + 1] < b[k])
            b[k + 1] = b[k];
    }
}

static int64_t seq_len_of(const mmidx *ds, int64_t seq)
{
    return mmidx_length(ds, (uint64_t)seq);
}

int gptidx_build(gptidx *g, const mmidx *ds, int64_t lo, int64_t hi, int64_t num_samples,
                 int L, uint32_t seed)
{
    memset(g, 0, sizeof *g);
    g->seq_lo = lo;
    g->seq_hi = hi;
    g->num_samples = num_samples;
    int64_t T = 0;
    for (int64_t d = lo; d < hi; d++)
        T += seq_len_of(ds, d);
    if (T < 2)
        return err_set(ERR_FORMAT, "%s: the split's sequences [%lld, %lld) hold %lld tokens, too few for one sample",
                       ds->prefix, (long long)lo, (long long)hi, (long long)T);
    /* Epochs: smallest e >= 1 with e*T >= num_samples*L + 1. */
    int64_t e = 1, tokens = T;
    while (tokens < num_samples * (int64_t)L + 1) {
        e++;
        tokens += T;
    }
    int sep = 0;
    if (e > 1) {
        int64_t sans = ((e - 1) * T - 1) / L;
        int64_t from_final = num_samples - sans;
        int64_t per_epoch = (T - 1) / L;
        sep = from_final < (int64_t)(0.80 * (double)per_epoch);
    }
    g->num_epochs = e;
    g->separate_final_epoch = sep;
    int64_t nseq = hi - lo;
    g->n_doc_index = e * nseq;
    g->n_samples = (e * T - 1) / L;
    g->doc_index = malloc((size_t)g->n_doc_index * sizeof *g->doc_index);
    g->sample_index = malloc((size_t)(g->n_samples + 1) * 2 * sizeof *g->sample_index);
    g->shuffle_index = malloc((size_t)(g->n_samples ? g->n_samples : 1) * sizeof *g->shuffle_index);
    if (!g->doc_index || !g->sample_index || !g->shuffle_index) {
        gptidx_free(g);
        return err_set(ERR_NOMEM, "%s: out of memory for the sample index (%lld samples)", ds->prefix,
                       (long long)num_samples);
    }
    for (int64_t k = 0; k < g->n_doc_index; k++)
        g->doc_index[k] = (int32_t)(lo + k % nseq);
    mt19937 rng;
    mt19937_seed(&rng, seed);
    if (!sep) {
        mt19937_shuffle_i32(&rng, g->doc_index, (size_t)g->n_doc_index);
    } else {
        mt19937_shuffle_i32(&rng, g->doc_index, (size_t)((e - 1) * nseq));
        mt19937_shuffle_i32(&rng, g->doc_index + (e - 1) * nseq, (size_t)nseq);
    }
    /* Megatron's build_sample_idx() with add_extra_token = 1. */
    int64_t *si = g->sample_index;
    si[0] = 0;
    si[1] = 0;
    int64_t pos = 0, off = 0;
    for (int64_t s = 1; s <= g->n_samples; s++) {
        int64_t remaining = (int64_t)L + 1;
        while (remaining != 0) {
            int64_t dl = seq_len_of(ds, g->doc_index[pos]) - off;
            remaining -= dl;
            if (remaining <= 0) {
                off += remaining + dl - 1;
                remaining = 0;
            } else {
                pos++;
                off = 0;
            }
        }
        si[2 * s] = pos;
        si[2 * s + 1] = off;
    }
    for (int64_t i = 0; i < g->n_samples; i++)
        g->shuffle_index[i] = i;
    if (sep) {
        int64_t first = ((e - 1) * T - 1) / L;
        mt19937_shuffle_i64(&rng, g->shuffle_index, (size_t)first);
        mt19937_shuffle_i64(&rng, g->shuffle_index + first, (size_t)(g->n_samples - first));
    } else {
        mt19937_shuffle_i64(&rng, g->shuffle_index, (size_t)g->n_samples);
    }
    return 0;
}

void gptidx_free(gptidx *g)
{
    if (!g)
        return;
    free(g->doc_index);
    free(g->sample_index);
    free(g->shuffle_index);
    memset(g, 0, sizeof *g);
}

static void copy_tokens(const mmidx *ds, int64_t seq, int64_t from, int64_t n, int32_t *out)
{
    int64_t p = mmidx_pointer(ds, (uint64_t)seq);
    const uint8_t *b = ds->bin + p + from * (int64_t)ds->itemsize;
    if (ds->dtype == MMIDX_UINT16) {
        for (int64_t i = 0; i < n; i++) {
            uint16_t v;
            memcpy(&v, b + 2 * i, 2);
            out[i] = v;
        }
    } else if (ds->dtype == MMIDX_INT32) {
        memcpy(out, b, (size_t)n * 4);
    } else {
        for (int64_t i = 0; i < n; i++)
            out[i] = (int32_t)mmidx_token(ds, (uint64_t)seq, (uint64_t)(from + i));
    }
}

void gptidx_sample(const gptidx *g, const mmidx *ds, int L, int64_t i, int32_t *out)
{
    int64_t idx = g->shuffle_index[i];
    int64_t pb = g->sample_index[2 * idx], ob = g->sample_index[2 * idx + 1];
    int64_t pe = g->sample_index[2 * idx + 2], oe = g->sample_index[2 * idx + 3];
    if (pb == pe) {
        copy_tokens(ds, g->doc_index[pb], ob, oe - ob + 1, out);
        return;
    }
    int64_t n = 0;
    for (int64_t p = pb; p <= pe; p++) {
        int64_t seq = g->doc_index[p];
        int64_t from = p == pb ? ob : 0;
        int64_t to = p == pe ? oe + 1 : seq_len_of(ds, seq);
        copy_tokens(ds, seq, from, to - from, out + n);
        n += to - from;
    }
    (void)L;
}

/* numpy.sum of a float64 array (its pairwise summation: 8 running sums over
 * blocks of up to 128, halves above), so that normalised weights are
 * Megatron's to the last bit. */
static double np_pairwise_sum(const double *a, int64_t n)
{
    if (n < 8) {
        double r = -0.0;
        for (int64_t i = 0; i < n; i++)
            r += a[i];
        return r;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; j++)
            r[j] = a[j];
        int64_t i;
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += a[i];
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return np_pairwise_sum(a, n2) + np_pairwise_sum(a + n2, n - n2);
}

void gptdata_normalize(double *w, int n)
{
    double sum = np_pairwise_sum(w, n);
    for (int i = 0; i < n; i++)
        w[i] /= sum;
}

int64_t gptdata_blend_share(int64_t target, double w)
{
    return (int64_t)ceil((double)target * w);
}

/* Compiled with -ffp-contract=off (Makefile): a fused multiply-subtract here
 * would round w*s - cur differently from Megatron's helper and break ties the
 * other way. */
void gptdata_blend(const double *w, int n, int64_t size, uint8_t *ds_out, int64_t *sample_out)
{
    int64_t cur[256] = {0};
    for (int64_t s = 0; s < size; s++) {
        double sd = s > 1 ? (double)s : 1.0;
        int best = 0;
        double best_err = w[0] * sd - (double)cur[0];
        for (int k = 1; k < n; k++) {
            double e = w[k] * sd - (double)cur[k];
            if (e > best_err) {
                best_err = e;
                best = k;
            }
        }
        ds_out[s] = (uint8_t)best;
        sample_out[s] = cur[best]++;
    }
}

/* ---- cache file ----------------------------------------------------------
 * Layout (little-endian, part of the on-disk contract, version 2; the version also names the
 * index algorithm, so a cache made by an older rule is rebuilt):
 *   char magic[8] "WTGPTIDX"; u32 version; u32 separate_final_epoch;
 *   u64 config_hash; u64 num_epochs; u64 n_doc_index; u64 n_samples (S);
 *   i32 doc_index[n_doc_index] (zero-padded to 8 bytes);
 *   i64 sample_index[2*(S+1)]; i64 shuffle_index[S];
 *   u64 checksum = hash64 of every byte before it.
 */
#define GPTIDX_MAGIC "WTGPTIDX"
#define GPTIDX_VERSION 2u /* 2: split bounds over sequences, not documents */
enum { GPTIDX_HDR = 48 };

static size_t cache_size(int64_t ndi, int64_t S)
{
    size_t di = ((size_t)ndi * 4 + 7) & ~(size_t)7;
    return GPTIDX_HDR + di + (size_t)(S + 1) * 16 + (size_t)S * 8 + 8;
}

static int cache_load(gptidx *g, const char *path, uint64_t h);

/* A cache whose checksum holds is still checked against the dataset before
 * its indices are used to read tokens: every document-index entry a sequence
 * of the split, every sample boundary inside a sequence and in order, every
 * sample L+1 tokens long, the shuffle a permutation's range, and at least the
 * requested samples. (The checksum guards against damage; this guards the
 * reads in gptidx_sample against a file that is consistent but wrong.) */
static int cache_valid(const gptidx *g, const mmidx *ds, int64_t lo, int64_t hi, int64_t ns, int L)
{
    int64_t S = g->n_samples, nd = g->n_doc_index;
    if (S < ns || S < 1 || nd < 1 || g->num_epochs < 1 || lo < 0 || hi > (int64_t)ds->n_seq || lo >= hi)
        return 0;
    for (int64_t k = 0; k < nd; k++)
        if (g->doc_index[k] < lo || g->doc_index[k] >= hi) return 0;
    const int64_t *si = g->sample_index;
    if (si[0] != 0 || si[1] != 0) return 0;
    for (int64_t s = 0; s < S; s++) {
        int64_t pb = si[2 * s], ob = si[2 * s + 1], pe = si[2 * s + 2], oe = si[2 * s + 3];
        if (pe < pb || pe >= nd || oe < 0 || oe >= seq_len_of(ds, g->doc_index[pe]) || (pe == pb && oe < ob))
            return 0;
        if (ob < 0 || (ob > 0 && ob >= seq_len_of(ds, g->doc_index[pb]))) return 0;
        /* tokens of sample s: from (pb, ob) to (pe, oe), both included (consecutive
         * samples share their boundary, so these loops cover the index once) */
        int64_t n = 0;
        for (int64_t p = pb; p <= pe; p++)
            n += (p == pe ? oe + 1 : seq_len_of(ds, g->doc_index[p])) - (p == pb ? ob : 0);
        if (n != (int64_t)L + 1) return 0;
    }
    for (int64_t i = 0; i < S; i++)
        if (g->shuffle_index[i] < 0 || g->shuffle_index[i] >= S) return 0;
    return 1;
}

int gptidx_cache_load(gptidx *g, const mmidx *ds, int64_t lo, int64_t hi, int64_t ns, int L, const char *path,
                      uint64_t h)
{
    memset(g, 0, sizeof *g);
    int c = cache_load(g, path, h);
    if (c == 0 && !cache_valid(g, ds, lo, hi, ns, L)) {
        gptidx_free(g);
        c = 1;
    }
    if (c == 0) {
        g->seq_lo = lo;
        g->seq_hi = hi;
        g->num_samples = ns;
        g->from_cache = 1;
    }
    return c;
}

static int cache_load(gptidx *g, const char *path, uint64_t h)
{
    FILE *f = fault_fopen(path, "rb");
    if (!f)
        return -1;
    struct stat st;
    uint8_t hdr[GPTIDX_HDR];
    int ok = fstat(fileno(f), &st) == 0 && fault_fread(hdr, 1, sizeof hdr, f) == sizeof hdr;
    uint32_t ver, sep;
    uint64_t ch, e, ndi, S;
    if (ok) {
        memcpy(&ver, hdr + 8, 4);
        memcpy(&sep, hdr + 12, 4);
        memcpy(&ch, hdr + 16, 8);
        memcpy(&e, hdr + 24, 8);
        memcpy(&ndi, hdr + 32, 8);
        memcpy(&S, hdr + 40, 8);
        ok = memcmp(hdr, GPTIDX_MAGIC, 8) == 0 && ver == GPTIDX_VERSION && ch == h && ndi < (1ull << 40) &&
             S < (1ull << 40) && (uint64_t)st.st_size == cache_size((int64_t)ndi, (int64_t)S);
    }
    uint8_t *buf = NULL;
    if (ok) {
        buf = malloc((size_t)st.st_size);
        ok = buf && (memcpy(buf, hdr, GPTIDX_HDR), 1) &&
             fault_fread(buf + GPTIDX_HDR, 1, (size_t)st.st_size - GPTIDX_HDR, f) == (size_t)st.st_size - GPTIDX_HDR;
    }
    fclose(f);
    if (ok) {
        uint64_t sum;
        memcpy(&sum, buf + st.st_size - 8, 8);
        ok = sum == hash64(buf, (size_t)st.st_size - 8, 0);
    }
    if (ok) {
        g->num_epochs = (int64_t)e;
        g->separate_final_epoch = (int)sep;
        g->n_doc_index = (int64_t)ndi;
        g->n_samples = (int64_t)S;
        g->doc_index = malloc(ndi * 4 + 4);
        g->sample_index = malloc((S + 1) * 16);
        g->shuffle_index = malloc(S * 8 + 8);
        ok = g->doc_index && g->sample_index && g->shuffle_index;
        if (ok) {
            size_t o = GPTIDX_HDR;
            memcpy(g->doc_index, buf + o, ndi * 4);
            o += (ndi * 4 + 7) & ~(size_t)7;
            memcpy(g->sample_index, buf + o, (S + 1) * 16);
            o += (S + 1) * 16;
            memcpy(g->shuffle_index, buf + o, S * 8);
        }
    }
    free(buf);
    if (!ok) {
        free(g->doc_index);
        free(g->sample_index);
        free(g->shuffle_index);
        g->doc_index = NULL;
        g->sample_index = NULL;
        g->shuffle_index = NULL;
        return 1; /* present but unusable */
    }
    g->from_cache = 1;
    return 0;
}

static int cache_save(const gptidx *g, const char *path, uint64_t h)
{
    size_t n = cache_size(g->n_doc_index, g->n_samples);
    uint8_t *buf = calloc(1, n);
    if (!buf)
        return err_set(ERR_NOMEM, "out of memory writing %s", path);
    uint32_t ver = GPTIDX_VERSION, sep = (uint32_t)g->separate_final_epoch;
    uint64_t e = (uint64_t)g->num_epochs, ndi = (uint64_t)g->n_doc_index, S = (uint64_t)g->n_samples;
    memcpy(buf, GPTIDX_MAGIC, 8);
    memcpy(buf + 8, &ver, 4);
    memcpy(buf + 12, &sep, 4);
    memcpy(buf + 16, &h, 8);
    memcpy(buf + 24, &e, 8);
    memcpy(buf + 32, &ndi, 8);
    memcpy(buf + 40, &S, 8);
    size_t o = GPTIDX_HDR;
    memcpy(buf + o, g->doc_index, ndi * 4);
    o += (ndi * 4 + 7) & ~(size_t)7;
    memcpy(buf + o, g->sample_index, (S + 1) * 16);
    o += (S + 1) * 16;
    memcpy(buf + o, g->shuffle_index, S * 8);
    uint64_t sum = hash64(buf, n - 8, 0);
    memcpy(buf + n - 8, &sum, 8);
    io_writer_opts opts = {0, 0, 0};
    io_writer *w;
    int rc = io_writer_open(&w, path, &opts);
    if (rc == 0) {
        rc = io_write(w, buf, n);
        rc = rc ? (io_writer_abort(w), rc) : io_writer_commit(w);
    }
    free(buf);
    return rc;
}

uint64_t gptidx_config_hash(const mmidx *ds, int split, int64_t lo, int64_t hi, int64_t num_samples, int L,
                            uint32_t seed)
{
    char key[512];
    /* Everything the arrays depend on: algorithm version, the data (shape of
     * the index), the split's sequences, the sample count, L and the seed. */
    int n = snprintf(key, sizeof key, "gptidx v%u|%s|n_seq=%llu|n_doc=%llu|bin=%zu|split=%d|%lld-%lld|ns=%lld|L=%d|seed=%u",
                     GPTIDX_VERSION, split_names[split], (unsigned long long)ds->n_seq,
                     (unsigned long long)ds->n_doc_idx, ds->bin_size, split, (long long)lo, (long long)hi,
                     (long long)num_samples, L, seed);
    uint64_t h = hash64(key, (size_t)n, 0);
    /* The lengths themselves, so a rewritten dataset of the same shape misses. */
    return hash64(ds->idx + MMIDX_HEADER_SIZE, (size_t)ds->n_seq * 4, h);
}

static int build_cached(gptidx *g, const mmidx *ds, int split, int64_t lo, int64_t hi, int64_t ns, int L,
                        uint32_t seed, const char *cache_dir, int quiet)
{
    uint64_t h = gptidx_config_hash(ds, split, lo, hi, ns, L, seed);
    const char *base = strrchr(ds->prefix, '/');
    base = base ? base + 1 : ds->prefix;
    char path[PATH_MAX];
    if (cache_dir)
        snprintf(path, sizeof path, "%s/%s.%s.%016llx.gptidx", cache_dir, base, split_names[split],
                 (unsigned long long)h);
    else
        snprintf(path, sizeof path, "%s.%s.%016llx.gptidx", ds->prefix, split_names[split], (unsigned long long)h);
    int c = gptidx_cache_load(g, ds, lo, hi, ns, L, path, h);
    if (c == 0)
        return 0;
    if (c == 1 && !quiet)
        fprintf(stderr, "note: %s is damaged or stale; rebuilding it\n", path);
    int rc = gptidx_build(g, ds, lo, hi, ns, L, seed);
    if (rc)
        return rc;
    if (cache_save(g, path, h) != 0 && !quiet)
        fprintf(stderr, "note: could not write the index cache (%s); continuing without it\n", err_msg());
    return 0;
}

void gptdata_close(gptdata *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->n; i++) {
        if (d->idx)
            for (int k = 0; k < 3; k++)
                gptidx_free(&d->idx[i][k]);
        if (d->ds)
            mmidx_close(&d->ds[i]);
    }
    for (int k = 0; k < 3; k++) {
        free(d->blend_ds[k]);
        free(d->blend_sample[k]);
        free(d->bw[k]);
    }
    free(d->ds);
    free(d->weights);
    free(d->idx);
    memset(d, 0, sizeof *d);
}

int gptdata_open(gptdata *d, const gptdata_config *cfg)
{
    memset(d, 0, sizeof *d);
    if (cfg->n_paths < 1 || cfg->n_paths > 255)
        return err_set(ERR_USAGE, "--data-path: need 1 to 255 datasets, got %d", cfg->n_paths);
    if (cfg->seq_length < 1)
        return err_set(ERR_USAGE, "--seq-length must be positive");
    double frac[3];
    int rc = gptdata_parse_split(cfg->split ? cfg->split : "969,30,1", frac);
    if (rc)
        return rc;
    d->n = cfg->n_paths;
    d->seq_length = cfg->seq_length;
    d->ds = calloc((size_t)d->n, sizeof *d->ds);
    d->weights = calloc((size_t)d->n, sizeof *d->weights);
    d->idx = calloc((size_t)d->n, sizeof *d->idx);
    if (!d->ds || !d->weights || !d->idx) {
        gptdata_close(d);
        return err_set(ERR_NOMEM, "out of memory");
    }
    /* Megatron's BlendedMegatronDatasetBuilder (megatron/core/datasets/
     * blended_megatron_dataset_builder.py) has three cases:
     *   one prefix, no weight: the dataset itself, asked for the split's target;
     *   weights (even one prefix, '1.0 A'): normalize(weights); dataset i asked
     *     for ceil(ceil(t * w_i) * 1.005) samples; the blend holds
     *     sum_i ceil(t * w_i) samples, chosen with normalize(w) again (the
     *     BlendedDataset normalises what the builder gives it);
     *   several prefixes, no weights: each dataset one epoch of its split, the
     *     blend weighted by the datasets' sizes, min(t, sum of sizes) samples. */
    d->blended = cfg->weights != NULL || d->n > 1;
    if (cfg->weights) {
        for (int i = 0; i < d->n; i++) {
            double w = cfg->weights[i];
            if (!(w > 0) || isinf(w)) {
                gptdata_close(d);
                return err_set(ERR_USAGE, "--data-path: weight %g of %s must be positive", w, cfg->paths[i]);
            }
            d->weights[i] = w;
        }
        gptdata_normalize(d->weights, d->n);
    }
    for (int i = 0; i < d->n; i++) {
        rc = mmidx_open(&d->ds[i], cfg->paths[i]);
        if (rc) {
            d->n = i; /* close only what was opened */
            gptdata_close(d);
            return rc;
        }
    }
    for (int k = 0; k < 3; k++) {
        int64_t target = cfg->num_samples[k];
        if (target <= 0)
            continue;
        int usable = 1;
        int64_t blend_size = 0;
        for (int i = 0; i < d->n; i++) {
            /* Split by sequence, as Megatron does (see gptdata.h). */
            int64_t b[4];
            int64_t nseq = (int64_t)d->ds[i].n_seq;
            gptdata_split_bounds(frac, nseq, b);
            if (b[k + 1] == b[k]) {
                usable = 0;
                if (k == GPTDATA_TRAIN) {
                    gptdata_close(d);
                    return err_set(ERR_USAGE, "%s: the train split of --split '%s' holds no sequences (of %lld)",
                                   cfg->paths[i], cfg->split ? cfg->split : "969,30,1", (long long)nseq);
                }
                if (!cfg->quiet)
                    fprintf(stderr, "note: %s: the %s split holds no sequences; no %s evaluation%s\n", cfg->paths[i],
                            split_names[k], split_names[k],
                            d->n > 1 ? " (Megatron-LM stops on an assertion in this case)" : "");
                break;
            }
            int64_t ns = target;
            if (cfg->weights) {
                int64_t want = gptdata_blend_share(target, d->weights[i]);
                ns = (int64_t)ceil((double)want * (1.0 + 0.005));
                blend_size += want;
            } else if (d->n > 1) {
                ns = 1; /* Megatron's num_samples None: one epoch, never a separate final one */
            }
            rc = build_cached(&d->idx[i][k], &d->ds[i], k, b[k], b[k + 1], ns, cfg->seq_length, cfg->seed,
                              cfg->cache_dir, cfg->quiet);
            if (rc) {
                gptdata_close(d);
                return rc;
            }
        }
        if (!usable)
            continue;
        if (!d->blended) {
            d->size[k] = d->idx[0][k].n_samples;
            continue;
        }
        double *w = d->bw[k] = malloc((size_t)d->n * sizeof *w);
        if (!w) {
            gptdata_close(d);
            return err_set(ERR_NOMEM, "out of memory");
        }
        if (cfg->weights) {
            memcpy(w, d->weights, (size_t)d->n * sizeof *w);
        } else {
            int64_t sum = 0;
            for (int i = 0; i < d->n; i++) {
                w[i] = (double)d->idx[i][k].n_samples;
                sum += d->idx[i][k].n_samples;
            }
            blend_size = target < sum ? target : sum;
        }
        gptdata_normalize(w, d->n);
        d->blend_ds[k] = malloc((size_t)blend_size);
        d->blend_sample[k] = malloc((size_t)blend_size * sizeof(int64_t));
        if (!d->blend_ds[k] || !d->blend_sample[k]) {
            gptdata_close(d);
            return err_set(ERR_NOMEM, "out of memory for the blending index");
        }
        gptdata_blend(w, d->n, blend_size, d->blend_ds[k], d->blend_sample[k]);
        /* Megatron's BlendedDataset refuses a blend that asks a dataset for
         * more samples than it has (it can with the 0.5% margin); so do we. */
        int64_t used[256] = {0}; /* samples the blend takes from each dataset, in one pass */
        for (int64_t s = 0; s < blend_size; s++)
            used[d->blend_ds[k][s]]++;
        for (int i = 0; i < d->n; i++) {
            if (used[i] > d->idx[i][k].n_samples) {
                rc = err_set(ERR_USAGE, "%s: the %s blend asks %lld samples of it, which has %lld", cfg->paths[i],
                             split_names[k], (long long)used[i], (long long)d->idx[i][k].n_samples);
                gptdata_close(d);
                return rc;
            }
        }
        d->size[k] = blend_size;
    }
    return 0;
}

void gptdata_get(const gptdata *d, int split, int64_t i, int32_t *out)
{
    int k = 0;
    if (d->blended) {
        k = d->blend_ds[split][i];
        i = d->blend_sample[split][i];
    }
    gptidx_sample(&d->idx[k][split], &d->ds[k], d->seq_length, i, out);
}

double gptdata_unigram_entropy(const gptdata *d, int split, int vocab)
{
    uint64_t *cnt = calloc((size_t)vocab, sizeof *cnt);
    if (!cnt)
        return NAN;
    uint64_t total = 0;
    int32_t *buf = NULL;
    size_t cap = 0;
    for (int i = 0; i < d->n; i++) {
        const gptidx *g = &d->idx[i][split];
        if (!g->doc_index)
            continue;
        for (int64_t seq = g->seq_lo; seq < g->seq_hi; seq++) {
            int64_t n = mmidx_length(&d->ds[i], (uint64_t)seq);
            if ((size_t)n > cap) {
                cap = (size_t)n * 2;
                int32_t *nb = realloc(buf, cap * sizeof *buf);
                if (!nb) {
                    free(buf);
                    free(cnt);
                    return NAN;
                }
                buf = nb;
            }
            copy_tokens(&d->ds[i], seq, 0, n, buf);
            for (int64_t k = 0; k < n; k++)
                if (buf[k] >= 0 && buf[k] < vocab) {
                    cnt[buf[k]]++;
                    total++;
                }
        }
    }
    double h = 0;
    for (int v = 0; v < vocab; v++)
        if (cnt[v]) {
            double p = (double)cnt[v] / (double)total;
            h -= p * log(p);
        }
    free(buf);
    free(cnt);
    return total ? h : NAN;
}

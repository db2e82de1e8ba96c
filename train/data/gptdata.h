/* gptdata.h - Megatron's GPT data pipeline over mmap .bin/.idx datasets
 * (FORMATS.md section 2), reproduced sample for sample.
 *
 * The unit is the sequence, as in Megatron's GPTDataset (its
 * numel_low_level_dataset is sequence_lengths.shape[0]): N is the number of
 * sequences in the .idx, an empty document (a document boundary with no
 * sequence) contributes nothing, and a document of several sequences (sentence
 * splitting) contributes each of them. Megatron still calls the shuffled array of
 * sequence ids its "document index"; the name is kept.
 *
 * For each dataset prefix and each split (train, valid, test):
 *   sequences [round(lo*N), round(hi*N)) of the split string;
 *   document_index: the split's sequence ids tiled over the needed epochs and
 *     shuffled with numpy's RandomState(seed) (final epoch shuffled apart
 *     when it would supply < 80% of an epoch's samples);
 *   sample_index [S+1][2]: (position in document_index, token offset), each
 *     sample L+1 tokens, consecutive samples sharing one token;
 *   shuffle_index: arange(S) shuffled by the same generator.
 * Blends follow Megatron-LM's BlendedMegatronDatasetBuilder (checked against
 * megatron-core 0.16.1, tests/golden/megatron_fixtures.py): with weights (one
 * prefix or several) dataset i is asked for ceil(ceil(t * w_i) * 1.005)
 * samples and the blend holds sum_i ceil(t * w_i); several prefixes without
 * weights give one epoch of each, blended by their sizes, min(t, sum) samples.
 * Megatron's greedy error-minimising blending index chooses which dataset
 * serves each sample.
 *
 * The three index arrays are cached next to the data (or in cache_dir) in a
 * file with a magic, a version, the hash of everything they depend on and an
 * xxHash checksum; a stale, foreign or damaged cache is rebuilt, never used.
 */
#ifndef TRAIN_GPTDATA_H
#define TRAIN_GPTDATA_H

#include <stddef.h>
#include <stdint.h>

#include "tokenizer/mmidx.h"

enum { GPTDATA_TRAIN = 0, GPTDATA_VALID = 1, GPTDATA_TEST = 2 };

/* The index of one dataset for one split. */
typedef struct {
    int64_t seq_lo, seq_hi;      /* sequences of the split */
    int64_t num_samples;         /* requested */
    int64_t num_epochs;
    int separate_final_epoch;
    int32_t *doc_index;          /* [n_doc_index]: sequence ids (Megatron's document_index) */
    int64_t n_doc_index;
    int64_t *sample_index;       /* [2 * (n_samples + 1)] */
    int64_t *shuffle_index;      /* [n_samples] */
    int64_t n_samples;           /* S, >= num_samples */
    int from_cache;
} gptidx;

typedef struct {
    const char **paths;   /* dataset prefixes */
    const double *weights;/* NULL or one per path (normalised here) */
    int n_paths;
    const char *split;    /* "969,30,1" (',' or '/' separated) */
    int64_t num_samples[3];
    int seq_length;
    uint32_t seed;
    const char *cache_dir;/* NULL: next to each dataset */
    int quiet;            /* no notes on stderr */
} gptdata_config;

typedef struct {
    int n;
    mmidx *ds;                 /* [n] */
    double *weights;           /* [n], normalised */
    gptidx (*idx)[3];          /* [n][3] */
    int seq_length;
    int blended;               /* a BlendedDataset over the datasets (weights given, or several prefixes) */
    double *bw[3];             /* [n]: the blend's normalised weights per split (blended only) */
    int64_t size[3];           /* samples available per split (0: no such split) */
    uint8_t *blend_ds[3];      /* [size]: dataset serving sample i (blended only) */
    int64_t *blend_sample[3];  /* [size]: sample of that dataset */
} gptdata;

/* Parse a split string into 3 normalised fractions: 0 or ERR_USAGE. */
int gptdata_parse_split(const char *s, double out[3]);
/* Sequence bounds [bounds[k], bounds[k+1]) of split k for N sequences. */
void gptdata_split_bounds(const double frac[3], int64_t n_seq, int64_t bounds[4]);

/* Build one dataset's index for one split (no caching). 0 or ERR_*. */
int gptidx_build(gptidx *g, const mmidx *ds, int64_t seq_lo, int64_t seq_hi,
                 int64_t num_samples, int seq_length, uint32_t seed);
/* Tokens of sample i (after the shuffle): seq_length + 1 ids into out. */
void gptidx_sample(const gptidx *g, const mmidx *ds, int seq_length, int64_t i, int32_t *out);
void gptidx_free(gptidx *g);
/* The on-disk cache of one split's index (used by gptdata_open; public for
 * tests and fuzzing). The hash names everything the index depends on. Load
 * returns 0 (loaded, and checked against ds: every index in range, every
 * sample L+1 tokens), -1 (absent) or 1 (damaged, stale or inconsistent:
 * rebuild it). */
uint64_t gptidx_config_hash(const mmidx *ds, int split, int64_t lo, int64_t hi, int64_t num_samples, int L,
                            uint32_t seed);
int gptidx_cache_load(gptidx *g, const mmidx *ds, int64_t lo, int64_t hi, int64_t ns, int L, const char *path,
                      uint64_t h);

/* numpy's w / numpy.sum(w) (pairwise summation), Megatron's normalize(). */
void gptdata_normalize(double *w, int n);
/* ceil(target * w): the samples a weighted blend takes from a dataset of weight w. */
int64_t gptdata_blend_share(int64_t target, double w);
/* Megatron's build_blending_indices(). */
void gptdata_blend(const double *weights, int n, int64_t size, uint8_t *ds_out, int64_t *sample_out);

/* Open every dataset and build (or load) all indices. 0 or ERR_*; on error d
 * is freed. */
int gptdata_open(gptdata *d, const gptdata_config *cfg);
/* Sample i of a split: seq_length + 1 tokens. i < d->size[split]. */
void gptdata_get(const gptdata *d, int split, int64_t i, int32_t *out);
void gptdata_close(gptdata *d);
/* Entropy in nats of the token frequencies over a split's sequences (all
 * datasets together, ids >= vocab ignored): the loss of the best model that
 * ignores context, which a trained model must beat. NAN if none. */
double gptdata_unigram_entropy(const gptdata *d, int split, int vocab);

#endif

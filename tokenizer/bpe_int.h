/* bpe_int.h - what the tokenizer families (gpt2.c: GPT-2 files; tiktoken.c;
 * hftok.c: Hugging Face tokenizer.json; spm.c: SentencePiece .model; nulltok
 * in tokcli.c) share: the `bpe` object behind bpe.h's interface and the
 * helpers that fill it. Not for use outside tokenizer/.
 *
 * One object holds every family: a token table (id -> bytes, bytes -> id),
 * a merge table ((left id, right id) -> rank and merged id) that the one BPE
 * core (the merge loop in encode.c) runs on, and how a text becomes
 * the pieces that core merges: the normaliser (NFC), special tokens matched
 * in the text, the pre-tokeniser (GPT-2's hand-written splitter, a sequence
 * of PCRE2 JIT patterns, or none) and, for SentencePiece, its own normaliser
 * and score-ordered merging (spm.c).
 */
#ifndef TOKENIZER_BPE_INT_H
#define TOKENIZER_BPE_INT_H
#define PCRE2_CODE_UNIT_WIDTH 8
#include <string.h>
#include <pcre2.h>

#include <cjson/cJSON.h>

#include "bpe.h"
#include "common/hash.h"

enum { TOKF_GPT2 = 0, TOKF_TIKTOKEN, TOKF_HF, TOKF_SPM, TOKF_NULL };
enum { PRE_GPT2 = 0, PRE_REGEX = 1, PRE_NONE = 2, PRE_TIKTOKEN = 3 };
#define BPE_MAX_RE 8

typedef struct {
    uint64_t key; /* (left id << 32) | right id; UINT64_MAX = empty */
    uint32_t rank;
    uint32_t merged;
} pair_slot;

/* A token matched in the text before pre-tokenisation (HF added tokens,
 * Megatron's SentencePieceTokenizer specials). */
typedef struct {
    char *s;
    size_t n;
    uint32_t id;
    int lstrip, rstrip; /* swallow whitespace on that side (HF AddedToken) */
} special_tok;

typedef struct spm_model spm_model;

/* What a family brings beyond the BPE core, set by its loader: the core calls
 * through this table and links against no family (as ggml's backends). A NULL
 * table or member: the core's own path. */
typedef struct {
    /* encode text[0..n) (PRE_NONE: the raw text between specials) into out */
    int (*encode)(bpe_ctx *c, const char *text, size_t n, bpe_ids *out);
    int (*decode)(const bpe *b, const uint32_t *ids, size_t n, int continuing, char **buf, size_t *len, size_t *cap);
    int (*write_tokenizer_json)(const bpe *b, const char *path);
    void (*free_model)(bpe *b);     /* what the family hung on b */
    void (*free_scratch)(void *p);  /* a context's family_scratch */
} bpe_family;

/* A slot of the vocabulary's hash table. A token of at most 8 bytes is told
 * by its slot alone: key is its piece key's first word (one-to-one for a given
 * length); a longer one's key is its hash, its bytes checked in the arena. */
typedef struct {
    uint64_t key;
    uint32_t id1; /* id + 1; 0: empty */
    uint32_t len;
} tok_slot;

struct bpe {
    int family;            /* TOKF_* */
    char type[48];         /* Megatron's --tokenizer-type name */
    char file[512];        /* what it was loaded from (messages) */
    size_t n_ids;          /* max id + 1 */
    size_t n_entries;      /* ids that have a token */
    size_t vocab_size;     /* what the model must hold: Megatron's tokenizer.vocab_size */
    size_t n_merges;
    int64_t eod, bos;
    int prepend_bos;       /* Megatron's tokenize() puts BOS first (Llama2Tokenizer, HF templates) */
    int sp_legacy;         /* SentencePieceTokenizer --tokenizer-sentencepiece-legacy: decode as the
                              old wrapper's detokenize (each special as " TEXT ", the pieces between
                              decoded apart) */
    int whole_first;       /* a piece that is a token is that token (tiktoken, HF ignore_merges) */
    int nfc;               /* NFC first (Qwen2, HF normalizer NFC) */
    int pre;               /* PRE_* */
    int fast_digits, fast_cl100k; /* PRE_TIKTOKEN: pretok_tiktoken_next's parameters (re[0] holds the pattern too) */
    int keep_gaps;         /* PRE_REGEX: text between matches is a piece (HF Split Isolated); tiktoken drops it */
    int byte_level_regex;  /* PRE_REGEX: then GPT-2's pattern on each piece (HF ByteLevel use_regex) */
    int n_re;
    uint32_t re_flags;     /* extra PCRE2 options: DOLLAR_ENDONLY (tiktoken: Rust regex's $), MULTILINE (Oniguruma's $) */
    pcre2_code *re[BPE_MAX_RE];
    char *re_src[BPE_MAX_RE]; /* the patterns as given (for writing tokenizer.json) */
    int re_fast[BPE_MAX_RE];  /* a hand-written search in its place: 1..3 DeepSeek-V3's patterns (pretok.h) */
    uint64_t *tok_off;     /* [n_ids] offset into arena, UINT64_MAX if unused */
    uint32_t *tok_len;
    uint8_t *tok_flags;    /* [n_ids] TOKFL_* */
    char *arena;
    size_t arena_len, arena_cap;
    tok_slot *tok_slots;   /* bytes -> id, open addressing (tok_slot) */
    size_t tok_mask;
    pair_slot *pairs;
    size_t pair_mask;
    uint32_t byte_id[256];
    uint32_t *pair_id;       /* tiktoken: id + 1 of the token of each two bytes (b0 | b1 << 8), 0 for none */
    special_tok *sp;       /* matched in text, longest first at a position */
    size_t n_sp;
    uint8_t sp_first[256]; /* first bytes of the specials */
    const bpe_family *fam; /* NULL: the BPE core alone (GPT-2 files, tiktoken, tokenizer.json) */
    spm_model *spm;        /* SentencePiece's model (spm.c) */
    uint32_t null_vocab;   /* NullTokenizer: ids < null_vocab; EOD = null_vocab */
};

enum { TOKFL_SPECIAL = 1, TOKFL_BYTE = 2, TOKFL_CONTROL = 4, TOKFL_UNKNOWN = 8 };

/* The core. */
bpe *bpe_new(int family, const char *type, const char *file);
/* Room for ids [0, n_ids) and a lookup table for about n_tokens entries. */
int bpe_core_alloc(bpe *b, size_t n_ids, size_t n_tokens);
/* Give id the bytes s[0..n). hashed: also findable by its bytes (the BPE
 * alphabet); specials and SentencePiece control pieces are not. Error when
 * the id or (hashed) the bytes are taken. */
int bpe_core_set(bpe *b, uint32_t id, const char *s, size_t n, int hashed, const char *what);
/* The same for a hashed token named "line L (rank R)" in messages. */
int bpe_core_set_line(bpe *b, uint32_t id, const char *s, size_t n, size_t line, uint32_t rank);
/* The same for encoder.json's entry number k, named "entry K ("KEY")" in messages. */
int bpe_core_set_entry(bpe *b, uint32_t id, const char *s, size_t n, int hashed, size_t k, const char *key);
/* byte_id[] from the one-byte tokens; error naming file when one is missing. */
int bpe_core_bytes(bpe *b);
/* Build the pair table from tmp[0..n) (rank order not required; on a repeated
 * pair the lowest rank wins). Frees nothing. */
int bpe_core_pairs(bpe *b, const pair_slot *tmp, size_t n);
/* tiktoken's rule: every split of a token t into two tokens is a pair of rank
 * rank_of[t] merging into t. rank_of: per id, UINT32_MAX for none. */
int bpe_core_pairs_from_ranks(bpe *b, const uint32_t *rank_of);
/* Compile a pattern for the PRE_REGEX pipeline (PCRE2 UTF+UCP, JIT); \s and
 * \S are rewritten to Unicode White_Space as the Rust/Oniguruma engines of
 * tiktoken and tokenizers mean them. what names the source in errors. */
int bpe_add_regex(bpe *b, const char *pattern, const char *what);
/* Add a special token matched in text. */
int bpe_add_special(bpe *b, const char *s, size_t n, uint32_t id, int lstrip, int rstrip);
void bpe_sort_specials(bpe *b);

/* GPT-2's bytes_to_unicode alphabet: bpe_u2b[code point] is the byte a character below
 * U+0200 stands for (-1: none), filled by bpe_alphabet_init (idempotent, thread-safe). */
extern int16_t bpe_u2b[512];
void bpe_alphabet_init(void);
/* Two bytes that are UTF-8 of U+0080..U+01FF (where the rest of the alphabet lies), and
 * the byte their character stands for (-1: not in the alphabet). */
static inline int bpe_unmap_two_ok(unsigned c0, unsigned c1) { return c0 >= 0xC2 && c0 <= 0xC7 && (c1 & 0xC0) == 0x80; }
static inline int bpe_unmap_two(unsigned c0, unsigned c1) { return bpe_u2b[((c0 & 0x1Fu) << 6) | (c1 & 0x3Fu)]; }
/* A string in GPT-2's bytes_to_unicode alphabet as bytes, into out (room for
 * n bytes); the length, or -1 when a character is outside the alphabet. */
long bpe_unmap(const char *s, size_t n, char *out);

/* tokenizer.json pieces shared by the writers (hfwrite.c, spm.c; in hfjson.c): a
 * TemplateProcessing post-processor putting the token bos (id) before the
 * text, and the whole document written atomically. */
void hfjson_bos_template(cJSON *pp, const char *bos, int64_t id);
int hfjson_write(cJSON *root, const char *path);

/* Slurp a file (any io.h compression). */
int bpe_slurp(const char *path, char **data, size_t *len);

/* Family loaders (each in its own file). */
int tiktoken_load(bpe **out, const char *path, const char *pattern_name, int num_special, const char *type);
int hftok_load(bpe **out, const char *path, const char *type);
int spm_load(bpe **out, const char *path, const char *type); /* sets b->fam to SentencePiece's */

/* A per-thread cache of short pieces' ids: natural text repeats its words, so
 * most pieces are found here without touching the vocabulary's tables. 65,536
 * slots (3.4 MB, in L3): 8,192 (in L2) missed often enough on English text that
 * a 100K-200K vocabulary's lookups cost more (2026-11-27, 56 MB of enwiki, one
 * thread: 8-10 % fewer instructions for GPT-2, cl100k and o200k, and less time). */
#define PCACHE_SLOTS 65536         /* byte-level BPE pieces */
#define PCACHE_SLOTS_SPM 131072     /* SentencePiece words: longer and more varied */
#define PCACHE_MAXLEN 24
#define PCACHE_AFTER 4096
#define PCACHE_MAXIDS 6
typedef struct {
    uint64_t w[3];   /* the piece's key (piece_key) */
    uint8_t len, nids;
    uint32_t ids[PCACHE_MAXIDS];
} pcache_ent;

/* The key of a piece of 1..24 bytes: up to three words read from it (reads
 * that overlap for lengths that are not multiples of 8), a one-to-one map
 * for a given length, so that two pieces of the same length are equal when
 * their keys are. Returns a hash of (key, length) for a table index. */
static inline uint64_t piece_key(const unsigned char *s, size_t n, uint64_t w[3])
{
    uint64_t a = 0, b = 0, c = 0;
    if (n >= 8) {
        memcpy(&a, s, 8);
        if (n > 16) {
            memcpy(&b, s + 8, 8);
            memcpy(&c, s + n - 8, 8);
        } else {
            memcpy(&b, s + n - 8, 8);
        }
    } else if (n >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, s, 4);
        memcpy(&hi, s + n - 4, 4);
        a = (uint64_t)hi << 32 | lo;
    } else {
        a = (uint64_t)s[0] | (uint64_t)s[n >> 1] << 8 | (uint64_t)s[n - 1] << 16;
    }
    w[0] = a;
    w[1] = b;
    w[2] = c;
    __uint128_t m = (__uint128_t)(a ^ 0x9E3779B97F4A7C15ull ^ (uint64_t)n << 56) * (b ^ (c << 29 | c >> 35) ^ 0xC2B2AE3D27D4EB4Full);
    return (uint64_t)m ^ (uint64_t)(m >> 64);
}
/* The vocabulary's hash table, inline for the hot loops (bpe_lookup is the
 * same, called). XXH3 inlined for the long strings. */
#define XXH_INLINE_ALL
#include <xxhash.h>

/* The table's hash and the slot key of s[0..n). */
static inline uint64_t tok_hash(const char *s, size_t n, uint64_t *key)
{
    if (n - 1 < PCACHE_MAXLEN) { /* 1..24 bytes: the piece key's hash, cheaper than XXH3's */
        uint64_t w[3];
        uint64_t h = piece_key((const unsigned char *)s, n, w);
        *key = n <= 8 ? w[0] : h;
        return h;
    }
    return *key = XXH3_64bits_withSeed(s, n, 0x6270652d746f6bull);
}

/* One probe reads one slot: short tokens need nothing else. */
static inline __attribute__((always_inline)) int64_t bpe_lookup_fast(const bpe *b, const char *s, size_t n)
{
    uint64_t key, h = tok_hash(s, n, &key);
    size_t i = (size_t)h & b->tok_mask;
    for (;;) {
        const tok_slot *t = &b->tok_slots[i];
        if (!t->id1) return -1;
        if (t->key == key && t->len == n) {
            uint32_t id = t->id1 - 1;
            if (n <= 8 || mem_same(b->arena + b->tok_off[id], s, n)) return id;
        }
        i = (i + 1) & b->tok_mask;
    }
}

/* The pair table: the rank and merged id of (l, r), or NULL. */
#define NO_RANK UINT32_MAX
static inline const pair_slot *pair_get(const bpe *b, uint32_t l, uint32_t r)
{
    uint64_t key = ((uint64_t)l << 32) | r;
    size_t i = (size_t)hash_mix64(key) & b->pair_mask;
    for (;;) {
        const pair_slot *p = &b->pairs[i];
        if (p->key == key) return p;
        if (p->key == UINT64_MAX) return NULL;
        i = (i + 1) & b->pair_mask;
    }
}

/* Start loading the slot where s[0..n) would go (loaders insert 200,000 tokens into a table of
 * megabytes: one cache miss each, unless asked for ahead). */
static inline void bpe_prefetch_slot(const bpe *b, const char *s, size_t n)
{
    uint64_t key;
    __builtin_prefetch(&b->tok_slots[(size_t)tok_hash(s, n, &key) & b->tok_mask], 1);
}

/* Room for `extra` more ids in o. */
int bpe_ids_reserve(bpe_ids *o, size_t extra);

/* Scratch shared with the families. */
struct bpe_ctx {
    pcache_ent *pcache;
    size_t pcache_mask;
    uint64_t pieces_seen;    /* the cache is made after PCACHE_AFTER pieces: short runs (tests, fuzzing) never pay for it */
    const bpe *b;
    char *clean;     /* sanitised / normalised copy of the input */
    size_t clean_cap;
    char *nfc;
    size_t nfc_cap;
    uint32_t *sym, *rk, *mg, *prev, *next;
    size_t sym_cap;
    void *heap;
    size_t heap_cap;
    int force_heap;
    size_t stop_at;          /* bpe_count_at_least: stop encoding once this many ids are out (0: never) */
    bpe_ids bound;           /* its scratch */
    int force_regex;         /* tests: PRE_TIKTOKEN through PCRE2 */
    pcre2_match_data *md;
    pcre2_jit_stack *jit;
    pcre2_match_context *mctx;
    void *family_scratch;    /* the family's own (spm.c's agenda), freed through b->fam */
};

int bpe_buf_reserve(char **buf, size_t *cap, size_t need);

/* encoder.json's entries in file order: each id and its key (decoded, NUL-terminated,
 * at keys + off) */
typedef struct {
    uint32_t id;
    size_t off;
} enc_ent;
typedef struct {
    enc_ent *e;
    size_t n, cap;
    char *keys;
    size_t klen, kcap;
} enc_list;
/* the one-pass reader of the flat object: 0, 1 where it declines (the file then
 * goes to bpe_encoder_json), ERR_NOMEM; and cJSON's: 0 or an error set */
int bpe_encoder_flat(const char *s, size_t n, enc_list *L);
/* tests: 1 sends every encoder.json and merges line to the general readers (bpe_load
 * reads the usual ones straight into token bytes otherwise) */
extern int bpe_encoder_direct_off;
extern unsigned long bpe_direct_taken; /* tests: files and merge lines the one-pass readers took */
/* tests and fuzzing: the same vocabulary and merges, table for table */
int bpe_core_equal(const bpe *a, const bpe *g);
/* tests and fuzzing: bpe_load with the one-pass readers against the general ones on the
 * same files: 1 the same tables, 2 the same refusal, 0 a difference (said in why) */
int bpe_load_compare(const char *enc, const char *merges, char *why, size_t whycap);
int bpe_encoder_json(const char *path, const char *data, size_t len, enc_list *L);
void bpe_enc_list_free(enc_list *L);

#endif

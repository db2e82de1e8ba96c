/* hfconv.c - see hfconv.h. */
#include "train/model/hfconv.h"
#include "tokenizer/bpe.h"
#include "common/fault.h"
#include "common/jsonl.h"
#include "common/io.h"
#include "common/fsutil.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "train/model/safetensors.h"

/* HF's name of each of our tensors ("%d": the layer), and whether HF stores it transposed. */
static const struct {
    int t;
    const char *name;
    int transposed;
} hf_map[] = {
    {GPT_LN1W, "transformer.h.%d.ln_1.weight", 0},          {GPT_LN1B, "transformer.h.%d.ln_1.bias", 0},
    {GPT_QKVW, "transformer.h.%d.attn.c_attn.weight", 1},   {GPT_QKVB, "transformer.h.%d.attn.c_attn.bias", 0},
    {GPT_ATTPROJW, "transformer.h.%d.attn.c_proj.weight", 1}, {GPT_ATTPROJB, "transformer.h.%d.attn.c_proj.bias", 0},
    {GPT_LN2W, "transformer.h.%d.ln_2.weight", 0},          {GPT_LN2B, "transformer.h.%d.ln_2.bias", 0},
    {GPT_FCW, "transformer.h.%d.mlp.c_fc.weight", 1},       {GPT_FCB, "transformer.h.%d.mlp.c_fc.bias", 0},
    {GPT_FCPROJW, "transformer.h.%d.mlp.c_proj.weight", 1}, {GPT_FCPROJB, "transformer.h.%d.mlp.c_proj.bias", 0},
};
enum { HF_NMAP = sizeof hf_map / sizeof hf_map[0] };

/* Shape of one layer's slice of tensor t, as we store it: [rows, cols] (cols 0: a vector). */
static void layer_shape(const gpt_config *c, int t, size_t *rows, size_t *cols)
{
    size_t C = (size_t)c->channels;
    switch (t) {
    case GPT_QKVW: *rows = 3 * C; *cols = C; break;
    case GPT_ATTPROJW: *rows = C; *cols = C; break;
    case GPT_FCW: *rows = 4 * C; *cols = C; break;
    case GPT_FCPROJW: *rows = C; *cols = 4 * C; break;
    case GPT_QKVB: *rows = 3 * C; *cols = 0; break;
    case GPT_FCB: *rows = 4 * C; *cols = 0; break;
    default: *rows = C; *cols = 0;
    }
}

static int copy_file(const char *from, const char *to)
{
    io_reader *in;
    int rc = io_reader_open(&in, from);
    if (rc)
        return rc;
    io_writer *out;
    io_writer_opts o = {0, 0, 0};
    if ((rc = io_writer_open(&out, to, &o))) {
        io_reader_close(in);
        return rc;
    }
    char buf[1 << 16];
    ssize_t n;
    while (!rc && (n = io_read(in, buf, sizeof buf)) != 0)
        rc = n < 0 ? (int)n : io_write(out, buf, (size_t)n);
    io_reader_close(in);
    if (rc) {
        io_writer_abort(out);
        return rc;
    }
    return io_writer_commit(out);
}

static int write_text(const char *path, const char *text)
{
    io_writer *w;
    io_writer_opts o = {0, 0, 0};
    int rc = io_writer_open(&w, path, &o);
    if (rc)
        return rc;
    rc = io_write(w, text, strlen(text));
    if (!rc)
        rc = io_write(w, "\n", 1);
    if (rc) {
        io_writer_abort(w);
        return rc;
    }
    return io_writer_commit(w);
}

static int write_json(const char *path, cJSON *o)
{
    char *s = o ? cJSON_Print(o) : NULL;
    int rc = s ? write_text(path, s) : err_set(ERR_NOMEM, "out of memory");
    free(s);
    cJSON_Delete(o);
    return rc;
}

static char *token_str(const bpe *tok, int64_t id)
{
    size_t n;
    const char *t = id >= 0 ? bpe_token_bytes(tok, (uint32_t)id, &n) : NULL;
    return t ? strndup(t, n) : NULL;
}

/* The export's temporary directory beside dir (stale ones of killed runs removed first). */
static int export_tmpdir(const char *dir, char *tmp, size_t tn)
{
    struct stat sb;
    if (stat(dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode) || rmdir(dir) != 0)
            return err_set(ERR_USAGE, "%s exists and is not an empty directory; give a new one", dir);
    }
    char parent[4096], suf[128];
    snprintf(parent, sizeof parent, "%s", dir);
    char *sl = strrchr(parent, '/');
    const char *base = sl ? sl + 1 : parent;
    char prefix[4096 + 2];
    snprintf(prefix, sizeof prefix, "%s.", base);
    if (sl) *sl = 0;
    fs_remove_stale_tmp(sl ? (*parent ? parent : "/") : ".", prefix);
    fs_tmp_suffix(suf, sizeof suf, 0);
    snprintf(tmp, tn, "%s.%s", dir, suf);
    if (mkdir(tmp, 0777) != 0)
        return err_set(ERR_IO, "%s: %s", tmp, strerror(errno));
    return 0;
}

/* One layer tensor of hf_map (transposed where HF's Conv1D keeps [in, out]) into w; the
 * name and any transposed copy are kept in names / bufs until the file is written. */
static int export_layer_tensor(st_writer *w, const gpt_model *m, int l, int k, char **names, size_t *nn, float **bufs,
                               size_t *nb)
{
    size_t rows, cols;
    layer_shape(&m->cfg, hf_map[k].t, &rows, &cols);
    size_t n = rows * (cols ? cols : 1);
    const float *src = gpt_tensor(m, hf_map[k].t) + (size_t)l * n;
    char name[128];
    snprintf(name, sizeof name, hf_map[k].name, l);
    char *nm = strdup(name);
    if (!nm)
        return err_set(ERR_NOMEM, "out of memory");
    names[(*nn)++] = nm;
    if (!hf_map[k].transposed) {
        int64_t s1[1] = {(int64_t)rows};
        return st_writer_add(w, nm, "F32", s1, 1, src, n * 4);
    }
    float *t = malloc(n * sizeof *t);
    if (!t)
        return err_set(ERR_NOMEM, "out of memory");
    bufs[(*nb)++] = t;
    for (size_t r = 0; r < rows; r++)
        for (size_t q = 0; q < cols; q++)
            t[q * rows + r] = src[r * cols + q]; /* ours [out, in] -> HF [in, out] */
    int64_t s2[2] = {(int64_t)cols, (int64_t)rows};
    return st_writer_add(w, nm, "F32", s2, 2, t, n * 4);
}

/* model.safetensors under HF GPT-2's names. */
static int export_weights(const gpt_model *m, const char *tmp)
{
    const gpt_config *c = &m->cfg;
    int L = c->num_layers, C = c->channels, V = c->vocab_size;
    int rc = 0;
    st_writer *w = st_writer_new();
    float **bufs = calloc((size_t)L * HF_NMAP + 1, sizeof *bufs);
    char **names = calloc((size_t)L * HF_NMAP + 4, sizeof *names);
    size_t nb = 0, nn = 0;
    if (!w || !bufs || !names)
        rc = err_set(ERR_NOMEM, "out of memory");
    int64_t sh[2] = {V, C};
    if (!rc)
        rc = st_writer_add(w, "transformer.wte.weight", "F32", sh, 2, gpt_tensor(m, GPT_WTE), (size_t)V * C * 4);
    if (!rc) {
        sh[0] = c->max_seq_len;
        rc = st_writer_add(w, "transformer.wpe.weight", "F32", sh, 2, gpt_tensor(m, GPT_WPE), (size_t)c->max_seq_len * C * 4);
    }
    for (int l = 0; l < L && !rc; l++)
        for (int k = 0; k < HF_NMAP && !rc; k++)
            rc = export_layer_tensor(w, m, l, k, names, &nn, bufs, &nb);
    sh[0] = C;
    if (!rc)
        rc = st_writer_add(w, "transformer.ln_f.weight", "F32", sh, 1, gpt_tensor(m, GPT_LNFW), (size_t)C * 4);
    if (!rc)
        rc = st_writer_add(w, "transformer.ln_f.bias", "F32", sh, 1, gpt_tensor(m, GPT_LNFB), (size_t)C * 4);
    if (!rc)
        rc = st_writer_meta(w, "format", "pt");
    if (!rc) {
        char p[4096 + 256];
        snprintf(p, sizeof p, "%s/model.safetensors", tmp);
        rc = st_write(w, p);
    }
    if (w)
        st_writer_free(w);
    for (size_t i = 0; i < nb; i++)
        free(bufs[i]);
    for (size_t i = 0; i < nn; i++)
        free(names[i]);
    free(bufs);
    free(names);
    return rc;
}

/* config.json: transformers' GPT2Config of the model. */
static int export_config(const gpt_model *m, const bpe *tok, const char *tmp)
{
    const gpt_config *c = &m->cfg;
    int C = c->channels, V = c->vocab_size;
    cJSON *o = cJSON_CreateObject();
    cJSON *arch = cJSON_CreateStringArray((const char *[]){"GPT2LMHeadModel"}, 1);
    cJSON_AddStringToObject(o, "model_type", "gpt2");
    cJSON_AddItemToObject(o, "architectures", arch);
    cJSON_AddNumberToObject(o, "vocab_size", V);
    cJSON_AddNumberToObject(o, "n_positions", c->max_seq_len);
    cJSON_AddNumberToObject(o, "n_ctx", c->max_seq_len);
    cJSON_AddNumberToObject(o, "n_embd", C);
    cJSON_AddNumberToObject(o, "n_layer", c->num_layers);
    cJSON_AddNumberToObject(o, "n_head", c->num_heads);
    cJSON_AddNumberToObject(o, "n_inner", 4 * C);
    cJSON_AddStringToObject(o, "activation_function", "gelu_new");
    cJSON_AddNumberToObject(o, "layer_norm_epsilon", 1e-5);
    cJSON_AddBoolToObject(o, "tie_word_embeddings", 1);
    cJSON_AddNumberToObject(o, "resid_pdrop", 0);
    cJSON_AddNumberToObject(o, "embd_pdrop", 0);
    cJSON_AddNumberToObject(o, "attn_pdrop", 0);
    cJSON_AddBoolToObject(o, "scale_attn_weights", 1);
    int64_t eid = tok && bpe_eod(tok) >= 0 ? bpe_eod(tok) : V - 1; /* GPT-2's <|endoftext|> is its last id */
    int64_t bid = tok && bpe_bos(tok) >= 0 ? bpe_bos(tok) : eid;
    cJSON_AddNumberToObject(o, "bos_token_id", (double)bid);
    cJSON_AddNumberToObject(o, "eos_token_id", (double)eid);
    cJSON_AddStringToObject(o, "torch_dtype", "float32");
    char p[4096 + 256];
    snprintf(p, sizeof p, "%s/config.json", tmp);
    return write_json(p, o);
}

/* The tokenizer's files: GPT-2's vocab.json and merges.txt, a SentencePiece model (and its
 * tokenizer.json where the converter's would be the same), or tokenizer.json; then
 * tokenizer_config.json and special_tokens_map.json. */
static int export_tokenizer(const gpt_model *m, const bpe *tok, const char *vocab, const char *merges, const char *tmp)
{
    char p[4096 + 256];
    int rc = 0;
    const char *ty = tok ? bpe_type(tok) : "NullTokenizer";
    int gpt2 = !strcmp(ty, "GPT2BPETokenizer"), null = !strcmp(ty, "NullTokenizer");
    int spm = !strcmp(ty, "SentencePieceTokenizer") || !strcmp(ty, "GPTSentencePieceTokenizer") || !strcmp(ty, "Llama2Tokenizer");
    if (null)
        return 0;
    int spm_only = 0;
    if (gpt2) {
        snprintf(p, sizeof p, "%s/vocab.json", tmp);
        rc = copy_file(vocab, p);
        if (!rc) {
            snprintf(p, sizeof p, "%s/merges.txt", tmp);
            rc = copy_file(merges, p);
        }
    } else if (spm) {
        /* the model itself (sentencepiece reads it) and, for the identity normaliser, the
         * tokenizer.json that transformers' converter would make of it */
        snprintf(p, sizeof p, "%s/tokenizer.model", tmp);
        rc = copy_file(bpe_file(tok), p);
        snprintf(p, sizeof p, "%s/tokenizer.json", tmp);
        if (!rc && bpe_write_tokenizer_json(tok, p) == ERR_USAGE) {
            fprintf(stderr, "convert_checkpoint: note: %s\n  (tokenizer.model only: load it with sentencepiece)\n", err_msg());
            spm_only = 1;
        }
    } else {
        snprintf(p, sizeof p, "%s/tokenizer.json", tmp);
        rc = bpe_write_tokenizer_json(tok, p);
    }
    char *bos = token_str(tok, bpe_bos(tok) >= 0 ? bpe_bos(tok) : bpe_eod(tok));
    char *eos = token_str(tok, bpe_eod(tok));
    if (!rc) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "tokenizer_class", gpt2 ? "GPT2Tokenizer" : spm_only ? "LlamaTokenizer" : "PreTrainedTokenizerFast");
        cJSON_AddNumberToObject(o, "model_max_length", m->cfg.max_seq_len);
        if (bos) cJSON_AddStringToObject(o, "bos_token", bos);
        if (eos) cJSON_AddStringToObject(o, "eos_token", eos);
        if (gpt2) cJSON_AddStringToObject(o, "unk_token", "<|endoftext|>");
        if (gpt2) cJSON_AddBoolToObject(o, "add_prefix_space", 0);
        if (spm) {
            cJSON_AddBoolToObject(o, "add_bos_token", !strcmp(ty, "Llama2Tokenizer"));
            cJSON_AddBoolToObject(o, "add_eos_token", 0);
            cJSON_AddBoolToObject(o, "legacy", 1);
        }
        snprintf(p, sizeof p, "%s/tokenizer_config.json", tmp);
        rc = write_json(p, o);
    }
    if (!rc) {
        cJSON *o = cJSON_CreateObject();
        if (bos) cJSON_AddStringToObject(o, "bos_token", bos);
        if (eos) cJSON_AddStringToObject(o, "eos_token", eos);
        if (gpt2) cJSON_AddStringToObject(o, "unk_token", "<|endoftext|>");
        snprintf(p, sizeof p, "%s/special_tokens_map.json", tmp);
        rc = write_json(p, o);
    }
    free(bos);
    free(eos);
    return rc;
}

int hf_export(const gpt_model *m, const char *dir, const bpe *tok, const char *vocab, const char *merges)
{
    char tmp[4096 + 160];
    int rc = export_tmpdir(dir, tmp, sizeof tmp);
    if (rc)
        return rc;
    if (!(rc = export_weights(m, tmp)) && !(rc = export_config(m, tok, tmp)) &&
        !(rc = export_tokenizer(m, tok, vocab, merges, tmp)) && fault_rename(tmp, dir) != 0)
        rc = err_set(ERR_IO, "renaming %s to %s: %s", tmp, dir, strerror(errno));
    if (rc) {
        const char *files[] = {"model.safetensors", "config.json", "vocab.json", "merges.txt", "tokenizer_config.json",
                               "special_tokens_map.json", "tokenizer.json", "tokenizer.model"};
        char p[4096 + 256];
        for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
            snprintf(p, sizeof p, "%s/%s", tmp, files[i]);
            unlink(p);
        }
        rmdir(tmp);
    }
    return rc;
}

/* The largest value a size in config.json may take: every product of two of
 * them fits in 62 bits, and the model the sizes describe is checked against
 * what model.safetensors holds before anything is allocated. */
#define HF_MAX_DIM (1 << 30)

static int cfg_int(const cJSON *o, const char *key, const char *path, int *out, int required)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v) {
        if (required)
            return err_set(ERR_FORMAT, "%s: no \"%s\"", path, key);
        return 1;
    }
    /* bounded before the cast (a double past INT_MAX converted to int is undefined) */
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1 && v->valuedouble <= (double)HF_MAX_DIM) ||
        v->valuedouble != floor(v->valuedouble))
        return err_set(ERR_FORMAT, "%s: \"%s\" is not a whole number from 1 to %d", path, key, HF_MAX_DIM);
    *out = (int)v->valuedouble;
    return 0;
}

/* Tensor k of the import order (k = -4..-1: wte, wpe, ln_f weight and bias; then
 * HF_NMAP per layer): its Hugging Face name, its shape as we store it ([rows,
 * cols], cols 0 for a vector), whether the file holds it transposed, and where
 * it goes in m (NULL m: the destination is not needed). */
static float *hf_slot(const gpt_config *c, gpt_model *m, int k, char *name, size_t n, size_t *rows, size_t *cols,
                      int *tr)
{
    size_t C = (size_t)c->channels;
    *tr = 0;
    switch (k) {
    case -4:
        snprintf(name, n, "transformer.wte.weight"), *rows = (size_t)c->vocab_size, *cols = C;
        return m ? gpt_tensor(m, GPT_WTE) : NULL;
    case -3:
        snprintf(name, n, "transformer.wpe.weight"), *rows = (size_t)c->max_seq_len, *cols = C;
        return m ? gpt_tensor(m, GPT_WPE) : NULL;
    case -2:
        snprintf(name, n, "transformer.ln_f.weight"), *rows = C, *cols = 0;
        return m ? gpt_tensor(m, GPT_LNFW) : NULL;
    case -1:
        snprintf(name, n, "transformer.ln_f.bias"), *rows = C, *cols = 0;
        return m ? gpt_tensor(m, GPT_LNFB) : NULL;
    default: {
        int l = k / HF_NMAP, j = k % HF_NMAP;
        snprintf(name, n, hf_map[j].name, l);
        layer_shape(c, hf_map[j].t, rows, cols);
        *tr = hf_map[j].transposed;
        return m ? gpt_tensor(m, hf_map[j].t) + (size_t)l * *rows * (*cols ? *cols : 1) : NULL;
    }
    }
}

int hf_import(gpt_model *m, const char *dir)
{
    memset(m, 0, sizeof *m);
    char p[4200];
    snprintf(p, sizeof p, "%s/config.json", dir);
    FILE *cf = fault_fopen(p, "rb");
    if (!cf)
        return err_set(ERR_IO, "%s: %s", p, strerror(errno));
    char *text = malloc(1 << 20);
    size_t len = text ? fault_fread(text, 1, (1 << 20) - 1, cf) : 0;
    int rerr = text && fault_ferror(cf);
    fclose(cf);
    if (!text)
        return err_set(ERR_NOMEM, "out of memory");
    if (rerr) {
        free(text);
        return err_sys(ERR_IO, "%s: read failed", p);
    }
    int nomem;
    cJSON *o = json_parse(text, len, NULL, &nomem);
    free(text);
    if (nomem)
        return err_set(ERR_NOMEM, "%s: out of memory parsing it", p);
    if (!o)
        return err_set(ERR_FORMAT, "%s: not JSON", p);
    int rc = 0;
    gpt_config c = {0};
    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(o, "model_type");
    const cJSON *act = cJSON_GetObjectItemCaseSensitive(o, "activation_function");
    int inner = 0;
    if (!cJSON_IsString(mt) || strcmp(mt->valuestring, "gpt2"))
        rc = err_set(ERR_FORMAT, "%s: model_type is not \"gpt2\"", p);
    if (!rc)
        rc = cfg_int(o, "vocab_size", p, &c.vocab_size, 1);
    if (!rc)
        rc = cfg_int(o, "n_positions", p, &c.max_seq_len, 1);
    if (!rc)
        rc = cfg_int(o, "n_embd", p, &c.channels, 1);
    if (!rc)
        rc = cfg_int(o, "n_layer", p, &c.num_layers, 1);
    if (!rc)
        rc = cfg_int(o, "n_head", p, &c.num_heads, 1);
    if (!rc && cfg_int(o, "n_inner", p, &inner, 0) == 0 && inner != 4 * c.channels)
        rc = err_set(ERR_FORMAT, "%s: n_inner %d is not 4 x n_embd (GPT-2)", p, inner);
    if (!rc && cJSON_IsString(act) && strcmp(act->valuestring, "gelu_new") && strcmp(act->valuestring, "gelu_pytorch_tanh"))
        rc = err_set(ERR_FORMAT, "%s: activation_function \"%s\": this trainer has GPT-2's tanh GELU only", p,
                     act->valuestring);
    const cJSON *tie = cJSON_GetObjectItemCaseSensitive(o, "tie_word_embeddings");
    if (!rc && cJSON_IsFalse(tie))
        rc = err_set(ERR_FORMAT, "%s: tie_word_embeddings is false; this trainer ties them", p);
    cJSON_Delete(o);
    if (rc)
        return rc;
    c.padded_vocab_size = gpt_padded_vocab(c.vocab_size);
    if ((rc = gpt_config_check(&c)))
        return rc;
    snprintf(p, sizeof p, "%s/model.safetensors", dir);
    st_file f;
    if ((rc = st_open(&f, p)))
        return rc;
    /* Every tensor the config describes must be in the file, with its shape,
     * before the model is allocated: a config's sizes are bounded by what the
     * file holds, not trusted (n_layer 10^9 would otherwise ask for 50 TB). */
    int L = c.num_layers;
    if ((int64_t)L * HF_NMAP + 4 > (int64_t)f.n) {
        rc = err_set(ERR_FORMAT, "%s: config.json's n_layer %d needs %lld tensors; %s holds %d", dir, L,
                     (long long)L * HF_NMAP + 4, p, f.n);
        st_close(&f);
        return rc;
    }
    const st_tensor **src = calloc((size_t)L * HF_NMAP + 4, sizeof *src);
    if (!src) {
        st_close(&f);
        return err_set(ERR_NOMEM, "out of memory");
    }
    for (int k = -4; k < L * HF_NMAP && !rc; k++) {
        char name[128];
        size_t rows, cols;
        int tr;
        hf_slot(&c, NULL, k, name, sizeof name, &rows, &cols, &tr);
        const st_tensor *t = st_find(&f, name);
        if (!t && !strncmp(name, "transformer.", 12))
            t = st_find(&f, name + 12); /* checkpoints saved from GPT2Model have no prefix */
        if (!t) {
            rc = err_set(ERR_FORMAT, "%s: no tensor %s", p, name);
            break;
        }
        int64_t er = tr ? (int64_t)cols : (int64_t)rows, ec = tr ? (int64_t)rows : (int64_t)cols;
        int ok = cols ? (t->ndim == 2 && t->shape[0] == er && t->shape[1] == ec) : (t->ndim == 1 && t->shape[0] == er);
        if (!ok) {
            rc = err_set(ERR_FORMAT, "%s: tensor %s has shape [%lld%s%lld], expected [%lld%s%lld]", p, name,
                         (long long)t->shape[0], t->ndim > 1 ? ", " : "", t->ndim > 1 ? (long long)t->shape[1] : 0LL,
                         (long long)er, cols ? ", " : "", cols ? (long long)ec : 0LL);
            break;
        }
        if (strcmp(t->dtype, "F32") && strcmp(t->dtype, "F16") && strcmp(t->dtype, "BF16") && strcmp(t->dtype, "F64")) {
            rc = err_set(ERR_FORMAT, "%s: tensor %s has dtype %s; a float type (F32, F16, BF16, F64) is needed", p,
                         name, t->dtype);
            break;
        }
        src[k + 4] = t;
    }
    if (!rc)
        rc = gpt_alloc(m, &c);
    if (rc) {
        free(src);
        st_close(&f);
        return rc;
    }
    memset(m->params, 0, m->num_params * sizeof(float)); /* the padded vocabulary rows stay 0 */
    for (int k = -4; k < L * HF_NMAP; k++) {
        char name[128];
        size_t rows, cols;
        int tr;
        float *dst = hf_slot(&c, m, k, name, sizeof name, &rows, &cols, &tr);
        const st_tensor *t = src[k + 4];
        size_t n = rows * (cols ? cols : 1);
        if (!strcmp(t->dtype, "F32")) {
            const float *sp = (const float *)t->data;
            if (tr) {
                for (size_t r = 0; r < rows; r++)
                    for (size_t q = 0; q < cols; q++)
                        memcpy(&dst[r * cols + q], &sp[q * rows + r], 4);
            } else {
                memcpy(dst, sp, n * 4);
            }
        } else {
            /* F16, BF16, F64: converted element by element */
            for (size_t i = 0; i < n; i++) {
                size_t r = i / (cols ? cols : 1), q = i % (cols ? cols : 1);
                dst[i] = (float)st_get(t, tr ? (int64_t)(q * rows + r) : (int64_t)i);
            }
        }
    }
    free(src);
    st_close(&f);
    return 0;
}

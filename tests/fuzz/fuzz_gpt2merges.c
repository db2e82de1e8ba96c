/* fuzz_gpt2merges - GPT-2's vocab.bpe reader (tokenizer/bpe.c load_merges) on a hostile
 * file, with a small encoder.json of the 256 byte tokens and a few merged ones (written
 * once), then an encode and decodes with whatever it accepted (tokfile_fuzz.h); and
 * loaded by bpe_load's one-pass merge reader against its general one (gpt2load_fuzz.h). */
#include "common/utf8.h"
#include "tests/fuzz/tokfile_fuzz.h"
#include "tests/fuzz/gpt2load_fuzz.h"

static char enc_path[96];

static void write_encoder(void)
{
    snprintf(enc_path, sizeof enc_path, "%s/fuzz_gpt2enc.%d.json", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
             (int)getpid());
    FILE *f = fopen(enc_path, "wb");
    if (!f) abort();
    fputc('{', f);
    for (unsigned b = 0; b < 256; b++) {
        char u[4];
        int k = utf8_encode(bpe_byte_to_cp(b), u);
        fprintf(f, "%s\"", b ? ", " : "");
        if (u[0] == '"' || u[0] == '\\') fputc('\\', f);
        fwrite(u, 1, (size_t)k, f);
        fprintf(f, "\": %u", b);
    }
    static const char *const merged[] = {"\xc4\xa0t", "he", "\xc4\xa0the", "in", "\xc4\xa0" "a", "er", "on", "th", "the"};
    for (unsigned i = 0; i < sizeof merged / sizeof *merged; i++) fprintf(f, ", \"%s\": %u", merged[i], 256 + i);
    fputs(", \"<|endoftext|>\": 265}", f);
    if (fclose(f)) abort();
}

static void tokfile_spec(tokcli_spec *s, const uint8_t *data, size_t n)
{
    (void)data;
    (void)n;
    if (!enc_path[0]) write_encoder();
    s->type = "GPT2BPETokenizer";
    s->vocab_file = enc_path;
    s->merge_file = s->model;
    s->model = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static char merges[96];
    if (!enc_path[0]) write_encoder();
    if (!merges[0]) fuzz_tmp_path(merges, sizeof merges, "gpt2merges_cmp");
    fuzz_write(merges, data, n);
    gpt2_load_compare(enc_path, merges);
    return tokfile_fuzz("gpt2merges", data, n);
}

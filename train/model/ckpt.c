/* ckpt.c - checkpoints (see ckpt.h). */
#include "train/model/ckpt.h"
#include "common/fault.h"
#include "common/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "common/err.h"
#include "common/io.h"

#define CKPT_MAGIC "WTGPTCKP"
#define CKPT_VERSION 1u
enum { CKPT_HDR = 160 };

static void put_hdr(uint8_t *h, const gpt_model *m, const ckpt_state *st)
{
    memset(h, 0, CKPT_HDR);
    memcpy(h, CKPT_MAGIC, 8);
    uint32_t v = CKPT_VERSION, hb = CKPT_HDR;
    memcpy(h + 8, &v, 4);
    memcpy(h + 12, &hb, 4);
    int32_t c[6] = {m->cfg.max_seq_len, m->cfg.vocab_size, m->cfg.padded_vocab_size, m->cfg.num_layers,
                    m->cfg.num_heads, m->cfg.channels};
    memcpy(h + 16, c, sizeof c);
    uint64_t u[10] = {m->num_params, st->iteration, st->consumed_train, st->consumed_valid, st->adam_step,
                      st->skipped_iters, st->seed, st->seq_length, st->micro_batch, st->global_batch};
    memcpy(h + 40, u, sizeof u);
    memcpy(h + 120, st->layout, sizeof st->layout);
}

static int parse_hdr(const uint8_t *h, const char *path, gpt_config *cfg, uint64_t *num_params, ckpt_state *st)
{
    uint32_t v, hb;
    if (memcmp(h, CKPT_MAGIC, 8) != 0)
        return err_set(ERR_FORMAT, "%s: not a checkpoint of this trainer (bad magic)", path);
    memcpy(&v, h + 8, 4);
    memcpy(&hb, h + 12, 4);
    if (v != CKPT_VERSION || hb != CKPT_HDR)
        return err_set(ERR_FORMAT, "%s: checkpoint format version %u, this trainer reads version %u", path, v,
                       CKPT_VERSION);
    int32_t c[6];
    memcpy(c, h + 16, sizeof c);
    *cfg = (gpt_config){.max_seq_len = c[0], .vocab_size = c[1], .padded_vocab_size = c[2], .num_layers = c[3],
                        .num_heads = c[4], .channels = c[5]};
    uint64_t u[10];
    memcpy(u, h + 40, sizeof u);
    *num_params = u[0];
    *st = (ckpt_state){u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], {0}};
    memcpy(st->layout, h + 120, sizeof st->layout);
    if (gpt_config_check(cfg) != 0)
        return err_set(ERR_CORRUPT, "%s: header holds an impossible model config", path);
    return 0;
}

static int fsync_path(const char *path)
{
    int fd = fault_open(path, O_RDONLY, 0);
    if (fd < 0)
        return err_sys(ERR_IO, "%s", path);
    int rc = fault_fsync(fd) == 0 ? 0 : err_sys(ERR_IO, "fsync %s", path);
    close(fd);
    return rc;
}

static int rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    struct dirent *e;
    char p[PATH_MAX];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    return rmdir(dir);
}

int ckpt_save(const char *dir, const gpt_model *m, const ckpt_state *st)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return err_sys(ERR_IO, "--save %s: cannot create the directory", dir);
    char fin[PATH_MAX], tmp[PATH_MAX + 160], file[PATH_MAX + 192];
    if (strlen(dir) > PATH_MAX - 64)
        return err_set(ERR_USAGE, "--save: path too long");
    snprintf(fin, sizeof fin, "%s/iter_%07llu", dir, (unsigned long long)st->iteration);
    char suf[128];
    fs_tmp_suffix(suf, sizeof suf, 0);
    snprintf(tmp, sizeof tmp, "%s.%s", fin, suf);
    fs_remove_stale_tmp(dir, "iter_"); /* of runs killed while saving */
    rm_tree(tmp);
    if (mkdir(tmp, 0777) != 0)
        return err_sys(ERR_IO, "%s: cannot create", tmp);
    snprintf(file, sizeof file, "%s/model.ckpt", tmp);
    uint8_t hdr[CKPT_HDR];
    put_hdr(hdr, m, st);
    XXH3_state_t *xs = XXH3_createState();
    XXH3_64bits_reset(xs);
    io_writer_opts o = {0, 0, 0};
    io_writer *w;
    int rc = io_writer_open(&w, file, &o);
    if (rc) {
        XXH3_freeState(xs);
        rm_tree(tmp);
        return rc;
    }
    const float *parts[3] = {m->params, m->adam_m, m->adam_v};
    rc = io_write(w, hdr, CKPT_HDR);
    XXH3_64bits_update(xs, hdr, CKPT_HDR);
    for (int k = 0; k < 3 && !rc; k++) {
        rc = io_write(w, parts[k], m->num_params * sizeof(float));
        XXH3_64bits_update(xs, parts[k], m->num_params * sizeof(float));
    }
    uint64_t sum = XXH3_64bits_digest(xs);
    XXH3_freeState(xs);
    if (!rc)
        rc = io_write(w, &sum, 8);
    rc = rc ? (io_writer_abort(w), rc) : io_writer_commit(w);
    if (!rc)
        rc = fsync_path(tmp);
    if (!rc) {
        rm_tree(fin); /* an older save of the same iteration */
        if (fault_rename(tmp, fin) != 0)
            rc = err_sys(ERR_IO, "rename %s -> %s", tmp, fin);
    }
    if (rc) {
        rm_tree(tmp);
        return rc;
    }
    fsync_path(dir);
    char latest[PATH_MAX], num[32];
    snprintf(latest, sizeof latest, "%s/latest_checkpointed_iteration.txt", dir);
    int n = snprintf(num, sizeof num, "%llu", (unsigned long long)st->iteration);
    rc = io_writer_open(&w, latest, &o);
    if (!rc) {
        rc = io_write(w, num, (size_t)n);
        rc = rc ? (io_writer_abort(w), rc) : io_writer_commit(w);
    }
    return rc;
}

int ckpt_find_latest(const char *dir, char **path)
{
    char latest[PATH_MAX], p[PATH_MAX];
    snprintf(latest, sizeof latest, "%s/latest_checkpointed_iteration.txt", dir);
    FILE *f = fault_fopen(latest, "r");
    if (!f) {
        if (errno == ENOENT) {
            struct stat st;
            if (stat(dir, &st) != 0)
                return err_sys(ERR_IO, "--load %s", dir);
            return 1;
        }
        return err_sys(ERR_IO, "%s", latest);
    }
    char buf[64] = {0};
    size_t n = fault_fread(buf, 1, sizeof buf - 1, f);
    int rerr = fault_ferror(f);
    fclose(f);
    if (rerr)
        return err_sys(ERR_IO, "%s: read failed", latest);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        buf[--n] = 0;
    char *end;
    unsigned long long it = strtoull(buf, &end, 10);
    if (!strcmp(buf, "release"))
        snprintf(p, sizeof p, "%s/release/model.ckpt", dir);
    else if (n && *end == 0)
        snprintf(p, sizeof p, "%s/iter_%07llu/model.ckpt", dir, it);
    else
        return err_set(ERR_CORRUPT, "%s: expected an iteration number or 'release', found '%s'", latest, buf);
    if (access(p, R_OK) != 0)
        return err_sys(ERR_IO, "%s names iteration %s but %s is missing", latest, buf, p);
    *path = strdup(p);
    return *path ? 0 : err_set(ERR_NOMEM, "out of memory");
}

int ckpt_read_header(const char *path, gpt_config *cfg, ckpt_state *st)
{
    FILE *f = fault_fopen(path, "rb");
    if (!f)
        return err_sys(ERR_IO, "%s", path);
    uint8_t h[CKPT_HDR];
    size_t n = fault_fread(h, 1, CKPT_HDR, f);
    int rerr = n != CKPT_HDR && fault_ferror(f);
    fclose(f);
    if (rerr)
        return err_sys(ERR_IO, "%s: read failed", path);
    if (n != CKPT_HDR)
        return err_set(ERR_CORRUPT, "%s: truncated (%zu bytes, header is %d)", path, n, CKPT_HDR);
    uint64_t np;
    int rc = parse_hdr(h, path, cfg, &np, st);
    if (rc)
        return rc;
    /* Check the size before anyone allocates what the header claims. */
    struct stat sb;
    if (np != gpt_num_params(cfg))
        return err_set(ERR_CORRUPT, "%s: header says %llu parameters, its model config has %zu", path,
                       (unsigned long long)np, gpt_num_params(cfg));
    if (stat(path, &sb) != 0 || (uint64_t)sb.st_size != CKPT_HDR + 3 * np * 4 + 8)
        return err_set(ERR_CORRUPT, "%s: %lld bytes, expected %llu (truncated or damaged)", path,
                       (long long)sb.st_size, (unsigned long long)(CKPT_HDR + 3 * np * 4 + 8));
    return 0;
}

int ckpt_load(const char *path, gpt_model *m, ckpt_state *st)
{
    FILE *f = fault_fopen(path, "rb");
    if (!f)
        return err_sys(ERR_IO, "%s", path);
    uint8_t h[CKPT_HDR];
    int rc = 0;
    gpt_config cfg;
    uint64_t np;
    if (fault_fread(h, 1, CKPT_HDR, f) != CKPT_HDR)
        rc = fault_ferror(f) ? err_sys(ERR_IO, "%s: read failed", path)
                             : err_set(ERR_CORRUPT, "%s: truncated inside the header", path);
    if (!rc)
        rc = parse_hdr(h, path, &cfg, &np, st);
    if (!rc && (memcmp(&cfg, &m->cfg, sizeof cfg) != 0 || np != m->num_params))
        rc = err_set(ERR_FORMAT,
                     "%s: checkpoint model (layers %d, hidden %d, heads %d, positions %d, vocab %d) does not match "
                     "the requested one (layers %d, hidden %d, heads %d, positions %d, vocab %d)",
                     path, cfg.num_layers, cfg.channels, cfg.num_heads, cfg.max_seq_len, cfg.vocab_size,
                     m->cfg.num_layers, m->cfg.channels, m->cfg.num_heads, m->cfg.max_seq_len, m->cfg.vocab_size);
    struct stat sb;
    uint64_t want = CKPT_HDR + 3 * np * 4 + 8;
    if (!rc && (fstat(fileno(f), &sb) != 0 || (uint64_t)sb.st_size != want))
        rc = err_set(ERR_CORRUPT, "%s: %lld bytes, expected %llu (truncated or damaged)", path,
                     (long long)sb.st_size, (unsigned long long)want);
    if (rc) {
        fclose(f);
        return rc;
    }
    XXH3_state_t *xs = XXH3_createState();
    XXH3_64bits_reset(xs);
    XXH3_64bits_update(xs, h, CKPT_HDR);
    float *parts[3] = {m->params, m->adam_m, m->adam_v};
    for (int k = 0; k < 3 && !rc; k++) {
        if (fault_fread(parts[k], sizeof(float), np, f) != np)
            rc = err_sys(ERR_IO, "%s: read", path);
        else
            XXH3_64bits_update(xs, parts[k], np * sizeof(float));
    }
    uint64_t sum = 0, got = XXH3_64bits_digest(xs);
    XXH3_freeState(xs);
    if (!rc && fault_fread(&sum, 8, 1, f) != 1)
        rc = err_sys(ERR_IO, "%s: read", path);
    fclose(f);
    if (!rc && sum != got)
        rc = err_set(ERR_CORRUPT, "%s: checksum mismatch (stored %016llx, computed %016llx): the file is damaged",
                     path, (unsigned long long)sum, (unsigned long long)got);
    return rc;
}

int ckpt_resolve(const char *load, char **path)
{
    struct stat sb;
    *path = NULL;
    if (stat(load, &sb) == 0 && S_ISREG(sb.st_mode)) {
        *path = strdup(load);
        return *path ? 0 : err_set(ERR_NOMEM, "out of memory");
    }
    char p[4096];
    snprintf(p, sizeof p, "%s/model.ckpt", load);
    if (stat(p, &sb) == 0) {
        *path = strdup(p);
        return *path ? 0 : err_set(ERR_NOMEM, "out of memory");
    }
    int rc = ckpt_find_latest(load, path);
    if (rc == 1)
        err_set(ERR_USAGE, "no checkpoint there (no model.ckpt, no latest_checkpointed_iteration.txt): %s", load);
    return rc;
}

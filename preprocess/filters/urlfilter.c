/* urlfilter.c - see urlfilter.h. */
#define _GNU_SOURCE
#define PCRE2_CODE_UNIT_WIDTH 8
#include "preprocess/filters/urlfilter.h"

#include "common/err.h"
#include "common/hash.h"
#include "common/strset.h"
#include "common/io.h"
#include "common/utf8.h"

#include <libpsl.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

/* The OpenWebText domain stems (FORMATS.md section 4), sorted for bsearch. */
static const char *const stems[] = {
    "500px", "aapks", "akamaihd", "amazon", "apple", "artifactfire", "artstation", "awwni", "bandcamp",
    "battleforthenet", "coinscalendar", "dailymotion", "deviantart", "discord", "discordapp", "dlapkandroid",
    "dropbox", "e621", "ebay", "edealinfo", "erome", "eroshare", "explosm", "facebook", "fbcdn", "flickr",
    "furaffinity", "futhead", "gatopardo", "gfycat", "gifsound", "gifsoup", "giphy", "github", "google",
    "gunprime", "gyazo", "horsefucker", "hotdealstar", "imagefap", "imageshack", "imgflip", "imgur",
    "instagram", "karmadecay", "kryptocal", "kym-cdn", "liveleak", "livememe", "lmgtfy", "magaimg",
    "memegenerator", "minorplanetcenter", "minus", "mobafire", "morejpeg", "nocookie", "pcpartpicker",
    "photobucket", "pinimg", "pinterest", "pixiv", "pornhub", "prntscr", "puu", "qkme", "quickmeme", "radd",
    "redd", "reddit", "reddit-stream", "redditlog", "redditmedia", "reddituploads", "redtube", "reupp",
    "reverb", "roanoke", "rollingstone", "sli", "soundcloud", "soundgasm", "spankbang", "spotify",
    "strawpoll", "streamable", "timeanddate", "tinypic", "touhouradio", "tumblr", "twimg", "twitch",
    "twitter", "vid", "vimeo", "vine", "vkaao", "vocaroo", "voyagefusion", "walmart", "wciu", "wikimedia",
    "wikipedia", "xhamster", "xkcd", "xvideos", "youtu", "youtube", "youtubedoubler", "ytimg", "zillexplorer",
};
#define N_STEMS (sizeof stems / sizeof *stems)

/* Blocked extensions, matched against the lowercased URL before the first '?'. */
static const char *const extensions[] = {
    ".3gp", ".7z", ".aif", ".apk", ".app", ".avi", ".bin", ".bmp", ".bz2", ".css", ".csv", ".dat", ".deb",
    ".dmg", ".doc", ".docx", ".exe", ".gif", ".gifv", ".gz", ".iso", ".jar", ".jpeg", ".jpg", ".js", ".log",
    ".mid", ".midi", ".mkv", ".mov", ".mp3", ".mp4", ".mpeg", ".mpg", ".ogg", ".ogv", ".otf", ".pdf", ".pkg",
    ".png", ".pps", ".ppt", ".pptx", ".psd", ".py", ".qt", ".ram", ".rar", ".sql", ".svg", ".swf", ".tar.gz",
    ".tar", ".tgz", ".tiff", ".ttf", ".txt", ".wav", ".webm", ".wma", ".wmv", ".xls", ".xlsx", ".xml", ".xz",
    ".zip",
};
#define N_EXT (sizeof extensions / sizeof *extensions)

/* The reference regex (compiled IGNORECASE). Python's \S excludes every
 * str.isspace() character, which also covers U+001C..U+001F and U+0085;
 * PCRE2's \s under UCP does not, so \S is spelled out. */
static const char url_pattern[] =
    "^(?:http)s?://"
    "(?:(?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\\.)+(?:[A-Z]{2,6}\\.?|[A-Z0-9-]{2,}\\.?)|"
    "\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3})"
    "(?::\\d+)?"
    "(?:/?|[/?][^\\s\\x{1c}-\\x{1f}\\x{85}]+)$";

static const char *const reason_names[URL_NREASONS] = {
    "kept", "domain", "blocklist", "extension", "short", "malformed", "duplicate", "bad-json", "missing-key",
};

/* Direct-mapped cache host -> "domain label is a stem": URL lists repeat
 * hosts heavily, and the public-suffix lookups dominate otherwise. */
#define HOST_CACHE 16384
#define HOST_CACHE_LEN 80
typedef struct {
    uint64_t hash;
    uint8_t len, is_stem, used;
    char host[HOST_CACHE_LEN];
} host_slot;

struct urlfilter {
    host_slot *cache;
    psl_ctx_t *psl;
    int psl_owned;
    char psl_source[256];
    pcre2_code *re;
    pcre2_match_data *md;
    strset *seen;
    strset *blocked; /* user block list, lowercased */
    char *scratch;   /* lowercase buffer for suffix lookups */
    size_t scratch_cap;
};

const char *urlfilter_reason_name(int r) { return r >= 0 && r < URL_NREASONS ? reason_names[r] : "?"; }

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int urlfilter_new(urlfilter **out, const char *psl_path)
{
    *out = NULL;
    urlfilter *f = calloc(1, sizeof *f);
    if (!f) return err_set(ERR_NOMEM, "out of memory");
    int rc = 0;
    if (psl_path) {
        f->psl = psl_load_file(psl_path);
        if (!f->psl) rc = err_set(ERR_IO, "%s: cannot load the public suffix list", psl_path);
        f->psl_owned = 1;
        snprintf(f->psl_source, sizeof f->psl_source, "%s", psl_path);
    } else {
        static const char *const sys[] = { "/usr/share/publicsuffix/public_suffix_list.dafsa",
                                           "/usr/share/publicsuffix/public_suffix_list.dat" };
        for (size_t i = 0; i < 2 && !f->psl; i++)
            if (io_is_regular_file(sys[i]) && (f->psl = psl_load_file(sys[i]))) {
                f->psl_owned = 1;
                snprintf(f->psl_source, sizeof f->psl_source, "%s", sys[i]);
            }
        if (!f->psl) {
            f->psl = (psl_ctx_t *)psl_builtin();
            snprintf(f->psl_source, sizeof f->psl_source, "libpsl built-in list");
        }
        if (!f->psl) rc = err_set(ERR_IO, "no public suffix list: install Debian's publicsuffix package or pass --psl FILE");
    }
    if (rc == 0) {
        int ec;
        PCRE2_SIZE eo;
        f->re = pcre2_compile((PCRE2_SPTR)url_pattern, PCRE2_ZERO_TERMINATED,
                              PCRE2_CASELESS | PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &ec, &eo, NULL);
        if (!f->re) rc = err_set(ERR_INTERNAL, "URL regex does not compile (error %d at %zu)", ec, (size_t)eo);
        else {
            pcre2_jit_compile(f->re, PCRE2_JIT_COMPLETE); /* falls back to the interpreter if unavailable */
            f->md = pcre2_match_data_create_from_pattern(f->re, NULL);
            if (!f->md) rc = err_set(ERR_NOMEM, "out of memory");
        }
    }
    if (rc == 0 && (!(f->seen = strset_new()) || !(f->blocked = strset_new()) ||
                    !(f->cache = calloc(HOST_CACHE, sizeof *f->cache))))
        rc = err_set(ERR_NOMEM, "out of memory");
    if (rc < 0) {
        urlfilter_free(f);
        return rc;
    }
    for (size_t i = 1; i < N_STEMS; i++) /* bsearch needs the table sorted */
        if (strcmp(stems[i - 1], stems[i]) >= 0) {
            urlfilter_free(f);
            return err_set(ERR_INTERNAL, "domain stem table not sorted at '%s'", stems[i]);
        }
    *out = f;
    return 0;
}

void urlfilter_free(urlfilter *f)
{
    if (!f) return;
    if (f->psl_owned) psl_free(f->psl);
    pcre2_match_data_free(f->md);
    pcre2_code_free(f->re);
    strset_free(f->seen);
    strset_free(f->blocked);
    free(f->cache);
    free(f->scratch);
    free(f);
}

const char *urlfilter_psl_source(const urlfilter *f) { return f->psl_source; }

/* Lowercase s[0..n) into f->scratch (ASCII fast, Unicode via utf8proc;
 * invalid bytes copied). Returns the NUL-terminated copy or NULL. */
static char *lower_copy(urlfilter *f, const char *s, size_t n)
{
    if (n * 4 + 1 > f->scratch_cap) {
        size_t cap = n * 4 + 64;
        char *p = realloc(f->scratch, cap);
        if (!p) return NULL;
        f->scratch = p;
        f->scratch_cap = cap;
    }
    char *o = f->scratch;
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            *o++ = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
            i++;
            continue;
        }
        uint32_t cp;
        int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k < 0) {
            *o++ = (char)c;
            i++;
            continue;
        }
        o += utf8_encode((uint32_t)utf8proc_tolower((utf8proc_int32_t)cp), o);
        i += (size_t)k;
    }
    *o = '\0';
    return f->scratch;
}

int urlfilter_add_block_domain(urlfilter *f, const char *d, size_t n)
{
    while (n && d[n - 1] == '.') n--;
    while (n && d[0] == '.') { d++; n--; }
    char *l = lower_copy(f, d, n);
    if (!l) return err_set(ERR_NOMEM, "out of memory");
    int rc = strset_add(f->blocked, l, strlen(l));
    return rc < 0 ? rc : 0;
}

int urlfilter_add_blocklist(urlfilter *f, const char *path)
{
    io_reader *r;
    int rc = io_reader_open(&r, path);
    if (rc < 0) return rc;
    char *line;
    size_t len;
    while ((rc = io_getline(r, &line, &len)) == 1) {
        const char *s = line;
        size_t n = len;
        char *hash = memchr(s, '#', n);
        if (hash) n = (size_t)(hash - s);
        utf8_strip_pyspace(&s, &n);
        if (!n) continue;
        for (size_t i = 0; i < n; i++)
            if (s[i] == ' ' || s[i] == '\t' || s[i] == '/' || s[i] == ':') {
                rc = err_set(ERR_FORMAT, "%s:%llu: not a domain name: '%.*s' (one domain per line, like example.com)",
                             path, (unsigned long long)io_reader_lineno(r), (int)(n > 200 ? 200 : n), s);
                io_reader_close(r);
                return rc;
            }
        if ((rc = urlfilter_add_block_domain(f, s, n)) < 0) break;
    }
    io_reader_close(r);
    return rc < 0 ? rc : 0;
}

static int is_scheme_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
           c == '.';
}

static const char *memmem_str(const char *s, size_t n, const char *pat)
{
    return memmem(s, n, pat, strlen(pat));
}

void urlfilter_host(const char *url, size_t len, const char **host, size_t *hlen)
{
    /* _schemeless_url */
    const char *s = url;
    size_t n = len;
    const char *dd = memmem_str(url, len, "//");
    if (dd == url) {
        s = url + 2;
        n = len - 2;
    } else if (dd && dd - url >= 2 && dd[-1] == ':') {
        int ok = 1;
        for (const char *p = url; p < dd - 1; p++)
            if (!is_scheme_char((unsigned char)*p)) { ok = 0; break; }
        if (ok) {
            s = dd + 2;
            n = len - (size_t)(s - url);
        }
    }
    /* authority: up to the first '/', then '?', then '#' */
    for (size_t i = 0; i < n; i++)
        if (s[i] == '/' || s[i] == '?' || s[i] == '#') { n = i; break; }
    /* after the last '@' */
    for (size_t i = n; i > 0; i--)
        if (s[i - 1] == '@') { s += i; n -= i; break; }
    if (n && s[0] == '[') {
        const char *rb = memchr(s, ']', n);
        if (rb) {
            *host = s;
            *hlen = (size_t)(rb - s) + 1;
            return;
        }
    }
    const char *colon = memchr(s, ':', n);
    if (colon) n = (size_t)(colon - s);
    utf8_strip_pyspace(&s, &n);
    /* rstrip ".\u3002\uff0e\uff61" */
    for (;;) {
        if (n >= 1 && s[n - 1] == '.') { n--; continue; }
        if (n >= 3) {
            const unsigned char *t = (const unsigned char *)s + n - 3;
            if ((t[0] == 0xE3 && t[1] == 0x80 && t[2] == 0x82) || (t[0] == 0xEF && t[1] == 0xBC && t[2] == 0x8E) ||
                (t[0] == 0xEF && t[1] == 0xBD && t[2] == 0xA1)) {
                n -= 3;
                continue;
            }
        }
        break;
    }
    *host = s;
    *hlen = n;
}

static int looks_like_ipv4(const char *s, size_t n)
{
    int parts = 0;
    size_t i = 0;
    while (parts < 4) {
        size_t st = i;
        unsigned v = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9' && i - st < 4) v = v * 10 + (unsigned)(s[i++] - '0');
        size_t d = i - st;
        if (d == 0 || d > 3 || v > 255 || (d > 1 && s[st] == '0')) return 0;
        parts++;
        if (parts < 4) {
            if (i >= n || s[i] != '.') return 0;
            i++;
        }
    }
    return i == n;
}

size_t urlfilter_domain(urlfilter *f, const char *url, size_t len, char *out, size_t outsz)
{
    const char *h;
    size_t hn;
    urlfilter_host(url, len, &h, &hn);
    out[0] = '\0';
    /* Replace the ideographic/full-width dots with '.' and lowercase. */
    char *low = lower_copy(f, h, hn);
    if (!low) return 0;
    size_t ln = 0;
    for (size_t i = 0; low[i];) {
        const unsigned char *t = (const unsigned char *)low + i;
        if ((t[0] == 0xE3 && t[1] == 0x80 && t[2] == 0x82) || (t[0] == 0xEF && t[1] == 0xBC && t[2] == 0x8E) ||
            (t[0] == 0xEF && t[1] == 0xBD && t[2] == 0xA1)) {
            low[ln++] = '.';
            i += 3;
        } else {
            low[ln++] = low[i++];
        }
    }
    low[ln] = '\0';
    const char *dom = "";
    size_t dn = 0;
    if (ln == 0) {
        /* empty host: empty domain */
    } else if (ln >= 4 && low[0] == '[' && low[ln - 1] == ']') {
        dom = low; /* bracketed IPv6 literal: tldextract returns it whole */
        dn = ln;
    } else {
        /* Longest ICANN public suffix: try each label boundary from the left. */
        size_t suffix_at = SIZE_MAX; /* byte offset where the suffix starts */
        /* A candidate with an empty label is never a public suffix (libpsl
         * would call ".com" one); only candidates right of the last ".." or
         * a leading '.' can qualify. */
        const char *dd = NULL;
        for (const char *q = strstr(low, ".."); q; q = strstr(q + 1, "..")) dd = q;
        size_t first_ok = dd ? (size_t)(dd - low) + 2 : 0;
        for (size_t i = first_ok; i <= ln; i++) {
            if (i > 0 && low[i - 1] != '.') continue;
            if (i == ln) break;
            const char *cand = low + i;
            if (cand[0] == '.' || low[ln - 1] == '.') continue; /* empty label */
            if (psl_is_public_suffix2(f->psl, cand, PSL_TYPE_ICANN | PSL_TYPE_NO_STAR_RULE)) {
                suffix_at = i;
                break;
            }
        }
        if (suffix_at == SIZE_MAX) {
            if (looks_like_ipv4(low, ln)) {
                dom = low;
                dn = ln;
            } else {
                const char *dot = memrchr(low, '.', ln);
                dom = dot ? dot + 1 : low;
                dn = ln - (size_t)(dom - low);
            }
        } else if (suffix_at > 0) {
            size_t end = suffix_at - 1; /* the '.' before the suffix */
            size_t st = end;
            while (st > 0 && low[st - 1] != '.') st--;
            dom = low + st;
            dn = end - st;
        }
    }
    size_t k = dn < outsz - 1 ? dn : outsz - 1;
    memmove(out, dom, k);
    out[k] = '\0';
    return dn;
}

/* Lowercase (as Python's str.lower for the characters that can turn into
 * ASCII: only U+212A KELVIN SIGN does) and test the blocked extensions. */
static int has_blocked_extension(const char *url, size_t len)
{
    const char *q = memchr(url, '?', len);
    size_t n = q ? (size_t)(q - url) : len;
    char tail[16];
    size_t t = 0;
    /* Walk back collecting up to 15 lowered bytes. */
    size_t i = n;
    while (i > 0 && t < sizeof tail - 1) {
        if (i >= 3 && (unsigned char)url[i - 3] == 0xE2 && (unsigned char)url[i - 2] == 0x84 &&
            (unsigned char)url[i - 1] == 0xAA) {
            tail[t++] = 'k';
            i -= 3;
            continue;
        }
        unsigned char c = (unsigned char)url[--i];
        tail[t++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    /* tail holds the lowered suffix reversed */
    /* every extension starts with '.', so there must be one in the tail */
    if (!memchr(tail, '.', t)) return 0;
    for (size_t e = 0; e < N_EXT; e++) {
        size_t el = strlen(extensions[e]); /* short constant strings */
        if (el > t || tail[el - 1] != '.') continue;
        size_t j = 0;
        while (j < el && tail[j] == extensions[e][el - 1 - j]) j++;
        if (j == el) return 1;
    }
    return 0;
}

static size_t count_chars(const char *s, size_t n)
{
    /* Python len(): code points; an invalid byte counts as one (surrogateescape). */
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
    if (!utf8_valid(s, n)) { /* rare: count exactly */
        c = 0;
        for (size_t i = 0; i < n;) {
            uint32_t cp;
            int k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
            i += k < 0 ? 1 : (size_t)k;
            c++;
        }
    }
    return c;
}

static int is_stem(const char *d)
{
    return bsearch(&d, stems, N_STEMS, sizeof *stems, cmp_str) != NULL;
}

static int host_blocked(urlfilter *f, const char *url, size_t len)
{
    if (strset_count(f->blocked) == 0) return 0;
    const char *h;
    size_t hn;
    urlfilter_host(url, len, &h, &hn);
    char *low = lower_copy(f, h, hn);
    if (!low) return 0;
    size_t ln = strlen(low);
    for (size_t i = 0; i < ln; i++) {
        if (i > 0 && low[i - 1] != '.') continue;
        if (strset_has(f->blocked, low + i, ln - i)) return 1;
    }
    return 0;
}

static int domain_is_stem(urlfilter *f, const char *url, size_t len)
{
    const char *h;
    size_t hn;
    urlfilter_host(url, len, &h, &hn);
    host_slot *slot = NULL;
    uint64_t hh = 0;
    if (hn < HOST_CACHE_LEN) {
        hh = hash64(h, hn, 0);
        slot = &f->cache[hh & (HOST_CACHE - 1)];
        if (slot->used && slot->hash == hh && slot->len == hn && memcmp(slot->host, h, hn) == 0) return slot->is_stem;
    }
    char dom[256];
    size_t dn = urlfilter_domain(f, url, len, dom, sizeof dom);
    int stem = dn < sizeof dom && is_stem(dom);
    if (slot) {
        slot->used = 1;
        slot->hash = hh;
        slot->len = (uint8_t)hn;
        slot->is_stem = (uint8_t)stem;
        memcpy(slot->host, h, hn);
    }
    return stem;
}

int urlfilter_check(urlfilter *f, const char *url, size_t len)
{
    if (domain_is_stem(f, url, len)) return URL_DOMAIN;
    if (host_blocked(f, url, len)) return URL_BLOCKLIST;
    if (has_blocked_extension(url, len)) return URL_EXTENSION;
    if (count_chars(url, len) <= 8) return URL_SHORT;
    if (!utf8_valid(url, len)) return URL_MALFORMED;
    int m = pcre2_match(f->re, (PCRE2_SPTR)url, len, 0, 0, f->md, NULL);
    return m >= 0 ? URL_KEPT : URL_MALFORMED;
}

int urlfilter_classify(urlfilter *f, const char *url, size_t len)
{
    int r = urlfilter_check(f, url, len);
    if (r != URL_KEPT) return r;
    int added = strset_add(f->seen, url, len);
    if (added < 0) return added;
    return added ? URL_KEPT : URL_DUPLICATE;
}

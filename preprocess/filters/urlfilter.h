/* urlfilter.h - the OpenWebText URL rules (Megatron tools/openwebtext/
 * blacklist_urls.py), FORMATS.md section 4.
 *
 * A URL (already stripped of surrounding whitespace, Python str.strip rules)
 * is checked in order, first match wins: domain stem, user block list,
 * extension, short (<= 8 characters), malformed (the reference regex),
 * duplicate (exact string already kept).
 *
 * Domain stem = tldextract's `.domain`: the label left of the longest ICANN
 * public suffix (private section ignored, no implicit "*" rule; an unknown TLD
 * makes the last label the domain; an IPv4 or bracketed IPv6 host is its own
 * domain). Host parsing follows tldextract's lenient_netloc.
 *
 * Decisions beyond the reference (README "URL rules"):
 *  - the domain label is compared case-insensitively (hosts are
 *    case-insensitive; the reference let "www.YouTube.com" through);
 *  - ".7z" is blocked (the reference lost a comma and blocked ".7z.ai");
 *  - a URL that is not valid UTF-8 is "malformed" (the reference crashed);
 *  - kept URLs are written in input order (the reference printed a set).
 */
#ifndef PREPROCESS_URLFILTER_H
#define PREPROCESS_URLFILTER_H

#include <stddef.h>

typedef enum {
    URL_KEPT = 0,
    URL_DOMAIN,      /* registrable label is in the OpenWebText stem list */
    URL_BLOCKLIST,   /* host is, or is under, a domain of a user block list */
    URL_EXTENSION,   /* path ends with a blocked file extension */
    URL_SHORT,       /* <= 8 characters */
    URL_MALFORMED,   /* fails the reference URL regex, or invalid UTF-8 */
    URL_DUPLICATE,   /* same string already kept */
    URL_BAD_JSON,    /* JSON-lines mode: the line is not valid JSON */
    URL_MISSING_KEY, /* JSON-lines mode: no string value under the key */
    URL_NREASONS
} url_reason;

const char *urlfilter_reason_name(int reason);

typedef struct urlfilter urlfilter;

/* psl_path: a public suffix list (.dat or .dafsa); NULL = the system list
 * (/usr/share/publicsuffix, Debian's publicsuffix) or libpsl's built-in copy. */
int urlfilter_new(urlfilter **out, const char *psl_path);
void urlfilter_free(urlfilter *f); /* accepts NULL */
const char *urlfilter_psl_source(const urlfilter *f);

/* Add a block list file: one domain per line, '#' comments and blank lines
 * ignored; blocks the domain and all its subdomains. */
int urlfilter_add_blocklist(urlfilter *f, const char *path);
int urlfilter_add_block_domain(urlfilter *f, const char *domain, size_t len);

/* Rules without the duplicate check. Returns a url_reason. Thread-safe only
 * with one urlfilter per thread (PCRE2 match data is per filter). */
int urlfilter_check(urlfilter *f, const char *url, size_t len);
/* All rules including duplicate; a kept URL is remembered. Returns a
 * url_reason, or ERR_NOMEM. */
int urlfilter_classify(urlfilter *f, const char *url, size_t len);

/* tldextract's host (lenient_netloc): a pointer into url and its length. */
void urlfilter_host(const char *url, size_t len, const char **host, size_t *hlen);
/* tldextract's .domain of url, ASCII/Unicode-lowercased, NUL-terminated into
 * out (truncated to outsz-1). Returns its length. */
size_t urlfilter_domain(urlfilter *f, const char *url, size_t len, char *out, size_t outsz);

#endif

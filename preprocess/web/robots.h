/* robots.h - robots.txt as RFC 9309 (the Robots Exclusion Protocol) reads it.
 *
 * Groups start with one or more user-agent lines; the rules of every group
 * whose user-agent matches our product token (case-insensitive, the token
 * being the UA line's value up to its first character outside [A-Za-z_-]) are
 * merged; when none matches, the groups of "*". A path is allowed unless its
 * longest matching rule (in octets of the pattern) is a disallow; on a tie allow
 * wins. Patterns match from the path's start, '*' matches any run of
 * characters, a final '$' anchors the end. An empty disallow matches nothing;
 * /robots.txt is always allowed. Crawl-delay (not in the RFC, honoured by
 * Heritrix and Bing) is read from the same group. Only the first 512 KiB are
 * read (the RFC asks for at least 500 KiB). Lines are split on CR, LF or CRLF;
 * a UTF-8 BOM is skipped; lines that are not "key: value" are ignored. */
#ifndef PREPROCESS_ROBOTS_H
#define PREPROCESS_ROBOTS_H

#include <stddef.h>

typedef struct robots robots;

/* NULL when out of memory. */
robots *robots_parse(const char *txt, size_t n, const char *agent);
/* Every path allowed (robots.txt missing: 4xx) or none (unreachable: 5xx). */
robots *robots_all(int allow);
/* path: the URL's path and query ("/a/b?x=1"); "" is taken as "/". */
int robots_allowed(const robots *r, const char *path);
/* Crawl-delay in seconds of the matching group (0: none). */
double robots_crawl_delay(const robots *r);
size_t robots_rule_count(const robots *r);
void robots_free(robots *r);

#endif

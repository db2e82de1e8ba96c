/* robots.c - robots.txt (RFC 9309): parsing and matching (robots.h). */
#include "preprocess/web/robots.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ROBOTS_MAX_BYTES (512 * 1024)

typedef struct {
    char *pat;
    size_t len;
    int allow;
} rule;

struct robots {
    rule *rules;
    size_t n, cap;
    int all; /* -1: rules decide, 0: nothing allowed, 1: everything */
    double delay;
};

robots *robots_all(int allow)
{
    robots *r = calloc(1, sizeof *r);
    if (r) r->all = allow ? 1 : 0;
    return r;
}

void robots_free(robots *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) free(r->rules[i].pat);
    free(r->rules);
    free(r);
}

size_t robots_rule_count(const robots *r) { return r ? r->n : 0; }
double robots_crawl_delay(const robots *r) { return r ? r->delay : 0; }

static int add_rule(robots *r, const char *v, size_t n, int allow)
{
    if (r->n == r->cap) {
        size_t c = r->cap ? r->cap * 2 : 16;
        rule *nr = realloc(r->rules, c * sizeof *nr);
        if (!nr) return -1;
        r->rules = nr;
        r->cap = c;
    }
    char *p = malloc(n + 1);
    if (!p) return -1;
    memcpy(p, v, n);
    p[n] = 0;
    r->rules[r->n++] = (rule){p, n, allow};
    return 0;
}

/* Does the UA line's value name our token ("*" is handled by the caller)? */
static int agent_matches(const char *v, size_t n, const char *agent)
{
    size_t k = 0;
    while (k < n && (isalpha((unsigned char)v[k]) || v[k] == '_' || v[k] == '-')) k++;
    return k > 0 && k == strlen(agent) && !strncasecmp(v, agent, k);
}

/* Parse twice in effect: the rules of groups naming us, else of groups of "*". */
robots *robots_parse(const char *txt, size_t n, const char *agent)
{
    robots *mine = robots_all(1), *star = robots_all(1);
    if (!mine || !star) { robots_free(mine); robots_free(star); return NULL; }
    mine->all = star->all = -1;
    int matched_me = 0;
    if (n > ROBOTS_MAX_BYTES) n = ROBOTS_MAX_BYTES;
    if (n >= 3 && !memcmp(txt, "\xEF\xBB\xBF", 3)) { txt += 3; n -= 3; }
    const char *p = txt, *end = txt + n;
    int in_ua_run = 0;       /* the previous meaningful line was user-agent */
    int g_me = 0, g_star = 0; /* the current group applies to us / to "*" */
    int failed = 0;
    while (p < end && !failed) {
        const char *le = p;
        while (le < end && *le != '\n' && *le != '\r') le++;
        const char *s = p, *e = le;
        p = le < end && *le == '\r' && le + 1 < end && le[1] == '\n' ? le + 2 : le + 1;
        const char *hash = memchr(s, '#', (size_t)(e - s));
        if (hash) e = hash;
        while (s < e && (*s == ' ' || *s == '\t')) s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t')) e--;
        const char *colon = memchr(s, ':', (size_t)(e - s));
        if (!colon) continue;
        const char *ke = colon;
        while (ke > s && (ke[-1] == ' ' || ke[-1] == '\t')) ke--;
        const char *v = colon + 1;
        while (v < e && (*v == ' ' || *v == '\t')) v++;
        size_t kl = (size_t)(ke - s), vl = (size_t)(e - v);
        if (kl == 10 && !strncasecmp(s, "user-agent", 10)) {
            if (!in_ua_run) g_me = g_star = 0;
            in_ua_run = 1;
            if (vl >= 1 && v[0] == '*' && (vl == 1 || v[1] == ' ' || v[1] == '\t')) g_star = 1;
            else if (agent_matches(v, vl, agent)) { g_me = 1; matched_me = 1; }
            continue;
        }
        int allow = kl == 5 && !strncasecmp(s, "allow", 5);
        int disallow = kl == 8 && !strncasecmp(s, "disallow", 8);
        int delay = kl == 11 && !strncasecmp(s, "crawl-delay", 11);
        if (!allow && !disallow && !delay) continue; /* sitemap and other records end no group */
        in_ua_run = 0;
        if (delay) {
            char buf[32];
            size_t m = vl < sizeof buf - 1 ? vl : sizeof buf - 1;
            memcpy(buf, v, m);
            buf[m] = 0;
            char *ep;
            double d = strtod(buf, &ep);
            if (ep != buf && d > 0 && d < 1e6) {
                if (g_me) mine->delay = d;
                if (g_star) star->delay = d;
            }
            continue;
        }
        if (vl == 0) continue; /* an empty rule matches nothing */
        if (g_me && add_rule(mine, v, vl, allow)) failed = 1;
        if (g_star && add_rule(star, v, vl, allow)) failed = 1;
    }
    if (failed) { robots_free(mine); robots_free(star); return NULL; }
    if (matched_me) { robots_free(star); return mine; }
    robots_free(mine);
    return star;
}

/* Does pattern pat[0..pl) match a prefix of s (or the whole of s with a final '$')?
 * Greedy with backtracking to the last '*': O(len(s) * len(pat)) at worst. */
static int pattern_match(const char *pat, size_t pl, const char *s, size_t sl)
{
    int anchored = pl > 0 && pat[pl - 1] == '$';
    if (anchored) pl--;
    size_t i = 0, j = 0, star_i = (size_t)-1, star_j = 0;
    for (;;) {
        if (j == pl) {
            if (!anchored || i == sl) return 1;
        } else if (pat[j] == '*') {
            star_j = ++j;
            star_i = i;
            continue;
        } else if (i < sl && pat[j] == s[i]) {
            i++;
            j++;
            continue;
        }
        if (star_i == (size_t)-1 || star_i >= sl) return 0;
        i = ++star_i;
        j = star_j;
    }
}

int robots_allowed(const robots *r, const char *path)
{
    if (!r || r->all == 1) return 1;
    if (!path || !*path) path = "/";
    if (!strcmp(path, "/robots.txt")) return 1;
    if (r->all == 0) return 0;
    size_t sl = strlen(path), best = 0;
    int verdict = 1, any = 0;
    for (size_t i = 0; i < r->n; i++) {
        const rule *ru = &r->rules[i];
        if (!pattern_match(ru->pat, ru->len, path, sl)) continue;
        if (!any || ru->len > best || (ru->len == best && ru->allow)) {
            best = ru->len;
            verdict = ru->allow;
            any = 1;
        }
    }
    return verdict;
}

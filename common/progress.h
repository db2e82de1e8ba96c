/* progress.h - progress line on stderr: items, bytes, rate, ETA.
 *
 * Silent when stderr is not a terminal, when --quiet was given, or when the
 * environment has NO_PROGRESS set. Updates are cheap (a clock read every 4096
 * calls at most) and the line is redrawn at most 4 times a second.
 */
#ifndef COMMON_PROGRESS_H
#define COMMON_PROGRESS_H

#include <stdint.h>

typedef struct progress progress;

/* label: e.g. "shuffle"; unit: name of items, e.g. "lines"; total_bytes: 0 if
 * unknown (then no ETA). Returns NULL when silent; every call accepts NULL. */
progress *progress_new(const char *label, const char *unit, uint64_t total_bytes);
void progress_update(progress *p, uint64_t items, uint64_t bytes);
/* Change the phase label (e.g. "writing"), reset the rate clock and total. */
void progress_phase(progress *p, const char *label, uint64_t total_bytes);
/* Erase the line and free. */
void progress_done(progress *p);
/* Seconds since an arbitrary origin (monotonic). */
double progress_now(void);

#endif

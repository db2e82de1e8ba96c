/* pool.h - a small fixed-size thread pool (pthreads).
 *
 * pool_submit() queues a task; pool_wait() blocks until every queued task has
 * run. pool_parallel_for() splits [0, n) into chunks across the workers and
 * returns when all are done; the calling thread works too.
 */
#ifndef COMMON_POOL_H
#define COMMON_POOL_H

#include <stddef.h>

typedef struct pool pool;

/* n_threads <= 0: one per online CPU. Returns NULL on failure. */
pool *pool_new(int n_threads);
void pool_free(pool *p); /* waits for queued tasks; accepts NULL */
int pool_size(const pool *p);
int pool_submit(pool *p, void (*fn)(void *), void *arg); /* 0 or ERR_NOMEM */
void pool_wait(pool *p);
/* fn(i, ctx) for every i in [0, n). */
void pool_parallel_for(pool *p, size_t n, void (*fn)(size_t i, void *ctx), void *ctx);
int pool_cpu_count(void);

#endif

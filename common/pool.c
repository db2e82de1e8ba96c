/* pool.c - see pool.h. A mutex-protected FIFO of tasks. */
#include "pool.h"
#include "err.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct task {
    void (*fn)(void *);
    void *arg;
    struct task *next;
} task;

struct pool {
    pthread_t *threads;
    int n;
    pthread_mutex_t mu;
    pthread_cond_t has_work, idle;
    task *head, *tail;
    size_t pending; /* queued + running */
    int stop;
};

int pool_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void *worker(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->head && !p->stop) pthread_cond_wait(&p->has_work, &p->mu);
        if (!p->head && p->stop) break;
        task *t = p->head;
        p->head = t->next;
        if (!p->head) p->tail = NULL;
        pthread_mutex_unlock(&p->mu);
        t->fn(t->arg);
        free(t);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0) pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

pool *pool_new(int n)
{
    if (n <= 0) n = pool_cpu_count();
    pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->threads = calloc((size_t)n, sizeof *p->threads);
    if (!p->threads) { free(p); return NULL; }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->has_work, NULL);
    pthread_cond_init(&p->idle, NULL);
    for (int i = 0; i < n; i++) {
        if (pthread_create(&p->threads[i], NULL, worker, p) != 0) break;
        p->n++;
    }
    if (p->n == 0) { pool_free(p); return NULL; }
    return p;
}

void pool_free(pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->has_work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n; i++) pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->has_work);
    pthread_cond_destroy(&p->idle);
    free(p->threads);
    free(p);
}

int pool_size(const pool *p) { return p->n; }

int pool_submit(pool *p, void (*fn)(void *), void *arg)
{
    task *t = malloc(sizeof *t);
    if (!t) return err_set(ERR_NOMEM, "out of memory");
    t->fn = fn;
    t->arg = arg;
    t->next = NULL;
    pthread_mutex_lock(&p->mu);
    if (p->tail) p->tail->next = t;
    else p->head = t;
    p->tail = t;
    p->pending++;
    pthread_cond_signal(&p->has_work);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

void pool_wait(pool *p)
{
    pthread_mutex_lock(&p->mu);
    while (p->pending) pthread_cond_wait(&p->idle, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

typedef struct {
    size_t n, chunk;
    atomic_size_t next;
    void (*fn)(size_t, void *);
    void *ctx;
} pfor;

static void pfor_run(void *arg)
{
    pfor *f = arg;
    for (;;) {
        size_t lo = atomic_fetch_add(&f->next, f->chunk);
        if (lo >= f->n) return;
        size_t hi = lo + f->chunk < f->n ? lo + f->chunk : f->n;
        for (size_t i = lo; i < hi; i++) f->fn(i, f->ctx);
    }
}

void pool_parallel_for(pool *p, size_t n, void (*fn)(size_t i, void *ctx), void *ctx)
{
    pfor f = { .n = n, .fn = fn, .ctx = ctx };
    size_t workers = (size_t)(p ? p->n : 0) + 1;
    f.chunk = n / (workers * 8) + 1;
    atomic_init(&f.next, 0);
    size_t submitted = 0;
    for (int i = 0; p && i < p->n; i++)
        if (pool_submit(p, pfor_run, &f) == 0) submitted++;
    pfor_run(&f);
    if (submitted) pool_wait(p);
}

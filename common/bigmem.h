/* bigmem.h - a buffer of megabytes that is filled soon after it is made (a
 * tokenizer's hash tables, a batch of input lines): asked for in 2 MB pages where the
 * kernel allows (MADV_HUGEPAGE), so that filling it costs a few page faults instead
 * of hundreds. Freed with free(). */
#ifndef COMMON_BIGMEM_H
#define COMMON_BIGMEM_H

#include <stddef.h>

/* bytes of memory (zeroed when zero is set), or NULL; under 1 MiB a plain malloc/calloc */
void *big_alloc(size_t bytes, int zero);

/* The next `bytes` of the calling thread's malloc heap asked for in 2 MB pages where the
 * kernel allows: a block that size is allocated, advised (MADV_HUGEPAGE) and freed, so
 * that what malloc hands out from there is faulted in 2 MB at a time. For a batch tool
 * whose heap is kept (mallopt M_TRIM_THRESHOLD) and stays under glibc's mmap threshold
 * for blocks that size; a no-op where madvise cannot. */
void big_heap_huge(size_t bytes);

#endif

/* bigmem.h - a buffer of megabytes that is filled soon after it is made (a
 * tokenizer's hash tables, a batch of input lines): asked for in 2 MB pages where the
 * kernel allows (MADV_HUGEPAGE), so that filling it costs a few page faults instead
 * of hundreds. Freed with free(). */
#ifndef COMMON_BIGMEM_H
#define COMMON_BIGMEM_H

#include <stddef.h>

/* bytes of memory (zeroed when zero is set), or NULL; under 1 MiB a plain malloc/calloc */
void *big_alloc(size_t bytes, int zero);

#endif

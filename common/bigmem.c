/* bigmem.c - see bigmem.h. */
#include "common/bigmem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void *big_alloc(size_t bytes, int zero)
{
    if (bytes < (1u << 20)) return zero ? calloc(1, bytes) : malloc(bytes);
    void *p = NULL;
    if (posix_memalign(&p, 2u << 20, bytes)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    if (zero) memset(p, 0, bytes);
    return p;
}

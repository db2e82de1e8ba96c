/* bigmem.c - see bigmem.h. */
#include "common/bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20) /* the x86-64 kernel's transparent huge page */

void *big_alloc(size_t bytes, int zero)
{
    if (bytes < (1u << 20)) return zero ? calloc(1, bytes) : malloc(bytes);
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, bytes)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    if (zero) memset(p, 0, bytes);
    return p;
}

void big_heap_huge(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    /* in blocks of at most 16 MB (each under glibc's largest mmap threshold, so from the
     * heap), all held until the last is advised, then freed */
    enum { BLOCK = 16 << 20, MAXB = 64 };
    char *b[MAXB];
    int n = 0;
    while (bytes > 0 && n < MAXB) {
        size_t k = bytes < BLOCK ? bytes : BLOCK;
        char *p = malloc(k);
        if (!p) break;
        b[n++] = p;
        uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1),
                  hi = ((uintptr_t)p + k) & ~(uintptr_t)(HUGE_PAGE - 1);
        if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
        bytes -= k;
    }
    while (n > 0) free(b[--n]);
#else
    (void)bytes;
#endif
}

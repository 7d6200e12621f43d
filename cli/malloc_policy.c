/* malloc_policy.c — glibc's allocator kept from handing freed memory back
 * for the `coarsen` programs. Each level allocates its graph, its map and
 * the matcher's and contraction's temporaries afresh; with glibc's defaults
 * the blocks above the (dynamic) mmap threshold go back to the kernel when
 * freed and the next level's come back as new pages the kernel zeroes first
 * (clear_page was 13-31 % of the CPU backend's samples, perf on road-FLA).
 * Blocks up to 32 MiB (glibc's largest mmap threshold) now come from the
 * heap, and freed heap memory is never trimmed, so a level reuses the
 * previous level's pages: `coarsen --levels 10 --device cpu` on this 2-core
 * machine, medians of 7, road-FLA 300 -> 277 ms (docs/benchmarks.md). The
 * program returns its memory at exit; the library (libcoarsen, Python) keeps
 * its host's settings. A user's own settings (MALLOC_MMAP_THRESHOLD_,
 * MALLOC_TRIM_THRESHOLD_, GLIBC_TUNABLES) are kept. */
#include <limits.h>
#include <stdlib.h>

#ifdef __GLIBC__
#include <malloc.h>

__attribute__((constructor(101))) static void malloc_keep_memory(void)
{
    if (getenv("MALLOC_MMAP_THRESHOLD_") || getenv("MALLOC_TRIM_THRESHOLD_") || getenv("GLIBC_TUNABLES"))
        return;
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
}
#endif

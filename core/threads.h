/* threads.h — how many OpenMP threads a parallel region started here would
 * get: 1 inside a parallel region (nested regions are not used) or in a
 * build without OpenMP (the fuzz target), all of omp_get_max_threads()
 * otherwise. */
#ifndef CORE_THREADS_H
#define CORE_THREADS_H

#ifdef _OPENMP
#include <omp.h>
#endif

/* Below this many entries (or vertices) a loop runs on one thread: waking a
 * team costs more than the work (and much more on a busy machine). */
#define THREADS_PARALLEL_MIN 65536

static inline int threads_available(void)
{
#ifdef _OPENMP
    return omp_in_parallel() ? 1 : omp_get_max_threads();
#else
    return 1;
#endif
}

#endif

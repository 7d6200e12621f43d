/* threads.h — how many OpenMP threads a parallel region started here would
 * get: 1 inside a parallel region (nested regions are not used) or in a
 * build without OpenMP (the fuzz target), all of omp_get_max_threads()
 * otherwise; and how many a step of a given size is worth. */
#ifndef CORE_THREADS_H
#define CORE_THREADS_H

#include <stdint.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* Items (adjacency entries, vertices) per thread below which another thread
 * costs more in fork, join and barrier waits than it saves (and much more on
 * a busy machine); a loop over fewer than THREADS_PARALLEL_MIN items runs on
 * one thread. Results never depend on the thread count (every parallel
 * routine of the project guarantees it), only the time does. Measured on
 * the 16-core device host (docs/benchmarks.md, session 19, "THREADS_GRAIN"):
 * 16384 against 32768 took the levels of the mid-size shared graphs 5-20 %
 * shorter, idle and beside 8 busy loops; 8192 and 4096 lost beside the busy
 * loops, and full teams only from 65536 items on lost the gains on 4elt and
 * p2p-Gnutella06. The cost: an input of 3.3e4-6.5e4 entries now starts a
 * thread team, about 1 ms of wall on that host (polblogs 4.7 -> 5.6 ms). */
#define THREADS_GRAIN 16384
#define THREADS_PARALLEL_MIN (2 * THREADS_GRAIN)

static inline int threads_available(void)
{
#ifdef _OPENMP
    return omp_in_parallel() ? 1 : omp_get_max_threads();
#else
    return 1;
#endif
}

/* A parallel step over `work` items is worth one thread per THREADS_GRAIN
 * of them (at least one, at most threads_available()). */

static inline int threads_for(int64_t work)
{
    int most = threads_available();
    int64_t t = work / THREADS_GRAIN;
    return t < 1 ? 1 : t < most ? (int)t : most;
}

/* Limits the parallel regions that follow (on this thread) to
 * threads_for(work); returns the setting to give back to threads_restore. */
static inline int threads_limit(int64_t work)
{
#ifdef _OPENMP
    int before = omp_get_max_threads();
    omp_set_num_threads(threads_for(work));
    return before;
#else
    (void)work;
    return 1;
#endif
}

static inline void threads_restore(int before)
{
#ifdef _OPENMP
    omp_set_num_threads(before);
#else
    (void)before;
#endif
}

#endif

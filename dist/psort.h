/* psort.h — a sort of fixed-size records on a rank's OpenMP threads for the
 * steps of dist/ that sort what they received (HEC's candidates at their
 * leaders' owner, two-hop's candidates at their class's rank): runs sorted
 * by qsort on the threads, then merged pairwise, the merges of a round on
 * the threads. For a total order (the callers' orders end on a unique id)
 * the result is qsort's. */
#ifndef DIST_PSORT_H
#define DIST_PSORT_H

#include <mpi.h>
#include <stddef.h>

#include "coarsen.h"

/* a [in/out, host]: n records of size bytes, sorted by cmp in place.
 * Scratch of n records (dist_alloc: out of memory ends the run). */
void dist_sort(void *a, size_t n, size_t size, int (*cmp)(const void *, const void *), MPI_Comm comm,
               coarsen_error *err);

#endif

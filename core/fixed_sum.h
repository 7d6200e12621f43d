/* fixed_sum.h — a sum of doubles in one fixed order, so that the host and
 * the device get the same double bit for bit, whatever the thread or block
 * count: the values in chunks of FIXED_SUM_CHUNK, each chunk reduced by the
 * halving tree (x[t] = x[t] + x[t + s] for s = CHUNK/2, ..., 1; values past
 * the end count as 0.0), the chunk sums then added in chunk order on the
 * host. The device side is coarsen/graph_totals.cu's. */
#ifndef CORE_FIXED_SUM_H
#define CORE_FIXED_SUM_H

#include <stdint.h>

#define FIXED_SUM_CHUNK 2048

/* The host side of the tree: t[0..half) holds its first level; reduces it
 * in place by t[i] = t[i] + t[i + s] for s = half/2, ..., 1 and returns the
 * sum (matching/match_weight.c's chunks use it too; the device's is
 * device/halving_tree.cuh). */
static inline double fixed_sum_tree(double *t, int half)
{
    for (int s = half / 2; s > 0; s >>= 1)
        for (int i = 0; i < s; i++)
            t[i] = t[i] + t[i + s];
    return t[0];
}

#ifdef __cplusplus
extern "C" {
#endif

/* Number of chunks of n values. */
int64_t fixed_sum_chunks(int64_t n);
/* The chunk sums added in chunk order. */
double fixed_sum_of_chunks(const double *sums, int64_t chunks);
/* The whole sum of x[0..n) on the host (chunks on all OpenMP threads). */
double fixed_sum_cpu(const double *x, int64_t n);

#ifdef __cplusplus
}
#endif
#endif

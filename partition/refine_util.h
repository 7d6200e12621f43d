/* refine_util.h — host helpers shared by the CPU refinement steps of
 * partition/ (refine_cpu.c: rebalancing and label propagation; polish_fm.c:
 * the sequential FM polish). Internal to partition/. */
#ifndef PARTITION_REFINE_UTIL_H
#define PARTITION_REFINE_UTIL_H

#include <stdlib.h>

#include "coarsen.h"
#include "core/error.h"

/* Room for need elements in the growable array *a (capacity *cap elements
 * of size bytes), doubling it as often as needed. */
static inline int refine_reserve(void **a, size_t need, size_t *cap, size_t size, coarsen_error *err)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *grown = realloc(*a, c * size);
    if (!grown)
        return error_set(err, COARSEN_ERR_NOMEM, "out of memory (partition refinement, %zu entries)", c);
    *a = grown;
    *cap = c;
    return 0;
}

/* conn[p] (k entries, zero on entry and on return) gathers v's edge weight
 * per adjacent part in CSR order; *best receives the adjacent other part of
 * highest connectivity (ties: lowest id; -1 when none), and the function
 * returns conn[best] - conn[part[v]] (0 when none), *own_out (when not NULL)
 * receiving conn[part[v]]. Only parts p with weights[p] + vwgt[v] <= cap
 * count when weights is not NULL. touched: scratch, min(k, max degree)
 * entries (the distinct other parts around v). */
double partition_best_move(const coarsen_graph *g, const int32_t *part, int32_t v, double *conn, int32_t *touched,
                           int32_t *best, double *own_out, const int64_t *weights, int64_t cap);

/* Vertex v's term of partition_cut_fixed: its external edge weight (CSR
 * order) times scale = 2^shift, rounded to an integer. */
int64_t partition_vertex_cut_fixed(const coarsen_graph *g, const int32_t *part, int32_t v, double scale);

#endif

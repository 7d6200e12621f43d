/* match_weight.h — the total weight and size of a matching, summed in one
 * fixed order so the CPU and the GPU get the same double: vertex v
 * contributes the weight of (v, mate[v]) when mate[v] > v; contributions are
 * grouped in chunks of MATCH_WEIGHT_CHUNK vertices, each chunk is reduced by
 * the fixed halving tree (x[t] += x[t + s] for s = CHUNK/2 .. 1), and the
 * chunk sums are added in chunk order on the host. */
#ifndef MATCHING_MATCH_WEIGHT_H
#define MATCHING_MATCH_WEIGHT_H

#include <stdint.h>

#include "coarsen.h"
#include "core/hash.h" /* COARSEN_HD */
#include "core/row_find.h"

#define MATCH_WEIGHT_CHUNK 1024

/* Contribution of vertex v: the weight of (v, mate[v]) when mate[v] > v,
 * else 0 (also 0 for a non-edge). */
COARSEN_HD double match_weight_contrib(const int64_t *xadj, const int32_t *adj, const double *ewgt,
                                       const int32_t *mate, int32_t v)
{
    int32_t m = mate[v];
    int64_t e = m > v ? row_find(xadj, adj, v, m) : -1;
    return e >= 0 ? ewgt[e] : 0.0;
}

#ifdef __cplusplus
extern "C" {
#endif

/* Sum of chunk sums in chunk order. */
double match_weight_sum_chunks(const double *chunk_sums, int64_t nchunks);

/* Weight (fixed order above) and number of pairs of mate on a host graph. */
double match_weight_cpu(const coarsen_graph *g, const int32_t *mate, int64_t *pairs);

#ifdef __cplusplus
}
#endif
#endif

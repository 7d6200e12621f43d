/* remap.h — relabelling one partition's parts to agree with another's (the
 * remapping of repartitioning that minimises data migration): the label
 * permutation maximising the number of vertices whose labels agree, as the
 * maximum-weight assignment of the k x k overlap matrix (auction.h). */
#ifndef BIPARTITE_REMAP_H
#define BIPARTITE_REMAP_H

#include <stdint.h>

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bip_remap_result {
    int32_t k;              /* labels considered: 1 + the largest label of either partition */
    int64_t agree_before;   /* vertices with a[v] == b[v] */
    int64_t agree_after;    /* vertices with a[v] == out[v] */
    int proven_optimal;     /* the auction's duality certificate closed */
} bip_remap_result;

/* a and b: n labels in [0, 2^31) each. out (n entries, caller-allocated)
 * receives b relabelled by a permutation of 0..k-1 (parts of b keep their
 * vertices; only their names change). Runs the GPU auction when use_gpu.
 * k * k must stay below 2^28 (the overlap matrix is dense). */
int bip_remap(const int32_t *a, const int32_t *b, int64_t n, int use_gpu, int32_t *out, bip_remap_result *res,
              coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif

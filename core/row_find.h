/* row_find.h — the position of a neighbour in a sorted CSR row, by binary
 * search: one definition for host C code and CUDA kernels (graph checks,
 * readers, matchers, ROMA, contraction, bipartite graphs). */
#ifndef CORE_ROW_FIND_H
#define CORE_ROW_FIND_H

#include <stdint.h>

#include "core/hash.h" /* COARSEN_HD */

/* Index e in [ptr[u], ptr[u+1]) with ind[e] == v (ind sorted in that range),
 * or -1 when v is not there. The search halves the range without a branch
 * on the comparison (a select), so that unpredictable comparisons cost no
 * mispredictions: the first entry >= v lies in [lo, lo + len] throughout. */
COARSEN_HD int64_t row_find(const int64_t *ptr, const int32_t *ind, int32_t u, int32_t v)
{
    int64_t lo = ptr[u], len = ptr[u + 1] - lo;
    if (len <= 0)
        return -1;
    while (len > 1) {
        int64_t half = len / 2;
        lo = ind[lo + half - 1] < v ? lo + half : lo;
        len -= half;
    }
    lo += ind[lo] < v;
    return lo < ptr[u + 1] && ind[lo] == v ? lo : -1;
}

#endif

/* edge_order.h — the one total order on candidate edges that every matcher
 * uses, on the CPU and the GPU: a candidate (key, id) beats another when its
 * key is larger, ties going to the smaller id; id -1 means "no candidate" and
 * loses to everything. For a vertex v choosing among its edges (v,a) with key
 * = weight, "heavier, then smaller neighbour id" is exactly the edge order
 * "weight desc, smaller endpoint asc, larger endpoint asc" restricted to the
 * edges at v (v is common to both), which is why the handshake matching equals
 * the sequential greedy matching over that order. Also the weight-cap rule. */
#ifndef MATCHING_EDGE_ORDER_H
#define MATCHING_EDGE_ORDER_H

#include <stdint.h>

#include "core/hash.h" /* COARSEN_HD: host and device inline functions */

/* 1 when candidate (ka, a) beats (kb, b). Keys are never NaN. */
COARSEN_HD int edge_better(double ka, int32_t a, double kb, int32_t b)
{
    return a >= 0 && (b < 0 || ka > kb || (ka == kb && a < b));
}

/* 1 when the pair (u, v) with vertex weights wu, wv may be matched under the
 * cap (cap <= 0: no cap). */
COARSEN_HD int pair_eligible(int64_t cap, int64_t wu, int64_t wv)
{
    return cap <= 0 || wu + wv <= cap;
}

#endif

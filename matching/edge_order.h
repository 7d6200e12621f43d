/* edge_order.h — the one total order on candidate edges that every matcher
 * uses, on the CPU and the GPU: a candidate (key, id) beats another when its
 * key is larger, ties going to the smaller id; id -1 means "no candidate" and
 * loses to everything. For a vertex v choosing among its edges (v,a) with key
 * = weight, "heavier, then smaller neighbour id" is exactly the edge order
 * "weight desc, smaller endpoint asc, larger endpoint asc" restricted to the
 * edges at v (v is common to both), which is why the handshake matching equals
 * the sequential greedy matching over that order. Also the tie rule and the
 * weight-cap rule and the edge ratings. */
#ifndef MATCHING_EDGE_ORDER_H
#define MATCHING_EDGE_ORDER_H

#include <stdint.h>

#include "core/hash.h" /* COARSEN_HD: host and device inline functions */
#include "matching/matching.h"

/* How ties between equal keys are broken: by vertex id (default), or by a
 * seeded scramble of the ids (hashed = 1). Either way the order stays total,
 * so the handshake result is still the greedy matching over the order with
 * ids replaced by ranks; hashed ties avoid the long chains of passes that
 * "smaller id wins" builds on equal-weight graphs whose ids follow the
 * geometry (grids, meshes, road networks). */
typedef struct tie_rule {
    int hashed;
    uint64_t seed;
} tie_rule;

/* The tie rule of opts. */
COARSEN_HD tie_rule match_ties(const matching_opts *opts)
{
    tie_rule t = {opts->hashed_ties, opts->seed};
    return t;
}

/* The rank of vertex v under t: v itself, or a bijection of [0, 2^31)
 * (xor with a seeded constant, odd multipliers and xorshifts, each one
 * invertible on 31 bits), so distinct vertices get distinct ranks. */
COARSEN_HD int32_t tie_rank(tie_rule t, int32_t v)
{
    if (!t.hashed)
        return v;
    uint32_t x = ((uint32_t)v ^ (uint32_t)(hash_mix64(t.seed) >> 33)) & 0x7fffffffu;
    x = (x * 0x2c1b3c6du) & 0x7fffffffu;
    x ^= x >> 16;
    x = (x * 0x297a2d39u) & 0x7fffffffu;
    x ^= x >> 15;
    return (int32_t)x;
}

/* 1 when candidate (ka, a) beats (kb, b), both present: the larger key,
 * on equal keys the smaller rank (tie_rank). Keys are never NaN. */
COARSEN_HD int edge_beats(double ka, int32_t a, double kb, int32_t b)
{
    return ka > kb || (ka == kb && a < b);
}

/* edge_beats where a and b may be -1, meaning no candidate (spelt out, not
 * calling edge_beats: the GPU kernels' code for it stays as measured). */
COARSEN_HD int edge_better(double ka, int32_t a, double kb, int32_t b)
{
    return a >= 0 && (b < 0 || ka > kb || (ka == kb && a < b));
}

/* A vertex weight c as edge_rating's denominator takes it: at least 1, as a
 * double. */
COARSEN_HD double rating_factor(int64_t c)
{
    return (double)(c > 1 ? c : 1);
}

/* edge_rating with its endpoints' factors fu = rating_factor(cu) and fv =
 * rating_factor(cv) given: the same double, for a loop over one vertex's
 * edges that converts its own weight once. */
COARSEN_HD double edge_rating_factors(int r, double w, double fu, double fv)
{
    if (r == MATCH_RATING_WEIGHT)
        return w;
    return (r == MATCH_RATING_EXPANSION ? w : w * w) / (fu * fv);
}

/* The key of edge {u, v} of weight w for rating r (matching.h), vertex
 * weights cu, cv taken as at least 1 (no division by 0). Symmetric bit for
 * bit in (cu, cv), since IEEE multiplication commutes: both endpoints rate an
 * edge alike, so the order above stays a total order on edges. Host and
 * device compute the same double (no contraction into an FMA is possible). */
COARSEN_HD double edge_rating(int r, double w, int64_t cu, int64_t cv)
{
    return edge_rating_factors(r, w, rating_factor(cu), rating_factor(cv));
}

/* 1 when the pair (u, v) with vertex weights wu, wv may be matched under the
 * cap (cap <= 0: no cap). */
COARSEN_HD int pair_eligible(int64_t cap, int64_t wu, int64_t wv)
{
    return cap <= 0 || wu + wv <= cap;
}

#endif

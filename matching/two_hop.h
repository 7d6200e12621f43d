/* two_hop.h — two-hop matching: pairs vertices that the normal matcher left
 * unmatched and that are two hops apart (or have no neighbour at all), for
 * graphs whose matchings stall (stars, power-law graphs, isolated vertices).
 * The pipeline decides when to call it (e.g. when more than 10-25% of the
 * vertices are unmatched).
 *
 * Pairs added here are NOT edges: a leaf pair shares its single neighbour,
 * a twin pair has identical neighbour lists, a relative pair shares a
 * neighbour, an island pair has no neighbours. A mate[] extended by
 * two_hop_* is symmetric but its pairs may be non-adjacent, so a check of
 * such a mate[] must accept them; contraction (contract/contract.h) does.
 *
 * Rules, applied in this order to the vertices with mate[v] = -1 only
 * (matched vertices are never changed), every pair under the weight cap
 * (max_vertex_weight > 0: vwgt[u] + vwgt[v] <= max_vertex_weight; 0 = none):
 *  (0) islands: the unmatched vertices of degree 0, in increasing id
 *      i_0 < i_1 < ..., are paired position by position: (i_0, i_1),
 *      (i_2, i_3), ..., each pair only when the cap allows it;
 *  (1) leaves: unmatched vertices of degree 1 are grouped by their neighbour;
 *  (2) twins: unmatched vertices of degree >= 2 are grouped by their full
 *      neighbour list (equal degree and equal sorted lists, compared entry by
 *      entry; candidates are found through a 64-bit hash of the list, and in
 *      the unlikely case of a hash collision between different lists, twins
 *      separated in (degree, hash, id) order by another list are not paired);
 *  (3) relatives, only when after (0)-(2) more than relatives_threshold of
 *      the graph's vertices are unmatched: every vertex still unmatched with
 *      degree >= 1 names its hub, its heaviest neighbour (ties to the smaller
 *      id; matched or not), and vertices are grouped by hub (any degree:
 *      METIS's 2HopAny, kokkos-kernels' relatives).
 * Within each group of (1)-(3), members are visited in increasing id and
 * paired greedily (two_hop_pair_step): a pending vertex is paired with the
 * next member when the cap allows, otherwise the lighter of the two (the
 * pending one on ties) stays pending. CPU and GPU give identical mates. */
#ifndef MATCHING_TWO_HOP_H
#define MATCHING_TWO_HOP_H

#include "coarsen.h"
#include "core/hash.h"
#include "matching/edge_order.h"

/* Both backends: a neighbour list's hash is the sum (mod 2^64, so in any
 * order) of two_hop_term over its entries; candidates are ordered by
 * (degree, hash, id). */
COARSEN_HD uint64_t two_hop_term(int32_t v)
{
    return hash_mix64(0x74776f2d686f70ULL ^ (uint64_t)(uint32_t)v);
}

/* The greedy rule of one group, both backends: *pending (-1: none) meets the
 * next member v. Returns 1 when *pending and v are to be paired (the caller
 * pairs them and sets *pending = -1); otherwise *pending becomes v when
 * there was none or v is lighter, and 0 is returned. */
COARSEN_HD int two_hop_pair_step(int64_t cap, const int64_t *vwgt, int32_t *pending, int32_t v)
{
    if (*pending < 0) {
        *pending = v;
        return 0;
    }
    if (pair_eligible(cap, vwgt[*pending], vwgt[v]))
        return 1;
    if (vwgt[v] < vwgt[*pending])
        *pending = v;
    return 0;
}

#ifdef __cplusplus
extern "C" {
#endif

typedef struct two_hop_opts {
    int64_t max_vertex_weight;  /* > 0: cap on every pair's weight; 0: none */
    double relatives_threshold; /* rule (3) runs when more than this fraction of the vertices is still
                                   unmatched after rules (0)-(2); > 1 never */
} two_hop_opts;

typedef struct two_hop_stats {
    int64_t leaf_pairs;     /* pairs added by rule (1) */
    int64_t twin_pairs;     /* pairs added by rule (2) */
    int64_t relative_pairs; /* pairs added by rule (3) */
    int64_t island_pairs;   /* pairs added by rule (0) */
    int64_t cap_blocked;    /* vertices unmatched at the end with an unmatched neighbour: when the matching
                               was maximal under the cap, only the cap keeps each of them alone */
    double ms;              /* wall time */
} two_hop_stats;

/* Host version: g a host graph, mate (g->n entries, a valid symmetric
 * matching or -1) extended in place. stats may be NULL. */
int two_hop_cpu(const coarsen_graph *g, const two_hop_opts *opts, int32_t *mate, two_hop_stats *stats,
                coarsen_error *err);
/* Device version: g a device graph, d_mate a device array of g->n entries,
 * extended in place. Only counts cross to the host. */
int two_hop_gpu(const coarsen_graph *g, const two_hop_opts *opts, int32_t *d_mate, two_hop_stats *stats,
                coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* two_hop.h — leaf and twin matching: pairs vertices that the normal matcher
 * left unmatched and that are two hops apart, for graphs whose matchings
 * stall (stars, power-law graphs). The pipeline decides when to call it
 * (e.g. when more than 10-25% of the vertices are unmatched).
 *
 * Pairs added here are NOT edges: a leaf pair shares its single neighbour,
 * a twin pair has identical neighbour lists. A mate[] extended by two_hop_*
 * is symmetric but its pairs may be non-adjacent (at distance 2), so a check
 * of such a mate[] must accept non-edge pairs that share a neighbour;
 * contraction (contract/contract.h) accepts them.
 *
 * Rules, applied to the vertices with mate[v] = -1 only (matched vertices
 * are never changed):
 *  (1) leaves: unmatched vertices of degree 1 are grouped by their neighbour;
 *  (2) twins: unmatched vertices of degree >= 2 are grouped by their full
 *      neighbour list (equal degree and equal sorted lists, compared entry by
 *      entry; candidates are found through a 64-bit hash of the list, and in
 *      the unlikely case of a hash collision between different lists, twins
 *      separated in (degree, hash, id) order by another list are not paired).
 * Within each group, members are visited in increasing id and paired
 * greedily: a pending vertex is paired with the next member when their
 * weight sum respects the cap (max_vertex_weight > 0: vwgt[u] + vwgt[v] <=
 * max_vertex_weight; 0 = no cap), otherwise the lighter of the two (the
 * pending one on ties) stays pending. CPU and GPU give identical mates. */
#ifndef MATCHING_TWO_HOP_H
#define MATCHING_TWO_HOP_H

#include "coarsen.h"
#include "core/hash.h"

/* Both backends: a neighbour list's hash is the sum (mod 2^64, so in any
 * order) of two_hop_term over its entries; candidates are ordered by
 * (degree, hash, id). */
COARSEN_HD uint64_t two_hop_term(int32_t v)
{
    return hash_mix64(0x74776f2d686f70ULL ^ (uint64_t)(uint32_t)v);
}

#ifdef __cplusplus
extern "C" {
#endif

typedef struct two_hop_stats {
    int64_t leaf_pairs;  /* pairs added by rule (1) */
    int64_t twin_pairs;  /* pairs added by rule (2) */
    double ms;           /* wall time */
} two_hop_stats;

/* Host version: g a host graph, mate (g->n entries, a valid symmetric
 * matching or -1) extended in place. stats may be NULL. */
int two_hop_cpu(const coarsen_graph *g, int64_t max_vertex_weight, int32_t *mate, two_hop_stats *stats,
                coarsen_error *err);
/* Device version: g a device graph, d_mate a device array of g->n entries,
 * extended in place. Only the two pair counts cross to the host. */
int two_hop_gpu(const coarsen_graph *g, int64_t max_vertex_weight, int32_t *d_mate, two_hop_stats *stats,
                coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif

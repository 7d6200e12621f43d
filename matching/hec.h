/* hec.h — heavy-edge clustering (after kokkos-kernels' HECv1): every vertex
 * joins the group of its best rated neighbour, so one level can merge a hub
 * with all its satellites where a matching merges pairs only. The result is
 * a map onto groups (any size), for contract_cpu / contract_gpu.
 *
 * The rule, deterministic and identical on CPU and GPU for any thread or
 * block count:
 *  1. choice: h[v] = v's best eligible neighbour: the largest
 *     edge_rating(opts->rating, w, c(v), c(u)) over neighbours u with
 *     pair_eligible(cap, c(v), c(u)), ties to the smaller tie_rank under
 *     opts' tie rule (edge_order.h); -1 when none. Since the ratings are
 *     symmetric and the order total, the pointers v -> h[v] form trees whose
 *     only cycles are mutual pairs h[h[v]] = v;
 *  2. roots: a mutual pair is a group led by its smaller id; a vertex with
 *     h[v] = -1 is a group of its own;
 *  3. rounds: the vertices not yet in a group whose choice is in one
 *     (the candidates) are sorted by (the choice's group leader, rating of
 *     the edge to the choice descending, id); in each leader's run a longest
 *     prefix is admitted, as long as the group's weight plus the run's
 *     weights so far stays within the cap (cap <= 0: all); the others start
 *     groups of their own (their own candidates may join them next round).
 *     Rounds repeat until every vertex is in a group (at most the depth of
 *     the deepest tree);
 *  4. the vertices left alone by steps 1-3 (in a group of one; every
 *     island, a vertex of degree 0, is one):
 *     (a) islands: the j-th island (in increasing id) joins the j-th group
 *     of two or more (in increasing leader id) when the group's weight plus
 *     its own stays within the cap. An island has no edge to keep apart,
 *     so it rides along with a group, as METIS matches an island with any
 *     unmatched vertex; paired only among themselves, islands halved per
 *     level and stayed: 9 of the 20 vertices polblogs (266 islands) ended
 *     with at METIS's level count were isolated (docs/benchmarks.md,
 *     session 15);
 *     (b) two-hop: the vertices still alone are paired by two-hop's rules
 *     (matching/two_hop.h) as if they were the unmatched vertices of a
 *     matching: (0) islands by position, (1) leaves by neighbour, (2)
 *     twins, and (3) relatives by hub when more than
 *     opts->relatives_threshold of the vertices are still alone; each pair,
 *     under the cap, is a group led by its smaller id. A hub's satellites
 *     that its group had no room for pair up here, so a star still shrinks
 *     by about half once its centre is full;
 *  5. numbering: coarse ids in increasing order of the group leaders.
 * The cap is opts->max_vertex_weight (> 0), so no group of two or more
 * weighs more; max_passes, p and the GPU shape fields are ignored. */
#ifndef MATCHING_HEC_H
#define MATCHING_HEC_H

#include "coarsen.h"
#include "matching/matching.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hec_stats {
    int rounds;            /* joining rounds of step 3 */
    int64_t grouped;       /* vertices of degree >= 1 in a group of two or more (step 4's pairs too) */
    int64_t island_pairs;  /* islands merged by step 4: joined to groups (4a) or paired (two-hop's (0)), */
    int64_t leaf_pairs;    /* pairs made by step 4's two-hop: (1) leaves, */
    int64_t twin_pairs;    /* (2) twins, */
    int64_t relative_pairs; /* (3) relatives */
    int64_t cap_blocked;   /* vertices with a neighbour left in a group of their own after step 4: with
                              no cap there are none (every such vertex has a choice and joins a group) */
    double ms;             /* wall time */
} hec_stats;

/* Host version: g a host graph; cmap (g->n entries, host) receives the map,
 * *nc the number of groups. Parallel with OpenMP; the result does not depend
 * on the thread count. stats may be NULL. */
int hec_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *cmap, int32_t *nc, hec_stats *stats,
            coarsen_error *err);
/* Device version: g a device graph, d_cmap a device array of g->n entries;
 * map, *nc and stats (but ms) identical to hec_cpu's. Only counts cross to
 * the host. */
int hec_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_cmap, int32_t *nc, hec_stats *stats,
            coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif

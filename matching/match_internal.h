/* match_internal.h — what the CPU matchers share inside matching/: the
 * per-vertex neighbour choice and the entry points match_cpu dispatches to.
 * Host C only. */
#ifndef MATCHING_MATCH_INTERNAL_H
#define MATCHING_MATCH_INTERNAL_H

#include "matching/matching.h"

/* The heaviest eligible neighbour of v (ties to the smaller id) among those
 * with mate[u] == -1 (every neighbour when mate is NULL), or -1. */
int32_t match_best_neighbour_cpu(const coarsen_graph *g, int32_t v, const int32_t *mate, int64_t cap);

/* strongest[v] = match_best_neighbour_cpu(g, v, NULL, cap) for every v. */
void match_strongest_cpu(const coarsen_graph *g, int64_t cap, int32_t *strongest);

/* The matchers; mate has n entries, stats is filled but for weight,
 * matched_edges and ms (match_cpu fills those). */
int handshake_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
                  matching_stats *stats, coarsen_error *err);
int redblue_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
                matching_stats *stats, coarsen_error *err);

/* Keeps the vertices v of act[0..*count) with mate[v] == -1 and alive[v],
 * in order (serial; the pass's parallel work dominates). */
void match_compact_active(int32_t *act, int64_t *count, const int32_t *mate, const uint8_t *alive);

#endif

/* match_internal.h — what the CPU matchers share inside matching/: the
 * per-vertex neighbour choice and the entry points match_cpu dispatches to.
 * Host C only. */
#ifndef MATCHING_MATCH_INTERNAL_H
#define MATCHING_MATCH_INTERNAL_H

#include "matching/edge_order.h"
#include "matching/matching.h"

/* The heaviest vertex weight of g (0 when empty). */
int64_t match_max_vertex_weight_cpu(const coarsen_graph *g);

/* The best rated eligible neighbour of v (edge_rating under opts->rating,
 * ties to the smaller rank, see edge_order.h) among those with mate[u] == -1
 * (every neighbour when mate is NULL), or -1; its rating into *key when key
 * is not NULL (0 when there is none). max_vwgt: at least the heaviest vertex
 * weight of g (the cap is not tested when even that one fits). */
int32_t match_best_neighbour_cpu(const coarsen_graph *g, int32_t v, const int32_t *mate, const matching_opts *opts,
                                 int64_t max_vwgt, double *key);

/* strongest[v] = match_best_neighbour_cpu(g, v, NULL, opts, ...) for every
 * v [out, n entries], and its rating into key[v] [out, n entries] when key
 * is not NULL. */
void match_strongest_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *strongest, double *key);

/* The matchers; mate has n entries, stats is filled but for weight,
 * matched_edges and ms (match_cpu fills those). */
int handshake_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
                  matching_stats *stats, coarsen_error *err);
int redblue_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
                matching_stats *stats, coarsen_error *err);

/* The working arrays of a host matcher: per vertex a pointer/proposal and a
 * live flag, and the active list act[0..count). */
typedef struct match_work {
    int32_t *choice;
    int32_t *act;
    uint8_t *alive;
    int64_t count;
} match_work;

/* Allocates w for n vertices: mate[v] = -1, choice[v] = -1, every vertex
 * active. On failure nothing stays allocated. */
int match_work_init(match_work *w, int32_t n, int32_t *mate, coarsen_error *err);
void match_work_free(match_work *w);

/* Ends a pass that matched `matched` vertices: keeps the active vertices v
 * with mate[v] == -1 and alive[v], in order (serial; the pass's parallel work
 * dominates), then counts the pass and, after the first, sets
 * first_round_fraction. */
void match_work_end_pass(match_work *w, const int32_t *mate, int64_t matched, int32_t n, matching_stats *stats);

#endif

/* handshake_cpu.c — the handshake matcher on the host: every active vertex
 * points at its heaviest eligible unmatched neighbour (edge_order.h), mutual
 * pointers match, vertices left with no such neighbour retire for good; the
 * active list shrinks every pass. Each pass matches the locally dominant
 * edges of the remaining graph (at least its heaviest edge), so the result
 * is the greedy matching over the edge order and at most n/2 + 1 passes run. */
#include "matching/match_internal.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

int handshake_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
                  matching_stats *stats, coarsen_error *err)
{
    int32_t n = g->n;
    int32_t *ptr = xmalloc((size_t)n * sizeof *ptr, "handshake pointers", err);
    int32_t *act = ptr ? xmalloc((size_t)n * sizeof *act, "handshake active list", err) : NULL;
    uint8_t *alive = act ? xmalloc((size_t)n, "handshake live flags", err) : NULL;
    if (!alive) {
        free(ptr), free(act);
        return COARSEN_ERR_NOMEM;
    }
    for (int32_t v = 0; v < n; v++)
        mate[v] = -1, act[v] = v;
    int64_t count = n;
    const int64_t cap = opts->max_vertex_weight;
    while (count > 0 && (opts->max_passes == 0 || stats->passes < opts->max_passes)) {
#pragma omp parallel for schedule(dynamic, 256)
        for (int64_t i = 0; i < count; i++) {
            int32_t v = act[i];
            ptr[v] = match_best_neighbour_cpu(g, v, mate, cap);
            alive[v] = ptr[v] >= 0;
        }
        if (stats->passes == 0 && strongest)
            memcpy(strongest, ptr, (size_t)n * sizeof *ptr); /* pass 1: every vertex active, none matched */
        int64_t matched = 0;
#pragma omp parallel for reduction(+ : matched)
        for (int64_t i = 0; i < count; i++) {
            int32_t v = act[i], p = ptr[v];
            if (p >= 0 && ptr[p] == v) {
                mate[v] = p;
                matched++;
            }
        }
        if (stats->passes++ == 0)
            stats->first_round_fraction = n ? (double)matched / n : 0.0;
        match_compact_active(act, &count, mate, alive);
    }
    stats->maximal = count == 0;
    free(ptr), free(act), free(alive);
    return COARSEN_OK;
}

/* handshake_cpu.c — the handshake matcher on the host: every active vertex
 * points at its heaviest eligible unmatched neighbour (edge_order.h), mutual
 * pointers match, vertices left with no such neighbour retire for good; the
 * active list shrinks every pass. Each pass matches the locally dominant
 * edges of the remaining graph (at least its heaviest edge), so the result
 * is the greedy matching over the edge order and at most n/2 + 1 passes run.
 * A vertex whose pointer still names an unmatched vertex keeps it without a
 * new scan: its candidates only ever lose members, and the best one is still
 * among them. */
#include "matching/match_internal.h"
#include <string.h>

int handshake_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
                  matching_stats *stats, coarsen_error *err)
{
    const int32_t n = g->n;
    match_work w;
    int rc = match_work_init(&w, n, mate, err);
    if (rc)
        return rc;
    int32_t *ptr = w.choice;
    const int64_t max_vwgt = match_max_vertex_weight_cpu(g);
    while (w.count > 0 && (opts->max_passes == 0 || stats->passes < opts->max_passes)) {
#pragma omp parallel for schedule(dynamic, 256) if (w.count > 4096)
        for (int64_t i = 0; i < w.count; i++) {
            int32_t v = w.act[i];
            if (ptr[v] >= 0 && mate[ptr[v]] < 0) /* still the best (an active v is alive) */
                continue;
            ptr[v] = match_best_neighbour_cpu(g, v, mate, opts, max_vwgt, NULL);
            w.alive[v] = ptr[v] >= 0;
        }
        if (stats->passes == 0 && strongest)
            memcpy(strongest, ptr, (size_t)n * sizeof *ptr); /* pass 1: every vertex active, none matched */
        int64_t matched = 0;
#pragma omp parallel for reduction(+ : matched) if (w.count > 4096)
        for (int64_t i = 0; i < w.count; i++) {
            int32_t v = w.act[i], p = ptr[v];
            if (p >= 0 && ptr[p] == v) {
                mate[v] = p;
                matched++;
            }
        }
        match_work_end_pass(&w, mate, matched, n, stats);
    }
    stats->maximal = w.count == 0;
    match_work_free(&w);
    return COARSEN_OK;
}

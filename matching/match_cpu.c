/* match_cpu.c — match_cpu: option checks, dispatch to the host matchers,
 * timing and the fixed-order weight; plus the pieces both host matchers
 * share (neighbour choice, active-list compaction). */
#include "matching/match_internal.h"
#include "matching/edge_order.h"
#include "matching/match_weight.h"
#include "core/error.h"
#include "core/timer.h"

#include <string.h>

int32_t match_best_neighbour_cpu(const coarsen_graph *g, int32_t v, const int32_t *mate, int64_t cap)
{
    int32_t best = -1;
    double best_w = 0.0;
    int64_t vw = g->vwgt[v];
    for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
        int32_t u = g->adj[e];
        if ((mate && mate[u] >= 0) || !pair_eligible(cap, vw, g->vwgt[u]))
            continue;
        if (edge_better(g->ewgt[e], u, best_w, best))
            best = u, best_w = g->ewgt[e];
    }
    return best;
}

void match_strongest_cpu(const coarsen_graph *g, int64_t cap, int32_t *strongest)
{
#pragma omp parallel for schedule(dynamic, 1024)
    for (int32_t v = 0; v < g->n; v++)
        strongest[v] = match_best_neighbour_cpu(g, v, NULL, cap);
}

void match_compact_active(int32_t *act, int64_t *count, const int32_t *mate, const uint8_t *alive)
{
    int64_t k = 0;
    for (int64_t i = 0; i < *count; i++) {
        int32_t v = act[i];
        if (mate[v] < 0 && alive[v])
            act[k++] = v;
    }
    *count = k;
}

int match_cpu(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
              matching_stats *stats, coarsen_error *err)
{
    if (g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "match_cpu needs a host graph");
    int rc = matching_opts_check(opts, err);
    if (rc)
        return rc;
    memset(stats, 0, sizeof *stats);
    double t0 = timer_ms();
    rc = opts->kind == MATCHER_HANDSHAKE ? handshake_cpu(g, opts, mate, strongest, stats, err)
                                         : redblue_cpu(g, opts, mate, strongest, stats, err);
    if (rc)
        return rc;
    stats->ms = timer_ms() - t0;
    stats->weight = match_weight_cpu(g, mate, &stats->matched_edges);
    return COARSEN_OK;
}

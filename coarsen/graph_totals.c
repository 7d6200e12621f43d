/* graph_totals.c — host computation of a graph's weight totals (graph_totals.h). */
#include "coarsen/graph_totals.h"

#include "core/fixed_sum.h"
#include "core/threads.h"

int graph_totals_cpu(const coarsen_graph *g, graph_totals *t, coarsen_error *err)
{
    (void)err;
    int64_t vsum = 0, vmax = 0;
    double esum = 0;
#pragma omp parallel for schedule(static) reduction(+ : vsum) reduction(max : vmax) if (g->n >= THREADS_PARALLEL_MIN)
    for (int32_t v = 0; v < g->n; v++) {
        vsum += g->vwgt[v];
        if (g->vwgt[v] > vmax)
            vmax = g->vwgt[v];
    }
    esum = fixed_sum_cpu(g->ewgt, g->nnz); /* the device's order (graph_totals.h) */
    t->vertex_weight = vsum;
    t->max_vertex_weight = vmax;
    t->edge_weight = esum / 2;
    return COARSEN_OK;
}

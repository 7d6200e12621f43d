/* graph_totals.c — host computation of a graph's weight totals (graph_totals.h).
 * The edge weights are summed in fixed blocks of TOTALS_BLOCK entries, each
 * block in order and then the block sums in order, so the total is the same
 * double for any thread count. */
#include "coarsen/graph_totals.h"

#include <stdlib.h>

#include "core/error.h"
#include "core/threads.h"

#define TOTALS_BLOCK 16384

int graph_totals_cpu(const coarsen_graph *g, graph_totals *t, coarsen_error *err)
{
    int64_t nb = (g->nnz + TOTALS_BLOCK - 1) / TOTALS_BLOCK;
    double *block = xmalloc(((size_t)nb + 1) * sizeof *block, "edge weight sums", err);
    if (!block)
        return COARSEN_ERR_NOMEM;
    int64_t vsum = 0, vmax = 0;
#pragma omp parallel for schedule(static) reduction(+ : vsum) reduction(max : vmax) if (g->n >= THREADS_PARALLEL_MIN)
    for (int32_t v = 0; v < g->n; v++) {
        vsum += g->vwgt[v];
        if (g->vwgt[v] > vmax)
            vmax = g->vwgt[v];
    }
#pragma omp parallel for schedule(static) if (g->nnz >= THREADS_PARALLEL_MIN)
    for (int64_t b = 0; b < nb; b++) {
        int64_t end = (b + 1) * TOTALS_BLOCK < g->nnz ? (b + 1) * TOTALS_BLOCK : g->nnz;
        double s = 0;
        for (int64_t e = b * TOTALS_BLOCK; e < end; e++)
            s += g->ewgt[e];
        block[b] = s;
    }
    double esum = 0;
    for (int64_t b = 0; b < nb; b++)
        esum += block[b];
    free(block);
    t->vertex_weight = vsum;
    t->max_vertex_weight = vmax;
    t->edge_weight = esum / 2;
    return COARSEN_OK;
}

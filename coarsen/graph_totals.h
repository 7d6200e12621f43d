/* graph_totals.h — the per-level figures of a graph that the hierarchy
 * records (total and maximum vertex weight, total edge weight), computed
 * where the graph lives: on the host, or on the device with only the
 * results crossing to the host. The edge weight total is summed in the fixed
 * order of core/fixed_sum.h on both, so that they agree bit for bit. */
#ifndef COARSEN_GRAPH_TOTALS_H
#define COARSEN_GRAPH_TOTALS_H

#include "coarsen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct graph_totals {
    int64_t vertex_weight;      /* sum of vwgt */
    int64_t max_vertex_weight;  /* max of vwgt (0 for an empty graph) */
    double edge_weight;         /* sum of ewgt over undirected edges (half the entries' sum) */
} graph_totals;

/* g on the host (on_device = 0). */
int graph_totals_cpu(const coarsen_graph *g, graph_totals *t, coarsen_error *err);
/* g on the device (on_device = 1). */
int graph_totals_gpu(const coarsen_graph *g, graph_totals *t, coarsen_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* throwaway (not committed): times the V-cycle's host inner-graph build
 * (the loop of partition/vcycle.c) on a real partition of FILE at k. */
#include <stdio.h>
#include <stdlib.h>
#include "core/timer.h"
#include "partition/partition.h"
static coarsen_graph *inner_graph(const coarsen_graph *g, const int32_t *part, coarsen_error *err)
{
    int64_t nnz = 0;
    for (int32_t v = 0; v < g->n; v++)
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
            nnz += part[g->adj[i]] == part[v];
    coarsen_graph *h = coarsen_graph_alloc(g->n, nnz, err);
    if (!h)
        return NULL;
    int64_t e = 0;
    for (int32_t v = 0; v < g->n; v++) {
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
            if (part[g->adj[i]] == part[v]) {
                h->adj[e] = g->adj[i];
                h->ewgt[e++] = g->ewgt[i];
            }
        h->xadj[v + 1] = e;
        h->vwgt[v] = g->vwgt[v];
    }
    h->integral_weights = g->integral_weights;
    return h;
}
int main(int argc, char **argv)
{
    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    if (argc < 3 || coarsen_graph_load(argv[1], &g, NULL, &err)) { fprintf(stderr, "load: %s\n", err.msg); return 1; }
    partition_opts o; partition_opts_default(&o); o.k = atoi(argv[2]); o.vcycles = 0;
    o.hierarchy.device = COARSEN_DEVICE_GPU;
    int32_t *part = malloc((size_t)g->n * sizeof *part);
    partition_result r;
    if (partition_multilevel(g, &o, part, &r, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    for (int t = 0; t < 5; t++) {
        double t0 = timer_ms();
        coarsen_graph *h = inner_graph(g, part, &err);
        double t1 = timer_ms();
        printf("%s k=%s n=%d nnz=%lld inner nnz=%lld inner_ms=%.3f\n", argv[1], argv[2], g->n, (long long)g->nnz,
               (long long)h->nnz, t1 - t0);
        coarsen_graph_free(h);
    }
    return 0;
}

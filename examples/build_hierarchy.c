/* build_hierarchy.c — builds a coarsening hierarchy through the public API
 * (include/coarsen.h) only, and prints its levels.
 *
 *   build_hierarchy [FILE]   the graph in FILE, or a 300 x 300 grid built here
 *
 * Shows: loading (or building a CSR graph by hand), options, the hierarchy,
 * per-level statistics, each level's graph, and following one vertex down
 * the maps. */
#include <stdio.h>
#include <stdlib.h>

#include "coarsen.h"

/* An nx * ny 4-neighbour grid with unit weights, built directly in CSR. */
static coarsen_graph *grid(int32_t nx, int32_t ny, coarsen_error *err)
{
    int64_t n = (int64_t)nx * ny, nnz = 2 * ((int64_t)(nx - 1) * ny + (int64_t)nx * (ny - 1));
    coarsen_graph *g = coarsen_graph_alloc((int32_t)n, nnz, err);
    if (!g)
        return NULL;
    int64_t e = 0;
    for (int32_t y = 0; y < ny; y++)
        for (int32_t x = 0; x < nx; x++) {
            int32_t v = y * nx + x;
            /* neighbours in increasing id: up, left, right, down */
            if (y > 0)
                g->adj[e++] = v - nx;
            if (x > 0)
                g->adj[e++] = v - 1;
            if (x < nx - 1)
                g->adj[e++] = v + 1;
            if (y < ny - 1)
                g->adj[e++] = v + nx;
            g->xadj[v + 1] = e;
            g->vwgt[v] = 1;
        }
    for (e = 0; e < nnz; e++)
        g->ewgt[e] = 1;
    return g;
}

/* Prints h's levels and follows vertex 0 of g (level 0) down the maps;
 * 0, or a coarsen_status with err set. */
static int report(coarsen_hierarchy *h, const coarsen_graph *g, coarsen_error *err)
{
    int levels = coarsen_hierarchy_levels(h);
    printf("%d levels on the %s, stopped by rule '%s', %.2f ms\n", levels,
           coarsen_hierarchy_on_gpu(h) ? "GPU" : "CPU", coarsen_stop_reason_name(coarsen_hierarchy_stop_reason(h)),
           coarsen_hierarchy_total_ms(h));
    printf("level  vertices     edges  vertex weight  max vertex weight  two-hop pairs\n");
    for (int k = 0; k <= levels; k++) {
        const coarsen_level_stats *s = coarsen_hierarchy_stats(h, k);
        const coarsen_graph *level; /* owned by h: not freed here */
        int rc = coarsen_hierarchy_graph(h, k, &level, err);
        if (rc)
            return rc;
        printf("%5d %9d %9lld %14lld %18lld %14lld\n", k, level->n, (long long)(level->nnz / 2),
               (long long)s->total_vertex_weight, (long long)s->max_vertex_weight,
               (long long)(s->leaf_pairs + s->twin_pairs));
    }

    /* Follow vertex 0 of the input down to the coarsest level. */
    int32_t v = 0;
    printf("vertex 0 of level 0");
    for (int k = 1; k <= levels && g->n > 0; k++) {
        const int32_t *map; /* owned by h */
        int rc = coarsen_hierarchy_map(h, k, &map, err);
        if (rc)
            return rc;
        v = map[v];
        printf(" -> %d", v);
    }
    printf(" of level %d\n", levels);
    return 0;
}

/* Also a C++ program: the header and this file compile as C++ too (make check). */
int main(int argc, char **argv)
{
    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    coarsen_hierarchy *h = NULL;
    int rc;
    if (argc > 1)
        rc = coarsen_graph_load(argv[1], &g, NULL, &err);
    else
        rc = (g = grid(300, 300, &err)) ? 0 : err.status;
    if (!rc) {
        coarsen_hierarchy_opts opts;
        coarsen_hierarchy_opts_default(&opts); /* 10 levels, handshake, auto device */
        opts.coarsen_to = 100;
        rc = coarsen_hierarchy_build(g, &opts, &h, &err);
    }
    if (!rc)
        rc = report(h, g, &err);
    if (rc)
        fprintf(stderr, "build_hierarchy: %s\n", err.msg);
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
    return rc ? 1 : 0;
}

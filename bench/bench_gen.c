/* bench_gen.c — generation speed of every generator kind: median wall time of
 * gen_graph over --runs runs, and undirected edges per second. With
 * --via-graph-build, also the time core/graph_build.c's general edge-list
 * builder takes to build the same graph from its edge list (the path the
 * generators avoid), and whether the result is identical. */
#include "bench/bench_util.h"
#include "core/graph_build.h"
#include "gen/generators.h"

#include <stdio.h>
#include <string.h>

static const char *const defaults[] = {
    "grid2d:n=4000000",           "grid3d:n=4000000",        "delaunay:n=2000000",
    "rgg:n=1000000,deg=12",       "er:n=1000000,deg=12",     "rmat:n=1048576,deg=12",
    "complete:n=3000",            "rgg:n=1000000,deg=12,weights=geometric",
    "er:n=1000000,deg=12,weights=exponential",
};

enum { OPT_VIA_GRAPH_BUILD = 256 };
static const struct option options[] = {{"via-graph-build", no_argument, 0, OPT_VIA_GRAPH_BUILD}, {0, 0, 0, 0}};

static int set_flag(int val, const char *arg, void *ctx)
{
    (void)val, (void)arg;
    *(int *)ctx = 1;
    return 0;
}

static int same_graph(const coarsen_graph *a, const coarsen_graph *b)
{
    return a->n == b->n && a->nnz == b->nnz &&
           !memcmp(a->xadj, b->xadj, ((size_t)a->n + 1) * sizeof *a->xadj) &&
           !memcmp(a->adj, b->adj, (size_t)a->nnz * sizeof *a->adj) &&
           !memcmp(a->ewgt, b->ewgt, (size_t)a->nnz * sizeof *a->ewgt);
}

/* Times graph_from_edges on g's edge list (each edge once, u > v, as a
 * symmetric Matrix Market file stores it) and reports it. */
static int time_graph_build(const char *spec, const coarsen_graph *g, int runs)
{
    coarsen_error err = {0};
    edge_list e;
    if (edge_list_init(&e, g->nnz / 2, &err))
        return fprintf(stderr, "bench_gen: %s\n", err.msg), 1;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->xadj[u]; k < g->xadj[u + 1]; k++)
            if (g->adj[k] < u && edge_list_push(&e, u, g->adj[k], g->ewgt[k], &err))
                return fprintf(stderr, "bench_gen: %s\n", err.msg), 1;
    graph_build_opts bo = {.mirrored = 1, .dup_rule = MERGE_SUM, .sym_rule = MERGE_MAX};
    double ms[64];
    int same = 1;
    for (int r = 0; r < runs; r++) {
        coarsen_graph *h = NULL;
        double t0 = bench_now_ms();
        if (graph_from_edges(g->n, &e, &bo, &h, NULL, &err))
            return fprintf(stderr, "bench_gen: %s\n", err.msg), 1;
        ms[r] = bench_now_ms() - t0;
        same = same && same_graph(g, h);
        coarsen_graph_free(h);
    }
    edge_list_free(&e);
    bench_report("gen_via_graph_build", spec, g, ms, runs, same ? "identical=1" : "identical=0");
    return 0;
}

int main(int argc, char **argv)
{
    int via_graph_build = 0;
    bench_extra extra = {options, "  --via-graph-build  also time core/graph_build.c on each graph's edge list\n",
                         set_flag, &via_graph_build};
    bench_opts o;
    int rc = bench_parse_args_extra(argc, argv, "Times the in-memory graph generators (gen_graph).", defaults,
                                    (int)(sizeof defaults / sizeof defaults[0]), &extra, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    int runs = o.runs < 64 ? o.runs : 64;
    for (int k = 0; k < o.ngraphs; k++) {
        double ms[64];
        coarsen_graph *g = NULL;
        for (int r = 0; r < runs; r++) {
            coarsen_error err = {0};
            coarsen_graph_free(g);
            double t0 = bench_now_ms();
            if (bench_load_graph(o.graphs[k], &g, &err)) {
                fprintf(stderr, "bench_gen: %s\n", err.msg);
                return 1;
            }
            ms[r] = bench_now_ms() - t0;
        }
        char line[64];
        double med = bench_median(ms, runs);
        snprintf(line, sizeof line, "medges_per_s=%.2f", med > 0 ? (double)g->nnz / 2 / med / 1e3 : 0.0);
        bench_report("gen", o.graphs[k], g, ms, runs, line);
        if (via_graph_build && time_graph_build(o.graphs[k], g, runs))
            return 1;
        coarsen_graph_free(g);
    }
    return 0;
}

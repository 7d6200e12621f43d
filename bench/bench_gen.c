/* bench_gen.c — generation speed of every generator kind: median wall time of
 * gen_graph over --runs runs, and undirected edges per second. */
#include "bench/bench_util.h"
#include "gen/generators.h"

#include <stdio.h>

static const char *const defaults[] = {
    "grid2d:n=4000000",           "grid3d:n=4000000",        "delaunay:n=2000000",
    "rgg:n=1000000,deg=12",       "er:n=1000000,deg=12",     "rmat:n=1048576,deg=12",
    "complete:n=3000",            "rgg:n=1000000,deg=12,weights=geometric",
    "er:n=1000000,deg=12,weights=exponential",
};

int main(int argc, char **argv)
{
    bench_opts o;
    int rc = bench_parse_args(argc, argv, "Times the in-memory graph generators (gen_graph).", defaults,
                              (int)(sizeof defaults / sizeof defaults[0]), &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    for (int k = 0; k < o.ngraphs; k++) {
        double ms[64];
        int runs = o.runs < 64 ? o.runs : 64;
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
        char extra[64];
        double med = bench_median(ms, runs);
        snprintf(extra, sizeof extra, "medges_per_s=%.2f", med > 0 ? (double)g->nnz / 2 / med / 1e3 : 0.0);
        bench_report("gen", o.graphs[k], g, ms, runs, extra);
        coarsen_graph_free(g);
    }
    return 0;
}

/* test_gen.c — the generators of gen/: exact sizes of grids, meshes and
 * complete graphs, every CSR invariant on every kind and weight kind, RGG
 * against an O(n^2) distance oracle, R-MAT skew, reproducibility and
 * thread-count independence, weight ranges and means, spec strings. */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "gen/generators.h"
#include "tests/support/test_support.h"

static coarsen_graph *make(const gen_opts *o)
{
    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    cr_assert_eq(gen_graph(o, &g, &err), 0, "%s: %s", gen_kind_name(o->kind), err.msg);
    cr_assert_eq(coarsen_graph_check(g, &err), 0, "%s/%s: %s", gen_kind_name(o->kind),
                 gen_weights_name(o->weights), err.msg);
    return g;
}

static gen_opts opts_of(const char *spec)
{
    gen_opts o;
    coarsen_error err = {0};
    cr_assert_eq(gen_opts_parse_spec(spec, &o, &err), 0, "%s", err.msg);
    return o;
}

static int same_graph(const coarsen_graph *a, const coarsen_graph *b)
{
    return a->n == b->n && a->nnz == b->nnz && a->integral_weights == b->integral_weights &&
           !memcmp(a->xadj, b->xadj, ((size_t)a->n + 1) * sizeof *a->xadj) &&
           !memcmp(a->adj, b->adj, (size_t)a->nnz * sizeof *a->adj) &&
           !memcmp(a->ewgt, b->ewgt, (size_t)a->nnz * sizeof *a->ewgt) &&
           !memcmp(a->vwgt, b->vwgt, (size_t)a->n * sizeof *a->vwgt);
}

static const char *const small_specs[] = {
    "grid2d:nx=13,ny=7", "grid3d:nx=5,ny=4,nz=3", "rgg:n=700,deg=9", "er:n=600,deg=7",
    "rmat:n=1024,deg=10", "delaunay:nx=17,ny=11", "complete:n=40",
    "er:n=300000,deg=0.001", /* 150 samples over ~300 row buckets: most buckets empty */
};
#define NSPECS (int)(sizeof small_specs / sizeof small_specs[0])

Test(gen, grid_sizes_and_neighbours_are_exact)
{
    gen_opts o = opts_of("grid2d:nx=7,ny=5");
    coarsen_graph *g = make(&o);
    cr_assert_eq(g->n, 35);
    cr_assert_eq(g->nnz, 2 * (6 * 5 + 7 * 4));
    for (int32_t u = 0; u < g->n; u++)
        for (int32_t v = 0; v < g->n; v++) {
            int manhattan = abs(u % 7 - v % 7) + abs(u / 7 - v / 7);
            cr_assert_eq(test_has_edge(g, u, v), manhattan == 1, "(%d,%d)", u, v);
        }
    coarsen_graph_free(g);

    o = opts_of("grid3d:nx=4,ny=3,nz=5");
    g = make(&o);
    cr_assert_eq(g->n, 60);
    cr_assert_eq(g->nnz, 2 * (3 * 3 * 5 + 4 * 2 * 5 + 4 * 3 * 4));
    for (int32_t u = 0; u < g->n; u++)
        for (int32_t v = 0; v < g->n; v++) {
            int d = abs(u % 4 - v % 4) + abs(u / 4 % 3 - v / 4 % 3) + abs(u / 12 - v / 12);
            cr_assert_eq(test_has_edge(g, u, v), d == 1, "(%d,%d)", u, v);
        }
    coarsen_graph_free(g);

    o = opts_of("grid3d:n=1000"); /* side round(1000^(1/3)) = 10 */
    g = make(&o);
    cr_assert_eq(g->n, 1000);
    cr_assert_eq(g->nnz, 2 * 3 * 9 * 100);
    coarsen_graph_free(g);
}

Test(gen, complete_graph_sizes_and_limit)
{
    gen_opts o = opts_of("complete:n=50");
    coarsen_graph *g = make(&o);
    cr_assert_eq(g->n, 50);
    cr_assert_eq(g->nnz, 50 * 49);
    coarsen_graph_free(g);
    o.n = GEN_COMPLETE_MAX_N + 1;
    coarsen_error err = {0};
    cr_assert_eq(gen_graph(&o, &g, &err), COARSEN_ERR_INPUT);
    cr_assert_null(g);
    cr_assert(strstr(err.msg, "GB"), "message names the size: %s", err.msg);
}

Test(gen, every_kind_and_weight_passes_graph_check)
{
    for (int k = 0; k < NSPECS; k++)
        for (int w = GEN_W_UNIT; w <= GEN_W_GEOMETRIC; w++) {
            gen_opts o = opts_of(small_specs[k]);
            o.weights = (gen_weights)w;
            coarsen_graph *g = make(&o);
            cr_assert_gt(g->nnz, 0, "%s", small_specs[k]);
            for (int32_t v = 0; v < g->n; v++)
                cr_assert_eq(g->vwgt[v], 1);
            cr_assert_eq(g->integral_weights, w == GEN_W_UNIT || w == GEN_W_INT);
            coarsen_graph_free(g);
        }
}

Test(gen, rgg_edges_are_exactly_the_pairs_within_radius)
{
    gen_opts o = opts_of("rgg:n=1500,deg=10,seed=5");
    coarsen_graph *g = make(&o);
    double *x = malloc(1500 * sizeof *x), *y = malloc(1500 * sizeof *y);
    coarsen_error err = {0};
    cr_assert_eq(gen_points(&o, x, y, &err), 0, "%s", err.msg);
    double r = gen_rgg_radius(&o);
    cr_assert_float_eq(r, sqrt(10.0 / (M_PI * 1500)), 1e-15);
    int64_t pairs = 0;
    for (int32_t u = 0; u < 1500; u++)
        for (int32_t v = 0; v < 1500; v++) {
            if (u == v)
                continue;
            double dx = x[u] - x[v], dy = y[u] - y[v];
            int near = dx * dx + dy * dy <= r * r;
            cr_assert_eq(test_has_edge(g, u, v), near, "(%d,%d) at distance %g, r %g", u, v, sqrt(dx * dx + dy * dy), r);
            pairs += near;
            cr_assert(x[u] >= 0 && x[u] < 1 && y[u] >= 0 && y[u] < 1);
        }
    cr_assert_eq(pairs, g->nnz);
    double avg = (double)g->nnz / g->n; /* boundary vertices see less area */
    cr_assert(avg > 8.5 && avg < 10.5, "average degree %g for target 10", avg);
    free(x);
    free(y);
    coarsen_graph_free(g);
}

Test(gen, delaunay_mesh_uses_the_shorter_diagonal_of_every_cell)
{
    const int nx = 19, ny = 12;
    gen_opts o = opts_of("delaunay:nx=19,ny=12,seed=3");
    coarsen_graph *g = make(&o);
    cr_assert_eq(g->n, nx * ny);
    cr_assert_eq(g->nnz, 2 * ((nx - 1) * ny + nx * (ny - 1) + (nx - 1) * (ny - 1)));
    double x[19 * 12], y[19 * 12];
    coarsen_error err = {0};
    cr_assert_eq(gen_points(&o, x, y, &err), 0);
    int shorter_main = 0;
    for (int j = 0; j + 1 < ny; j++)
        for (int i = 0; i + 1 < nx; i++) {
            int a = j * nx + i, b = a + 1, c = a + nx, d = c + 1;
            int m = test_has_edge(g, a, d), anti = test_has_edge(g, b, c);
            cr_assert_neq(m, anti, "cell (%d,%d) has exactly one diagonal", i, j);
            double lm = hypot(x[d] - x[a], y[d] - y[a]), la = hypot(x[c] - x[b], y[c] - y[b]);
            cr_assert_eq(m, lm <= la, "cell (%d,%d): diagonals %g vs %g", i, j, lm, la);
            shorter_main += m;
            /* the jitter keeps every point inside its own cell of the grid */
            cr_assert(fabs(x[a] * nx - (i + 0.5)) <= 0.25 && fabs(y[a] * ny - (j + 0.5)) <= 0.25);
        }
    cr_assert(shorter_main > 0 && shorter_main < (nx - 1) * (ny - 1), "both diagonals occur");
    coarsen_graph_free(g);
}

Test(gen, rmat_degrees_are_skewed)
{
    gen_opts o = opts_of("rmat:n=16384,deg=16");
    coarsen_graph *g = make(&o);
    int64_t maxdeg = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (g->xadj[v + 1] - g->xadj[v] > maxdeg)
            maxdeg = g->xadj[v + 1] - g->xadj[v];
    double avg = (double)g->nnz / g->n;
    cr_assert(maxdeg > 20 * avg, "max degree %lld vs average %g", (long long)maxdeg, avg);
    cr_assert(g->nnz <= 16384 * 16, "at most m edges");
    coarsen_graph_free(g);

    o = opts_of("er:n=100000,deg=8"); /* uniform: max degree stays near the mean */
    g = make(&o);
    maxdeg = 0;
    for (int32_t v = 0; v < g->n; v++)
        if (g->xadj[v + 1] - g->xadj[v] > maxdeg)
            maxdeg = g->xadj[v + 1] - g->xadj[v];
    cr_assert(maxdeg < 40, "ER max degree %lld", (long long)maxdeg);
    cr_assert(g->nnz <= 800000 && g->nnz > 799000, "ER keeps almost all m = 400000 pairs: nnz %lld",
              (long long)g->nnz);
    coarsen_graph_free(g);
}

Test(gen, same_seed_same_graph_other_seed_other_graph)
{
    for (int k = 0; k < NSPECS; k++) {
        gen_opts o = opts_of(small_specs[k]);
        o.weights = GEN_W_REAL;
        coarsen_graph *a = make(&o), *b = make(&o);
        cr_assert(same_graph(a, b), "%s: same seed", small_specs[k]);
        o.seed = 2;
        coarsen_graph *c = make(&o);
        cr_assert_not(same_graph(a, c), "%s: seeds 1 and 2 give the same graph", small_specs[k]);
        coarsen_graph_free(a);
        coarsen_graph_free(b);
        coarsen_graph_free(c);
    }
}

Test(gen, thread_count_does_not_change_the_graph)
{
    static const char *const specs[] = {
        "grid2d:n=40000,weights=exponential", "grid3d:n=27000,weights=int", "rgg:n=50000,deg=12,weights=geometric",
        "er:n=50000,deg=10,weights=real", "rmat:n=32768,deg=12,weights=geometric", "delaunay:n=40000,weights=geometric",
        "complete:n=300,weights=int",
    };
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        gen_opts o = opts_of(specs[k]);
        omp_set_num_threads(1);
        coarsen_graph *a = make(&o);
        for (int threads = 2; threads <= 3; threads++) {
            omp_set_num_threads(threads);
            coarsen_graph *b = make(&o);
            cr_assert(same_graph(a, b), "%s: 1 vs %d threads", specs[k], threads);
            coarsen_graph_free(b);
        }
        coarsen_graph_free(a);
    }
}

/* Mean weight over one direction of every edge; checks range on the way. */
static double mean_weight(const coarsen_graph *g, double lo, double hi, int lo_open)
{
    double sum = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
            double w = g->ewgt[e];
            cr_assert(w <= hi && (lo_open ? w > lo : w >= lo), "weight %g outside [%g, %g]", w, lo, hi);
            sum += w;
        }
    return sum / (double)g->nnz;
}

Test(gen, weights_lie_in_range_with_the_right_means)
{
    gen_opts o = opts_of("er:n=100000,deg=10,weights=int,maxw=7");
    coarsen_graph *g = make(&o);
    cr_assert_float_eq(mean_weight(g, 1, 7, 0), 4.0, 0.02);
    coarsen_graph_free(g);

    o.weights = GEN_W_REAL;
    g = make(&o);
    cr_assert_float_eq(mean_weight(g, 0, 1, 1), 0.5, 0.005);
    coarsen_graph_free(g);

    o.weights = GEN_W_EXPONENTIAL; /* default lambda 3.5: mean 1/3.5 */
    g = make(&o);
    cr_assert_float_eq(mean_weight(g, 0, INFINITY, 0), 1 / 3.5, 0.004);
    coarsen_graph_free(g);
    o.lambda = 0.5;
    g = make(&o);
    cr_assert_float_eq(mean_weight(g, 0, INFINITY, 0), 2.0, 0.03);
    coarsen_graph_free(g);

    /* distance of two uniform points in the unit square: mean 0.5214 */
    o.weights = GEN_W_GEOMETRIC;
    g = make(&o);
    cr_assert_float_eq(mean_weight(g, 0, sqrt(2), 0), 0.5214, 0.005);
    coarsen_graph_free(g);

    /* RGG geometric weights are the actual edge lengths: at most r, and the
     * mean of a uniform point in a disc's distance is 2r/3 */
    o = opts_of("rgg:n=100000,deg=10,weights=geometric");
    g = make(&o);
    double r = gen_rgg_radius(&o);
    cr_assert_float_eq(mean_weight(g, 0, r, 0), 2 * r / 3, 0.01 * r);
    coarsen_graph_free(g);
}

Test(gen, spec_strings_and_bad_options)
{
    gen_opts o = opts_of("rgg:n=1000,deg=12,weights=exponential,lambda=2,seed=9");
    cr_assert_eq(o.kind, GEN_RGG);
    cr_assert_eq(o.n, 1000);
    cr_assert_eq(o.avg_degree, 12);
    cr_assert_eq(o.weights, GEN_W_EXPONENTIAL);
    cr_assert_eq(o.lambda, 2);
    cr_assert_eq(o.seed, 9);
    o = opts_of("rmat:n=64,a=0.5,b=0.2,c=0.1,maxw=3");
    cr_assert(o.rmat_a == 0.5 && o.rmat_b == 0.2 && o.rmat_c == 0.1 && o.max_int_weight == 3);

    static const char *const bad_specs[] = {"blob", "rgg:n=", "rgg:n=10x", "rgg:deg", "rgg:foo=1",
                                            "grid2d:nx=0", "er:weights=heavy", "rgg:n=5000000000"};
    coarsen_error err = {0};
    for (size_t k = 0; k < sizeof bad_specs / sizeof bad_specs[0]; k++) {
        err.msg[0] = 0;
        cr_assert_eq(gen_opts_parse_spec(bad_specs[k], &o, &err), COARSEN_ERR_INPUT, "%s", bad_specs[k]);
        cr_assert(strstr(err.msg, bad_specs[k]), "message quotes the spec: %s", err.msg);
    }

    static const char *const bad_opts[] = {"rmat:n=1000", "rmat:n=1024,a=0.6,b=0.3,c=0.2", "er:n=10,deg=10",
                                           "rgg:deg=0", "er:weights=int,maxw=0" /* 0 rejected by the parser */,
                                           "er:weights=exponential,lambda=0", "grid3d:ny=4"};
    for (size_t k = 0; k < sizeof bad_opts / sizeof bad_opts[0]; k++) {
        coarsen_graph *g = NULL;
        if (gen_opts_parse_spec(bad_opts[k], &o, &err))
            continue; /* refused already */
        cr_assert_eq(gen_graph(&o, &g, &err), COARSEN_ERR_INPUT, "%s accepted", bad_opts[k]);
        cr_assert_null(g);
        cr_assert_eq(gen_vertex_count(&o, &err), -1);
    }
}

/* test_fixed_sum.c — the fixed-order sum (core/fixed_sum.h) against an
 * independent recursive statement of the same tree, for sizes around the
 * chunk length and for 1 and 2 threads; and the graph totals of the CPU and
 * the GPU (skipped without one) equal bit for bit on real weights. */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "coarsen/graph_totals.h"
#include "core/fixed_sum.h"
#include "core/hash.h"
#include "device/device.h"
#include "tests/support/test_support.h"

/* The halving tree over x[lo, lo + len) (len a power of two, values past n
 * as 0.0), straight from its definition: v[i] = v[i] + v[i + s] for
 * s = len/2, ..., 1, on a copy of the chunk. */
static double tree(const double *x, int64_t n, int64_t lo, int len)
{
    double *v = malloc((size_t)len * sizeof *v);
    for (int i = 0; i < len; i++)
        v[i] = lo + i < n ? x[lo + i] : 0.0;
    for (int s = len / 2; s > 0; s /= 2)
        for (int i = 0; i < s; i++)
            v[i] = v[i] + v[i + s];
    double r = v[0];
    free(v);
    return r;
}

static double oracle(const double *x, int64_t n)
{
    double s = 0.0;
    for (int64_t lo = 0; lo < n; lo += FIXED_SUM_CHUNK)
        s += tree(x, n, lo, FIXED_SUM_CHUNK);
    return s;
}

Test(fixed_sum, equals_the_tree_for_any_size_and_thread_count)
{
    static const int64_t sizes[] = {0, 1, 2, 2047, 2048, 2049, 4096, 100003, 1 << 20};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int64_t n = sizes[k];
        double *x = malloc(((size_t)n + 1) * sizeof *x);
        for (int64_t i = 0; i < n; i++) /* magnitudes over 12 decades: the order shows in the result */
            x[i] = (double)(hash3(5, (uint64_t)n, (uint64_t)i) % 1000003) * 1e-6 *
                   (double)(1ULL << (hash3(6, (uint64_t)n, (uint64_t)i) % 40));
        double expect = oracle(x, n);
        for (int t = 1; t <= 2; t++) {
            omp_set_num_threads(t);
            double got = fixed_sum_cpu(x, n);
            cr_assert(!memcmp(&got, &expect, sizeof got), "n %lld, %d threads: %.17g vs %.17g", (long long)n, t,
                      got, expect);
        }
        free(x);
    }
}

Test(fixed_sum, gpu_graph_totals_equal_the_cpu)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): device totals not compared");
    static const char *const specs[] = {"rgg:n=200000,deg=10,weights=real,seed=2",
                                        "rmat:n=65536,deg=16,weights=exponential,seed=3", "grid2d:nx=7,ny=3"};
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        coarsen_error err = {0};
        coarsen_graph *g = test_gen(specs[k]), *dg = NULL;
        cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
        graph_totals c, d;
        cr_assert_eq(graph_totals_cpu(g, &c, &err), 0, "%s", err.msg);
        cr_assert_eq(graph_totals_gpu(dg, &d, &err), 0, "%s", err.msg);
        cr_assert_eq(c.vertex_weight, d.vertex_weight, "%s", specs[k]);
        cr_assert_eq(c.max_vertex_weight, d.max_vertex_weight, "%s", specs[k]);
        cr_assert(!memcmp(&c.edge_weight, &d.edge_weight, sizeof c.edge_weight), "%s: %.17g vs %.17g", specs[k],
                  c.edge_weight, d.edge_weight);
        coarsen_graph_free(dg);
        coarsen_graph_free(g);
    }
}

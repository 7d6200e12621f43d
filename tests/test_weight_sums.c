/* test_weight_sums.c — graph_check_weight_sums on edge weights spread over
 * several blocks and running sums, against a long double total as the
 * oracle: a total past the largest double is refused although every block's
 * part is finite, one just below it is accepted, on 1 and 2 threads. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <string.h>

#include "core/weight_sums.h"

/* A graph of nnz edge weights, all w, and two vertices of weight 1 (only
 * the weights are looked at; coarsen_graph_alloc leaves them unset). */
static coarsen_graph *weights_graph(int64_t nnz, double w)
{
    coarsen_error err = {0};
    coarsen_graph *g = coarsen_graph_alloc(2, nnz, &err);
    cr_assert(g, "%s", err.msg);
    for (int64_t k = 0; k < nnz; k++)
        g->ewgt[k] = w;
    g->vwgt[0] = g->vwgt[1] = 1;
    return g;
}

Test(weight_sums, edge_total_past_the_largest_double_is_refused)
{
    const int64_t nnz = 20001; /* five blocks of 4096 and a tail */
    const double weights[] = {1e304, 8.9e303, 1e300};
    const int saved = omp_get_max_threads();
    for (int i = 0; i < 3; i++) {
        coarsen_graph *g = weights_graph(nnz, weights[i]);
        const int finite = (long double)nnz * weights[i] <= (long double)DBL_MAX;
        for (int t = 1; t <= 2; t++) {
            omp_set_num_threads(t);
            coarsen_error err = {0};
            int rc = graph_check_weight_sums("w", g, &err);
            cr_assert_eq(rc, finite ? COARSEN_OK : COARSEN_ERR_INPUT, "weight %g, %d threads: %s", weights[i], t,
                         err.msg);
            if (!finite)
                cr_assert(strstr(err.msg, "edge weights add up to more than the largest double"), "%s", err.msg);
        }
        coarsen_graph_free(g);
    }
    omp_set_num_threads(saved);
}

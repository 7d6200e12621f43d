/* test_graph_build.c — the edge-list to CSR builder: merge rules of
 * docs/formats.md (diagonal dropped, duplicates summed, |w|, A + A^T with
 * max), sorted rows and every CSR invariant, against a dense oracle. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "core/graph_build.h"
#include "core/hash.h"

/* Weight of (u, v) in g, or NAN when absent. */
static double weight_of(const coarsen_graph *g, int32_t u, int32_t v)
{
    for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
        if (g->adj[e] == v)
            return g->ewgt[e];
    return NAN;
}

Test(graph_build, general_matrix_takes_max_of_summed_directions)
{
    coarsen_error err = {0};
    edge_list e;
    cr_assert_eq(edge_list_init(&e, 4, &err), 0);
    edge_list_push(&e, 0, 1, 2.0, &err);
    edge_list_push(&e, 0, 1, -5.0, &err); /* duplicate: summed first -> -3 -> |.| = 3 */
    edge_list_push(&e, 1, 0, 1.5, &err);  /* other direction: max(3, 1.5) = 3 */
    edge_list_push(&e, 2, 2, 7.0, &err);  /* diagonal: dropped */
    edge_list_push(&e, 2, 0, 0.0, &err);  /* explicit zero stays an edge */
    graph_build_opts o = {.mirrored = 0, .dup_rule = MERGE_SUM, .sym_rule = MERGE_MAX};
    graph_build_stats st;
    coarsen_graph *g = NULL;
    cr_assert_eq(graph_from_edges(3, &e, &o, &g, &st, &err), 0, "%s", err.msg);
    cr_assert_eq(coarsen_graph_check(g, &err), 0, "%s", err.msg);
    cr_assert_eq(g->nnz, 4);
    cr_assert_eq(weight_of(g, 0, 1), 3.0);
    cr_assert_eq(weight_of(g, 1, 0), 3.0);
    cr_assert_eq(weight_of(g, 0, 2), 0.0);
    cr_assert_eq(st.diagonal_dropped, 1);
    cr_assert_eq(st.duplicates_merged, 1);
    cr_assert_eq(st.zero_weight_edges, 1);
    cr_assert(g->integral_weights, "1.5 lost to max(3, 1.5): every weight left is integral");
    coarsen_graph_free(g);
    edge_list_free(&e);
}

Test(graph_build, random_lists_match_dense_oracle)
{
    coarsen_error err = {0};
    for (int trial = 0; trial < 200; trial++) {
        int32_t n = 1 + (int32_t)(hash3(7, trial, 0) % 12);
        int mirrored = trial & 1;
        double dense[12][12] = {{0}}, pres[12][12] = {{0}};
        edge_list e;
        edge_list_init(&e, 1, &err);
        int count = (int)(hash3(7, trial, 1) % 40);
        for (int k = 0; k < count; k++) {
            int32_t i = (int32_t)(hash3(7, trial, 10 + 3 * k) % (uint64_t)n);
            int32_t j = (int32_t)(hash3(7, trial, 11 + 3 * k) % (uint64_t)n);
            double w = (double)((int64_t)(hash3(7, trial, 12 + 3 * k) % 9) - 4);
            edge_list_push(&e, i, j, w, &err);
            if (i == j)
                continue;
            if (mirrored && i < j) {
                int32_t t = i;
                i = j, j = t;
            }
            dense[i][j] += w;
            pres[i][j] = 1;
        }
        graph_build_opts o = {.mirrored = mirrored, .dup_rule = MERGE_SUM, .sym_rule = MERGE_MAX};
        coarsen_graph *g = NULL;
        cr_assert_eq(graph_from_edges(n, &e, &o, &g, NULL, &err), 0, "%s", err.msg);
        cr_assert_eq(coarsen_graph_check(g, &err), 0, "trial %d: %s", trial, err.msg);
        for (int32_t i = 0; i < n; i++)
            for (int32_t j = 0; j < n; j++) {
                if (i == j)
                    continue;
                int present = pres[i][j] || pres[j][i];
                double want = fmax(pres[i][j] ? fabs(dense[i][j]) : 0, pres[j][i] ? fabs(dense[j][i]) : 0);
                double got = weight_of(g, i, j);
                if (!present)
                    cr_assert(isnan(got), "trial %d: (%d,%d) should be absent", trial, i, j);
                else
                    cr_assert_eq(got, want, "trial %d: (%d,%d) = %g, want %g", trial, i, j, got, want);
            }
        coarsen_graph_free(g);
        edge_list_free(&e);
    }
}

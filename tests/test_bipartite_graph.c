/* test_bipartite_graph.c — the bipartite graph type: building from entries
 * (sorting, summed duplicates, both views agree), loading Matrix Market files
 * (symmetric storage expanded, rectangular kept), and the matching checker
 * rejecting every kind of invalid matching. */
#include <criterion/criterion.h>
#include <string.h>

#include "bipartite/bipartite.h"
#include "tests/support/bipartite_oracle.h"
#include "tests/support/io_files.h"

Test(bipartite_graph, entries_sorted_duplicates_summed_both_views)
{
    const int32_t i[] = {2, 0, 1, 0, 2, 0};
    const int32_t j[] = {1, 3, 0, 0, 1, 3};
    const double v[] = {1.5, 2, 3, 4, 2.5, 5};
    bip_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(bip_from_entries(3, 4, 6, i, j, v, &g, &err), 0, "%s", err.msg);
    cr_assert_eq(g->nnz, 4);
    const int64_t rptr[] = {0, 2, 3, 4};
    const int32_t rind[] = {0, 3, 0, 1};
    const double rval[] = {4, 7, 3, 4};
    for (int k = 0; k < 4; k++)
        cr_expect_eq(g->rptr[k], rptr[k]);
    for (int k = 0; k < 4; k++) {
        cr_expect_eq(g->rind[k], rind[k]);
        cr_expect_eq(g->rval[k], rval[k]);
    }
    const int64_t cptr[] = {0, 2, 3, 3, 4};
    const int32_t cind[] = {0, 1, 2, 0};
    const double cval[] = {4, 3, 4, 7};
    for (int k = 0; k < 5; k++)
        cr_expect_eq(g->cptr[k], cptr[k]);
    for (int k = 0; k < 4; k++) {
        cr_expect_eq(g->cind[k], cind[k]);
        cr_expect_eq(g->cval[k], cval[k]);
    }
    cr_expect_eq(g->integral, 1, "1.5 + 2.5 sums to an integer");
    bip_free(g);
}

Test(bipartite_graph, out_of_range_entry_is_an_input_error)
{
    const int32_t i[] = {0, 3}, j[] = {0, 0};
    bip_graph *g = NULL;
    coarsen_error err = {0};
    cr_expect_eq(bip_from_entries(3, 2, 2, i, j, NULL, &g, &err), COARSEN_ERR_INPUT);
    cr_expect(strstr(err.msg, "outside 3 x 2"), "%s", err.msg);
    cr_expect_null(g);
}

Test(bipartite_graph, random_graph_views_are_transposes)
{
    bip_graph *g = bip_test_random(37, 23, 0.2, 9, 5);
    for (int32_t r = 0; r < g->rows; r++)
        for (int64_t e = g->rptr[r]; e < g->rptr[r + 1]; e++) {
            int32_t c = g->rind[e];
            if (e > g->rptr[r])
                cr_assert_lt(g->rind[e - 1], c);
            int found = 0;
            for (int64_t f = g->cptr[c]; f < g->cptr[c + 1]; f++)
                found += g->cind[f] == r && g->cval[f] == g->rval[e];
            cr_assert_eq(found, 1, "(%d, %d)", r, c);
        }
    cr_expect_eq(g->cptr[g->cols], g->nnz);
    cr_expect_eq(g->integral, 1);
    bip_free(g);
}

Test(bipartite_graph, load_expands_symmetric_and_keeps_rectangular)
{
    bip_graph *g = NULL;
    coarsen_error err = {0};
    const char *p = io_file("sym.mtx",
                            "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 4\n3 2 -1\n", 0);
    cr_assert_eq(bip_load(p, &g, &err), 0, "%s", err.msg);
    cr_assert_eq(g->nnz, 4);
    /* rows: 0:{1:-4}, 1:{0:4, 2:1}, 2:{1:-1} */
    cr_expect_eq(g->rind[0], 1);
    cr_expect_eq(g->rval[0], -4);
    cr_expect_eq(g->rval[1], 4);
    cr_expect_eq(g->rval[2], 1);
    cr_expect_eq(g->rval[3], -1);
    bip_free(g);
    p = io_file("rect.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 5 3\n1 5\n2 1\n2 5\n", 0);
    cr_assert_eq(bip_load(p, &g, &err), 0, "%s", err.msg);
    cr_expect_eq(g->rows, 2);
    cr_expect_eq(g->cols, 5);
    cr_expect_eq(g->nnz, 3);
    cr_expect_eq(g->cptr[5] - g->cptr[4], 2);
    bip_free(g);
}

Test(bipartite_graph, matching_check_accepts_valid_and_names_each_violation)
{
    /* 2 x 3: row 0 {0, 1}, row 1 {1, 2} */
    const int32_t i[] = {0, 0, 1, 1}, j[] = {0, 1, 1, 2};
    bip_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(bip_from_entries(2, 3, 4, i, j, NULL, &g, &err), 0);
    int64_t card = -1;
    int32_t rm[2] = {0, 2}, cm[3] = {0, -1, 1};
    cr_expect_eq(bip_matching_check(g, rm, cm, &card, &err), 0, "%s", err.msg);
    cr_expect_eq(card, 2);
    int32_t rm_bad_edge[2] = {2, -1}, cm_bad_edge[3] = {-1, -1, 0};
    cr_expect_neq(bip_matching_check(g, rm_bad_edge, cm_bad_edge, NULL, &err), 0);
    cr_expect(strstr(err.msg, "share no entry"), "%s", err.msg);
    int32_t rm_one_way[2] = {0, -1}, cm_one_way[3] = {-1, -1, -1};
    cr_expect_neq(bip_matching_check(g, rm_one_way, cm_one_way, NULL, &err), 0);
    int32_t rm_col_only[2] = {-1, -1}, cm_col_only[3] = {1, -1, -1};
    cr_expect_neq(bip_matching_check(g, rm_col_only, cm_col_only, NULL, &err), 0);
    cr_expect(strstr(err.msg, "not mutual"), "%s", err.msg);
    int32_t rm_range[2] = {7, -1}, cm_ok[3] = {-1, -1, -1};
    cr_expect_neq(bip_matching_check(g, rm_range, cm_ok, NULL, &err), 0);
    cr_expect(strstr(err.msg, "out of range"), "%s", err.msg);
    bip_free(g);
}

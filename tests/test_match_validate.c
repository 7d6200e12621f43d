/* test_match_validate.c — the validation module (matching/validate.h):
 * hand-made invalid matchings are rejected with the broken rule, valid ones
 * accepted with the right maximality, size and weight; and the fixed-order
 * weight (match_weight.h) equals the plain sum where that sum is exact. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/graph_build.h"
#include "matching/match_weight.h"
#include "matching/validate.h"
#include "tests/support/match_oracles.h"

/* Path 0-1-2-3 (weights 1, 2, 3) plus isolated vertex 4. */
static coarsen_graph *path4(void)
{
    coarsen_error err = {0};
    edge_list e;
    edge_list_init(&e, 4, &err);
    edge_list_push(&e, 0, 1, 1.0, &err);
    edge_list_push(&e, 1, 2, 2.0, &err);
    edge_list_push(&e, 2, 3, 3.0, &err);
    graph_build_opts o = {.mirrored = 1};
    coarsen_graph *g = NULL;
    cr_assert_eq(graph_from_edges(5, &e, &o, &g, NULL, &err), 0, "%s", err.msg);
    edge_list_free(&e);
    return g;
}

static void expect_invalid(const coarsen_graph *g, const int32_t *mate, int64_t cap, const char *needle)
{
    coarsen_error err = {0};
    match_check c;
    cr_assert_eq(match_validate(g, mate, cap, &c, &err), COARSEN_ERR_INPUT, "accepted, expected '%s'", needle);
    cr_assert_eq(c.valid, 0);
    cr_assert(strstr(err.msg, needle), "message '%s' lacks '%s'", err.msg, needle);
}

Test(match_validate, rejects_broken_matchings)
{
    coarsen_graph *g = path4();
    expect_invalid(g, (int32_t[]){1, -1, -1, -1, -1}, 0, "mate[0] = 1 but mate[1] = -1"); /* asymmetric */
    expect_invalid(g, (int32_t[]){3, -1, -1, 0, -1}, 0, "not an edge");
    expect_invalid(g, (int32_t[]){-1, -1, -1, -1, 5}, 0, "out of range");
    expect_invalid(g, (int32_t[]){-2, -1, -1, -1, -1}, 0, "out of range");
    expect_invalid(g, (int32_t[]){-1, -1, 2, -1, -1}, 0, "itself");
    expect_invalid(g, (int32_t[]){1, 2, 1, -1, -1}, 0, "mate[0] = 1 but mate[1] = 2"); /* 1 claimed twice */
    g->vwgt[2] = 5;
    expect_invalid(g, (int32_t[]){-1, -1, 3, 2, -1}, 4, "above the cap");
    coarsen_graph_free(g);
}

Test(match_validate, accepts_valid_and_measures)
{
    coarsen_graph *g = path4();
    coarsen_error err = {0};
    match_check c;
    cr_assert_eq(match_validate(g, (int32_t[]){1, 0, 3, 2, -1}, 0, &c, &err), 0, "%s", err.msg);
    cr_assert(c.valid && c.maximal);
    cr_assert_eq(c.matched_edges, 2);
    cr_assert_eq(c.matched_vertices, 4);
    cr_assert_eq(c.weight, 4.0);
    cr_assert_eq(match_validate(g, (int32_t[]){-1, 2, 1, -1, -1}, 0, &c, &err), 0, "%s", err.msg);
    cr_assert(c.valid && c.maximal, "0 and 3 have only matched neighbours");
    cr_assert_eq(c.weight, 2.0);
    cr_assert_eq(match_validate(g, (int32_t[]){-1, -1, 3, 2, -1}, 0, &c, &err), 0, "%s", err.msg);
    cr_assert(c.valid && !c.maximal, "edge (0,1) joins two unmatched vertices");
    g->vwgt[0] = 10;
    cr_assert_eq(match_validate(g, (int32_t[]){-1, -1, 3, 2, -1}, 5, &c, &err), 0, "%s", err.msg);
    cr_assert(c.maximal, "(0,1) weighs 11 > cap 5: not eligible, so the matching is maximal");
    coarsen_graph_free(g);
}

Test(match_validate, fixed_order_weight_is_exact_on_integers)
{
    /* more than one chunk of vertices: the chunk tree must still add up */
    coarsen_graph *g = test_sparse_graph(5000, 20000, 1, 3);
    int32_t *mate = malloc(sizeof(int32_t) * (size_t)g->n);
    oracle_greedy_matching(g, 0, TIES_BY_ID, mate);
    double plain = 0;
    int64_t pairs = 0;
    for (int32_t v = 0; v < g->n; v++)
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++)
            if (g->adj[e] == mate[v] && v < mate[v])
                plain += g->ewgt[e], pairs++;
    int64_t got_pairs;
    cr_assert_eq(match_weight_cpu(g, mate, &got_pairs), plain);
    cr_assert_eq(got_pairs, pairs);
    cr_assert_gt(pairs, 1000);
    free(mate);
    coarsen_graph_free(g);
}

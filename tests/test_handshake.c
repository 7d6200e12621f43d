/* test_handshake.c — the handshake matcher: on many small random graphs it
 * equals the independent greedy oracle (hence valid, maximal, >= OPT/2,
 * checked against brute force too), under a vertex-weight cap too; the pass
 * cap; the strongest-neighbour output; thread-count independence; and the
 * GPU backend bit-identical to the CPU one for every launch shape, on small,
 * large, star-shaped, equal-weight and shared graphs. */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/graph_build.h"
#include "core/hash.h"
#include "matching/matching.h"
#include "matching/validate.h"
#include "tests/support/match_oracles.h"
#include "tests/support/test_support.h"

static matching_opts handshake_opts(void)
{
    matching_opts o;
    matching_opts_default(&o);
    o.kind = MATCHER_HANDSHAKE;
    return o;
}

static coarsen_graph *small_graph(int t)
{
    return test_small_graph(t, 1000);
}

/* Runs handshake and checks it against the greedy oracle under cap. */
static void check_equals_greedy(const coarsen_graph *g, int64_t cap, const char *what)
{
    matching_opts o = handshake_opts();
    o.max_vertex_weight = cap;
    int32_t *mate = malloc(sizeof(int32_t) * ((size_t)g->n + 1)), *want = malloc(sizeof(int32_t) * ((size_t)g->n + 1));
    matching_stats st;
    coarsen_error err = {0};
    cr_assert_eq(match_cpu(g, &o, mate, NULL, &st, &err), 0, "%s: %s", what, err.msg);
    oracle_greedy_matching(g, cap, want);
    for (int32_t v = 0; v < g->n; v++)
        cr_assert_eq(mate[v], want[v], "%s: vertex %d: handshake %d, greedy %d", what, v, mate[v], want[v]);
    match_check c;
    cr_assert_eq(match_validate(g, mate, cap, &c, &err), 0, "%s: %s", what, err.msg);
    cr_assert(c.maximal && st.maximal, "%s: not maximal", what);
    cr_assert_eq(st.matched_edges, c.matched_edges, "%s", what);
    cr_assert_eq(st.weight, c.weight, "%s", what);
    free(mate), free(want);
}

Test(handshake, small_graphs_equal_greedy_and_half_optimum)
{
    for (int t = 0; t < 320; t++) {
        coarsen_graph *g = small_graph(t);
        char what[64];
        snprintf(what, sizeof what, "graph %d (n %d, mode %d)", t, g->n, t % 3);
        check_equals_greedy(g, 0, what);
        matching_opts o = handshake_opts();
        int32_t mate[16];
        matching_stats st;
        coarsen_error err = {0};
        cr_assert_eq(match_cpu(g, &o, mate, NULL, &st, &err), 0);
        cr_assert(oracle_matching_valid(g, mate) && oracle_matching_maximal(g, mate), "%s", what);
        double opt = oracle_max_matching_weight(g);
        cr_assert_geq(2 * st.weight, opt * (1 - 1e-12), "%s: weight %g < OPT/2 (OPT %g)", what, st.weight, opt);
        coarsen_graph_free(g);
    }
}

Test(handshake, tied_weights_follow_edge_order)
{
    /* unit and all-zero weights: every choice is a tie broken by vertex ids */
    for (int t = 0; t < 40; t++) {
        coarsen_graph *g = test_sparse_graph(30 + t, 60 + 3 * t, t % 2 ? 0 : 3, 50 + (uint64_t)t);
        check_equals_greedy(g, 0, "tied weights");
        coarsen_graph_free(g);
    }
}

Test(handshake, weight_cap_respected_and_maximal_among_eligible)
{
    for (int t = 0; t < 200; t++) {
        coarsen_graph *g = small_graph(t);
        test_random_vertex_weights(g, 4, (uint64_t)t);
        char what[64];
        snprintf(what, sizeof what, "graph %d with cap 5", t);
        check_equals_greedy(g, 5, what); /* validate checks the cap; maximal among eligible pairs */
        coarsen_graph_free(g);
    }
    coarsen_graph *g = test_sparse_graph(3000, 12000, 2, 9);
    test_random_vertex_weights(g, 10, 9);
    check_equals_greedy(g, 11, "sparse graph with cap 11");
    coarsen_graph_free(g);
}

/* Path 0-1-...-(n-1) whose edge (i, i+1) weighs i + 1: each pass matches only
 * the heaviest remaining edge, so k passes match exactly k pairs. */
static coarsen_graph *rising_path(int32_t n)
{
    coarsen_error err = {0};
    edge_list e;
    edge_list_init(&e, n, &err);
    for (int32_t i = 0; i + 1 < n; i++)
        edge_list_push(&e, i, i + 1, (double)(i + 1), &err);
    graph_build_opts bo = {.mirrored = 1};
    coarsen_graph *g = NULL;
    graph_from_edges(n, &e, &bo, &g, NULL, &err);
    edge_list_free(&e);
    return g;
}

Test(handshake, passes_cap_stops_early)
{
    coarsen_graph *g = rising_path(20);
    matching_opts o = handshake_opts();
    int32_t mate[20];
    matching_stats st;
    coarsen_error err = {0};
    o.max_passes = 3;
    cr_assert_eq(match_cpu(g, &o, mate, NULL, &st, &err), 0, "%s", err.msg);
    cr_assert_eq(st.passes, 3);
    cr_assert_eq(st.matched_edges, 3);
    cr_assert_eq(st.maximal, 0);
    cr_assert(oracle_matching_valid(g, mate));
    cr_assert_eq(mate[19], 18);
    cr_assert_eq(mate[15], 14);
    cr_assert_eq(mate[13], -1);
    cr_assert_float_eq(st.first_round_fraction, 2.0 / 20, 1e-15);
    o.max_passes = 0;
    cr_assert_eq(match_cpu(g, &o, mate, NULL, &st, &err), 0, "%s", err.msg);
    cr_assert_eq(st.matched_edges, 10);
    cr_assert(st.maximal);
    cr_assert_geq(st.passes, 10);
    cr_assert_leq(st.passes, 11);
    coarsen_graph_free(g);
}

Test(handshake, strongest_is_heaviest_eligible_neighbour)
{
    for (int t = 0; t < 100; t++) {
        coarsen_graph *g = small_graph(t);
        int64_t cap = t % 2 ? 5 : 0;
        if (cap)
            test_random_vertex_weights(g, 4, (uint64_t)t);
        matching_opts o = handshake_opts();
        o.max_vertex_weight = cap;
        int32_t mate[16], strong[16];
        matching_stats st;
        coarsen_error err = {0};
        for (int kind = 0; kind < 2; kind++) {
            o.kind = kind ? MATCHER_REDBLUE : MATCHER_HANDSHAKE;
            cr_assert_eq(match_cpu(g, &o, mate, strong, &st, &err), 0, "%s", err.msg);
            for (int32_t v = 0; v < g->n; v++)
                cr_assert_eq(strong[v], oracle_strongest(g, v, cap), "graph %d kind %d vertex %d", t, kind, v);
        }
        coarsen_graph_free(g);
    }
}

Test(handshake, thread_count_independent)
{
    coarsen_graph *g = test_sparse_graph(20000, 100000, 1, 5);
    matching_opts o = handshake_opts();
    char why[512];
    cr_assert_eq(test_threads_independent(g, &o, why, sizeof why), 0, "%s", why);
    coarsen_graph_free(g);
}

static void gpu_same(const coarsen_graph *g, matching_opts o, const char *what)
{
    char why[1024];
    cr_assert_eq(test_compare_all_shapes(g, o, why, sizeof why), 0, "%s, %s", what, why);
}

Test(handshake, gpu_small_graphs_identical)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): GPU handshake not run");
    char why[1200];
    cr_assert_eq(test_gpu_small_graphs(handshake_opts(), 160, 1000, why, sizeof why), 0, "%s", why);
}

Test(handshake, gpu_large_graphs_identical)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): GPU handshake not run");
    for (int mode = 0; mode < 4; mode++) {
        coarsen_graph *g = test_sparse_graph(40000, 150000, mode, 11 + (uint64_t)mode);
        matching_opts o = handshake_opts();
        char what[64];
        snprintf(what, sizeof what, "sparse graph, weight mode %d", mode);
        gpu_same(g, o, what);
        o.max_passes = 2;
        gpu_same(g, o, "sparse graph, 2 passes");
        coarsen_graph_free(g);
    }
    /* vertex 0 has degree 29999: the heavy (block per vertex) path */
    coarsen_graph *g = test_star_graph(30000, 60000, 2, 3);
    gpu_same(g, handshake_opts(), "star, real weights");
    coarsen_graph_free(g);
    g = test_star_graph(30000, 60000, 0, 4);
    gpu_same(g, handshake_opts(), "star, unit weights");
    test_random_vertex_weights(g, 6, 4);
    matching_opts o = handshake_opts();
    o.max_vertex_weight = 7;
    gpu_same(g, o, "star, unit weights, cap 7");
    coarsen_graph_free(g);
}

static const char *const shared_graphs[] = {
    "karate.graph", "lesmis.graph", "jagmesh7.mtx", "1138_bus.mtx", "GD97_b.mtx", "power.graph",
    "4elt.graph", "kahip_example_weighted.graph", "test_mgraph.graph", "bcsstk13.mtx.gz",
    "p2p-Gnutella06.mtx", "polblogs.graph", "bayer10.mtx.gz", "Ragusa16.mtx", "delaunay_n15.graph.gz",
    "astro-ph.graph.gz",
};

static void shared_check(const coarsen_graph *g, const char *name)
{
    char why[1024];
    check_equals_greedy(g, 0, name);
    matching_opts o = handshake_opts();
    if (test_have_gpu())
        cr_assert_eq(test_compare_cpu_gpu(g, &o, why, sizeof why), 0, "%s: %s", name, why);
}

Test(handshake, shared_graphs_equal_greedy_cpu_and_gpu)
{
    char why[1200];
    int r = test_each_shared(shared_graphs, sizeof shared_graphs / sizeof shared_graphs[0], shared_check, why,
                             sizeof why);
    if (r < 0)
        cr_skip_test("shared graphs not readable here: %s", why);
    cr_assert_eq(r, 0, "%s", why);
}

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
#include "gen/generators.h"
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

/* Runs handshake with o and checks it against the greedy oracle under o's
 * cap and tie rule; returns the passes. */
static int check_equals_greedy(const coarsen_graph *g, const matching_opts *o, const char *what)
{
    const int64_t cap = o->max_vertex_weight;
    int32_t *mate = malloc(sizeof(int32_t) * ((size_t)g->n + 1)), *want = malloc(sizeof(int32_t) * ((size_t)g->n + 1));
    matching_stats st;
    coarsen_error err = {0};
    cr_assert_eq(match_cpu(g, o, mate, NULL, &st, &err), 0, "%s: %s", what, err.msg);
    oracle_greedy_matching(g, cap, match_ties(o), want);
    for (int32_t v = 0; v < g->n; v++)
        cr_assert_eq(mate[v], want[v], "%s: vertex %d: handshake %d, greedy %d", what, v, mate[v], want[v]);
    match_check c;
    cr_assert_eq(match_validate(g, mate, cap, &c, &err), 0, "%s: %s", what, err.msg);
    cr_assert(c.maximal && st.maximal, "%s: not maximal", what);
    cr_assert_eq(st.matched_edges, c.matched_edges, "%s", what);
    cr_assert_eq(st.weight, c.weight, "%s", what);
    free(mate), free(want);
    return st.passes;
}

/* check_equals_greedy under both tie rules (hashed with seed). */
static void check_both_tie_rules(const coarsen_graph *g, int64_t cap, uint64_t seed, const char *what)
{
    matching_opts o = handshake_opts();
    o.max_vertex_weight = cap;
    check_equals_greedy(g, &o, what);
    o.hashed_ties = 1;
    o.seed = seed;
    check_equals_greedy(g, &o, what);
}

Test(handshake, small_graphs_equal_greedy_and_half_optimum)
{
    for (int t = 0; t < 320; t++) {
        coarsen_graph *g = small_graph(t);
        char what[64];
        snprintf(what, sizeof what, "graph %d (n %d, mode %d)", t, g->n, t % 3);
        check_both_tie_rules(g, 0, (uint64_t)t, what);
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
        check_both_tie_rules(g, 0, (uint64_t)t, "tied weights");
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
        check_both_tie_rules(g, 5, (uint64_t)t, what); /* validate checks the cap; maximal among eligible pairs */
        coarsen_graph_free(g);
    }
    coarsen_graph *g = test_sparse_graph(3000, 12000, 2, 9);
    test_random_vertex_weights(g, 10, 9);
    check_both_tie_rules(g, 11, 3, "sparse graph with cap 11");
    coarsen_graph_free(g);
}

Test(handshake, empty_and_edgeless_graphs)
{
    for (int32_t n = 0; n < 6; n += 5) {
        coarsen_graph *g = test_random_graph(n, 0.0, 0, 1); /* no edges */
        cr_assert_not_null(g);
        for (int kind = 0; kind < 2; kind++) {
            matching_opts o = handshake_opts();
            o.kind = kind ? MATCHER_REDBLUE : MATCHER_HANDSHAKE;
            int32_t mate[8], strong[8];
            matching_stats st;
            coarsen_error err = {0};
            cr_assert_eq(match_cpu(g, &o, mate, strong, &st, &err), 0, "%s", err.msg);
            cr_assert_eq(st.matched_edges, 0);
            cr_assert(st.maximal);
            cr_assert_eq(st.passes, n ? 1 : 0, "n %d kind %d: %d passes", n, kind, st.passes);
            for (int32_t v = 0; v < n; v++)
                cr_assert(mate[v] == -1 && strong[v] == -1);
            char why[512];
            if (test_have_gpu())
                cr_assert_eq(test_compare_all_shapes(g, o, why, sizeof why), 0, "n %d kind %d: %s", n, kind, why);
        }
        coarsen_graph_free(g);
    }
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

Test(handshake, tie_rank_is_a_bijection)
{
    /* distinct ranks in [0, 2^31) for the first 2^18 ids and the top ones */
    const int32_t count = 1 << 18;
    int32_t *r = malloc(sizeof(int32_t) * (size_t)(count + 64));
    for (uint64_t seed = 1; seed <= 2; seed++) {
        tie_rule t = {1, seed};
        for (int32_t v = 0; v < count; v++)
            r[v] = tie_rank(t, v);
        for (int32_t k = 0; k < 64; k++)
            r[count + k] = tie_rank(t, INT32_MAX - k);
        qsort(r, (size_t)count + 64, sizeof *r, cmp_i32);
        int32_t shared = 0;
        for (int32_t k = 1; k < count + 64; k++)
            shared += r[k] == r[k - 1];
        cr_assert_geq(r[0], 0);
        cr_assert_eq(shared, 0, "seed %d: %d ranks shared", (int)seed, shared);
    }
    cr_assert_eq(tie_rank(TIES_BY_ID, 12345), 12345);
    free(r);
}

Test(handshake, hashed_ties_cut_passes_on_unit_grid)
{
    /* a unit-weight grid numbered row by row: "smaller id wins" matches it
     * from one corner on, a wavefront of passes; hashed ties do not */
    gen_opts go;
    gen_opts_default(&go);
    go.kind = GEN_GRID2D;
    go.nx = go.ny = 120;
    go.n = 120 * 120;
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(gen_graph(&go, &g, &err), 0, "%s", err.msg);
    matching_opts o = handshake_opts();
    int by_id = check_equals_greedy(g, &o, "grid, ties by id");
    o.hashed_ties = 1;
    int hashed = check_equals_greedy(g, &o, "grid, hashed ties");
    cr_assert_lt(4 * hashed, by_id, "hashed ties: %d passes, ties by id: %d", hashed, by_id);
    cr_log_info("unit grid 120 x 120: %d passes with ties by id, %d with hashed ties", by_id, hashed);
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
        o.hashed_ties = t % 3 == 0;
        o.seed = (uint64_t)t;
        for (int kind = 0; kind < 2; kind++) {
            o.kind = kind ? MATCHER_REDBLUE : MATCHER_HANDSHAKE;
            cr_assert_eq(match_cpu(g, &o, mate, strong, &st, &err), 0, "%s", err.msg);
            for (int32_t v = 0; v < g->n; v++)
                cr_assert_eq(strong[v], oracle_strongest(g, v, cap, match_ties(&o)), "graph %d kind %d vertex %d", t,
                             kind, v);
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
    o.hashed_ties = 1;
    cr_assert_eq(test_threads_independent(g, &o, why, sizeof why), 0, "hashed ties: %s", why);
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
        o.max_passes = 0;
        o.hashed_ties = 1;
        gpu_same(g, o, "sparse graph, hashed ties");
        coarsen_graph_free(g);
    }
    /* vertex 0 has degree 29999: the heavy (block per vertex) path */
    coarsen_graph *g = test_star_graph(30000, 60000, 2, 3);
    gpu_same(g, handshake_opts(), "star, real weights");
    coarsen_graph_free(g);
    g = test_star_graph(30000, 60000, 0, 4);
    gpu_same(g, handshake_opts(), "star, unit weights");
    matching_opts hashed = handshake_opts();
    hashed.hashed_ties = 1;
    gpu_same(g, hashed, "star, unit weights, hashed ties");
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
    matching_opts o = handshake_opts();
    for (o.hashed_ties = 0; o.hashed_ties < 2; o.hashed_ties++) {
        check_equals_greedy(g, &o, name);
        if (test_have_gpu())
            cr_assert_eq(test_compare_cpu_gpu(g, &o, why, sizeof why), 0, "%s, hashed ties %d: %s", name,
                         o.hashed_ties, why);
    }
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

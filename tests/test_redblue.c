/* test_redblue.c — the red/blue matcher: valid and maximal when run to
 * completion (brute-force oracles), in weighted and random mode, with zero
 * and equal weights too (termination); a pure function of the seed and
 * different for different seeds; the vertex-weight cap and the rounds cap;
 * the first-round matched fraction near the paper's prediction; thread-count
 * independence; and the GPU backend bit-identical to the CPU one. */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matching/matching.h"
#include "matching/validate.h"
#include "tests/support/match_oracles.h"
#include "tests/support/test_support.h"

static matching_opts redblue_opts(int weighted, uint64_t seed)
{
    matching_opts o;
    matching_opts_default(&o);
    o.kind = MATCHER_REDBLUE;
    o.weighted = weighted;
    o.seed = seed;
    return o;
}

static coarsen_graph *small_graph(int t)
{
    return test_small_graph(t, 2000);
}

/* Runs o on g and checks validity and maximality under o's cap. */
static void run_valid_maximal(const coarsen_graph *g, const matching_opts *o, int32_t *mate, matching_stats *st,
                              const char *what)
{
    coarsen_error err = {0};
    cr_assert_eq(match_cpu(g, o, mate, NULL, st, &err), 0, "%s: %s", what, err.msg);
    match_check c;
    cr_assert_eq(match_validate(g, mate, o->max_vertex_weight, &c, &err), 0, "%s: %s", what, err.msg);
    cr_assert(c.maximal, "%s: not maximal", what);
    cr_assert(st->maximal, "%s: stats say not maximal", what);
    cr_assert_eq(st->matched_edges, c.matched_edges, "%s", what);
    cr_assert_eq(st->weight, c.weight, "%s", what);
}

Test(redblue, small_graphs_valid_and_maximal)
{
    for (int t = 0; t < 320; t++) {
        coarsen_graph *g = small_graph(t);
        matching_opts o = redblue_opts(t % 2, (uint64_t)t);
        o.hashed_ties = t % 3 == 1;
        int32_t mate[16];
        matching_stats st;
        char what[80];
        snprintf(what, sizeof what, "graph %d (n %d, weighted %d, hashed ties %d)", t, g->n, t % 2, o.hashed_ties);
        run_valid_maximal(g, &o, mate, &st, what);
        cr_assert(oracle_matching_valid(g, mate) && oracle_matching_maximal(g, mate), "%s", what);
        coarsen_graph_free(g);
    }
}

Test(redblue, zero_and_equal_weights_terminate)
{
    for (int mode = 0; mode < 4; mode += 3) /* unit, all zero */
        for (int weighted = 0; weighted < 2; weighted++) {
            coarsen_graph *g = test_sparse_graph(5000, 20000, mode, 8);
            matching_opts o = redblue_opts(weighted, 3);
            int32_t *mate = malloc(sizeof(int32_t) * 5000);
            matching_stats st;
            run_valid_maximal(g, &o, mate, &st, "equal weights");
            cr_assert_lt(st.passes, 200, "%d rounds", st.passes);
            free(mate);
            coarsen_graph_free(g);
        }
}

Test(redblue, reproducible_and_seed_dependent)
{
    coarsen_graph *g = test_sparse_graph(3000, 9000, 2, 21);
    int32_t *a = malloc(sizeof(int32_t) * 3000), *b = malloc(sizeof(int32_t) * 3000);
    matching_stats sa, sb;
    for (int weighted = 0; weighted < 2; weighted++) {
        matching_opts o = redblue_opts(weighted, 7);
        run_valid_maximal(g, &o, a, &sa, "seed 7");
        run_valid_maximal(g, &o, b, &sb, "seed 7 again");
        cr_assert_eq(memcmp(a, b, sizeof(int32_t) * 3000), 0, "same seed, different matchings");
        cr_assert_eq(sa.passes, sb.passes);
        o.seed = 8;
        run_valid_maximal(g, &o, b, &sb, "seed 8");
        cr_assert_neq(memcmp(a, b, sizeof(int32_t) * 3000), 0, "seeds 7 and 8 gave the same matching");
    }
    free(a), free(b);
    coarsen_graph_free(g);
}

Test(redblue, weight_cap_respected_and_maximal_among_eligible)
{
    for (int t = 0; t < 200; t++) {
        coarsen_graph *g = small_graph(t);
        test_random_vertex_weights(g, 4, (uint64_t)t);
        matching_opts o = redblue_opts(t % 2, (uint64_t)t);
        o.max_vertex_weight = 5;
        int32_t mate[16];
        matching_stats st;
        run_valid_maximal(g, &o, mate, &st, "small graph, cap 5"); /* validate rejects pairs above the cap */
        coarsen_graph_free(g);
    }
}

Test(redblue, rounds_cap_stops_early)
{
    coarsen_graph *g = test_sparse_graph(5000, 20000, 2, 4);
    matching_opts o = redblue_opts(1, 5);
    o.max_passes = 1;
    int32_t *mate = malloc(sizeof(int32_t) * 5000);
    matching_stats st;
    coarsen_error err = {0};
    cr_assert_eq(match_cpu(g, &o, mate, NULL, &st, &err), 0, "%s", err.msg);
    cr_assert_eq(st.passes, 1);
    cr_assert_eq(st.maximal, 0);
    cr_assert(oracle_matching_valid(g, mate));
    cr_assert(!oracle_matching_maximal(g, mate), "one round cannot finish a 5000-vertex graph");
    cr_assert_float_eq(st.first_round_fraction, 2.0 * (double)st.matched_edges / 5000, 1e-12);
    free(mate);
    coarsen_graph_free(g);
}

Test(redblue, first_round_fraction_near_prediction)
{
    /* random mode, average degree 64: the paper predicts
     * 2(1-p)(1-exp(-p/(1-p))) = 0.6357 in the high-degree limit */
    coarsen_graph *g = test_sparse_graph(20000, 640000, 2, 17);
    matching_opts o = redblue_opts(0, 1);
    o.max_passes = 1;
    int32_t *mate = malloc(sizeof(int32_t) * 20000);
    matching_stats st;
    coarsen_error err = {0};
    cr_assert_eq(match_cpu(g, &o, mate, NULL, &st, &err), 0, "%s", err.msg);
    double p = o.p, want = 2 * (1 - p) * (1 - exp(-p / (1 - p)));
    cr_assert(fabs(st.first_round_fraction - want) < 0.015, "first round %.4f, predicted %.4f",
              st.first_round_fraction, want);
    free(mate);
    coarsen_graph_free(g);
}

Test(redblue, thread_count_independent)
{
    coarsen_graph *g = test_sparse_graph(20000, 100000, 1, 6);
    char why[512];
    for (int weighted = 0; weighted < 2; weighted++) {
        matching_opts o = redblue_opts(weighted, 9);
        cr_assert_eq(test_threads_independent(g, &o, why, sizeof why), 0, "weighted %d: %s", weighted, why);
    }
    coarsen_graph_free(g);
}

static void gpu_same(const coarsen_graph *g, matching_opts o, const char *what)
{
    char why[1024];
    cr_assert_eq(test_compare_all_shapes(g, o, why, sizeof why), 0, "%s, %s", what, why);
}

Test(redblue, gpu_small_graphs_identical)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): GPU red/blue not run");
    char why[1200];
    for (int weighted = 0; weighted < 2; weighted++)
        cr_assert_eq(test_gpu_small_graphs(redblue_opts(weighted, 0), 160, 2000, why, sizeof why), 0,
                     "weighted %d: %s", weighted, why);
}

Test(redblue, gpu_large_graphs_identical)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): GPU red/blue not run");
    for (int mode = 0; mode < 4; mode++) {
        coarsen_graph *g = test_sparse_graph(40000, 150000, mode, 31 + (uint64_t)mode);
        char what[64];
        snprintf(what, sizeof what, "sparse graph, weight mode %d", mode);
        gpu_same(g, redblue_opts(1, 5), what);
        gpu_same(g, redblue_opts(0, 6), what);
        matching_opts hashed = redblue_opts(1, 7);
        hashed.hashed_ties = 1;
        gpu_same(g, hashed, what);
        coarsen_graph_free(g);
    }
    coarsen_graph *g = test_star_graph(30000, 60000, 2, 5);
    gpu_same(g, redblue_opts(1, 2), "star, weighted");
    gpu_same(g, redblue_opts(0, 2), "star, random");
    test_random_vertex_weights(g, 6, 4);
    matching_opts o = redblue_opts(1, 3);
    o.max_vertex_weight = 7;
    gpu_same(g, o, "star, cap 7");
    coarsen_graph_free(g);
}

static const char *const shared_graphs[] = {
    "karate.graph", "lesmis.graph", "jagmesh7.mtx", "GD97_b.mtx", "power.graph", "4elt.graph",
    "kahip_example_weighted.graph", "p2p-Gnutella06.mtx", "polblogs.graph", "delaunay_n15.graph.gz",
};

static void shared_check(const coarsen_graph *g, const char *name)
{
    char why[1024];
    int32_t *mate = malloc(sizeof(int32_t) * ((size_t)g->n + 1));
    matching_stats st;
    for (int weighted = 0; weighted < 2; weighted++) {
        matching_opts o = redblue_opts(weighted, 1);
        run_valid_maximal(g, &o, mate, &st, name);
        if (test_have_gpu())
            cr_assert_eq(test_compare_cpu_gpu(g, &o, why, sizeof why), 0, "%s: %s", name, why);
    }
    free(mate);
}

Test(redblue, shared_graphs_valid_cpu_and_gpu)
{
    char why[1200];
    int r = test_each_shared(shared_graphs, sizeof shared_graphs / sizeof shared_graphs[0], shared_check, why,
                             sizeof why);
    if (r < 0)
        cr_skip_test("shared graphs not readable here: %s", why);
    cr_assert_eq(r, 0, "%s", why);
}

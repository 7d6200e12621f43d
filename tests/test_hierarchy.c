/* test_hierarchy.c — the coarsening hierarchy (coarsen/hierarchy.c) through
 * the public API: every level of generated and shared graphs checked against
 * independent recounts (tests/support/hierarchy_check.h), the stopping rules,
 * the vertex-weight cap, two-hop pairing on stalls, CPU == GPU hierarchies
 * bit for bit (skipped visibly without a GPU), and the re-contraction of a
 * hierarchy's levels from another input (hierarchy_contract_input). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coarsen/hierarchy.h"
#include "core/hash.h"
#include "device/device.h"
#include "tests/support/contract_oracles.h"
#include "tests/support/hierarchy_check.h"
#include "tests/support/test_support.h"

static coarsen_hierarchy_opts cpu_opts(void)
{
    coarsen_hierarchy_opts o;
    coarsen_hierarchy_opts_default(&o);
    o.device = COARSEN_DEVICE_CPU;
    o.host_below = 0; /* the GPU runs derived from these build every level there */
    return o;
}

static coarsen_hierarchy *build(const coarsen_graph *g, const coarsen_hierarchy_opts *o)
{
    coarsen_error err = {0};
    coarsen_hierarchy *h = NULL;
    cr_assert_eq(coarsen_hierarchy_build(g, o, &h, &err), 0, "%s", err.msg);
    return h;
}

/* Builds and checks the number of levels (levels < 0: any) and the stop reason. */
static coarsen_hierarchy *build_expect(const coarsen_graph *g, const coarsen_hierarchy_opts *o, int levels,
                                       coarsen_stop_reason reason)
{
    coarsen_hierarchy *h = build(g, o);
    if (levels >= 0)
        cr_assert_eq(coarsen_hierarchy_levels(h), levels, "%d levels, expected %d", coarsen_hierarchy_levels(h),
                     levels);
    cr_assert_eq(coarsen_hierarchy_stop_reason(h), reason, "stopped by %s, expected %s",
                 coarsen_stop_reason_name(coarsen_hierarchy_stop_reason(h)), coarsen_stop_reason_name(reason));
    return h;
}

/* A star: centre 0 and `leaves` leaves, unit weights. */
static coarsen_graph *star(int32_t leaves)
{
    coarsen_error err = {0};
    coarsen_graph *g = coarsen_graph_alloc(leaves + 1, 2 * (int64_t)leaves, &err);
    g->xadj[1] = leaves;
    for (int32_t v = 0; v < leaves; v++) {
        g->adj[v] = v + 1;
        g->adj[leaves + v] = 0;
        g->xadj[v + 2] = leaves + v + 1;
    }
    for (int64_t e = 0; e < g->nnz; e++)
        g->ewgt[e] = 1;
    for (int32_t v = 0; v <= leaves; v++)
        g->vwgt[v] = 1;
    return g;
}

static const char *const specs[] = {
    "grid2d:nx=40,ny=30,weights=int,maxw=5",
    "grid3d:nx=12,weights=unit",
    "rgg:n=3000,deg=10,weights=int,seed=3",
    "er:n=2000,deg=6,weights=int,maxw=3,seed=4",
    "rmat:n=4096,deg=8,weights=int,seed=5",
    "delaunay:nx=50,ny=40,weights=int,seed=6",
    "rgg:n=2000,deg=8,weights=real,seed=7",
    "grid2d:nx=30,ny=30,weights=exponential,seed=8",
};

Test(hierarchy, generated_graphs_every_level_valid)
{
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        coarsen_graph *g = test_gen(specs[k]);
        coarsen_hierarchy_opts o = cpu_opts();
        o.coarsen_to = 20;
        coarsen_hierarchy *h = build(g, &o);
        cr_assert_geq(coarsen_hierarchy_levels(h), 2, "%s: only %d levels", specs[k], coarsen_hierarchy_levels(h));
        check_hierarchy(h, 0, k);
        coarsen_hierarchy_free(h);
        coarsen_graph_free(g);
    }
}

Test(hierarchy, random_small_graphs_every_level_valid)
{
    for (uint64_t seed = 0; seed < 40; seed++) {
        int32_t n = 2 + (int32_t)(seed * 7 % 60);
        coarsen_graph *g = test_random_graph(n, 0.02 + 0.01 * (double)(seed % 10), (int)(seed % 3), seed);
        for (int32_t v = 0; v < n; v++) /* vertex weights 1..4 */
            g->vwgt[v] = 1 + (int64_t)(hash3(seed, 99, (uint64_t)v) % 4);
        coarsen_hierarchy_opts o = cpu_opts();
        o.coarsen_to = 0;
        o.min_reduction = 0;
        o.max_vertex_weight = seed % 2 ? 0 : 5;
        o.matcher = seed % 4 < 2 ? COARSEN_MATCHER_HANDSHAKE : COARSEN_MATCHER_REDBLUE;
        o.seed = seed;
        coarsen_hierarchy *h = build(g, &o);
        check_hierarchy(h, o.max_vertex_weight, seed);
        coarsen_hierarchy_free(h);
        coarsen_graph_free(g);
    }
}

Test(hierarchy, stops_after_levels)
{
    coarsen_graph *g = test_gen("grid2d:nx=64,ny=64");
    coarsen_hierarchy_opts o = cpu_opts();
    o.levels = 2;
    o.coarsen_to = 0;
    coarsen_hierarchy *h = build_expect(g, &o, 2, COARSEN_STOP_LEVELS);
    cr_assert_str_eq(coarsen_stop_reason_name(COARSEN_STOP_LEVELS), "levels");
    coarsen_hierarchy_free(h);
    o.levels = 0;
    h = build_expect(g, &o, 0, COARSEN_STOP_LEVELS);
    const coarsen_graph *g0;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_hierarchy_graph(h, 0, &g0, &err), 0);
    cr_assert_eq(g0, g, "level 0 is the input graph itself");
    cr_assert_neq(coarsen_hierarchy_graph(h, 1, &g0, &err), 0, "level 1 does not exist");
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
}

Test(hierarchy, stops_at_coarsen_to)
{
    coarsen_graph *g = test_gen("grid2d:nx=64,ny=64");
    coarsen_hierarchy_opts o = cpu_opts();
    o.levels = 30;
    o.coarsen_to = 300;
    coarsen_hierarchy *h = build_expect(g, &o, -1, COARSEN_STOP_COARSEN_TO);
    int L = coarsen_hierarchy_levels(h);
    cr_assert_leq(coarsen_hierarchy_stats(h, L)->vertices, 300);
    cr_assert_gt(coarsen_hierarchy_stats(h, L - 1)->vertices, 300, "stopped one level late");
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
}

Test(hierarchy, stops_on_small_reduction)
{
    /* No matching removes more than half of the vertices: a 0.6 minimum
     * stops right after the first level, which is kept. */
    coarsen_graph *g = test_gen("grid2d:nx=30,ny=30");
    coarsen_hierarchy_opts o = cpu_opts();
    o.matcher = COARSEN_MATCHER_HANDSHAKE; /* pairs (HEC's groups may remove more) */
    o.min_reduction = 0.6;
    o.coarsen_to = 0;
    coarsen_hierarchy *h = build_expect(g, &o, 1, COARSEN_STOP_MIN_REDUCTION);
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
    /* A star without two-hop loses one vertex per level: below 5%. */
    g = star(100);
    o = cpu_opts();
    o.matcher = COARSEN_MATCHER_HANDSHAKE; /* the matching path's two-hop threshold */
    o.coarsen_to = 0;
    o.two_hop_threshold = 2;
    h = build_expect(g, &o, 1, COARSEN_STOP_MIN_REDUCTION);
    cr_assert_eq(coarsen_hierarchy_stats(h, 1)->vertices, 100);
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
    /* No edges: nothing to contract, no level at all. */
    coarsen_error err = {0};
    g = coarsen_graph_alloc(10, 0, &err);
    for (int32_t v = 0; v <= 10; v++)
        g->xadj[v] = 0;
    for (int32_t v = 0; v < 10; v++)
        g->vwgt[v] = 1;
    h = build_expect(g, &o, 0, COARSEN_STOP_NO_EDGES);
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
}

Test(hierarchy, two_hop_pairs_leaves_of_a_star)
{
    coarsen_graph *g = star(101);
    coarsen_hierarchy_opts o = cpu_opts();
    o.matcher = COARSEN_MATCHER_HANDSHAKE; /* a matching, then two-hop (HEC: test_hec.c) */
    o.coarsen_to = 0;
    o.levels = 1;
    coarsen_hierarchy *h = build(g, &o);
    const coarsen_level_stats *s = coarsen_hierarchy_stats(h, 1);
    cr_assert_eq(s->matched_pairs, 1);
    cr_assert_eq(s->leaf_pairs, 50, "100 unmatched leaves pair up (got %lld)", (long long)s->leaf_pairs);
    cr_assert_eq(s->vertices, 102 - 1 - 50);
    check_hierarchy(h, 0, 1);
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
}

/* Unit weights on a mesh: ties by id match as a wavefront (one pair per
 * pass along each row), hashed ties in a few passes; both valid. */
Test(hierarchy, hashed_ties_default_cuts_passes_on_unit_grid)
{
    coarsen_graph *g = test_gen("grid2d:nx=120,ny=120");
    coarsen_hierarchy_opts o = cpu_opts();
    o.levels = 1;
    cr_assert(o.hashed_ties, "hashed ties are the pipeline's default");
    coarsen_hierarchy *h = build(g, &o);
    int hashed = coarsen_hierarchy_stats(h, 1)->matching_passes;
    check_hierarchy(h, 0, 1);
    coarsen_hierarchy_free(h);
    o.hashed_ties = 0;
    h = build(g, &o);
    int by_id = coarsen_hierarchy_stats(h, 1)->matching_passes;
    check_hierarchy(h, 0, 1);
    coarsen_hierarchy_free(h);
    cr_assert(hashed <= 30, "hashed ties took %d passes", hashed);
    cr_assert(by_id >= 4 * hashed, "ties by id took %d passes, hashed %d", by_id, hashed);
    coarsen_graph_free(g);
}

/* --refine roma: every level stays a valid hierarchy and each level's
 * matching weighs at least the unrefined one on the same graph (level 1). */
Test(hierarchy, roma_refinement_keeps_levels_valid_and_heavier)
{
    for (int t = 0; t < 6; t++) {
        coarsen_graph *g = test_random_graph(60 + 10 * t, 0.1, t % 3, 300 + (uint64_t)t);
        coarsen_hierarchy_opts o = cpu_opts();
        o.matcher = COARSEN_MATCHER_HANDSHAKE; /* ROMA refines a matching */
        o.coarsen_to = 0;
        o.levels = 4;
        coarsen_hierarchy *plain = build(g, &o);
        o.refine_roma = 1;
        coarsen_hierarchy *refined = build(g, &o);
        check_hierarchy(refined, 0, 1);
        const coarsen_level_stats *a = coarsen_hierarchy_stats(plain, 1), *b = coarsen_hierarchy_stats(refined, 1);
        cr_assert(b->matching_weight >= a->matching_weight, "trial %d: refined %g < plain %g", t,
                  b->matching_weight, a->matching_weight);
        coarsen_hierarchy_free(plain);
        coarsen_hierarchy_free(refined);
        coarsen_graph_free(g);
    }
}

Test(hierarchy, vertex_weight_cap_respected)
{
    coarsen_graph *g = test_gen("rgg:n=3000,deg=10,seed=11");
    coarsen_hierarchy_opts o = cpu_opts();
    o.coarsen_to = 0;
    o.max_vertex_weight = 6;
    coarsen_hierarchy *h = build(g, &o);
    int L = coarsen_hierarchy_levels(h);
    cr_assert_geq(L, 2);
    for (int k = 0; k <= L; k++)
        cr_assert_leq(coarsen_hierarchy_stats(h, k)->max_vertex_weight, 6, "level %d", k);
    check_hierarchy(h, 6, 2);
    coarsen_hierarchy_free(h);
    /* auto: max(1.5 * 3000 / 100 = 45, 3 * 3000 / n), n of the finer level */
    o.max_vertex_weight = COARSEN_VWGT_AUTO;
    o.coarsen_to = 100;
    o.levels = 30;
    h = build(g, &o);
    L = coarsen_hierarchy_levels(h);
    for (int k = 1; k <= L; k++) {
        int32_t n = coarsen_hierarchy_stats(h, k - 1)->vertices;
        int64_t cap = 9000 / n + (9000 % n != 0) > 45 ? 9000 / n + (9000 % n != 0) : 45;
        cr_assert_eq(coarsen_hierarchy_stats(h, k)->vertex_weight_cap, cap, "level %d", k);
        cr_assert_leq(coarsen_hierarchy_stats(h, k)->max_vertex_weight, cap, "level %d", k);
    }
    check_hierarchy(h, COARSEN_VWGT_AUTO, 3);
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
}

/* The auto cap of every level, recomputed here from coarsen.h's rule:
 * max(floor(1.5 W / coarsen_to), ceil(F W / n of the finer level)). */
static void assert_auto_caps(coarsen_hierarchy *h, const coarsen_hierarchy_opts *o)
{
    const double W = (double)coarsen_hierarchy_stats(h, 0)->total_vertex_weight;
    for (int k = 1; k <= coarsen_hierarchy_levels(h); k++) {
        double n = coarsen_hierarchy_stats(h, k - 1)->vertices;
        double metis = o->coarsen_to ? floor(1.5 * W / o->coarsen_to) : 0, avg = ceil(o->max_vertex_weight_factor * W / n);
        int64_t want = (int64_t)(metis > avg ? metis : avg);
        cr_assert_eq(coarsen_hierarchy_stats(h, k)->vertex_weight_cap, want, "level %d: cap %lld, rule %lld", k,
                     (long long)coarsen_hierarchy_stats(h, k)->vertex_weight_cap, (long long)want);
    }
    check_hierarchy(h, COARSEN_VWGT_AUTO, 7);
}

/* Small graphs never block: METIS's cap alone rounds to 1 vertex below
 * coarsen_to vertices of weight; the average term lets pairs form. */
Test(hierarchy, auto_cap_lets_average_vertices_pair)
{
    coarsen_graph *g = test_gen("grid2d:nx=34,ny=34"); /* 1156 vertices: 1.5 * 1156 / 1000 rounds to 1 */
    coarsen_hierarchy_opts o = cpu_opts();
    coarsen_hierarchy *h = build_expect(g, &o, 1, COARSEN_STOP_COARSEN_TO);
    assert_auto_caps(h, &o);
    coarsen_hierarchy_free(h);
    o.coarsen_to = 0; /* as many levels as shrink: a connected mesh ends on one vertex or at the level count */
    o.levels = 40;
    for (int m = 0; m < 2; m++) {
        o.matcher = m ? COARSEN_MATCHER_HEC : COARSEN_MATCHER_HANDSHAKE;
        h = build(g, &o);
        coarsen_stop_reason r = coarsen_hierarchy_stop_reason(h);
        cr_assert(r == COARSEN_STOP_NO_EDGES, "matcher %d stopped by %s", m, coarsen_stop_reason_name(r));
        cr_assert_eq(coarsen_hierarchy_stats(h, coarsen_hierarchy_levels(h))->vertices, 1);
        assert_auto_caps(h, &o);
        coarsen_hierarchy_free(h);
    }
    coarsen_graph_free(g);
}

/* A cap of 2 on unit weights: level 1 pairs, level 2 finds only pairs of
 * leftover singletons; the stop names the cap, and the recount agrees. */
Test(hierarchy, stop_reason_names_the_cap)
{
    coarsen_graph *g = test_gen("grid2d:nx=30,ny=30");
    coarsen_hierarchy_opts o = cpu_opts();
    o.coarsen_to = 0;
    o.max_vertex_weight = 2;
    for (int m = 0; m < 2; m++) {
        o.matcher = m ? COARSEN_MATCHER_HEC : COARSEN_MATCHER_HANDSHAKE;
        coarsen_hierarchy *h = build_expect(g, &o, -1, COARSEN_STOP_VERTEX_WEIGHT);
        cr_assert_str_eq(coarsen_stop_reason_name(COARSEN_STOP_VERTEX_WEIGHT), "vertex-weight-cap");
        check_hierarchy(h, 2, 5);
        coarsen_hierarchy_free(h);
    }
    o.max_vertex_weight = 0; /* no cap: never that reason */
    for (int m = 0; m < 2; m++) {
        o.matcher = m ? COARSEN_MATCHER_HEC : COARSEN_MATCHER_HANDSHAKE;
        coarsen_hierarchy *h = build(g, &o);
        cr_assert_neq(coarsen_hierarchy_stop_reason(h), COARSEN_STOP_VERTEX_WEIGHT);
        for (int k = 1; k <= coarsen_hierarchy_levels(h); k++)
            cr_assert_eq(coarsen_hierarchy_stats(h, k)->cap_blocked, 0, "level %d", k);
        coarsen_hierarchy_free(h);
    }
    coarsen_graph_free(g);
}

/* HEC and the ratings: every level of generated graphs valid (groups
 * connected, under each level's cap), and faster shrinking than pairs. */
Test(hierarchy, hec_and_ratings_every_level_valid)
{
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        coarsen_graph *g = test_gen(specs[k]);
        for (int r = 0; r < 3; r++) {
            coarsen_hierarchy_opts o = cpu_opts();
            o.coarsen_to = 20;
            o.levels = 30;
            o.matcher = COARSEN_MATCHER_HEC;
            o.rating = (coarsen_rating)r;
            coarsen_hierarchy *h = build(g, &o);
            cr_assert_geq(coarsen_hierarchy_levels(h), 2, "%s: only %d levels", specs[k], coarsen_hierarchy_levels(h));
            assert_auto_caps(h, &o);
            o.matcher = COARSEN_MATCHER_HANDSHAKE;
            coarsen_hierarchy *p = build(g, &o);
            check_hierarchy(p, COARSEN_VWGT_AUTO, k);
            cr_assert_leq(coarsen_hierarchy_stats(h, 1)->vertices, coarsen_hierarchy_stats(p, 1)->vertices,
                          "%s: HEC's level 1 larger than the matching's", specs[k]);
            coarsen_hierarchy_free(p);
            coarsen_hierarchy_free(h);
        }
        coarsen_graph_free(g);
    }
}

Test(hierarchy, bad_options_rejected)
{
    coarsen_graph *g = test_gen("grid2d:nx=5,ny=5");
    coarsen_hierarchy_opts o = cpu_opts();
    coarsen_error err = {0};
    coarsen_hierarchy *h = NULL;
    o.levels = -1;
    cr_assert_eq(coarsen_hierarchy_build(g, &o, &h, &err), COARSEN_ERR_INPUT);
    cr_assert_null(h);
    o = cpu_opts();
    o.min_reduction = 1.5;
    cr_assert_eq(coarsen_hierarchy_build(g, &o, &h, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "min-reduction"), "%s", err.msg);
    o = cpu_opts(); /* ROMA refines a matching; HEC makes groups */
    o.matcher = COARSEN_MATCHER_HEC;
    o.refine_roma = 1;
    cr_assert_eq(coarsen_hierarchy_build(g, &o, &h, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "ROMA"), "%s", err.msg);
    cr_assert_null(h);
    coarsen_graph_free(g);
}

/* The shared graph `file` of folder dir, loaded (the test fails when it cannot be). */
static coarsen_graph *load_shared(const char *dir, const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), 0, "%s: %s", file, err.msg);
    return g;
}

/* Shared real graphs: every level checked; social graphs stall without two-hop. */
Test(hierarchy, shared_graphs_every_level_valid)
{
    const char *dir = test_data_dir();
    if (!dir)
        cr_skip_test("shared graphs absent (set COARSEN_DATA)");
    static const char *const files[] = {"astro-ph.graph.gz", "PGPgiantcompo.graph", "p2p-Gnutella06.mtx",
                                        "polblogs.graph", "lesmis.graph", "4elt.graph", "GD97_b.mtx",
                                        "kahip_example_weighted.graph"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        coarsen_graph *g = load_shared(dir, files[k]);
        coarsen_hierarchy_opts o = cpu_opts();
        o.coarsen_to = 10;
        coarsen_hierarchy *h = build(g, &o);
        cr_assert_geq(coarsen_hierarchy_levels(h), 1, "%s", files[k]);
        check_hierarchy(h, 0, k);
        coarsen_hierarchy_free(h);
        coarsen_graph_free(g);
    }
}

/* The user's `coarsen --levels 10` (coarsen-to 0) on the social graphs of
 * issue 15: every level removes at least 30 % of the vertices, and a
 * hierarchy of fewer than 10 levels stops only at a level with no edges
 * left (the islands-free minimum: one vertex per connected component). */
Test(hierarchy, social_graphs_levels_remove_30_percent)
{
    const char *dir = test_data_dir();
    if (!dir)
        cr_skip_test("shared graphs absent (set COARSEN_DATA)");
    static const char *const files[] = {"astro-ph.graph.gz", "PGPgiantcompo.graph", "p2p-Gnutella06.mtx",
                                        "polblogs.graph"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        coarsen_graph *g = load_shared(dir, files[f]);
        coarsen_hierarchy_opts o = cpu_opts();
        o.coarsen_to = 0;
        o.levels = 10;
        coarsen_hierarchy *h = build(g, &o);
        const int L = coarsen_hierarchy_levels(h);
        for (int k = 1; k <= L; k++) {
            const int32_t a = coarsen_hierarchy_stats(h, k - 1)->vertices, b = coarsen_hierarchy_stats(h, k)->vertices;
            cr_assert_leq(10 * (int64_t)b, 7 * (int64_t)a, "%s: level %d keeps %d of %d vertices (> 70 %%)", files[f],
                          k, b, a);
        }
        if (L < 10)
            cr_assert(coarsen_hierarchy_stop_reason(h) == COARSEN_STOP_NO_EDGES &&
                          coarsen_hierarchy_stats(h, L)->edges == 0,
                      "%s: %d levels, stopped by %s", files[f], L,
                      coarsen_stop_reason_name(coarsen_hierarchy_stop_reason(h)));
        coarsen_hierarchy_free(h);
        coarsen_graph_free(g);
    }
}

/* Every level's graph and map of the GPU hierarchy equal the CPU's bit for bit. */
static void assert_same_hierarchy(coarsen_hierarchy *a, coarsen_hierarchy *b, const char *what)
{
    coarsen_error err = {0};
    int L = coarsen_hierarchy_levels(a);
    cr_assert_eq(coarsen_hierarchy_levels(b), L, "%s: %d vs %d levels", what, L, coarsen_hierarchy_levels(b));
    cr_assert_eq(coarsen_hierarchy_stop_reason(a), coarsen_hierarchy_stop_reason(b), "%s: stop reason", what);
    for (int k = 0; k <= L; k++) {
        const coarsen_graph *ga, *gb;
        cr_assert_eq(coarsen_hierarchy_graph(a, k, &ga, &err), 0, "%s", err.msg);
        cr_assert_eq(coarsen_hierarchy_graph(b, k, &gb, &err), 0, "%s", err.msg);
        cr_assert(ga->n == gb->n && ga->nnz == gb->nnz, "%s: level %d sizes differ", what, k);
        cr_assert_eq(ga->integral_weights, gb->integral_weights, "%s: level %d weight kind", what, k);
        cr_assert(!memcmp(ga->xadj, gb->xadj, ((size_t)ga->n + 1) * sizeof *ga->xadj), "%s: level %d xadj", what, k);
        cr_assert(!memcmp(ga->adj, gb->adj, (size_t)ga->nnz * sizeof *ga->adj), "%s: level %d adj", what, k);
        cr_assert(!memcmp(ga->ewgt, gb->ewgt, (size_t)ga->nnz * sizeof *ga->ewgt), "%s: level %d ewgt", what, k);
        cr_assert(!memcmp(ga->vwgt, gb->vwgt, (size_t)ga->n * sizeof *ga->vwgt), "%s: level %d vwgt", what, k);
        if (k == 0)
            continue;
        const int32_t *ma, *mb;
        cr_assert_eq(coarsen_hierarchy_map(a, k, &ma, &err), 0, "%s", err.msg);
        cr_assert_eq(coarsen_hierarchy_map(b, k, &mb, &err), 0, "%s", err.msg);
        int32_t n = coarsen_hierarchy_stats(a, k - 1)->vertices;
        cr_assert(!memcmp(ma, mb, (size_t)n * sizeof *ma), "%s: map %d differs", what, k);
        const coarsen_level_stats *sa = coarsen_hierarchy_stats(a, k), *sb = coarsen_hierarchy_stats(b, k);
        cr_assert(sa->matched_pairs == sb->matched_pairs && sa->leaf_pairs == sb->leaf_pairs &&
                      sa->twin_pairs == sb->twin_pairs && sa->max_vertex_weight == sb->max_vertex_weight &&
                      sa->relative_pairs == sb->relative_pairs && sa->island_pairs == sb->island_pairs &&
                      sa->cap_blocked == sb->cap_blocked && sa->vertex_weight_cap == sb->vertex_weight_cap &&
                      sa->matching_passes == sb->matching_passes && sa->matching_weight == sb->matching_weight &&
                      sa->matched_fraction == sb->matched_fraction &&
                      !memcmp(&sa->total_edge_weight, &sb->total_edge_weight, sizeof sa->total_edge_weight),
                  "%s: level %d counts differ: pairs %lld/%lld leaf %lld/%lld twin %lld/%lld relative %lld/%lld "
                  "island %lld/%lld blocked %lld/%lld cap %lld/%lld passes %d/%d weight %.17g/%.17g",
                  what, k, (long long)sa->matched_pairs, (long long)sb->matched_pairs, (long long)sa->leaf_pairs,
                  (long long)sb->leaf_pairs, (long long)sa->twin_pairs, (long long)sb->twin_pairs,
                  (long long)sa->relative_pairs, (long long)sb->relative_pairs, (long long)sa->island_pairs,
                  (long long)sb->island_pairs, (long long)sa->cap_blocked, (long long)sb->cap_blocked,
                  (long long)sa->vertex_weight_cap, (long long)sb->vertex_weight_cap, sa->matching_passes,
                  sb->matching_passes, sa->matching_weight, sb->matching_weight);
    }
}

Test(hierarchy_gpu, cpu_and_gpu_hierarchies_identical)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): CPU == GPU hierarchy not compared");
    static const char *const gpu_specs[] = {
        "grid2d:nx=300,ny=200,weights=int",  "rgg:n=100000,deg=10,weights=real,seed=2",
        "rmat:n=65536,deg=16,weights=int,seed=3", "delaunay:nx=200,ny=200,weights=exponential",
        "er:n=50000,deg=4,weights=int",         "grid3d:nx=30,weights=geometric",
    };
    for (size_t k = 0; k < sizeof gpu_specs / sizeof gpu_specs[0]; k++) {
        coarsen_graph *g = test_gen(gpu_specs[k]);
        /* handshake, red/blue, handshake + ROMA, HEC, handshake and HEC under the expansion ratings */
        for (int m = 0; m < 6; m++) {
            coarsen_hierarchy_opts o = cpu_opts();
            o.coarsen_to = 100;
            o.levels = 12;
            o.matcher = m == 1 ? COARSEN_MATCHER_REDBLUE : m == 3 || m == 5 ? COARSEN_MATCHER_HEC
                                                                           : COARSEN_MATCHER_HANDSHAKE;
            o.refine_roma = m == 2;
            o.rating = m == 4 ? COARSEN_RATING_EXPANSION2 : m == 5 ? COARSEN_RATING_EXPANSION : COARSEN_RATING_WEIGHT;
            o.two_hop_relatives = m == 0 ? 0.0 : o.two_hop_relatives;
            coarsen_hierarchy *c = build(g, &o);
            o.device = COARSEN_DEVICE_GPU;
            coarsen_hierarchy *d = build(g, &o);
            cr_assert(coarsen_hierarchy_on_gpu(d));
            assert_same_hierarchy(c, d, gpu_specs[k]);
            check_hierarchy(d, COARSEN_VWGT_AUTO, k);
            coarsen_hierarchy_free(c);
            coarsen_hierarchy_free(d);
        }
        coarsen_graph_free(g);
    }
}

/* host_below: the GPU builds the levels from graphs above it, the host the
 * rest (from the first graph at or below it on), the hierarchy still the
 * CPU's bit for bit, and the device copies of host levels (what the GPU
 * partitioner reads) equal them. */
Test(hierarchy_gpu, small_levels_handed_to_the_host_identical)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): host hand-off not exercised");
    coarsen_error err = {0};
    coarsen_graph *g = test_gen("grid2d:nx=300,ny=200,weights=int");
    coarsen_hierarchy_opts o = cpu_opts();
    o.coarsen_to = 50;
    o.levels = 15;
    coarsen_hierarchy *c = build(g, &o);
    o.device = COARSEN_DEVICE_GPU;
    o.host_below = 12000;
    coarsen_hierarchy *d = build(g, &o);
    assert_same_hierarchy(c, d, "grid2d 300x200, host below 12000");
    int L = coarsen_hierarchy_levels(d), on_gpu = 0, on_host = 0;
    for (int k = 1; k <= L; k++) {
        int expect = coarsen_hierarchy_stats(d, k - 1)->vertices > o.host_below;
        cr_assert_eq(coarsen_hierarchy_stats(d, k)->built_on_gpu, expect, "level %d from %d vertices", k,
                     coarsen_hierarchy_stats(d, k - 1)->vertices);
        on_gpu += expect;
        on_host += !expect;
        const coarsen_graph *dg = NULL, *hg = NULL, *dh = NULL;
        const int32_t *dmap = NULL, *hmap = NULL;
        cr_assert_eq(hierarchy_device_graph(d, k, &dg, &err), 0, "%s", err.msg);
        cr_assert_eq(hierarchy_device_map(d, k, &dmap, &err), 0, "%s", err.msg);
        cr_assert_eq(device_graph_download(dg, (coarsen_graph **)&dh, &err), 0, "%s", err.msg);
        cr_assert_eq(coarsen_hierarchy_graph(c, k, &hg, &err), 0, "%s", err.msg);
        char why[256];
        cr_assert(graphs_identical(hg, dh, why, sizeof why), "level %d device copy: %s", k, why);
        coarsen_graph_free((coarsen_graph *)dh);
        cr_assert_eq(coarsen_hierarchy_map(c, k, &hmap, &err), 0, "%s", err.msg);
        int32_t n = coarsen_hierarchy_stats(d, k - 1)->vertices;
        int32_t *back = malloc((size_t)n * sizeof *back + 1);
        cr_assert_eq(device_copy_to_host(back, dmap, (size_t)n * sizeof *back, &err), 0, "%s", err.msg);
        cr_assert_eq(memcmp(back, hmap, (size_t)n * sizeof *back), 0, "level %d device map", k);
        free(back);
    }
    cr_assert(on_gpu > 0 && on_host > 0, "%d levels on the GPU, %d on the host", on_gpu, on_host);
    coarsen_hierarchy_free(c);
    coarsen_hierarchy_free(d);
    coarsen_graph_free(g);
}

/* A graph that contracts slowly (R-MAT: every level keeps most edges) makes
 * the kept levels outgrow the device budget (3x the input): the builder
 * moves the oldest to the host. The hierarchy is still the CPU's, and the
 * device copies uploaded again on demand (hierarchy_device_graph / _map,
 * what the GPU partitioner reads) equal the host ones. */
Test(hierarchy_gpu, levels_moved_to_host_identical_and_uploaded_again)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): device level budget not exercised");
    coarsen_error err = {0};
    coarsen_graph *g = test_gen("rmat:n=65536,deg=16,weights=real,seed=5");
    coarsen_hierarchy_opts o = cpu_opts();
    o.coarsen_to = 0;
    o.min_reduction = 0;
    o.levels = 6;
    o.gpu_memory_factor = 3;
    o.keep_input_on_device = 1; /* the budget must take the input's room first */
    coarsen_hierarchy *c = build(g, &o);
    o.device = COARSEN_DEVICE_GPU;
    coarsen_hierarchy *d = build(g, &o);
    int L = coarsen_hierarchy_levels(d), moved = 0;
    cr_assert_geq(L, 4, "rmat: only %d levels", L);
    cr_assert(!hierarchy_level_on_device(d, 0), "the kept input stayed on the device past the budget");
    for (int k = 1; k <= L; k++)
        moved += !hierarchy_level_on_device(d, k);
    cr_assert_gt(moved, 0, "no level was moved to the host (levels 1..%d)", L);
    cr_assert(hierarchy_level_on_device(d, L), "the coarsest level left the device");
    assert_same_hierarchy(c, d, "rmat, levels moved to the host");
    for (int k = 0; k <= L; k++) {
        const coarsen_graph *hg, *dg;
        const int32_t *hm = NULL, *dm = NULL;
        coarsen_graph *back = NULL;
        cr_assert_eq(coarsen_hierarchy_graph(d, k, &hg, &err), 0, "%s", err.msg);
        cr_assert_eq(hierarchy_device_graph(d, k, &dg, &err), 0, "%s", err.msg);
        cr_assert_eq(device_graph_download(dg, &back, &err), 0, "%s", err.msg);
        char why[256];
        cr_assert(graphs_identical(hg, back, why, sizeof why), "level %d uploaded again: %s", k, why);
        coarsen_graph_free(back);
        if (k == 0)
            continue;
        cr_assert_eq(coarsen_hierarchy_map(d, k, &hm, &err), 0, "%s", err.msg);
        cr_assert_eq(hierarchy_device_map(d, k, &dm, &err), 0, "%s", err.msg);
        int32_t n = coarsen_hierarchy_stats(d, k - 1)->vertices;
        int32_t *m = malloc(((size_t)n + 1) * sizeof *m);
        cr_assert_eq(device_copy_to_host(m, dm, (size_t)n * sizeof *m, &err), 0, "%s", err.msg);
        cr_assert(!memcmp(m, hm, (size_t)n * sizeof *m), "map %d uploaded again differs", k);
        free(m);
    }
    coarsen_hierarchy_free(c);
    coarsen_hierarchy_free(d);
    coarsen_graph_free(g);
}

/* keep_input_on_device with room to spare: level 0's device copy outlives
 * the build and equals the input; without the option it is freed. */
Test(hierarchy_gpu, input_kept_on_device_when_asked)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): the kept input not checked");
    coarsen_error err = {0};
    coarsen_graph *g = test_gen("rgg:n=20000,deg=8,weights=int,seed=2");
    coarsen_hierarchy_opts o = cpu_opts();
    o.device = COARSEN_DEVICE_GPU;
    coarsen_hierarchy *plain = build(g, &o);
    o.keep_input_on_device = 1;
    coarsen_hierarchy *kept = build(g, &o);
    cr_assert_geq(coarsen_hierarchy_levels(kept), 2);
    cr_assert(!hierarchy_level_on_device(plain, 0), "the input's device copy outlived level 1 without the option");
    cr_assert(hierarchy_level_on_device(kept, 0), "the input's device copy was freed although kept");
    coarsen_graph *back = NULL;
    const coarsen_graph *kept0 = NULL;
    cr_assert_eq(hierarchy_device_graph(kept, 0, &kept0, &err), 0, "%s", err.msg);
    cr_assert_eq(device_graph_download(kept0, &back, &err), 0, "%s", err.msg);
    char why[256];
    cr_assert(graphs_identical(g, back, why, sizeof why), "kept input: %s", why);
    coarsen_graph_free(back);
    coarsen_hierarchy_free(plain);
    coarsen_hierarchy_free(kept);
    coarsen_graph_free(g);
}

Test(hierarchy_gpu, star_and_shared_graphs_identical)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): CPU == GPU hierarchy not compared");
    coarsen_graph *g = star(5001);
    coarsen_hierarchy_opts o;
    coarsen_hierarchy *c, *d;
    for (int m = 0; m < 2; m++) {
        o = cpu_opts();
        o.coarsen_to = 0;
        o.matcher = m ? COARSEN_MATCHER_HEC : COARSEN_MATCHER_HANDSHAKE;
        c = build(g, &o);
        o.device = COARSEN_DEVICE_GPU;
        d = build(g, &o);
        assert_same_hierarchy(c, d, "star");
        coarsen_hierarchy_free(c);
        coarsen_hierarchy_free(d);
    }
    coarsen_graph_free(g);
    const char *dir = test_data_dir();
    if (!dir)
        cr_skip_test("shared graphs absent (set COARSEN_DATA): only the star compared");
    static const char *const files[] = {"astro-ph.graph.gz", "p2p-Gnutella06.mtx", "polblogs.graph",
                                        "PGPgiantcompo.graph", "GD97_b.mtx", "road-NY.mtx.gz"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        g = load_shared(dir, files[k]);
        for (int m = 0; m < 2; m++) { /* handshake with every two-hop rule, HEC */
            o = cpu_opts();
            o.coarsen_to = 20;
            o.levels = 30;
            o.matcher = m ? COARSEN_MATCHER_HEC : COARSEN_MATCHER_HANDSHAKE;
            o.two_hop_relatives = 0.0;
            c = build(g, &o);
            o.device = COARSEN_DEVICE_GPU;
            d = build(g, &o);
            assert_same_hierarchy(c, d, files[k]);
            coarsen_hierarchy_free(c);
            coarsen_hierarchy_free(d);
        }
        coarsen_graph_free(g);
    }
}

/* hierarchy_contract_input (the V-cycle's hierarchy): a hierarchy built on
 * g without some of its edges, then given g, holds at every level the
 * contraction of the level above by the same map, as a dense recount finds
 * it (edges, weights summed in stored order, vertex weights), with its
 * figures recorded again; a graph of another size is refused. */
Test(hierarchy, contract_input_recontracts_along_the_maps)
{
    const char *inputs[] = {"delaunay:n=2000,weights=int,seed=3", "rgg:n=1500,deg=8,weights=real,seed=4"};
    for (int s = 0; s < 2; s++) {
        coarsen_graph *g = test_gen(inputs[s]);
        int64_t kept = 0; /* g without the edges {u, v} with u + v divisible by 5 */
        for (int32_t v = 0; v < g->n; v++)
            for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
                kept += (v + g->adj[i]) % 5 != 0;
        coarsen_error err = {0};
        coarsen_graph *inner = coarsen_graph_alloc(g->n, kept, &err);
        cr_assert_not_null(inner, "%s", err.msg);
        int64_t e = 0;
        for (int32_t v = 0; v < g->n; v++) {
            for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
                if ((v + g->adj[i]) % 5 != 0) {
                    inner->adj[e] = g->adj[i];
                    inner->ewgt[e++] = g->ewgt[i];
                }
            inner->xadj[v + 1] = e;
            inner->vwgt[v] = g->vwgt[v];
        }
        inner->integral_weights = g->integral_weights;
        coarsen_hierarchy_opts o = cpu_opts();
        o.coarsen_to = 100;
        coarsen_hierarchy *h = build(inner, &o);
        int L = coarsen_hierarchy_levels(h);
        cr_assert_geq(L, 3, "%s: %d levels", inputs[s], L);
        coarsen_graph *other = test_gen("grid2d:nx=10,ny=10");
        cr_assert_eq(hierarchy_contract_input(h, other, NULL, &err), COARSEN_ERR_INPUT);
        cr_assert_eq(hierarchy_contract_input(h, g, NULL, &err), 0, "%s", err.msg);
        coarsen_graph_free(inner); /* no longer part of h */
        const coarsen_graph *fine = NULL, *coarse = NULL;
        cr_assert_eq(coarsen_hierarchy_graph(h, 0, &fine, &err), 0, "%s", err.msg);
        cr_assert_eq(fine, g);
        for (int k = 1; k <= L; k++) {
            const int32_t *map = NULL;
            cr_assert_eq(coarsen_hierarchy_map(h, k, &map, &err), 0, "%s", err.msg);
            cr_assert_eq(coarsen_hierarchy_graph(h, k, &coarse, &err), 0, "%s", err.msg);
            int32_t nc = coarse->n;
            cr_assert_eq(nc, coarsen_hierarchy_stats(h, k)->vertices);
            cr_assert_eq(coarse->nnz / 2, coarsen_hierarchy_stats(h, k)->edges, "%s level %d", inputs[s], k);
            double *d = NULL;
            char *present = NULL;
            oracle_dense_contract(fine, map, nc, &d, &present);
            int64_t entries = 0, *vw = calloc((size_t)nc, sizeof *vw);
            for (int64_t a = 0; a < (int64_t)nc * nc; a++)
                entries += present[a];
            cr_assert_eq(coarse->nnz, entries, "%s level %d", inputs[s], k);
            for (int32_t a = 0; a < nc; a++)
                for (int64_t i = coarse->xadj[a]; i < coarse->xadj[a + 1]; i++) {
                    int64_t at = (int64_t)a * nc + coarse->adj[i];
                    cr_assert(present[at], "%s level %d: edge %d-%d", inputs[s], k, a, coarse->adj[i]);
                    cr_assert_eq(coarse->ewgt[i], d[at], "%s level %d: edge %d-%d", inputs[s], k, a, coarse->adj[i]);
                }
            for (int32_t v = 0; v < fine->n; v++)
                vw[map[v]] += fine->vwgt[v];
            for (int32_t a = 0; a < nc; a++)
                cr_assert_eq(coarse->vwgt[a], vw[a], "%s level %d vertex %d", inputs[s], k, a);
            free(vw);
            free(d);
            free(present);
            fine = coarse;
        }
        coarsen_hierarchy_free(h);
        coarsen_graph_free(other);
        coarsen_graph_free(g);
    }
}

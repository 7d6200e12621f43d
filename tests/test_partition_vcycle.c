/* test_partition_vcycle.c — the V-cycles after the first multilevel cycle
 * (partition/vcycle.c): from any partition the cut never grows and every
 * part stays within the cap (recounted by the oracles of partition_check.h),
 * a random start is always improved, the driver with V-cycles never cuts more
 * than without (same seed: the first cycle is the same), and on small graphs
 * the result is a valid bisection never below the brute-force optimum, which
 * it reaches on planted bisections. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/graph_build.h"
#include "partition/partition.h"
#include "tests/support/partition_check.h"
#include "tests/support/test_support.h"

static partition_opts opts_for(int32_t k, uint64_t seed, int vcycles)
{
    partition_opts o;
    partition_opts_default(&o);
    o.k = k;
    o.seed = seed;
    o.vcycles = vcycles;
    o.restarts = 1; /* one first cycle, the same whatever the V-cycles */
    o.hierarchy.device = COARSEN_DEVICE_CPU;
    return o;
}

Test(partition_vcycle, never_increases_the_cut_and_improves_a_random_start)
{
    const char *specs[] = {"delaunay:n=3000,weights=int,seed=2", "rgg:n=3000,deg=10,weights=real,seed=2",
                           "grid2d:nx=50,ny=50"};
    for (int s = 0; s < 3; s++) {
        coarsen_graph *g = partition_test_graph(specs[s], s == 0 ? 5 : 1, 8);
        for (int32_t k = 2; k <= 32; k *= 4) {
            partition_opts o = opts_for(k, 3, 1);
            int64_t cap = oracle_cap(g, k, o.imbalance);
            int32_t *part = random_partition(g, k, 11);
            coarsen_error err = {0};
            cr_assert_eq(partition_rebalance_cpu(g, k, cap, part, NULL, &err), 0, "%s", err.msg);
            double before = oracle_partition_cut(g, part);
            partition_refine_stats st = {0};
            cr_assert_eq(partition_vcycle(g, NULL, &o, 5, part, &st, &err), 0, "%s", err.msg);
            double after = oracle_partition_cut(g, part);
            cr_assert_lt(after, before, "%s k %d: a random partition is always improved (%g, %g)", specs[s], k,
                         after, before);
            expect_partition_within(g, part, k, cap);
            /* again from the result: never worse, still within cap */
            cr_assert_eq(partition_vcycle(g, NULL, &o, 6, part, &st, &err), 0, "%s", err.msg);
            double again = oracle_partition_cut(g, part);
            cr_assert_leq(again, after * (1 + 1e-12), "%s k %d: %g > %g", specs[s], k, again, after);
            expect_partition_within(g, part, k, cap);
            free(part);
        }
        coarsen_graph_free(g);
    }
}

/* The driver with 0, 1 and 3 V-cycles, same seed: the first cycle is the
 * same (same per-level reports), and every V-cycle keeps its result only
 * when it cuts less, so the cut does not grow with the count; it does
 * shrink on some of these graphs. */
Test(partition_vcycle, more_vcycles_never_cut_more_in_the_driver)
{
    const char *specs[] = {"delaunay:n=4000,seed=3", "rgg:n=3000,deg=12,weights=int,seed=5",
                           "er:n=1500,deg=6,weights=real,seed=9"};
    int32_t ks[] = {2, 8, 64};
    int shrank = 0;
    for (int s = 0; s < 3; s++) {
        coarsen_graph *g = partition_test_graph(specs[s], 1, s);
        int32_t *part = malloc(g->n * sizeof *part);
        for (int ki = 0; ki < 3; ki++) {
            double prev = INFINITY, first_level0 = -1;
            for (int vc = 0; vc <= 3; vc += 1 + (vc == 1)) {
                partition_opts o = opts_for(ks[ki], 1, vc);
                partition_result res;
                coarsen_error err = {0};
                cr_assert_eq(partition_multilevel(g, &o, part, &res, &err), 0, "%s", err.msg);
                expect_partition_within(g, part, ks[ki], oracle_cap(g, ks[ki], o.imbalance));
                double cut = oracle_partition_cut(g, part);
                cr_assert_float_eq(res.cut, cut, 1e-9 * (1 + cut));
                cr_assert_leq(res.cut, res.level[0].cut_refined * (1 + 1e-12));
                if (first_level0 < 0)
                    first_level0 = res.level[0].cut_refined;
                cr_assert_eq(res.level[0].cut_refined, first_level0, "%s k %d: the first cycle changed", specs[s],
                             ks[ki]);
                cr_assert_leq(cut, prev * (1 + 1e-12), "%s k %d, %d V-cycles: %g > %g", specs[s], ks[ki], vc, cut,
                              prev);
                shrank += cut < prev * (1 - 1e-12) && isfinite(prev);
                prev = cut;
                partition_result_free(&res);
            }
        }
        free(part);
        coarsen_graph_free(g);
    }
    cr_assert_gt(shrank, 0, "no V-cycle improved any of the 9 partitions");
}

/* Minimum cut over the bisections of a 16-vertex unit-weight graph with 8
 * vertices a side (the cap at 3 % imbalance), by enumeration. */
static double brute_force_bisection(const coarsen_graph *g)
{
    double best = INFINITY;
    int32_t bits[16];
    for (uint32_t mask = 0; mask < 1u << 16; mask++) {
        if (__builtin_popcount(mask) != 8 || (mask & 1))
            continue; /* vertex 0 on side 0: each bisection once */
        for (int32_t v = 0; v < 16; v++)
            bits[v] = (int32_t)(mask >> v & 1);
        double c = oracle_partition_cut(g, bits);
        best = c < best ? c : best;
    }
    return best;
}

/* Two halves of 8 vertices, each pair inside a half an edge with
 * probability 0.7, across with probability 0.05, vertex ids scrambled. */
static coarsen_graph *planted_bisection(uint64_t seed)
{
    int32_t perm[16];
    for (int32_t v = 0; v < 16; v++)
        perm[v] = v;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int32_t v = 15; v > 0; v--) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int32_t j = (int32_t)((x >> 33) % (uint64_t)(v + 1)), t = perm[v];
        perm[v] = perm[j];
        perm[j] = t;
    }
    edge_list e;
    coarsen_error err = {0};
    cr_assert_eq(edge_list_init(&e, 128, &err), 0);
    for (int32_t i = 0; i < 16; i++)
        for (int32_t j = i + 1; j < 16; j++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            double u = (double)(x >> 11) / 9007199254740992.0;
            if (u < ((i < 8) == (j < 8) ? 0.7 : 0.05))
                cr_assert_eq(edge_list_push(&e, perm[i], perm[j], 1, &err), 0);
        }
    graph_build_opts o = {.mirrored = 1, .dup_rule = MERGE_SUM, .sym_rule = MERGE_MAX};
    coarsen_graph *g = NULL;
    cr_assert_eq(graph_from_edges(16, &e, &o, &g, NULL, &err), 0, "%s", err.msg);
    edge_list_free(&e);
    return g;
}

Test(partition_vcycle, small_graphs_against_the_brute_force_bisection)
{
    int planted_hits = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        coarsen_graph *g = seed <= 10 ? test_random_graph(16, 0.3, 0, seed) : planted_bisection(seed);
        double best = brute_force_bisection(g);
        partition_opts o = opts_for(2, seed, 2);
        int32_t part[16];
        partition_result res;
        coarsen_error err = {0};
        cr_assert_eq(partition_multilevel(g, &o, part, &res, &err), 0, "%s", err.msg);
        cr_assert_eq(res.cap, 8);
        expect_partition_within(g, part, 2, 8);
        double cut = oracle_partition_cut(g, part);
        cr_assert_eq(res.cut, cut, "seed %llu", (unsigned long long)seed);
        cr_assert_geq(cut, best, "seed %llu: cut %g below the optimum %g", (unsigned long long)seed, cut, best);
        planted_hits += seed > 10 && cut == best;
        partition_result_free(&res);
        coarsen_graph_free(g);
    }
    cr_assert_eq(planted_hits, 10, "the optimum of a planted bisection was missed");
}

/* test_two_hop.c — two-hop matching (islands, leaves, twins, relatives):
 * stars, graphs with planted twins, leaves and isolated vertices against a
 * brute-force oracle (all pairs of unmatched vertices' neighbour sets
 * compared, hubs by plain scans), the weight cap, no vertex twice, the
 * cap-blocked count, contraction of the extended matching, thread-count
 * independence, and GPU results identical to the CPU's. */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/contract.h"
#include "core/hash.h"
#include "device/device.h"
#include "matching/two_hop.h"
#include "tests/support/contract_oracles.h"
#include "tests/support/match_oracles.h"
#include "tests/support/test_support.h"

/* Two-hop options: the cap, and relatives never (threshold above 1). */
static two_hop_opts no_relatives(int64_t cap) { return (two_hop_opts){cap, 2.0}; }

/* mate2 extends mate: symmetric, old pairs kept, every new pair two
 * unmatched vertices that are both isolated, have the same neighbour set, or
 * share a neighbour, within the cap; the counts of each kind agree with the
 * report. */
static void check_extension(const coarsen_graph *g, const int32_t *mate, const int32_t *mate2, int64_t cap,
                            const two_hop_stats *st, const char *what)
{
    int64_t leaf = 0, twin = 0, relative = 0, island = 0;
    for (int32_t v = 0; v < g->n; v++) {
        int32_t m = mate2[v];
        if (mate[v] != -1) {
            cr_assert_eq(m, mate[v], "%s: matched vertex %d changed", what, v);
            continue;
        }
        if (m == -1)
            continue;
        cr_assert(m >= 0 && m < g->n && m != v && mate2[m] == v, "%s: %d-%d not symmetric", what, v, m);
        cr_assert_eq(mate[m], -1, "%s: %d paired with matched %d", what, v, m);
        int64_t dv = g->xadj[v + 1] - g->xadj[v], dm = g->xadj[m + 1] - g->xadj[m];
        cr_assert((dv == 0) == (dm == 0), "%s: isolated %d paired with %d, which is not", what, v, m);
        cr_assert(dv == 0 || oracle_share_neighbour(g, v, m), "%s: %d and %d share no neighbour", what, v, m);
        if (cap > 0)
            cr_assert_leq(g->vwgt[v] + g->vwgt[m], cap, "%s: cap broken by %d-%d", what, v, m);
        if (v < m)
            *(dv == 0                            ? &island
              : !oracle_same_neighbours(g, v, m) ? &relative
              : dv == 1                          ? &leaf
                                                 : &twin) += 1;
    }
    /* relatives may also pair two members of one class that the class's
     * greedy pass left apart: same lists, counted as relatives */
    cr_assert_eq(st->leaf_pairs + st->twin_pairs + st->relative_pairs, leaf + twin + relative,
                 "%s: %lld pairs reported, %lld made", what,
                 (long long)(st->leaf_pairs + st->twin_pairs + st->relative_pairs), (long long)(leaf + twin + relative));
    cr_assert(st->leaf_pairs <= leaf && st->twin_pairs <= twin && st->relative_pairs >= relative,
              "%s: %lld/%lld/%lld leaf/twin/relative pairs reported, %lld/%lld/%lld by their lists", what,
              (long long)st->leaf_pairs, (long long)st->twin_pairs, (long long)st->relative_pairs, (long long)leaf,
              (long long)twin, (long long)relative);
    cr_assert_eq(st->island_pairs, island, "%s", what);
}

/* A partial matching: the greedy matching, then each pair kept with
 * probability keep_percent / 100. */
static void partial_matching(const coarsen_graph *g, uint64_t seed, int keep_percent, int32_t *mate)
{
    oracle_random_greedy_matching(g, seed, mate);
    for (int32_t v = 0; v < g->n; v++)
        if (mate[v] > v && (int)(hash3(seed, 0x4b, (uint64_t)v) % 100) >= keep_percent)
            mate[mate[v]] = -1, mate[v] = -1;
}

Test(two_hop, star_leaves_pair_up_consecutively)
{
    coarsen_error err = {0};
    for (int32_t n = 1; n <= 12; n++) {
        coarsen_graph *g = test_star_graph(n, 0, 1, (uint64_t)n);
        int32_t mate[12];
        for (int32_t v = 0; v < n; v++)
            mate[v] = -1;
        two_hop_stats st;
        two_hop_opts o = no_relatives(0);
        cr_assert_eq(two_hop_cpu(g, &o, mate, &st, &err), 0, "%s", err.msg);
        int32_t leaves = n - 1;
        cr_assert_eq(st.leaf_pairs, leaves / 2, "star %d", n);
        cr_assert_eq(st.twin_pairs, 0, "a star has no twins of degree >= 2");
        cr_assert_eq(mate[0], -1, "the centre stays unmatched");
        for (int32_t v = 1; v < n; v++) {
            int32_t want = (v == n - 1 && leaves % 2) ? -1 : ((v - 1) % 2 ? v - 1 : v + 1);
            cr_assert_eq(mate[v], want, "star %d: mate[%d] = %d, want %d", n, v, mate[v], want);
        }
        coarsen_graph_free(g);
    }
}

Test(two_hop, matched_centre_and_leaves_of_two_stars)
{
    /* two stars joined centre to centre (0-1), centres matched: leaves of
     * each centre pair among themselves only */
    coarsen_error err = {0};
    coarsen_graph *g = oracle_twin_graph(2, 2, 1.0, 7, 1, 9); /* leaves hang on 0 or 1 */
    int32_t *mate = malloc((size_t)g->n * sizeof *mate), *mate2 = malloc((size_t)g->n * sizeof *mate2);
    for (int32_t v = 0; v < g->n; v++)
        mate[v] = -1;
    mate[0] = 1, mate[1] = 0;
    memcpy(mate2, mate, (size_t)g->n * sizeof *mate);
    two_hop_stats st;
    two_hop_opts o = no_relatives(0);
    cr_assert_eq(two_hop_cpu(g, &o, mate2, &st, &err), 0, "%s", err.msg);
    check_extension(g, mate, mate2, 0, &st, "two stars");
    int32_t per_centre[2] = {0, 0};
    for (int32_t v = 2; v < g->n; v++)
        per_centre[g->adj[g->xadj[v]]]++;
    cr_assert_eq(st.leaf_pairs, per_centre[0] / 2 + per_centre[1] / 2);
    free(mate);
    free(mate2);
    coarsen_graph_free(g);
}

/* The cases every comparison runs on: graphs with planted twins and leaves,
 * plain random graphs (isolated vertices among them), partial matchings,
 * caps on random vertex weights, relatives never, always or past 10 %. */
#define TWO_HOP_CASES 120
static coarsen_graph *two_hop_case(int trial, int32_t **mate, two_hop_opts *o)
{
    int32_t n = 2 + (int32_t)(hash3(55, (uint64_t)trial, 0) % 60);
    coarsen_graph *g = trial % 4 == 3 ? test_random_graph(n, 0.1 - 0.02 * (trial % 5), trial % 3, (uint64_t)trial)
                                      : oracle_twin_graph(n, 2 + trial % 9, 0.4, trial % 13, trial % 3, (uint64_t)trial);
    cr_assert_not_null(g);
    test_random_vertex_weights(g, 9, (uint64_t)trial);
    *mate = malloc((size_t)g->n * sizeof **mate);
    partial_matching(g, (uint64_t)trial, (trial % 5) * 20, *mate);
    o->max_vertex_weight = trial % 3 == 0 ? 0 : 8 + trial % 6;
    o->relatives_threshold = trial % 7 < 3 ? 2.0 : trial % 7 < 5 ? 0.0 : 0.1;
    return g;
}

Test(two_hop, random_graphs_match_brute_force_oracle)
{
    coarsen_error err = {0};
    int64_t total[4] = {0, 0, 0, 0};
    for (int trial = 0; trial < TWO_HOP_CASES; trial++) {
        int32_t *mate;
        two_hop_opts o;
        coarsen_graph *g = two_hop_case(trial, &mate, &o);
        size_t bytes = (size_t)g->n * sizeof *mate;
        int32_t *got = malloc(bytes), *want = malloc(bytes);
        memcpy(got, mate, bytes);
        memcpy(want, mate, bytes);
        two_hop_stats st;
        int64_t pairs[4], blocked;
        cr_assert_eq(two_hop_cpu(g, &o, got, &st, &err), 0, "%s", err.msg);
        oracle_two_hop(g, o.max_vertex_weight, o.relatives_threshold, want, pairs, &blocked);
        char what[64];
        snprintf(what, sizeof what, "trial %d", trial);
        check_extension(g, mate, got, o.max_vertex_weight, &st, what);
        cr_assert_eq(memcmp(got, want, bytes), 0, "%s: differs from the brute-force oracle", what);
        cr_assert(st.leaf_pairs == pairs[0] && st.twin_pairs == pairs[1] && st.relative_pairs == pairs[2] &&
                      st.island_pairs == pairs[3],
                  "%s", what);
        cr_assert_eq(st.cap_blocked, blocked, "%s: %lld cap-blocked reported, %lld", what, (long long)st.cap_blocked,
                     (long long)blocked);
        for (int k = 0; k < 4; k++)
            total[k] += pairs[k];
        /* the extended matching contracts like any other */
        int32_t nc = 0, *cmap = malloc(bytes);
        coarsen_graph *h = NULL;
        cr_assert_eq(contract_map_from_mates_cpu(g->n, got, cmap, &nc, &err), 0, "%s", err.msg);
        cr_assert_eq(contract_cpu(g, cmap, nc, &h, &err), 0, "%s", err.msg);
        cr_assert_eq(coarsen_graph_check(h, &err), 0, "%s: %s", what, err.msg);
        coarsen_graph_free(h);
        free(cmap);
        free(got);
        free(want);
        free(mate);
        coarsen_graph_free(g);
    }
    cr_assert(total[0] > 50 && total[1] > 50 && total[2] > 50 && total[3] > 20,
              "the cases exercise every rule (%lld leaf, %lld twin, %lld relative, %lld island pairs)",
              (long long)total[0], (long long)total[1], (long long)total[2], (long long)total[3]);
}

Test(two_hop, cap_keeps_lighter_vertex_pending)
{
    /* star with leaf weights 5, 9, 2, 4, 3: cap 7 pairs (5,2) then (4,3) */
    coarsen_error err = {0};
    coarsen_graph *g = test_star_graph(6, 0, 0, 1);
    int64_t w[6] = {1, 5, 9, 2, 4, 3};
    memcpy(g->vwgt, w, sizeof w);
    int32_t mate[6] = {-1, -1, -1, -1, -1, -1};
    two_hop_stats st;
    two_hop_opts o = no_relatives(7);
    cr_assert_eq(two_hop_cpu(g, &o, mate, &st, &err), 0, "%s", err.msg);
    cr_assert_eq(mate[1], 3);
    cr_assert_eq(mate[2], -1);
    cr_assert_eq(mate[4], 5);
    cr_assert_eq(st.leaf_pairs, 2);
    coarsen_graph_free(g);
}

Test(two_hop_gpu, identical_to_cpu)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): GPU two-hop matching not run");
    coarsen_error err = {0};
    for (int trial = 0; trial < TWO_HOP_CASES + 5; trial++) {
        int32_t *mate;
        two_hop_opts o = no_relatives(0);
        coarsen_graph *g;
        if (trial < TWO_HOP_CASES) {
            g = two_hop_case(trial, &mate, &o);
        } else { /* larger: a big star, many twins and leaves, random graphs (isolated vertices too) */
            g = trial == TWO_HOP_CASES       ? test_star_graph(100000, 0, 2, 1)
                : trial == TWO_HOP_CASES + 1 ? oracle_twin_graph(2000, 60, 0.2, 20000, 2, 2)
                : trial == TWO_HOP_CASES + 2 ? test_random_graph(3000, 0.003, 1, 3)
                                             : test_sparse_graph(200000, 150000, trial % 3, (uint64_t)trial);
            test_random_vertex_weights(g, 9, (uint64_t)trial);
            mate = malloc((size_t)g->n * sizeof *mate);
            partial_matching(g, (uint64_t)trial, 50, mate);
            o.max_vertex_weight = trial == TWO_HOP_CASES + 1 || trial == TWO_HOP_CASES + 4 ? 12 : 0;
            o.relatives_threshold = trial >= TWO_HOP_CASES + 2 ? 0.0 : 2.0;
        }
        const int64_t cap = o.max_vertex_weight;
        size_t bytes = (size_t)g->n * sizeof *mate;
        int32_t *cpu = malloc(bytes), *gpu = malloc(bytes);
        memcpy(cpu, mate, bytes);
        two_hop_stats sc, sg;
        cr_assert_eq(two_hop_cpu(g, &o, cpu, &sc, &err), 0, "%s", err.msg);
        coarsen_graph *dg = NULL;
        void *d_mate = NULL;
        cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
        cr_assert_eq(device_alloc(&d_mate, bytes, "mate", &err), 0, "%s", err.msg);
        cr_assert_eq(device_copy_to_device(d_mate, mate, bytes, &err), 0, "%s", err.msg);
        cr_assert_eq(two_hop_gpu(dg, &o, d_mate, &sg, &err), 0, "trial %d: %s", trial, err.msg);
        cr_assert_eq(device_copy_to_host(gpu, d_mate, bytes, &err), 0, "%s", err.msg);
        cr_assert_eq(memcmp(cpu, gpu, bytes), 0, "trial %d: GPU mate differs from CPU", trial);
        cr_assert(sc.leaf_pairs == sg.leaf_pairs && sc.twin_pairs == sg.twin_pairs &&
                      sc.relative_pairs == sg.relative_pairs && sc.island_pairs == sg.island_pairs &&
                      sc.cap_blocked == sg.cap_blocked,
                  "trial %d: counts CPU %lld/%lld/%lld/%lld/%lld GPU %lld/%lld/%lld/%lld/%lld", trial,
                  (long long)sc.leaf_pairs, (long long)sc.twin_pairs, (long long)sc.relative_pairs,
                  (long long)sc.island_pairs, (long long)sc.cap_blocked, (long long)sg.leaf_pairs,
                  (long long)sg.twin_pairs, (long long)sg.relative_pairs, (long long)sg.island_pairs,
                  (long long)sg.cap_blocked);
        check_extension(g, mate, gpu, cap, &sg, "gpu");
        if (trial == TWO_HOP_CASES) { /* star: the unmatched leaves pair up */
            int64_t free_leaves = 0;
            for (int32_t v = 1; v < g->n; v++)
                free_leaves += mate[v] == -1;
            cr_assert_eq(sg.leaf_pairs, free_leaves / 2);
        }
        device_free(d_mate);
        coarsen_graph_free(dg);
        free(cpu);
        free(gpu);
        free(mate);
        coarsen_graph_free(g);
    }
}

/* The GPU decides on the device whether rule (3) runs: thresholds just
 * below and just above the count left unmatched by rules (0)-(2), both
 * under the candidates' count, give the CPU's mates and counts, relatives
 * paired on one side only. */
Test(two_hop_gpu, relatives_threshold_decided_on_device)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): GPU two-hop matching not run");
    coarsen_error err = {0};
    coarsen_graph *g = oracle_twin_graph(2000, 60, 0.2, 20000, 2, 2); /* leaves and twins: rules (1)-(2) pair */
    size_t bytes = (size_t)g->n * sizeof(int32_t);
    int32_t *mate = malloc(bytes), *cpu = malloc(bytes), *gpu = malloc(bytes);
    partial_matching(g, 5, 50, mate);
    int64_t m = 0;
    for (int32_t v = 0; v < g->n; v++)
        m += mate[v] == -1;
    two_hop_stats sc, sg;
    two_hop_opts o = no_relatives(0);
    memcpy(cpu, mate, bytes);
    cr_assert_eq(two_hop_cpu(g, &o, cpu, &sc, &err), 0, "%s", err.msg);
    const int64_t left = m - 2 * (sc.leaf_pairs + sc.twin_pairs + sc.island_pairs);
    cr_assert(left >= 2 && left < m, "rules (0)-(2) pair some and leave some (%lld of %lld)", (long long)left,
              (long long)m);
    coarsen_graph *dg = NULL;
    void *d_mate = NULL;
    cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
    cr_assert_eq(device_alloc(&d_mate, bytes, "mate", &err), 0, "%s", err.msg);
    for (int side = 0; side < 2; side++) {
        o.relatives_threshold = ((double)left + (side ? 0.5 : -0.5)) / g->n; /* side 1: not more than that left */
        memcpy(cpu, mate, bytes);
        cr_assert_eq(two_hop_cpu(g, &o, cpu, &sc, &err), 0, "%s", err.msg);
        cr_assert_eq(device_copy_to_device(d_mate, mate, bytes, &err), 0, "%s", err.msg);
        cr_assert_eq(two_hop_gpu(dg, &o, d_mate, &sg, &err), 0, "%s", err.msg);
        cr_assert_eq(device_copy_to_host(gpu, d_mate, bytes, &err), 0, "%s", err.msg);
        cr_assert_eq(memcmp(cpu, gpu, bytes), 0, "side %d: GPU mate differs from CPU", side);
        cr_assert_eq(sg.relative_pairs, sc.relative_pairs, "side %d", side);
        cr_assert_eq(sg.cap_blocked, sc.cap_blocked, "side %d", side);
        cr_assert(side ? sc.relative_pairs == 0 : sc.relative_pairs > 0, "side %d: %lld relative pairs", side,
                  (long long)sc.relative_pairs);
    }
    device_free(d_mate);
    coarsen_graph_free(dg);
    free(mate), free(cpu), free(gpu);
    coarsen_graph_free(g);
}

/* Two-hop (every rule) after a greedy matching on real power-law and sparse
 * graphs from ../shared/data: the brute-force oracle, the same result on 1
 * and 2 threads, and the GPU when present. */
Test(two_hop, shared_graphs_match_oracle_and_gpu)
{
    const char *dir = test_data_dir();
    if (!dir)
        cr_skip_test("shared graphs absent (set COARSEN_DATA or provide ../shared/data)");
    const char *names[] = {"p2p-Gnutella06.mtx", "polblogs.graph", "power.graph", "astro-ph.graph.gz", "lesmis.graph"};
    coarsen_error err = {0};
    int64_t total = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        coarsen_graph *g = NULL;
        cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), 0, "%s", err.msg);
        size_t bytes = (size_t)g->n * sizeof(int32_t);
        int32_t *mate = malloc(bytes), *got = malloc(bytes), *want = malloc(bytes);
        oracle_random_greedy_matching(g, i, mate);
        memcpy(got, mate, bytes);
        memcpy(want, mate, bytes);
        two_hop_stats st, st1;
        int64_t pairs[4], blocked;
        const two_hop_opts all = {0, 0.0};
        cr_assert_eq(two_hop_cpu(g, &all, got, &st, &err), 0, "%s", err.msg);
        oracle_two_hop(g, 0, 0.0, want, pairs, &blocked);
        check_extension(g, mate, got, 0, &st, names[i]);
        cr_assert_eq(memcmp(got, want, bytes), 0, "%s: differs from the brute-force oracle", names[i]);
        total += st.leaf_pairs + st.twin_pairs + st.relative_pairs + st.island_pairs;
        memcpy(want, mate, bytes);
        omp_set_num_threads(1);
        cr_assert_eq(two_hop_cpu(g, &all, want, &st1, &err), 0, "%s", err.msg);
        omp_set_num_threads(2);
        cr_assert_eq(memcmp(got, want, bytes), 0, "%s: 1 thread differs from 2", names[i]);
        if (test_have_gpu()) {
            coarsen_graph *dg = NULL;
            void *d_mate = NULL;
            two_hop_stats sg;
            cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
            cr_assert_eq(device_alloc(&d_mate, bytes, "mate", &err), 0, "%s", err.msg);
            cr_assert_eq(device_copy_to_device(d_mate, mate, bytes, &err), 0, "%s", err.msg);
            cr_assert_eq(two_hop_gpu(dg, &all, d_mate, &sg, &err), 0, "%s", err.msg);
            cr_assert_eq(device_copy_to_host(want, d_mate, bytes, &err), 0, "%s", err.msg);
            cr_assert_eq(memcmp(got, want, bytes), 0, "%s: GPU differs from CPU", names[i]);
            cr_assert(sg.leaf_pairs == st.leaf_pairs && sg.twin_pairs == st.twin_pairs &&
                          sg.relative_pairs == st.relative_pairs && sg.island_pairs == st.island_pairs &&
                          sg.cap_blocked == st.cap_blocked,
                      "%s", names[i]);
            device_free(d_mate);
            coarsen_graph_free(dg);
        }
        free(mate);
        free(got);
        free(want);
        coarsen_graph_free(g);
    }
    cr_assert_gt(total, 100, "power-law graphs leave leaves and twins after a matching (%lld pairs)", (long long)total);
}

/* test_partition.c — the CPU partitioner (partition/): metrics against a
 * dense recount, METIS k-way and bisection on small graphs, projection preserving the cut
 * exactly, rebalancing reaching the cap from any partition, refinement never
 * increasing the cut and never breaking balance, the FM polish (never
 * increasing the cut, keeping balance, independent of the boundary's order,
 * reaching a brute-force optimum on two cliques, on real weights the moves
 * of an eager oracle), and the multilevel driver:
 * valid, within the bound, reported cuts equal to recounts, per-level cuts
 * chained (projected = coarser refined) and monotone except through
 * rebalancing, its METIS runs on the coarsest graph and its restarts keeping
 * the least cut of the single runs. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/graph_build.h"
#include "core/interrupt.h"
#include "partition/partition.h"
#include "tests/support/partition_check.h"
#include "tests/support/test_support.h"

Test(partition_metrics, cut_weights_and_imbalance_match_recounts)
{
    for (int mode = 0; mode < 3; mode++) {
        coarsen_graph *g = test_random_graph(60, 0.15, mode, 40 + mode);
        for (int32_t k = 1; k <= 5; k++) {
            int32_t *part = random_partition(g, k, 3 * k + mode);
            cr_assert_float_eq(partition_cut(g, part), oracle_partition_cut(g, part), 1e-9);
            int64_t w[5], total = 0, wmax = 0;
            partition_part_weights(g, part, k, w);
            int32_t count[5] = {0};
            for (int32_t v = 0; v < g->n; v++)
                count[part[v]]++; /* unit vertex weights */
            for (int32_t p = 0; p < k; p++) {
                cr_assert_eq(w[p], count[p]);
                total += w[p];
                wmax = w[p] > wmax ? w[p] : wmax;
            }
            double imb;
            cr_assert_eq(partition_imbalance(g, part, k, &imb, NULL), 0);
            cr_assert_float_eq(imb, (double)wmax * k / total, 1e-12);
            cr_assert_eq(partition_cap(g, k, 0.03), oracle_cap(g, k, 0.03));
            free(part);
        }
        coarsen_graph_free(g);
    }
}

Test(partition_metrics, fixed_point_cut_is_twice_the_cut_for_integer_weights)
{
    coarsen_graph *g = test_random_graph(80, 0.1, 1, 5);
    int32_t *part = random_partition(g, 4, 9);
    int shift = partition_fixed_shift(4.0, g->nnz);
    cr_assert_geq(shift, 0);
    cr_assert_eq(partition_cut_fixed(g, part, shift), (int64_t)(2 * oracle_partition_cut(g, part)) << shift);
    free(part);
    coarsen_graph_free(g);
}

Test(partition_metrics, check_names_out_of_range_parts)
{
    coarsen_graph *g = test_random_graph(10, 0.3, 0, 1);
    int32_t *part = random_partition(g, 3, 1);
    coarsen_error err = {0};
    cr_assert_eq(partition_check(g, part, 3, &err), 0);
    part[7] = 3;
    cr_assert_eq(partition_check(g, part, 3, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "vertex 7"), "%s", err.msg);
    free(part);
    coarsen_graph_free(g);
}

Test(partition_metis, kway_and_recursive_are_valid_and_balanced)
{
    coarsen_graph *g = partition_test_graph("grid2d:nx=20,ny=20,weights=real", 1, 1);
    for (int rb = 0; rb < 2; rb++)
        for (int32_t k = 1; k <= 8; k *= 2) {
            int32_t *part = malloc(g->n * sizeof *part);
            coarsen_error err = {0};
            cr_assert_eq(partition_metis(g, k, 0.03, 7, rb, part, &err), 0, "%s", err.msg);
            /* METIS meets its own bound within a vertex on a unit-weight grid */
            expect_partition_within(g, part, k, oracle_cap(g, k, 0.03) + 1);
            if (k == 2) /* a 20 x 20 grid bisection cuts at least 20 edges */
                cr_assert_geq(partition_cut(g, part) > 0, 1);
            free(part);
        }
    coarsen_graph_free(g);
}

/* METIS swaps SIGTERM's and SIGABRT's handlers during a call and puts them
 * back without their flags; the program's SIGTERM handler (SA_SIGINFO) must
 * come back whole and still turn a SIGTERM into a stop request. */
Test(partition_metis, leaves_the_signal_actions_as_they_were)
{
    interrupt_install();
    struct sigaction before, after;
    sigaction(SIGTERM, NULL, &before);
    coarsen_graph *g = partition_test_graph("grid2d:nx=20,ny=20", 1, 1);
    int32_t *part = malloc(g->n * sizeof *part);
    coarsen_error err = {0};
    cr_assert_eq(partition_metis(g, 4, 0.03, 7, 0, part, &err), 0, "%s", err.msg);
    sigaction(SIGTERM, NULL, &after);
    cr_expect_eq(after.sa_flags, before.sa_flags);
    cr_expect(after.sa_sigaction == before.sa_sigaction);
    cr_assert_eq(kill(getpid(), SIGTERM), 0);
    for (int i = 0; i < 1000 && !interrupt_signal(); i++)
        usleep(1000);
    cr_expect_eq(interrupt_signal(), SIGTERM);
    free(part);
    coarsen_graph_free(g);
}

Test(partition_project, preserves_the_cut_exactly)
{
    coarsen_graph *g = partition_test_graph("delaunay:n=3000,weights=int,seed=4", 1, 1);
    coarsen_hierarchy_opts ho;
    coarsen_hierarchy_opts_default(&ho);
    ho.device = COARSEN_DEVICE_CPU;
    ho.coarsen_to = 50;
    coarsen_hierarchy *h = NULL;
    coarsen_error err = {0};
    cr_assert_eq(coarsen_hierarchy_build(g, &ho, &h, &err), 0, "%s", err.msg);
    int L = coarsen_hierarchy_levels(h);
    cr_assert_geq(L, 2);
    for (int lv = L; lv >= 1; lv--) {
        const coarsen_graph *cg, *fg;
        const int32_t *map;
        cr_assert_eq(coarsen_hierarchy_graph(h, lv, &cg, &err), 0);
        cr_assert_eq(coarsen_hierarchy_graph(h, lv - 1, &fg, &err), 0);
        cr_assert_eq(coarsen_hierarchy_map(h, lv, &map, &err), 0);
        int32_t *cp = random_partition(cg, 5, lv);
        int32_t *fp = malloc(fg->n * sizeof *fp);
        partition_project_cpu(fg->n, map, cp, fp);
        cr_assert_eq(partition_cut(fg, fp), partition_cut(cg, cp), "level %d", lv);
        int64_t wc[5], wf[5];
        partition_part_weights(cg, cp, 5, wc);
        partition_part_weights(fg, fp, 5, wf);
        for (int p = 0; p < 5; p++)
            cr_assert_eq(wc[p], wf[p]);
        free(cp);
        free(fp);
    }
    coarsen_hierarchy_free(h);
    coarsen_graph_free(g);
}

Test(partition_rebalance, reaches_the_cap_from_any_partition)
{
    const int64_t maxvw[] = {1, 9};
    for (int wi = 0; wi < 2; wi++) {
        coarsen_graph *g = partition_test_graph("rgg:n=2000,deg=8,seed=3", maxvw[wi], 5);
        for (int32_t k = 2; k <= 16; k *= 2) {
            int32_t *part = random_partition(g, k, k);
            for (int32_t v = 0; v < g->n / 2; v++) /* half the vertices into part 0 */
                part[v] = 0;
            int64_t cap = oracle_cap(g, k, 0.0); /* the tightest cap rebalancing guarantees */
            partition_refine_stats st = {0};
            coarsen_error err = {0};
            cr_assert_eq(partition_rebalance_cpu(g, k, cap, part, &st, &err), 0, "%s", err.msg);
            expect_partition_within(g, part, k, cap);
            cr_assert_gt(st.rebalance_moves, 0);
            free(part);
        }
        coarsen_graph_free(g);
    }
}

Test(partition_refine, never_increases_the_cut_and_keeps_balance)
{
    for (int mode = 0; mode < 3; mode++) {
        coarsen_graph *g = partition_test_graph(mode == 2 ? "rgg:n=3000,deg=10,weights=real,seed=2"
                                                          : "rgg:n=3000,deg=10,weights=int,seed=2",
                                                mode == 1 ? 5 : 1, 8);
        for (int32_t k = 2; k <= 32; k *= 4) {
            int64_t cap = oracle_cap(g, k, 0.03);
            int32_t *part = random_partition(g, k, 11);
            coarsen_error err = {0};
            cr_assert_eq(partition_rebalance_cpu(g, k, cap, part, NULL, &err), 0, "%s", err.msg);
            double before = partition_cut(g, part);
            partition_refine_stats st = {0};
            cr_assert_eq(partition_refine_cpu(g, k, cap, 50, part, &st, &err), 0, "%s", err.msg);
            double after = partition_cut(g, part);
            cr_assert_leq(after, before * (1 + 1e-12), "mode %d k %d: %g > %g", mode, k, after, before);
            cr_assert_gt(st.rounds, 0, "a random partition always has a positive-gain move");
            cr_assert_lt(after, before);
            expect_partition_within(g, part, k, cap);
            free(part);
        }
        coarsen_graph_free(g);
    }
}

/* The polish after label propagation (as the driver runs it) never raises
 * the cut, keeps every part within cap, keeps the weights array current, and
 * gives the same partition from the scanned boundary as from a superset of
 * it in another order (the GPU path passes a device-made list). */
Test(partition_polish, never_increases_the_cut_and_ignores_the_boundary_order)
{
    int64_t improved = 0;
    for (int mode = 0; mode < 3; mode++) {
        coarsen_graph *g = partition_test_graph(mode == 2 ? "rgg:n=3000,deg=10,weights=real,seed=2"
                                                          : "delaunay:n=3000,weights=int,seed=2",
                                                mode == 1 ? 5 : 1, 8);
        int32_t *all = malloc(g->n * sizeof *all), *copy = malloc(g->n * sizeof *copy);
        for (int32_t v = 0; v < g->n; v++)
            all[v] = g->n - 1 - v;
        for (int32_t k = 2; k <= 32; k *= 4) {
            int64_t cap = oracle_cap(g, k, 0.03), w[32], w2[32], recount[32];
            int32_t *part = random_partition(g, k, 11);
            coarsen_error err = {0};
            cr_assert_eq(partition_rebalance_cpu(g, k, cap, part, NULL, &err), 0, "%s", err.msg);
            cr_assert_eq(partition_refine_cpu(g, k, cap, 16, part, NULL, &err), 0, "%s", err.msg);
            double before = oracle_partition_cut(g, part);
            memcpy(copy, part, g->n * sizeof *copy);
            partition_part_weights(g, part, k, w);
            memcpy(w2, w, sizeof w);
            partition_refine_stats st = {0}, st2 = {0};
            cr_assert_eq(partition_polish_cpu(g, k, cap, part, w, NULL, 0, &st, &err), 0, "%s", err.msg);
            cr_assert_eq(partition_polish_cpu(g, k, cap, copy, w2, all, g->n, &st2, &err), 0, "%s", err.msg);
            for (int32_t v = 0; v < g->n; v++)
                cr_assert_eq(copy[v], part[v], "mode %d k %d vertex %d", mode, k, v);
            cr_assert_eq(st2.polish_moves, st.polish_moves);
            double after = oracle_partition_cut(g, part);
            cr_assert_leq(after, before * (1 + 1e-12), "mode %d k %d: %g > %g", mode, k, after, before);
            improved += after < before;
            expect_partition_within(g, part, k, cap);
            memset(recount, 0, sizeof recount);
            for (int32_t v = 0; v < g->n; v++)
                recount[part[v]] += g->vwgt[v];
            for (int32_t p = 0; p < k; p++)
                cr_assert_eq(w[p], recount[p], "mode %d k %d part %d", mode, k, p);
            free(part);
        }
        free(all);
        free(copy);
        coarsen_graph_free(g);
    }
    cr_assert_gt(improved, 0, "label propagation leaves moves that FM finds");
}

/* The polish's rules (partition/partition.h) run the plain way: every
 * vertex's gain summed from its row in CSR order at every push, the highest
 * (gain, lowest id) found by a scan. Returns the moves kept. */
static int64_t oracle_polish(const coarsen_graph *g, int32_t k, int64_t cap, int32_t *part, int64_t *w)
{
    int32_t n = g->n;
    double *key = malloc(n * sizeof *key), *conn = calloc(k, sizeof *conn);
    unsigned char *has = calloc(n, 1), *locked = calloc(n, 1), *cand = calloc(n, 1);
    int32_t *log_v = malloc(n * sizeof *log_v), *log_from = malloc(n * sizeof *log_from);
    int64_t kept_total = 0;
    double wmax = 0;
    for (int32_t v = 0; v < n; v++)
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
            if (part[g->adj[i]] != part[v])
                cand[v] = 1;
    for (int32_t v = 0; v < n; v++)
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1] && cand[v]; i++)
            wmax = g->ewgt[i] > wmax ? g->ewgt[i] : wmax;
    /* v's best admissible move now: *dest (-1: none), the gain returned */
#define ORACLE_EVAL(v, dest, gain)                                                                            \
    do {                                                                                                      \
        for (int32_t p = 0; p < k; p++)                                                                       \
            conn[p] = 0;                                                                                      \
        int adj_[64] = {0};                                                                                   \
        for (int64_t e_ = g->xadj[v]; e_ < g->xadj[v + 1]; e_++) {                                           \
            conn[part[g->adj[e_]]] += g->ewgt[e_];                                                            \
            adj_[part[g->adj[e_]]] = 1;                                                                       \
        }                                                                                                     \
        dest = -1;                                                                                            \
        for (int32_t p = 0; p < k; p++)                                                                       \
            if (adj_[p] && p != part[v] && w[p] + g->vwgt[v] <= cap && (dest < 0 || conn[p] > conn[dest]))   \
                dest = p;                                                                                     \
        gain = dest < 0 ? 0 : conn[dest] - conn[part[v]];                                                     \
    } while (0)
    for (int pass = 0; pass < PARTITION_POLISH_PASSES; pass++) {
        for (int32_t v = 0; v < n; v++) {
            int32_t d;
            double gv;
            has[v] = 0;
            if (cand[v]) {
                ORACLE_EVAL(v, d, gv);
                has[v] = d >= 0;
                key[v] = gv;
            }
        }
        int32_t moves = 0, best_len = 0;
        double cum = 0, best = 0;
        while (moves - best_len < PARTITION_POLISH_STALL) {
            int32_t v = -1;
            for (int32_t u = 0; u < n; u++)
                if (has[u] && !locked[u] && (v < 0 || key[u] > key[v]))
                    v = u;
            if (v < 0)
                break;
            int32_t d;
            double gv;
            ORACLE_EVAL(v, d, gv);
            if (d < 0 || gv != key[v]) {
                has[v] = d >= 0;
                key[v] = gv;
                continue;
            }
            locked[v] = 1;
            log_v[moves] = v;
            log_from[moves++] = part[v];
            w[part[v]] -= g->vwgt[v];
            w[d] += g->vwgt[v];
            part[v] = d;
            cum += gv;
            if (cum > best + 1e-9 * wmax) {
                best = cum;
                best_len = moves;
            }
            for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++) {
                int32_t u = g->adj[i];
                if (!locked[u]) {
                    ORACLE_EVAL(u, d, gv);
                    has[u] = d >= 0;
                    key[u] = gv;
                }
            }
        }
        memset(cand, 0, n);
        for (int32_t m = moves - 1; m >= 0; m--) {
            int32_t v = log_v[m];
            locked[v] = 0;
            if (m >= best_len) {
                w[part[v]] -= g->vwgt[v];
                w[log_from[m]] += g->vwgt[v];
                part[v] = log_from[m];
            } else {
                cand[v] = 1;
                for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
                    cand[g->adj[i]] = 1;
            }
        }
        kept_total += best_len;
        if (best_len == 0)
            break;
    }
#undef ORACLE_EVAL
    free(key), free(conn), free(has), free(locked), free(cand), free(log_v), free(log_from);
    return kept_total;
}

/* The polish of a random partition of g into k parts (seeded by seed,
 * rebalanced, then refined by `lp_rounds` rounds of label propagation when
 * not 0) makes exactly the oracle's moves: the same partition, move count
 * and part weights. */
static void expect_polish_as_oracle(const coarsen_graph *g, int32_t k, uint64_t seed, int lp_rounds, const char *what)
{
    int64_t cap = oracle_cap(g, k, 0.03), w[32], w2[32];
    int32_t *part = random_partition(g, k, seed), *copy = malloc(g->n * sizeof *copy);
    coarsen_error err = {0};
    cr_assert_eq(partition_rebalance_cpu(g, k, cap, part, NULL, &err), 0, "%s", err.msg);
    if (lp_rounds)
        cr_assert_eq(partition_refine_cpu(g, k, cap, lp_rounds, part, NULL, &err), 0, "%s", err.msg);
    memcpy(copy, part, g->n * sizeof *copy);
    partition_part_weights(g, part, k, w);
    memcpy(w2, w, sizeof w);
    partition_refine_stats st = {0};
    cr_assert_eq(partition_polish_cpu(g, k, cap, part, w, NULL, 0, &st, &err), 0, "%s", err.msg);
    int64_t kept = oracle_polish(g, k, cap, copy, w2);
    cr_assert_gt(kept, 0, "%s k %d: the polish has moves to make", what, k);
    cr_assert_eq(st.polish_moves, kept, "%s k %d", what, k);
    for (int32_t v = 0; v < g->n; v++)
        cr_assert_eq(part[v], copy[v], "%s k %d vertex %d", what, k, v);
    for (int32_t p = 0; p < k; p++)
        cr_assert_eq(w[p], w2[p], "%s k %d part %d", what, k, p);
    free(part);
    free(copy);
}

/* On real weights (a generator's, and weights spread over 40 orders of
 * magnitude, where the order of a sum decides its last bits) the polish,
 * which sums rows lazily, makes exactly the moves of summing every row at
 * every push: the same partition, moves and part weights as the oracle. */
Test(partition_polish, real_weights_move_as_when_every_row_is_summed_at_every_push)
{
    for (int mode = 0; mode < 2; mode++) {
        coarsen_graph *g = partition_test_graph("rgg:n=3000,deg=20,weights=real,seed=5", mode ? 4 : 1, 9);
        if (mode) { /* w(u, v) = 10^e, e in [-36, 4), from a hash of the pair: symmetric */
            for (int32_t v = 0; v < g->n; v++)
                for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++) {
                    uint64_t a = (uint64_t)(v < g->adj[i] ? v : g->adj[i]), b = (uint64_t)(v ^ g->adj[i] ^ (int32_t)a);
                    uint64_t h = (a * 0x9E3779B97F4A7C15ull ^ b) * 0xBF58476D1CE4E5B9ull;
                    g->ewgt[i] = pow(10.0, (double)(h >> 11) / 9007199254740992.0 * 40 - 36);
                }
            g->integral_weights = 0;
        }
        cr_assert(!g->integral_weights);
        for (int32_t k = 2; k <= 32; k *= 4)
            expect_polish_as_oracle(g, k, 7, 0, mode ? "spread weights" : "real weights");
        coarsen_graph_free(g);
    }
}

/* On integer weights (lists updated as neighbours move, one heap entry per
 * vertex replaced by each push) the polish makes exactly the oracle's moves,
 * from a label-propagated partition of a graph large enough that the
 * boundary starts small and the vertices met on the way outgrow the
 * polish's first state table (4096 slots, at most half full) mid-pass. */
Test(partition_polish, integer_weights_move_as_when_every_row_is_summed_at_every_push)
{
    coarsen_graph *g = partition_test_graph("delaunay:n=30000,weights=int,seed=6", 1, 1);
    cr_assert(g->integral_weights);
    for (int32_t k = 2; k <= 32; k *= 4)
        expect_polish_as_oracle(g, k, 3, 16, "integer weights");
    coarsen_graph_free(g);
}

/* Two 8-cliques joined by one edge, their vertices 0 and 8 swapped, cap 9:
 * FM's sequence (8 over, then 0 back) reaches the minimum cut over all
 * partitions within the cap, found by brute force. */
Test(partition_polish, reaches_the_optimum_of_two_swapped_cliques)
{
    edge_list e;
    coarsen_error err = {0};
    cr_assert_eq(edge_list_init(&e, 64, &err), 0);
    for (int32_t c = 0; c < 2; c++)
        for (int32_t i = 0; i < 8; i++)
            for (int32_t j = i + 1; j < 8; j++)
                cr_assert_eq(edge_list_push(&e, 8 * c + i, 8 * c + j, 1, &err), 0);
    cr_assert_eq(edge_list_push(&e, 7, 15, 1, &err), 0);
    graph_build_opts o = {.mirrored = 1, .dup_rule = MERGE_SUM, .sym_rule = MERGE_MAX};
    coarsen_graph *g = NULL;
    cr_assert_eq(graph_from_edges(16, &e, &o, &g, NULL, &err), 0, "%s", err.msg);
    edge_list_free(&e);
    double best = INFINITY;
    for (uint32_t mask = 0; mask < 1u << 16; mask++) {
        int ones = __builtin_popcount(mask);
        if (ones > 9 || 16 - ones > 9)
            continue;
        int32_t bits[16];
        for (int32_t v = 0; v < 16; v++)
            bits[v] = (int32_t)(mask >> v & 1);
        double c = oracle_partition_cut(g, bits);
        best = c < best ? c : best;
    }
    int32_t part[16];
    for (int32_t v = 0; v < 16; v++)
        part[v] = v >= 8;
    part[0] = 1;
    part[8] = 0;
    int64_t w[2] = {8, 8};
    partition_refine_stats st = {0};
    cr_assert_eq(partition_polish_cpu(g, 2, 9, part, w, NULL, 0, &st, &err), 0, "%s", err.msg);
    cr_assert_eq(oracle_partition_cut(g, part), best);
    cr_assert_eq(best, 1);
    expect_partition_within(g, part, 2, 9);
    coarsen_graph_free(g);
}

/* Runs the multilevel partitioner on g and checks every property of the issue. */
static void check_multilevel(const coarsen_graph *g, int32_t k, double eps, int rb, uint64_t seed)
{
    partition_opts o;
    partition_opts_default(&o);
    o.k = k;
    o.imbalance = eps;
    o.recursive = rb;
    o.seed = seed;
    o.hierarchy.device = COARSEN_DEVICE_CPU;
    int32_t *part = malloc(((size_t)g->n + 1) * sizeof *part);
    partition_result res;
    coarsen_error err = {0};
    cr_assert_eq(partition_multilevel(g, &o, part, &res, &err), 0, "%s", err.msg);
    expect_partition_within(g, part, k, oracle_cap(g, k, eps));
    cr_assert_eq(res.cap, oracle_cap(g, k, eps));
    cr_assert_float_eq(res.cut, oracle_partition_cut(g, part), 1e-9 * (1 + res.cut));
    for (int lv = res.levels; lv >= 0; lv--) {
        const partition_level_report *l = &res.level[lv];
        cr_assert_leq(l->cut_refined, l->cut_rebalanced, "level %d", lv);
        if (l->st.rebalance_moves == 0)
            cr_assert_eq(l->cut_rebalanced, l->cut_projected, "level %d", lv);
        /* projection preserves the cut: exactly for integer weights (real
         * ones are summed in another order by contraction) */
        if (lv < res.levels && g->integral_weights)
            cr_assert_eq(l->cut_projected, res.level[lv + 1].cut_refined, "level %d", lv);
        else if (lv < res.levels)
            cr_assert_float_eq(l->cut_projected, res.level[lv + 1].cut_refined, 1e-9 * (1 + l->cut_projected));
    }
    /* level 0's report is the first cycle's; the V-cycles after it keep a
     * result only when it cuts less */
    if (o.vcycles == 0)
        cr_assert_eq(res.level[0].cut_refined, res.cut);
    cr_assert_leq(res.cut, res.level[0].cut_refined * (1 + 1e-12));
    cr_assert_eq(res.level[0].vertices, g->n);
    partition_result_free(&res);
    free(part);
}

Test(partition_multilevel, valid_balanced_and_cut_recounted)
{
    const char *specs[] = {"grid2d:nx=40,ny=40", "delaunay:n=2500,weights=int,seed=3", "rgg:n=2000,deg=12,seed=5",
                           "er:n=1500,deg=6,weights=real,seed=9"};
    for (int s = 0; s < 4; s++) {
        coarsen_graph *g = partition_test_graph(specs[s], s == 3 ? 4 : 1, s);
        check_multilevel(g, 2, 0.03, 0, 1);
        check_multilevel(g, 8, 0.03, s & 1, 2);
        check_multilevel(g, 37, 0.01, 0, 3);
        coarsen_graph_free(g);
    }
}

Test(partition_multilevel, tiny_graphs_and_extreme_k)
{
    coarsen_graph *g = test_random_graph(30, 0.2, 1, 3);
    check_multilevel(g, 1, 0.03, 0, 1);
    check_multilevel(g, 30, 0.0, 0, 1); /* one vertex per part */
    check_multilevel(g, 7, 0.0, 1, 1);
    partition_opts o;
    partition_opts_default(&o);
    o.k = 31;
    int32_t part[31];
    partition_result res;
    coarsen_error err = {0};
    cr_assert_eq(partition_multilevel(g, &o, part, &res, &err), COARSEN_ERR_INPUT);
    coarsen_graph_free(g);
}

/* The METIS runs on the coarsest graph: on graphs the hierarchy leaves
 * uncoarsened (n <= coarsen_to), without V-cycles, the default (k-way and
 * recursive bisection, metis_tries of each, each refined) cuts exactly the
 * least of the single runs of each kind with seeds seed .. seed + tries - 1,
 * within the cap; strictly less than k-way alone somewhere (so the test sees
 * the second kind at all), and the real-weighted graph checks that the choice
 * is by our cut, not METIS's rounded one. */
static double initial_cut(const coarsen_graph *g, int32_t k, uint64_t seed, int kind, int tries, int *levels)
{
    partition_opts o;
    partition_opts_default(&o);
    o.k = k;
    o.seed = seed;
    o.recursive = kind;
    o.metis_tries = tries;
    o.vcycles = 0;
    o.hierarchy.device = COARSEN_DEVICE_CPU;
    int32_t *part = malloc(((size_t)g->n + 1) * sizeof *part);
    partition_result res;
    coarsen_error err = {0};
    cr_assert_eq(partition_multilevel(g, &o, part, &res, &err), 0, "%s", err.msg);
    expect_partition_within(g, part, k, oracle_cap(g, k, 0.03));
    double cut = oracle_partition_cut(g, part);
    cr_assert_float_eq(res.cut, cut, 1e-9 * (1 + cut));
    *levels = res.levels;
    partition_result_free(&res);
    free(part);
    return cut;
}

Test(partition_multilevel, initial_runs_keep_the_lowest_refined_cut)
{
    const char *specs[] = {"rgg:n=380,deg=6,seed=3", "rmat:n=256,deg=6,seed=2", "er:n=300,deg=5,weights=real,seed=4"};
    int below_kway = 0;
    for (int s = 0; s < 3; s++) {
        coarsen_graph *g = partition_test_graph(specs[s], 1, 1);
        for (uint64_t seed = 1; seed <= 3; seed++)
            for (int32_t k = 2; k <= 8; k *= 2) {
                int levels;
                double least = INFINITY, kway = INFINITY;
                for (int t = 0; t < 3; t++) {
                    double a = initial_cut(g, k, seed + t, PARTITION_INITIAL_KWAY, 1, &levels);
                    double b = initial_cut(g, k, seed + t, PARTITION_INITIAL_RB, 1, &levels);
                    kway = fmin(kway, a);
                    least = fmin(least, fmin(a, b));
                }
                double both = initial_cut(g, k, seed, PARTITION_INITIAL_BOTH, 3, &levels);
                cr_assert_eq(levels, 0, "%s was coarsened", specs[s]);
                cr_assert_eq(both, least, "%s seed %d k %d: %g, least single run %g", specs[s], (int)seed, k,
                             both, least);
                below_kway += both < kway;
            }
        coarsen_graph_free(g);
    }
    cr_assert_gt(below_kway, 0, "recursive bisection never won");
}

/* Restarts: the result is the lowest cut of the single runs with seeds
 * seed + i x 0x9E3779B97F4A7C15 (restarts = 1 each), within the cap, and the
 * default makes 3 runs for k <= 8 on small graphs, one at k = 64. */
Test(partition_multilevel, restarts_keep_the_lowest_cut_of_the_single_runs)
{
    coarsen_graph *g = partition_test_graph("rgg:n=3000,deg=8,seed=6", 1, 1);
    int32_t *part = malloc(((size_t)g->n + 1) * sizeof *part);
    int lower = 0;
    for (uint64_t seed = 1; seed <= 3; seed++)
        for (int32_t k = 2; k <= 64; k *= 32) {
            partition_opts o;
            partition_opts_default(&o);
            o.k = k;
            o.hierarchy.device = COARSEN_DEVICE_CPU;
            partition_result res;
            coarsen_error err = {0};
            double least = INFINITY, first = 0;
            o.restarts = 1;
            for (int i = 0; i < 3; i++) {
                o.seed = seed + (uint64_t)i * 0x9E3779B97F4A7C15ull;
                cr_assert_eq(partition_multilevel(g, &o, part, &res, &err), 0, "%s", err.msg);
                least = fmin(least, res.cut);
                first = i ? first : res.cut;
                partition_result_free(&res);
            }
            o.seed = seed;
            o.restarts = 3;
            cr_assert_eq(partition_multilevel(g, &o, part, &res, &err), 0, "%s", err.msg);
            cr_assert_eq(res.restarts, 3);
            cr_assert_eq(res.cut, least, "seed %d k %d: %g, least single run %g", (int)seed, k, res.cut, least);
            cr_assert_eq(oracle_partition_cut(g, part), res.cut);
            expect_partition_within(g, part, k, oracle_cap(g, k, 0.03));
            lower += least < first;
            partition_result_free(&res);
            o.restarts = 0;
            cr_assert_eq(partition_multilevel(g, &o, part, &res, &err), 0, "%s", err.msg);
            cr_assert_eq(res.restarts, k <= 8 ? 3 : 1, "k %d", k);
            partition_result_free(&res);
        }
    cr_assert_gt(lower, 0, "no restart found a lower cut");
    free(part);
    coarsen_graph_free(g);
}

/* partition_opts_default with k parts, the hierarchy on the CPU. */
static partition_opts cpu_opts(int32_t k)
{
    partition_opts o;
    partition_opts_default(&o);
    o.k = k;
    o.hierarchy.device = COARSEN_DEVICE_CPU;
    return o;
}

Test(partition_multilevel, same_seed_same_partition)
{
    coarsen_graph *g = partition_test_graph("delaunay:n=4000,seed=7", 1, 1);
    partition_opts o = cpu_opts(8);
    int32_t *a = malloc(g->n * sizeof *a), *b = malloc(g->n * sizeof *b);
    partition_result ra, rb;
    coarsen_error err = {0};
    cr_assert_eq(partition_multilevel(g, &o, a, &ra, &err), 0, "%s", err.msg);
    cr_assert_eq(partition_multilevel(g, &o, b, &rb, &err), 0, "%s", err.msg);
    for (int32_t v = 0; v < g->n; v++)
        cr_assert_eq(a[v], b[v]);
    partition_result_free(&ra);
    partition_result_free(&rb);
    free(a);
    free(b);
    coarsen_graph_free(g);
}

/* A hierarchy builder for partition_opts.build_hierarchy: counts its calls,
 * keeps the options it was given, and builds with coarsen_hierarchy_build,
 * capped at builder_levels levels when that is > 0, or fails when < 0. */
static int builder_calls, builder_levels;
static coarsen_hierarchy_opts builder_seen;
static int counting_builder(const coarsen_graph *g, const coarsen_hierarchy_opts *opts, coarsen_hierarchy **out,
                            coarsen_error *err)
{
    builder_calls++;
    builder_seen = *opts;
    if (builder_levels < 0)
        return error_set(err, COARSEN_ERR_NOMEM, "builder refused");
    coarsen_hierarchy_opts o = *opts;
    if (builder_levels > 0)
        o.levels = builder_levels;
    return coarsen_hierarchy_build(g, &o, out, err);
}

/* The hook builds the first cycle's hierarchy only (the V-cycles' are the
 * library's), with the partitioner's options, and its hierarchy is the one
 * uncoarsened: the same builder gives the default's partition, a shallower
 * hierarchy a result of that many levels, a failure the run's status. */
Test(partition_multilevel, build_hierarchy_hook_builds_the_first_hierarchy)
{
    coarsen_graph *g = partition_test_graph("delaunay:n=4000,weights=int,seed=4", 1, 1);
    partition_opts o = cpu_opts(8);
    o.seed = 5;
    o.vcycles = 2;
    o.restarts = 1; /* each restart builds its own first hierarchy */
    int32_t *a = malloc(g->n * sizeof *a), *b = malloc(g->n * sizeof *b);
    partition_result ra, rb;
    coarsen_error err = {0};
    cr_assert_eq(partition_multilevel(g, &o, a, &ra, &err), 0, "%s", err.msg);
    cr_assert_gt(ra.levels, 1);
    cr_assert_eq(ra.vcycles, 2);
    cr_assert_eq(ra.ranks, 0);
    o.build_hierarchy = counting_builder;
    builder_calls = builder_levels = 0;
    cr_assert_eq(partition_multilevel(g, &o, b, &rb, &err), 0, "%s", err.msg);
    cr_assert_eq(builder_calls, 1, "the V-cycles must not call it");
    cr_assert_eq(builder_seen.coarsen_to, 400);
    cr_assert_eq(builder_seen.levels, 100);
    cr_assert_eq(builder_seen.seed, 5);
    cr_assert_eq(rb.levels, ra.levels);
    cr_assert_eq(rb.cut, ra.cut);
    for (int32_t v = 0; v < g->n; v++)
        cr_assert_eq(a[v], b[v], "vertex %d", v);
    partition_result_free(&rb);
    builder_levels = 1;
    cr_assert_eq(partition_multilevel(g, &o, b, &rb, &err), 0, "%s", err.msg);
    cr_assert_eq(rb.levels, 1);
    cr_assert_lt(rb.level[1].vertices, g->n);
    expect_partition_within(g, b, 8, oracle_cap(g, 8, 0.03));
    cr_assert_eq(rb.cut, oracle_partition_cut(g, b));
    partition_result_free(&rb);
    builder_levels = -1;
    cr_assert_eq(partition_multilevel(g, &o, b, &rb, &err), COARSEN_ERR_NOMEM);
    cr_assert_str_eq(err.msg, "builder refused");
    partition_result_free(&ra);
    free(a);
    free(b);
    coarsen_graph_free(g);
}

Test(partition_multilevel, shared_real_weighted_graph_with_zero_weights)
{
    const char *dir = test_data_dir();
    if (!dir)
        cr_skip_test("no shared data folder (COARSEN_DATA or ../shared/data)");
    char path[4096];
    snprintf(path, sizeof path, "%s/bayer10.mtx.gz", dir);
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    if (coarsen_graph_load(path, &g, NULL, &err))
        cr_skip_test("%s: %s", path, err.msg);
    partition_opts o;
    partition_opts_default(&o);
    o.k = 64;
    o.hierarchy.device = COARSEN_DEVICE_CPU;
    int32_t *part = malloc(g->n * sizeof *part);
    partition_result res;
    cr_assert_eq(partition_multilevel(g, &o, part, &res, &err), 0, "%s", err.msg);
    expect_partition_within(g, part, 64, oracle_cap(g, 64, 0.03));
    cr_assert_float_eq(res.cut, partition_cut(g, part), 1e-9 * res.cut);
    partition_result_free(&res);
    free(part);
    coarsen_graph_free(g);
}

/* test_roma.c — ROMA refinement (matching/roma*.h): the O(deg) best centred
 * augmentation equals a brute-force enumeration on thousands of random small
 * graphs and matchings (every weight mode, with and without a vertex-weight
 * cap) and its chosen augmentation really has the gain it claims; hand-made
 * path and 4-cycle cases; the sequential reference and the parallel replay
 * keep a valid matching whose weight never decreases phase by phase, with
 * per-phase gains equal to the weight change, stop only at a local optimum
 * (checked by enumeration), never exceed the optimum, depend only on the
 * seed (not on the thread count); one replay phase equals a plain oracle
 * of the rule (per pass the greedy disjoint set of candidates by claim key,
 * or the local key maxima with a single claim; gain or random priority;
 * passes until every turn is done with turns); turns only extend the
 * one-pass phase; bad input is refused; and the GPU equals the replay bit
 * for bit (random, skewed and shared graphs, every rule). */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/graph_build.h"
#include "matching/matching.h"
#include "matching/roma.h"
#include "matching/roma_aug.h"
#include "matching/validate.h"
#include "tests/support/match_oracles.h"
#include "tests/support/roma_oracles.h"
#include "exec/host_call.h"
#include "tests/support/test_support.h"

/* Small graph number t: 2..13 vertices, density and weight mode varying. */
static coarsen_graph *small_graph(int t)
{
    int32_t n = 2 + t % 12;
    double p = 0.2 + 0.15 * (t / 12 % 5);
    return test_random_graph(n, p, t % 3, 7000 + (uint64_t)t);
}

/* Matched weights of a valid matching, by scanning. */
static void matched_weights(const coarsen_graph *g, const int32_t *mate, double *mw)
{
    for (int32_t v = 0; v < g->n; v++) {
        mw[v] = 0.0;
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++)
            if (g->adj[e] == mate[v])
                mw[v] = g->ewgt[e];
    }
}

static double tol(double scale)
{
    return 1e-12 * (1.0 + fabs(scale));
}

/* Checks roma_best_aug at every vertex of (g, mate) against the oracle. */
static void check_aug_all_vertices(const coarsen_graph *g, const int32_t *mate, int64_t cap, int use_marks,
                                   const char *what)
{
    int32_t n = g->n;
    double *mw = malloc(sizeof(double) * ((size_t)n + 1)), *mw2 = malloc(sizeof(double) * ((size_t)n + 1));
    int32_t *m2 = malloc(sizeof(int32_t) * ((size_t)n + 1));
    int64_t *stamp = calloc((size_t)n + 1, sizeof *stamp);
    double *sw = malloc(sizeof(double) * ((size_t)n + 1));
    roma_marks marks = {stamp, sw, 0};
    matched_weights(g, mate, mw);
    roma_state S = {g->xadj, g->adj, g->ewgt, g->vwgt, mate, mw, cap};
    const double w_old = oracle_matching_weight(g, mate);
    for (int32_t v = 0; v < n; v++) {
        int count = 0;
        double want = oracle_best_centred_gain(g, mate, cap, v, &count);
        roma_aug a;
        roma_best_aug(&S, v, use_marks ? &marks : NULL, &a);
        cr_assert_eq(a.kind != ROMA_NONE, count > 0, "%s: v %d: kind %d but %d augmentations exist", what, v,
                     a.kind, count);
        if (!count)
            continue;
        cr_assert(fabs(a.gain - want) <= tol(w_old), "%s: v %d: gain %.17g, brute force %.17g (kind %d)", what, v,
                  a.gain, want, a.kind);
        /* the chosen augmentation is real: apply it and re-sum */
        memcpy(m2, mate, (size_t)n * sizeof *m2);
        memcpy(mw2, mw, (size_t)n * sizeof *mw2);
        roma_apply(m2, mw2, &a);
        cr_assert(oracle_matching_valid(g, m2), "%s: v %d: kind %d gives an invalid matching", what, v, a.kind);
        double got = oracle_matching_weight(g, m2) - w_old;
        cr_assert(fabs(got - a.gain) <= tol(w_old), "%s: v %d: kind %d claims %.17g, applying gains %.17g", what, v,
                  a.kind, a.gain, got);
        double removed = 0.0;
        for (int32_t z = 0; z < n; z++)
            if (mate[z] > z && m2[z] != mate[z])
                removed += mw[z];
        cr_assert(fabs(removed - a.removed) <= tol(w_old), "%s: v %d: removed %.17g, want %.17g", what, v,
                  a.removed, removed);
        int32_t t[6];
        int k = roma_touched(&a, t);
        for (int32_t z = 0; z < n; z++) {
            int in = 0;
            for (int i = 0; i < k; i++)
                in |= t[i] == z;
            cr_assert(in || (m2[z] == mate[z] && mw2[z] == mw[z]), "%s: v %d: untouched vertex %d changed", what,
                      v, z);
        }
    }
    free(mw), free(mw2), free(m2), free(stamp), free(sw);
}

Test(roma, best_augmentation_equals_brute_force)
{
    for (int t = 0; t < 3000; t++) {
        coarsen_graph *g = small_graph(t);
        int64_t cap = 0;
        if (t % 4 == 3) {
            test_random_vertex_weights(g, 3, 40 + (uint64_t)t);
            cap = 4;
        }
        int32_t mate[16];
        test_random_matching(g, cap, 300 + (uint64_t)t, mate);
        char what[96];
        snprintf(what, sizeof what, "graph %d (n %d, mode %d, cap %lld)", t, g->n, t % 3, (long long)cap);
        check_aug_all_vertices(g, mate, cap, t % 2, what);
        coarsen_graph_free(g);
    }
}

/* Graph from an edge list (u, v, w) triples. */
static coarsen_graph *graph_of(int32_t n, int m, const double (*e)[3])
{
    coarsen_error err = {0};
    edge_list l;
    cr_assert_eq(edge_list_init(&l, m, &err), 0);
    for (int i = 0; i < m; i++)
        edge_list_push(&l, (int32_t)e[i][0], (int32_t)e[i][1], e[i][2], &err);
    graph_build_opts o = {.mirrored = 1, .dup_rule = MERGE_MAX, .sym_rule = MERGE_MAX};
    coarsen_graph *g = NULL;
    cr_assert_eq(graph_from_edges(n, &l, &o, &g, NULL, &err), 0, "%s", err.msg);
    edge_list_free(&l);
    return g;
}

Test(roma, path_and_four_cycle_by_hand)
{
    /* path 0-1-2-3: greedy takes (1,2) = 3; the path flip gives 2 + 2 */
    const double path[][3] = {{0, 1, 2}, {1, 2, 3}, {2, 3, 2}};
    coarsen_graph *g = graph_of(4, 3, path);
    int32_t mate[4] = {-1, 2, 1, -1};
    double mw[4] = {0, 3, 3, 0};
    roma_state S = {g->xadj, g->adj, g->ewgt, g->vwgt, mate, mw, 0};
    roma_aug a;
    roma_best_aug(&S, 1, NULL, &a);
    cr_assert_eq(a.kind, ROMA_PATH);
    cr_assert_eq(a.gain, 1.0);
    cr_assert(a.x == 0 && a.y == 3, "x %d y %d", a.x, a.y);
    coarsen_graph_free(g);
    /* square 0-1-2-3-0 matched (0,1), (2,3) at 1; the other two edges 5: the
     * cycle gains 5 + 5 - 1 - 1 = 8 (a path formula would say 7) */
    const double sq[][3] = {{0, 1, 1}, {1, 2, 5}, {2, 3, 1}, {3, 0, 5}};
    g = graph_of(4, 4, sq);
    int32_t m2[4] = {1, 0, 3, 2};
    double w2[4] = {1, 1, 1, 1};
    roma_state S2 = {g->xadj, g->adj, g->ewgt, g->vwgt, m2, w2, 0};
    roma_best_aug(&S2, 0, NULL, &a);
    cr_assert_eq(a.kind, ROMA_CYCLE);
    cr_assert_eq(a.gain, 8.0);
    roma_opts o;
    roma_opts_default(&o);
    roma_stats st;
    coarsen_error err = {0};
    cr_assert_eq(roma_cpu(g, &o, m2, &st, &err), 0, "%s", err.msg);
    cr_assert(m2[0] == 3 && m2[1] == 2, "mates %d %d %d %d", m2[0], m2[1], m2[2], m2[3]);
    cr_assert_eq(st.phase[0].gain, 8.0);
    cr_assert_eq(st.phases, 2);
    coarsen_graph_free(g);
}

typedef int (*roma_fn)(const coarsen_graph *, const roma_opts *, int32_t *, roma_stats *, coarsen_error *);

/* Runs fn phase by phase (a run capped at k phases is the first k phases of
 * a longer one) and checks validity, monotone weight, gains and stats. */
static void check_phases(roma_fn fn, const coarsen_graph *g, const int32_t *start, const roma_opts *base,
                         const char *what)
{
    int32_t n = g->n;
    int32_t *mate = malloc(sizeof(int32_t) * ((size_t)n + 1));
    roma_opts o = *base;
    roma_stats full, st;
    coarsen_error err = {0};
    memcpy(mate, start, (size_t)n * sizeof *mate);
    cr_assert_eq(fn(g, &o, mate, &full, &err), 0, "%s: %s", what, err.msg);
    double prev = oracle_matching_weight(g, start);
    for (int k = 1; k <= full.phases; k++) {
        o.max_phases = k;
        memcpy(mate, start, (size_t)n * sizeof *mate);
        cr_assert_eq(fn(g, &o, mate, &st, &err), 0, "%s: %s", what, err.msg);
        cr_assert_eq(st.phases, k, "%s", what);
        cr_assert_eq(match_validate(g, mate, o.max_vertex_weight, NULL, &err), 0, "%s: phase %d: %s", what, k,
                     err.msg);
        double w = oracle_matching_weight(g, mate);
        const roma_phase_stats *ps = &full.phase[k - 1];
        cr_assert_geq(w, prev, "%s: phase %d: weight fell from %.17g to %.17g", what, k, prev, w);
        cr_assert(fabs((w - prev) - ps->gain) <= 1e-9 * (1 + w), "%s: phase %d: gain %.17g, weight change %.17g",
                  what, k, ps->gain, w - prev);
        cr_assert(ps->applied <= ps->candidates && (ps->candidates == 0) == (ps->applied == 0),
                  "%s: phase %d: %lld candidates, %lld applied", what, k, (long long)ps->candidates,
                  (long long)ps->applied);
        if (k < full.phases || full.phases < base->max_phases) /* only the last phase may apply nothing */
            cr_assert_eq(ps->applied > 0, k < full.phases, "%s: phase %d of %d applied %lld", what, k, full.phases,
                         (long long)ps->applied);
        prev = w;
    }
    free(mate);
}

/* After convergence no centred augmentation passes the threshold. */
static void check_local_optimum(const coarsen_graph *g, const int32_t *mate, int64_t cap, const char *what)
{
    for (int32_t v = 0; v < g->n; v++) {
        int count = 0;
        double best = oracle_best_centred_gain(g, mate, cap, v, &count);
        cr_assert(best <= (g->integral_weights ? 0.5 : 1e-6), "%s: vertex %d still has a gain %.17g", what, v, best);
    }
}

static void check_refiner(roma_fn fn, const char *name)
{
    for (int t = 0; t < 400; t++) {
        coarsen_graph *g = small_graph(t);
        roma_opts o;
        roma_opts_default(&o);
        o.seed = 11 + (uint64_t)t;
        o.max_rounds = t % 3 == 1; /* replay: every third graph with the single-claim scheme */
        o.turns = t / 3 % 2;       /* ... every other triple with turns, */
        o.priority = t / 6 % 2;    /* ... and random priority in every other pair of those */
        if (t % 5 == 4) {
            test_random_vertex_weights(g, 3, 90 + (uint64_t)t);
            o.max_vertex_weight = 4;
        }
        int32_t start[16], mate[16];
        test_random_matching(g, o.max_vertex_weight, 500 + (uint64_t)t, start);
        char what[96];
        snprintf(what, sizeof what, "%s: graph %d (n %d, mode %d)", name, t, g->n, t % 3);
        check_phases(fn, g, start, &o, what);
        memcpy(mate, start, sizeof mate);
        roma_stats st;
        coarsen_error err = {0};
        cr_assert_eq(fn(g, &o, mate, &st, &err), 0);
        cr_assert_lt(st.phases, ROMA_MAX_PHASES, "%s: did not converge", what);
        check_local_optimum(g, mate, o.max_vertex_weight, what);
        if (o.max_vertex_weight == 0) {
            double opt = oracle_max_matching_weight(g);
            cr_assert_leq(oracle_matching_weight(g, mate), opt + 1e-9, "%s: above the optimum", what);
        }
        coarsen_graph_free(g);
    }
}

Test(roma, sequential_phases_valid_monotone_locally_optimal)
{
    check_refiner(roma_cpu, "sequential");
}

Test(roma, replay_phases_valid_monotone_locally_optimal)
{
    check_refiner(roma_replay_cpu, "replay");
}

/* Handshake then fn on a larger sparse graph; mate receives the result. */
static void refine_handshake(roma_fn fn, const coarsen_graph *g, const roma_opts *o, int32_t *mate, roma_stats *st)
{
    matching_opts mo;
    matching_opts_default(&mo);
    matching_stats ms;
    coarsen_error err = {0};
    cr_assert_eq(match_cpu(g, &mo, mate, NULL, &ms, &err), 0, "%s", err.msg);
    cr_assert_eq(fn(g, o, mate, st, &err), 0, "%s", err.msg);
}

Test(roma, seeded_order_and_thread_count_independence)
{
    coarsen_graph *g = test_sparse_graph(3000, 9000, 2, 42);
    int32_t *a = malloc(sizeof(int32_t) * 3000), *b = malloc(sizeof(int32_t) * 3000);
    roma_opts o;
    roma_opts_default(&o);
    roma_stats sa, sb;
    refine_handshake(roma_cpu, g, &o, a, &sa);
    refine_handshake(roma_cpu, g, &o, b, &sb);
    cr_assert_eq(memcmp(a, b, 3000 * sizeof *a), 0, "sequential: same seed, different matchings");
    o.seed = 2;
    refine_handshake(roma_cpu, g, &o, b, &sb);
    cr_assert_neq(memcmp(a, b, 3000 * sizeof *a), 0, "sequential: the seed changes nothing");
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    refine_handshake(roma_replay_cpu, g, &o, a, &sa);
    omp_set_num_threads(threads > 1 ? threads : 3);
    refine_handshake(roma_replay_cpu, g, &o, b, &sb);
    omp_set_num_threads(threads);
    cr_assert_eq(memcmp(a, b, 3000 * sizeof *a), 0, "replay depends on the thread count");
    cr_assert_eq(sa.phases, sb.phases);
    for (int p = 0; p < sa.phases; p++)
        cr_assert(sa.phase[p].gain == sb.phase[p].gain && sa.phase[p].applied == sb.phase[p].applied &&
                  sa.phase[p].candidates == sb.phase[p].candidates, "replay phase %d stats differ", p);
    cr_assert_gt(sa.phase[0].applied, 0, "handshake on a random graph leaves no augmentation?");
    free(a), free(b);
    coarsen_graph_free(g);
}

Test(roma, bad_input_refused)
{
    coarsen_graph *g = test_random_graph(6, 0.5, 1, 3);
    int32_t mate[6] = {1, -1, -1, -1, -1, -1}; /* not symmetric */
    roma_opts o;
    roma_opts_default(&o);
    roma_stats st;
    coarsen_error err = {0};
    cr_assert_eq(roma_cpu(g, &o, mate, &st, &err), COARSEN_ERR_INPUT);
    cr_assert_eq(roma_replay_cpu(g, &o, mate, &st, &err), COARSEN_ERR_INPUT);
    cr_assert_eq(exec_refine_host(exec_backend_gpu(), g, &o, mate, &st, &err), COARSEN_ERR_INPUT); /* checked before any device work */
    int32_t ok[6] = {-1, -1, -1, -1, -1, -1};
    o.max_phases = 0;
    cr_assert_eq(roma_cpu(g, &o, ok, &st, &err), COARSEN_ERR_INPUT);
    o.max_phases = ROMA_MAX_PHASES + 1;
    cr_assert_eq(roma_replay_cpu(g, &o, ok, &st, &err), COARSEN_ERR_INPUT);
    roma_opts_default(&o);
    o.eps = -1;
    cr_assert_eq(roma_cpu(g, &o, ok, &st, &err), COARSEN_ERR_INPUT);
    roma_opts_default(&o);
    o.max_rounds = -1;
    cr_assert_eq(roma_replay_cpu(g, &o, ok, &st, &err), COARSEN_ERR_INPUT);
    roma_opts_default(&o);
    o.turns = 2;
    cr_assert_eq(roma_replay_cpu(g, &o, ok, &st, &err), COARSEN_ERR_INPUT);
    roma_opts_default(&o);
    o.priority = 7;
    cr_assert_eq(roma_replay_cpu(g, &o, ok, &st, &err), COARSEN_ERR_INPUT);
    coarsen_graph_free(g);
}

/* GPU vs replay, bit for bit: mates and every phase's stats. */
static void check_gpu_equals_replay(const coarsen_graph *g, const int32_t *start, const roma_opts *o,
                                    const char *what)
{
    size_t bytes = (size_t)g->n * sizeof(int32_t) + 4;
    int32_t *a = malloc(bytes), *b = malloc(bytes);
    memcpy(a, start, bytes - 4), memcpy(b, start, bytes - 4);
    roma_stats sa, sb;
    coarsen_error err = {0};
    cr_assert_eq(roma_replay_cpu(g, o, a, &sa, &err), 0, "%s: %s", what, err.msg);
    cr_assert_eq(exec_refine_host(exec_backend_gpu(), g, o, b, &sb, &err), 0, "%s: GPU: %s", what, err.msg);
    cr_assert_eq(sa.phases, sb.phases, "%s: phases CPU %d GPU %d", what, sa.phases, sb.phases);
    for (int p = 0; p < sa.phases; p++)
        cr_assert(sa.phase[p].candidates == sb.phase[p].candidates && sa.phase[p].applied == sb.phase[p].applied &&
                      sa.phase[p].gain == sb.phase[p].gain && sa.phase[p].rounds == sb.phase[p].rounds &&
                      sa.phase[p].passes == sb.phase[p].passes && sa.phase[p].evaluated == sb.phase[p].evaluated,
                  "%s: phase %d: CPU %lld/%lld/%.17g GPU %lld/%lld/%.17g", what, p, (long long)sa.phase[p].candidates,
                  (long long)sa.phase[p].applied, sa.phase[p].gain, (long long)sb.phase[p].candidates,
                  (long long)sb.phase[p].applied, sb.phase[p].gain);
    for (int32_t v = 0; v < g->n; v++)
        cr_assert_eq(a[v], b[v], "%s: vertex %d: mate CPU %d GPU %d", what, v, a[v], b[v]);
    free(a), free(b);
}

/* GPU vs replay from the handshake matching and (random = 1) from a
 * random matching too; frees g. */
static void check_gpu_starts(coarsen_graph *g, int random, const char *what)
{
    int32_t *start = malloc(sizeof(int32_t) * ((size_t)g->n + 1));
    matching_opts mo;
    matching_opts_default(&mo);
    matching_stats ms;
    coarsen_error err = {0};
    cr_assert_eq(match_cpu(g, &mo, start, NULL, &ms, &err), 0);
    roma_opts o;
    roma_opts_default(&o);
    check_gpu_equals_replay(g, start, &o, what);
    o.max_rounds = 1; /* the single-claim scheme */
    check_gpu_equals_replay(g, start, &o, what);
    o.max_rounds = 0;
    o.turns = 1, o.priority = ROMA_PRIORITY_RANDOM;
    check_gpu_equals_replay(g, start, &o, what);
    o.turns = 0, o.priority = ROMA_PRIORITY_GAIN;
    if (random) {
        test_random_matching(g, 0, 77, start);
        check_gpu_equals_replay(g, start, &o, what);
        o.turns = 1;
        check_gpu_equals_replay(g, start, &o, what);
    }
    free(start);
    coarsen_graph_free(g);
}

Test(roma, gpu_equals_replay)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): GPU ROMA not compared");
    for (int t = 0; t < 60; t++) {
        coarsen_graph *g = small_graph(t);
        int32_t start[16];
        roma_opts o;
        roma_opts_default(&o);
        o.max_rounds = t % 2;
        o.turns = t / 2 % 2;
        o.priority = t / 4 % 2;
        if (t % 5 == 4) {
            test_random_vertex_weights(g, 3, 90 + (uint64_t)t);
            o.max_vertex_weight = 4;
        }
        test_random_matching(g, o.max_vertex_weight, 500 + (uint64_t)t, start);
        check_gpu_equals_replay(g, start, &o, "small graph");
        coarsen_graph_free(g);
    }
    struct {
        int32_t n;
        int64_t m;
        int mode, star;
    } big[] = {{20000, 80000, 2, 0}, {20000, 60000, 1, 0}, {5000, 20000, 0, 1}, {3000, 200000, 2, 1},
               {10000, 30000, 1, 1}}; /* hubs of 3000 to 10000 entries: a warp, a block */
    for (int i = 0; i < 5; i++) {
        coarsen_graph *g = big[i].star ? test_star_graph(big[i].n, big[i].m, big[i].mode, 9 + (uint64_t)i)
                                       : test_sparse_graph(big[i].n, big[i].m, big[i].mode, 9 + (uint64_t)i);
        check_gpu_starts(g, 1, big[i].star ? "star graph" : "sparse graph");
    }
    { /* every centre heavy (a warp each), under a vertex-weight cap */
        coarsen_graph *g = test_sparse_graph(3000, 200000, 2, 21);
        int32_t *start = malloc(sizeof(int32_t) * 3001);
        roma_opts o;
        roma_opts_default(&o);
        test_random_vertex_weights(g, 3, 22);
        o.max_vertex_weight = 4;
        test_random_matching(g, o.max_vertex_weight, 23, start);
        check_gpu_equals_replay(g, start, &o, "dense sparse graph, capped");
        free(start);
        coarsen_graph_free(g);
    }
    /* shared graphs: real, integer and unit weights, isolated vertices, vertex weights */
    const char *shared[] = {"GD97_b.mtx", "lesmis.graph", "4elt.graph", "bcsstk13.mtx.gz", "kahip_example_weighted.graph"};
    for (int i = 0; i < 5; i++) {
        int skip;
        char why[1024];
        coarsen_graph *g = test_load_shared(shared[i], &skip, why, sizeof why);
        if (!g) {
            cr_assert(skip, "%s", why);
            cr_log_warn("skipped %s: %s", shared[i], why);
            continue;
        }
        check_gpu_starts(g, 0, shared[i]);
    }
}

/* The claim rule the sort below uses (qsort has no context argument). */
static int sort_priority;
static uint64_t sort_seed;

static int cmp_key_desc(const void *pa, const void *pb)
{
    const roma_aug *a = pa, *b = pb;
    uint64_t ka = roma_claim_key(a, sort_priority, sort_seed, 0), kb = roma_claim_key(b, sort_priority, sort_seed, 0);
    return (ka < kb) - (ka > kb);
}

/* One phase of the parallel rule, plainly: per pass, every centre whose
 * turn is pending evaluates on the pass-start matching (no candidate: its
 * turn ends); the candidates, sorted by descending claim key, apply as the
 * greedy vertex-disjoint set (claim rounds) or when no earlier candidate
 * shares a vertex (single claim), ending their centre's turn; with turns,
 * passes repeat until one has no candidate. mate is updated; returns the
 * phase's candidates. */
static int64_t oracle_phase(const coarsen_graph *g, int single, int turns, int32_t *mate)
{
    int32_t n = g->n;
    double *mw = malloc(sizeof(double) * ((size_t)n + 1));
    roma_aug *cand = malloc(sizeof(roma_aug) * ((size_t)n + 1));
    uint8_t *taken = malloc((size_t)n + 1), *done = calloc((size_t)n + 1, 1);
    int64_t total = 0;
    for (;;) {
        matched_weights(g, mate, mw);
        roma_state S = {g->xadj, g->adj, g->ewgt, g->vwgt, mate, mw, 0};
        int k = 0;
        for (int32_t c = 0; c < n; c++) {
            int32_t m = mate[c];
            if ((m >= 0 && m < c) || (done[c] && (m < 0 || done[m])))
                continue;
            roma_best_aug(&S, c, NULL, &cand[k]);
            if (roma_accept(&cand[k], g->integral_weights, 1e-9)) {
                k++;
                continue;
            }
            done[c] = 1;
            if (m >= 0)
                done[m] = 1;
        }
        total += k;
        qsort(cand, (size_t)k, sizeof *cand, cmp_key_desc);
        memset(taken, 0, (size_t)n);
        for (int i = 0; i < k; i++) {
            int32_t ti[6], tj[6];
            int ki = roma_touched(&cand[i], ti), ok = 1;
            if (single) { /* beaten by an earlier (larger) key sharing a vertex? */
                for (int j = 0; j < i && ok; j++) {
                    int kj = roma_touched(&cand[j], tj);
                    for (int a = 0; a < ki; a++)
                        for (int b = 0; b < kj; b++)
                            ok &= ti[a] != tj[b];
                }
            } else {
                for (int a = 0; a < ki; a++)
                    ok &= !taken[ti[a]];
            }
            if (!ok)
                continue;
            for (int a = 0; a < ki; a++)
                taken[ti[a]] = 1;
            roma_apply(mate, mw, &cand[i]);
            done[cand[i].v] = 1;
            if (cand[i].u >= 0)
                done[cand[i].u] = 1;
        }
        if (!turns || k == 0)
            break;
    }
    free(mw), free(cand), free(taken), free(done);
    return total;
}

/* One replay phase against oracle_phase, for both claim schemes, both
 * priorities, with and without turns. */
Test(roma, replay_phase_equals_greedy_by_key)
{
    for (int t = 0; t < 80; t++) {
        coarsen_graph *g = test_sparse_graph(200 + 5 * t, 600 + 20 * t, t % 3, 900 + (uint64_t)t);
        int32_t n = g->n;
        int32_t *start = malloc(sizeof(int32_t) * (size_t)n), *want = malloc(sizeof(int32_t) * (size_t)n);
        int32_t *got = malloc(sizeof(int32_t) * (size_t)n);
        test_random_matching(g, 0, 40 + (uint64_t)t, start);
        roma_opts o;
        roma_opts_default(&o);
        o.max_phases = 1;
        o.max_rounds = t % 2;
        o.priority = t / 2 % 2 ? ROMA_PRIORITY_RANDOM : ROMA_PRIORITY_GAIN;
        o.turns = t / 4 % 2;
        o.seed = 5 + (uint64_t)t;
        sort_priority = o.priority, sort_seed = o.seed;
        memcpy(want, start, sizeof(int32_t) * (size_t)n);
        int64_t k = oracle_phase(g, o.max_rounds, o.turns, want);
        roma_stats st;
        coarsen_error err = {0};
        memcpy(got, start, sizeof(int32_t) * (size_t)n);
        cr_assert_eq(roma_replay_cpu(g, &o, got, &st, &err), 0, "%s", err.msg);
        char what[96];
        snprintf(what, sizeof what, "graph %d (%s, %s priority, turns %d)", t,
                 o.max_rounds ? "single claim" : "claim rounds", o.priority ? "random" : "gain", o.turns);
        cr_assert_eq(st.phase[0].candidates, k, "%s: %lld candidates, oracle %lld", what,
                     (long long)st.phase[0].candidates, (long long)k);
        cr_assert(o.turns ? st.phase[0].passes >= 1 : st.phase[0].passes == 1, "%s: %d passes", what,
                  st.phase[0].passes);
        for (int32_t v = 0; v < n; v++)
            cr_assert_eq(got[v], want[v], "%s: vertex %d: replay %d, oracle %d", what, v, got[v], want[v]);
        free(start), free(want), free(got);
        coarsen_graph_free(g);
    }
}

/* The first pass of a turns phase is the one-pass phase, and later passes
 * only apply gains: a phase with turns applies at least as much, and
 * evaluates every centre of the starting matching at least once. */
Test(roma, turns_extend_the_one_pass_phase)
{
    int more = 0;
    for (int t = 0; t < 30; t++) {
        coarsen_graph *g = test_sparse_graph(2000, 8000, t % 3, 300 + (uint64_t)t);
        int32_t n = g->n, centres = 0;
        int32_t *start = malloc(sizeof(int32_t) * (size_t)n), *a = malloc(sizeof(int32_t) * (size_t)n);
        int32_t *b = malloc(sizeof(int32_t) * (size_t)n);
        test_random_matching(g, 0, 60 + (uint64_t)t, start);
        for (int32_t c = 0; c < n; c++)
            centres += start[c] < 0 || start[c] > c;
        roma_opts o;
        roma_opts_default(&o);
        o.max_phases = 1;
        o.priority = t % 2;
        roma_stats sa, sb;
        coarsen_error err = {0};
        memcpy(a, start, sizeof(int32_t) * (size_t)n), memcpy(b, start, sizeof(int32_t) * (size_t)n);
        cr_assert_eq(roma_replay_cpu(g, &o, a, &sa, &err), 0, "%s", err.msg);
        o.turns = 1;
        cr_assert_eq(roma_replay_cpu(g, &o, b, &sb, &err), 0, "%s", err.msg);
        cr_assert_eq(sa.phase[0].evaluated, centres, "graph %d: one pass evaluated %lld of %d centres", t,
                     (long long)sa.phase[0].evaluated, centres);
        cr_assert_geq(sb.phase[0].evaluated, centres, "graph %d", t);
        cr_assert_geq(sb.phase[0].applied, sa.phase[0].applied, "graph %d", t);
        cr_assert_geq(oracle_matching_weight(g, b), oracle_matching_weight(g, a) - 1e-9, "graph %d", t);
        more += sb.phase[0].passes > 1 && sb.phase[0].applied > sa.phase[0].applied;
        free(start), free(a), free(b);
        coarsen_graph_free(g);
    }
    cr_assert_gt(more, 0, "turns never added a pass that applied something");
}

/* test_roma_complete.c — complete-graph ROMA (matching/roma_complete.h):
 * the best flip of every matched edge equals an enumeration of all flips;
 * the sequential reference and the replay keep a perfect matching whose
 * weight never decreases, with per-phase gains equal to the weight change,
 * stop at a flip-optimal matching, never exceed the optimum (brute force);
 * bad input is refused; the GPU equals the replay bit for bit. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "matching/roma_complete.h"
#include "matching/roma_complete_aug.h"
#include "tests/support/roma_oracles.h"
#include "exec/host_call.h"
#include "tests/support/test_support.h"

/* Symmetric n x n matrix: mode 0 reals in [0,1), 1 integers 0..3 (ties). */
static float *dense(int32_t n, int mode, uint64_t seed)
{
    float *w = calloc((size_t)n * (size_t)n + 1, sizeof *w);
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++) {
            uint64_t h = hash3(seed, (uint64_t)i, (uint64_t)j);
            float x = mode ? (float)(h % 4) : (float)hash_unit(h);
            w[(size_t)i * n + j] = w[(size_t)j * n + i] = x;
        }
    return w;
}

/* Largest gain over every flip of v's edge, by enumeration and re-summing. */
static double oracle_best_flip(int32_t n, const float *w, const int32_t *mate, int32_t v, int *count)
{
    int32_t *m = malloc(sizeof(int32_t) * (size_t)n);
    int32_t u = mate[v];
    double old = roma_dense_weight(n, w, mate), best = 0.0;
    *count = 0;
    for (int32_t x = 0; x < n; x++) {
        if (x == v || x == u)
            continue;
        int32_t y = mate[x];
        memcpy(m, mate, sizeof(int32_t) * (size_t)n);
        m[v] = x, m[x] = v, m[u] = y, m[y] = u;
        double gain = roma_dense_weight(n, w, m) - old;
        if (!*count || gain > best)
            best = gain;
        ++*count;
    }
    free(m);
    return best;
}

Test(roma_complete, best_flip_equals_enumeration)
{
    for (int t = 0; t < 600; t++) {
        int32_t n = 4 + 2 * (t % 6);
        float *w = dense(n, t % 2, 100 + (uint64_t)t);
        int32_t mate[16];
        double mw[16];
        coarsen_error err = {0};
        cr_assert_eq(roma_random_pairing(n, 7 + (uint64_t)t, mate, &err), 0);
        for (int32_t v = 0; v < n; v++)
            mw[v] = w[(size_t)v * n + mate[v]];
        for (int32_t v = 0; v < n; v++) {
            int count;
            double want = oracle_best_flip(n, w, mate, v, &count), gain = 0.0;
            int32_t x = -1;
            roma_flip_scan(w, n, mate, mw, v, mate[v], 0, 1, &gain, &x);
            cr_assert_eq(x >= 0, count > 0, "case %d v %d", t, v);
            cr_assert(fabs(gain - want) <= 1e-6, "case %d v %d: gain %.9g, enumeration %.9g", t, v, gain, want);
            /* strided scans folded in any order give the same best flip */
            double g2 = 0.0;
            int32_t x2 = -1;
            for (int32_t s = 2; s >= 0; s--)
                roma_flip_scan(w, n, mate, mw, v, mate[v], s, 3, &g2, &x2);
            cr_assert(g2 == gain && x2 == x, "case %d v %d: strided scan differs", t, v);
        }
        free(w);
    }
}

typedef int (*complete_fn)(int32_t, const float *, const roma_opts *, int32_t *, roma_stats *, coarsen_error *);

static void check_complete(complete_fn fn, const char *name)
{
    for (int t = 0; t < 120; t++) {
        int32_t n = 4 + 2 * (t % 6);
        float *w = dense(n, t % 2, 300 + (uint64_t)t);
        int32_t start[16], mate[16];
        coarsen_error err = {0};
        cr_assert_eq(roma_random_pairing(n, 9 + (uint64_t)t, start, &err), 0);
        roma_opts o;
        roma_complete_opts_default(&o);
        o.max_phases = ROMA_MAX_PHASES;
        if (t % 3 == 2) /* the one-pass rule, random priority */
            o.turns = 0, o.priority = ROMA_PRIORITY_RANDOM;
        else if (t % 3 == 1) /* turns, random priority */
            o.priority = ROMA_PRIORITY_RANDOM;
        roma_stats full, st;
        memcpy(mate, start, sizeof mate);
        cr_assert_eq(fn(n, w, &o, mate, &full, &err), 0, "%s", err.msg);
        cr_assert_lt(full.phases, ROMA_MAX_PHASES, "%s case %d: no convergence", name, t);
        double prev = roma_dense_weight(n, w, start);
        for (int k = 1; k <= full.phases; k++) {
            o.max_phases = k;
            memcpy(mate, start, sizeof mate);
            cr_assert_eq(fn(n, w, &o, mate, &st, &err), 0, "%s", err.msg);
            for (int32_t v = 0; v < n; v++)
                cr_assert(mate[v] >= 0 && mate[v] < n && mate[v] != v && mate[mate[v]] == v,
                          "%s case %d phase %d: not a perfect matching at %d", name, t, k, v);
            double wk = roma_dense_weight(n, w, mate);
            cr_assert_geq(wk, prev, "%s case %d phase %d: weight fell", name, t, k);
            cr_assert(fabs(wk - prev - full.phase[k - 1].gain) <= 1e-6, "%s case %d phase %d: gain %.9g, change %.9g",
                      name, t, k, full.phase[k - 1].gain, wk - prev);
            cr_assert_eq(full.phase[k - 1].applied > 0, k < full.phases, "%s case %d phase %d", name, t, k);
            prev = wk;
        }
        for (int32_t v = 0; v < n; v++) {
            int count;
            cr_assert_leq(oracle_best_flip(n, w, mate, v, &count), 1e-5 + 1e-6, "%s case %d: flip left at %d", name,
                          t, v);
        }
        /* the optimum of the same complete graph, by brute force */
        coarsen_graph *g = coarsen_graph_alloc(n, (int64_t)n * (n - 1), &err);
        int64_t e = 0;
        for (int32_t i = 0; i < n; i++) {
            g->vwgt[i] = 1;
            for (int32_t j = 0; j < n; j++)
                if (j != i)
                    g->adj[e] = j, g->ewgt[e++] = w[(size_t)i * n + j];
            g->xadj[i + 1] = e;
        }
        g->integral_weights = t % 2;
        cr_assert_leq(roma_dense_weight(n, w, mate), oracle_max_matching_weight(g) + 1e-6, "%s case %d", name, t);
        coarsen_graph_free(g);
        free(w);
    }
}

Test(roma_complete, sequential_perfect_monotone_flip_optimal)
{
    check_complete(roma_complete_cpu, "sequential");
}

Test(roma_complete, replay_perfect_monotone_flip_optimal)
{
    check_complete(roma_complete_replay_cpu, "replay");
}

Test(roma_complete, bad_input_refused)
{
    float *w = dense(6, 0, 1);
    int32_t mate[6] = {1, 0, 3, 2, -1, -1};
    roma_opts o;
    roma_complete_opts_default(&o);
    roma_stats st;
    coarsen_error err = {0};
    cr_assert_eq(roma_complete_cpu(6, w, &o, mate, &st, &err), COARSEN_ERR_INPUT);
    cr_assert_eq(roma_complete_replay_cpu(6, w, &o, mate, &st, &err), COARSEN_ERR_INPUT);
    cr_assert_eq(exec_refine_complete_host(exec_backend_gpu(), 6, w, &o, mate, &st, &err), COARSEN_ERR_INPUT);
    cr_assert_eq(roma_complete_cpu(5, w, &o, mate, &st, &err), COARSEN_ERR_INPUT);
    cr_assert_eq(roma_random_pairing(5, 1, mate, &err), COARSEN_ERR_INPUT);
    free(w);
}

Test(roma_complete, gpu_equals_replay)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (or built without CUDA): GPU complete-graph ROMA not compared");
    const int32_t sizes[] = {2, 8, 64, 300, 1024, 2048};
    for (int i = 0; i < 6; i++)
        for (int mode = 0; mode < 2; mode++) {
            int32_t n = sizes[i];
            float *w = dense(n, mode, 50 + (uint64_t)i);
            int32_t *a = malloc(sizeof(int32_t) * (size_t)n), *b = malloc(sizeof(int32_t) * (size_t)n);
            coarsen_error err = {0};
            cr_assert_eq(roma_random_pairing(n, 3 + (uint64_t)i, a, &err), 0);
            memcpy(b, a, sizeof(int32_t) * (size_t)n);
            roma_opts o;
            roma_complete_opts_default(&o);
            o.max_rounds = i % 2;               /* odd sizes: the single-claim scheme */
            if (i >= 4 && mode)                 /* and the one-pass rule, random priority */
                o.turns = 0, o.priority = ROMA_PRIORITY_RANDOM;
            o.dense_tile = mode ? n / 3 + 1 : 0; /* several passes over row u, the last one short */
            roma_stats sa, sb;
            cr_assert_eq(roma_complete_replay_cpu(n, w, &o, a, &sa, &err), 0, "%s", err.msg);
            cr_assert_eq(exec_refine_complete_host(exec_backend_gpu(), n, w, &o, b, &sb, &err), 0, "GPU: %s", err.msg);
            cr_assert_eq(sa.phases, sb.phases, "n %d: phases CPU %d GPU %d", n, sa.phases, sb.phases);
            for (int p = 0; p < sa.phases; p++)
                cr_assert(sa.phase[p].candidates == sb.phase[p].candidates &&
                              sa.phase[p].applied == sb.phase[p].applied && sa.phase[p].gain == sb.phase[p].gain &&
                              sa.phase[p].rounds == sb.phase[p].rounds && sa.phase[p].passes == sb.phase[p].passes &&
                              sa.phase[p].evaluated == sb.phase[p].evaluated,
                          "n %d phase %d: CPU %lld/%lld/%.17g GPU %lld/%lld/%.17g", n, p,
                          (long long)sa.phase[p].candidates, (long long)sa.phase[p].applied, sa.phase[p].gain,
                          (long long)sb.phase[p].candidates, (long long)sb.phase[p].applied, sb.phase[p].gain);
            for (int32_t v = 0; v < n; v++)
                cr_assert_eq(a[v], b[v], "n %d mode %d: vertex %d: mate CPU %d GPU %d", n, mode, v, a[v], b[v]);
            free(a), free(b), free(w);
        }
}

/* match_oracles.c — greedy oracle, extra test graphs and the GPU runner of
 * the matching tests (match_oracles.h). */
#include "tests/support/match_oracles.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/graph_build.h"
#include "core/hash.h"
#include "exec/host_call.h"
#include "tests/support/test_support.h"

typedef struct oedge {
    double w;
    int32_t lo, hi; /* ranks, lo < hi */
    int32_t u, v;
} oedge;

static int cmp_oedge(const void *pa, const void *pb)
{
    const oedge *a = pa, *b = pb;
    if (a->w != b->w)
        return a->w > b->w ? -1 : 1;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return (a->hi > b->hi) - (a->hi < b->hi);
}

static int fits(const coarsen_graph *g, int64_t cap, int32_t u, int32_t v)
{
    return cap <= 0 || g->vwgt[u] + g->vwgt[v] <= cap;
}

void oracle_greedy_matching(const coarsen_graph *g, int64_t cap, tie_rule ties, int32_t *mate)
{
    oedge *list = malloc(((size_t)g->nnz / 2 + 1) * sizeof *list);
    size_t k = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
            int32_t v = g->adj[e];
            if (u < v && fits(g, cap, u, v)) {
                int32_t ru = tie_rank(ties, u), rv = tie_rank(ties, v);
                list[k++] = (oedge){g->ewgt[e], ru < rv ? ru : rv, ru < rv ? rv : ru, u, v};
            }
        }
    qsort(list, k, sizeof *list, cmp_oedge);
    for (int32_t v = 0; v < g->n; v++)
        mate[v] = -1;
    for (size_t i = 0; i < k; i++)
        if (mate[list[i].u] == -1 && mate[list[i].v] == -1) {
            mate[list[i].u] = list[i].v;
            mate[list[i].v] = list[i].u;
        }
    free(list);
}

int32_t oracle_strongest(const coarsen_graph *g, int32_t v, int64_t cap, tie_rule ties)
{
    int32_t best = -1;
    double best_w = -1.0;
    for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++) {
        int32_t u = g->adj[e];
        if (!fits(g, cap, v, u))
            continue;
        if (best < 0 || g->ewgt[e] > best_w || (g->ewgt[e] == best_w && tie_rank(ties, u) < tie_rank(ties, best))) {
            best = u;
            best_w = g->ewgt[e];
        }
    }
    return best;
}

static double weight_of_mode(int mode, uint64_t h)
{
    switch (mode) {
    case 0: return 1.0;
    case 1: return (double)(1 + h % 4);
    case 2: return 1.0 - hash_unit(h);
    default: return 0.0;
    }
}

/* Adds about m random edges among vertices [lo, n) to e. */
static void push_random_edges(edge_list *e, int32_t lo, int32_t n, int64_t m, int mode, uint64_t seed,
                              coarsen_error *err)
{
    uint64_t span = (uint64_t)(n - lo);
    for (int64_t k = 0; span > 1 && k < m; k++) {
        int32_t u = lo + (int32_t)(hash3(seed, (uint64_t)k, 1) % span);
        int32_t v = lo + (int32_t)(hash3(seed, (uint64_t)k, 2) % span);
        if (u != v)
            edge_list_push(e, u, v, weight_of_mode(mode, hash3(seed, (uint64_t)k, 3)), err);
    }
}

static coarsen_graph *build(int32_t n, edge_list *e, coarsen_error *err)
{
    graph_build_opts o = {.mirrored = 1, .dup_rule = MERGE_MAX, .sym_rule = MERGE_MAX};
    coarsen_graph *g = NULL;
    graph_from_edges(n, e, &o, &g, NULL, err);
    edge_list_free(e);
    return g;
}

coarsen_graph *test_sparse_graph(int32_t n, int64_t m, int weight_mode, uint64_t seed)
{
    coarsen_error err = {0};
    edge_list e;
    if (edge_list_init(&e, m + 1, &err))
        return NULL;
    push_random_edges(&e, 0, n, m, weight_mode, seed, &err);
    return build(n, &e, &err);
}

coarsen_graph *test_star_graph(int32_t n, int64_t m, int weight_mode, uint64_t seed)
{
    coarsen_error err = {0};
    edge_list e;
    if (edge_list_init(&e, n + m, &err))
        return NULL;
    for (int32_t v = 1; v < n; v++)
        edge_list_push(&e, 0, v, weight_of_mode(weight_mode, hash3(seed ^ 0x5a5a, (uint64_t)v, 0)), &err);
    push_random_edges(&e, 1, n, m, weight_mode, seed, &err);
    return build(n, &e, &err);
}

void test_random_vertex_weights(coarsen_graph *g, int64_t max_w, uint64_t seed)
{
    for (int32_t v = 0; v < g->n; v++)
        g->vwgt[v] = 1 + (int64_t)(hash3(seed, (uint64_t)v, 77) % (uint64_t)max_w);
}

/* 0 when the two runs' mates and stats (but ms) agree, else 1 with why. */
static int same_result(int32_t n, const int32_t *m1, const int32_t *m2, const matching_stats *a,
                       const matching_stats *b, char *why, size_t why_len)
{
    if (a->passes != b->passes || a->matched_edges != b->matched_edges || a->weight != b->weight ||
        a->first_round_fraction != b->first_round_fraction || a->maximal != b->maximal) {
        snprintf(why, why_len,
                 "stats differ: passes %d/%d, pairs %lld/%lld, weight %.17g/%.17g, first %.17g/%.17g, maximal %d/%d",
                 a->passes, b->passes, (long long)a->matched_edges, (long long)b->matched_edges, a->weight,
                 b->weight, a->first_round_fraction, b->first_round_fraction, a->maximal, b->maximal);
        return 1;
    }
    for (int32_t v = 0; v < n; v++)
        if (m1[v] != m2[v]) {
            snprintf(why, why_len, "vertex %d: mate %d vs %d", v, m1[v], m2[v]);
            return 1;
        }
    return 0;
}

int test_compare_cpu_gpu(const coarsen_graph *g, const matching_opts *opts, char *why, size_t why_len)
{
    size_t bytes = ((size_t)g->n + 1) * sizeof(int32_t);
    int32_t *m1 = malloc(bytes), *m2 = malloc(bytes), *s1 = malloc(bytes), *s2 = malloc(bytes);
    matching_stats st1, st2;
    coarsen_error err = {0};
    int bad = 1;
    if (match_cpu(g, opts, m1, s1, &st1, &err))
        snprintf(why, why_len, "CPU: %s", err.msg);
    else if (exec_match_host(exec_backend_gpu(), g, opts, m2, s2, &st2, &err))
        snprintf(why, why_len, "GPU: %s", err.msg);
    else if (!(bad = same_result(g->n, m1, m2, &st1, &st2, why, why_len)))
        for (int32_t v = 0; v < g->n && !bad; v++)
            if (s1[v] != s2[v]) {
                snprintf(why, why_len, "vertex %d: strongest CPU %d GPU %d", v, s1[v], s2[v]);
                bad = 1;
            }
    free(m1), free(m2), free(s1), free(s2);
    return bad;
}

coarsen_graph *test_load_shared(const char *name, int *skip, char *why, size_t why_len)
{
    const char *dir = test_data_dir();
    *skip = 1;
    if (!dir) {
        snprintf(why, why_len, "shared data folder absent (COARSEN_DATA or ../shared/data)");
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    coarsen_graph *g = NULL;
    coarsen_error err = {0};
    if (coarsen_graph_load(path, &g, NULL, &err)) {
        snprintf(why, why_len, "%s", err.msg);
        *skip = strstr(err.msg, "not implemented") != NULL; /* placeholder loader before branch io */
        return NULL;
    }
    return g;
}

int test_each_shared(const char *const *names, size_t count, void (*fn)(const coarsen_graph *, const char *),
                     char *why, size_t why_len)
{
    for (size_t k = 0; k < count; k++) {
        int skip;
        char inner[1024];
        coarsen_graph *g = test_load_shared(names[k], &skip, inner, sizeof inner);
        if (!g) {
            snprintf(why, why_len, "%s: %s", names[k], inner);
            return skip ? -1 : 1;
        }
        fn(g, names[k]);
        coarsen_graph_free(g);
    }
    return 0;
}

int test_compare_all_shapes(const coarsen_graph *g, matching_opts opts, char *why, size_t why_len)
{
    /* (group width, heavy degree): automatic, every width, medium classes
     * (warp per vertex above degree 4 W) and cut-offs so low that most rows
     * take the block-per-vertex path */
    static const int shapes[][2] = {{0, 0}, {1, 0}, {2, 0}, {2, 3}, {4, 1}, {4, 64}, {8, 0}, {16, 5}, {32, 0}, {32, 1}};
    char inner[400];
    opts.gpu_persistent_max = -1; /* the shapes are the multi-launch version's */
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        opts.gpu_group_width = shapes[s][0];
        opts.gpu_heavy_degree = shapes[s][1];
        if (test_compare_cpu_gpu(g, &opts, inner, sizeof inner)) {
            snprintf(why, why_len, "group width %d, heavy degree %d: %s", shapes[s][0], shapes[s][1], inner);
            return 1;
        }
    }
    /* the one-launch version, wherever the graph fits it */
    opts.gpu_group_width = 0;
    opts.gpu_heavy_degree = 0;
    opts.gpu_persistent_max = INT32_MAX;
    if (test_compare_cpu_gpu(g, &opts, inner, sizeof inner)) {
        snprintf(why, why_len, "one cooperative launch: %s", inner);
        return 1;
    }
    return 0;
}

int test_gpu_small_graphs(matching_opts opts, int count, uint64_t seed, char *why, size_t why_len)
{
    char inner[800];
    for (int t = 0; t < count; t++) {
        coarsen_graph *g = test_small_graph(t, seed);
        matching_opts o = opts;
        o.seed = (uint64_t)t;
        o.hashed_ties = t % 3 == 1;
        if (t % 4 == 3) {
            test_random_vertex_weights(g, 4, (uint64_t)t);
            o.max_vertex_weight = 5;
        }
        if (o.kind == MATCHER_HANDSHAKE) { /* every rating; weights 1..4 make them differ */
            o.rating = (match_rating)(t % 3);
            if (t % 4 == 1)
                test_random_vertex_weights(g, 4, (uint64_t)t + 7);
        }
        if (t % 8 == 5)
            o.max_passes = 1;
        int bad = test_compare_all_shapes(g, o, inner, sizeof inner);
        coarsen_graph_free(g);
        if (bad) {
            snprintf(why, why_len, "small graph %d: %s", t, inner);
            return 1;
        }
    }
    return 0;
}

int test_threads_independent(const coarsen_graph *g, const matching_opts *opts, char *why, size_t why_len)
{
    size_t bytes = ((size_t)g->n + 1) * sizeof(int32_t);
    int32_t *m1 = malloc(bytes), *m2 = malloc(bytes);
    matching_stats a, b;
    coarsen_error err = {0};
    int bad = 1;
    omp_set_num_threads(1);
    if (match_cpu(g, opts, m1, NULL, &a, &err))
        snprintf(why, why_len, "1 thread: %s", err.msg);
    else {
        omp_set_num_threads(2);
        if (match_cpu(g, opts, m2, NULL, &b, &err))
            snprintf(why, why_len, "2 threads: %s", err.msg);
        else
            bad = same_result(g->n, m1, m2, &a, &b, why, why_len);
    }
    free(m1), free(m2);
    return bad;
}

coarsen_graph *test_small_graph(int t, uint64_t seed)
{
    int32_t n = 1 + t % 16;
    double p = 0.15 + 0.2 * (t / 16 % 4);
    return test_random_graph(n, p, t % 3, seed + (uint64_t)t);
}

/* test_contract.c — contraction by a fine-to-coarse map and the map from a
 * matching: invariants and a dense recount oracle on many small random
 * graphs (all weight modes, matchings and general maps with groups of 1..4),
 * cut preservation, thread-count independence, rejection of bad maps, GPU
 * output bit-identical to the CPU's, and the shared real graphs. */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract/contract.h"
#include "contract/contract_gpu_memory.h"
#include "core/hash.h"
#include "core/threads.h"
#include "device/device.h"
#include "matching/matching.h"
#include "tests/support/contract_oracles.h"
#include "tests/support/match_oracles.h"
#include "tests/support/test_support.h"

static double total_edge_weight(const coarsen_graph *g)
{
    double s = 0;
    for (int64_t e = 0; e < g->nnz; e++)
        s += g->ewgt[e];
    return s;
}

/* Each coarse entry of h equals the dense recount bit for bit, and every
 * recounted pair is present. */
static void check_dense_recount(const coarsen_graph *g, const int32_t *cmap, int32_t nc, const coarsen_graph *h,
                                const char *what)
{
    double *d;
    char *present;
    oracle_dense_contract(g, cmap, nc, &d, &present);
    int64_t pairs = 0;
    for (size_t i = 0; i < (size_t)nc * (size_t)nc; i++)
        pairs += present[i];
    cr_assert_eq(h->nnz, pairs, "%s: %lld coarse entries, recount has %lld", what, (long long)h->nnz,
                 (long long)pairs);
    for (int32_t a = 0; a < nc; a++)
        for (int64_t e = h->xadj[a]; e < h->xadj[a + 1]; e++) {
            size_t cell = (size_t)a * (size_t)nc + (size_t)h->adj[e];
            cr_assert(present[cell], "%s: coarse edge (%d,%d) has no fine edge", what, a, h->adj[e]);
            cr_assert_eq(h->ewgt[e], d[cell], "%s: weight (%d,%d) = %.17g, recount %.17g", what, a, h->adj[e],
                         h->ewgt[e], d[cell]);
        }
    free(d);
    free(present);
}

/* Every property of a contraction h = contract(g, cmap, nc) that an
 * independent oracle can state; `what` names the case in messages. */
static void check_contraction(const coarsen_graph *g, const int32_t *cmap, int32_t nc, const coarsen_graph *h,
                              const char *what)
{
    coarsen_error err = {0};
    cr_assert_eq(coarsen_graph_check(h, &err), 0, "%s: %s", what, err.msg);
    cr_assert_eq(h->n, nc, "%s", what);
    cr_assert_eq(h->integral_weights, g->integral_weights, "%s", what);

    /* vertex weights: per coarse vertex and in total */
    int64_t *vw = calloc((size_t)nc + 1, sizeof *vw);
    int64_t fine_total = 0, coarse_total = 0;
    for (int32_t v = 0; v < g->n; v++) {
        vw[cmap[v]] += g->vwgt[v];
        fine_total += g->vwgt[v];
    }
    for (int32_t c = 0; c < nc; c++) {
        cr_assert_eq(h->vwgt[c], vw[c], "%s: vwgt[%d]", what, c);
        coarse_total += h->vwgt[c];
    }
    cr_assert_eq(coarse_total, fine_total, "%s", what);
    free(vw);

    /* edges: the dense recount, while nc x nc stays small */
    if (nc <= 3000)
        check_dense_recount(g, cmap, nc, h, what);

    /* total edge weight = fine total - internal (exact for integers) */
    double internal = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++)
            if (cmap[u] == cmap[g->adj[e]])
                internal += g->ewgt[e];
    double want = total_edge_weight(g) - internal, got = total_edge_weight(h);
    if (g->integral_weights)
        cr_assert_eq(got, want, "%s: total %.17g, want %.17g", what, got, want);
    else
        cr_assert(fabs(got - want) <= 1e-9 * (1 + fabs(want)), "%s: total %.17g, want %.17g", what, got, want);
}

/* A random partition of h into `parts` parts (seeded) has the same cut as
 * its projection onto g: exactly for integer weights. */
static void check_projected_cut(const coarsen_graph *g, const int32_t *cmap, const coarsen_graph *h, int parts,
                                uint64_t seed, const char *what)
{
    int32_t *part = malloc(((size_t)h->n + 1) * sizeof *part), *fine = malloc(((size_t)g->n + 1) * sizeof *fine);
    for (int32_t c = 0; c < h->n; c++)
        part[c] = (int32_t)(hash3(seed, 0xc07, (uint64_t)c) % (uint64_t)parts);
    for (int32_t v = 0; v < g->n; v++)
        fine[v] = part[cmap[v]];
    double cc = oracle_cut(h, part), fc = oracle_cut(g, fine);
    if (g->integral_weights)
        cr_assert_eq(cc, fc, "%s: coarse cut %.17g, fine cut %.17g", what, cc, fc);
    else
        cr_assert(fabs(cc - fc) <= 1e-9 * (1 + fc), "%s: coarse cut %.17g, fine cut %.17g", what, cc, fc);
    free(part);
    free(fine);
}

/* Runs `body` over the small random graphs: n in 1..40, densities, all
 * three weight modes, random vertex weights. */
#define FOR_SMALL_GRAPHS(g, trial)                                                                 \
    for (int trial = 0; trial < 240; trial++)                                                      \
        for (coarsen_graph *g = small_graph(trial); g; coarsen_graph_free(g), g = NULL)

static coarsen_graph *small_graph(int trial)
{
    int32_t n = 1 + (int32_t)(hash3(41, (uint64_t)trial, 0) % 40);
    double p = (double)(1 + hash3(41, (uint64_t)trial, 1) % 6) / 8.0;
    coarsen_graph *g = test_random_graph(n, p, trial % 3, 1000 + (uint64_t)trial);
    cr_assert_not_null(g);
    test_random_vertex_weights(g, 9, (uint64_t)trial);
    return g;
}

Test(contract, map_from_mates_groups_pairs_in_order_of_smallest_member)
{
    coarsen_error err = {0};
    FOR_SMALL_GRAPHS(g, trial)
    {
        int32_t n = g->n, nc = -1;
        int32_t *mate = malloc((size_t)n * sizeof *mate), *cmap = malloc((size_t)n * sizeof *cmap);
        oracle_random_greedy_matching(g, (uint64_t)trial, mate);
        cr_assert(oracle_matching_valid(g, mate) && oracle_matching_maximal(g, mate));
        cr_assert_eq(contract_map_from_mates_cpu(n, mate, cmap, &nc, &err), 0, "%s", err.msg);
        int32_t pairs = 0, next = 0;
        for (int32_t v = 0; v < n; v++) {
            pairs += mate[v] > v;
            if (mate[v] == -1 || v < mate[v])
                cr_assert_eq(cmap[v], next++, "trial %d: ids not in order of smallest member", trial);
            else
                cr_assert_eq(cmap[v], cmap[mate[v]], "trial %d: pair split", trial);
            for (int32_t w = 0; w < v; w++)
                if (cmap[w] == cmap[v])
                    cr_assert_eq(mate[v], w, "trial %d: %d and %d grouped but not mates", trial, w, v);
        }
        cr_assert_eq(nc, n - pairs);
        cr_assert_eq(next, nc);
        free(mate);
        free(cmap);
    }
}

Test(contract, map_from_mates_accepts_non_edges_and_rejects_asymmetric)
{
    coarsen_error err = {0};
    int32_t mate[5] = {4, -1, 3, 2, 0}, cmap[5], nc = 0; /* pairs need not be edges */
    cr_assert_eq(contract_map_from_mates_cpu(5, mate, cmap, &nc, &err), 0, "%s", err.msg);
    cr_assert_eq(nc, 3);
    cr_assert(cmap[0] == 0 && cmap[4] == 0 && cmap[1] == 1 && cmap[2] == 2 && cmap[3] == 2);
    int32_t bad1[3] = {1, 2, 0}, bad2[2] = {0, -1}, bad3[2] = {7, -1};
    cr_assert_eq(contract_map_from_mates_cpu(3, bad1, cmap, &nc, &err), COARSEN_ERR_INPUT);
    cr_assert_eq(contract_map_from_mates_cpu(2, bad2, cmap, &nc, &err), COARSEN_ERR_INPUT);
    cr_assert_eq(contract_map_from_mates_cpu(2, bad3, cmap, &nc, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "mate[0] = 7"), "%s", err.msg);
}

Test(contract, matching_contraction_matches_dense_recount)
{
    coarsen_error err = {0};
    FOR_SMALL_GRAPHS(g, trial)
    {
        int32_t n = g->n, nc = 0;
        int32_t *mate = malloc((size_t)n * sizeof *mate), *cmap = malloc((size_t)n * sizeof *cmap);
        oracle_random_greedy_matching(g, 7 * (uint64_t)trial, mate);
        cr_assert_eq(contract_map_from_mates_cpu(n, mate, cmap, &nc, &err), 0, "%s", err.msg);
        coarsen_graph *h = NULL;
        cr_assert_eq(contract_cpu(g, cmap, nc, &h, &err), 0, "%s", err.msg);
        char what[64];
        snprintf(what, sizeof what, "matching trial %d", trial);
        check_contraction(g, cmap, nc, h, what);
        /* groups of size 1 or 2, pairs being mates */
        for (int32_t v = 0; v < n; v++)
            for (int32_t w = v + 1; w < n; w++)
                if (cmap[v] == cmap[w])
                    cr_assert_eq(mate[v], w);
        coarsen_graph_free(h);
        free(mate);
        free(cmap);
    }
}

Test(contract, general_maps_match_dense_recount_and_keep_cuts)
{
    coarsen_error err = {0};
    FOR_SMALL_GRAPHS(g, trial)
    {
        int32_t nc = 0, *cmap = malloc((size_t)g->n * sizeof *cmap);
        oracle_random_map(g->n, 1 + trial % 4, (uint64_t)trial, cmap, &nc);
        coarsen_graph *h = NULL;
        cr_assert_eq(contract_cpu(g, cmap, nc, &h, &err), 0, "%s", err.msg);
        char what[64];
        snprintf(what, sizeof what, "map trial %d", trial);
        check_contraction(g, cmap, nc, h, what);
        for (int k = 0; k < 4; k++) /* random partitions into 2..5 parts */
            check_projected_cut(g, cmap, h, 2 + k, 10 * (uint64_t)trial + (uint64_t)k, what);
        coarsen_graph_free(h);
        free(cmap);
    }
}

/* Dense graphs contracted by random maps: coarse rows of far more than 32
 * neighbours (sorted another way than short ones), in every weight mode. */
Test(contract, long_coarse_rows_match_dense_recount)
{
    coarsen_error err = {0};
    for (int trial = 0; trial < 6; trial++) {
        coarsen_graph *g = test_random_graph(300, 0.5, trial % 3, 500 + (uint64_t)trial);
        int32_t nc = 0, *cmap = malloc((size_t)g->n * sizeof *cmap), longest = 0;
        oracle_random_map(g->n, 1 + trial % 3, (uint64_t)trial, cmap, &nc);
        coarsen_graph *h = NULL;
        cr_assert_eq(contract_cpu(g, cmap, nc, &h, &err), 0, "%s", err.msg);
        for (int32_t c = 0; c < nc; c++)
            if (h->xadj[c + 1] - h->xadj[c] > longest)
                longest = (int32_t)(h->xadj[c + 1] - h->xadj[c]);
        cr_assert_gt(longest, 64, "trial %d: longest coarse row %d", trial, longest);
        char what[64];
        snprintf(what, sizeof what, "dense trial %d", trial);
        check_contraction(g, cmap, nc, h, what);
        coarsen_graph_free(h);
        coarsen_graph_free(g);
        free(cmap);
    }
}

Test(contract, levels_chain_down_to_isolated_vertices)
{
    coarsen_error err = {0};
    coarsen_graph *g = test_random_graph(300, 0.05, 2, 5);
    int64_t total = g->n;
    for (int level = 0; level < 40 && g->nnz > 0; level++) {
        int32_t nc = 0, *mate = malloc((size_t)g->n * sizeof *mate), *cmap = malloc((size_t)g->n * sizeof *cmap);
        oracle_random_greedy_matching(g, (uint64_t)level, mate);
        cr_assert_eq(contract_map_from_mates_cpu(g->n, mate, cmap, &nc, &err), 0, "%s", err.msg);
        coarsen_graph *h = NULL;
        cr_assert_eq(contract_cpu(g, cmap, nc, &h, &err), 0, "%s", err.msg);
        check_contraction(g, cmap, nc, h, "chain");
        cr_assert_lt(h->n, g->n, "a maximal matching of a graph with edges shrinks it");
        coarsen_graph_free(g);
        g = h;
        free(mate);
        free(cmap);
    }
    cr_assert_eq(g->nnz, 0, "40 levels contract a 300-vertex graph to isolated vertices");
    int64_t s = 0;
    for (int32_t v = 0; v < g->n; v++)
        s += g->vwgt[v];
    cr_assert_eq(s, total);
    coarsen_graph_free(g);
}

Test(contract, real_weights_do_not_depend_on_thread_count)
{
    coarsen_error err = {0};
    /* large enough for several threads (core/threads.h), so that the
     * placement's per-thread blocks and offsets are what is compared */
    coarsen_graph *g = test_random_graph(3000, 0.03, 2, 77);
    cr_assert_geq(g->nnz, THREADS_PARALLEL_MIN);
    int32_t nc = 0, *cmap = malloc((size_t)g->n * sizeof *cmap);
    oracle_random_map(g->n, 4, 77, cmap, &nc);
    coarsen_graph *h1 = NULL, *h2 = NULL;
    int saved = omp_get_max_threads();
    omp_set_num_threads(1);
    cr_assert_eq(contract_cpu(g, cmap, nc, &h1, &err), 0, "%s", err.msg);
    omp_set_num_threads(2);
    cr_assert_eq(contract_cpu(g, cmap, nc, &h2, &err), 0, "%s", err.msg);
    omp_set_num_threads(7);
    coarsen_graph *h7 = NULL;
    cr_assert_eq(contract_cpu(g, cmap, nc, &h7, &err), 0, "%s", err.msg);
    omp_set_num_threads(saved);
    int64_t longest = 0; /* rows over 32 are placed by a transpose of their own */
    for (int32_t c = 0; c < h1->n; c++)
        longest = h1->xadj[c + 1] - h1->xadj[c] > longest ? h1->xadj[c + 1] - h1->xadj[c] : longest;
    cr_assert_gt(longest, 64, "longest coarse row %lld", (long long)longest);
    char why[256];
    cr_assert(graphs_identical(h1, h2, why, sizeof why), "1 vs 2 threads: %s", why);
    cr_assert(graphs_identical(h1, h7, why, sizeof why), "1 vs 7 threads: %s", why);
    check_contraction(g, cmap, nc, h1, "threads");
    coarsen_graph_free(h1);
    coarsen_graph_free(h2);
    coarsen_graph_free(h7);
    coarsen_graph_free(g);
    free(cmap);
}

Test(contract, rejects_maps_that_are_not_onto_or_out_of_range)
{
    coarsen_error err = {0};
    coarsen_graph *g = test_random_graph(6, 0.5, 1, 3), *h = NULL;
    int32_t hole[6] = {0, 0, 2, 2, 3, 3};   /* 1 has no member */
    int32_t range[6] = {0, 1, 2, 3, 4, 5};
    cr_assert_eq(contract_cpu(g, hole, 4, &h, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "coarse vertex 1 has no fine member"), "%s", err.msg);
    cr_assert_null(h);
    cr_assert_eq(contract_cpu(g, range, 5, &h, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "cmap[5] = 5"), "%s", err.msg);
    cr_assert_eq(contract_cpu(g, range, 7, &h, &err), COARSEN_ERR_INPUT);
    cr_assert_eq(contract_cpu(g, range, 6, &h, &err), 0, "%s", err.msg);
    cr_assert(graphs_identical(g, h, err.msg, sizeof err.msg), "identity map: %s", err.msg);
    coarsen_graph_free(h);
    coarsen_graph_free(g);
}

Test(contract, empty_graph)
{
    coarsen_error err = {0};
    coarsen_graph *g = coarsen_graph_alloc(0, 0, &err), *h = NULL;
    int32_t nc = 5;
    cr_assert_eq(contract_map_from_mates_cpu(0, NULL, NULL, &nc, &err), 0);
    cr_assert_eq(nc, 0);
    cr_assert_eq(contract_cpu(g, NULL, 0, &h, &err), 0, "%s", err.msg);
    cr_assert(h->n == 0 && h->nnz == 0 && h->xadj[0] == 0);
    coarsen_graph_free(h);
    coarsen_graph_free(g);
}

/* ------------------------------------------------------------------ GPU */

#define SKIP_WITHOUT_GPU()                                                                         \
    do {                                                                                           \
        if (!test_have_gpu())                                                                      \
            cr_skip_test("no GPU (or built without CUDA): GPU contraction not run");               \
    } while (0)

static int32_t *to_device(const int32_t *a, int32_t n)
{
    coarsen_error err = {0};
    void *d = NULL;
    cr_assert_eq(device_alloc(&d, (size_t)n * sizeof *a, "test array", &err), 0, "%s", err.msg);
    if (n)
        cr_assert_eq(device_copy_to_device(d, a, (size_t)n * sizeof *a, &err), 0, "%s", err.msg);
    return d;
}

/* The GPU map from mates on host arrays; returns its status. */
static int map_on_gpu(int32_t n, const int32_t *mate, int32_t *cmap, int32_t *nc, coarsen_error *err)
{
    int32_t *d_mate = to_device(mate, n), *d_cmap = to_device(mate, n);
    int rc = contract_map_from_mates_gpu(n, d_mate, d_cmap, nc, err);
    if (!rc && n)
        cr_assert_eq(device_copy_to_host(cmap, d_cmap, (size_t)n * sizeof *cmap, err), 0, "%s", err->msg);
    device_free(d_mate);
    device_free(d_cmap);
    return rc;
}

/* The GPU contraction of a host graph by a host map; *out a host graph. */
static int contract_on_gpu(const coarsen_graph *g, const int32_t *cmap, int32_t nc, coarsen_graph **out,
                           coarsen_error *err)
{
    coarsen_graph *dg = NULL, *dh = NULL;
    cr_assert_eq(device_graph_upload(g, &dg, err), 0, "%s", err->msg);
    int32_t *d_cmap = to_device(cmap, g->n);
    *out = NULL;
    int rc = contract_gpu(dg, d_cmap, nc, &dh, err);
    if (!rc) {
        cr_assert(dh->on_device);
        cr_assert_eq(device_graph_download(dh, out, err), 0, "%s", err->msg);
    }
    coarsen_graph_free(dh);
    coarsen_graph_free(dg);
    device_free(d_cmap);
    return rc;
}

/* CPU and GPU contractions of g by cmap: bit-identical, and the GPU's passes
 * every invariant. */
static void compare_cpu_gpu(const coarsen_graph *g, const int32_t *cmap, int32_t nc, const char *what)
{
    coarsen_error err = {0};
    coarsen_graph *hc = NULL, *hg = NULL;
    cr_assert_eq(contract_cpu(g, cmap, nc, &hc, &err), 0, "%s: %s", what, err.msg);
    cr_assert_eq(contract_on_gpu(g, cmap, nc, &hg, &err), 0, "%s: %s", what, err.msg);
    char why[256];
    cr_assert(graphs_identical(hc, hg, why, sizeof why), "%s: CPU vs GPU: %s", what, why);
    check_contraction(g, cmap, nc, hg, what);
    coarsen_graph_free(hc);
    coarsen_graph_free(hg);
}

/* A matching map and a general map of g, each contracted on both sides,
 * and the GPU map from mates compared with the CPU's. */
static void compare_maps(const coarsen_graph *g, uint64_t seed, const char *what)
{
    coarsen_error err = {0};
    int32_t n = g->n, nc = 0, ncg = -1;
    int32_t *mate = malloc(((size_t)n + 1) * sizeof *mate), *cmap = malloc(((size_t)n + 1) * sizeof *cmap);
    int32_t *cmapg = malloc(((size_t)n + 1) * sizeof *cmapg);
    char label[128];
    oracle_random_greedy_matching(g, seed, mate);
    cr_assert_eq(contract_map_from_mates_cpu(n, mate, cmap, &nc, &err), 0, "%s", err.msg);
    cr_assert_eq(map_on_gpu(n, mate, cmapg, &ncg, &err), 0, "%s: %s", what, err.msg);
    cr_assert_eq(ncg, nc, "%s: GPU map has %d coarse vertices, CPU %d", what, ncg, nc);
    cr_assert_eq(memcmp(cmap, cmapg, (size_t)n * sizeof *cmap), 0, "%s: GPU map differs from CPU map", what);
    snprintf(label, sizeof label, "%s, matching", what);
    compare_cpu_gpu(g, cmap, nc, label);
    oracle_random_map(n, 4, seed, cmap, &nc);
    snprintf(label, sizeof label, "%s, groups of 1..4", what);
    compare_cpu_gpu(g, cmap, nc, label);
    free(mate);
    free(cmap);
    free(cmapg);
}

Test(contract_gpu, small_random_graphs_identical_to_cpu)
{
    SKIP_WITHOUT_GPU();
    FOR_SMALL_GRAPHS(g, trial)
    {
        char what[64];
        snprintf(what, sizeof what, "small trial %d", trial);
        compare_maps(g, (uint64_t)trial, what);
    }
}

Test(contract_gpu, larger_graphs_identical_to_cpu)
{
    SKIP_WITHOUT_GPU();
    struct {
        const char *what;
        coarsen_graph *g;
    } cases[] = {
        {"random n=3000 real", test_random_graph(3000, 0.01, 2, 11)},
        {"random n=2000 integer", test_random_graph(2000, 0.02, 1, 12)},
        {"star n=60000 real", test_star_graph(60000, 0, 2, 13)},
        {"twins n=1500 real", oracle_twin_graph(1500, 40, 0.3, 3000, 2, 14)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_random_vertex_weights(cases[i].g, 9, i);
        compare_maps(cases[i].g, 100 + i, cases[i].what);
        coarsen_graph_free(cases[i].g);
    }
}

/* contract_gpu_peak_bytes, what the hierarchy budgets device memory with,
 * against the pool's measured high-water mark of one contract_gpu call
 * (its workspace grown from nothing and the coarse graph) on graphs large enough for the bound's
 * per-entry terms to outweigh its fixed slack: a matching's map (half the
 * vertices), a few big groups (long segments), and power-law rows. */
Test(contract_gpu, measured_peak_within_the_bound)
{
    SKIP_WITHOUT_GPU();
    coarsen_error err = {0};
    static const char *const specs[] = {"rgg:n=1500000,deg=10,weights=int,seed=3",
                                        "rmat:n=524288,deg=24,weights=real,seed=4"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        coarsen_graph *g = test_gen(specs[s]), *dg = NULL, *coarse = NULL;
        int32_t *mate = malloc((size_t)g->n * sizeof *mate), *cmap = malloc((size_t)g->n * sizeof *cmap);
        oracle_random_greedy_matching(g, 7 + s, mate);
        for (int kind = 0; kind < 2; kind++) {
            int32_t nc = 0;
            if (kind == 0)
                cr_assert_eq(contract_map_from_mates_cpu(g->n, mate, cmap, &nc, &err), 0, "%s", err.msg);
            else
                oracle_random_map(g->n, 1000, 9 + s, cmap, &nc);
            cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
            int32_t *d_cmap = to_device(cmap, g->n);
            cr_assert_eq(device_synchronize(&err), 0, "%s", err.msg);
            device_workspace_release(); /* grown by the call: counted */
            cr_assert_eq(device_synchronize(&err), 0, "%s", err.msg);
            int64_t before = (int64_t)device_used_bytes(); /* the graph and the map */
            device_reset_peak();
            cr_assert_eq(contract_gpu(dg, d_cmap, nc, &coarse, &err), 0, "%s", err.msg);
            cr_assert_eq(device_synchronize(&err), 0, "%s", err.msg);
            int64_t used = (int64_t)device_peak_bytes() - before, bound = contract_gpu_peak_bytes(g->n, g->nnz);
            cr_assert_leq(used, bound, "%s, %s: contract_gpu used %lld bytes, bound %lld", specs[s],
                          kind ? "groups of up to 1000" : "matching", (long long)used, (long long)bound);
            cr_assert_gt(used, (int64_t)g->nnz * 8, "%s: the high-water mark did not see the temporaries (%lld)",
                         specs[s], (long long)used);
            coarsen_graph_free(coarse);
            coarsen_graph_free(dg);
            device_free(d_cmap);
        }
        free(mate);
        free(cmap);
        coarsen_graph_free(g);
    }
}

Test(contract_gpu, few_coarse_vertices_long_segments_and_runs)
{
    SKIP_WITHOUT_GPU();
    coarsen_graph *g = test_random_graph(3000, 0.02, 2, 21);
    int32_t *cmap = malloc((size_t)g->n * sizeof *cmap);
    for (int32_t nc = 1; nc <= 5; nc += 2) {
        for (int32_t v = 0; v < g->n; v++)
            cmap[v] = (int32_t)(hash3(21, (uint64_t)nc, (uint64_t)v) % (uint64_t)nc);
        for (int32_t c = 0; c < nc; c++)
            cmap[c] = c; /* onto */
        char what[64];
        snprintf(what, sizeof what, "%d coarse vertices", nc);
        compare_cpu_gpu(g, cmap, nc, what);
    }
    free(cmap);
    coarsen_graph_free(g);
}

/* Every path setting of contract_gpu_set_paths (team size, hash_max) on
 * shapes that put rows on both sides of each threshold: the small random
 * graphs, skewed degrees (R-MAT), a star with real weights, groups of up to
 * 40 vertices (rows of hundreds of entries), isolated vertices grouped
 * together (coarse rows with no entry) and nc = 1: the GPU's output is the
 * CPU's bit for bit, whatever path each row takes. */
Test(contract_gpu, every_path_identical_to_cpu)
{
    SKIP_WITHOUT_GPU();
    static const struct {
        int team;
        int64_t hash_max;
    } paths[] = {{0, -1}, {8, 0}, {8, 8}, {16, 16}, {32, 32}, {8, 128}, {16, 64}, {32, 128}};
    coarsen_graph *shapes[] = {
        test_gen("rmat:n=4096,deg=16,weights=real,seed=5"),
        test_gen("rmat:n=2048,deg=8,weights=int,seed=6"),
        test_star_graph(3000, 2000, 2, 7),
        test_random_graph(600, 0.05, 2, 8),
        test_random_graph(400, 0.004, 2, 9), /* many isolated vertices */
    };
    const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    for (int i = 0; i < nshapes; i++)
        test_random_vertex_weights(shapes[i], 9, (uint64_t)i);
    for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
        contract_gpu_set_paths(paths[k].team, paths[k].hash_max);
        char what[160];
        for (int trial = 0; trial < 40; trial++) {
            coarsen_graph *g = small_graph(trial);
            snprintf(what, sizeof what, "team %d hash_max %lld, small trial %d", paths[k].team,
                     (long long)paths[k].hash_max, trial);
            compare_maps(g, (uint64_t)trial, what);
            coarsen_graph_free(g);
        }
        for (int i = 0; i < nshapes; i++) {
            coarsen_graph *g = shapes[i];
            int32_t n = g->n, nc = 0, *cmap = malloc(((size_t)n + 1) * sizeof *cmap);
            snprintf(what, sizeof what, "team %d hash_max %lld, shape %d", paths[k].team,
                     (long long)paths[k].hash_max, i);
            compare_maps(g, 50 + (uint64_t)i, what);
            oracle_random_map(n, 40, 60 + (uint64_t)i, cmap, &nc);
            compare_cpu_gpu(g, cmap, nc, what);
            memset(cmap, 0, (size_t)n * sizeof *cmap);
            compare_cpu_gpu(g, cmap, 1, what);
            /* the isolated vertices in groups of their own: rows of bound 0 */
            nc = 0;
            int32_t lone = -1;
            for (int32_t v = 0; v < n; v++) {
                if (g->xadj[v + 1] > g->xadj[v])
                    cmap[v] = nc++;
                else if (lone < 0 || (v % 3) == 0)
                    cmap[v] = lone = nc++;
                else
                    cmap[v] = lone;
            }
            compare_cpu_gpu(g, cmap, nc, what);
            free(cmap);
        }
    }
    contract_gpu_set_paths(0, -1);
    for (int i = 0; i < nshapes; i++)
        coarsen_graph_free(shapes[i]);
}

Test(contract_gpu, chained_levels_on_device_identical_to_cpu)
{
    SKIP_WITHOUT_GPU();
    coarsen_error err = {0};
    coarsen_graph *g = test_random_graph(2500, 0.01, 2, 31), *dg = NULL;
    cr_assert_eq(device_graph_upload(g, &dg, &err), 0, "%s", err.msg);
    for (int level = 0; level < 6; level++) {
        int32_t nc = 0, ncg = 0, *mate = malloc((size_t)g->n * sizeof *mate),
                *cmap = malloc((size_t)g->n * sizeof *cmap);
        oracle_random_greedy_matching(g, (uint64_t)level, mate);
        cr_assert_eq(contract_map_from_mates_cpu(g->n, mate, cmap, &nc, &err), 0, "%s", err.msg);
        int32_t *d_mate = to_device(mate, g->n), *d_cmap = to_device(mate, g->n);
        cr_assert_eq(contract_map_from_mates_gpu(g->n, d_mate, d_cmap, &ncg, &err), 0, "%s", err.msg);
        cr_assert_eq(ncg, nc);
        coarsen_graph *h = NULL, *dh = NULL, *hg = NULL;
        cr_assert_eq(contract_cpu(g, cmap, nc, &h, &err), 0, "%s", err.msg);
        cr_assert_eq(contract_gpu(dg, d_cmap, ncg, &dh, &err), 0, "%s", err.msg);
        cr_assert_eq(device_graph_download(dh, &hg, &err), 0, "%s", err.msg);
        char why[256];
        cr_assert(graphs_identical(h, hg, why, sizeof why), "level %d: %s", level, why);
        coarsen_graph_free(hg);
        coarsen_graph_free(g);
        coarsen_graph_free(dg);
        g = h;
        dg = dh;
        device_free(d_mate);
        device_free(d_cmap);
        free(mate);
        free(cmap);
    }
    coarsen_graph_free(g);
    coarsen_graph_free(dg);
}

Test(contract_gpu, rejects_bad_input_like_cpu)
{
    SKIP_WITHOUT_GPU();
    coarsen_error err = {0};
    coarsen_graph *g = test_random_graph(6, 0.5, 1, 3), *h = NULL;
    int32_t hole[6] = {0, 0, 2, 2, 3, 3}, range[6] = {0, 1, 2, 3, 4, 5}, cmap[6], nc = 0;
    cr_assert_eq(contract_on_gpu(g, hole, 4, &h, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "not onto"), "%s", err.msg);
    cr_assert_eq(contract_on_gpu(g, range, 5, &h, &err), COARSEN_ERR_INPUT);
    cr_assert(strstr(err.msg, "outside [0, 5)"), "%s", err.msg);
    int32_t bad[3] = {1, 2, 0};
    cr_assert_eq(map_on_gpu(3, bad, cmap, &nc, &err), COARSEN_ERR_INPUT);
    coarsen_graph_free(g);

    coarsen_graph *e = coarsen_graph_alloc(0, 0, &err), *eh = NULL;
    cr_assert_eq(contract_on_gpu(e, NULL, 0, &eh, &err), 0, "%s", err.msg);
    cr_assert(eh->n == 0 && eh->nnz == 0 && eh->xadj[0] == 0);
    coarsen_graph_free(eh);
    coarsen_graph_free(e);
}

/* ------------------------------------------------------- shared graphs */

/* Real graphs of up to ~100k edges from ../shared/data (README there). */
static const char *const shared_graphs[] = {
    "karate.graph",         "lesmis.graph",        "GD97_b.mtx",          "kahip_example_weighted.graph",
    "test_mgraph.graph",    "1138_bus.mtx",        "power.graph",         "polblogs.graph",
    "Ragusa16.mtx",         "p2p-Gnutella06.mtx",  "astro-ph.graph.gz",   "bcsstk13.mtx.gz",
    "delaunay_n15.graph.gz", "bayer10.mtx.gz",
};

/* Loads data/name; skips the test visibly when the folder is absent. */
static coarsen_graph *load_shared(const char *name)
{
    const char *dir = test_data_dir();
    if (!dir)
        cr_skip_test("shared graphs absent (set COARSEN_DATA or provide ../shared/data)");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    coarsen_error err = {0};
    coarsen_graph *g = NULL;
    cr_assert_eq(coarsen_graph_load(path, &g, NULL, &err), 0, "%s", err.msg);
    return g;
}

/* Three levels of contraction of every shared graph, by the handshake
 * matching (even levels) or the random greedy one (odd levels): all
 * invariants, projected cuts, thread-count independence, and the GPU's
 * result bit-identical when a GPU is present. */
static void contract_shared_levels(int gpu)
{
    coarsen_error err = {0};
    for (size_t i = 0; i < sizeof shared_graphs / sizeof shared_graphs[0]; i++) {
        coarsen_graph *g = load_shared(shared_graphs[i]);
        for (int level = 0; level < 3 && g->nnz > 0; level++) {
            char what[128];
            snprintf(what, sizeof what, "%s level %d", shared_graphs[i], level);
            int32_t nc = 0, *mate = malloc((size_t)g->n * sizeof *mate), *cmap = malloc((size_t)g->n * sizeof *cmap);
            matching_opts mo;
            matching_stats mstats;
            matching_opts_default(&mo);
            if (level % 2 == 0)
                cr_assert_eq(match_cpu(g, &mo, mate, NULL, &mstats, &err), 0, "%s: %s", what, err.msg);
            else
                oracle_random_greedy_matching(g, (uint64_t)level, mate);
            cr_assert(oracle_matching_valid(g, mate), "%s", what);
            cr_assert_eq(contract_map_from_mates_cpu(g->n, mate, cmap, &nc, &err), 0, "%s", err.msg);
            coarsen_graph *h = NULL, *h1 = NULL;
            cr_assert_eq(contract_cpu(g, cmap, nc, &h, &err), 0, "%s: %s", what, err.msg);
            if (gpu) { /* this level's map, then a greedy matching and a general map */
                compare_cpu_gpu(g, cmap, nc, what);
                compare_maps(g, (uint64_t)level, what);
            }
            check_contraction(g, cmap, nc, h, what);
            int saved = omp_get_max_threads();
            omp_set_num_threads(1);
            cr_assert_eq(contract_cpu(g, cmap, nc, &h1, &err), 0, "%s", err.msg);
            omp_set_num_threads(saved);
            char why[256];
            cr_assert(graphs_identical(h, h1, why, sizeof why), "%s: 1 thread vs %d: %s", what, saved, why);
            coarsen_graph_free(h1);
            check_projected_cut(g, cmap, h, 4, (uint64_t)level, what);
            free(mate);
            free(cmap);
            coarsen_graph_free(g);
            g = h;
        }
        coarsen_graph_free(g);
    }
}

Test(contract, shared_graphs_three_levels)
{
    contract_shared_levels(0);
}

Test(contract_gpu, shared_graphs_identical_to_cpu)
{
    SKIP_WITHOUT_GPU();
    contract_shared_levels(1);
}

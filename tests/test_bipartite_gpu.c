/* test_bipartite_gpu.c — the GPU side of bipartite/, skipped visibly
 * without a GPU. G-PR against Hopcroft–Karp on the host: the same
 * cardinality on random graphs of many shapes (square, tall, wide, sparse to
 * dense, with empty rows and columns), on larger graphs where the push
 * kernel's races actually happen, and on the shared matrices; every output a
 * valid matching, and the loop cap (host fallback) never reached. The GPU
 * auction against the CPU auction bit for bit (same assignment, same rounds,
 * same certificate) and against the exact solver. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "bipartite/assignment.h"
#include "bipartite/cardinality.h"
#include "tests/support/bipartite_oracle.h"
#include "tests/support/test_support.h"

static void require_gpu(void)
{
    if (!test_have_gpu())
        cr_skip_test("no GPU (built without CUDA or no device): GPU path not run");
}

/* G-PR from init: valid, no fallback, same cardinality as HK. */
static void expect_gpr(const bip_graph *g, bip_init init, double k, const char *what)
{
    int32_t *rm = malloc(((size_t)g->rows + 1) * sizeof *rm), *cm = malloc(((size_t)g->cols + 1) * sizeof *cm);
    coarsen_error err = {0};
    cr_assert_eq(bip_initial_matching(g, init, rm, cm, &err), 0);
    bip_pr_opts o = {.relabel_k = k};
    bip_pr_stats st;
    cr_assert_eq(bip_push_relabel_gpu(g, &o, rm, cm, &st, &err), 0, "%s: %s", what, err.msg);
    int64_t card = -1;
    cr_assert_eq(bip_matching_check(g, rm, cm, &card, &err), 0, "%s: %s", what, err.msg);
    cr_expect_eq(card, bip_test_hk_rank(g), "%s init %d k %g", what, (int)init, k);
    cr_expect_eq(st.cpu_fallback, 0, "%s: loop cap reached (%lld loops)", what, (long long)st.pushes);
    free(rm);
    free(cm);
}

Test(bipartite_gpu, without_cuda_the_gpu_entry_reports_the_device_error)
{
    if (test_have_gpu())
        cr_skip_test("a GPU is present: covered by the other bipartite_gpu tests");
    bip_graph *g = bip_test_random(5, 5, 0.5, 1, 1);
    int32_t rm[5], cm[5];
    coarsen_error err = {0};
    bip_initial_matching(g, BIP_INIT_NONE, rm, cm, &err);
    cr_expect_eq(bip_push_relabel_gpu(g, NULL, rm, cm, NULL, &err), COARSEN_ERR_DEVICE);
    cr_expect_eq(bip_auction_gpu(g, NULL, rm, NULL, &err), COARSEN_ERR_DEVICE);
    bip_free(g);
}

Test(bipartite_gpu, push_relabel_small_random_shapes)
{
    require_gpu();
    for (uint64_t seed = 1; seed <= 60; seed++) {
        int32_t rows = 1 + (int32_t)(seed * 37 % 300), cols = 1 + (int32_t)(seed * 53 % 300);
        double p = (0.3 + (double)(seed % 7)) / (double)(rows < cols ? rows : cols);
        bip_graph *g = bip_test_random(rows, cols, p, 1, seed);
        expect_gpr(g, (bip_init)(seed % 3), seed % 2 ? 0.7 : 0.1, "random");
        bip_free(g);
    }
}

Test(bipartite_gpu, push_relabel_larger_graphs_with_contention)
{
    require_gpu();
    /* average degree 2..4 keeps many columns unmatched and contending */
    const int32_t shapes[][2] = {{20000, 20000}, {30000, 12000}, {9000, 25000}};
    for (int s = 0; s < 3; s++)
        for (int init = 0; init < 3; init++) {
            int32_t rows = shapes[s][0], cols = shapes[s][1];
            bip_graph *g = bip_test_random(rows, cols, (2.0 + s) / (double)cols, 1, 100 + (uint64_t)s);
            expect_gpr(g, (bip_init)init, 0.7, "larger");
            bip_free(g);
        }
}

Test(bipartite_gpu, push_relabel_shared_matrices)
{
    require_gpu();
    const char *names[] = {"lp_afiro.mtx", "Groebner_id2003_aug.mtx.gz", "bayer10.mtx.gz", "rajat01.mtx",
                           "west0067.mtx", "jgl009.mtx", "Ragusa16.mtx", "p2p-Gnutella06.mtx"};
    for (size_t m = 0; m < sizeof names / sizeof names[0]; m++) {
        bip_graph *g = bip_test_shared(names[m]);
        if (!g)
            cr_skip_test("shared data folder absent (set COARSEN_DATA)");
        for (int init = 0; init < 3; init++)
            expect_gpr(g, (bip_init)init, 0.7, names[m]);
        bip_free(g);
    }
}

/* GPU auction = CPU auction, field for field and pair for pair; host_tail
 * < 0 runs every round on the GPU, 0 hands the tail of each phase to the host. */
static bip_auction_result expect_auction_same(const bip_graph *g, int factor, int64_t host_tail, const char *what)
{
    int32_t *a = malloc(((size_t)g->rows + 1) * sizeof *a), *b = malloc(((size_t)g->rows + 1) * sizeof *b);
    coarsen_error err = {0};
    bip_auction_opts o = {.eps_factor = factor, .host_tail = host_tail};
    bip_auction_result rc, rg;
    cr_assert_eq(bip_auction_cpu(g, &o, a, &rc, &err), 0, "%s: %s", what, err.msg);
    cr_assert_eq(bip_auction_gpu(g, &o, b, &rg, &err), 0, "%s: %s", what, err.msg);
    for (int32_t r = 0; r < g->rows; r++)
        cr_assert_eq(b[r], a[r], "%s: row %d: GPU column %d, CPU column %d", what, r, b[r], a[r]);
    cr_expect_eq(rg.cardinality, rc.cardinality, "%s", what);
    cr_expect_eq(rg.total, rc.total, "%s", what);
    cr_expect_eq(rg.gap, rc.gap, "%s", what);
    cr_expect_eq(rg.phases, rc.phases, "%s", what);
    cr_expect_eq(rg.rounds, rc.rounds, "%s", what);
    cr_expect_eq(rg.reverse_steps, rc.reverse_steps, "%s", what);
    cr_expect_eq(rg.proven_optimal, rc.proven_optimal, "%s", what);
    free(a);
    free(b);
    return rg;
}

Test(bipartite_gpu, auction_equals_cpu_and_exact_on_random_instances)
{
    require_gpu();
    for (uint64_t seed = 1; seed <= 40; seed++) {
        int32_t rows = 1 + (int32_t)(seed * 13 % 70), cols = 1 + (int32_t)(seed * 29 % 70);
        double p = seed % 4 == 0 ? 1.0 : (1.0 + (double)(seed % 5)) / (double)cols;
        bip_graph *g = bip_test_random(rows, cols, p, seed % 2 ? 10000 : 7, seed);
        bip_auction_result r = expect_auction_same(g, 2 + (int)(seed % 3) * 3, -1, "random");
        expect_auction_same(g, 4, 8, "random, tail on the host");
        int32_t *rm = malloc(((size_t)rows + 1) * sizeof *rm);
        int64_t card;
        double total;
        coarsen_error err = {0};
        cr_assert_eq(bip_assignment_exact(g, rm, &card, &total, &err), 0, "%s", err.msg);
        cr_expect_eq(r.cardinality, card, "seed %llu", (unsigned long long)seed);
        cr_expect_eq(r.total, total, "seed %llu", (unsigned long long)seed);
        cr_expect_eq(r.proven_optimal, 1, "seed %llu", (unsigned long long)seed);
        free(rm);
        bip_free(g);
    }
}

Test(bipartite_gpu, auction_equals_cpu_on_generated_instances)
{
    require_gpu();
    const struct {
        int32_t n;
        double density;
    } cases[] = {{300, 1.0},   {1200, 1.0},  {1500, 0.8},  /* >= 1024 per row: a block bids */
                 {1000, 0.1},  {3000, 0.01}, {20000, 0.0005}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        bip_graph *g = NULL;
        coarsen_error err = {0};
        cr_assert_eq(bip_gen_assignment(cases[k].n, cases[k].density, 10000, 5 + k, &g, &err), 0, "%s", err.msg);
        bip_auction_result r = expect_auction_same(g, 0, -1, "generated");
        expect_auction_same(g, 0, 0, "generated, tail on the host");
        cr_expect_eq(r.perfect, 1);
        cr_expect_eq(r.proven_optimal, 1, "n %d: gap %lld", cases[k].n, (long long)r.gap);
        bip_free(g);
    }
}

Test(bipartite_gpu, auction_equals_cpu_on_shared_matrices)
{
    require_gpu();
    const char *names[] = {"lp_afiro.mtx", "west0067.mtx", "jgl009.mtx", "Ragusa16.mtx",
                           "Groebner_id2003_aug.mtx.gz"};
    for (size_t m = 0; m < sizeof names / sizeof names[0]; m++) {
        bip_graph *g = bip_test_shared(names[m]);
        if (!g)
            cr_skip_test("shared data folder absent (set COARSEN_DATA)");
        expect_auction_same(g, 0, -1, names[m]);
        expect_auction_same(g, 0, 0, names[m]);
        bip_free(g);
    }
}

/* test_bipartite_matching.c — maximum-cardinality matching on the CPU:
 * Hopcroft–Karp and push-relabel from every initial matching against an
 * enumeration oracle on tiny random graphs, against each other on larger
 * ones, and against independently computed structural ranks on the shared
 * matrices; every output is a valid matching, every initial matching valid
 * and maximal. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "bipartite/cardinality.h"
#include "tests/support/bipartite_oracle.h"

static const bip_init inits[] = {BIP_INIT_NONE, BIP_INIT_GREEDY, BIP_INIT_KARP_SIPSER};

typedef enum { ALGO_HK, ALGO_PR } algo;

/* Runs algo from init on g, checks validity, returns the cardinality. */
static int64_t run(const bip_graph *g, algo a, bip_init init, int32_t *rm, int32_t *cm)
{
    coarsen_error err = {0};
    cr_assert_eq(bip_initial_matching(g, init, rm, cm, &err), 0, "%s", err.msg);
    int rc = a == ALGO_HK ? bip_hopcroft_karp(g, rm, cm, &err) : bip_push_relabel_cpu(g, NULL, rm, cm, NULL, &err);
    cr_assert_eq(rc, 0, "%s", err.msg);
    int64_t card = -1;
    cr_assert_eq(bip_matching_check(g, rm, cm, &card, &err), 0, "%s", err.msg);
    cr_assert_eq(card, bip_matching_size(g->cols, cm));
    return card;
}

static int64_t cardinality(const bip_graph *g, algo a, bip_init init)
{
    int32_t *rm = malloc(((size_t)g->rows + 1) * sizeof *rm), *cm = malloc(((size_t)g->cols + 1) * sizeof *cm);
    int64_t card = run(g, a, init, rm, cm);
    free(rm);
    free(cm);
    return card;
}

Test(bipartite_matching, tiny_random_graphs_match_the_enumeration_oracle)
{
    int cases = 0;
    for (uint64_t seed = 1; seed <= 120; seed++) {
        int32_t rows = 1 + (int32_t)(seed % 9), cols = 1 + (int32_t)((seed * 7) % 11);
        double p = 0.08 + 0.07 * (double)(seed % 6);
        bip_graph *g = bip_test_random(rows, cols, p, 1, seed);
        int expect = bip_oracle_max_cardinality(g);
        for (int k = 0; k < 3; k++) {
            cr_assert_eq(cardinality(g, ALGO_HK, inits[k]), expect, "HK seed %llu init %d", (unsigned long long)seed, k);
            cr_assert_eq(cardinality(g, ALGO_PR, inits[k]), expect, "PR seed %llu init %d", (unsigned long long)seed, k);
        }
        cases += expect > 0;
        bip_free(g);
    }
    cr_expect_gt(cases, 100);
}

Test(bipartite_matching, initial_matchings_are_valid_and_maximal)
{
    for (uint64_t seed = 1; seed <= 20; seed++) {
        bip_graph *g = bip_test_random(60 + (int32_t)seed, 50, 0.03 * (double)(1 + seed % 4), 1, seed);
        int32_t *rm = malloc((size_t)g->rows * sizeof *rm), *cm = malloc((size_t)g->cols * sizeof *cm);
        coarsen_error err = {0};
        for (int k = 1; k < 3; k++) {
            cr_assert_eq(bip_initial_matching(g, inits[k], rm, cm, &err), 0, "%s", err.msg);
            cr_assert_eq(bip_matching_check(g, rm, cm, NULL, &err), 0, "%s", err.msg);
            for (int32_t r = 0; r < g->rows; r++)
                for (int64_t e = g->rptr[r]; e < g->rptr[r + 1]; e++)
                    cr_assert(rm[r] != -1 || cm[g->rind[e]] != -1, "init %d: free edge (%d, %d)", k, r, g->rind[e]);
        }
        free(rm);
        free(cm);
        bip_free(g);
    }
}

Test(bipartite_matching, karp_sipser_is_optimal_on_a_path_where_greedy_is_not)
{
    /* Column 0 is adjacent to rows 0 and 1, column 1 only to row 0: greedy
     * gives row 0 to column 0 and strands column 1. */
    const int32_t i[] = {0, 1, 0}, j[] = {0, 0, 1};
    bip_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(bip_from_entries(2, 2, 3, i, j, NULL, &g, &err), 0);
    int32_t rm[2], cm[2];
    cr_assert_eq(bip_initial_matching(g, BIP_INIT_GREEDY, rm, cm, &err), 0);
    cr_expect_eq(bip_matching_size(2, cm), 1);
    cr_assert_eq(bip_initial_matching(g, BIP_INIT_KARP_SIPSER, rm, cm, &err), 0);
    cr_expect_eq(bip_matching_size(2, cm), 2, "the degree-one rule matches column 1 first");
    bip_free(g);
}

Test(bipartite_matching, larger_random_graphs_hk_and_push_relabel_agree)
{
    for (uint64_t seed = 1; seed <= 12; seed++) {
        int32_t rows = 500 + (int32_t)(seed * 97 % 700), cols = 400 + (int32_t)(seed * 131 % 900);
        double p = (0.5 + (double)(seed % 5)) / (double)cols;
        bip_graph *g = bip_test_random(rows, cols, p, 1, seed);
        int64_t ref = cardinality(g, ALGO_HK, BIP_INIT_NONE);
        for (int k = 0; k < 3; k++) {
            cr_assert_eq(cardinality(g, ALGO_HK, inits[k]), ref, "seed %llu", (unsigned long long)seed);
            cr_assert_eq(cardinality(g, ALGO_PR, inits[k]), ref, "seed %llu", (unsigned long long)seed);
        }
        bip_free(g);
    }
}

/* Structural ranks of shared matrices, computed independently with SciPy 1.10
 * (scipy.sparse.csgraph.maximum_bipartite_matching on the stored pattern,
 * explicit zeros included). */
static const struct {
    const char *name;
    int32_t rows, cols;
    int64_t rank;
} shared_ranks[] = {
    {"lp_afiro.mtx", 27, 51, 27},
    {"Groebner_id2003_aug.mtx.gz", 4967, 2456, 2456},
    {"bayer10.mtx.gz", 13436, 13436, 13436},
    {"rajat01.mtx", 6833, 6833, 6833},
    {"west0067.mtx", 67, 67, 67},
    {"jgl009.mtx", 9, 9, 9},
    {"Ragusa16.mtx", 24, 24, 18},
    {"p2p-Gnutella06.mtx", 8717, 8717, 3684},
};

Test(bipartite_matching, shared_matrices_reach_their_structural_rank)
{
    for (size_t m = 0; m < sizeof shared_ranks / sizeof shared_ranks[0]; m++) {
        bip_graph *g = bip_test_shared(shared_ranks[m].name);
        if (!g)
            cr_skip_test("shared data folder absent (set COARSEN_DATA)");
        cr_assert_eq(g->rows, shared_ranks[m].rows, "%s", shared_ranks[m].name);
        cr_assert_eq(g->cols, shared_ranks[m].cols, "%s", shared_ranks[m].name);
        for (int k = 0; k < 3; k++) {
            cr_expect_eq(cardinality(g, ALGO_HK, inits[k]), shared_ranks[m].rank, "%s HK", shared_ranks[m].name);
            cr_expect_eq(cardinality(g, ALGO_PR, inits[k]), shared_ranks[m].rank, "%s PR", shared_ranks[m].name);
        }
        bip_free(g);
    }
}

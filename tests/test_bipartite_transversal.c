/* test_bipartite_transversal.c — maximum transversals as column
 * permutations: a permutation of the columns whose diagonal holds the
 * structural rank (Hopcroft–Karp's) on square, wide and tall random
 * matrices; the weighted one maximises the sum of log2|a| among maximum
 * transversals (values ±2^k, so the logs are integers, against the exact
 * solver); shared matrices west0067 and lp_afiro. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "bipartite/assignment.h"
#include "bipartite/cardinality.h"
#include "bipartite/transversal.h"
#include "core/hash.h"
#include "tests/support/bipartite_oracle.h"

/* Runs the transversal, checks the permutation and the diagonal counts. */
static bip_transversal_result transversal(const bip_graph *g, bip_transversal_kind kind)
{
    int32_t *perm = malloc(((size_t)g->cols + 1) * sizeof *perm);
    char *seen = calloc((size_t)g->cols + 1, 1);
    coarsen_error err = {0};
    bip_transversal_result r;
    cr_assert_eq(bip_transversal(g, kind, 0, perm, &r, &err), 0, "%s", err.msg);
    for (int32_t c = 0; c < g->cols; c++) {
        cr_assert(perm[c] >= 0 && perm[c] < g->cols && !seen[perm[c]]++, "not a permutation at %d", c);
    }
    int64_t before = 0, after = 0;
    for (int32_t i = 0; i < g->rows && i < g->cols; i++)
        for (int64_t e = g->rptr[i]; e < g->rptr[i + 1]; e++) {
            before += g->rind[e] == i;
            after += g->rind[e] == perm[i];
        }
    cr_expect_eq(r.diag_before, before);
    cr_expect_eq(r.diag_after, after);
    cr_expect_eq(r.rank, bip_test_hk_rank(g));
    if (g->rows <= g->cols)
        cr_expect_eq(r.diag_after, r.rank, "the transversal lies on the diagonal");
    free(perm);
    free(seen);
    return r;
}

Test(bipartite_transversal, structural_permutation_puts_the_rank_on_the_diagonal)
{
    for (uint64_t seed = 1; seed <= 40; seed++) {
        int32_t rows = 5 + (int32_t)(seed * 13 % 90), cols = 5 + (int32_t)(seed * 31 % 90);
        bip_graph *g = bip_test_random(rows, cols, 2.5 / (double)cols, 1, seed);
        transversal(g, BIP_TRANSVERSAL_PR);
        transversal(g, BIP_TRANSVERSAL_WEIGHTED);
        bip_free(g);
    }
}

Test(bipartite_transversal, weighted_maximises_the_log_product_among_maximum_transversals)
{
    for (uint64_t seed = 1; seed <= 40; seed++) {
        int32_t rows = 3 + (int32_t)(seed * 7 % 40), cols = 3 + (int32_t)(seed * 11 % 40);
        bip_graph *g = bip_test_random(rows, cols, 0.15, 1, seed);
        bip_graph *logs = bip_test_random(rows, cols, 0.15, 1, seed); /* same pattern: values = log2 */
        for (int64_t e = 0; e < g->nnz; e++) {
            int k = (int)(hash3(seed, 9, (uint64_t)e) % 11) - 5;
            double sign = hash3(seed, 10, (uint64_t)e) % 2 ? -1 : 1;
            g->rval[e] = sign * ldexp(1, k);
            logs->rval[e] = k;
        }
        for (int64_t e = 0; e < g->nnz; e++) { /* column views follow the row views */
            g->cval[e] = 0;
            logs->cval[e] = 0;
        }
        for (int32_t r = 0; r < g->rows; r++)
            for (int64_t e = g->rptr[r]; e < g->rptr[r + 1]; e++) {
                int32_t c = g->rind[e];
                for (int64_t f = g->cptr[c]; f < g->cptr[c + 1]; f++)
                    if (g->cind[f] == r) {
                        g->cval[f] = g->rval[e];
                        logs->cval[f] = logs->rval[e];
                    }
            }
        g->integral = 0;
        logs->integral = 1;
        bip_transversal_result r = transversal(g, BIP_TRANSVERSAL_WEIGHTED);
        int32_t *rm = malloc(((size_t)rows + 1) * sizeof *rm);
        int64_t card;
        double total;
        coarsen_error err = {0};
        cr_assert_eq(bip_assignment_exact(logs, rm, &card, &total, &err), 0, "%s", err.msg);
        cr_expect_eq(r.rank, card, "seed %llu", (unsigned long long)seed);
        cr_expect_eq(r.log2_product, total, "seed %llu: %g vs exact %g", (unsigned long long)seed, r.log2_product,
                     total);
        cr_expect_eq(r.proven_optimal, 1, "seed %llu", (unsigned long long)seed);
        free(rm);
        bip_free(g);
        bip_free(logs);
    }
}

Test(bipartite_transversal, shared_matrices)
{
    bip_graph *g = bip_test_shared("west0067.mtx");
    if (!g)
        cr_skip_test("shared data folder absent (set COARSEN_DATA)");
    bip_transversal_result r = transversal(g, BIP_TRANSVERSAL_PR);
    cr_expect_eq(r.rank, 67);
    cr_expect_eq(r.diag_before, 2, "README: 2 diagonal entries");
    r = transversal(g, BIP_TRANSVERSAL_WEIGHTED);
    cr_expect_eq(r.diag_after, 67);
    bip_free(g);
    g = bip_test_shared("lp_afiro.mtx");
    r = transversal(g, BIP_TRANSVERSAL_PR);
    cr_expect_eq(r.diag_after, 27);
    bip_free(g);
}

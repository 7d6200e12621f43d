/* bipartite_oracle.c — random bipartite graphs and enumeration oracles for
 * the bipartite tests (bipartite_oracle.h). */
#include "tests/support/bipartite_oracle.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "bipartite/cardinality.h"
#include "core/hash.h"
#include "tests/support/test_support.h"

bip_graph *bip_test_random(int32_t rows, int32_t cols, double p, int maxval, uint64_t seed)
{
    int64_t cap = (int64_t)rows * cols + 1, n = 0;
    int32_t *i = malloc((size_t)cap * sizeof *i), *j = malloc((size_t)cap * sizeof *j);
    double *v = malloc((size_t)cap * sizeof *v);
    for (int32_t r = 0; r < rows; r++)
        for (int32_t c = 0; c < cols; c++) {
            uint64_t h = hash3(seed, (uint64_t)r, (uint64_t)c);
            if (hash_unit(h) < p) {
                i[n] = r, j[n] = c;
                v[n++] = (double)(1 + hash3(seed + 1, (uint64_t)r, (uint64_t)c) % (uint64_t)maxval);
            }
        }
    bip_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(bip_from_entries(rows, cols, n, i, j, v, &g, &err), 0, "%s", err.msg);
    free(i);
    free(j);
    free(v);
    return g;
}

/* Best matching size of rows r.. with the columns in `used` taken. */
static int best_from(const bip_graph *g, int32_t r, uint32_t used)
{
    if (r == g->rows)
        return 0;
    int best = best_from(g, r + 1, used);
    for (int64_t e = g->rptr[r]; e < g->rptr[r + 1]; e++) {
        int32_t c = g->rind[e];
        if (!(used >> c & 1)) {
            int b = 1 + best_from(g, r + 1, used | 1u << c);
            if (b > best)
                best = b;
        }
    }
    return best;
}

int bip_oracle_max_cardinality(const bip_graph *g)
{
    cr_assert(g->rows <= 12 && g->cols <= 30, "oracle: graph too large");
    return best_from(g, 0, 0);
}

bip_graph *bip_test_shared(const char *name)
{
    const char *dir = test_data_dir();
    if (!dir)
        return NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    bip_graph *g = NULL;
    coarsen_error err = {0};
    cr_assert_eq(bip_load(path, &g, &err), 0, "%s", err.msg);
    return g;
}

/* Best (cardinality, weight) of rows r.. with the columns in `used` taken. */
static void best_weight_from(const bip_graph *g, int32_t r, uint32_t used, int card, double w, int *best_card,
                             double *best_w)
{
    if (r == g->rows) {
        if (card > *best_card || (card == *best_card && w > *best_w)) {
            *best_card = card;
            *best_w = w;
        }
        return;
    }
    best_weight_from(g, r + 1, used, card, w, best_card, best_w);
    for (int64_t e = g->rptr[r]; e < g->rptr[r + 1]; e++)
        if (!(used >> g->rind[e] & 1))
            best_weight_from(g, r + 1, used | 1u << g->rind[e], card + 1, w + g->rval[e], best_card, best_w);
}

double bip_oracle_max_weight(const bip_graph *g, int *cardinality)
{
    cr_assert(g->rows <= 7 && g->cols <= 30, "oracle: graph too large");
    int card = -1;
    double w = 0;
    best_weight_from(g, 0, 0, 0, 0, &card, &w);
    *cardinality = card;
    return w;
}

int64_t bip_test_hk_rank(const bip_graph *g)
{
    int32_t *rm = malloc(((size_t)g->rows + 1) * sizeof *rm), *cm = malloc(((size_t)g->cols + 1) * sizeof *cm);
    coarsen_error err = {0};
    cr_assert_eq(bip_initial_matching(g, BIP_INIT_NONE, rm, cm, &err), 0);
    cr_assert_eq(bip_hopcroft_karp(g, rm, cm, &err), 0, "%s", err.msg);
    int64_t r = bip_matching_size(g->cols, cm);
    free(rm);
    free(cm);
    return r;
}

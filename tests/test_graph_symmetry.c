/* test_graph_symmetry.c — graph_find_asymmetry against a naive oracle (every
 * entry's mirror found by a linear scan), with defects planted at random: a
 * weight changed, a neighbour replaced, a neighbour listed twice. The problem
 * reported must be the oracle's (lowest offending row, its first bad entry),
 * on 1, 2 and 3 threads: the fast pass is one block of all rows (every
 * mirror found by cursor) on 1 and 2, and from 3 threads blocks of rows in
 * parallel (mirrors inside a block by cursor, across blocks by binary
 * search). */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "core/graph_symmetry.h"
#include "core/hash.h"
#include "tests/support/test_support.h"

/* The first problem of the lowest offending row, found naively. */
static graph_asymmetry oracle(const coarsen_graph *g, graph_problem *p)
{
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->xadj[u]; k < g->xadj[u + 1]; k++) {
            int32_t v = g->adj[k];
            graph_asymmetry kind = GRAPH_SYMMETRIC;
            int64_t b = -1;
            if (k > g->xadj[u] && g->adj[k - 1] == v) {
                kind = GRAPH_DUPLICATE;
            } else if (v != u) {
                for (int64_t j = g->xadj[v]; j < g->xadj[v + 1] && b < 0; j++)
                    if (g->adj[j] == u)
                        b = j;
                kind = b < 0 ? GRAPH_NO_MIRROR : g->ewgt[b] != g->ewgt[k] ? GRAPH_WEIGHT : GRAPH_SYMMETRIC;
            }
            if (kind != GRAPH_SYMMETRIC) {
                *p = (graph_problem){kind, u, v, k, b};
                return kind;
            }
        }
    return GRAPH_SYMMETRIC;
}

static coarsen_graph *copy_graph(const coarsen_graph *g)
{
    coarsen_error err = {0};
    coarsen_graph *c = coarsen_graph_alloc(g->n, g->nnz, &err);
    cr_assert(c, "%s", err.msg);
    memcpy(c->xadj, g->xadj, ((size_t)g->n + 1) * sizeof *c->xadj);
    memcpy(c->adj, g->adj, (size_t)g->nnz * sizeof *c->adj);
    memcpy(c->ewgt, g->ewgt, (size_t)g->nnz * sizeof *c->ewgt);
    memcpy(c->vwgt, g->vwgt, (size_t)g->n * sizeof *c->vwgt);
    return c;
}

/* One defect at a random entry, rows kept sorted: 0 a weight changed, 1 the
 * neighbour replaced by a free id between its row neighbours (when there is
 * one), 2 the neighbour made equal to the one before it. */
static void plant(coarsen_graph *g, uint64_t *state)
{
    int64_t k = (int64_t)(hash_mix64(++*state) % (uint64_t)g->nnz);
    int32_t u = 0;
    while (g->xadj[u + 1] <= k)
        u++;
    switch (hash_mix64(++*state) % 3) {
    case 0:
        g->ewgt[k] += 1.0;
        break;
    case 1: {
        int32_t lo = k > g->xadj[u] ? g->adj[k - 1] + 1 : 0;
        int32_t hi = k + 1 < g->xadj[u + 1] ? g->adj[k + 1] : g->n;
        if (hi - lo > 1)
            g->adj[k] = g->adj[k] > lo ? lo : lo + 1;
        break;
    }
    default:
        if (k > g->xadj[u])
            g->adj[k] = g->adj[k - 1];
        break;
    }
}

static void expect_as_oracle(const coarsen_graph *g, const char *what)
{
    graph_problem want = {0};
    graph_asymmetry w = oracle(g, &want);
    const int saved = omp_get_max_threads();
    for (int t = 1; t <= 3; t++) {
        omp_set_num_threads(t);
        graph_problem got = {0};
        graph_asymmetry r = graph_find_asymmetry(g, &got);
        cr_assert_eq(r, w, "%s, %d threads: kind %d, oracle %d", what, t, r, w);
        if (w != GRAPH_SYMMETRIC)
            cr_assert(got.u == want.u && got.v == want.v && got.at == want.at && got.mirror == want.mirror,
                      "%s, %d threads: (%d, %d) at %lld / %lld, oracle (%d, %d) at %lld / %lld", what, t, got.u,
                      got.v, (long long)got.at, (long long)got.mirror, want.u, want.v, (long long)want.at,
                      (long long)want.mirror);
    }
    omp_set_num_threads(saved);
}

Test(graph_symmetry, planted_defects_reported_as_the_oracle)
{
    /* a geometric graph (ids follow the geometry: mirrors mostly in the same
     * block) and a random one (mostly in other blocks), each of many blocks */
    coarsen_graph *graphs[] = {test_gen("rgg:n=9000,deg=8,weights=int,seed=3"), test_random_graph(5000, 0.002, 1, 5)};
    uint64_t state = 17;
    for (int i = 0; i < 2; i++) {
        expect_as_oracle(graphs[i], "as generated");
        for (int trial = 0; trial < 40; trial++) {
            coarsen_graph *c = copy_graph(graphs[i]);
            for (int d = 0; d <= trial % 3; d++)
                plant(c, &state);
            char what[64];
            snprintf(what, sizeof what, "graph %d trial %d", i, trial);
            expect_as_oracle(c, what);
            coarsen_graph_free(c);
        }
        coarsen_graph_free(graphs[i]);
    }
}

/* A graph of n vertices from its rows (xadj, adj), unit weights. */
static coarsen_graph *rows_graph(int32_t n, const int64_t *xadj, const int32_t *adj)
{
    coarsen_error err = {0};
    coarsen_graph *g = coarsen_graph_alloc(n, xadj[n], &err);
    cr_assert(g, "%s", err.msg);
    memcpy(g->xadj, xadj, ((size_t)n + 1) * sizeof *xadj);
    memcpy(g->adj, adj, (size_t)xadj[n] * sizeof *adj);
    for (int64_t k = 0; k < xadj[n]; k++)
        g->ewgt[k] = 1.0;
    return g;
}

/* Two defects that keep the entries above and below the diagonal equal in
 * number, which the fast pass must still see: a mirror missing where the
 * cursor of its row would run on into the next row, whose first entry is
 * the vertex looked for (row 1 lacks 0; row 2 starts with 0; row 3's entry
 * 1 has no mirror), and a neighbour listed twice in both rows. */
Test(graph_symmetry, balanced_defects_reported_as_the_oracle)
{
    const int64_t overrun_xadj[] = {0, 2, 2, 3, 4};
    const int32_t overrun_adj[] = {1, 2, 0, 1};
    coarsen_graph *g = rows_graph(4, overrun_xadj, overrun_adj);
    expect_as_oracle(g, "a cursor past its row");
    coarsen_graph_free(g);
    const int64_t twice_xadj[] = {0, 2, 4};
    const int32_t twice_adj[] = {1, 1, 0, 0};
    g = rows_graph(2, twice_xadj, twice_adj);
    expect_as_oracle(g, "a neighbour twice in both rows");
    coarsen_graph_free(g);
}

/* roma_oracles.c — brute-force oracles and runners of the ROMA tests
 * (roma_oracles.h). */
#include "tests/support/roma_oracles.h"

#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

/* Weight of edge (a,b) by a plain scan, -1 when absent. */
static double edge_weight(const coarsen_graph *g, int32_t a, int32_t b)
{
    for (int64_t e = g->xadj[a]; e < g->xadj[a + 1]; e++)
        if (g->adj[e] == b)
            return g->ewgt[e];
    return -1.0;
}

double oracle_matching_weight(const coarsen_graph *g, const int32_t *mate)
{
    double w = 0.0;
    for (int32_t v = 0; v < g->n; v++)
        if (mate[v] > v)
            w += edge_weight(g, v, mate[v]);
    return w;
}

static int fits(const coarsen_graph *g, int64_t cap, int32_t a, int32_t b)
{
    return cap <= 0 || g->vwgt[a] + g->vwgt[b] <= cap;
}

static void unmatch(int32_t *m, int32_t z)
{
    if (z >= 0 && m[z] >= 0) {
        m[m[z]] = -1;
        m[z] = -1;
    }
}

double oracle_best_centred_gain(const coarsen_graph *g, const int32_t *mate, int64_t cap, int32_t v, int *count)
{
    const int32_t n = g->n, u = mate[v];
    const double w_old = oracle_matching_weight(g, mate);
    int32_t *m = malloc(((size_t)n + 1) * sizeof *m);
    double best = 0.0;
    *count = 0;
    /* x: new partner of v (-1 none, or any neighbour); y: of u likewise */
    int64_t nx = g->xadj[v + 1] - g->xadj[v], ny = u >= 0 ? g->xadj[u + 1] - g->xadj[u] : 0;
    for (int64_t i = -1; i < nx; i++)
        for (int64_t j = -1; j < ny; j++) {
            int32_t x = i < 0 ? -1 : g->adj[g->xadj[v] + i];
            int32_t y = j < 0 ? -1 : g->adj[g->xadj[u] + j];
            if ((x < 0 && y < 0) || (x >= 0 && x == u) || (y >= 0 && y == v) || (x >= 0 && x == y))
                continue;
            if ((x >= 0 && !fits(g, cap, v, x)) || (y >= 0 && !fits(g, cap, u, y)))
                continue;
            memcpy(m, mate, (size_t)n * sizeof *m);
            unmatch(m, v), unmatch(m, x), unmatch(m, y);
            if (x >= 0)
                m[v] = x, m[x] = v;
            if (y >= 0)
                m[u] = y, m[y] = u;
            double gain = oracle_matching_weight(g, m) - w_old;
            if (*count == 0 || gain > best)
                best = gain;
            ++*count;
        }
    free(m);
    return *count ? best : 0.0;
}

void test_random_matching(const coarsen_graph *g, int64_t cap, uint64_t seed, int32_t *mate)
{
    const int32_t n = g->n;
    for (int32_t v = 0; v < n; v++)
        mate[v] = -1;
    for (int32_t i = 0; i < n; i++) {
        int32_t v = (int32_t)((i + hash3(seed, 1, 0) % (uint64_t)n) % (uint64_t)n);
        if (mate[v] >= 0 || hash3(seed, (uint64_t)v, 2) % 4 == 0)
            continue;
        int64_t deg = g->xadj[v + 1] - g->xadj[v];
        if (deg == 0)
            continue;
        int64_t start = (int64_t)(hash3(seed, (uint64_t)v, 3) % (uint64_t)deg);
        for (int64_t k = 0; k < deg; k++) {
            int32_t x = g->adj[g->xadj[v] + (start + k) % deg];
            if (mate[x] < 0 && fits(g, cap, v, x)) {
                mate[v] = x, mate[x] = v;
                break;
            }
        }
    }
}

/* graph_symmetry.c — sortedness and symmetry checks of freshly read CSR
 * graphs; see graph_symmetry.h. */
#include "core/graph_symmetry.h"
#include "core/row_find.h"
#include "core/threads.h"

#include <stdlib.h>

int graph_rows_sorted(const coarsen_graph *g)
{
    int sorted = 1;
#pragma omp parallel for schedule(dynamic, 4096) reduction(&& : sorted) if (g->nnz > THREADS_PARALLEL_MIN)
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->xadj[u] + 1; sorted && k < g->xadj[u + 1]; k++)
            sorted = g->adj[k - 1] < g->adj[k];
    return sorted;
}

/* The first problem of row u, written to *p when not NULL. */
static graph_asymmetry check_row(const coarsen_graph *g, int32_t u, graph_problem *p)
{
    for (int64_t k = g->xadj[u]; k < g->xadj[u + 1]; k++) {
        int32_t v = g->adj[k];
        graph_asymmetry kind = GRAPH_SYMMETRIC;
        int64_t b = -1;
        if (k > g->xadj[u] && g->adj[k - 1] == v)
            kind = GRAPH_DUPLICATE;
        else if (v != u && (b = row_find(g->xadj, g->adj, v, u)) < 0)
            kind = GRAPH_NO_MIRROR;
        else if (v != u && g->ewgt[b] != g->ewgt[k])
            kind = GRAPH_WEIGHT;
        if (kind != GRAPH_SYMMETRIC) {
            if (p)
                *p = (graph_problem){kind, u, v, k, b};
            return kind;
        }
    }
    return GRAPH_SYMMETRIC;
}

/* Rows per block of the fast pass: large blocks find more mirrors by cursor,
 * and four blocks per thread balance the load. */
#define SYMMETRY_BLOCK_MIN 1024
#define SYMMETRY_BLOCK_MAX 65536

/* The fast pass over the rows [a, b): 1 when every upper entry (u, v),
 * v > u, has a mirror (v, u) of equal weight and no row lists a neighbour
 * twice; 0 when not sure (a problem somewhere, not necessarily in these
 * rows). The mirrors of entries whose both ends lie in the block are found
 * with a cursor per row v of the block: visiting u in increasing order, the
 * mirrors in row v are its entries from a up, in order. Others, by binary
 * search. cursor [scratch]: b - a places. Adds the entries above and below
 * the diagonal to *upper and *lower. */
static int block_mirrored(const coarsen_graph *g, int32_t a, int32_t b, int64_t *cursor, int64_t *upper,
                          int64_t *lower)
{
    const int64_t *xadj = g->xadj;
    const int32_t *adj = g->adj;
    const double *w = g->ewgt;
    for (int32_t v = a; v < b; v++) {
        int64_t lo = xadj[v], len = xadj[v + 1] - lo;
        while (len > 0) { /* the first entry >= a */
            int64_t half = len / 2;
            if (adj[lo + half] < a)
                lo += half + 1, len -= half + 1;
            else
                len = half;
        }
        cursor[v - a] = lo;
    }
    int64_t up = 0, down = 0;
    for (int32_t u = a; u < b; u++) {
        for (int64_t k = xadj[u]; k < xadj[u + 1]; k++) {
            const int32_t v = adj[k];
            if (k > xadj[u] && adj[k - 1] == v)
                return 0;
            if (v <= u) {
                down += v < u;
                continue;
            }
            up++;
            int64_t m;
            if (v < b) {
                m = cursor[v - a]++;
                if (m >= xadj[v + 1] || adj[m] != u)
                    return 0;
            } else if ((m = row_find(xadj, adj, v, u)) < 0) {
                return 0;
            }
            if (w[m] != w[k])
                return 0;
        }
    }
    *upper += up;
    *lower += down;
    return 1;
}

/* Without duplicates, mirroring maps the entries above the diagonal one to
 * one onto entries below it; when every upper entry has its mirror and both
 * halves have the same size, the adjacency is symmetric. So the fast pass
 * looks for mirrors of upper entries only (block_mirrored), and a full pass
 * runs only to find the lowest offending row. */
graph_asymmetry graph_find_asymmetry(const coarsen_graph *g, graph_problem *p)
{
    const int par = g->nnz > THREADS_PARALLEL_MIN;
    const int64_t quarter = (int64_t)g->n / (4 * (par ? threads_available() : 1));
    const int32_t rows = quarter < SYMMETRY_BLOCK_MIN ? SYMMETRY_BLOCK_MIN
                         : quarter > SYMMETRY_BLOCK_MAX ? SYMMETRY_BLOCK_MAX
                                                        : (int32_t)quarter;
    const int32_t blocks = (int32_t)(((int64_t)g->n + rows - 1) / rows);
    int ok = 1;
    int64_t upper = 0, lower = 0;
#pragma omp parallel reduction(&& : ok) reduction(+ : upper, lower) if (par)
    {
        int64_t *cursor = malloc((size_t)rows * sizeof *cursor);
        ok = cursor != NULL; /* without it, the full pass decides */
#pragma omp for schedule(dynamic, 1)
        for (int32_t k = 0; k < blocks; k++) {
            const int32_t a = k * rows, b = g->n - a < rows ? g->n : a + rows;
            if (ok)
                ok = block_mirrored(g, a, b, cursor, &upper, &lower);
        }
        free(cursor);
    }
    if (ok && upper == lower)
        return GRAPH_SYMMETRIC;
    int32_t first = g->n;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : first) if (g->nnz > THREADS_PARALLEL_MIN)
    for (int32_t u = 0; u < g->n; u++)
        if (u < first && check_row(g, u, NULL))
            first = u;
    return first < g->n ? check_row(g, first, p) : GRAPH_SYMMETRIC;
}

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

/* Rows per block of the fast pass when it runs in parallel: large blocks
 * find more mirrors by cursor, and four blocks per thread balance the load. */
#define SYMMETRY_BLOCK_MIN 1024
#define SYMMETRY_BLOCK_MAX 65536

/* Otherwise the pass is one block of all rows on one thread: every mirror
 * found by cursor, none by binary search, for less than half the
 * instructions (callgrind, one thread: astro-ph 9.1 -> 5.3 M, copter2 23.3 ->
 * 16.1 M). Blocks pay from 3 threads; on 2 they tie with one block or lose
 * (2-core machine, min of 21: astro-ph 0.78 against 0.54 ms, copter2 10.3
 * against 3.3, mdual 20.6 against 12.1, rgg 2^20 32.8 against 33.2) until
 * the cursors (8 bytes a row) leave the cache: rgg 2^21 60 against 82 ms. */
#define SYMMETRY_BLOCKS_MIN_THREADS 3
#define SYMMETRY_ONE_BLOCK_MAX_ROWS (1 << 20)

/* The fast pass over the rows [a, b): 1 when every upper entry (u, v),
 * v > u, has a mirror (v, u) of equal weight and no row lists a neighbour
 * twice; 0 when not sure (a problem somewhere, not necessarily in these
 * rows). The mirrors of entries whose both ends lie in the block are found
 * with a cursor per row v of the block: visiting u in increasing order, the
 * mirrors in row v are its entries from a up, in order. Others, by binary
 * search. cursor [scratch]: b - a places. Adds the entries above and below
 * the diagonal to *upper and *lower. */
static int block_mirrored(const coarsen_graph *g, int32_t a, int32_t b, int64_t *restrict cursor, int64_t *upper,
                          int64_t *lower)
{
    const int64_t *xadj = g->xadj;
    const int32_t *adj = g->adj;
    const double *w = g->ewgt;
    for (int32_t v = a; v < b; v++) {
        int64_t lo = xadj[v], len = xadj[v + 1] - lo;
        while (a > 0 && len > 0) { /* the first entry >= a (from block 0: the row's first) */
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
        const int64_t first = xadj[u], end = xadj[u + 1];
        int64_t k = first;
        int32_t prev = -1; /* the entry before k: rows are sorted, so a repeat is a duplicate */
        for (; k < end && adj[k] <= u; k++) { /* below the diagonal, and a self-loop */
            if (adj[k] == prev)
                return 0;
            prev = adj[k];
        }
        down += k - first - (prev == u);
        up += end - k;
        for (; k < end; k++) {
            const int32_t v = adj[k];
            if (v == prev)
                return 0;
            prev = v;
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
    const int threads = g->nnz > THREADS_PARALLEL_MIN ? threads_available() : 1;
    const int par = threads >= SYMMETRY_BLOCKS_MIN_THREADS || (threads > 1 && g->n > SYMMETRY_ONE_BLOCK_MAX_ROWS);
    const int64_t quarter = (int64_t)g->n / (4 * threads);
    const int32_t rows = !par ? (g->n > 0 ? g->n : 1)
                         : quarter < SYMMETRY_BLOCK_MIN ? SYMMETRY_BLOCK_MIN
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

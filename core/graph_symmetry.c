/* graph_symmetry.c — sortedness and symmetry checks of freshly read CSR
 * graphs; see graph_symmetry.h. */
#include "core/graph_symmetry.h"
#include "core/row_find.h"
#include "core/threads.h"

int graph_rows_sorted(const coarsen_graph *g)
{
    int sorted = 1;
#pragma omp parallel for schedule(dynamic, 4096) reduction(&& : sorted) if (g->nnz > THREADS_PARALLEL_MIN)
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t k = g->xadj[u] + 1; sorted && k < g->xadj[u + 1]; k++)
            sorted = g->adj[k - 1] < g->adj[k];
    return sorted;
}

/* The first problem of row u (entries above the diagonal only when
 * upper_only), written to *p when not NULL. */
static graph_asymmetry check_row(const coarsen_graph *g, int32_t u, int upper_only, graph_problem *p)
{
    for (int64_t k = g->xadj[u]; k < g->xadj[u + 1]; k++) {
        int32_t v = g->adj[k];
        graph_asymmetry kind = GRAPH_SYMMETRIC;
        int64_t b = -1;
        if (k > g->xadj[u] && g->adj[k - 1] == v)
            kind = GRAPH_DUPLICATE;
        else if (upper_only && v <= u)
            continue;
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

/* Without duplicates, mirroring maps the entries above the diagonal one to
 * one onto entries below it; when every upper entry has its mirror and both
 * halves have the same size, the adjacency is symmetric. So the fast pass
 * searches mirrors of upper entries only, and a full pass runs only to find
 * the lowest offending row. */
graph_asymmetry graph_find_asymmetry(const coarsen_graph *g, graph_problem *p)
{
    int32_t first = g->n;
    int64_t upper = 0, lower = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : first) reduction(+ : upper, lower) if (g->nnz > THREADS_PARALLEL_MIN)
    for (int32_t u = 0; u < g->n; u++) {
        for (int64_t k = g->xadj[u]; k < g->xadj[u + 1]; k++) {
            upper += g->adj[k] > u;
            lower += g->adj[k] < u;
        }
        if (u < first && check_row(g, u, 1, NULL))
            first = u;
    }
    if (first == g->n && upper == lower)
        return GRAPH_SYMMETRIC;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : first) if (g->nnz > THREADS_PARALLEL_MIN)
    for (int32_t u = 0; u < g->n; u++)
        if (u < first && check_row(g, u, 0, NULL))
            first = u;
    return first < g->n ? check_row(g, first, 0, p) : GRAPH_SYMMETRIC;
}

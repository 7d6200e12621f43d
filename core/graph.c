/* graph.c — allocation and invariant checking of coarsen_graph (release, for either residence: device/graph_free.c). */
#include "coarsen.h"
#include "core/error.h"
#include "core/row_find.h"

#include <math.h>
#include <stdlib.h>

coarsen_graph *coarsen_graph_alloc(int32_t n, int64_t nnz, coarsen_error *err)
{
    if (n < 0 || nnz < 0) {
        error_set(err, COARSEN_ERR_INPUT, "negative graph size (n=%d, nnz=%lld)", n, (long long)nnz);
        return NULL;
    }
    coarsen_graph *g = xcalloc(1, sizeof *g, "graph", err);
    if (!g)
        return NULL;
    g->n = n;
    g->nnz = nnz;
    g->integral_weights = 1;
    g->xadj = xmalloc(((size_t)n + 1) * sizeof *g->xadj, "row offsets", err);
    g->adj = g->xadj ? xmalloc((size_t)nnz * sizeof *g->adj, "adjacency", err) : NULL;
    g->ewgt = g->adj ? xmalloc((size_t)nnz * sizeof *g->ewgt, "edge weights", err) : NULL;
    g->vwgt = g->ewgt ? xmalloc((size_t)n * sizeof *g->vwgt, "vertex weights", err) : NULL;
    if (!g->vwgt) {
        coarsen_graph_free(g);
        return NULL;
    }
    g->xadj[0] = 0;
    return g;
}

int coarsen_graph_check(const coarsen_graph *g, coarsen_error *err)
{
    if (!g || g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "graph check needs a host graph");
    if (g->n < 0 || g->xadj[0] != 0 || g->xadj[g->n] != g->nnz)
        return error_set(err, COARSEN_ERR_INPUT, "row offsets do not span the %lld entries", (long long)g->nnz);
    for (int32_t u = 0; u < g->n; u++) {
        if (g->xadj[u + 1] < g->xadj[u])
            return error_set(err, COARSEN_ERR_INPUT, "row %d has negative length", u);
        if (g->vwgt[u] < 0)
            return error_set(err, COARSEN_ERR_INPUT, "vertex %d has negative weight", u);
        for (int64_t e = g->xadj[u]; e < g->xadj[u + 1]; e++) {
            int32_t v = g->adj[e];
            if (v < 0 || v >= g->n)
                return error_set(err, COARSEN_ERR_INPUT, "row %d: neighbour %d out of range", u, v);
            if (v == u)
                return error_set(err, COARSEN_ERR_INPUT, "row %d: self-loop", u);
            if (e > g->xadj[u] && g->adj[e - 1] >= v)
                return error_set(err, COARSEN_ERR_INPUT, "row %d: neighbours unsorted or duplicated at %d", u, v);
            if (!(g->ewgt[e] >= 0) || isinf(g->ewgt[e]))
                return error_set(err, COARSEN_ERR_INPUT, "edge (%d,%d): weight not finite and >= 0", u, v);
            if (g->integral_weights && g->ewgt[e] != floor(g->ewgt[e]))
                return error_set(err, COARSEN_ERR_INPUT, "edge (%d,%d): weight not integral", u, v);
            int64_t back = row_find(g->xadj, g->adj, v, u);
            if (back < 0)
                return error_set(err, COARSEN_ERR_INPUT, "edge (%d,%d) has no reverse", u, v);
            if (g->ewgt[back] != g->ewgt[e])
                return error_set(err, COARSEN_ERR_INPUT, "edge (%d,%d): weights differ by direction", u, v);
        }
    }
    return COARSEN_OK;
}

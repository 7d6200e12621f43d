/* validate.c — matching validation (validate.h). */
#include "matching/validate.h"
#include "matching/edge_order.h"
#include "matching/match_weight.h"
#include "core/error.h"

#include <string.h>

static int check_pairs(const coarsen_graph *g, const int32_t *mate, int64_t cap, coarsen_error *err)
{
    for (int32_t v = 0; v < g->n; v++) {
        int32_t m = mate[v];
        if (m == -1)
            continue;
        if (m < 0 || m >= g->n)
            return error_set(err, COARSEN_ERR_INPUT, "mate[%d] = %d is out of range [-1, %d)", v, m, g->n);
        if (m == v)
            return error_set(err, COARSEN_ERR_INPUT, "vertex %d is matched to itself", v);
        if (mate[m] != v)
            return error_set(err, COARSEN_ERR_INPUT, "mate[%d] = %d but mate[%d] = %d", v, m, m, mate[m]);
        if (row_find(g->xadj, g->adj, v, m) < 0)
            return error_set(err, COARSEN_ERR_INPUT, "matched pair (%d, %d) is not an edge", v, m);
        if (!pair_eligible(cap, g->vwgt[v], g->vwgt[m]))
            return error_set(err, COARSEN_ERR_INPUT, "matched pair (%d, %d) weighs %lld, above the cap %lld", v, m,
                             (long long)(g->vwgt[v] + g->vwgt[m]), (long long)cap);
    }
    return COARSEN_OK;
}

int match_validate(const coarsen_graph *g, const int32_t *mate, int64_t cap, match_check *out,
                   coarsen_error *err)
{
    match_check c;
    memset(&c, 0, sizeof c);
    int rc = check_pairs(g, mate, cap, err);
    if (!rc) {
        c.valid = 1;
        c.maximal = 1;
        for (int32_t u = 0; u < g->n && c.maximal; u++)
            for (int64_t e = g->xadj[u]; e < g->xadj[u + 1] && mate[u] == -1; e++)
                if (mate[g->adj[e]] == -1 && pair_eligible(cap, g->vwgt[u], g->vwgt[g->adj[e]]))
                    c.maximal = 0;
        c.weight = match_weight_cpu(g, mate, &c.matched_edges);
        c.matched_vertices = 2 * c.matched_edges;
    }
    if (out)
        *out = c;
    return rc;
}

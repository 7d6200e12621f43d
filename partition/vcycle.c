/* vcycle.c — one more multilevel cycle from an existing partition (an
 * iterated V-cycle): the graph is coarsened with its cut edges removed, so
 * that coarse vertices stay inside one part (isolated vertices aside, which
 * the hierarchy may pair across parts), the graph itself is contracted by the
 * same maps, the partition is carried to the coarsest level and refined back
 * up with the rebalancing, label propagation and FM polish of every level.
 * On the coarse levels the partition's moves are whole groups of vertices,
 * which the single-vertex moves at the finest level cannot make. The result
 * replaces the input only when it cuts less. Host code only, run by both
 * backends on the host partition, so their results stay identical. */
#include "partition/partition.h"

#include <stdlib.h>
#include <string.h>

#include "contract/contract.h"
#include "core/error.h"

/* g without its cut edges (vertex weights kept); NULL on failure. */
static coarsen_graph *inner_graph(const coarsen_graph *g, const int32_t *part, coarsen_error *err)
{
    int64_t nnz = 0;
    for (int32_t v = 0; v < g->n; v++)
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
            nnz += part[g->adj[i]] == part[v];
    coarsen_graph *h = coarsen_graph_alloc(g->n, nnz, err);
    if (!h)
        return NULL;
    int64_t e = 0;
    for (int32_t v = 0; v < g->n; v++) {
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
            if (part[g->adj[i]] == part[v]) {
                h->adj[e] = g->adj[i];
                h->ewgt[e++] = g->ewgt[i];
            }
        h->xadj[v + 1] = e;
        h->vwgt[v] = g->vwgt[v];
    }
    h->integral_weights = g->integral_weights;
    return h;
}

/* Rebalances, refines and (at most polish_edges edges) polishes part on g. */
static int refine_on(const coarsen_graph *g, const partition_opts *o, int32_t *part, partition_refine_stats *st,
                     coarsen_error *err)
{
    int64_t cap = partition_cap(g, o->k, o->imbalance);
    int rc = partition_rebalance_cpu(g, o->k, cap, part, st, err);
    if (!rc)
        rc = partition_refine_cpu(g, o->k, cap, o->max_rounds, part, st, err);
    if (!rc && g->nnz / 2 <= o->polish_edges) {
        int64_t *w = xmalloc((size_t)o->k * sizeof *w, "part weights", err);
        if (!w)
            return COARSEN_ERR_NOMEM;
        partition_part_weights(g, part, o->k, w);
        rc = partition_polish_cpu(g, o->k, cap, part, w, NULL, 0, st, err);
        free(w);
    }
    return rc;
}

int partition_vcycle_cpu(const coarsen_graph *g, const partition_opts *o, uint64_t seed, int32_t *part,
                         partition_refine_stats *st, coarsen_error *err)
{
    if (o->k < 2 || g->n == 0)
        return 0;
    coarsen_graph *inner = inner_graph(g, part, err);
    if (!inner)
        return COARSEN_ERR_NOMEM;
    coarsen_hierarchy_opts ho = o->hierarchy;
    if (ho.coarsen_to == 0)
        ho.coarsen_to = o->k * 40 > 400 ? o->k * 40 : 400;
    ho.seed = seed;
    ho.device = COARSEN_DEVICE_CPU;
    ho.keep_input_on_device = 0;
    ho.on_level = NULL;
    coarsen_hierarchy *h = NULL;
    int rc = coarsen_hierarchy_build(inner, &ho, &h, err);
    int L = rc ? 0 : coarsen_hierarchy_levels(h);
    coarsen_graph **lg = rc ? NULL : xcalloc((size_t)L + 1, sizeof *lg, "V-cycle levels", err);
    int32_t **lp = rc ? NULL : xcalloc((size_t)L + 1, sizeof *lp, "V-cycle parts", err);
    if (!rc && (!lg || !lp))
        rc = COARSEN_ERR_NOMEM;
    if (!rc)
        rc = (lp[0] = xmalloc(((size_t)g->n + 1) * sizeof *lp[0], "V-cycle parts", err)) ? 0 : COARSEN_ERR_NOMEM;
    if (!rc)
        memcpy(lp[0], part, (size_t)g->n * sizeof *part);
    /* down: contract g by the inner graph's maps, carry the parts along (a
     * coarse vertex takes the part of its last member) */
    const coarsen_graph *cur = g;
    for (int lv = 1; lv <= L && !rc; lv++) {
        const int32_t *map;
        int32_t nc = coarsen_hierarchy_stats(h, lv)->vertices;
        if ((rc = coarsen_hierarchy_map(h, lv, &map, err)) || (rc = contract_cpu(cur, map, nc, &lg[lv], err)))
            break;
        if (!(lp[lv] = xmalloc(((size_t)nc + 1) * sizeof *lp[lv], "V-cycle parts", err))) {
            rc = COARSEN_ERR_NOMEM;
            break;
        }
        for (int32_t v = 0; v < cur->n; v++)
            lp[lv][map[v]] = lp[lv - 1][v];
        cur = lg[lv];
    }
    /* up: refine every level, project onto the next finer one */
    for (int lv = L; lv >= 0 && !rc; lv--) {
        const coarsen_graph *lgr = lv ? lg[lv] : g;
        if (lv < L) {
            const int32_t *map;
            if ((rc = coarsen_hierarchy_map(h, lv + 1, &map, err)))
                break;
            partition_project_cpu(lgr->n, map, lp[lv + 1], lp[lv]);
        }
        rc = refine_on(lgr, o, lp[lv], st, err);
    }
    if (!rc && partition_cut(g, lp[0]) < partition_cut(g, part))
        memcpy(part, lp[0], (size_t)g->n * sizeof *part);
    for (int lv = 0; lp && lv <= L; lv++) {
        free(lp[lv]);
        if (lv && lg)
            coarsen_graph_free(lg[lv]);
    }
    free(lp);
    free(lg);
    coarsen_hierarchy_free(h);
    coarsen_graph_free(inner);
    return rc;
}

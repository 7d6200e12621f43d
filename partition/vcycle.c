/* vcycle.c — one more multilevel cycle from an existing partition (an
 * iterated V-cycle): the graph is coarsened with its cut edges removed, so
 * that coarse vertices stay inside one part (isolated vertices aside, which
 * the hierarchy may pair across parts), the graph itself is contracted by the
 * same maps, the partition is carried to the coarsest level and refined back
 * up with the rebalancing, label propagation and FM polish of every level
 * (uncoarsen.c, as in the first cycle). On the coarse levels the partition's
 * moves are whole groups of vertices, which the single-vertex moves at the
 * finest level cannot make. The result replaces the input only when it cuts
 * less. The hierarchy, the contractions and the refinement run on the
 * options' device (the first cycle's), the inner graph, the carrying down
 * and the coarsest level on the host; both backends give the same result. */
#include "partition/partition.h"

#include <stdlib.h>
#include <string.h>

#include "coarsen/hierarchy.h"
#include "core/error.h"
#include "core/threads.h"

/* g without its cut edges (vertex weights kept); NULL on failure. Rows
 * counted and copied in parallel, each into its own place: the same graph
 * on any number of threads. */
static coarsen_graph *inner_graph(const coarsen_graph *g, const int32_t *part, coarsen_error *err)
{
    int64_t *row = xmalloc(((size_t)g->n + 1) * sizeof *row, "inner rows", err);
    if (!row)
        return NULL;
#pragma omp parallel for schedule(dynamic, 1024) if (g->nnz >= THREADS_PARALLEL_MIN)
    for (int32_t v = 0; v < g->n; v++) {
        int64_t c = 0;
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
            c += part[g->adj[i]] == part[v];
        row[v + 1] = c;
    }
    row[0] = 0;
    for (int32_t v = 0; v < g->n; v++)
        row[v + 1] += row[v];
    coarsen_graph *h = coarsen_graph_alloc(g->n, row[g->n], err);
    if (!h) {
        free(row);
        return NULL;
    }
#pragma omp parallel for schedule(dynamic, 1024) if (g->nnz >= THREADS_PARALLEL_MIN)
    for (int32_t v = 0; v < g->n; v++) {
        int64_t e = row[v];
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
            if (part[g->adj[i]] == part[v]) {
                h->adj[e] = g->adj[i];
                h->ewgt[e++] = g->ewgt[i];
            }
        h->xadj[v + 1] = e;
        h->vwgt[v] = g->vwgt[v];
    }
    h->integral_weights = g->integral_weights;
    free(row);
    return h;
}

int partition_vcycle(const coarsen_graph *g, const coarsen_graph *dg, const partition_opts *o, uint64_t seed,
                     int32_t *part, partition_refine_stats *st, coarsen_error *err)
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
    ho.keep_input_on_device = 0;
    ho.on_level = NULL;
    coarsen_hierarchy *h = NULL;
    int rc = coarsen_hierarchy_build(inner, &ho, &h, err);
    if (!rc) /* from here on h is g's hierarchy */
        rc = hierarchy_contract_input(h, g, coarsen_hierarchy_on_gpu(h) ? dg : NULL, err);
    coarsen_graph_free(inner);
    int L = rc ? 0 : coarsen_hierarchy_levels(h);
    partition_level_report *rep = rc ? NULL : xcalloc((size_t)L + 1, sizeof *rep, "V-cycle reports", err);
    int32_t *coarse = rc ? NULL : xmalloc(((size_t)g->n + 1) * sizeof *coarse, "V-cycle parts", err);
    int32_t *fine = rc ? NULL : xmalloc(((size_t)g->n + 1) * sizeof *fine, "V-cycle parts", err);
    int32_t *out = rc ? NULL : xmalloc(((size_t)g->n + 1) * sizeof *out, "V-cycle parts", err);
    if (!rc && (!rep || !coarse || !fine || !out))
        rc = COARSEN_ERR_NOMEM;
    if (!rc)
        memcpy(coarse, part, (size_t)g->n * sizeof *part);
    /* down: a coarse vertex takes the part of its last member */
    for (int lv = 1; lv <= L && !rc; lv++) {
        const int32_t *map;
        if ((rc = coarsen_hierarchy_map(h, lv, &map, err)))
            break;
        for (int32_t v = 0; v < coarsen_hierarchy_stats(h, lv - 1)->vertices; v++)
            fine[map[v]] = coarse[v];
        int32_t *t = coarse;
        coarse = fine;
        fine = t;
    }
    /* up: the coarsest level refined on the host, then every level as in
     * the first cycle */
    double polish_ms = 0; /* part of the V-cycle's time, not of the first cycle's polish */
    if (!rc)
        rc = partition_refine_level(h, L, NULL, o, coarse, -1, &rep[L], &polish_ms, err);
    if (!rc)
        rc = partition_uncoarsen(h, o, coarse, fine, out, rep, &polish_ms, err);
    if (!rc && partition_cut(g, out) < partition_cut(g, part))
        memcpy(part, out, (size_t)g->n * sizeof *part);
    for (int lv = 0; !rc && lv <= L; lv++) {
        st->rounds += rep[lv].st.rounds;
        st->moves += rep[lv].st.moves;
        st->rebalance_moves += rep[lv].st.rebalance_moves;
        st->polish_moves += rep[lv].st.polish_moves;
    }
    free(rep);
    free(coarse);
    free(fine);
    free(out);
    coarsen_hierarchy_free(h);
    return rc;
}

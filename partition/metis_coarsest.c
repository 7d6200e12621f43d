/* metis_coarsest.c — partitioning a host graph with METIS through its library
 * API (k-way or recursive bisection): conversion of the CSR to idx_t (width
 * from metis.h's IDXTYPEWIDTH), integer edge weights, options, status codes,
 * and the signal actions METIS changes. Used on the coarsest level and for
 * --compare-metis on the fine graph. */
#include "partition/partition.h"

#include <math.h>
#include <metis.h>
#include <signal.h>
#include <stdlib.h>

#include "core/error.h"

#if IDXTYPEWIDTH == 32
#define IDX_LIMIT INT32_MAX
#else
#define IDX_LIMIT INT64_MAX
#endif

/* The scale of METIS's integer edge weights: 1 when g's weights are integers
 * whose total fits; otherwise the largest becomes 2^10 and the total fits.
 * (With 2^20, METIS 5.1's 2-way FM refinement crashed on the coarsest graph
 * of bayer10, k = 64: test_partition.c.) */
static double metis_weight_scale(const coarsen_graph *g)
{
    double total = 0, wmax = 0;
    for (int64_t i = 0; i < g->nnz; i++) {
        total += g->ewgt[i];
        if (g->ewgt[i] > wmax)
            wmax = g->ewgt[i];
    }
    double limit = (double)IDX_LIMIT / 4, scale = 1;
    if (!g->integral_weights || total > limit) {
        scale = wmax > 0 ? ldexp(1, 10) / wmax : 1;
        if (total * scale > limit)
            scale = limit / total;
    }
    return scale;
}

/* METIS's CSR of g, weights scaled and rounded to at least 1: zero-weight
 * edges become weight 1 in METIS's objective. (Passed as 0, METIS 5.1's 2-way
 * FM looped forever on bayer10's coarsest graph; left out, its heavy-edge
 * coarsening crashed now and then: test_partition.c.) */
static void metis_csr(const coarsen_graph *g, idx_t *xadj, idx_t *adj, idx_t *ew)
{
    double scale = metis_weight_scale(g);
    for (int32_t v = 0; v <= g->n; v++)
        xadj[v] = (idx_t)g->xadj[v];
    for (int64_t i = 0; i < g->nnz; i++) {
        double w = round(g->ewgt[i] * scale);
        adj[i] = g->adj[i];
        ew[i] = (idx_t)(w < 1 ? 1 : w);
    }
}

int partition_metis(const coarsen_graph *g, int32_t k, double imbalance, uint64_t seed, int recursive,
                    int32_t *part, coarsen_error *err)
{
    if (k < 1)
        return error_set(err, COARSEN_ERR_INPUT, "k = %d: the number of parts must be >= 1", k);
    if (k == 1 || g->n == 0) { /* METIS refuses or mishandles these */
        for (int32_t v = 0; v < g->n; v++)
            part[v] = 0;
        return 0;
    }
    if ((double)g->nnz > (double)IDX_LIMIT)
        return error_set(err, COARSEN_ERR_NOMEM, "%lld adjacency entries exceed METIS's idx_t (%d bits)",
                         (long long)g->nnz, IDXTYPEWIDTH);
    int64_t vtotal = 0;
    for (int32_t v = 0; v < g->n; v++)
        vtotal += g->vwgt[v];
    if ((double)vtotal > (double)IDX_LIMIT / 2)
        return error_set(err, COARSEN_ERR_INPUT, "total vertex weight %lld exceeds METIS's idx_t (%d bits)",
                         (long long)vtotal, IDXTYPEWIDTH);
    int rc = 0;
    idx_t *xadj = xmalloc(((size_t)g->n + 1) * sizeof *xadj, "METIS xadj", err);
    idx_t *adj = xmalloc((size_t)g->nnz * sizeof *adj, "METIS adjncy", err);
    idx_t *ew = xmalloc((size_t)g->nnz * sizeof *ew, "METIS adjwgt", err);
    idx_t *vw = xmalloc((size_t)g->n * sizeof *vw, "METIS vwgt", err);
    idx_t *out = xmalloc((size_t)g->n * sizeof *out, "METIS part", err);
    if (!xadj || !adj || !ew || !vw || !out) {
        rc = COARSEN_ERR_NOMEM;
        goto done;
    }
    metis_csr(g, xadj, adj, ew);
    for (int32_t v = 0; v < g->n; v++)
        vw[v] = (idx_t)g->vwgt[v];
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_NUMBERING] = 0;
    options[METIS_OPTION_SEED] = (idx_t)(seed % 1000000007u);
    idx_t nv = g->n, ncon = 1, nparts = k, objval = 0;
    real_t ub = (real_t)(1.0 + imbalance);
    /* METIS 5.1 (GKlib's gk_sigtrap) catches SIGTERM and SIGABRT during a
     * call and puts back the old handlers with signal(), which drops their
     * flags (SA_SIGINFO: core/interrupt.c's handler would then read a
     * siginfo that is not there): the actions are put back as they were */
    struct sigaction term, abrt;
    sigaction(SIGTERM, NULL, &term);
    sigaction(SIGABRT, NULL, &abrt);
    int st = recursive ? METIS_PartGraphRecursive(&nv, &ncon, xadj, adj, vw, NULL, ew, &nparts, NULL, &ub,
                                                  options, &objval, out)
                       : METIS_PartGraphKway(&nv, &ncon, xadj, adj, vw, NULL, ew, &nparts, NULL, &ub, options,
                                             &objval, out);
    sigaction(SIGTERM, &term, NULL);
    sigaction(SIGABRT, &abrt, NULL);
    if (st != METIS_OK) {
        rc = error_set(err, st == METIS_ERROR_MEMORY ? COARSEN_ERR_NOMEM : COARSEN_ERR_INPUT,
                       "METIS_PartGraph%s failed (status %d) on %d vertices, k = %d",
                       recursive ? "Recursive" : "Kway", st, g->n, k);
        goto done;
    }
    for (int32_t v = 0; v < g->n; v++)
        part[v] = (int32_t)out[v];
done:
    free(xadj);
    free(adj);
    free(ew);
    free(vw);
    free(out);
    return rc;
}

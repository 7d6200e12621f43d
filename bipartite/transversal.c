/* transversal.c — maximum transversals as column permutations
 * (transversal.h): G-PR / push-relabel from Karp–Sipser, or the auction on
 * log2 of the magnitudes (a copy of the graph with those benefits). */
#include "bipartite/transversal.h"
#include "bipartite/assignment.h"
#include "bipartite/cardinality.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A copy of g whose values are log2|a| (zeros: smallest non-zero log2 - 1). */
static int log_graph(const bip_graph *g, bip_graph **out, coarsen_error *err)
{
    int64_t *rptr = xmalloc(((size_t)g->rows + 1) * sizeof *rptr, "row offsets", err);
    int32_t *rind = xmalloc((size_t)g->nnz * sizeof *rind, "entries", err);
    double *rval = xmalloc((size_t)g->nnz * sizeof *rval, "log magnitudes", err);
    if (!rptr || !rind || !rval) {
        free(rptr);
        free(rind);
        free(rval);
        return COARSEN_ERR_NOMEM;
    }
    memcpy(rptr, g->rptr, ((size_t)g->rows + 1) * sizeof *rptr);
    memcpy(rind, g->rind, (size_t)g->nnz * sizeof *rind);
    double lo = INFINITY;
    for (int64_t e = 0; e < g->nnz; e++)
        if (g->rval[e] != 0 && log2(fabs(g->rval[e])) < lo)
            lo = log2(fabs(g->rval[e]));
    for (int64_t e = 0; e < g->nnz; e++)
        rval[e] = g->rval[e] != 0 ? log2(fabs(g->rval[e])) : (isfinite(lo) ? floor(lo) - 1 : -1);
    return bip_from_csr(g->rows, g->cols, rptr, rind, rval, out, err);
}

int bip_transversal(const bip_graph *g, bip_transversal_kind kind, int use_gpu, int32_t *col_perm,
                    bip_transversal_result *res, coarsen_error *err)
{
    int32_t *row_match = xmalloc(((size_t)g->rows + 1) * sizeof *row_match, "row matches", err);
    int32_t *col_match = xmalloc(((size_t)g->cols + 1) * sizeof *col_match, "column matches", err);
    int rc = row_match && col_match ? COARSEN_OK : COARSEN_ERR_NOMEM;
    bip_transversal_result r = {0};
    if (!rc && kind == BIP_TRANSVERSAL_WEIGHTED) {
        bip_graph *lg = NULL;
        bip_auction_result ar;
        rc = log_graph(g, &lg, err);
        if (!rc)
            rc = use_gpu ? bip_auction_gpu(lg, NULL, row_match, &ar, err) : bip_auction_cpu(lg, NULL, row_match, &ar, err);
        if (!rc) {
            r.log2_product = ar.total;
            r.proven_optimal = ar.proven_optimal;
            for (int32_t c = 0; c < g->cols; c++)
                col_match[c] = -1;
            for (int32_t i = 0; i < g->rows; i++)
                if (row_match[i] >= 0)
                    col_match[row_match[i]] = i;
        }
        bip_free(lg);
    } else if (!rc) {
        rc = bip_initial_matching(g, bip_default_init(use_gpu), row_match, col_match, err);
        if (!rc)
            rc = use_gpu ? bip_push_relabel_gpu(g, NULL, row_match, col_match, NULL, err)
                         : bip_push_relabel_cpu(g, NULL, row_match, col_match, NULL, err);
    }
    if (!rc)
        rc = bip_matching_check(g, row_match, col_match, &r.rank, err);
    char *placed = rc ? NULL : xcalloc((size_t)g->cols + 1, 1, "placed columns", err);
    if (!rc && !placed)
        rc = COARSEN_ERR_NOMEM;
    if (!rc) {
        for (int32_t pos = 0; pos < g->cols; pos++) {
            col_perm[pos] = pos < g->rows ? row_match[pos] : -1;
            if (col_perm[pos] >= 0)
                placed[col_perm[pos]] = 1;
        }
        for (int32_t pos = 0, next = 0; pos < g->cols; pos++)
            if (col_perm[pos] < 0) {
                while (placed[next])
                    next++;
                col_perm[pos] = next;
                placed[next++] = 1;
            }
        for (int32_t i = 0; i < g->rows && i < g->cols; i++) {
            r.diag_before += bip_find_entry(g, i, i) >= 0;
            r.diag_after += bip_find_entry(g, i, col_perm[i]) >= 0;
        }
        if (res)
            *res = r;
    }
    free(placed);
    free(row_match);
    free(col_match);
    return rc;
}

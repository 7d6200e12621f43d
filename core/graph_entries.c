/* graph_entries.c — coarsen_graph_from_entries (include/coarsen.h): a graph
 * from a matrix's entries held in the caller's memory (the Python package's
 * way in), checked entry by entry and built by core/graph_build.c with the
 * rules of a general Matrix Market file. */
#include "coarsen.h"
#include "core/error.h"
#include "core/graph_build.h"
#include "core/weight_sums.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The lowest entry whose ids leave [0, n) or whose weight is not finite, or
 * count when there is none (the same answer for any thread count). */
static int64_t first_bad_entry(int32_t n, int64_t count, const int32_t *row, const int32_t *col, const double *w)
{
    int64_t bad = count;
#pragma omp parallel for reduction(min : bad) if (count > 65536)
    for (int64_t e = 0; e < count; e++)
        if (row[e] < 0 || row[e] >= n || col[e] < 0 || col[e] >= n || (w && !isfinite(w[e])))
            bad = e < bad ? e : bad;
    return bad;
}

int coarsen_graph_from_entries(int32_t n, int64_t count, const int32_t *row, const int32_t *col, const double *w,
                               const int64_t *vwgt, coarsen_graph **out, coarsen_error *err)
{
    *out = NULL;
    if (n < 0 || count < 0)
        return error_set(err, COARSEN_ERR_INPUT, "negative size: %d vertices, %lld entries", n, (long long)count);
    if (count > 0 && (!row || !col))
        return error_set(err, COARSEN_ERR_INPUT, "entries without row or column ids");
    int64_t bad = first_bad_entry(n, count, row, col, w);
    if (bad < count) {
        if (w && !isfinite(w[bad]))
            return error_set(err, COARSEN_ERR_INPUT, "entry %lld (%d, %d): weight %g is not a finite number",
                             (long long)bad, row[bad], col[bad], w[bad]);
        return error_set(err, COARSEN_ERR_INPUT, "entry %lld: (%d, %d) is outside the %d x %d matrix", (long long)bad,
                         row[bad], col[bad], n, n);
    }
    for (int32_t v = 0; vwgt && v < n; v++)
        if (vwgt[v] < 0)
            return error_set(err, COARSEN_ERR_INPUT, "vertex %d: weight %lld is negative", v, (long long)vwgt[v]);

    double *ones = NULL;
    if (!w) {
        ones = xmalloc((size_t)count * sizeof *ones, "pattern weights", err);
        if (!ones)
            return COARSEN_ERR_NOMEM;
        for (int64_t e = 0; e < count; e++)
            ones[e] = 1.0;
    }
    /* graph_from_edges only reads the list: it borrows the caller's arrays. */
    edge_list e = {.count = count, .cap = count, .i = (int32_t *)row, .j = (int32_t *)col, .w = w ? (double *)w : ones};
    graph_build_opts o = {.mirrored = 0, .dup_rule = w ? MERGE_SUM : MERGE_MAX, .sym_rule = MERGE_MAX};
    coarsen_graph *g = NULL;
    int rc = graph_from_edges(n, &e, &o, &g, NULL, err);
    free(ones);
    if (rc)
        return rc;
    if (vwgt)
        memcpy(g->vwgt, vwgt, (size_t)n * sizeof *vwgt);
    if ((rc = graph_check_weight_sums("coarsen_graph_from_entries", g, err))) {
        coarsen_graph_free(g);
        return rc;
    }
    *out = g;
    return COARSEN_OK;
}

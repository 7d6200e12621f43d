/* assignment_exact_cpu.c — the exact solver of small assignment problems
 * (assignment.h), the auction's test oracle: the Hungarian method by
 * shortest augmenting paths with potentials (dense, O(n^2 m)) on the same
 * augmented problem as the auction: rows x (columns + private dummies of
 * benefit -B), absent entries forbidden. Integers throughout. */
#include "bipartite/assignment.h"
#include "core/error.h"

#include <stdlib.h>

int bip_assignment_exact(const bip_graph *g, int32_t *row_match, int64_t *cardinality, double *total,
                         coarsen_error *err)
{
    int32_t n = g->rows, m = g->rows + g->cols;
    if (!g->integral)
        return error_set(err, COARSEN_ERR_INPUT, "exact assignment: integer values only");
    if ((int64_t)n * m > (1 << 26))
        return error_set(err, COARSEN_ERR_INPUT, "exact assignment: %d x %d is too large (dense solver)", g->rows,
                         g->cols);
    int64_t hi = 0, lo = 0;
    for (int64_t e = 0; e < g->nnz; e++) {
        hi = (int64_t)g->rval[e] > hi ? (int64_t)g->rval[e] : hi;
        lo = (int64_t)g->rval[e] < lo ? (int64_t)g->rval[e] : lo;
    }
    const int64_t big = (int64_t)n * (hi - lo) + 1;           /* the dummy's cost */
    const int64_t forbid = 4 * ((int64_t)n + 1) * (big + hi - lo + 1); /* an absent entry's cost */
    const int64_t inf = INT64_MAX / 4;
    /* cost[i][j], minimised: -benefit of entries, big for the own dummy */
    int64_t *cost = xmalloc((size_t)n * (size_t)m * sizeof *cost, "exact assignment costs", err);
    int64_t *u = xcalloc((size_t)n + 1, sizeof *u, "potentials", err);
    int64_t *v = xcalloc((size_t)m + 1, sizeof *v, "potentials", err);
    int64_t *minv = xmalloc(((size_t)m + 1) * sizeof *minv, "slacks", err);
    int32_t *p = xcalloc((size_t)m + 1, sizeof *p, "column owners", err);
    int32_t *way = xcalloc((size_t)m + 1, sizeof *way, "paths", err);
    char *used = xmalloc((size_t)m + 1, "visited", err);
    int rc = cost && u && v && minv && p && way && used ? COARSEN_OK : COARSEN_ERR_NOMEM;
    if (!rc) {
        for (size_t k = 0; k < (size_t)n * (size_t)m; k++)
            cost[k] = forbid;
        for (int32_t i = 0; i < n; i++) {
            for (int64_t e = g->rptr[i]; e < g->rptr[i + 1]; e++)
                cost[(size_t)i * m + g->rind[e]] = -(int64_t)g->rval[e];
            cost[(size_t)i * m + g->cols + i] = big;
        }
        /* 1-based: p[j] = row (1..n) holding column j, p[0] the row being added */
        for (int32_t i = 1; i <= n; i++) {
            p[0] = i;
            int32_t j0 = 0;
            for (int32_t j = 0; j <= m; j++) {
                minv[j] = inf;
                used[j] = 0;
            }
            do {
                used[j0] = 1;
                int32_t i0 = p[j0], j1 = 0;
                int64_t delta = inf;
                for (int32_t j = 1; j <= m; j++)
                    if (!used[j]) {
                        int64_t cur = cost[(size_t)(i0 - 1) * m + (j - 1)] - u[i0] - v[j];
                        if (cur < minv[j]) {
                            minv[j] = cur;
                            way[j] = j0;
                        }
                        if (minv[j] < delta) {
                            delta = minv[j];
                            j1 = j;
                        }
                    }
                for (int32_t j = 0; j <= m; j++)
                    if (used[j]) {
                        u[p[j]] += delta;
                        v[j] -= delta;
                    } else
                        minv[j] -= delta;
                j0 = j1;
            } while (p[j0] != 0);
            do {
                int32_t j1 = way[j0];
                p[j0] = p[j1];
                j0 = j1;
            } while (j0);
        }
        int64_t card = 0;
        double sum = 0;
        for (int32_t i = 0; i < n; i++)
            row_match[i] = -1;
        for (int32_t j = 1; j <= g->cols; j++)
            if (p[j]) {
                int32_t i = p[j] - 1;
                int64_t c = cost[(size_t)i * m + (j - 1)];
                if (c == forbid) {
                    rc = error_set(err, COARSEN_ERR_INPUT, "exact assignment: internal error: absent entry used");
                    break;
                }
                row_match[i] = j - 1;
                card++;
                sum += (double)-c;
            }
        *cardinality = card;
        *total = sum;
    }
    free(cost);
    free(u);
    free(v);
    free(minv);
    free(p);
    free(way);
    free(used);
    return rc;
}

/* weight_sums.c — the check that a graph's weight totals fit their sums
 * (weight_sums.h). */
#include "core/weight_sums.h"
#include "core/error.h"

#include <math.h>

int graph_check_weight_sums(const char *name, const coarsen_graph *g, coarsen_error *err)
{
    int64_t vsum = 0;
    int over = 0;
    for (int32_t u = 0; u < g->n && !over; u++)
        over = __builtin_add_overflow(vsum, g->vwgt[u], &vsum);
    if (over)
        return error_set(err, COARSEN_ERR_INPUT,
                         "%s: the vertex weights add up to more than 2^63 - 1, which the sums of coarse vertices "
                         "need to hold: scale them down",
                         name);
    double esum = 0;
#pragma omp parallel for reduction(+ : esum) if (g->nnz > 65536)
    for (int64_t k = 0; k < g->nnz; k++)
        esum += g->ewgt[k];
    if (!isfinite(esum))
        return error_set(err, COARSEN_ERR_INPUT,
                         "%s: the edge weights add up to more than the largest double (1.8e308), which the sums of "
                         "coarse edges need to hold: scale them down",
                         name);
    return COARSEN_OK;
}

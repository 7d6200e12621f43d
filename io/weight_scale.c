/* weight_scale.c — the automatic weight scale (weight_scale.h). */
#include "io/weight_scale.h"

#include <math.h>

#include "core/error.h"

int weight_scale_auto(const coarsen_graph *g, double *scale, double *rel_error, coarsen_error *err)
{
    double total = 0, wmin = INFINITY;
    int whole = 1;
    for (int64_t k = 0; k < g->nnz; k++) {
        double w = g->ewgt[k];
        total += w;
        wmin = w < wmin ? w : wmin;
        whole = whole && w == floor(w);
    }
    total /= 2; /* every edge is stored twice */
    *scale = 1;
    *rel_error = 0;
    if (!g->nnz || (whole && wmin >= 1 && total <= 9.2e18))
        return COARSEN_OK;
    if (!(wmin > 0))
        return error_set(err, COARSEN_ERR_INPUT,
                         "an edge weighs 0, which no weight scale makes the positive integer METIS and ParHIP need: "
                         "--unit-weights writes every weight as 1, --format mtx keeps them as they are");
    int e = ilogb(WEIGHT_SCALE_TOTAL_MAX / total);
    double s = ldexp(1.0, e < 1000 ? e : 1000); /* a tiny total: the ratio may overflow */
    if (s * wmin < 1)
        return error_set(err, COARSEN_ERR_INPUT,
                         "no weight scale keeps the smallest edge weight (%.17g) at least 1 while the total (%.17g) "
                         "stays within %.0f: --unit-weights writes every weight as 1, --format mtx keeps them",
                         wmin, total, WEIGHT_SCALE_TOTAL_MAX);
    *scale = s;
    *rel_error = 0.5 / (s * wmin);
    return COARSEN_OK;
}

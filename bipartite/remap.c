/* remap.c — partition relabelling by the auction on the dense overlap
 * matrix (remap.h): rows = parts of b, columns = parts of a, value = shared
 * vertices. Every entry is present (zeros included), so a perfect assignment
 * exists and the auction's maximum-cardinality-first rule costs nothing. */
#include "bipartite/remap.h"
#include "bipartite/assignment.h"
#include "core/error.h"

#include <stdlib.h>

int bip_remap(const int32_t *a, const int32_t *b, int64_t n, int use_gpu, int32_t *out, bip_remap_result *res,
              coarsen_error *err)
{
    int32_t k = 0;
    for (int64_t v = 0; v < n; v++) {
        if (a[v] < 0 || b[v] < 0)
            return error_set(err, COARSEN_ERR_INPUT, "remap: vertex %lld has a negative label", (long long)v);
        if (a[v] >= k)
            k = a[v] + 1;
        if (b[v] >= k)
            k = b[v] + 1;
    }
    if ((int64_t)k * k >= (INT64_C(1) << 28))
        return error_set(err, COARSEN_ERR_INPUT, "remap: %d labels: the %d x %d overlap matrix is too large", k, k, k);
    int64_t kk = (int64_t)k * k;
    int64_t *rptr = xmalloc(((size_t)k + 1) * sizeof *rptr, "overlap offsets", err);
    int32_t *rind = xmalloc((size_t)kk * sizeof *rind, "overlap columns", err);
    double *rval = xcalloc((size_t)kk, sizeof *rval, "overlap counts", err);
    int32_t *map = xmalloc(((size_t)k + 1) * sizeof *map, "label map", err);
    if (!rptr || !rind || !rval || !map) {
        free(rptr);
        free(rind);
        free(rval);
        free(map);
        return COARSEN_ERR_NOMEM;
    }
    for (int32_t r = 0; r <= k; r++)
        rptr[r] = (int64_t)r * k;
    for (int64_t e = 0; e < kk; e++)
        rind[e] = (int32_t)(e % k);
    int64_t before = 0;
    for (int64_t v = 0; v < n; v++) {
        rval[(int64_t)b[v] * k + a[v]] += 1;
        before += a[v] == b[v];
    }
    bip_graph *g = NULL;
    bip_auction_result ar;
    int rc = bip_from_csr(k, k, rptr, rind, rval, &g, err);
    if (!rc)
        rc = use_gpu ? bip_auction_gpu(g, NULL, map, &ar, err) : bip_auction_cpu(g, NULL, map, &ar, err);
    if (!rc && !ar.perfect)
        rc = error_set(err, COARSEN_ERR_INPUT, "remap: internal error: the dense overlap matrix had no perfect assignment");
    if (!rc) {
        int64_t after = 0;
        for (int64_t v = 0; v < n; v++) {
            out[v] = map[b[v]];
            after += out[v] == a[v];
        }
        if (res)
            *res = (bip_remap_result){k, before, after, ar.proven_optimal};
    }
    bip_free(g);
    free(map);
    return rc;
}

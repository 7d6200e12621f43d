/* gen_assignment.c — assignment instances as in the published GPU auction
 * (assignment.h): a random permutation guarantees a perfect assignment,
 * every other entry is present with probability `density` (sparse rows are
 * drawn by geometric skips, so the cost is proportional to the entries),
 * integer benefits uniform in [1, max_benefit]. Counter-based hashing makes
 * the instance independent of the thread count. */
#include "bipartite/assignment.h"
#include "core/error.h"
#include "core/hash.h"

#include <math.h>
#include <stdlib.h>

/* Writes the columns of row i in increasing order (the permutation's column
 * pj included) into out when it is not NULL; returns their count. */
static int64_t row_entries(int32_t n, double density, uint64_t seed, int32_t i, int32_t pj, int32_t *out)
{
    int64_t count = 0;
    int have_pj = 0;
    if (density >= 0.25) {
        for (int32_t j = 0; j < n; j++)
            if (j == pj || hash_unit(hash3(seed, (uint64_t)i, (uint64_t)j)) < density) {
                if (out)
                    out[count] = j;
                count++;
            }
        return count;
    }
    double logq = log1p(-density);
    int64_t j = -1;
    for (uint64_t k = 0;; k++) {
        double u = 1.0 - hash_unit(hash3(seed, (uint64_t)i, k)); /* (0, 1] */
        j += 1 + (int64_t)floor(log(u) / logq);
        if (!have_pj && (j > pj || j >= n)) { /* insert the permutation's column in order */
            if (out)
                out[count] = pj;
            count++;
            have_pj = 1;
        }
        if (j >= n)
            break;
        if (j == pj)
            continue;
        if (out)
            out[count] = (int32_t)j;
        count++;
    }
    return count;
}

int bip_gen_assignment(int32_t n, double density, int64_t max_benefit, uint64_t seed, bip_graph **out,
                       coarsen_error *err)
{
    *out = NULL;
    if (n < 1 || !(density > 0 && density <= 1) || max_benefit < 1)
        return error_set(err, COARSEN_ERR_INPUT, "assignment generator: need n >= 1, density in (0, 1], max >= 1");
    int32_t *perm = xmalloc((size_t)n * sizeof *perm, "permutation", err);
    int64_t *rptr = xmalloc(((size_t)n + 1) * sizeof *rptr, "row offsets", err);
    if (!perm || !rptr) {
        free(perm);
        free(rptr);
        return COARSEN_ERR_NOMEM;
    }
    for (int32_t k = 0; k < n; k++)
        perm[k] = k;
    for (int32_t k = n - 1; k > 0; k--) {
        int32_t r = (int32_t)(hash3(seed, 0x9e3779b9u, (uint64_t)k) % (uint64_t)(k + 1));
        int32_t t = perm[k];
        perm[k] = perm[r];
        perm[r] = t;
    }
    const uint64_t eseed = hash_mix64(seed ^ 0x5851f42d4c957f2dULL);
    rptr[0] = 0;
#pragma omp parallel for schedule(dynamic, 64)
    for (int32_t i = 0; i < n; i++)
        rptr[i + 1] = row_entries(n, density, eseed, i, perm[i], NULL);
    for (int32_t i = 0; i < n; i++)
        rptr[i + 1] += rptr[i];
    int32_t *rind = xmalloc((size_t)rptr[n] * sizeof *rind, "entries", err);
    double *rval = xmalloc((size_t)rptr[n] * sizeof *rval, "benefits", err);
    if (!rind || !rval) {
        free(perm);
        free(rptr);
        free(rind);
        free(rval);
        return COARSEN_ERR_NOMEM;
    }
    const uint64_t vseed = hash_mix64(seed ^ 0x2545f4914f6cdd1dULL);
#pragma omp parallel for schedule(dynamic, 64)
    for (int32_t i = 0; i < n; i++) {
        row_entries(n, density, eseed, i, perm[i], rind + rptr[i]);
        for (int64_t e = rptr[i]; e < rptr[i + 1]; e++)
            rval[e] = (double)(1 + hash3(vseed, (uint64_t)i, (uint64_t)rind[e]) % (uint64_t)max_benefit);
    }
    free(perm);
    return bip_from_csr(n, n, rptr, rind, rval, out, err);
}

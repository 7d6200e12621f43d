/* metrics.c — the quality figures of a partition (cut, part weights,
 * imbalance), the balance cap, the validity check, and the fixed-point cut
 * on which refinement decides (partition/partition.h). */
#include "partition/partition.h"

#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/threads.h"
#include "partition/refine_util.h"

double partition_cut(const coarsen_graph *g, const int32_t *part)
{
    /* integer weights (every sum below 2^53) add up exactly in any order, so
     * only they are summed on all threads; real ones in CSR order */
    double cut = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : cut) \
    if (g->integral_weights && g->nnz >= THREADS_PARALLEL_MIN)
    for (int32_t v = 0; v < g->n; v++)
        for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
            if (g->adj[i] > v && part[g->adj[i]] != part[v])
                cut += g->ewgt[i];
    return cut;
}

void partition_part_weights(const coarsen_graph *g, const int32_t *part, int32_t k, int64_t *weights)
{
    for (int32_t p = 0; p < k; p++)
        weights[p] = 0;
    for (int32_t v = 0; v < g->n; v++)
        weights[part[v]] += g->vwgt[v];
}

int64_t partition_cap(const coarsen_graph *g, int32_t k, double imbalance)
{
    int64_t total = 0, wmax = 0;
    for (int32_t v = 0; v < g->n; v++) {
        total += g->vwgt[v];
        if (g->vwgt[v] > wmax)
            wmax = g->vwgt[v];
    }
    return partition_cap_of(total, wmax, k, imbalance);
}

int64_t partition_cap_of(int64_t total, int64_t wmax, int32_t k, double imbalance)
{
    int64_t metis = (int64_t)floor((1.0 + imbalance) * (double)total / k);
    int64_t reachable = (total + k - 1) / k + (wmax > 0 ? wmax - 1 : 0);
    return metis > reachable ? metis : reachable;
}

int partition_imbalance(const coarsen_graph *g, const int32_t *part, int32_t k, double *out, coarsen_error *err)
{
    int64_t total = 0, wmax = 0;
    int64_t *w = xcalloc((size_t)k, sizeof *w, "part weights", err);
    if (!w)
        return COARSEN_ERR_NOMEM;
    partition_part_weights(g, part, k, w);
    for (int32_t p = 0; p < k; p++) {
        total += w[p];
        if (w[p] > wmax)
            wmax = w[p];
    }
    free(w);
    *out = total ? (double)wmax * k / (double)total : 1.0;
    return COARSEN_OK;
}

int partition_check(const coarsen_graph *g, const int32_t *part, int32_t k, coarsen_error *err)
{
    for (int32_t v = 0; v < g->n; v++)
        if (part[v] < 0 || part[v] >= k)
            return error_set(err, COARSEN_ERR_INPUT, "vertex %d has part %d, not in 0..%d", v, part[v], k - 1);
    return 0;
}

int partition_fixed_shift(double max_edge_weight, int64_t nnz)
{
    /* every vertex's scaled external weight <= deg * max * 2^s, and their sum
     * <= nnz * max * 2^s < 2^62 */
    if (!(max_edge_weight > 0) || nnz <= 0)
        return 0;
    int bits = ilogb(max_edge_weight) + 1;
    for (int64_t m = nnz; m; m >>= 1)
        bits++;
    return 62 - bits;
}

int64_t partition_vertex_cut_fixed(const coarsen_graph *g, const int32_t *part, int32_t v, double scale)
{
    double ext = 0;
    for (int64_t i = g->xadj[v]; i < g->xadj[v + 1]; i++)
        if (part[g->adj[i]] != part[v])
            ext += g->ewgt[i];
    /* ext * 2^shift, both correctly rounded products of the same two
     * numbers, equals ldexp(ext, shift) (2^shift >= 2^-1026 is exact) */
    return llrint(ext * scale);
}

int64_t partition_cut_fixed(const coarsen_graph *g, const int32_t *part, int shift)
{
    /* a sum of integers: any order and thread count give the same */
    const double scale = ldexp(1.0, shift);
    int64_t sum = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : sum) if (g->nnz >= THREADS_PARALLEL_MIN)
    for (int32_t v = 0; v < g->n; v++)
        sum += partition_vertex_cut_fixed(g, part, v, scale);
    return sum;
}

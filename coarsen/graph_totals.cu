/* graph_totals.cu — device computation of a graph's weight totals
 * (graph_totals.h): two CUB reductions of the vertex weights, and the edge
 * weights' chunk sums in the fixed order of core/fixed_sum.h, added on the
 * host as there. */
#include <cub/device/device_reduce.cuh>

#include "coarsen/graph_totals.h"
#include "core/error.h"
#include "core/fixed_sum.h"
#include "device/cuda_check.cuh"
#include "device/halving_tree.cuh"

#include <stdlib.h>

/* Block c: chunk c of x[0..n) by fixed_sum.h's halving tree. */
__global__ void __launch_bounds__(FIXED_SUM_CHUNK / 2) chunk_sums_kernel(const double *x, int64_t n, double *sums)
{
    __shared__ double t[FIXED_SUM_CHUNK / 2];
    const int i = threadIdx.x;
    const int64_t a = (int64_t)blockIdx.x * FIXED_SUM_CHUNK + i, b = a + FIXED_SUM_CHUNK / 2;
    t[i] = (a < n ? x[a] : 0.0) + (b < n ? x[b] : 0.0); /* the tree's first level, s = CHUNK / 2 */
    const double sum = halving_tree_sum<FIXED_SUM_CHUNK / 2>(t);
    if (i == 0)
        sums[blockIdx.x] = sum;
}

static cudaError_t vwgt_sum(void *t, size_t &b, const coarsen_graph *g, int64_t *out)
{
    return cub::DeviceReduce::Sum(t, b, g->vwgt, out, (int64_t)g->n, device_stream());
}

static cudaError_t vwgt_max(void *t, size_t &b, const coarsen_graph *g, int64_t *out)
{
    return cub::DeviceReduce::Max(t, b, g->vwgt, out, (int64_t)g->n, device_stream());
}

extern "C" int graph_totals_gpu(const coarsen_graph *g, graph_totals *t, coarsen_error *err)
{
    t->vertex_weight = t->max_vertex_weight = 0;
    t->edge_weight = 0;
    if (g->n == 0)
        return COARSEN_OK;
    const int64_t chunks = fixed_sum_chunks(g->nnz);
    int64_t *d_int = nullptr;
    double *d_sums = nullptr;
    double *sums = (double *)malloc(((size_t)chunks + 1) * sizeof *sums);
    if (!sums)
        return error_set(err, COARSEN_ERR_NOMEM, "out of memory for %lld edge weight chunk sums", (long long)chunks);
    Workspace ws;
    ws.take(&d_int, 2);
    ws.take(&d_sums, (size_t)chunks + 1);
    int rc = ws.size_cub([&](void *tmp, size_t &b) { return vwgt_sum(tmp, b, g, nullptr); }, err);
    if (!rc)
        rc = ws.size_cub([&](void *tmp, size_t &b) { return vwgt_max(tmp, b, g, nullptr); }, err);
    if (!rc)
        rc = ws.carve("graph totals", err);
    if (!rc)
        rc = ws.run_cub([&](void *tmp, size_t &b) { return vwgt_sum(tmp, b, g, d_int); }, "vertex weight sum", err);
    if (!rc)
        rc = ws.run_cub([&](void *tmp, size_t &b) { return vwgt_max(tmp, b, g, d_int + 1); }, "vertex weight max", err);
    if (!rc && chunks > 0) {
        chunk_sums_kernel<<<(unsigned)chunks, FIXED_SUM_CHUNK / 2, 0, device_stream()>>>(g->ewgt, g->nnz, d_sums);
        const cudaError_t code = cudaGetLastError();
        if (code != cudaSuccess)
            rc = device_cuda_fail(err, code, "chunk_sums_kernel", __FILE__, __LINE__);
    }
    int64_t ints[2] = {0, 0};
    if (!rc)
        rc = device_copy_to_host(ints, d_int, sizeof ints, err);
    if (!rc && chunks > 0)
        rc = device_copy_to_host(sums, d_sums, (size_t)chunks * sizeof *sums, err);
    if (!rc) {
        t->vertex_weight = ints[0];
        t->max_vertex_weight = ints[1];
        t->edge_weight = fixed_sum_of_chunks(sums, chunks) / 2;
    }
    free(sums);
    return rc;
}

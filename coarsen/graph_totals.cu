/* graph_totals.cu — device computation of a graph's weight totals
 * (graph_totals.h): two CUB reductions of the vertex weights, and the edge
 * weights' chunk sums in the fixed order of core/fixed_sum.h, added on the
 * host as there; the two integers and the chunk sums come back in one copy. */
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
    /* [0] the vertex weight sum, [1] the largest, then the chunk sums (8-byte
     * doubles in int64 slots): one copy back */
    int64_t *d_out = nullptr;
    int64_t *out = (int64_t *)malloc(((size_t)chunks + 2) * sizeof *out);
    if (!out)
        return error_set(err, COARSEN_ERR_NOMEM, "out of memory for %lld edge weight chunk sums", (long long)chunks);
    Workspace ws;
    ws.take(&d_out, (size_t)chunks + 2);
    int rc = ws.size_cub([&](void *tmp, size_t &b) { return vwgt_sum(tmp, b, g, nullptr); }, err);
    if (!rc)
        rc = ws.size_cub([&](void *tmp, size_t &b) { return vwgt_max(tmp, b, g, nullptr); }, err);
    if (!rc)
        rc = ws.carve("graph totals", err);
    if (!rc)
        rc = ws.run_cub([&](void *tmp, size_t &b) { return vwgt_sum(tmp, b, g, d_out); }, "vertex weight sum", err);
    if (!rc)
        rc = ws.run_cub([&](void *tmp, size_t &b) { return vwgt_max(tmp, b, g, d_out + 1); }, "vertex weight max", err);
    if (!rc && chunks > 0) {
        chunk_sums_kernel<<<(unsigned)chunks, FIXED_SUM_CHUNK / 2, 0, device_stream()>>>(g->ewgt, g->nnz,
                                                                                         (double *)(d_out + 2));
        const cudaError_t code = cudaGetLastError();
        if (code != cudaSuccess)
            rc = device_cuda_fail(err, code, "chunk_sums_kernel", __FILE__, __LINE__);
    }
    if (!rc)
        rc = device_copy_to_host(out, d_out, ((size_t)chunks + 2) * sizeof *out, err);
    if (!rc) {
        t->vertex_weight = out[0];
        t->max_vertex_weight = out[1];
        t->edge_weight = fixed_sum_of_chunks((const double *)(out + 2), chunks) / 2;
    }
    free(out);
    return rc;
}

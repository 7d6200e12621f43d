/* graph_totals.cu — device computation of a graph's weight totals
 * (graph_totals.h) in one kernel: each block reduces its chunk of the edge
 * weights in the fixed order of core/fixed_sum.h (the chunk sums added on
 * the host as there) and its share of the vertex weights, whose sum (exact:
 * integers) and largest value it adds atomically; the two integers and the
 * chunk sums come back in one copy. */
#include <cub/block/block_reduce.cuh>

#include "coarsen/graph_totals.h"
#include "core/error.h"
#include "core/fixed_sum.h"
#include "device/cuda_check.cuh"
#include "device/halving_tree.cuh"

#include <stdlib.h>

enum { TOTALS_THREADS = FIXED_SUM_CHUNK / 2 };

/* A vertex weight as an unsigned key of the same order (the sign bit
 * flipped), so that an unsigned atomic maximum from 0 is the signed one. */
__device__ __forceinline__ unsigned long long order_key(int64_t w)
{
    return (unsigned long long)w ^ (1ull << 63);
}

/* Block c < chunks: chunk c of x[0..nnz) by fixed_sum.h's halving tree into
 * sums[c]. Every block: the vertex weights at its grid-stride positions,
 * their sum added to *vsum and their largest order_key maxed into *vmax
 * (both zeroed before). */
__global__ void __launch_bounds__(TOTALS_THREADS)
totals_kernel(const double *x, int64_t nnz, int64_t chunks, const int64_t *vwgt, int32_t n,
              unsigned long long *vsum, unsigned long long *vmax, double *sums)
{
    typedef cub::BlockReduce<unsigned long long, TOTALS_THREADS> Reduce;
    __shared__ union {
        double tree[TOTALS_THREADS];
        typename Reduce::TempStorage reduce;
    } sh;
    const int i = threadIdx.x;
    if (blockIdx.x < chunks) { /* block-uniform */
        const int64_t a = (int64_t)blockIdx.x * FIXED_SUM_CHUNK + i, b = a + TOTALS_THREADS;
        sh.tree[i] = (a < nnz ? x[a] : 0.0) + (b < nnz ? x[b] : 0.0); /* the tree's first level */
        const double sum = halving_tree_sum<TOTALS_THREADS>(sh.tree);
        if (i == 0)
            sums[blockIdx.x] = sum;
        __syncthreads(); /* the tree's storage is the reductions' */
    }
    unsigned long long s = 0, m = 0;
    for (int64_t v = (int64_t)blockIdx.x * TOTALS_THREADS + i; v < n; v += (int64_t)gridDim.x * TOTALS_THREADS) {
        s += (unsigned long long)vwgt[v];
        m = max(m, order_key(vwgt[v]));
    }
    s = Reduce(sh.reduce).Sum(s);
    __syncthreads();
    m = Reduce(sh.reduce).Reduce(m, ::cuda::maximum<>());
    if (i == 0) {
        if (s)
            atomicAdd(vsum, s);
        atomicMax(vmax, m);
    }
}

extern "C" int graph_totals_gpu(const coarsen_graph *g, graph_totals *t, coarsen_error *err)
{
    t->vertex_weight = t->max_vertex_weight = 0;
    t->edge_weight = 0;
    if (g->n == 0)
        return COARSEN_OK;
    const int64_t chunks = fixed_sum_chunks(g->nnz);
    /* blocks: one per chunk, and enough for the vertices at eight per thread */
    const int64_t vblocks = ((int64_t)g->n + 8 * TOTALS_THREADS - 1) / (8 * TOTALS_THREADS);
    const int64_t blocks = chunks > vblocks ? chunks : vblocks;
    /* [0] the vertex weight sum, [1] the largest (as order_key), then the
     * chunk sums (8-byte doubles in 8-byte slots): one copy back */
    unsigned long long *d_out = nullptr;
    unsigned long long *out = (unsigned long long *)malloc(((size_t)chunks + 2) * sizeof *out);
    if (!out)
        return error_set(err, COARSEN_ERR_NOMEM, "out of memory for %lld edge weight chunk sums", (long long)chunks);
    Workspace ws;
    ws.take(&d_out, (size_t)chunks + 2);
    int rc = ws.carve("graph totals", err);
    if (!rc) {
        const cudaError_t code = cudaMemsetAsync(d_out, 0, 2 * sizeof *d_out, device_stream());
        if (code != cudaSuccess)
            rc = device_cuda_fail(err, code, "cudaMemsetAsync", __FILE__, __LINE__);
    }
    if (!rc) {
        totals_kernel<<<(unsigned)blocks, TOTALS_THREADS, 0, device_stream()>>>(
            g->ewgt, g->nnz, chunks, g->vwgt, g->n, d_out, d_out + 1, (double *)(d_out + 2));
        const cudaError_t code = cudaGetLastError();
        if (code != cudaSuccess)
            rc = device_cuda_fail(err, code, "totals_kernel", __FILE__, __LINE__);
    }
    if (!rc)
        rc = device_copy_to_host(out, d_out, ((size_t)chunks + 2) * sizeof *out, err);
    if (!rc) {
        t->vertex_weight = (int64_t)out[0];
        t->max_vertex_weight = (int64_t)(out[1] ^ (1ull << 63));
        t->edge_weight = fixed_sum_of_chunks((const double *)(out + 2), chunks) / 2;
    }
    free(out);
    return rc;
}

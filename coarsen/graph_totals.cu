/* graph_totals.cu — device computation of a graph's weight totals
 * (graph_totals.h) in one kernel: each warp reduces chunks of the edge
 * weights in the fixed order of core/fixed_sum.h (the chunk sums added on
 * the host as there) and every thread its share of the vertex weights,
 * whose sum (exact: integers) and largest value each block adds
 * atomically; the two integers and the chunk sums come back in one copy. */
#include <cub/block/block_reduce.cuh>

#include "coarsen/graph_totals.h"
#include "core/error.h"
#include "core/fixed_sum.h"
#include "device/cuda_check.cuh"

#include <stdlib.h>

enum {
    TOTALS_THREADS = 256,
    TOTALS_WARPS = TOTALS_THREADS / 32,
    TOTALS_HALF = FIXED_SUM_CHUNK / 2,  /* the tree's first level */
    TOTALS_PER_LANE = TOTALS_HALF / 32, /* first-level entries a lane holds */
};

/* A vertex weight as an unsigned key of the same order (the sign bit
 * flipped), so that an unsigned atomic maximum from 0 is the signed one. */
__device__ __forceinline__ unsigned long long order_key(int64_t w)
{
    return (unsigned long long)w ^ (1ull << 63);
}

/* Chunk c of x[0..nnz) by fixed_sum.h's halving tree, by one warp (every
 * lane calls it; lane 0 gets the sum): lane l holds the first level's
 * entries t = l + 32 j (x[t] + x[t + HALF], past the end 0.0), so that a
 * level s >= 32 adds entries t and t + s of one lane, in its registers (j
 * and j + s / 32), and the levels s = 16..1 go by shuffles (lane t adds
 * lane t + s's value): the tree's additions, in its order. */
__device__ __forceinline__ double chunk_tree_warp(const double *x, int64_t nnz, int64_t c)
{
    const int lane = (int)(threadIdx.x % 32);
    const double *y = x + c * FIXED_SUM_CHUNK + lane;
    const int64_t left = nnz - c * FIXED_SUM_CHUNK - lane; /* y[i] is x's for i < left */
    double v[TOTALS_PER_LANE];
    if (left >= FIXED_SUM_CHUNK) { /* a whole chunk: no bounds to test */
#pragma unroll
        for (int j = 0; j < TOTALS_PER_LANE; j++)
            v[j] = y[32 * j] + y[32 * j + TOTALS_HALF];
    } else {
#pragma unroll
        for (int j = 0; j < TOTALS_PER_LANE; j++) {
            const int64_t a = 32 * j, b = a + TOTALS_HALF;
            v[j] = (a < left ? y[a] : 0.0) + (b < left ? y[b] : 0.0);
        }
    }
#pragma unroll
    for (int off = TOTALS_PER_LANE / 2; off > 0; off /= 2)
#pragma unroll
        for (int j = 0; j < TOTALS_PER_LANE / 2; j++)
            if (j < off)
                v[j] = v[j] + v[j + off];
    double sum = v[0];
#pragma unroll
    for (int s = 16; s > 0; s /= 2)
        sum = sum + __shfl_down_sync(0xffffffffu, sum, s);
    return sum;
}

/* Chunks c < chunks of x[0..nnz), one warp each (grid stride), into
 * sums[c]. Every thread: the vertex weights at its grid-stride positions,
 * their sum added to *vsum and their largest order_key maxed into *vmax
 * (both zeroed before), one atomic each per block. */
__global__ void __launch_bounds__(TOTALS_THREADS)
totals_kernel(const double *x, int64_t nnz, int64_t chunks, const int64_t *vwgt, int32_t n,
              unsigned long long *vsum, unsigned long long *vmax, double *sums)
{
    typedef cub::BlockReduce<unsigned long long, TOTALS_THREADS> Reduce;
    __shared__ typename Reduce::TempStorage reduce;
    const int64_t warps = (int64_t)gridDim.x * TOTALS_WARPS;
    for (int64_t c = ((int64_t)blockIdx.x * TOTALS_THREADS + threadIdx.x) / 32; c < chunks; c += warps) {
        const double sum = chunk_tree_warp(x, nnz, c); /* the loop is warp-uniform */
        if (threadIdx.x % 32 == 0)
            sums[c] = sum;
    }
    const int i = threadIdx.x;
    unsigned long long s = 0, m = 0;
    for (int64_t v = (int64_t)blockIdx.x * TOTALS_THREADS + i; v < n; v += (int64_t)gridDim.x * TOTALS_THREADS) {
        s += (unsigned long long)vwgt[v];
        m = max(m, order_key(vwgt[v]));
    }
    s = Reduce(reduce).Sum(s);
    __syncthreads();
    m = Reduce(reduce).Reduce(m, ::cuda::maximum<>());
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
    /* blocks: a warp per chunk, and enough for the vertices at eight per thread */
    const int64_t cblocks = (chunks + TOTALS_WARPS - 1) / TOTALS_WARPS;
    const int64_t vblocks = ((int64_t)g->n + 8 * TOTALS_THREADS - 1) / (8 * TOTALS_THREADS);
    const int64_t blocks = cblocks > vblocks ? cblocks : vblocks;
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

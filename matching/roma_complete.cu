/* roma_complete.cu — the complete-graph mode on the GPU (roma_complete.h):
 * a block per vertex c; when c is the smaller end of its matched edge the
 * block's threads scan x = t, t + B, ... with row u of the gain
 * (roma_complete_aug.h) staged in shared memory, and cub::BlockReduce takes
 * the best flip under the total order (gain desc, x asc), so the result
 * equals the replay's sequential scan. Thread 0 writes
 * the candidate (4 vertices); roma_gpu.cuh runs the claim rounds exactly as
 * for sparse graphs. */
#include <cub/block/block_reduce.cuh>

#include "matching/roma_complete.h"
#include "matching/roma_complete_aug.h"
#include "matching/roma_gpu.cuh"

constexpr int FLIP_BLOCK = 1024;
constexpr int32_t FLIP_TILE = 45056; /* floats of row u in shared memory (176 KiB): n = 90 112 in two passes */

struct FlipBest {
    double gain;
    int32_t x; /* -1: none */
};

struct FlipMax {
    __device__ __forceinline__ FlipBest operator()(const FlipBest &a, const FlipBest &b) const
    {
        return edge_better(b.gain, b.x, a.gain, a.x) ? b : a;
    }
};

static __global__ void __launch_bounds__(ROMA_BLOCK) dense_mw_kernel(const float *w, int32_t n, const int32_t *mate,
                                                                     double *mw)
{
    const int64_t v = (int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x;
    if (v < n)
        mw[v] = (double)w[v * n + mate[v]];
}

/* Grid: one block per vertex. Non-centres and centres whose turn is done
 * leave kind ROMA_NONE (the whole block returns together, before any
 * barrier). The gain of x reads w(v, x)
 * along row v (coalesced) and w(u, mate x), a gather: row u is staged in
 * shared memory a tile of columns at a time, and each pass over x folds the
 * x whose mate falls in the tile (every x in exactly one pass), so the
 * gather never leaves the SM. The fold is the same total order as
 * roma_flip_scan's, so the order of x does not matter. */
static __global__ void __launch_bounds__(FLIP_BLOCK)
    flip_eval_kernel(const float *w, int32_t n, const int32_t *mate, const double *mw, const uint8_t *done,
                     double eps, int32_t tile, roma_aug *aug)
{
    extern __shared__ float wu[]; /* tile entries of row u */
    using Reduce = cub::BlockReduce<FlipBest, FLIP_BLOCK>;
    __shared__ typename Reduce::TempStorage temp;
    const int32_t c = (int32_t)blockIdx.x, u = mate[c];
    if (u < c || !roma_turn_pending(done, c, u)) {
        if (threadIdx.x == 0) {
            roma_aug a;
            roma_aug_none(&a, c, u);
            aug[c] = a;
        }
        return;
    }
    const float *rv = w + (int64_t)c * n, *ru = w + (int64_t)u * n;
    const double mwc = mw[c];
    FlipBest b{0.0, -1};
    for (int32_t y0 = 0; y0 < n; y0 += tile) {
        const int32_t len = n - y0 < tile ? n - y0 : tile;
        __syncthreads(); /* the last tile is consumed */
        for (int32_t k = (int32_t)threadIdx.x; k < len; k += FLIP_BLOCK)
            wu[k] = ru[y0 + k];
        __syncthreads();
#pragma unroll 4
        for (int32_t x = (int32_t)threadIdx.x; x < n; x += FLIP_BLOCK) {
            const int32_t y = mate[x];
            if ((uint32_t)(y - y0) >= (uint32_t)len || x == c || x == u)
                continue;
            /* roma_flip_gain's sum, left to right */
            double gx = (double)rv[x] + (double)wu[y - y0] - mwc - mw[x];
            if (edge_better(gx, x, b.gain, b.x))
                b = FlipBest{gx, x};
        }
    }
    b = Reduce(temp).Reduce(b, FlipMax());
    if (threadIdx.x == 0) {
        roma_aug a;
        roma_flip_aug(w, n, mate, mw, c, b.x, b.gain, eps, &a);
        aug[c] = a;
    }
}

extern "C" int roma_complete_gpu(int32_t n, const float *d_w, const roma_opts *opts, int32_t *d_mate,
                                 roma_stats *stats, coarsen_error *err)
{
    int rc = roma_opts_check(opts, err);
    if (rc)
        return rc;
    if (n % 2)
        return error_set(err, COARSEN_ERR_INPUT, "complete-graph ROMA needs an even vertex count, got %d", n);
    memset(stats, 0, sizeof *stats);
    RomaWork w;
    if ((rc = w.alloc(n, err)))
        return rc;
    if (n > 0) {
        dense_mw_kernel<<<roma_blocks(n, ROMA_BLOCK), ROMA_BLOCK>>>(d_w, n, d_mate, w.mw);
        CUDA_LAUNCH_TRY(err);
    }
    const int32_t most = opts->dense_tile > 0 && opts->dense_tile < FLIP_TILE ? opts->dense_tile : FLIP_TILE;
    const int32_t tile = n < most ? (n > 0 ? n : 1) : most;
    const size_t shared = (size_t)tile * sizeof(float);
    CUDA_TRY(err, cudaFuncSetAttribute(flip_eval_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
    auto eval = [&](coarsen_error *e) -> int {
        flip_eval_kernel<<<(unsigned)n, FLIP_BLOCK, shared>>>(d_w, n, d_mate, w.mw, w.done, opts->eps, tile,
                                                              w.aug);
        CUDA_LAUNCH_TRY(e);
        return COARSEN_OK;
    };
    return roma_gpu_phases(w, n, opts, d_mate, eval, stats, err);
}

/* roma_complete.cu — the complete-graph mode on the GPU (roma_complete.h):
 * a block per vertex c; when c is the smaller end of its matched edge the
 * block's threads scan x = t, t + B, ... (roma_complete_aug.h) and
 * cub::BlockReduce takes the best flip under the total order (gain desc, x
 * asc), so the result equals the replay's sequential scan. Thread 0 writes
 * the candidate (4 vertices); roma_gpu.cuh runs the claim rounds exactly as
 * for sparse graphs. */
#include <cub/block/block_reduce.cuh>

#include "matching/roma_complete.h"
#include "matching/roma_complete_aug.h"
#include "matching/roma_gpu.cuh"

constexpr int FLIP_BLOCK = 256;

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

/* Grid: one block per vertex. Non-centres leave kind ROMA_NONE (the whole
 * block returns together, before any barrier). */
static __global__ void __launch_bounds__(FLIP_BLOCK)
    flip_eval_kernel(const float *w, int32_t n, const int32_t *mate, const double *mw, double eps, roma_aug *aug,
                     RomaCounts *counts)
{
    using Reduce = cub::BlockReduce<FlipBest, FLIP_BLOCK>;
    __shared__ typename Reduce::TempStorage temp;
    const int32_t c = (int32_t)blockIdx.x, u = mate[c];
    if (u < c) {
        if (threadIdx.x == 0) {
            roma_aug a;
            roma_aug_none(&a, c, u);
            aug[c] = a;
        }
        return;
    }
    FlipBest b{0.0, -1};
    roma_flip_scan(w, n, mate, mw, c, u, (int32_t)threadIdx.x, FLIP_BLOCK, &b.gain, &b.x);
    b = Reduce(temp).Reduce(b, FlipMax());
    if (threadIdx.x == 0) {
        roma_aug a;
        roma_flip_aug(w, n, mate, mw, c, b.x, b.gain, eps, &a);
        aug[c] = a;
        if (a.kind != ROMA_NONE)
            atomicAdd(&counts->candidates, 1ull);
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
    auto eval = [&](coarsen_error *e) -> int {
        flip_eval_kernel<<<(unsigned)n, FLIP_BLOCK>>>(d_w, n, d_mate, w.mw, opts->eps, w.aug, w.counts);
        CUDA_LAUNCH_TRY(e);
        return COARSEN_OK;
    };
    return roma_gpu_phases(w, n, opts, d_mate, eval, stats, err);
}

/* roma.cu — ROMA on the GPU for sparse graphs (roma.h), phase for phase the
 * rule of roma_replay_cpu.c with the same inline evaluation (roma_aug.h):
 * a thread per centre computes its best augmentation on the matching at
 * phase start (cycles by binary search in the mate's sorted row);
 * roma_gpu.cuh runs the claim rounds and sums the gains. */
#include "matching/roma_gpu.cuh"

static __global__ void __launch_bounds__(ROMA_BLOCK) roma_mw_kernel(roma_state S, int32_t n, double *mw)
{
    const int64_t v = (int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x;
    if (v >= n)
        return;
    double w = 0.0;
    const int32_t m = S.mate[v];
    if (m >= 0)
        roma_find_edge(&S, (int32_t)v, m, &w);
    mw[v] = w;
}

static __global__ void __launch_bounds__(ROMA_BLOCK)
    roma_eval_kernel(roma_state S, int32_t n, int integral, double eps, roma_aug *aug, RomaCounts *counts)
{
    const int64_t i = (int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x;
    unsigned cand = 0;
    if (i < n) {
        const int32_t c = (int32_t)i, m = S.mate[c];
        roma_aug a;
        if (m >= 0 && m < c)
            roma_aug_none(&a, c, m);
        else
            roma_best_aug(&S, c, nullptr, &a);
        if (!roma_accept(&a, integral, eps))
            a.kind = ROMA_NONE;
        aug[c] = a;
        cand = a.kind != ROMA_NONE;
    }
    roma_count(cand, &counts->candidates);
}

extern "C" int roma_gpu(const coarsen_graph *g, const roma_opts *opts, int32_t *d_mate, roma_stats *stats,
                        coarsen_error *err)
{
    if (!g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "roma_gpu needs a device graph");
    int rc = roma_opts_check(opts, err);
    if (rc)
        return rc;
    memset(stats, 0, sizeof *stats);
    const int32_t n = g->n;
    RomaWork w;
    if ((rc = w.alloc(n, err)))
        return rc;
    const roma_state S = {g->xadj, g->adj, g->ewgt, g->vwgt, d_mate, w.mw, opts->max_vertex_weight};
    const unsigned grid = roma_blocks(n, ROMA_BLOCK);
    if (n > 0) {
        roma_mw_kernel<<<grid, ROMA_BLOCK>>>(S, n, w.mw);
        CUDA_LAUNCH_TRY(err);
    }
    auto eval = [&](coarsen_error *e) -> int {
        roma_eval_kernel<<<grid, ROMA_BLOCK>>>(S, n, g->integral_weights, opts->eps, w.aug, w.counts);
        CUDA_LAUNCH_TRY(e);
        return COARSEN_OK;
    };
    return roma_gpu_phases(w, n, opts, d_mate, eval, stats, err);
}

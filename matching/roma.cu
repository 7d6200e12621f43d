/* roma.cu — ROMA on the GPU for sparse graphs (roma.h), phase for phase the
 * rule of roma_replay_cpu.c with the same inline evaluation (roma_aug.h):
 * a thread per centre computes its best augmentation on the matching at
 * phase start (cycles by binary search in the mate's sorted row); centres
 * whose two rows hold ROMA_HEAVY_ENTRIES or more (listed by CUB each phase)
 * get a warp instead, which merges per-lane top-three arms and best cycles
 * into exactly the candidate the thread would pick; roma_gpu.cuh runs the
 * claim rounds and sums the gains. */
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

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

constexpr int64_t ROMA_HEAVY_ENTRIES = 128; /* deg(c) + deg(mate c) from which a warp evaluates c */

__device__ __forceinline__ bool roma_heavy(const roma_state &S, int32_t c)
{
    const int32_t m = S.mate[c];
    int64_t d = S.xadj[c + 1] - S.xadj[c];
    if (m >= 0)
        d += S.xadj[m + 1] - S.xadj[m];
    return d >= ROMA_HEAVY_ENTRIES;
}

/* Centres (free vertices, smaller ends of matched edges) that a warp evaluates. */
struct HeavyCentre {
    roma_state S;
    __device__ __forceinline__ bool operator()(int32_t c) const
    {
        const int32_t m = S.mate[c];
        return (m < 0 || m > c) && roma_heavy(S, c);
    }
};

static __global__ void __launch_bounds__(ROMA_BLOCK)
    roma_eval_kernel(roma_state S, int32_t n, int integral, double eps, roma_aug *aug, RomaCounts *counts)
{
    const int64_t i = (int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x;
    unsigned cand = 0;
    if (i < n) {
        const int32_t c = (int32_t)i, m = S.mate[c];
        roma_aug a;
        if (m >= 0 && m < c) {
            roma_aug_none(&a, c, m);
            aug[c] = a;
        } else if (!roma_heavy(S, c)) { /* heavy centres: roma_eval_heavy_kernel */
            roma_best_aug(&S, c, nullptr, &a);
            if (!roma_accept(&a, integral, eps))
                a.kind = ROMA_NONE;
            aug[c] = a;
            cand = a.kind != ROMA_NONE;
        }
    }
    roma_count(cand, &counts->candidates);
}

/* The top three arms of side s (excluding other) over the whole warp: each
 * lane folds its stride of the row, then a butterfly merges the lanes' lists
 * (disjoint sets each step; the top three under the arms' total order are
 * unique, so every lane ends with roma_side_arms's result). */
__device__ void roma_warp_arms(const roma_state &S, int32_t s, int32_t other, int lane, roma_arm *t)
{
    roma_arms_clear(t);
    for (int64_t e = S.xadj[s] + lane; e < S.xadj[s + 1]; e += 32)
        roma_arm_fold(&S, s, other, e, t);
    for (int off = 16; off > 0; off >>= 1) {
        roma_arm o[3];
        for (int i = 0; i < 3; i++) {
            o[i].a = __shfl_xor_sync(0xffffffffu, t[i].a, off);
            o[i].w = __shfl_xor_sync(0xffffffffu, t[i].w, off);
            o[i].id = __shfl_xor_sync(0xffffffffu, t[i].id, off);
        }
        for (int i = 0; i < 3; i++)
            roma_top3_push(t, o[i]);
    }
}

/* A warp per heavy centre (the list and its length on the device): the
 * candidates of roma_best_aug, cycles spread over the lanes and the best
 * one (gain desc, x asc: kind and y are fixed for a cycle) merged by
 * shuffles; lane 0 offers them all in roma_best_aug's order. */
static __global__ void __launch_bounds__(ROMA_BLOCK)
    roma_eval_heavy_kernel(roma_state S, const int32_t *heavy, const unsigned long long *count, int integral,
                           double eps, roma_aug *aug, RomaCounts *counts)
{
    const int lane = threadIdx.x & 31;
    const int64_t warps = (int64_t)gridDim.x * (ROMA_BLOCK / 32), nh = (int64_t)*count;
    for (int64_t k = ((int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x) / 32; k < nh; k += warps) {
        const int32_t v = heavy[k], u = S.mate[v];
        const double w0 = u >= 0 ? S.mw[v] : 0.0;
        roma_arm tv[3], tu[3];
        roma_warp_arms(S, v, u, lane, tv);
        roma_arms_clear(tu);
        if (u >= 0)
            roma_warp_arms(S, u, v, lane, tu);
        double cg = 0.0, cw = 0.0, cu = 0.0;
        int32_t cx = -1; /* this lane's best cycle: gain, x, w(v,x), w(u,y) */
        if (u >= 0)
            for (int64_t e = S.xadj[v] + lane; e < S.xadj[v + 1]; e += 32) {
                int32_t x = S.adj[e], y;
                if (x == u || (y = S.mate[x]) < 0 || !roma_pair_ok(&S, v, x) || !roma_pair_ok(&S, u, y))
                    continue;
                double wuy = 0.0;
                if (!roma_find_edge(&S, u, y, &wuy))
                    continue;
                double g = roma_cycle_gain(&S, x, w0, S.ewgt[e], wuy);
                if (cx < 0 || g > cg || (g == cg && x < cx))
                    cg = g, cx = x, cw = S.ewgt[e], cu = wuy;
            }
        for (int off = 16; off > 0; off >>= 1) {
            double og = __shfl_xor_sync(0xffffffffu, cg, off), ow = __shfl_xor_sync(0xffffffffu, cw, off),
                   ou = __shfl_xor_sync(0xffffffffu, cu, off);
            int32_t ox = __shfl_xor_sync(0xffffffffu, cx, off);
            if (ox >= 0 && (cx < 0 || og > cg || (og == cg && ox < cx)))
                cg = og, cx = ox, cw = ow, cu = ou;
        }
        unsigned cand = 0;
        if (lane == 0) {
            roma_aug best, c;
            roma_aug_none(&best, v, u);
            roma_offer_arms(&S, v, u, w0, tv, tu, &best);
            if (cx >= 0) {
                roma_aug_none(&c, v, u);
                roma_cycle(&S, cx, w0, cw, cu, &c);
                roma_offer(&best, &c);
            }
            if (!roma_accept(&best, integral, eps))
                best.kind = ROMA_NONE;
            aug[v] = best;
            cand = best.kind != ROMA_NONE;
        }
        if (lane == 0 && cand)
            atomicAdd(&counts->candidates, 1ull);
    }
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
    int32_t *heavy = nullptr;
    unsigned long long *nheavy = nullptr;
    if ((rc = dalloc(&heavy, (size_t)n + 1, "ROMA heavy centres", err)) ||
        (rc = dalloc(&nheavy, 1, "ROMA heavy count", err))) {
        device_free(heavy);
        return rc;
    }
    const unsigned heavy_grid = roma_blocks((int64_t)n * 32 < (1 << 22) ? (int64_t)n * 32 : (1 << 22), ROMA_BLOCK);
    auto eval = [&](coarsen_error *e) -> int {
        roma_eval_kernel<<<grid, ROMA_BLOCK>>>(S, n, g->integral_weights, opts->eps, w.aug, w.counts);
        CUDA_LAUNCH_TRY(e);
        thrust::counting_iterator<int32_t> all(0);
        HeavyCentre pred{S};
        if (int r = cub_run([&](void *t, size_t &b) {
                return cub::DeviceSelect::If(t, b, all, heavy, nheavy, (int64_t)n, pred);
            }, "ROMA heavy centres", e))
            return r;
        roma_eval_heavy_kernel<<<heavy_grid, ROMA_BLOCK>>>(S, heavy, nheavy, g->integral_weights, opts->eps, w.aug,
                                                           w.counts);
        CUDA_LAUNCH_TRY(e);
        return COARSEN_OK;
    };
    rc = roma_gpu_phases(w, n, opts, d_mate, eval, stats, err);
    device_free(heavy);
    device_free(nheavy);
    return rc;
}

/* roma.cu — ROMA on the GPU (roma.h), phase for phase the rule of
 * roma_replay_cpu.c with the same inline evaluation (roma_aug.h):
 * (1) eval: a thread per centre computes its best augmentation on the
 *     matching at phase start and, when accepted, atomicMax-es its key into
 *     the <= 6 vertices it touches (the maximum does not depend on timing);
 * (2) apply: a candidate holding the key of all its vertices applies itself
 *     (winners are vertex-disjoint; an augmentation stores every id it
 *     needs, so no thread reads a vertex another thread writes) and leaves
 *     its gain in gains[c];
 * (3) the gains are summed by the fixed chunk tree of roma_sum.h, and the
 *     counts and the sum come back in the phase's one copy. */
#include "device/cuda_check.cuh"
#include "matching/roma.h"
#include "matching/roma_aug.h"
#include "matching/roma_sum.h"
#include "core/error.h"
#include "core/timer.h"

#include <string.h>

constexpr int ROMA_BLOCK = 128;

/* What a phase brings back to the host. */
struct RomaCounts {
    unsigned long long candidates;
    unsigned long long applied;
    double gain;
};

static unsigned blocks_for(int64_t count, int block)
{
    return (unsigned)((count + block - 1) / block);
}

__global__ void __launch_bounds__(ROMA_BLOCK) roma_mw_kernel(roma_state S, int32_t n, double *mw)
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

__global__ void __launch_bounds__(ROMA_BLOCK)
    roma_eval_kernel(roma_state S, int32_t n, int integral, double eps, roma_aug *aug, unsigned long long *slot,
                     RomaCounts *counts)
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
        if (a.kind != ROMA_NONE) {
            int32_t t[6];
            const int k = roma_touched(&a, t);
            const unsigned long long key = roma_key(&a);
            for (int j = 0; j < k; j++)
                atomicMax(slot + t[j], key);
            cand = 1;
        }
    }
    cand = __reduce_add_sync(0xffffffffu, cand);
    if ((threadIdx.x & 31) == 0 && cand)
        atomicAdd(&counts->candidates, (unsigned long long)cand);
}

__global__ void __launch_bounds__(ROMA_BLOCK)
    roma_apply_kernel(const roma_aug *aug, const unsigned long long *slot, int32_t n, int32_t *mate, double *mw,
                      double *gains, RomaCounts *counts)
{
    const int64_t i = (int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x;
    unsigned app = 0;
    if (i < n) {
        const roma_aug a = aug[i];
        double gain = 0.0;
        if (a.kind != ROMA_NONE) {
            int32_t t[6];
            const int k = roma_touched(&a, t);
            const unsigned long long key = roma_key(&a);
            bool own = true;
            for (int j = 0; j < k; j++)
                own &= slot[t[j]] == key;
            if (own) {
                roma_apply(mate, mw, &a);
                gain = a.gain;
                app = 1;
            }
        }
        gains[i] = gain;
    }
    app = __reduce_add_sync(0xffffffffu, app);
    if ((threadIdx.x & 31) == 0 && app)
        atomicAdd(&counts->applied, (unsigned long long)app);
}

/* One level of roma_sum_fixed: out[b] = halving tree of in[b CHUNK ..). */
__global__ void __launch_bounds__(ROMA_SUM_CHUNK / 2) roma_sum_kernel(const double *in, int64_t n, double *out)
{
    __shared__ double x[ROMA_SUM_CHUNK / 2];
    const int t = threadIdx.x;
    const int64_t i0 = (int64_t)blockIdx.x * ROMA_SUM_CHUNK + t, i1 = i0 + ROMA_SUM_CHUNK / 2;
    const double a = i0 < n ? in[i0] : 0.0, b = i1 < n ? in[i1] : 0.0;
    x[t] = a + b; /* the tree's first level, s = CHUNK / 2 */
    __syncthreads();
    for (int s = ROMA_SUM_CHUNK / 4; s > 0; s >>= 1) {
        if (t < s)
            x[t] = x[t] + x[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = x[0];
}

struct RomaWork {
    double *mw = nullptr, *gains = nullptr, *level[2] = {nullptr, nullptr};
    roma_aug *aug = nullptr;
    unsigned long long *slot = nullptr;
    RomaCounts *counts = nullptr;
    ~RomaWork()
    {
        device_free(mw);
        device_free(gains);
        device_free(level[0]);
        device_free(level[1]);
        device_free(aug);
        device_free(slot);
        device_free(counts);
    }
};

/* counts->gain = roma_sum_fixed(gains[0..n)), levels ping-ponging. */
static int sum_gains(RomaWork &w, int64_t n, coarsen_error *err)
{
    if (n <= 1) {
        if (n == 1)
            CUDA_TRY(err, cudaMemcpyAsync(&w.counts->gain, w.gains, sizeof(double), cudaMemcpyDeviceToDevice, 0));
        return COARSEN_OK; /* n = 0: the zeroed counts hold 0 */
    }
    const double *in = w.gains;
    for (int k = 0; n > 1; k ^= 1) {
        const int64_t chunks = (n + ROMA_SUM_CHUNK - 1) / ROMA_SUM_CHUNK;
        double *out = chunks == 1 ? &w.counts->gain : w.level[k];
        roma_sum_kernel<<<(unsigned)chunks, ROMA_SUM_CHUNK / 2>>>(in, n, out);
        CUDA_LAUNCH_TRY(err);
        in = out;
        n = chunks;
    }
    return COARSEN_OK;
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
    const double t0 = timer_ms();
    const int32_t n = g->n;
    const size_t nlev = ((size_t)n + ROMA_SUM_CHUNK - 1) / ROMA_SUM_CHUNK + 1;
    RomaWork w;
    if ((rc = dalloc(&w.mw, (size_t)n, "ROMA matched weights", err)) ||
        (rc = dalloc(&w.gains, (size_t)n, "ROMA gains", err)) ||
        (rc = dalloc(&w.level[0], nlev, "ROMA gain sums", err)) ||
        (rc = dalloc(&w.level[1], nlev, "ROMA gain sums", err)) ||
        (rc = dalloc(&w.aug, (size_t)n, "ROMA candidates", err)) ||
        (rc = dalloc(&w.slot, (size_t)n, "ROMA conflict keys", err)) ||
        (rc = dalloc(&w.counts, 1, "ROMA counts", err)))
        return rc;
    const roma_state S = {g->xadj, g->adj, g->ewgt, g->vwgt, d_mate, w.mw, opts->max_vertex_weight};
    const unsigned grid = blocks_for(n, ROMA_BLOCK);
    if (n > 0) {
        roma_mw_kernel<<<grid, ROMA_BLOCK>>>(S, n, w.mw);
        CUDA_LAUNCH_TRY(err);
    }
    for (int p = 0; p < opts->max_phases; p++) {
        CUDA_TRY(err, cudaMemsetAsync(w.counts, 0, sizeof *w.counts, 0));
        if (n > 0) {
            CUDA_TRY(err, cudaMemsetAsync(w.slot, 0, (size_t)n * sizeof *w.slot, 0));
            roma_eval_kernel<<<grid, ROMA_BLOCK>>>(S, n, g->integral_weights, opts->eps, w.aug, w.slot, w.counts);
            CUDA_LAUNCH_TRY(err);
            roma_apply_kernel<<<grid, ROMA_BLOCK>>>(w.aug, w.slot, n, d_mate, w.mw, w.gains, w.counts);
            CUDA_LAUNCH_TRY(err);
            if ((rc = sum_gains(w, n, err)))
                return rc;
        }
        RomaCounts h;
        CUDA_TRY(err, cudaMemcpy(&h, w.counts, sizeof h, cudaMemcpyDeviceToHost));
        roma_phase_stats *ps = &stats->phase[p];
        ps->candidates = (int64_t)h.candidates;
        ps->applied = (int64_t)h.applied;
        ps->gain = h.gain;
        stats->phases = p + 1;
        if (h.applied == 0)
            break;
    }
    CUDA_TRY(err, cudaDeviceSynchronize());
    stats->ms = timer_ms() - t0;
    return COARSEN_OK;
}

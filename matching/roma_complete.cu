/* roma_complete.cu — the complete-graph mode on the GPU (roma_complete.h):
 * each pass lists the live centres (smaller ends of matched edges whose
 * turn is pending) and gives each a block, whose threads scan x = t, t + B, ... with row u of the gain
 * (roma_complete_aug.h) staged in shared memory, and cub::BlockReduce takes
 * the best flip under the total order (gain desc, x asc), so the result
 * equals the replay's sequential scan. Thread 0 writes
 * the candidate (4 vertices); roma_gpu.cuh runs the claim rounds exactly as
 * for sparse graphs. */
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cub/block/block_reduce.cuh>
#include <math.h>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

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

/* The scan's per-x inputs, one 8-byte load: mate[x] and mw[x] as a float
 * (exact: mw[x] is a matrix entry, a float widened to double). */
static __global__ void __launch_bounds__(ROMA_BLOCK) pack_mates_kernel(const int32_t *mate, const double *mw,
                                                                       int32_t n, int2 *packed)
{
    const int64_t x = (int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x;
    if (x < n)
        packed[x] = make_int2(mate[x], __float_as_int((float)mw[x]));
}

/* The centres to evaluate in a pass: smaller ends of matched edges with a
 * pending turn, listed with CUB (one block each, so a pass after the first
 * launches only the centres still in play). */
struct LiveCentre {
    const int32_t *mate;
    const uint8_t *done;
    __device__ __forceinline__ bool operator()(int32_t c) const
    {
        const int32_t u = mate[c];
        return u > c && roma_turn_pending(done, c, u);
    }
};

struct LiveList {
    int32_t *ids = nullptr;
    unsigned long long *count = nullptr;
    int2 *packed = nullptr; /* pack_mates_kernel's output */
    ~LiveList()
    {
        device_free(ids);
        device_free(count);
        device_free(packed);
    }
    int alloc(int32_t n, coarsen_error *err)
    {
        int rc = dalloc(&ids, (size_t)n + 1, "ROMA live centres", err);
        if (!rc)
            rc = dalloc(&packed, (size_t)n + 1, "ROMA packed mates", err);
        return rc ? rc : dalloc(&count, 1, "ROMA live count", err);
    }
    /* The selection, called as CUB wants it: (temp, bytes) then the arguments. */
    cudaError_t choose(void *t, size_t &b, int32_t n, const int32_t *mate, const uint8_t *done, cudaStream_t stream)
    {
        thrust::counting_iterator<int32_t> all(0);
        return cub::DeviceSelect::If(t, b, all, ids, count, (int64_t)n, LiveCentre{mate, done}, stream);
    }
    CubScratch scratch;
    int reserve(int32_t n, const int32_t *mate, const uint8_t *done, coarsen_error *err)
    {
        return scratch.reserve([&](void *t, size_t &b) { return choose(t, b, n, mate, done, device_stream()); },
                               "ROMA live centres", err);
    }
    /* Lists the live centres into ids and their number into *count, on
     * stream (after reserve). */
    cudaError_t select(int32_t n, const int32_t *mate, const uint8_t *done, cudaStream_t stream)
    {
        return choose(scratch.p, scratch.bytes, n, mate, done, stream);
    }
};

/* Grid: as many blocks as fit on the device at once, each evaluating the
 * listed centres live[b], live[b + grid], ... below *count (a pass late in
 * a phase has few; roma_turn_kernel sets the others' kind to ROMA_NONE). The gain of x reads w(v, x)
 * along row v (coalesced) and w(u, mate x), a gather: row u is staged in
 * shared memory a tile of columns at a time (asynchronous copies), and each pass over x folds the
 * x whose mate falls in the tile (every x in exactly one pass), so the
 * gather never leaves the SM; mate[x] and mw[x] come packed in one load.
 * The fold is the same total order as roma_flip_scan's, so the order of x
 * does not matter. */
static __global__ void __launch_bounds__(FLIP_BLOCK)
    flip_eval_kernel(const float *w, int32_t n, const int32_t *mate, const double *mw, const int2 *packed,
                     const int32_t *live, const unsigned long long *count, double eps, int32_t tile, roma_aug *aug)
{
    extern __shared__ float wu[]; /* tile entries of row u */
    using Reduce = cub::BlockReduce<FlipBest, FLIP_BLOCK>;
    __shared__ typename Reduce::TempStorage temp;
    const cooperative_groups::thread_block block = cooperative_groups::this_thread_block();
    const int64_t live_count = (int64_t)*count;
    for (int64_t k = blockIdx.x; k < live_count; k += gridDim.x) { /* the whole block together */
        const int32_t c = live[k], u = mate[c];
        const float *rv = w + (int64_t)c * n, *ru = w + (int64_t)u * n;
        const double mwc = mw[c];
        /* the thread's best under edge_better's order, branch-free: -inf and
         * id -1 stand for none (every finite gain beats -inf) */
        double bg = -INFINITY;
        int32_t bx = -1;
        for (int32_t y0 = 0; y0 < n; y0 += tile) {
            const int32_t len = n - y0 < tile ? n - y0 : tile;
            __syncthreads(); /* the last tile (and the last reduction) is consumed */
            cooperative_groups::memcpy_async(block, wu, ru + y0, sizeof(float) * (size_t)len);
            cooperative_groups::wait(block); /* also a barrier */
#pragma unroll 4 /* branch-free, 44 registers: one block per SM, loads in flight */
            for (int32_t x = (int32_t)threadIdx.x; x < n; x += FLIP_BLOCK) {
                const int2 p = packed[x];
                const uint32_t k = (uint32_t)(p.x - y0);
                const bool ok = (k < (uint32_t)len) & (x != c) & (x != u);
                const float wvx = ok ? rv[x] : 0.0f, wuy = ok ? wu[k] : 0.0f;
                /* roma_flip_gain's sum, left to right */
                const double gx = (double)wvx + (double)wuy - mwc - (double)__int_as_float(p.y);
                const bool better = ok & ((gx > bg) | ((gx == bg) & (x < bx)));
                bg = better ? gx : bg;
                bx = better ? x : bx;
            }
        }
        FlipBest b{bx >= 0 ? bg : 0.0, bx};
        b = Reduce(temp).Reduce(b, FlipMax());
        if (threadIdx.x == 0) {
            roma_aug a;
            roma_flip_aug(w, n, mate, mw, c, b.x, b.gain, eps, &a);
            aug[c] = a;
        }
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
        dense_mw_kernel<<<roma_blocks(n, ROMA_BLOCK), ROMA_BLOCK, 0, device_stream()>>>(d_w, n, d_mate, w.mw);
        CUDA_LAUNCH_TRY(err);
    }
    const int32_t most = opts->dense_tile > 0 && opts->dense_tile < FLIP_TILE ? opts->dense_tile : FLIP_TILE;
    const int32_t tile = n < most ? (n > 0 ? n : 1) : most;
    const size_t shared = (size_t)tile * sizeof(float);
    CUDA_TRY(err, cudaFuncSetAttribute(flip_eval_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
    int per_sm = 0, sms = 0, dev = 0;
    CUDA_TRY(err, cudaGetDevice(&dev));
    CUDA_TRY(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_TRY(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flip_eval_kernel, FLIP_BLOCK, shared));
    const int64_t resident = (int64_t)(per_sm > 0 ? per_sm : 1) * sms;
    const unsigned eval_grid = (unsigned)(n / 2 < resident ? (n / 2 > 0 ? n / 2 : 1) : resident);
    LiveList live;
    if ((rc = live.alloc(n, err)) || (rc = live.reserve(n, d_mate, w.done, err)))
        return rc;
    auto eval = [&](cudaStream_t s, coarsen_error *e) -> int {
        CUDA_TRY(e, live.select(n, d_mate, w.done, s));
        pack_mates_kernel<<<roma_blocks(n, ROMA_BLOCK), ROMA_BLOCK, 0, s>>>(d_mate, w.mw, n, live.packed);
        CUDA_LAUNCH_TRY(e);
        flip_eval_kernel<<<eval_grid, FLIP_BLOCK, shared, s>>>(
            d_w, n, d_mate, w.mw, live.packed, live.ids, live.count, opts->eps, tile, w.aug);
        CUDA_LAUNCH_TRY(e);
        return COARSEN_OK;
    };
    return roma_gpu_phases(w, n, opts, d_mate, eval, stats, err);
}

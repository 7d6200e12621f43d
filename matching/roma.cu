/* roma.cu — ROMA on the GPU for sparse graphs (roma.h), phase for phase the
 * rule of roma_replay_cpu.c with the same inline evaluation (roma_aug.h):
 * a thread per centre with a pending turn computes its best augmentation
 * on the current matching (cycles by binary search in the mate's sorted row); centres
 * whose two rows hold ROMA_WARP_ENTRIES or more (listed by one CUB
 * three-way partition each pass) get a warp instead, from
 * ROMA_BLOCK_ENTRIES a block, which merge per-lane
 * top-three arms and best cycles into exactly the candidate the thread
 * would pick; roma_gpu.cuh runs the claim rounds and sums the gains. */
#include <cub/device/device_partition.cuh>
#include <thrust/iterator/discard_iterator.h>
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

constexpr int64_t ROMA_WARP_ENTRIES = 128;   /* deg(c) + deg(mate c) from which a warp evaluates c */
constexpr int64_t ROMA_BLOCK_ENTRIES = 8192; /* ... and from which a block of ROMA_BIG_BLOCK threads does */
constexpr int ROMA_BIG_BLOCK = 512;

__device__ __forceinline__ int64_t roma_rows_entries(const roma_state &S, int32_t c)
{
    const int32_t m = S.mate[c];
    int64_t d = S.xadj[c + 1] - S.xadj[c];
    if (m >= 0)
        d += S.xadj[m + 1] - S.xadj[m];
    return d;
}

/* 1 for a centre (a free vertex, or the smaller end of a matched edge)
 * with a pending turn. */
__device__ __forceinline__ bool roma_live_centre(const roma_state &S, const uint8_t *done, int32_t c)
{
    const int32_t m = S.mate[c];
    return (m < 0 || m > c) && roma_turn_pending(done, c, m);
}

/* 1 for a live centre whose two rows hold lo <= entries < hi. */
struct HeavyCentre {
    roma_state S;
    const uint8_t *done;
    int64_t lo, hi;
    __device__ __forceinline__ bool operator()(int32_t c) const
    {
        const int64_t d = roma_rows_entries(S, c);
        return roma_live_centre(S, done, c) && d >= lo && d < hi;
    }
};

static __global__ void __launch_bounds__(ROMA_BLOCK)
    roma_eval_kernel(roma_state S, const uint8_t *done, int32_t n, int integral, double eps, roma_aug *aug)
{
    const int64_t i = (int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x;
    if (i >= n)
        return;
    const int32_t c = (int32_t)i;
    roma_aug a;
    /* others: roma_turn_kernel clears them; heavy ones: roma_eval_group_kernel */
    if (roma_live_centre(S, done, c) && roma_rows_entries(S, c) < ROMA_WARP_ENTRIES) {
        roma_best_aug(&S, c, nullptr, &a);
        if (!roma_accept(&a, integral, eps))
            a.kind = ROMA_NONE;
        aug[c] = a;
    }
}

/* A lane's best cycle: gain, x, w(v,x), w(u,y); x = -1 none. Order: gain
 * desc, x asc (kind and y are fixed for a cycle of v). */
struct CycleBest {
    double g, wvx, wuy;
    int32_t x;
};

__device__ __forceinline__ void cycle_offer(CycleBest &b, const CycleBest &o)
{
    if (o.x >= 0 && (b.x < 0 || o.g > b.g || (o.g == b.g && o.x < b.x)))
        b = o;
}

/* Merges the 32 lanes' top-three arms and best cycles by a butterfly
 * (disjoint sets each step; the results under the total orders are unique,
 * so every lane ends with the warp's). */
__device__ void roma_warp_merge(roma_arm *tv, roma_arm *tu, CycleBest &cb)
{
    for (int off = 16; off > 0; off >>= 1) {
        roma_arm o[6];
        for (int i = 0; i < 6; i++) {
            const roma_arm &t = i < 3 ? tv[i] : tu[i - 3];
            o[i].a = __shfl_xor_sync(0xffffffffu, t.a, off);
            o[i].w = __shfl_xor_sync(0xffffffffu, t.w, off);
            o[i].id = __shfl_xor_sync(0xffffffffu, t.id, off);
        }
        for (int i = 0; i < 3; i++) {
            roma_top3_push(tv, o[i]);
            roma_top3_push(tu, o[i + 3]);
        }
        CycleBest oc;
        oc.g = __shfl_xor_sync(0xffffffffu, cb.g, off);
        oc.wvx = __shfl_xor_sync(0xffffffffu, cb.wvx, off);
        oc.wuy = __shfl_xor_sync(0xffffffffu, cb.wuy, off);
        oc.x = __shfl_xor_sync(0xffffffffu, cb.x, off);
        cycle_offer(cb, oc);
    }
}

/* LANES threads per heavy centre (32: a warp, of ROMA_BLOCK-thread blocks;
 * ROMA_BIG_BLOCK: the whole block), over the list heavy[0 .. *count): the
 * candidates of roma_best_aug with the rows split over the lanes, per-lane
 * top-three arms and best cycles merged by warp butterflies and, in a block,
 * through shared memory; the first thread offers them in roma_best_aug's
 * order (a total order: the same candidate whatever the split). */
template <int LANES>
static __global__ void __launch_bounds__(LANES == 32 ? ROMA_BLOCK : LANES)
    roma_eval_group_kernel(roma_state S, const int32_t *heavy, const unsigned long long *count, int integral,
                           double eps, roma_aug *aug)
{
    constexpr int THREADS = LANES == 32 ? ROMA_BLOCK : LANES, GROUPS = THREADS / LANES, WARPS = LANES / 32;
    __shared__ roma_arm sh_arms[WARPS][6];
    __shared__ CycleBest sh_cycle[WARPS];
    const int lane = threadIdx.x % LANES, warp = lane / 32;
    const int64_t nh = (int64_t)*count;
    for (int64_t k = (int64_t)blockIdx.x * GROUPS + threadIdx.x / LANES; k < nh; k += (int64_t)gridDim.x * GROUPS) {
        const int32_t v = heavy[k], u = S.mate[v];
        const double w0 = u >= 0 ? S.mw[v] : 0.0;
        roma_arm tv[3], tu[3];
        CycleBest cb{0.0, 0.0, 0.0, -1};
        roma_arms_clear(tv);
        roma_arms_clear(tu);
        for (int64_t e = S.xadj[v] + lane; e < S.xadj[v + 1]; e += LANES)
            roma_arm_fold(&S, v, u, e, tv);
        if (u >= 0) {
            for (int64_t e = S.xadj[u] + lane; e < S.xadj[u + 1]; e += LANES)
                roma_arm_fold(&S, u, v, e, tu);
            for (int64_t e = S.xadj[v] + lane; e < S.xadj[v + 1]; e += LANES) {
                int32_t x = S.adj[e], y;
                if (x == u || (y = S.mate[x]) < 0 || !roma_pair_ok(&S, v, x) || !roma_pair_ok(&S, u, y))
                    continue;
                double wuy = 0.0;
                if (roma_find_edge(&S, u, y, &wuy))
                    cycle_offer(cb, CycleBest{roma_cycle_gain(&S, x, w0, S.ewgt[e], wuy), S.ewgt[e], wuy, x});
            }
        }
        roma_warp_merge(tv, tu, cb);
        if (WARPS > 1) { /* the block: warp results through shared memory, merged in warp order */
            if (lane % 32 == 0) {
                for (int i = 0; i < 3; i++)
                    sh_arms[warp][i] = tv[i], sh_arms[warp][i + 3] = tu[i];
                sh_cycle[warp] = cb;
            }
            __syncthreads();
            if (lane == 0)
                for (int w = 1; w < WARPS; w++) {
                    for (int i = 0; i < 3; i++) {
                        roma_top3_push(tv, sh_arms[w][i]);
                        roma_top3_push(tu, sh_arms[w][i + 3]);
                    }
                    cycle_offer(cb, sh_cycle[w]);
                }
            __syncthreads(); /* shared memory is reused by the next centre */
        }
        if (lane != 0)
            continue;
        roma_aug best, c;
        roma_aug_none(&best, v, u);
        roma_offer_arms(&S, v, u, w0, tv, tu, &best);
        if (u >= 0 && cb.x >= 0) {
            roma_aug_none(&c, v, u);
            roma_cycle(&S, cb.x, w0, cb.wvx, cb.wuy, &c);
            roma_offer(&best, &c);
        }
        if (!roma_accept(&best, integral, eps))
            best.kind = ROMA_NONE;
        aug[v] = best;
    }
}

/* The centres a warp and a block evaluate, listed in one pass each phase:
 * ids[0] (warp centres) and ids[1] (block centres), their lengths count[0]
 * and count[1]. */
struct HeavyLists {
    int32_t *ids[2] = {nullptr, nullptr};
    unsigned long long *count = nullptr;
    ~HeavyLists()
    {
        device_free(ids[0]);
        device_free(ids[1]);
        device_free(count);
    }
    int alloc(int32_t n, coarsen_error *err)
    {
        int rc = dalloc(&ids[0], (size_t)n + 1, "ROMA warp centres", err);
        if (!rc)
            rc = dalloc(&ids[1], (size_t)n + 1, "ROMA block centres", err);
        return rc ? rc : dalloc(&count, 2, "ROMA heavy counts", err);
    }
    /* The partition, called as CUB wants it: (temp, bytes) then the arguments. */
    cudaError_t partition(void *t, size_t &b, int32_t n, const roma_state &S, const uint8_t *done, cudaStream_t stream)
    {
        thrust::counting_iterator<int32_t> all(0);
        const HeavyCentre warp{S, done, ROMA_WARP_ENTRIES, ROMA_BLOCK_ENTRIES},
            block{S, done, ROMA_BLOCK_ENTRIES, INT64_MAX};
        return cub::DevicePartition::If(t, b, all, ids[0], ids[1], thrust::make_discard_iterator(), count,
                                        (int64_t)n, warp, block, stream);
    }
    CubScratch scratch;
    int reserve(int32_t n, const roma_state &S, const uint8_t *done, coarsen_error *err)
    {
        return scratch.reserve([&](void *t, size_t &b) { return partition(t, b, n, S, done, device_stream()); },
                               "ROMA heavy centres", err);
    }
    /* Lists both groups' centres on stream (after reserve). */
    cudaError_t select(int32_t n, const roma_state &S, const uint8_t *done, cudaStream_t stream)
    {
        return partition(scratch.p, scratch.bytes, n, S, done, stream);
    }
};

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
        roma_mw_kernel<<<grid, ROMA_BLOCK, 0, device_stream()>>>(S, n, w.mw);
        CUDA_LAUNCH_TRY(err);
    }
    HeavyLists heavy;
    if ((rc = heavy.alloc(n, err)) || (rc = heavy.reserve(n, S, w.done, err)))
        return rc;
    const int64_t most = n; /* centres a group size may get at most */
    const unsigned warp_grid = roma_blocks(most < 8192 ? most * 32 : 8192 * 32, ROMA_BLOCK), /* <= 2048 blocks */
        block_grid = (unsigned)(most < 256 ? most : 256);
    auto eval = [&](cudaStream_t s, coarsen_error *e) -> int {
        roma_eval_kernel<<<grid, ROMA_BLOCK, 0, s>>>(S, w.done, n, g->integral_weights, opts->eps, w.aug);
        CUDA_LAUNCH_TRY(e);
        CUDA_TRY(e, heavy.select(n, S, w.done, s));
        roma_eval_group_kernel<32><<<warp_grid, ROMA_BLOCK, 0, s>>>(S, heavy.ids[0], heavy.count,
                                                                    g->integral_weights, opts->eps, w.aug);
        CUDA_LAUNCH_TRY(e);
        roma_eval_group_kernel<ROMA_BIG_BLOCK><<<block_grid > 0 ? block_grid : 1, ROMA_BIG_BLOCK, 0, s>>>(
            S, heavy.ids[1], heavy.count + 1, g->integral_weights, opts->eps, w.aug);
        CUDA_LAUNCH_TRY(e);
        return COARSEN_OK;
    };
    return roma_gpu_phases(w, n, opts, d_mate, eval, stats, err);
}

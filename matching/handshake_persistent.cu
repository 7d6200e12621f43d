/* handshake_persistent.cu — the handshake matcher in one cooperative launch
 * for graphs of at most a few hundred thousand vertices, where the
 * multi-launch version (handshake.cu) waits more than it works: every pass
 * there is a handful of launches, three compactions and a copy to the host
 * to learn whether another pass is due. Here the grid runs pass after pass
 * and decides on the device (grid-wide barriers between the steps), and the
 * host learns the pass count, the first pass's matches and whether the
 * matching is maximal in one copy at the end.
 *
 * Pass for pass the same as handshake.cu and handshake_cpu.c: the vertices
 * active in a pass are all of them in the first, then those unmatched with a
 * live pointer; (1) each active vertex points to its best eligible unmatched
 * neighbour under opts' rating (a warp per vertex, the row reduced under
 * edge_order.h's total order with match_gpu.cuh's PointerOp), (2) v matches iff ptr[ptr[v]] == v.
 * A function of the state at the pass's start, so the same mates, pointers
 * and counts. */
#include <cooperative_groups.h>

#include "matching/match_gpu.cuh"

namespace cg = cooperative_groups;

constexpr int PERSIST_BLOCK = 512;

/* Device counters: the active count after pass p in slot p & 1, the
 * matched vertices of the first pass, the passes run. */
struct PersistCounters {
    unsigned long long active[2];
    unsigned long long first_matched;
    unsigned long long matched;
    int passes;
};

__global__ void __launch_bounds__(PERSIST_BLOCK)
    handshake_persistent_kernel(MatchGraph G, tie_rule ties, int rating, int64_t cap, int max_passes, int32_t *mate,
                                int32_t *ptr, uint8_t *alive, int32_t *strongest, PersistCounters *c)
{
    cg::grid_group grid = cg::this_grid();
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t nthreads = (int64_t)gridDim.x * blockDim.x;
    const int lane = (int)(threadIdx.x & 31);
    const int64_t warp = tid >> 5, nwarps = nthreads >> 5;
    int pass = 0;
    for (;; pass++) {
        if ((max_passes > 0 && pass >= max_passes) || (pass > 0 && c->active[(pass - 1) & 1] == 0))
            break;
        if (tid == 0)
            c->active[pass & 1] = 0; /* read last before the barriers of the previous pass */
        const PointerOp op{ties, pass ? mate : nullptr, G.vwgt, cap, ptr, alive, rating, nullptr};
        for (int64_t i = warp; i < G.n; i += nwarps) {
            const int32_t v = (int32_t)i;
            if (pass > 0 && !(mate[v] < 0 && alive[v])) /* warp-uniform */
                continue;
            const PointerOp::Ctx ctx = op.prepare(v);
            RowBest b{0.0, -1, -1, 0};
            row_scan(G, op, ctx, v, G.xadj[v] + lane, G.xadj[v + 1], 32, b);
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) {
                RowBest o;
                o.key = __shfl_xor_sync(0xffffffffu, b.key, off);
                o.rank = __shfl_xor_sync(0xffffffffu, b.rank, off);
                o.id = __shfl_xor_sync(0xffffffffu, b.id, off);
                o.live = __shfl_xor_sync(0xffffffffu, b.live, off);
                b = RowBestMax()(b, o);
            }
            if (lane == 0)
                op.finish(v, ctx, b);
        }
        grid.sync();
        if (pass == 0 && strongest)
            for (int64_t v = tid; v < G.n; v += nthreads)
                strongest[v] = ptr[v];
        /* (2): an active vertex whose pointer step found nothing has ptr -1,
         * so testing the pointer step's alive flag selects the same pairs */
        unsigned add = 0;
        for (int64_t v = tid; v < G.n; v += nthreads) {
            const int32_t p = ptr[v];
            if (mate[v] < 0 && alive[v] && p >= 0 && ptr[p] == (int32_t)v) {
                mate[v] = p;
                add++;
            }
        }
        add = __reduce_add_sync(0xffffffffu, add);
        if (lane == 0 && add)
            atomicAdd(&c->matched, (unsigned long long)add);
        grid.sync();
        unsigned left = 0;
        for (int64_t v = tid; v < G.n; v += nthreads)
            left += mate[v] < 0 && alive[v];
        left = __reduce_add_sync(0xffffffffu, left);
        if (lane == 0 && left)
            atomicAdd(&c->active[pass & 1], (unsigned long long)left);
        if (pass == 0 && tid == 0)
            c->first_matched = c->matched;
        grid.sync();
    }
    if (tid == 0)
        c->passes = pass;
}

/* The vertex count up to which handshake_gpu uses this launch when
 * opts->gpu_persistent_max is 0 (measured on the H100: docs/benchmarks.md). */
constexpr int64_t PERSIST_DEFAULT_MAX = (int64_t)1 << 18;

bool handshake_persistent_fits(const coarsen_graph *g, const matching_opts *opts)
{
    int64_t most = opts->gpu_persistent_max == 0 ? PERSIST_DEFAULT_MAX : opts->gpu_persistent_max;
    return g->n > 0 && (int64_t)g->n <= most;
}

/* The blocks of the kernel that fit on the device at once (a cooperative
 * launch may not ask for more): asked of the driver once per process, not
 * on every level. */
static int coresident_blocks(int64_t *out, coarsen_error *err)
{
    static int64_t cached = 0;
    if (!cached) {
        int dev = 0, sms = 0, per_sm = 0;
        CUDA_TRY(err, cudaGetDevice(&dev));
        CUDA_TRY(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CUDA_TRY(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, handshake_persistent_kernel,
                                                                    PERSIST_BLOCK, 0));
        cached = (int64_t)sms * (per_sm > 0 ? per_sm : 1);
    }
    *out = cached;
    return COARSEN_OK;
}

int handshake_persistent_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
                             matching_stats *stats, coarsen_error *err)
{
    const MatchGraph G = match_graph(g);
    const size_t n = (size_t)g->n;
    int64_t most = 0;
    if (int rc = coresident_blocks(&most, err))
        return rc;
    const int64_t want = ((int64_t)n * 32 + PERSIST_BLOCK - 1) / PERSIST_BLOCK; /* a warp per vertex */
    unsigned blocks = (unsigned)(want < most ? want : most);
    int32_t *ptr = nullptr;
    uint8_t *alive = nullptr;
    PersistCounters *d_c = nullptr;
    Workspace ws;
    ws.take(&ptr, n);
    ws.take(&alive, n);
    ws.take(&d_c, 1);
    int rc = ws.carve("one-launch matcher temporaries", err);
    if (!rc) {
        CUDA_TRY(err, cudaMemsetAsync(d_mate, 0xff, n * sizeof *d_mate, device_stream()));
        CUDA_TRY(err, cudaMemsetAsync(ptr, 0xff, n * sizeof *ptr, device_stream()));
        CUDA_TRY(err, cudaMemsetAsync(alive, 1, n, device_stream()));
        CUDA_TRY(err, cudaMemsetAsync(d_c, 0, sizeof *d_c, device_stream()));
        tie_rule ties = match_ties(opts);
        int rating = (int)opts->rating;
        int64_t cap = opts->max_vertex_weight;
        int max_passes = opts->max_passes;
        void *args[] = {(void *)&G, &ties, &rating, &cap, &max_passes, &d_mate, &ptr, &alive, &d_strongest, &d_c};
        CUDA_TRY(err, cudaLaunchCooperativeKernel((void *)handshake_persistent_kernel, blocks, PERSIST_BLOCK, args,
                                                  0, device_stream()));
        PersistCounters h;
        CUDA_TRY(err, stream_copy(&h, d_c, sizeof h, cudaMemcpyDeviceToHost));
        stats->passes = h.passes;
        stats->first_round_fraction = h.passes > 0 ? (double)(int64_t)h.first_matched / (double)n : 0.0;
        stats->maximal = h.passes > 0 && h.active[(h.passes - 1) & 1] == 0;
    }
    return rc;
}

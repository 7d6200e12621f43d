/* match_gpu.cuh — the device machinery the GPU matchers share (CUDA C++,
 * included by handshake.cu, redblue.cu, match_gpu.cu, hec.cu and two_hop.cu
 * only):
 *  - row reductions: for each vertex of an active list, scan its row, let an
 *    Op judge every neighbour (live? candidate with which key?) and reduce to
 *    the best candidate under edge_order.h's total order plus an OR of
 *    liveness. Light vertices get W lanes each, medium ones a warp (both
 *    reduce with shuffles), heavy ones a block (cub::BlockReduce). The order
 *    is total, so the result is a pure function of the state at kernel start,
 *    whatever W, block size or degree cut-offs;
 *  - active lists: vertices still in play, split once by degree into the
 *    three classes and compacted after every pass with cub::DeviceSelect, the
 *    three counts and the matched-vertex counter coming back in one copy;
 *  - select_counted: a stable selection whose count comes to the host.
 *
 * An Op provides: tie_rule ties (edge_order.h); a trivially constructible Ctx; Ctx prepare(v); bool
 * scans(ctx) (false: skip the row); int visit(ctx, v, u, const double *w,
 * double &key) returning VISIT_LIVE | VISIT_CAND bits (reading *w only when
 * it needs the weight); void finish(v, ctx, const RowBest &best), called once
 * per vertex. */
#ifndef MATCHING_MATCH_GPU_CUH
#define MATCHING_MATCH_GPU_CUH

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_select.cuh>

#include "device/cuda_check.cuh"
#include "matching/edge_order.h"
#include "matching/matching.h"

/* The device graph's arrays, by value for kernels. */
struct MatchGraph {
    const int64_t *xadj;
    const int32_t *adj;
    const double *ewgt;
    const int64_t *vwgt;
    int32_t n;
    int64_t nnz;
};

static inline MatchGraph match_graph(const coarsen_graph *g)
{
    return MatchGraph{g->xadj, g->adj, g->ewgt, g->vwgt, g->n, g->nnz};
}

/* Launch shape: lanes per light vertex (degree <= medium_degree), a warp per
 * medium vertex, a block of HEAVY_BLOCK threads per heavy vertex (degree >
 * heavy_degree). */
struct MatchShape {
    int width;
    int64_t medium_degree;
    int64_t heavy_degree;
};
constexpr int ROWS_BLOCK = 256;   /* threads per block of the light kernels */
constexpr int HEAVY_BLOCK = 256;  /* threads per heavy vertex */

/* opts' shape, or the automatic one: W = the power of two >= half the
 * average degree (at most 32), heavy above max(256, 64 W); medium above 4 W (no
 * medium class when W = 32), never above the heavy cut-off. */
MatchShape match_shape(const coarsen_graph *g, const matching_opts *opts);

enum { VISIT_LIVE = 1, VISIT_CAND = 2 };

struct RowBest {
    double key;
    int32_t rank;  /* tie_rank of id, -1: no candidate */
    int32_t id;    /* the candidate vertex, -1: none */
    int32_t live;  /* 1 when some neighbour was live */
};

struct RowBestMax {
    __device__ __forceinline__ RowBest operator()(const RowBest &a, const RowBest &b) const
    {
        RowBest r = edge_better(b.key, b.rank, a.key, a.rank) ? b : a;
        r.live = a.live | b.live;
        return r;
    }
};

/* Folds entries begin, begin + step, ... < end of v's row into b. */
template <class Op>
__device__ __forceinline__ void row_scan(const MatchGraph &G, const Op &op, const typename Op::Ctx &c, int32_t v,
                                         int64_t begin, int64_t end, int step, RowBest &b)
{
    for (int64_t e = begin; e < end; e += step) {
        int32_t u = __ldg(G.adj + e);
        double key = 0.0;
        int f = op.visit(c, v, u, G.ewgt + e, key);
        b.live |= f & VISIT_LIVE;
        if (f & VISIT_CAND) {
            int32_t rank = tie_rank(op.ties, u);
            if (edge_better(key, rank, b.key, b.rank)) {
                b.key = key;
                b.rank = rank;
                b.id = u;
            }
        }
    }
}

/* W lanes per vertex of list[0..count). Every lane of a warp reaches the
 * shuffles and ballots (no early exit), so full-mask ones are safe. The
 * group's butterfly reduces (key, rank) only: tie_rank is one-to-one, so
 * every lane whose own best has the winning rank holds the winning id, and
 * the first of them passes it to the group's first lane; the liveness is
 * the group's bits of one ballot. The result is RowBestMax's fold. Fewer
 * values live across the butterfly let 6 blocks of ROWS_BLOCK share an SM
 * (40 registers, no spill; 46 and 5 blocks otherwise): the kernel waits on
 * its loads, and more warps in flight hide them. */
template <int W, class Op>
__global__ void __launch_bounds__(ROWS_BLOCK, 6) rows_group_kernel(MatchGraph G, const int32_t *__restrict__ list,
                                                                   int64_t count, Op op)
{
    const int64_t grp = ((int64_t)blockIdx.x * ROWS_BLOCK + threadIdx.x) / W;
    const int lane = (int)(threadIdx.x % W);
    const bool valid = grp < count;
    RowBest b{0.0, -1, -1, 0};
    typename Op::Ctx c{};
    int32_t v = -1;
    if (valid) {
        v = list[grp];
        c = op.prepare(v);
        if (op.scans(c))
            row_scan(G, op, c, v, G.xadj[v] + lane, G.xadj[v + 1], W, b);
    }
    double key = b.key;
    int32_t rank = b.rank;
#pragma unroll
    for (int off = W / 2; off > 0; off >>= 1) {
        const double k = __shfl_xor_sync(0xffffffffu, key, off, W);
        const int32_t r = __shfl_xor_sync(0xffffffffu, rank, off, W);
        if (edge_better(k, r, key, rank)) {
            key = k;
            rank = r;
        }
    }
    const int first = (int)(threadIdx.x % 32) - lane;
    const unsigned group = (W == 32 ? 0xffffffffu : (1u << W) - 1) << first;
    const unsigned live = __ballot_sync(0xffffffffu, b.live) & group;
    const unsigned holds = __ballot_sync(0xffffffffu, rank >= 0 && b.rank == rank) & group;
    const int32_t id = __shfl_sync(0xffffffffu, b.id, holds ? __ffs(holds) - 1 : first);
    if (valid && lane == 0)
        op.finish(v, c, RowBest{key, rank, holds ? id : -1, live != 0});
}

/* One block per vertex of list (grid = list length). */
template <class Op>
__global__ void __launch_bounds__(HEAVY_BLOCK) rows_block_kernel(MatchGraph G, const int32_t *__restrict__ list, Op op)
{
    using Reduce = cub::BlockReduce<RowBest, HEAVY_BLOCK>;
    __shared__ typename Reduce::TempStorage temp;
    const int32_t v = list[blockIdx.x];
    const typename Op::Ctx c = op.prepare(v);
    RowBest b{0.0, -1, -1, 0};
    if (op.scans(c))
        row_scan(G, op, c, v, G.xadj[v] + threadIdx.x, G.xadj[v + 1], HEAVY_BLOCK, b);
    b = Reduce(temp).Reduce(b, RowBestMax());
    if (threadIdx.x == 0)
        op.finish(v, c, b);
}

enum { CLASS_LIGHT = 0, CLASS_MEDIUM = 1, CLASS_HEAVY = 2, NCLASSES = 3 };

/* The active vertices of each degree class: lists[c][cur]; compaction writes
 * lists[c][1 - cur] and flips cur. The arrays are workspace temporaries of
 * the phase that planned them (active_plan), as is the compaction's CUB
 * storage. */
struct ActiveLists {
    int32_t *lists[NCLASSES][2];
    int cur;
    int64_t count[NCLASSES];
    unsigned long long *d_counts;  /* [c] class counts, [NCLASSES] matched vertices */
    Workspace *ws;                 /* the phase's workspace */
    int32_t *list(int c) const { return lists[c][cur]; }
    unsigned long long *matched_counter() const { return d_counts + NCLASSES; }
    int64_t total() const { return count[CLASS_LIGHT] + count[CLASS_MEDIUM] + count[CLASS_HEAVY]; }
};

/* Names the lists of G's vertices and their compaction's CUB storage in ws
 * (before ws.carve). */
int active_plan(Workspace &ws, const MatchGraph &G, ActiveLists *A, coarsen_error *err);
/* After ws.carve: every vertex active, split by degree (one launch: each
 * list holds runs of ids in no set order, which no row's result depends
 * on); the matched counter zeroed. */
int active_init(const MatchGraph &G, const MatchShape &shape, ActiveLists *A, coarsen_error *err);
/* Keeps v with mate[v] < 0 && alive[v] in every list; the one host copy of
 * the pass brings the new counts and the matched-vertex count (*matched). */
int active_compact(ActiveLists *A, const int32_t *mate, const uint8_t *alive, unsigned long long *matched,
                   coarsen_error *err);

/* The working arrays of a GPU matcher, in the workspace: per vertex a
 * choice (handshake pointer or red/blue proposal) and a live flag, and the
 * active lists; the workspace is the matcher's while this object lives. */
struct MatchWork {
    int32_t *choice = nullptr;
    uint8_t *alive = nullptr;
    ActiveLists A{};
    Workspace ws;
    /* Takes the workspace, sets d_mate and choice to -1 and makes every
     * vertex active. */
    int init(const MatchGraph &G, const MatchShape &shape, int32_t *d_mate, coarsen_error *err);
    /* Ends a pass: compaction (the pass's one copy to the host), then
     * stats->passes and, after the first pass, first_round_fraction. */
    int end_pass(const int32_t *d_mate, int32_t n, matching_stats *stats, coarsen_error *err);
};

/* Runs op over list[0..count) (count > 0) with W lanes per vertex. */
template <int W, class Op>
static int rows_launch_width(const MatchGraph &G, const int32_t *list, int64_t count, const Op &op,
                             coarsen_error *err)
{
    unsigned blocks = (unsigned)((count * W + ROWS_BLOCK - 1) / ROWS_BLOCK);
    rows_group_kernel<W, Op><<<blocks, ROWS_BLOCK, 0, device_stream()>>>(G, list, count, op);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

/* Runs op over every active list: light with the shape's width, medium with
 * a warp, heavy with a block per vertex. */
template <class Op>
static int rows_launch(const MatchGraph &G, const ActiveLists &A, const MatchShape &shape, const Op &op,
                       coarsen_error *err)
{
    int rc = COARSEN_OK;
    const int32_t *light = A.list(CLASS_LIGHT);
    const int64_t nlight = A.count[CLASS_LIGHT];
    if (nlight > 0) {
        switch (shape.width) {
        case 1: rc = rows_launch_width<1>(G, light, nlight, op, err); break;
        case 2: rc = rows_launch_width<2>(G, light, nlight, op, err); break;
        case 4: rc = rows_launch_width<4>(G, light, nlight, op, err); break;
        case 8: rc = rows_launch_width<8>(G, light, nlight, op, err); break;
        case 16: rc = rows_launch_width<16>(G, light, nlight, op, err); break;
        default: rc = rows_launch_width<32>(G, light, nlight, op, err); break;
        }
        if (rc)
            return rc;
    }
    if (A.count[CLASS_MEDIUM] > 0 &&
        (rc = rows_launch_width<32>(G, A.list(CLASS_MEDIUM), A.count[CLASS_MEDIUM], op, err)))
        return rc;
    if (A.count[CLASS_HEAVY] > 0) {
        rows_block_kernel<Op><<<(unsigned)A.count[CLASS_HEAVY], HEAVY_BLOCK, 0, device_stream()>>>(
            G, A.list(CLASS_HEAVY), op);
        CUDA_LAUNCH_TRY(err);
    }
    return COARSEN_OK;
}

/* f(v) for every v of list[0..count); the returned numbers are summed into
 * *counter (warp-aggregated atomics: the sum does not depend on timing). */
template <class F>
__global__ void __launch_bounds__(ROWS_BLOCK) each_active_kernel(const int32_t *__restrict__ list, int64_t count, F f,
                                                                 unsigned long long *counter)
{
    const int64_t i = (int64_t)blockIdx.x * ROWS_BLOCK + threadIdx.x;
    unsigned add = i < count ? f(list[i]) : 0u;
    add = __reduce_add_sync(0xffffffffu, add);
    if ((threadIdx.x & 31) == 0 && add)
        atomicAdd(counter, (unsigned long long)add);
}

/* f over every active list, counting into the matched counter. */
template <class F>
static int each_active(const ActiveLists &A, const F &f, coarsen_error *err)
{
    for (int c = 0; c < NCLASSES; c++)
        if (A.count[c] > 0) {
            const unsigned blocks = (unsigned)((A.count[c] + ROWS_BLOCK - 1) / ROWS_BLOCK);
            each_active_kernel<F><<<blocks, ROWS_BLOCK, 0, device_stream()>>>(A.list(c), A.count[c], f,
                                                                              A.matched_counter());
            CUDA_LAUNCH_TRY(err);
        }
    return COARSEN_OK;
}

/* Stable selection of in[0..count) by pred into out, the number of the
 * selected into *m on the host (one copy; nsel: one device int32_t), in
 * ws's CUB storage (sized with select_counted_size for the largest count).
 * Shared by two-hop and HEC. */
template <class In, class Pred>
static cudaError_t select_counted_call(void *tmp, size_t &bytes, In in, int64_t count, Pred pred, int32_t *out,
                                       int32_t *nsel)
{
    return cub::DeviceSelect::If(tmp, bytes, in, out, nsel, count, pred, device_stream());
}
template <class In, class Pred>
static int select_counted_size(Workspace &ws, In in, int64_t count, Pred pred, coarsen_error *err)
{
    return ws.size_cub([&](void *tmp, size_t &b) {
        return select_counted_call(tmp, b, in, count, pred, (int32_t *)nullptr, (int32_t *)nullptr);
    }, err);
}
template <class In, class Pred>
static int select_counted(Workspace &ws, In in, int64_t count, Pred pred, int32_t *out, int32_t *nsel, int32_t *m,
                          const char *what, coarsen_error *err)
{
    if (int rc = ws.run_cub(
            [&](void *tmp, size_t &b) { return select_counted_call(tmp, b, in, count, pred, out, nsel); }, what, err))
        return rc;
    CUDA_TRY(err, stream_copy(m, nsel, sizeof *m, cudaMemcpyDeviceToHost));
    return COARSEN_OK;
}

/* The matchers (stats: passes, first_round_fraction, maximal). */
int handshake_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
                  matching_stats *stats, coarsen_error *err);
int redblue_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
                matching_stats *stats, coarsen_error *err);

/* The handshake matcher in one cooperative launch (handshake_persistent.cu),
 * which handshake_gpu uses when handshake_persistent_fits (opts'
 * gpu_persistent_max); same results. */
bool handshake_persistent_fits(const coarsen_graph *g, const matching_opts *opts);
int handshake_persistent_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
                             matching_stats *stats, coarsen_error *err);

/* The handshake pointer step, also the strongest-neighbour step (mate =
 * nullptr: every neighbour counts as unmatched) and HEC's choice: out[v] =
 * best eligible unmatched neighbour, alive[v] (when not null) = out[v] >= 0,
 * key_out[v] (when not null) = its rating (0 when none; -0.0 as +0.0). */
struct PointerOp {
    tie_rule ties;
    const int32_t *mate;
    const int64_t *vwgt;
    int64_t cap;
    int32_t *out;
    uint8_t *alive;
    int rating; /* match_rating: keys as edge_rating */
    double *key_out;
    struct Ctx {
        int64_t vw;
    };
    __device__ __forceinline__ Ctx prepare(int32_t v) const { return Ctx{cap > 0 || rating ? vwgt[v] : 0}; }
    __device__ __forceinline__ bool scans(const Ctx &) const { return true; }
    __device__ __forceinline__ int visit(const Ctx &c, int32_t, int32_t u, const double *w, double &key) const
    {
        if (mate && mate[u] >= 0) /* a plain load: the persistent matcher changes mate within its launch */
            return 0;
        const int64_t uw = cap > 0 || rating ? __ldg(vwgt + u) : 0;
        if (cap > 0 && !pair_eligible(cap, c.vw, uw))
            return 0;
        key = edge_rating(rating, __ldg(w), c.vw, uw);
        return VISIT_LIVE | VISIT_CAND;
    }
    __device__ __forceinline__ void finish(int32_t v, const Ctx &, const RowBest &b) const
    {
        out[v] = b.id;
        if (key_out)
            key_out[v] = b.key + 0.0;
        if (alive)
            alive[v] = (uint8_t)(b.id >= 0);
    }
};

/* two_hop.cu: two_hop_gpu (matching/two_hop.h) without its closing round
 * trip, for a caller that brings other figures back anyway (HEC): the
 * counts go to d_counts[TWO_HOP_COUNTS] (device memory of the caller's,
 * zeroed by the call), in the order below; the call returns with the work
 * queued on the run's stream. known [in] (may be NULL): the candidates when
 * the caller has them (ids not NULL: a device array of the m vertices with
 * d_mate[v] = -1, in increasing id, read only, alive until the queued work
 * has run): no selection and no count to the host; otherwise two-hop
 * selects them. */
enum { TWO_HOP_LEAF = 0, TWO_HOP_TWIN = 1, TWO_HOP_RELATIVE = 2, TWO_HOP_ISLAND = 3, TWO_HOP_BLOCKED = 4, TWO_HOP_COUNTS = 5 };
struct two_hop_opts;
struct two_hop_candidates {
    const int32_t *ids;
    int32_t m;
};
int two_hop_gpu_queued(const coarsen_graph *g, const two_hop_opts *opts, int32_t *d_mate,
                       const two_hop_candidates *known, unsigned long long *d_counts, coarsen_error *err);

#endif

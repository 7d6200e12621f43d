/* auction.cu — the auction on the GPU (bip_auction_gpu, assignment.h): the
 * rounds of auction_cpu.c, bit for bit. Per round, over the queue of
 * unassigned persons:
 *  1. k_bid, a warp per person: best value, its smallest column and the
 *     second-best value over the row (lane-strided scan, shuffle reduction
 *     of (best, column, second) — the same triple whatever the order), the
 *     private dummy considered; bid = price + best - second + ε, and the
 *     object's highest bid by atomicMax;
 *  2. k_win: among the bids equal to the highest, the lowest person, by
 *     atomicMin (a total order: the same winner whatever the timing);
 *  3. k_assign: winners take their objects (previous owners return to the
 *     queue), prices become the winning bids, and each winner clears its
 *     object's winner slot (a loser reads the winner or the cleared value,
 *     never itself). The highest-bid slot needs no clearing: after a round
 *     it equals the object's price, and every later bid exceeds the price;
 *  4. CUB selects the next queue (its count is the round's one copy to the
 *     host).
 * ε-scaling phases as on the CPU. A phase's queue only shrinks; once its
 * bidders hold less than about 2^16 entries of work, a round costs less on
 * the host than a kernel launch, so the state is downloaded and the phase
 * ends with the same rounds on the host (auction_host_rounds), whose prices
 * go back up for the next phase. The finish (reverse steps, certificate)
 * runs on the host in auction_common.c. */
#include <climits>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "bipartite/auction_core.h"
#include "core/error.h"
#include "device/cuda_check.cuh"

#include <stdlib.h>

namespace {

constexpr int BLOCK = 256;
constexpr int WARPS_PER_BLOCK = BLOCK / 32;

unsigned grid_for(int64_t n) { return (unsigned)((n + BLOCK - 1) / BLOCK); }

struct Auction {
    int32_t rows = 0, cols = 0;
    int64_t *rptr = nullptr;
    int32_t *rind = nullptr;
    long long *benefit = nullptr, *price = nullptr, *bid = nullptr, *obj_best = nullptr;
    int32_t *owner = nullptr, *assigned = nullptr, *queue = nullptr, *target = nullptr, *obj_win = nullptr;
    unsigned long long *count = nullptr;
};

void auction_free(Auction &d)
{
    device_free(d.rptr);
    device_free(d.rind);
    device_free(d.benefit);
    device_free(d.price);
    device_free(d.bid);
    device_free(d.obj_best);
    device_free(d.owner);
    device_free(d.assigned);
    device_free(d.queue);
    device_free(d.target);
    device_free(d.obj_win);
    device_free(d.count);
}

struct Unassigned {
    const int32_t *assigned;
    __device__ __forceinline__ bool operator()(int32_t i) const { return assigned[i] == -1; }
};

__global__ void k_phase_reset(int32_t rows, int32_t cols, int32_t *assigned, int32_t *owner)
{
    int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (k < rows)
        assigned[k] = -1;
    if (k < cols)
        owner[k] = -1;
}

__global__ void k_slots_init(int32_t cols, long long *obj_best, int32_t *obj_win)
{
    int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (j < cols) {
        obj_best[j] = LLONG_MIN;
        obj_win[j] = INT_MAX;
    }
}

__global__ void k_bid(const int32_t *queue, int64_t nq, const int64_t *rptr, const int32_t *rind,
                      const long long *benefit, const long long *price, long long dummy, long long eps,
                      int32_t *target, long long *bid, long long *obj_best)
{
    int64_t w = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    if (w >= nq)
        return; /* the whole warp leaves together */
    int32_t i = queue[w];
    long long b1 = LLONG_MIN, b2 = LLONG_MIN;
    int32_t j1 = INT_MAX;
    for (int64_t e = rptr[i] + lane; e < rptr[i + 1]; e += 32) {
        int32_t j = rind[e];
        long long v = benefit[e] - price[j];
        if (v > b1) { /* a lane's columns ascend: ties keep its smaller column */
            b2 = b1;
            b1 = v;
            j1 = j;
        } else if (v > b2)
            b2 = v;
    }
    for (int off = 16; off > 0; off >>= 1) {
        long long ob1 = __shfl_down_sync(0xffffffffu, b1, off);
        long long ob2 = __shfl_down_sync(0xffffffffu, b2, off);
        int32_t oj1 = __shfl_down_sync(0xffffffffu, j1, off);
        if (ob1 > b1 || (ob1 == b1 && oj1 < j1)) {
            b2 = ob2 > b1 ? ob2 : b1;
            b1 = ob1;
            j1 = oj1;
        } else if (ob1 > b2)
            b2 = ob1;
    }
    if (lane != 0)
        return;
    if (j1 == INT_MAX || dummy > b1) {
        target[i] = AUCTION_DUMMY;
        return;
    }
    long long v2 = b2 > dummy ? b2 : dummy;
    long long b = price[j1] + (b1 - v2) + eps;
    target[i] = j1;
    bid[i] = b;
    atomicMax(&obj_best[j1], b);
}

__global__ void k_win(const int32_t *queue, int64_t nq, const int32_t *target, const long long *bid,
                      const long long *obj_best, int32_t *obj_win)
{
    int64_t q = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (q >= nq)
        return;
    int32_t i = queue[q], j = target[i];
    if (j >= 0 && bid[i] == obj_best[j])
        atomicMin(&obj_win[j], i);
}

__global__ void k_assign(const int32_t *queue, int64_t nq, const int32_t *target, const long long *bid,
                         int32_t *obj_win, int32_t *owner, int32_t *assigned, long long *price)
{
    int64_t q = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (q >= nq)
        return;
    int32_t i = queue[q], j = target[i];
    if (j == AUCTION_DUMMY) {
        assigned[i] = AUCTION_DUMMY;
    } else if (obj_win[j] == i) {
        obj_win[j] = INT_MAX;
        int32_t old = owner[j];
        if (old >= 0)
            assigned[old] = -1; /* old is assigned, so not in the queue: no other writer */
        owner[j] = i;
        assigned[i] = j;
        price[j] = bid[i];
    }
}

/* Next queue: the unassigned persons in increasing order; returns its size. */
int select_queue(Auction &d, int64_t *nq, coarsen_error *err)
{
    thrust::counting_iterator<int32_t> all(0);
    Unassigned pred{d.assigned};
    int32_t *out = d.queue;
    unsigned long long *num = d.count;
    int64_t n = d.rows;
    if (int rc = cub_run([&](void *temp, size_t &bytes) {
            return cub::DeviceSelect::If(temp, bytes, all, out, num, n, pred);
        }, "auction queue selection", err))
        return rc;
    unsigned long long h = 0;
    CUDA_TRY(err, cudaMemcpy(&h, d.count, sizeof h, cudaMemcpyDeviceToHost));
    *nq = (int64_t)h;
    return COARSEN_OK;
}

/* Queues below this many bidders finish their phase on the host. */
int64_t host_threshold(const bip_graph *g, const bip_auction_opts *opts)
{
    if (opts && opts->host_tail < 0)
        return 1;
    if (opts && opts->host_tail > 0)
        return opts->host_tail;
    int64_t avg = g->rows ? g->nnz / g->rows : 1;
    int64_t t = 65536 / (avg > 0 ? avg : 1);
    return t < 1 ? 1 : t;
}

/* Prices, owners and assignment from the device into h. */
int download_state(const Auction &d, auction_host &h, coarsen_error *err)
{
    int rc = device_copy_to_host(h.price, d.price, (size_t)d.cols * sizeof *h.price, err);
    if (!rc)
        rc = device_copy_to_host(h.assigned, d.assigned, (size_t)d.rows * sizeof *h.assigned, err);
    if (!rc)
        rc = device_copy_to_host(h.owner, d.owner, (size_t)d.cols * sizeof *h.owner, err);
    return rc;
}

/* Runs every phase; on return the newest prices and assignment are in h
 * (downloaded when the last phase ended on the device). */
int run_phases(Auction &d, const bip_graph *g, const bip_auction_opts *opts, const auction_problem &p,
               auction_host &h, bip_auction_result *r, coarsen_error *err)
{
    const int64_t threshold = host_threshold(g, opts);
    const int64_t big = d.rows > d.cols ? d.rows : d.cols;
    int on_host = 0; /* the host holds the newest prices and assignment */
    if (d.cols > 0) {
        k_slots_init<<<grid_for(d.cols), BLOCK>>>(d.cols, d.obj_best, d.obj_win);
        CUDA_LAUNCH_TRY(err);
    }
    for (int64_t eps = p.eps0; eps > 0; eps = auction_next_eps(&p, eps)) {
        r->phases++;
        if (on_host) {
            if (int rc = device_copy_to_device(d.price, h.price, (size_t)d.cols * sizeof *h.price, err))
                return rc;
            on_host = 0;
        }
        if (big > 0) {
            k_phase_reset<<<grid_for(big), BLOCK>>>(d.rows, d.cols, d.assigned, d.owner);
            CUDA_LAUNCH_TRY(err);
        }
        int64_t nq = 0;
        if (int rc = select_queue(d, &nq, err))
            return rc;
        while (nq >= threshold) {
            r->rounds++;
            unsigned warp_blocks = (unsigned)((nq + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK);
            k_bid<<<warp_blocks, BLOCK>>>(d.queue, nq, d.rptr, d.rind, d.benefit, d.price, (long long)p.dummy,
                                          (long long)eps, d.target, d.bid, d.obj_best);
            CUDA_LAUNCH_TRY(err);
            k_win<<<grid_for(nq), BLOCK>>>(d.queue, nq, d.target, d.bid, d.obj_best, d.obj_win);
            CUDA_LAUNCH_TRY(err);
            k_assign<<<grid_for(nq), BLOCK>>>(d.queue, nq, d.target, d.bid, d.obj_win, d.owner, d.assigned,
                                              d.price);
            CUDA_LAUNCH_TRY(err);
            if (int rc = select_queue(d, &nq, err))
                return rc;
        }
        if (nq > 0) {
            int rc = download_state(d, h, err);
            if (!rc)
                rc = device_copy_to_host(h.queue, d.queue, (size_t)nq * sizeof *h.queue, err);
            if (rc)
                return rc;
            r->rounds += auction_host_rounds(g, &p, &h, (int32_t)nq, eps);
            on_host = 1;
        }
    }
    return on_host ? COARSEN_OK : download_state(d, h, err);
}

} // namespace

extern "C" int bip_auction_gpu(const bip_graph *g, const bip_auction_opts *opts, int32_t *row_match,
                               bip_auction_result *res, coarsen_error *err)
{
    bip_auction_result local = {};
    bip_auction_result *r = res ? res : &local;
    *r = bip_auction_result{};
    auction_problem p;
    int rc = auction_prepare(g, opts, &p, err);
    if (rc)
        return rc;
    Auction d;
    d.rows = g->rows;
    d.cols = g->cols;
    auction_host h;
    rc = auction_host_alloc(&h, g->rows, g->cols, err);
    if (!rc && !(rc = dalloc(&d.rptr, (size_t)g->rows + 1, "auction row offsets", err)))
        rc = device_copy_to_device(d.rptr, g->rptr, ((size_t)g->rows + 1) * sizeof *g->rptr, err);
    if (!rc && !(rc = dalloc(&d.rind, (size_t)g->nnz, "auction entries", err)))
        rc = device_copy_to_device(d.rind, g->rind, (size_t)g->nnz * sizeof *g->rind, err);
    if (!rc && !(rc = dalloc(&d.benefit, (size_t)g->nnz, "auction benefits", err)))
        rc = device_copy_to_device(d.benefit, p.benefit, (size_t)g->nnz * sizeof *p.benefit, err);
    if (!rc && !(rc = dalloc(&d.price, (size_t)g->cols, "auction prices", err)))
        rc = device_copy_to_device(d.price, h.price, (size_t)g->cols * sizeof *h.price, err); /* zeros */
    if (!rc)
        rc = dalloc(&d.bid, (size_t)g->rows, "auction bids", err);
    if (!rc)
        rc = dalloc(&d.obj_best, (size_t)g->cols, "auction best bids", err);
    if (!rc)
        rc = dalloc(&d.owner, (size_t)g->cols, "auction owners", err);
    if (!rc)
        rc = dalloc(&d.assigned, (size_t)g->rows, "auction assignment", err);
    if (!rc)
        rc = dalloc(&d.queue, (size_t)g->rows, "auction queue", err);
    if (!rc)
        rc = dalloc(&d.target, (size_t)g->rows, "auction targets", err);
    if (!rc)
        rc = dalloc(&d.obj_win, (size_t)g->cols, "auction winners", err);
    if (!rc)
        rc = dalloc(&d.count, 1, "auction counter", err);
    if (!rc)
        rc = run_phases(d, g, opts, p, h, r, err);
    auction_free(d);
    if (!rc)
        rc = auction_finish(g, &p, h.price, h.assigned, h.owner, row_match, r, err);
    auction_host_free(&h);
    auction_problem_free(&p);
    return rc;
}

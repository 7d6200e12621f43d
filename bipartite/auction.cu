/* auction.cu — the auction on the GPU (bip_auction_gpu, assignment.h): the
 * rounds of auction_cpu.c, bit for bit. Per round, over the queue of
 * unassigned persons (its length lives on the device):
 *  1. k_bid, a group of lanes per person (a warp, or a block of 1024 on
 *     rows averaging >= 1024 entries): best value, its smallest column and the
 *     second-best value over the row (lane-strided scan, then a CUB reduction
 *     of (best, column, second) triples — the same triple whatever the
 *     order), the private dummy considered; bid = price + best - second + ε,
 *     and the object's highest bid by atomicMax;
 *  2. k_win: among the bids equal to the highest, the lowest person, by
 *     atomicMin (a total order: the same winner whatever the timing);
 *  3. k_assign: winners take their objects, prices become the winning bids,
 *     and each winner clears its object's winner slot (a loser reads the
 *     winner or the cleared value, never itself); losers and displaced owners
 *     are appended to the next queue. Its order depends on timing, which
 *     changes nothing: a round's bids depend only on the set of bidders and
 *     the prices. The highest-bid slot needs no clearing between rounds:
 *     after a round it equals the object's price, and every later bid of the
 *     phase exceeds the price (k_phase_start clears it once per phase).
 * No count crosses to the host inside a round: every kernel reads the queue
 * length and ε from device memory (grid-stride loops; an empty queue makes a
 * round a no-op), so rounds run in batches of ROUNDS_PER_BATCH, each batch one
 * CUDA graph launch and one count read back. A phase's queue never grows, so
 * the batch's first count bounds its grids: graphs are captured once per
 * power-of-two bound and reused. Once the queue falls below the host-tail threshold the state is
 * downloaded and the phase ends with the same rounds on the host
 * (auction_host_rounds). Every phase ends on the host with its reverse steps
 * (auction_common.c), and its prices go back up for the next phase; the
 * certificate is computed on the host. */
#include <climits>
#include <type_traits>
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>

#include "bipartite/auction_core.h"
#include "core/error.h"
#include "device/cuda_check.cuh"

#include <stdlib.h>

namespace {

constexpr int BLOCK = 256;
constexpr int BID_BLOCK = 1024; /* threads bidding for one person on long rows */
constexpr int ROUNDS_PER_BATCH = 16;
constexpr int64_t BLOCK_PER_PERSON_DEGREE = 1024; /* average row length from which a block bids for one person */
constexpr unsigned MAX_BLOCKS = 4096;            /* grid-stride loops cover longer queues */

unsigned grid_for(int64_t n, int per_block)
{
    int64_t b = (n + per_block - 1) / per_block;
    return (unsigned)(b < 1 ? 1 : b > MAX_BLOCKS ? MAX_BLOCKS : b);
}

struct Auction {
    int32_t rows = 0, cols = 0;
    int64_t *rptr = nullptr;
    int32_t *rind = nullptr;
    int dense = 0;              /* every row holds every column: rind is not read */
    int32_t *q32 = nullptr;     /* benefit / unit per entry when every quotient fits 32 bits, */
    long long *benefit = nullptr; /* else the scaled benefit (one of the two is set) */
    long long *price = nullptr, *bid = nullptr, *obj_best = nullptr;
    int32_t *owner = nullptr, *assigned = nullptr, *target = nullptr, *obj_win = nullptr;
    int32_t *queue[2] = {nullptr, nullptr};
    unsigned *count = nullptr;            /* count[0], count[1]: lengths of queue[0], queue[1] */
    unsigned long long *rounds = nullptr; /* rounds with a non-empty queue, all phases */
    long long *eps = nullptr;             /* the phase's ε (set by k_phase_start) */
    cudaStream_t stream = nullptr;        /* where the batch graphs run: the run's stream */
    cudaGraphExec_t batch[33] = {};       /* batch graphs by grid class (log2 of the bidders bound) */
};

void auction_free(Auction &d)
{
    device_free(d.rptr);
    device_free(d.rind);
    device_free(d.q32);
    device_free(d.benefit);
    device_free(d.price);
    device_free(d.bid);
    device_free(d.obj_best);
    device_free(d.owner);
    device_free(d.assigned);
    device_free(d.queue[0]);
    device_free(d.queue[1]);
    device_free(d.target);
    device_free(d.obj_win);
    device_free(d.count);
    device_free(d.rounds);
    device_free(d.eps);
    for (cudaGraphExec_t &e : d.batch)
        if (e)
            cudaGraphExecDestroy(e); /* teardown: nothing left to report an error to */
}

/* Start of a phase: its ε, nobody assigned, every person in queue 0, and every
 * best-bid slot cleared (the reverse steps that ended the last phase may have
 * lowered prices below it). */
__global__ void k_phase_start(int32_t rows, int32_t cols, long long eps, int32_t *assigned, int32_t *owner,
                              long long *obj_best, int32_t *queue, unsigned *count, long long *d_eps)
{
    int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (k == 0) {
        count[0] = (unsigned)rows;
        *d_eps = eps;
    }
    if (k < rows) {
        assigned[k] = -1;
        queue[k] = (int32_t)k;
    }
    if (k < cols) {
        owner[k] = -1;
        obj_best[k] = LLONG_MIN;
    }
}

__global__ void k_slots_init(int32_t cols, long long *obj_best, int32_t *obj_win)
{
    int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (j < cols) {
        obj_best[j] = LLONG_MIN;
        obj_win[j] = INT_MAX;
    }
}

/* A row's best value b1 at its smallest column j1 and the second-best value
 * b2 (equal to b1 on a tie). */
struct Best2 {
    long long b1, b2;
    int32_t j1;
};

struct MergeBest2 {
    __device__ __forceinline__ Best2 operator()(const Best2 &a, const Best2 &b) const
    {
        bool a_first = a.b1 > b.b1 || (a.b1 == b.b1 && a.j1 < b.j1);
        const Best2 &w = a_first ? a : b, &l = a_first ? b : a;
        return Best2{w.b1, w.b2 > l.b1 ? w.b2 : l.b1, w.j1};
    }
};

/* Folds value v at column j into a lane's triple (a lane's columns ascend:
 * ties keep its smaller column). */
__device__ __forceinline__ void consider(Best2 &t, long long v, int32_t j)
{
    if (v > t.b1) {
        t.b2 = t.b1;
        t.b1 = v;
        t.j1 = j;
    } else if (v > t.b2)
        t.b2 = v;
}

/* G lanes per person out of THREADS per block (a warp each, or the whole
 * block); the block's loop is uniform so the block-wide reduction is reached
 * by every thread. Entry e's benefit is q[e] * unit (Q: int32_t when the
 * quantised values fit, else the scaled benefit itself with unit 1); on a
 * full matrix (DENSE) entry e of row i is column e - rptr[i] and rind is not
 * read. A lane loads four entries before it folds them: the load chains of a
 * long row overlap instead of queueing. The first thread of the grid resets
 * the next queue's count and counts the round. */
template <int G, int THREADS, bool DENSE, class Q>
__global__ void __launch_bounds__(THREADS)
    k_bid(const int32_t *__restrict__ queue, const unsigned *count, unsigned *next_count, unsigned long long *rounds,
          const int64_t *__restrict__ rptr, const int32_t *__restrict__ rind, const Q *__restrict__ q,
          long long unit, const long long *__restrict__ price, long long dummy, const long long *eps, int32_t *target,
          long long *bid, long long *obj_best)
{
    using Reduce =
        typename std::conditional<G == 32, cub::WarpReduce<Best2>, cub::BlockReduce<Best2, THREADS>>::type;
    constexpr int PER_BLOCK = THREADS / G;
    __shared__ typename Reduce::TempStorage temp[PER_BLOCK];
    const int64_t nq = *count;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *next_count = 0;
        if (nq > 0)
            ++*rounds;
    }
    const int group = threadIdx.x / G, lane = threadIdx.x % G;
    for (int64_t base = (int64_t)blockIdx.x * PER_BLOCK; base < nq; base += (int64_t)gridDim.x * PER_BLOCK) {
        int64_t w = base + group;
        Best2 t{LLONG_MIN, LLONG_MIN, INT_MAX};
        int32_t i = w < nq ? queue[w] : -1;
        if (i >= 0) {
            const int64_t row = rptr[i], end = rptr[i + 1];
            int64_t e = row + lane;
            for (; e + 3 * G < end; e += 4 * G) {
                int32_t j[4];
                long long v[4];
                for (int u = 0; u < 4; u++) {
                    j[u] = DENSE ? (int32_t)(e + u * G - row) : rind[e + u * G];
                    v[u] = (long long)q[e + u * G] * unit;
                }
                for (int u = 0; u < 4; u++)
                    consider(t, v[u] - price[j[u]], j[u]);
            }
            for (; e < end; e += G) {
                int32_t j = DENSE ? (int32_t)(e - row) : rind[e];
                consider(t, (long long)q[e] * unit - price[j], j);
            }
        }
        Best2 r = Reduce(temp[group]).Reduce(t, MergeBest2{});
        if (G == THREADS) /* temp is reused by the next person */
            __syncthreads();
        else
            __syncwarp();
        if (lane != 0 || i < 0)
            continue;
        if (r.j1 == INT_MAX || dummy > r.b1) {
            target[i] = AUCTION_DUMMY;
            continue;
        }
        long long v2 = r.b2 > dummy ? r.b2 : dummy;
        long long b = price[r.j1] + (r.b1 - v2) + *eps;
        target[i] = r.j1;
        bid[i] = b;
        atomicMax(&obj_best[r.j1], b);
    }
}

__global__ void k_win(const int32_t *queue, const unsigned *count, const int32_t *target, const long long *bid,
                      const long long *obj_best, int32_t *obj_win)
{
    const int64_t nq = *count;
    for (int64_t q = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; q < nq; q += (int64_t)gridDim.x * blockDim.x) {
        int32_t i = queue[q], j = target[i];
        if (j >= 0 && bid[i] == obj_best[j])
            atomicMin(&obj_win[j], i);
    }
}

__global__ void k_assign(const int32_t *queue, const unsigned *count, int32_t *next, unsigned *next_count,
                         const int32_t *target, const long long *bid, int32_t *obj_win, int32_t *owner,
                         int32_t *assigned, long long *price)
{
    const int64_t nq = *count;
    for (int64_t q = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; q < nq; q += (int64_t)gridDim.x * blockDim.x) {
        int32_t i = queue[q], j = target[i];
        if (j == AUCTION_DUMMY) {
            assigned[i] = AUCTION_DUMMY;
        } else if (obj_win[j] == i) {
            obj_win[j] = INT_MAX;
            int32_t old = owner[j];
            if (old >= 0) {
                assigned[old] = -1; /* old is assigned, so not in the queue: no other writer */
                next[atomicAdd(next_count, 1u)] = old;
            }
            owner[j] = i;
            assigned[i] = j;
            price[j] = bid[i];
        } else
            next[atomicAdd(next_count, 1u)] = i;
    }
}

/* Queues below this many bidders finish their phase on the host. */
int64_t host_threshold(const bip_graph *g, const bip_auction_opts *opts)
{
    if (opts && opts->host_tail < 0)
        return 1;
    if (opts && opts->host_tail > 0)
        return opts->host_tail;
    int64_t avg = g->rows ? g->nnz / g->rows : 1;
    int64_t t = 4096 / (avg > 0 ? avg : 1);
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

/* One bidding kernel launch on the batch stream: the lanes per person and
 * the entry format (Auction's shape) picked at run time, the rest fixed. */
template <int G, int THREADS>
void launch_bid(const Auction &d, const auction_problem &p, int c, unsigned grid)
{
    const int n = 1 - c;
#define BID_ARGS d.queue[c], d.count + c, d.count + n, d.rounds, d.rptr, d.rind
#define BID_TAIL d.price, (long long)p.dummy, d.eps, d.target, d.bid, d.obj_best
    if (d.q32 && d.dense)
        k_bid<G, THREADS, true, int32_t><<<grid, THREADS, 0, d.stream>>>(BID_ARGS, d.q32, (long long)p.unit, BID_TAIL);
    else if (d.q32)
        k_bid<G, THREADS, false, int32_t><<<grid, THREADS, 0, d.stream>>>(BID_ARGS, d.q32, (long long)p.unit, BID_TAIL);
    else
        k_bid<G, THREADS, false, long long><<<grid, THREADS, 0, d.stream>>>(BID_ARGS, d.benefit, 1LL, BID_TAIL);
#undef BID_ARGS
#undef BID_TAIL
}

/* Records ROUNDS_PER_BATCH rounds from queue 0 (the count is even, so every
 * batch of a phase starts there) with grids for bidders <= bound. */
int capture_batch(Auction &d, const auction_problem &p, int64_t bound, int block_per_person, cudaGraphExec_t *out,
                  coarsen_error *err)
{
    unsigned bid_grid = grid_for(bound, block_per_person ? 1 : BLOCK / 32), grid = grid_for(bound, BLOCK);
    CUDA_TRY(err, cudaStreamBeginCapture(d.stream, cudaStreamCaptureModeThreadLocal));
    for (int r = 0; r < ROUNDS_PER_BATCH; r++) {
        const int c = r & 1, n = 1 - c;
        if (block_per_person)
            launch_bid<BID_BLOCK, BID_BLOCK>(d, p, c, bid_grid);
        else
            launch_bid<32, BLOCK>(d, p, c, bid_grid);
        k_win<<<grid, BLOCK, 0, d.stream>>>(d.queue[c], d.count + c, d.target, d.bid, d.obj_best, d.obj_win);
        k_assign<<<grid, BLOCK, 0, d.stream>>>(d.queue[c], d.count + c, d.queue[n], d.count + n, d.target, d.bid,
                                               d.obj_win, d.owner, d.assigned, d.price);
    }
    cudaGraph_t graph = nullptr;
    cudaError_t launched = cudaGetLastError(); /* a bad launch configuration surfaces here */
    cudaError_t ended = cudaStreamEndCapture(d.stream, &graph);
    if (launched != cudaSuccess) {
        if (graph)
            cudaGraphDestroy(graph);
        return device_cuda_fail(err, launched, "auction round launch (capture)", __FILE__, __LINE__);
    }
    CUDA_TRY(err, ended);
    cudaError_t inst = cudaGraphInstantiate(out, graph, 0);
    cudaGraphDestroy(graph);
    CUDA_TRY(err, inst);
    return COARSEN_OK;
}

/* Runs one batch of rounds (capturing its graph on first use of the grid
 * class) and returns the length of the queue it leaves, in *nq. */
int run_batch(Auction &d, const auction_problem &p, int block_per_person, int64_t *nq, coarsen_error *err)
{
    int cls = 0;
    while (((int64_t)1 << cls) < *nq)
        cls++;
    if (!d.batch[cls])
        if (int rc = capture_batch(d, p, (int64_t)1 << cls, block_per_person, &d.batch[cls], err))
            return rc;
    CUDA_TRY(err, cudaGraphLaunch(d.batch[cls], d.stream));
    unsigned h_count = 0;
    CUDA_TRY(err, cudaMemcpyAsync(&h_count, d.count, sizeof h_count, cudaMemcpyDeviceToHost, d.stream));
    CUDA_TRY(err, cudaStreamSynchronize(d.stream));
    *nq = h_count;
    return COARSEN_OK;
}

/* Runs every phase; on return the final prices and assignment are in h. */
int run_phases(Auction &d, const bip_graph *g, const bip_auction_opts *opts, const auction_problem &p,
               auction_host &h, bip_auction_result *r, coarsen_error *err)
{
    const int64_t threshold = host_threshold(g, opts);
    const int64_t big = d.rows > d.cols ? d.rows : d.cols;
    const int block_per_person = g->rows > 0 && g->nnz / g->rows >= BLOCK_PER_PERSON_DEGREE;
    int on_host = 0; /* the host holds the newest prices and assignment */
    if (d.cols > 0) {
        k_slots_init<<<grid_for(d.cols, BLOCK), BLOCK, 0, device_stream()>>>(d.cols, d.obj_best, d.obj_win);
        CUDA_LAUNCH_TRY(err);
    }
    CUDA_TRY(err, cudaMemsetAsync(d.rounds, 0, sizeof *d.rounds, device_stream()));
    int64_t host_rounds = 0;
    for (int64_t eps = p.eps0; eps > 0; eps = auction_next_eps(&p, eps)) {
        r->phases++;
        if (on_host) {
            if (int rc = device_copy_to_device(d.price, h.price, (size_t)d.cols * sizeof *h.price, err))
                return rc;
            on_host = 0;
        }
        k_phase_start<<<grid_for(big, BLOCK), BLOCK, 0, device_stream()>>>(d.rows, d.cols, (long long)eps, d.assigned,
                                                                           d.owner, d.obj_best, d.queue[0], d.count,
                                                                           d.eps);
        CUDA_LAUNCH_TRY(err);
        int64_t nq = d.rows;
        while (nq >= threshold)
            if (int rc = run_batch(d, p, block_per_person, &nq, err))
                return rc;
        int rc = download_state(d, h, err);
        if (!rc && nq > 0)
            rc = device_copy_to_host(h.queue, d.queue[0], (size_t)nq * sizeof *h.queue, err);
        if (rc)
            return rc;
        host_rounds += auction_host_rounds(g, &p, &h, (int32_t)nq, eps);
        if ((rc = auction_reverse(g, &p, eps, h.price, h.assigned, h.owner, &r->reverse_steps, err)))
            return rc;
        on_host = 1;
    }
    unsigned long long device_rounds = 0;
    if (int rc = device_copy_to_host(&device_rounds, d.rounds, sizeof device_rounds, err))
        return rc;
    r->rounds = (int64_t)device_rounds + host_rounds;
    return COARSEN_OK;
}

/* The entries on the device: benefits as 32-bit quotients by p.unit when
 * they all fit (half the bytes each bid reads), else as they are; the
 * columns unless the matrix is full and the quotients fit (then k_bid
 * derives them from the offsets). */
int upload_entries(const bip_graph *g, const auction_problem &p, Auction &d, coarsen_error *err)
{
    const int64_t nnz = g->nnz;
    int fits = 1;
#pragma omp parallel for reduction(&& : fits)
    for (int64_t e = 0; e < nnz; e++)
        fits = fits && p.benefit[e] / p.unit >= INT32_MIN && p.benefit[e] / p.unit <= INT32_MAX;
    d.dense = fits && nnz == (int64_t)g->rows * g->cols;
    if (!d.dense) {
        if (int rc = dalloc(&d.rind, (size_t)nnz, "auction entries", err))
            return rc;
        if (int rc = device_copy_to_device(d.rind, g->rind, (size_t)nnz * sizeof *g->rind, err))
            return rc;
    }
    if (!fits) {
        if (int rc = dalloc(&d.benefit, (size_t)nnz, "auction benefits", err))
            return rc;
        return device_copy_to_device(d.benefit, p.benefit, (size_t)nnz * sizeof *p.benefit, err);
    }
    int32_t *q = (int32_t *)malloc(((size_t)nnz + 1) * sizeof *q);
    if (!q)
        return error_set(err, COARSEN_ERR_NOMEM, "out of memory (%lld auction benefits)", (long long)nnz);
#pragma omp parallel for
    for (int64_t e = 0; e < nnz; e++)
        q[e] = (int32_t)(p.benefit[e] / p.unit);
    int rc = dalloc(&d.q32, (size_t)nnz, "auction benefits", err);
    if (!rc)
        rc = device_copy_to_device(d.q32, q, (size_t)nnz * sizeof *q, err);
    free(q);
    return rc;
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
    if (!rc)
        rc = upload_entries(g, p, d, err);
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
    for (int q = 0; q < 2 && !rc; q++)
        rc = dalloc(&d.queue[q], (size_t)g->rows + 1, "auction queue", err);
    if (!rc)
        rc = dalloc(&d.target, (size_t)g->rows, "auction targets", err);
    if (!rc)
        rc = dalloc(&d.obj_win, (size_t)g->cols, "auction winners", err);
    if (!rc)
        rc = dalloc(&d.count, 2, "auction queue lengths", err);
    if (!rc)
        rc = dalloc(&d.rounds, 1, "auction round counter", err);
    if (!rc)
        rc = dalloc(&d.eps, 1, "auction epsilon", err);
    d.stream = device_stream(); /* made by the first allocation */
    if (!rc)
        rc = run_phases(d, g, opts, p, h, r, err);
    auction_free(d);
    if (!rc)
        rc = auction_finish(g, &p, h.price, h.assigned, h.owner, row_match, r, err);
    auction_host_free(&h);
    auction_problem_free(&p);
    return rc;
}

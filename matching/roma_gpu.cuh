/* roma_gpu.cuh — the device side of the deterministic ROMA rule shared by
 * roma.cu (sparse graphs) and roma_complete.cu (dense complete graphs);
 * CUDA C++, included by those two files only. A pass (roma_gpu_phases):
 * the caller's eval launch fills aug[c] for every centre c whose turn is
 * pending (roma_turn_pending; kind ROMA_NONE when c has no accepted
 * candidate); roma_turn_kernel ends the turns that found nothing, clears
 * every other entry and counts the candidates; then claim rounds as in
 * roma_replay_cpu.c: roma_claim_kernel kills the candidates touching a
 * taken vertex and max-writes the others' keys, roma_apply_kernel applies
 * the candidates holding every key they wrote, takes their vertices and
 * ends their turn, roma_round_end_kernel decides on the device whether
 * another round runs. A pass (evaluation, turns and ROMA_ROUND_BATCH
 * rounds) is one CUDA graph, captured once a run, and so is a further
 * batch of rounds; the counts come back after each (one small copy).
 * A phase is one pass, or passes until one has no candidate (turns); the
 * gains are summed in the fixed order of roma_sum.h. Everything runs on
 * the run's own stream. */
#ifndef MATCHING_ROMA_GPU_CUH
#define MATCHING_ROMA_GPU_CUH

#include "contract/kernel_util.cuh"
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
    unsigned long long evaluated;
    double gain;
    /* the running pass's claim rounds, driven on the device (roma_round_end_kernel) */
    unsigned long long mark; /* applied when the running round began */
    int rounds;              /* rounds run in this pass */
    int stop;                /* 1: this pass's rounds are over; later launches of the batch do nothing */
    int phase;               /* the running phase (claim keys) */
};

constexpr int ROMA_ROUND_BATCH = 3; /* claim rounds per launch (a typical pass needs 3, the last empty) */

/* A run's claim priority: roma_claim_key's arguments but the phase, which
 * the kernels read from RomaCounts (the rounds' graph is captured once). */
struct RomaRule {
    int priority;
    uint64_t seed;
    __device__ __forceinline__ unsigned long long key(const roma_aug &a, int phase) const
    {
        return roma_claim_key(&a, priority, seed, phase);
    }
};

static inline unsigned roma_blocks(int64_t count, int block)
{
    return (unsigned)((count + block - 1) / block);
}

/* A live candidate touching a taken vertex dies; the others write their
 * key with max into every vertex they touch. */
static __global__ void __launch_bounds__(ROMA_BLOCK)
    roma_claim_kernel(roma_aug *aug, int32_t n, const uint8_t *taken, unsigned long long *slot, RomaRule rule,
                      const RomaCounts *counts)
{
    const int64_t i = (int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x;
    if (counts->stop || i >= n || aug[i].kind == ROMA_NONE)
        return;
    const roma_aug a = aug[i];
    int32_t t[6];
    const int k = roma_touched(&a, t);
    bool dead = false;
    for (int j = 0; j < k; j++)
        dead |= taken[t[j]] != 0;
    if (dead) {
        aug[i].kind = ROMA_NONE;
        return;
    }
    const unsigned long long key = rule.key(a, counts->phase);
    for (int j = 0; j < k; j++)
        atomicMax(slot + t[j], key);
}

/* After the evaluation: a centre with a pending turn that found nothing
 * ends the turn of its vertices (its own: no other thread touches them);
 * every other entry gets kind ROMA_NONE (evaluations may skip them);
 * counts the centres evaluated and the candidates. */
static __global__ void __launch_bounds__(ROMA_BLOCK)
    roma_turn_kernel(roma_aug *aug, int32_t n, const int32_t *mate, uint8_t *done, RomaCounts *counts)
{
    const int64_t i = (int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x;
    unsigned evaluated = 0, cand = 0;
    if (i < n) {
        const int32_t c = (int32_t)i, m = mate[c];
        if ((m < 0 || m > c) && roma_turn_pending(done, c, m)) {
            evaluated = 1;
            cand = aug[c].kind != ROMA_NONE;
            if (!cand) {
                done[c] = 1;
                if (m >= 0)
                    done[m] = 1;
            }
        } else {
            aug[c].kind = ROMA_NONE;
        }
    }
    ku_block_add(evaluated, &counts->evaluated);
    ku_block_add(cand, &counts->candidates);
}

/* A live candidate holding its key at every vertex it touches applies
 * itself, takes those vertices, adds its gain, ends its centre's turn and
 * leaves the game. */
static __global__ void __launch_bounds__(ROMA_BLOCK)
    roma_apply_kernel(roma_aug *aug, const unsigned long long *slot, int32_t n, int32_t *mate, double *mw,
                      uint8_t *taken, uint8_t *done, double *gains, RomaCounts *counts, RomaRule rule)
{
    if (counts->stop) /* the same for the whole grid: no block is left half in ku_block_add */
        return;
    const int64_t i = (int64_t)blockIdx.x * ROMA_BLOCK + threadIdx.x;
    unsigned app = 0;
    if (i < n && aug[i].kind != ROMA_NONE) {
        const roma_aug a = aug[i];
        int32_t t[6];
        const int k = roma_touched(&a, t);
        const unsigned long long key = rule.key(a, counts->phase);
        bool own = true;
        for (int j = 0; j < k; j++)
            own &= slot[t[j]] == key;
        if (own) {
            for (int j = 0; j < k; j++)
                taken[t[j]] = 1;
            roma_apply(mate, mw, &a);
            gains[i] += a.gain;
            done[a.v] = 1;
            if (a.u >= 0)
                done[a.u] = 1;
            aug[i].kind = ROMA_NONE;
            app = 1;
        }
    }
    ku_block_add(app, &counts->applied);
}

/* At the start of phase p, after the counts are zeroed (one thread). */
static __global__ void roma_phase_begin_kernel(RomaCounts *counts, int p)
{
    counts->phase = p;
}

/* Before a pass's claim rounds (one thread). */
static __global__ void roma_pass_begin_kernel(RomaCounts *counts)
{
    counts->mark = counts->applied;
    counts->rounds = 0;
    counts->stop = 0;
}

/* After a claim round (one thread): counts it, and ends the pass's rounds
 * when it applied nothing or max_rounds (> 0) ran, as roma_replay_cpu.c. */
static __global__ void roma_round_end_kernel(RomaCounts *counts, int max_rounds)
{
    if (counts->stop)
        return;
    counts->rounds++;
    if (counts->applied == counts->mark || (max_rounds > 0 && counts->rounds >= max_rounds))
        counts->stop = 1;
    counts->mark = counts->applied;
}

/* One level of roma_sum_fixed: out[b] = halving tree of in[b CHUNK ..). */
static __global__ void __launch_bounds__(ROMA_SUM_CHUNK / 2) roma_sum_kernel(const double *in, int64_t n, double *out)
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

/* The per-vertex arrays of a run; mw starts as the caller fills it. */
struct RomaWork {
    double *mw = nullptr, *gains = nullptr, *level[2] = {nullptr, nullptr};
    roma_aug *aug = nullptr;
    unsigned long long *slot = nullptr;
    uint8_t *taken = nullptr, *done = nullptr;
    RomaCounts *counts = nullptr;
    cudaStream_t stream = nullptr;     /* where the phases run: the run's stream (set by alloc) */
    cudaGraphExec_t pass = nullptr;    /* a pass: evaluation, turns, ROMA_ROUND_BATCH claim rounds */
    cudaGraphExec_t rounds = nullptr;  /* ROMA_ROUND_BATCH more claim rounds */
    ~RomaWork()
    {
        if (pass) /* teardown: nothing left to report an error to */
            cudaGraphExecDestroy(pass);
        if (rounds)
            cudaGraphExecDestroy(rounds);
        device_free(taken);
        device_free(done);
        device_free(mw);
        device_free(gains);
        device_free(level[0]);
        device_free(level[1]);
        device_free(aug);
        device_free(slot);
        device_free(counts);
    }
    int alloc(int32_t n, coarsen_error *err)
    {
        const size_t nlev = ((size_t)n + ROMA_SUM_CHUNK - 1) / ROMA_SUM_CHUNK + 1;
        int rc;
        if ((rc = dalloc(&mw, (size_t)n, "ROMA matched weights", err)) ||
            (rc = dalloc(&gains, (size_t)n, "ROMA gains", err)) ||
            (rc = dalloc(&level[0], nlev, "ROMA gain sums", err)) ||
            (rc = dalloc(&level[1], nlev, "ROMA gain sums", err)) ||
            (rc = dalloc(&aug, (size_t)n, "ROMA candidates", err)) ||
            (rc = dalloc(&slot, (size_t)n, "ROMA conflict keys", err)) ||
            (rc = dalloc(&taken, (size_t)n, "ROMA taken flags", err)) ||
            (rc = dalloc(&done, (size_t)n, "ROMA turn flags", err)) ||
            (rc = dalloc(&counts, 1, "ROMA counts", err)))
            return rc;
        stream = device_stream(); /* made by the first allocation */
        return COARSEN_OK;
    }
};

/* counts->gain = roma_sum_fixed(gains[0..n)), levels ping-ponging. */
static inline int roma_sum_gains(RomaWork &w, int64_t n, coarsen_error *err)
{
    if (n <= 1) {
        if (n == 1)
            CUDA_TRY(err, cudaMemcpyAsync(&w.counts->gain, w.gains, sizeof(double), cudaMemcpyDeviceToDevice,
                                          w.stream));
        return COARSEN_OK; /* n = 0: the zeroed counts hold 0 */
    }
    const double *in = w.gains;
    for (int k = 0; n > 1; k ^= 1) {
        const int64_t chunks = (n + ROMA_SUM_CHUNK - 1) / ROMA_SUM_CHUNK;
        double *out = chunks == 1 ? &w.counts->gain : w.level[k];
        roma_sum_kernel<<<(unsigned)chunks, ROMA_SUM_CHUNK / 2, 0, w.stream>>>(in, n, out);
        CUDA_LAUNCH_TRY(err);
        in = out;
        n = chunks;
    }
    return COARSEN_OK;
}

/* Enqueues ROMA_ROUND_BATCH claim rounds on w.stream. */
static int roma_enqueue_rounds(RomaWork &w, int32_t n, const roma_opts *opts, int32_t *d_mate, coarsen_error *err)
{
    const unsigned grid = roma_blocks(n, ROMA_BLOCK);
    const RomaRule rule{opts->priority, opts->seed};
    for (int k = 0; k < ROMA_ROUND_BATCH; k++) {
        CUDA_TRY(err, cudaMemsetAsync(w.slot, 0, (size_t)n * sizeof *w.slot, w.stream));
        roma_claim_kernel<<<grid, ROMA_BLOCK, 0, w.stream>>>(w.aug, n, w.taken, w.slot, rule, w.counts);
        CUDA_LAUNCH_TRY(err);
        roma_apply_kernel<<<grid, ROMA_BLOCK, 0, w.stream>>>(w.aug, w.slot, n, d_mate, w.mw, w.taken, w.done,
                                                             w.gains, w.counts, rule);
        CUDA_LAUNCH_TRY(err);
        roma_round_end_kernel<<<1, 1, 0, w.stream>>>(w.counts, opts->max_rounds);
        CUDA_LAUNCH_TRY(err);
    }
    return COARSEN_OK;
}

/* Captures what enqueue(err) puts on w.stream as a graph into *exec (the
 * capture is ended whatever enqueue returns). */
template <class Enqueue>
static int roma_capture(RomaWork &w, const Enqueue &enqueue, cudaGraphExec_t *exec, coarsen_error *err)
{
    CUDA_TRY(err, cudaStreamBeginCapture(w.stream, cudaStreamCaptureModeThreadLocal));
    const int rc = enqueue(err);
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(w.stream, &graph);
    if (rc || ended != cudaSuccess) {
        if (graph)
            cudaGraphDestroy(graph);
        return rc ? rc : device_cuda_fail(err, ended, "cudaStreamEndCapture (ROMA)", __FILE__, __LINE__);
    }
    const cudaError_t inst = cudaGraphInstantiate(exec, graph, 0);
    cudaGraphDestroy(graph);
    if (inst != cudaSuccess)
        return device_cuda_fail(err, inst, "cudaGraphInstantiate (ROMA)", __FILE__, __LINE__);
    return COARSEN_OK;
}

/* The two graphs of a run (nothing in them changes between passes): a
 * pass, i.e. eval(stream, err) evaluating every centre whose turn is
 * pending (w.done) into w.aug, roma_turn_kernel and a batch of claim
 * rounds; and a batch of claim rounds alone. */
template <class Eval>
static int roma_capture_graphs(RomaWork &w, int32_t n, const roma_opts *opts, int32_t *d_mate, const Eval &eval,
                               coarsen_error *err)
{
    const unsigned grid = roma_blocks(n, ROMA_BLOCK);
    int rc = roma_capture(w, [&](coarsen_error *e) -> int {
        CUDA_TRY(e, cudaMemsetAsync(w.taken, 0, (size_t)n, w.stream));
        if (int r = eval(w.stream, e))
            return r;
        roma_turn_kernel<<<grid, ROMA_BLOCK, 0, w.stream>>>(w.aug, n, d_mate, w.done, w.counts);
        CUDA_LAUNCH_TRY(e);
        roma_pass_begin_kernel<<<1, 1, 0, w.stream>>>(w.counts);
        CUDA_LAUNCH_TRY(e);
        return roma_enqueue_rounds(w, n, opts, d_mate, e);
    }, &w.pass, err);
    if (rc)
        return rc;
    return roma_capture(w, [&](coarsen_error *e) -> int { return roma_enqueue_rounds(w, n, opts, d_mate, e); },
                        &w.rounds, err);
}

/* One pass: the pass graph, then more batches of rounds until the pass's
 * rounds stop, one copy of the counts back per batch. *h: the phase's
 * counts so far, updated; the pass's candidates go to *cand. */
static int roma_gpu_pass(RomaWork &w, RomaCounts *h, roma_phase_stats *ps, unsigned long long *cand,
                         coarsen_error *err)
{
    const unsigned long long cand0 = h->candidates;
    CUDA_TRY(err, cudaGraphLaunch(w.pass, w.stream));
    ps->passes++;
    for (;;) {
        CUDA_TRY(err, cudaMemcpyAsync(h, w.counts, sizeof *h, cudaMemcpyDeviceToHost, w.stream));
        CUDA_TRY(err, cudaStreamSynchronize(w.stream));
        if (h->stop)
            break;
        CUDA_TRY(err, cudaGraphLaunch(w.rounds, w.stream));
    }
    ps->rounds += h->rounds;
    *cand = h->candidates - cand0;
    return COARSEN_OK;
}

/* The phase loop on w.stream: passes (one, or with opts->turns until one
 * has no candidate), then the fixed-order gain sum; stops after a phase
 * applying nothing or after opts->max_phases. eval(stream, err) enqueues
 * the evaluation on stream and nothing else (no copy, no allocation: it is
 * captured once). */
template <class Eval>
static int roma_gpu_phases(RomaWork &w, int32_t n, const roma_opts *opts, int32_t *d_mate, const Eval &eval,
                           roma_stats *stats, coarsen_error *err)
{
    const double t0 = timer_ms();
    int rc;
    if (n > 0 && (rc = roma_capture_graphs(w, n, opts, d_mate, eval, err)))
        return rc;
    for (int p = 0; p < opts->max_phases; p++) {
        roma_phase_stats *ps = &stats->phase[p];
        RomaCounts h{};
        CUDA_TRY(err, cudaMemsetAsync(w.counts, 0, sizeof *w.counts, w.stream));
        if (n > 0) {
            CUDA_TRY(err, cudaMemsetAsync(w.gains, 0, (size_t)n * sizeof *w.gains, w.stream));
            CUDA_TRY(err, cudaMemsetAsync(w.done, 0, (size_t)n, w.stream));
            roma_phase_begin_kernel<<<1, 1, 0, w.stream>>>(w.counts, p);
            CUDA_LAUNCH_TRY(err);
            unsigned long long cand = 0;
            do {
                if ((rc = roma_gpu_pass(w, &h, ps, &cand, err)))
                    return rc;
            } while (opts->turns && cand > 0);
            if ((rc = roma_sum_gains(w, n, err)))
                return rc;
            CUDA_TRY(err, cudaMemcpyAsync(&h, w.counts, sizeof h, cudaMemcpyDeviceToHost, w.stream));
        }
        CUDA_TRY(err, cudaStreamSynchronize(w.stream));
        ps->candidates = (int64_t)h.candidates;
        ps->applied = (int64_t)h.applied;
        ps->evaluated = (int64_t)h.evaluated;
        ps->gain = h.gain;
        stats->phases = p + 1;
        if (h.applied == 0)
            break;
    }
    stats->ms += timer_ms() - t0;
    return COARSEN_OK;
}

#endif

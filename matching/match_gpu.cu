/* match_gpu.cu — match_gpu (the C entry of the GPU matchers): option checks,
 * dispatch, timing and the fixed-order weight (same chunk tree as
 * match_weight.c); plus the active-list machinery of match_gpu.cuh. */
#include <cub/device/device_select.cuh>

#include "device/halving_tree.cuh"
#include "matching/match_gpu.cuh"
#include "matching/match_weight.h"
#include "core/error.h"
#include "core/timer.h"

#include <stdlib.h>
#include <string.h>

MatchShape match_shape(const coarsen_graph *g, const matching_opts *opts)
{
    MatchShape s;
    s.width = opts->gpu_group_width;
    if (s.width == 0) {
        double avg = g->n ? (double)g->nnz / g->n : 0.0;
        s.width = 1; /* two entries per lane: fewer shuffle steps per entry (9-22 % faster on the
                        H100 than one entry per lane over ER, RGG, grid, R-MAT and Delaunay) */
        while (s.width < 32 && 2 * s.width < avg)
            s.width *= 2;
    }
    s.heavy_degree = opts->gpu_heavy_degree;
    if (s.heavy_degree == 0)
        s.heavy_degree = s.width * 64 > 256 ? s.width * 64 : 256;
    s.medium_degree = s.width < 32 ? 4 * (int64_t)s.width : s.heavy_degree;
    if (s.medium_degree > s.heavy_degree)
        s.medium_degree = s.heavy_degree;
    return s;
}

/* Every vertex into the list of its degree class (light: degree <= medium,
 * medium: <= heavy, heavy: above), counted in counts[c] (zeroed before):
 * one launch for the three lists. Each block appends its vertices of a
 * class in id order at one atomic offset, so a list holds runs of ids in
 * the order the blocks came: a row's reduction does not depend on where
 * it stands, so neither do the choices. */
__global__ void __launch_bounds__(ROWS_BLOCK) k_degree_split(int32_t n, const int64_t *xadj, int64_t medium,
                                                             int64_t heavy, int32_t *light, int32_t *mid,
                                                             int32_t *hvy, unsigned long long *counts)
{
    __shared__ unsigned warp_n[NCLASSES][ROWS_BLOCK / 32]; /* per class: each warp's count, then its offset */
    __shared__ unsigned long long at[NCLASSES];           /* the block's place in each list */
    int32_t *const list[NCLASSES] = {light, mid, hvy};
    const int lane = (int)(threadIdx.x % 32), warp = (int)(threadIdx.x / 32);
    for (int64_t base = (int64_t)blockIdx.x * ROWS_BLOCK; base < n; base += (int64_t)gridDim.x * ROWS_BLOCK) {
        const int64_t v = base + threadIdx.x; /* the loop is block-uniform */
        int c = -1;
        if (v < n) {
            const int64_t d = xadj[v + 1] - xadj[v];
            c = d <= medium ? CLASS_LIGHT : d <= heavy ? CLASS_MEDIUM : CLASS_HEAVY;
        }
        unsigned mask[NCLASSES];
        for (int k = 0; k < NCLASSES; k++) {
            mask[k] = __ballot_sync(0xffffffffu, c == k);
            if (lane == 0)
                warp_n[k][warp] = __popc(mask[k]);
        }
        __syncthreads();
        if (threadIdx.x < NCLASSES) { /* one thread a class: warp offsets, one atomic */
            const int k = (int)threadIdx.x;
            unsigned sum = 0;
            for (int w = 0; w < ROWS_BLOCK / 32; w++) {
                const unsigned x = warp_n[k][w];
                warp_n[k][w] = sum;
                sum += x;
            }
            at[k] = sum ? atomicAdd(&counts[k], (unsigned long long)sum) : 0;
        }
        __syncthreads();
        if (c >= 0)
            list[c][at[c] + warp_n[c][warp] + __popc(mask[c] & ((1u << lane) - 1))] = (int32_t)v;
        __syncthreads(); /* warp_n and at, again */
    }
}

struct StillActive {
    const int32_t *mate;
    const uint8_t *alive;
    __device__ __forceinline__ bool operator()(int32_t v) const { return mate[v] < 0 && alive[v]; }
};

/* Stable selection of in[0..count) by pred into out, the count into *d_num. */
template <class In, class Pred>
static cudaError_t select_if_call(void *temp, size_t &bytes, In in, int32_t *out, unsigned long long *d_num,
                                  int64_t count, Pred pred)
{
    return cub::DeviceSelect::If(temp, bytes, in, out, d_num, count, pred, device_stream());
}
template <class In, class Pred>
static int select_if(Workspace &ws, In in, int32_t *out, unsigned long long *d_num, int64_t count, Pred pred,
                     coarsen_error *err)
{
    return ws.run_cub([&](void *temp, size_t &b) { return select_if_call(temp, b, in, out, d_num, count, pred); },
                      "active-list compaction", err);
}
template <class In, class Pred>
static int select_if_size(Workspace &ws, In in, int64_t count, Pred pred, coarsen_error *err)
{
    return ws.size_cub([&](void *temp, size_t &bytes) {
        return select_if_call(temp, bytes, in, (int32_t *)nullptr, (unsigned long long *)nullptr, count, pred);
    }, err);
}

/* Copies the class counts and the matched counter to the host: the pass's
 * one round trip. */
static int fetch_counts(ActiveLists *A, unsigned long long *matched, coarsen_error *err)
{
    unsigned long long h[NCLASSES + 1];
    CUDA_TRY(err, stream_copy(h, A->d_counts, sizeof h, cudaMemcpyDeviceToHost));
    for (int c = 0; c < NCLASSES; c++)
        A->count[c] = (int64_t)h[c];
    if (matched)
        *matched = h[NCLASSES];
    return COARSEN_OK;
}

int active_plan(Workspace &ws, const MatchGraph &G, ActiveLists *A, coarsen_error *err)
{
    memset(A, 0, sizeof *A);
    A->ws = &ws;
    ws.take(&A->d_counts, NCLASSES + 1);
    for (int c = 0; c < NCLASSES; c++)
        for (int k = 0; k < 2; k++)
            ws.take(&A->lists[c][k], (size_t)G.n);
    /* the largest selection: a compaction of all */
    return select_if_size(ws, (const int32_t *)nullptr, G.n, StillActive{nullptr, nullptr}, err);
}

int active_init(const MatchGraph &G, const MatchShape &shape, ActiveLists *A, coarsen_error *err)
{
    CUDA_TRY(err, cudaMemsetAsync(A->d_counts, 0, (NCLASSES + 1) * sizeof *A->d_counts, device_stream()));
    if (G.n == 0)
        return COARSEN_OK;
    const int64_t blocks = ((int64_t)G.n + ROWS_BLOCK - 1) / ROWS_BLOCK;
    k_degree_split<<<(unsigned)(blocks < (1 << 16) ? blocks : (1 << 16)), ROWS_BLOCK, 0, device_stream()>>>(
        G.n, G.xadj, shape.medium_degree, shape.heavy_degree, A->lists[CLASS_LIGHT][0], A->lists[CLASS_MEDIUM][0],
        A->lists[CLASS_HEAVY][0], A->d_counts);
    CUDA_LAUNCH_TRY(err);
    return fetch_counts(A, nullptr, err);
}

int active_compact(ActiveLists *A, const int32_t *mate, const uint8_t *alive, unsigned long long *matched,
                   coarsen_error *err)
{
    const int next = 1 - A->cur;
    /* not the matched counter */
    CUDA_TRY(err, cudaMemsetAsync(A->d_counts, 0, NCLASSES * sizeof *A->d_counts, device_stream()));
    for (int c = 0; c < NCLASSES; c++)
        if (A->count[c] > 0)
            if (int rc = select_if(*A->ws, (const int32_t *)A->lists[c][A->cur], A->lists[c][next], A->d_counts + c,
                                   A->count[c], StillActive{mate, alive}, err))
                return rc;
    A->cur = next;
    return fetch_counts(A, matched, err);
}

int MatchWork::init(const MatchGraph &G, const MatchShape &shape, int32_t *d_mate, coarsen_error *err)
{
    const size_t n = (size_t)G.n;
    ws.take(&choice, n);
    ws.take(&alive, n);
    int rc = active_plan(ws, G, &A, err);
    if (!rc)
        rc = ws.carve("matcher temporaries", err);
    if (!rc)
        rc = active_init(G, shape, &A, err);
    if (rc)
        return rc;
    CUDA_TRY(err, cudaMemsetAsync(d_mate, 0xff, n * sizeof *d_mate, device_stream())); /* -1 everywhere */
    CUDA_TRY(err, cudaMemsetAsync(choice, 0xff, n * sizeof *choice, device_stream()));
    return COARSEN_OK;
}

int MatchWork::end_pass(const int32_t *d_mate, int32_t n, matching_stats *stats, coarsen_error *err)
{
    unsigned long long matched = 0;
    if (int rc = active_compact(&A, d_mate, alive, &matched, err))
        return rc;
    if (stats->passes++ == 0)
        stats->first_round_fraction = (double)(int64_t)matched / n;
    return COARSEN_OK;
}

/* Chunk c: the halving tree over the contributions of vertices
 * [c CHUNK, (c+1) CHUNK), exactly as match_weight_cpu; pairs counted. */
__global__ void __launch_bounds__(MATCH_WEIGHT_CHUNK / 2)
    weight_chunks_kernel(MatchGraph G, const int32_t *__restrict__ mate, double *sums, unsigned long long *pairs)
{
    __shared__ double x[MATCH_WEIGHT_CHUNK / 2];
    const int t = threadIdx.x;
    const int64_t v0 = (int64_t)blockIdx.x * MATCH_WEIGHT_CHUNK + t, v1 = v0 + MATCH_WEIGHT_CHUNK / 2;
    double a = v0 < G.n ? match_weight_contrib(G.xadj, G.adj, G.ewgt, mate, (int32_t)v0) : 0.0;
    double b = v1 < G.n ? match_weight_contrib(G.xadj, G.adj, G.ewgt, mate, (int32_t)v1) : 0.0;
    unsigned cnt = (unsigned)(v0 < G.n && mate[v0] > v0) + (unsigned)(v1 < G.n && mate[v1] > v1);
    x[t] = a + b; /* the tree's first level, s = CHUNK / 2 */
    const double sum = halving_tree_sum<MATCH_WEIGHT_CHUNK / 2>(x);
    if (t == 0)
        sums[blockIdx.x] = sum;
    cnt = __reduce_add_sync(0xffffffffu, cnt);
    if ((t & 31) == 0 && cnt)
        atomicAdd(pairs, (unsigned long long)cnt);
}

static int weight_on_device(const MatchGraph &G, const int32_t *d_mate, double *sums, unsigned long long *d_pairs,
                            double *h_sums, matching_stats *stats, coarsen_error *err)
{
    int64_t chunks = ((int64_t)G.n + MATCH_WEIGHT_CHUNK - 1) / MATCH_WEIGHT_CHUNK;
    CUDA_TRY(err, cudaMemsetAsync(d_pairs, 0, sizeof *d_pairs, device_stream()));
    if (chunks > 0) {
        weight_chunks_kernel<<<(unsigned)chunks, MATCH_WEIGHT_CHUNK / 2, 0, device_stream()>>>(G, d_mate, sums,
                                                                                               d_pairs);
        CUDA_LAUNCH_TRY(err);
        CUDA_TRY(err, stream_copy(h_sums, sums, (size_t)chunks * sizeof *h_sums, cudaMemcpyDeviceToHost));
    }
    unsigned long long pairs = 0;
    CUDA_TRY(err, stream_copy(&pairs, d_pairs, sizeof pairs, cudaMemcpyDeviceToHost));
    stats->weight = match_weight_sum_chunks(h_sums, chunks);
    stats->matched_edges = (int64_t)pairs;
    return COARSEN_OK;
}

extern "C" int match_measure_gpu(const coarsen_graph *g, const int32_t *d_mate, matching_stats *stats,
                                 coarsen_error *err)
{
    MatchGraph G = match_graph(g);
    size_t chunks = ((size_t)g->n + MATCH_WEIGHT_CHUNK - 1) / MATCH_WEIGHT_CHUNK;
    double *sums = nullptr;
    unsigned long long *d_pairs = nullptr;
    double *h_sums = (double *)xmalloc(chunks * sizeof *h_sums, "matching weight chunks", err);
    if (!h_sums)
        return COARSEN_ERR_NOMEM;
    Workspace ws;
    ws.take(&sums, chunks);
    ws.take(&d_pairs, 1);
    int rc = ws.carve("matching weight", err);
    if (!rc)
        rc = weight_on_device(G, d_mate, sums, d_pairs, h_sums, stats, err);
    free(h_sums);
    return rc;
}

extern "C" int match_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
                         matching_stats *stats, coarsen_error *err)
{
    if (!g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "match_gpu needs a device graph");
    int rc = matching_opts_check(opts, err);
    if (rc)
        return rc;
    if (opts->kind == MATCHER_HEC)
        return error_set(err, COARSEN_ERR_INPUT, "hec makes groups, not a matching: use hec_gpu");
    memset(stats, 0, sizeof *stats);
    double t0 = timer_ms();
    rc = opts->kind == MATCHER_HANDSHAKE ? handshake_gpu(g, opts, d_mate, d_strongest, stats, err)
                                         : redblue_gpu(g, opts, d_mate, d_strongest, stats, err);
    if (rc)
        return rc;
    CUDA_TRY(err, cudaStreamSynchronize(device_stream()));
    stats->ms = timer_ms() - t0;
    return match_measure_gpu(g, d_mate, stats, err);
}

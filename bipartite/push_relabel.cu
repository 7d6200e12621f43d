/* push_relabel.cu — G-PR, push-relabel maximum-cardinality bipartite
 * matching on the GPU (Deveci, Kaya, Uçar, Çatalyürek, ICPP 2013), behind
 * bip_push_relabel_gpu (cardinality.h).
 *
 * State on the device: row labels psi (lower bounds on the alternating
 * distance to a free row; lim = unreachable), row_match, col_match, and a list
 * of active (unmatched) columns. One epoch:
 *  1. fix-matching: a column whose row does not point back is unmatched, then
 *     a row whose column does not point back is unmatched (the push kernel can
 *     leave both kinds behind when threads race);
 *  2. global relabel: level-synchronous BFS from the free rows (row -> its
 *     columns -> their matched rows), one frontier count per level;
 *  3. active list = unmatched columns with entries (CUB select);
 *  4. up to k * maxLevel push loops: each active column takes its neighbour
 *     row of least label (no locks, no atomics: concurrent pushes to one row
 *     race, the last write wins, and the losers see row_match[col_match[u]]
 *     != u later), the row's label becomes min + 2 and the row's previous
 *     column takes the pusher's slot in the list; the list is compacted after
 *     every loop (its count is the loop's one copy to the host).
 * Termination: the first loop of an epoch runs on exact labels; when it makes
 * no push, every unmatched column has only unreachable neighbours, so no
 * augmenting path exists and the matching is maximum. A cap on the loops
 * (never expected to bind) hands the matching to Hopcroft–Karp on the host
 * and says so in the statistics. */
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "bipartite/cardinality.h"
#include "core/error.h"
#include "device/cuda_check.cuh"

#include <string.h>

namespace {

constexpr int BLOCK = 256;

unsigned grid_for(int64_t n) { return (unsigned)((n + BLOCK - 1) / BLOCK); }

struct Gpr {
    int32_t rows = 0, cols = 0;
    int64_t *cptr = nullptr, *rptr = nullptr;
    int32_t *cind = nullptr, *rind = nullptr;
    int32_t *rmatch = nullptr, *cmatch = nullptr, *psi = nullptr;
    int32_t *list[2] = {nullptr, nullptr};   /* active columns (ping-pong) */
    int32_t *front[2] = {nullptr, nullptr};  /* BFS frontiers of rows (ping-pong) */
    unsigned long long *counters = nullptr;  /* [0] selected, [1] next frontier, [2] pushed */
};

void gpr_free(Gpr &d)
{
    device_free(d.cptr);
    device_free(d.rptr);
    device_free(d.cind);
    device_free(d.rind);
    device_free(d.rmatch);
    device_free(d.cmatch);
    device_free(d.psi);
    for (int k = 0; k < 2; k++) {
        device_free(d.list[k]);
        device_free(d.front[k]);
    }
    device_free(d.counters);
}

struct FreeRow {
    const int32_t *rmatch;
    __device__ __forceinline__ bool operator()(int32_t r) const { return rmatch[r] == -1; }
};

struct FreeColumn {
    const int32_t *cmatch;
    const int64_t *cptr;
    __device__ __forceinline__ bool operator()(int32_t c) const { return cmatch[c] == -1 && cptr[c + 1] > cptr[c]; }
};

struct Occupied {
    __device__ __forceinline__ bool operator()(int32_t x) const { return x >= 0; }
};

/* Stable selection of in[0..count) by pred into out; the count into *d_num. */
template <class In, class Pred>
int select_if(In in, int32_t *out, unsigned long long *d_num, int64_t count, Pred pred, coarsen_error *err)
{
    return cub_run([&](void *temp, size_t &bytes) {
        return cub::DeviceSelect::If(temp, bytes, in, out, d_num, count, pred, device_stream());
    }, "G-PR list selection", err);
}

/* One side of fix-matching: mine[x] = -1 where theirs[mine[x]] != x (columns
 * against rows, then rows against columns). */
__global__ void k_unmatch_one_sided(int32_t n, int32_t *mine, const int32_t *theirs)
{
    int64_t x = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (x >= n)
        return;
    int32_t y = mine[x];
    if (y >= 0 && theirs[y] != (int32_t)x)
        mine[x] = -1;
}

__global__ void k_label_init(int32_t rows, const int32_t *rmatch, int32_t *psi, int32_t lim)
{
    int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (r < rows)
        psi[r] = rmatch[r] == -1 ? 0 : lim;
}

/* One BFS level: every row of the frontier reaches, through each of its
 * columns, the column's matched row; the first to claim an unlabelled row
 * (atomicCAS, same label whoever wins) appends it to the next frontier. */
__global__ void k_bfs_level(const int32_t *front, int64_t n, const int64_t *rptr, const int32_t *rind,
                            const int32_t *cmatch, int32_t *psi, int32_t lim, int32_t label, int32_t *next,
                            unsigned long long *next_count)
{
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int32_t r = front[i];
    for (int64_t e = rptr[r]; e < rptr[r + 1]; e++) {
        int32_t r2 = cmatch[rind[e]];
        if (r2 >= 0 && psi[r2] == lim && atomicCAS(&psi[r2], lim, label) == lim)
            next[atomicAdd(next_count, 1ULL)] = r2;
    }
}

/* One push loop over list[0..n). Reads of labels and matches go around L1
 * (__ldcg) so they see other SMs' recent writes sooner; stale values are
 * tolerated by the algorithm either way. */
__global__ void k_push(int32_t *list, int64_t n, const int64_t *cptr, const int32_t *cind, int32_t *rmatch,
                       int32_t *cmatch, int32_t *psi, int32_t lim, unsigned long long *pushed)
{
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int32_t u = list[i];
    int32_t m = __ldcg(&cmatch[u]);
    if (m >= 0 && __ldcg(&rmatch[m]) == u) {
        list[i] = -1; /* a duplicate entry of a column matched meanwhile */
        return;
    }
    int32_t best = lim, v = -1;
    for (int64_t e = cptr[u]; e < cptr[u + 1]; e++) {
        int32_t r = cind[e];
        int32_t l = __ldcg(&psi[r]);
        if (l < best) {
            best = l;
            v = r;
            if (l == 0)
                break;
        }
    }
    if (v < 0) {
        list[i] = -1; /* every neighbour unreachable: inactive until the next relabel */
        return;
    }
    int32_t w = __ldcg(&rmatch[v]);
    rmatch[v] = u;
    cmatch[u] = v;
    psi[v] = best + 2;
    *pushed = 1;
    list[i] = w >= 0 && w != u ? w : -1;
}

int fix_matching(Gpr &d, coarsen_error *err)
{
    k_unmatch_one_sided<<<grid_for(d.cols), BLOCK, 0, device_stream()>>>(d.cols, d.cmatch, d.rmatch);
    CUDA_LAUNCH_TRY(err);
    k_unmatch_one_sided<<<grid_for(d.rows), BLOCK, 0, device_stream()>>>(d.rows, d.rmatch, d.cmatch);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

int fetch_counters(const Gpr &d, unsigned long long h[3], coarsen_error *err)
{
    CUDA_TRY(err, stream_copy(h, d.counters, 3 * sizeof *h, cudaMemcpyDeviceToHost));
    return COARSEN_OK;
}

/* Exact labels by BFS from the free rows; *max_level = deepest label. */
int global_relabel(Gpr &d, int32_t lim, int64_t *max_level, coarsen_error *err)
{
    k_label_init<<<grid_for(d.rows), BLOCK, 0, device_stream()>>>(d.rows, d.rmatch, d.psi, lim);
    CUDA_LAUNCH_TRY(err);
    thrust::counting_iterator<int32_t> all(0);
    if (int rc = select_if(all, d.front[0], d.counters, d.rows, FreeRow{d.rmatch}, err))
        return rc;
    unsigned long long h[3];
    if (int rc = fetch_counters(d, h, err))
        return rc;
    int64_t n = (int64_t)h[0];
    int cur = 0;
    int32_t label = 0;
    *max_level = 0;
    while (n > 0) {
        CUDA_TRY(err, cudaMemsetAsync(d.counters + 1, 0, sizeof *d.counters, device_stream()));
        k_bfs_level<<<grid_for(n), BLOCK, 0, device_stream()>>>(d.front[cur], n, d.rptr, d.rind, d.cmatch, d.psi, lim,
                                                                label + 2, d.front[1 - cur], d.counters + 1);
        CUDA_LAUNCH_TRY(err);
        if (int rc = fetch_counters(d, h, err))
            return rc;
        n = (int64_t)h[1];
        label += 2;
        if (n > 0)
            *max_level = label;
        cur = 1 - cur;
    }
    return COARSEN_OK;
}

/* Runs epochs until maximum (returns 0 with *capped = 0) or the loop cap. */
int gpr_run(Gpr &d, double k, bip_pr_stats *st, int *capped, coarsen_error *err)
{
    const int32_t lim = 2 * (d.rows < d.cols ? d.rows : d.cols) + 2;
    const int64_t loop_cap = 4 * ((int64_t)d.rows + d.cols) + 1000;
    thrust::counting_iterator<int32_t> all(0);
    *capped = 0;
    for (;;) {
        int64_t level = 0;
        int rc = fix_matching(d, err);
        if (!rc)
            rc = global_relabel(d, lim, &level, err);
        if (!rc)
            rc = select_if(all, d.list[0], d.counters, d.cols, FreeColumn{d.cmatch, d.cptr}, err);
        unsigned long long h[3];
        if (!rc)
            rc = fetch_counters(d, h, err);
        if (rc)
            return rc;
        st->global_relabels++;
        if (level > st->max_level)
            st->max_level = level;
        int64_t n = (int64_t)h[0];
        if (n == 0)
            return COARSEN_OK;
        int64_t budget = (int64_t)(k * (double)level);
        if (budget < 1)
            budget = 1;
        int cur = 0;
        for (int64_t it = 0; it < budget && n > 0; it++) {
            CUDA_TRY(err, cudaMemsetAsync(d.counters + 2, 0, sizeof *d.counters, device_stream()));
            k_push<<<grid_for(n), BLOCK, 0, device_stream()>>>(d.list[cur], n, d.cptr, d.cind, d.rmatch, d.cmatch,
                                                               d.psi, lim, d.counters + 2);
            CUDA_LAUNCH_TRY(err);
            st->pushes++;
            if ((rc = select_if(d.list[cur], d.list[1 - cur], d.counters, n, Occupied{}, err)) ||
                (rc = fetch_counters(d, h, err)))
                return rc;
            if (it == 0 && h[2] == 0)
                return COARSEN_OK; /* exact labels and no push: maximum */
            n = (int64_t)h[0];
            cur = 1 - cur;
        }
        if (st->pushes > loop_cap) {
            *capped = 1;
            return COARSEN_OK;
        }
    }
}

template <class T>
int upload(T **dst, const T *src, size_t count, const char *what, coarsen_error *err)
{
    if (int rc = dalloc(dst, count, what, err))
        return rc;
    return device_copy_to_device(*dst, src, count * sizeof(T), err);
}

} // namespace

extern "C" int bip_push_relabel_gpu(const bip_graph *g, const bip_pr_opts *opts, int32_t *row_match,
                                    int32_t *col_match, bip_pr_stats *stats, coarsen_error *err)
{
    bip_pr_stats local = {};
    bip_pr_stats *st = stats ? stats : &local;
    *st = bip_pr_stats{};
    if ((g->rows < g->cols ? g->rows : g->cols) >= (1 << 30) - 2)
        return error_set(err, COARSEN_ERR_INPUT, "G-PR: %d x %d: labels need min(rows, cols) < 2^30 - 2",
                         g->rows, g->cols);
    if (g->rows == 0 || g->cols == 0 || g->nnz == 0)
        return COARSEN_OK;
    double k = opts && opts->relabel_k > 0 ? opts->relabel_k : 0.7;
    Gpr d;
    d.rows = g->rows;
    d.cols = g->cols;
    int capped = 0;
    int rc = upload(&d.cptr, g->cptr, (size_t)g->cols + 1, "G-PR column offsets", err);
    if (!rc)
        rc = upload(&d.cind, g->cind, (size_t)g->nnz, "G-PR column entries", err);
    if (!rc)
        rc = upload(&d.rptr, g->rptr, (size_t)g->rows + 1, "G-PR row offsets", err);
    if (!rc)
        rc = upload(&d.rind, g->rind, (size_t)g->nnz, "G-PR row entries", err);
    if (!rc)
        rc = upload(&d.rmatch, row_match, (size_t)g->rows, "G-PR row matches", err);
    if (!rc)
        rc = upload(&d.cmatch, col_match, (size_t)g->cols, "G-PR column matches", err);
    if (!rc)
        rc = dalloc(&d.psi, (size_t)g->rows, "G-PR row labels", err);
    for (int j = 0; j < 2 && !rc; j++) {
        rc = dalloc(&d.list[j], (size_t)g->cols, "G-PR active columns", err);
        if (!rc)
            rc = dalloc(&d.front[j], (size_t)g->rows, "G-PR BFS frontier", err);
    }
    if (!rc)
        rc = dalloc(&d.counters, 3, "G-PR counters", err);
    if (!rc)
        rc = gpr_run(d, k, st, &capped, err);
    if (!rc)
        rc = fix_matching(d, err);
    if (!rc)
        rc = device_copy_to_host(row_match, d.rmatch, (size_t)g->rows * sizeof *row_match, err);
    if (!rc)
        rc = device_copy_to_host(col_match, d.cmatch, (size_t)g->cols * sizeof *col_match, err);
    gpr_free(d);
    if (!rc && capped) {
        st->cpu_fallback = 1;
        rc = bip_hopcroft_karp(g, row_match, col_match, err);
    }
    return rc;
}

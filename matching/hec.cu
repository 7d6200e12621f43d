/* hec.cu — heavy-edge clustering on the GPU (hec.h), step for step the
 * same as hec_cpu.c: (1) the choices by the matchers' row reductions
 * (PointerOp of match_gpu.cuh, load-balanced by degree, with the rating
 * kept); (2) roots, one thread per vertex; (3) each round: the pending
 * vertices split (stable DeviceSelect) into candidates and the rest, the
 * candidates ordered by two stable radix sorts (rating descending, then
 * leader) from id order, their weights summed per leader
 * (DeviceScan::InclusiveSumByKey, exact integers), one thread per candidate
 * admits or starts a group, and a second kernel adds the admitted weights to
 * the groups; (4) islands by position; (5) coarse ids by an exclusive sum
 * over the leader flags. Only counts cross to the host (one per round). */
#include "matching/hec.h"
#include "matching/match_gpu.cuh"
#include "contract/kernel_util.cuh"
#include "core/error.h"
#include "core/timer.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>


enum { HEC_GROUPED = 0, HEC_BLOCKED = 1, HEC_ISLANDS = 2, HEC_COUNTS = 3 };

/* Step 2 (hec_cpu.c: choose_and_root). */
__global__ void k_roots(int32_t n, const int32_t *choice, const int64_t *vwgt, int32_t *leader, int64_t *gw)
{
    for (int64_t i = ku_thread(); i < n; i += ku_threads()) {
        int32_t v = (int32_t)i, c = choice[v];
        leader[v] = -1;
        if (c < 0) {
            leader[v] = v;
            gw[v] = vwgt[v];
        } else if (choice[c] == v) {
            leader[v] = v < c ? v : c;
            gw[v] = vwgt[v] + vwgt[c];
        }
    }
}

/* Not in a group; with want_candidate, also whose choice is (a candidate of
 * the round), or without, whose choice is not. */
struct PendingPred {
    const int32_t *leader, *choice;
    int want_candidate;
    __device__ __forceinline__ bool operator()(int32_t v) const
    {
        return (leader[choice[v]] >= 0) == (want_candidate != 0);
    }
};

struct Unassigned {
    const int32_t *leader;
    __device__ __forceinline__ bool operator()(int32_t v) const { return leader[v] < 0; }
};

struct Isolated {
    const int64_t *xadj;
    __device__ __forceinline__ bool operator()(int32_t v) const { return xadj[v + 1] == xadj[v]; }
};

/* Candidate i: its rating and its position (the first sort's input). */
__global__ void k_candidate_keys(int32_t m, const int32_t *cand, const double *key, double *ckey, int32_t *idx)
{
    for (int64_t i = ku_thread(); i < m; i += ku_threads()) {
        ckey[i] = key[cand[i]];
        idx[i] = (int32_t)i;
    }
}

/* lead[k] = the leader of the choice of the candidate at position k of the
 * rating order. */
__global__ void k_candidate_leaders(int32_t m, const int32_t *perm1, const int32_t *cand, const int32_t *choice,
                                    const int32_t *leader, int32_t *lead)
{
    for (int64_t k = ku_thread(); k < m; k += ku_threads())
        lead[k] = leader[choice[cand[perm1[k]]]];
}

/* w[k] = weight of the candidate at position k of the final order. */
__global__ void k_candidate_weights(int32_t m, const int32_t *perm, const int32_t *cand, const int64_t *vwgt,
                                    int64_t *w)
{
    for (int64_t k = ku_thread(); k < m; k += ku_threads())
        w[k] = vwgt[cand[perm[k]]];
}

__device__ __forceinline__ bool admitted(int64_t cap, const int64_t *gw, int32_t lead, int64_t prefix)
{
    return cap <= 0 || gw[lead] + prefix <= cap;
}

/* Step 3's admission: candidate at position k joins lead[k] when the run's
 * prefix fits, else leads a group of its own; the last admitted of a run
 * leaves the run's admitted weight in add[k] (0 elsewhere). */
__global__ void k_admit(int32_t m, const int32_t *perm, const int32_t *cand, const int32_t *lead,
                        const int64_t *prefix, const int64_t *vwgt, int64_t cap, int32_t *leader, int64_t *gw,
                        int64_t *add)
{
    for (int64_t k = ku_thread(); k < m; k += ku_threads()) {
        int32_t v = cand[perm[k]], L = lead[k];
        add[k] = 0;
        if (admitted(cap, gw, L, prefix[k])) {
            leader[v] = L;
            if (k + 1 == m || lead[k + 1] != L || !admitted(cap, gw, L, prefix[k + 1]))
                add[k] = prefix[k];
        } else {
            leader[v] = v;
            gw[v] = vwgt[v];
        }
    }
}

__global__ void k_add_weights(int32_t m, const int32_t *lead, const int64_t *add, int64_t *gw)
{
    for (int64_t k = ku_thread(); k < m; k += ku_threads())
        if (add[k] > 0)
            gw[lead[k]] += add[k];
}

/* Adds each thread's c to *counter, one atomic per warp; every thread of
 * the grid calls it (after its grid-stride loop). */
__device__ __forceinline__ void warp_count(unsigned c, unsigned long long *counter)
{
    c = __reduce_add_sync(0xffffffffu, c);
    if (ku_lane() == 0 && c)
        atomicAdd(counter, (unsigned long long)c);
}

/* Step 4: the thread of even position j pairs islands j and j + 1. */
__global__ void k_islands(int32_t count, const int32_t *isl, const int64_t *vwgt, int64_t cap, int32_t *leader,
                          unsigned long long *counts)
{
    unsigned pairs = 0;
    for (int64_t j = 2 * ku_thread(); j + 1 < count; j += 2 * ku_threads()) {
        int32_t u = isl[j], v = isl[j + 1];
        if (pair_eligible(cap, vwgt[u], vwgt[v])) {
            leader[v] = u;
            pairs++;
        }
    }
    warp_count(pairs, &counts[HEC_ISLANDS]);
}

/* flag[v] = v leads a group; multi[leader[v]] = 1 for every member that is
 * not its leader. */
__global__ void k_flags(int32_t n, const int32_t *leader, int32_t *flag, uint8_t *multi)
{
    for (int64_t i = ku_thread(); i < n; i += ku_threads()) {
        int32_t v = (int32_t)i, L = leader[v];
        flag[v] = L == v;
        if (L != v)
            multi[L] = 1;
    }
}

/* cmap[v] = id[leader[v]]; grouped and cap-blocked vertices counted. */
__global__ void k_number(int32_t n, const int32_t *leader, const int32_t *id, const uint8_t *multi,
                         const int64_t *xadj, int32_t *cmap, unsigned long long *counts)
{
    unsigned grouped = 0, blocked = 0;
    for (int64_t i = ku_thread(); i < n; i += ku_threads()) {
        int32_t v = (int32_t)i, L = leader[v];
        cmap[v] = id[L];
        if (xadj[v + 1] > xadj[v]) {
            bool in_group = L != v || multi[v];
            grouped += in_group;
            blocked += !in_group;
        }
    }
    warp_count(grouped, &counts[HEC_GROUPED]);
    warp_count(blocked, &counts[HEC_BLOCKED]);
}

/* The temporaries of one run, in the workspace (n + 1 entries each). */
struct HecWork {
    int32_t *choice = nullptr, *leader = nullptr, *pending = nullptr, *rest = nullptr, *cand = nullptr;
    int32_t *idx = nullptr, *perm1 = nullptr, *perm = nullptr, *lead1 = nullptr, *lead = nullptr;
    double *key = nullptr, *ckey = nullptr, *ckey_sorted = nullptr;
    int64_t *gw = nullptr, *w = nullptr, *prefix = nullptr, *add = nullptr;
    uint8_t *multi = nullptr;
    int32_t *nsel = nullptr;
    unsigned long long *counts = nullptr;
    ActiveLists A{};
    Workspace ws;
};

/* The CUB calls of a round (k candidates) and of the numbering (n + 1). */
static cudaError_t rating_sort(void *tmp, size_t &b, const HecWork &W, int32_t k)
{
    return cub::DeviceRadixSort::SortPairsDescending(tmp, b, W.ckey, W.ckey_sorted, W.idx, W.perm1, (int64_t)k, 0,
                                                     (int)(sizeof *W.ckey * 8), device_stream());
}
static cudaError_t leader_sort(void *tmp, size_t &b, const HecWork &W, int32_t k)
{
    return cub::DeviceRadixSort::SortPairs(tmp, b, W.lead1, W.lead, W.perm1, W.perm, (int64_t)k, 0,
                                           (int)(sizeof *W.lead1 * 8), device_stream());
}
static cudaError_t prefix_sums(void *tmp, size_t &b, const HecWork &W, int32_t k)
{
    return cub::DeviceScan::InclusiveSumByKey(tmp, b, W.lead, W.w, W.prefix, (int64_t)k, ::cuda::std::equal_to<>{},
                                              device_stream());
}
static cudaError_t numbering(void *tmp, size_t &b, const HecWork &W, int32_t n)
{
    return cub::DeviceScan::ExclusiveSum(tmp, b, W.idx, W.perm, (int64_t)n + 1, device_stream());
}

/* Names every temporary of a graph of n vertices and takes the workspace. */
static int hec_plan(const coarsen_graph *g, HecWork &W, coarsen_error *err)
{
    const int32_t n = g->n;
    const size_t m = (size_t)n + 1;
    int32_t **ints[] = {&W.choice, &W.leader, &W.pending, &W.rest, &W.cand,
                        &W.idx, &W.perm1, &W.perm, &W.lead1, &W.lead};
    for (int32_t **p : ints)
        W.ws.take(p, m);
    double **dbl[] = {&W.key, &W.ckey, &W.ckey_sorted};
    for (double **p : dbl)
        W.ws.take(p, m);
    int64_t **wide[] = {&W.gw, &W.w, &W.prefix, &W.add};
    for (int64_t **p : wide)
        W.ws.take(p, m);
    W.ws.take(&W.multi, m);
    W.ws.take(&W.nsel, 1);
    W.ws.take(&W.counts, HEC_COUNTS);
    int rc = active_plan(W.ws, match_graph(g), &W.A, err);
    if (!rc)
        rc = W.ws.size_cub([&](void *t, size_t &b) { return rating_sort(t, b, W, n); }, err);
    if (!rc)
        rc = W.ws.size_cub([&](void *t, size_t &b) { return leader_sort(t, b, W, n); }, err);
    if (!rc)
        rc = W.ws.size_cub([&](void *t, size_t &b) { return prefix_sums(t, b, W, n); }, err);
    if (!rc)
        rc = W.ws.size_cub([&](void *t, size_t &b) { return numbering(t, b, W, n); }, err);
    if (!rc)
        rc = select_counted_size(W.ws, (const int32_t *)W.pending, n, PendingPred{W.leader, W.choice, 1}, err);
    if (!rc)
        rc = select_counted_size(W.ws, thrust::counting_iterator<int32_t>(0), n, Unassigned{W.leader}, err);
    if (!rc)
        rc = select_counted_size(W.ws, thrust::counting_iterator<int32_t>(0), n, Isolated{g->xadj}, err);
    return rc ? rc : W.ws.carve("HEC temporaries", err);
}

/* One round of step 3 over pending[0..*count); *m = its candidates. */
static int join_round(const coarsen_graph *g, int64_t cap, HecWork &W, int32_t *count, int32_t *m,
                      coarsen_error *err)
{
    int32_t rest = 0;
    const char *what = "HEC candidates";
    const int32_t *pending = W.pending;
    if (int rc = select_counted(W.ws, pending, *count, PendingPred{W.leader, W.choice, 1}, W.cand, W.nsel, m, what,
                                err))
        return rc;
    if (*m == 0)
        return COARSEN_OK;
    if (int rc = select_counted(W.ws, pending, *count, PendingPred{W.leader, W.choice, 0}, W.rest, W.nsel, &rest, what,
                                err))
        return rc;
    const int32_t k = *m;
    k_candidate_keys<<<ku_blocks(k), KU_THREADS, 0, device_stream()>>>(k, W.cand, W.key, W.ckey, W.idx);
    CUDA_LAUNCH_TRY(err);
    if (int rc = W.ws.run_cub([&](void *t, size_t &b) { return rating_sort(t, b, W, k); }, "HEC rating sort", err))
        return rc;
    k_candidate_leaders<<<ku_blocks(k), KU_THREADS, 0, device_stream()>>>(k, W.perm1, W.cand, W.choice, W.leader,
                                                                          W.lead1);
    CUDA_LAUNCH_TRY(err);
    if (int rc = W.ws.run_cub([&](void *t, size_t &b) { return leader_sort(t, b, W, k); }, "HEC leader sort", err))
        return rc;
    k_candidate_weights<<<ku_blocks(k), KU_THREADS, 0, device_stream()>>>(k, W.perm, W.cand, g->vwgt, W.w);
    CUDA_LAUNCH_TRY(err);
    if (int rc = W.ws.run_cub([&](void *t, size_t &b) { return prefix_sums(t, b, W, k); }, "HEC prefix sums", err))
        return rc;
    k_admit<<<ku_blocks(k), KU_THREADS, 0, device_stream()>>>(k, W.perm, W.cand, W.lead, W.prefix, g->vwgt, cap,
                                                              W.leader, W.gw, W.add);
    CUDA_LAUNCH_TRY(err);
    k_add_weights<<<ku_blocks(k), KU_THREADS, 0, device_stream()>>>(k, W.lead, W.add, W.gw);
    CUDA_LAUNCH_TRY(err);
    int32_t *t = W.pending;
    W.pending = W.rest;
    W.rest = t;
    *count = rest;
    return COARSEN_OK;
}

static int hec_run(const coarsen_graph *g, const matching_opts *opts, int32_t *d_cmap, int32_t *nc, hec_stats *st,
                   HecWork &W, coarsen_error *err)
{
    const int32_t n = g->n;
    const int64_t cap = opts->max_vertex_weight;
    const MatchGraph G = match_graph(g);
    if (int rc = hec_plan(g, W, err))
        return rc;
    const MatchShape shape = match_shape(g, opts);
    if (int rc = active_init(G, shape, &W.A, err))
        return rc;
    const PointerOp choose{match_ties(opts), nullptr, G.vwgt, cap, W.choice, nullptr, (int)opts->rating, W.key};
    if (int rc = rows_launch(G, W.A, shape, choose, err))
        return rc;
    k_roots<<<ku_blocks(n), KU_THREADS, 0, device_stream()>>>(n, W.choice, g->vwgt, W.leader, W.gw);
    CUDA_LAUNCH_TRY(err);
    int32_t count = 0, m = 0;
    if (int rc = select_counted(W.ws, thrust::counting_iterator<int32_t>(0), n, Unassigned{W.leader}, W.pending, W.nsel,
                                &count, "HEC pending vertices", err))
        return rc;
    while (count > 0) {
        if (int rc = join_round(g, cap, W, &count, &m, err))
            return rc;
        if (m == 0)
            break;
        st->rounds++;
    }
    CUDA_TRY(err, cudaMemsetAsync(W.counts, 0, HEC_COUNTS * sizeof *W.counts, device_stream()));
    int32_t islands = 0;
    if (int rc = select_counted(W.ws, thrust::counting_iterator<int32_t>(0), n, Isolated{g->xadj}, W.cand, W.nsel,
                                &islands, "HEC islands", err))
        return rc;
    if (islands >= 2) {
        k_islands<<<ku_blocks((islands + 1) / 2), KU_THREADS, 0, device_stream()>>>(islands, W.cand, g->vwgt, cap,
                                                                                    W.leader, W.counts);
        CUDA_LAUNCH_TRY(err);
    }
    CUDA_TRY(err, cudaMemsetAsync(W.multi, 0, (size_t)n, device_stream()));
    /* the sum's last term: perm[n] = nc */
    CUDA_TRY(err, cudaMemsetAsync(W.idx + n, 0, sizeof *W.idx, device_stream()));
    k_flags<<<ku_blocks(n), KU_THREADS, 0, device_stream()>>>(n, W.leader, W.idx, W.multi);
    CUDA_LAUNCH_TRY(err);
    if (int rc = W.ws.run_cub([&](void *t, size_t &b) { return numbering(t, b, W, n); }, "HEC numbering", err))
        return rc;
    k_number<<<ku_blocks(n), KU_THREADS, 0, device_stream()>>>(n, W.leader, W.perm, W.multi, g->xadj, d_cmap, W.counts);
    CUDA_LAUNCH_TRY(err);
    unsigned long long h[HEC_COUNTS];
    CUDA_TRY(err, stream_copy(h, W.counts, sizeof h, cudaMemcpyDeviceToHost));
    CUDA_TRY(err, stream_copy(nc, W.perm + n, sizeof *nc, cudaMemcpyDeviceToHost));
    st->grouped = (int64_t)h[HEC_GROUPED];
    st->cap_blocked = (int64_t)h[HEC_BLOCKED];
    st->island_pairs = (int64_t)h[HEC_ISLANDS];
    return COARSEN_OK;
}

extern "C" int hec_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_cmap, int32_t *nc,
                       hec_stats *stats, coarsen_error *err)
{
    double t0 = timer_ms();
    hec_stats st{};
    if (stats)
        *stats = st;
    *nc = 0;
    if (!g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "hec_gpu needs a device graph");
    int rc = matching_opts_check(opts, err);
    if (rc || g->n == 0)
        return rc;
    {
        HecWork W;
        if ((rc = hec_run(g, opts, d_cmap, nc, &st, W, err)))
            return rc;
    }
    CUDA_TRY(err, cudaStreamSynchronize(device_stream()));
    st.ms = timer_ms() - t0;
    if (stats)
        *stats = st;
    return COARSEN_OK;
}

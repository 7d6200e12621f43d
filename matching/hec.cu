/* hec.cu — heavy-edge clustering on the GPU (hec.h), step for step the
 * same as hec_cpu.c: (1) the choices by the matchers' row reductions
 * (PointerOp of match_gpu.cuh, load-balanced by degree, with the rating
 * kept); (2) roots, one thread per vertex; (3) each round: one stable
 * three-way partition of the vertices still pending into the candidates and
 * the rest (one count to the host), the candidates ordered by two stable radix sorts (rating descending, then
 * leader over the bits a vertex id needs) from id order, their weights
 * summed per leader (DeviceScan::InclusiveSumByKey, exact integers), one
 * thread per candidate admits or starts a group, and a second kernel adds
 * the admitted weights to the groups; (4) the vertices left alone as the
 * unmatched vertices of two_hop_gpu, its pairs joined under the smaller id;
 * (5) coarse ids by an exclusive sum over the leader flags. Only counts
 * cross to the host (one per round). Every launch and CUB call on
 * device_stream(). */
#include "matching/hec.h"
#include "matching/match_gpu.cuh"
#include "matching/two_hop.h"
#include "contract/kernel_util.cuh"
#include "core/error.h"
#include "core/timer.h"

#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>


enum { HEC_GROUPED = 0, HEC_BLOCKED = 1, HEC_COUNTS = 2 };

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

/* A candidate of the round: not in a group yet, its choice is. */
struct Candidate {
    const int32_t *leader, *choice;
    __device__ __forceinline__ bool operator()(int32_t v) const { return leader[v] < 0 && leader[choice[v]] >= 0; }
};

struct Always {
    __device__ __forceinline__ bool operator()(int32_t) const { return true; }
};

struct Unassigned {
    const int32_t *leader;
    __device__ __forceinline__ bool operator()(int32_t v) const { return leader[v] < 0; }
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

/* multi[leader[v]] = 1 for every member that is not its leader (multi
 * zeroed before). */
__global__ void k_multi(int32_t n, const int32_t *leader, uint8_t *multi)
{
    for (int64_t i = ku_thread(); i < n; i += ku_threads())
        if (leader[i] != (int32_t)i)
            multi[leader[i]] = 1;
}

/* Step 4's input (hec_cpu.c: pair_alone): -1 for a vertex alone, itself
 * for the others. */
__global__ void k_alone_mates(int32_t n, const int32_t *leader, const uint8_t *multi, int32_t *mate)
{
    for (int64_t i = ku_thread(); i < n; i += ku_threads()) {
        int32_t v = (int32_t)i;
        mate[v] = leader[v] == v && !multi[v] ? -1 : v;
    }
}

/* Step 4's pairs joined under the smaller id (multi marked at it), then
 * flag[v] = v leads a group. */
__global__ void k_join_pairs(int32_t n, const int32_t *mate, int32_t *leader, uint8_t *multi, int32_t *flag)
{
    for (int64_t i = ku_thread(); i < n; i += ku_threads()) {
        int32_t v = (int32_t)i, u = mate[v];
        if (u >= 0 && u < v) {
            leader[v] = u;
            multi[u] = 1;
        }
        flag[v] = leader[v] == v;
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

/* The device arrays of one run, freed by the destructor. */
struct HecWork {
    int32_t *choice = nullptr, *leader = nullptr, *pending = nullptr, *mate = nullptr, *cand = nullptr;
    int32_t *idx = nullptr, *perm1 = nullptr, *perm = nullptr, *lead1 = nullptr, *lead = nullptr;
    double *key = nullptr, *ckey = nullptr, *ckey_sorted = nullptr;
    int64_t *gw = nullptr, *w = nullptr, *prefix = nullptr, *add = nullptr;
    uint8_t *multi = nullptr;
    int32_t *nsel = nullptr;
    unsigned long long *counts = nullptr;
    ActiveLists A{};
    ~HecWork()
    {
        void *all[] = {choice, leader, pending, mate, cand, idx, perm1, perm, lead1, lead, key, ckey,
                       ckey_sorted, gw, w, prefix, add, multi, nsel, counts};
        for (void *p : all)
            device_free(p);
        active_free(&A);
    }
    int alloc(size_t n, coarsen_error *err)
    {
        int32_t **ints[] = {&choice, &leader, &pending, &mate, &cand, &idx, &perm1, &perm, &lead1, &lead};
        for (int32_t **p : ints)
            if (int rc = dalloc(p, n, "HEC vertex array", err))
                return rc;
        double **dbl[] = {&key, &ckey, &ckey_sorted};
        for (double **p : dbl)
            if (int rc = dalloc(p, n, "HEC ratings", err))
                return rc;
        int64_t **wide[] = {&gw, &w, &prefix, &add};
        for (int64_t **p : wide)
            if (int rc = dalloc(p, n, "HEC weights", err))
                return rc;
        if (int rc = dalloc(&multi, n, "HEC group flags", err))
            return rc;
        if (int rc = dalloc(&nsel, 2, "HEC counts of the partition", err))
            return rc;
        return dalloc(&counts, HEC_COUNTS, "HEC counts", err);
    }
};

/* The bits of a vertex id below n (at least 1): the leader sort's range. */
static int id_bits(int32_t n)
{
    int b = 1;
    while (b < 31 && (1LL << b) < (int64_t)n)
        b++;
    return b;
}

/* One round of step 3 over pending[0..*count) (vertices not in a group, in
 * increasing id): one stable three-way partition into the candidates (cand)
 * and the others (the next round's pending list, swapped in; nobody is left
 * for the third part); the *m candidates admitted or turned into leaders. */
static int join_round(const coarsen_graph *g, int64_t cap, HecWork &W, int32_t *count, int32_t *m,
                      coarsen_error *err)
{
    cudaStream_t s = device_stream();
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DevicePartition::If(tmp, b, W.pending, W.cand, W.mate, W.perm, W.nsel, (int64_t)*count,
                                            Candidate{W.leader, W.choice}, Always{}, s);
        }, "HEC candidates", err))
        return rc;
    CUDA_TRY(err, cudaMemcpyAsync(m, W.nsel, sizeof *m, cudaMemcpyDeviceToHost, s));
    CUDA_TRY(err, cudaStreamSynchronize(s));
    const int32_t k = *m;
    *count -= k;
    int32_t *t = W.pending;
    W.pending = W.mate;
    W.mate = t;
    if (k == 0)
        return COARSEN_OK;
    k_candidate_keys<<<ku_blocks(k), KU_THREADS, 0, s>>>(k, W.cand, W.key, W.ckey, W.idx);
    CUDA_LAUNCH_TRY(err);
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DeviceRadixSort::SortPairsDescending(tmp, b, W.ckey, W.ckey_sorted, W.idx, W.perm1,
                                                             (int64_t)k, 0, 64, s);
        }, "HEC rating sort", err))
        return rc;
    k_candidate_leaders<<<ku_blocks(k), KU_THREADS, 0, s>>>(k, W.perm1, W.cand, W.choice, W.leader, W.lead1);
    CUDA_LAUNCH_TRY(err);
    const int bits = id_bits(g->n);
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DeviceRadixSort::SortPairs(tmp, b, W.lead1, W.lead, W.perm1, W.perm, (int64_t)k, 0, bits, s);
        }, "HEC leader sort", err))
        return rc;
    k_candidate_weights<<<ku_blocks(k), KU_THREADS, 0, s>>>(k, W.perm, W.cand, g->vwgt, W.w);
    CUDA_LAUNCH_TRY(err);
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DeviceScan::InclusiveSumByKey(tmp, b, W.lead, W.w, W.prefix, (int64_t)k,
                                                      ::cuda::std::equal_to<>(), s);
        }, "HEC prefix sums", err))
        return rc;
    k_admit<<<ku_blocks(k), KU_THREADS, 0, s>>>(k, W.perm, W.cand, W.lead, W.prefix, g->vwgt, cap, W.leader, W.gw,
                                                 W.add);
    CUDA_LAUNCH_TRY(err);
    k_add_weights<<<ku_blocks(k), KU_THREADS, 0, s>>>(k, W.lead, W.add, W.gw);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

/* Step 4 (hec_cpu.c: pair_alone); leaves flag[v] = v leads a group in
 * W.idx and multi set at the leaders of groups of two or more. */
static int pair_alone(const coarsen_graph *g, const matching_opts *opts, HecWork &W, hec_stats *st,
                      coarsen_error *err)
{
    cudaStream_t s = device_stream();
    const int32_t n = g->n;
    CUDA_TRY(err, cudaMemsetAsync(W.multi, 0, (size_t)n, s));
    k_multi<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, W.leader, W.multi);
    CUDA_LAUNCH_TRY(err);
    k_alone_mates<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, W.leader, W.multi, W.mate);
    CUDA_LAUNCH_TRY(err);
    const two_hop_opts th = {opts->max_vertex_weight, opts->relatives_threshold};
    two_hop_stats ts;
    if (int rc = two_hop_gpu(g, &th, W.mate, &ts, err))
        return rc;
    k_join_pairs<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, W.mate, W.leader, W.multi, W.idx);
    CUDA_LAUNCH_TRY(err);
    st->island_pairs = ts.island_pairs;
    st->leaf_pairs = ts.leaf_pairs;
    st->twin_pairs = ts.twin_pairs;
    st->relative_pairs = ts.relative_pairs;
    return COARSEN_OK;
}

static int hec_run(const coarsen_graph *g, const matching_opts *opts, int32_t *d_cmap, int32_t *nc, hec_stats *st,
                   HecWork &W, coarsen_error *err)
{
    cudaStream_t s = device_stream();
    const int32_t n = g->n;
    const int64_t cap = opts->max_vertex_weight;
    const MatchGraph G = match_graph(g);
    if (int rc = W.alloc((size_t)n + 1, err))
        return rc;
    const MatchShape shape = match_shape(g, opts);
    if (int rc = active_init(G, shape, &W.A, err))
        return rc;
    const PointerOp choose{match_ties(opts), nullptr, G.vwgt, cap, W.choice, nullptr, (int)opts->rating, W.key};
    if (int rc = rows_launch(G, W.A, shape, choose, err))
        return rc;
    k_roots<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, W.choice, g->vwgt, W.leader, W.gw);
    CUDA_LAUNCH_TRY(err);
    int32_t count = 0;
    if (int rc = select_counted(thrust::counting_iterator<int32_t>(0), n, Unassigned{W.leader}, W.pending, W.nsel,
                                &count, "HEC pending vertices", err))
        return rc;
    /* while vertices are left, one of them is a candidate (its tree's root
     * is a group) */
    for (int32_t m = 0; count > 0;) {
        if (int rc = join_round(g, cap, W, &count, &m, err))
            return rc;
        if (m == 0)
            break;
        st->rounds++;
    }
    if (int rc = pair_alone(g, opts, W, st, err))
        return rc;
    CUDA_TRY(err, cudaMemsetAsync(W.counts, 0, HEC_COUNTS * sizeof *W.counts, s));
    CUDA_TRY(err, cudaMemsetAsync(W.idx + n, 0, sizeof *W.idx, s)); /* the sum's last term: perm[n] = nc */
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DeviceScan::ExclusiveSum(tmp, b, W.idx, W.perm, (int64_t)n + 1, s);
        }, "HEC numbering", err))
        return rc;
    k_number<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, W.leader, W.perm, W.multi, g->xadj, d_cmap, W.counts);
    CUDA_LAUNCH_TRY(err);
    unsigned long long h[HEC_COUNTS];
    CUDA_TRY(err, cudaMemcpyAsync(h, W.counts, sizeof h, cudaMemcpyDeviceToHost, s));
    CUDA_TRY(err, cudaMemcpyAsync(nc, W.perm + n, sizeof *nc, cudaMemcpyDeviceToHost, s));
    CUDA_TRY(err, cudaStreamSynchronize(s));
    st->grouped = (int64_t)h[HEC_GROUPED];
    st->cap_blocked = (int64_t)h[HEC_BLOCKED];
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

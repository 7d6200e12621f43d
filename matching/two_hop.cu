/* two_hop.cu — GPU leaf and twin matching (two_hop.h), identical to the CPU
 * reference: candidates (unmatched, degree >= 1) selected in increasing id,
 * one warp per candidate hashes its list (a sum mod 2^64: exact in any
 * order), two stable radix sorts order them by (degree, hash, id), one
 * thread per position compares its list with the previous candidate's to
 * mark class starts, and one thread per class pairs its members greedily
 * under the weight cap, in the CPU's order. */
#include "matching/two_hop.h"
#include "contract/kernel_util.cuh"
#include "core/error.h"
#include "core/timer.h"
#include "device/cuda_check.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

struct is_candidate {
    const int32_t *mate;
    const int64_t *xadj;
    __host__ __device__ bool operator()(int32_t v) const { return mate[v] == -1 && xadj[v + 1] > xadj[v]; }
};

/* One warp per candidate i: hash[i] = sum of two_hop_term over its list;
 * idx[i] = i. */
__global__ void k_list_hash(int32_t m, const int32_t *ids, const int64_t *xadj, const int32_t *adj,
                            uint64_t *hash, int32_t *idx)
{
    for (int64_t i = ku_warp(); i < m; i += ku_warps()) {
        int32_t v = ids[i];
        uint64_t h = 0;
        for (int64_t e = xadj[v] + ku_lane(); e < xadj[v + 1]; e += KU_WARP)
            h += two_hop_term(adj[e]);
        for (int d = KU_WARP / 2; d > 0; d /= 2)
            h += __shfl_down_sync(0xffffffffu, h, d);
        if (ku_lane() == 0) {
            hash[i] = h;
            idx[i] = (int32_t)i;
        }
    }
}

/* deg[k] = degree of the candidate at position k (hash order). */
__global__ void k_degrees(int32_t m, const int32_t *order, const int32_t *ids, const int64_t *xadj, int32_t *deg)
{
    for (int64_t k = ku_thread(); k < m; k += ku_threads()) {
        int32_t v = ids[order[k]];
        deg[k] = (int32_t)(xadj[v + 1] - xadj[v]);
    }
}

/* start[k] = 1 when the candidate at position k (final order) does not have
 * the same neighbour list as the one before it. */
__global__ void k_class_starts(int32_t m, const int32_t *order, const int32_t *ids, const uint64_t *hash,
                               const int64_t *xadj, const int32_t *adj, unsigned char *start)
{
    for (int64_t k = ku_thread(); k < m; k += ku_threads()) {
        int s = 1;
        if (k > 0) {
            int32_t a = order[k - 1], b = order[k];
            int32_t u = ids[a], v = ids[b];
            int64_t d = xadj[u + 1] - xadj[u];
            if (d == xadj[v + 1] - xadj[v] && hash[a] == hash[b]) {
                s = 0;
                for (int64_t j = 0; j < d; j++)
                    if (adj[xadj[u] + j] != adj[xadj[v] + j]) {
                        s = 1;
                        break;
                    }
            }
        }
        start[k] = (unsigned char)s;
    }
}

/* One thread per class: greedy pairing in order (two_hop.h); counts[0]
 * leaf pairs, counts[1] twin pairs. */
__global__ void k_pair_classes(int32_t m, const int32_t *order, const int32_t *ids, const unsigned char *start,
                               const int64_t *xadj, const int64_t *vwgt, int64_t cap, int32_t *mate,
                               unsigned long long *counts)
{
    for (int64_t k = ku_thread(); k < m; k += ku_threads()) {
        if (!start[k])
            continue;
        int32_t pending = ids[order[k]];
        int leaf = xadj[pending + 1] - xadj[pending] == 1;
        unsigned long long pairs = 0;
        for (int64_t j = k + 1; j < m && !start[j]; j++) {
            int32_t v = ids[order[j]];
            if (pending < 0) {
                pending = v;
            } else if (cap <= 0 || vwgt[pending] + vwgt[v] <= cap) {
                mate[pending] = v;
                mate[v] = pending;
                pairs++;
                pending = -1;
            } else if (vwgt[v] < vwgt[pending]) {
                pending = v;
            }
        }
        if (pairs)
            atomicAdd(&counts[leaf ? 0 : 1], pairs);
    }
}

struct two_hop_temps {
    int32_t *ids = nullptr, *nsel = nullptr, *idx = nullptr, *order1 = nullptr, *order = nullptr;
    int32_t *deg = nullptr, *deg_sorted = nullptr;
    uint64_t *hash = nullptr, *hash_sorted = nullptr;
    unsigned char *start = nullptr;
    unsigned long long *counts = nullptr;
    ~two_hop_temps()
    {
        void *all[] = {ids, nsel, idx, order1, order, deg, deg_sorted, hash, hash_sorted, start, counts};
        for (void *p : all)
            device_free(p);
    }
};

static int two_hop_gpu_run(const coarsen_graph *g, int64_t cap, int32_t *mate, int64_t pairs[2],
                           two_hop_temps &t, coarsen_error *err)
{
    const int32_t n = g->n;
    if (int rc = dalloc(&t.ids, (size_t)n, "two-hop candidates", err))
        return rc;
    if (int rc = dalloc(&t.nsel, 1, "two-hop count", err))
        return rc;
    is_candidate pred{mate, g->xadj};
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DeviceSelect::If(tmp, b, thrust::counting_iterator<int32_t>(0), t.ids, t.nsel, (int64_t)n,
                                         pred);
        }, "two-hop selection", err))
        return rc;
    int32_t m = 0;
    CUDA_TRY(err, cudaMemcpy(&m, t.nsel, sizeof m, cudaMemcpyDeviceToHost));
    if (m < 2)
        return COARSEN_OK;

    if (int rc = dalloc(&t.hash, (size_t)m, "list hashes", err))
        return rc;
    if (int rc = dalloc(&t.hash_sorted, (size_t)m, "sorted hashes", err))
        return rc;
    if (int rc = dalloc(&t.idx, (size_t)m, "candidate order", err))
        return rc;
    if (int rc = dalloc(&t.order1, (size_t)m, "candidate order", err))
        return rc;
    k_list_hash<<<ku_blocks(m, KU_WARP), KU_THREADS>>>(m, t.ids, g->xadj, g->adj, t.hash, t.idx);
    CUDA_LAUNCH_TRY(err);
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DeviceRadixSort::SortPairs(tmp, b, t.hash, t.hash_sorted, t.idx, t.order1, (int64_t)m);
        }, "two-hop hash sort", err))
        return rc;
    device_free(t.hash_sorted);
    t.hash_sorted = nullptr;
    if (int rc = dalloc(&t.deg, (size_t)m, "candidate degrees", err))
        return rc;
    if (int rc = dalloc(&t.deg_sorted, (size_t)m, "sorted degrees", err))
        return rc;
    if (int rc = dalloc(&t.order, (size_t)m, "candidate order", err))
        return rc;
    k_degrees<<<ku_blocks(m), KU_THREADS>>>(m, t.order1, t.ids, g->xadj, t.deg);
    CUDA_LAUNCH_TRY(err);
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DeviceRadixSort::SortPairs(tmp, b, t.deg, t.deg_sorted, t.order1, t.order, (int64_t)m);
        }, "two-hop degree sort", err))
        return rc;

    if (int rc = dalloc(&t.start, (size_t)m, "class starts", err))
        return rc;
    if (int rc = dalloc(&t.counts, 2, "pair counts", err))
        return rc;
    k_class_starts<<<ku_blocks(m), KU_THREADS>>>(m, t.order, t.ids, t.hash, g->xadj, g->adj, t.start);
    CUDA_LAUNCH_TRY(err);
    CUDA_TRY(err, cudaMemsetAsync(t.counts, 0, 2 * sizeof *t.counts, 0));
    k_pair_classes<<<ku_blocks(m), KU_THREADS>>>(m, t.order, t.ids, t.start, g->xadj, g->vwgt, cap, mate, t.counts);
    CUDA_LAUNCH_TRY(err);
    unsigned long long h_counts[2] = {0, 0};
    CUDA_TRY(err, cudaMemcpy(h_counts, t.counts, sizeof h_counts, cudaMemcpyDeviceToHost));
    pairs[0] = (int64_t)h_counts[0];
    pairs[1] = (int64_t)h_counts[1];
    return COARSEN_OK;
}

extern "C" int two_hop_gpu(const coarsen_graph *g, int64_t max_vertex_weight, int32_t *d_mate, two_hop_stats *stats,
                           coarsen_error *err)
{
    double t0 = timer_ms();
    if (stats)
        *stats = two_hop_stats{};
    if (!g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "two_hop_gpu needs a device graph");
    int64_t pairs[2] = {0, 0};
    if (g->n > 0) {
        two_hop_temps t;
        if (int rc = two_hop_gpu_run(g, max_vertex_weight, d_mate, pairs, t, err))
            return rc;
    }
    if (stats) {
        stats->leaf_pairs = pairs[0];
        stats->twin_pairs = pairs[1];
        stats->ms = timer_ms() - t0;
    }
    return COARSEN_OK;
}

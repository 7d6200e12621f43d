/* contract.cu — GPU contraction and map from mates (contract.h), identical to
 * the CPU reference, real weights included. Contraction pipeline:
 *   1. stable radix sort of fine ids by coarse id -> members of every group
 *      in increasing fine id (groups contiguous, in coarse order);
 *   2. scan of the members' row lengths -> each member's row has a fixed
 *      place in one gathered array (nnz entries); coarse row c's segment is
 *      the concatenation of its members' rows, in the CPU's order;
 *   3. gather (coarse neighbour, fine entry index), internal entries keyed
 *      nc (they sort last in their segment and are dropped); the weights stay
 *      in the fine graph (indices are 4 bytes when nnz < 2^32, not 8);
 *   4. stable segmented sort by coarse neighbour (64-bit offsets, double
 *      buffers: no extra copy in CUB's temporary storage);
 *   5. a run start is the first entry of a segment or a key change; a
 *      reduction counts them (the coarse nnz); scans of run starts, chunk by
 *      chunk of CONTRACT_RUN_CHUNK entries with a device-side carry, number the coarse
 *      entries; one thread per run sums its fine weights left to right (the
 *      CPU's order; no tree reduction);
 *   6. real weights: entry (c, b) with b < c copies the weight of (b, c)
 *      (contract.h); integer sums are exact, so both directions agree.
 * Memory per fine entry at the peak: docs/design-contraction.md.
 * Only counts (and an error flag) cross to the host. */
#include "contract/contract.h"
#include "contract/contract_gpu_memory.h"
#include "contract/kernel_util.cuh"
#include "core/error.h"
#include "device/cuda_check.cuh"
#include "core/row_find.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

/* ---------------------------------------------------------------- map */

/* flags[v] = 1 when v leads its group (unmatched, or the smaller of its
 * pair); flags[n] = 0. *bad = 1 when mate is not a symmetric matching. */
__global__ void k_leader_flags(int32_t n, const int32_t *mate, int32_t *flags, int32_t *bad)
{
    for (int64_t v = ku_thread(); v <= n; v += ku_threads()) {
        if (v == n) {
            flags[v] = 0;
            continue;
        }
        int32_t m = mate[v];
        int ok = m == -1 || (m >= 0 && m < n && m != v && mate[m] == v);
        if (!ok)
            atomicOr(bad, 1);
        flags[v] = (m == -1 || v < m) ? 1 : 0;
    }
}

/* cmap[v] = the id of v's leader. Only called on a valid matching. */
__global__ void k_map_from_ids(int32_t n, const int32_t *mate, const int32_t *ids, int32_t *cmap)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads()) {
        int32_t m = mate[v];
        cmap[v] = (m == -1 || v < m) ? ids[v] : ids[m];
    }
}

extern "C" int contract_map_from_mates_gpu(int32_t n, const int32_t *d_mate, int32_t *d_cmap, int32_t *nc,
                                           coarsen_error *err)
{
    *nc = 0;
    if (n == 0)
        return COARSEN_OK;
    int32_t *flags = nullptr, *ids = nullptr, *bad = nullptr;
    int rc = dalloc(&flags, (size_t)n + 1, "leader flags", err);
    if (!rc)
        rc = dalloc(&ids, (size_t)n + 1, "coarse ids", err);
    if (!rc)
        rc = dalloc(&bad, 1, "error flag", err);
    if (!rc)
        rc = [&]() -> int {
            CUDA_TRY(err, cudaMemsetAsync(bad, 0, sizeof *bad, device_stream()));
            k_leader_flags<<<ku_blocks((int64_t)n + 1), KU_THREADS, 0, device_stream()>>>(n, d_mate, flags, bad);
            CUDA_LAUNCH_TRY(err);
            int32_t h_bad = 0;
            CUDA_TRY(err, stream_copy(&h_bad, bad, sizeof h_bad, cudaMemcpyDeviceToHost));
            if (h_bad)
                return error_set(err, COARSEN_ERR_INPUT, "contract: mate[] is not a symmetric matching");
            int r = cub_run([&](void *t, size_t &b) {
                return cub::DeviceScan::ExclusiveSum(t, b, flags, ids, (int64_t)n + 1, device_stream());
            }, "leader scan", err);
            if (r)
                return r;
            k_map_from_ids<<<ku_blocks(n), KU_THREADS, 0, device_stream()>>>(n, d_mate, ids, d_cmap);
            CUDA_LAUNCH_TRY(err);
            CUDA_TRY(err, stream_copy(nc, ids + n, sizeof *nc, cudaMemcpyDeviceToHost));
            return COARSEN_OK;
        }();
    device_free(flags);
    device_free(ids);
    device_free(bad);
    if (rc)
        *nc = 0;
    return rc;
}

/* ---------------------------------------------------------- contraction */

/* *bad |= 1 when some cmap value lies outside [0, nc); idx[v] = v. */
__global__ void k_check_map(int32_t n, const int32_t *cmap, int32_t nc, int32_t *idx, int32_t *bad)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads()) {
        if (cmap[v] < 0 || cmap[v] >= nc)
            atomicOr(bad, 1);
        idx[v] = (int32_t)v;
    }
}

/* From the sorted coarse ids skey[0..n): gptr[c] = first position of group c
 * (gptr[nc] = n); *bad |= 2 when a coarse id has no member. */
__global__ void k_group_ptr(int32_t n, const int32_t *skey, int32_t nc, int32_t *gptr, int32_t *bad)
{
    for (int64_t i = ku_thread(); i <= n; i += ku_threads()) {
        int32_t prev = i == 0 ? -1 : skey[i - 1];
        int32_t k = i == n ? nc : skey[i];
        if (k - prev > 1)
            atomicOr(bad, 2);
        for (int64_t c = (int64_t)prev + 1; c <= k; c++)
            gptr[c] = (int32_t)i;
    }
}

/* rowlen[p] = degree of the p-th member (0 at p = n). */
__global__ void k_member_degrees(int32_t n, const int32_t *members, const int64_t *xadj, int64_t *rowlen)
{
    for (int64_t p = ku_thread(); p <= n; p += ku_threads())
        rowlen[p] = p == n ? 0 : xadj[members[p] + 1] - xadj[members[p]];
}

/* segoff[c] = start of coarse row c's segment in the gathered array. */
__global__ void k_segment_offsets(int32_t nc, const int32_t *gptr, const int64_t *pos, int64_t *segoff)
{
    for (int64_t c = ku_thread(); c <= nc; c += ku_threads())
        segoff[c] = pos[gptr[c]];
}

/* One warp per member p: its row, in stored order, to [pos[p], pos[p+1]):
 * key = coarse neighbour (nc for internal entries), ref = the fine entry's
 * index (its weight stays in the fine graph: no weight is moved by the sort). */
template <class Ref>
__global__ void k_gather(int32_t n, const int32_t *members, const int32_t *skey, const int64_t *pos,
                         const int64_t *xadj, const int32_t *adj, const int32_t *cmap, int32_t nc, int32_t *key,
                         Ref *ref)
{
    for (int64_t p = ku_warp(); p < n; p += ku_warps()) {
        int32_t u = members[p], c = skey[p];
        int64_t first = xadj[u], deg = xadj[u + 1] - first, base = pos[p];
        for (int64_t j = ku_lane(); j < deg; j += KU_WARP) {
            int32_t k = cmap[adj[first + j]];
            key[base + j] = k == c ? nc : k;
            ref[base + j] = (Ref)(first + j);
        }
    }
}

/* head[segoff[c]] = 1 for every non-empty segment (head zeroed before). */
__global__ void k_segment_heads(int32_t nc, const int64_t *segoff, unsigned char *head)
{
    for (int64_t c = ku_thread(); c < nc; c += ku_threads())
        if (segoff[c] < segoff[c + 1])
            head[segoff[c]] = 1;
}

/* 1 at the first entry of each external run of the sorted segments; 0 at
 * internal entries and at i >= nnz (so a scan's last value is a total). */
struct run_start {
    const int32_t *key;
    const unsigned char *head;
    int64_t nnz;
    int32_t nc;
    __host__ __device__ int64_t operator()(int64_t i) const
    {
        return i < nnz && key[i] != nc && (head[i] || key[i] != key[i - 1]) ? 1 : 0;
    }
};

/* Chunk [c0, c0 + len) of the sorted entries; runidx[i - c0] = number of run
 * starts in [c0, i) for i in [c0, c0 + len], *carry = run starts before c0.
 * One thread per run start: coarse entry *carry + runidx[i - c0] = (key,
 * left-to-right sum of the run's fine weights). A run may go on past the
 * chunk: it is summed by the thread of its start. */
template <class Ref>
__global__ void k_sum_runs(run_start rs, const Ref *ref, const double *ewgt, int64_t c0, int64_t len,
                           const int64_t *runidx, const int64_t *carry, int32_t *cadj, double *cewgt)
{
    for (int64_t t = ku_thread(); t < len; t += ku_threads()) {
        int64_t i = c0 + t;
        if (!rs(i))
            continue;
        int32_t k = rs.key[i];
        double s = ewgt[ref[i]];
        for (int64_t j = i + 1; j < rs.nnz && !rs.head[j] && rs.key[j] == k; j++)
            s += ewgt[ref[j]];
        int64_t out = *carry + runidx[t];
        cadj[out] = k;
        cewgt[out] = s;
    }
}

/* cxadj[c] = run starts before segoff[c], for the coarse rows whose segment
 * starts in this chunk (at its end too for the last chunk: the empty
 * trailing rows and c = nc). */
__global__ void k_coarse_offsets(int32_t nc, const int64_t *segoff, int64_t c0, int64_t len, int64_t nnz,
                                 const int64_t *runidx, const int64_t *carry, int64_t *cxadj)
{
    const int64_t end = c0 + len;
    for (int64_t c = ku_thread(); c <= nc; c += ku_threads()) {
        int64_t s = segoff[c];
        if (s >= c0 && (s < end || (end == nnz && s == end)))
            cxadj[c] = *carry + runidx[s - c0];
    }
}

/* After a chunk: *carry += its run starts (runidx[len]). */
__global__ void k_add_carry(const int64_t *runidx, int64_t len, int64_t *carry)
{
    if (ku_thread() == 0)
        *carry += runidx[len];
}

/* Coarse vertex weights (integer sums: any order). */
__global__ void k_coarse_vwgt(int32_t nc, const int32_t *gptr, const int32_t *members, const int64_t *vwgt,
                              int64_t *cvwgt)
{
    for (int64_t c = ku_thread(); c < nc; c += ku_threads()) {
        int64_t s = 0;
        for (int32_t i = gptr[c]; i < gptr[c + 1]; i++)
            s += vwgt[members[i]];
        cvwgt[c] = s;
    }
}

/* One warp per coarse row c: every entry (c, b) with b < c takes the weight
 * of (b, c), summed in row b (contract.h); entries with b > c are only read. */
__global__ void k_mirror_weights(int32_t nc, const int64_t *cxadj, const int32_t *cadj, double *cewgt)
{
    for (int64_t c = ku_warp(); c < nc; c += ku_warps()) {
        for (int64_t e = cxadj[c] + ku_lane(); e < cxadj[c + 1]; e += KU_WARP) {
            int32_t b = cadj[e];
            if (b >= c)
                break; /* the row is sorted: no smaller neighbour after this */
            cewgt[e] = cewgt[row_find(cxadj, cadj, b, (int32_t)c)]; /* present: rows are symmetric */
        }
    }
}

/* Sorted entries numbered per chunk of this many: the run numbering takes
 * 8 bytes per chunk entry instead of 8 per fine entry (design-contraction.md). */
static int64_t g_run_chunk = CONTRACT_RUN_CHUNK;

extern "C" void contract_gpu_set_run_chunk(int64_t entries)
{
    g_run_chunk = entries > 0 ? entries : CONTRACT_RUN_CHUNK;
}

/* Device temporaries of one contraction, freed together. ref_in/ref hold
 * uint32_t or uint64_t fine entry indices (see contract_entries). */
struct contract_temps {
    int32_t *bad = nullptr, *idx = nullptr, *skey = nullptr, *members = nullptr, *gptr = nullptr;
    int64_t *pos = nullptr, *segoff = nullptr, *runidx = nullptr, *count = nullptr;
    int32_t *key_in = nullptr, *key = nullptr;
    void *ref_in = nullptr, *ref = nullptr;
    unsigned char *head = nullptr;
    ~contract_temps()
    {
        void *all[] = {bad, idx, skey, members, gptr, pos, segoff, runidx, count, key_in, key, ref_in, ref, head};
        for (void *p : all)
            device_free(p);
    }
};

template <class T>
static void free_temp(T *&p)
{
    device_free(p);
    p = nullptr;
}

/* Bits needed for keys in [0, nc). */
static int key_bits(int32_t nc)
{
    int b = 1;
    while (b < 31 && ((int64_t)1 << b) < nc)
        b++;
    return b;
}

/* Steps 1-2: groups (t.skey, t.members, t.gptr) and the places of the
 * members' rows in the gathered array (t.pos, t.segoff). */
static int contract_groups(const coarsen_graph *g, const int32_t *cmap, int32_t nc, contract_temps &t,
                           coarsen_error *err)
{
    const int32_t n = g->n;
    int32_t h_bad = 0;
    if (int rc = dalloc(&t.bad, 1, "error flag", err))
        return rc;
    if (int rc = dalloc(&t.idx, (size_t)n, "fine ids", err))
        return rc;
    CUDA_TRY(err, cudaMemsetAsync(t.bad, 0, sizeof *t.bad, device_stream()));
    k_check_map<<<ku_blocks(n), KU_THREADS, 0, device_stream()>>>(n, cmap, nc, t.idx, t.bad);
    CUDA_LAUNCH_TRY(err);
    CUDA_TRY(err, stream_copy(&h_bad, t.bad, sizeof h_bad, cudaMemcpyDeviceToHost));
    if (h_bad)
        return error_set(err, COARSEN_ERR_INPUT, "contract: cmap has values outside [0, %d)", nc);
    if (int rc = dalloc(&t.skey, (size_t)n, "sorted coarse ids", err))
        return rc;
    if (int rc = dalloc(&t.members, (size_t)n, "group members", err))
        return rc;
    int bits = key_bits(nc);
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DeviceRadixSort::SortPairs(tmp, b, cmap, t.skey, t.idx, t.members, (int64_t)n, 0, bits,
                                                   device_stream());
        }, "group sort", err))
        return rc;
    free_temp(t.idx);
    if (int rc = dalloc(&t.gptr, (size_t)nc + 1, "group offsets", err))
        return rc;
    k_group_ptr<<<ku_blocks((int64_t)n + 1), KU_THREADS, 0, device_stream()>>>(n, t.skey, nc, t.gptr, t.bad);
    CUDA_LAUNCH_TRY(err);

    if (int rc = dalloc(&t.pos, (size_t)n + 1, "gather offsets", err))
        return rc;
    k_member_degrees<<<ku_blocks((int64_t)n + 1), KU_THREADS, 0, device_stream()>>>(n, t.members, g->xadj, t.pos);
    CUDA_LAUNCH_TRY(err);
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DeviceScan::ExclusiveSum(tmp, b, t.pos, (int64_t)n + 1, device_stream());
        }, "gather scan", err))
        return rc;
    if (int rc = dalloc(&t.segoff, (size_t)nc + 1, "segment offsets", err))
        return rc;
    k_segment_offsets<<<ku_blocks((int64_t)nc + 1), KU_THREADS, 0, device_stream()>>>(nc, t.gptr, t.pos, t.segoff);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

/* Steps 3-6 with fine entry indices of type Ref (uint32_t when nnz fits,
 * halving the sort's value buffers; uint64_t otherwise). */
template <class Ref>
static int contract_entries(const coarsen_graph *g, const int32_t *cmap, int32_t nc, coarsen_graph **out,
                            contract_temps &t, coarsen_error *err)
{
    const int32_t n = g->n;
    const int64_t nnz = g->nnz;
    int32_t h_bad = 0;

    /* 3. gather (key, fine entry index); 4. stable segmented sort by key. */
    Ref *ref_in = nullptr, *ref = nullptr;
    if (int rc = dalloc(&t.key_in, (size_t)nnz, "gathered keys", err))
        return rc;
    if (int rc = dalloc(&ref_in, (size_t)nnz, "gathered entry indices", err))
        return rc;
    t.ref_in = ref_in;
    k_gather<Ref><<<ku_blocks(n, KU_WARP), KU_THREADS, 0, device_stream()>>>(n, t.members, t.skey, t.pos, g->xadj,
                                                                             g->adj, cmap, nc, t.key_in, ref_in);
    CUDA_LAUNCH_TRY(err);
    free_temp(t.pos);
    free_temp(t.skey);
    if (int rc = dalloc(&t.key, (size_t)nnz, "sorted keys", err))
        return rc;
    if (int rc = dalloc(&ref, (size_t)nnz, "sorted entry indices", err))
        return rc;
    t.ref = ref;
    /* Double buffers: CUB may sort in either and needs no copy of its own
     * (the separate-output form would take nnz keys and indices more). */
    cub::DoubleBuffer<int32_t> dkeys(t.key_in, t.key);
    cub::DoubleBuffer<Ref> drefs(ref_in, ref);
    if (nnz > 0 && nc > 0) {
        if (int rc = cub_run([&](void *tmp, size_t &b) {
                return cub::DeviceSegmentedSort::StableSortPairs(tmp, b, dkeys, drefs, nnz, (int64_t)nc, t.segoff,
                                                                 t.segoff + 1, device_stream());
            }, "segmented sort", err))
            return rc;
    }
    t.key = dkeys.Current(); /* the sorted entries */
    t.ref = ref = drefs.Current();
    t.key_in = dkeys.Alternate();
    t.ref_in = drefs.Alternate();
    free_temp(t.key_in);
    free_temp(t.ref_in);

    /* 5. count the runs (coarse entries), build the coarse graph. */
    if (int rc = dalloc(&t.head, (size_t)nnz, "segment heads", err))
        return rc;
    if (nnz > 0)
        CUDA_TRY(err, cudaMemsetAsync(t.head, 0, (size_t)nnz, device_stream()));
    k_segment_heads<<<ku_blocks(nc), KU_THREADS, 0, device_stream()>>>(nc, t.segoff, t.head);
    CUDA_LAUNCH_TRY(err);
    if (int rc = dalloc(&t.count, 1, "coarse entry count", err))
        return rc;
    run_start rs{t.key, t.head, nnz, nc};
    auto starts = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), rs);
    if (int rc = cub_run([&](void *tmp, size_t &b) {
            return cub::DeviceReduce::Sum(tmp, b, starts, t.count, nnz + 1, device_stream());
        }, "run count", err))
        return rc;
    int64_t cnnz = 0;
    CUDA_TRY(err, stream_copy(&cnnz, t.count, sizeof cnnz, cudaMemcpyDeviceToHost));
    CUDA_TRY(err, stream_copy(&h_bad, t.bad, sizeof h_bad, cudaMemcpyDeviceToHost));
    if (h_bad)
        return error_set(err, COARSEN_ERR_INPUT, "contract: cmap is not onto [0, %d): a coarse vertex has no member", nc);

    /* t.count becomes the carry of the chunked run numbering. */
    const int64_t chunk = nnz < g_run_chunk ? nnz : g_run_chunk;
    if (int rc = dalloc(&t.runidx, (size_t)chunk + 1, "run numbers", err))
        return rc;
    coarsen_graph *h = nullptr;
    if (int rc = device_graph_alloc(nc, cnnz, &h, err))
        return rc;
    h->integral_weights = g->integral_weights;
    int rc = [&]() -> int {
        CUDA_TRY(err, cudaMemsetAsync(t.count, 0, sizeof *t.count, device_stream()));
        for (int64_t c0 = 0;; c0 += chunk) { /* once at least: nnz = 0 still sets cxadj */
            const int64_t len = nnz - c0 < chunk ? nnz - c0 : chunk;
            auto chunk_starts = starts + c0;
            if (int r = cub_run([&](void *tmp, size_t &b) {
                    return cub::DeviceScan::ExclusiveSum(tmp, b, chunk_starts, t.runidx, len + 1, device_stream());
                }, "run scan", err))
                return r;
            k_sum_runs<Ref><<<ku_blocks(len), KU_THREADS, 0, device_stream()>>>(rs, ref, g->ewgt, c0, len, t.runidx,
                                                                                 t.count, h->adj, h->ewgt);
            CUDA_LAUNCH_TRY(err);
            k_coarse_offsets<<<ku_blocks((int64_t)nc + 1), KU_THREADS, 0, device_stream()>>>(nc, t.segoff, c0, len,
                                                                                              nnz, t.runidx, t.count,
                                                                                              h->xadj);
            CUDA_LAUNCH_TRY(err);
            if (c0 + len >= nnz)
                break;
            k_add_carry<<<1, 1, 0, device_stream()>>>(t.runidx, len, t.count);
            CUDA_LAUNCH_TRY(err);
        }
        k_coarse_vwgt<<<ku_blocks(nc), KU_THREADS, 0, device_stream()>>>(nc, t.gptr, t.members, g->vwgt, h->vwgt);
        CUDA_LAUNCH_TRY(err);
        /* 6. real weights: both directions carry the smaller endpoint's sum. */
        if (!g->integral_weights) { /* integer sums agree already */
            k_mirror_weights<<<ku_blocks(nc, KU_WARP), KU_THREADS, 0, device_stream()>>>(nc, h->xadj, h->adj, h->ewgt);
            CUDA_LAUNCH_TRY(err);
        }
        return COARSEN_OK;
    }();
    if (rc) {
        coarsen_graph_free(h);
        return rc;
    }
    *out = h;
    return COARSEN_OK;
}

static int contract_gpu_run(const coarsen_graph *g, const int32_t *cmap, int32_t nc, coarsen_graph **out,
                            contract_temps &t, coarsen_error *err)
{
    if (int rc = contract_groups(g, cmap, nc, t, err))
        return rc;
    if (g->nnz <= (int64_t)UINT32_MAX)
        return contract_entries<uint32_t>(g, cmap, nc, out, t, err);
    return contract_entries<uint64_t>(g, cmap, nc, out, t, err);
}

extern "C" int contract_gpu(const coarsen_graph *g, const int32_t *d_cmap, int32_t nc, coarsen_graph **out,
                            coarsen_error *err)
{
    *out = nullptr;
    if (!g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "contract_gpu needs a device graph");
    if (nc < 0 || nc > g->n || (g->n > 0 && nc == 0))
        return error_set(err, COARSEN_ERR_INPUT, "contract: %d coarse vertices for %d fine ones", nc, g->n);
    if (g->n == 0) {
        if (int rc = device_graph_alloc(0, 0, out, err))
            return rc;
        (*out)->integral_weights = g->integral_weights;
        CUDA_TRY(err, cudaMemsetAsync((*out)->xadj, 0, sizeof *(*out)->xadj, device_stream()));
        return COARSEN_OK;
    }
    contract_temps t;
    return contract_gpu_run(g, d_cmap, nc, out, t, err);
}

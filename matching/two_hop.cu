/* two_hop.cu — GPU two-hop matching (two_hop.h), identical to the CPU
 * reference: the unmatched vertices selected in increasing id (or the
 * caller's), a team of lanes per candidate (by the mean degree) hashes its
 * list (a sum mod 2^64: exact in any order), one thread per candidate finds its (degree, hash) group's
 * slot in an open-addressing table (the islands' is 0), and one stable radix
 * sort by slot over the bits of the table's size makes each group contiguous
 * with its members in id order, as in the CPU's (degree, hash, id) order
 * (the groups' own order differs, which no rule depends on); islands
 * (first) are paired by position, one thread per position compares its
 * list with the previous candidate's to mark class starts, and one thread
 * per class pairs its members greedily under the weight cap, in the CPU's
 * order. Relatives (when the candidates alone exceed the threshold): a
 * team per candidate finds the hub of those still unmatched with degree >=
 * 1, once the counts on the device show that more than the threshold are
 * left (the others keyed to sort last), a stable radix sort groups them by
 * hub, and the same class kernel pairs them; the candidates' count is the
 * only figure that comes to the host. Last, a team per candidate counts
 * the cap-blocked vertices. Counters are added once per block. */
#include "matching/two_hop.h"
#include "matching/match_gpu.cuh"
#include "contract/kernel_util.cuh"
#include "core/error.h"
#include "core/timer.h"
#include "device/cuda_check.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <type_traits>


/* Unmatched. */
struct is_candidate {
    const int32_t *mate;
    __host__ __device__ bool operator()(int32_t v) const { return mate[v] == -1; }
};

/* Lanes per candidate of the kernels that scan a candidate's list (k_list_hash,
 * k_hubs, k_cap_blocked): the power of two >= half the graph's mean degree,
 * 4 to 32 (as the light rows of match_shape); a whole warp per candidate
 * left most lanes idle on rows of about ten entries. */
static int list_lanes(const coarsen_graph *g)
{
    const int64_t mean = g->n > 0 ? g->nnz / g->n : 0;
    int w = 4;
    while (w < KU_WARP && 2 * (int64_t)w < mean)
        w *= 2;
    return w;
}

/* f(std::integral_constant<int, W>) for W = lanes (4, 8, 16 or 32). */
template <class F>
static void with_lanes(int lanes, F f)
{
    switch (lanes) {
    case 4:
        f(std::integral_constant<int, 4>{});
        break;
    case 8:
        f(std::integral_constant<int, 8>{});
        break;
    case 16:
        f(std::integral_constant<int, 16>{});
        break;
    default:
        f(std::integral_constant<int, 32>{});
    }
}

/* The loop of the list kernels: a team of W lanes per candidate, teams of a
 * warp walked together (warp-uniform trip count, so full-mask shuffles are
 * safe); `first` = the warp's first candidate of the iteration. */
#define FOR_TEAMS(W, first, m)                                                                                     \
    for (int64_t first = ku_warp() * (KU_WARP / (W)); first < (m); first += ku_warps() * (KU_WARP / (W)))

/* A team of W lanes per candidate i: hash[i] = sum of two_hop_term over its
 * list. */
template <int W>
__global__ void k_list_hash(int32_t m, const int32_t *ids, const int64_t *xadj, const int32_t *adj, uint64_t *hash)
{
    const int sub = ku_lane() % W;
    FOR_TEAMS(W, first, m) {
        const int64_t i = first + ku_lane() / W;
        uint64_t h = 0;
        if (i < m) {
            const int32_t v = ids[i];
            for (int64_t e = xadj[v] + sub; e < xadj[v + 1]; e += W)
                h += two_hop_term(adj[e]);
        }
        for (int d = W / 2; d > 0; d /= 2)
            h += __shfl_down_sync(0xffffffffu, h, d, W);
        if (sub == 0 && i < m)
            hash[i] = h;
    }
}

/* Candidate i's group, the candidates of one (degree, hash), by an
 * open-addressing table of `slots` > m entries (never full; owner[] zeroed
 * before): key[i] = the slot whose first owner has i's degree and hash (a
 * probe sequence from hash mod slots, past slot 0), 0 for the islands
 * (degree 0: they sort first); idx[i] = i. Which group wins a contested
 * slot depends on the atomics' order; the groups do not, nor does their
 * members' order (id, by the stable sort), nor the pairs: no rule depends
 * on the order of the groups. */
__global__ void k_slots(int32_t m, const int32_t *ids, const int64_t *xadj, const uint64_t *hash, int32_t slots,
                        int32_t *owner, int32_t *key, int32_t *idx)
{
    for (int64_t i = ku_thread(); i < m; i += ku_threads()) {
        const int32_t v = ids[i];
        const int64_t d = xadj[v + 1] - xadj[v];
        const uint64_t h = hash[i];
        int32_t s = 0;
        if (d > 0)
            for (s = (int32_t)(h % (uint64_t)slots);; s = s + 1 < slots ? s + 1 : 0) {
                if (s == 0) /* the islands' */
                    continue;
                const int32_t o = atomicCAS(&owner[s], 0, (int32_t)i + 1);
                if (o == 0)
                    break;
                const int32_t u = ids[o - 1];
                if (hash[o - 1] == h && xadj[u + 1] - xadj[u] == d)
                    break;
            }
        key[i] = s;
        idx[i] = (int32_t)i;
    }
}

/* Rule (3)'s keys, a team of W lanes per candidate i of the m (in id order): when
 * the rules before it left more than `limit` vertices unmatched (counts on
 * the device: decided here, no round trip), hub[i] = the heaviest
 * neighbour of a candidate still unmatched with degree >= 1 (ties to the
 * smaller id: edge_better with ids as ranks), n for the others and for all
 * when the rule does not run (sorted last, never paired); idx[i] = i. */
template <int W>
__global__ void k_hubs(int32_t m, int32_t n, double limit, const int32_t *ids, const int64_t *xadj,
                       const int32_t *adj, const double *ewgt, const int32_t *mate,
                       const unsigned long long *counts, int32_t *hub, int32_t *idx)
{
    const long long unmatched =
        m - 2 * (long long)(counts[TWO_HOP_LEAF] + counts[TWO_HOP_TWIN] + counts[TWO_HOP_ISLAND]);
    const bool runs = (double)unmatched > limit;
    const int sub = ku_lane() % W;
    FOR_TEAMS(W, first, m) {
        const int64_t i = first + ku_lane() / W;
        int32_t best = -1;
        double best_w = 0.0;
        if (i < m) {
            const int32_t v = ids[i];
            if (runs && mate[v] == -1) /* uniform across the team */
                for (int64_t e = xadj[v] + sub; e < xadj[v + 1]; e += W)
                    if (edge_better(ewgt[e], adj[e], best_w, best))
                        best = adj[e], best_w = ewgt[e];
        }
        for (int d = W / 2; d > 0; d /= 2) {
            int32_t o = __shfl_down_sync(0xffffffffu, best, d, W);
            double ow = __shfl_down_sync(0xffffffffu, best_w, d, W);
            if (edge_better(ow, o, best_w, best))
                best = o, best_w = ow;
        }
        if (sub == 0 && i < m) {
            hub[i] = best < 0 ? n : best; /* no neighbour: degree 0 */
            idx[i] = (int32_t)i;
        }
    }
}

/* Rule (0): the islands are positions [0, islands) of the group order
 * (slot 0 sorts first, in id order); the thread of an even position k
 * pairs k, k + 1. */
__global__ void k_pair_islands(int32_t m, const int32_t *order, const int32_t *ids, const int32_t *key_sorted,
                               const int64_t *vwgt, int64_t cap, int32_t *mate, unsigned long long *counts)
{
    unsigned pairs = 0;
    for (int64_t k = 2 * ku_thread(); k + 1 < m; k += 2 * ku_threads()) {
        if (key_sorted[k + 1] != 0)
            continue;
        int32_t u = ids[order[k]], v = ids[order[k + 1]];
        if (pair_eligible(cap, vwgt[u], vwgt[v])) {
            mate[u] = v;
            mate[v] = u;
            pairs++;
        }
    }
    ku_block_add(pairs, &counts[TWO_HOP_ISLAND]);
}

/* start[k] = 1 when the candidate at position k (group order) does not
 * have the same neighbour list as the one before it. Different slots
 * (key_sorted) are different (degree, hash) groups (k_slots gives every
 * candidate of one (degree, hash) the same slot), so different lists: only
 * neighbours in one slot, rare outside twins and islands, read their lists
 * (the slot's test is the whole test for most positions, with no gather). */
__global__ void k_class_starts(int32_t m, const int32_t *order, const int32_t *key_sorted, const int32_t *ids,
                               const uint64_t *hash, const int64_t *xadj, const int32_t *adj, unsigned char *start)
{
    for (int64_t k = ku_thread(); k < m; k += ku_threads()) {
        int s = 1;
        if (k > 0 && key_sorted[k - 1] == key_sorted[k]) {
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

/* start[k] = 1 when the hub at position k differs from the one before; 2
 * at the first of the unpaired (hub n, sorted last), whose class
 * k_pair_classes skips. */
__global__ void k_hub_starts(int32_t m, int32_t n, const int32_t *hub_sorted, unsigned char *start)
{
    for (int64_t k = ku_thread(); k < m; k += ku_threads()) {
        const bool s = k == 0 || hub_sorted[k] != hub_sorted[k - 1];
        start[k] = (unsigned char)(!s ? 0 : hub_sorted[k] == n ? 2 : 1);
    }
}

/* One thread per class: greedy pairing in order (two_hop_pair_step), counted
 * in counts[kind], or for kind < 0 as leaf or twin pairs by the degree, the
 * island class (degree 0) left to k_pair_islands; a class marked 2 is
 * skipped. The counts are added once per block. */
__global__ void k_pair_classes(int32_t m, const int32_t *order, const int32_t *ids, const unsigned char *start,
                               const int64_t *xadj, const int64_t *vwgt, int64_t cap, int kind, int32_t *mate,
                               unsigned long long *counts)
{
    unsigned pairs = 0, twins = 0; /* pairs: counts[kind], or leaf pairs (kind < 0) */
    for (int64_t k = ku_thread(); k < m; k += ku_threads()) {
        if (start[k] != 1)
            continue;
        int32_t first = ids[order[k]];
        int64_t deg = xadj[first + 1] - xadj[first];
        if (kind < 0 && deg == 0)
            continue;
        int32_t pending = -1;
        unsigned made = 0;
        for (int64_t j = k; j < m && (j == k || !start[j]); j++) {
            int32_t v = ids[order[j]];
            if (two_hop_pair_step(cap, vwgt, &pending, v)) {
                mate[pending] = v;
                mate[v] = pending;
                made++;
                pending = -1;
            }
        }
        if (kind < 0 && deg > 1)
            twins += made;
        else
            pairs += made;
    }
    ku_block_add(pairs, &counts[kind >= 0 ? kind : TWO_HOP_LEAF]);
    if (kind < 0)
        ku_block_add(twins, &counts[TWO_HOP_TWIN]);
}

/* A team of W lanes per candidate: counts the unmatched ones with an
 * unmatched neighbour (added once per block). */
template <int W>
__global__ void k_cap_blocked(int32_t m, const int32_t *ids, const int64_t *xadj, const int32_t *adj,
                              const int32_t *mate, unsigned long long *counts)
{
    const int sub = ku_lane() % W;
    const unsigned team = W == KU_WARP ? 0xffffffffu : ((1u << (W % KU_WARP)) - 1u) << (ku_lane() - sub);
    unsigned blocked = 0;
    FOR_TEAMS(W, first, m) {
        const int64_t i = first + ku_lane() / W;
        int found = 0;
        if (i < m) {
            const int32_t v = ids[i];
            if (mate[v] == -1) /* uniform across the team */
                for (int64_t e = xadj[v] + sub; e < xadj[v + 1] && !found; e += W)
                    found = mate[adj[e]] == -1;
        }
        if ((__ballot_sync(0xffffffffu, found) & team) && sub == 0)
            blocked++;
    }
    ku_block_add(blocked, &counts[TWO_HOP_BLOCKED]);
}

/* The phase's temporaries, in the workspace, sized for n candidates (m <= n
 * is learnt on the way): the sort keys (the group's slot, later the hub),
 * their sorted copy and order, and the group table, which takes the room of
 * the last two (2n entries): the sort writes them only after the table's
 * last use. */
struct two_hop_temps {
    const int32_t *ids = nullptr; /* the candidates: selected into sel, or the caller's */
    int32_t *sel = nullptr, *nsel = nullptr, *idx = nullptr, *order = nullptr, *owner = nullptr;
    int32_t *key = nullptr, *key_sorted = nullptr;
    uint64_t *hash = nullptr;
    unsigned char *start = nullptr;
    unsigned long long *counts = nullptr;
    Workspace ws;
};

/* The group table's size for m >= 1 candidates: 2m (at most half full),
 * within int32 (still above m). */
static int32_t slots_for(int32_t m)
{
    return 2 * (int64_t)m < INT32_MAX ? 2 * m : INT32_MAX;
}

/* Sorts (key, idx) stably by the low `bits` bits of key into (key_sorted,
 * order) (every key below 2^bits). */
static cudaError_t key_sort(void *tmp, size_t &b, const two_hop_temps &t, int32_t m, int bits)
{
    return cub::DeviceRadixSort::SortPairs(tmp, b, t.key, t.key_sorted, t.idx, t.order, (int64_t)m, 0, bits,
                                           device_stream());
}

static int plan(const coarsen_graph *g, int32_t *mate, two_hop_temps &t, coarsen_error *err)
{
    const size_t n = (size_t)g->n;
    t.ws.take(&t.sel, n);
    t.ws.take(&t.nsel, 1);
    t.ws.take(&t.counts, TWO_HOP_COUNTS);
    t.ws.take(&t.hash, n);
    t.ws.take(&t.key, n);
    t.ws.take(&t.key_sorted, 2 * n); /* then order; the table before them */
    t.ws.take(&t.idx, n);
    t.ws.take(&t.start, n);
    int rc = t.ws.size_cub([&](void *tmp, size_t &b) { return key_sort(tmp, b, t, g->n, 32); }, err);
    if (!rc)
        rc = select_counted_size(t.ws, thrust::counting_iterator<int32_t>(0), g->n, is_candidate{mate}, err);
    if (!rc)
        rc = t.ws.carve("two-hop temporaries", err);
    if (rc)
        return rc;
    t.order = t.key_sorted + n;
    t.owner = t.key_sorted;
    return COARSEN_OK;
}

/* Rules (0)-(2) on the m candidates t.ids. */
static int islands_leaves_twins(const coarsen_graph *g, int64_t cap, int32_t *mate, int32_t m, two_hop_temps &t,
                                coarsen_error *err)
{
    cudaStream_t s = device_stream();
    with_lanes(list_lanes(g), [&](auto lanes) {
        constexpr int W = decltype(lanes)::value;
        k_list_hash<W><<<ku_blocks(m, W), KU_THREADS, 0, s>>>(m, t.ids, g->xadj, g->adj, t.hash);
    });
    CUDA_LAUNCH_TRY(err);
    const int32_t slots = slots_for(m);
    CUDA_TRY(err, cudaMemsetAsync(t.owner, 0, (size_t)slots * sizeof *t.owner, s));
    k_slots<<<ku_blocks(m), KU_THREADS, 0, s>>>(m, t.ids, g->xadj, t.hash, slots, t.owner, t.key, t.idx);
    CUDA_LAUNCH_TRY(err);
    if (int rc = t.ws.run_cub([&](void *tmp, size_t &b) { return key_sort(tmp, b, t, m, ku_key_bits(slots)); },
                              "two-hop group sort", err))
        return rc;
    k_pair_islands<<<ku_blocks((m + 1) / 2), KU_THREADS, 0, s>>>(m, t.order, t.ids, t.key_sorted, g->vwgt, cap,
                                                                 mate, t.counts);
    CUDA_LAUNCH_TRY(err);
    k_class_starts<<<ku_blocks(m), KU_THREADS, 0, device_stream()>>>(m, t.order, t.key_sorted, t.ids, t.hash,
                                                                     g->xadj, g->adj, t.start);
    CUDA_LAUNCH_TRY(err);
    k_pair_classes<<<ku_blocks(m), KU_THREADS, 0, device_stream()>>>(m, t.order, t.ids, t.start, g->xadj, g->vwgt,
                                                                     cap, -1, mate, t.counts);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

/* Rule (3) on the candidates of t.ids[0..m) still unmatched with degree
 * >= 1, when the counts on the device leave more than `limit` unmatched:
 * all m keyed by hub (the others by n, last; in t.key), one stable sort by
 * hub, no count to the host. */
static int relatives(const coarsen_graph *g, int64_t cap, double limit, int32_t *mate, int32_t m, two_hop_temps &t,
                     coarsen_error *err)
{
    const int32_t n = g->n;
    with_lanes(list_lanes(g), [&](auto lanes) {
        constexpr int W = decltype(lanes)::value;
        k_hubs<W><<<ku_blocks(m, W), KU_THREADS, 0, device_stream()>>>(m, n, limit, t.ids, g->xadj, g->adj,
                                                                        g->ewgt, mate, t.counts, t.key, t.idx);
    });
    CUDA_LAUNCH_TRY(err);
    const int bits = ku_key_bits((int64_t)n + 1);
    if (int rc = t.ws.run_cub([&](void *tmp, size_t &b) { return key_sort(tmp, b, t, m, bits); }, "two-hop hub sort",
                              err))
        return rc;
    k_hub_starts<<<ku_blocks(m), KU_THREADS, 0, device_stream()>>>(m, n, t.key_sorted, t.start);
    CUDA_LAUNCH_TRY(err);
    k_pair_classes<<<ku_blocks(m), KU_THREADS, 0, device_stream()>>>(m, t.order, t.ids, t.start, g->xadj, g->vwgt,
                                                                     cap, TWO_HOP_RELATIVE, mate, t.counts);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

/* The rules on g, their counts added up in d_counts (device, TWO_HOP_COUNTS,
 * zeroed here; nullptr: t.counts, in the workspace); the candidates the
 * caller's (known, two_hop_gpu_queued) or selected here, their count then
 * the one figure that comes to the host. */
static int two_hop_gpu_run(const coarsen_graph *g, const two_hop_opts *o, int32_t *mate,
                           const two_hop_candidates *known, unsigned long long *d_counts, two_hop_temps &t,
                           coarsen_error *err)
{
    const int32_t n = g->n;
    const int64_t cap = o->max_vertex_weight;
    int32_t m = 0;
    if (int rc = plan(g, mate, t, err))
        return rc;
    if (d_counts)
        t.counts = d_counts;
    CUDA_TRY(err, cudaMemsetAsync(t.counts, 0, TWO_HOP_COUNTS * sizeof *t.counts, device_stream()));
    if (known && known->ids) {
        t.ids = known->ids;
        m = known->m;
    } else {
        if (int rc = select_counted(t.ws, thrust::counting_iterator<int32_t>(0), n, is_candidate{mate}, t.sel,
                                    t.nsel, &m, "two-hop candidates", err))
            return rc;
        t.ids = t.sel;
    }
    if (m >= 2) {
        if (int rc = islands_leaves_twins(g, cap, mate, m, t, err))
            return rc;
        /* at most m stay unmatched: nothing to do when m is under the threshold */
        const double limit = o->relatives_threshold * (double)n;
        if ((double)m > limit)
            if (int rc = relatives(g, cap, limit, mate, m, t, err))
                return rc;
    }
    if (m >= 1) {
        with_lanes(list_lanes(g), [&](auto lanes) {
            constexpr int W = decltype(lanes)::value;
            k_cap_blocked<W><<<ku_blocks(m, W), KU_THREADS, 0, device_stream()>>>(m, t.ids, g->xadj, g->adj, mate,
                                                                                  t.counts);
        });
        CUDA_LAUNCH_TRY(err);
    }
    return COARSEN_OK;
}

int two_hop_gpu_queued(const coarsen_graph *g, const two_hop_opts *opts, int32_t *d_mate,
                       const two_hop_candidates *known, unsigned long long *d_counts, coarsen_error *err)
{
    if (!g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "two_hop_gpu needs a device graph");
    if (g->n == 0) {
        CUDA_TRY(err, cudaMemsetAsync(d_counts, 0, TWO_HOP_COUNTS * sizeof *d_counts, device_stream()));
        return COARSEN_OK;
    }
    two_hop_temps t;
    return two_hop_gpu_run(g, opts, d_mate, known, d_counts, t, err);
}

extern "C" int two_hop_gpu(const coarsen_graph *g, const two_hop_opts *opts, int32_t *d_mate, two_hop_stats *stats,
                           coarsen_error *err)
{
    double t0 = timer_ms();
    if (stats)
        *stats = two_hop_stats{};
    if (!g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "two_hop_gpu needs a device graph");
    unsigned long long counts[TWO_HOP_COUNTS] = {0, 0, 0, 0, 0};
    if (g->n > 0) {
        two_hop_temps t;
        if (int rc = two_hop_gpu_run(g, opts, d_mate, nullptr, nullptr, t, err))
            return rc;
        CUDA_TRY(err, stream_copy(counts, t.counts, TWO_HOP_COUNTS * sizeof *counts, cudaMemcpyDeviceToHost));
    }
    if (stats) {
        stats->leaf_pairs = (int64_t)counts[TWO_HOP_LEAF];
        stats->twin_pairs = (int64_t)counts[TWO_HOP_TWIN];
        stats->relative_pairs = (int64_t)counts[TWO_HOP_RELATIVE];
        stats->island_pairs = (int64_t)counts[TWO_HOP_ISLAND];
        stats->cap_blocked = (int64_t)counts[TWO_HOP_BLOCKED];
        stats->ms = timer_ms() - t0;
    }
    return COARSEN_OK;
}

/* contract.cu — GPU contraction and map from mates (contract.h), identical to
 * the CPU reference, real weights included. Contraction pipeline
 * (docs/design-contraction.md):
 *   1. stable radix sort of fine ids by coarse id -> members of every group
 *      in increasing fine id (groups contiguous, in coarse order);
 *   2. scan of the members' row lengths -> row c's bound B(c), the fine
 *      entries of its members (an upper bound on its coarse length);
 *   3. one pass per coarse row, by B(c): B <= team size: a team of 8, 16 or
 *      32 lanes, one fine entry per lane, equal neighbours found by
 *      __match_any_sync; B <= hash_max: one warp, a hash table in shared
 *      memory, entries 32 at a time in the CPU's order; larger rows: gathered
 *      and stably sorted by coarse neighbour (segmented sort), runs walked by
 *      a block per row. Every weight sum goes left to right in the CPU's
 *      order (the leader of a key adds the later lanes' weights one by one);
 *      each row is written once, sorted, at its bound's place in row buffers
 *      of nnz entries, then copied into the coarse graph allocated at its
 *      exact size once the lengths are scanned;
 *   4. real weights: entry (c, b) with b < c copies the weight of (b, c)
 *      (contract.h); integer sums are exact, so both directions agree.
 * One small copy to the host per contraction (error flags, sizes), two when
 * rows above hash_max exist. Everything runs on device_stream(). */
#include "contract/contract.h"
#include "contract/contract_gpu_memory.h"
#include "contract/kernel_util.cuh"
#include "core/error.h"
#include "device/cuda_check.cuh"
#include "core/row_find.h"

#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

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

/* cmap[v] = the id of v's leader (of v itself where mate[v] is out of range:
 * the result is then discarded, but no read leaves the arrays). */
__global__ void k_map_from_ids(int32_t n, const int32_t *mate, const int32_t *ids, int32_t *cmap)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads()) {
        int32_t m = mate[v];
        cmap[v] = (m < 0 || m >= n || v < m) ? ids[v] : ids[m];
    }
}

/* Temporaries in the device workspace: leader flags, and ids[0..n] their
 * scan followed by the error flag ids[n + 1], so that the coarse count
 * ids[n] and the flag come back in one copy. */
extern "C" int contract_map_from_mates_gpu(int32_t n, const int32_t *d_mate, int32_t *d_cmap, int32_t *nc,
                                           coarsen_error *err)
{
    *nc = 0;
    if (n == 0)
        return COARSEN_OK;
    cudaStream_t s = device_stream();
    int32_t *flags = nullptr, *ids = nullptr;
    Workspace w;
    w.take(&flags, (size_t)n + 1);
    w.take(&ids, (size_t)n + 2);
    auto scan = [&](void *t, size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, flags, ids, (int64_t)n + 1, s); };
    if (int rc = w.size_cub(scan, err))
        return rc;
    if (int rc = w.carve("map from mates", err))
        return rc;
    int32_t *bad = ids + (size_t)n + 1;
    CUDA_TRY(err, cudaMemsetAsync(bad, 0, sizeof *bad, s));
    k_leader_flags<<<ku_blocks((int64_t)n + 1), KU_THREADS, 0, s>>>(n, d_mate, flags, bad);
    CUDA_LAUNCH_TRY(err);
    if (int rc = w.run_cub(scan, "leader scan", err))
        return rc;
    k_map_from_ids<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, d_mate, ids, d_cmap);
    CUDA_LAUNCH_TRY(err);
    int32_t h[2] = {0, 0}; /* coarse count, error flag */
    CUDA_TRY(err, cudaMemcpyAsync(h, ids + n, sizeof h, cudaMemcpyDeviceToHost, s));
    CUDA_TRY(err, cudaStreamSynchronize(s));
    if (h[1])
        return error_set(err, COARSEN_ERR_INPUT, "contract: mate[] is not a symmetric matching");
    *nc = h[0];
    return COARSEN_OK;
}

/* ---------------------------------------------------------- contraction */

/* Slots of the per-warp hash table (keys and sums in shared memory); rows
 * hashed by a warp have at most hash_max <= HASH_SLOTS / 2 fine entries, so
 * the table is never more than half full. */
static constexpr int HASH_SLOTS = 256;
static constexpr int64_t HASH_MAX_DEFAULT = HASH_SLOTS / 2;
static constexpr unsigned ROW_BLOCKS_MAX = 8192; /* grid of the warp- and block-per-row kernels */

/* The coarse neighbour of fine neighbour v in row c, or -1 for an internal
 * entry (and for a map value outside [0, nc): the result is then discarded,
 * but no kernel reads or writes out of bounds). */
__device__ __forceinline__ int32_t coarse_nb(const int32_t *cmap, int32_t nc, int32_t c, int32_t v)
{
    int32_t k = cmap[v];
    return k < 0 || k >= nc || k == c ? -1 : k;
}

/* The contraction's error flags (bit 1: a map value outside [0, nc); bit 2:
 * a coarse id without member) and the sorted rows' entry count, kept after
 * the coarse row offsets (cx[nc + 1], cx[nc + 2]) so that one copy brings
 * them with the coarse entry count cx[nc]. */
__device__ __forceinline__ void flag(int64_t *flags, unsigned long long bit)
{
    atomicOr(reinterpret_cast<unsigned long long *>(flags), bit);
}

/* skey[v] = cmap[v] (0 where out of range: flag 1), idx[v] = v: the inputs
 * of the group sort. */
__global__ void k_check_map(int32_t n, const int32_t *cmap, int32_t nc, int32_t *skey, int32_t *idx, int64_t *flags)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads()) {
        int32_t k = cmap[v];
        if (k < 0 || k >= nc) {
            flag(flags, 1);
            k = 0;
        }
        skey[v] = k;
        idx[v] = (int32_t)v;
    }
}

/* From the sorted coarse ids skey[0..n) and their members: gptr[c] = first
 * position of group c (gptr[nc] = n; flag 2 when a coarse id has no member)
 * and rowlen[p] = degree of the p-th member (0 at p = n). */
__global__ void k_groups(int32_t n, const int32_t *skey, const int32_t *members, const int64_t *xadj, int32_t nc,
                         int32_t *gptr, int64_t *rowlen, int64_t *flags)
{
    for (int64_t i = ku_thread(); i <= n; i += ku_threads()) {
        int32_t prev = i == 0 ? -1 : skey[i - 1];
        int32_t k = i == n ? nc : skey[i];
        if (k - prev > 1)
            flag(flags, 2);
        for (int64_t c = (int64_t)prev + 1; c <= k; c++)
            gptr[c] = (int32_t)i;
        rowlen[i] = i == n ? 0 : xadj[members[i] + 1] - xadj[members[i]];
    }
}

/* segoff[c] = start of row c's fine entries in member order (B(c) =
 * segoff[c+1] - segoff[c]); big[c] = B(c) for rows sorted (B > hash_max),
 * else 0, their sum added to *big_total; cnt[c] = 0 (the counting pass
 * fills the others). */
__global__ void k_row_bounds(int32_t nc, const int32_t *gptr, const int64_t *pos, int64_t hash_max, int64_t *segoff,
                             int64_t *big, int64_t *cnt, int64_t *big_total)
{
    for (int64_t c = ku_thread(); c <= nc; c += ku_threads()) {
        int64_t s = pos[gptr[c]];
        segoff[c] = s;
        int64_t b = c < nc ? pos[gptr[c + 1]] - s : 0;
        big[c] = b > hash_max ? b : 0;
        cnt[c] = 0;
        if (b > hash_max)
            atomicAdd(reinterpret_cast<unsigned long long *>(big_total), (unsigned long long)b);
    }
}

/* The lanes above `lane` in a lane mask. */
__device__ __forceinline__ unsigned lanes_above(unsigned mask, int lane)
{
    return mask & ~((2u << lane) - 1u); /* lane 31: 2u << 31 wraps to 0, nothing above */
}

/* Rows with B(c) <= small_max, one team of T lanes each, one fine entry per
 * lane (entry `sub` of the members' rows in order; the members' places are
 * loaded by one lane each and shuffled, so a lane's loads do not wait on one
 * another). Equal coarse neighbours are found by __match_any_sync; each
 * lane's key and weight go to shared memory, and the leader of each key
 * (its lowest lane) sums the key's weights in lane order, i.e. the CPU's
 * order, over the lanes of its key alone, counts the leaders of smaller
 * keys (its rank), and writes (key, sum) at rkey/rw[segoff[c] + rank];
 * cnt[c] = the number of keys. */
template <int T>
__global__ void k_rows_team(int32_t nc, const int32_t *gptr, const int32_t *members, const int64_t *pos,
                            const int64_t *segoff, int64_t small_max, const int64_t *xadj, const int32_t *adj,
                            const double *ewgt, const int32_t *cmap, int64_t *cnt, int32_t *rkey, double *rw)
{
    __shared__ int32_t lkey[KU_THREADS];
    __shared__ double lw[KU_THREADS];
    const int lane = ku_lane(), sub = lane % T, first = lane - sub;
    const unsigned team = T == KU_WARP ? 0xffffffffu : ((1u << (T % KU_WARP)) - 1u) << first;
    int32_t *wkey = lkey + (threadIdx.x - lane); /* this warp's lanes */
    double *ww = lw + (threadIdx.x - lane);
    for (int64_t c = ku_thread() / T; c < nc; c += ku_threads() / T) {
        const int64_t s0 = segoff[c], b = segoff[c + 1] - s0;
        if (b > small_max)
            continue; /* the whole team skips */
        const int32_t g0 = gptr[c], nm = gptr[c + 1] - g0;
        int64_t e = -1;
        if (nm <= T) {
            int64_t mf = 0, mp = 0; /* member sub's first entry, its place in the row */
            if (sub < nm) {
                mf = xadj[members[g0 + sub]];
                mp = pos[g0 + sub] - s0;
            }
            int m = 0; /* the last member starting at or before entry sub */
            for (int j = 1; j < nm; j++)
                if (__shfl_sync(team, mp, first + j) <= sub)
                    m = j;
            const int64_t f = __shfl_sync(team, mf, first + m), p = __shfl_sync(team, mp, first + m);
            if (sub < b)
                e = f + sub - p;
        } else if (sub < b) { /* many members of degree 0: walk them */
            int64_t off = sub;
            for (int32_t i = g0;; i++) {
                int32_t u = members[i];
                int64_t f = xadj[u], d = xadj[u + 1] - f;
                if (off < d) {
                    e = f + off;
                    break;
                }
                off -= d;
            }
        }
        int32_t k = -1;
        double w = 0;
        if (e >= 0) {
            k = coarse_nb(cmap, nc, (int32_t)c, adj[e]);
            if (k >= 0)
                w = ewgt[e];
        }
        const unsigned same = __match_any_sync(team, k);
        const bool lead = k >= 0 && (same & ((1u << lane) - 1u)) == 0;
        const unsigned leaders = __ballot_sync(team, lead);
        wkey[lane] = k;
        ww[lane] = w;
        __syncwarp(team);
        if (lead) {
            double sum = w;
            for (unsigned r = lanes_above(same, lane); r; r &= r - 1u) /* lane order: the CPU's order */
                sum += ww[__ffs(r) - 1];
            int rank = 0;
            for (unsigned r = leaders; r; r &= r - 1u)
                rank += wkey[__ffs(r) - 1] < k;
            rkey[s0 + rank] = k;
            rw[s0 + rank] = sum;
        }
        if (sub == 0)
            cnt[c] = __popc(leaders);
        __syncwarp(team); /* the next row's keys and weights overwrite these */
    }
}

/* Rows with small_max < B(c) <= hash_max, one warp each, in a hash table
 * of the row's size (the smallest power of two >= 2 B(c), at least a warp:
 * never more than half full): the row's fine entries (the members' rows in
 * order, as one sequence) 32 at a time, in order, whatever member they
 * belong to; a lane finds its entry's member among a window of 32 members
 * (their places in the row, by a binary search over shuffles), the window
 * moving on with the entries. The leader of each key in a chunk finds or
 * inserts the key in the warp's table and adds the chunk's weights of that
 * key to its sum in lane order (so sums follow the CPU's order, a left to
 * right sum whatever the chunks; the lanes' weights pass through shared
 * memory, read by the leader for the lanes of its key alone); then the
 * table is compacted and each key written at rkey/rw[segoff[c] + its rank];
 * cnt[c] = the number of keys. */
__global__ void k_rows_warp(int32_t nc, const int32_t *gptr, const int32_t *members, const int64_t *pos,
                            const int64_t *segoff, int64_t small_max, int64_t hash_max, const int64_t *xadj,
                            const int32_t *adj, const double *ewgt, const int32_t *cmap, int64_t *cnt,
                            int32_t *rkey, double *rw)
{
    __shared__ int32_t tkey[KU_THREADS / KU_WARP][HASH_SLOTS];
    __shared__ double tsum[KU_THREADS / KU_WARP][HASH_SLOTS];
    __shared__ double tw[KU_THREADS / KU_WARP][KU_WARP];
    const int lane = ku_lane(), wib = threadIdx.x / KU_WARP;
    const unsigned below = (1u << lane) - 1u;
    int32_t *key = tkey[wib];
    double *sum = tsum[wib], *lw = tw[wib];
    for (int64_t c = ku_warp(); c < nc; c += ku_warps()) {
        const int64_t s0 = segoff[c], b = segoff[c + 1] - s0;
        if (b <= small_max || b > hash_max)
            continue; /* the whole warp skips */
        int slots = KU_WARP;
        while (slots < 2 * b)
            slots *= 2;
        for (int j = lane; j < slots; j += KU_WARP)
            key[j] = -1;
        __syncwarp();
        const int32_t g0 = gptr[c], nm = gptr[c + 1] - g0;
        const int rb = (int)b; /* b <= hash_max <= HASH_SLOTS / 2 */
        for (int j0 = 0, mb = 0; j0 < rb;) {
            /* the window: members mb, mb + 1, ... (lane l: member mb + l's
             * place in the row and first entry; past the last: place INT_MAX) */
            int mp = INT32_MAX;
            int64_t mf = 0;
            if (mb + lane < nm) {
                mp = (int)(pos[g0 + mb + lane] - s0);
                mf = xadj[members[g0 + mb + lane]];
            }
            const int lim = mb + KU_WARP < nm ? (int)(pos[g0 + mb + KU_WARP] - s0) : rb;
            const int end = j0 + KU_WARP < lim ? j0 + KU_WARP : lim; /* this chunk: entries [j0, end) */
            const int t = j0 + lane;
            const int m = ku_lane_at(mp, t); /* the last member of the window starting at or before entry t */
            const int64_t f = __shfl_sync(0xffffffffu, mf, m);
            const int p = __shfl_sync(0xffffffffu, mp, m);
            int32_t k = -1;
            double w = 0;
            if (t < end) {
                const int64_t e = f + t - p;
                k = coarse_nb(cmap, nc, (int32_t)c, adj[e]);
                if (k >= 0)
                    w = ewgt[e];
            }
            const unsigned same = __match_any_sync(0xffffffffu, k);
            const bool lead = k >= 0 && (same & below) == 0;
            int slot = 0, fresh = 0;
            if (lead) {
                slot = (int)(((uint32_t)k * 2654435761u) >> 24) & (slots - 1);
                for (;;) {
                    int32_t old = atomicCAS(&key[slot], -1, k);
                    if (old == -1 || old == k) {
                        fresh = old == -1;
                        break;
                    }
                    slot = (slot + 1) & (slots - 1);
                }
            }
            lw[lane] = w;
            __syncwarp();
            if (lead) {
                double acc = fresh ? w : sum[slot] + w;
                for (unsigned r = lanes_above(same, lane); r; r &= r - 1u)
                    acc += lw[__ffs(r) - 1];
                sum[slot] = acc;
            }
            __syncwarp();
            /* on: the member holding entry `end` is the last of the window
             * starting at or before it (lane 0's starts at or before j0) */
            const unsigned upto = __ballot_sync(0xffffffffu, mp <= end);
            mb += 31 - __clz(upto);
            j0 = end;
        }
        /* compact the table in place (slot j moves to a place <= j, read
         * into registers before any write), then write each key at its rank */
        int nkeys = 0;
        for (int j0 = 0; j0 < slots; j0 += KU_WARP) {
            int32_t k = key[j0 + lane];
            double v = k != -1 ? sum[j0 + lane] : 0;
            unsigned has = __ballot_sync(0xffffffffu, k != -1);
            __syncwarp();
            if (k != -1) {
                key[nkeys + __popc(has & below)] = k;
                sum[nkeys + __popc(has & below)] = v;
            }
            nkeys += __popc(has);
            __syncwarp();
        }
        for (int j = lane; j < nkeys; j += KU_WARP) {
            int32_t k = key[j];
            int rank = 0;
            for (int q = 0; q < nkeys; q++)
                rank += key[q] < k;
            rkey[s0 + rank] = k;
            rw[s0 + rank] = sum[j];
        }
        if (lane == 0)
            cnt[c] = nkeys;
        __syncwarp();
    }
}

/* Rows with B(c) > hash_max (those with loff[c+1] > loff[c]): one warp per
 * member p of such a row copies its fine row, in stored order, to
 * [loff[c] + pos[p] - segoff[c], ...): key = coarse neighbour (nc for
 * internal entries, sorted last), ref = the fine entry's index (the weights
 * stay in the fine graph). */
template <class Ref>
__global__ void k_gather_big(int32_t n, const int32_t *members, const int32_t *skey, const int64_t *pos,
                             const int64_t *segoff, const int64_t *loff, const int64_t *xadj,
                             const int32_t *adj, const int32_t *cmap, int32_t nc, int32_t *key, Ref *ref)
{
    for (int64_t p = ku_warp(); p < n; p += ku_warps()) {
        int32_t u = members[p], c = skey[p];
        if (loff[c + 1] == loff[c])
            continue;
        int64_t first = xadj[u], deg = xadj[u + 1] - first, base = loff[c] + pos[p] - segoff[c];
        for (int64_t j = ku_lane(); j < deg; j += KU_WARP) {
            int32_t k = coarse_nb(cmap, nc, c, adj[first + j]);
            key[base + j] = k < 0 ? nc : k;
            ref[base + j] = (Ref)(first + j);
        }
    }
}

/* Sorted rows (B(c) > hash_max: [loff[c], loff[c+1]) not empty), one block
 * per row: a run starts at the row's first entry or a key change (never at
 * key nc); the thread at a run's start sums it left to right (the CPU's
 * order) and writes it at rkey/rw[segoff[c] + the runs before it]; cnt[c] =
 * the number of runs. */
template <class Ref>
__global__ void k_rows_sorted(int32_t nc, const int64_t *loff, const int64_t *segoff, const int32_t *key,
                              const Ref *ref, const double *ewgt, int64_t *cnt, int32_t *rkey, double *rw)
{
    using scan_t = cub::BlockScan<int64_t, KU_THREADS>;
    __shared__ typename scan_t::TempStorage tmp;
    for (int64_t c = blockIdx.x; c < nc; c += gridDim.x) {
        const int64_t lo = loff[c], hi = loff[c + 1];
        if (lo == hi)
            continue; /* the whole block skips */
        int64_t done = 0; /* runs before the current tile */
        for (int64_t t0 = lo; t0 < hi; t0 += KU_THREADS) {
            const int64_t i = t0 + threadIdx.x;
            const int32_t k = i < hi ? key[i] : nc;
            const int64_t start = k != nc && (i == lo || key[i - 1] != k) ? 1 : 0;
            int64_t before, tile;
            scan_t(tmp).ExclusiveSum(start, before, tile);
            if (start) {
                double s = ewgt[ref[i]];
                for (int64_t j = i + 1; j < hi && key[j] == k; j++)
                    s += ewgt[ref[j]];
                rkey[segoff[c] + done + before] = k;
                rw[segoff[c] + done + before] = s;
            }
            done += tile;
            __syncthreads();
        }
        if (threadIdx.x == 0)
            cnt[c] = done;
    }
}

/* The coarse rows from their places in the row buffers: cadj/cewgt[cx[c] +
 * j] = rkey/rw[segoff[c] + j]. A warp per 32 consecutive rows, whose
 * entries are contiguous in the coarse graph: 32 of them at a time, lane o
 * finding its row among the 32 (the last starting at or before o, by a
 * binary search over the rows' starts, shuffled). */
__global__ void k_compact_rows(int32_t nc, const int64_t *segoff, const int64_t *cx, const int32_t *rkey,
                               const double *rw, int32_t *cadj, double *cewgt)
{
    const int lane = ku_lane();
    for (int64_t c0 = ku_warp() * KU_WARP; c0 < nc; c0 += ku_warps() * KU_WARP) {
        int64_t to = INT64_MAX, from = 0; /* row c0 + lane's place, past the last row: never found */
        if (c0 + lane < nc) {
            to = cx[c0 + lane];
            from = segoff[c0 + lane];
        }
        const int64_t lo = __shfl_sync(0xffffffffu, to, 0), hi = cx[c0 + KU_WARP < nc ? c0 + KU_WARP : nc];
        for (int64_t o0 = lo; o0 < hi; o0 += KU_WARP) {
            const int64_t o = o0 + lane;
            const int r = ku_lane_at(to, o);
            const int64_t at = __shfl_sync(0xffffffffu, from, r) + o - __shfl_sync(0xffffffffu, to, r);
            if (o < hi) {
                cadj[o] = rkey[at];
                cewgt[o] = rw[at];
            }
        }
    }
}

/* One thread per coarse vertex c: cxadj[c] = cx[c] (and cxadj[nc]), cvwgt[c]
 * = the sum of its members' weights (integer sums: any order). */
__global__ void k_coarse_vertices(int32_t nc, const int64_t *cx, const int32_t *gptr, const int32_t *members,
                                  const int64_t *vwgt, int64_t *cxadj, int64_t *cvwgt)
{
    for (int64_t c = ku_thread(); c <= nc; c += ku_threads()) {
        cxadj[c] = cx[c];
        if (c == nc)
            continue;
        int64_t w = 0;
        for (int32_t i = gptr[c]; i < gptr[c + 1]; i++)
            w += vwgt[members[i]];
        cvwgt[c] = w;
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

/* The paths' thresholds (contract_gpu_set_paths): team size, 0 = by the
 * level's mean row bound; rows of more than g_hash_max entries are sorted. */
static int g_team = 0;
static int64_t g_hash_max = HASH_MAX_DEFAULT;

extern "C" void contract_gpu_set_paths(int team, int64_t hash_max)
{
    g_team = team == 8 || team == 16 || team == 32 ? team : 0;
    g_hash_max = hash_max < 0 ? HASH_MAX_DEFAULT : hash_max < HASH_MAX_DEFAULT ? hash_max : HASH_MAX_DEFAULT;
}

/* The team size of a level: the smallest of 8, 16, 32 lanes holding 1.25
 * times the mean row bound nnz / nc (measured: docs/design-contraction.md). */
static int team_size(int64_t nnz, int32_t nc)
{
    if (g_team)
        return g_team;
    int64_t want = nc > 0 ? 5 * nnz / (4 * (int64_t)nc) : 0;
    return want <= 8 ? 8 : want <= 16 ? 16 : 32;
}

/* Device temporaries of one contraction, all in the device workspace
 * (device.h), carved once per call from sizes known at its start: the group
 * sort's four buffers (its result may end in either of a pair), group
 * offsets, member row places, row bounds, sorted-row offsets, row lengths,
 * coarse row offsets cx (nc + 1, then the error flags and the sorted rows'
 * entry count: the summary) and the row buffers (nnz entries). Rows above
 * hash_max take a second, nested workspace for their gathered and sorted
 * entries, sized once their count is known. Nothing is allocated but the
 * coarse graph. */
struct contract_temps {
    int32_t *kin = nullptr, *vin = nullptr, *skey = nullptr, *members = nullptr, *gptr = nullptr;
    int64_t *pos = nullptr, *segoff = nullptr, *big = nullptr, *cnt = nullptr, *cx = nullptr;
    int32_t *rkey = nullptr;
    double *rw = nullptr;
};

/* The CUB calls of the main workspace (each a callable (temp, bytes), sized
 * by Workspace::size_cub before the carve and run by run_cub after it). */
struct contract_cub {
    const coarsen_graph *g;
    int32_t nc;
    contract_temps &t;
    cudaStream_t s;
    cudaError_t group_sort(void *tmp, size_t &b, cub::DoubleBuffer<int32_t> &keys,
                           cub::DoubleBuffer<int32_t> &vals) const
    {
        return cub::DeviceRadixSort::SortPairs(tmp, b, keys, vals, (int64_t)g->n, 0, ku_key_bits(nc), s);
    }
    cudaError_t member_scan(void *tmp, size_t &b) const
    {
        return cub::DeviceScan::ExclusiveSum(tmp, b, t.pos, (int64_t)g->n + 1, s);
    }
    cudaError_t row_scan(void *tmp, size_t &b) const /* row lengths -> coarse row offsets */
    {
        return cub::DeviceScan::ExclusiveSum(tmp, b, t.cnt, t.cx, (int64_t)nc + 1, s);
    }
    cudaError_t big_scan(void *tmp, size_t &b) const /* sorted rows' sizes -> their offsets */
    {
        return cub::DeviceScan::ExclusiveSum(tmp, b, t.big, (int64_t)nc + 1, s);
    }
};

/* Steps 1-2: groups (t.skey, t.members, t.gptr), the places of the members'
 * rows (t.pos), row bounds (t.segoff) and the sorted rows' sizes (t.big). */
static int contract_groups(const coarsen_graph *g, const int32_t *cmap, int32_t nc, int64_t hash_max,
                           contract_temps &t, Workspace &w, const contract_cub &cc, coarsen_error *err)
{
    const int32_t n = g->n;
    cudaStream_t s = device_stream();
    int64_t *flags = t.cx + nc + 1;
    CUDA_TRY(err, cudaMemsetAsync(flags, 0, 2 * sizeof *flags, s)); /* flags, sorted rows' entries */
    k_check_map<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, cmap, nc, t.kin, t.vin, flags);
    CUDA_LAUNCH_TRY(err);
    /* double buffers: CUB keeps no copy of its own */
    cub::DoubleBuffer<int32_t> dkeys(t.kin, t.skey), dvals(t.vin, t.members);
    if (int rc = w.run_cub([&](void *tmp, size_t &b) { return cc.group_sort(tmp, b, dkeys, dvals); }, "group sort",
                           err))
        return rc;
    t.skey = dkeys.Current();
    t.kin = dkeys.Alternate();
    t.members = dvals.Current();
    t.vin = dvals.Alternate();
    k_groups<<<ku_blocks((int64_t)n + 1), KU_THREADS, 0, s>>>(n, t.skey, t.members, g->xadj, nc, t.gptr, t.pos,
                                                             flags);
    CUDA_LAUNCH_TRY(err);
    if (int rc = w.run_cub([&](void *tmp, size_t &b) { return cc.member_scan(tmp, b); }, "member row scan", err))
        return rc;
    k_row_bounds<<<ku_blocks((int64_t)nc + 1), KU_THREADS, 0, s>>>(nc, t.gptr, t.pos, hash_max, t.segoff, t.big,
                                                                    t.cnt, flags + 1);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

/* The hashed rows (teams, then warps) into the row buffers. */
static int hashed_rows(const coarsen_graph *g, const int32_t *cmap, int32_t nc, int team, int64_t hash_max,
                       const contract_temps &t, coarsen_error *err)
{
    cudaStream_t s = device_stream();
    const int64_t small_max = team < hash_max ? team : hash_max;
    const unsigned tb = ku_blocks(nc, team);
#define CONTRACT_TEAM(T)                                                                                           \
    k_rows_team<T><<<tb, KU_THREADS, 0, s>>>(nc, t.gptr, t.members, t.pos, t.segoff, small_max, g->xadj, g->adj, \
                                             g->ewgt, cmap, t.cnt, t.rkey, t.rw)
    if (team == 8)
        CONTRACT_TEAM(8);
    else if (team == 16)
        CONTRACT_TEAM(16);
    else
        CONTRACT_TEAM(32);
#undef CONTRACT_TEAM
    CUDA_LAUNCH_TRY(err);
    if (hash_max > small_max) {
        unsigned wb = ku_blocks(nc, KU_WARP);
        k_rows_warp<<<wb < ROW_BLOCKS_MAX ? wb : ROW_BLOCKS_MAX, KU_THREADS, 0, s>>>(
            nc, t.gptr, t.members, t.pos, t.segoff, small_max, hash_max, g->xadj, g->adj, g->ewgt, cmap, t.cnt, t.rkey,
            t.rw);
        CUDA_LAUNCH_TRY(err);
    }
    return COARSEN_OK;
}

/* Scan of the row lengths t.cnt into t.cx, and the summary copied to the
 * host: h[0] coarse nnz, h[1] error flags, h[2] entries of the sorted rows. */
static int scan_and_summary(int32_t nc, const contract_temps &t, Workspace &w, const contract_cub &cc,
                            int64_t h[3], coarsen_error *err)
{
    cudaStream_t s = device_stream();
    if (int rc = w.run_cub([&](void *tmp, size_t &b) { return cc.row_scan(tmp, b); }, "coarse row scan", err))
        return rc;
    CUDA_TRY(err, cudaMemcpyAsync(h, t.cx + nc, 3 * sizeof *h, cudaMemcpyDeviceToHost, s));
    CUDA_TRY(err, cudaStreamSynchronize(s));
    return COARSEN_OK;
}

/* Rows above hash_max (big_entries fine entries in all), in a nested
 * workspace: gathered, stably sorted by coarse neighbour per row, runs
 * summed into the row buffers; then the row lengths scanned again (h). */
template <class Ref>
static int sorted_rows(const coarsen_graph *g, const int32_t *cmap, int32_t nc, int64_t big_entries,
                       contract_temps &t, Workspace &w, const contract_cub &cc, int64_t h[3], coarsen_error *err)
{
    const int32_t n = g->n;
    cudaStream_t s = device_stream();
    if (int rc = w.run_cub([&](void *tmp, size_t &b) { return cc.big_scan(tmp, b); }, "sorted row scan", err))
        return rc;
    int32_t *key_in = nullptr, *key = nullptr;
    Ref *ref_in = nullptr, *ref = nullptr;
    Workspace ws;
    ws.take(&key_in, (size_t)big_entries);
    ws.take(&key, (size_t)big_entries);
    ws.take(&ref_in, (size_t)big_entries);
    ws.take(&ref, (size_t)big_entries);
    cub::DoubleBuffer<int32_t> dkeys(key_in, key);
    cub::DoubleBuffer<Ref> drefs(ref_in, ref);
    auto sort = [&](void *tmp, size_t &b) {
        return cub::DeviceSegmentedSort::StableSortPairs(tmp, b, dkeys, drefs, big_entries, (int64_t)nc, t.big,
                                                         t.big + 1, s);
    };
    if (int rc = ws.size_cub(sort, err))
        return rc;
    if (int rc = ws.carve("contraction's sorted rows", err))
        return rc;
    dkeys = cub::DoubleBuffer<int32_t>(key_in, key);
    drefs = cub::DoubleBuffer<Ref>(ref_in, ref);
    k_gather_big<Ref><<<ku_blocks(n, KU_WARP), KU_THREADS, 0, s>>>(n, t.members, t.skey, t.pos, t.segoff, t.big,
                                                                   g->xadj, g->adj, cmap, nc, key_in, ref_in);
    CUDA_LAUNCH_TRY(err);
    if (int rc = ws.run_cub(sort, "segmented sort", err))
        return rc;
    const unsigned sb = (int64_t)nc < (int64_t)ROW_BLOCKS_MAX ? (unsigned)nc : ROW_BLOCKS_MAX;
    k_rows_sorted<Ref><<<sb, KU_THREADS, 0, s>>>(nc, t.big, t.segoff, dkeys.Current(), drefs.Current(), g->ewgt,
                                                 t.cnt, t.rkey, t.rw);
    CUDA_LAUNCH_TRY(err);
    return scan_and_summary(nc, t, w, cc, h, err);
}

/* Steps 3-4. Every row is built once, at its bound's place in the row
 * buffers (t.rkey, t.rw: nnz entries); the coarse graph, allocated at its
 * exact size once the lengths are known, is then copied from them. */
static int contract_rows(const coarsen_graph *g, const int32_t *cmap, int32_t nc, int64_t hash_max,
                         coarsen_graph **out, contract_temps &t, Workspace &w, const contract_cub &cc,
                         coarsen_error *err)
{
    cudaStream_t s = device_stream();
    const int team = team_size(g->nnz, nc);
    if (int rc = hashed_rows(g, cmap, nc, team, hash_max, t, err))
        return rc;
    int64_t h[3] = {0, 0, 0};
    if (int rc = scan_and_summary(nc, t, w, cc, h, err))
        return rc;
    if (h[1] & 1)
        return error_set(err, COARSEN_ERR_INPUT, "contract: cmap has values outside [0, %d)", nc);
    if (h[1] & 2)
        return error_set(err, COARSEN_ERR_INPUT, "contract: cmap is not onto [0, %d): a coarse vertex has no member", nc);
    /* rows above hash_max: gather, stable segmented sort, sum the runs
     * (entry indices as uint32_t when nnz fits, halving the sort's values) */
    if (h[2] > 0) {
        int rc = g->nnz <= (int64_t)UINT32_MAX ? sorted_rows<uint32_t>(g, cmap, nc, h[2], t, w, cc, h, err)
                                               : sorted_rows<uint64_t>(g, cmap, nc, h[2], t, w, cc, h, err);
        if (rc)
            return rc;
    }

    /* the coarse graph at its exact size, copied from the row buffers */
    coarsen_graph *cg = nullptr;
    if (int rc = device_graph_alloc(nc, h[0], &cg, err))
        return rc;
    cg->integral_weights = g->integral_weights;
    int rc = [&]() -> int {
        k_coarse_vertices<<<ku_blocks((int64_t)nc + 1), KU_THREADS, 0, s>>>(nc, t.cx, t.gptr, t.members, g->vwgt,
                                                                             cg->xadj, cg->vwgt);
        CUDA_LAUNCH_TRY(err);
        k_compact_rows<<<ku_blocks(nc), KU_THREADS, 0, s>>>(nc, t.segoff, t.cx, t.rkey, t.rw, cg->adj, cg->ewgt);
        CUDA_LAUNCH_TRY(err);
        if (!g->integral_weights) { /* integer sums agree already */
            k_mirror_weights<<<ku_blocks(nc, KU_WARP), KU_THREADS, 0, s>>>(nc, cg->xadj, cg->adj, cg->ewgt);
            CUDA_LAUNCH_TRY(err);
        }
        return COARSEN_OK;
    }();
    if (rc) {
        coarsen_graph_free(cg);
        return rc;
    }
    *out = cg;
    return COARSEN_OK;
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
    const size_t n = (size_t)g->n, v = (size_t)nc + 1;
    contract_temps t;
    Workspace w;
    w.take(&t.kin, n);
    w.take(&t.vin, n);
    w.take(&t.skey, n);
    w.take(&t.members, n);
    w.take(&t.gptr, v);
    w.take(&t.pos, n + 1);
    w.take(&t.segoff, v);
    w.take(&t.big, v);
    w.take(&t.cnt, v);
    w.take(&t.cx, v + 2);
    w.take(&t.rkey, (size_t)g->nnz);
    w.take(&t.rw, (size_t)g->nnz);
    const contract_cub cc{g, nc, t, device_stream()};
    cub::DoubleBuffer<int32_t> none_k, none_v; /* the size query reads no buffer */
    if (int rc = w.size_cub([&](void *tmp, size_t &b) { return cc.group_sort(tmp, b, none_k, none_v); }, err))
        return rc;
    if (int rc = w.size_cub([&](void *tmp, size_t &b) { return cc.member_scan(tmp, b); }, err))
        return rc;
    if (int rc = w.size_cub([&](void *tmp, size_t &b) { return cc.row_scan(tmp, b); }, err))
        return rc;
    if (int rc = w.size_cub([&](void *tmp, size_t &b) { return cc.big_scan(tmp, b); }, err))
        return rc;
    if (int rc = w.carve("contraction", err))
        return rc;
    const int64_t hash_max = g_hash_max;
    if (int rc = contract_groups(g, d_cmap, nc, hash_max, t, w, cc, err))
        return rc;
    return contract_rows(g, d_cmap, nc, hash_max, out, t, w, cc, err);
}

/* hec.cu — heavy-edge clustering on the GPU (hec.h), step for step the
 * same as hec_cpu.c: (1) the choices by the matchers' row reductions
 * (PointerOp of match_gpu.cuh, load-balanced by degree, with the rating
 * kept); (2) roots, one thread per vertex; (3) each round: one stable
 * three-way partition of the vertices still pending into the candidates
 * and the rest, the candidates counted per leader in the same launch
 * sequence (one copy to the host: the count and the largest leader's
 * count), and chained per leader by their vertex ids in the same launch;
 * when no leader has more than HEC_BUCKET candidates, one thread per
 * candidate finds its weight prefix and its successor in its leader's
 * (rating descending, id) order by a walk over the leader's chain, and
 * admits or starts a group; otherwise they are ordered by two stable radix
 * sorts (rating descending, then leader over the bits a vertex id needs)
 * from id order, their weights summed per leader
 * (DeviceScan::InclusiveSumByKey, exact integers), one thread per candidate
 * admits or starts a group. Both ways admit the same candidates; a second
 * kernel then adds the admitted weights to the groups. Once at most HEC_TAIL
 * vertices are pending, the remaining rounds in one block (k_tail_rounds:
 * the buckets' walk over per-leader chains, the same admissions, no launch
 * or host round trip per round); (4) the islands left alone and the leaders
 * of groups of two or more selected in id order, island j joining group j
 * under the cap (the vertices alone in one three-way partition, islands and
 * others, both counts in one copy), then the vertices still alone as the
 * unmatched vertices of two_hop_gpu (the others of that partition when no
 * island was alone: two-hop selects none), its pairs joined under the
 * smaller id; (5) coarse ids by an exclusive sum over the leader flags. Only
 * counts cross to the host. This file's launches, copies and CUB calls go on
 * device_stream(). */
#include "matching/hec.h"
#include "matching/match_gpu.cuh"
#include "matching/two_hop.h"
#include "contract/kernel_util.cuh"
#include "core/error.h"
#include "core/timer.h"

#include <cub/block/block_scan.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>


/* HEC's counters, the coarse vertex count, then two-hop's (match_gpu.cuh:
 * TWO_HOP_*): one copy. */
enum {
    HEC_GROUPED = 0, HEC_BLOCKED = 1, HEC_ROUNDS = 2, HEC_JOINED = 3, HEC_NC = 4, HEC_TWO_HOP = 5,
    HEC_COUNTS = 5 + TWO_HOP_COUNTS
};

/* A round whose leaders each have at most HEC_BUCKET candidates orders them
 * by a walk over each leader's chain (O(HEC_BUCKET) per candidate) instead
 * of the two radix sorts: the same order, in a handful of launches. */
enum { HEC_BUCKET = 128 };

/* The last rounds of step 3 run in one block once at most HEC_TAIL vertices
 * are pending (k_tail_rounds): the same admissions without a launch or a
 * host round trip per round. */
enum { HEC_TAIL_THREADS = 1024, HEC_TAIL_ITEMS = 4, HEC_TAIL = HEC_TAIL_THREADS * HEC_TAIL_ITEMS };

/* Step 2 (hec_cpu.c: choose_and_root); multi zeroed for step 4. */
__global__ void k_roots(int32_t n, const int32_t *choice, const int64_t *vwgt, int32_t *leader, int64_t *gw,
                        uint8_t *multi)
{
    for (int64_t i = ku_thread(); i < n; i += ku_threads()) {
        int32_t v = (int32_t)i, c = choice[v];
        leader[v] = -1;
        multi[v] = 0;
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

/* The admitted weights added to the groups; the round's leaders' counts
 * and chain heads zeroed for the next round. */
__global__ void k_add_weights(int32_t m, const int32_t *lead, const int64_t *add, int64_t *gw, int32_t *bcnt,
                              int32_t *head)
{
    for (int64_t k = ku_thread(); k < m; k += ku_threads()) {
        const int32_t L = lead[k];
        if (add[k] > 0)
            gw[L] += add[k];
        bcnt[L] = 0;
        head[L] = 0;
    }
}

/* The rating sort's order as an unsigned key: CUB's radix-sort bits of a
 * double (sign set: all bits flipped, else the sign bit), so that a larger
 * value comes first in the descending sort, ties in id order (stable). */
__device__ __forceinline__ unsigned long long rating_bits(double key)
{
    const unsigned long long b = (unsigned long long)__double_as_longlong(key);
    return b >> 63 ? ~b : b ^ (1ull << 63);
}

/* Candidate i of cand[0..nsel[0]) (the round's count, on the device; the
 * grid is sized for an upper bound), v = cand[i]: lead[i] = L, the leader
 * of its choice, counted in bcnt[L] and chained to it (head[L] = 1 + the
 * last vertex chained, nxt[v] = the one chained before v, -1: none); *most
 * = the largest count (zero before). bcnt and head are zero between
 * rounds. */
__global__ void k_bucket_count(const int32_t *nsel, const int32_t *cand, const int32_t *choice,
                               const int32_t *leader, int32_t *lead, int32_t *bcnt, int32_t *head, int32_t *nxt,
                               int32_t *most)
{
    const int64_t m = nsel[0];
    int d = 0;
    for (int64_t i = ku_thread(); i < m; i += ku_threads()) {
        const int32_t v = cand[i], L = leader[choice[v]];
        lead[i] = L;
        const int c = atomicAdd(&bcnt[L], 1) + 1;
        d = c > d ? c : d;
        nxt[v] = atomicExch(&head[L], v + 1) - 1;
    }
    ku_block_max(d, most);
}

/* k_admit for candidate i (v = cand[i]) from its leader's chain (head,
 * nxt: k_bucket_count): its prefix is its weight plus those of the chain's
 * vertices before it in (rating descending, id) order, and the next
 * admission test is that of its successor in that order (the next in the
 * sorted run). */
__global__ void k_bucket_admit(int32_t m, const int32_t *cand, const int32_t *lead, const int32_t *head,
                               const int32_t *nxt, const double *key, const int64_t *vwgt, int64_t cap,
                               int32_t *leader, int64_t *gw, int64_t *add)
{
    for (int64_t i = ku_thread(); i < m; i += ku_threads()) {
        const int32_t v = cand[i], L = lead[i];
        const unsigned long long kv = rating_bits(key[v]);
        int64_t prefix = vwgt[v], next = -1; /* the successor's weight, -1: none */
        unsigned long long ks = 0;
        int32_t s = 0;
        for (int32_t u = head[L] - 1; u >= 0; u = nxt[u]) {
            if (u == v)
                continue;
            const unsigned long long ku = rating_bits(key[u]);
            if (ku > kv || (ku == kv && u < v))
                prefix += vwgt[u];
            else if (next < 0 || ku > ks || (ku == ks && u < s)) {
                ks = ku;
                s = u;
                next = vwgt[u];
            }
        }
        add[i] = 0;
        if (admitted(cap, gw, L, prefix)) {
            leader[v] = L;
            if (next < 0 || !admitted(cap, gw, L, prefix + next))
                add[i] = prefix;
        } else {
            leader[v] = v;
            gw[v] = vwgt[v];
        }
    }
}

/* Step 3's remaining rounds over pending[0..count) (count <= HEC_TAIL, in
 * increasing id), in one block of HEC_TAIL_THREADS threads, with
 * k_bucket_admit's walk: per round the candidates compacted in id order
 * (block scan; a candidate's position c stands for its id in the order's
 * ties) and chained per leader (head[L] = 1 + the last candidate chained
 * to L, zero between rounds), each candidate's weight prefix and successor
 * found by a walk over its leader's chain in (rating descending, position)
 * order, admitted as k_bucket_admit does, then the admitted weights added
 * as k_add_weights does; rounds with candidates added to *rounds. Global
 * writes of a round are seen by the next after __syncthreads (one block);
 * the chain heads, set by atomics, are read past L1. */
__global__ void __launch_bounds__(HEC_TAIL_THREADS)
k_tail_rounds(int32_t count, const int32_t *pending_in, const int32_t *choice, const double *key,
              const int64_t *vwgt, int64_t cap, int32_t *leader, int64_t *gw, int32_t *head,
              unsigned long long *rounds)
{
    typedef cub::BlockScan<int, HEC_TAIL_THREADS> IntScan;
    __shared__ typename IntScan::TempStorage scan;
    extern __shared__ __align__(16) unsigned char smem[];
    unsigned long long *kbits = reinterpret_cast<unsigned long long *>(smem); /* per candidate: rating_bits */
    int64_t *w = reinterpret_cast<int64_t *>(kbits + HEC_TAIL);             /* its weight */
    int32_t *next = reinterpret_cast<int32_t *>(w + HEC_TAIL);              /* the one chained before it, -1 */
    int32_t *pend = next + HEC_TAIL, *rest = pend + HEC_TAIL;               /* this round's list, the next's */
    const int t = threadIdx.x;
    for (int i = t; i < count; i += HEC_TAIL_THREADS)
        pend[i] = pending_in[i];
    unsigned long long done = 0;
    __syncthreads();
    while (count > 0) {
        /* candidates chained by leader, the others into rest in order */
        int32_t v[HEC_TAIL_ITEMS], L[HEC_TAIL_ITEMS];
        int flag[HEC_TAIL_ITEMS], at[HEC_TAIL_ITEMS], m = 0;
        for (int j = 0; j < HEC_TAIL_ITEMS; j++) {
            const int i = t * HEC_TAIL_ITEMS + j;
            v[j] = i < count ? pend[i] : -1;
            L[j] = v[j] >= 0 ? leader[choice[v[j]]] : -1;
            flag[j] = L[j] >= 0;
        }
        IntScan(scan).ExclusiveSum(flag, at, m);
        for (int j = 0; j < HEC_TAIL_ITEMS; j++) {
            const int i = t * HEC_TAIL_ITEMS + j, c = at[j];
            if (flag[j]) {
                kbits[c] = rating_bits(key[v[j]]);
                w[c] = vwgt[v[j]];
                next[c] = atomicExch(&head[L[j]], c + 1) - 1;
            } else if (v[j] >= 0) {
                rest[i - c] = v[j];
            }
        }
        __syncthreads();
        if (m == 0)
            break;
        done++;
        /* admission (k_bucket_admit): reads gw of the leaders before any is changed */
        int64_t add[HEC_TAIL_ITEMS];
        for (int j = 0; j < HEC_TAIL_ITEMS; j++) {
            add[j] = 0;
            if (!flag[j])
                continue;
            const int32_t c = at[j];
            const unsigned long long kv = kbits[c];
            int64_t prefix = w[c], succ = -1; /* the successor's weight, -1: none */
            unsigned long long ks = 0;
            int32_t s = 0;
            for (int32_t u = __ldcg(&head[L[j]]) - 1; u >= 0; u = next[u]) {
                if (u == c)
                    continue;
                const unsigned long long ku = kbits[u];
                if (ku > kv || (ku == kv && u < c))
                    prefix += w[u];
                else if (succ < 0 || ku > ks || (ku == ks && u < s)) {
                    ks = ku;
                    s = u;
                    succ = w[u];
                }
            }
            if (admitted(cap, gw, L[j], prefix)) {
                leader[v[j]] = L[j];
                if (succ < 0 || !admitted(cap, gw, L[j], prefix + succ))
                    add[j] = prefix;
            } else {
                leader[v[j]] = v[j];
                gw[v[j]] = w[c];
            }
        }
        __syncthreads();
        for (int j = 0; j < HEC_TAIL_ITEMS; j++)
            if (flag[j]) {
                head[L[j]] = 0;
                if (add[j] > 0)
                    gw[L[j]] += add[j];
            }
        count -= m;
        int32_t *swap = pend;
        pend = rest;
        rest = swap;
        __syncthreads();
    }
    if (t == 0)
        *rounds += done;
}

/* Dynamic shared memory of k_tail_rounds. */
static const size_t HEC_TAIL_SMEM = (size_t)HEC_TAIL * (2 * sizeof(int64_t) + 3 * sizeof(int32_t));

/* Lets k_tail_rounds take HEC_TAIL_SMEM: once per process (the attribute
 * stays set; asking on every level cost a driver call each). */
static int tail_prepare(coarsen_error *err)
{
    static bool done = false;
    if (!done) {
        CUDA_TRY(err, cudaFuncSetAttribute(k_tail_rounds, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           (int)HEC_TAIL_SMEM));
        done = true;
    }
    return COARSEN_OK;
}

/* multi[leader[v]] = 1 for every member that is not its leader (multi
 * zeroed by k_roots). */
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

/* Step 4a's lists (hec_cpu.c: join_islands): the islands alone (and the
 * others alone, two-hop's candidates when no island is alone), and the
 * leaders of groups of two or more. */
struct AloneIsland {
    const int32_t *mate;
    const int64_t *xadj;
    __device__ __forceinline__ bool operator()(int32_t v) const { return mate[v] == -1 && xadj[v + 1] == xadj[v]; }
};
struct AloneLinked {
    const int32_t *mate;
    const int64_t *xadj;
    __device__ __forceinline__ bool operator()(int32_t v) const { return mate[v] == -1 && xadj[v + 1] > xadj[v]; }
};
struct GroupLeader {
    const int32_t *leader, *mate;
    __device__ __forceinline__ bool operator()(int32_t v) const { return leader[v] == v && mate[v] == v; }
};

/* Step 4a: island j joins group j when the cap allows (and leaves the
 * alone ones); len[0], len[1]: the lists' lengths, on the device. */
__global__ void k_join_islands(const int32_t *islands, const int32_t *hosts, const int32_t *len,
                               const int64_t *vwgt, const int64_t *gw, int64_t cap, int32_t *leader, int32_t *mate,
                               unsigned long long *joined)
{
    const int32_t m = len[0] < len[1] ? len[0] : len[1];
    unsigned c = 0;
    for (int64_t j = ku_thread(); j < m; j += ku_threads()) {
        const int32_t v = islands[j], h = hosts[j];
        if (pair_eligible(cap, gw[h], vwgt[v])) {
            leader[v] = h;
            mate[v] = v;
            c++;
        }
    }
    ku_block_add(c, joined);
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

/* cmap[v] = id[leader[v]]; grouped and cap-blocked vertices counted, and
 * the coarse vertex count id[n] put beside them. */
__global__ void k_number(int32_t n, const int32_t *leader, const int32_t *id, const uint8_t *multi,
                         const int64_t *xadj, int32_t *cmap, unsigned long long *counts)
{
    if (ku_thread() == 0)
        counts[HEC_NC] = (unsigned long long)id[n];
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
    ku_block_add(grouped, &counts[HEC_GROUPED]);
    ku_block_add(blocked, &counts[HEC_BLOCKED]);
}

/* The arrays of one run and its CUB storage, in the device workspace for
 * the whole run (steps 1-2 and step 4's two-hop, which run inside it, take
 * the nested workspace). */
struct HecWork {
    int32_t *choice = nullptr, *leader = nullptr, *pending = nullptr, *mate = nullptr, *cand = nullptr;
    int32_t *idx = nullptr, *perm1 = nullptr, *perm = nullptr, *lead1 = nullptr, *lead = nullptr;
    int32_t *bcnt = nullptr, *head = nullptr; /* candidates per leader (the tail's chain heads), the rounds'
                                                 chain heads: zero between rounds, one array */
    double *key = nullptr, *ckey = nullptr, *ckey_sorted = nullptr;
    int64_t *gw = nullptr, *w = nullptr, *prefix = nullptr, *add = nullptr;
    uint8_t *multi = nullptr;
    int32_t *nsel = nullptr; /* the partition's two counts, then the largest bucket */
    unsigned long long *counts = nullptr;
    int bits = 1; /* of a vertex id below n: the leader sort's range */
    Workspace ws;
};

/* The CUB calls of a round (k candidates of count pending vertices) and of
 * the numbering (n + 1 entries). */
static cudaError_t candidates(void *tmp, size_t &b, const HecWork &W, int32_t count)
{
    return cub::DevicePartition::If(tmp, b, W.pending, W.cand, W.mate, W.perm, W.nsel, (int64_t)count,
                                    Candidate{W.leader, W.choice}, Always{}, device_stream());
}
static cudaError_t rating_sort(void *tmp, size_t &b, const HecWork &W, int32_t k)
{
    return cub::DeviceRadixSort::SortPairsDescending(tmp, b, W.ckey, W.ckey_sorted, W.idx, W.perm1, (int64_t)k, 0,
                                                     64, device_stream());
}
static cudaError_t leader_sort(void *tmp, size_t &b, const HecWork &W, int32_t k)
{
    return cub::DeviceRadixSort::SortPairs(tmp, b, W.lead1, W.lead, W.perm1, W.perm, (int64_t)k, 0, W.bits,
                                           device_stream());
}
static cudaError_t prefix_sums(void *tmp, size_t &b, const HecWork &W, int32_t k)
{
    return cub::DeviceScan::InclusiveSumByKey(tmp, b, W.lead, W.w, W.prefix, (int64_t)k, ::cuda::std::equal_to<>(),
                                              device_stream());
}
static cudaError_t alone(void *tmp, size_t &b, const HecWork &W, const int64_t *xadj, int32_t n)
{
    return cub::DevicePartition::If(tmp, b, thrust::counting_iterator<int32_t>(0), W.cand, W.lead1, W.lead, W.nsel,
                                    (int64_t)n, AloneIsland{W.mate, xadj}, AloneLinked{W.mate, xadj},
                                    device_stream());
}
static cudaError_t numbering(void *tmp, size_t &b, const HecWork &W, int32_t n)
{
    return cub::DeviceScan::ExclusiveSum(tmp, b, W.idx, W.perm, (int64_t)n + 1, device_stream());
}

/* Names every array of a graph of n vertices, sizes the CUB calls at their
 * largest (n) and takes the workspace. */
static int hec_plan(int32_t n, HecWork &W, coarsen_error *err)
{
    const size_t m = (size_t)n + 1;
    W.bits = ku_key_bits(n);
    int32_t **ints[] = {&W.choice, &W.leader, &W.pending, &W.mate, &W.cand,
                        &W.idx, &W.perm1, &W.perm, &W.lead1, &W.lead};
    for (int32_t **p : ints)
        W.ws.take(p, m);
    W.ws.take(&W.bcnt, 2 * m);
    double **dbl[] = {&W.key, &W.ckey, &W.ckey_sorted};
    for (double **p : dbl)
        W.ws.take(p, m);
    int64_t **wide[] = {&W.gw, &W.w, &W.prefix, &W.add};
    for (int64_t **p : wide)
        W.ws.take(p, m);
    W.ws.take(&W.multi, m);
    W.ws.take(&W.nsel, 3);
    W.ws.take(&W.counts, HEC_COUNTS);
    int rc = W.ws.size_cub([&](void *t, size_t &b) { return candidates(t, b, W, n); }, err);
    if (!rc)
        rc = W.ws.size_cub([&](void *t, size_t &b) { return rating_sort(t, b, W, n); }, err);
    if (!rc)
        rc = W.ws.size_cub([&](void *t, size_t &b) { return leader_sort(t, b, W, n); }, err);
    if (!rc)
        rc = W.ws.size_cub([&](void *t, size_t &b) { return prefix_sums(t, b, W, n); }, err);
    if (!rc)
        rc = W.ws.size_cub([&](void *t, size_t &b) { return numbering(t, b, W, n); }, err);
    if (!rc)
        rc = W.ws.size_cub([&](void *t, size_t &b) { return alone(t, b, W, nullptr, n); }, err);
    const auto all = thrust::counting_iterator<int32_t>(0);
    if (!rc)
        rc = select_counted_size(W.ws, all, n, GroupLeader{W.leader, W.mate}, err);
    if (!rc)
        rc = W.ws.carve("HEC", err);
    if (!rc)
        W.head = W.bcnt + m;
    return rc;
}

/* Step 3's order and admissions of the round's k candidates (W.cand,
 * counted per leader in W.bcnt and W.lead, chained in W.head and W.perm) by
 * the chains: none has more than HEC_BUCKET entries. */
static int bucket_round(const coarsen_graph *g, int64_t cap, HecWork &W, int32_t k, coarsen_error *err)
{
    k_bucket_admit<<<ku_blocks(k), KU_THREADS, 0, device_stream()>>>(k, W.cand, W.lead, W.head, W.perm, W.key,
                                                                      g->vwgt, cap, W.leader, W.gw, W.add);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

/* The same by the two radix sorts (some leader has more than HEC_BUCKET
 * candidates). */
static int sorted_round(const coarsen_graph *g, int64_t cap, HecWork &W, int32_t k, coarsen_error *err)
{
    cudaStream_t s = device_stream();
    k_candidate_keys<<<ku_blocks(k), KU_THREADS, 0, s>>>(k, W.cand, W.key, W.ckey, W.idx);
    CUDA_LAUNCH_TRY(err);
    if (int rc = W.ws.run_cub([&](void *t, size_t &b) { return rating_sort(t, b, W, k); }, "HEC rating sort", err))
        return rc;
    k_candidate_leaders<<<ku_blocks(k), KU_THREADS, 0, s>>>(k, W.perm1, W.cand, W.choice, W.leader, W.lead1);
    CUDA_LAUNCH_TRY(err);
    if (int rc = W.ws.run_cub([&](void *t, size_t &b) { return leader_sort(t, b, W, k); }, "HEC leader sort", err))
        return rc;
    k_candidate_weights<<<ku_blocks(k), KU_THREADS, 0, s>>>(k, W.perm, W.cand, g->vwgt, W.w);
    CUDA_LAUNCH_TRY(err);
    if (int rc = W.ws.run_cub([&](void *t, size_t &b) { return prefix_sums(t, b, W, k); }, "HEC prefix sums", err))
        return rc;
    k_admit<<<ku_blocks(k), KU_THREADS, 0, s>>>(k, W.perm, W.cand, W.lead, W.prefix, g->vwgt, cap, W.leader, W.gw,
                                                 W.add);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

/* One round of step 3 over pending[0..*count) (vertices not in a group, in
 * increasing id): one stable three-way partition into the candidates (cand)
 * and the others (the next round's pending list, swapped in; nobody is left
 * for the third part), the candidates counted per leader; the *m
 * candidates admitted or turned into leaders, in buckets or sorted. */
static int join_round(const coarsen_graph *g, int64_t cap, HecWork &W, int32_t *count, int32_t *m,
                      coarsen_error *err)
{
    cudaStream_t s = device_stream();
    const int32_t c = *count;
    CUDA_TRY(err, cudaMemsetAsync(W.nsel + 2, 0, sizeof *W.nsel, s));
    if (int rc = W.ws.run_cub([&](void *t, size_t &b) { return candidates(t, b, W, c); }, "HEC candidates", err))
        return rc;
    k_bucket_count<<<ku_blocks(c), KU_THREADS, 0, s>>>(W.nsel, W.cand, W.choice, W.leader, W.lead, W.bcnt,
                                                        W.head, W.perm, W.nsel + 2);
    CUDA_LAUNCH_TRY(err);
    int32_t h[3];
    CUDA_TRY(err, cudaMemcpyAsync(h, W.nsel, sizeof h, cudaMemcpyDeviceToHost, s));
    CUDA_TRY(err, cudaStreamSynchronize(s));
    const int32_t k = *m = h[0];
    *count -= k;
    int32_t *t = W.pending;
    W.pending = W.mate;
    W.mate = t;
    if (k == 0)
        return COARSEN_OK;
    if (int rc = h[2] <= HEC_BUCKET ? bucket_round(g, cap, W, k, err) : sorted_round(g, cap, W, k, err))
        return rc;
    k_add_weights<<<ku_blocks(k), KU_THREADS, 0, s>>>(k, W.lead, W.add, W.gw, W.bcnt, W.head);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

/* Step 4 (hec_cpu.c: pair_alone); leaves flag[v] = v leads a group in
 * W.idx and multi set at the leaders of groups of two or more. */
static int pair_alone(const coarsen_graph *g, const matching_opts *opts, HecWork &W, coarsen_error *err)
{
    cudaStream_t s = device_stream();
    const int32_t n = g->n;
    k_multi<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, W.leader, W.multi);
    CUDA_LAUNCH_TRY(err);
    k_alone_mates<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, W.leader, W.multi, W.mate);
    CUDA_LAUNCH_TRY(err);
    /* 4a: the vertices alone in one three-way partition, the islands into
     * cand, the others into lead1 (the rest into lead, unused), both counts
     * in one copy; the groups' leaders into perm1 when an island is alone. */
    if (int rc = W.ws.run_cub([&](void *t, size_t &b) { return alone(t, b, W, g->xadj, n); }, "HEC alone", err))
        return rc;
    int32_t h[2];
    CUDA_TRY(err, stream_copy(h, W.nsel, sizeof h, cudaMemcpyDeviceToHost));
    const int32_t islands = h[0];
    if (islands > 0) {
        const auto all = thrust::counting_iterator<int32_t>(0);
        if (int rc = W.ws.run_cub(
                [&](void *t, size_t &b) {
                    return select_counted_call(t, b, all, n, GroupLeader{W.leader, W.mate}, W.perm1, W.nsel + 1);
                },
                "HEC groups", err))
            return rc;
        k_join_islands<<<ku_blocks(islands), KU_THREADS, 0, s>>>(W.cand, W.perm1, W.nsel, g->vwgt, W.gw,
                                                                  opts->max_vertex_weight, W.leader, W.mate,
                                                                  W.counts + HEC_JOINED);
        CUDA_LAUNCH_TRY(err);
    }
    /* 4b: with no island alone, the others are exactly two-hop's candidates */
    const two_hop_opts th = {opts->max_vertex_weight, opts->relatives_threshold};
    const two_hop_candidates known = {islands == 0 ? W.lead1 : nullptr, h[1]};
    if (int rc = two_hop_gpu_queued(g, &th, W.mate, &known, W.counts + HEC_TWO_HOP, err)) /* its counts come with ours */
        return rc;
    k_join_pairs<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, W.mate, W.leader, W.multi, W.idx);
    CUDA_LAUNCH_TRY(err);
    return COARSEN_OK;
}

static int hec_run(const coarsen_graph *g, const matching_opts *opts, int32_t *d_cmap, int32_t *nc, hec_stats *st,
                   HecWork &W, coarsen_error *err)
{
    cudaStream_t s = device_stream();
    const int32_t n = g->n;
    const int64_t cap = opts->max_vertex_weight;
    const MatchGraph G = match_graph(g);
    if (int rc = hec_plan(n, W, err))
        return rc;
    int32_t count = 0;
    {
        /* steps 1 and 2 in the device workspace (the active lists and the
         * selection's CUB storage), given back before step 4's two-hop,
         * which takes it in turn; the arrays that outlive a step are HEC's own */
        Workspace ws;
        ActiveLists A{};
        const auto all = thrust::counting_iterator<int32_t>(0);
        if (int rc = active_plan(ws, G, &A, err))
            return rc;
        if (int rc = select_counted_size(ws, all, n, Unassigned{W.leader}, err))
            return rc;
        if (int rc = ws.carve("HEC choices", err))
            return rc;
        const MatchShape shape = match_shape(g, opts);
        if (int rc = active_init(G, shape, &A, err))
            return rc;
        const PointerOp choose{match_ties(opts), nullptr, G.vwgt, cap, W.choice, nullptr, (int)opts->rating, W.key};
        if (int rc = rows_launch(G, A, shape, choose, err))
            return rc;
        k_roots<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, W.choice, g->vwgt, W.leader, W.gw, W.multi);
        CUDA_LAUNCH_TRY(err);
        if (int rc = select_counted(ws, all, n, Unassigned{W.leader}, W.pending, W.nsel, &count,
                                    "HEC pending vertices", err))
            return rc;
    }
    CUDA_TRY(err, cudaMemsetAsync(W.counts, 0, HEC_COUNTS * sizeof *W.counts, s));
    CUDA_TRY(err, cudaMemsetAsync(W.bcnt, 0, 2 * ((size_t)n + 1) * sizeof *W.bcnt, s)); /* and W.head */
    /* while vertices are left, one of them is a candidate (its tree's root
     * is a group) */
    for (int32_t m = 0; count > 0;) {
        if (count <= HEC_TAIL) {
            if (int rc = tail_prepare(err))
                return rc;
            k_tail_rounds<<<1, HEC_TAIL_THREADS, HEC_TAIL_SMEM, s>>>(count, W.pending, W.choice, W.key, g->vwgt,
                                                                      cap, W.leader, W.gw, W.bcnt,
                                                                      W.counts + HEC_ROUNDS);
            CUDA_LAUNCH_TRY(err);
            break;
        }
        if (int rc = join_round(g, cap, W, &count, &m, err))
            return rc;
        if (m == 0)
            break;
        st->rounds++;
    }
    if (int rc = pair_alone(g, opts, W, err))
        return rc;
    CUDA_TRY(err, cudaMemsetAsync(W.idx + n, 0, sizeof *W.idx, s)); /* the sum's last term: perm[n] = nc */
    if (int rc = W.ws.run_cub([&](void *t, size_t &b) { return numbering(t, b, W, n); }, "HEC numbering", err))
        return rc;
    k_number<<<ku_blocks(n), KU_THREADS, 0, s>>>(n, W.leader, W.perm, W.multi, g->xadj, d_cmap, W.counts);
    CUDA_LAUNCH_TRY(err);
    unsigned long long h[HEC_COUNTS];
    CUDA_TRY(err, stream_copy(h, W.counts, sizeof h, cudaMemcpyDeviceToHost));
    *nc = (int32_t)h[HEC_NC];
    st->rounds += (int)h[HEC_ROUNDS];
    st->grouped = (int64_t)h[HEC_GROUPED];
    st->cap_blocked = (int64_t)h[HEC_BLOCKED];
    st->island_pairs = (int64_t)(h[HEC_TWO_HOP + TWO_HOP_ISLAND] + h[HEC_JOINED]); /* two-hop's and step 4a's */
    st->leaf_pairs = (int64_t)h[HEC_TWO_HOP + TWO_HOP_LEAF];
    st->twin_pairs = (int64_t)h[HEC_TWO_HOP + TWO_HOP_TWIN];
    st->relative_pairs = (int64_t)h[HEC_TWO_HOP + TWO_HOP_RELATIVE];
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
        if ((rc = hec_run(g, opts, d_cmap, nc, &st, W, err))) /* ends with the stream synchronized */
            return rc;
    }
    st.ms = timer_ms() - t0;
    if (stats)
        *stats = st;
    return COARSEN_OK;
}

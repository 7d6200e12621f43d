/* refine.cu — the GPU side of partition/: projection through a device map,
 * part weights and cut on the device, and the refinement rounds of
 * refine_cpu.c ported phase by phase (one thread per vertex; every sum is
 * taken in CSR order and integer totals use atomics, so the output equals the
 * CPU's bit for bit, whatever the launch geometry; move admission uses
 * stable CUB radix sorts and a scan by key over integers). Host round trips
 * per round: the move count, one per admission pass, the move totals (2k+1)
 * and the cut. Also the boundary list that the host FM polish starts from. */
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "contract/kernel_util.cuh"
#include "core/error.h"
#include "device/cuda_check.cuh"
#include "partition/partition.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

__global__ void k_project(int32_t n, const int32_t *map, const int32_t *coarse, int32_t *fine)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads())
        fine[v] = coarse[map[v]];
}

__global__ void k_part_weights(int32_t n, const int32_t *part, const int64_t *vwgt, unsigned long long *w)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads())
        atomicAdd(&w[part[v]], (unsigned long long)vwgt[v]);
}

/* sum over v of rint(2^shift * external weight of v), in *out (zeroed before). */
__global__ void k_cut_fixed(int32_t n, const int64_t *xadj, const int32_t *adj, const double *ewgt,
                            const int32_t *part, int shift, unsigned long long *out)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads()) {
        int32_t pv = part[v];
        double ext = 0;
        for (int64_t i = xadj[v]; i < xadj[v + 1]; i++)
            if (part[adj[i]] != pv)
                ext += ewgt[i];
        long long fixed = __double2ll_rn(ldexp(ext, shift));
        if (fixed)
            atomicAdd(out, (unsigned long long)fixed);
    }
}

/* Phase 1 (best_move of refine_cpu.c): the adjacent other part of highest
 * connectivity, ties to the lowest id, kept when its gain is not too negative; each part's connectivity summed in CSR
 * order from its first occurrence in the row. */
__global__ void k_candidates(int32_t n, const int64_t *xadj, const int32_t *adj, const double *ewgt,
                             const int32_t *part, int32_t *dest, double *gain)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads()) {
        int32_t a = part[v], best = -1;
        double own = 0, bestc = 0;
        int64_t lo = xadj[v], hi = xadj[v + 1];
        for (int64_t i = lo; i < hi; i++) {
            int32_t b = part[adj[i]];
            if (b == a) {
                own += ewgt[i];
                continue;
            }
            bool first = true;
            for (int64_t j = lo; j < i && first; j++)
                first = part[adj[j]] != b;
            if (!first)
                continue;
            double c = 0;
            for (int64_t j = i; j < hi; j++)
                if (part[adj[j]] == b)
                    c += ewgt[j];
            if (best < 0 || c > bestc || (c == bestc && b < best)) {
                best = b;
                bestc = c;
            }
        }
        double g = best < 0 ? 0 : bestc - own;
        gain[v] = g;
        dest[v] = best >= 0 && g >= -PARTITION_REFINE_NEGATIVE_GAIN * own ? best : -1;
    }
}

/* Phase 2 (afterburner_gain of refine_cpu.c). */
__global__ void k_afterburner(int32_t n, const int64_t *xadj, const int32_t *adj, const double *ewgt,
                              const int32_t *part, const int32_t *dest, const double *gain, unsigned char *moved)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads()) {
        int32_t dv = dest[v];
        if (dv < 0) {
            moved[v] = 0;
            continue;
        }
        double to_dest = 0, to_own = 0, gv = gain[v];
        int32_t pv = part[v];
        for (int64_t i = xadj[v]; i < xadj[v + 1]; i++) {
            int32_t u = adj[i];
            bool first = dest[u] >= 0 && (gain[u] > gv || (gain[u] == gv && u < v));
            int32_t pu = first ? dest[u] : part[u];
            if (pu == dv)
                to_dest += ewgt[i];
            else if (pu == pv)
                to_own += ewgt[i];
        }
        moved[v] = to_dest - to_own > 0;
    }
}

/* Phase 3 (admit_moves of refine_cpu.c). order[0..nc): the candidate moves
 * sorted by destination, gain descending, id. Sums over the moves still kept
 * the weight leaving (d[p]) and arriving (d[k + p]) per part, and counts
 * them (d[2k]); val[c] = the weight of move c when kept, else 0. */
__global__ void k_move_totals(int32_t nc, int32_t k, const int32_t *order, const int32_t *part,
                              const int32_t *dest, const int64_t *vwgt, const unsigned char *moved,
                              unsigned long long *d, int64_t *val)
{
    for (int64_t c = ku_thread(); c < nc; c += ku_threads()) {
        int32_t v = order[c];
        val[c] = moved[v] ? vwgt[v] : 0;
        if (!moved[v])
            continue;
        atomicAdd(&d[part[v]], (unsigned long long)vwgt[v]);
        atomicAdd(&d[k + dest[v]], (unsigned long long)vwgt[v]);
        atomicAdd(&d[2 * (int64_t)k], 1ull);
    }
}

/* Drops the kept moves whose running arrival weight (prefix, by destination)
 * exceeds cap - w[p] + leaving[p]; counts the drops in *dropped. */
__global__ void k_admit(int32_t nc, const int32_t *order, const int32_t *dest, const int64_t *prefix,
                        const int64_t *w, const unsigned long long *leaving, int64_t cap, unsigned char *moved,
                        unsigned long long *dropped)
{
    for (int64_t c = ku_thread(); c < nc; c += ku_threads()) {
        int32_t v = order[c], p = dest[v];
        if (moved[v] && prefix[c] > cap - w[p] + (int64_t)leaving[p]) {
            moved[v] = 0;
            atomicAdd(dropped, 1ull);
        }
    }
}

__global__ void k_gather_gain(int32_t nc, const int32_t *ids, const double *gain, double *out)
{
    for (int64_t c = ku_thread(); c < nc; c += ku_threads())
        out[c] = gain[ids[c]];
}

__global__ void k_gather_dest(int32_t nc, const int32_t *ids, const int32_t *dest, int32_t *out)
{
    for (int64_t c = ku_thread(); c < nc; c += ku_threads())
        out[c] = dest[ids[c]];
}

/* flag[v] = 1 when v has a neighbour in another part (the boundary). */
__global__ void k_boundary(int32_t n, const int64_t *xadj, const int32_t *adj, const int32_t *part,
                           unsigned char *flag)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads()) {
        int32_t pv = part[v];
        unsigned char b = 0;
        for (int64_t i = xadj[v]; i < xadj[v + 1] && !b; i++)
            b = part[adj[i]] != pv;
        flag[v] = b;
    }
}

__global__ void k_apply(int32_t n, const unsigned char *moved, const int32_t *dest, int32_t *part)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads())
        if (moved[v])
            part[v] = dest[v];
}

/* Device scratch of one call, released by the destructor. */
struct scratch {
    std::vector<void *> ptrs;
    template <class T> int get(T **p, size_t count, const char *what, coarsen_error *err)
    {
        int rc = dalloc(p, count, what, err);
        if (!rc)
            ptrs.push_back(*p);
        return rc;
    }
    ~scratch()
    {
        for (void *p : ptrs)
            device_free(p);
    }
};

static int cut_fixed(const coarsen_graph *g, const int32_t *part, int shift, unsigned long long *cell, int64_t *out,
                     coarsen_error *err)
{
    CUDA_TRY(err, cudaMemsetAsync(cell, 0, sizeof *cell, 0));
    k_cut_fixed<<<ku_blocks(g->n), KU_THREADS>>>(g->n, g->xadj, g->adj, g->ewgt, part, shift, cell);
    CUDA_LAUNCH_TRY(err);
    unsigned long long h = 0;
    int rc = device_copy_to_host(&h, cell, sizeof h, err);
    *out = (int64_t)h;
    return rc;
}

static int fixed_shift(const coarsen_graph *g, scratch &s, int *shift, coarsen_error *err)
{
    double *dmax = nullptr, wmax = 0;
    int rc = s.get(&dmax, 1, "max edge weight", err);
    if (!rc && g->nnz > 0)
        rc = cub_run([&](void *t, size_t &b) { return cub::DeviceReduce::Max(t, b, g->ewgt, dmax, g->nnz); },
                     "cub::DeviceReduce::Max (edge weights)", err);
    if (!rc && g->nnz > 0)
        rc = device_copy_to_host(&wmax, dmax, sizeof wmax, err);
    *shift = partition_fixed_shift(wmax, g->nnz);
    return rc;
}

extern "C" int partition_project_gpu(int32_t n_fine, const int32_t *map, const int32_t *coarse_part,
                                     int32_t *fine_part, coarsen_error *err)
{
    k_project<<<ku_blocks(n_fine), KU_THREADS>>>(n_fine, map, coarse_part, fine_part);
    CUDA_LAUNCH_TRY(err);
    return 0;
}

extern "C" int partition_part_weights_gpu(const coarsen_graph *g, const int32_t *part, int32_t k, int64_t *weights,
                                          coarsen_error *err)
{
    scratch s;
    unsigned long long *dw = nullptr;
    if (int rc = s.get(&dw, (size_t)k, "part weights", err))
        return rc;
    CUDA_TRY(err, cudaMemsetAsync(dw, 0, (size_t)k * sizeof *dw, 0));
    k_part_weights<<<ku_blocks(g->n), KU_THREADS>>>(g->n, part, g->vwgt, dw);
    CUDA_LAUNCH_TRY(err);
    return device_copy_to_host(weights, dw, (size_t)k * sizeof *weights, err);
}

extern "C" int partition_cut_gpu(const coarsen_graph *g, const int32_t *part, double *cut, coarsen_error *err)
{
    scratch s;
    int shift = 0;
    unsigned long long *cell = nullptr;
    int64_t fixed = 0;
    int rc = fixed_shift(g, s, &shift, err);
    if (!rc)
        rc = s.get(&cell, 1, "cut", err);
    if (!rc)
        rc = cut_fixed(g, part, shift, cell, &fixed, err);
    *cut = ldexp((double)fixed, -shift - 1);
    return rc;
}

extern "C" int partition_boundary_gpu(const coarsen_graph *g, const int32_t *part, int32_t **boundary, int32_t *nb,
                                      coarsen_error *err)
{
    *boundary = NULL;
    *nb = 0;
    int32_t n = g->n;
    if (n == 0)
        return 0;
    scratch s;
    unsigned char *flag = nullptr;
    int32_t *ids = nullptr, *dcount = nullptr;
    int rc = s.get(&flag, (size_t)n, "boundary flags", err);
    if (!rc)
        rc = s.get(&ids, (size_t)n, "boundary ids", err);
    if (!rc)
        rc = s.get(&dcount, 1, "boundary count", err);
    if (rc)
        return rc;
    k_boundary<<<ku_blocks(n), KU_THREADS>>>(n, g->xadj, g->adj, part, flag);
    CUDA_LAUNCH_TRY(err);
    thrust::counting_iterator<int32_t> all(0);
    rc = cub_run([&](void *t, size_t &b) { return cub::DeviceSelect::Flagged(t, b, all, flag, ids, dcount, n); },
                 "cub::DeviceSelect::Flagged (boundary)", err);
    int32_t count = 0;
    if (!rc)
        rc = device_copy_to_host(&count, dcount, sizeof count, err);
    if (rc || count == 0)
        return rc;
    int32_t *out = (int32_t *)xmalloc((size_t)count * sizeof *out, "boundary", err);
    if (!out)
        return COARSEN_ERR_NOMEM;
    if ((rc = device_copy_to_host(out, ids, (size_t)count * sizeof *out, err))) {
        free(out);
        return rc;
    }
    *boundary = out;
    *nb = count;
    return 0;
}

/* The candidate moves (moved[v] = 1) in admission order: destination,
 * gain descending, id (two stable radix sorts over the ids in increasing
 * order). order and okey (its destinations) receive *nc entries. */
static int sort_moves(int32_t n, const unsigned char *moved, const int32_t *dest, const double *gain,
                      int32_t *ids, int32_t *ids2, double *gkey, double *gkey2, int32_t *okey, int32_t *order,
                      int32_t *dcount, int32_t *nc, coarsen_error *err)
{
    thrust::counting_iterator<int32_t> all(0);
    int rc = cub_run([&](void *t, size_t &b) { return cub::DeviceSelect::Flagged(t, b, all, moved, ids, dcount, n); },
                     "cub::DeviceSelect::Flagged (moves)", err);
    if (!rc)
        rc = device_copy_to_host(nc, dcount, sizeof *nc, err);
    if (rc || *nc == 0)
        return rc;
    int32_t m = *nc;
    unsigned blocks = ku_blocks(m);
    k_gather_gain<<<blocks, KU_THREADS>>>(m, ids, gain, gkey);
    CUDA_LAUNCH_TRY(err);
    rc = cub_run([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortPairsDescending(t, b, gkey, gkey2, ids, ids2, m); },
                 "cub::DeviceRadixSort::SortPairsDescending (gains)", err);
    if (rc)
        return rc;
    k_gather_dest<<<blocks, KU_THREADS>>>(m, ids2, dest, ids);
    CUDA_LAUNCH_TRY(err);
    return cub_run([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortPairs(t, b, ids, okey, ids2, order, m); },
                   "cub::DeviceRadixSort::SortPairs (destinations)", err);
}

extern "C" int partition_refine_gpu(const coarsen_graph *g, int32_t k, int64_t cap, int max_rounds, int32_t *part,
                                    partition_refine_stats *st, coarsen_error *err)
{
    int32_t n = g->n;
    scratch s;
    int32_t *dest = nullptr, *ids = nullptr, *ids2 = nullptr, *okey = nullptr, *order = nullptr, *dcount = nullptr;
    double *gain = nullptr, *gkey = nullptr, *gkey2 = nullptr;
    int64_t *val = nullptr, *prefix = nullptr, *dw = nullptr;
    unsigned char *moved = nullptr;
    unsigned long long *d = nullptr, *cell = nullptr;
    int32_t *best_part = nullptr;
    size_t nd = 2 * (size_t)k + 1, nn = (size_t)n + 1;
    int shift = 0;
    int rc = fixed_shift(g, s, &shift, err);
    if (!rc)
        rc = s.get(&dest, nn, "refine destinations", err);
    if (!rc)
        rc = s.get(&gain, nn, "refine gains", err);
    if (!rc)
        rc = s.get(&moved, nn, "refine moves", err);
    if (!rc)
        rc = s.get(&ids, nn, "move ids", err);
    if (!rc)
        rc = s.get(&ids2, nn, "move ids (sorted)", err);
    if (!rc)
        rc = s.get(&gkey, nn, "move gains", err);
    if (!rc)
        rc = s.get(&gkey2, nn, "move gains (sorted)", err);
    if (!rc)
        rc = s.get(&okey, nn, "move destinations (sorted)", err);
    if (!rc)
        rc = s.get(&order, nn, "move order", err);
    if (!rc)
        rc = s.get(&val, nn, "move weights", err);
    if (!rc)
        rc = s.get(&prefix, nn, "arrival prefix", err);
    if (!rc)
        rc = s.get(&dw, (size_t)k, "part weights", err);
    if (!rc)
        rc = s.get(&dcount, 1, "move count", err);
    if (!rc)
        rc = s.get(&d, nd, "move totals", err);
    if (!rc)
        rc = s.get(&cell, 1, "cut", err);
    if (!rc)
        rc = s.get(&best_part, nn, "best partition", err);
    std::vector<int64_t> w((size_t)k), after((size_t)k), hd(nd);
    int64_t best = 0;
    if (!rc)
        rc = partition_part_weights_gpu(g, part, k, w.data(), err);
    if (!rc)
        rc = cut_fixed(g, part, shift, cell, &best, err);
    size_t part_bytes = (size_t)n * sizeof(int32_t);
    if (!rc)
        CUDA_TRY(err, cudaMemcpyAsync(best_part, part, part_bytes, cudaMemcpyDeviceToDevice, 0));
    unsigned blocks = ku_blocks(n);
    for (int round = 0, stale = 0; !rc && round < max_rounds && best > 0 && stale < PARTITION_REFINE_PATIENCE;
         round++) {
        k_candidates<<<blocks, KU_THREADS>>>(n, g->xadj, g->adj, g->ewgt, part, dest, gain);
        CUDA_LAUNCH_TRY(err);
        k_afterburner<<<blocks, KU_THREADS>>>(n, g->xadj, g->adj, g->ewgt, part, dest, gain, moved);
        CUDA_LAUNCH_TRY(err);
        int32_t nc = 0;
        if ((rc = sort_moves(n, moved, dest, gain, ids, ids2, gkey, gkey2, okey, order, dcount, &nc, err)))
            return rc;
        if (nc == 0)
            break;
        if ((rc = device_copy_to_device(dw, w.data(), (size_t)k * sizeof(int64_t), err)))
            return rc;
        unsigned cblocks = ku_blocks(nc);
        for (;;) { /* admit moves until nothing is dropped */
            CUDA_TRY(err, cudaMemsetAsync(d, 0, nd * sizeof *d, 0));
            k_move_totals<<<cblocks, KU_THREADS>>>(nc, k, order, part, dest, g->vwgt, moved, d, val);
            CUDA_LAUNCH_TRY(err);
            rc = cub_run([&](void *t, size_t &b) { return cub::DeviceScan::InclusiveSumByKey(t, b, okey, val, prefix, nc); },
                         "cub::DeviceScan::InclusiveSumByKey (arrivals)", err);
            if (rc)
                return rc;
            CUDA_TRY(err, cudaMemsetAsync(cell, 0, sizeof *cell, 0));
            k_admit<<<cblocks, KU_THREADS>>>(nc, order, dest, prefix, dw, d, cap, moved, cell);
            CUDA_LAUNCH_TRY(err);
            unsigned long long dropped = 0;
            if ((rc = device_copy_to_host(&dropped, cell, sizeof dropped, err)))
                return rc;
            if (!dropped)
                break;
        }
        if ((rc = device_copy_to_host(hd.data(), d, nd * sizeof(int64_t), err)))
            return rc;
        int64_t count = hd[2 * (size_t)k];
        if (count == 0)
            break;
        for (int32_t p = 0; p < k; p++)
            after[p] = w[p] - hd[p] + hd[k + p];
        k_apply<<<blocks, KU_THREADS>>>(n, moved, dest, part);
        CUDA_LAUNCH_TRY(err);
        w = after;
        if (st) {
            st->rounds++;
            st->moves += count;
        }
        int64_t c = 0;
        if ((rc = cut_fixed(g, part, shift, cell, &c, err)))
            return rc;
        if (c < best) {
            best = c;
            CUDA_TRY(err, cudaMemcpyAsync(best_part, part, part_bytes, cudaMemcpyDeviceToDevice, 0));
            stale = 0;
        } else {
            stale++;
        }
    }
    if (!rc)
        CUDA_TRY(err, cudaMemcpyAsync(part, best_part, part_bytes, cudaMemcpyDeviceToDevice, 0));
    return rc;
}

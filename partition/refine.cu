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

/* The CUB calls, by name, so that a phase sizes its workspace with the
 * same call it runs (null storage: the size query). */
static cudaError_t max_edge_weight(void *t, size_t &b, const coarsen_graph *g, double *out)
{
    return cub::DeviceReduce::Max(t, b, g->ewgt, out, g->nnz, device_stream());
}
static cudaError_t select_flagged(void *t, size_t &b, const unsigned char *flag, int32_t *ids, int32_t *count,
                                  int32_t n)
{
    return cub::DeviceSelect::Flagged(t, b, thrust::counting_iterator<int32_t>(0), flag, ids, count, n,
                                      device_stream());
}
static cudaError_t sort_gains(void *t, size_t &b, const double *gkey, double *gkey2, const int32_t *ids,
                              int32_t *ids2, int32_t m)
{
    return cub::DeviceRadixSort::SortPairsDescending(t, b, gkey, gkey2, ids, ids2, m, 0, (int)(sizeof *gkey * 8),
                                                     device_stream());
}
static cudaError_t sort_destinations(void *t, size_t &b, const int32_t *ids, int32_t *okey, const int32_t *ids2,
                                     int32_t *order, int32_t m)
{
    return cub::DeviceRadixSort::SortPairs(t, b, ids, okey, ids2, order, m, 0, (int)(sizeof *ids * 8),
                                           device_stream());
}
static cudaError_t arrivals(void *t, size_t &b, const int32_t *okey, const int64_t *val, int64_t *prefix, int32_t nc)
{
    return cub::DeviceScan::InclusiveSumByKey(t, b, okey, val, prefix, nc, ::cuda::std::equal_to<>{}, device_stream());
}

static int cut_fixed(const coarsen_graph *g, const int32_t *part, int shift, unsigned long long *cell, int64_t *out,
                     coarsen_error *err)
{
    CUDA_TRY(err, cudaMemsetAsync(cell, 0, sizeof *cell, device_stream()));
    k_cut_fixed<<<ku_blocks(g->n), KU_THREADS, 0, device_stream()>>>(g->n, g->xadj, g->adj, g->ewgt, part, shift, cell);
    CUDA_LAUNCH_TRY(err);
    unsigned long long h = 0;
    int rc = device_copy_to_host(&h, cell, sizeof h, err);
    *out = (int64_t)h;
    return rc;
}

/* The fixed-point shift of g's edge weights; dmax: one device double of the
 * caller's workspace, whose CUB storage the caller sized with
 * max_edge_weight. */
static int fixed_shift(const coarsen_graph *g, Workspace &ws, double *dmax, int *shift, coarsen_error *err)
{
    double wmax = 0;
    int rc = COARSEN_OK;
    if (g->nnz > 0)
        rc = ws.run_cub([&](void *t, size_t &b) { return max_edge_weight(t, b, g, dmax); },
                        "cub::DeviceReduce::Max (edge weights)", err);
    if (!rc && g->nnz > 0)
        rc = device_copy_to_host(&wmax, dmax, sizeof wmax, err);
    *shift = partition_fixed_shift(wmax, g->nnz);
    return rc;
}

/* Part weights through dw (k device counters). */
static int part_weights(const coarsen_graph *g, const int32_t *part, int32_t k, unsigned long long *dw,
                        int64_t *weights, coarsen_error *err)
{
    CUDA_TRY(err, cudaMemsetAsync(dw, 0, (size_t)k * sizeof *dw, device_stream()));
    k_part_weights<<<ku_blocks(g->n), KU_THREADS, 0, device_stream()>>>(g->n, part, g->vwgt, dw);
    CUDA_LAUNCH_TRY(err);
    return device_copy_to_host(weights, dw, (size_t)k * sizeof *weights, err);
}

extern "C" int partition_project_gpu(int32_t n_fine, const int32_t *map, const int32_t *coarse_part,
                                     int32_t *fine_part, coarsen_error *err)
{
    k_project<<<ku_blocks(n_fine), KU_THREADS, 0, device_stream()>>>(n_fine, map, coarse_part, fine_part);
    CUDA_LAUNCH_TRY(err);
    return 0;
}

extern "C" int partition_part_weights_gpu(const coarsen_graph *g, const int32_t *part, int32_t k, int64_t *weights,
                                          coarsen_error *err)
{
    Workspace ws;
    unsigned long long *dw = nullptr;
    ws.take(&dw, (size_t)k);
    int rc = ws.carve("part weights", err);
    return rc ? rc : part_weights(g, part, k, dw, weights, err);
}

extern "C" int partition_cut_gpu(const coarsen_graph *g, const int32_t *part, double *cut, coarsen_error *err)
{
    Workspace ws;
    int shift = 0;
    double *dmax = nullptr;
    unsigned long long *cell = nullptr;
    int64_t fixed = 0;
    ws.take(&dmax, 1);
    ws.take(&cell, 1);
    int rc = ws.size_cub([&](void *t, size_t &b) { return max_edge_weight(t, b, g, nullptr); }, err);
    if (!rc)
        rc = ws.carve("cut", err);
    if (!rc)
        rc = fixed_shift(g, ws, dmax, &shift, err);
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
    Workspace ws;
    unsigned char *flag = nullptr;
    int32_t *ids = nullptr, *dcount = nullptr;
    ws.take(&flag, (size_t)n);
    ws.take(&ids, (size_t)n);
    ws.take(&dcount, 1);
    int rc = ws.size_cub([&](void *t, size_t &b) { return select_flagged(t, b, flag, ids, dcount, n); }, err);
    if (!rc)
        rc = ws.carve("boundary", err);
    if (rc)
        return rc;
    k_boundary<<<ku_blocks(n), KU_THREADS, 0, device_stream()>>>(n, g->xadj, g->adj, part, flag);
    CUDA_LAUNCH_TRY(err);
    rc = ws.run_cub([&](void *t, size_t &b) { return select_flagged(t, b, flag, ids, dcount, n); },
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

/* The temporaries of a refinement, in the workspace. */
struct refine_work {
    int32_t *dest = nullptr, *ids = nullptr, *ids2 = nullptr, *okey = nullptr, *order = nullptr, *dcount = nullptr;
    double *gain = nullptr, *gkey = nullptr, *gkey2 = nullptr, *dmax = nullptr;
    int64_t *val = nullptr, *prefix = nullptr, *dw = nullptr;
    unsigned char *moved = nullptr;
    unsigned long long *d = nullptr, *cell = nullptr, *pw = nullptr;
    int32_t *best_part = nullptr;
    Workspace ws;
};

/* Names every temporary of a refinement of g into k parts, sizes its CUB
 * calls for n moves, and takes the workspace. */
static int refine_plan(const coarsen_graph *g, int32_t k, refine_work &r, coarsen_error *err)
{
    const int32_t n = g->n;
    const size_t nn = (size_t)n + 1;
    Workspace &ws = r.ws;
    ws.take(&r.dest, nn);
    ws.take(&r.gain, nn);
    ws.take(&r.moved, nn);
    ws.take(&r.ids, nn);
    ws.take(&r.ids2, nn);
    ws.take(&r.gkey, nn);
    ws.take(&r.gkey2, nn);
    ws.take(&r.okey, nn);
    ws.take(&r.order, nn);
    ws.take(&r.val, nn);
    ws.take(&r.prefix, nn);
    ws.take(&r.dw, (size_t)k);
    ws.take(&r.pw, (size_t)k);
    ws.take(&r.dcount, 1);
    ws.take(&r.d, 2 * (size_t)k + 1);
    ws.take(&r.cell, 1);
    ws.take(&r.dmax, 1);
    ws.take(&r.best_part, nn);
    int rc = ws.size_cub([&](void *t, size_t &b) { return max_edge_weight(t, b, g, r.dmax); }, err);
    if (!rc)
        rc = ws.size_cub([&](void *t, size_t &b) { return select_flagged(t, b, r.moved, r.ids, r.dcount, n); }, err);
    if (!rc)
        rc = ws.size_cub([&](void *t, size_t &b) { return sort_gains(t, b, r.gkey, r.gkey2, r.ids, r.ids2, n); }, err);
    if (!rc)
        rc = ws.size_cub([&](void *t, size_t &b) { return sort_destinations(t, b, r.ids, r.okey, r.ids2, r.order, n); },
                         err);
    if (!rc)
        rc = ws.size_cub([&](void *t, size_t &b) { return arrivals(t, b, r.okey, r.val, r.prefix, n); }, err);
    return rc ? rc : ws.carve("refinement", err);
}

/* The candidate moves (moved[v] = 1) in admission order: destination,
 * gain descending, id (two stable radix sorts over the ids in increasing
 * order). order and okey (its destinations) receive *nc entries. */
static int sort_moves(int32_t n, refine_work &r, int32_t *nc, coarsen_error *err)
{
    int rc = r.ws.run_cub([&](void *t, size_t &b) { return select_flagged(t, b, r.moved, r.ids, r.dcount, n); },
                          "cub::DeviceSelect::Flagged (moves)", err);
    if (!rc)
        rc = device_copy_to_host(nc, r.dcount, sizeof *nc, err);
    if (rc || *nc == 0)
        return rc;
    int32_t m = *nc;
    unsigned blocks = ku_blocks(m);
    k_gather_gain<<<blocks, KU_THREADS, 0, device_stream()>>>(m, r.ids, r.gain, r.gkey);
    CUDA_LAUNCH_TRY(err);
    rc = r.ws.run_cub([&](void *t, size_t &b) { return sort_gains(t, b, r.gkey, r.gkey2, r.ids, r.ids2, m); },
                      "cub::DeviceRadixSort::SortPairsDescending (gains)", err);
    if (rc)
        return rc;
    k_gather_dest<<<blocks, KU_THREADS, 0, device_stream()>>>(m, r.ids2, r.dest, r.ids);
    CUDA_LAUNCH_TRY(err);
    return r.ws.run_cub([&](void *t, size_t &b) { return sort_destinations(t, b, r.ids, r.okey, r.ids2, r.order, m); },
                        "cub::DeviceRadixSort::SortPairs (destinations)", err);
}

extern "C" int partition_refine_gpu(const coarsen_graph *g, int32_t k, int64_t cap, int max_rounds, int32_t *part,
                                    partition_refine_stats *st, coarsen_error *err)
{
    int32_t n = g->n;
    refine_work r;
    size_t nd = 2 * (size_t)k + 1;
    int shift = 0;
    int rc = refine_plan(g, k, r, err);
    if (!rc)
        rc = fixed_shift(g, r.ws, r.dmax, &shift, err);
    std::vector<int64_t> w((size_t)k), after((size_t)k), hd(nd);
    int64_t best = 0;
    if (!rc)
        rc = part_weights(g, part, k, r.pw, w.data(), err);
    if (!rc)
        rc = cut_fixed(g, part, shift, r.cell, &best, err);
    size_t part_bytes = (size_t)n * sizeof(int32_t);
    if (!rc)
        CUDA_TRY(err, cudaMemcpyAsync(r.best_part, part, part_bytes, cudaMemcpyDeviceToDevice, device_stream()));
    unsigned blocks = ku_blocks(n);
    for (int round = 0, stale = 0; !rc && round < max_rounds && best > 0 && stale < PARTITION_REFINE_PATIENCE;
         round++) {
        k_candidates<<<blocks, KU_THREADS, 0, device_stream()>>>(n, g->xadj, g->adj, g->ewgt, part, r.dest, r.gain);
        CUDA_LAUNCH_TRY(err);
        k_afterburner<<<blocks, KU_THREADS, 0, device_stream()>>>(n, g->xadj, g->adj, g->ewgt, part, r.dest, r.gain,
                                                                  r.moved);
        CUDA_LAUNCH_TRY(err);
        int32_t nc = 0;
        if ((rc = sort_moves(n, r, &nc, err)))
            return rc;
        if (nc == 0)
            break;
        if ((rc = device_copy_to_device(r.dw, w.data(), (size_t)k * sizeof(int64_t), err)))
            return rc;
        unsigned cblocks = ku_blocks(nc);
        for (;;) { /* admit moves until nothing is dropped */
            CUDA_TRY(err, cudaMemsetAsync(r.d, 0, nd * sizeof *r.d, device_stream()));
            k_move_totals<<<cblocks, KU_THREADS, 0, device_stream()>>>(nc, k, r.order, part, r.dest, g->vwgt, r.moved,
                                                                       r.d, r.val);
            CUDA_LAUNCH_TRY(err);
            rc = r.ws.run_cub([&](void *t, size_t &b) { return arrivals(t, b, r.okey, r.val, r.prefix, nc); },
                              "cub::DeviceScan::InclusiveSumByKey (arrivals)", err);
            if (rc)
                return rc;
            CUDA_TRY(err, cudaMemsetAsync(r.cell, 0, sizeof *r.cell, device_stream()));
            k_admit<<<cblocks, KU_THREADS, 0, device_stream()>>>(nc, r.order, r.dest, r.prefix, r.dw, r.d, cap,
                                                                 r.moved, r.cell);
            CUDA_LAUNCH_TRY(err);
            unsigned long long dropped = 0;
            if ((rc = device_copy_to_host(&dropped, r.cell, sizeof dropped, err)))
                return rc;
            if (!dropped)
                break;
        }
        if ((rc = device_copy_to_host(hd.data(), r.d, nd * sizeof(int64_t), err)))
            return rc;
        int64_t count = hd[2 * (size_t)k];
        if (count == 0)
            break;
        for (int32_t p = 0; p < k; p++)
            after[p] = w[p] - hd[p] + hd[k + p];
        k_apply<<<blocks, KU_THREADS, 0, device_stream()>>>(n, r.moved, r.dest, part);
        CUDA_LAUNCH_TRY(err);
        w = after;
        if (st) {
            st->rounds++;
            st->moves += count;
        }
        int64_t c = 0;
        if ((rc = cut_fixed(g, part, shift, r.cell, &c, err)))
            return rc;
        if (c < best) {
            best = c;
            CUDA_TRY(err, cudaMemcpyAsync(r.best_part, part, part_bytes, cudaMemcpyDeviceToDevice, device_stream()));
            stale = 0;
        } else {
            stale++;
        }
    }
    if (!rc)
        CUDA_TRY(err, cudaMemcpyAsync(part, r.best_part, part_bytes, cudaMemcpyDeviceToDevice, device_stream()));
    return rc;
}

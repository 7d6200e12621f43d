/* refine.cu — the GPU side of partition/: projection through a device map,
 * part weights and cut on the device, and the refinement rounds of
 * refine_cpu.c ported phase by phase (one thread per vertex; every sum is
 * taken in CSR order and integer totals use atomics, so the output equals the
 * CPU's bit for bit, whatever the launch geometry). Host round trips: one
 * per balance-closing pass (2k + 1 counts) and one cut per round. */
#include <cub/cub.cuh>

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

/* The part of u after the tentative moves (moved == NULL: none). */
__device__ __forceinline__ int32_t part_after(const int32_t *part, const unsigned char *moved, const int32_t *dest,
                                              int32_t u)
{
    return moved && moved[u] ? dest[u] : part[u];
}

/* sum over v of rint(2^shift * external weight of v), in *out (zeroed before). */
__global__ void k_cut_fixed(int32_t n, const int64_t *xadj, const int32_t *adj, const double *ewgt,
                            const int32_t *part, const unsigned char *moved, const int32_t *dest, int shift,
                            unsigned long long *out)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads()) {
        int32_t pv = part_after(part, moved, dest, (int32_t)v);
        double ext = 0;
        for (int64_t i = xadj[v]; i < xadj[v + 1]; i++)
            if (part_after(part, moved, dest, adj[i]) != pv)
                ext += ewgt[i];
        long long fixed = __double2ll_rn(ldexp(ext, shift));
        if (fixed)
            atomicAdd(out, (unsigned long long)fixed);
    }
}

/* Phase 1 (best_move of refine_cpu.c): the adjacent other part of highest
 * connectivity, ties to the lowest id; each part's connectivity summed in CSR
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
        dest[v] = g > 0 ? best : -1;
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

/* Phase 3, one pass: drops moves into closed parts and sums, per part, the
 * weight leaving (d[p]), the weight arriving (d[k + p]), the vertices
 * arriving (d[2k + p]), and the moves left (d[3k]). */
__global__ void k_move_totals(int32_t n, int32_t k, const int32_t *part, const int32_t *dest, const int64_t *vwgt,
                              const unsigned char *closed, unsigned char *moved, unsigned long long *d)
{
    for (int64_t v = ku_thread(); v < n; v += ku_threads()) {
        if (!moved[v])
            continue;
        if (closed[dest[v]]) {
            moved[v] = 0;
            continue;
        }
        atomicAdd(&d[part[v]], (unsigned long long)vwgt[v]);
        atomicAdd(&d[k + dest[v]], (unsigned long long)vwgt[v]);
        atomicAdd(&d[2 * (int64_t)k + dest[v]], 1ull);
        atomicAdd(&d[3 * (int64_t)k], 1ull);
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

static int cut_fixed(const coarsen_graph *g, const int32_t *part, const unsigned char *moved, const int32_t *dest,
                     int shift, unsigned long long *cell, int64_t *out, coarsen_error *err)
{
    CUDA_TRY(err, cudaMemsetAsync(cell, 0, sizeof *cell, 0));
    k_cut_fixed<<<ku_blocks(g->n), KU_THREADS>>>(g->n, g->xadj, g->adj, g->ewgt, part, moved, dest, shift, cell);
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
        rc = cut_fixed(g, part, nullptr, nullptr, shift, cell, &fixed, err);
    *cut = ldexp((double)fixed, -shift - 1);
    return rc;
}

extern "C" int partition_refine_gpu(const coarsen_graph *g, int32_t k, int64_t cap, int max_rounds, int32_t *part,
                                    partition_refine_stats *st, coarsen_error *err)
{
    int32_t n = g->n;
    scratch s;
    int32_t *dest = nullptr;
    double *gain = nullptr;
    unsigned char *moved = nullptr, *dclosed = nullptr;
    unsigned long long *d = nullptr, *cell = nullptr;
    int shift = 0;
    int rc = fixed_shift(g, s, &shift, err);
    if (!rc)
        rc = s.get(&dest, (size_t)n, "refine destinations", err);
    if (!rc)
        rc = s.get(&gain, (size_t)n, "refine gains", err);
    if (!rc)
        rc = s.get(&moved, (size_t)n, "refine moves", err);
    if (!rc)
        rc = s.get(&dclosed, (size_t)k, "closed parts", err);
    size_t nd = 3 * (size_t)k + 1;
    if (!rc)
        rc = s.get(&d, nd, "move totals", err);
    if (!rc)
        rc = s.get(&cell, 1, "cut", err);
    std::vector<int64_t> w((size_t)k), after((size_t)k), hd(nd);
    std::vector<unsigned char> closed((size_t)k);
    int64_t best = 0;
    if (!rc)
        rc = partition_part_weights_gpu(g, part, k, w.data(), err);
    if (!rc)
        rc = cut_fixed(g, part, nullptr, nullptr, shift, cell, &best, err);
    unsigned blocks = ku_blocks(n);
    for (int round = 0; !rc && round < max_rounds && best > 0; round++) {
        k_candidates<<<blocks, KU_THREADS>>>(n, g->xadj, g->adj, g->ewgt, part, dest, gain);
        CUDA_LAUNCH_TRY(err);
        k_afterburner<<<blocks, KU_THREADS>>>(n, g->xadj, g->adj, g->ewgt, part, dest, gain, moved);
        CUDA_LAUNCH_TRY(err);
        /* close parts that would exceed cap, until none does */
        std::fill(closed.begin(), closed.end(), 0);
        int64_t count;
        for (;;) {
            if ((rc = device_copy_to_device(dclosed, closed.data(), (size_t)k, err)))
                return rc;
            CUDA_TRY(err, cudaMemsetAsync(d, 0, nd * sizeof *d, 0));
            k_move_totals<<<blocks, KU_THREADS>>>(n, k, part, dest, g->vwgt, dclosed, moved, d);
            CUDA_LAUNCH_TRY(err);
            if ((rc = device_copy_to_host(hd.data(), d, nd * sizeof(int64_t), err)))
                return rc;
            count = hd[3 * (size_t)k];
            bool changed = false;
            for (int32_t p = 0; p < k; p++) {
                after[p] = w[p] - hd[p] + hd[k + p];
                if (after[p] > cap && hd[2 * (size_t)k + p] > 0 && !closed[p])
                    closed[p] = 1, changed = true;
            }
            if (!changed)
                break;
        }
        if (count == 0)
            break;
        int64_t c = 0;
        if ((rc = cut_fixed(g, part, moved, dest, shift, cell, &c, err)))
            return rc;
        if (c >= best)
            break;
        best = c;
        k_apply<<<blocks, KU_THREADS>>>(n, moved, dest, part);
        CUDA_LAUNCH_TRY(err);
        w = after;
        if (st) {
            st->rounds++;
            st->moves += count;
        }
    }
    return rc;
}

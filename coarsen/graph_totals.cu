/* graph_totals.cu — device computation of a graph's weight totals
 * (graph_totals.h): three CUB reductions into one small device buffer, one
 * copy of the results to the host. */
#include <cub/device/device_reduce.cuh>

#include "coarsen/graph_totals.h"
#include "device/cuda_check.cuh"

static int totals(const coarsen_graph *g, int64_t *d_int, double *d_dbl, coarsen_error *err)
{
    int64_t n = g->n, nnz = g->nnz;
    const int64_t *vwgt = g->vwgt;
    const double *ewgt = g->ewgt;
    if (int rc = cub_run([&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, vwgt, d_int, n); },
                         "vertex weight sum", err))
        return rc;
    if (int rc = cub_run([&](void *t, size_t &b) { return cub::DeviceReduce::Max(t, b, vwgt, d_int + 1, n); },
                         "vertex weight max", err))
        return rc;
    return cub_run([&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, ewgt, d_dbl, nnz); },
                   "edge weight sum", err);
}

extern "C" int graph_totals_gpu(const coarsen_graph *g, graph_totals *t, coarsen_error *err)
{
    t->vertex_weight = t->max_vertex_weight = 0;
    t->edge_weight = 0;
    if (g->n == 0)
        return COARSEN_OK;
    int64_t *d_int = nullptr;
    double *d_dbl = nullptr;
    int rc = dalloc(&d_int, 2, "vertex weight totals", err);
    if (!rc)
        rc = dalloc(&d_dbl, 1, "edge weight total", err);
    if (!rc && g->nnz == 0)
        rc = device_copy_to_device(d_dbl, &t->edge_weight, sizeof *d_dbl, err);
    if (!rc)
        rc = totals(g, d_int, d_dbl, err);
    int64_t ints[2] = {0, 0};
    double esum = 0;
    if (!rc)
        rc = device_copy_to_host(ints, d_int, sizeof ints, err);
    if (!rc)
        rc = device_copy_to_host(&esum, d_dbl, sizeof esum, err);
    device_free(d_int);
    device_free(d_dbl);
    if (rc)
        return rc;
    t->vertex_weight = ints[0];
    t->max_vertex_weight = ints[1];
    t->edge_weight = esum / 2;
    return COARSEN_OK;
}

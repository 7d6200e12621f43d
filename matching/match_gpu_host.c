/* match_gpu_host.c — match_gpu_from_host: the GPU matcher for callers that
 * hold a host graph (device memory only through the device layer). */
#include "matching/matching.h"
#include "device/device.h"

int match_gpu_from_host(const coarsen_graph *g, const matching_opts *opts, int32_t *mate, int32_t *strongest,
                        matching_stats *stats, coarsen_error *err)
{
    coarsen_graph *dg = NULL;
    void *d_mate = NULL, *d_strong = NULL;
    size_t bytes = (size_t)g->n * sizeof *mate;
    int rc = device_graph_upload(g, &dg, err);
    if (!rc)
        rc = device_alloc(&d_mate, bytes, "mates", err);
    if (!rc && strongest)
        rc = device_alloc(&d_strong, bytes, "strongest neighbours", err);
    if (!rc)
        rc = match_gpu(dg, opts, d_mate, d_strong, stats, err);
    if (!rc)
        rc = device_copy_to_host(mate, d_mate, bytes, err);
    if (!rc && strongest)
        rc = device_copy_to_host(strongest, d_strong, bytes, err);
    device_free(d_mate);
    device_free(d_strong);
    coarsen_graph_free(dg);
    return rc;
}

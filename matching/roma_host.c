/* roma_host.c — the GPU ROMA entries for callers holding host data (CLI,
 * tests): check the starting matching on the host, upload, refine on the
 * device, copy the mates back. Device memory only through the device
 * layer; COARSEN_ERR_DEVICE without CUDA. */
#include "matching/roma.h"
#include "matching/roma_complete.h"
#include "matching/validate.h"
#include "device/device.h"

int roma_gpu_from_host(const coarsen_graph *g, const roma_opts *opts, int32_t *mate, roma_stats *stats,
                       coarsen_error *err)
{
    coarsen_graph *dg = NULL;
    void *d_mate = NULL;
    size_t bytes = (size_t)g->n * sizeof *mate;
    int rc = match_validate(g, mate, 0, NULL, err); /* the device trusts its input */
    if (!rc)
        rc = device_graph_upload(g, &dg, err);
    if (!rc)
        rc = device_alloc(&d_mate, bytes, "ROMA mates", err);
    if (!rc)
        rc = device_copy_to_device(d_mate, mate, bytes, err);
    if (!rc)
        rc = roma_gpu(dg, opts, d_mate, stats, err);
    if (!rc)
        rc = device_copy_to_host(mate, d_mate, bytes, err);
    device_free(d_mate);
    coarsen_graph_free(dg);
    return rc;
}

int roma_complete_gpu_from_host(int32_t n, const float *w, const roma_opts *opts, int32_t *mate, roma_stats *stats,
                                coarsen_error *err)
{
    void *d_w = NULL, *d_mate = NULL;
    size_t wbytes = (size_t)n * (size_t)n * sizeof *w, mbytes = (size_t)n * sizeof *mate;
    int rc = roma_complete_check(n, mate, err); /* the device trusts its input */
    if (!rc)
        rc = device_alloc(&d_w, wbytes, "dense weight matrix", err);
    if (!rc)
        rc = device_alloc(&d_mate, mbytes, "ROMA mates", err);
    if (!rc)
        rc = device_copy_to_device(d_w, w, wbytes, err);
    if (!rc)
        rc = device_copy_to_device(d_mate, mate, mbytes, err);
    if (!rc)
        rc = roma_complete_gpu(n, d_w, opts, d_mate, stats, err);
    if (!rc)
        rc = device_copy_to_host(mate, d_mate, mbytes, err);
    device_free(d_w);
    device_free(d_mate);
    return rc;
}

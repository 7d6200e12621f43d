/* roma_nocuda.c — the GPU ROMA entries (sparse and complete) of a build without CUDA. */
#include "matching/roma.h"
#include "matching/roma_complete.h"
#include "core/error.h"

int roma_gpu(const coarsen_graph *g, const roma_opts *opts, int32_t *d_mate, roma_stats *stats, coarsen_error *err)
{
    (void)g, (void)opts, (void)d_mate, (void)stats;
    return error_set(err, COARSEN_ERR_DEVICE, "this coarsen was built without CUDA (no nvcc at build time)");
}

int roma_complete_gpu(int32_t n, const float *d_w, const roma_opts *opts, int32_t *d_mate, roma_stats *stats,
                      coarsen_error *err)
{
    (void)n, (void)d_w, (void)opts, (void)d_mate, (void)stats;
    return error_set(err, COARSEN_ERR_DEVICE, "this coarsen was built without CUDA (no nvcc at build time)");
}

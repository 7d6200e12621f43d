/* match_nocuda.c — the GPU matcher entry of a build without CUDA. */
#include "matching/matching.h"
#include "core/error.h"

int match_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
              matching_stats *stats, coarsen_error *err)
{
    (void)g, (void)opts, (void)d_mate, (void)d_strongest, (void)stats;
    return error_set(err, COARSEN_ERR_DEVICE, "this coarsen was built without CUDA (no nvcc at build time)");
}

int match_measure_gpu(const coarsen_graph *g, const int32_t *d_mate, matching_stats *stats, coarsen_error *err)
{
    (void)g, (void)d_mate, (void)stats;
    return error_set(err, COARSEN_ERR_DEVICE, "this coarsen was built without CUDA (no nvcc at build time)");
}

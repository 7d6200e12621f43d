/* hec_nocuda.c — hec_gpu in a build without CUDA: fails with the device
 * layer's "built without CUDA" error. */
#include "matching/hec.h"
#include "device/device.h"

int hec_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_cmap, int32_t *nc, hec_stats *stats,
            coarsen_error *err)
{
    (void)g, (void)opts, (void)d_cmap;
    *nc = 0;
    if (stats)
        *stats = (hec_stats){0};
    return device_synchronize(err);
}

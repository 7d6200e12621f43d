/* two_hop_nocuda.c — two_hop_gpu in a build without CUDA: fails with the
 * device layer's "built without CUDA" error. */
#include "matching/two_hop.h"
#include "device/device.h"

int two_hop_gpu(const coarsen_graph *g, const two_hop_opts *opts, int32_t *d_mate, two_hop_stats *stats,
                coarsen_error *err)
{
    (void)g, (void)opts, (void)d_mate;
    if (stats)
        *stats = (two_hop_stats){0};
    return device_synchronize(err);
}

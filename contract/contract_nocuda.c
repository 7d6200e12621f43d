/* contract_nocuda.c — the GPU entry points of contract.h in a build without
 * CUDA: each fails with the device layer's "built without CUDA" error. */
#include "contract/contract.h"
#include "contract/contract_gpu_memory.h"
#include "device/device.h"

int contract_map_from_mates_gpu(int32_t n, const int32_t *d_mate, int32_t *d_cmap, int32_t *nc,
                                coarsen_error *err)
{
    (void)n, (void)d_mate, (void)d_cmap;
    *nc = 0;
    return device_synchronize(err);
}

int contract_gpu(const coarsen_graph *g, const int32_t *d_cmap, int32_t nc, coarsen_graph **out,
                 coarsen_error *err)
{
    (void)g, (void)d_cmap, (void)nc;
    *out = NULL;
    return device_synchronize(err);
}

void contract_gpu_set_run_chunk(int64_t entries) { (void)entries; }

/* contract_gpu_memory.c — the bound of contract_gpu_memory.h, phase by phase
 * as contract.cu allocates (docs/design-contraction.md); plain arithmetic,
 * in both builds. */
#include "contract/contract_gpu_memory.h"

/* CUB temporaries and the small arrays (error flag, counts), rounded up. */
#define SLACK_BYTES ((int64_t)64 << 20)

int64_t contract_gpu_peak_bytes(int32_t n, int64_t nnz)
{
    const int64_t v = (int64_t)n + 1, ref = nnz <= (int64_t)UINT32_MAX ? 4 : 8;
    const int64_t groups = 4 * v + 4 * v + 8 * v; /* members, group offsets, segment offsets (nc <= n) */
    const int64_t chunk = nnz < CONTRACT_RUN_CHUNK ? nnz : CONTRACT_RUN_CHUNK;
    int64_t phase[4] = {
        4 * v + 4 * v + 4 * v + 8 * v,                  /* group sort: ids, sorted ids, members, CUB's copies */
        groups + 4 * v + 8 * v + (4 + ref) * nnz,       /* gather: + sorted ids, row places, keys, indices */
        groups + 2 * (4 + ref) * nnz + 8 * v,           /* segmented sort: both buffers, CUB's segment lists */
        groups + (4 + ref + 1) * nnz + 8 * (chunk + 1)  /* numbering: sorted entries, heads, chunk scan, */
            + 16 * v + 12 * nnz,                        /* and the coarse graph (nc <= n, cnnz <= nnz) */
    };
    int64_t peak = 0;
    for (int i = 0; i < 4; i++)
        peak = phase[i] > peak ? phase[i] : peak;
    return peak + SLACK_BYTES;
}

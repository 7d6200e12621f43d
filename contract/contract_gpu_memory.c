/* contract_gpu_memory.c — the bound of contract_gpu_memory.h, phase by phase
 * as contract.cu allocates (docs/design-contraction.md); plain arithmetic,
 * in both builds. */
#include "contract/contract_gpu_memory.h"

/* CUB temporaries and the small arrays (error flag, summary), rounded up. */
#define SLACK_BYTES ((int64_t)64 << 20)

int64_t contract_gpu_peak_bytes(int32_t n, int64_t nnz)
{
    const int64_t v = (int64_t)n + 1, ref = nnz <= (int64_t)UINT32_MAX ? 4 : 8;
    /* members, sorted coarse ids, group offsets (nc <= n), member row places,
     * row bounds, sorted row offsets, row lengths, coarse row offsets */
    const int64_t rows = 4 * v + 4 * v + 4 * v + 8 * v + 8 * v + 8 * v + 8 * v + 8 * v;
    int64_t phase[3] = {
        4 * 4 * v,                                    /* group sort: both key and value buffers */
        rows + 12 * nnz + 2 * (4 + ref) * nnz + 16 * v, /* row buffers, segmented sort of the rows above */
                                                      /* hash_max, CUB's segment lists */
        rows - 12 * v + 12 * nnz + 16 * v + 12 * nnz, /* copy (sorted ids and row places freed): row buffers */
                                                      /* and the coarse graph (nc <= n, cnnz <= nnz) */
    };
    int64_t peak = 0;
    for (int i = 0; i < 3; i++)
        peak = phase[i] > peak ? phase[i] : peak;
    return peak + SLACK_BYTES;
}

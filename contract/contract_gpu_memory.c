/* contract_gpu_memory.c — the bounds of contract_gpu_memory.h, array by
 * array as contract.cu takes them (docs/design-contraction.md); plain
 * arithmetic, in both builds. */
#include "contract/contract_gpu_memory.h"

/* CUB temporaries, the workspace's rounding (1 MiB per buffer, 256 bytes per
 * array) and the summary, rounded up. */
#define SLACK_BYTES ((int64_t)64 << 20)

int64_t contract_gpu_rows_bytes(int32_t n, int64_t nnz)
{
    const int64_t v = (int64_t)n + 1;
    /* the group sort's four buffers, group offsets (nc <= n), member row
     * places, row bounds, sorted-row offsets, row lengths, coarse row
     * offsets; the row buffers */
    return 4 * 4 * v + 4 * v + 8 * v + 8 * v + 8 * v + 8 * v + 8 * v + 12 * nnz + SLACK_BYTES;
}

int64_t contract_gpu_workspace_bytes(int32_t n, int64_t nnz)
{
    const int64_t v = (int64_t)n + 1, ref = nnz <= (int64_t)UINT32_MAX ? 4 : 8;
    /* the nested workspace of the rows above hash_max (at most every
     * entry): keys and entry indices, double-buffered, and CUB's segment
     * lists */
    return contract_gpu_rows_bytes(n, nnz) + 2 * (4 + ref) * nnz + 16 * v;
}

int64_t contract_gpu_peak_bytes(int32_t n, int64_t nnz)
{
    /* the workspace grown from nothing, then the coarse graph beside it
     * (nc <= n, coarse entries <= nnz) */
    return contract_gpu_workspace_bytes(n, nnz) + 16 * ((int64_t)n + 1) + 12 * nnz;
}

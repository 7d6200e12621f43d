/* map_from_mates_cpu.c — the host reference for turning a matching (mate[])
 * into a fine-to-coarse map: one coarse vertex per pair and per unmatched
 * vertex, numbered in order of each group's smallest fine id. On all threads:
 * each takes a block of vertices, counts its leaders, and numbers them from
 * the count of the blocks before it; the ids are the leaders' ranks, so the
 * result does not depend on the blocks. */
#include "contract/contract.h"
#include "core/error.h"
#include "core/threads.h"

/* The most blocks (threads) the numbering uses. */
#define MAP_BLOCKS_MAX 256

int contract_map_from_mates_cpu(int32_t n, const int32_t *mate, int32_t *cmap, int32_t *nc,
                                coarsen_error *err)
{
    *nc = 0;
    int32_t bad = n; /* the first vertex whose mate is not a symmetric pair */
#pragma omp parallel for schedule(static) reduction(min : bad) if (n >= THREADS_PARALLEL_MIN)
    for (int32_t v = 0; v < n; v++) {
        int32_t m = mate[v];
        if (m != -1 && (m < 0 || m >= n || m == v || mate[m] != v) && v < bad)
            bad = v;
    }
    if (bad < n)
        return error_set(err, COARSEN_ERR_INPUT, "contract: mate[%d] = %d is not a symmetric pair or -1", bad,
                         mate[bad]);
    /* A leader (unmatched, or the smaller of its pair) takes the next id; its
     * mate, always larger, reads it once every leader is numbered. */
    int nb = n >= THREADS_PARALLEL_MIN ? threads_available() : 1;
    nb = nb < MAP_BLOCKS_MAX ? nb : MAP_BLOCKS_MAX;
    int32_t first[MAP_BLOCKS_MAX + 1] = {0}; /* first id of each block's leaders */
#pragma omp parallel num_threads(nb) if (nb > 1)
    {
        int b = 0, blocks = 1;
#ifdef _OPENMP
        b = omp_get_thread_num();
        blocks = omp_get_num_threads();
#endif
        int32_t lo = (int32_t)((int64_t)n * b / blocks), hi = (int32_t)((int64_t)n * (b + 1) / blocks), count = 0;
        for (int32_t v = lo; v < hi; v++)
            count += mate[v] == -1 || v < mate[v];
        first[b + 1] = count;
#pragma omp barrier
#pragma omp single
        for (int t = 0; t < blocks; t++)
            first[t + 1] += first[t];
        int32_t next = first[b];
        for (int32_t v = lo; v < hi; v++)
            if (mate[v] == -1 || v < mate[v])
                cmap[v] = next++;
#pragma omp barrier
        for (int32_t v = lo; v < hi; v++)
            if (mate[v] != -1 && v > mate[v])
                cmap[v] = cmap[mate[v]];
#pragma omp single
        *nc = first[blocks];
    }
    return COARSEN_OK;
}

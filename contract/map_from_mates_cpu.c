/* map_from_mates_cpu.c — the host reference for turning a matching (mate[])
 * into a fine-to-coarse map: one coarse vertex per pair and per unmatched
 * vertex, numbered in order of each group's smallest fine id. */
#include "contract/contract.h"
#include "core/error.h"

int contract_map_from_mates_cpu(int32_t n, const int32_t *mate, int32_t *cmap, int32_t *nc,
                                coarsen_error *err)
{
    *nc = 0;
    for (int32_t v = 0; v < n; v++) {
        int32_t m = mate[v];
        if (m != -1 && (m < 0 || m >= n || m == v || mate[m] != v))
            return error_set(err, COARSEN_ERR_INPUT,
                             "contract: mate[%d] = %d is not a symmetric pair or -1", v, m);
    }
    /* A leader (unmatched, or the smaller of its pair) takes the next id; its
     * mate, always larger, reads it later. */
    int32_t next = 0;
    for (int32_t v = 0; v < n; v++)
        cmap[v] = (mate[v] == -1 || v < mate[v]) ? next++ : cmap[mate[v]];
    *nc = next;
    return COARSEN_OK;
}

/* bipartite_nocuda.c — the GPU entry points of bipartite/ in a build without
 * CUDA: each fails with the device layer's "built without CUDA" error. */
#include "bipartite/assignment.h"
#include "bipartite/cardinality.h"
#include "core/error.h"

static int no_cuda(coarsen_error *err)
{
    return error_set(err, COARSEN_ERR_DEVICE, "this coarsen was built without CUDA (no nvcc at build time)");
}

int bip_push_relabel_gpu(const bip_graph *g, const bip_pr_opts *opts, int32_t *row_match, int32_t *col_match,
                         bip_pr_stats *stats, coarsen_error *err)
{
    (void)g, (void)opts, (void)row_match, (void)col_match, (void)stats;
    return no_cuda(err);
}

int bip_auction_gpu(const bip_graph *g, const bip_auction_opts *opts, int32_t *row_match, bip_auction_result *res,
                    coarsen_error *err)
{
    (void)g, (void)opts, (void)row_match, (void)res;
    return no_cuda(err);
}

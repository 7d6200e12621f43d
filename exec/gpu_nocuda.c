/* gpu_nocuda.c — a build without CUDA: every GPU entry point of the
 * algorithms (matching, ROMA, two-hop, heavy-edge clustering, contraction, totals, partition
 * refinement, bipartite matching), each failing with the device layer's one
 * "built without CUDA" error (device_unavailable), so that the GPU backend
 * (exec/backend.h) and the host wrappers link and report it. */
#include "bipartite/assignment.h"
#include "bipartite/cardinality.h"
#include "coarsen/graph_totals.h"
#include "contract/contract.h"
#include "contract/contract_gpu_memory.h"
#include "device/device.h"
#include "matching/hec.h"
#include "matching/matching.h"
#include "matching/roma.h"
#include "matching/roma_complete.h"
#include "matching/two_hop.h"
#include "partition/partition.h"

int match_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_mate, int32_t *d_strongest,
              matching_stats *stats, coarsen_error *err)
{
    (void)g, (void)opts, (void)d_mate, (void)d_strongest, (void)stats;
    return device_unavailable(err);
}

int match_measure_gpu(const coarsen_graph *g, const int32_t *d_mate, matching_stats *stats, coarsen_error *err)
{
    (void)g, (void)d_mate, (void)stats;
    return device_unavailable(err);
}

int roma_gpu(const coarsen_graph *g, const roma_opts *opts, int32_t *d_mate, roma_stats *stats, coarsen_error *err)
{
    (void)g, (void)opts, (void)d_mate, (void)stats;
    return device_unavailable(err);
}

int roma_complete_gpu(int32_t n, const float *d_w, const roma_opts *opts, int32_t *d_mate, roma_stats *stats,
                      coarsen_error *err)
{
    (void)n, (void)d_w, (void)opts, (void)d_mate, (void)stats;
    return device_unavailable(err);
}

int two_hop_gpu(const coarsen_graph *g, const two_hop_opts *opts, int32_t *d_mate, two_hop_stats *stats,
                coarsen_error *err)
{
    (void)g, (void)opts, (void)d_mate;
    if (stats)
        *stats = (two_hop_stats){0};
    return device_unavailable(err);
}

int hec_gpu(const coarsen_graph *g, const matching_opts *opts, int32_t *d_cmap, int32_t *nc, hec_stats *stats,
            coarsen_error *err)
{
    (void)g, (void)opts, (void)d_cmap;
    *nc = 0;
    if (stats)
        *stats = (hec_stats){0};
    return device_unavailable(err);
}

int contract_map_from_mates_gpu(int32_t n, const int32_t *d_mate, int32_t *d_cmap, int32_t *nc,
                                coarsen_error *err)
{
    (void)n, (void)d_mate, (void)d_cmap;
    *nc = 0;
    return device_unavailable(err);
}

int contract_gpu(const coarsen_graph *g, const int32_t *d_cmap, int32_t nc, coarsen_graph **out,
                 coarsen_error *err)
{
    (void)g, (void)d_cmap, (void)nc;
    *out = NULL;
    return device_unavailable(err);
}

void contract_gpu_set_paths(int team, int64_t hash_max) { (void)team, (void)hash_max; }

int graph_totals_gpu(const coarsen_graph *g, graph_totals *t, coarsen_error *err)
{
    (void)g, (void)t;
    return device_unavailable(err);
}

int partition_project_gpu(int32_t n_fine, const int32_t *map, const int32_t *coarse_part, int32_t *fine_part,
                          coarsen_error *err)
{
    (void)n_fine, (void)map, (void)coarse_part, (void)fine_part;
    return device_unavailable(err);
}

int partition_part_weights_gpu(const coarsen_graph *g, const int32_t *part, int32_t k, int64_t *weights,
                               coarsen_error *err)
{
    (void)g, (void)part, (void)k, (void)weights;
    return device_unavailable(err);
}

int partition_cut_gpu(const coarsen_graph *g, const int32_t *part, double *cut, coarsen_error *err)
{
    (void)g, (void)part, (void)cut;
    return device_unavailable(err);
}

int partition_refine_gpu(const coarsen_graph *g, int32_t k, int64_t cap, int max_rounds, int32_t *part,
                         partition_refine_stats *st, coarsen_error *err)
{
    (void)g, (void)k, (void)cap, (void)max_rounds, (void)part, (void)st;
    return device_unavailable(err);
}

int partition_boundary_gpu(const coarsen_graph *g, const int32_t *part, int32_t **boundary, int32_t *nb,
                           coarsen_error *err)
{
    (void)g, (void)part;
    *boundary = NULL;
    *nb = 0;
    return device_unavailable(err);
}

int bip_push_relabel_gpu(const bip_graph *g, const bip_pr_opts *opts, int32_t *row_match, int32_t *col_match,
                         bip_pr_stats *stats, coarsen_error *err)
{
    (void)g, (void)opts, (void)row_match, (void)col_match, (void)stats;
    return device_unavailable(err);
}

int bip_auction_gpu(const bip_graph *g, const bip_auction_opts *opts, int32_t *row_match, bip_auction_result *res,
                    coarsen_error *err)
{
    (void)g, (void)opts, (void)row_match, (void)res;
    return device_unavailable(err);
}

/* partition_api.c — coarsen_partition (include/coarsen.h): the public
 * partitioning entry point, its options translated to the multilevel
 * driver's (multilevel.c) and its result to the public summary. */
#include "coarsen.h"
#include "core/error.h"
#include "partition/partition.h"

#include <math.h>

void coarsen_partition_opts_default(coarsen_partition_opts *opts)
{
    partition_opts p;
    partition_opts_default(&p);
    *opts = (coarsen_partition_opts){.k = p.k, .imbalance = p.imbalance, .seed = p.seed, .recursive = p.recursive,
                                     .max_rounds = p.max_rounds, .polish_edges = p.polish_edges,
                                     .metis_tries = p.metis_tries, .hierarchy = p.hierarchy};
}

int coarsen_partition(const coarsen_graph *g, const coarsen_partition_opts *opts, int32_t *part,
                      coarsen_partition_info *info, coarsen_error *err)
{
    if (!g || g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "coarsen_partition needs a host graph");
    if (!(opts->imbalance >= 0) || isinf(opts->imbalance))
        return error_set(err, COARSEN_ERR_INPUT, "imbalance %g: must be a number >= 0", opts->imbalance);
    if (opts->recursive < PARTITION_INITIAL_BOTH || opts->recursive > PARTITION_INITIAL_KWAY)
        return error_set(err, COARSEN_ERR_INPUT, "recursive = %d: must be 0 (both), 1 (bisection) or 2 (k-way)",
                         opts->recursive);
    if (opts->max_rounds < 0 || opts->metis_tries < 0)
        return error_set(err, COARSEN_ERR_INPUT, "refinement rounds (%d) and METIS tries (%d) must be >= 0",
                         opts->max_rounds, opts->metis_tries);
    partition_opts p;
    partition_opts_default(&p);
    p.k = opts->k;
    p.imbalance = opts->imbalance;
    p.seed = opts->seed;
    p.recursive = opts->recursive;
    p.max_rounds = opts->max_rounds;
    p.polish_edges = opts->polish_edges;
    p.metis_tries = opts->metis_tries;
    p.hierarchy = opts->hierarchy;
    partition_result res = {0};
    int rc = partition_multilevel(g, &p, part, &res, err);
    if (!rc && info)
        *info = (coarsen_partition_info){.cut = res.cut, .imbalance = res.imbalance, .cap = res.cap,
                                         .levels = res.levels, .on_gpu = res.on_gpu, .total_ms = res.total_ms};
    partition_result_free(&res);
    return rc;
}

/* match_api.c — coarsen_match (include/coarsen.h): the public matching
 * entry point over the matchers of matching.h and the ROMA refinement of
 * roma.h, through the execution backend device_select picks
 * (exec/host_call.h), as `coarsen match` runs them. */
#include "coarsen.h"
#include "core/error.h"
#include "device/device.h"
#include "exec/host_call.h"

void coarsen_match_opts_default(coarsen_match_opts *opts)
{
    coarsen_hierarchy_opts h; /* the pipeline's tie rule, as `coarsen match` */
    coarsen_hierarchy_opts_default(&h);
    *opts = (coarsen_match_opts){
        .matcher = COARSEN_MATCHER_HANDSHAKE, .hashed_ties = h.hashed_ties, .seed = 1, .device = COARSEN_DEVICE_AUTO};
}

int coarsen_match(const coarsen_graph *g, const coarsen_match_opts *opts, int32_t *mate, coarsen_match_stats *stats,
                  coarsen_error *err)
{
    if (!g || g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "coarsen_match needs a host graph");
    matching_opts mo;
    matching_opts_default(&mo);
    mo.kind = opts->matcher == COARSEN_MATCHER_REDBLUE ? MATCHER_REDBLUE : MATCHER_HANDSHAKE;
    mo.seed = opts->seed;
    mo.hashed_ties = opts->hashed_ties;
    mo.max_vertex_weight = opts->max_vertex_weight > 0 ? opts->max_vertex_weight : 0;
    int use_gpu = 0;
    int rc = matching_opts_check(&mo, err);
    if (!rc)
        rc = device_select((device_mode)opts->device, &use_gpu, err);
    matching_stats ms = {0};
    if (!rc)
        rc = exec_match_host(exec_backend_of(use_gpu), g, &mo, mate, NULL, &ms, err);
    if (!rc && opts->refine_roma) {
        roma_opts ro;
        roma_opts_default(&ro);
        ro.seed = mo.seed;
        ro.max_vertex_weight = mo.max_vertex_weight;
        roma_stats rs;
        rc = exec_refine_host(exec_backend_of(use_gpu), g, &ro, mate, &rs, err);
        if (!rc)
            ms.ms += rs.ms;
        if (!rc)
            rc = match_measure_cpu(g, mate, &ms, err);
    }
    if (!rc && stats)
        *stats = (coarsen_match_stats){.pairs = ms.matched_edges, .weight = ms.weight, .passes = ms.passes,
                                       .ms = ms.ms};
    return rc;
}

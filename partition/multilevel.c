/* multilevel.c — the multilevel partitioner: build the hierarchy (by
 * partition_opts.build_hierarchy, coarsen_hierarchy_build by default), partition
 * the coarsest graph with METIS, then go up the hierarchy (uncoarsen.c:
 * projection, rebalancing, refinement and polish at every level, the part
 * array on the device between levels on the GPU backend); then the V-cycles
 * asked for (vcycle.c, on the same backend). Per-level cuts and phase times
 * go to the caller's report. */
#include "partition/partition.h"

#include <stdlib.h>
#include <string.h>

#include "coarsen/hierarchy.h"
#include "core/error.h"
#include "core/timer.h"

void partition_opts_default(partition_opts *o)
{
    *o = (partition_opts){.k = 2, .imbalance = 0.03, .seed = 1, .max_rounds = 16,
                          .polish_edges = PARTITION_POLISH_HOST_EDGES, .vcycles = 1};
    coarsen_hierarchy_opts_default(&o->hierarchy);
    o->hierarchy.coarsen_to = 0; /* from k */
    o->hierarchy.levels = 100;   /* until coarsen_to or min_reduction stops it */
    o->hierarchy.matcher = COARSEN_MATCHER_HANDSHAKE; /* k = 8 over the same graphs: 0.973 x METIS against
                                                         0.998 with HEC (docs/benchmarks.md, session 14) */
    o->hierarchy.rating = COARSEN_RATING_WEIGHT; /* cuts over 11 graphs at k = 2, 8, 64: 0.963, 0.973,
                                                    1.024 x METIS, against 0.965, 0.993, 1.020 with
                                                    expansion2 (docs/benchmarks.md) */
}

void partition_result_free(partition_result *res)
{
    if (res) {
        free(res->level);
        res->level = NULL;
    }
}

/* The METIS runs of each kind on the coarsest graph (partition_opts.metis_tries
 * and .recursive): 0 for a kind left out. */
static int metis_tries(const partition_opts *o, int rb)
{
    if (o->recursive == (rb ? PARTITION_INITIAL_KWAY : PARTITION_INITIAL_RB))
        return 0;
    if (o->metis_tries > 0)
        return o->metis_tries;
    if (rb)
        return PARTITION_RB_TRIES;
    return o->k <= PARTITION_METIS_TRIES_MAX_K ? PARTITION_METIS_TRIES : 1;
}

/* The partition of the coarsest level lv (host graph hg) into part: METIS
 * runs of each kind asked for (k-way first, then recursive bisection; try t
 * with seed o->seed + t), each rebalanced, refined and polished at that level;
 * the lowest cut so refined is kept (ties: the earlier run), with its report
 * in *r. A choice by METIS's own objective would miss what refinement makes
 * of each start, and on real weights METIS optimises rounded ones. spare:
 * hg->n entries of scratch. Adds the METIS time to *metis_ms. */
static int initial_partition(coarsen_hierarchy *h, int lv, const coarsen_graph *hg, const partition_opts *o,
                             int32_t *part, int32_t *spare, partition_level_report *r, double *metis_ms,
                             double *polish_ms, coarsen_error *err)
{
    int rc = 0, have = 0;
    for (int rb = 0; rb < 2; rb++)
        for (int t = 0; t < metis_tries(o, rb) && !rc; t++) {
            int32_t *p = have ? spare : part;
            partition_level_report tr = {0};
            double t0 = timer_ms();
            rc = partition_metis(hg, o->k, o->imbalance, o->seed + (uint64_t)t, rb, p, err);
            *metis_ms += timer_ms() - t0;
            if (!rc)
                rc = partition_refine_level(h, lv, NULL, o, p, -1, &tr, polish_ms, err);
            if (!rc && (!have || tr.cut_refined < r->cut_refined)) {
                *r = tr;
                if (have)
                    memcpy(part, spare, (size_t)hg->n * sizeof *part);
            }
            have = 1;
        }
    return rc;
}

/* One multilevel cycle and its V-cycles with o's seed. */
static int multilevel_once(const coarsen_graph *g, const partition_opts *o, int32_t *part, partition_result *res,
                           coarsen_error *err)
{
    *res = (partition_result){0};
    double t0 = timer_ms();
    coarsen_hierarchy_opts ho = o->hierarchy;
    if (ho.coarsen_to == 0)
        ho.coarsen_to = o->k * 40 > 400 ? o->k * 40 : 400;
    ho.seed = o->seed;
    ho.keep_input_on_device = 1; /* uncoarsening ends on level 0 */
    coarsen_hierarchy *h = NULL;
    int rc = (o->build_hierarchy ? o->build_hierarchy : coarsen_hierarchy_build)(g, &ho, &h, err);
    if (rc)
        return rc;
    double t1 = timer_ms();
    int L = coarsen_hierarchy_levels(h), gpu = coarsen_hierarchy_on_gpu(h); /* a host hierarchy: host refinement */
    res->levels = L;
    res->on_gpu = gpu;
    res->ranks = h->ranks;
    res->distributed_levels = h->distributed_levels;
    res->coarsen_ms = t1 - t0;
    res->level = xcalloc((size_t)L + 1, sizeof *res->level, "partition report", err);
    int32_t *coarse = xmalloc(((size_t)g->n + 1) * sizeof *coarse, "coarse parts", err);
    int32_t *fine = xmalloc(((size_t)g->n + 1) * sizeof *fine, "fine parts", err);
    if (!res->level || !coarse || !fine) {
        rc = COARSEN_ERR_NOMEM;
        goto done;
    }
    /* coarsest level: METIS runs, each refined on the host, the best kept */
    const coarsen_graph *hg;
    if ((rc = coarsen_hierarchy_graph(h, L, &hg, err)))
        goto done;
    if ((rc = initial_partition(h, L, hg, o, coarse, fine, &res->level[L], &res->initial_ms, &res->polish_ms, err)))
        goto done;
    if ((rc = partition_uncoarsen(h, o, coarse, fine, part, res->level, &res->polish_ms, err)))
        goto done;
    double tv = timer_ms();
    int vcycles = g->nnz / 2 <= PARTITION_VCYCLE_MAX_EDGES ? o->vcycles : 0;
    res->vcycles = vcycles;
    partition_opts vo = *o; /* the V-cycles on the first cycle's backend, with its device copy of g */
    vo.hierarchy.device = gpu ? COARSEN_DEVICE_GPU : COARSEN_DEVICE_CPU;
    const coarsen_graph *dg = NULL;
    if (gpu && vcycles > 0)
        rc = hierarchy_device_graph(h, 0, &dg, err);
    for (int c = 0; c < vcycles && !rc; c++)
        rc = partition_vcycle(g, dg, &vo, o->seed + 1 + (uint64_t)c, part, &res->vcycle_st, err);
    if (rc)
        goto done;
    res->vcycle_ms = timer_ms() - tv;
    res->total_ms = timer_ms() - t0;
    res->refine_ms = res->total_ms - res->coarsen_ms - res->initial_ms;
    /* level 0's report holds the first cycle's final cut; the device's
     * fixed-point sum is exact only for integer weights, so real ones are
     * recounted, and so is the cut after V-cycles */
    res->cut = (gpu && !g->integral_weights) || vcycles > 0 ? partition_cut(g, part) : res->level[0].cut_refined;
    if ((rc = partition_imbalance(g, part, o->k, &res->imbalance, err)))
        goto done;
    res->cap = partition_cap(g, o->k, o->imbalance);
done:
    free(coarse);
    free(fine);
    coarsen_hierarchy_free(h);
    if (rc)
        partition_result_free(res);
    return rc;
}

/* The restarts of a graph (partition_opts.restarts). */
static int restarts_of(const coarsen_graph *g, const partition_opts *o)
{
    if (o->restarts > 0)
        return o->restarts;
    return o->k <= PARTITION_RESTART_MAX_K && g->nnz / 2 <= PARTITION_RESTART_MAX_EDGES ? PARTITION_RESTARTS : 1;
}

int partition_multilevel(const coarsen_graph *g, const partition_opts *o, int32_t *part, partition_result *res,
                         coarsen_error *err)
{
    *res = (partition_result){0};
    if (o->k < 1 || o->k > (g->n > 0 ? g->n : 1))
        return error_set(err, COARSEN_ERR_INPUT, "k = %d: the number of parts must be in 1..%d", o->k,
                         g->n > 0 ? g->n : 1);
    int runs = restarts_of(g, o), rc = 0;
    int32_t *other = runs > 1 ? xmalloc(((size_t)g->n + 1) * sizeof *other, "restart parts", err) : NULL;
    if (runs > 1 && !other)
        return COARSEN_ERR_NOMEM;
    double t0 = timer_ms();
    partition_opts r = *o;
    for (int i = 0; i < runs && !rc; i++) {
        partition_result t;
        r.seed = o->seed + (uint64_t)i * 0x9E3779B97F4A7C15ull; /* far from the METIS tries' seed + t */
        rc = multilevel_once(g, &r, i ? other : part, i ? &t : res, err);
        if (!rc && i && t.cut < res->cut) {
            partition_result_free(res);
            *res = t;
            for (int32_t v = 0; v < g->n; v++)
                part[v] = other[v];
        } else if (!rc && i) {
            partition_result_free(&t);
        }
    }
    if (rc)
        partition_result_free(res);
    else
        res->total_ms = timer_ms() - t0;
    res->restarts = runs;
    free(other);
    return rc;
}

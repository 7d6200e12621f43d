/* multilevel.c — the multilevel partitioner: build the hierarchy (by
 * partition_opts.build_hierarchy, coarsen_hierarchy_build by default), partition
 * the coarsest graph with METIS, then level by level project, rebalance when
 * a part exceeds the level's cap, refine (label propagation) and polish (FM
 * on the host, where the level's graph is cheap to have there); on the GPU
 * backend the part array stays on the device between levels (rebalancing,
 * rare, and the polish run on host copies); then the V-cycles asked for
 * (vcycle.c, on the host). Per-level cuts and phase times go to the caller's
 * report. */
#include "partition/partition.h"

#include <stdlib.h>
#include <string.h>

#include "coarsen/hierarchy.h"
#include "core/error.h"
#include "core/threads.h"
#include "core/timer.h"
#include "device/device.h"
#include "exec/backend.h"

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

/* Brings every part of level lv within cap: on the host directly, or, for a
 * device part (dg not NULL), through host copies made only when a part is
 * over cap (the level's host graph is then downloaded). */
static int rebalance_level(coarsen_hierarchy *h, int lv, const coarsen_graph *dg, int32_t k, int64_t cap,
                           int32_t *part, partition_refine_stats *st, coarsen_error *err)
{
    const coarsen_graph *hg = NULL;
    if (!dg) {
        int rc = coarsen_hierarchy_graph(h, lv, &hg, err);
        return rc ? rc : partition_rebalance_cpu(hg, k, cap, part, st, err);
    }
    int64_t *w = xmalloc((size_t)k * sizeof *w, "part weights", err);
    int rc = !w ? COARSEN_ERR_NOMEM : partition_part_weights_gpu(dg, part, k, w, err);
    int over = 0;
    for (int32_t p = 0; !rc && p < k; p++)
        over |= w[p] > cap;
    free(w);
    if (rc || !over)
        return rc;
    if ((rc = coarsen_hierarchy_graph(h, lv, &hg, err)))
        return rc;
    size_t bytes = (size_t)hg->n * sizeof(int32_t);
    int32_t *hpart = xmalloc(bytes + 1, "host part", err);
    rc = !hpart ? COARSEN_ERR_NOMEM : device_copy_to_host(hpart, part, bytes, err);
    if (!rc)
        rc = partition_rebalance_cpu(hg, k, cap, hpart, st, err);
    if (!rc)
        rc = device_copy_to_device(part, hpart, bytes, err);
    free(hpart);
    return rc;
}

/* The FM polish of level lv (partition_polish_cpu), on the same rule for
 * both backends: at the levels of at most o->polish_edges edges. On the GPU
 * (dg not NULL) the part weights and the boundary come from the device, the
 * level's host graph from the hierarchy (the caller's graph at level 0,
 * downloaded once for a coarser level), and the part array goes down and,
 * when a move was kept, back up. Adds its time to *ms. */
static int polish_level(coarsen_hierarchy *h, int lv, const coarsen_graph *dg, const partition_opts *o,
                        int64_t cap, int32_t *part, partition_refine_stats *st, double *ms, coarsen_error *err)
{
    if (coarsen_hierarchy_stats(h, lv)->edges > o->polish_edges)
        return 0;
    int32_t k = o->k;
    double t0 = timer_ms();
    const coarsen_graph *hg = NULL;
    int64_t *w = xmalloc((size_t)k * sizeof *w, "part weights", err);
    int32_t *hpart = NULL, *boundary = NULL, nb = 0;
    int64_t kept = st->polish_moves;
    int rc = !w ? COARSEN_ERR_NOMEM : coarsen_hierarchy_graph(h, lv, &hg, err);
    if (!rc && !dg) {
        partition_part_weights(hg, part, k, w);
        rc = partition_polish_cpu(hg, k, cap, part, w, NULL, 0, st, err);
    } else if (!rc) {
        size_t bytes = (size_t)hg->n * sizeof *hpart;
        rc = (hpart = xmalloc(bytes + 1, "host parts", err)) ? 0 : COARSEN_ERR_NOMEM;
        if (!rc)
            rc = partition_part_weights_gpu(dg, part, k, w, err);
        if (!rc)
            rc = partition_boundary_gpu(dg, part, &boundary, &nb, err);
        if (!rc)
            rc = device_copy_to_host(hpart, part, bytes, err);
        if (!rc)
            rc = partition_polish_cpu(hg, k, cap, hpart, w, boundary, nb, st, err);
        if (!rc && st->polish_moves > kept)
            rc = device_copy_to_device(part, hpart, bytes, err);
    }
    free(w);
    free(hpart);
    free(boundary);
    *ms += timer_ms() - t0;
    return rc;
}

/* Rebalances, refines and polishes level lv: part is host memory on the CPU,
 * device memory when dg (the level's device graph) is given. Fills its
 * report and adds the polish time to *polish_ms. projected: the cut of part
 * when known (>= 0), else -1. */
static int refine_level(coarsen_hierarchy *h, int lv, const coarsen_graph *dg, const partition_opts *o,
                        int32_t *part, double projected, partition_level_report *r, double *polish_ms,
                        coarsen_error *err)
{
    const coarsen_level_stats *s = coarsen_hierarchy_stats(h, lv);
    int64_t cap = partition_cap_of(s->total_vertex_weight, s->max_vertex_weight, o->k, o->imbalance);
    const coarsen_graph *g = dg;
    int rc = dg ? 0 : coarsen_hierarchy_graph(h, lv, &g, err);
    int threads = threads_limit(dg ? INT64_MAX : 2 * s->edges); /* host work: threads by the level's size */
    r->vertices = s->vertices;
    const exec_backend *b = exec_backend_of(dg != NULL);
    r->cut_projected = projected;
    if (!rc && projected < 0)
        rc = b->part_cut(g, part, &r->cut_projected, err);
    int64_t moves = r->st.rebalance_moves;
    if (!rc)
        rc = rebalance_level(h, lv, dg, o->k, cap, part, &r->st, err);
    r->cut_rebalanced = r->cut_projected; /* unless a vertex moved */
    if (!rc && r->st.rebalance_moves != moves)
        rc = b->part_cut(g, part, &r->cut_rebalanced, err);
    if (!rc)
        rc = b->refine_parts(g, o->k, cap, o->max_rounds, part, &r->st, err);
    if (!rc)
        rc = polish_level(h, lv, dg, o, cap, part, &r->st, polish_ms, err);
    if (!rc)
        rc = b->part_cut(g, part, &r->cut_refined, err);
    threads_restore(threads);
    return rc;
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
                rc = refine_level(h, lv, NULL, o, p, -1, &tr, polish_ms, err);
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
    int32_t *dpart[2] = {NULL, NULL};
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
    if (gpu) {
        for (int s = 0; s < 2 && !rc; s++)
            rc = device_alloc((void **)&dpart[s], ((size_t)g->n + 1) * sizeof(int32_t), "device parts", err);
        if (!rc)
            rc = device_copy_to_device(dpart[0], coarse, (size_t)hg->n * sizeof(int32_t), err);
        if (rc)
            goto done;
    }
    for (int lv = L; lv >= 1; lv--) {
        /* projection keeps the cut, and integer cuts are exact sums */
        double projected = g->integral_weights ? res->level[lv].cut_refined : -1;
        const int32_t *map = NULL;
        const coarsen_graph *fg = NULL;
        if (gpu) {
            const coarsen_graph *dg = NULL;
            const int32_t *dmap = NULL;
            rc = hierarchy_device_graph(h, lv - 1, &dg, err); /* uploads level 0 again if it was let go */
            if (!rc)
                rc = hierarchy_device_map(h, lv, &dmap, err);
            if (!rc)
                rc = exec_backend_gpu()->project(dg->n, dmap, dpart[0], dpart[1], err);
            if (!rc)
                rc = refine_level(h, lv - 1, dg, o, dpart[1], projected, &res->level[lv - 1], &res->polish_ms, err);
            int32_t *t = dpart[0];
            dpart[0] = dpart[1];
            dpart[1] = t;
        } else {
            rc = coarsen_hierarchy_map(h, lv, &map, err);
            if (!rc)
                rc = coarsen_hierarchy_graph(h, lv - 1, &fg, err);
            if (!rc)
                rc = exec_backend_cpu()->project(fg->n, map, coarse, fine, err);
            if (!rc)
                rc = refine_level(h, lv - 1, NULL, o, fine, projected, &res->level[lv - 1], &res->polish_ms, err);
            int32_t *t = coarse;
            coarse = fine;
            fine = t;
        }
        if (rc)
            goto done;
    }
    if (gpu)
        rc = device_copy_to_host(part, dpart[0], (size_t)g->n * sizeof *part, err);
    else
        for (int32_t v = 0; v < g->n; v++)
            part[v] = coarse[v];
    if (rc)
        goto done;
    double tv = timer_ms();
    int vcycles = g->nnz / 2 <= PARTITION_VCYCLE_MAX_EDGES ? o->vcycles : 0;
    res->vcycles = vcycles;
    for (int c = 0; c < vcycles && !rc; c++)
        rc = partition_vcycle_cpu(g, o, o->seed + 1 + (uint64_t)c, part, &res->vcycle_st, err);
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
    for (int s = 0; s < 2; s++)
        device_free(dpart[s]);
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

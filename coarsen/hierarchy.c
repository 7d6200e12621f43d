/* hierarchy.c — building the coarsening hierarchy level by level (match,
 * two-hop pairing on stalls, map, contract; or heavy-edge clustering, map,
 * contract) through the run's execution backend (exec/backend.h), the
 * stopping rules, and the public accessors (include/coarsen.h). The GPU
 * backend keeps the levels on the device and moves only counts to the host,
 * and hands the small levels at the end to the CPU backend (opts.host_below).
 * Also the re-contraction of a built hierarchy's levels from another input
 * along the same maps (hierarchy_contract_input, for the V-cycle). */
#include "coarsen/hierarchy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "coarsen/graph_totals.h"
#include "contract/contract.h"
#include "contract/contract_gpu_memory.h"
#include "core/error.h"
#include "core/interrupt.h"
#include "core/hash.h"
#include "core/timer.h"
#include "core/threads.h"
#include "device/device.h"
#include "exec/backend.h"
#include "exec/device_choice.h"

const char *coarsen_stop_reason_name(coarsen_stop_reason r)
{
    switch (r) {
    case COARSEN_STOP_LEVELS: return "levels";
    case COARSEN_STOP_COARSEN_TO: return "coarsen-to";
    case COARSEN_STOP_MIN_REDUCTION: return "min-reduction";
    case COARSEN_STOP_VERTEX_WEIGHT: return "vertex-weight-cap";
    case COARSEN_STOP_NO_EDGES: return "no-edges";
    }
    return "unknown";
}

const char *coarsen_matcher_name(coarsen_matcher m)
{
    return m == COARSEN_MATCHER_REDBLUE ? "redblue" : m == COARSEN_MATCHER_HEC ? "hec" : "handshake";
}

const char *coarsen_rating_name(coarsen_rating r)
{
    return r == COARSEN_RATING_EXPANSION ? "expansion" : r == COARSEN_RATING_EXPANSION2 ? "expansion2" : "weight";
}

void coarsen_hierarchy_opts_default(coarsen_hierarchy_opts *o)
{
    *o = (coarsen_hierarchy_opts){
        .levels = 10,
        .matcher = COARSEN_MATCHER_HEC, /* the only matcher at or below METIS's coarsest size on the shared
                                           graphs (docs/benchmarks.md, depth table, session 14) */
        .coarsen_to = 1000,
        .min_reduction = 0.05,
        .max_vertex_weight = COARSEN_VWGT_AUTO,
        .max_vertex_weight_factor = 3,
        .rating = COARSEN_RATING_EXPANSION2, /* 1.19x METIS's coarsest size against 1.69x by weight
                                                (docs/benchmarks.md, depth table) */
        .two_hop_threshold = 0.25,
        .two_hop_relatives = 0.25,
        .host_below = COARSEN_HOST_BELOW_DEFAULT,
        .hashed_ties = 1,
        .seed = 1,
        .device = COARSEN_DEVICE_AUTO,
    };
}

static int check_opts(const coarsen_hierarchy_opts *o, coarsen_error *err)
{
    if (o->levels < 0)
        return error_set(err, COARSEN_ERR_INPUT, "levels must be >= 0 (got %d)", o->levels);
    if (o->matcher != COARSEN_MATCHER_HANDSHAKE && o->matcher != COARSEN_MATCHER_REDBLUE &&
        o->matcher != COARSEN_MATCHER_HEC)
        return error_set(err, COARSEN_ERR_INPUT, "unknown matcher %d", (int)o->matcher);
    if (o->rating != COARSEN_RATING_WEIGHT && o->rating != COARSEN_RATING_EXPANSION &&
        o->rating != COARSEN_RATING_EXPANSION2)
        return error_set(err, COARSEN_ERR_INPUT, "unknown edge rating %d", (int)o->rating);
    if (!(o->max_vertex_weight_factor >= 2 && o->max_vertex_weight_factor <= 1e9))
        return error_set(err, COARSEN_ERR_INPUT, "max vertex weight factor must lie in [2, 1e9] (got %g)",
                         o->max_vertex_weight_factor);
    if (o->coarsen_to < 0)
        return error_set(err, COARSEN_ERR_INPUT, "coarsen-to must be >= 0 (got %d)", o->coarsen_to);
    if (o->refine_roma && o->matcher == COARSEN_MATCHER_HEC)
        return error_set(err, COARSEN_ERR_INPUT,
                         "ROMA refines a matching: refine_roma needs the handshake or red/blue matcher, not HEC");
    if (!(o->gpu_memory_factor >= 0))
        return error_set(err, COARSEN_ERR_INPUT, "gpu memory factor must be >= 0 (got %g)", o->gpu_memory_factor);
    if (!(o->min_reduction >= 0 && o->min_reduction <= 1))
        return error_set(err, COARSEN_ERR_INPUT, "min-reduction must lie in [0, 1] (got %g)", o->min_reduction);
    if (o->max_vertex_weight < COARSEN_VWGT_AUTO)
        return error_set(err, COARSEN_ERR_INPUT, "max vertex weight must be > 0, 0 (none) or auto");
    if (o->host_below < 0)
        return error_set(err, COARSEN_ERR_INPUT, "host-below must be >= 0 (got %d)", (int)o->host_below);
    if (!(o->two_hop_threshold >= 0))
        return error_set(err, COARSEN_ERR_INPUT, "two-hop threshold must be >= 0 (got %g)", o->two_hop_threshold);
    if (!(o->two_hop_relatives >= 0))
        return error_set(err, COARSEN_ERR_INPUT, "two-hop relatives threshold must be >= 0 (got %g)",
                         o->two_hop_relatives);
    if (o->device != COARSEN_DEVICE_AUTO && o->device != COARSEN_DEVICE_CPU && o->device != COARSEN_DEVICE_GPU)
        return error_set(err, COARSEN_ERR_INPUT, "unknown device %d", (int)o->device);
    return COARSEN_OK;
}

/* The cap of a level built from one of n vertices (coarsen.h,
 * COARSEN_VWGT_AUTO): the option itself unless auto; for auto the larger of
 * METIS's 1.5 W / coarsen_to and factor * W / n rounded up (at least 1, so
 * that it stays a cap). */
int64_t hierarchy_level_cap(const coarsen_hierarchy_opts *o, int64_t total_vertex_weight, int32_t n)
{
    if (o->max_vertex_weight != COARSEN_VWGT_AUTO)
        return o->max_vertex_weight;
    double W = (double)total_vertex_weight;
    double metis = o->coarsen_to > 0 ? floor(1.5 * W / (double)o->coarsen_to) : 0;
    double average = n > 0 ? ceil(o->max_vertex_weight_factor * W / (double)n) : 0;
    double cap = metis > average ? metis : average;
    return cap >= 1 ? (cap < 9.2e18 ? (int64_t)cap : INT64_MAX) : 1;
}

/* *ms = now, once the device has finished its queued work. */
static int phase_clock(const exec_backend *b, double *ms, coarsen_error *err)
{
    int rc = b->sync(err);
    *ms = timer_ms();
    return rc;
}

/* The graph figures of s, computed where g lives. */
static int record_graph(const exec_backend *b, const coarsen_graph *g, coarsen_level_stats *s, coarsen_error *err)
{
    graph_totals t;
    int rc = b->totals(g, &t, err);
    if (rc)
        return rc;
    s->vertices = g->n;
    s->edges = g->nnz / 2;
    s->total_vertex_weight = t.vertex_weight;
    s->total_edge_weight = t.edge_weight;
    s->max_vertex_weight = t.max_vertex_weight;
    return COARSEN_OK;
}

int hierarchy_record_graph(const coarsen_graph *g, coarsen_level_stats *s, coarsen_error *err)
{
    return record_graph(exec_backend_cpu(), g, s, err);
}

/* ROMA on the matching of level g (same seed and cap as the matcher), then
 * its new size and weight into ms (the passes stay the matcher's). */
static int refine_matching(const exec_backend *b, const coarsen_graph *g, const matching_opts *mo, int32_t *mate,
                           matching_stats *ms, coarsen_error *err)
{
    roma_opts ro;
    roma_opts_default(&ro);
    ro.seed = mo->seed;
    ro.max_vertex_weight = mo->max_vertex_weight;
    roma_stats rs;
    int rc = b->refine(g, &ro, mate, &rs, err);
    return rc ? rc : b->measure(g, mate, ms, err);
}

void hierarchy_two_hop_figures(const two_hop_stats *t, coarsen_level_stats *s)
{
    s->leaf_pairs = t->leaf_pairs;
    s->twin_pairs = t->twin_pairs;
    s->relative_pairs = t->relative_pairs;
    s->island_pairs = t->island_pairs;
    s->cap_blocked = t->cap_blocked;
}

/* The matching path of a level: match (and refine), two-hop pairing when
 * too many vertices stay unmatched, map. Fills the matching and two-hop
 * figures of s (and its two phase times, counted from t0). */
static int group_by_matching(const coarsen_hierarchy *h, const exec_backend *b, const coarsen_graph *g,
                             const matching_opts *mo, int32_t *cmap, int32_t *nc, coarsen_level_stats *s,
                             double t0, coarsen_error *err)
{
    int32_t *mate = b->ints_alloc(g->n, "matching", err);
    if (!mate)
        return COARSEN_ERR_NOMEM;
    matching_stats ms = {0};
    two_hop_stats ts = {0};
    double t1 = 0, t2 = 0;
    int rc = b->match(g, mo, mate, NULL, &ms, err);
    if (!rc && h->opts.refine_roma)
        rc = refine_matching(b, g, mo, mate, &ms, err);
    if (!rc)
        rc = phase_clock(b, &t1, err);
    t2 = t1;
    int64_t unmatched = (int64_t)g->n - 2 * ms.matched_edges;
    if (!rc && (double)unmatched > h->opts.two_hop_threshold * (double)g->n) {
        const two_hop_opts to = {mo->max_vertex_weight, h->opts.two_hop_relatives};
        rc = b->two_hop(g, &to, mate, &ts, err);
        if (!rc)
            rc = phase_clock(b, &t2, err);
    }
    if (!rc)
        rc = b->map_from_mates(g->n, mate, cmap, nc, err);
    b->ints_free(mate);
    s->matched_pairs = ms.matched_edges;
    s->matched_fraction = g->n ? 2.0 * (double)ms.matched_edges / (double)g->n : 0;
    s->matching_weight = ms.weight;
    s->matching_passes = ms.passes;
    hierarchy_two_hop_figures(&ts, s);
    s->matching_ms = t1 - t0;
    s->two_hop_ms = t2 - t1;
    return rc;
}

/* The clustering path of a level (matcher hec): the map directly. Fills the
 * matching figures of s that HEC has (the contracted weight once the coarse
 * level exists, in build_level). */
static int group_by_hec(const exec_backend *b, const coarsen_graph *g, const matching_opts *mo, int32_t *cmap,
                        int32_t *nc, coarsen_level_stats *s, double t0, coarsen_error *err)
{
    hec_stats hs = {0};
    double t1 = 0;
    int rc = b->hec(g, mo, cmap, nc, &hs, err);
    if (!rc)
        rc = phase_clock(b, &t1, err);
    hierarchy_record_hec(&hs, g->n, *nc, s);
    s->matching_ms = t1 - t0;
    return rc;
}

void hierarchy_record_hec(const hec_stats *hs, int32_t n, int32_t nc, coarsen_level_stats *s)
{
    const int64_t pairs = hs->island_pairs + hs->leaf_pairs + hs->twin_pairs + hs->relative_pairs;
    s->matched_pairs = (int64_t)n - nc - pairs;
    s->matched_fraction = n ? (double)hs->grouped / (double)n : 0;
    s->matching_passes = hs->rounds;
    s->island_pairs = hs->island_pairs;
    s->leaf_pairs = hs->leaf_pairs;
    s->twin_pairs = hs->twin_pairs;
    s->relative_pairs = hs->relative_pairs;
    s->cap_blocked = hs->cap_blocked;
}

void hierarchy_matching_opts(const coarsen_hierarchy *h, int k, int32_t n, matching_opts *mo)
{
    matching_opts_default(mo);
    mo->kind = h->opts.matcher == COARSEN_MATCHER_REDBLUE ? MATCHER_REDBLUE
               : h->opts.matcher == COARSEN_MATCHER_HEC   ? MATCHER_HEC
                                                          : MATCHER_HANDSHAKE;
    mo->seed = hash3(h->opts.seed, (uint64_t)k, 0);
    mo->max_vertex_weight = hierarchy_level_cap(&h->opts, h->level[0].stats.total_vertex_weight, n);
    mo->hashed_ties = h->opts.hashed_ties;
    mo->rating = mo->kind == MATCHER_REDBLUE ? MATCH_RATING_WEIGHT : (match_rating)h->opts.rating; /* coarsen.h */
    mo->relatives_threshold = h->opts.two_hop_relatives;
}

/* Builds level k from level k - 1 (its figures into h->level[k].stats). *kept = 0
 * (and no graph stored) when the step would remove no vertex; the stats'
 * cap_blocked is set even then, for the stop reason. */
static int build_level(coarsen_hierarchy *h, const exec_backend *b, int k, int *kept, coarsen_error *err)
{
    const coarsen_graph *g = b->gpu ? h->level[k - 1].dev : h->level[k - 1].host;
    coarsen_level_stats *s = &h->level[k].stats;
    *s = (coarsen_level_stats){0};
    *kept = 0;

    matching_opts mo;
    hierarchy_matching_opts(h, k, g->n, &mo);
    s->vertex_weight_cap = mo.max_vertex_weight;

    int32_t *cmap = b->ints_alloc(g->n, "coarse map", err);
    if (!cmap)
        return COARSEN_ERR_NOMEM;
    double t0 = 0, t3 = 0;
    int32_t nc = 0;
    int rc = phase_clock(b, &t0, err);
    if (!rc)
        rc = mo.kind == MATCHER_HEC ? group_by_hec(b, g, &mo, cmap, &nc, s, t0, err)
                                    : group_by_matching(h, b, g, &mo, cmap, &nc, s, t0, err);
    if (rc || nc == g->n) {
        b->ints_free(cmap);
        return rc;
    }
    coarsen_graph *coarse = NULL;
    rc = b->contract(g, cmap, nc, &coarse, err);
    if (!rc)
        rc = phase_clock(b, &t3, err);
    if (!rc)
        rc = record_graph(b, coarse, s, err);
    if (rc) {
        b->ints_free(cmap);
        coarsen_graph_free(coarse);
        return rc;
    }
    if (b->gpu) {
        h->level[k].dev = coarse;
        h->level[k].dmap = cmap;
    } else {
        h->level[k].host = coarse;
        h->level[k].map = cmap;
    }
    if (mo.kind == MATCHER_HEC) /* the weight of the edges inside groups */
        s->matching_weight = h->level[k - 1].stats.total_edge_weight - s->total_edge_weight;
    s->contraction_ms = t3 - t0 - s->matching_ms - s->two_hop_ms;
    s->built_on_gpu = b->gpu;
    *kept = 1;
    return COARSEN_OK;
}

/* Bytes of a graph's four arrays (coarsen.h's CSR). */
static int64_t graph_bytes(int64_t n, int64_t nnz) { return 16 * n + 8 + 12 * nnz; }

/* Moves level j's graph and map to the host (where not there already) and
 * frees their device copies; hierarchy_device_graph / _map upload them again. */
static int evict_level(coarsen_hierarchy *h, int j, coarsen_error *err)
{
    const coarsen_graph *g = NULL;
    const int32_t *m = NULL;
    int rc = coarsen_hierarchy_graph(h, j, &g, err);
    if (!rc)
        rc = coarsen_hierarchy_map(h, j, &m, err);
    if (rc)
        return rc;
    coarsen_graph_free(h->level[j].dev);
    h->level[j].dev = NULL;
    device_free(h->level[j].dmap);
    h->level[j].dmap = NULL;
    return COARSEN_OK;
}

/* The device bytes the build may use: gpu_memory_factor times the input CSR
 * (plus the contraction bound's fixed slack), or without a factor 90 % of
 * what the device had free when the build started plus what the build held
 * then (the input's device copy). */
static int64_t device_budget(const coarsen_hierarchy *h)
{
    const int64_t input = graph_bytes(h->level[0].host->n, h->level[0].host->nnz);
    if (h->opts.gpu_memory_factor > 0)
        return (int64_t)(h->opts.gpu_memory_factor * (double)input) + contract_gpu_peak_bytes(0, 0);
    return (int64_t)(0.9 * (double)h->device_free_at_start) + input;
}

/* Before level k is built from level k - 1 on the GPU: frees the kept input
 * (level 0, keep_input_on_device) and then moves the oldest kept levels
 * 1..k-2 (graph and map) to the host until they, level k - 1,
 * its map, the matcher's mates, the device workspace (device.h: the
 * phases' and the contraction's temporaries; its size is final after level
 * 0's phases, the largest, so it is counted exactly from k = 2 on, and at
 * k = 1 nothing could be moved anyway; at least what the contraction takes)
 * and the coarse graph fit in the budget. Last, the workspace itself is
 * released when still over, and then grown to the contraction's main
 * buffer (contract_gpu_rows_bytes), which the level's phases share, so
 * that they do not replace it one after the other. A target, not a limit:
 * with nothing left to move, the build goes on. */
static int fit_device_budget(coarsen_hierarchy *h, int k, coarsen_error *err)
{
    const coarsen_graph *g = h->level[k - 1].dev;
    const int64_t budget = device_budget(h);
    const int64_t workspace = (int64_t)device_workspace_bytes(),
                  contraction = contract_gpu_workspace_bytes(g->n, g->nnz);
    int64_t need = graph_bytes(g->n, g->nnz) + 8 * (int64_t)g->n +
                   contract_gpu_peak_bytes(g->n, g->nnz) - contraction + /* the coarse graph */
                   (workspace > contraction ? workspace : contraction);
    for (int j = 1; j < k; j++) /* maps 1..k-1; map k-1 stays */
        need += h->level[j].dmap ? 4 * (int64_t)h->level[j - 1].stats.vertices : 0;
    for (int j = 0; j < k - 1; j++)
        need += h->level[j].dev ? graph_bytes(h->level[j].dev->n, h->level[j].dev->nnz) : 0;
    if (k > 1 && h->level[0].dev && need > budget) { /* the kept input goes first: the host holds it */
        need -= graph_bytes(h->level[0].dev->n, h->level[0].dev->nnz);
        coarsen_graph_free(h->level[0].dev);
        h->level[0].dev = NULL;
    }
    for (int j = 1; j < k - 1 && need > budget; j++) {
        if (!h->level[j].dev)
            continue;
        need -= graph_bytes(h->level[j].dev->n, h->level[j].dev->nnz) + 4 * (int64_t)h->level[j - 1].stats.vertices;
        int rc = evict_level(h, j, err);
        if (rc)
            return rc;
    }
    if (need > budget)
        device_workspace_release();
    /* grown once for the level: the phases and the contraction's main
     * buffer take it in turn without replacing it */
    return device_workspace_reserve((size_t)contract_gpu_rows_bytes(g->n, g->nnz), "level workspace", err);
}

/* Records why the step with figures s, which kept nc of its finer level's
 * n vertices, stalled: the cap when the vertices it kept apart, merged in
 * pairs, would have met min_reduction (coarsen.h, COARSEN_STOP_VERTEX_WEIGHT),
 * min-reduction otherwise. */
static void stall(coarsen_hierarchy *h, int32_t n, int32_t nc, const coarsen_level_stats *s)
{
    const int64_t blocked = s->cap_blocked;
    h->stop = blocked > 0 && (double)nc - (double)(blocked / 2) <= (1.0 - h->opts.min_reduction) * (double)n
                  ? COARSEN_STOP_VERTEX_WEIGHT
                  : COARSEN_STOP_MIN_REDUCTION;
    h->stall_cap = s->vertex_weight_cap;
    h->stall_blocked = blocked;
}

/* The backend that builds the next level from `cur`: the run's, except that
 * the GPU hands a level of at most host_below vertices, and every level after
 * it, to the host (the level's graph is downloaded once, here). */
static int level_backend(coarsen_hierarchy *h, const exec_backend **b, coarsen_error *err)
{
    if (!(*b)->gpu || h->opts.host_below <= 0 || h->level[h->levels].stats.vertices > h->opts.host_below)
        return COARSEN_OK;
    const coarsen_graph *g = NULL;
    int rc = coarsen_hierarchy_graph(h, h->levels, &g, err);
    if (!rc)
        *b = exec_backend_cpu();
    return rc;
}

/* Adds levels until a stopping rule holds; sets h->stop. */
static int build_levels(coarsen_hierarchy *h, const exec_backend *b, coarsen_error *err)
{
    for (;;) {
        int stop = interrupt_check(err); /* between levels: SIGINT or SIGTERM */
        if (stop)
            return stop;
        if (hierarchy_stop_before(h))
            return COARSEN_OK;
        int kept = 0;
        int rc = level_backend(h, &b, err);
        if (!rc && b->gpu)
            rc = fit_device_budget(h, h->levels + 1, err);
        /* CPU: threads by the level's size */
        int threads = threads_limit(b->gpu ? INT64_MAX : 2 * h->level[h->levels].stats.edges);
        if (!rc)
            rc = build_level(h, b, h->levels + 1, &kept, err);
        threads_restore(threads);
        if (rc)
            return rc;
        if (kept && h->levels == 0 && h->on_gpu && !h->opts.keep_input_on_device) {
            coarsen_graph_free(h->level[0].dev); /* level 0 is the caller's host graph */
            h->level[0].dev = NULL;
        }
        if (hierarchy_level_done(h, kept))
            return COARSEN_OK;
    }
}

int hierarchy_stop_before(coarsen_hierarchy *h)
{
    const coarsen_hierarchy_opts *o = &h->opts;
    const coarsen_level_stats *cur = &h->level[h->levels].stats;
    if (h->levels >= o->levels) {
        h->stop = COARSEN_STOP_LEVELS;
        return 1;
    }
    if (o->coarsen_to > 0 && cur->vertices <= o->coarsen_to) {
        h->stop = COARSEN_STOP_COARSEN_TO;
        return 1;
    }
    h->stop = COARSEN_STOP_NO_EDGES;
    return cur->edges == 0; /* nothing to match or pair */
}

int hierarchy_level_done(coarsen_hierarchy *h, int kept)
{
    const coarsen_hierarchy_opts *o = &h->opts;
    const coarsen_level_stats *cur = &h->level[h->levels].stats;
    if (!kept) {
        stall(h, cur->vertices, cur->vertices, &h->level[h->levels + 1].stats);
        return 1;
    }
    h->levels++;
    if (o->on_level)
        o->on_level(h->levels, &h->level[h->levels].stats, o->ctx);
    const coarsen_level_stats *next = &h->level[h->levels].stats;
    if ((double)next->vertices > (1.0 - o->min_reduction) * (double)cur->vertices) {
        stall(h, cur->vertices, next->vertices, next);
        return 1;
    }
    return 0;
}

int hierarchy_build_rest_cpu(coarsen_hierarchy *h, coarsen_error *err)
{
    if (!h->level[h->levels].host)
        return error_set(err, COARSEN_ERR_INPUT, "hierarchy: level %d has no host graph to go on from", h->levels);
    return build_levels(h, exec_backend_cpu(), err);
}

int hierarchy_contract_input(coarsen_hierarchy *h, const coarsen_graph *g, const coarsen_graph *dg,
                             coarsen_error *err)
{
    if (!g || g->on_device || g->n != h->level[0].stats.vertices || (dg && (!h->on_gpu || dg->n != g->n)))
        return error_set(err, COARSEN_ERR_INPUT,
                         "hierarchy_contract_input needs a host graph of %d vertices (and its device copy only "
                         "on the GPU)", h->level[0].stats.vertices);
    if (!h->input_dev_borrowed)
        coarsen_graph_free(h->level[0].dev); /* the old input's copy, if kept */
    h->level[0].dev = (coarsen_graph *)dg;
    h->input_dev_borrowed = dg != NULL;
    h->level[0].host = (coarsen_graph *)g; /* borrowed, as the build's input */
    int rc = record_graph(exec_backend_cpu(), g, &h->level[0].stats, err);
    for (int k = 1; k <= h->levels && !rc; k++) {
        hierarchy_level *l = &h->level[k];
        const exec_backend *b = exec_backend_of(l->dmap != NULL); /* where the level was built */
        const coarsen_graph *fine = NULL;
        coarsen_graph *coarse = NULL;
        rc = b->gpu ? hierarchy_device_graph(h, k - 1, &fine, err) : coarsen_hierarchy_graph(h, k - 1, &fine, err);
        if (!rc)
            rc = b->contract(fine, b->gpu ? l->dmap : l->map, l->stats.vertices, &coarse, err);
        if (rc)
            break;
        coarsen_graph_free(l->host);
        coarsen_graph_free(l->dev);
        l->host = b->gpu ? NULL : coarse;
        l->dev = b->gpu ? coarse : NULL;
        rc = record_graph(b, coarse, &l->stats, err);
    }
    if (h->on_gpu)
        device_workspace_release(); /* the contractions are over */
    return rc;
}

int hierarchy_create(const coarsen_graph *g, const coarsen_hierarchy_opts *opts, coarsen_hierarchy **out,
                     coarsen_error *err)
{
    *out = NULL;
    int rc = check_opts(opts, err);
    if (rc)
        return rc;
    coarsen_hierarchy *h = xcalloc(1, sizeof *h, "hierarchy", err);
    if (!h)
        return COARSEN_ERR_NOMEM;
    h->opts = *opts;
    h->level = xcalloc((size_t)opts->levels + 1, sizeof *h->level, "hierarchy levels", err);
    if (!h->level) {
        coarsen_hierarchy_free(h);
        return COARSEN_ERR_NOMEM;
    }
    h->level[0].host = (coarsen_graph *)g; /* borrowed: never freed here */
    *out = h;
    return COARSEN_OK;
}

int coarsen_hierarchy_build(const coarsen_graph *g, const coarsen_hierarchy_opts *opts, coarsen_hierarchy **out,
                            coarsen_error *err)
{
    *out = NULL;
    coarsen_hierarchy_opts defaults;
    if (!opts) {
        coarsen_hierarchy_opts_default(&defaults);
        opts = &defaults;
    }
    if (!g || g->on_device)
        return error_set(err, COARSEN_ERR_INPUT, "coarsen_hierarchy_build needs a host graph");
    coarsen_hierarchy *h = NULL;
    int rc = hierarchy_create(g, opts, &h, err);
    if (rc)
        return rc;
    int use_gpu = 0, wants_gpu = 0;
    device_auto_decide((device_mode)opts->device, g->nnz, threads_available(), &wants_gpu, h->device_reason,
                       (int)sizeof h->device_reason);
    if (wants_gpu && (rc = device_select((device_mode)opts->device, &use_gpu, err))) {
        coarsen_hierarchy_free(h);
        return rc;
    }
    if (wants_gpu && !use_gpu)
        snprintf(h->device_reason, sizeof h->device_reason, "auto: no usable GPU; --device gpu to require one");
    h->on_gpu = use_gpu;
    const exec_backend *b = exec_backend_of(use_gpu);
    double start = timer_ms();
    if (use_gpu) {
        rc = device_graph_upload(g, &h->level[0].dev, err);
        h->transfer_ms = timer_ms() - start;
        h->device_free_at_start = (int64_t)device_memory_free();
    }
    if (!rc)
        rc = record_graph(b, use_gpu ? h->level[0].dev : g, &h->level[0].stats, err);
    if (!rc)
        rc = build_levels(h, b, err);
    if (use_gpu)
        device_workspace_release(); /* the build's phases are over */
    h->total_ms = timer_ms() - start;
    if (rc) {
        coarsen_hierarchy_free(h);
        return rc;
    }
    *out = h;
    return COARSEN_OK;
}

int coarsen_hierarchy_levels(const coarsen_hierarchy *h) { return h->levels; }
int coarsen_hierarchy_on_gpu(const coarsen_hierarchy *h) { return h->on_gpu; }
int hierarchy_level_on_device(const coarsen_hierarchy *h, int k)
{
    return k >= 0 && k <= h->levels && h->level[k].dev != NULL;
}
const char *coarsen_hierarchy_device_reason(const coarsen_hierarchy *h) { return h->device_reason; }
coarsen_stop_reason coarsen_hierarchy_stop_reason(const coarsen_hierarchy *h) { return h->stop; }
double coarsen_hierarchy_total_ms(const coarsen_hierarchy *h) { return h->total_ms; }
double coarsen_hierarchy_transfer_ms(const coarsen_hierarchy *h) { return h->transfer_ms; }
double coarsen_hierarchy_download_ms(const coarsen_hierarchy *h) { return h->download_ms; }

const coarsen_level_stats *coarsen_hierarchy_stats(const coarsen_hierarchy *h, int k)
{
    return k >= 0 && k <= h->levels ? &h->level[k].stats : NULL;
}

int coarsen_hierarchy_graph(coarsen_hierarchy *h, int k, const coarsen_graph **out, coarsen_error *err)
{
    *out = NULL;
    if (k < 0 || k > h->levels)
        return error_set(err, COARSEN_ERR_INPUT, "level %d out of range 0..%d", k, h->levels);
    if (!h->level[k].host) {
        double t0 = timer_ms();
        int rc = device_graph_download(h->level[k].dev, &h->level[k].host, err);
        h->download_ms += timer_ms() - t0;
        if (rc)
            return rc;
    }
    *out = h->level[k].host;
    return COARSEN_OK;
}

int coarsen_hierarchy_map(coarsen_hierarchy *h, int k, const int32_t **out, coarsen_error *err)
{
    *out = NULL;
    if (k < 1 || k > h->levels)
        return error_set(err, COARSEN_ERR_INPUT, "map %d out of range 1..%d", k, h->levels);
    if (!h->level[k].map) {
        size_t bytes = (size_t)h->level[k - 1].stats.vertices * sizeof(int32_t);
        int32_t *m = xmalloc(bytes, "coarse map", err);
        if (!m)
            return COARSEN_ERR_NOMEM;
        double t0 = timer_ms();
        int rc = device_copy_to_host(m, h->level[k].dmap, bytes, err);
        h->download_ms += timer_ms() - t0;
        if (rc) {
            free(m);
            return rc;
        }
        h->level[k].map = m;
    }
    *out = h->level[k].map;
    return COARSEN_OK;
}

int hierarchy_device_graph(coarsen_hierarchy *h, int k, const coarsen_graph **out, coarsen_error *err)
{
    *out = NULL;
    if (!h->on_gpu || k < 0 || k > h->levels)
        return error_set(err, COARSEN_ERR_INPUT, "no device level %d (0..%d on the GPU)", k, h->levels);
    if (!h->level[k].dev) {
        int rc = device_graph_upload(h->level[k].host, &h->level[k].dev, err);
        if (rc)
            return rc;
    }
    *out = h->level[k].dev;
    return COARSEN_OK;
}

int hierarchy_device_map(coarsen_hierarchy *h, int k, const int32_t **out, coarsen_error *err)
{
    *out = NULL;
    if (!h->on_gpu || k < 1 || k > h->levels)
        return error_set(err, COARSEN_ERR_INPUT, "no device map %d (1..%d on the GPU)", k, h->levels);
    if (!h->level[k].dmap) {
        size_t bytes = (size_t)h->level[k - 1].stats.vertices * sizeof(int32_t);
        void *d = NULL;
        int rc = device_alloc(&d, bytes, "coarse map", err);
        if (!rc)
            rc = device_copy_to_device(d, h->level[k].map, bytes, err);
        if (rc) {
            device_free(d);
            return rc;
        }
        h->level[k].dmap = d;
    }
    *out = h->level[k].dmap;
    return COARSEN_OK;
}

void coarsen_hierarchy_free(coarsen_hierarchy *h)
{
    if (!h)
        return;
    for (int k = 0; h->level && k <= h->opts.levels; k++) {
        hierarchy_level *l = &h->level[k];
        if (k > 0) /* level 0's host graph is the caller's */
            coarsen_graph_free(l->host);
        free(l->map);
        if (k > 0 || !h->input_dev_borrowed)
            coarsen_graph_free(l->dev);
        device_free(l->dmap);
    }
    free(h->level);
    free(h);
}

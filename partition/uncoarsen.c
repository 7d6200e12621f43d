/* uncoarsen.c — the way up a hierarchy, shared by the first multilevel
 * cycle (multilevel.c) and the V-cycles (vcycle.c): each level's
 * rebalancing (when a part exceeds the level's cap), label-propagation
 * refinement and FM polish (on the host, at the levels of at most
 * polish_edges edges), and the level-by-level projection, with the part
 * array on the device between levels on the GPU backend (the rebalancing,
 * rare, and the polish run on host copies). */
#include "partition/partition.h"

#include <stdlib.h>

#include "coarsen/hierarchy.h"
#include "core/error.h"
#include "core/threads.h"
#include "core/timer.h"
#include "device/device.h"
#include "exec/backend.h"

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

int partition_refine_level(coarsen_hierarchy *h, int lv, const coarsen_graph *dg, const partition_opts *o,
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

int partition_uncoarsen(coarsen_hierarchy *h, const partition_opts *o, int32_t *coarse, int32_t *fine,
                        int32_t *part, partition_level_report *rep, double *polish_ms, coarsen_error *err)
{
    const coarsen_graph *g = NULL;
    int rc = coarsen_hierarchy_graph(h, 0, &g, err);
    if (rc)
        return rc;
    int L = coarsen_hierarchy_levels(h), gpu = coarsen_hierarchy_on_gpu(h);
    int32_t *dpart[2] = {NULL, NULL};
    if (gpu) {
        for (int s = 0; s < 2 && !rc; s++)
            rc = device_alloc((void **)&dpart[s], ((size_t)g->n + 1) * sizeof(int32_t), "device parts", err);
        if (!rc)
            rc = device_copy_to_device(dpart[0], coarse,
                                       (size_t)coarsen_hierarchy_stats(h, L)->vertices * sizeof(int32_t), err);
    }
    for (int lv = L; lv >= 1 && !rc; lv--) {
        /* projection keeps the cut, and integer cuts are exact sums */
        double projected = g->integral_weights ? rep[lv].cut_refined : -1;
        if (gpu) {
            const coarsen_graph *dg = NULL;
            const int32_t *dmap = NULL;
            rc = hierarchy_device_graph(h, lv - 1, &dg, err); /* uploads level 0 again if it was let go */
            if (!rc)
                rc = hierarchy_device_map(h, lv, &dmap, err);
            if (!rc)
                rc = exec_backend_gpu()->project(dg->n, dmap, dpart[0], dpart[1], err);
            if (!rc)
                rc = partition_refine_level(h, lv - 1, dg, o, dpart[1], projected, &rep[lv - 1], polish_ms, err);
            int32_t *t = dpart[0];
            dpart[0] = dpart[1];
            dpart[1] = t;
        } else {
            const int32_t *map = NULL;
            const coarsen_graph *fg = NULL;
            rc = coarsen_hierarchy_map(h, lv, &map, err);
            if (!rc)
                rc = coarsen_hierarchy_graph(h, lv - 1, &fg, err);
            if (!rc)
                rc = exec_backend_cpu()->project(fg->n, map, coarse, fine, err);
            if (!rc)
                rc = partition_refine_level(h, lv - 1, NULL, o, fine, projected, &rep[lv - 1], polish_ms, err);
            int32_t *t = coarse;
            coarse = fine;
            fine = t;
        }
    }
    if (!rc && gpu)
        rc = device_copy_to_host(part, dpart[0], (size_t)g->n * sizeof *part, err);
    else if (!rc)
        for (int32_t v = 0; v < g->n; v++)
            part[v] = coarse[v];
    for (int s = 0; s < 2; s++)
        device_free(dpart[s]);
    return rc;
}

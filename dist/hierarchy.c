/* hierarchy.c — the level loop of the distributed hierarchy (dist.h):
 * the single-process stopping rules, caps and seeds (coarsen/hierarchy.h's
 * hierarchy_* entry points), each level matched, mapped and contracted
 * across the ranks and gathered to rank 0, and the hand-over to the
 * single-process build on rank 0. */
#include "dist/dist.h"

#include <stdio.h>
#include <stdlib.h>

#include "coarsen/hierarchy.h"
#include "core/error.h"
#include "core/timer.h"
#include "dist/contract.h"
#include "dist/gather.h"
#include "dist/handshake.h"
#include "dist/hec.h"
#include "dist/map.h"
#if COARSEN_HAVE_NCCL
#include "dist/nccl.h"
#endif
#include "dist/redblue.h"
#include "dist/two_hop.h"
#include "matching/match_weight.h"

/* Builds level k from *cur across the ranks (match, two-hop pairing when
 * hierarchy.c would run it, map; or HEC's groups; contract): *kept says whether the level
 * removed a vertex, and when it did *cur becomes the coarse level and rank 0
 * stores its graph and map in h. Every rank ends with rank 0's figures of
 * level k. */
static int dist_level(coarsen_hierarchy *h, dist_graph *cur, int k, int *kept, MPI_Comm comm, coarsen_error *err)
{
    coarsen_level_stats *s = &h->level[k].stats;
    *s = (coarsen_level_stats){0};
    *kept = 0;
    matching_opts mo;
    hierarchy_matching_opts(h, k, cur->n, &mo);
    s->vertex_weight_cap = mo.max_vertex_weight;
    const int32_t n = cur->n;
    double t0 = timer_ms();
    dist_ghosts gh;
    int rc = dist_ghosts_build(cur, comm, &gh, err);
    if (rc)
        MPI_Abort(comm, rc); /* the others are in the matcher (dist.h) */
    int32_t *cmap = xmalloc((size_t)(gh.nlocal + gh.nghost + 1) * sizeof *cmap, "coarse map", err);
    int64_t *cvtx = cmap ? xmalloc(((size_t)cur->nranks + 1) * sizeof *cvtx, "coarse vtxdist", err) : NULL;
    if (!cvtx)
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    int32_t nc = 0;
    double t1, t2;
    if (mo.kind == MATCHER_HEC) { /* groups, not pairs: hierarchy.c's group_by_hec */
        hec_stats hs;
        rc = dist_hec(cur, &gh, &mo, cmap, &nc, cvtx, &hs, comm, err);
        t1 = t2 = timer_ms();
        hierarchy_record_hec(&hs, n, nc, s);
        s->matching_ms = t1 - t0;
    } else {
        int32_t *mate = xmalloc((size_t)(cur->local->n + 1) * sizeof *mate, "matching", err);
        if (!mate)
            MPI_Abort(comm, COARSEN_ERR_NOMEM);
        int passes = 0;
        int64_t matched = 0;
        if (mo.kind == MATCHER_REDBLUE)
            dist_redblue(cur, &gh, &mo, mate, &passes, &matched, comm, err);
        else
            dist_handshake(cur, &gh, &mo, mate, &passes, &matched, comm, err);
        /* the matching's figures, as match_measure_cpu takes them before two-hop, on rank 0 */
        int32_t *all_mates = NULL;
        double g0 = timer_ms();
        dist_gather_ints(cur, mate, comm, &all_mates, err);
        h->gather_ms += timer_ms() - g0;
        if (cur->rank == 0) {
            s->matching_weight = match_weight_cpu(h->level[k - 1].host, all_mates, &s->matched_pairs);
            s->matched_fraction = n ? 2.0 * (double)s->matched_pairs / (double)n : 0;
        }
        free(all_mates);
        s->matching_passes = passes;
        t1 = t2 = timer_ms();
        s->matching_ms = t1 - t0;
        if ((double)(n - matched) > h->opts.two_hop_threshold * (double)n) { /* hierarchy.c's rule */
            const two_hop_opts to = {mo.max_vertex_weight, h->opts.two_hop_relatives};
            two_hop_stats ts;
            dist_two_hop(cur, &gh, &to, mate, &ts, comm, err);
            t2 = timer_ms();
            hierarchy_two_hop_figures(&ts, s);
            s->two_hop_ms = t2 - t1;
        }
        rc = dist_map_from_mates(cur, &gh, mate, cmap, &nc, cvtx, comm, err);
        free(mate);
    }
    if (rc) { /* the same on every rank (an MPI_Allreduce decided it) */
        free(cvtx);
        free(cmap);
        dist_ghosts_free(&gh);
        return rc;
    }
    if (nc == n) { /* no vertex removed: the level is not kept (hierarchy.c's build_level) */
        free(cvtx);
        free(cmap);
        dist_ghosts_free(&gh);
        MPI_Bcast(s, (int)sizeof *s, MPI_BYTE, 0, comm);
        return COARSEN_OK;
    }
    dist_graph coarse;
    dist_contract(cur, &gh, cmap, nc, cvtx, &coarse, comm, err);
    free(cvtx);
    double t3 = timer_ms();
    dist_ghosts_free(&gh);
    coarsen_graph *g = NULL;
    int32_t *map = NULL;
    double g1 = timer_ms();
    dist_gather_ints(cur, cmap, comm, &map, err);
    dist_gather_graph(&coarse, comm, &g, err);
    h->gather_ms += timer_ms() - g1;
    free(cmap);
    if (cur->rank == 0) {
        rc = hierarchy_record_graph(g, s, err);
        h->level[k].host = g;
        h->level[k].map = map;
        s->contraction_ms = t3 - t2;
        if (mo.kind == MATCHER_HEC) /* the weight of the edges inside groups, as hierarchy.c takes it */
            s->matching_weight = h->level[k - 1].stats.total_edge_weight - s->total_edge_weight;
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, comm);
    MPI_Bcast(s, (int)sizeof *s, MPI_BYTE, 0, comm);
    dist_graph_free(cur);
    *cur = coarse;
    *kept = 1;
    return rc;
}

int dist_hierarchy_build(const coarsen_graph *g, dist_graph *level0, const coarsen_hierarchy_opts *opts,
                         const dist_opts *d, MPI_Comm comm, coarsen_hierarchy **out, coarsen_error *err)
{
    *out = NULL;
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    coarsen_hierarchy *h = NULL;
    int rc = hierarchy_create(rank == 0 ? g : NULL, opts, &h, err), any = 0;
    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, comm); /* bad options fail everywhere, memory anywhere */
    if (any) {
        if (level0)
            dist_graph_free(level0);
        coarsen_hierarchy_free(h);
        return rc ? rc : error_set(err, any, "mpi: another rank could not start the hierarchy");
    }
    h->ranks = P;
    h->read_by_ranks = level0 != NULL;
    snprintf(h->device_reason, sizeof h->device_reason, "mpi: %d processes, CPU", P);
    double start = timer_ms();
    if (rank == 0)
        rc = hierarchy_record_graph(g, &h->level[0].stats, err);
    MPI_Bcast(&rc, 1, MPI_INT, 0, comm);
    MPI_Bcast(&h->level[0].stats, (int)sizeof h->level[0].stats, MPI_BYTE, 0, comm);
    const int distributable = !opts->refine_roma;
    MPI_Comm run = comm; /* the levels' communicator: with NCCL attached on GPUs (dist/nccl.h) */
#if COARSEN_HAVE_NCCL
    if (!rc && distributable && opts->device == COARSEN_DEVICE_GPU) { /* every matcher: the exchanges by NCCL */
        rc = dist_nccl_open(comm, &run, &h->gpus, err);
        const char *on_gpu = opts->matcher == COARSEN_MATCHER_HANDSHAKE ? ", handshake on the GPUs" : "";
        const char *on_cpu = opts->matcher == COARSEN_MATCHER_REDBLUE ? "red/blue, two-hop"
                             : opts->matcher == COARSEN_MATCHER_HEC   ? "HEC (its two-hop included)"
                                                                      : "two-hop";
        if (!rc)
            snprintf(h->device_reason, sizeof h->device_reason,
                     "mpi: %d processes on %d GPUs: exchanges by NCCL%s; ghost plan, %s, map and contraction on "
                     "the CPU",
                     P, h->gpus, on_gpu, on_cpu);
    }
#endif
    const int distributed = !rc && distributable;
    int handover = !rc && !distributed;
    dist_graph cur;
    if (distributed && level0)
        cur = *level0;
    else if (distributed)
        rc = dist_graph_scatter(g, run, &cur, err);
    if (level0 && !distributed)
        dist_graph_free(level0);
    while (distributed && !rc) {
        if (hierarchy_stop_before(h))
            break;
        if (cur.n <= d->gather_below) {
            handover = 1;
            break;
        }
        int kept = 0;
        rc = dist_level(h, &cur, h->levels + 1, &kept, run, err);
        h->distributed_levels += kept;
        if (rc || hierarchy_level_done(h, kept))
            break;
    }
    if (distributed)
        dist_graph_free(&cur);
#if COARSEN_HAVE_NCCL
    if (run != comm)
        dist_nccl_close(&run);
#endif
    if (!rc && handover && rank == 0)
        rc = hierarchy_build_rest_cpu(h, err);
    h->total_ms = timer_ms() - start;
    MPI_Bcast(&rc, 1, MPI_INT, 0, comm); /* rank 0's verdict for all */
    if (rc || rank != 0) {
        coarsen_hierarchy_free(h);
        return rc;
    }
    *out = h;
    return COARSEN_OK;
}

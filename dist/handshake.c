/* handshake.c — the distributed handshake (handshake.h). The per-vertex
 * choice applies edge_order.h's rules (pair_eligible, edge_rating, tie_rank,
 * edge_better) exactly as match_best_neighbour_cpu does, on extended indices
 * (ghosts.h) instead of global arrays. */
#include "dist/handshake.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "matching/edge_order.h"
#if COARSEN_HAVE_NCCL
#include "dist/nccl.h"
#endif

int32_t dist_best_neighbour(const coarsen_graph *l, const int32_t *ladj, int32_t v, const int64_t *vw,
                            const uint8_t *taken, const matching_opts *mo, tie_rule ties, double *key)
{
    const int64_t cap = mo->max_vertex_weight, vwv = vw[v];
    int32_t best = -1, best_rank = -1;
    double best_w = 0.0;
    for (int64_t e = l->xadj[v]; e < l->xadj[v + 1]; e++) {
        int32_t x = ladj[e];
        if ((taken && taken[x]) || !pair_eligible(cap, vwv, vw[x]))
            continue;
        int32_t rank = tie_rank(ties, l->adj[e]);
        double k = edge_rating(mo->rating, l->ewgt[e], vwv, vw[x]);
        if (edge_better(k, rank, best_w, best_rank))
            best = x, best_rank = rank, best_w = k;
    }
    if (key)
        *key = best_w;
    return best;
}

int dist_handshake(const dist_graph *d, const dist_ghosts *gh, const matching_opts *mo, int32_t *mate,
                   int *passes, int64_t *matched, MPI_Comm comm, coarsen_error *err)
{
#if COARSEN_HAVE_NCCL
    if (dist_nccl_handshake(d, gh, mo, mate, passes, matched, comm)) /* the passes on the GPUs (dist/nccl.h) */
        return COARSEN_OK;
#endif
    const coarsen_graph *l = d->local;
    const int32_t nl = gh->nlocal, next = gh->nlocal + gh->nghost;
    const tie_rule ties = match_ties(mo);
    int64_t *vw = xmalloc((size_t)(next ? next : 1) * sizeof *vw, "handshake weights", err);
    uint8_t *taken = vw ? xmalloc((size_t)(next ? next : 1), "handshake status", err) : NULL;
    int32_t *ptr = taken ? xmalloc((size_t)(next ? next : 1) * sizeof *ptr, "handshake pointers", err) : NULL;
    int32_t *choice = ptr ? xmalloc((size_t)(nl ? nl : 1) * sizeof *choice, "handshake choices", err) : NULL;
    int32_t *act = choice ? xmalloc((size_t)(nl ? nl : 1) * sizeof *act, "handshake active list", err) : NULL;
    if (!act)
        MPI_Abort(comm, COARSEN_ERR_NOMEM); /* the others are in the exchanges below (dist.h) */
    memcpy(vw, l->vwgt, (size_t)nl * sizeof *vw);
    dist_ghosts_exchange(gh, vw, sizeof *vw, comm, err);
    memset(taken, 0, (size_t)next);
    for (int32_t x = 0; x < next; x++)
        ptr[x] = -1;
    for (int32_t v = 0; v < nl; v++)
        mate[v] = -1, act[v] = v;
    int64_t count = nl, global = 0, local_count = nl;
    MPI_Allreduce(&local_count, &global, 1, MPI_INT64_T, MPI_SUM, comm);
    *passes = 0;
    while (global > 0 && (mo->max_passes == 0 || *passes < mo->max_passes)) {
        dist_ghosts_exchange(gh, taken, 1, comm, err); /* who was matched by the last pass */
#pragma omp parallel for schedule(dynamic, 256) if (count > 4096)
        for (int64_t i = 0; i < count; i++) {
            int32_t v = act[i];
            choice[v] = dist_best_neighbour(l, gh->ladj, v, vw, taken, mo, ties, NULL);
            ptr[v] = choice[v] >= 0 ? dist_ghosts_gid(d, gh, choice[v]) : -1;
        }
        dist_ghosts_exchange(gh, ptr, sizeof *ptr, comm, err);
        /* mutual pointers match; the status flags change only after all are read */
        for (int64_t i = 0; i < count; i++) {
            int32_t v = act[i], c = choice[v];
            if (c >= 0 && ptr[c] == d->first + v)
                mate[v] = ptr[v];
        }
        int64_t kept = 0;
        for (int64_t i = 0; i < count; i++) {
            int32_t v = act[i];
            if (mate[v] >= 0)
                taken[v] = 1;
            else if (choice[v] >= 0)
                act[kept++] = v;
        }
        count = kept;
        local_count = count;
        MPI_Allreduce(&local_count, &global, 1, MPI_INT64_T, MPI_SUM, comm);
        ++*passes;
    }
    int64_t m = 0;
    for (int32_t v = 0; v < nl; v++)
        m += mate[v] >= 0;
    MPI_Allreduce(&m, matched, 1, MPI_INT64_T, MPI_SUM, comm);
    free(act), free(choice), free(ptr), free(taken), free(vw);
    return COARSEN_OK;
}

/* redblue.c — the distributed red/blue matcher (redblue.h). The proposal
 * and the acceptance apply redblue_cpu.c's rules (redblue_rules.h's colours
 * and keys, edge_order.h's eligibility, tie ranks and order) to global ids,
 * on extended indices (ghosts.h). */
#include "dist/redblue.h"

#include <stdlib.h>
#include <string.h>

#include "dist/collective.h"
#include "matching/edge_order.h"
#include "matching/redblue_rules.h"

/* The key of edge (v, u) of weight w under salt (redblue_cpu.c's rb_key). */
static double rb_key(const matching_opts *o, uint64_t salt, int32_t r, int32_t v, int32_t u, double w)
{
    return o->weighted ? w : redblue_random_key(o->seed, salt, r, v, u);
}

/* Blue local v: its best eligible unmatched red neighbour as an extended
 * index, or -1; *alive [out]: whether any eligible unmatched neighbour is
 * left (for every v). */
static int32_t propose(const dist_graph *d, const dist_ghosts *gh, const matching_opts *o, int32_t r, int32_t v,
                       const int64_t *vw, const uint8_t *taken, uint8_t *alive)
{
    const coarsen_graph *l = d->local;
    const tie_rule ties = match_ties(o);
    const int blue = redblue_is_blue(o->seed, r, d->first + v, o->p);
    int32_t best = -1, best_rank = -1;
    double best_k = 0.0;
    int live = 0;
    for (int64_t e = l->xadj[v]; e < l->xadj[v + 1]; e++) {
        const int32_t x = gh->ladj[e], u = l->adj[e];
        if (taken[x] || !pair_eligible(o->max_vertex_weight, vw[v], vw[x]))
            continue;
        live = 1;
        if (!blue || redblue_is_blue(o->seed, r, u, o->p))
            continue;
        double k = rb_key(o, REDBLUE_SALT_PROPOSE, r, d->first + v, u, l->ewgt[e]);
        int32_t rank = tie_rank(ties, u);
        if (edge_better(k, rank, best_k, best_rank))
            best = x, best_rank = rank, best_k = k;
    }
    *alive = (uint8_t)live;
    return best;
}

/* Red local v: its best proposer as an extended index, or -1. */
static int32_t accept(const dist_graph *d, const dist_ghosts *gh, const matching_opts *o, int32_t r, int32_t v,
                      const int32_t *prop)
{
    const coarsen_graph *l = d->local;
    const tie_rule ties = match_ties(o);
    int32_t best = -1, best_rank = -1;
    double best_k = 0.0;
    for (int64_t e = l->xadj[v]; e < l->xadj[v + 1]; e++) {
        const int32_t x = gh->ladj[e], u = l->adj[e];
        if (prop[x] != d->first + v)
            continue;
        double k = rb_key(o, REDBLUE_SALT_ACCEPT, r, d->first + v, u, l->ewgt[e]);
        int32_t rank = tie_rank(ties, u);
        if (edge_better(k, rank, best_k, best_rank))
            best = x, best_rank = rank, best_k = k;
    }
    return best;
}

int dist_redblue(const dist_graph *d, const dist_ghosts *gh, const matching_opts *mo, int32_t *mate, int *passes,
                 int64_t *matched, MPI_Comm comm, coarsen_error *err)
{
    const int32_t nl = gh->nlocal, next = gh->nlocal + gh->nghost;
    int64_t *vw = dist_alloc((size_t)next, sizeof *vw, "red/blue weights", comm, err);
    uint8_t *taken = dist_alloc((size_t)next, 1, "red/blue status", comm, err);
    int32_t *prop = dist_alloc((size_t)next, sizeof *prop, "red/blue proposals", comm, err);
    int32_t *emate = dist_alloc((size_t)next, sizeof *emate, "red/blue mates", comm, err);
    int32_t *choice = dist_alloc((size_t)nl, sizeof *choice, "red/blue choices", comm, err);
    int32_t *act = dist_alloc((size_t)nl, sizeof *act, "red/blue active list", comm, err);
    uint8_t *alive = dist_alloc((size_t)nl, 1, "red/blue status", comm, err);
    memcpy(vw, d->local->vwgt, (size_t)nl * sizeof *vw);
    dist_ghosts_exchange(gh, vw, sizeof *vw, comm, err);
    memset(taken, 0, (size_t)next);
    for (int32_t x = 0; x < next; x++)
        prop[x] = -1, emate[x] = -1;
    for (int32_t v = 0; v < nl; v++)
        act[v] = v;
    int64_t count = nl, global = 0;
    MPI_Allreduce(&count, &global, 1, MPI_INT64_T, MPI_SUM, comm);
    const int max_rounds = mo->max_passes ? mo->max_passes : MATCH_REDBLUE_DEFAULT_ROUNDS;
    int32_t r = 0;
    for (; global > 0 && r < max_rounds; r++) {
        dist_ghosts_exchange(gh, taken, 1, comm, err); /* who was matched by the last round */
#pragma omp parallel for schedule(dynamic, 256) if (count > 4096)
        for (int64_t i = 0; i < count; i++) {
            const int32_t v = act[i];
            choice[v] = propose(d, gh, mo, r, v, vw, taken, &alive[v]);
            prop[v] = choice[v] >= 0 ? dist_ghosts_gid(d, gh, choice[v]) : -1;
        }
        dist_ghosts_exchange(gh, prop, sizeof *prop, comm, err);
        /* a red vertex takes its best proposer; a local proposer learns it here,
         * a ghost one from the exchange of mates below */
#pragma omp parallel for schedule(dynamic, 256) if (count > 4096)
        for (int64_t i = 0; i < count; i++) {
            const int32_t v = act[i];
            if (redblue_is_blue(mo->seed, r, d->first + v, mo->p))
                continue;
            const int32_t b = accept(d, gh, mo, r, v, prop);
            if (b >= 0) { /* b proposed to v only: no other thread writes emate[b] */
                emate[v] = dist_ghosts_gid(d, gh, b);
                if (b < nl)
                    emate[b] = d->first + v;
            }
        }
        dist_ghosts_exchange(gh, emate, sizeof *emate, comm, err);
        int64_t kept = 0;
        for (int64_t i = 0; i < count; i++) {
            const int32_t v = act[i], c = choice[v];
            if (emate[v] < 0 && c >= nl && emate[c] == d->first + v) /* accepted on another rank */
                emate[v] = prop[v];
            if (emate[v] >= 0)
                taken[v] = 1;
            else if (alive[v])
                act[kept++] = v;
        }
        count = kept;
        MPI_Allreduce(&count, &global, 1, MPI_INT64_T, MPI_SUM, comm);
    }
    *passes = r;
    int64_t m = 0;
    for (int32_t v = 0; v < nl; v++)
        m += (mate[v] = emate[v]) >= 0;
    MPI_Allreduce(&m, matched, 1, MPI_INT64_T, MPI_SUM, comm);
    free(alive), free(act), free(choice), free(emate), free(prop), free(taken), free(vw);
    return COARSEN_OK;
}

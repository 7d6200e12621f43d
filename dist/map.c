/* map.c — the distributed map from group leaders (map.h). A leader takes
 * the next id; a member reads it, from this rank or, by one request and one
 * reply, from the leader's owner, which also adds the member's row to the
 * group's weight for the coarse blocks. */
#include "dist/map.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/collective.h"

int dist_map_from_leaders(const dist_graph *d, const dist_ghosts *gh, const int32_t *leader, const int32_t *mate,
                          int32_t *cmap, int32_t *nc, int64_t *cvtx, uint8_t *multi, MPI_Comm comm,
                          coarsen_error *err)
{
    const int P = d->nranks;
    const coarsen_graph *l = d->local;
    const int32_t nl = gh->nlocal, lo = d->first, hi = d->first + nl;
    int64_t leaders = 0, before = 0;
    for (int32_t v = 0; v < nl; v++)
        leaders += leader[v] == lo + v;
    MPI_Exscan(&leaders, &before, 1, MPI_INT64_T, MPI_SUM, comm);
    if (d->rank == 0)
        before = 0; /* MPI_Exscan leaves rank 0's result undefined */
    int64_t total = 0;
    MPI_Allreduce(&leaders, &total, 1, MPI_INT64_T, MPI_SUM, comm);
    /* w: each group's fine rows (1 + length each), summed at its leader */
    int64_t *w = dist_alloc((size_t)nl, sizeof *w, "coarse blocks", comm, err);
    int32_t next = (int32_t)before;
    for (int32_t v = 0; v < nl; v++) {
        const int leads = leader[v] == lo + v;
        cmap[v] = leads ? next++ : -1;
        w[v] = leads ? 1 + l->xadj[v + 1] - l->xadj[v] : 0;
        if (multi)
            multi[v] = 0;
    }
    /* members: a leader here is read directly, one elsewhere asked for as
     * (leader, member, row length), answered with its id after checking it */
    int *c = dist_alloc(4 * (size_t)P, sizeof *c, "map plan", comm, err);
    int *sc = c, *sd = c + P, *rc = c + 2 * P, *rd = c + 3 * P;
    memset(sc, 0, (size_t)P * sizeof *sc);
    int bad = 0;
    for (int32_t v = 0; v < nl; v++) {
        const int32_t a = leader[v];
        if (cmap[v] >= 0)
            continue;
        if (a >= lo && a < hi) {
            const int32_t u = a - lo;
            if (leader[u] != a || (mate && mate[u] != lo + v)) {
                bad = 1;
            } else {
                cmap[v] = cmap[u];
                w[u] += 1 + l->xadj[v + 1] - l->xadj[v];
                if (multi)
                    multi[u] = 1;
            }
        } else if (a < 0 || a >= d->n) {
            bad = 1;
        } else {
            sc[dist_owner(d->vtxdist, P, a)] += 3;
        }
    }
    const int64_t nr = dist_exchange_counts(sc, sd, rc, rd, P, comm);
    const int64_t ns = (int64_t)sd[P - 1] + sc[P - 1];
    int32_t *ask = dist_alloc((size_t)ns, sizeof *ask, "map requests", comm, err);
    int32_t *asked = dist_alloc((size_t)nr, sizeof *asked, "map requests", comm, err);
    int *fill = dist_alloc((size_t)P, sizeof *fill, "map plan", comm, err);
    memcpy(fill, sd, (size_t)P * sizeof *fill);
    for (int32_t v = 0; v < nl; v++)
        if (cmap[v] < 0 && !(leader[v] >= lo && leader[v] < hi) && leader[v] >= 0 && leader[v] < d->n) {
            const int r = dist_owner(d->vtxdist, P, leader[v]);
            ask[fill[r]++] = leader[v];
            ask[fill[r]++] = lo + v;
            ask[fill[r]++] = (int32_t)(l->xadj[v + 1] - l->xadj[v]);
        }
    dist_alltoallv_records(ask, sc, sd, asked, rc, rd, sizeof *ask, comm);
    for (int64_t j = 0; j < nr; j += 3) { /* the answer replaces the leader's id; the other slots are unused */
        const int32_t u = asked[j] - lo;
        if (leader[u] != asked[j] || (mate && mate[u] != asked[j + 1]))
            bad = 1;
        w[u] += 1 + (int64_t)asked[j + 2];
        if (multi)
            multi[u] = 1;
        asked[j] = cmap[u];
    }
    dist_alltoallv_records(asked, rc, rd, ask, sc, sd, sizeof *ask, comm);
    memcpy(fill, sd, (size_t)P * sizeof *fill);
    for (int32_t v = 0; v < nl; v++)
        if (cmap[v] < 0 && !(leader[v] >= lo && leader[v] < hi) && leader[v] >= 0 && leader[v] < d->n) {
            const int r = dist_owner(d->vtxdist, P, leader[v]);
            cmap[v] = ask[fill[r]];
            fill[r] += 3;
        }
    free(fill), free(asked), free(ask), free(c);
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm);
    if (any) {
        free(w);
        return error_set(err, COARSEN_ERR_INPUT, "mpi map: the groups are not led by their leaders (or the mates "
                                                 "are not a symmetric pairing)");
    }
    dist_ghosts_exchange(gh, cmap, sizeof *cmap, comm, err); /* the neighbours' ids, for the contraction */
    *nc = (int32_t)total;
    int64_t k = 0; /* the leaders' weights in order: the coarse blocks, of about equal work */
    for (int32_t v = 0; v < nl; v++)
        if (leader[v] == lo + v)
            w[k++] = w[v];
    dist_blocks_weighted(leaders, w, cvtx, comm);
    free(w);
    return COARSEN_OK;
}

int dist_map_from_mates(const dist_graph *d, const dist_ghosts *gh, const int32_t *mate, int32_t *cmap, int32_t *nc,
                        int64_t *cvtx, MPI_Comm comm, coarsen_error *err)
{
    const int32_t nl = gh->nlocal, lo = d->first;
    int32_t *leader = dist_alloc((size_t)nl, sizeof *leader, "map leaders", comm, err);
    for (int32_t v = 0; v < nl; v++)
        leader[v] = mate[v] < 0 || lo + v < mate[v] ? lo + v : mate[v];
    int rc = dist_map_from_leaders(d, gh, leader, mate, cmap, nc, cvtx, NULL, comm, err);
    free(leader);
    return rc;
}

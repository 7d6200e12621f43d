/* map.c — the distributed map from mates (map.h). A leader (unmatched, or
 * the smaller of its pair) takes the next id; its partner reads it, from
 * this rank or, by one request and one reply, from the partner's owner. */
#include "dist/map.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

int dist_map_from_mates(const dist_graph *d, const dist_ghosts *gh, const int32_t *mate, int32_t *cmap, int32_t *nc,
                        int64_t *cvtx, MPI_Comm comm, coarsen_error *err)
{
    const int P = d->nranks;
    const int32_t nl = gh->nlocal, lo = d->first, hi = d->first + nl;
    int64_t leaders = 0, before = 0;
    for (int32_t v = 0; v < nl; v++)
        leaders += mate[v] < 0 || lo + v < mate[v];
    MPI_Exscan(&leaders, &before, 1, MPI_INT64_T, MPI_SUM, comm);
    if (d->rank == 0)
        before = 0; /* MPI_Exscan leaves rank 0's result undefined */
    int64_t total = 0;
    MPI_Allreduce(&leaders, &total, 1, MPI_INT64_T, MPI_SUM, comm);
    int32_t next = (int32_t)before;
    for (int32_t v = 0; v < nl; v++)
        cmap[v] = mate[v] < 0 || lo + v < mate[v] ? next++ : -1;
    /* followers: a leader here is read directly, one elsewhere asked for as
     * (leader, follower), answered with its id after checking the pair */
    int *c = xmalloc(4 * (size_t)P * sizeof *c, "map plan", err);
    if (!c)
        MPI_Abort(comm, COARSEN_ERR_NOMEM); /* the others are in the exchanges below (dist.h) */
    int *sc = c, *sd = c + P, *rc = c + 2 * P, *rd = c + 3 * P;
    memset(sc, 0, (size_t)P * sizeof *sc);
    int bad = 0;
    for (int32_t v = 0; v < nl; v++) {
        if (cmap[v] >= 0)
            continue;
        if (mate[v] >= lo && mate[v] < hi) {
            int32_t u = mate[v] - lo;
            if (mate[u] != lo + v)
                bad = 1;
            else
                cmap[v] = cmap[u];
        } else if (mate[v] < 0 || mate[v] >= d->n) {
            bad = 1;
        } else {
            sc[dist_owner(d->vtxdist, P, mate[v])] += 2;
        }
    }
    MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, comm);
    int64_t ns = 0, nr = 0;
    for (int r = 0; r < P; r++)
        sd[r] = (int)ns, ns += sc[r], rd[r] = (int)nr, nr += rc[r];
    int32_t *ask = xmalloc((size_t)(ns ? ns : 1) * sizeof *ask, "map requests", err);
    int32_t *asked = ask ? xmalloc((size_t)(nr ? nr : 1) * sizeof *asked, "map requests", err) : NULL;
    int *fill = asked ? xmalloc((size_t)P * sizeof *fill, "map plan", err) : NULL;
    if (!fill)
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    memcpy(fill, sd, (size_t)P * sizeof *fill);
    for (int32_t v = 0; v < nl; v++)
        if (cmap[v] < 0 && !(mate[v] >= lo && mate[v] < hi) && mate[v] >= 0 && mate[v] < d->n) {
            int r = dist_owner(d->vtxdist, P, mate[v]);
            ask[fill[r]++] = mate[v];
            ask[fill[r]++] = lo + v;
        }
    MPI_Alltoallv(ask, sc, sd, MPI_INT32_T, asked, rc, rd, MPI_INT32_T, comm);
    for (int64_t j = 0; j < nr; j += 2) { /* the answer replaces the leader's id; the follower's slot is unused */
        int32_t u = asked[j] - lo;
        if (mate[u] != asked[j + 1] || cmap[u] < 0)
            bad = 1;
        asked[j] = cmap[u];
    }
    MPI_Alltoallv(asked, rc, rd, MPI_INT32_T, ask, sc, sd, MPI_INT32_T, comm);
    memcpy(fill, sd, (size_t)P * sizeof *fill);
    for (int32_t v = 0; v < nl; v++)
        if (cmap[v] < 0 && !(mate[v] >= lo && mate[v] < hi) && mate[v] >= 0 && mate[v] < d->n) {
            int r = dist_owner(d->vtxdist, P, mate[v]);
            cmap[v] = ask[fill[r]];
            fill[r] += 2;
        }
    free(fill), free(asked), free(ask), free(c);
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm);
    if (any)
        return error_set(err, COARSEN_ERR_INPUT, "mpi map: the mates are not a symmetric pairing");
    dist_ghosts_exchange(gh, cmap, sizeof *cmap, comm, err); /* the neighbours' ids, for the contraction */
    *nc = (int32_t)total;
    /* the coarse blocks, of about equal work: a leader's coarse row is about
     * its own row and its partner's (here, or taken as long as its own) */
    int64_t *w = xmalloc((size_t)(leaders ? leaders : 1) * sizeof *w, "coarse blocks", err);
    if (!w)
        MPI_Abort(comm, COARSEN_ERR_NOMEM);
    int64_t k = 0;
    const coarsen_graph *l = d->local;
    for (int32_t v = 0; v < nl; v++)
        if (mate[v] < 0 || lo + v < mate[v]) {
            int64_t deg = l->xadj[v + 1] - l->xadj[v];
            int64_t other = mate[v] < 0 ? 0 : mate[v] < hi ? l->xadj[mate[v] - lo + 1] - l->xadj[mate[v] - lo] : deg;
            w[k++] = 1 + deg + other;
        }
    dist_blocks_weighted(leaders, w, cvtx, comm);
    free(w);
    return COARSEN_OK;
}

/* map.c — the distributed map from mates (map.h). A leader (unmatched, or
 * the smaller of its pair) takes the next id; its partner reads it, through
 * the ghost layer when the pair crosses ranks. */
#include "dist/map.h"

#include "core/error.h"

int dist_map_from_mates(const dist_graph *d, const dist_ghosts *gh, const int32_t *mate, int32_t *cmap, int32_t *nc,
                        MPI_Comm comm, coarsen_error *err)
{
    const int32_t nl = gh->nlocal;
    int64_t leaders = 0, before = 0;
    for (int32_t v = 0; v < nl; v++)
        leaders += mate[v] < 0 || d->first + v < mate[v];
    MPI_Exscan(&leaders, &before, 1, MPI_INT64_T, MPI_SUM, comm);
    if (d->rank == 0)
        before = 0; /* MPI_Exscan leaves rank 0's result undefined */
    int64_t total = 0;
    MPI_Allreduce(&leaders, &total, 1, MPI_INT64_T, MPI_SUM, comm);
    int32_t next = (int32_t)before;
    for (int32_t v = 0; v < nl; v++)
        cmap[v] = mate[v] < 0 || d->first + v < mate[v] ? next++ : -1;
    dist_ghosts_exchange(gh, cmap, sizeof *cmap, comm, err); /* the leaders' ids */
    int bad = 0;
    for (int32_t v = 0; v < nl; v++)
        if (cmap[v] < 0) {
            int32_t x = dist_ghosts_index(d, gh, mate[v]);
            if (x < 0 || cmap[x] < 0)
                bad = 1;
            else
                cmap[v] = cmap[x];
        }
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm);
    if (any)
        return error_set(err, COARSEN_ERR_INPUT, "mpi map: a pair is not an edge or not symmetric");
    dist_ghosts_exchange(gh, cmap, sizeof *cmap, comm, err); /* the partners' ids too */
    *nc = (int32_t)total;
    return COARSEN_OK;
}
